"""`add ID...`: a paper file from its identifier, written as a person would write it.

A DOI is asked of Crossref, then of DataCite when Crossref does not know it; an arXiv id
or address of arXiv (its newest version), and then of Crossref for the DOI arXiv says
the preprint was published under: the two are one paper with both links; a PubMed id of
NCBI's E-utilities; an ISBN of Open Library; an OpenReview address of OpenReview's API 2,
then of its API 1 (older venues); an ACL Anthology address of the Anthology (the
paper's BibTeX). Every request goes through fetch.Fetcher (netrequest.fetch_url: one
deadline, a size cap, no redirect away from the service), every text through
reading/text/markup.py, every file through importer.format_paper_file and the writer.

Nothing is ever overwritten: a paper whose DOI or arXiv id the site has already is named
with its file and left out. When any identifier cannot be had (unknown, a network error,
a rate limit), each is one line and nothing at all is written.
"""

from __future__ import annotations

import argparse
import dataclasses
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from .addsources import (ARXIV_DOI, Found, list_author_keys, read_arxiv, read_crossref,
                         read_datacite, read_isbn, read_openlibrary, read_pubmed)
from .addvenues import (read_acl_url, read_anthology_bibtex, read_openreview,
                        read_openreview_url)
from .addwrite import (find_owner, find_style, format_paper, identities, index_papers,
                       make_paper_slug)
from ..diagnostics import Diagnostics, count_of, printable
from .fetch import FetchError, Fetcher, base_url
from .papersources import dig
from ..models import Owner
from ..output.paths import why_not_write
from ..output.writer import create_file
from ..reading.listing import check_inside
from ..reading.loader import CONFIG_FILE, PAPERS_DIR
from ..reading.settings.config import load_config
from ..reading.text.cleantext import clean_text
from ..reading.text.papers import make_markdown, read_markdown_paper
from ..structure.urls import normalize_arxiv, normalize_doi

_PUBMED = re.compile(r"^(?:pmid:\s*|https?://pubmed\.ncbi\.nlm\.nih\.gov/)?(\d{1,8})/?$", re.I)
SERVICE_NAMES = {"crossref": "Crossref", "datacite": "DataCite", "arxiv": "arXiv",
                 "pubmed": "PubMed", "openlibrary": "Open Library", "openreview": "OpenReview",
                 "openreview-v1": "OpenReview", "acl": "ACL Anthology"}
MAX_BOOK_AUTHORS = 20  # requests to Open Library for one book's authors' names


class AddError(Exception):
    """One identifier that cannot be added: the message is its one line."""


@dataclass(frozen=True)
class Planned:
    given: str  # the identifier as typed
    found: Found
    path: Path
    text: str


def classify(given: str) -> tuple[str, str]:
    """('doi' | 'arxiv' | 'isbn' | 'pubmed' | 'openreview' | 'acl', the bare identifier);
    AddError when it is none."""
    value = given.strip()
    for kind, read in (("openreview", read_openreview_url), ("acl", read_acl_url)):
        if read(value):  # before a DOI: an address may hold one ('/forum?id=10.1...')
            return kind, read(value)
    doi = normalize_doi(value)
    arxiv_doi = ARXIV_DOI.match(doi)
    if arxiv_doi and normalize_arxiv(arxiv_doi.group(1)):
        return "arxiv", re.sub(r"v\d+$", "", normalize_arxiv(arxiv_doi.group(1)))
    if doi:
        return "doi", doi
    if normalize_arxiv(value):
        return "arxiv", re.sub(r"v\d+$", "", normalize_arxiv(value))
    if read_isbn(value):
        return "isbn", read_isbn(value)
    pubmed = _PUBMED.match(value)
    if pubmed:
        return "pubmed", pubmed.group(1)
    raise AddError("not a DOI (10.1145/...), an arXiv id or address (2101.00001), an ISBN, "
                   "a PubMed id (pmid:12345678), or an OpenReview or ACL Anthology address")


def describe_failure(service: str, exc: FetchError) -> str:
    name, what = SERVICE_NAMES[service], str(exc).removeprefix(f"{exc.url}: ")
    if exc.kind == "limited":
        return f"{name} is limiting requests ({what}); try again in a while"
    return f"{name}: {what}" if exc.kind == "offline" else f"{name}: {exc}"


def ask(fetcher: Fetcher, service: str, url: str, json: bool = True,
        accept: str = "application/xml") -> object | None:
    """The service's answer (None when it does not know the thing asked); AddError."""
    try:
        if json:
            return fetcher.fetch_json(url)
        return fetcher.fetch(url, accept).decode("utf-8", "replace")
    except FetchError as exc:
        if exc.kind == "missing":
            return None
        raise AddError(describe_failure(service, exc)) from None


