"""Citation exports: every .bib read back with bibtexparser, every .ris with rispy, the
recommended citation in one style, and the copy button in a real browser."""

from __future__ import annotations

import re
from pathlib import Path

import bibtexparser
import pytest
from browser import open_page, serve
import rispy
from bs4 import BeautifulSoup
from pylatexenc.latex2text import LatexNodes2Text

from conftest import (examples, BIBSITE, read_download, ET_AL, MINIMAL_CONFIG, build_args, names_of, needs_bibtex_reader,
                      run_cli, write_files)
from hypothesis import given, settings
from hypothesis import strategies as st

from scholarsite.models import Author, Paper, PubDate
from scholarsite.views.citations import DISPLAY_ONLY_FIELDS, make_bibtex

MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August",
               "September", "October", "November", "December")
def has_et_al(authors: list[str]) -> bool:
    return authors[-1].lower() in ET_AL


def read_bib(path: Path) -> bibtexparser.Library:
    return parse_bib(path.read_text(encoding="utf-8"))


def parse_bib(text: str) -> bibtexparser.Library:
    library = bibtexparser.parse_string(text)
    assert library.failed_blocks == [], text
    return library


def latex_text(value: str) -> str:
    """A BibTeX value as LaTeX prints it (pylatexenc): braces gone, escapes read."""
    return LatexNodes2Text().latex_to_text(value)


def unbrace(value: str) -> str:
    return value[1:-1] if value.startswith("{") and value.endswith("}") else value


def bib_fields(entry) -> dict[str, str]:
    return {f.key: unbrace(f.value) for f in entry.fields}


def venue_name(fm: dict) -> str:
    """The venue as an export's field has it: the name alone, never 'Name (SHORT)'."""
    return fm.get("venue") or fm.get("venue_short", "")


# --- BibTeX -----------------------------------------------------------------------------------


def test_every_exported_bib_reads_back_as_the_paper(example, papers):
    types = {"conference": "inproceedings", "journal": "article", "report": "techreport"}
    venue_fields = {"conference": "booktitle", "journal": "journal", "report": "institution"}
    for slug, fm in papers.items():
        [entry] = parse_bib(read_download(example, slug, ".bib")).entries
        fields = bib_fields(entry)
        assert entry.entry_type == types[fm["type"]], slug
        assert latex_text(fields["title"]) == fm["title"]
        for word in re.findall(r"\w+", fm["title"]):  # capitals kept, as DBLP keeps them
            if any(c.isupper() for c in word[1:]):
                assert "{" + word + "}" in fields["title"], (slug, word)
        authors = [latex_text(name) for name in fields["author"].split(" and ")]
        assert authors == [", ".join(reversed(name.rsplit(" ", 1))) for name in
                           names_of(fm["authors"])] + (["others"] if has_et_al(fm["authors"]) else [])
        date = str(fm["date"]).split("-")
        assert fields["year"] == date[0]
        if len(date) > 1:
            assert fields["month"] == MONTHS[int(date[1]) - 1]  # a bare macro
        else:
            assert "month" not in fields
        assert fields[venue_fields[fm["type"]]] == venue_name(fm)
        for key in ("volume", "number"):
            assert fields.get(key) == (str(fm[key]) if key in fm else None), (slug, key)
        if "pages" in fm:
            assert fields["pages"] == fm["pages"].replace("–", "--")
        assert fields.get("note") == fm.get("note")
        assert fields.get("address") == fm.get("location")
        assert not set(fields) & DISPLAY_ONLY_FIELDS, slug


def test_publications_bib_holds_every_paper_once_newest_first(example, papers):
    library = read_bib(example / "publications.bib")
    keys = [e.key for e in library.entries]
    assert len(keys) == len(papers) == 18
    assert len(set(keys)) == len(keys)
    singles = {}
    for slug in papers:
        [entry] = parse_bib(read_download(example, slug, ".bib")).entries
        singles[entry.key] = bib_fields(entry)
    assert {e.key: bib_fields(e) for e in library.entries} == singles
    years = [int(bib_fields(e)["year"]) for e in library.entries]
    assert years == sorted(years, reverse=True)


BIB_ONLY_PAPER = """\
---
title: "Costs & Benefits of 100% Coverage"
authors: [Ada Example, Bob Builder]
venue: Conference on Examples
venue_short: CoE
date: 2024-05
pages: 7-9
tier: CCF-C
category: Testing
selected: true
award: Best Paper
links:
  code: https://github.com/ada/coverage
  url: https://example.org/coverage
  doi: 10.1234/coe.2024.7
---
"""


