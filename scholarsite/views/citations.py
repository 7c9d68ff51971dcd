"""Citations of a paper: the recommended citation text and its BibTeX entry.

One style for every paper, whatever it was read from:
  Authors. Title. Venue (SHORT), note, Vol. V, No. N, pp. P, Month Year.
"""

from __future__ import annotations

import html
import re

from .latexout import bibtex_name, escape_latex, protect_case
from .names import name_parts
from ..models import MONTH_NAMES, Author, Paper, PubDate
from ..models.forms import PAPER_FIELDS
from ..reading.text.mathml import annotation_tex
from ..reading.slugs import fold_latin
from ..reading.settings.fields import STATUS_LABELS, parse_status
from ..structure.languages import Messages, human_date
from ..structure.urls import is_external

BIBTEX_TYPES = {
    "conference": "inproceedings", "journal": "article", "preprint": "misc",
    "report": "techreport", "thesis": "phdthesis", "book": "book", "chapter": "incollection",
    "patent": "misc", "other": "misc",
}
# Fields that only steer how a page looks (al-folio's, and this tool's own as its table
# says), and the abstract, which the page shows: never exported, so that a .bib is what a
# reference manager wants.
DISPLAY_ONLY_FIELDS = frozenset({
    "abbr", "abstract", "additional_info", "altmetric", "annotation", "award_name",
    "bibtex_show", "blog", "code", "dimensions", "google_scholar_id", "html",
    "inspirehep_id", "pdf", "poster", "slides", "supp", "video", "website",
    *(field.name for field in PAPER_FIELDS if field.bibtex and not field.exported),
})
MONTH_MACROS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_KEY_WORD = re.compile(r"[A-Za-z0-9]+")
_WORD = re.compile(r"\w+")
_EMPTY_BRACKETS = re.compile(r"\s*(?:\(\W*\)|\[\W*\])")
_MONTH_WORDS = frozenset([*(m.lower() for m in MONTH_NAMES), *MONTH_MACROS, "sept"])
_MATH_HTML = re.compile(r"(<math\b[^>]*>.*?</math>)", re.DOTALL)
_TAG = re.compile(r"<[^>]+>")
# Letters with no accent to drop that still have a Latin reading, for citation keys.
_LETTER_NAMES = str.maketrans({"ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "ß": "ss", "æ": "ae",
                               "Æ": "AE", "œ": "oe", "Œ": "OE", "đ": "d", "Đ": "D", "ı": "i"})
_BRACE = re.compile(r"[{}\\]")
_BRACE_COMMANDS = {"{": r"\textbraceleft{}", "}": r"\textbraceright{}",
                   "\\": r"\textbackslash{}"}
_ESCAPED = re.compile(r"\\[{}]")
_BRACES_ONLY = re.compile(r"[{}]")
_KEY = re.compile(r"^[^\s,{}()=\"#%'~\\]+$")  # what BibTeX reads as one entry's key
_FIELD_NAME = re.compile(r"^[A-Za-z][\w:.+-]*$")  # what BibTeX reads as one field's name
# A page range: "2781–2793", "521--521", "15-27"; any dash between the two ends.
_COMPOUND_RANGE = re.compile(r"^\s*(\S+?)\s*(?:-{2,3}|[–—])\s*(\S+)\s*$")
_PAGE_RANGE = re.compile(r"^\s*([^\s\-–—]+)\s*(?:-{1,3}|[–—])\s*([^\s\-–—]+)\s*$")


def venue_label(paper: Paper) -> str:
    """'Full Venue Name (SHORT)', or whichever of the two exists."""
    if paper.venue and paper.venue_short and paper.venue_short not in paper.venue:
        return f"{paper.venue} ({paper.venue_short})"
    return paper.venue or paper.venue_short


def container_title(paper: Paper) -> str:
    """The venue as what the paper is part of (RIS's T2, CSL's container-title, JSON-LD's
    isPartOf); '' where the venue is only shown: a thesis's ('Ph.D. thesis, School') or
    a preprint's ('arXiv:ID'), a book's (its publisher), a patent's that is its publisher
    ('Google Patents')."""
    venue = paper.venue or paper.venue_short
    if paper.type in ("thesis", "preprint", "book") or (paper.type == "patent"
                                                        and venue == paper.publisher):
        return ""
    return venue


def split_pages(pages: str) -> tuple[str, str]:
    """(first page, last page) of "2781–2793", "521--521" or "10-1--10-20" (compound
    pages, split at the range's dash); ("15", "") for a single page."""
    match = _COMPOUND_RANGE.match(pages) or _PAGE_RANGE.match(pages)
    if match:
        return match.group(1), match.group(2)
    return pages.strip(), ""


def format_pages(pages: str) -> str:
    """A page range written one way whatever the source: "521--521" -> "521–521"."""
    first, last = split_pages(pages)
    return f"{first}–{last}" if last else first


