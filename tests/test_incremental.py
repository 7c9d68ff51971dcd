"""The incremental rebuild: after every change, the output is byte for byte what a full
build makes, and only the files whose bytes changed were written."""

from __future__ import annotations

import base64
import io
import json
import os
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from conftest import (examples, EXAMPLE, MINIMAL_CONFIG, ROOT, TEMPLATES, assert_same_as_cold_build, edit,
                      paper, start_live_site, tree_bytes, write_files)
from scholarsite.build import BuildOptions
from scholarsite.fastpath.splice import find_used_templates
from scholarsite.live.incremental import SiteBuilder, classify_changes
from scholarsite.render.render import make_env

CONFIG = MINIMAL_CONFIG + """\
  author_notes:
    "*": Equal contribution
"""


PAPERS = {
    "publications/alpha.md": paper("Alpha"),
    "publications/beta.md": paper("Beta", "2023-02"),
    "publications/gamma.md": paper("Gamma", "2022-11", abstract="Gamma's abstract."),
}


@pytest.fixture
def site(tmp_path):
    """A small site with its own copy of the templates, and a builder that built it."""
    return start_live_site(tmp_path, {"site.yaml": CONFIG, **PAPERS})


def test_first_build_is_the_full_build(tmp_path):
    builder = SiteBuilder(BuildOptions(EXAMPLE, tmp_path / "site", TEMPLATES))
    outcome = builder.build()
    assert outcome.ok and outcome.papers == 18
    assert_same_as_cold_build(builder)


def test_an_abstract_edit_writes_only_the_files_that_show_it(site):
    path = site.options.content_dir / "publications" / "beta.md"
    outcome = site.build([edit(path, "An abstract.", "A better abstract.")])
    assert outcome.ok
    # Paper lists (home, publications) show abstracts in a toggle; search indexes them.
    assert outcome.written == ["feed.xml", "index.html", "publications.json",
                               "publications.ris", "publications/beta/index.html",
                               "publications/index.html", "search/index.html"]
    assert_same_as_cold_build(site)


def test_a_title_edit_rewrites_the_page_lists_sitemap_feed_and_citations(site):
    path = site.options.content_dir / "publications" / "beta.md"
    before = {p: p.stat().st_mtime_ns for p in site.options.output_dir.rglob("*")}
    outcome = site.build([edit(path, "title: Beta", "title: Beta Improved")])
    assert outcome.written == ["feed.xml", "index.html", "publications.bib", "publications.json",
                               "publications.ris",
                               "publications/beta/index.html", "publications/index.html",
                               "search/index.html", "sitemap/index.html"]
    untouched = site.options.output_dir / "publications" / "alpha" / "index.html"
    assert untouched.stat().st_mtime_ns == before[untouched]
    assert_same_as_cold_build(site)


def test_unchanged_bytes_are_not_written(site):
    path = site.options.content_dir / "publications" / "beta.md"
    os.utime(path, ns=(1, 1))
    outcome = site.build([path])
    assert outcome.ok and outcome.written == []


def test_a_new_author_mark_changes_the_legend_on_every_page(site):
    path = site.options.content_dir / "publications" / "gamma.md"
    outcome = site.build([edit(path, "Bob Builder]", "Bob Builder*]")])
    assert outcome.ok
    assert "publications/alpha/index.html" in outcome.written  # its legend shows '*' now
    assert_same_as_cold_build(site)


def test_adding_renaming_and_deleting_papers(site):
    folder = site.options.content_dir / "publications"
    (folder / "delta.md").write_text(paper("Delta", "2025-01"), encoding="utf-8")
    assert site.build([folder / "delta.md"]).ok
    assert_same_as_cold_build(site)
    os.replace(folder / "alpha.md", folder / "alpha-renamed.md")
    outcome = site.build([folder / "alpha.md", folder / "alpha-renamed.md"])
    assert "publications/alpha/index.html" in outcome.written
    assert not (site.options.output_dir / "publications" / "alpha").exists()
    assert_same_as_cold_build(site)
    (folder / "beta.md").unlink()
    assert site.build([folder / "beta.md"]).ok
    assert_same_as_cold_build(site)


