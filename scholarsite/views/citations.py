"""Citations of a paper: the recommended citation text and its BibTeX entry.

One style for every paper, whatever it was read from:
  Authors; Venue (SHORT), note, Vol. V, No. N, pp. P, Month Year.
"""

from __future__ import annotations

import re

from ..models import MONTH_NAMES, Author, Paper, PubDate
from ..structure.urls import is_external

BIBTEX_TYPES = {
    "conference": "inproceedings", "journal": "article", "preprint": "misc",
    "report": "techreport", "thesis": "phdthesis", "book": "book", "chapter": "incollection",
    "patent": "misc", "other": "misc",
}
# Fields that only steer how a page looks (al-folio's and this tool's), and the abstract,
# which the page shows: never exported, so that a .bib is what a reference manager wants.
DISPLAY_ONLY_FIELDS = frozenset({
    "abbr", "abstract", "additional_info", "altmetric", "annotation", "award", "award_name",
    "bibtex_show", "blog", "category", "code", "dimensions", "google_scholar_id", "html",
    "inspirehep_id", "pdf", "poster", "preview", "selected", "slides", "supp", "tier",
    "topics", "video", "website",
})
MONTH_MACROS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_KEY_WORD = re.compile(r"[A-Za-z0-9]+")
_WORD = re.compile(r"\w+")
_EMPTY_BRACKETS = re.compile(r"\s*(?:\(\W*\)|\[\W*\])")
_MONTH_WORDS = frozenset([*(m.lower() for m in MONTH_NAMES), *MONTH_MACROS, "sept"])
_BIBTEX_SPECIAL = re.compile(r"([&%$#_])")
_BRACE = re.compile(r"[{}\\]")
_BRACE_COMMANDS = {"{": r"\textbraceleft{}", "}": r"\textbraceright{}",
                   "\\": r"\textbackslash{}"}
_ESCAPED = re.compile(r"\\[{}]")
_BRACES_ONLY = re.compile(r"[{}]")
_KEY = re.compile(r"^[^\s,{}()=\"#%'~\\]+$")  # what BibTeX reads as one entry's key
_FIELD_NAME = re.compile(r"^[A-Za-z][\w:.+-]*$")  # what BibTeX reads as one field's name
# A page range: "2781–2793", "521--521", "15-27"; any dash between the two ends.
_PAGE_RANGE = re.compile(r"^\s*([^\s\-–—]+)\s*(?:-{1,3}|[–—])\s*([^\s\-–—]+)\s*$")


def venue_label(paper: Paper) -> str:
    """'Full Venue Name (SHORT)', or whichever of the two exists."""
    if paper.venue and paper.venue_short and paper.venue_short not in paper.venue:
        return f"{paper.venue} ({paper.venue_short})"
    return paper.venue or paper.venue_short


def split_pages(pages: str) -> tuple[str, str]:
    """(first page, last page) of "2781–2793" or "521--521"; ("15", "") for a single page."""
    match = _PAGE_RANGE.match(pages)
    if match:
        return match.group(1), match.group(2)
    return pages.strip(), ""


def format_pages(pages: str) -> str:
    """A page range written one way whatever the source: "521--521" -> "521–521"."""
    first, last = split_pages(pages)
    return f"{first}–{last}" if last else first


def author_line(paper: Paper) -> str:
    names = [a.name for a in paper.authors]
    if paper.more_authors:
        names.append("et al.")
    return ", ".join(names)


def format_citation(paper: Paper) -> str:
    """The recommended citation, unless the paper gives its own."""
    if paper.citation:
        return paper.citation
    parts = []
    if paper.type == "report":
        parts.append("Technical Report")
    elif paper.type == "thesis":
        parts.append("Master's thesis" if paper.bibtex_type == "mastersthesis" else "PhD thesis")
    venue = drop_year(venue_label(paper), paper.date.year)
    if venue:
        parts.append(venue)
    if paper.institution and paper.institution != paper.venue:
        parts.append(paper.institution)
    if not venue and paper.arxiv:
        parts.append(f"arXiv:{paper.arxiv}")
    note = drop_date(paper.note, paper.date)
    if note:
        parts.append(note)
    if paper.volume:
        parts.append(f"Vol. {paper.volume}")
    if paper.number:
        parts.append(f"No. {paper.number}")
    if paper.pages:
        parts.append(f"pp. {format_pages(paper.pages)}")
    parts.append(paper.date.human())
    return f"{author_line(paper)}; {', '.join(parts)}."


def drop_year(venue: str, year: int) -> str:
    """The venue without its year, which the citation's date gives ('2023 USENIX ATC',
    DBLP's '..., ATC 2023, Boston, MA, USA, July 10-12, 2023'): never the year twice."""
    if str(year) not in venue:
        return venue
    return re.sub(rf"[\s,]*(?<!\d){year}(?!\d)", "", venue).strip(" ,")


