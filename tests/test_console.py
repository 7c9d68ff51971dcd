"""The example site (and the demo, which has a CV and collections) in headless Chromium,
served from 127.0.0.1 as GitHub Pages serves it (at the root, and under /repo/ as a project
site): every page loads, and its scripts run through what a reader does (the dark-mode
toggle, the filters, search, the copy button), with no console error, no failed or refused
request (a missing favicon included) and no uncaught exception."""

from __future__ import annotations

import re
import shutil
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml

from browser import DESKTOP, html_pages, serve_like_pages
from conftest import DEMO, EXAMPLE, FULL_TESTS, build_args, run_cli

PROJECT_URL = "https://user.github.io/repo/"
KINDS = {"home", "publications", "paper", "search", "sitemap", "404"}
DATA_KIND = re.compile(r'<body data-kind="([^"]+)"')
MISSING = "no/such/page/"  # a deep address, answered with 404.html and status 404
OPEN_ALL = "document.querySelectorAll('details').forEach(d => { d.open = true; })"
ICONS = "[...document.querySelectorAll('link[rel~=icon]')].map(l => l.href)"


@pytest.fixture(scope="module")
def project_site(tmp_path_factory) -> Path:
    """The example site built for PROJECT_URL, from a copy of content/."""
    root = tmp_path_factory.mktemp("project")
    content = root / "content"
    shutil.copytree(EXAMPLE, content)
    config = content / "site.yaml"
    text = config.read_text(encoding="utf-8")
    config.write_text(re.sub(r"(?m)^url: .*$", f"url: {PROJECT_URL}", text), encoding="utf-8")
    result = run_cli(*build_args(content, root / "site"))
    assert result.code == 0, result.err
    return root / "site"


@contextmanager
def watched_page(browser, scheme: str):
    """A page in a fresh context, and the list of what went wrong on it: console errors,
    uncaught exceptions, failed requests and answers of 400 or more."""
    context = browser.new_context(color_scheme=scheme, viewport=DESKTOP)
    page = context.new_page()
    problems: list[str] = []

    def on_console(message) -> None:
        if message.type in ("error", "assert"):
            problems.append(f"console {message.type}: {message.text} "
                            f"({message.location.get('url')})")

    page.on("console", on_console)
    page.on("pageerror", lambda error: problems.append(f"uncaught on {page.url}: {error}"))

    def on_failed(request) -> None:
        # ERR_ABORTED is the browser dropping what a page still loaded (its icon, say) as
        # the next page opens; what the server refused or lacks is an answer, and counted.
        if request.failure != "net::ERR_ABORTED":
            problems.append(f"failed: {request.url} ({request.failure})")

    page.on("requestfailed", on_failed)
    page.on("response", lambda response: problems.append(
        f"{response.status}: {response.url}") if response.status >= 400 else None)
    try:
        yield page, problems
    finally:
        context.close()


def use_page(page, kind: str) -> None:
    """What a reader does on a page of this kind, so that every script's handlers run."""
    toggle = page.locator("#theme-toggle")
    if toggle.is_visible():
        toggle.click()
        toggle.click()
    page.evaluate(OPEN_ALL)
    if kind == "publications":
        page.get_by_label("Year", exact=True).select_option(index=1)
        page.get_by_label("Search publications").fill("scheduling")
        page.wait_for_function("location.search.includes('q=scheduling')")
        page.get_by_role("button", name="Clear filters").click()
        page.wait_for_function("location.search === ''")
    elif kind == "search":
        page.get_by_label("Search every page and paper").fill("scheduling")
        page.wait_for_function("location.search === '?q=scheduling'")
        page.wait_for_function("document.querySelectorAll('#search-results li').length > 0")
    elif kind.startswith("paper"):
        copy = page.get_by_role("button", name=re.compile("^Copy"))
        if copy.count():
            copy.first.click()
            page.wait_for_function(
                "document.querySelector('.copy-status').textContent !== ''")