def read_answer(service: str, reader, answer: object) -> Found | None:
    try:
        return reader(answer)
    except (ValueError, TypeError, AttributeError, KeyError, IndexError) as exc:
        # an answer shaped otherwise than its service documents: this paper's one line
        raise AddError(f"{SERVICE_NAMES[service]}'s answer could not be read ({exc})") from None


def look_up_doi(doi: str, fetcher: Fetcher) -> Found | None:
    """Crossref's work, else DataCite's; None when neither knows the DOI."""
    answer = ask(fetcher, "crossref", f"{base_url('crossref')}/works/{quote(doi, safe='/')}")
    if answer is not None:
        return read_answer("crossref", read_crossref, answer)
    answer = ask(fetcher, "datacite", f"{base_url('datacite')}/dois/{quote(doi, safe='/')}")
    return None if answer is None else read_answer("datacite", read_datacite, answer)


def look_up_arxiv(arxiv: str, fetcher: Fetcher) -> Found | None:
    """arXiv's newest version; when arXiv names the DOI it was published under, that
    paper (as Crossref has it) with the preprint's link and, lacking its own, abstract."""
    feed = ask(fetcher, "arxiv", f"{base_url('arxiv')}/api/query?id_list={quote(arxiv)}"
               "&max_results=1", json=False)
    preprint = None if feed is None else read_answer("arxiv", read_arxiv, feed)
    if preprint is None or not preprint.published_doi:
        return preprint
    published = look_up_doi(preprint.published_doi, fetcher)
    if published is None:  # not yet known: the preprint, with the DOI it will have
        return dataclasses.replace(preprint, doi=preprint.published_doi)
    return dataclasses.replace(published, arxiv=preprint.arxiv,
                               abstract=published.abstract or preprint.abstract,
                               pdf=published.pdf or preprint.pdf,
                               source=f"{published.source} and arXiv")


def look_up_isbn(isbn: str, fetcher: Fetcher) -> Found | None:
    """Open Library's edition, its work (for authors or a description it lacks) and its
    authors' names."""
    base = base_url("openlibrary")
    edition = ask(fetcher, "openlibrary", f"{base}/isbn/{isbn}.json")
    if edition is None:
        return None
    key = dig(edition, "works", 0, "key")
    work = ask(fetcher, "openlibrary", f"{base}{key}.json") \
        if isinstance(key, str) and re.fullmatch(r"/works/OL\d+W", key) else None
    names = []
    for author in list_author_keys(edition, work)[:MAX_BOOK_AUTHORS]:
        name = dig(ask(fetcher, "openlibrary", f"{base}{author}.json"), "name")
        if isinstance(name, str) and name.strip():
            names.append(" ".join(name.split()))
    return read_answer("openlibrary", lambda e: read_openlibrary(e, work, names, isbn),
                       edition)


def look_up_pubmed(pmid: str, fetcher: Fetcher) -> Found | None:
    answer = ask(fetcher, "pubmed", f"{base_url('pubmed')}/efetch.fcgi?db=pubmed&id={pmid}"
                 "&retmode=xml", json=False)
    return None if answer is None else read_answer("pubmed", read_pubmed, answer)


def look_up_openreview(forum: str, fetcher: Fetcher) -> Found | None:
    """The forum's paper as OpenReview's API 2 has it, else as its API 1 (the venues
    before 2023, which API 2 does not serve)."""
    for service in ("openreview", "openreview-v1"):
        answer = ask(fetcher, service, f"{base_url(service)}/notes?id={quote(forum)}")
        found = None if answer is None else read_answer(
            service, lambda a: read_openreview(a, forum), answer)
        if found is not None:
            return found
    return None


def look_up_acl(anthology_id: str, fetcher: Fetcher) -> Found | None:
    answer = ask(fetcher, "acl", f"{base_url('acl')}/{anthology_id}.bib", json=False,
                 accept="application/x-bibtex")
    return None if answer is None else read_answer(
        "acl", lambda bib: read_anthology_bibtex(bib, anthology_id), answer)


def look_up(given: str, fetcher: Fetcher) -> Found:
    kind, value = classify(given)
    found = {"doi": look_up_doi, "arxiv": look_up_arxiv, "isbn": look_up_isbn,
             "pubmed": look_up_pubmed, "openreview": look_up_openreview,
             "acl": look_up_acl}[kind](value, fetcher)
    where = {"doi": "Crossref or DataCite", "arxiv": "arXiv", "isbn": "Open Library",
             "pubmed": "PubMed", "openreview": "OpenReview",
             "acl": "the ACL Anthology"}[kind]
    if found is None:
        raise AddError(f"not known to {where}")
    return found


