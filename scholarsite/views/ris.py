"""RIS export: one reference per paper, for EndNote, Zotero, Mendeley and the like.

RIS is a fixed sequence of `TAG  - value` lines ending in `ER  - `, with no escaping, so it
is written here directly rather than through a library; tests read the output back with a
real RIS parser (rispy). Lines end in CRLF, as Zotero and EndNote write them.
"""

from __future__ import annotations

from .citations import (container_title, family_given, make_bibtex_key, split_pages,
                        status_note)
from ..models import Paper

# Zotero's RIS translator has no preprint type and reads UNPB as a journal article (its
# default); MANSCPT is its manuscript, with M3 its kind ("Preprint"), which EndNote reads too.
RIS_TYPES = {
    "conference": "CPAPER", "journal": "JOUR", "preprint": "MANSCPT", "report": "RPRT",
    "thesis": "THES", "book": "BOOK", "chapter": "CHAP", "patent": "PAT", "other": "GEN",
}
NEWLINE = "\r\n"


def ris_date(paper: Paper) -> str:
    """RIS dates are YYYY/MM/DD/other, with empty parts for what is unknown."""
    date = paper.date
    month = f"{date.month:02d}" if date.month else ""
    day = f"{date.day:02d}" if date.day else ""
    return f"{date.year:04d}/{month}/{day}/"


def ris_fields(paper: Paper, page_url: str, pdf_url: str = "") -> list[tuple[str, str]]:
    """The (tag, value) lines of one reference, in the usual order, empty values left out.
    Tags as Zotero's RIS translator reads them for each type: a conference's name in T2
    and its proceedings in C3, a book's publisher in PB (T2 would be its series), a
    report's number in SN."""
    first, last = split_pages(paper.pages)
    fields = [("TY", RIS_TYPES[paper.type]), ("ID", make_bibtex_key(paper)),
              ("TI", paper.title)]
    fields += [("AU", family_given(author)) for author in paper.authors]
    # Zotero reads A2 as the editor of a chapter, a proceedings or a journal, A3 as a
    # book's (A2 is the series editor of a book).
    editor_tag = "A3" if paper.type == "book" else "A2"
    fields += [(editor_tag, family_given(editor)) for editor in paper.editors]
    if paper.date:  # a paper in press has none: its status goes in a note
        fields += [("PY", str(paper.date.year)), ("DA", ris_date(paper))]
    fields += venue_fields(paper)
    fields += [("VL", paper.volume), ("IS" if paper.type != "report" else "SN", paper.number),
               ("SP", first), ("EP", last), ("PB", ris_publisher(paper)),
               ("CY" if paper.type != "conference" else "C1", paper.location),
               ("DO", paper.doi)]
    if paper.type not in ("journal", "report"):  # SN: their ISSN, a report's number
        fields.append(("SN", paper.isbn))
    if paper.type == "preprint":
        fields.append(("M3", "Preprint"))
    if paper.arxiv:  # Zotero keeps M1 as the item's Extra
        fields.append(("M1", f"arXiv:{paper.arxiv}"))
    external = paper.link("url") or paper.link("html")
    fields += [("UR", url) for url in (external, page_url) if url]
    fields += [("L1", pdf_url), ("AB", paper.abstract_text), ("N1", status_note(paper))]
    fields += [("KW", topic) for topic in paper.topics]
    return [(tag, " ".join(value.split())) for tag, value in fields if value and value.strip()]


def venue_fields(paper: Paper) -> list[tuple[str, str]]:
    venue = container_title(paper)
    if not venue:
        return []
    fields = [("T2", venue)]
    if paper.type == "conference":
        fields.append(("C3", venue))
    # J2 is a journal's abbreviation: Zotero's RIS translator, finding no publication title
    # on an item of another type (a conference paper, a chapter), takes J2 for it, and the
    # save then writes it over the proceedings' or the book's title; citation.js reads J2
    # as a short container title of a journal, a book or a chapter only.
    if paper.type == "journal" and paper.venue_short and paper.venue_short != venue:
        fields.append(("J2", paper.venue_short))
    return fields


def ris_publisher(paper: Paper) -> str:
    """The publisher; a report's institution, a thesis's university; a book's venue
    names its publisher; a preprint's archive."""
    if paper.publisher:
        return paper.publisher
    if paper.type in ("report", "thesis"):
        return paper.institution
    if paper.type == "book":
        return paper.venue
    return "arXiv" if paper.type == "preprint" and paper.arxiv and not paper.venue else ""


def make_ris(paper: Paper, page_url: str, pdf_url: str = "") -> str:
    """One RIS reference, ending with its ER line."""
    lines = [f"{tag}  - {value}" for tag, value in ris_fields(paper, page_url, pdf_url)]
    lines.append("ER  - ")
    return NEWLINE.join(lines) + NEWLINE
