"""BibTeX as a source of papers: every `.bib` file under content/publications/.

Each file is read on its own (bibparse), each entry made a `Paper` (bibpaper) by the same
rules as a Markdown paper; all problems of a file are reported together, never raised.

A site's .bib file is usually exported by another tool, so the site reads it leniently
(read_site_bib): an entry that cannot become a paper is reported at its line and left out,
and one summary line per file says how many were; `--strict` makes all of it errors again,
for CI. `import-bib` reads strictly (read_bib_text): nothing is imported from a file with
an error.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from .bibpaper import make_paper
from .bibparse import inherit_crossrefs, parse_library
from .bibrepeats import keep_repeats
from ...diagnostics import Diagnostics
from ...models import Paper
from ..slugs import split_repeats
from ..settings.yamlread import decode_text, read_text

# biblatex entries that are not publications: @set groups entries, @xdata holds shared data.
CONTAINER_TYPES = ("set", "xdata")
NAMED_LEFT_OUT = 5  # entries the summary names; the others are counted


def read_bib_file(path: Path, diags: Diagnostics) -> list[Paper]:
    """Every paper in one .bib file; problems are reported, never raised."""
    text = read_text(path, diags)
    if text is None:
        return []
    return read_bib_text(path, text, diags)


def read_bib_text(path: Path, text: str, diags: Diagnostics) -> list[Paper]:
    """The file's papers; an entry that cannot be one, or that repeats a key, is an error."""
    start = len(diags.items)
    papers, _ = read_papers(path, text, diags)
    papers = check_keys(papers, path, diags)
    diags.sort_since(start)
    return papers


def read_site_bib(path: Path, data: bytes, diags: Diagnostics) -> list[Paper]:
    """The papers of one of the site's .bib files (its bytes): what would be an error is
    a warning, an entry that cannot be a paper is left out (and named at the end), an
    entry given twice is kept once, and two entries under one key are both kept
    (bibrepeats.keep_repeats). A file not in UTF-8 is read as the exports of Windows
    programs are saved (yamlread.decode_western). A file that cannot be read at all is an
    error: no content file falls out of a published site with a warning."""
    found = diags.empty_copy()
    text = decode_text(data, path, found, legacy=True)
    if text is None:
        papers, left_out = [], [(0, "the whole file")]
    else:
        papers, left_out = read_papers(path, text, found)
    total = len(papers) + len(left_out)
    papers = keep_repeats(papers, found)
    found.sort_since(0)
    severity = "warning" if text is not None else "error"  # not read at all: an error
    diags.add_all([dataclasses.replace(d, severity=severity) for d in found.items])
    if left_out:  # at the first entry left out (or line 1): every problem has a line
        report = diags.warning if severity == "warning" else diags.error
        report(path, left_out[0][0] or 1, describe_left_out(left_out, total))
    return papers


def read_papers(path: Path, text: str, diags: Diagnostics
                ) -> tuple[list[Paper], list[tuple[int, str]]]:
    """The papers the file's entries make, and (line, name) of each entry that makes
    none, its problems reported."""
    library = parse_library(path, text, diags)
    entries, parents = inherit_crossrefs(library.entries, path, diags)
    papers: list[Paper] = []
    left_out = list(library.unread)
    for entry in entries:
        if entry.key.lower() in parents:
            continue  # a proceedings or book that papers crossref: shown through them
        if entry.type in CONTAINER_TYPES:
            diags.warning(path, entry.line, f"entry '{entry.key}': biblatex @{entry.type} "
                          "entries only group or feed other entries; it is skipped")
            continue
        paper = make_paper(entry, path, diags)
        if paper is None:
            left_out.append((entry.line, f"'{entry.key}'"))
        else:
            papers.append(paper)
    return papers, sorted(left_out)


def describe_left_out(left_out: list[tuple[int, str]], total: int) -> str:
    """The file's summary: how many entries are not on the site, and which."""
    if left_out == [(0, "the whole file")]:
        return "the whole file is left out of the site: none of it could be read"
    names = ", ".join(f"{name} (line {line})" for line, name in left_out[:NAMED_LEFT_OUT])
    more = len(left_out) - NAMED_LEFT_OUT
    names += f" and {more} more" if more > 0 else ""
    verb = "is" if len(left_out) == 1 else "are"
    return (f"{len(left_out)} of {total} entries {verb} left out of the site: {names}; "
            "the warnings above say why (--strict makes them errors)")


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
