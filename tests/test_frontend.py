"""The front end in a real browser (Playwright driving headless Debian Chromium), on sites
built by the real CLI and served from 127.0.0.1: the dark-mode toggle, the abstract and
BibTeX toggles, the publication filters, site search, phone layouts, page weight, and
screenshots (into a temporary folder: scripts/screenshots.py makes docs/screenshots/)."""

from __future__ import annotations

import gzip
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest

from browser import DESKTOP, PHONE, open_page, pages_by_kind, serve
from conftest import EXAMPLE, build_args, paper, run_cli, sites_to_sweep

JS_BUDGET = 15 * 1024
PAGE_BUDGET = 40 * 1024  # the CSS and JavaScript one page loads, gzip-compressed
ASSET_REFS = re.compile(r'<link rel="stylesheet" href="([^"]+)"|<script src="([^"]+)"')
OPEN_ALL = "document.querySelectorAll('details').forEach(d => { d.open = true; })"
BACKGROUND = "getComputedStyle(document.body).backgroundColor"
# The scripts have run: the toggle is shown and the filter count, where there is one, is set.
READY = ("!document.getElementById('theme-toggle').hidden && "
         "(document.getElementById('filter-status')?.textContent ?? 'none') !== ''")


def shown_slugs(page) -> list[str]:
    return page.eval_on_selector_all(".group .paper:not([hidden])", "els => els.map(e => e.id)")


# --- Budgets and privacy -------------------------------------------------------------------

def test_assets_stay_within_budget(example):
    """All JavaScript (files and the inline theme script) within 15 KB."""
    home = (example / "index.html").read_text(encoding="utf-8")
    inline = re.findall(r"<script>(.*?)</script>", home, re.S)
    js = sum(p.stat().st_size for p in (example / "assets").rglob("*.js"))
    js += sum(len(s.encode("utf-8")) for s in inline)
    assert inline, "the theme must be set by an inline script in <head>"
    assert 0 < js <= JS_BUDGET, js


def compressed(data: bytes) -> int:
    return len(gzip.compress(data, compresslevel=9, mtime=0))


def page_weight(site: Path, path: Path) -> int:
    """The gzip-compressed bytes of the stylesheets and scripts a page links, and of its
    inline <script> and <style> elements (fonts and pictures are not counted)."""
    html = path.read_text(encoding="utf-8")
    linked = [css or js for css, js in ASSET_REFS.findall(html)]
    assert linked and not [u for u in linked if "//" in u], linked
    # 404.html links from the site's root path, as it is served at any depth.
    files = [site / "assets" / url.split("/assets/", 1)[1] if url.startswith("/")
             else path.parent / url for url in linked]
    inline = re.findall(r"<(?:script|style)>(.*?)</(?:script|style)>", html, re.S)
    return (sum(compressed(file.read_bytes()) for file in files)
            + sum(compressed(text.encode("utf-8")) for text in inline))


def test_every_kind_of_page_loads_at_most_40_kb_of_css_and_js_compressed(sites):
    weights = {f"{name} {kind}": page_weight(site, path) for name, site in sites.items()
               for kind, path in pages_by_kind(site).items()}
    heavy = {page: weight for page, weight in weights.items() if weight > PAGE_BUDGET}
    assert heavy == {}
    assert min(weights.values()) > 2048  # the stylesheets were found and counted


def test_no_request_leaves_the_site(sites, browser):
    """No web font, CDN or other third party: every request of every kind of page goes to
    the site's own server (every shipped site with SCHOLARSITE_FULL_TESTS=1)."""
    for site in sites_to_sweep(sites).values():
        with serve(site) as base, open_page(browser) as page:
            requested = []
            page.on("request", lambda r: requested.append(r.url))
            for path in pages_by_kind(site).values():
                page.goto(base + path.relative_to(site).as_posix())
            outside = [u for u in requested if not u.startswith(base)]
            assert requested and not outside, outside


# --- Dark mode -----------------------------------------------------------------------------