def family_given(author: Author) -> str:
    """'Family, Given' ('Smith, John, Jr.' with a suffix), the form RIS readers, Zotero
    and Google Scholar split right; a corporate author (a family name with a space and
    no given name) as its name."""
    family, given, suffix = name_parts(author)
    if not given:
        return family
    return ", ".join(part for part in (family, given, suffix) if part)


def author_line(paper: Paper) -> str:
    names = [a.name for a in paper.authors]
    if paper.more_authors:
        names.append("et al.")
    return ", ".join(names)


def format_citation(paper: Paper, messages: Messages) -> str:
    """The recommended citation, unless the paper gives its own: the paper's own title
    and names, in the words and dates of the page's language (`messages`)."""
    if paper.citation:
        return paper.citation
    t = messages.gettext
    parts = []
    if paper.type == "report":
        parts.append(t("Technical Report"))
    elif paper.type == "thesis":
        parts.append(t("Master's thesis") if paper.bibtex_type == "mastersthesis" else t("PhD thesis"))
    venue = drop_year(venue_label(paper), paper.date.year) if paper.date else venue_label(paper)
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
        parts.append(t("Vol. %(volume)s") % {"volume": paper.volume})
    if paper.number:
        parts.append(t("No. %(number)s") % {"number": paper.number})
    if paper.pages:
        parts.append(t("pp. %(pages)s") % {"pages": format_pages(paper.pages)})
    parts += [when for when in (paper.date and human_date(paper.date, messages.language),
                                t(status_label(paper)) if paper.status else "") if when]
    return " ".join(end_sentence(text) for text in (author_line(paper), paper.title,
                                                    ", ".join(parts)) if text)


def end_sentence(text: str) -> str:
    """`text` with a full stop, unless it ends with one or with '?' or '!' ('et al.', a
    title that asks)."""
    text = text.strip()
    return text if text.endswith((".", "?", "!")) else text + "."


def drop_year(venue: str, year: int) -> str:
    """The venue without its year, which the citation's date gives ('2023 USENIX ATC',
    DBLP's '..., ATC 2023, Boston, MA, USA, July 10-12, 2023'): never the year twice."""
    if str(year) not in venue:
        return venue
    return re.sub(rf"[\s,]*(?<!\d){year}(?!\d)", "", venue).strip(" ,")


def drop_date(note: str, date: PubDate | None) -> str:
    """The note without the paper's year, which the citation ends with: 'Published 2021'
    -> 'Published', 'In press (2021)' -> 'In press'; a note that says only the date
    ('2021', 'March 2021', '15 Mar. 2021') is left out. Another year stays."""
    if date is None:
        return note
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
    """The source's key when it has one (and BibTeX can read it as one); else the first
    author's family name (transliterated: 'Álvarez' -> 'alvarez') and year, then the
    paper's slug: 'alvarez2021:zola-themes'. The key of /publications.bib, RIS's ID and
    CSL's id. The slug makes it unique in the site (family, year and a title word did
    not: BibTeX and biber dropped or mixed one of two such papers), and made from the
    paper alone it stays when another paper is added (a suffix given only to papers
    that share a key would rename the first when a second comes)."""
    if paper.bibtex_key and _KEY.match(paper.bibtex_key):
        return paper.bibtex_key
    family = _KEY_WORD.findall(transliterate(name_parts(paper.authors[0])[0])) \
        if paper.authors else []
    first = family[0].lower() if family else "anon"
    return f"{first}{paper.date.year if paper.date else ''}:{paper.slug}"


def transliterate(text: str) -> str:
    """Latin letters without their accents ('Łukasz Álvarez' -> 'Lukasz Alvarez')."""
    return fold_latin(text.translate(_LETTER_NAMES))


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
    """The entry's fields, in a stable order, display-only fields left out; every value
    is LaTeX (latexout.py), the title's capitals kept."""
    names = [bibtex_name(a) for a in paper.authors] + (["others"] if paper.more_authors else [])
    venue_field = {"journal": "journal", "conference": "booktitle", "chapter": "booktitle",
                   "report": "institution", "thesis": "school"}.get(paper.type, "howpublished")
    venue = paper.venue or paper.venue_short
    fields = [("title", protect_case(title_latex(paper))), ("author", " and ".join(names))]
    # A book by its authors names no editor: every classic style would warn that it cannot
    # use both (its editors, a series' say, stay in the RIS, CSL and the page's tags).
    if paper.editors and not (paper.type == "book" and paper.authors):
        fields.append(("editor", " and ".join(bibtex_name(e) for e in paper.editors)))
    # The venue's name, never 'Name (SHORT)': Zotero and styles print the field whole.
    if paper.type in ("report", "thesis") and paper.institution:
        fields.append((venue_field, escape_latex(paper.institution)))
        # A thesis's venue is only shown ('Ph.D. thesis, School'); biblatex has no field for it.
        if venue and venue != paper.institution and paper.type == "report":
            fields.append(("howpublished", escape_latex(venue)))
    elif venue and not (paper.type in ("book", "patent") and venue == paper.publisher):
        fields.append((venue_field, escape_latex(venue)))
    if paper.date:
        fields.append(("year", str(paper.date.year)))
    if paper.date and paper.date.month:
        fields.append(("month", MONTH_MACROS[paper.date.month - 1]))
    first, last = split_pages(paper.pages)
    pages = "--".join(escape_latex(p) for p in (first, last) if p)
    for name, value in (("address", escape_latex(paper.location)),
                        ("volume", escape_latex(paper.volume)),
                        ("number", escape_latex(paper.number)), ("pages", pages),
                        ("publisher", escape_latex(paper.publisher)),
                        ("isbn", escape_latex(paper.isbn)),
                        ("note", escape_latex(status_note(paper)))):
        if value:
            fields.append((name, value))
    if paper.doi:
        fields.append(("doi", paper.doi))
    if paper.arxiv:
        # biblatex's and Zotero's field for the archive; arXiv's own export names it
        # `archiveprefix`, which biber's data model lacks (it warns) and Zotero ignores.
        fields.extend([("eprint", paper.arxiv), ("eprinttype", "arxiv")])
    url = paper.link("url") or paper.link("html")
    if url and is_external(url):  # a path inside the site means nothing in a reference list
        fields.append(("url", url))
    fields.extend((name, value) for name, value in paper.extra
                  if name.lower() not in DISPLAY_ONLY_FIELDS)
    return fields


