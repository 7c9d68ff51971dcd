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

from bibtexparser.middlewares.names import split_multiple_persons_names

from .biblinks import read_links
from .bibparse import MONTH_MACROS, BibEntry, BibValue, EntryReader, slug_from_key
from ..diagnostics import Diagnostics
from .fields import parse_date
from .latex import fold_space, latex_to_paragraphs, read_name
from ..models import Author, Paper, PubDate
from .papers import VENUELESS_TYPES, html_to_text
from ..structure.urls import normalize_arxiv, normalize_doi

TYPES = {
    "inproceedings": "conference", "conference": "conference", "article": "journal",
    "techreport": "report", "report": "report", "phdthesis": "thesis",
    "mastersthesis": "thesis", "thesis": "thesis", "book": "book", "proceedings": "book",
    "collection": "book", "incollection": "chapter", "inbook": "chapter", "patent": "patent",
    "preprint": "preprint",
}
# Fields whose meaning the model holds, only for the page: not part of `extra`.
MODEL_DISPLAY_FIELDS = frozenset({
    "abstract", "abbr", "selected", "pdf", "code", "html", "slides", "poster", "video", "supp",
    "award", "tier", "category", "topics",
})
_PREPRINT_VENUE = re.compile(r"\b(arxiv|corr|biorxiv|medrxiv|chemrxiv|ssrn|preprint)\b", re.I)
_YEAR = re.compile(r"^\d{4}$")


def make_paper(entry: BibEntry, path: Path, diags: Diagnostics) -> Paper | None:
    """The entry's paper, or None after reporting why it cannot be one."""
    r = EntryReader(entry, path, diags)
    slug = slug_from_key(entry.key)
    if not slug:
        r.error("", "the key has no letter or digit a-z, 0-9 to make a page address from; "
                "rename it")
    title = r.text("title")
    if not title:
        r.missing("title")
    authors, more = read_authors(r)
    date = read_date(r)
    ptype = read_type(r)
    venue, venue_short, institution = read_venue(r, ptype)
    links = read_links(r)
    arxiv = next((normalize_arxiv(link.url) for link in links if link.kind == "arxiv"), "")
    doi = next((normalize_doi(link.url) for link in links if link.kind == "doi"), "")
    check_venue(r, ptype, venue, institution, arxiv)
    abstract_html = make_abstract_html(r.raw("abstract"))
    details = dict(
        venue=venue, venue_short=venue_short, institution=institution, links=links,
        arxiv=arxiv, doi=doi, location=r.text("address") or r.text("location"),
        tier=r.text("tier"), category=r.text("category"), topics=read_topics(r),
        selected=read_flag(r, "selected"), award=r.text("award"), note=r.text("note"),
        volume=r.text("volume"), number=r.text("number"), pages=r.text("pages"),
        publisher=r.text("publisher"), abstract_html=abstract_html,
        abstract_text=html_to_text(abstract_html),
    )
    if r.errors or entry.broken or date is None or not title or not authors:
        return None
    return Paper(slug=slug, title=title, authors=authors, date=date, type=ptype, source=path,
                 line=entry.line, more_authors=more, bibtex_key=entry.key,
                 bibtex_type=entry.type, extra=export_fields(entry), **details)


def read_authors(r: EntryReader) -> tuple[tuple[Author, ...], bool]:
    """Authors (editors for an edited book), and whether the list ends in 'and others'."""
    name = "author" if r.raw("author").strip() else "editor"
    raw = r.raw(name)
    if not raw.strip():
        r.missing("author" if "author" in r.entry.fields or "editor" not in r.entry.fields
                  else "editor")
        return (), False
    names = split_multiple_persons_names(raw)
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


def read_date(r: EntryReader) -> PubDate | None:
    """Year and month (BibTeX), or biblatex's `date` when there is no year."""
    year_text = r.text("year")
    if not year_text and r.text("date"):
        date = parse_date(r.text("date").split("/")[0].strip())
        if date is None:
            r.error("date", f"'date' must be written YYYY, YYYY-MM or YYYY-MM-DD, found "
                    f"{r.text('date')!r}")
        return date
    if not year_text:
        r.missing("year")
        return None
    if not _YEAR.match(year_text) or int(year_text) < 1:
        r.error("year", f"'year' must be a four-digit year from 0001, found {year_text!r}")
        return None
    month = read_month(r)
    if month and r.text("day").isdigit():
        date = parse_date(f"{year_text}-{month:02d}-{int(r.text('day')):02d}")
        if date is not None:
            return date
        r.warning("day", f"'day' {r.text('day')!r} is not a day of that month; ignored")
    return PubDate(int(year_text), month)


def read_month(r: EntryReader) -> int | None:
    """jan..dec, January, Jan., Sept., 1..12; a range such as 'jun--jul' takes its first."""
    text = r.text("month")
    if not text:
        return None
    word = re.split(r"[\s/–\-]+", text.strip())[0].rstrip(".").lower()
    if word.isdigit() and 1 <= int(word) <= 12:
        return int(word)
    for number, (abbr, name) in enumerate(MONTH_MACROS.items(), start=1):
        if word.startswith(abbr) and name.lower().startswith(word):
            return number
    r.warning("month", f"'month' {text!r} is not a month (write jan..dec or 1..12); only the "
              "year is shown")
    return None


def read_type(r: EntryReader) -> str:
    """The paper type from the entry type; an @article in an arXiv-like venue is a preprint,
    and a @misc with an eprint is a preprint."""
    kind = r.entry.type
    if kind == "article":
        return "preprint" if _PREPRINT_VENUE.search(r.text("journal")) else "journal"
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
    institution = r.text("institution") or r.text("school")
    return venue, r.text("abbr"), institution


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


def read_topics(r: EntryReader) -> tuple[str, ...]:
    return tuple(t for t in (fold_space(x) for x in re.split(r"[,;]", r.text("topics"))) if t)


def read_flag(r: EntryReader, name: str) -> bool:
    text = r.text(name).lower()
    if not text:
        return False
    if text in ("true", "yes", "1"):
        return True
    if text not in ("false", "no", "0"):
        r.warning(name, f"'{name}' must be true or false, found {text!r}; taken as false")
    return False


def make_abstract_html(raw: str) -> str:
    """Escaped paragraphs: BibTeX text is never trusted as HTML."""
    return "\n".join(f"<p>{html.escape(p, quote=False)}</p>" for p in latex_to_paragraphs(raw))


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
    return fold_space(value.text)