def test_dark_mode_toggle_is_remembered_across_pages_without_a_flash(example, browser):
    with serve(example) as base, open_page(browser, "light") as page:
        page.goto(base)
        light = page.evaluate(BACKGROUND)
        toggle = page.get_by_role("button", name="Dark mode")
        assert toggle.get_attribute("aria-pressed") == "false"
        toggle.click()
        assert toggle.get_attribute("aria-pressed") == "true"
        dark = page.evaluate(BACKGROUND)
        assert dark != light
        assert page.evaluate("localStorage.getItem('theme')") == "dark"

        # Another page is dark from the first paint: the inline <head> script alone applies
        # the choice, so it holds even when the deferred site.js never arrives.
        page.route("**/assets/site.js", lambda route: route.abort())
        page.goto(base + "publications/")
        assert page.evaluate("document.documentElement.dataset.theme") == "dark"
        assert page.evaluate(BACKGROUND) == dark
        page.unroute("**/assets/site.js")
        head = page.content().split("</head>")[0]
        assert head.index("localStorage") < head.index("style.css")

        # Back to light, which is the system's choice: the site follows the system again.
        page.reload()
        page.get_by_role("button", name="Dark mode").click()
        assert page.evaluate(BACKGROUND) == light
        assert page.evaluate("localStorage.getItem('theme')") is None


def test_dark_mode_follows_the_system_and_the_toggle_overrides_it(example, browser):
    with serve(example) as base, open_page(browser, "dark") as page:
        page.goto(base + "publications/")
        toggle = page.get_by_role("button", name="Dark mode")
        assert toggle.get_attribute("aria-pressed") == "true"
        dark = page.evaluate(BACKGROUND)
        toggle.click()
        assert page.evaluate("localStorage.getItem('theme')") == "light"
        page.goto(base)
        assert page.get_by_role("button", name="Dark mode").get_attribute("aria-pressed") == "false"
        assert page.evaluate(BACKGROUND) not in (dark, "")


def test_dark_mode_toggle_works_from_the_keyboard(example, browser):
    with serve(example) as base, open_page(browser, "light") as page:
        page.goto(base)
        for _ in range(15):
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.id") == "theme-toggle":
                break
        else:
            pytest.fail("Tab never reached the dark-mode toggle")
        page.keyboard.press("Space")
        assert page.evaluate("document.documentElement.dataset.theme") == "dark"
        page.keyboard.press("Enter")
        assert page.evaluate("document.documentElement.dataset.theme") == "light"


# --- Without JavaScript ----------------------------------------------------------------------

def test_everything_is_readable_without_javascript(example, papers, browser):
    with serve(example) as base, open_page(browser, java_script_enabled=False) as page:
        page.goto(base + "publications/")
        assert page.locator(".paper").count() == len(papers)
        assert page.locator(".paper:visible").count() == len(papers)
        assert not page.locator("#filters").is_visible()
        assert not page.locator("#theme-toggle").is_visible()
        entry = page.locator(".paper", has=page.locator(".abstract")).first
        abstract = entry.locator(".abstract")
        assert not abstract.is_visible()
        entry.locator("summary", has_text="Abstract").click()
        assert abstract.is_visible()
        slug = entry.get_attribute("id")
        assert abstract.inner_text().split()[:5] == papers[slug]["abstract"].split()[:5]
        page.goto(base + "search/")
        assert page.get_by_text("needs JavaScript").is_visible()


# --- Abstract and BibTeX toggles -------------------------------------------------------------

