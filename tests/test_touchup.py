"""A build after a few papers' edits is brought about from the last build's record
(scholarsite/fastpath/touchup.py) when what changed is the papers' own pages and entries: the
output is a cold build's, byte for byte, and whatever else changed is left to the whole
build, which gives the same bytes. `BuildResult.site` is None after a touch-up (it reads
only the changed papers), which is how these tests tell the two apart."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import (examples, MINIMAL_CONFIG, build_args, cold_bytes, copy_templates, edit, paper,
                      run_cli, set_front_line, stamps, tree_bytes, write_files)

from scholarsite.build import BuildOptions, BuildResult, build
from scholarsite.fastpath.record import look_at_last_build
from scholarsite.reading.layout import is_paper_path
from scholarsite.reading.settings.publishing import Publishing, build_mode
from scholarsite.render.layers import list_layers

# Six papers (the home page shows the five newest: p5 to p1) and a .bib file of two.
PAPERS = {f"publications/p{i}.md": paper(f"Paper {i}", f"202{i}-0{i + 1}",
                                         abstract=f"The abstract of paper {i}.")
          for i in range(6)}
BIB = """@inproceedings{early,
  title = {Early Work},
  author = {Ada Example and Bob Builder},
  booktitle = {Workshop on Examples},
  year = {2010},
  abstract = {What came first.},
}

@article{earlier,
  title = {Earlier Work},
  author = {Ada Example},
  journal = {Journal of Examples},
  year = {2009},
  abstract = {What came before.},
}
"""

# The feed shows the 3 newest papers: edits move papers into and out of it.
CONFIG = MINIMAL_CONFIG + "  feed_limit: 3\n"


def make_site(tmp_path: Path, extra: dict | None = None) -> tuple[Path, Path, Path]:
    """A site built twice (the second build records what a touch-up goes by): its
    content, output and templates."""
    content = write_files(tmp_path / "content", {"site.yaml": CONFIG, **PAPERS,
                                                 "publications/old.bib": BIB, **(extra or {})})
    out, templates = tmp_path / "site", copy_templates(tmp_path)
    for _ in range(2):
        build_into(content, out, templates)
    return content, out, templates


def build_into(content: Path, out: Path, templates: Path) -> BuildResult:
    return build(BuildOptions(content, out, templates))


def test_an_abstract_edit_is_a_touch_up_with_the_cold_builds_bytes(tmp_path):
    content, out, templates = make_site(tmp_path)
    before = stamps(out)
    edit(content / "publications/p0.md", "The abstract of paper 0.", "A new abstract.")
    assert build_into(content, out, templates).site is None
    assert tree_bytes(out) == cold_bytes(content, templates)
    after = stamps(out)
    assert after["publications/p0/index.html"] != before["publications/p0/index.html"]
    assert after["publications/p1/index.html"] == before["publications/p1/index.html"]
    assert after["feed.xml"] == before["feed.xml"]  # which shows the three newest papers
    assert "A new abstract." in (out / "search/index.html").read_text("utf-8")
    assert "A new abstract." in (out / "publications.ris").read_text("utf-8")
    # One entry of a .bib file, and two files at once; the file's other entry keeps its
    # page as it was.
    before = stamps(out)
    edit(content / "publications/old.bib", "What came first.", "What came first, again.")
    edit(content / "publications/p0.md", "A new abstract.", "A newer abstract.")
    assert build_into(content, out, templates).site is None
    assert tree_bytes(out) == cold_bytes(content, templates)
    assert "What came first, again." in (out / "publications/early/index.html").read_text(
        "utf-8")
    after = stamps(out)
    assert after["publications/early/index.html"] != before["publications/early/index.html"]
    assert after["publications/earlier/index.html"] == before["publications/earlier/index.html"]


def test_one_earlier_build_is_enough_for_a_touch_up(tmp_path):
    """The first build into a folder records what a touch-up goes by: the first build
    after an edit, with one build before it, reads only the edited file."""
    content = write_files(tmp_path / "content", {"site.yaml": CONFIG, **PAPERS,
                                                 "publications/old.bib": BIB})
    out, templates = tmp_path / "site", copy_templates(tmp_path)
    build_into(content, out, templates)
    edit(content / "publications/p0.md", "The abstract of paper 0.", "Paper 0, again.")
    assert build_into(content, out, templates).site is None
    assert tree_bytes(out) == cold_bytes(content, templates)


def test_what_other_pages_show_is_left_to_the_whole_build(tmp_path):
    content, out, templates = make_site(tmp_path)
    for path, old, new in (
            ("publications/p0.md", "title: Paper 0", "title: Paper Zero"),  # the sitemap
            ("publications/p0.md", "date: 2020-01", "date: 2020-02"),  # its place in lists
            ("publications/p5.md", "The abstract", "An abstract"),  # on the home page
            ("site.yaml", "title: Ada Example", "title: Ada Example's Site")):
        edit(content / path, old, new)
        assert build_into(content, out, templates).site is not None, (path, new)
        assert tree_bytes(out) == cold_bytes(content, templates), (path, new)
    # An author's mark: no page but the paper's own shows it while the site gives marks
    # no meaning (the legend reads nothing then), so the touch-up may take it.
    edit(content / "publications/p0.md", "authors: [Ada Example,", "authors: [Ada Example*,")
    build_into(content, out, templates)
    assert tree_bytes(out) == cold_bytes(content, templates)
    write_files(content, {"publications/p6.md": paper("Paper 6", "2019-01")})
    assert build_into(content, out, templates).site is not None
    assert tree_bytes(out) == cold_bytes(content, templates)


def test_a_papers_pdf_beside_its_page_follows_its_link(tmp_path):
    """A paper's PDF is copied beside its page (where citation_pdf_url points): an edit
    that names another PDF, or none, gives the cold build's files, the old copy gone."""
    pdfs = {"files/pdfs/one.pdf": b"%PDF-1.4 one\n", "files/two.pdf": b"%PDF-1.4 two\n"}
    content, out, templates = make_site(tmp_path, pdfs)
    edit(content / "publications/p0.md", "---\nThe", "links:\n  pdf: files/pdfs/one.pdf\n---\nThe")
    build_into(content, out, templates)
    assert tree_bytes(out) == cold_bytes(content, templates)
    assert (out / "publications/p0/one.pdf").read_bytes() == pdfs["files/pdfs/one.pdf"]
    assert 'content="https://example.org/publications/p0/one.pdf"' in \
        (out / "publications/p0/index.html").read_text("utf-8")
    edit(content / "publications/p0.md", "files/pdfs/one.pdf", "files/two.pdf")
    build_into(content, out, templates)
    assert tree_bytes(out) == cold_bytes(content, templates)
    assert not (out / "publications/p0/one.pdf").exists()
    assert (out / "publications/p0/two.pdf").read_bytes() == pdfs["files/two.pdf"]
    edit(content / "publications/p0.md", "links:\n  pdf: files/two.pdf\n", "")
    build_into(content, out, templates)
    assert tree_bytes(out) == cold_bytes(content, templates)
    assert not (out / "publications/p0/two.pdf").exists()
    assert (out / "files/two.pdf").is_file()


