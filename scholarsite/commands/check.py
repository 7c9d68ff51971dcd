"""`python build.py check`: build into a temporary folder, then check what was built.

Everything `build` reports about the content, then every output page: links and #anchors
that lead nowhere, missing assets, absolute paths that break under a subpath, pages without a
title, duplicate ids. External links are checked only on request (--external), and so are
full addresses on the site's own host whose first folder the site does not have (another
site published on that host: is_other_site). Problems are
named by the file `build` writes (`site/publications/index.html:31`), which is the same file,
line for line, since builds are deterministic.
"""

from __future__ import annotations

import argparse
import dataclasses
import posixpath
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit

from .. import __version__
from ..build import BuildOptions, build
from ..reading.settings.publishing import Publishing
from ..diagnostics import ContentError, Diagnostic, Diagnostics, count_of
from ..reading.settings.yamlread import MAX_TEXT_BYTES, read_bytes
from .deadline import DeadlinePassed, deadline, read_seconds
from .linkscan import Link, PageScan, scan_html, scan_robots, scan_xml
from .new import RECORD as STARTER_RECORD
from .netrequest import RequestError, fetch_url, read_timeout
from ..models import Site
from ..reading.settings.placeholders import find_placeholders, is_untouched_starter
from ..output.generated import image_store, seed_store
from ..output.writer import MANIFEST
from ..structure.urls import FILES_DIR

HTML_SUFFIXES = (".html", ".htm")
EXTERNAL_TIMEOUT = 10.0  # seconds a request may take in all (SCHOLARSITE_TIMEOUT)
EXTERNAL_WORKERS = 8
SCAN_VARIABLE = "SCHOLARSITE_CHECK_SECONDS"
SCAN_SECONDS = 10.0  # per file; a built page of 1,500 papers is read in well under one


@dataclass(frozen=True)
class Target:
    """Where a link leads: a file below the output root, an external URL, or a problem."""

    path: str = ""
    fragment: str = ""
    external: str = ""
    problem: str = ""


@dataclass
class Report:
    problems: list[Diagnostic] = field(default_factory=list)
    pages: int = 0
    links: int = 0
    external: dict[str, list[tuple[str, int]]] = field(default_factory=dict)  # url -> uses


def run_check(args: argparse.Namespace) -> int:
    """The `check` command: 0 when nothing is wrong, 1 otherwise."""
    with tempfile.TemporaryDirectory(prefix="scholarsite-check-") as tmp:
        out = Path(tmp) / "site"
        # What `build` drew for the output folder is not drawn again (its store is only read).
        seed_store(image_store(out), image_store(args.output))
        try:
            result = build(BuildOptions(args.content, out, args.templates, args.strict,
                                        jobs=max(args.jobs, 0), cache=False,
                                        publishing=Publishing(future=args.future)))
        except ContentError as exc:
            print_lines(exc.diagnostics)
            found = count_of(count_errors(exc.diagnostics, args.strict), "problem")
            print(f"Check failed: {found} in "
                  "the content; the site could not be built.", file=sys.stderr)
            return 1
        assert result.site is not None  # read whole: a build without the cache
        report = check_output(out, result.site.config.url, args.output.as_posix())
    report.problems[:0] = judge_placeholders(args.content, result.warnings) \
        + find_content_conflicts(result.site)
    if args.external:
        report.problems += check_external(report.external, read_timeout(EXTERNAL_TIMEOUT))
    print_lines(report.problems)
    return print_summary(report, args.external, args.strict)


def judge_placeholders(content: Path, warnings: list[Diagnostic]) -> list[Diagnostic]:
    """The build's warnings, those at the starter's placeholders made errors: `check` is
    what the Pages workflow runs, and a site of the owner's must not publish 'Your Name'.
    The untouched starter, every file as `new` wrote it, publishes as a preview, said so.
    A site `new` did not make (migrated from an old one, where migrate says what to edit)
    is told of them as a build tells it."""
    if not (content.parent / STARTER_RECORD).is_file():
        return warnings  # not a site `new` made (a migrated one): said, as in a build
    found = {item.describe() for item in find_placeholders(content)}
    if found and is_untouched_starter(content):
        print("This is the untouched starter that `scholarsite new` wrote: it is checked and "
              "published as a preview. Put your own details on the lines named; once "
              "you have edited the site, `check` (and so the workflow) fails while a "
              "placeholder is left.")
        return warnings
    return [dataclasses.replace(d, severity="error") if d.message in found else d
            for d in warnings]