def test_abstract_and_bibtex_toggles(example, papers, browser):
    with serve(example) as base, open_page(browser) as page:
        page.goto(base + "publications/")
        entry = page.locator(".paper").first
        slug = entry.get_attribute("id")
        bibtex = entry.locator("pre.bibtex")
        assert not bibtex.is_visible()
        entry.locator("summary", has_text="BibTeX").focus()
        page.keyboard.press("Enter")
        assert bibtex.is_visible()
        assert bibtex.inner_text().startswith("@")
        assert papers[slug]["title"].split(":")[0] in bibtex.inner_text()
        shown = bibtex.inner_text()
        entry.locator("summary", has_text="Abstract").click()
        assert entry.locator(".abstract").is_visible()
        page.keyboard.press("Enter")  # the summary has focus after the click: Enter closes
        assert not entry.locator(".abstract").is_visible()
        # The entry leads to the paper's downloads, which save the BibTeX shown.
        entry.get_by_role("link", name="Download BibTeX or RIS").click()
        page.wait_for_url(f"**/publications/{slug}/#bibtex")
        for name, start in ((f"{slug}.bib", "@"), (f"{slug}.ris", "TY  - ")):
            with page.expect_download() as info:
                page.get_by_role("link", name=f"Download {name}").click()
            download = info.value
            assert download.suggested_filename == name
            text = Path(download.path()).read_text(encoding="utf-8")
            assert text.startswith(start)
            if name.endswith(".bib"):
                assert text.split() == shown.split()


# --- Filters ----------------------------------------------------------------------------------

# Each word of the badge's text: the tops of its letters' boxes (one top: on one line).
WORD_LINES = """el => { const text = el.firstChild, range = document.createRange(), words = [];
  for (const m of text.data.matchAll(/\\S+/g)) { const tops = new Set();
    for (let i = m.index; i < m.index + m[0].length; i++) { range.setStart(text, i);
      range.setEnd(text, i + 1); tops.add(Math.round(range.getBoundingClientRect().top)); }
    words.push([m[0], tops.size]); }
  return words; }"""


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE])
def test_a_hand_written_tier_wraps_between_words_never_inside_one(make_site, browser,
                                                                    viewport):
    content = make_site({"publications/a-paper.md": paper(
        extra="tier: Top Conference Internationalization\n")})
    out = content.parent / "site"
    assert run_cli(*build_args(content, out)).code == 0
    with serve(out) as base, open_page(browser, viewport=viewport) as page:
        page.goto(base + "publications/")
        words = page.eval_on_selector(".tier-badge", WORD_LINES)
        assert words == [["Top", 1], ["Conference", 1], ["Internationalization", 1]]
        title = page.eval_on_selector(".paper-title", "el => el.getBoundingClientRect().left")
        badge = page.eval_on_selector(".tier-badge", "el => el.getBoundingClientRect().right")
        if viewport == DESKTOP:  # beside the title: its column grew, not into the title
            assert badge <= title


LINES = """el => { const range = document.createRange(); range.selectNodeContents(el);
  return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size; }"""


def test_a_position_date_range_and_chinese_name_keep_together(make_site, browser):
    """The position is not left with a comma when the affiliation takes a line of its own;
    a CV's date range is one line; a name in Chinese is never split between characters."""
    config = ("title: 高巍\nurl: https://example.org/\nauthor:\n  name: Wei Gao\n"
              "  position: 教授、博士生导师\n  affiliation: 北方理工学院\n")
    cv = "positions:\n  - title: Professor\n    start: 2016-09\n    end: 2021-08\n"
    content = make_site({"site.yaml": config, "cv.yaml": cv, "people/xiaoyu-wang.md":
                         "---\nname: Xiaoyu Wang\nscripts: [王晓雨]\nrole: PhD student\n---\n"})
    out = content.parent / "site"
    assert run_cli(*build_args(content, out)).code == 0
    with serve(out) as base, open_page(browser, viewport=DESKTOP) as page:
        page.goto(base)
        assert page.inner_text(".position").split() == ["教授、博士生导师", "北方理工学院"]
        page.goto(base + "cv/")
        assert page.eval_on_selector(".cv-when", LINES) == 1
    with serve(out) as base, open_page(browser, viewport={"width": 320, "height": 740}) as page:
        page.goto(base + "people/")
        assert page.eval_on_selector(".person-scripts", LINES) == 1


