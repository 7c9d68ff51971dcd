"""Unit tests of the small pure pieces: dates, links, authors, citations."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from scholarsite.views.citations import format_citation, make_bibtex_key
from scholarsite.reading.settings.fields import parse_date
from scholarsite.models import Author, Owner, Paper, PubDate
from scholarsite.reading.names import split_author
from scholarsite.reading.text.papers import read_authors
from scholarsite.structure.urls import check_link, page_root
from scholarsite.structure.languages import Messages
from scholarsite.reading.people import fold_name
from scholarsite.views.views import authors_view


@pytest.mark.parametrize("value, expected", [
    ("2024", PubDate(2024)), (2024, PubDate(2024)), ("2024-07", PubDate(2024, 7)),
    ("2024-02-29", PubDate(2024, 2, 29)), (dt.date(2021, 6, 3), PubDate(2021, 6, 3)),
    ("2023-02-29", None), ("2024-13", None), ("July 2024", None), (True, None), (None, None),
])
def test_parse_date(value, expected):
    assert parse_date(value) == expected


def test_date_forms():
    assert PubDate(2026, 7).human() == "July 2026"
    assert PubDate(2026).human() == "2026"
    assert PubDate(2026, 7, 4).iso() == "2026-07-04"


@pytest.mark.parametrize("kind, value, ok", [
    ("pdf", "https://example.org/a.pdf", True), ("pdf", "files/a.pdf", True),
    ("pdf", "mailto:a@b.c", True), ("pdf", "javascript:alert(1)", False),
    ("pdf", "JaVaScRiPt:alert(1)", False), ("pdf", "data:text/html,x", False),
    ("pdf", "file:///etc/passwd", False), ("pdf", "//evil.example/x", False),
    ("pdf", "../../etc/passwd", False), ("pdf", "https://", False),
    ("doi", "10.1145/3600006.3613175", True), ("arxiv", "2403.17297", True),
    ("pdf", "vbscript:x", False),
])
def test_check_link(kind, value, ok):
    url, problem = check_link(kind, value)
    assert bool(url) == ok and bool(problem) != ok


def test_doi_and_arxiv_become_urls():
    assert check_link("doi", "doi:10.1007/s44336-025-00026-9")[0] == \
        "https://doi.org/10.1007/s44336-025-00026-9"
    assert check_link("arxiv", "arXiv:2403.17297")[0] == "https://arxiv.org/abs/2403.17297"


def test_page_root():
    assert page_root("") == ""
    assert page_root("publications/") == "../"
    assert page_root("publications/x/") == "../../"
    assert page_root("robots.txt") == ""


def test_author_marks_and_et_al():
    assert split_author("Wei Gao*†") == Author("Wei Gao", ("*", "†"))
    authors, more, bad = read_authors(("A B*", "C D", "et al."))
    assert [a.name for a in authors] == ["A B", "C D"] and more and not bad
    assert read_authors(("*",))[2] == [0]


def make_paper(n_authors: int, owner_at: int | None) -> Paper:
    names = [f"Person {i}" for i in range(n_authors)]
    if owner_at is not None:
        names[owner_at] = "Ada Example"
    return Paper(slug="p", title="T", authors=tuple(Author(n) for n in names),
                 date=PubDate(2024), type="conference", source=Path("p.md"), line=1, venue="V")


def shown_names(view) -> list[str]:
    return [a.get("name", "…") for a in view["short"]]


def test_author_limit_keeps_the_owner_visible():
    owner = Owner("Ada Example")
    # author_limit names are shown; an owner further down takes the last place, and the
    # count is the rest, as al-folio's ("and 90 more authors" for 100 authors, limit 10).
    view = authors_view(make_paper(100, 60), owner, 10)
    assert shown_names(view)[:9] == [f"Person {i}" for i in range(9)]
    assert shown_names(view)[9:] == ["…", "Ada Example"]
    assert view["hidden"] == 90
    view = authors_view(make_paper(11, 10), owner, 10)
    assert shown_names(view)[-2:] == ["…", "Ada Example"] and view["hidden"] == 1
    view = authors_view(make_paper(11, 3), owner, 10)
    assert view["hidden"] == 1 and "…" not in shown_names(view)
    assert authors_view(make_paper(10, 3), owner, 10)["short"] is None
    assert authors_view(make_paper(50, None), owner, None)["short"] is None


def test_owner_names_fold_case_accents_and_order():
    assert fold_name("Weng, Qizhen") == fold_name("Qizhen WENG")
    assert fold_name("José Núñez") == fold_name("Jose Nunez")
    assert fold_name("Wei Gao") != fold_name("Wei Wang")


def test_citation_style():
    paper = Paper(slug="x", title="T", authors=(Author("A B", ("*",)), Author("C D")),
                  date=PubDate(2022, 11), type="journal", source=Path("x.md"), line=1,
                  venue="IEEE Transactions on Parallel and Distributed Systems",
                  venue_short="TPDS", volume="33", number="11", pages="2781–2793")
    assert format_citation(paper, Messages()) == ("A B, C D. T. IEEE Transactions on Parallel and Distributed "
                                      "Systems (TPDS), Vol. 33, No. 11, pp. 2781–2793, "
                                      "November 2022.")
    assert make_bibtex_key(paper) == "b2022:x"
