"""End to end: the example site in content/ built by the real CLI, checked through parsed HTML
against the content files and, where ../shared is present, against the seed documents."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
import yaml
from bs4 import BeautifulSoup

from conftest import EXAMPLE, SHARED, read_download, soup, text_of

SEEDS = SHARED / "seeds"


def entries(page: BeautifulSoup) -> list:
    return page.select("main li.paper")


def test_the_build_reports_every_paper(shipped):
    assert "18 papers" in shipped(EXAMPLE)[1].out


def test_publications_page_lists_every_paper_in_configured_groups(example, papers):
    page = soup(example / "publications" / "index.html")
    config = yaml.safe_load((EXAMPLE / "site.yaml").read_text(encoding="utf-8"))
    headings = [text_of(h) for h in page.select("main section.group > h2")]
    assert headings == config["publications"]["categories"]
    assert len(headings) == 6
    assert len(entries(page)) == 18 == len(papers)
    for section in page.select("main section.group"):
        group = text_of(section.h2)
        slugs = [li["id"] for li in section.select("li.paper")]
        assert sorted(slugs) == sorted(s for s, fm in papers.items()
                                       if fm["category"] == group)
        dates = [li.select_one("time")["datetime"] for li in section.select("li.paper")]
        assert dates == sorted(dates, reverse=True), f"{group} is not newest first"


def test_authors_markers_and_owner(example, papers):
    page = soup(example / "publications" / "index.html")
    for li in entries(page):
        fm = papers[li["id"]]
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


def test_venue_date_tier_and_location(example, papers):
    page = soup(example / "publications" / "index.html")
    for li in entries(page):
        fm = papers[li["id"]]
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


def test_every_paper_page(example, papers):
    for slug, fm in papers.items():
        page = soup(example / "publications" / slug / "index.html")
        assert text_of(page.select_one("main h1")) == fm["title"]
        assert page.title.get_text().startswith(fm["title"])
        citation = text_of(page.select_one(".citation"))
        names = [a.rstrip("*†") for a in fm["authors"]]
        assert citation.startswith(", ".join(names))
        assert citation.endswith(".")
        bibtex = page.select_one("pre.bibtex").get_text()
        # Capitals kept by braces ('{GPU}'), as DBLP keeps them.
        assert bibtex.startswith("@") and fm["title"].split(":")[0] in bibtex.replace(
            "{", "").replace("}", "")
        assert read_download(example, slug, ".bib") == bibtex
        abstract = page.select_one(".abstract")
        if fm["abstract"]:
            assert text_of(abstract) == fm["abstract"]
        else:
            assert abstract is None


def test_no_empty_fields_anywhere(example):
    """The seed's defect, 'Published in , 2021', and its cousins never appear."""
    bad = re.compile(r"(\bin\s*,|,\s*,|\(\s*\)|:\s*$|\bNone\b|\bnull\b)")
    for path in sorted(example.rglob("*.html")):
        page = soup(path)
        for node in page.select("main p, main li, main dd, main dt, main div, main h1"):
            text = text_of(node)
            assert not bad.search(text), f"{path}: {text!r}"
        for dd in page.select("dd"):
            assert text_of(dd), f"{path}: empty <dd>"


def test_sitemaps_and_site_files(example, papers):
    human = soup(example / "sitemap" / "index.html")
    hrefs = {a["href"] for a in human.select("main a")}
    for slug in papers:
        assert f"../publications/{slug}/" in hrefs
    assert {"../", "../publications/", "../sitemap/"} <= hrefs
    tree = ET.parse(example / "sitemap.xml")
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    locs = [e.text for e in tree.findall("s:url/s:loc", ns)]
    assert len(locs) == len(set(locs)) == 18 + 5  # home, publications, CV, search, sitemap
    assert all(loc.startswith("https://example.github.io/") for loc in locs)
    robots = (example / "robots.txt").read_text(encoding="utf-8")
    assert "Sitemap: https://example.github.io/sitemap.xml" in robots.splitlines()
    assert (example / ".nojekyll").is_file()
    assert (example / "404.html").is_file()
    assert (example / "assets" / "style.css").is_file()
    assert (example / "cv" / "wei-gao-cv.pdf").is_file()  # the papers alone: see content/cv.yaml


@pytest.mark.skipif(not SEEDS.is_dir(), reason="../shared/seeds is not present")
def test_site_reproduces_seed_publications_page(example):
    """Seed 000 is the faculty member's own page: every group, title and author list of it
    appears on ours, in the same groups, with nothing lost."""
    seed = next(SEEDS.glob("000_*.txt")).read_text(encoding="utf-8").splitlines()
    page = soup(example / "publications" / "index.html")
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
def test_tiers_match_seed_citations(example):
    """Seed 001 ends each recommended citation with the paper's tier in brackets."""
    seed = next(SEEDS.glob("001_*.txt")).read_text(encoding="utf-8")
    tiers = {}
    for block in seed.split("Recommended citation: ")[1:]:
        line = block.splitlines()[0]
        match = re.search(r"\[([^\]]+)\]$", line.strip())
        if match:
            venue = line.split("; ", 1)[1]
            tiers[venue.split(", ")[0]] = match.group(1)
    page = soup(example / "publications" / "index.html")
    checked = 0
    for li in entries(page):
        venue = text_of(li.select_one(".paper-venue"))
        for seed_venue, tier in tiers.items():
            if venue.startswith(seed_venue):
                assert text_of(li.select_one(".tier-badge")) == tier
                checked += 1
    assert checked == 15
