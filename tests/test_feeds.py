"""The Atom feed, sitemap.xml and robots.txt, parsed with real XML parsers; the sitemap
validated against the sitemaps.org schema."""

from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conftest import (EXAMPLE, MINIMAL_CONFIG, SHARED, build_args, needs_bibtex_reader, paper,
                      run_cli)

ATOM = "{http://www.w3.org/2005/Atom}"
SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
XSD = SHARED / "data" / "sitemap.xsd"
BASE = "https://example.github.io/"
RFC3339 = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$")


def build_example(out: Path, **env: str) -> Path:
    old = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        result = run_cli(*build_args(EXAMPLE, out))
    finally:
        for key, value in old.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    assert result.code == 0, result.err
    return out


@pytest.fixture(scope="module")
def dates(papers) -> dict[str, str]:
    """Each example paper's date as its front matter gives it."""
    return {slug: str(fm["date"]) for slug, fm in papers.items()}


def full_date(date: str) -> str:
    """'2024-06' -> '2024-06-01': the first day of what the content says."""
    parts = date.split("-") + ["01", "01"]
    return "-".join(parts[:3])


def atom(path: Path) -> ET.Element:
    root = ET.parse(path).getroot()
    assert root.tag == f"{ATOM}feed"
    return root


def text(node: ET.Element, tag: str) -> str:
    found = node.find(f"{ATOM}{tag}")
    assert found is not None, tag
    return found.text or ""


def slug_of(url: str) -> str:
    return url.removeprefix(BASE + "publications/").rstrip("/")


# --- Atom feed --------------------------------------------------------------------------------


def test_feed_lists_every_paper_newest_first_with_content_dates(example, dates):
    feed = atom(example / "feed.xml")
    assert text(feed, "id") == BASE + "feed.xml"
    assert text(feed, "title") == "Wei Gao: Publications"
    links = {link.get("rel"): link.get("href") for link in feed.findall(f"{ATOM}link")}
    assert links == {"self": BASE + "feed.xml", "alternate": BASE + "publications/"}
    assert text(feed.find(f"{ATOM}author"), "name") == "Wei Gao"
    entries = feed.findall(f"{ATOM}entry")
    assert len(entries) == len(dates) == 18
    slugs = [slug_of(text(e, "id")) for e in entries]
    assert sorted(slugs) == sorted(dates)
    # Newest first, ties by slug: the order of the publications page.
    assert slugs == sorted(dates, key=lambda s: (-int(full_date(dates[s]).replace("-", "")), s))
    for entry, slug in zip(entries, slugs):
        updated = text(entry, "updated")
        assert RFC3339.match(updated)
        assert updated.startswith(full_date(dates[slug]) + "T")
        assert text(entry, "published") == updated
        [alternate] = [l for l in entry.findall(f"{ATOM}link") if l.get("rel") == "alternate"]
        assert alternate.get("href") == text(entry, "id") == f"{BASE}publications/{slug}/"
        assert text(entry, "title")
        assert entry.findall(f"{ATOM}author")
        assert text(entry, "summary")
    assert text(feed, "updated") == max(text(e, "updated") for e in entries)
    assert text(feed, "updated").startswith("2026-07-01T")
    # Papers of one month at distinct times (one `updated` for all: a validator's warning).
    assert len({text(e, "updated") for e in entries}) == len(entries)


def test_feed_entry_content_matches_the_paper(example):
    feed = atom(example / "feed.xml")
    entry = next(e for e in feed.findall(f"{ATOM}entry")
                 if slug_of(text(e, "id")) == "privacy-collab-learning-cvpr-2021")
    assert text(entry, "title") == \
        "Privacy-preserving Collaborative Learning with Automatic Transformation Search"
    assert [text(a, "name") for a in entry.findall(f"{ATOM}author")] == [
        "Wei Gao", "Shangwei Guo", "Tianwei Zhang", "Han Qiu", "Yonggang Wen", "Yang Liu"]
    assert text(entry, "summary").startswith("We propose an automatic transformation search")
    assert [c.get("term") for c in entry.findall(f"{ATOM}category")] == ["AI Security"]
    # A report without an abstract is summarized by its citation.
    report = next(e for e in feed.findall(f"{ATOM}entry")
                  if slug_of(text(e, "id")) == "rome-tech-report-2025")
    assert text(report, "summary") == "Weixun Wang, Wei Gao, et al. Let It Flow: Agentic " \
        "Crafting on Rock and Roll, Building the ROME Model within an Open Agentic Learning " \
        "Ecosystem. Technical Report, arXiv preprint, December 2025."


def test_feed_and_sitemap_do_not_depend_on_the_clock(tmp_path, example):
    again = build_example(tmp_path / "again", SOURCE_DATE_EPOCH="0", TZ="Pacific/Kiritimati")
    for name in ("feed.xml", "sitemap.xml", "robots.txt", "publications.bib", "publications.ris"):
        assert (again / name).read_bytes() == (example / name).read_bytes(), name


