"""The fictional demo site in examples/demo: built by the real CLI as the README says, every
kind of page checked through parsed HTML against the demo's own files."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
import yaml

from conftest import DEMO, read_front_matter, soup, text_of
from test_collections import EMPTY

COLLECTIONS = ("talks", "teaching", "projects", "news", "posts")


def test_the_demo_builds_without_a_warning(shipped):
    assert shipped(DEMO)[1].err == ""


def test_home_says_the_researcher_is_fictional(demo):
    home = soup(demo / "index.html")
    assert "fictional researcher" in text_of(home.select_one(".bio"))
    assert "fictional" in home.title.get_text()
    photo = home.select_one("img.photo")
    assert (demo / photo["src"]).is_file() and photo["alt"] == "Rowan Example"
    labels = [text_of(a) for a in home.select("ul.contact a")]
    assert labels == ["rowan@example.org", "Google Scholar", "DBLP", "ORCID", "GitHub",
                      "LinkedIn"]
    assert all(a.svg["aria-hidden"] == "true" for a in home.select("ul.contact a"))
    assert len(home.select("main ul.news li")) == 5
    selected = [p["id"] for p in home.select("main li.paper")]
    assert selected == sorted(s.stem for s in (DEMO / "publications").glob("*.md")
                              if read_front_matter(s).get("selected"))[::-1]


def test_navigation_follows_site_yaml(demo):
    config = yaml.safe_load((DEMO / "site.yaml").read_text(encoding="utf-8"))
    nav = [(text_of(a), a["href"]) for a in soup(demo / "index.html").select("nav.nav ul a")]
    expected = []
    for entry in config["nav"]:
        if isinstance(entry, str):
            key, label = entry, None
        elif "url" in entry:
            expected.append((entry["title"], entry["url"]))
            continue
        else:
            [(key, label)] = entry.items()
        page = DEMO / "pages" / f"{key}.md"
        label = label or (read_front_matter(page)["title"] if page.is_file() else None)
        expected.append((label or {"cv": "CV"}.get(key, key.capitalize()),
                         "" if key == "home" else f"{key}/"))
    assert nav == expected


def read_fields(path: Path) -> dict:
    """An entry's fields: a Markdown file's front matter, a notebook's metadata (its title
    the first heading's)."""
    if path.suffix != ".ipynb":
        return read_front_matter(path)
    notebook = json.loads(path.read_text(encoding="utf-8"))
    heading = notebook["cells"][0]["source"].split("\n")[0].removeprefix("# ")
    return {"title": heading, **notebook["metadata"]["scholarsite"]}


@pytest.mark.parametrize("name", COLLECTIONS)
def test_every_collection_has_its_pages(demo, name):
    every = sorted(p for p in (DEMO / name).iterdir() if p.suffix in (".md", ".ipynb"))
    assert every, f"the demo has no {name}"
    files = [path for path in every if not read_fields(path).get("draft")]
    listing = soup(demo / name / "index.html")
    entries = listing.select("main li.item, main li.card, main ul.news li")
    assert len(entries) == len(files)
    for path in every:
        fm = read_fields(path)
        if fm.get("draft"):  # shown by serve only
            assert not (demo / name / path.stem).exists()
            continue
        if name == "news":
            assert not (demo / name / path.stem).exists()
            continue
        page = soup(demo / name / path.stem / "index.html")
        assert text_of(page.select_one("main h1")) == fm["title"]
        if "date" in fm:
            assert page.select_one("main time")["datetime"] == str(fm["date"])


def test_free_pages(demo):
    for path in sorted((DEMO / "pages").glob("*.md")):
        page = soup(demo / path.stem / "index.html")
        assert text_of(page.select_one("main h1")) == read_front_matter(path)["title"]


def test_cv(demo):
    cv = yaml.safe_load((DEMO / "cv.yaml").read_text(encoding="utf-8"))
    page = soup(demo / "cv" / "index.html")
    ids = [h["id"].removeprefix("cv-") for h in page.select("main h2")]
    assert set(cv) | {"publications", "teaching"} == set(ids)
    assert len(page.select(".cv-papers li")) == len(list((DEMO / "publications").glob("*.md")))
    teaching = [text_of(li) for li in page.select("#cv-teaching ~ ul li")]
    assert len(teaching) == len(list((DEMO / "teaching").glob("*.md")))
    for key, entries in cv.items():
        shown = page.select(f"#cv-{key} ~ ul li.cv-entry")
        assert len(shown) == len(entries)


def test_every_internal_link_resolves(demo):
    """Every href and src inside the site names a file the build wrote, from every depth."""
    checked = 0
    for path in sorted(demo.rglob("*.html")):
        if path.name == "404.html":
            continue  # served at any depth, so its links are absolute
        for node in soup(path).select("[href], [src]"):
            url = node["href"] if node.has_attr("href") else node["src"]
            parts = urlsplit(url)
            if parts.scheme or url.startswith("#"):
                continue
            target = (path.parent / unquote(parts.path)).resolve()
            if target.is_dir():
                target = target / "index.html"
            assert target.is_file() and target.is_relative_to(demo.resolve()), \
                f"{path.relative_to(demo)}: {url}"
            checked += 1
    assert checked > 200


def test_sitemap_lists_every_page(demo):
    pages = {p.relative_to(demo).parent.as_posix() + "/" for p in demo.rglob("index.html")}
    pages = {"" if p == "./" else p for p in pages}
    human = soup(demo / "sitemap" / "index.html")
    assert {a["href"].removeprefix("../") for a in human.select("main a")} == pages
    xml = (demo / "sitemap.xml").read_text(encoding="utf-8")
    assert sorted(re.findall(r"<loc>https://example.org/demo/(.*?)</loc>", xml)) == sorted(pages)


def test_no_empty_fields(demo):
    """Fields the templates put together never leave a dangling separator; the owner's own
    Markdown (a bio, a post) is left out of the check, as it may end a line with ':'."""
    for path in sorted(demo.rglob("*.html")):
        page = soup(path)
        for prose in page.select(".bio, .item-body, .news-text, .abstract"):
            prose.decompose()
        for node in page.select("main p, main li, main dd, main dt, main div"):
            assert not EMPTY.search(text_of(node)), f"{path}: {text_of(node)!r}"


CHROMIUM = Path("/usr/bin/chromium")


@pytest.mark.skipif(not CHROMIUM.is_file(), reason="Debian's chromium is not installed")
def test_cv_prints_to_a_short_pdf(demo, tmp_path):
    """'Save as PDF' in a real browser: a few pages, the papers and profile links kept as
    links, the menu, footer and skip link left out (their links would be in the PDF)."""
    pdf = tmp_path / "cv.pdf"
    subprocess.run([str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync",
                    f"--user-data-dir={tmp_path / 'profile'}", "--no-pdf-header-footer",
                    f"--print-to-pdf={pdf}", (demo / "cv" / "index.html").as_uri()],
                   capture_output=True, timeout=120, check=False)
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF")
    pages = len(re.findall(rb"/Type\s*/Page\b(?!s)", data))
    assert 1 <= pages <= 4, pages
    links = {m.decode() for m in re.findall(rb"/URI\s*\(([^)]*)\)", data)}
    papers = {u for u in links if "/publications/" in u}
    assert len(papers) == len(list((DEMO / "publications").glob("*.md")))
    assert "mailto:rowan@example.org" in links and "https://github.com/example" in links
    menu = ("/projects/", "/talks/", "/sitemap/", "https://example.org/wiki/")
    assert not [u for u in links if u.endswith(menu)], links
