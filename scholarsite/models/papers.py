"""The content model of papers: a paper, its authors, date, links and preview.

A paper from Markdown and a paper from BibTeX are the same `Paper`."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path

from .wording import N_

MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August",
               "September", "October", "November", "December")

# Each type's heading where papers are grouped by type, and its name in search results.
TYPE_LABELS = {
    "conference": N_("Conference Papers"), "journal": N_("Journal Articles"),
    "preprint": N_("Preprints"), "report": N_("Technical Reports"), "thesis": N_("Theses"),
    "book": N_("Books"), "chapter": N_("Book Chapters"), "patent": N_("Patents"),
    "other": N_("Other"),
}
PAPER_TYPES = ("conference", "journal", "preprint", "report", "thesis", "book", "chapter", "patent", "other")

# Joins a paper's topics in the publication filters' data (so no topic may hold it).
TOPIC_SEPARATOR = "|"

# The link kinds a paper may carry, in the order they are shown.
LINK_KINDS = ("pdf", "code", "slides", "video", "poster", "supp", "html", "doi", "arxiv", "url")


@dataclass(frozen=True, order=True, slots=True)
class PubDate:
    """A publication date as precise as the source gives it: a year, a month, or a day."""
    year: int
    month: int | None = None
    day: int | None = None

    def sort_key(self) -> tuple[int, int, int]:
        return (self.year, self.month or 0, self.day or 0)

    def iso(self) -> str:
        """YYYY, YYYY-MM or YYYY-MM-DD: the precision of the source, no more."""
        parts = [f"{self.year:04d}"]
        if self.month:
            parts.append(f"{self.month:02d}")
            if self.day:
                parts.append(f"{self.day:02d}")
        return "-".join(parts)

    def full(self) -> str:
        """YYYY-MM-DD, a missing month or day as the first: for sitemaps, Atom."""
        return f"{self.year:04d}-{self.month or 1:02d}-{self.day or 1:02d}"

    def human(self) -> str:
        """'July 2026', '3 July 2026' or '2026'."""
        if not self.month:
            return str(self.year)
        month = MONTH_NAMES[self.month - 1]
        return f"{self.day} {month} {self.year}" if self.day else f"{month} {self.year}"


@dataclass(frozen=True)
class Author:
    """One author as shown: the full name, and the markers (e.g. '*', '†') that follow it."""
    name: str
    marks: tuple[str, ...] = ()
    # The name's parts, for exports and people matching, as reading/names.py reads them;
    # kept only where the name's last word is not its family name ('Petrova, Elena',
    # 'Ricardo de Lima', 'John Smith Jr.'), so that one name is one Author however read.
    family: str = ""
    given: str = ""
    suffix: str = ""  # 'Jr.', 'III'

    def __reduce__(self) -> tuple:
        # Read back as one object per author and process: the build takes its papers from
        # its workers, pickled, and 45,000 authors of 5,000 papers were 800 people (9 MB).
        return shared_author, (self.name, self.marks, self.family, self.given, self.suffix)

    def family_name(self) -> str:
        if self.family:
            return self.family
        return self.name.rsplit(" ", 1)[-1]

    def given_names(self) -> str:
        if self.family:
            return self.given
        parts = self.name.rsplit(" ", 1)
        return parts[0] if len(parts) == 2 else ""


@functools.cache
def shared_author(*fields: object) -> Author:
    """The one Author of these fields in this process (Author.__reduce__)."""
    return Author(*fields)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class Link:
    kind: str  # one of LINK_KINDS, or "more": a link of `links.more`, shown by its `label`
    url: str
    label: str = ""


@dataclass(frozen=True)
class Preview:
    """A paper's preview picture as its source names it: 'files/REL' (a file of
    content/files/), or a bare name as al-folio writes it (views/looks.py finds the file),
    and the line that names it, where a problem with the file is reported."""
    name: str
    line: int = field(compare=False)  # where, not what: papers compare without it


@dataclass(frozen=True, slots=True)  # no dict of its own: 1.3 KB less a paper
class Paper:
    slug: str
    title: str
    authors: tuple[Author, ...]
    date: PubDate | None  # None for a paper with a `status` and no year yet, or undated
    type: str
    source: Path  # the file the paper was read from
    line: int  # the line where the paper starts in that file (1-based)
    venue: str = ""
    venue_short: str = ""
    location: str = ""
    tier: str = ""
    category: str = ""
    topics: tuple[str, ...] = ()
    links: tuple[Link, ...] = ()
    citation: str = ""  # an explicit recommended citation; overrides the generated one
    selected: bool = False
    award: str = ""
    note: str = ""
    more_authors: bool = False  # "et al.": the source lists only the first authors
    volume: str = ""  # this and what follows, to `arxiv`: for exports and Google Scholar
    number: str = ""
    pages: str = ""
    publisher: str = ""
    institution: str = ""  # a report's, a thesis's university
    isbn: str = ""  # a book's, or the book a chapter or proceedings paper is in
    editors: tuple[Author, ...] = ()  # of the book or proceedings the paper is in
    doi: str = ""
    arxiv: str = ""
    abstract_html: str = ""  # ready to insert: rendered Markdown, or escaped BibTeX text
    abstract_text: str = ""  # plain text, for meta descriptions and search
    # The title as HTML with its math as MathML; '' when it has none (`title` is then
    # all there is). `title` is always plain text, each formula in Unicode.
    title_html: str = ""
    bibtex_key: str = ""
    bibtex_type: str = ""  # set for a paper read (or imported) from BibTeX
    # Any other field the source had, kept so that exports lose nothing. For a paper read
    # from BibTeX: all of its entry's fields as written, which its BibTeX export repeats.
    extra: tuple[tuple[str, str], ...] = ()
    preview: Preview | None = None  # shown beside the paper in lists and on its page
    # (tag, title as text, title as HTML, abstract as HTML, abstract as text)
    translations: tuple[tuple[str, str, str, str, str], ...] = ()
    language: str = ""  # the tag of what it is written in; '' until the loader gives the site's first
    status: str = ""  # reading/settings/fields.PUB_STATUSES ('in press'); '' when published

    def sort_key(self) -> tuple:  # newest first within a group, ties by slug: a total order
        # No year yet (a status): newest; undated (a web page, no status): after every year.
        y, m, d = self.date.sort_key() if self.date else (10_000 if self.status else -1, 0, 0)
        return (-y, -m, -d, self.slug)

    def link(self, kind: str) -> str:
        for link in self.links:
            if link.kind == kind:
                return link.url
        return ""