def test_feed_ids_stay_when_papers_are_added(make_site):
    content = make_site()
    first = content.parent / "first"
    assert run_cli(*build_args(content, first)).code == 0
    (content / "publications" / "newer.md").write_text(
        "---\ntitle: Newer\nauthors: [Ada Example]\nvenue: Later Conference\ndate: 2025-01\n---\n",
        encoding="utf-8")
    second = content.parent / "second"
    assert run_cli(*build_args(content, second)).code == 0
    before = {text(e, "id"): text(e, "updated") for e in atom(first / "feed.xml").iter(f"{ATOM}entry")}
    after = {text(e, "id"): text(e, "updated") for e in atom(second / "feed.xml").iter(f"{ATOM}entry")}
    assert before == {"https://example.org/publications/a-paper/": "2024-05-01T16:23:32.915036Z"}
    assert after == {**before, "https://example.org/publications/newer/": "2025-01-01T07:55:46.323885Z"}
    assert text(atom(second / "feed.xml"), "updated") == "2025-01-01T07:55:46.323885Z"


def many_papers(count: int) -> dict[str, str]:
    """`count` papers, one a month from January 2000: p0 is the oldest."""
    return {f"publications/p{i}.md": paper(f"Paper {i}", f"{2000 + i // 12}-{i % 12 + 1:02d}")
            for i in range(count)}


def feed_slugs(site: Path) -> list[str]:
    return [slug_of(text(e, "id")).removeprefix("https://example.org/publications/")
            for e in atom(site / "feed.xml").findall(f"{ATOM}entry")]


def test_feed_shows_the_newest_fifty_papers_unless_told(make_site):
    content = make_site({"publications/a-paper.md": None, **many_papers(52)})
    assert run_cli(*build_args(content)).code == 0
    site = content.parent / "site"
    assert feed_slugs(site) == [f"p{i}" for i in range(51, 1, -1)]
    assert text(atom(site / "feed.xml"), "updated") == "2004-04-01T06:49:46.923474Z"
    # The oldest papers are still everywhere else.
    assert "/publications/p0/" in (site / "sitemap.xml").read_text(encoding="utf-8")
    assert (site / "publications" / "p0" / "index.html").is_file()


@pytest.mark.parametrize(("setting", "expected"), [("3", [4, 3, 2]), ("null", [4, 3, 2, 1, 0])])
def test_feed_limit_is_set_in_site_yaml(make_site, setting, expected):
    config = MINIMAL_CONFIG + f"  feed_limit: {setting}\n"
    content = make_site({"site.yaml": config, "publications/a-paper.md": None,
                         **many_papers(5)})
    assert run_cli(*build_args(content)).code == 0
    assert feed_slugs(content.parent / "site") == [f"p{i}" for i in expected]


@pytest.mark.parametrize("value", ["0", "-2", "many", "2.5", "true"])
def test_a_feed_limit_that_is_not_a_count_is_an_error(make_site, value):
    content = make_site({"site.yaml": MINIMAL_CONFIG + f"  feed_limit: {value}\n"})
    result = run_cli(*build_args(content))
    assert result.code == 1
    assert "site.yaml:7: error: 'publications.feed_limit' must be a whole number of at " \
        "least 1, or null for all papers in the feed" in result.err.replace("\\", "/")
    assert not (content.parent / "site").exists()


def test_feed_escapes_markup_in_titles(make_site):
    paper = "---\ntitle: 'Less <than> & more \"quoted\"'\nauthors: [Ada <Example>]\n" \
        "venue: A & B\ndate: 2024\n---\n"
    content = make_site({"publications/a-paper.md": paper})
    assert run_cli(*build_args(content)).code == 0
    [entry] = atom(content.parent / "site" / "feed.xml").findall(f"{ATOM}entry")
    assert text(entry, "title") == 'Less <than> & more "quoted"'
    assert text(entry.find(f"{ATOM}author"), "name") == "Ada <Example>"


@pytest.mark.parametrize("where", ["publications/a-paper.md", "publications/refs.bib"])
def test_control_characters_never_reach_the_feed(make_site, where):
    """NUL, BEL and ESC written into a paper's file are removed, with a warning at their
    line: the feed stays well-formed XML."""
    if where.endswith(".md"):
        files = {where: "---\ntitle: Ring\x07 the \x1bbell\nauthors: [Ada Example]\n"
                        "venue: Venue\ndate: 2024\n---\nAn abstract\x00 with a NUL.\n"}
    else:
        files = {"publications/a-paper.md": None, where: (
            "@article{k1,\n  title = {Ring\x07 the \x1bbell},\n  author = {Ada Example},\n"
            "  journal = {Venue},\n  year = {2024},\n  abstract = {An abstract\x00.},\n}\n")}
    content = make_site(files)
    result = run_cli(*build_args(content))
    assert result.code == 0, result.err
    assert f"{where}:2: warning: 3 control character(s) removed" in result.err.replace("\\", "/")
    [entry] = atom(content.parent / "site" / "feed.xml").findall(f"{ATOM}entry")
    assert text(entry, "title") == "Ring the bell"
    for page in (content.parent / "site").rglob("*.html"):
        assert not re.search("[\x00-\x08\x0b\x0c\x0e-\x1f]", page.read_text(encoding="utf-8"))