def test_bib_escapes_specials_and_leaves_display_fields_out(make_site):
    content = make_site({"site.yaml": MINIMAL_CONFIG, "publications/a-paper.md": BIB_ONLY_PAPER})
    assert run_cli(*build_args(content)).code == 0
    text = read_download(content.parent / "site", "a-paper", ".bib")
    [entry] = parse_bib(text).entries
    fields = bib_fields(entry)
    assert fields["title"] == r"Costs \& Benefits of 100\% Coverage"
    assert fields["pages"] == "7--9"
    assert fields["doi"] == "10.1234/coe.2024.7"
    assert fields["url"] == "https://example.org/coverage"
    for shown_only in ("tier", "category", "selected", "award", "code", "CCF-C", "Best Paper"):
        assert shown_only not in text


def test_a_sites_template_reads_derived_keys_however_it_names_them(make_site, tmp_path):
    """A paper's downloads, their file names and its topics for the filters are made as a
    template reads them (views/derived.py): a site's own list entry gets what the paper's
    page and the theme's entry show, by attribute, by key and by map(attribute=)."""
    topics = BIB_ONLY_PAPER.replace("category: Testing", "category: Testing\ntopics: [a, b]")
    content = make_site({"site.yaml": MINIMAL_CONFIG, "publications/a-paper.md": topics,
                         "publications/b-paper.md": BIB_ONLY_PAPER.replace("100%", "99%").replace(
                             "coe.2024.7", "coe.2024.8")})
    own = tmp_path / "templates"
    write_files(own, {"_paper_entry.html": '{% include "theme/_paper_entry.html" %}<p class="dl">'
                      '{{ paper.bibtex_href }} {{ paper["ris_href"] }} '
                      '{{ [paper]|map(attribute="csl_href")|first }} {{ paper.csl_href is defined }} '
                      '{{ paper.no_such_href is defined }} {{ paper.bibtex_file }} '
                      '{{ paper["ris_file"] }} {{ paper.csl_file }} [{{ paper["topics_data"] }}]</p>\n'})
    result = run_cli(*build_args(content, None, "--strict", templates=own))
    assert result.code == 0, result.err
    site = content.parent / "site"
    listed = BeautifulSoup((site / "publications/index.html").read_text(encoding="utf-8"),
                           "html.parser")
    for slug in ("a-paper", "b-paper"):
        page = BeautifulSoup((site / f"publications/{slug}/index.html").read_text(
            encoding="utf-8"), "html.parser")
        links = page.select("p.downloads a[download]")
        entry = listed.select_one(f"li#{slug}")
        shown = entry.find_next("p", class_="dl").get_text().split()
        assert shown == [*(a["href"] for a in links), "True", "False",
                         *(a["download"] for a in links), f"[{entry['data-topics']}]"]
    assert entry["data-topics"] == "" and len(links) == 3


@needs_bibtex_reader
def test_bibtex_fixture_exports_read_back(bibsite):
    source = {e.key: bib_fields(e) for e in read_bib(BIBSITE / "publications" / "papers.bib").entries}
    exported = read_bib(bibsite / "publications.bib")
    assert sorted(e.key for e in exported.entries) == sorted(source)
    for entry in exported.entries:
        fields = bib_fields(entry)
        assert "abbr" not in fields and not set(fields) & DISPLAY_ONLY_FIELDS
        original = source[entry.key]
        assert fields["year"] == original["year"]
        for key in ("doi", "volume", "issn", "isbn"):
            assert fields.get(key) == original.get(key), (entry.key, key)
    singles = [parse_bib(read_download(bibsite, p.parent.name, ".bib")).entries[0].key
               for p in sorted((bibsite / "publications").glob("*/index.html"))]
    assert sorted(singles) == sorted(source)


# --- RIS --------------------------------------------------------------------------------------