def count_errors(items: list[Diagnostic], strict: bool) -> int:
    return sum(1 for d in items if strict or d.severity == "error")


def print_lines(items: list[Diagnostic]) -> None:
    for item in items:
        print(item, file=sys.stderr)


def print_summary(report: Report, external: bool, strict: bool) -> int:
    outside = len(report.external)
    checked = "checked" if external else "not checked; add --external to check them"
    counts = (f"{report.pages} pages, {report.links} internal links, "
              f"{outside} external links ({checked})")
    errors = count_errors(report.problems, strict)
    if errors:
        print(f"Check failed: {count_of(errors, 'problem')} in {counts}.", file=sys.stderr)
        return 1
    print(f"Checked {counts}: no problems.")
    return 0


def find_content_conflicts(site: Site) -> list[Diagnostic]:
    """Checks that need the whole site at once: papers of one venue given different tiers.

    Hook: uses `find_tier_conflicts(site)` (an iterable of Diagnostic) from venues.py when
    that module provides it; until then there is nothing to add.
    """
    try:
        from ..reading.settings import venues
    except ImportError:
        return []
    finder = getattr(venues, "find_tier_conflicts", None)
    return list(finder(site)) if finder is not None else []


def scan_output(out: Path) -> tuple[dict[str, PageScan], list[Diagnostic], set[str]]:
    """Every checkable file of the built site by relative path, problems reading them, and
    the set of all files."""
    scans: dict[str, PageScan] = {}
    diags = Diagnostics(root=out)
    files = {p.relative_to(out).as_posix() for p in sorted(out.rglob("*")) if p.is_file()}
    files.discard(MANIFEST)
    for rel in sorted(files):
        if rel.endswith((*HTML_SUFFIXES, ".xml")) or rel == "robots.txt":
            scan = scan_file(out, rel, diags)
            if scan is not None:
                scans[rel] = scan
    problems = [as_owners(d) if is_published_as_is(d.path) else d for d in diags.items]
    return scans, problems, files


def scan_file(out: Path, rel: str, diags: Diagnostics) -> PageScan | None:
    """One built file's links and ids, read through the guarded reader (a regular file
    inside the site, at most its size limit) under a deadline: an owner's page in files/
    is anybody's HTML, which html.parser may read in quadratic time or fail on; that
    page is then one line, not a stalled or crashed check. None after a problem."""
    if (out / rel).stat().st_size > MAX_TEXT_BYTES:
        diags.error(rel, 0, f"not checked: over {MAX_TEXT_BYTES // 2**20} MB")
        return None
    data = read_bytes(out / rel, diags, out)
    if data is None:
        return None
    seconds = read_seconds(SCAN_VARIABLE, SCAN_SECONDS)
    try:
        with deadline(seconds):
            return scan_data(rel, data)
    except DeadlinePassed:
        diags.error(rel, 0, f"not checked: reading it took over {seconds:g} s")
    except ValueError as exc:  # not well-formed XML
        diags.error(rel, 0, str(exc))
    except Exception as exc:  # noqa: BLE001 - html.parser's own failures (AssertionError)
        diags.error(rel, 0, f"not checked: its HTML could not be read ({type(exc).__name__}: "
                    f"{' '.join(str(exc).split())[:120]})")
    return None


def scan_data(rel: str, data: bytes) -> PageScan:
    if rel.endswith(".xml"):
        return scan_xml(data)
    text = data.decode("utf-8", errors="replace")
    return scan_robots(text) if rel == "robots.txt" else scan_html(text)


