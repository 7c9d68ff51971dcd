"""BibTeX as a source of papers: every `.bib` file under content/publications/.

Each file is read on its own (bibparse), each entry made a `Paper` (bibpaper) by the same
rules as a Markdown paper; all problems of a file are reported together, never raised.
"""

from __future__ import annotations

from pathlib import Path

from .bibpaper import make_paper
from .bibparse import inherit_crossrefs, parse_entries
from ..diagnostics import Diagnostics
from ..models import Paper
from .slugs import split_repeats
from .yamlread import read_text

# biblatex entries that are not publications: @set groups entries, @xdata holds shared data.
CONTAINER_TYPES = ("set", "xdata")


def read_bib_file(path: Path, diags: Diagnostics) -> list[Paper]:
    """Every paper in one .bib file; problems are reported, never raised."""
    text = read_text(path, diags)
    if text is None:
        return []
    return read_bib_text(path, text, diags)


def read_bib_text(path: Path, text: str, diags: Diagnostics) -> list[Paper]:
    start = len(diags.items)
    entries = parse_entries(path, text, diags)
    entries, parents = inherit_crossrefs(entries, path, diags)
    papers = []
    for entry in entries:
        if entry.key.lower() in parents:
            continue  # a proceedings or book that papers crossref: shown through them
        if entry.type in CONTAINER_TYPES:
            diags.warning(path, entry.line, f"entry '{entry.key}': biblatex @{entry.type} "
                          "entries only group or feed other entries; it is skipped")
            continue
        paper = make_paper(entry, path, diags)
        if paper is not None:
            papers.append(paper)
    papers = check_keys(papers, path, diags)
    diags.sort_since(start)
    return papers


def check_keys(papers: list[Paper], path: Path, diags: Diagnostics) -> list[Paper]:
    """Two entries with one key, or keys that make one slug, would write one page."""
    unique, repeats = split_repeats(papers, lambda paper: paper.slug)
    for paper, other in repeats:
        same = other.bibtex_key == paper.bibtex_key
        diags.error(path, paper.line, f"entry '{paper.bibtex_key}': " + (
            f"the key is used twice (also line {other.line}); rename one" if same else
            f"makes the page address '{paper.slug}' as entry '{other.bibtex_key}' "
            f"(line {other.line}) does; rename one key"))
    return unique