def title_latex(paper: Paper) -> str:
    """A Markdown paper's title as LaTeX: its text escaped, its formulas (kept as TeX in
    the title's MathML) as math."""
    if "<math" not in paper.title_html:
        return escape_latex(paper.title)
    out = []
    for i, piece in enumerate(_MATH_HTML.split(paper.title_html)):
        if i % 2:
            mark = "$$" if piece.startswith('<math display="block"') else "$"
            out.append(mark + annotation_tex(piece) + mark)
        else:
            out.append(escape_latex(html.unescape(_TAG.sub("", piece))))
    return "".join(out)


def source_fields(paper: Paper) -> list[tuple[str, str]]:
    """A paper read from BibTeX: its entry's fields as written, less the display-only
    fields; its authors without the site's marks, its DOI without a prefix, its title's
    capitals kept."""
    pairs = []
    for name, value in paper.extra:
        low = name.lower()
        if low in DISPLAY_ONLY_FIELDS:
            continue
        if low == "author":
            value = " and ".join([bibtex_name(a) for a in paper.authors]
                                 + (["others"] if paper.more_authors else []))
        elif low == "doi" and paper.doi:
            value = paper.doi
        elif low == "title":
            value = protect_case(value)
        elif low == "year" and parse_status(value):
            continue  # 'In press' is no year: the status goes in the note
        elif low == "note":
            value = status_note(paper, value)
        pairs.append((name, value))
    if paper.status and not any(name.lower() in ("note", "pubstate") for name, _ in pairs):
        pairs.append(("note", status_label(paper)))
    return pairs


def status_label(paper: Paper) -> str:
    """'In press', 'Preprint' (in English: pages translate it), or '' for a paper out."""
    return STATUS_LABELS.get(paper.status, "")


def paper_year(paper: Paper, gettext=str) -> str:
    """What a list shows for the paper's year: '2026', or its status ('In press') in the
    page's language when it has no year yet; '' for an undated one (a web page)."""
    if paper.date:
        return str(paper.date.year)
    return gettext(status_label(paper)) if paper.status else ""  # undated: nothing


def status_note(paper: Paper, note: str | None = None) -> str:
    """The note, with the paper's status ('In press') where the year would be: BibTeX
    styles and biblatex both print a note, and no style knows a year of 'In press'
    (biblatex's `pubstate`, where the source gives one, is kept as written)."""
    note = paper.note if note is None else note
    label = status_label(paper)
    if not label or label.casefold() in note.casefold() or any(
            name.lower() == "pubstate" for name, _ in paper.extra):
        return note
    return f"{note}, {label}" if note else label


def make_bibtex(paper: Paper) -> str:
    """A clean BibTeX entry: `@type{key,`, one `  name = {value},` line per field (month
    macros stay bare), and `}`. The format is fixed and values are escaped before, so it is
    written directly in bibtexparser's layout (tests read it back with bibtexparser); its
    writer's deep copy of each entry cost more than the rest of a paper's page.

    A paper read from BibTeX keeps its entry's fields as written in `extra`: its export is
    that entry (same type, key and fields), less what only the site shows."""
    entry_type = paper.bibtex_type or BIBTEX_TYPES[paper.type]
    pairs = source_fields(paper) if paper.bibtex_type else bibtex_fields(paper)
    lines = [f"  {name} = {value}" if name == "month" and value in MONTH_MACROS
             else f"  {name} = {{{protect_braces(value)}}}" for name, value in pairs
             if _FIELD_NAME.match(name)]
    body = ",\n".join(lines) + "\n" if lines else ""
    return f"@{entry_type}{{{make_bibtex_key(paper)},\n{body}}}\n"