def test_a_template_edit_rewrites_only_the_pages_that_use_it(site):
    templates = site.options.templates_dir
    outcome = site.build([edit(templates / "paper.html",
                               '<h2 id="cite">{{ _("Recommended citation") }}',
                               "<h2 id=\"cite\">How to cite")])
    assert outcome.written == [f"publications/{s}/index.html" for s in ("alpha", "beta", "gamma")]
    assert_same_as_cold_build(site)
    outcome = site.build([edit(templates / "_authors.html", '<span class="authors">',
                               '<span class="authors names">')])
    assert outcome.written == ["index.html", "publications/index.html"]  # the lists of papers
    assert_same_as_cold_build(site)


def test_templates_used_through_extends_include_and_import(tmp_path):
    used = find_used_templates(make_env(TEMPLATES), "paper.html")
    assert {"paper.html", "base.html", "_authors.html", "_notes.html"} <= used
    assert "home.html" not in used


def test_site_yaml_edit_rebuilds_everything(site):
    outcome = site.build([edit(site.options.content_dir / "site.yaml", "title: Ada Example",
                               "title: Ada's Pages")])
    assert outcome.ok and "publications/gamma/index.html" in outcome.written
    assert_same_as_cold_build(site)


def test_a_link_in_an_abstract_works_at_every_depth_after_an_edit(site):
    content = site.options.content_dir
    write_files(content, {"files/notes.pdf": "%PDF-1.4 notes"})
    assert site.build([content / "files" / "notes.pdf"]).ok
    paper_file = edit(content / "publications" / "gamma.md", "Gamma's abstract.",
                      "Gamma's abstract, with [notes](files/notes.pdf).")
    outcome = site.build([paper_file])
    assert outcome.ok and "publications/index.html" in outcome.written
    listed = (site.options.output_dir / "publications" / "index.html").read_text("utf-8")
    assert 'href="../files/notes.pdf"' in listed
    assert_same_as_cold_build(site)


def test_new_citation_counts_are_shown_without_a_restart(site):
    content = site.options.content_dir
    edit(content / "site.yaml", "title: Ada Example", "title: Ada Example\ncitations: openalex")
    assert site.build([content / "site.yaml"]).ok
    counts = write_files(content, {"citations.yaml": """\
        alpha:
          count: 7
          source: openalex
          id: W1
          fetched: 2026-11-30
        """}) / "citations.yaml"
    outcome = site.build([counts])
    assert outcome.ok and "publications/alpha/index.html" in outcome.written
    assert_same_as_cold_build(site)


def test_a_tier_table_edit_and_counts_by_year_are_shown_without_a_restart(site):
    """content/tiers/ is read with site.yaml: a table's edit is a change of the settings,
    as a new year of citations in citations.yaml is one of the charts."""
    content = site.options.content_dir
    table = write_files(content, {"tiers/mine.tsv": "T1\tConference on Examples\tCoE\n"})
    edit(content / "site.yaml", "  group_by: year\n", "  group_by: year\n  venue_tiers: [mine.tsv]\n")
    with open(content / "site.yaml", "a", encoding="utf-8") as config:
        config.write("citations: openalex\ncitation_chart: publications\n")
    assert site.build([content / "site.yaml", table / "tiers" / "mine.tsv"]).ok
    page = site.options.output_dir / "publications" / "alpha" / "index.html"
    assert 'tier-badge">T1<' in page.read_text(encoding="utf-8")
    outcome = site.build([edit(table / "tiers" / "mine.tsv", "T1", "T2")])
    assert outcome.ok and 'tier-badge">T2<' in page.read_text(encoding="utf-8")
    counts = write_files(content, {"citations.yaml": (
        'alpha:\n  count: 7\n  source: openalex\n  id: W1\n  fetched: 2026-11-30\n'
        '  by_year: {2025: 3, 2026: 4}\n')}) / "citations.yaml"
    assert site.build([counts]).ok
    listed = (site.options.output_dir / "publications" / "index.html").read_text("utf-8")
    assert "2025: 3, 2026: 4. Total 7, h-index 1, i10-index 0." in listed
    assert_same_as_cold_build(site)