def drop_date(note: str, date: PubDate) -> str:
    """The note without the paper's year, which the citation ends with: 'Published 2021'
    -> 'Published', 'In press (2021)' -> 'In press'; a note that says only the date
    ('2021', 'March 2021', '15 Mar. 2021') is left out. Another year stays."""
    # A year, not a part of an identifier ('arXiv:2021.01234', '10.1145/2021.12').
    rest = re.sub(rf"[\s,]*(?<![\d.:/]){date.year}(?!\d|\.\d)", "", note).strip(" ,")
    if rest == note:
        return note
    rest = _EMPTY_BRACKETS.sub("", rest).strip(" ,;:.-–—")
    words = _WORD.findall(rest)
    if all(w.lower() in _MONTH_WORDS or (w.isdigit() and len(w) <= 2) for w in words):
        return ""
    return rest


def make_bibtex_key(paper: Paper) -> str:
    """The source's key when it has one (and BibTeX can read it as one); else family
    name, year and first title word."""
    if paper.bibtex_key and _KEY.match(paper.bibtex_key):
        return paper.bibtex_key
    family = _KEY_WORD.findall(paper.authors[0].family_name()) if paper.authors else []
    words = [w for w in _KEY_WORD.findall(paper.title) if len(w) > 3] or _KEY_WORD.findall(
        paper.title) or ["paper"]
    first = family[0].lower() if family else "anon"
    return f"{first}{paper.date.year}{words[0].lower()}"


def bibtex_name(author: Author) -> str:
    if author.family:
        return f"{author.family}, {author.given}" if author.given else author.family
    return author.name


def escape_bibtex(value: str) -> str:
    return _BIBTEX_SPECIAL.sub(r"\\\1", value).replace("–", "--").replace("—", "---")


def protect_braces(value: str) -> str:
    """A field's value whose braces cannot end the field early or open another: kept when
    they pair up (`{LLM}` protects case) both as BibTeX counts them (every brace) and as
    parsers that honour `\\{` do, else each brace and backslash written as a LaTeX
    command (`Closed} , note = {x` stays a title)."""
    if "{" not in value and "}" not in value and not value.endswith("\\"):
        return value  # most values: every field of every paper's export comes here
    if value.endswith("\\") or not (pairs_up(value) and pairs_up(_ESCAPED.sub("", value))):
        return _BRACE.sub(lambda m: _BRACE_COMMANDS[m.group()], value)
    return value


def pairs_up(value: str) -> bool:
    depth = 0
    for char in _BRACES_ONLY.findall(value):
        depth += 1 if char == "{" else -1
        if depth < 0:
            return False
    return depth == 0


def bibtex_fields(paper: Paper) -> list[tuple[str, str]]:
    """The entry's fields, in a stable order, display-only fields left out."""
    names = [bibtex_name(a) for a in paper.authors] + (["others"] if paper.more_authors else [])
    venue_field = {"journal": "journal", "conference": "booktitle", "chapter": "booktitle",
                   "report": "institution", "thesis": "school"}.get(paper.type, "howpublished")
    venue = paper.venue or paper.venue_short
    fields = [("title", escape_bibtex(paper.title)), ("author", " and ".join(names))]
    if paper.type == "report" and paper.institution:
        fields.append(("institution", escape_bibtex(paper.institution)))
        if venue:
            fields.append(("howpublished", escape_bibtex(venue_label(paper))))
    elif venue:
        fields.append((venue_field, escape_bibtex(venue_label(paper))))
    fields.append(("year", str(paper.date.year)))
    if paper.date.month:
        fields.append(("month", MONTH_MACROS[paper.date.month - 1]))
    pages = format_pages(paper.pages)
    for name, value in (("address", paper.location), ("volume", paper.volume),
                        ("number", paper.number), ("pages", pages),
                        ("publisher", paper.publisher), ("doi", paper.doi),
                        ("note", paper.note)):
        if value:
            fields.append((name, escape_bibtex(value)))
    if paper.arxiv:
        fields.extend([("eprint", paper.arxiv), ("archiveprefix", "arXiv")])
    url = paper.link("url") or paper.link("html")
    if url and is_external(url):  # a path inside the site means nothing in a reference list
        fields.append(("url", url))
    fields.extend((name, value) for name, value in paper.extra
                  if name.lower() not in DISPLAY_ONLY_FIELDS)
    return fields


def make_bibtex(paper: Paper) -> str:
    """A clean BibTeX entry: `@type{key,`, one `  name = {value},` line per field (month
    macros stay bare), and `}`. The format is fixed and values are escaped before, so it is
    written directly in bibtexparser's layout (tests read it back with bibtexparser); its
    writer's deep copy of each entry cost more than the rest of a paper's page.

    A paper read from BibTeX keeps its entry's fields as written in `extra`: its export is
    that entry (same type, key and fields), less the display-only fields."""
    entry_type = paper.bibtex_type or BIBTEX_TYPES[paper.type]
    pairs = ([(n, v) for n, v in paper.extra if n not in DISPLAY_ONLY_FIELDS]
             if paper.bibtex_type else bibtex_fields(paper))
    lines = [f"  {name} = {value}" if name == "month" and value in MONTH_MACROS
             else f"  {name} = {{{protect_braces(value)}}}" for name, value in pairs
             if _FIELD_NAME.match(name)]
    body = ",\n".join(lines) + "\n" if lines else ""
    return f"@{entry_type}{{{make_bibtex_key(paper)},\n{body}}}\n"