def test_a_category_or_tier_holding_a_bar_is_one_value(make_site, browser):
    """Topics are joined by '|' in the page; a category or tier is one value, whatever it
    holds, so one with a '|' in it still filters; a topic cannot hold one."""
    files = {f"publications/{slug}.md": paper(slug.title(), date, extra=extra)
             for slug, date, extra in (
                 ("one", "2024-01", "category: 'Systems|ML'\ntier: 'A|B'\ntopics: [x, y]\n"),
                 ("two", "2023-01", "category: Theory\ntier: C\ntopics: [y]\n"))}
    content = make_site({"publications/a-paper.md": None, **files})
    out = content.parent / "site"
    assert run_cli(*build_args(content, out)).code == 0
    with serve(out) as base, open_page(browser) as page:
        page.goto(base + "publications/")
        page.get_by_label("Category").select_option("Systems|ML")
        assert shown_slugs(page) == ["one"]
        page.get_by_label("Category").select_option("")
        page.get_by_label("Tier").select_option("A|B")
        assert shown_slugs(page) == ["one"]
        page.get_by_label("Tier").select_option("")
        page.get_by_label("Topic").select_option("y")
        assert sorted(shown_slugs(page)) == ["one", "two"]
    bad = make_site({"publications/a-paper.md": paper(extra="topics: ['a|b']\n")})
    result = run_cli(*build_args(bad))
    assert result.code == 1 and "a topic cannot hold '|'" in result.err


def test_filter_by_year_counts_update_and_url_is_shareable(example, papers, browser):
    years = Counter(str(p["date"])[:4] for p in papers.values())
    year, expected = years.most_common(1)[0]
    total = len(papers)
    with serve(example) as base, open_page(browser) as page:
        page.goto(base + "publications/")
        status = page.get_by_role("status")
        assert status.inner_text() == f"{total} of {total} publications"
        page.get_by_label("Year", exact=True).select_option(year)
        assert status.inner_text() == f"{expected} of {total} publications"
        assert sorted(shown_slugs(page)) == sorted(s for s, p in papers.items()
                                                   if str(p["date"]).startswith(year))
        assert f"year={year}" in page.url
        # Empty groups disappear and the group counts add up to what is shown.
        counts = page.eval_on_selector_all(
            ".toc .count", "els => els.map(e => Number(e.textContent.slice(1, -1)))")
        assert sum(counts) == expected
        hidden_groups = page.locator(".group[hidden]").count()
        assert hidden_groups == counts.count(0)
        assert page.locator(".toc li:visible").count() == len(counts) - counts.count(0)
        # The other filters' choices count within the chosen year.
        in_year = Counter(p["category"] for p in papers.values()
                          if str(p["date"]).startswith(year))
        for option in page.locator("#filter-category option").all()[1:]:
            value = option.get_attribute("value")
            assert option.inner_text().endswith(f"({in_year.get(value, 0)})"), value

        shared = page.url
    with serve(example) as base2, open_page(browser) as page:
        page.goto(shared.replace(shared.split("publications/")[0], base2))
        assert page.get_by_label("Year", exact=True).input_value() == year
        assert page.get_by_role("status").inner_text() == f"{expected} of {total} publications"


def test_free_text_search_covers_title_authors_venue_and_abstract(example, papers, browser):
    slug, paper = next((s, p) for s, p in papers.items() if p["abstract"])
    phrase = " ".join(paper["abstract"].split()[3:7])
    with serve(example) as base, open_page(browser) as page:
        page.goto(base + "publications/")
        box = page.get_by_label("Search publications")
        box.fill(phrase)
        expect_ids = [s for s, p in papers.items() if phrase.casefold() in p["abstract"].casefold()]
        page.wait_for_function(f"document.querySelector('#filter-status').textContent"
                               f".startsWith('{len(expect_ids)} of')")
        assert sorted(shown_slugs(page)) == sorted(expect_ids) and slug in expect_ids
        assert "q=" in page.url

        author = paper["authors"][-1].rstrip("*†")
        box.fill(author.upper())  # case does not matter
        with_author = [s for s, p in papers.items()
                       if any(a.rstrip("*†") == author for a in p["authors"])]
        page.wait_for_function(f"document.querySelector('#filter-status').textContent"
                               f".startsWith('{len(with_author)} of')")
        assert set(with_author) <= set(shown_slugs(page))

        box.fill("no such words anywhere zzzq")
        assert page.get_by_text("No publications match these filters.").is_visible()
        page.get_by_role("button", name="Clear filters").focus()
        page.keyboard.press("Enter")
        page.wait_for_function(f"document.querySelector('#filter-status').textContent"
                               f".startsWith('{len(papers)} of')")
        assert len(shown_slugs(page)) == len(papers)
        assert "?" not in page.url