def test_every_exported_ris_imports_as_the_paper(example, papers):
    types = {"conference": "CPAPER", "journal": "JOUR", "report": "RPRT"}
    for slug, fm in papers.items():
        text = read_download(example, slug, ".ris")
        assert "\r\n" in text
        [ref] = rispy.loads(text)
        assert ref["type_of_reference"] == types[fm["type"]]
        assert ref["title"] == fm["title"]
        expected = []
        for name in names_of(fm["authors"]):
            given, family = name.rsplit(" ", 1)
            expected.append(f"{family}, {given}")
        assert ref["authors"] == expected
        date = str(fm["date"]).split("-") + ["", ""]
        assert ref["year"] == date[0]
        assert ref["date"] == f"{date[0]}/{date[1]}/{date[2]}/"
        assert ref["secondary_title"] == (fm.get("venue") or fm.get("venue_short"))
        # J2 only for a journal: Zotero saves a conference's J2 as its proceedings' title.
        if fm.get("venue_short") and fm["type"] == "journal":
            assert ref["alternate_title1"] == fm["venue_short"]
        else:
            assert "alternate_title1" not in ref
        assert ref.get("volume") == (str(fm["volume"]) if "volume" in fm else None)
        # Zotero reads a report's number from SN, and a conference's place from C1.
        number = "issn" if fm["type"] == "report" else "number"
        assert ref.get(number) == (str(fm["number"]) if "number" in fm else None)
        if "pages" in fm:
            first, last = fm["pages"].split("–")
            assert (ref["start_page"], ref["end_page"]) == (first, last)
        assert ref["urls"] == [f"https://example.github.io/publications/{slug}/"]
        assert ref.get("abstract") == (fm["abstract"] or None)
        place = "custom1" if fm["type"] == "conference" else "place_published"
        assert ref.get(place) == fm.get("location")
        assert ref.get("notes") == ([fm["note"]] if "note" in fm else None)


def test_publications_ris_holds_every_paper(example, papers):
    refs = rispy.loads((example / "publications.ris").read_text(encoding="utf-8"))
    assert len(refs) == 18
    assert sorted(r["id"] for r in refs) == sorted(
        rispy.loads(read_download(example, s, ".ris"))[0]["id"]
        for s in papers)


def test_ris_keeps_doi_pdf_links_and_folds_lines(make_site):
    paper = BIB_ONLY_PAPER.replace("links:\n", "links:\n  pdf: files/coverage.pdf\n") + \
        "First line of the abstract.\n\nSecond paragraph.\n"
    content = make_site({"site.yaml": MINIMAL_CONFIG, "publications/a-paper.md": paper,
                         "files/coverage.pdf": b"%PDF"})
    assert run_cli(*build_args(content)).code == 0
    [ref] = rispy.loads(read_download(content.parent / "site", "a-paper", ".ris"))
    assert ref["doi"] == "10.1234/coe.2024.7"
    assert ref["file_attachments1"] == "https://example.org/files/coverage.pdf"
    assert ref["urls"] == ["https://example.org/coverage", "https://example.org/publications/a-paper/"]
    assert ref["abstract"] == "First line of the abstract. Second paragraph."
    assert ref["title"] == "Costs & Benefits of 100% Coverage"


# --- The recommended citation -----------------------------------------------------------------

CITATION = re.compile(
    r"^(?P<authors>.+?)\. (?P<title>.+?)[.?!] (?P<rest>.+), (?:(?:\d{1,2} )?(?P<month>[A-Z][a-z]+) )?"
    r"(?P<year>\d{4})\.$")


def citations_of(site: Path) -> dict[str, str]:
    found = {}
    for page in sorted((site / "publications").glob("*/index.html")):
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
        found[page.parent.name] = " ".join(soup.select_one("p.citation").get_text().split())
    return found


def check_citation_style(text: str) -> None:
    match = CITATION.match(text)
    assert match, text
    assert match["month"] is None or match["month"] in MONTH_NAMES, text
    rest = match["rest"]  # the title is the paper's own text, '--' and all
    assert "--" not in rest and " ," not in rest and ",," not in rest, text
    assert re.search(r"pp\. \d+(–\d+)?\b", text) or "pp." not in text, text


def test_example_citations_share_one_style(example, papers):
    citations = citations_of(example)
    assert set(citations) == set(papers)
    for slug, text in citations.items():
        check_citation_style(text)
        fm = papers[slug]
        assert text.startswith(", ".join(names_of(fm["authors"])))
    assert citations["astraea-tpds-2022"] == (
        "Zhisheng Ye, Peng Sun, Wei Gao, Tianwei Zhang, Xiaolin Wang, Shengen Yan, Yingwei Luo. "
        "Astraea: A Fair Deep Learning Scheduler for Multi-tenant GPU Clusters. IEEE Transactions on Parallel and Distributed Systems (TPDS), Vol. 33, No. 11, "
        "pp. 2781–2793, November 2022.")


@needs_bibtex_reader
def test_bibtex_citations_share_the_same_style(bibsite):
    citations = citations_of(bibsite)
    assert len(citations) == 21
    for text in citations.values():
        check_citation_style(text)