def check_output(out: Path, base_url: str, shown_as: str) -> Report:
    """Check the built site in `out`; problems are named as if it were at `shown_as`."""
    scans, problems, files = scan_output(out)
    report = Report(problems, pages=sum(1 for rel in scans if rel.endswith(HTML_SUFFIXES)))
    tops = {rel.split("/", 1)[0] for rel in files}
    for rel, scan in scans.items():
        found = check_page(rel, scan) if rel.endswith(HTML_SUFFIXES) else []
        for link in scan.links:
            target = resolve_link(link.url, rel, base_url)
            if target is None:
                continue
            written = link.tag in ("a", "area") or link.tag == "link" and not \
                rel.endswith(HTML_SUFFIXES)  # a link shown, not a sitemap's or canonical
            if written and is_other_site(link.url, target, tops):
                target = Target(external=("https:" if link.url.startswith("//") else "")
                                + link.url.strip())
            if target.external:
                report.external.setdefault(target.external, []).append((rel, link.line))
                continue
            report.links += 1
            problem = target.problem or find_link_problem(target, link, rel, files, scans) \
                or find_rooted_link(link.url, rel)
            if problem:
                found.append(Diagnostic(rel, link.line, "error", problem))
        report.problems += [as_owners(d) for d in found] if is_published_as_is(rel) \
            else found
    report.problems = [Diagnostic(f"{shown_as}/{d.path}", d.line, d.severity, d.message)
                       for d in sorted(report.problems)]
    report.external = {url: [(f"{shown_as}/{rel}", line) for rel, line in where]
                       for url, where in report.external.items()}
    return report


def is_published_as_is(rel: str) -> bool:
    """Whether the file is one of the owner's, copied from `files/` as it is: the build
    wrote none of it (an old site's HTML pages moved in, a thesis's web version)."""
    return rel.split("/", 1)[0] == FILES_DIR


def as_owners(problem: Diagnostic) -> Diagnostic:
    """A problem of a file published as it is: a warning (an error with --strict), since
    the site the build wrote is sound and the file is the owner's to mend."""
    return Diagnostic(problem.path, problem.line, "warning",
                      f"{problem.message} (in a file published as it is from "
                      f"{FILES_DIR}/)")


def is_other_site(url: str, target: Target, tops: set[str]) -> bool:
    """Whether a full address on the site's own host leads to another site published there
    (a GitHub Pages project site, a book at https://host/book/): its first folder is none
    the site has. Such a link is external, checked with --external; a link into a folder
    of the site's own is checked here, and so is every sitemap entry and canonical link,
    which name the site's own pages."""
    full = urlsplit(url).scheme in ("http", "https") or url.startswith("//")
    top = target.path.split("/", 1)[0]
    return full and bool(target.path) and not target.problem and top not in tops \
        and top not in ("index.html", "")


def check_page(rel: str, scan: PageScan) -> list[Diagnostic]:
    """A page's own problems: its title and its ids."""
    problems = []
    if scan.title is None:
        problems.append(Diagnostic(rel, 1, "error", "the page has no <title>; browsers, "
                                   "bookmarks and search results show it"))
    elif not scan.title:
        problems.append(Diagnostic(rel, scan.title_line, "error", "the page's <title> is "
                                   "empty"))
    for anchor, lines in scan.ids.items():
        for line in lines[1:]:
            problems.append(Diagnostic(rel, line, "error", f"duplicate id '{anchor}' (first at "
                                       f"line {lines[0]}): links to #{anchor} find only the "
                                       "first"))
    return problems


