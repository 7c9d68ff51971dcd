"""One BibTeX entry as a `Paper`: the same model, and the same rules, as a Markdown paper.

Text is LaTeX turned into Unicode; abstracts are untrusted and escaped, never raw HTML;
each link is made right or left out, with a warning (biblinks.py). Every field that goes
into the paper's BibTeX export is kept as written in `Paper.extra`, so the export is the
source entry less the fields that only drive the page (abstract, abbr, pdf, ...).
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from .biblinks import read_links
from .bibvenue import tidy_venue
from .bibparse import MONTH_MACROS, BibEntry, BibValue, EntryReader
from ..text.cleantext import INLINE_MARK, INLINE_MARKS, mark_inline_html
from ...diagnostics import Diagnostics
from ..settings.fields import parse_date, parse_status
from .latex import (MARKS, RichText, describe_math_problem, fold_space, latex_to_rich,
                    make_decoder, split_paragraphs)
from ..names import read_name
from ...models import Author, Paper, Preview, PubDate
from ...models.forms import PAPER_FIELDS
from .latex import decode_url
from ..text.papers import UNDATED_TYPES, VENUELESS_TYPES, check_preview_name
from ..slugs import make_entry_slug
from ..settings.venues import is_conference, look_like_abbreviation
from ...structure.urls import normalize_arxiv, normalize_doi

TYPES = {
    "inproceedings": "conference", "conference": "conference", "article": "journal",
    "techreport": "report", "report": "report", "phdthesis": "thesis",
    "mastersthesis": "thesis", "thesis": "thesis", "book": "book", "proceedings": "book",
    "collection": "book", "incollection": "chapter", "inbook": "chapter", "patent": "patent",
    "preprint": "preprint",
}
# Fields whose meaning the model holds, only for the page: not part of `extra`. Of the
# paper's own (models/forms.py), `preview` is kept there as written, where import-bib
# leaves it and the Markdown reader looks for it too.
KEPT_IN_EXTRA = ("preview",)
MODEL_DISPLAY_FIELDS = frozenset({
    "abstract", "abbr", "pdf", "code", "html", "slides", "poster", "video", "supp",
    *(f.name for f in PAPER_FIELDS if f.bibtex and not f.exported and f.name not in KEPT_IN_EXTRA),
})
# DOI prefixes of preprint servers (arXiv, SSRN, OSF's PsyArXiv, SocArXiv and OSF
# Preprints, ChemRxiv, Research Square, Preprints.org; bioRxiv and medRxiv share 10.1101 with
# Cold Spring Harbor's journals, whose DOIs are not all digits).
_PREPRINT_DOI = re.compile(r"10\.(?:48550|2139|3123[45]|31219|26434|21203|20944)/"
                           r"|10\.1101/[\d.]+$", re.IGNORECASE)
_PREPRINT_FIELDS = ("journal", "journaltitle", "howpublished", "publisher", "archiveprefix",
                    "eprinttype", "organization", "note")
# The fields a page shows as text, where check_macros looks; commands that only space or
# group, whose dropping loses nothing; a command's name; math, whose commands MathML reads.
SHOWN_FIELDS = ("title", "author", "editor", "journal", "booktitle", "journaltitle",
                "howpublished", "series", "publisher", "school", "institution", "note",
                "address", "location", "abstract")
HARMLESS_MACROS = frozenset({"mbox", "hbox", "relax", "xspace", "protect", "noopsort",
                             "nocase", "unskip", "null", "texttt", "enquote", "mkbibquote",
                             "boldsymbol", "left", "right"})
_MACRO = re.compile(r"\\([A-Za-z]+)")
_MATH = re.compile(r"(?<!\\)\$.*?(?<!\\)\$", re.S)
# `{Ann Lee*, Bo Li*}` and a name's trailing `{[* equal contribution]}` (split_names).
_NAME_GROUP = re.compile(r"^\{([^{}]+)\}$")
# A note ending the last name: '{[* equal contribution]}', '(* indicates Equal Contribution)'.
_NAME_NOTE = re.compile(r"\s*\{?(?:\[[^\[\]{}]*\]|\([^(){}]*[*†‡§¶#][^(){}]*\))\}?\s*$")
_PREPRINT_VENUE = re.compile(r"\b(arxiv|corr|biorxiv|medrxiv|chemrxiv|ssrn|preprint)\b", re.I)
_YEAR = re.compile(r"^\d{4}$")
_SHORT_IN_PARENS = re.compile(r"\(([^()]+)\)\s*$")
_ISO_TIME = re.compile(r"[T ]\d{1,2}:\d{2}.*$")  # '2023-05-01T00:00:00Z' -> '2023-05-01'


def make_paper(entry: BibEntry, path: Path, diags: Diagnostics) -> Paper | None:
    """The entry's paper, or None after reporting why it cannot be one."""
    r = EntryReader(entry, path, diags)
    title = read_rich(r, "title")
    slug = make_entry_slug(entry.key, title.text)
    if not title.text:
        r.missing("title")
    authors, more = read_authors(r)
    status = read_status(r)
    date = read_date(r, status)
    ptype = read_type(r)
    ptype = "preprint" if status == "preprint" and ptype == "other" else ptype
    venue, venue_short, institution = read_venue(r, ptype)
    links = read_links(r)
    arxiv = next((normalize_arxiv(link.url) for link in links if link.kind == "arxiv"), "")
    doi = next((normalize_doi(link.url) for link in links if link.kind == "doi"), "")
    check_venue(r, ptype, venue, institution, arxiv)
    shown = tidy_venue(entry.type, venue, venue_short, institution, arxiv, r.text("volume"))
    abstract = [read_rich(r, "abstract", p) for p in split_paragraphs(r.raw("abstract"))]
    details = dict(
        venue=shown.venue, venue_short=shown.venue_short, institution=institution, links=links,
        arxiv=arxiv, doi=doi, location=r.text("address") or r.text("location"),
        tier=r.text("tier"), category=r.text("category"), topics=read_topics(r),
        selected=read_flag(r, "selected"), award=r.text("award"), note=r.text("note"),
        volume=shown.volume, number=r.text("number"), pages=r.text("pages"),
        publisher=r.text("publisher"), isbn=r.text("isbn"), editors=read_editors(r),
        abstract_html=make_abstract_html(abstract),
        abstract_text=" ".join(p.text for p in abstract if p.text),
    )
    details["preview"] = read_preview(r)
    check_macros(r)
    if r.errors or entry.broken or not (date or status or may_be_undated(r)) \
            or not title.text or not authors:
        return None
    return Paper(slug=slug, title=title.text, title_html=title.html, authors=authors,
                 date=date, status=status, type=ptype, source=path, line=entry.line,
                 more_authors=more, bibtex_key=entry.key, bibtex_type=entry.type,
                 extra=export_fields(entry), **details)