def test_filters_are_reachable_by_keyboard(example, browser):
    with serve(example) as base, open_page(browser) as page:
        page.goto(base + "publications/")
        reached = []
        for _ in range(20):
            page.keyboard.press("Tab")
            reached.append(page.evaluate("document.activeElement.id || "
                                         "document.activeElement.textContent"))
        names = {"filter-q", "filter-year", "filter-category", "filter-type", "Clear filters"}
        assert names <= set(reached), reached
        page.get_by_label("Search publications").focus()
        page.keyboard.type("osdi")
        page.wait_for_function("location.search.includes('q=osdi')")
        venues = page.locator(".paper:visible .paper-venue").all_inner_texts()
        assert venues and all("OSDI" in t for t in venues)


def test_topic_and_tier_filters_on_a_small_site(make_site, browser):
    content = make_site({
        "publications/a.md": "---\ntitle: Alpha\nauthors: [Ada Example]\nvenue: V\n"
                             "date: 2024\ntier: A\ntopics: [Graphs, Systems]\n---\n",
        "publications/b.md": "---\ntitle: Beta\nauthors: [Ada Example]\nvenue: V\n"
                             "date: 2023\ntier: B\ntopics: [Systems]\n---\n",
        "publications/a-paper.md": None,
        "publications/c.md": "---\ntitle: Gamma\nauthors: [Ada Example]\nvenue: V\n"
                             "date: 2023\n---\n",
    })
    out = content.parent / "site"
    assert run_cli(*build_args(content, out)).code == 0
    with serve(out) as base, open_page(browser) as page:
        page.goto(base + "publications/?topic=Systems")
        assert sorted(shown_slugs(page)) == ["a", "b"]
        options = page.locator("#filter-tier option").all_inner_texts()
        assert options == ["All tiers", "A (1)", "B (1)"]
        page.get_by_label("Tier").select_option("B")
        assert shown_slugs(page) == ["b"]
        assert page.get_by_role("status").inner_text() == "1 of 3 publications"
        assert "topic=Systems" in page.url and "tier=B" in page.url


# --- Site search ------------------------------------------------------------------------------

def test_site_search_finds_papers_and_pages(example, papers, browser):
    slug, paper = next(iter(papers.items()))
    with serve(example) as base, open_page(browser) as page:
        page.goto(base + "search/?q=" + paper["title"].split(":")[0])
        first = page.locator("#search-results li a").first
        assert first.inner_text() == paper["title"]
        box = page.get_by_label("Search every page and paper")
        assert box.input_value() == paper["title"].split(":")[0]

        bio_word = "comprise"  # only in the home page's text
        box.fill(bio_word)
        page.wait_for_function("location.search === '?q=comprise'")
        assert page.get_by_role("status").inner_text() == "1 result"
        assert page.locator("#search-results mark").first.inner_text() == bio_word

        box.fill("zzzq nothing")
        page.wait_for_function(
            "document.querySelector('#search-status').textContent === '0 results'")

        box.fill(paper["title"])
        page.keyboard.press("Enter")
        page.locator("#search-results li a").first.click()
        page.wait_for_url(re.compile(f"publications/{slug}/$"))
        assert page.locator("h1").inner_text() == paper["title"]


