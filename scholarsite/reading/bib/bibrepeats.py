"""Papers given more than once: an entry repeated, two entries under one key, one paper in
two sources. Exported .bib files have all three (al-folio sites split papers over
papers.bib and preprints.bib, and a reference manager reuses a key), so none of them costs
the site: each is kept or dropped by a rule, with a warning that names both places.

Used for the entries of one .bib file (bibtex.read_site_bib) and, once every file is read,
for all the site's papers (loader.check_slugs, which the live preview calls as well).
"""

from __future__ import annotations

import dataclasses
import re
import string
import unicodedata
from pathlib import Path

from ...diagnostics import Diagnostics
from ...models import Paper

_NOWHERE = Path()
MAX_KEYS_SHOWN = 5  # of a file's repeats, named in its one warning
_ASCII_NOT_ALNUM = (string.punctuation + string.whitespace).encode("ascii")
_NOT_ALNUM = re.compile(r"[\W_]+")  # accents too, once NFKD has split them off


def keep_repeats(papers: list[Paper], diags: Diagnostics) -> list[Paper]:
    """The papers with one page address each. A paper that repeats another exactly
    (but for where it is) is kept once; another paper from a .bib file with a taken
    address gets the first free one of slug-2, slug-3, ... (the same while the files are);
    a Markdown paper's address is its file name, so it keeps it, and two Markdown papers
    with one address are an error. Returned in the order given."""
    taken = {paper.slug for paper in papers}  # a new address takes none of these
    if len(taken) == len(papers):
        return papers  # nothing to settle: the usual case, said at once
    holders: dict[str, Paper] = {}
    kept: dict[int, Paper] = {}
    exact: list[tuple[Paper, Paper]] = []  # (a repeat, the paper it repeats)
    # Markdown papers first: a .bib paper moves out of their way, never the reverse.
    for i in sorted(range(len(papers)), key=lambda i: is_bib(papers[i])):
        paper = papers[i]
        other = holders.get(paper.slug)
        if other is None:
            holders[paper.slug] = kept[i] = paper
        elif not is_bib(paper):
            diags.error(paper.source, paper.line, f"two papers have the slug '{paper.slug}': "
                        f"this one and {other.source.as_posix()}:{other.line}; rename one")
        elif same_entry(paper, other):
            exact.append((paper, other))
        else:
            slug = next_free(paper.slug, taken)
            taken.add(slug)
            holders[slug] = kept[i] = dataclasses.replace(paper, slug=slug)
            diags.warning(paper.source, paper.line, f"{name(paper)} and {name(other)} at "
                          f"{place(other, paper)} would both have the page address "
                          f"'{paper.slug}' but differ; both are kept, this one as '{slug}'")
    warn_exact_repeats(exact, diags)
    return [kept[i] for i in sorted(kept)]


def warn_exact_repeats(exact: list[tuple[Paper, Paper]], diags: Diagnostics) -> None:
    """One warning for each file's exact repeats of one other file (or of itself): a
    .bib copied beside its original repeats every entry, and is one mistake, not one per
    entry."""
    groups: dict[tuple[Path, Path], list[tuple[Paper, Paper]]] = {}
    for paper, other in exact:
        groups.setdefault((paper.source, other.source), []).append((paper, other))
    for pairs in groups.values():
        paper, other = pairs[0]
        if len(pairs) == 1:
            diags.warning(paper.source, paper.line, f"{name(paper)} repeats {name(other)} "
                          f"at {place(other, paper)} exactly; it is shown once")
            continue
        keys = [f"'{p.bibtex_key}'" for p, _ in pairs]
        shown = ", ".join(keys[:MAX_KEYS_SHOWN]) + (
            f" and {len(keys) - MAX_KEYS_SHOWN} more" if len(keys) > MAX_KEYS_SHOWN else "")
        if other.source == paper.source:
            diags.warning(paper.source, paper.line, f"{len(pairs)} entries of this file "
                          f"repeat others of it exactly ({shown}); each is shown once")
            continue
        diags.warning(paper.source, paper.line, f"{len(pairs)} entries of this file repeat "
                      f"those of {other.source.as_posix()} exactly ({shown}); each is shown "
                      "once: if one file is a copy of the other, remove it")


def drop_same_papers(papers: list[Paper], diags: Diagnostics) -> list[Paper]:
    """The papers less a .bib entry that a Markdown paper is too (the same DOI, or the same
    title, case, accents, spacing and punctuation aside, and year): the Markdown file,
    written by hand, wins, with a warning at the entry. The same paper in two .bib files
    or two Markdown files is kept twice, with a warning: which one is meant is not clear.
    Returned in the order given."""
    seen: dict[tuple, Paper] = {}
    dropped: set[int] = set()
    # Markdown papers first, so that an entry is compared with them whatever the order.
    for i in sorted(range(len(papers)), key=lambda i: is_bib(papers[i])):
        paper = papers[i]
        for identity in identities(paper):
            other = seen.setdefault(identity, paper)
            if other is paper or other.source == paper.source:
                continue
            what = f"DOI {paper.doi}" if identity[0] == "doi" else "title and year"
            if is_bib(paper) and not is_bib(other):
                dropped.add(i)
                diags.warning(paper.source, paper.line, f"{name(paper)} has the {what} of "
                              f"{name(other)} at {place(other, paper)}: the same paper, "
                              "listed once, as the Markdown file gives it; remove the entry, "
                              "or the file")
            else:
                diags.warning(paper.source, paper.line, f"{name(paper)} has the {what} of "
                              f"{name(other)} at {place(other, paper)}: the same paper is "
                              "listed twice; remove one, or tell them apart")
            break
    return [paper for i, paper in enumerate(papers) if i not in dropped]


def identities(paper: Paper) -> list[tuple]:
    found: list[tuple] = [("doi", paper.doi.lower())] if paper.doi else []
    title = fold_title(paper.title)
    year = paper.date.year if paper.date else paper.status
    return found + [("title", title, year)] if title else found


def fold_title(title: str) -> bytes:
    """'Über {GPUs}: a Study' and 'Uber GPUs - A study' alike: b'ubergpusastudy'."""
    if title.isascii():  # most are, and bytes delete by table at C speed
        return title.encode("ascii").lower().translate(None, _ASCII_NOT_ALNUM)
    folded = unicodedata.normalize("NFKD", title).casefold()
    return _NOT_ALNUM.sub("", folded).encode("utf-8")


def same_entry(paper: Paper, other: Paper) -> bool:
    """Whether two papers say the same in every field; where each is written aside."""
    return dataclasses.replace(paper, source=_NOWHERE, line=0) == \
        dataclasses.replace(other, source=_NOWHERE, line=0)


def next_free(slug: str, taken: set[str]) -> str:
    number = 2
    while f"{slug}-{number}" in taken:
        number += 1
    return f"{slug}-{number}"


def is_bib(paper: Paper) -> bool:
    return paper.source.suffix.lower() == ".bib"


def name(paper: Paper) -> str:
    return f"entry '{paper.bibtex_key}'" if is_bib(paper) else "the paper"


def place(other: Paper, paper: Paper) -> str:
    """Where `other` is, as seen from `paper`: its line, or its file and line."""
    if other.source == paper.source:
        return f"line {other.line}"
    return f"{other.source.as_posix()}:{other.line}"