def read_authors(r: EntryReader, name: str = "") -> tuple[tuple[Author, ...], bool]:
    """Authors (editors for an edited book), and whether the list ends in 'and others'."""
    name = name or ("author" if r.raw("author").strip() else "editor")
    raw = r.raw(name)
    if not raw.strip():
        r.missing("author" if "author" in r.entry.fields or "editor" not in r.entry.fields
                  else "editor")
        return (), False
    from bibtexparser.middlewares.names import split_multiple_persons_names

    names = split_names(r, name, split_multiple_persons_names(raw))
    more = bool(names) and names[-1].strip().lower() == "others"
    if more:
        names = names[:-1]
    authors = []
    for i, raw_name in enumerate(names):
        result = read_name(raw_name)
        if result.author is None:
            r.error(name, f"author {i + 1}: {result.problem}")
            continue
        authors.append(result.author)
    if not authors and not r.errors:
        r.error(name, f"'{name}' names nobody")
    return tuple(authors), more


def read_editors(r: EntryReader) -> tuple[Author, ...]:
    """The editors of the book or proceedings an entry is in; () when they are its authors
    (an edited book without `author`)."""
    if not (r.raw("author").strip() and r.raw("editor").strip()):
        return ()
    return read_authors(r, "editor")[0]


def read_status(r: EntryReader) -> str:
    """A paper not yet out: `year = {In press}` (Preprint, To appear), biblatex's
    `pubstate`, or a preprint with no year at all: a @misc, @online or @unpublished one
    that says it is one (says_preprint). Any other undated one (a web page) has none."""
    undated = not r.text("year") and not r.text("date")
    return parse_status(r.text("year")) or parse_status(r.text("pubstate")) or (
        "preprint" if undated and r.entry.type in UNDATED_TYPES and says_preprint(r) else "")


