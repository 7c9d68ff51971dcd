"""Jupyter notebooks beside papers and texts: content/publications/x.ipynb is the notebook
of the paper whose slug is x (publications/x.md, or a BibTeX entry of key x), shown on
that paper's page below its abstract; projects/x.ipynb beside projects/x.md (or a post's,
posts/x.ipynb beside posts/x.md) is shown on that page below its text. Each is rendered
as a notebook post is (reading/notebooks.py: its fields from its metadata or a sibling
x.yaml), with its pictures and the file itself published beside the page
(plan/notebookfiles.py). (A notebook alone in projects/ or posts/ is a project or a post
of its own: reading/collections.py.)

A notebook beside no paper is a warning, never left out in silence: its name is most
likely a paper's misspelt, or it was meant as a post. So is a notebook in a folder that
reads Markdown only (talks/, news/, people/, ...).
"""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Callable

from ..diagnostics import Diagnostics
from ..models import Item
from .collections import (PAGES, SCHEMAS, TEXT_SUFFIXES, Context, Schema, is_beside_text,
                          read_item)
from .layout import PAPERS_DIR, is_paper_path
from .listing import list_files
from .notebooks import NOTEBOOK_SUFFIX
from .roster import PEOPLE_DIR
from .slugs import split_repeats


def notebook_schema(folder: str) -> Schema:
    """A notebook beside a paper or text, read as an item of its own at their address: no
    field of a collection, and a title only if it has one (its first heading, `title`)."""
    return Schema(folder, "Notebooks", "notebook", (), "", "", date_required=False,
                  title_required=False)


PAPER_NOTEBOOK = notebook_schema(PAPERS_DIR)


def read_notebooks_beside(ctx: Context, diags: Diagnostics) -> tuple[Item, ...]:
    """The papers' notebooks, then those beside a text of projects/ or posts/."""
    found = list(read_paper_notebooks(ctx, diags))
    for folder in TEXT_SUFFIXES:
        for path in list_files(ctx.content_dir / folder, ctx.content_dir, diags,
                               (NOTEBOOK_SUFFIX,)):
            item = read_item(path, notebook_schema(folder), ctx, diags) \
                if is_beside_text(path) else None
            found += [item] if item is not None else []
    return tuple(found)


def read_paper_notebooks(ctx: Context, diags: Diagnostics) -> tuple[Item, ...]:
    """The notebooks in content/publications/, each named after its paper's slug."""
    paths = list_files(ctx.content_dir / PAPERS_DIR, ctx.content_dir, diags,
                       (NOTEBOOK_SUFFIX,))
    read = []
    for path in paths:
        if path.stem not in ctx.paper_slugs:
            warn_beside_no_paper(path, ctx.paper_slugs, diags)
            continue
        item = read_item(path, PAPER_NOTEBOOK, ctx, diags)
        if item is not None:
            read.append(item)
    notebooks, repeats = split_repeats(read, lambda item: item.slug)
    for item, other in repeats:
        diags.error(item.source, 1, f"the paper '{item.slug}' has two notebooks: this one "
                    f"and {other.source.as_posix()}; keep one")
    return tuple(notebooks)


def warn_beside_no_paper(path: Path, slugs: frozenset[str], diags: Diagnostics) -> None:
    close = difflib.get_close_matches(path.stem, sorted(slugs), n=1, cutoff=0.8)
    hint = f"did you mean {close[0]}{NOTEBOOK_SUFFIX}?" if close else (
        "name it after its paper (publications/SLUG.md, or a BibTeX entry's key), or "
        "move it to posts/ to make it a post of its own")
    diags.warning(path, 0, f"this notebook is not published: there is no paper "
                  f"'{path.stem}' for it to be shown with; {hint}")


def is_paper_notebook(content_dir: Path) -> Callable[[str], bool]:
    """Whether an absolute path is of a notebook in `content_dir`'s publications/."""
    return is_paper_path(content_dir, (NOTEBOOK_SUFFIX,))


# The folders whose files are read as Markdown only: a notebook there is published nowhere.
MARKDOWN_ONLY = tuple(name for name in (*(s.name for s in SCHEMAS), PAGES.name, PEOPLE_DIR)
                      if name not in TEXT_SUFFIXES)


def warn_stray_notebooks(ctx: Context, diags: Diagnostics) -> None:
    """A warning for each notebook in a folder of MARKDOWN_ONLY."""
    for name in MARKDOWN_ONLY:
        for path in list_files(ctx.content_dir / name, ctx.content_dir, diags,
                               (NOTEBOOK_SUFFIX,)):
            diags.warning(path, 0, f"this notebook is not published: {name}/ reads Markdown "
                          "files only; a notebook is a post (posts/), a project (projects/) "
                          f"or a paper's (publications/SLUG{NOTEBOOK_SUFFIX})")
