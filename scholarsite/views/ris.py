"""RIS export: one reference per paper, for EndNote, Zotero, Mendeley and the like.

RIS is a fixed sequence of `TAG  - value` lines ending in `ER  - `, with no escaping, so it
is written here directly rather than through a library; tests read the output back with a
real RIS parser (rispy). Lines end in CRLF, as Zotero and EndNote write them.
"""

from __future__ import annotations

from .citations import make_bibtex_key, split_pages
from ..models import Author, Paper

RIS_TYPES = {
    "conference": "CPAPER", "journal": "JOUR", "preprint": "UNPB", "report": "RPRT",
    "thesis": "THES", "book": "BOOK", "chapter": "CHAP", "patent": "PAT", "other": "GEN",
}
NEWLINE = "\r\n"


def ris_name(author: Author) -> str:
    """'Family, Given', the form every RIS reader splits correctly."""
    family, given = author.family_name(), author.given_names()
    return f"{family}, {given}" if given else family


def ris_date(paper: Paper) -> str:
    """RIS dates are YYYY/MM/DD/other, with empty parts for what is unknown."""
    date = paper.date
    month = f"{date.month:02d}" if date.month else ""
    day = f"{date.day:02d}" if date.day else ""
    return f"{date.year:04d}/{month}/{day}/"


def ris_fields(paper: Paper, page_url: str, pdf_url: str = "") -> list[tuple[str, str]]:
    """The (tag, value) lines of one reference, in the usual order, empty values left out."""
    venue = paper.venue or paper.venue_short
    first, last = split_pages(paper.pages)
    publisher = paper.publisher or (paper.institution if paper.type in ("report", "thesis")
                                    else "")
    fields = [("TY", RIS_TYPES[paper.type]), ("ID", make_bibtex_key(paper)),
              ("TI", paper.title)]
    fields += [("AU", ris_name(author)) for author in paper.authors]
    fields += [("PY", str(paper.date.year)), ("DA", ris_date(paper)), ("T2", venue)]
    if paper.venue_short and paper.venue_short != venue:
        fields.append(("J2", paper.venue_short))
    fields += [("VL", paper.volume), ("IS", paper.number), ("SP", first), ("EP", last),
               ("PB", publisher), ("CY", paper.location), ("DO", paper.doi)]
    external = paper.link("url") or paper.link("html")
    fields += [("UR", url) for url in (external, page_url) if url]
    fields += [("L1", pdf_url), ("AB", paper.abstract_text), ("N1", paper.note)]
    fields += [("KW", topic) for topic in paper.topics]
    return [(tag, " ".join(value.split())) for tag, value in fields if value and value.strip()]


def make_ris(paper: Paper, page_url: str, pdf_url: str = "") -> str:
    """One RIS reference, ending with its ER line."""
    lines = [f"{tag}  - {value}" for tag, value in ris_fields(paper, page_url, pdf_url)]
    lines.append("ER  - ")
    return NEWLINE.join(lines) + NEWLINE