def test_a_paper_with_a_notebook_beside_it_keeps_it_on_its_page(tmp_path):
    """publications/p0.ipynb is shown on p0's page: after an edit of p0.md alone, the page
    is the cold build's, notebook and all."""
    cells = [{"cell_type": "markdown", "id": "a", "metadata": {}, "source": "# Replication"}]
    notebook = json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})
    content, out, templates = make_site(tmp_path, {"publications/p0.ipynb": notebook})
    edit(content / "publications/p0.md", "The abstract", "An abstract")
    build_into(content, out, templates)
    assert tree_bytes(out) == cold_bytes(content, templates)
    assert "Replication" in (out / "publications/p0/index.html").read_text("utf-8")


def test_a_site_whose_cv_lists_papers_is_built_whole(tmp_path):
    cv = "positions:\n  - title: Professor\n    organization: Example University\n" \
         "    start: 2020\n    end: present\n"
    content, out, templates = make_site(tmp_path, {"cv.yaml": cv})
    # The CV's files (its PDF, its JSON Resume) list the papers, their authors too.
    edit(content / "publications/p0.md", "Bob Builder", "Bob Builder, Carol Coder")
    assert build_into(content, out, templates).site is not None
    assert tree_bytes(out) == cold_bytes(content, templates)


def test_the_command_says_what_the_whole_build_says(tmp_path):
    """The warnings of the last build (here a .bib entry's link to a missing file) are
    reported again, and the counts are the site's."""
    bib = BIB.replace("year = {2010},", "year = {2010},\n  pdf = {files/missing.pdf},")
    content = write_files(tmp_path / "content", {"site.yaml": CONFIG, **PAPERS,
                                                 "publications/old.bib": bib})
    templates = copy_templates(tmp_path)
    args = build_args(content, tmp_path / "site", templates=templates)
    whole = [run_cli(*args) for _ in range(2)][-1]
    edit(content / "publications/p0.md", "The abstract of paper 0.", "A new abstract.")
    touched = run_cli(*args)
    cold = run_cli(*build_args(content, tmp_path / "cold", templates=templates), "--no-cache")
    assert touched.code == 0 and "missing.pdf" in touched.err
    assert touched.err == whole.err == cold.err
    # "Built N files (M papers) into ...": the counts of a cold build.
    assert touched.out.split(" into ")[0] == cold.out.split(" into ")[0]
    assert tree_bytes(tmp_path / "site") == tree_bytes(tmp_path / "cold")


