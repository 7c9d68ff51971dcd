"""The owner's works as OpenAlex, INSPIRE-HEP, arXiv, PubMed and Crossref list them, for
`update`: each service asked page by page (a few pages at most: a person's papers, not a
field's), each work read into a BibTeX record (workrecords.py).

    OpenAlex   /works?filter=authorships.author.id:A...  (or .orcid:)   JSON, cursor paging
    INSPIRE    /api/literature?q=a <BAI>                                JSON, page=1, 2...
    arXiv      arxiv.org/a/<author id>.atom2, or /api/query?search_query=...   Atom
    PubMed     esearch.fcgi?term=... then efetch.fcgi?id=... (E-utilities)    JSON, XML
    Crossref   /works?filter=orcid:...                                  JSON, cursor paging

A work that cannot be read is left out with a note; an answer that is not shaped as
documented at all is a FetchError or ValueError, and the source's files stay as they were.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable
from urllib.parse import quote, urlencode

from .addsources import Found, read_arxiv_feed, read_crossref, read_pubmed_set, text
from .bibmerge import Record
from .fetch import Fetcher, base_url
from .papersources import dig
from .workrecords import find_record_key, found_to_record, read_inspire_hit, read_openalex_work
from ..models import SiteConfig
from ..reading.settings.sourceconfig import is_orcid

MAX_PAGES = 25  # of any one source: 5,000 works from OpenAlex, far beyond a person's
PAGE_SIZE = 200
INSPIRE_PAGE = 250  # INSPIRE's most per page
ARXIV_PAUSE = 3.0  # seconds between arXiv's pages, as its API's terms ask
NCBI_PAUSE = 0.4  # NCBI allows 3 requests a second without a key
TOOL = "scholarsite"  # E-utilities' `tool`
_ARXIV_ERROR = re.compile(r"<entry>.*?<title>\s*Error\s*</title>", re.DOTALL)
# A record a reader could not make sense of: its one note, never the whole source's failure.
SHAPE_ERRORS = (ValueError, TypeError, AttributeError, KeyError, IndexError)


@dataclass(frozen=True)
class Listed:
    """What one source gave: its records, and a line for each work left out."""

    records: list[Record]
    notes: list[str]


def to_records(label: str, items: list, read: Callable[[object], tuple[Found, str]]
               ) -> Listed:
    """Each item read (as the paper and its entry's key, from the service's own stable id)
    and written as a record; what cannot be, a note."""
    records, notes, keys = [], [], set()
    for number, item in enumerate(items, 1):
        try:
            found, key = read(item)
        except SHAPE_ERRORS as exc:
            notes.append(f"{label}: work {number} of the answer is left out ({exc})")
            continue
        record = found_to_record(found, key) if key else None
        if record is None:
            notes.append(f"{label}: {found.title[:60]!r} is left out: it has no "
                         + ("year" if key else "identifier"))
        elif key not in keys:  # listed twice (two pages overlapping): written once
            keys.add(key)
            records.append(record)
    return Listed(records, notes)


def ask_list(fetcher: Fetcher, url: str, *path: str | int) -> tuple[list, object]:
    """The list at `path` in the JSON answer, and the answer; ValueError when it has none."""
    answer = fetcher.fetch_json(url)
    items = dig(answer, *path)
    if not isinstance(items, list):
        raise ValueError(f"{url}: the answer has no list of works ({'.'.join(map(str, path))})")
    return items, answer


def polite(config: SiteConfig, **params: str) -> str:
    """The query string, with the contact address where the service asks for it."""
    contact = config.sources.contact or config.owner.email
    return urlencode({**params, **({"mailto": contact} if contact else {})}, safe=":,*")


def fetch_openalex(config: SiteConfig, fetcher: Fetcher) -> Listed:
    who = config.sources.openalex
    field = "orcid" if is_orcid(who) else "id"
    items, cursor = [], "*"
    for _ in range(MAX_PAGES):
        query = polite(config, filter=f"authorships.author.{field}:{who}",
                       **{"per-page": str(PAGE_SIZE), "cursor": cursor})
        page, answer = ask_list(fetcher, f"{base_url('openalex')}/works?{query}", "results")
        items += page
        cursor = dig(answer, "meta", "next_cursor")
        if not page or not isinstance(cursor, str) or not cursor:
            break
    return to_records("OpenAlex", items, read_openalex)


def read_openalex(item: object) -> tuple[Found, str]:
    work_id = text(dig(item, "id")).rsplit("/", 1)[-1]
    return read_openalex_work(item), \
        find_record_key("OpenAlex", work_id) if re.fullmatch(r"W\d{1,12}", work_id) else ""


def fetch_inspire(config: SiteConfig, fetcher: Fetcher) -> Listed:
    items: list = []
    for page in range(1, MAX_PAGES + 1):
        query = urlencode({"q": f"a {config.sources.inspire}", "size": str(INSPIRE_PAGE),
                           "page": str(page), "sort": "mostrecent"})
        found, answer = ask_list(fetcher, f"{base_url('inspire')}/literature?{query}",
                                 "hits", "hits")
        items += found
        total = dig(answer, "hits", "total")
        if not found or not isinstance(total, int) or page * INSPIRE_PAGE >= total:
            break
    return to_records("INSPIRE-HEP", items, read_inspire)


def read_inspire(hit: object) -> tuple[Found, str]:
    number = text(dig(hit, "metadata", "control_number"))
    return read_inspire_hit(hit), find_record_key("INSPIRE", number) if number.isdigit() else ""


def fetch_arxiv(config: SiteConfig, fetcher: Fetcher) -> Listed:
    """An author identifier's (or ORCID iD's) feed, or the API's search, page by page."""
    who = config.sources.arxiv
    if is_author_id(who):
        feed = fetcher.fetch(f"{base_url('arxiv-author')}/{quote(who)}.atom2",
                             "application/atom+xml")
        return arxiv_records(read_feed(feed, "arXiv"))
    found: list[Found] = []
    for page in range(MAX_PAGES):
        if page:
            fetcher.sleep(ARXIV_PAUSE)
        query = urlencode({"search_query": who, "start": str(page * PAGE_SIZE),
                           "max_results": str(PAGE_SIZE), "sortBy": "submittedDate"})
        feed = fetcher.fetch(f"{base_url('arxiv')}/api/query?{query}", "application/atom+xml")
        more = read_feed(feed, "arXiv")
        found += more
        if len(more) < PAGE_SIZE:
            break
    return arxiv_records(found)


