"""A paper not yet out: in press, forthcoming, submitted, or a preprint with no year. Its
status stands where its year would be, on its page, in the lists (first: it is the newest)
and in every export, which says so honestly rather than inventing a year; bibtex and biber
compile the export."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from conftest import MINIMAL_CONFIG, paper, read_download, run_cli, soup, text_of
from latexrun import HAVE_LATEX, compile_bib

BIB = """\
@article{lee2026press,
  title = {Tones in Press},
  author = {Lee, Ann and Example, Ada},
  journal = {Phonetica},
  year = {In press},
}

@misc{lee2021floating,
  title = {A Floating Tone},
  author = {Example, Ada},
  doi = {10.31234/osf.io/rd7gw},
}

@inproceedings{lee2022byt5,
  title = {Marked Names},
  author = {{Jian Zhu*, Ada Example*} and David Jurgens {[* equal contribution]}},
  booktitle = {Interspeech 2022},
  year = {2022},
}
"""
CONFIG = MINIMAL_CONFIG + """\
  author_notes:
    "*": Equal contribution
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("status")
    content = root / "content"
    (content / "publications").mkdir(parents=True)
    (content / "site.yaml").write_text(CONFIG, encoding="utf-8")
    (content / "publications" / "papers.bib").write_text(BIB, encoding="utf-8")
    for name, text in {
            "forthcoming-book.md": paper("A Forthcoming Book", "2026",
                                         extra="status: forthcoming\n"),
            "in-press-chapter.md": paper("A Chapter in Press", "In press"),
            "submitted-paper.md": paper("A Submitted Paper", "x").replace("date: x\n",
                                                                          "status: submitted\n"),
            "old-paper.md": paper("An Old Paper", "2020-03")}.items():
        (content / "publications" / name).write_text(text, encoding="utf-8")
    site = root / "site"
    result = run_cli("build", "--content", str(content), "--output", str(site))
    checked = run_cli("check", "--content", str(content), "--output", str(site))
    return site, result, checked


def date_fact(site, slug):
    page = soup(site / "publications" / slug / "index.html")
    facts = dict(zip((text_of(dt) for dt in page.select(".paper-facts dt")),
                     page.select(".paper-facts dd")))
    return facts["Date"]


def test_papers_not_yet_out_build_and_check(built):
    site, result, checked = built
    assert result.code == 0, result.err
    assert checked.code == 0, checked.err + checked.out
    # The braced note in the names line is said to be no name, at its entry.
    assert "papers.bib:16: warning: entry 'lee2022byt5': '{[* equal contribution]}' is a " \
        "note, not a name" in result.err


def test_the_status_stands_in_place_of_the_year(built):
    site, _, _ = built
    for slug, shown in (("lee2026press", "In press"), ("in-press-chapter", "In press"),
                        ("lee2021floating", "Preprint"), ("submitted-paper", "Submitted")):
        fact = date_fact(site, slug)
        assert text_of(fact) == shown, slug
        assert fact.time is None, slug  # no machine-readable date it has not got
    # A year and a status: both.
    fact = date_fact(site, "forthcoming-book")
    assert " ".join(fact.get_text().split()) == "2026, Forthcoming"
    assert fact.time["datetime"] == "2026"


def test_papers_with_no_year_yet_are_listed_first_under_their_status(built):
    site, _, _ = built
    page = soup(site / "publications" / "index.html")
    headings = [text_of(h) for h in page.select("section.group h2")]
    assert headings == ["In press", "Submitted", "Preprint", "2026", "2022", "2020"]
    order = [li["id"] for li in page.select("li.paper")]
    assert order[:4] == ["in-press-chapter", "lee2026press", "submitted-paper",
                         "lee2021floating"]
    years = [o.get("value") for o in page.select("select option") if o.get("value")]
    assert "In press" in years and "2026" in years