def test_empty_site_has_a_valid_feed_and_sitemap(make_site):
    content = make_site({"publications/a-paper.md": None})
    assert run_cli(*build_args(content)).code == 0
    feed = atom(content.parent / "site" / "feed.xml")
    assert feed.findall(f"{ATOM}entry") == []
    assert RFC3339.match(text(feed, "updated"))
    validate_sitemap(content.parent / "site" / "sitemap.xml")


def test_pages_link_to_the_feed(example):
    for page in ("index.html", "publications/index.html", "publications/titan-socc-2022/index.html"):
        html = (example / page).read_text(encoding="utf-8")
        [link] = re.findall(r'<link rel="alternate" type="application/atom\+xml"[^>]*>', html)
        href = re.search(r'href="([^"]+)"', link).group(1)
        assert (example / page).parent.joinpath(href).resolve() == (example / "feed.xml").resolve()


# --- sitemap.xml and robots.txt ---------------------------------------------------------------


def validate_sitemap(path: Path) -> None:
    if not XSD.is_file():
        pytest.skip("../shared/data/sitemap.xsd is not present")
    import xmlschema

    xmlschema.XMLSchema(str(XSD)).validate(str(path))


def sitemap_entries(path: Path) -> dict[str, str | None]:
    root = ET.parse(path).getroot()
    assert root.tag == f"{SITEMAP}urlset"
    found = {}
    for url in root.findall(f"{SITEMAP}url"):
        lastmod = url.find(f"{SITEMAP}lastmod")
        found[url.find(f"{SITEMAP}loc").text] = lastmod.text if lastmod is not None else None
    return found


def test_sitemap_is_valid_and_dated_by_content(example, dates):
    validate_sitemap(example / "sitemap.xml")
    entries = sitemap_entries(example / "sitemap.xml")
    newest = max(full_date(d) for d in dates.values())
    for slug, date in dates.items():
        assert entries.pop(f"{BASE}publications/{slug}/") == full_date(date)
    assert entries == {BASE: newest, BASE + "publications/": newest, BASE + "cv/": newest,
                       BASE + "search/": newest, BASE + "sitemap/": newest}


def test_sitemap_lists_every_html_page_but_the_404(example):
    locs = set(sitemap_entries(example / "sitemap.xml"))
    pages = {BASE + p.relative_to(example).as_posix().removesuffix("index.html")
             for p in example.rglob("*.html") if p.name != "404.html"}
    assert locs == pages


def test_robots_txt_names_the_sitemap(example):
    lines = (example / "robots.txt").read_text(encoding="utf-8").splitlines()
    assert "User-agent: *" in lines
    [sitemap] = [line for line in lines if line.startswith("Sitemap:")]
    assert sitemap == f"Sitemap: {BASE}sitemap.xml"


def test_sitemap_under_a_subpath(make_site):
    config = MINIMAL_CONFIG.replace("https://example.org/", "https://user.github.io/repo")
    content = make_site({"site.yaml": config})
    assert run_cli(*build_args(content)).code == 0
    site = content.parent / "site"
    validate_sitemap(site / "sitemap.xml")
    assert set(sitemap_entries(site / "sitemap.xml")) == {
        "https://user.github.io/repo/", "https://user.github.io/repo/publications/",
        "https://user.github.io/repo/search/", "https://user.github.io/repo/sitemap/",
        "https://user.github.io/repo/publications/a-paper/"}
    assert "Sitemap: https://user.github.io/repo/sitemap.xml" in \
        (site / "robots.txt").read_text(encoding="utf-8")
    assert text(atom(site / "feed.xml"), "id") == "https://user.github.io/repo/feed.xml"


@needs_bibtex_reader
def test_bibtex_fixture_feed_and_sitemap(bibsite):
    validate_sitemap(bibsite / "sitemap.xml")
    entries = atom(bibsite / "feed.xml").findall(f"{ATOM}entry")
    assert len(entries) == 21
    updated = [text(e, "updated") for e in entries]
    assert updated == sorted(updated, reverse=True)
    assert len({text(e, "id") for e in entries}) == 21


def test_feed_content_gives_math_as_text(demo):
    """A post's formulas reach a feed as their text ('L = λ W'), not as MathML inside
    `type="html"` content, which feed validators flag and most feed readers drop or run
    together ('L=λWL = \\lambda W')."""
    entries = atom(demo / "posts" / "feed.xml").findall(f"{ATOM}entry")
    contents = {text(e, "title"): text(e, "content") for e in entries}
    assert all("<math" not in html and "<annotation" not in html for html in contents.values())
    [queueing] = [html for html in contents.values() if "Little's law" in html]
    assert "Little's law, L = λ W: the mean" in queueing
    assert "ρ = λ / μ &lt; 1" in queueing
    page = (demo / "posts" / "queueing-in-one-page" / "index.html").read_text(encoding="utf-8")
    assert "<math" in page  # the page keeps its MathML
