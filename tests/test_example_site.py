"""End to end: the example site in content/ built by the real CLI, checked through parsed HTML
against the content files and, where ../shared is present, against the seed documents."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml
from bs4 import BeautifulSoup

from conftest import EXAMPLE, SHARED, build_args, run_cli

SEEDS = SHARED / "seeds"


def text_of(node) -> str:
    return " ".join(node.get_text(" ").split())


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("example") / "site"
    result = run_cli(*build_args(EXAMPLE, out))
    assert result.code == 0, result.err
    assert "18 papers" in result.out
    return out


@pytest.fixture(scope="module")
def front_matter() -> dict[str, dict]:
    """The example's papers as YAML says, read without the project's code."""
    papers = {}
    for path in sorted((EXAMPLE / "publications").glob("*.md")):
        head = path.read_text(encoding="utf-8").split("---\n")[1]
        papers[path.stem] = yaml.safe_load(head)
    return papers


def soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def entries(page: BeautifulSoup) -> list:
    return page.select("main li.paper")


def test_publications_page_lists_every_paper_in_configured_groups(built, front_matter):
    page = soup(built / "publications" / "index.html")
    config = yaml.safe_load((EXAMPLE / "site.yaml").read_text(encoding="utf-8"))
    headings = [text_of(h) for h in page.select("main section.group > h2")]
    assert headings == config["publications"]["categories"]
    assert len(headings) == 6
    assert len(entries(page)) == 18 == len(front_matter)
    for section in page.select("main section.group"):
        group = text_of(section.h2)
        slugs = [li["id"] for li in section.select("li.paper")]
        assert sorted(slugs) == sorted(s for s, fm in front_matter.items()
                                       if fm["category"] == group)
        dates = [li.select_one("time")["datetime"] for li in section.select("li.paper")]
        assert dates == sorted(dates, reverse=True), f"{group} is not newest first"


def test_authors_markers_and_owner(built, front_matter):
    page = soup(built / "publications" / "index.html")
    for li in entries(page):
        fm = front_matter[li["id"]]
        shown = []
        for span in li.select(".paper-authors span.author"):
            sup = span.find("sup")
            marks = sup.get_text() if sup else ""
            if sup:
                sup.extract()
            shown.append(text_of(span) + marks)
        expected = [a for a in fm["authors"] if a != "et al."]
        assert shown == expected
        owners = [text_of(s) for s in li.select(".paper-authors .owner")]
        assert owners == [a.rstrip("*†") for a in expected if a.rstrip("*†") == "Wei Gao"]
        if "et al." in fm["authors"]:
            assert text_of(li.select_one(".paper-authors")).endswith("et al.")
    legend = text_of(page.select_one("main .legend"))
    assert "".join(legend.split()) == "(*Equalcontribution/†Correspondingauthor)"


def test_venue_date_tier_and_location(built, front_matter):
    page = soup(built / "publications" / "index.html")
    for li in entries(page):
        fm = front_matter[li["id"]]
        venue = text_of(li.select_one(".paper-venue"))
        assert fm["venue"] in venue
        if fm.get("venue_short"):
            assert f"({fm['venue_short']})" in venue
        if fm.get("location"):
            assert f", {fm['location']}," in venue
        assert li.select_one("time")["datetime"] == fm["date"]
        badge = li.select_one(".tier-badge")
        if fm.get("tier"):
            assert text_of(badge) == fm["tier"]
        else:
            assert badge is None


def test_every_paper_page(built, front_matter):
    for slug, fm in front_matter.items():
        page = soup(built / "publications" / slug / "index.html")
        assert text_of(page.select_one("main h1")) == fm["title"]
        assert page.title.get_text().startswith(fm["title"])
        citation = text_of(page.select_one(".citation"))
        names = [a.rstrip("*†") for a in fm["authors"]]
        assert citation.startswith(", ".join(names))
        assert citation.endswith(".")
        bibtex = page.select_one("pre.bibtex").get_text()
        assert bibtex.startswith("@") and fm["title"].split(":")[0] in bibtex
        download = page.find("a", attrs={"download": True})
        assert (built / "publications" / slug / download["href"]).is_file()
        abstract = page.select_one(".abstract")
        body = (EXAMPLE / "publications" / f"{slug}.md").read_text(encoding="utf-8")
        body = body.split("---\n", 2)[2].strip()
        if body:
            assert text_of(abstract) == " ".join(body.split())
        else:
            assert abstract is None


def test_no_empty_fields_anywhere(built):
    """The seed's defect, 'Published in , 2021', and its cousins never appear."""
    bad = re.compile(r"(\bin\s*,|,\s*,|\(\s*\)|:\s*$|\bNone\b|\bnull\b)")
    for path in sorted(built.rglob("*.html")):
        page = soup(path)
        for node in page.select("main p, main li, main dd, main dt, main div, main h1"):
            text = text_of(node)
            assert not bad.search(text), f"{path}: {text!r}"
        for dd in page.select("dd"):
            assert text_of(dd), f"{path}: empty <dd>"