def test_bio_edit_rewrites_the_home_page(site):
    bio = write_files(site.options.content_dir, {"index.md": "I study *examples*.\n"})
    outcome = site.build([bio / "index.md"])
    assert outcome.written == ["index.html", "search/index.html"]
    assert_same_as_cold_build(site)


def test_a_list_pages_own_text_stays_after_saves_that_read_no_collections(tmp_path):
    """pages/publications.md with `place: above` is the publications list's own text: it
    stays there after a paper's save, and after a save (the bio's) that assembles the site
    again without reading the collections and free pages again."""
    builder = start_live_site(tmp_path, {"site.yaml": CONFIG, **PAPERS, "pages/publications.md":
                                         "---\ntitle: Papers\nplace: above\n---\nZq-list-text.\n"})
    content = builder.options.content_dir
    assert builder.build([edit(content / "publications" / "beta.md", "An abstract.",
                               "A better abstract.")]).ok
    bio = write_files(content, {"index.md": "I study *examples*.\n"})
    assert builder.build([bio / "index.md"]).ok
    listed = builder.options.output_dir / "publications" / "index.html"
    assert "Zq-list-text." in listed.read_text(encoding="utf-8")
    assert_same_as_cold_build(builder)


def test_each_save_says_every_texts_broken_links_in_the_sites_order(site):
    """A save says each abstract's link to no file of the site, and to no place in its
    own text, as a whole build does: of the papers it read again and of the others (kept
    from save to save: live/textlinks.py), in the site's order."""
    folder = site.options.content_dir / "publications"

    def said(path: Path) -> list[tuple[str, str]]:
        outcome = site.build([path])
        assert outcome.ok
        return [(Path(d.path).stem, d.message.split(",")[0]) for d in outcome.warnings]

    gamma = [("gamma", "link to 'files/gone.pdf'"), ("gamma", "link to '#nowhere'")]
    assert said(edit(folder / "gamma.md", "Gamma's abstract.",
                     "See [slides](files/gone.pdf) and [more](#nowhere).")) == gamma
    alpha = edit(folder / "alpha.md", "An abstract.", "The [talk](files/talk.pdf).")
    assert said(alpha) == [("alpha", "link to 'files/talk.pdf'"), *gamma]
    assert said(edit(alpha, "The [talk](files/talk.pdf).", "An abstract.")) == gamma


@pytest.mark.full(only=True)  # CI's first step, with all its examples
def test_collections_free_pages_and_the_cv(tmp_path):
    demo = ROOT / "examples" / "demo"
    if not demo.is_dir():
        pytest.skip("no demo site")
    content = tmp_path / "content"
    shutil.copytree(demo, content)
    builder = SiteBuilder(BuildOptions(content, tmp_path / "site", TEMPLATES))
    assert builder.build().ok
    talk = edit(content / "talks" / "driftwood-seminar-2024.md",
                "title: \"Elastic training", "title: \"Elastic, elastic training")
    outcome = builder.build([talk])
    assert "talks/index.html" in outcome.written
    assert "talks/driftwood-seminar-2024/index.html" in outcome.written
    assert not any(rel.startswith("publications/") for rel in outcome.written)
    assert_same_as_cold_build(builder)
    for rel, old, new in (("cv.yaml", "Ph.D. in Computer Science", "PhD, Computing"),
                          ("pages/join.md", "Join the group", "Join us"),  # in every menu
                          ("publications/tidepool-sis-2025.md", 'title: "Tidepool:',
                           'title: "Tidepool, again:'),  # a project shows it
                          ("posts/simulating-a-queue.ipynb", "# Simulating a queue",
                           "# Simulating queues")):  # a notebook post
        assert builder.build([edit(content / rel, old, new)]).ok
        assert_same_as_cold_build(builder)
    # A notebook's new plot, at the same name beside its page, replaces the old one.
    notebook = content / "posts" / "simulating-a-queue.ipynb"
    cells = json.loads(notebook.read_text(encoding="utf-8"))
    [plot] = [out for cell in cells["cells"] for out in cell.get("outputs", [])
              if "image/png" in out.get("data", {})]
    picture = io.BytesIO()
    Image.new("RGB", (2, 2), "blue").save(picture, format="PNG")
    plot["data"]["image/png"] = base64.b64encode(picture.getvalue()).decode("ascii")
    notebook.write_text(json.dumps(cells), encoding="utf-8")
    assert builder.build([notebook]).ok
    assert_same_as_cold_build(builder)
    news = write_files(content, {"news/2026-01-new.md": "---\ndate: 2026-01-05\n---\nNews.\n"})
    assert builder.build([news / "news" / "2026-01-new.md"]).ok
    assert_same_as_cold_build(builder)
    paper = content / "publications" / "sandbar-report-2025.md"
    kept = paper.read_text(encoding="utf-8")
    paper.unlink()  # a project still names it
    outcome = builder.build([paper])
    assert not outcome.ok and "sandbar-report-2025" in str(outcome.errors)
    paper.write_text(kept, encoding="utf-8")
    assert builder.build([paper]).ok
    assert_same_as_cold_build(builder)


