"""Citation counts for `update`: each paper looked up by DOI, then arXiv id, then title
and year, at OpenAlex or Semantic Scholar, and written as content/citations.yaml.

A title is only taken as the paper when it is the same title (case, accents and
punctuation aside) and, where the service gives one, the same year give or take one (a
preprint's year and its venue's differ): a wrong count is worse than none.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from urllib.parse import quote, urlencode

from .fetch import FetchError, Fetcher, base_url
from ..models import CitationCount, Paper
from ..reading.bib.bibrepeats import fold_title
from ..reading.citecounts import MAX_YEAR, MIN_YEAR
from ..structure.urls import normalize_arxiv

HEADER = ("# Citation counts by paper, written by `scholarsite update` (README.md, 'Keeping\n"
          "# your papers and citation counts up to date'); each update replaces this file.\n")
ARXIV_DOI = "10.48550/arXiv.{}"  # the DOI arXiv gives every paper: how OpenAlex finds one
# What a service's record must hold to be written: a count no paper comes near (the most
# cited have a few hundred thousand), and an id of the service's shape, which becomes
# part of a link on the page.
MAX_COUNT = 10_000_000
_OPENALEX_ID = re.compile(r"W\d{1,15}")
_S2_ID = re.compile(r"[0-9A-Za-z]{1,64}")
_VERSION = re.compile(r"v\d+$")
# What a lookup found: the count, the service's id of the work, (year, count) pairs.
Found = tuple[int, str, tuple[tuple[int, int], ...]]


class BadRecord(ValueError):
    """A service's record that is not written: one paper's count is left out (with a
    warning), the others are still counted."""


@dataclass
class Counted:
    counts: list[CitationCount] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)  # slugs the service does not know
    failed: list[str] = field(default_factory=list)  # 'slug: why'
    bad: list[str] = field(default_factory=list)  # 'slug: why', records left out
    answered: int = 0  # papers the service answered for (counted or not known)


def count_papers(papers: list[Paper], service: str, fetcher: Fetcher, today: str,
                 previous: dict[str, CitationCount]) -> Counted:
    """Every paper's count. A paper whose lookup failed keeps its previous count; once the
    service cannot be reached at all, the rest are not asked for (one failure says so)."""
    out = Counted()
    lookup = lookup_openalex if service == "openalex" else lookup_semantic_scholar
    papers = sorted(papers, key=lambda p: p.slug)
    for at, paper in enumerate(papers):
        try:
            found = lookup(paper, fetcher)
        except BadRecord as exc:
            out.bad.append(f"{paper.slug}: {exc}")
            out.counts += [previous[paper.slug]] if paper.slug in previous else []
            continue
        except FetchError as exc:
            rest = papers[at:] if exc.kind == "offline" else [paper]
            out.failed.append(f"{exc} ({len(rest)} of {len(papers)} papers not counted)"
                              if exc.kind == "offline" else f"{paper.slug}: {exc}")
            out.counts += [previous[p.slug] for p in rest if p.slug in previous]
            if exc.kind == "offline":
                break
            continue
        out.answered += 1
        if found is None:
            out.unknown.append(paper.slug)
        else:
            out.counts.append(CitationCount(paper.slug, found[0], service, found[1], today,
                                            by_year=found[2]))
    return out


def ask(fetcher: Fetcher, url: str) -> object | None:
    """The service's JSON answer, None when it knows no such thing."""
    try:
        return fetcher.fetch_json(url)
    except FetchError as exc:
        if exc.kind == "missing":
            return None
        raise


def paper_arxiv(paper: Paper) -> str:
    return _VERSION.sub("", normalize_arxiv(paper.arxiv or paper.link("arxiv")))


def lookup_openalex(paper: Paper, fetcher: Fetcher) -> Found | None:
    """(cited_by_count, work id such as W2741809807, counts_by_year), or None."""
    base = base_url("openalex")
    polite = f"?{urlencode({'mailto': fetcher.contact})}" if fetcher.contact else ""
    arxiv = paper_arxiv(paper)
    for doi in [d for d in (paper.doi, arxiv and ARXIV_DOI.format(arxiv)) if d]:
        work = ask(fetcher, f"{base}/works/doi:{quote(doi, safe='/')}{polite}")
        if isinstance(work, dict):
            return read_openalex_work(work)
    words = " ".join(re.findall(r"\w+", paper.title))  # no comma: it would end the filter
    year = f",publication_year:{paper.date.year}" if paper.date else ""
    query = {"filter": f"title.search:{words}{year}",
             "per-page": "10"}
    if fetcher.contact:
        query["mailto"] = fetcher.contact
    answer = ask(fetcher, f"{base}/works?{urlencode(query)}")
    for work in (answer.get("results") if isinstance(answer, dict) else None) or []:
        if isinstance(work, dict) and same_title(paper, work.get("title"), None):
            return read_openalex_work(work)
    return None


