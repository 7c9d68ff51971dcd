"""Where a site's papers are in its content folder: known to the command line's check
that nothing changed, which runs before the modules that read content are imported."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable

PAPERS_DIR = "publications"  # one Markdown file per paper, or BibTeX files
PAPER_SUFFIXES = (".md", ".markdown", ".bib")


def is_paper_path(content_dir: Path, suffixes: tuple[str, ...] = PAPER_SUFFIXES
                  ) -> Callable[[str], bool]:
    """Whether an absolute path is of a paper file of `content_dir`: read, and hashed,
    with the papers (or of another file of content/publications/ of `suffixes`)."""
    papers = os.path.join(os.path.abspath(content_dir), PAPERS_DIR) + os.sep
    return lambda path: path.startswith(papers) and path.lower().endswith(suffixes)