def resolve_link(url: str, page: str, base_url: str) -> Target | None:
    """Where a link on `page` leads; None for links that need no check (mailto:, '#')."""
    url = url.strip()
    if url in ("", "#"):
        return None
    parts = urlsplit(url)
    if parts.scheme in ("http", "https") or url.startswith("//"):
        absolute = url if parts.scheme else "https:" + url
        if not absolute.startswith(base_url):
            return Target(external=absolute)
        parts = urlsplit(urlsplit(base_url).path + absolute[len(base_url):])
    elif parts.scheme:  # mailto:, tel:, data: ... (the build refuses unsafe schemes)
        return None
    fragment = unquote(parts.fragment)
    path = unquote(parts.path)
    if path.startswith("/"):
        base_path = urlsplit(base_url).path or "/"
        if not path.startswith(base_path):
            return Target(problem=f"link to '{url}' leaves the site's folder '{base_path}' "
                          "(site.yaml's url): use a relative link")
        joined = path[len(base_path):]
    elif path:
        joined = posixpath.join(posixpath.dirname(page), path)
    else:
        return Target(page, fragment)
    norm = posixpath.normpath(joined) if joined else "."
    if norm == ".." or norm.startswith("../"):
        return Target(problem=f"link to '{url}' leads outside the site")
    if norm == ".":
        return Target("index.html", fragment)
    return Target(norm + "/index.html" if joined.endswith("/") else norm, fragment)


def find_link_problem(target: Target, link: Link, page: str, files: set[str],
                      scans: dict[str, PageScan]) -> str:
    """Why an internal link does not work, or ''."""
    path = target.path
    if path not in files and f"{path}/index.html" in files:
        path += "/index.html"  # a folder named without its '/': servers redirect
    if path not in files:
        what = "missing asset" if link.asset else "broken link to"
        return f"{what} '{link.url}': there is no '{path}' in the site"
    fragment = target.fragment
    if not fragment or fragment == "top" or fragment.startswith(":~:") or path not in scans:
        return ""
    if path.endswith(HTML_SUFFIXES) and fragment not in scans[path].ids:
        where = "this page" if path == page else f"'{path}'"
        return f"broken link to '{link.url}': {where} has no id '{fragment}'"
    return ""


def find_rooted_link(url: str, page: str) -> str:
    """Why a link from the server's root ('/publications/') on a page is wrong, or '': it
    works on a domain's root alone, not opened from disk nor under a subpath. 404.html is
    the exception: served for any missing address, it can only name its assets so."""
    url = url.strip()
    if not url.startswith("/") or url.startswith("//") or page == "404.html" \
            or not page.endswith(HTML_SUFFIXES):
        return ""
    return (f"link to '{url}' begins with '/', the server's root: it breaks when the site "
            "is opened from disk or published under a subpath; make it relative")


def fetch_problem(url: str, timeout: float) -> tuple[str, str]:
    """(severity, message) for an external URL that does not answer well; ('', '') if fine.

    HEAD first, then GET, since many servers answer HEAD wrongly; the body is never read.
    Through netrequest.fetch_url: each request has `timeout` seconds in all, and neither
    the link nor a redirect may lead to a private or local address.
    """
    headers = {"User-Agent": f"scholarsite-link-check/{__version__}"}
    status, reason = 0, ""
    for method in ("HEAD", "GET"):
        try:
            answer = fetch_url(url, method, headers, timeout, 0)
        except RequestError as exc:
            if exc.kind == "private":  # visitors may reach it; check may not
                return "warning", f"external link '{url}' is not checked: {exc}"
            why = f"no answer within {timeout:g} s" if exc.kind == "timeout" else str(exc)
            return "error", f"external link '{url}' could not be reached: {why}"
        status, reason = answer.status, answer.reason
        if status < 400:
            return "", ""
    if status in (401, 403, 429):
        return "warning", (f"external link '{url}' answered {status} {reason}: the server may "
                           "refuse automated checks; open it in a browser")
    return "error", f"external link '{url}' answered {status} {reason}"


def check_external(external: dict[str, list[tuple[str, int]]],
                   timeout: float) -> list[Diagnostic]:
    """One request per distinct URL, a few at a time; a problem is named where it is used."""
    urls = sorted(external)
    with ThreadPoolExecutor(max_workers=EXTERNAL_WORKERS) as pool:
        answers = list(pool.map(lambda url: fetch_problem(url, timeout), urls))
    problems = []
    for url, (severity, message) in zip(urls, answers):
        if severity:
            problems += [Diagnostic(path, line, severity, message)
                         for path, line in external[url]]
    return sorted(problems)
