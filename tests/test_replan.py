"""Edits of papers after which serve patches the pages that list papers (replan.py) or
plans them again: after each, the output is byte for byte what a cold build makes."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import (examples, TEMPLATES, assert_same_as_cold_build, edit, paper, start_live_site,
                      write_files)
from scholarsite.build import BuildOptions
from scholarsite.live.incremental import SiteBuilder

CONFIG = """\
title: Ada Example
url: https://example.org/
author:
  name: Ada Example
publications:
  group_by: category
  categories: [Systems, Theory]
  feed_limit: 2  # edits move papers into and out of the feed
  author_notes:
    "*": Equal contribution
"""

AUTHORS = "Ada Example*, Bob Builder*"  # every paper's


BIB = """\
@inproceedings{{one,
  title = {{{title}}},
  author = {{Example, Ada and Builder, Bob}},
  booktitle = {{Symposium on Examples}},
  year = {{2020}},
  month = jun,
  abstract = {{{abstract}}},
  topics = {{graphs}},
}}
@article{{two,
  title = {{Two}},
  author = {{Example, Ada}},
  journal = {{Journal of Examples}},
  year = {{2019}},
}}
"""

FILES = {
    "site.yaml": CONFIG,
    "index.md": "I study examples.\n",
    "publications/alpha.md": paper("Alpha", "2024-05", authors=AUTHORS, extra=(
        "category: Systems\ntopics: [scheduling]\ntier: A\nselected: true\n"
        "links:\n  pdf: files/alpha.pdf\n")),
    "publications/beta.md": paper("Beta", "2023-02", authors=AUTHORS, extra=(
        "category: Theory\ntopics: [graphs, scheduling]\n")),
    "publications/gamma.md": paper("Gamma", "2022-11", authors=AUTHORS, extra=(
        "category: Systems\ntopics: [storage]\ntier: B\n"),
        abstract="Gamma's *abstract*, with a [link](x.html)."),
    "publications/delta.md": paper("Delta", "2021-06", authors=AUTHORS),
    "publications/refs.bib": BIB.format(title="One", abstract="One's abstract."),
    "projects/engine.md": "---\ntitle: Engine\npapers: [gamma, one]\n---\nAn engine.\n",
    "cv.yaml": "education:\n  - degree: Ph.D.\n    institution: Example University\n"
               "    date: 2015\n",
    "files/alpha.pdf": b"%PDF-1.4 alpha",
}


@pytest.fixture
def site(tmp_path):
    """A site whose lists group, filter and select papers, with its own templates, built."""
    return start_live_site(tmp_path, FILES)


def save(builder: SiteBuilder, rel: str, old: str, new: str) -> list[str]:
    """Replace the first `old` by `new` in a content file and rebuild; the files written."""
    outcome = builder.build([edit(builder.options.content_dir / rel, old, new, 1)])
    assert outcome is not None and outcome.ok, outcome and outcome.errors
    return outcome.written


@pytest.mark.parametrize("old, new", [
    ("An abstract.", "A new abstract, with *emphasis*."),
    ("title: Beta", "title: Beta, Retitled"),  # the sitemap, the BibTeX and the feed too
    ("Bob Builder*", "Bob Builder"),  # the author marks, and the legend on every page
    ("venue_short: CoE", "venue_short: CoE 2"),
    ("category: Theory\n", "category: Theory\naward: Best Paper\n"),
])
def test_an_edit_that_keeps_the_paper_in_place(site, old, new):
    save(site, "publications/beta.md", old, new)
    assert_same_as_cold_build(site)


def test_an_abstract_edit_rewrites_only_the_files_that_show_it(site):
    out = site.options.output_dir
    mtimes = {rel: (out / rel).stat().st_mtime_ns for rel in ("sitemap.xml", "cv/index.html")}
    written = save(site, "publications/beta.md", "An abstract.", "Another abstract.")
    assert written == ["feed.xml", "publications.json", "publications.ris",
                       "publications/beta/index.html",
                       "publications/index.html", "search/index.html"]
    assert all((out / rel).stat().st_mtime_ns == mtime for rel, mtime in mtimes.items())
    assert_same_as_cold_build(site)


def test_edits_of_papers_a_project_and_the_home_page_show(site):
    save(site, "publications/gamma.md", "title: Gamma", "title: Gamma Engine")  # a project's
    assert_same_as_cold_build(site)
    save(site, "publications/alpha.md", "An abstract.", "Selected, and edited.")  # home's
    assert_same_as_cold_build(site)


@pytest.mark.parametrize("old, new", [
    ("date: 2021-06", "date: 2025-01"),  # now the newest: every list's order changes
    ("date: 2021-06", "date: 2021-06-02"),  # same order, another date in sitemap.xml
])
def test_a_date_edit(site, old, new):
    save(site, "publications/delta.md", old, new)
    assert_same_as_cold_build(site)


def test_a_category_edit_moves_the_paper_to_another_group(site):
    save(site, "publications/beta.md", "category: Theory", "category: Systems")
    assert_same_as_cold_build(site)
    save(site, "publications/delta.md", "date: 2021-06\n", "date: 2021-06\ncategory: Theory\n")
    assert_same_as_cold_build(site)


def test_topic_tier_and_selection_edits_change_the_filters_and_home(site):
    save(site, "publications/beta.md", "topics: [graphs, scheduling]", "topics: [graphs, queues]")
    assert_same_as_cold_build(site)
    save(site, "publications/gamma.md", "tier: B", "tier: A")
    assert_same_as_cold_build(site)
    save(site, "publications/alpha.md", "selected: true", "selected: false")
    assert_same_as_cold_build(site)


def test_adding_and_removing_a_paper(site):
    folder = site.options.content_dir / "publications"
    (folder / "epsilon.md").write_text(paper("Epsilon", "2022-01", authors=AUTHORS,
                                             extra="category: Theory\n"), encoding="utf-8")
    assert site.build([folder / "epsilon.md"]).ok
    assert_same_as_cold_build(site)
    save(site, "publications/epsilon.md", "An abstract.", "Now edited.")
    assert_same_as_cold_build(site)
    (folder / "beta.md").unlink()
    assert site.build([folder / "beta.md"]).ok
    assert_same_as_cold_build(site)
    assert save(site, "publications/gamma.md", "Gamma", "Gamma") == []  # saved unchanged
    save(site, "publications/alpha.md", "An abstract.", "Edited after the removal.")
    assert_same_as_cold_build(site)


def test_bib_entry_edits(site):
    pytest.importorskip("scholarsite.reading.bib.bibtex")
    save(site, "publications/refs.bib", "One's abstract.", "One's better abstract.")
    assert_same_as_cold_build(site)
    # A line more in the first entry: the second's paper (its line) is new, its entry in
    # the lists the same; a later edit of it still shows.
    save(site, "publications/refs.bib", "  topics = {graphs},\n",
         "  topics = {graphs},\n  note = {A note},\n")
    assert_same_as_cold_build(site)
    save(site, "publications/refs.bib", "journal = {Journal of Examples}",
         "journal = {Journal of More Examples}")
    assert_same_as_cold_build(site)
    save(site, "publications/refs.bib", "title = {One}", "title = {One, Again}")
    assert_same_as_cold_build(site)
    save(site, "publications/refs.bib", "year = {2019}", "year = {2024}")  # moves up
    assert_same_as_cold_build(site)
    save(site, "publications/refs.bib", "@article{two", "@article{three")  # a new slug
    assert_same_as_cold_build(site)


def test_template_edits_between_paper_edits(site):
    templates = site.options.templates_dir
    entry = edit(templates / "_paper_entry.html", '<div class="paper-links">',
                 '<div class="paper-links links">')
    assert site.build([entry]).ok
    assert_same_as_cold_build(site)
    save(site, "publications/beta.md", "An abstract.", "After the template edit.")
    assert_same_as_cold_build(site)
    feed = edit(templates / "feed.xml", "<generator>", '<generator uri="x">')
    path = site.options.content_dir / "publications" / "gamma.md"
    path.write_text(paper("Gamma", "2022-11", authors=AUTHORS, extra="category: Systems\n",
                          abstract="Both at once."), encoding="utf-8")
    assert site.build([feed, path]).ok  # a template and a paper in one save
    assert_same_as_cold_build(site)


def test_an_error_between_edits(site):
    path = site.options.content_dir / "publications" / "beta.md"
    kept = path.read_text(encoding="utf-8")
    path.write_text(kept.replace("title: Beta", "title: [Beta"), encoding="utf-8")
    assert not site.build([path]).ok
    path.write_text(kept.replace("An abstract.", "Fixed, and edited."), encoding="utf-8")
    assert site.build([path]).ok
    assert_same_as_cold_build(site)
    save(site, "publications/beta.md", "Fixed, and edited.", "Edited once more.")
    assert_same_as_cold_build(site)


def test_two_files_saved_at_once(site):
    folder = site.options.content_dir / "publications"
    for name, new in (("alpha.md", "First of two."), ("delta.md", "Second of two.")):
        edit(folder / name, "An abstract.", new)
    assert site.build([folder / "alpha.md", folder / "delta.md"]).ok
    assert_same_as_cold_build(site)


FIELDS = {"title": "T{n}", "date": "20{n:02d}-0{m}", "category": "{c}",
          "topics": "[t{m}, t{n}]", "tier": "{c}", "selected": "{b}",
          "authors": "[Ada Example, Bob Builder{s}]", "venue": "Venue {m}",
          "abstract": "Abstract {n}."}
EDITS = st.lists(st.tuples(st.sampled_from(["alpha.md", "beta.md", "gamma.md", "delta.md"]),
                           st.sampled_from([*FIELDS, "delete"]), st.integers(0, 20)),
                 min_size=1, max_size=6)


@pytest.mark.full(only=True)  # CI's first step, with all its examples
@settings(max_examples=examples(12), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=EDITS)
def test_any_sequence_of_edits_gives_the_cold_build(tmp_path_factory, edits):
    tmp_path = tmp_path_factory.mktemp("edits")
    content = write_files(tmp_path / "content", {
        k: v for k, v in FILES.items() if k.startswith(("site", "publications/", "cv", "files/"))
        and not k.endswith(".bib")})
    builder = SiteBuilder(BuildOptions(content, tmp_path / "site", TEMPLATES))
    assert builder.build().ok
    fields = {name: {"title": name[:-3].title(), "date": "2022-05", "venue": "Venue",
                     "authors": "[Ada Example, Bob Builder]", "abstract": "An abstract."}
              for name in ("alpha.md", "beta.md", "gamma.md", "delta.md")}
    for name, field, n in edits:
        path = content / "publications" / name
        if field == "delete":
            path.unlink(missing_ok=True)
        else:
            fields[name][field] = FIELDS[field].format(
                n=n, m=n % 9 + 1, c=("Systems", "Theory", "Other")[n % 3],
                b=("true", "false")[n % 2], s="*" if n % 2 else "")
            front = "".join(f"{k}: {v}\n" for k, v in fields[name].items() if k != "abstract")
            path.write_text(f"---\n{front}---\n{fields[name]['abstract']}\n", encoding="utf-8")
        outcome = builder.build([path])
        assert outcome is not None and outcome.ok, outcome.errors
        assert_same_as_cold_build(builder)