def test_an_error_keeps_the_site_and_the_next_good_save_recovers(site):
    out = site.options.output_dir
    good = tree_bytes(out)
    path = site.options.content_dir / "publications" / "beta.md"
    outcome = site.build([edit(path, "title: Beta", "titel: Beta")])
    assert not outcome.ok and outcome.written == []
    assert any(str(e).startswith(f"{path.as_posix()}:2: error: ") for e in outcome.errors)
    assert tree_bytes(out) == good
    # A template edit while the content is broken is not lost when the content is fixed.
    edit(site.options.templates_dir / "base.html", "Skip to content", "Skip to the content")
    assert not site.build([site.options.templates_dir / "base.html"]).ok
    outcome = site.build([edit(path, "titel: Beta", "title: Beta")])
    assert outcome.ok and outcome.errors == []
    assert_same_as_cold_build(site)


def test_a_template_error_is_reported_and_recovered(site):
    path = site.options.templates_dir / "paper.html"
    outcome = site.build([edit(path, "{{ paper.title_html }}", "{{ paper.title_html }")])
    assert not outcome.ok
    assert "paper.html" in str(outcome.errors[0]) and "error: template" in str(outcome.errors[0])
    outcome = site.build([edit(path, "{{ paper.title_html }", "{{ paper.title_html }}")])
    assert outcome.ok
    assert_same_as_cold_build(site)


def test_two_papers_with_one_slug(site):
    folder = site.options.content_dir / "publications"
    write_files(folder, {"more/beta.md": paper("Beta Again")})
    outcome = site.build([folder / "more" / "beta.md"])
    assert not outcome.ok and "two papers have the slug 'beta'" in str(outcome.errors)
    (folder / "more" / "beta.md").unlink()
    assert site.build([folder / "more" / "beta.md"]).ok
    assert_same_as_cold_build(site)


def test_static_files_are_copied_and_removed(site):
    out = site.options.output_dir
    css = edit(site.options.templates_dir / "assets" / "style.css", "{", "{ ", )
    outcome = site.build([css])
    assert outcome.written == ["assets/style.css"]
    files = write_files(site.options.content_dir, {"files/cv.pdf": b"%PDF-1.4 cv"})
    assert site.build([files / "files" / "cv.pdf"]).written == ["files/cv.pdf"]
    assert (out / "files" / "cv.pdf").read_bytes() == b"%PDF-1.4 cv"
    assert_same_as_cold_build(site)
    (files / "files" / "cv.pdf").unlink()
    assert site.build([files / "files" / "cv.pdf"]).written == ["files/cv.pdf"]
    assert not (out / "files").exists()