@needs_bibtex_reader
def test_one_paper_from_markdown_and_bibtex_gets_one_citation(make_site):
    bib = """\
    @inproceedings{example2024paper,
      title = {A Paper},
      author = {Example, Ada and Builder, Bob},
      booktitle = {Conference on Examples},
      abbr = {CoE},
      pages = {7--9},
      year = {2024},
      month = may,
    }
    """
    md = make_site({"publications/a-paper.md": MINIMAL_PAPER_WITH_PAGES})
    assert run_cli(*build_args(md, md.parent / "md-site")).code == 0
    bib_content = md.parent / "bib-content"
    bib_content.mkdir()
    (bib_content / "site.yaml").write_text(MINIMAL_CONFIG, encoding="utf-8")
    (bib_content / "publications").mkdir()
    (bib_content / "publications" / "papers.bib").write_text(
        "\n".join(line[4:] for line in bib.splitlines()), encoding="utf-8")
    assert run_cli(*build_args(bib_content, md.parent / "bib-site")).code == 0
    [from_md] = citations_of(md.parent / "md-site").values()
    [from_bib] = citations_of(md.parent / "bib-site").values()
    assert from_md == from_bib == "Ada Example, Bob Builder. A Paper. Conference on Examples " \
        "(CoE), pp. 7–9, May 2024."


MINIMAL_PAPER_WITH_PAGES = """\
---
title: A Paper
authors: [Ada Example, Bob Builder]
venue: Conference on Examples
venue_short: CoE
date: 2024-05
pages: 7–9
---
"""


# --- The copy button, in a real browser ------------------------------------------------------


@pytest.fixture(scope="module")
def served(example):
    with serve(example) as base:
        yield base


def test_copy_button_copies_the_bibtex(served, browser, example):
    slug = "astraea-tpds-2022"
    with open_page(browser, permissions=["clipboard-read", "clipboard-write"]) as page:
        page.goto(f"{served}publications/{slug}/")
        buttons = page.locator("button.copy-button")
        assert buttons.count() == 1 and buttons.text_content() == "Copy BibTeX"
        buttons.click()
        page.wait_for_function("document.querySelector('.copy-status').textContent !== ''")
        assert page.text_content(".copy-status") == "Copied"
        copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == read_download(example, slug, ".bib")


def test_without_javascript_the_bibtex_is_visible_and_selectable(served, browser, example):
    slug = "weave-osdi-2026"
    with open_page(browser, java_script_enabled=False) as page:
        page.goto(f"{served}publications/{slug}/")
        # No button shows (the copy button and the theme toggle need JavaScript).
        assert all(not b.is_visible() for b in page.locator("button").all())
        pre = page.locator("pre.bibtex")
        assert pre.is_visible() and pre.bounding_box()["height"] > 100
        assert pre.evaluate("p => getComputedStyle(p).userSelect") in ("auto", "text")
        pre.select_text()
        selected = page.evaluate("getSelection().toString()")
    # A selection's text ends at the last character shown: the file's final newline is not.
    bibtex = read_download(example, slug, ".bib")
    assert selected == bibtex.rstrip("\n")


INJECTION = "Closed} , note = {injected"


def test_a_title_cannot_add_fields_to_the_exported_entry(make_site):
    paper = f"---\ntitle: '{INJECTION}'\nauthors: [Ada Example]\nvenue: Venue\ndate: 2024\n" \
        "bibtex_key: 'k1}, evil = {x'\nextra:\n  'note = {y}, z': w\n---\n"
    content = make_site({"publications/a-paper.md": paper})
    assert run_cli(*build_args(content)).code == 0
    site = content.parent / "site"
    for text in (read_download(site, "a-paper", ".bib"),
                 (site / "publications.bib").read_text(encoding="utf-8")):
        [entry] = parse_bib(text).entries
        assert set(bib_fields(entry)) == {"title", "author", "booktitle", "year"}
        assert "injected" in bib_fields(entry)["title"] and entry.key != "k1"


@settings(max_examples=examples(200), deadline=None)
@given(st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=40)
       .filter(str.strip), st.text("{}\\, =ab", max_size=12))
def test_any_title_exports_as_one_entry_with_its_own_fields(title, noise):
    """Whatever the title holds, the export re-parses to one entry with the paper's
    fields and nothing else."""
    paper = Paper(slug="p", title=title + noise, authors=(Author("Ada Example"),),
                  date=PubDate(2024), type="conference", source=Path("p.md"), line=1,
                  venue="Venue " + noise)
    library = bibtexparser.parse_string(make_bibtex(paper))
    assert library.failed_blocks == [] and len(library.entries) == 1
    assert set(bib_fields(library.entries[0])) == {"title", "author", "booktitle", "year"}