def read_openalex_work(work: dict) -> Found:
    work_id = work.get("id")
    short = work_id.rstrip("/").rsplit("/", 1)[-1] if isinstance(work_id, str) else ""
    if not _OPENALEX_ID.fullmatch(short):
        raise BadRecord(f"OpenAlex's answer is left out: 'id' is {work_id!r}, not an "
                        "OpenAlex work")
    count = check_count(work.get("cited_by_count"), "OpenAlex", "cited_by_count")
    return count, short, read_counts_by_year(work.get("counts_by_year"))


def read_counts_by_year(years: object) -> tuple[tuple[int, int], ...]:
    """OpenAlex's `counts_by_year` (its last ten years, newest first) as (year, count)
    pairs, oldest first, for the charts; a malformed one leaves the paper out, as a
    malformed count does (the chart would show figures the service never gave)."""
    pairs = {}
    for entry in years if isinstance(years, list) else ():
        year = entry.get("year") if isinstance(entry, dict) else None
        if isinstance(year, bool) or not isinstance(year, int) or not MIN_YEAR <= year <= MAX_YEAR:
            raise BadRecord(f"OpenAlex's answer is left out: 'counts_by_year' has {entry!r}, "
                            "not a year and its count")
        pairs[year] = check_count(entry.get("cited_by_count"), "OpenAlex",
                                  f"counts_by_year {year}")
    return tuple(sorted(pairs.items()))


def check_count(count: object, service: str, name: str) -> int:
    if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_COUNT:
        raise BadRecord(f"{service}'s answer is left out: '{name}' is {count!r}, not a "
                        "number of citations")
    return count


def lookup_semantic_scholar(paper: Paper, fetcher: Fetcher) -> Found | None:
    """(citationCount, paperId, ()), or None: Semantic Scholar gives no counts by year."""
    base = base_url("semantic-scholar")
    fields = "fields=citationCount,title,year"
    arxiv = paper_arxiv(paper)
    for name in [n for n in (paper.doi and f"DOI:{paper.doi}", arxiv and f"ARXIV:{arxiv}") if n]:
        found = ask(fetcher, f"{base}/paper/{quote(name, safe='/:')}?{fields}")
        if isinstance(found, dict):
            return read_s2_paper(found)
    answer = ask(fetcher, f"{base}/paper/search/match?{urlencode({'query': paper.title})}"
                 f"&{fields}")
    for found in (answer.get("data") if isinstance(answer, dict) else None) or []:
        if isinstance(found, dict) and same_title(paper, found.get("title"), found.get("year")):
            return read_s2_paper(found)
    return None


def read_s2_paper(found: dict) -> Found:
    paper_id = found.get("paperId")
    if not isinstance(paper_id, str) or not _S2_ID.fullmatch(paper_id):
        raise BadRecord(f"Semantic Scholar's answer is left out: 'paperId' is {paper_id!r}, "
                        "not a Semantic Scholar paper")
    return check_count(found.get("citationCount"), "Semantic Scholar", "citationCount"), \
        paper_id, ()


def same_title(paper: Paper, title: object, year: object) -> bool:
    if not isinstance(title, str) or fold_title(title) != fold_title(paper.title):
        return False
    return not isinstance(year, int) or not paper.date or abs(year - paper.date.year) <= 1


def format_counts(counts: list[CitationCount]) -> str:
    """citations.yaml: by slug, sorted; every value quoted as JSON (which YAML reads), so
    no slug or id is ever read as a number or a boolean."""
    lines = [HEADER]
    for count in sorted(counts, key=lambda c: c.slug):
        lines += [f"{json.dumps(count.slug)}:", f"  count: {count.count}",
                  f"  source: {count.source}", f"  id: {json.dumps(count.work_id)}",
                  f"  fetched: {count.fetched}"]
        if count.by_year:
            years = ", ".join(f"{year}: {cited}" for year, cited in count.by_year)
            lines.append(f"  by_year: {{{years}}}")
    return "\n".join(lines) + "\n"