def says_preprint(r: EntryReader) -> bool:
    """Whether the entry says it is a preprint: its type, an eprint, a preprint server's
    DOI, or an arXiv-like venue ('arXiv preprint', 'SSRN')."""
    return (r.entry.type == "preprint" or bool(r.text("eprint") or r.text("arxiv"))
            or bool(_PREPRINT_DOI.match(normalize_doi(r.text("doi"))))
            or any(_PREPRINT_VENUE.search(r.text(name)) for name in _PREPRINT_FIELDS))


def split_names(r: EntryReader, field: str, names: list[str]) -> list[str]:
    """The names as persons: a braced group of marked names (`{Ann Lee*, Bo Li*}`, which
    BibTeX reads as one) is its names; a bracketed note ending a name (`{[* equal
    contribution]}`) is no part of it, and is left out with a warning (the page's legend
    says what the marks mean: publications.author_notes)."""
    out = []
    for name in names:
        note = _NAME_NOTE.search(name)
        if note:
            r.warning(field, f"{note.group().strip()!r} is a note, not a name: left out of "
                      "the authors (site.yaml's publications.author_notes says what marks mean)")
            name = name[:note.start()]
        group = _NAME_GROUP.match(name.strip())
        persons = [p.strip() for p in group.group(1).split(",")] if group else []
        if len(persons) > 1 and all(p.rstrip("}")[-1:] in MARKS for p in persons):
            out.extend(persons)
        elif name.strip():
            out.append(name)
    return out


def read_date(r: EntryReader, status: str = "") -> PubDate | None:
    """Year, month and day (BibTeX), or biblatex's `date` in full (2026-03-17 keeps its
    day); when both are given and the years differ, `year` wins, with a warning. None,
    and no problem, for a paper whose status stands in place of its year."""
    year_text = r.text("year")
    undated = not (year_text or r.text("date"))
    if (status and (parse_status(year_text) or undated)) or (undated and may_be_undated(r)):
        return None
    date = read_date_field(r, required=not year_text)
    if not year_text:
        if date is None and not r.text("date"):
            r.missing("year")
        return date
    if not _YEAR.match(year_text) or int(year_text) < 1:
        r.error("year", f"'year' must be a four-digit year from 0001, found {year_text!r}")
        return None
    if date is not None and date.year == int(year_text) and date.month:
        return date
    if date is not None and date.year != int(year_text):
        r.warning("date", f"'date' {r.text('date')!r} is not in 'year' {year_text}; the year "
                  "is used")
    month, day = read_month(r, int(year_text))
    if month and not day and r.text("day").isdigit():
        day = int(r.text("day"))
        if parse_date(f"{year_text}-{month:02d}-{day:02d}") is None:
            r.warning("day", f"'day' {r.text('day')!r} is not a day of that month; ignored")
            day = None
    return PubDate(int(year_text), month, day)


def may_be_undated(r: EntryReader) -> bool:
    """A web page, a manuscript: shown with no year, where other entries need one."""
    return r.entry.type in UNDATED_TYPES