def is_author_id(value: str) -> bool:
    """arXiv's author identifier (lovelace_a_1) or an ORCID iD, not a search."""
    return bool(re.fullmatch(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)*_\d+", value)) or is_orcid(value)


def read_feed(data: bytes, label: str) -> list[Found]:
    text = data.decode("utf-8", "replace")
    if _ARXIV_ERROR.search(text):  # arXiv's way of saying a search is malformed
        raise ValueError(f"{label} answered with an error entry: check sources.arxiv")
    return read_arxiv_feed(text)


def arxiv_records(found: list[Found]) -> Listed:
    return to_records("arXiv", found,
                      lambda f: (f, find_record_key("arXiv", f.arxiv) if f.arxiv else ""))


def fetch_pubmed(config: SiteConfig, fetcher: Fetcher) -> Listed:
    """esearch for the ids (an ORCID iD is searched as PubMed's author identifier), then
    efetch for the articles, PAGE_SIZE a request, NCBI_PAUSE apart."""
    who = config.sources.pubmed
    term = f"{who}[auid]" if is_orcid(who.upper()) else who
    base = base_url("pubmed")
    query = polite_ncbi(config, db="pubmed", term=term, retmax=str(PAGE_SIZE * MAX_PAGES),
                        retmode="json")
    ids, _ = ask_list(fetcher, f"{base}/esearch.fcgi?{query}", "esearchresult", "idlist")
    ids = [i for i in ids if isinstance(i, str) and i.isdigit()]
    found: list[Found] = []
    for at in range(0, len(ids), PAGE_SIZE):
        fetcher.sleep(NCBI_PAUSE)
        query = polite_ncbi(config, db="pubmed", id=",".join(ids[at:at + PAGE_SIZE]),
                            retmode="xml")
        data = fetcher.fetch(f"{base}/efetch.fcgi?{query}", "application/xml")
        found += read_pubmed_set(data.decode("utf-8", "replace"))
    return to_records("PubMed", found, lambda f: (
        f, find_record_key("PMID", f.pmid) if f.pmid.isdigit() else ""))


def polite_ncbi(config: SiteConfig, **params: str) -> str:
    """E-utilities' query: NCBI asks every request to name the tool and an address."""
    contact = config.sources.contact or config.owner.email
    return urlencode({**params, "tool": TOOL, **({"email": contact} if contact else {})},
                     safe=",")


def fetch_crossref(config: SiteConfig, fetcher: Fetcher) -> Listed:
    items, cursor = [], "*"
    for _ in range(MAX_PAGES):
        query = polite(config, filter=f"orcid:{config.sources.crossref}", rows=str(PAGE_SIZE),
                       cursor=cursor)
        page, answer = ask_list(fetcher, f"{base_url('crossref')}/works?{query}",
                                "message", "items")
        items += page
        cursor = dig(answer, "message", "next-cursor")
        if len(page) < PAGE_SIZE or not isinstance(cursor, str):
            break
    return to_records("Crossref", items, read_crossref_item)


def read_crossref_item(item: object) -> tuple[Found, str]:
    found = read_crossref({"message": item})
    return found, find_record_key("DOI", found.doi) if found.doi else ""


# Each source: its label, its setting, and how its works are had. The order is the
# order of update: a paper two sources list is kept in the file of the first.
PAPER_SOURCES: dict[str, tuple[str, Callable[[SiteConfig], str],
                               Callable[[SiteConfig, Fetcher], Listed]]] = {
    "openalex": ("OpenAlex", lambda c: c.sources.openalex, fetch_openalex),
    "inspire": ("INSPIRE-HEP", lambda c: c.sources.inspire, fetch_inspire),
    "arxiv": ("arXiv", lambda c: c.sources.arxiv, fetch_arxiv),
    "pubmed": ("PubMed", lambda c: c.sources.pubmed, fetch_pubmed),
    "crossref": ("Crossref", lambda c: c.sources.crossref, fetch_crossref),
}
