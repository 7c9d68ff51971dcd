"""End to end: the al-folio-style fixture site (seed 002's papers as one .bib file) built by
the real command line, its pages read as parsed HTML."""

from __future__ import annotations

import pytest

from conftest import BIBSITE, read_download
from htmltree import Node, parse_page

OWNER = "Qizhen Weng"


@pytest.fixture(scope="module")
def publications(bibsite) -> Node:
    return parse_page(bibsite / "publications" / "index.html")


def entry(page: Node, slug: str) -> Node:
    return page.find("li", cls="paper", id=slug)


def short_authors(item: Node) -> Node:
    """The collapsed author line: the <summary> of the author list."""
    return item.find("details", cls="authors-more").find("summary")


def test_the_build_reports_every_paper(shipped):
    assert "(21 papers)" in shipped(BIBSITE)[1].out


def test_year_groups_newest_first(publications):
    years = [h.text() for h in publications.find_all("h2")]
    assert years == ["2026", "2025", "2024", "2023", "2022", "2021", "2020", "2019", "2018"]
    counts = [len(s.find_all("li", cls="paper")) for s in publications.find_all("section",
                                                                              cls="group")]
    assert counts == [2, 8, 2, 1, 2, 1, 2, 1, 2]
    first_2025 = publications.find_all("section", cls="group")[1].find("li", cls="paper")
    assert first_2025.attrs["id"] == "chen2025teleworld"  # December before November


def test_venue_badges_from_abbr_or_the_short_name_the_venue_gives(publications):
    """As a hand-written paper shows its `venue_short`: `abbr` when the entry has one, else
    the short name its venue ends with ('... Systems (EuroSys)'); an arXiv paper has none."""
    badges = {item.attrs["id"]: item.find("span", cls="venue-badge").text()
              for item in publications.find_all("li", cls="paper")
              if item.find_all("span", cls="venue-badge")}
    assert badges == {
        "wang2026suika": "EuroSys", "wu2026grouter": "EuroSys", "li2025toppings": "ATC",
        "yang2025prism": "NSDI", "weng2023fgd": "ATC", "weng2022mlaas": "NSDI",
        "zhang2022workload": "SoCC", "chen2021accelerating": "TCC", "chen2020semi": "SoCC",
        "wang2020metis": "SC", "tian2019towards": "APSys", "chen2018fast": "SoCC",
        "yu2018opus": "ICDCS"}


@pytest.mark.parametrize("slug,more", [
    ("wang2025igtcache", "and 1 more author"), ("yang2025prism", "and 12 more authors"),
    ("duan2024llmsurvey", "and 6 more authors"), ("cai2024internlm2", "and 90 more authors"),
    ("zhang2022workload", "and 4 more authors"), ("wang2026suika", "and 1 more author"),
    ("chen2025teleworld", "and 17 more authors"),
])
def test_long_author_lists_are_cut_with_the_owner_in_view(publications, slug, more):
    item = entry(publications, slug)
    summary = short_authors(item)
    assert summary.text().endswith(more)
    names = [a.text() for a in summary.find_all("span", cls="author")]
    assert len(names) == 10
    assert OWNER in names
    owner = summary.find("span", cls="owner")
    assert owner.find("strong").text() == OWNER
    full = item.find("details", cls="authors-more").child_elements("span")[0]
    total = len(full.find_all("span", cls="author"))
    assert total == 10 + int(more.split()[1])


def test_owner_after_the_limit_takes_the_last_place(publications):
    summary = short_authors(entry(publications, "cai2024internlm2"))
    names = [a.text() for a in summary.find_all("span", cls="author")]
    assert names[:9] == ["Zheng Cai", "Maosong Cao", "Haojiong Chen", "Kai Chen", "Keyu Chen",
                         "Xin Chen", "Xun Chen", "Zehui Chen", "Zhi Chen"]
    assert names[9] == OWNER
    assert "…" in summary.text()


@pytest.mark.parametrize("slug", ["wu2026grouter", "weng2022mlaas", "fan2025aitrinity"])
def test_short_lists_are_shown_whole(publications, slug):
    item = entry(publications, slug)
    assert not item.find_all("details", cls="authors-more")
    assert item.find("span", cls="owner").text() == OWNER
    assert "more author" not in item.find("div", cls="paper-authors").text()


def test_dates_show_the_month_only_when_given(publications):
    assert entry(publications, "zhang2022workload").find("time").text() == "2022"
    assert entry(publications, "li2025toppings").find("time").text() == "July 2025"
    assert entry(publications, "li2025toppings").find("time").attrs["datetime"] == "2025-07"


def test_text_is_unicode_without_latex(publications):
    titles = {i.attrs["id"]: i.find("a", cls="paper-title").text()
              for i in publications.find_all("li", cls="paper")}
    assert titles["chen2025teleworld"].startswith("TeleWorld: Towards")
    assert titles["yang2025prism"].startswith("GPU-Disaggregated Serving")
    assert not any(ch in t for t in titles.values() for ch in "{}\\")
    venue = entry(publications, "li2025toppings").find("div", cls="paper-venue").text()
    assert venue.startswith("2025 USENIX Annual Technical Conference (ATC), Boston, MA")


def test_bibtex_on_demand_is_the_source_entry_without_display_fields(bibsite, publications):
    item = entry(publications, "tian2019towards")
    shown = item.find("details", cls="bibtex-more").find("pre").text()
    assert shown.startswith("@inproceedings{tian2019Towards,")
    assert "abbr" not in shown and "(APSys)}" in shown  # the booktitle keeps its "(APSys)"
    toppings = entry(publications, "li2025toppings").find("details", cls="bibtex-more")
    text = toppings.find("pre").text()
    # As written, less what classic styles would lowercase: {CPU} is braced, {LLM} was.
    assert ("title = {Toppings: {CPU}-Assisted, Rank-Aware Adapter Serving for {LLM} Inference}"
            in text)
    assert "month = jul," in text and "pages = {612--629}" in text
    download = read_download(bibsite, "li2025toppings", ".bib")
    assert " ".join(download.split()) == text


def test_paper_page_lists_every_author(bibsite):
    page = parse_page(bibsite / "publications" / "cai2024internlm2" / "index.html")
    names = [a.text() for a in page.find("p", cls="paper-authors").find_all("span", cls="author")]
    assert len(names) == 100 and names[0] == "Zheng Cai" and names[-1] == "Dahua Lin"
    assert page.find("span", cls="owner").text() == OWNER