def read_date_field(r: EntryReader, required: bool) -> PubDate | None:
    """biblatex's `date`: YYYY, YYYY-MM or YYYY-MM-DD, a range's start, a timestamp's day."""
    text = r.text("date")
    if not text:
        return None
    date = parse_date(_ISO_TIME.sub("", text.split("/")[0].strip()))
    if date is None:
        report = r.error if required else r.warning
        report("date", f"'date' must be written YYYY, YYYY-MM or YYYY-MM-DD, found {text!r}")
    return date


def read_month(r: EntryReader, year: int) -> tuple[int | None, int | None]:
    """(month, day): jan..dec, January, Jan., Sept., 1..12, 05, '15 June', a timestamp
    (2023-05-01T00:00:00Z, its day kept); a range such as 'jun--jul' takes its first."""
    text = r.text("month")
    if not text:
        return None, None
    iso = parse_date(_ISO_TIME.sub("", text.strip()))
    if iso is not None and iso.month and iso.year == year:
        return iso.month, iso.day
    words = [w.rstrip(".").lower() for w in re.split(r"[\s/–\-,]+", text.strip()) if w]
    if words and words[0].isdigit() and 1 <= int(words[0]) <= 12:
        return int(words[0]), None
    for word in words:
        for number, (abbr, name) in enumerate(MONTH_MACROS.items(), start=1):
            if word.startswith(abbr) and name.lower().startswith(word):
                return number, None
    r.warning("month", f"'month' {text!r} is not a month (write jan..dec or 1..12); only the "
              "year is shown")
    return None, None


def read_type(r: EntryReader) -> str:
    """The paper type from the entry type; an @article in an arXiv-like venue is a preprint,
    one in a conference the venue list knows a conference, a @misc with an eprint a preprint."""
    kind = r.entry.type
    journal = r.text("journal")
    if kind == "article" and _PREPRINT_VENUE.search(journal):
        return "preprint"
    if kind == "article" and journal and is_conference(journal):
        r.warning("journal", f"'{journal}' is a conference, not a journal: the paper is shown "
                  "as a conference paper (write @inproceedings with 'booktitle' to say so)")
        return "conference"
    if kind == "article":
        return "journal"
    if kind in ("misc", "online", "unpublished", "electronic"):
        return "preprint" if r.text("eprint") or r.text("arxiv") else "other"
    return TYPES.get(kind, "other")


def read_venue(r: EntryReader, ptype: str) -> tuple[str, str, str]:
    """(venue, short venue from `abbr`, institution or school)."""
    howpublished = r.text("howpublished")
    if howpublished.startswith(("http://", "https://")):
        howpublished = ""  # a URL, not a venue: misc entries often put their link there
    venue = r.text("journal") or r.text("booktitle") or r.text("journaltitle") or howpublished
    if not venue and ptype == "book":
        venue = r.text("series") or r.text("publisher")
    elif not venue and ptype in ("other", "patent"):  # a book or dataset written as @misc,
        venue = r.text("publisher")  # or a patent ('Google Patents', as Scholar writes it)
    institution = r.text("institution") or r.text("school")
    return venue, r.text("abbr"), institution


def find_short(venue: str) -> str:
    """The abbreviation a venue ends with in parentheses: '2023 USENIX Annual Technical
    Conference (ATC)' -> 'ATC'. import-bib writes it as `venue_short` where an entry has no
    `abbr` (the reader gives one too: bibvenue.py)."""
    match = _SHORT_IN_PARENS.search(venue)
    return match.group(1).strip() if match and look_like_abbreviation(match.group(1)) else ""


def check_venue(r: EntryReader, ptype: str, venue: str, institution: str, arxiv: str) -> None:
    """BibTeX itself only warns about an empty journal or booktitle; so do we (the page then
    shows no venue, never an empty one)."""
    if venue or (ptype in VENUELESS_TYPES and (institution or arxiv)) or r.errors \
            or r.entry.broken:
        return
    wanted = {"journal": "journal", "conference": "booktitle", "chapter": "booktitle",
              "report": "institution", "thesis": "school", "book": "publisher"}.get(ptype)
    hint = f"add '{wanted}'" if wanted else "add 'howpublished', 'institution' or an eprint"
    r.warning("", f"no venue: {hint} so that readers know where it appeared")