def test_site_search_works_opened_from_disk(example, papers, browser):
    """The index is inside the search page, so no fetch is needed: file:// works too, and
    results link to pages' index.html files, since a folder would open as a listing."""
    slug, paper = next(iter(papers.items()))
    with open_page(browser) as page:
        page.goto((example / "search" / "index.html").as_uri())
        page.get_by_label("Search every page and paper").fill(paper["title"])
        result = page.locator("#search-results li a").first
        assert result.inner_text() == paper["title"]
        assert result.get_attribute("href") == f"../publications/{slug}/index.html"
        result.click()
        page.wait_for_url(re.compile(f"publications/{slug}/index.html$"))
        assert page.locator("h1").inner_text() == paper["title"]


# --- Layout ----------------------------------------------------------------------------------

def test_phones_never_scroll_sideways(sites, browser):
    """Each kind of page, opened on the narrowest phone (320 px), then on a common one
    (375 px) as a turned or resized window is: the layout follows the width either way
    (every shipped site with SCHOLARSITE_FULL_TESTS=1)."""
    for site in sites_to_sweep(sites).values():
        with serve(site) as base, open_page(browser, viewport=PHONE) as page:
            for kind, path in pages_by_kind(site).items():
                query = "?q=a" if kind.startswith("search") else ""
                page.set_viewport_size({"width": 320, "height": 700})
                page.goto(base + path.relative_to(site).as_posix() + query)
                page.evaluate(OPEN_ALL)
                for width in (320, 375):
                    page.set_viewport_size({"width": width, "height": 700})
                    wide = page.evaluate("document.documentElement.scrollWidth")
                    assert wide <= width, f"{path}: {wide}px wide at {width}px"


def test_print_stylesheet_hides_navigation_and_controls(example, browser):
    with serve(example) as base, open_page(browser) as page:
        page.goto(base + "publications/")
        page.emulate_media(media="print")
        assert not page.locator(".site-header").is_visible()
        assert not page.locator("#filters").is_visible()
        assert page.locator(".paper-title").first.is_visible()
        assert page.evaluate(BACKGROUND) == "rgb(255, 255, 255)"


# --- Phones: the folded menu and filters, nothing that moves -------------------------------

# The page's layout shift, and whether it was first painted half-parsed. A busy machine may
# paint a page before its HTML is all read (the header's <details> before its <summary>,
# shown with the browser's own "Details" label; the tools before the theme toggle): what
# moves then is the load's timing, not the page's, and the page is loaded again. A shift on
# a page first painted whole (scripts, images, fonts, styles) fails at once.
LAYOUT_SHIFT = """() => new Promise(done => {
  const parsed = performance.getEntriesByType("navigation")[0].domInteractive;
  const paint = performance.getEntriesByName("first-paint")[0];
  let total = 0;
  new PerformanceObserver(list => { for (const e of list.getEntries())
    if (!e.hadRecentInput) total += e.value; }).observe({type: "layout-shift", buffered: true});
  requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(
    () => done([total, !!paint && paint.startTime < parsed]), 300)));
})"""
LOADS = 3  # a half-parsed page painted this many times in a row is the page's doing


def test_the_phone_menu_folds_and_opens_without_javascript(demo, browser):
    with serve(demo) as base:
        with open_page(browser, viewport=PHONE, java_script_enabled=False) as page:
            page.goto(base)
            menu = page.get_by_role("navigation", name="Main")
            assert not menu.is_visible()
            page.locator(".menu-fold summary").click()
            assert menu.get_by_role("link", name="Publications").is_visible()
            menu.get_by_role("link", name="Publications").click()
            page.wait_for_url("**/publications/")
        with open_page(browser, viewport=DESKTOP, java_script_enabled=False) as page:
            page.goto(base)
            assert page.get_by_role("navigation", name="Main").is_visible()
            assert not page.locator(".menu-fold summary").is_visible()