def test_a_problem_in_the_edited_file_fails_the_build_and_keeps_the_site(tmp_path):
    content, out, templates = make_site(tmp_path)
    made = tree_bytes(out)
    edit(content / "publications/p0.md", "title: Paper 0", "title: [Paper 0")
    result = run_cli(*build_args(content, out, templates=templates))
    assert result.code == 1
    assert "publications/p0.md:2: error:" in result.err
    assert tree_bytes(out) == made


STEPS = st.lists(st.one_of(
    st.tuples(st.just("abstract"), st.lists(st.sampled_from([*PAPERS, "publications/old.bib"]),
                                            min_size=1, max_size=3, unique=True),
              st.integers(0, 99)),
    st.tuples(st.just("front"), st.sampled_from(sorted(PAPERS)),
              st.sampled_from(["title: T{n}", "date: 20{n:02d}-03", "selected: true",
                               "award: Prize {n}", "note: Note {n}"]),
              st.integers(0, 30)),
    st.tuples(st.just("by hand"), st.sampled_from(sorted(PAPERS))),
    st.tuples(st.just("template"), st.integers(0, 30))), min_size=1, max_size=6)


def take_step(step: tuple, content: Path, out: Path, templates: Path) -> None:
    if step[0] == "abstract":
        for rel in step[1]:
            text = (content / rel).read_text(encoding="utf-8")
            if rel.endswith(".bib"):
                text = text.replace("abstract = {", f"abstract = {{Step {step[2]}. ", 1)
            else:
                head, sep, body = text.rpartition("---\n")
                text = f"{head}{sep}Step {step[2]}. {body}"
            (content / rel).write_text(text, encoding="utf-8")
    elif step[0] == "front":
        _, rel, line, n = step
        set_front_line(content / rel, line.format(n=n))
    elif step[0] == "by hand":
        page = out / "publications" / Path(step[1]).stem / "index.html"
        page.write_text("changed by hand", encoding="utf-8")
    else:
        page = templates / "_paper_entry.html"
        page.write_text(page.read_text(encoding="utf-8") + f"{{# {step[1]} #}}",
                        encoding="utf-8")


@pytest.mark.full(only=True)  # CI's first step, with all its examples
@settings(max_examples=examples(10), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=STEPS)
def test_any_sequence_of_edits_gives_the_cold_build(tmp_path_factory, steps):
    content, out, templates = make_site(tmp_path_factory.mktemp("touchup"))
    for step in steps:
        take_step(step, content, out, templates)
        build_into(content, out, templates)
        assert tree_bytes(out) == cold_bytes(content, templates), step


def test_a_look_at_the_last_build_that_another_build_outdated_is_not_taken(tmp_path):
    """The command line looks at the last build before it builds, and hands what it found
    (the record, the inputs listed against it) to the build; a build that wrote the folder
    in between makes that stale, and it is not taken."""
    content, out, templates = make_site(tmp_path)
    hour_ago = time.time_ns() - 3600 * 10**9
    for path in (content / "publications").iterdir():
        os.utime(path, ns=(hour_ago, hour_ago))
    time.sleep(2.5)  # their status change times too are settled (inputs.RACY_SECONDS)
    build_into(content, out, templates)  # a record that knows them: they are not read
    listed = look_at_last_build(content, out, list_layers(templates),
                                build_mode(False, Publishing()), is_paper_path(content))
    assert listed is not None and listed.unchanged
    edit(content / "publications/p0.md", "The abstract of paper 0.", "A new abstract.")
    build_into(content, out, templates)  # another build, meanwhile
    edit(content / "publications/p1.md", "The abstract of paper 1.", "Another abstract.")
    build(BuildOptions(content, out, templates), listed=listed)
    assert tree_bytes(out) == cold_bytes(content, templates)