def run_add(args: argparse.Namespace, fetcher: Fetcher | None = None) -> int:
    diags = Diagnostics(root=Path.cwd())
    config = load_config(args.content / CONFIG_FILE, diags)
    folder = args.content / PAPERS_DIR
    if config is None or (folder.exists() and not check_inside(folder, args.content, diags)):
        for item in diags.items:
            print(printable(str(item)), file=sys.stderr)
        return 1
    fetcher = fetcher or Fetcher(config.sources.contact or config.owner.email, retries=1,
                                 max_wait=10.0)
    plans, failures, skipped = plan_papers(args, config.owner, fetcher)
    for line in skipped:
        print(printable(line))
    for line in failures:
        print(printable(f"error: {line}"), file=sys.stderr)
    if failures:
        print(f"Nothing was written: {count_of(len(failures), 'problem')}.", file=sys.stderr)
        return 1
    lost = [plan for plan in plans if not args.dry_run  # created exclusively: a file
            and not create_file(plan.path, plan.text.encode("utf-8"))]  # made meanwhile stays
    for plan in plans:
        if plan not in lost:
            show_plan(plan, config.owner, args)
    for plan in lost:
        print(printable(f"error: {plan.given}: {plan.path.as_posix()} was made meanwhile; "
                        "left as it is, run add again"), file=sys.stderr)
    done = "would be added (--dry-run)" if args.dry_run else "added"
    print(f"{count_of(len(plans) - len(lost), 'paper')} {done}, {len(skipped)} already in "
          "the site.")
    return 1 if lost else 0


def plan_papers(args: argparse.Namespace, owner: Owner, fetcher: Fetcher
                ) -> tuple[list[Planned], list[str], list[str]]:
    """The files to write, each identifier's problem, and the papers the site has."""
    known = index_papers(args.content)
    folder = args.content / PAPERS_DIR
    style = find_style(folder, args.content)
    plans: list[Planned] = []
    failures, skipped = [], []
    for given in args.ids:
        try:
            found = look_up(given, fetcher)
            where = next((known[key] for key in found_identities(found) if key in known), "")
            if where:
                skipped.append(f"{given}: already in the site ({where}); not added")
                continue
            plan = plan_file(given, found, owner, folder, style,
                             {plan.path for plan in plans}, args.content)
        except AddError as exc:
            failures.append(f"{given}: {exc}")
            continue
        plans.append(plan)
        for key in found_identities(found):  # one paper named twice: added once
            known[key] = f"{plan.path.relative_to(args.content).as_posix()} (this run)"
    return plans, failures, skipped


def found_identities(found: Found) -> list[tuple[str, str]]:
    return identities(found.doi, found.arxiv, found.isbn if found.type == "book" else "",
                      found.page)


def plan_file(given: str, found: Found, owner: Owner, folder: Path, style: str,
              taken: set[Path], content: Path) -> Planned:
    """The paper's new file, read back as the build reads it; AddError when it would
    not build (a service's record too bare to be a paper)."""
    slug = make_paper_slug(found, style)
    path, number = folder / f"{slug}.md", 2
    while path.exists() or path.is_symlink() or path in taken:  # never overwritten
        path, number = folder / f"{slug}-{number}.md", number + 1
    problem = why_not_write(path, content)
    if problem:
        raise AddError(f"{path.as_posix()}: {problem}")
    text = format_paper(clean_found(found), owner)
    diags = Diagnostics(root=content)
    if read_markdown_paper(path, text, make_markdown(), diags) is None or diags.has_errors():
        raise AddError(f"{found.source}'s record is not a whole paper: "
                       + "; ".join(d.message for d in diags.errors()))
    return Planned(given, found, path, text)


def clean_found(found: Found) -> Found:
    """Every text of `found` as the build's cleaner leaves it (no control character,
    surrogate or noncharacter), before YAML would write one as an escape."""
    def clean(value):
        if isinstance(value, str):
            return clean_text(value)[0]
        if isinstance(value, tuple):
            return tuple(clean(item) for item in value)
        if dataclasses.is_dataclass(value):
            return dataclasses.replace(value, **{f.name: clean(getattr(value, f.name))
                                                 for f in dataclasses.fields(value)})
        return value
    return clean(found)


def show_plan(plan: Planned, owner: Owner, args: argparse.Namespace) -> None:
    place = find_owner(plan.found, owner)
    you = f"you are author {place} of {len(plan.found.authors)}" if place else \
        f"none of its {count_of(len(plan.found.authors), 'author')} is {owner.name} " \
        "(site.yaml's author.name and aliases)"
    verb = "would write" if args.dry_run else "wrote"
    print(printable(f"{plan.given}: {verb} {plan.path.as_posix()} (from {plan.found.source}; "
                    f"{you})"))
    if args.dry_run:  # line by line: a line break is the file's, not a forged line
        print("\n".join(printable(line) for line in plan.text.split("\n")))