def pages_to_visit(site: Path) -> list[Path]:
    """Every page with SCHOLARSITE_FULL_TESTS=1 (CI's first step); in the README's test
    command, which must stay under 8 minutes on 2 cores, the first page of each kind and
    every third of the others (the same templates and scripts; what differs between them
    is content, whose links `check` follows)."""
    pages = html_pages(site)
    if FULL_TESTS:
        return pages
    kinds: set[str] = set()
    chosen = []
    for index, path in enumerate(pages):
        kind = DATA_KIND.search(path.read_text(encoding="utf-8")).group(1)
        if kind not in kinds or index % 3 == 0 or path.name == "404.html":
            chosen.append(path)
        kinds.add(kind)
    return chosen


def check_every_page(browser, site: Path, base: str, scheme: str,
                     kinds: set[str] = KINDS) -> list[str]:
    """Visit every page of the built site (pages_to_visit; 404.html at a missing address);
    the first of each kind is used as a reader would (use_page) once the network is quiet.
    Returns what went wrong, each with the address it went wrong at."""
    seen: set[str] = set()
    with watched_page(browser, scheme) as (page, problems):
        for path in pages_to_visit(site):
            rel = path.relative_to(site).as_posix()
            url = base + (MISSING if rel == "404.html" else rel.removesuffix("index.html"))
            kind = DATA_KIND.search(path.read_text(encoding="utf-8")).group(1)
            first = kind not in seen
            seen.add(kind)
            response = page.goto(url, wait_until="networkidle" if first else "load")
            assert response.status == (404 if rel == "404.html" else 200), url
            if rel == "404.html":  # the page's own status is expected (and logged)
                problems[:] = [p for p in problems if not p.startswith("404: ") and not
                               (p.startswith("console error: Failed to load resource") and
                                p.endswith(f"({url})"))]
            if first:
                use_page(page, kind)
                for icon in page.evaluate(ICONS):
                    status = page.request.get(icon).status
                    if status != 200:
                        problems.append(f"{status}: {icon} (linked as the icon by {url})")
        page.wait_for_load_state("networkidle")
    assert kinds <= seen, sorted(seen)
    return problems


@pytest.mark.full(only=True)
def test_no_console_error_on_any_page_at_the_root(example, browser):
    with serve_like_pages(example) as base:
        problems = check_every_page(browser, example, base, "light")
        with watched_page(browser, "light") as (page, _):  # browsers ask for it unprompted
            assert page.request.get(base + "favicon.ico").status == 200
    assert problems == []


@pytest.mark.full(only=True)  # the demo's and the lab's runs are under subpaths too
def test_no_console_error_on_any_page_under_a_subpath(project_site, browser):
    with serve_like_pages(project_site, "/repo/") as base:
        assert base.endswith("/repo/")
        problems = check_every_page(browser, project_site, base, "dark")
    assert problems == []


@pytest.mark.full(only=True)  # a browser over every page of the demo: CI's first step
def test_no_console_error_on_the_demo_site(demo, browser):
    """The demo has what the example lacks: a CV, collections (news, talks, ...) and their
    items, and pages of its own. It is built for its own subpath, where it is served."""
    url = yaml.safe_load((DEMO / "site.yaml").read_text(encoding="utf-8"))["url"]
    with serve_like_pages(demo, urlsplit(url).path) as base:
        problems = check_every_page(browser, demo, base, "light",
                                    KINDS | {"cv", "collection", "item", "page"})
    assert problems == []


@pytest.mark.full(only=True)
def test_no_console_error_on_the_lab_site(shipped, browser):
    """The lab example: /people/, each person's page (photos and initials badges), author
    links, a CV with students, a free page; built for its own subpath."""
    lab = DEMO.parent / "lab"
    site = shipped(lab)[0]
    url = yaml.safe_load((lab / "site.yaml").read_text(encoding="utf-8"))["url"]
    with serve_like_pages(site, urlsplit(url).path) as base:
        problems = check_every_page(browser, site, base, "light",
                                    KINDS | {"people", "person", "cv", "page"})
    assert problems == []
