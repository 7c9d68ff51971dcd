"""`serve` and content/files/: a paper's link to a file that is not there is left out (a
.bib entry's, with a warning) or an error (a Markdown paper's); adding the file while the
preview runs brings the link back without the paper being saved again, and removing it
takes the link away, each rebuild giving the bytes of a cold build."""

from __future__ import annotations

import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import (examples, MINIMAL_CONFIG, assert_same_as_cold_build, edit, paper, start_live_site,
                      write_files)
from test_serve import Server, wait_until

BIB = """\
@inproceedings{ada2021fast,
  title = {Fast Sorting},
  author = {Example, Ada and Builder, Bob},
  booktitle = {Conference on Examples},
  year = {2021},
  pdf = {fast.pdf},
  slides = {talks/fast slides.pdf},
}

@article{ada2020slow,
  title = {Slow Sorting},
  author = {Example, Ada},
  journal = {Journal of Tests},
  year = {2020},
}
"""
FILES = {"publications/papers.bib": BIB, "site.yaml": MINIMAL_CONFIG,
         "publications/notes.md": paper("Notes", extra="links:\n  pdf: files/notes.pdf\n")}
PAGE = "site/publications/ada2021fast/index.html"


def page(tmp_path, rel: str = PAGE) -> str:
    return (tmp_path / rel).read_text(encoding="utf-8")


def add_file(content, name: str):
    return write_files(content, {f"files/{name}": b"%PDF-1.4 " + name.encode()}) / "files" / name


def test_a_file_added_to_files_brings_back_the_bib_links_that_name_it(tmp_path):
    site = start_live_site(tmp_path, {**FILES, "files/notes.pdf": b"%PDF-1.4 notes"})
    content = site.options.content_dir
    assert 'href="../../files/fast.pdf"' not in page(tmp_path)
    outcome = site.build([add_file(content, "fast.pdf")])
    assert outcome.ok and 'href="../../files/fast.pdf"' in page(tmp_path)
    assert "publications/ada2021fast/index.html" in outcome.written
    assert_same_as_cold_build(site)
    outcome = site.build([add_file(content, "talks/fast slides.pdf")])
    assert outcome.ok and 'href="../../files/talks/fast%20slides.pdf"' in page(tmp_path)
    assert_same_as_cold_build(site)
    (content / "files" / "fast.pdf").unlink()
    outcome = site.build([content / "files" / "fast.pdf"])
    assert outcome.ok and 'href="../../files/fast.pdf"' not in page(tmp_path)
    assert any("'fast.pdf'" in d.message for d in outcome.warnings)
    assert_same_as_cold_build(site)


def test_a_file_added_later_mends_a_markdown_paper_saved_with_a_missing_file(tmp_path):
    site = start_live_site(tmp_path, {**FILES, "files/notes.pdf": b"%PDF-1.4 notes"})
    content = site.options.content_dir
    md = edit(content / "publications" / "notes.md", "files/notes.pdf", "files/more.pdf")
    outcome = site.build([md])
    assert not outcome.ok and "'files/more.pdf', which is not a file" in str(outcome.errors)
    outcome = site.build([add_file(content, "more.pdf")])
    assert outcome.ok, outcome.errors
    assert 'href="../../files/more.pdf"' in page(tmp_path, "site/publications/notes/index.html")
    assert_same_as_cold_build(site)


def test_a_file_no_paper_names_reads_no_paper_again(tmp_path):
    site = start_live_site(tmp_path, {**FILES, "files/notes.pdf": b"%PDF-1.4 notes"})
    content = site.options.content_dir
    site.build([add_file(content, "fast.pdf")])  # the .bib file is read again once
    outcome = site.build([add_file(content, "photo.jpg")])
    assert outcome.ok and outcome.written == ["files/photo.jpg"]
    assert_same_as_cold_build(site)


ACTIONS = st.lists(st.tuples(st.sampled_from(["add", "remove", "save"]),
                             st.sampled_from(["fast.pdf", "notes.pdf", "other.pdf"])),
                   min_size=1, max_size=4)


@settings(max_examples=examples(6), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(actions=ACTIONS)
def test_any_sequence_of_file_changes_gives_the_full_build(tmp_path_factory, actions):
    tmp_path = tmp_path_factory.mktemp("files")
    site = start_live_site(tmp_path, {**FILES, "files/notes.pdf": b"%PDF-1.4 notes"})
    content = site.options.content_dir
    bib = content / "publications" / "papers.bib"
    for action, name in actions:
        if action == "add":
            changed = add_file(content, name)
        elif action == "remove":
            changed = content / "files" / name
            changed.unlink(missing_ok=True)
        else:  # the .bib file saved, naming the file in its other entry too
            changed = bib
            bib.write_text(BIB.replace("year = {2020},", f"year = {{2020}},\n  pdf = {{{name}}},"),
                           encoding="utf-8")
        outcome = site.build([changed])
        if (content / "files" / "notes.pdf").is_file():
            assert outcome is not None and outcome.ok, outcome.errors
            assert_same_as_cold_build(site)
        else:  # the Markdown paper names it: an error, and the last good site is kept
            assert outcome is not None and not outcome.ok


def test_serve_shows_the_link_once_the_file_is_added(make_site, tmp_path):
    content = make_site({"publications/papers.bib": BIB})
    server = Server("--content", str(content), "--output", str(tmp_path / "site"),
                    "--port", "0")
    try:
        url = "/publications/ada2021fast/"
        assert 'href="../../files/fast.pdf"' not in server.get(url)[1]
        server.wait_for_line(r"papers\.bib:\d+: warning: .*'fast\.pdf'")
        added = time.monotonic()
        add_file(content, "fast.pdf")
        wait_until(lambda: 'href="../../files/fast.pdf"' in server.get(url)[1],
                   5 - (time.monotonic() - added), "the paper's page links to the file")
        assert server.get("/files/fast.pdf")[0] == 200
    finally:
        server.stop()