def check_macros(r: EntryReader) -> None:
    """A LaTeX command no decoder here knows (`\\foo{text}`, defined in the owner's own
    preamble) is dropped and its text kept: said once per field, where it is."""
    known = make_decoder().latex_context
    for name in SHOWN_FIELDS:
        value = r.raw(name)
        if "\\" not in value:
            continue
        unknown = sorted({m for m in _MACRO.findall(_MATH.sub("", value))
                          if m not in HARMLESS_MACROS and known.get_macro_spec(m) in (
                              None, known.unknown_macro_spec)})
        if unknown:
            names = ", ".join(f"\\{m}" for m in unknown)
            r.warning(name, f"{names}: no LaTeX command known here (one of your own?); its "
                      "text is kept and the command left out")


def read_topics(r: EntryReader) -> tuple[str, ...]:
    return tuple(t for t in (fold_space(x) for x in re.split(r"[,;]", r.text("topics"))) if t)


def read_preview(r: EntryReader) -> Preview | None:
    """al-folio's `preview`: a picture's name, looked up in content/files/ once the site
    is read (views/looks.py); a name that can be no file there is left out, with a
    warning, as a bad link is."""
    value = decode_url(r.raw("preview"))
    if not value:
        return None
    name, problem = check_preview_name(value)
    if problem:
        r.warning("preview", f"'preview' {problem}; it is left out")
        return None
    return Preview(name, r.line("preview"))


def read_flag(r: EntryReader, name: str) -> bool:
    text = r.text(name).lower()
    if not text:
        return False
    if text in ("true", "yes", "1"):
        return True
    if text not in ("false", "no", "0"):
        r.warning(name, f"'{name}' must be true or false, found {text!r}; taken as false")
    return False


def read_rich(r: EntryReader, name: str, value: str | None = None) -> RichText:
    """A field (or one paragraph of it) as text and, when it holds math, as HTML with
    MathML; a formula that cannot be converted is shown as its text, with a warning."""
    rich = latex_to_rich(r.raw(name) if value is None else value)
    for tex, problem in rich.problems:
        r.warning(name, describe_math_problem(tex, problem))
    return rich


def make_abstract_html(paragraphs: list[RichText]) -> str:
    """Escaped paragraphs, math as MathML: BibTeX text is never trusted as HTML."""
    return "\n".join(f"<p>{p.html or html.escape(p.text, quote=False)}</p>"
                     for p in paragraphs if p.text)


def export_fields(entry: BibEntry) -> tuple[tuple[str, str], ...]:
    """The fields as written (macros expanded, one line each), crossref resolved into them;
    a month given as a macro stays a macro."""
    out = []
    for name, value in entry.fields.items():
        if name in MODEL_DISPLAY_FIELDS or name == "crossref" or not value.text.strip():
            continue
        out.append((name, export_value(name, value)))
    return tuple(out)


def export_value(name: str, value: BibValue) -> str:
    if name == "month" and value.macro.lower() in MONTH_MACROS:
        return value.macro.lower()
    return html_to_latex(fold_space(value.text))


# HTML's kept inline elements (cleantext.py) as LaTeX writes them, for the export.
_MARK_LATEX = {mark: ("}" if n else command) for element, command in (
    ("em", "\\textit{"), ("strong", "\\textbf{"), ("sup", "\\textsuperscript{"),
    ("sub", "\\textsubscript{")) for n, mark in enumerate(INLINE_MARKS[element])}


def html_to_latex(value: str) -> str:
    """A field as written, HTML in it as BibTeX means it: `<i>x</i>` is `\\textit{x}`, a
    tag of no meaning there (`<a href>`, `<span>`) is dropped, its text kept."""
    if "<" not in value:
        return value
    return INLINE_MARK.sub(lambda m: _MARK_LATEX[m.group()], mark_inline_html(value))