def test_the_filters_fold_on_a_phone_so_the_list_starts_on_the_first_screen(demo, browser):
    with serve(demo) as base:
        with open_page(browser, viewport=PHONE) as page:
            page.goto(base + "publications/")
            assert page.get_by_label("Search publications").is_visible()
            assert not page.get_by_label("Year", exact=True).is_visible()
            first = page.locator(".paper-title").first.bounding_box()
            assert first["y"] < PHONE["height"], first
            page.get_by_text("More filters").click()
            page.get_by_label("Year", exact=True).select_option("2024")
            assert page.get_by_role("status").inner_text() == "1 of 4 publications"
        with open_page(browser, viewport=DESKTOP) as page:
            page.goto(base + "publications/")
            assert page.get_by_label("Year", exact=True).is_visible()
            assert not page.get_by_text("More filters").is_visible()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_nothing_moves_after_the_first_paint(sites, browser, viewport):
    """Cumulative layout shift 0 on home and publications: what the scripts show (the
    filters, the theme toggle) has its place from the first paint."""
    for name in ("demo", "example", "themesite", "lab"):
        with serve(sites[name]) as base, open_page(browser, viewport=viewport) as page:
            for path in ("", "publications/"):
                for _ in range(LOADS):
                    page.goto(base + path)
                    total, half_parsed = page.evaluate(LAYOUT_SHIFT)
                    if total == 0 or not half_parsed:
                        break
                assert total == 0, (name, path, total, half_parsed)


def test_badges_never_break_a_word(sites, browser):
    """Venue and tier badges stay on one line and nothing overflows a badge, at both sizes."""
    check = """() => [...document.querySelectorAll('.badge')].filter(b => {
      const line = parseFloat(getComputedStyle(b).lineHeight);
      const oneLine = !b.matches('.award-badge') ? b.getClientRects().length === 1 &&
        b.clientHeight < 1.8 * line : true;
      return !oneLine || b.scrollWidth > b.clientWidth + 1; }).map(b => b.textContent)"""
    for name in ("demo", "example", "themesite"):
        for viewport in (PHONE, DESKTOP):
            with serve(sites[name]) as base, open_page(browser, viewport=viewport) as page:
                page.goto(base + "publications/")
                assert page.locator(".badge").count() > 0
                assert page.evaluate(check) == [], (name, viewport)



def test_a_lab_home_shows_its_picture_uncut_and_its_members_in_columns(sites, browser):
    """examples/lab's home (site.yaml's `lab`): the logo as large as an owner's photo and
    not cut round; the members smaller than on /people/, several a row on a desktop, each
    name on one line beside its picture."""
    measure = """() => {
      const logo = document.querySelector('.profile img.lab-picture');
      const cards = [...document.querySelectorAll('.members .person-card')];
      const picture = c => c.querySelector('img, .person-badge');
      return {logo: [logo.clientWidth, getComputedStyle(logo).borderRadius],
              pictures: [...new Set(cards.map(c => picture(c).clientWidth))],
              rows: new Set(cards.map(c => c.getBoundingClientRect().top)).size,
              cards: cards.length,
              wrapped: cards.filter(c => c.querySelector('a').getClientRects().length > 1
                || c.querySelector('a').clientHeight > 40).length};
    }"""
    with serve(sites["lab"]) as base, open_page(browser, viewport=DESKTOP) as page:
        page.goto(base)
        shown = page.evaluate(measure)
    assert shown["logo"][0] == 216 and shown["logo"][1] != "50%", shown
    assert shown["pictures"] == [64] and shown["wrapped"] == 0, shown
    assert shown["rows"] < shown["cards"] == 9, shown


def test_every_title_of_the_publications_page_starts_at_one_x_in_both_looks(example, browser,
                                                                           tmp_path):
    """The badge column is one for the whole list, sized by the page's widest badge, not
    group by group (the example's groups have badges of different widths), in the default
    look and in the compact one."""
    content = tmp_path / "content"
    shutil.copytree(EXAMPLE, content)
    with open(content / "site.yaml", "a", encoding="utf-8") as config:
        config.write("theme:\n  style: compact\n")
    compact = tmp_path / "compact"
    assert run_cli(*build_args(content, compact)).code == 0
    lefts = "els => els.map(e => Math.round(e.getBoundingClientRect().left))"
    for site in (example, compact):
        with serve(site) as base, open_page(browser) as page:
            page.goto(base + "publications/")
            starts = page.eval_on_selector_all(".paper-title", lefts)
            assert len(starts) > 10 and len(set(starts)) == 1, (site.name, Counter(starts))