def test_sitemaps_and_site_files(built, front_matter):
    human = soup(built / "sitemap" / "index.html")
    hrefs = {a["href"] for a in human.select("main a")}
    for slug in front_matter:
        assert f"../publications/{slug}/" in hrefs
    assert {"../", "../publications/", "../sitemap/"} <= hrefs
    tree = ET.parse(built / "sitemap.xml")
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    locs = [e.text for e in tree.findall("s:url/s:loc", ns)]
    assert len(locs) == len(set(locs)) == 18 + 4  # home, publications, search, sitemap
    assert all(loc.startswith("https://example.github.io/") for loc in locs)
    robots = (built / "robots.txt").read_text(encoding="utf-8")
    assert "Sitemap: https://example.github.io/sitemap.xml" in robots.splitlines()
    assert (built / ".nojekyll").is_file()
    assert (built / "404.html").is_file()
    assert (built / "assets" / "style.css").is_file()


@pytest.mark.skipif(not SEEDS.is_dir(), reason="../shared/seeds is not present")
def test_site_reproduces_seed_publications_page(built):
    """Seed 000 is the faculty member's own page: every group, title and author list of it
    appears on ours, in the same groups, with nothing lost."""
    seed = next(SEEDS.glob("000_*.txt")).read_text(encoding="utf-8").splitlines()
    page = soup(built / "publications" / "index.html")
    ours = {}
    for section in page.select("main section.group"):
        for li in section.select("li.paper"):
            authors = text_of(li.select_one(".paper-authors"))
            ours[text_of(li.select_one(".paper-title"))] = (text_of(section.h2), authors)
    headings = [text_of(h) for h in page.select("main section.group > h2")]
    group = None
    seen = 0
    for i, line in enumerate(seed):
        stripped = line.strip().replace("\xa0", " ").strip()
        if stripped in headings:
            group = stripped
        elif line.startswith(("  ", "\xa0")) and i + 1 < len(seed):
            title = seed[i + 1].strip()
            assert title in ours, title
            assert ours[title][0] == group
            assert "".join(ours[title][1].split()) == "".join(stripped.split())
            seen += 1
    assert seen == 18


@pytest.mark.skipif(not SEEDS.is_dir(), reason="../shared/seeds is not present")
def test_tiers_match_seed_citations(built):
    """Seed 001 ends each recommended citation with the paper's tier in brackets."""
    seed = next(SEEDS.glob("001_*.txt")).read_text(encoding="utf-8")
    tiers = {}
    for block in seed.split("Recommended citation: ")[1:]:
        line = block.splitlines()[0]
        match = re.search(r"\[([^\]]+)\]$", line.strip())
        if match:
            venue = line.split("; ", 1)[1]
            tiers[venue.split(", ")[0]] = match.group(1)
    page = soup(built / "publications" / "index.html")
    checked = 0
    for li in entries(page):
        venue = text_of(li.select_one(".paper-venue"))
        for seed_venue, tier in tiers.items():
            if venue.startswith(seed_venue):
                assert text_of(li.select_one(".tier-badge")) == tier
                checked += 1
    assert checked == 15
