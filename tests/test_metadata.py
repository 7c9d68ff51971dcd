"""Machine-readable metadata: Highwire tags for Google Scholar, JSON-LD, Open Graph, Twitter,
canonical URLs, and venue tiers. Built through the real CLI and read back with an HTML parser."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from conftest import (BIBSITE, EXAMPLE, MINIMAL_CONFIG, build_args, names_of, needs_bibtex_reader,
                      paper, read_download, run_cli, soup, write_files)
from scholarsite.diagnostics import Diagnostics
from scholarsite.reading.loader import load_site
from scholarsite.views.metadata import dump_script_json
from scholarsite.reading.settings.venues import find_tier_conflicts, lookup_tier

def meta_values(page: BeautifulSoup, name: str, attr: str = "name") -> list[str]:
    return [tag["content"] for tag in page.find_all("meta", attrs={attr: name})]


def meta_value(page: BeautifulSoup, name: str, attr: str = "name") -> str | None:
    values = meta_values(page, name, attr)
    assert len(values) <= 1, f"{name} appears {len(values)} times"
    return values[0] if values else None


def json_ld(page: BeautifulSoup) -> list[dict]:
    return [json.loads(s.string) for s in page.find_all("script", type="application/ld+json")]


def expected_pages(pages: str) -> tuple[str | None, str | None]:
    if not pages:
        return None, None
    parts = re.split(r"\s*(?:–|—|-{1,3})\s*", str(pages))
    return parts[0], parts[1] if len(parts) > 1 else None


def expected_highwire(fm: dict) -> dict:
    # Google Scholar takes YYYY/MM/DD or the year alone: a month without its day is left out.
    parts = str(fm["date"]).split("-")
    date = "/".join(parts) if len(parts) == 3 else parts[0]
    first, last = expected_pages(fm.get("pages", ""))
    kind = fm.get("type", "conference")
    venue = fm.get("venue") or fm.get("venue_short")
    return {
        "citation_title": [fm["title"]],
        "citation_author": [", ".join(reversed(n.rsplit(" ", 1))) for n in names_of(fm["authors"])],
        "citation_publication_date": [date],
        "citation_conference_title": [venue] if kind == "conference" else [],
        "citation_journal_title": [venue] if kind == "journal" else [],
        "citation_technical_report_institution":
            [fm.get("institution") or venue] if kind == "report" else [],
        "citation_volume": [str(fm["volume"])] if "volume" in fm else [],
        "citation_issue": [str(fm["number"])] if "number" in fm and kind != "report" else [],
        "citation_firstpage": [first] if first else [],
        "citation_lastpage": [last] if last else [],
    }


# --- The example site: every paper page against its front matter ------------------------------


def test_example_paper_pages_carry_highwire_tags_from_front_matter(example, papers):
    assert len(papers) == 18
    for slug, fm in papers.items():
        page = soup(example / "publications" / slug / "index.html")
        for name, expected in expected_highwire(fm).items():
            assert meta_values(page, name) == expected, (slug, name)
        assert re.fullmatch(r"\d{4}(/\d{2}/\d{2})?", meta_value(page, "citation_publication_date"))
        assert meta_values(page, "citation_doi") == []  # the example gives no DOIs
        assert meta_values(page, "citation_pdf_url") == []  # nor PDFs


def test_example_paper_pages_carry_a_scholarly_article(example, papers):
    for slug, fm in papers.items():
        page = soup(example / "publications" / slug / "index.html")
        [article] = json_ld(page)
        assert article["@context"] == "https://schema.org"
        assert article["@type"] == "ScholarlyArticle"
        assert article["headline"] == fm["title"]
        assert [a["name"] for a in article["author"]] == names_of(fm["authors"])
        assert all(a["@type"] == "Person" for a in article["author"])
        assert article["datePublished"] == str(fm["date"])
        assert article["url"] == f"https://example.github.io/publications/{slug}/"
        venue = article["isPartOf"]
        while venue["@type"] in ("PublicationIssue", "PublicationVolume"):
            venue = venue["isPartOf"]
        assert venue["name"] == fm["venue"]
        assert venue["@type"] == ("Periodical" if fm["type"] == "journal" else "CreativeWorkSeries")
        if "number" in fm:
            assert article["isPartOf"]["issueNumber"] == str(fm["number"])
        if "volume" in fm:
            assert article["isPartOf"]["isPartOf"]["volumeNumber"] == str(fm["volume"])
        assert ("abstract" in article) == bool(fm["abstract"])


def test_every_page_has_canonical_open_graph_and_twitter_tags(example):
    pages = sorted(example.rglob("*.html"))
    assert len(pages) >= 18 + 4
    for path in pages:
        page = soup(path)
        rel = path.relative_to(example).as_posix()
        url = "https://example.github.io/" + (rel[: -len("index.html")] if rel.endswith("index.html")
                                              else rel)
        [canonical] = page.find_all("link", rel="canonical")
        assert canonical["href"] == url, rel
        assert meta_value(page, "og:url", "property") == url
        assert meta_value(page, "og:title", "property")
        assert meta_value(page, "og:site_name", "property") == "Wei Gao"
        assert meta_value(page, "og:type", "property") in ("website", "article", "profile")
        # The card is large exactly when the page's picture is the wide generated one.
        image = meta_value(page, "og:image", "property")
        assert image.startswith("https://example.github.io/")
        assert (example / image.removeprefix("https://example.github.io/")).is_file()
        wide = image.endswith("assets/preview.png")
        assert meta_value(page, "twitter:card") == ("summary_large_image" if wide else "summary")
        assert meta_value(page, "twitter:title") == meta_value(page, "og:title", "property")
        description = meta_value(page, "og:description", "property")
        assert description and len(description) <= 300
        assert meta_value(page, "twitter:description") == description


def test_paper_pages_are_articles_and_the_home_page_a_person(example):
    home = soup(example / "index.html")
    assert meta_value(home, "og:type", "property") == "profile"
    assert meta_values(home, "citation_title") == []
    [person] = json_ld(home)
    assert person == {"@context": "https://schema.org", "@type": "Person", "name": "Wei Gao",
                      "url": "https://example.github.io/"}
    paper = soup(example / "publications" / "weave-osdi-2026" / "index.html")
    assert meta_value(paper, "og:type", "property") == "article"
    assert meta_value(paper, "article:published_time", "property") == "2026-07"
    assert json_ld(soup(example / "publications" / "index.html")) == []


# --- Small sites for what the example does not have -------------------------------------------

OWNER_CONFIG = """\
title: Ada Example
url: https://example.org/~ada/
language: en-GB
author:
  name: Ada Example
  aliases: [A. Example]
  position: Professor
  affiliation: University of Examples
  email: ada@example.org
  links:
    Google Scholar: https://scholar.google.com/citations?user=abc
    GitHub: https://github.com/ada
    CV: files/cv.pdf
