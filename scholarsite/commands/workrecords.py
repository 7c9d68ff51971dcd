"""A paper a service lists among a person's works, as a BibTeX record for `update`.

The services `add` reads one paper from (Crossref, arXiv, PubMed) list many in the same
shapes, so their works are read by addsources.py's readers; OpenAlex's works and
INSPIRE-HEP's literature records are read here into the same `Found`. Each `Found` is
then written as BibTeX fields, every text escaped (views/latexout.py), a title's
emphasis kept as the HTML the BibTeX reader knows, its formulas only when plain math.
"""

from __future__ import annotations

import re

from .addsources import (ARXIV_DOI, Found, Person, find_venue_short, format_pages, text)
from .bibmerge import Record
from .papersources import check_doi, check_url, dig
from ..reading.text.markup import markup_to_title
from ..structure.urls import normalize_arxiv
from ..views.latexout import escape_latex

# A Found's type as a BibTeX entry type, and the field its venue goes in.
BIB_TYPES = {"journal": ("article", "journal"), "conference": ("inproceedings", "booktitle"),
             "chapter": ("incollection", "booktitle"), "book": ("book", "publisher"),
             "preprint": ("misc", "howpublished"), "thesis": ("phdthesis", "school"),
             "report": ("techreport", "institution"), "other": ("misc", "howpublished")}
OPENALEX_TYPES = {"preprint": "preprint", "book-chapter": "chapter", "book": "book",
                  "dissertation": "thesis", "report": "report", "review": "journal",
                  "letter": "journal", "editorial": "journal"}
INSPIRE_TYPES = {"conference paper": "conference", "thesis": "thesis", "book": "book",
                 "book chapter": "chapter", "report": "report", "proceedings": "book"}
MAX_AUTHORS = 200  # named in an entry; more are "and others" (collaborations list 3,000)
_TITLE_PIECES = re.compile(r"(\$[^$]+\$|</?(?:i|b|sub|sup)>)")
# Math kept as TeX: letters, digits, operators and these commands alone (a service's
# formula may not \input a file nor define a macro when the CV is compiled).
_SAFE_MATH = re.compile(r"\$(?:[\w\s+\-=^{}()\[\],.;:!?'/*<>|]|\\(?:alpha|beta|gamma|delta|"
                        r"epsilon|varepsilon|zeta|eta|theta|kappa|lambda|mu|nu|xi|pi|rho|"
                        r"sigma|tau|phi|varphi|chi|psi|omega|Gamma|Delta|Theta|Lambda|Xi|Pi|"
                        r"Sigma|Phi|Psi|Omega|ell|to|rightarrow|leftarrow|times|cdot|pm|leq|"
                        r"geq|neq|approx|sim|infty|partial|nabla|sqrt|frac|bar|overline|hat|"
                        r"tilde|prime|mathrm|mathcal|mathbb|log|ln|sin|cos|exp|sum|int)"
                        r"(?![A-Za-z]))+\$")
_PMID = re.compile(r"\d{1,9}")
_ARXIV_ABS = re.compile(r"https?://(?:www\.)?arxiv\.org/abs/([^\s?#]+?)(?:v\d+)?$")


def title_to_latex(title: str) -> str:
    """markup_to_title's title (`<i>`, `<sub>`... and `$TeX$`) as a BibTeX field: its
    text escaped, HTML's inline subset kept as the BibTeX reader and the export read it
    (bibpaper.html_to_latex), each element closed."""
    out, opened = [], []
    for piece in _TITLE_PIECES.split(title):
        tag = re.fullmatch(r"<(/?)(i|b|sub|sup)>", piece)
        if tag and not tag.group(1):
            opened.append(tag.group(2))
            out.append(piece)
        elif tag:
            if opened and opened[-1] == tag.group(2):
                out.append(piece)
                opened.pop()
        elif _SAFE_MATH.fullmatch(piece) and piece.count("{") == piece.count("}"):
            out.append(piece)
        else:
            out.append(escape_latex(piece))
    return "".join(out) + "".join(f"</{tag}>" for tag in reversed(opened))


def format_person(person: Person) -> str:
    if person.family:
        name = f"{person.family}, {person.given}" if person.given else person.family
    else:
        name = person.name
    name = escape_latex(name)
    # A name holding a word 'and' would be split by BibTeX into two people: kept whole.
    return f"{{{name}}}" if re.search(r"(?i)\band\b", name) else name