# --- Screenshots -----------------------------------------------------------------------------

def test_screenshots_of_the_demo_post_that_uses_every_kind_of_writing(demo, browser):
    """The post with math, a table and a figure, light and dark, pictured (into no
    tracked folder: scripts/screenshots.py makes the README's)."""
    with serve(demo) as base:
        for scheme, device, viewport, scale in (("light", "desktop", DESKTOP, 1),
                                                ("dark", "phone", PHONE, 2)):
            with open_page(browser, scheme, viewport, device_scale_factor=scale) as page:
                page.goto(base + "posts/queueing-in-one-page/")
                page.wait_for_function(READY)
                assert page.locator("math").count() >= 4
                png = page.screenshot()
                assert 10_000 < len(png) <= 300 * 1024, (scheme, device)


def test_screenshots_of_home_publications_and_a_paper(example, browser, tmp_path):
    """Each page pictured at both sizes, light and dark, and the two modes differ."""
    first_paper = re.search(r'class="paper-title" href="([^"]+)"',
                            (example / "publications" / "index.html").read_text(encoding="utf-8"))
    targets = {"home": "", "publications": "publications/",
               "paper": "publications/" + first_paper.group(1)}
    with serve(example) as base:
        for scheme in ("light", "dark"):
            for device, viewport, scale in (("desktop", DESKTOP, 1), ("phone", PHONE, 2)):
                with open_page(browser, scheme, viewport, device_scale_factor=scale) as page:
                    for name, url in targets.items():
                        page.goto(base + url)
                        page.wait_for_function(READY)
                        png = page.screenshot()
                        assert 10_000 < len(png) <= 300 * 1024, (name, scheme, device)
                        (tmp_path / f"{name}-{scheme}-{device}.png").write_bytes(png)
    for name in targets:
        for device in ("desktop", "phone"):
            light = (tmp_path / f"{name}-light-{device}.png").read_bytes()
            assert light != (tmp_path / f"{name}-dark-{device}.png").read_bytes()


SECOND_ACCENT = ("green", "#2a7a3a")  # a name, and the colour in site.yaml


@pytest.mark.full(only=True)
def test_screenshots_with_a_second_accent(tmp_path, browser):
    """The example site with a green `theme.accent` (built from a copy of content/), light
    and dark: its home page on a desktop, a paper's page on a phone."""
    _, accent = SECOND_ACCENT
    content = tmp_path / "content"
    shutil.copytree(EXAMPLE, content)
    with (content / "site.yaml").open("a", encoding="utf-8") as config:
        config.write(f'theme:\n  accent: "{accent}"\n')
    site = tmp_path / "site"
    result = run_cli(*build_args(content, site, "--strict"))
    assert result.code == 0, result.err
    first_paper = re.search(r'class="paper-title" href="([^"]+)"',
                            (site / "publications" / "index.html").read_text(encoding="utf-8"))
    shots = [("home", "", "desktop", DESKTOP, 1),
             ("paper", "publications/" + first_paper.group(1), "phone", PHONE, 2)]
    with serve(site) as base:
        for scheme in ("light", "dark"):
            for target, url, device, viewport, scale in shots:
                with open_page(browser, scheme, viewport, device_scale_factor=scale) as page:
                    page.goto(base + url)
                    page.wait_for_function(READY)
                    link = page.evaluate("getComputedStyle(document.body)"
                                         ".getPropertyValue('--link').trim()")
                    assert (link == accent) == (scheme == "light"), (target, scheme, link)
                    assert link not in ("#1a5bb0", "#8db6f7"), link  # style.css's own
                    png = page.screenshot()
                    assert 10_000 < len(png) <= 300 * 1024, (target, scheme, device)