publications:
  group_by: year
"""

FULL_PAPER = """\
---
title: "A Study of <script> & Friends"
authors: [Ada Example*, Bob Builder, et al.]
venue: Journal of Examples
venue_short: JoE
date: 2024-05-17
type: journal
volume: 12
number: 3
pages: 101--118
links:
  pdf: files/study.pdf
  doi: https://doi.org/10.1234/joe.2024.5
  arxiv: 2401.01234
topics: [Testing]
---
An abstract.
"""

REPORT = """\
---
title: A Report
authors: [Ada Example]
institution: Example Institute of Technology
venue: Example Tech Reports
date: 2023
type: report
number: TR-2023-7
links:
  pdf: https://elsewhere.example.net/report.pdf
---
"""

THESIS = """\
---
title: A Thesis
authors: [Ada Example]
institution: University of Examples
date: 2020-09
type: thesis
---
"""


def build(make_site, files: dict, config: str = MINIMAL_CONFIG) -> Path:
    content = make_site({"site.yaml": config, "publications/a-paper.md": None, **files})
    result = run_cli(*build_args(content))
    assert result.code == 0, result.err
    return content.parent / "site"


def test_full_paper_tags_doi_pdf_and_date(make_site):
    site = build(make_site, {"publications/study.md": FULL_PAPER, "files/study.pdf": b"%PDF-1.4\n"},
                 OWNER_CONFIG)
    page = soup(site / "publications" / "study" / "index.html")
    assert meta_value(page, "citation_title") == "A Study of <script> & Friends"
    assert meta_values(page, "citation_author") == ["Example, Ada", "Builder, Bob"]
    assert meta_value(page, "citation_publication_date") == "2024/05/17"
    assert meta_value(page, "citation_journal_title") == "Journal of Examples"
    assert meta_values(page, "citation_conference_title") == []
    assert (meta_value(page, "citation_volume"), meta_value(page, "citation_issue")) == ("12", "3")
    assert meta_value(page, "citation_firstpage") == "101"
    assert meta_value(page, "citation_lastpage") == "118"
    assert meta_value(page, "citation_doi") == "10.1234/joe.2024.5"
    # Beside the abstract page, as Scholar's guidelines ask; files/ keeps the same bytes.
    assert meta_value(page, "citation_pdf_url") == \
        "https://example.org/~ada/publications/study/study.pdf"
    assert (site / "publications" / "study" / "study.pdf").read_bytes() == \
        (site / "files" / "study.pdf").read_bytes() == b"%PDF-1.4\n"
    [article] = json_ld(page)
    assert article["identifier"]["propertyID"] == "DOI"
    assert article["identifier"]["value"] == "10.1234/joe.2024.5"
    assert article["sameAs"] == ["https://doi.org/10.1234/joe.2024.5",
                                 "https://arxiv.org/abs/2401.01234"]
    assert article["datePublished"] == "2024-05-17"
    assert (article["pageStart"], article["pageEnd"]) == ("101", "118")
    assert article["isPartOf"]["isPartOf"]["isPartOf"]["alternateName"] == "JoE"
    assert meta_value(page, "og:locale", "property") == "en_GB"
    assert meta_value(page, "article:tag", "property") == "Testing"


def test_report_and_thesis_tags(make_site):
    site = build(make_site, {"publications/report.md": REPORT, "publications/thesis.md": THESIS})
    report = soup(site / "publications" / "report" / "index.html")
    assert meta_value(report, "citation_technical_report_institution") == \
        "Example Institute of Technology"
    assert meta_value(report, "citation_technical_report_number") == "TR-2023-7"
    assert meta_values(report, "citation_issue") == []
    assert meta_value(report, "citation_publication_date") == "2023"
    assert meta_value(report, "citation_pdf_url") == "https://elsewhere.example.net/report.pdf"
    thesis = soup(site / "publications" / "thesis" / "index.html")
    assert meta_value(thesis, "citation_dissertation_institution") == "University of Examples"
    assert meta_values(thesis, "citation_journal_title") == []


def test_home_page_person_names_affiliation_and_profiles(make_site):
    site = build(make_site, {"publications/study.md": FULL_PAPER, "files/study.pdf": b"%PDF"},
                 OWNER_CONFIG)
    [person] = json_ld(soup(site / "index.html"))
    assert person["@type"] == "Person"
    assert person["name"] == "Ada Example"
    assert person["alternateName"] == ["A. Example"]
    assert person["jobTitle"] == "Professor"
    assert person["affiliation"] == {"@type": "Organization", "name": "University of Examples"}
    assert person["email"] == "mailto:ada@example.org"
    # Profiles only: the CV is a file of the site, not another identity.
    assert person["sameAs"] == ["https://scholar.google.com/citations?user=abc",
                                "https://github.com/ada"]
    assert person["url"] == "https://example.org/~ada/"


def test_json_ld_cannot_end_its_script_element(make_site):
    title = 'Breaking </script><script>alert("x")</script> out <!-- & in'
    paper = FULL_PAPER.replace('"A Study of <script> & Friends"', json.dumps(title))
    site = build(make_site, {"publications/study.md": paper, "files/study.pdf": b"%PDF"})
    html = (site / "publications" / "study" / "index.html").read_text(encoding="utf-8")
    page = BeautifulSoup(html, "html.parser")
    scripts = page.find_all("script")
    # One data block; every other script is a file of the theme, with no text of its own,
    # or the theme's inline dark-mode line, which holds nothing from the content.
    assert [s.get("type") for s in scripts].count("application/ld+json") == 1
    assert all((s.get("src") and not s.string)
               or ("alert" not in s.string and "<" not in s.string)
               for s in scripts if s.get("type") != "application/ld+json")
    [article] = json_ld(page)
    assert article["headline"] == title
    assert 'alert("x")' not in html.replace("&#34;", '"').split("<title>")[0]
    block = html.split('<script type="application/ld+json">')[1].split("</script>")[0]
    assert not set(block) & set("<>&")


@pytest.mark.parametrize("text", ["</script>", "<!--", "a & b", "\u2028", "Ünïcödé 中文"])
def test_dump_script_json_round_trips_without_markup_characters(text):
    dumped = str(dump_script_json({"x": text}))
    assert not set(dumped) & set("<>&\u2028\u2029")
    assert json.loads(dumped) == {"x": text}


def test_paper_without_abstract_is_described_by_its_citation(make_site):
    site = build(make_site, {"publications/report.md": REPORT})
    page = soup(site / "publications" / "report" / "index.html")
    description = meta_value(page, "description")
    assert description == "Ada Example. Example Tech Reports, 2023."
    assert meta_value(page, "og:description", "property") == description


def test_long_abstract_is_cut_at_a_word_for_descriptions(make_site):
    words = " ".join(f"word{i}" for i in range(200))
    site = build(make_site, {"publications/study.md": FULL_PAPER.replace("An abstract.", words),
                             "files/study.pdf": b"%PDF"})
    page = soup(site / "publications" / "study" / "index.html")
    description = meta_value(page, "og:description", "property")
    assert len(description) <= 300 and description.endswith("…")
    assert words.startswith(description[:-1])
    assert description[:-1].split()[-1] in words.split()


# --- BibTeX-sourced pages ---------------------------------------------------------------------


@needs_bibtex_reader
def test_bibtex_fixture_pages_carry_tags_from_the_bib_file(bibsite):
    import bibtexparser
    from bibtexparser.middlewares import (LatexDecodingMiddleware, MonthIntMiddleware,
                                          SeparateCoAuthors, SplitNameParts)

    library = bibtexparser.parse_file(
        str(BIBSITE / "publications" / "papers.bib"),
        append_middleware=[LatexDecodingMiddleware(), MonthIntMiddleware(True),
                           SeparateCoAuthors(), SplitNameParts()])
    pages = {p.parent.name: soup(p) for p in (bibsite / "publications").glob("*/index.html")}
    assert len(pages) == len(library.entries) == 21
    by_title = {meta_value(page, "citation_title"): page for page in pages.values()}
    for entry in library.entries:
        fields = {f.key.lower(): f.value for f in entry.fields}
        title = fields["title"].replace("{", "").replace("}", "")
        page = by_title[title]
        authors = [" ".join(p for p in (" ".join(n.first), " ".join(n.von), " ".join(n.last))
                            if p) for n in fields["author"]]
        # Google Scholar and Zotero read 'Family, Given' (and a suffix) unambiguously.
        family_given = [", ".join(p for p in (" ".join(n.von + n.last), " ".join(n.first),
                                              " ".join(n.jr)) if p) for n in fields["author"]]
        assert meta_values(page, "citation_author") == family_given, entry.key
        month = fields.get("month")
        date = str(fields["year"])  # a month without its day is no date Google Scholar takes
        assert meta_value(page, "citation_publication_date") == date, entry.key
        venue_tag = {"inproceedings": "citation_conference_title",
                     "article": "citation_journal_title"}.get(entry.entry_type.lower())
        if venue_tag and entry.entry_type.lower() == "inproceedings":
            assert meta_value(page, venue_tag), entry.key
        if "doi" in fields:
            assert meta_value(page, "citation_doi") == fields["doi"]
        [article] = json_ld(page)
        assert article["headline"] == title
        assert [a["name"] for a in article["author"]] == authors


# --- Venue tiers ------------------------------------------------------------------------------


def test_example_tiers_are_what_the_lookup_gives(papers):
    """Every example venue the CCF table knows gets from the lookup the tier the seed gives it;
    the others (MLSys, CSUR's survey tier, arXiv reports) get nothing from it."""
    ccf = other = 0
    for slug, fm in papers.items():
        tier = fm.get("tier", "")
        found = lookup_tier(fm.get("venue", ""), fm.get("venue_short", ""))
        if tier.startswith("CCF-"):
            ccf += 1
            assert found == tier, slug
        else:
            other += 1
            assert found == "", slug
    assert (ccf, other) == (13, 5)


def test_example_site_has_no_tier_conflicts():
    diags = Diagnostics()
    loaded = load_site(EXAMPLE, diags)
    assert loaded is not None
    site = loaded.site
    assert find_tier_conflicts(site) == []


TIER_PAPER = """\
---
title: {title}
authors: [Ada Example]
venue: USENIX Symposium on Operating Systems Design and Implementation
venue_short: OSDI
date: 2024-07
{tier}
---
"""


def tier_files(**tiers: str) -> dict[str, str]:
    return {f"publications/{slug}.md": TIER_PAPER.format(title=slug.title(), tier=tier)
            for slug, tier in tiers.items()}


def test_tier_conflicts_name_the_file_and_line(make_site):
    content = make_site({"publications/a-paper.md": None,
                         **tier_files(wrong="tier: CCF-B", right="tier: CCF-A",
                                      looked="", other="tier: Top Systems Venue")})
    site = load_site(content, Diagnostics()).site
    conflicts = find_tier_conflicts(site, root=content)
    assert [str(d) for d in conflicts] == [
        "publications/wrong.md:1: warning: tier CCF-B disagrees with the CCF 2026 list, which "
        "ranks OSDI CCF-A; fix 'tier', or remove it to use the list's rank"]


def test_explicit_tier_wins_and_lookup_fills_the_rest(make_site):
    content = make_site({"publications/a-paper.md": None,
                         **tier_files(wrong="tier: CCF-B", looked="")})
    result = run_cli(*build_args(content))
    assert result.code == 0, result.err
    site = content.parent / "site"
    tiers = {slug: [b.get_text() for b in soup(site / "publications" / slug / "index.html")
                    .select(".paper-facts .tier-badge")] for slug in ("wrong", "looked")}
    assert tiers == {"wrong": ["CCF-B"], "looked": ["CCF-A"]}


def test_site_yaml_turns_the_lookup_off(make_site):
    config = MINIMAL_CONFIG + "  venue_tiers: false\n"
    content = make_site({"site.yaml": config, "publications/a-paper.md": None,
                         **tier_files(looked="", given="tier: CCF-C")})
    result = run_cli(*build_args(content))
    assert result.code == 0, result.err
    site = content.parent / "site"
    looked = soup(site / "publications" / "looked" / "index.html")
    given = soup(site / "publications" / "given" / "index.html")
    assert looked.select(".tier-badge") == []
    assert [b.get_text() for b in given.select(".paper-facts .tier-badge")] == ["CCF-C"]


def test_a_percent_encoded_doi_is_the_doi_it_encodes(make_site):
    # A DOI copied out of a link, encoded once or twice ('%28' or '%2528' for '('): the
    # tags, the page and the link carry the DOI itself, whose link encodes nothing twice.
    site = build(make_site, {"publications/a.md": paper(
        "Once", extra="links:\n  doi: 10.1061/%28ASCE%29CP.1943-5487.0000774\n"),
        "publications/b.md": paper(
        "Twice", extra="links:\n  doi: https://doi.org/10.1061/%2528ASCE%2529CP.1943-5487.0000775\n")})
    for slug, end in (("a", "4"), ("b", "5")):
        page = soup(site / "publications" / slug / "index.html")
        doi = f"10.1061/(ASCE)CP.1943-5487.000077{end}"
        assert meta_value(page, "citation_doi") == doi
        assert [a["href"] for a in page.select(".paper-links a.chip") if "doi.org" in a["href"]] \
            == [f"https://doi.org/{doi}"]


def test_more_links_show_their_own_labels_and_stay_out_of_the_exports(make_site):
    # `links.more`: links beyond one of each kind, each a chip with its label; no export
    # has a field for 'Buy', so BibTeX and RIS stay as they were.
    more = ("links:\n  code: https://github.com/x/y\n  more:\n"
            "    - {label: Buy, url: 'https://shop.example.com/book'}\n"
            "    - {label: Rejoinder PDF, url: files/r.pdf}\n")
    site = build(make_site, {"publications/book.md": paper("A Book", extra=more),
                             "files/r.pdf": b"%PDF-1.4\n"})
    page = soup(site / "publications" / "book" / "index.html")
    assert [(a.get_text(), a["href"]) for a in page.select(".paper-links a.chip")] == [
        ("Code", "https://github.com/x/y"), ("Buy", "https://shop.example.com/book"),
        ("Rejoinder PDF", "../../files/r.pdf")]
    for suffix in (".bib", ".ris"):
        text = read_download(site, "book", suffix)
        assert "shop.example.com" not in text and "r.pdf" not in text


def test_a_more_link_without_a_file_or_a_label_is_an_error_at_its_line(make_site):
    content = make_site({"publications/a-paper.md": paper(extra=(
        "links:\n  more:\n    - {url: 'https://x.org/'}\n"
        "    - {label: Bad, url: 'javascript:alert(1)'}\n"))})
    result = run_cli(*build_args(content))
    assert result.code == 1 and "Traceback" not in result.err
    errors = [line.split(": error: ", 1) for line in result.err.splitlines() if ": error: " in line]
    assert [(where.rsplit(":", 1)[1], what[:30]) for where, what in errors] == [
        ("9", "missing required link field 'l"), ("10", "link 'Bad' uses the scheme 'ja")]
    write_files(content, {"publications/a-paper.md": paper(extra=(
        "links:\n  more:\n    - {label: Data, url: files/none.zip}\n"))})
    result = run_cli(*build_args(content))
    assert result.code == 1 and "error: link 'Data' names 'files/none.zip'" in result.err


# --- A bilingual site with people: what each language's pages tell machines ---------------

BILINGUAL_CONFIG = """\
title: Ada Example
url: https://example.org/
languages: [en, zh]
author:
  name: Ada Example
  affiliation: Example University
publications:
  group_by: year
"""
BOUND_PAPER = """\
---
title: "An $O(1)$ Bound"
authors:
  - Ada Example
  - name: Barnes and Noble, Inc.
    family: Barnes and Noble, Inc.
venue: International Symposium on High-Performance Parallel and Distributed Computing
venue_short: HPDC
date: 2024-03
language: en
translations:
  zh:
    title: "一个 $O(1)$ 的界"
---
We bound it.
"""
GRACE = """\
---
name: Grace Hopper
role: PhD student
photo: files/grace.png
links:
  homepage: https://grace.example.org/
  orcid: 0000-0002-1825-0097
---
Grace writes compilers.
"""


@pytest.fixture(scope="module")
def bilingual(tmp_path_factory) -> Path:
    """One en/zh site with a paper whose Chinese title has math, a corporate author and a
    month without a day, and a person with a photo and profiles; built once."""
    from PIL import Image

    content = write_files(tmp_path_factory.mktemp("bilingual") / "content", {
        "site.yaml": BILINGUAL_CONFIG, "publications/bound-2024.md": BOUND_PAPER,
        "people/grace-hopper.md": GRACE, "files/.keep": "",
        "cv.yaml": "education:\n  - {degree: PhD, institution: Example University, date: 2020-06}\n"})
    Image.new("RGB", (120, 160), (30, 90, 160)).save(content / "files" / "grace.png")
    result = run_cli(*build_args(content))
    assert result.code == 0, result.err
    return content.parent / "site"


def test_a_translated_title_s_math_is_mathml_on_pages_and_unicode_in_meta(bilingual):
    page = soup(bilingual / "zh" / "publications" / "bound-2024" / "index.html")
    assert page.h1.math is not None and "$" not in page.h1.get_text()
    assert page.title.get_text().startswith("一个 O(1) 的界")
    assert meta_value(page, "og:title", "property") == "一个 O(1) 的界"
    listed = soup(bilingual / "zh" / "publications" / "index.html")
    [title] = listed.select("li.paper .paper-title")
    assert title.math is not None and "$" not in title.get_text()


def test_a_venue_is_its_name_in_bibtex_and_resume_json(bilingual):
    """Zotero and styles print a BibTeX `booktitle` whole: no '(HPDC)' after the name."""
    venue = "International Symposium on High-Performance Parallel and Distributed Computing"
    assert f"booktitle = {{{venue}}}," in read_download(bilingual, "bound-2024", ".bib")
    resume = json.loads((bilingual / "cv" / "resume.json").read_text(encoding="utf-8"))
    assert [p["publisher"] for p in resume["publications"]] == [venue]


def test_tags_give_the_paper_s_language_and_month_on_each_language_s_page(bilingual):
    """Zotero reads the paper's language from citation_language, else the page's (zh);
    its date from citation_date, the last date tag, with the month that Scholar's
    year-only citation_publication_date drops. The Chinese page's citation and CV give
    their dates in Chinese."""
    for top in (bilingual, bilingual / "zh"):
        page = soup(top / "publications" / "bound-2024" / "index.html")
        assert meta_value(page, "citation_language") == "en"
        assert meta_values(page, "citation_publication_date") == ["2024"]
        assert meta_values(page, "citation_date") == ["2024/03"]
    zh = soup(bilingual / "zh" / "publications" / "bound-2024" / "index.html")
    assert "2024年3月" in zh.select_one(".citation").get_text()
    cv = soup(bilingual / "zh" / "cv" / "index.html").get_text()
    assert "2020年6月" in cv and "June" not in cv


def test_a_person_s_page_is_a_person_with_their_photo_as_its_preview(bilingual):
    for top in (bilingual, bilingual / "zh"):
        page = soup(top / "people" / "grace-hopper" / "index.html")
        [data] = json_ld(page)
        assert (data["@type"], data["name"]) == ("Person", "Grace Hopper")
        assert data["affiliation"] == {"@type": "Organization", "name": "Example University"}
        assert data["sameAs"] == ["https://grace.example.org/",
                                  "https://orcid.org/0000-0002-1825-0097"]
        assert data["image"] == "https://example.org/files/grace.png"
        assert meta_value(page, "og:image", "property") == data["image"]
        assert meta_value(page, "og:image:width", "property") == "120"