def found_to_record(found: Found, key: str) -> Record | None:
    """The paper's entry; None when it has no year (a work of no date is no paper)."""
    year = found.date[:4]
    if not re.fullmatch(r"\d{4}", year) or not found.title.strip():
        return None
    kind, venue_field = BIB_TYPES.get(found.type, BIB_TYPES["other"])
    people = [format_person(p) for p in found.authors[:MAX_AUTHORS]]
    people += ["others"] if len(found.authors) > MAX_AUTHORS else []
    fields = {"author": " and ".join(people) or "others", "title": title_to_latex(found.title),
              "year": year}
    if re.fullmatch(r"0[1-9]|1[0-2]", found.date[5:7]):
        fields["month"] = str(int(found.date[5:7]))
    facts = {venue_field: found.venue, "volume": found.volume, "number": found.number,
             "pages": found.pages, "publisher": found.publisher}
    fields.update({name: escape_latex(value) for name, value in facts.items() if value})
    doi = check_doi(found.doi) or check_doi(found.published_doi)
    ids = {"doi": doi, "eprint": found.arxiv,
           "pmid": found.pmid if _PMID.fullmatch(found.pmid) else ""}
    fields.update({name: value for name, value in ids.items() if value})
    if found.arxiv:
        fields["archiveprefix"] = "arXiv"
    pdf = check_url(found.pdf)
    if pdf and not (found.arxiv and "arxiv.org/" in pdf):  # arXiv's PDF: its link has it
        fields["pdf"] = pdf
    return Record(key, kind, tuple(fields.items()))


def read_openalex_work(work: object) -> Found:
    """One of OpenAlex's works (`/works?filter=...`'s results); ValueError without a title."""
    title = text(dig(work, "title")) or text(dig(work, "display_name"))
    if not isinstance(work, dict) or not title:
        raise ValueError("a work has no title")
    source = dig(work, "primary_location", "source")
    venue = text(dig(source, "display_name"))
    kind = OPENALEX_TYPES.get(text(work.get("type")), "")
    if not kind:
        kind = {"conference": "conference", "journal": "journal",
                "repository": "preprint"}.get(text(dig(source, "type")), "other")
    first, last = text(dig(work, "biblio", "first_page")), text(dig(work, "biblio", "last_page"))
    doi = check_doi(text(work.get("doi")))
    arxiv_doi = ARXIV_DOI.match(doi)
    pmid = text(dig(work, "ids", "pmid")).rstrip("/").rsplit("/", 1)[-1]
    return Found("OpenAlex", markup_to_title(title), tuple(
        Person(name) for name in (text(dig(a, "author", "display_name")) or
                                  text(dig(a, "raw_author_name"))
                                  for a in work.get("authorships") or []) if name),
        text(work.get("publication_date"))[:10] or text(work.get("publication_year")),
        kind, venue=venue, venue_short=find_venue_short(venue) if venue else "",
        volume=text(dig(work, "biblio", "volume")), number=text(dig(work, "biblio", "issue")),
        pages=f"{first}–{last}" if first and last and first != last else first,
        doi="" if arxiv_doi else doi,
        arxiv=normalize_arxiv(arxiv_doi.group(1)) if arxiv_doi else find_arxiv_location(work),
        pdf=text(dig(work, "best_oa_location", "pdf_url")), pmid=pmid)


def find_arxiv_location(work: dict) -> str:
    """The arXiv id of the work's copy on arXiv, when OpenAlex lists one."""
    for location in work.get("locations") or []:
        found = _ARXIV_ABS.match(text(dig(location, "landing_page_url")))
        if found and normalize_arxiv(found.group(1)):
            return normalize_arxiv(found.group(1))
    return ""


def read_inspire_hit(hit: object) -> Found:
    """One of INSPIRE-HEP's literature records (`/literature?q=...`'s hits)."""
    data = dig(hit, "metadata")
    title = text(dig(data, "titles", 0, "title"))
    if not isinstance(data, dict) or not title:
        raise ValueError("a record has no title")
    journal = dig(data, "publication_info", 0)
    venue = text(dig(journal, "journal_title"))
    arxiv = normalize_arxiv(text(dig(data, "arxiv_eprints", 0, "value")))
    kind = INSPIRE_TYPES.get(text(dig(data, "document_type")), "")
    kind = kind or ("journal" if venue else "preprint" if arxiv else "other")
    first, last = text(dig(journal, "page_start")), text(dig(journal, "page_end"))
    date = text(data.get("earliest_date")) or text(dig(journal, "year"))
    return Found("INSPIRE-HEP", markup_to_title(title), read_inspire_people(data), date[:10],
                 kind, venue=venue or ("arXiv preprint" if kind == "preprint" else ""),
                 venue_short=venue, volume=text(dig(journal, "journal_volume")),
                 number=text(dig(journal, "journal_issue")),
                 pages=format_pages(f"{first}-{last}") if first and last
                 else first or text(dig(journal, "artid")),
                 doi=check_doi(text(dig(data, "dois", 0, "value"))), arxiv=arxiv)


def read_inspire_people(data: dict) -> tuple[Person, ...]:
    people = []
    for author in data.get("authors") or []:
        full = text(dig(author, "full_name"))  # 'Family, Given' as INSPIRE writes it
        family, _, given = (part.strip() for part in full.partition(","))
        if family:
            people.append(Person(f"{given} {family}".strip(), family, given))
    return tuple(people)


def find_record_key(prefix: str, value: str) -> str:
    """A BibTeX key from the service's stable id: characters BibTeX keys may not hold
    (a DOI's parentheses, say) as '-'."""
    return f"{prefix}:" + re.sub(r"[\s,{}()\"=#\\%@']", "-", value)
