"""COinS (ContextObjects in Spans, https://en.wikipedia.org/wiki/COinS): an OpenURL in an
empty `<span class="Z3988">` beside each paper of a list, which Zotero's connector and other
reference managers pick up from a page with many papers (the publications list), where
Google Scholar's tags, one paper's, cannot say which is which.

The keys are those of OpenURL's journal, book, dissertation and patent formats (Z39.88-2004
KEV), used as Zotero's OpenURL reader reads them: the format picks the item type (in the
book format, with the genre), `atitle` is an article's title where `title` would be its
journal's, and the creators are the first author's `aulast`/`aufirst` and every author's
`au`, in order (two authors as two `aulast`/`aufirst` pairs are matched by name, so that
'Wei Wang' went after 'Weixun Wang', and an `aucorp` goes first, whatever its place).
"""

from __future__ import annotations

import functools
from urllib.parse import quote_plus, urlencode

from .citations import container_title, family_given, split_pages
from .names import is_corporate, name_parts
from ..models import Author, Paper

# The format and genre of each type: (format, genre).
GENRES = {"journal": ("journal", "article"), "conference": ("book", "proceeding"),
          "preprint": ("journal", "preprint"), "report": ("book", "report"),
          "thesis": ("dissertation", ""), "book": ("book", "book"),
          "chapter": ("book", "bookitem"), "patent": ("patent", ""),
          "other": ("journal", "unknown")}
# The key of the paper's own title in its format: an article's is `atitle` (in the journal
# format `title` is the journal's), a book's or a report's `btitle`.
_TITLE_KEYS = {"journal": "atitle", "book": "btitle", "dissertation": "title",
               "patent": "title"}
_VENUE_KEYS = {"journal": "jtitle", "book": "btitle"}
# urlencode's quoting, kept per text: the keys and most names (the owner, frequent
# co-authors) come back paper after paper, and quoting is a loop over each byte.
_quote = functools.lru_cache(maxsize=8192)(quote_plus)


def make_coins(paper: Paper, page_url: str) -> str:
    """The title attribute of the paper's COinS span: the OpenURL's query."""
    form, genre = GENRES[paper.type]
    pairs = [("ctx_ver", "Z39.88-2004"), ("rft_val_fmt", f"info:ofi/fmt:kev:mtx:{form}")]
    if paper.doi:
        pairs.append(("rft_id", f"info:doi/{paper.doi}"))
    pairs.append(("rft_id", page_url))
    if genre:
        pairs.append(("rft.genre", genre))
    is_part = paper.type in ("conference", "chapter")  # a part of a book
    pairs.append(("rft.atitle" if is_part else f"rft.{_TITLE_KEYS[form]}", paper.title))
    venue = container_title(paper)
    if venue and (is_part or form == "journal"):
        pairs.append((f"rft.{_VENUE_KEYS[form]}", venue))
    if paper.date:
        pairs.append(("rft.date", paper.date.iso()))
    pairs += creator_pairs(paper.authors)
    first, last = split_pages(paper.pages)
    publisher = paper.publisher or paper.institution
    pairs += [("rft.volume", paper.volume), ("rft.issue", paper.number),
              ("rft.spage", first), ("rft.epage", last),
              ("rft.pub" if paper.type != "thesis" else "rft.inst", publisher),
              ("rft.isbn" if form == "book" else "", paper.isbn)]
    return urlencode([(key, value) for key, value in pairs if key and value], quote_via=_quote)


def creator_pairs(authors: tuple[Author, ...]) -> list[tuple[str, str]]:
    """The first author as `aulast`/`aufirst` (a corporate one as `aucorp`), then every
    author as `au`: 'Family, Given', which Zotero splits at the comma ('de Lima, Ricardo'),
    or a one-word name as it is, a person's ('乔林'). A first author without a given name
    is only its `au` (Zotero would add a lone `aulast` as a second creator), a first
    corporate one only its `aucorp` (an `au` would split it)."""
    if not authors:
        return []
    family, given, _ = name_parts(authors[0])
    if is_corporate(authors[0]):
        pairs, rest = [("rft.aucorp", family)], authors[1:]
    else:
        pairs = [("rft.aulast", family), ("rft.aufirst", given)] if given else []
        rest = authors
    return pairs + [("rft.au", family_given(author)) for author in rest]
