"""axe-core (from npm, tests/package.json) reports zero violations on every kind of page of
every shipped site, in headless Chromium, in light and in dark mode, with every <details>
open, the filters showing and the search page showing results. Each page is loaded once and
checked in both schemes: the system's scheme is switched with the page showing, which the
theme follows as a fresh load in that scheme would (style.css's media queries; site.js
listens for the change)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import sites_to_sweep
from browser import AXE_JS, DESKTOP, PHONE, launch_chromium, open_page, pages_by_kind, require, serve

OPEN_ALL = "document.querySelectorAll('details').forEach(d => { d.open = true; })"
# The scheme changes colours only, so after the first scheme the page is checked again with
# axe's colour rules alone (those on by default: contrast, links told by colour).
RUN_AXE = """async (colour_only) => {
  const options = {resultTypes: ['violations']};
  if (colour_only) options.runOnly = {type: 'rule', values: ['color-contrast', 'link-in-text-block']};
  const result = await axe.run(document, options);
  return result.violations.map(v => ({id: v.id, help: v.help,
    nodes: v.nodes.slice(0, 5).map(n => n.target.join(' ') + ': ' + n.failureSummary)}));
}"""
SCHEMES = ("light", "dark")
DARK_NOW = "matchMedia('(prefers-color-scheme: dark)').matches"


@pytest.fixture(scope="module")
def browser():
    require(AXE_JS.is_file(), "axe-core is not installed (npm ci --prefix tests)")
    with launch_chromium() as browser:
        yield browser


def kind_urls(site: Path, base: str) -> list[tuple[str, str]]:
    """(kind, url) for one page of each kind; the search page with a query that finds."""
    urls = []
    for kind, path in sorted(pages_by_kind(site).items()):
        url = base + path.relative_to(site).as_posix()
        urls.append((kind, url + ("?q=a" if kind.startswith("search") else "")))
    return urls


def violations_on(page, url: str) -> list[dict]:
    page.goto(url)
    page.evaluate(OPEN_ALL)
    page.add_script_tag(path=str(AXE_JS))
    return page.evaluate(RUN_AXE, False)


def violations_in_schemes(page, url: str) -> dict[str, list[dict]]:
    """axe's violations in each colour scheme (none: {}), the page loaded once."""
    page.emulate_media(color_scheme=SCHEMES[0])
    found = {SCHEMES[0]: violations_on(page, url)}
    for scheme in SCHEMES[1:]:
        page.emulate_media(color_scheme=scheme)
        assert page.evaluate(DARK_NOW) == (scheme == "dark")  # the switch took
        found[scheme] = page.evaluate(RUN_AXE, True)
    return {scheme: found[scheme] for scheme in SCHEMES if found[scheme]}


@pytest.mark.full(only=True)  # the quick run: the example's every kind on a phone (below)
def test_no_axe_violations_on_any_kind_of_page_in_either_scheme(sites, browser):
    found = {}
    for name, site in sites_to_sweep(sites).items():
        with serve(site) as base, open_page(browser) as page:
            kinds = kind_urls(site, base)
            assert {"home", "publications in publications", "paper in publications",
                    "search in search"} <= {k for k, _ in kinds}
            for kind, url in kinds:
                violations = violations_in_schemes(page, url)
                if violations:
                    found[f"{name} {kind} {url}"] = violations
    assert not found, found


def test_no_axe_violations_on_a_phone_with_the_toggle_set_to_dark(sites, browser):
    """The toggle's dark theme (not the system's) on a narrow screen: the other palette path."""
    site = sites["example"]
    with serve(site) as base, open_page(browser, "light", PHONE) as page:
        page.goto(base)
        page.evaluate("localStorage.setItem('theme', 'dark')")
        for kind, url in kind_urls(site, base):
            assert violations_on(page, url) == [], (kind, url)
            assert page.evaluate("document.documentElement.dataset.theme") == "dark"


def test_math_code_figures_and_footnotes_pass_axe_on_a_phone_and_a_desktop(sites, browser):
    """The demo's post and paper that use every kind of scientific writing (math, code with
    line numbers, a figure, footnotes, a table, a task list, an admonition), and its
    notebook post (math, code, its outputs: a table, a plot, an error), in either
    scheme."""
    site = sites["demo"]
    with serve(site) as base:
        for viewport in (PHONE, DESKTOP):
            with open_page(browser, viewport=viewport) as page:
                path = "posts/simulating-a-queue/"
                assert violations_in_schemes(page, base + path) == {}, (path, viewport)
                assert page.locator(".nb-outputs").count() == 4
                for path in ("posts/queueing-in-one-page/", "publications/sandbar-report-2025/"):
                    assert violations_in_schemes(page, base + path) == {}, (path, viewport)
                    assert page.locator("math").count() >= 2 and page.locator(
                        "pre.highlight").count() == 1


def test_axe_finds_violations(tmp_path, browser):
    """The gate can fail: an image without alt text and a low-contrast paragraph are found."""
    (tmp_path / "bad.html").write_text(
        '<!DOCTYPE html><html lang="en"><head><title>x</title></head><body><main>'
        '<img src="x.png"><p style="color:#ccc;background:#fff">faint</p></main></body></html>',
        encoding="utf-8")
    with serve(tmp_path) as base, open_page(browser) as page:
        ids = {v["id"] for v in violations_on(page, base + "bad.html")}
    assert {"image-alt", "color-contrast"} <= ids


def test_a_violation_in_one_scheme_alone_is_found_in_that_scheme(tmp_path, browser):
    """The scheme switched with the page showing: a paragraph faint in dark mode alone is
    found in dark mode, and only there."""
    (tmp_path / "dark.html").write_text(
        '<!DOCTYPE html><html lang="en"><head><title>x</title><style>@media '
        '(prefers-color-scheme: dark) { p { color: #333; background: #222; } }</style>'
        '</head><body><main><h1>Notes</h1><p>faint at night</p></main></body></html>', encoding="utf-8")
    with serve(tmp_path) as base, open_page(browser) as page:
        found = violations_in_schemes(page, base + "dark.html")
    assert list(found) == ["dark"], found
    assert {v["id"] for v in found["dark"]} == {"color-contrast"}