def test_exports_say_in_press_and_give_no_year(built):
    site, _, _ = built
    bib = read_download(site, "lee2026press", ".bib")
    assert "year" not in bib and "note = {In press}" in bib
    md_bib = read_download(site, "submitted-paper", ".bib")
    assert "year" not in md_bib and "note = {Submitted}" in md_bib
    ris = read_download(site, "lee2026press", ".ris")
    assert "PY  -" not in ris and "DA  -" not in ris and "N1  - In press" in ris
    [csl] = json.loads(read_download(site, "lee2026press", ".json"))
    assert csl["status"] == "in press" and "issued" not in csl
    page = soup(site / "publications" / "lee2026press" / "index.html")
    assert page.select('meta[name="citation_publication_date"]') == []
    ET.parse(site / "feed.xml")  # Atom: every entry has a date, so none of these is in it


def test_the_legend_is_shown_where_a_marked_author_is(built):
    site, _, _ = built
    marked = soup(site / "publications" / "lee2022byt5" / "index.html")
    authors = [text_of(a) for a in marked.select(".paper-authors .author")]
    assert authors == ["Jian Zhu *", "Ada Example *", "David Jurgens"]
    assert "Equal contribution" in text_of(marked.select_one(".legend"))
    unmarked = soup(site / "publications" / "old-paper" / "index.html")
    assert unmarked.select(".legend") == []


@pytest.mark.skipif(not HAVE_LATEX, reason="pdflatex, bibtex or biber is missing")
@pytest.mark.parametrize("style", ("plain", "biblatex"))
def test_bibtex_and_biber_compile_the_export(built, style, tmp_path):
    site, _, _ = built
    bib = (site / "publications.bib").read_text(encoding="utf-8")
    result = compile_bib(bib, style, tmp_path)
    assert result.errors == ()
    assert "In press" in result.bbl and "Submitted" in result.bbl


def test_a_status_that_is_none_is_an_error(make_site):
    content = make_site({"publications/a-paper.md": paper(extra="status: soon\n")})
    result = run_cli("build", "--content", str(content), "--output",
                     str(content.parent / "site"))
    assert result.code == 1
    assert "a-paper.md:7: error: 'status' must be one of in press, forthcoming, submitted, " \
        "preprint; found 'soon'" in result.err


# A web page as biber's own examples cite one: no year, and nothing says it is a preprint.
WEB_PAGES = """\
@online{markey2009beast,
  author = {Markey, Nicolas},
  title = {Tame the BeaST},
  url = {http://tug.ctan.org/tex-archive/info/bibtex/tamethebeast/ttb_en.pdf},
}

@misc{example2025eprint,
  title = {An Undated Preprint},
  author = {Example, Ada},
  eprint = {2501.00001},
  archiveprefix = {arXiv},
}
"""


def test_an_undated_web_page_is_no_preprint(make_site):
    content = make_site({"publications/web.bib": WEB_PAGES})
    site = content.parent / "site"
    result = run_cli("build", "--content", str(content), "--output", str(site))
    assert result.code == 0, result.err
    page = soup(site / "publications" / "index.html")
    # The undated page last, under 'Other'; the undated preprint first, as it says it is one.
    assert [text_of(h) for h in page.select("section.group h2")] == ["Preprint", "2024",
                                                                      "Other"]
    order = [li["id"] for li in page.select("li.paper")]
    assert order[0] == "example2025eprint" and order[-1] == "markey2009beast"
    entry = page.select_one("li#markey2009beast")
    assert "Preprint" not in text_of(entry) and not text_of(
        entry.select_one(".paper-venue")).endswith(",")
    paper_page = soup(site / "publications" / "markey2009beast" / "index.html")
    assert "Date" not in [text_of(dt) for dt in paper_page.select(".paper-facts dt")]
    assert "Preprint" not in text_of(paper_page.select_one("main"))
    bib = read_download(site, "markey2009beast", ".bib")
    ris = read_download(site, "markey2009beast", ".ris")
    [csl] = json.loads(read_download(site, "markey2009beast", ".json"))
    assert "year" not in bib and "Preprint" not in bib
    assert "PY  -" not in ris and "Preprint" not in ris and "MANSCPT" not in ris
    assert "issued" not in csl and "status" not in csl
    assert "note = {Preprint}" in read_download(site, "example2025eprint", ".bib")