def test_a_papers_pdf_is_copied_beside_its_page_and_follows_edits(site):
    """The copy beside a paper's page (Scholar's citation_pdf_url) is written when the
    paper names the PDF, again when the PDF changes, and removed with the link."""
    out, content = site.options.output_dir, site.options.content_dir
    write_files(content, {"files/a.pdf": b"%PDF-1.4 a", "files/b.pdf": b"%PDF-1.4 b"})
    beta = edit(content / "publications" / "beta.md", "---\nAn", "links:\n  pdf: files/a.pdf\n---\nAn")
    assert site.build([content / "files" / "a.pdf", content / "files" / "b.pdf", beta]).ok
    assert (out / "publications" / "beta" / "a.pdf").read_bytes() == b"%PDF-1.4 a"
    assert_same_as_cold_build(site)
    (content / "files" / "a.pdf").write_bytes(b"%PDF-1.4 a, again")
    written = site.build([content / "files" / "a.pdf"]).written
    assert {"files/a.pdf", "publications/beta/a.pdf"} <= set(written)
    assert (out / "publications" / "beta" / "a.pdf").read_bytes() == b"%PDF-1.4 a, again"
    assert site.build([edit(beta, "files/a.pdf", "files/b.pdf")]).ok
    assert not (out / "publications" / "beta" / "a.pdf").exists()
    assert (out / "publications" / "beta" / "b.pdf").read_bytes() == b"%PDF-1.4 b"
    assert_same_as_cold_build(site)


def test_a_papers_notebook_follows_its_edits_on_the_papers_page(site):
    """publications/beta.ipynb, added, edited, kept through an edit of beta.md (whose own
    page is then made again) and removed: the page follows, as the full build's."""
    content, out = site.options.content_dir, site.options.output_dir
    cells = [{"cell_type": "markdown", "id": "a", "metadata": {}, "source": "# Replication"}]
    notebook = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    path = write_files(content, {"publications/beta.ipynb": json.dumps(notebook)}) \
        / "publications" / "beta.ipynb"
    page = out / "publications" / "beta" / "index.html"
    assert site.build([path]).ok and "Replication" in page.read_text(encoding="utf-8")
    assert site.build([edit(path, "# Replication", "# Replicated")]).ok
    assert "Replicated" in page.read_text(encoding="utf-8")
    assert_same_as_cold_build(site)
    beta = content / "publications" / "beta.md"
    assert site.build([edit(beta, "An abstract.", "A better abstract.")]).ok
    assert "Replicated" in page.read_text(encoding="utf-8")
    assert_same_as_cold_build(site)
    path.unlink()
    assert site.build([path]).ok and "Replicated" not in page.read_text(encoding="utf-8")
    assert not (out / "publications" / "beta" / "beta.ipynb").exists()


def test_a_users_file_in_the_output_is_kept_and_never_overwritten(site):
    out = site.options.output_dir
    write_files(out, {"google123.html": "verification", "publications/delta/index.html": "mine"})
    folder = site.options.content_dir / "publications"
    assert site.build([edit(folder / "beta.md", "title: Beta", "title: B")]).ok
    assert (out / "google123.html").read_text(encoding="utf-8") == "verification"
    (folder / "delta.md").write_text(paper("Delta"), encoding="utf-8")
    outcome = site.build([folder / "delta.md"])
    assert not outcome.ok and "was not made by scholarsite" in str(outcome.errors[0])
    assert (out / "publications" / "delta" / "index.html").read_text(encoding="utf-8") == "mine"


def test_changes_no_build_reads_do_nothing(site):
    content = site.options.content_dir
    notes = write_files(content, {"notes.txt": "to do", "publications/README.txt": "x"})
    assert site.build([notes / "notes.txt", notes / "publications" / "README.txt"]) is None


def test_strict_makes_a_warning_fail(tmp_path):
    content = write_files(tmp_path / "content", {
        "site.yaml": CONFIG, "publications/a.md": paper("A")})
    builder = SiteBuilder(BuildOptions(content, tmp_path / "site", TEMPLATES, strict=True))
    assert builder.build().ok
    path = edit(content / "publications" / "a.md", "Bob Builder]", "Bob Builder‡]")
    outcome = builder.build([path])
    assert not outcome.ok and "warning: author mark(s) ‡" in str(outcome.errors[0])


