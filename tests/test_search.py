"""The publication filters' choices and the search index, as the build writes them into the
pages (read back through parsed HTML), and the JSON escaping that keeps the index inert."""

from __future__ import annotations

import json
from functools import partial

from bs4 import BeautifulSoup

from conftest import build_args, paper, run_cli

# Papers by Ada Example alone, each of its own venue (venue="Venue <title>"), no abstract.
solo = partial(paper, authors="Ada Example", venue_short=None, abstract="")


def build(make_site, files: dict) -> dict[str, BeautifulSoup]:
    content = make_site({"publications/a-paper.md": None, **files})
    out = content.parent / "site"
    result = run_cli(*build_args(content, out))
    assert result.code == 0, result.err
    return {rel: BeautifulSoup((out / rel).read_text(encoding="utf-8"), "html.parser")
            for rel in ("publications/index.html", "search/index.html")}


def facet_options(page: BeautifulSoup) -> dict[str, list[str]]:
    return {s["name"]: [o.get_text() for o in s.find_all("option")]
            for s in page.select("#filters select")}


def test_filters_offer_only_what_tells_papers_apart(make_site):
    pages = build(make_site, {
        "publications/one.md": solo("One", "2024-03", venue="Venue One",
                                    extra="tier: CCF-A\ntopics: [Graphs, Systems]\n"),
        "publications/two.md": solo("Two", "2023", venue="Venue Two",
                                    extra="tier: CCF-B\ntopics: [systems2]\n"),
        "publications/three.md": solo("Three", "2024", venue="Venue Three",
                                      extra="type: journal\n"),
    })
    page = pages["publications/index.html"]
    assert facet_options(page) == {
        "year": ["All years", "2024 (2)", "2023 (1)"],
        "tier": ["All tiers", "CCF-A (1)", "CCF-B (1)"],
        "type": ["All types", "Conference Papers (2)", "Journal Articles (1)"],
        "topic": ["All topics", "Graphs (1)", "Systems (1)", "systems2 (1)"],
    }  # no category filter: no paper has one
    assert page.select_one("#filters").has_attr("hidden")  # until filter.js shows it
    one = page.select_one("li#one")
    assert (one["data-year"], one["data-tier"], one["data-type"], one["data-topics"]) == \
        ("2024", "CCF-A", "conference", "Graphs|Systems")
    assert page.select_one("#filter-topic")["data-attr"] == "topics"


def test_a_single_paper_gets_no_filters(make_site):
    pages = build(make_site, {"publications/one.md": solo("One", "2024", venue="Venue One")})
    assert pages["publications/index.html"].select_one("#filters") is None


def test_search_index_holds_every_paper_and_page_worth_finding(make_site):
    pages = build(make_site, {
        "index.md": "I study *graphs* & things.\n",
        "publications/one.md": solo("One </script> title", "2024",
                                    venue="Venue One </script> title",
                                    abstract="About <b>graphs</b>."),
        "publications/two.md": solo("Two", "2023", venue="Venue Two"),
    })
    script = pages["search/index.html"].select_one("script#search-index")
    assert script["type"] == "application/json"
    index = json.loads(script.string)
    by_url = {e["url"]: e for e in index}
    assert set(by_url) == {"", "publications/", "publications/one/", "publications/two/"}
    one = by_url["publications/one/"]
    assert one["title"] == "One </script> title" and one["authors"] == "Ada Example"
    assert one["venue"] == "Venue One </script> title" and one["year"] == 2024
    assert "About graphs" in one["text"] and "<b>" not in one["text"]
    assert by_url[""]["text"] == "I study graphs & things."


def test_index_json_cannot_end_its_script_element(make_site):
    title = "</script><!-- & -->"
    content = make_site({"publications/a-paper.md": None,
                         "publications/one.md": solo(json.dumps(title), "2024",
                                                     venue=f"Venue {json.dumps(title)}")})
    out = content.parent / "site"
    assert run_cli(*build_args(content, out)).code == 0
    html = (out / "search" / "index.html").read_text(encoding="utf-8")
    start = html.index('id="search-index"')
    start = html.index(">", start) + 1
    text = html[start:html.index("</script>", start)]
    assert "<" not in text and ">" not in text and "&" not in text
    assert title in [entry["title"] for entry in json.loads(text)]


def test_search_index_holds_talks_and_the_text_of_news(make_site):
    pages = build(make_site, {
        "publications/one.md": solo("One", "2024", venue="Venue One"),
        "talks/keynote.md": "---\ntitle: A Keynote\ndate: 2024-05-01\nevent: Summit\n---\n"
                            "On **queues**.\n",
        "news/2024-06.md": "---\ndate: 2024-06-01\n---\nWe moved to a new building.\n",
    })
    index = json.loads(pages["search/index.html"].select_one("script#search-index").string)
    by_url = {e["url"]: e for e in index}
    talk = by_url["talks/keynote/"]
    assert (talk["kind"], talk["title"], talk["venue"], talk["year"], talk["text"]) == \
        ("Talk", "A Keynote", "Summit", 2024, "On queues.")
    assert "new building" in by_url["news/"]["text"]
