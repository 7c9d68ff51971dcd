"""Citations you can see: citations.yaml's counts by year drawn at build time as inline SVG
(site.yaml's `citation_chart`), the site's per year with its total, h-index and
i10-index, and each paper's on its page; nothing drawn where there is nothing to draw."""

from __future__ import annotations

import re

import pytest
from bs4 import BeautifulSoup

from conftest import MINIMAL_CONFIG, build_args, paper, run_cli, write_files


def count_entry(slug: str, count: int, by_year: str = "") -> str:
    years = f"  by_year: {by_year}\n" if by_year else ""
    return (f'"{slug}":\n  count: {count}\n  source: openalex\n  id: "W{count}"\n'
            f"  fetched: 2026-11-30\n{years}")


# Four papers cited 25, 12, 3 and 2 times: h-index 3 (three papers cited 3 times or more),
# i10-index 2; by year, together: 2020: 1, 2021: 5, 2022: 2 (and 0 from d), 2023: 30.
COUNTS = (count_entry("a", 25, "{2021: 5, 2023: 20}") + count_entry("b", 12, "{2022: 2, 2023: 10}")
          + count_entry("c", 3) + count_entry("d", 2, "{2020: 1, 2022: 0}"))
PAPERS = {f"publications/{slug}.md": paper(f"Paper {slug.upper()}") for slug in "abcd"}


def read_soup(path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def bar_heights(svg) -> list[float]:
    return [float(rect["height"]) for rect in svg.find_all("rect")]


def test_the_charts_show_the_counts_by_year_and_the_indexes(tmp_path):
    content = write_files(tmp_path / "content", {
        "site.yaml": MINIMAL_CONFIG + "citations: openalex\ncitation_chart: publications\n",
        "citations.yaml": COUNTS, **PAPERS})
    result = run_cli(*build_args(content))
    assert result.code == 0, result.err
    site = tmp_path / "site"
    page = read_soup(site / "publications" / "index.html")
    [figure] = page.select("figure.cite-chart")
    svg = figure.svg
    assert svg["role"] == "img" and "script" not in str(svg) and "href" not in str(svg)
    assert svg.title.string == "Citations per year"
    assert svg.desc.string == ("2020: 1, 2021: 5, 2022: 2, 2023: 30. "
                               "Total 42, h-index 3, i10-index 2.")
    assert svg["aria-labelledby"] == "site-cites-title site-cites-desc"
    # One bar a year, each as tall beside the tallest as its count beside the largest.
    heights = bar_heights(svg)
    assert [h / max(heights) for h in heights] == pytest.approx([1 / 30, 5 / 30, 2 / 30, 1],
                                                                abs=0.001)
    assert [t.string for t in svg.select("text.year")] == ["2020", "2021", "2022", "2023"]
    assert "Total 42, h-index 3, i10-index 2" in figure.figcaption.get_text()
    assert "OpenAlex, as of 2026-11-30" in figure.figcaption.get_text()
    assert svg["fill"] == "currentColor"  # its colours follow the theme, dark mode too
    assert not read_soup(site / "index.html").select("figure.cite-chart")  # asked elsewhere
    # Each paper with counts by year has its own small chart; one without, only its count.
    spark = read_soup(site / "publications" / "a" / "index.html").select_one("svg[role=img]")
    assert spark.desc.string == "2021: 5, 2022: 0, 2023: 20" and bar_heights(spark) == [5, 0, 20]
    assert spark.title.string == "Citations of this paper per year"
    plain = read_soup(site / "publications" / "c" / "index.html")
    assert plain.select(".cite-count") and not plain.select("svg[role=img]")
    # The same counts, the same bytes, in the site's language (the zh catalog here).
    (content / "site.yaml").write_text(MINIMAL_CONFIG + "language: zh\ncitations: openalex\n"
                                       "citation_chart: home\n", "utf-8")
    assert run_cli(*build_args(content, tmp_path / "zh")).code == 0
    home = (tmp_path / "zh" / "index.html").read_text(encoding="utf-8")
    assert "<title id=\"site-cites-title\">每年被引次数</title>" in home
    assert "2023年：30" in home and "h 指数 3，i10 指数 2" in home
    english = (site / "publications" / "index.html").read_text(encoding="utf-8")
    assert re.findall(r"<rect[^>]*>|<text[^<]*</text>", home) == \
        re.findall(r"<rect[^>]*>|<text[^<]*</text>", english)


def test_nothing_is_drawn_without_counts_by_year_and_bad_ones_are_errors(tmp_path):
    # Asked for, but no update has run: no chart, no sparkline, no empty figure.
    content = write_files(tmp_path / "content", {
        "site.yaml": MINIMAL_CONFIG + "citations: openalex\ncitation_chart: home\n", **PAPERS})
    assert run_cli(*build_args(content)).code == 0
    for page in (tmp_path / "site").rglob("*.html"):
        assert 'role="img"' not in page.read_text(encoding="utf-8"), page  # icons only
    # Counts without years (Semantic Scholar's): the summary line, still no chart.
    (content / "citations.yaml").write_text(count_entry("a", 4), "utf-8")
    assert run_cli(*build_args(content)).code == 0
    home = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "Cited 4 times, h-index 1" in home and "cite-chart" not in home
    # Years or counts that are not numbers are errors at their lines, all of them at once.
    (content / "citations.yaml").write_text(
        count_entry("a", 4, "{2021: 3, twenty: 1}") + count_entry("b", 1, "{2022: -1}"),
        "utf-8")
    result = run_cli(*build_args(content))
    assert result.code == 1 and "Traceback" not in result.err
    assert "citations.yaml:6: error: 'a.by_year' must name years from 1900 to 2200; " \
           "found 'twenty'" in result.err
    assert "citations.yaml:12: error: 'b.by_year.2022' must be a whole number of " \
           "citations; found -1" in result.err
