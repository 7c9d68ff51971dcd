"""COinS (ContextObjects in Spans, https://en.wikipedia.org/wiki/COinS): an OpenURL in an
empty `<span class="Z3988">` beside each paper of a list, which Zotero's connector and other
reference managers pick up from a page with many papers (the publications list), where
Google Scholar's tags, one paper's, cannot say which is which.

The keys are those of OpenURL's journal and book formats (Z39.88-2004 KEV).
"""

from __future__ import annotations

from urllib.parse import urlencode

from .citations import split_pages
from .names import name_parts
from ..models import Paper

# The format and genre of each type: (format, genre).
GENRES = {"journal": ("journal", "article"), "conference": ("book", "proceeding"),
          "preprint": ("journal", "preprint"), "report": ("book", "report"),
          "thesis": ("dissertation", ""), "book": ("book", "book"),
          "chapter": ("book", "bookitem"), "patent": ("patent", ""),
          "other": ("journal", "unknown")}
_TITLE_KEY = {"journal": "atitle", "conference": "atitle", "chapter": "atitle"}
_VENUE_KEY = {"journal": "jtitle", "conference": "btitle", "chapter": "btitle"}


def make_coins(paper: Paper, page_url: str) -> str:
    """The title attribute of the paper's COinS span: the OpenURL's query."""
    form, genre = GENRES[paper.type]
    pairs = [("ctx_ver", "Z39.88-2004"), ("rft_val_fmt", f"info:ofi/fmt:kev:mtx:{form}")]
    if paper.doi:
        pairs.append(("rft_id", f"info:doi/{paper.doi}"))
    pairs.append(("rft_id", page_url))
    if genre:
        pairs.append(("rft.genre", genre))
    pairs.append((f"rft.{_TITLE_KEY.get(paper.type, 'title')}", paper.title))
    venue = paper.venue or paper.venue_short
    if venue and paper.type in _VENUE_KEY:
        pairs.append((f"rft.{_VENUE_KEY[paper.type]}", venue))
    if paper.date:
        pairs.append(("rft.date", paper.date.iso()))
    for author in paper.authors:
        family, given, _ = name_parts(author)
        pairs += [("rft.aulast", family), ("rft.aufirst", given)] if given \
            else [("rft.aucorp", family)]
    first, last = split_pages(paper.pages)
    publisher = paper.publisher or paper.institution
    pairs += [("rft.volume", paper.volume), ("rft.issue", paper.number),
              ("rft.spage", first), ("rft.epage", last),
              ("rft.pub" if paper.type != "thesis" else "rft.inst", publisher),
              ("rft.isbn" if GENRES[paper.type][0] == "book" else "", paper.isbn)]
    return urlencode([(key, value) for key, value in pairs if key and value])