def test_classify_changes(tmp_path):
    options = BuildOptions(tmp_path / "content", tmp_path / "site", tmp_path / "templates")
    changes = classify_changes([
        tmp_path / "content" / "site.yaml", tmp_path / "content" / "publications" / "x.md",
        tmp_path / "content" / "publications" / "refs.BIB", tmp_path / "templates" / "a.html",
        tmp_path / "templates" / "assets" / "s.css", tmp_path / "content" / "x.txt",
        tmp_path / "elsewhere.md"], options)
    assert changes.config and changes.static and not changes.bio
    assert changes.papers == {tmp_path / "content" / "publications" / "x.md",
                              tmp_path / "content" / "publications" / "refs.BIB"}
    assert changes.templates == {"a.html"}
    assert not classify_changes([Path("content/notes.txt")], options).any()


def test_a_bib_file_is_read_again_whole(site):
    pytest.importorskip("scholarsite.reading.bib.bibtex")
    folder = site.options.content_dir / "publications"
    bib = folder / "more.bib"
    entry = ("@inproceedings{{{key},\n  title = {{{title}}},\n  author = {{Ada Example}},\n"
             "  booktitle = {{Conference on Examples}},\n  year = {{2021}},\n}}\n")
    bib.write_text(entry.format(key="one", title="One") + entry.format(key="two", title="Two"),
                   encoding="utf-8")
    assert site.build([bib]).ok
    assert_same_as_cold_build(site)
    bib.write_text(entry.format(key="one", title="One Changed"), encoding="utf-8")
    assert site.build([bib]).ok
    assert_same_as_cold_build(site)


EDITS = st.lists(st.tuples(st.sampled_from(sorted(PAPERS)), st.sampled_from([
    ("title", "Title {n}"), ("date", "20{n:02d}-0{m}"), ("selected", "true"),
    ("authors", "[Ada Example*, Bob Builder {n}]"), ("abstract", "Abstract {n}."),
    ("tier", "CCF-A"), ("delete", "")]), st.integers(0, 20)), min_size=1, max_size=5)
BASE_FIELDS = {"title": "T", "authors": "[Ada Example, Bob Builder]",
               "venue": "Conference on Examples", "date": "2024-05", "abstract": "A."}


@pytest.mark.full(only=True)  # CI's first step, with all its examples
@settings(max_examples=examples(15), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=EDITS)
def test_any_sequence_of_edits_gives_the_full_build(tmp_path_factory, edits):
    tmp_path = tmp_path_factory.mktemp("edits")
    content = write_files(tmp_path / "content", {"site.yaml": CONFIG, **PAPERS})
    builder = SiteBuilder(BuildOptions(content, tmp_path / "site", TEMPLATES))
    assert builder.build().ok
    for rel, (field, value), n in edits:
        path = content / rel
        if field == "delete":
            path.unlink(missing_ok=True)
        else:
            fields = {**BASE_FIELDS, field: value.format(n=n, m=n % 9 + 1)}
            front = "".join(f"{k}: {v}\n" for k, v in fields.items() if k != "abstract")
            path.write_text(f"---\n{front}---\n{fields['abstract']}\n", encoding="utf-8")
        outcome = builder.build([path])
        assert outcome is not None and outcome.ok, outcome.errors
        assert_same_as_cold_build(builder)


@pytest.mark.parametrize("name, data", [("_authors.html", b"{{ a }} \xff\xfe"),
                                        ("base.html", b"{% include '_gone.html' %}")])
def test_a_template_saved_broken_is_an_error_until_it_is_fixed(site, name, data):
    """A template saved as something that is not UTF-8, or asking for one that is
    nowhere, while serve runs: the rebuild reports it (no exception), writes nothing, and
    the next good save recovers."""
    path = site.options.templates_dir / name
    good = path.read_bytes()
    before = tree_bytes(site.options.output_dir)
    path.write_bytes(data)
    outcome = site.build([path])
    assert not outcome.ok and outcome.errors
    assert all(str(site.options.templates_dir) in str(d.path) for d in outcome.errors)
    assert tree_bytes(site.options.output_dir) == before
    path.write_bytes(good)
    assert site.build([path]).ok
    assert_same_as_cold_build(site)
