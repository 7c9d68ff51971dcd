"""A build takes from the last one the pages it would render alike (fastpath/reuse.py): the
output is a cold build's, byte for byte, whatever changed in between, and the files of
pages that did not change are left as they were (their modification times too, which is
what rsync and the like go by)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from conftest import (examples, MINIMAL_CONFIG, build_args, cold_bytes, copy_templates, edit, paper,
                      run_cli, set_front_line, stamps, tree_bytes, write_files)

from scholarsite.build import BuildOptions, build

PAPERS = {f"publications/p{i}.md": paper(f"Paper {i}", f"202{i}-0{i + 1}") for i in range(5)}
# A BibTeX entry's link to a file that is missing is left out, with a warning.
BIB = """@inproceedings{linked,
  title = {Linked},
  author = {Ada Example},
  booktitle = {Conference on Examples},
  year = {2020},
  pdf = {files/p.pdf},
}
"""

# The feed shows the 2 newest papers: edits move papers into and out of it.
CONFIG = MINIMAL_CONFIG + "  feed_limit: 2\n"


def make_content(root: Path) -> Path:
    return write_files(root / "content", {"site.yaml": CONFIG, **PAPERS,
                                           "publications/more.bib": BIB})


def build_into(content: Path, out: Path, templates: Path, jobs: int = 0) -> None:
    build(BuildOptions(content, out, templates, jobs=jobs))


def built_twice(tmp_path: Path) -> tuple[Path, Path, list[str]]:
    """A site built by `python build.py build` twice, the second time after an edit, so
    that the next build may take pages from the last; its content, output and arguments."""
    content, out = make_content(tmp_path), tmp_path / "site"
    args = build_args(content, out, templates=copy_templates(tmp_path))
    for _ in range(2):
        edit(content / "publications/p4.md", "abstract", "abstract, again,", 1)
        assert run_cli(*args).code == 0
    return content, out, args


@pytest.mark.parametrize("jobs", [1, 2])
def test_pages_that_did_not_change_keep_their_files(tmp_path, jobs):
    content, out = make_content(tmp_path), tmp_path / "site"
    templates = copy_templates(tmp_path)
    for i in range(3):  # the first build into a folder, then two after edits
        edit(content / "publications/p3.md", "abstract", f"abstract, edit {i},", 1)
        before = stamps(out) if out.exists() else {}
        build_into(content, out, templates, jobs)
    after = stamps(out)
    assert tree_bytes(out) == cold_bytes(content, templates)
    assert after["publications/p0/index.html"] == before["publications/p0/index.html"]
    assert after["publications/p3/index.html"] != before["publications/p3/index.html"]
    assert after["publications/index.html"] != before["publications/index.html"]


def test_a_field_only_the_papers_own_page_shows_counts(tmp_path):
    """A paper page is taken from the last build when its context is the same; the paper's
    view in it counts by the digest of what it was kept with (fastpath/lists.py)."""
    content, out = make_content(tmp_path), tmp_path / "site"
    templates = copy_templates(tmp_path)
    for n in range(3):
        edit(content / "publications/p2.md", "title: ", f"title: E{n} ", 1)
        build_into(content, out, templates)
    edit(content / "publications/p2.md", "date: ", "award: Best Paper\ndate: ", 1)
    build_into(content, out, templates)
    assert "<dd>Best Paper</dd>" in (out / "publications/p2/index.html").read_text("utf-8")
    assert tree_bytes(out) == cold_bytes(content, templates)


def test_what_every_page_shows_and_the_templates_count(tmp_path):
    content, out = make_content(tmp_path), tmp_path / "site"
    templates = copy_templates(tmp_path)
    for _ in range(2):
        build_into(content, out, templates)
    edit(content / "site.yaml", "title: Ada Example", "title: Ada Example's Group")
    build_into(content, out, templates)
    assert "Ada Example&#39;s Group" in (out / "publications/p0/index.html").read_text("utf-8")
    edit(templates / "paper.html", "<h1", "<h1 data-edited")
    build_into(content, out, templates)
    assert "<h1 data-edited" in (out / "publications/p0/index.html").read_text("utf-8")
    assert tree_bytes(out) == cold_bytes(content, templates)


def test_a_mark_one_paper_uses_counts_on_the_lists_that_show_it(tmp_path):
    """The legend of the author marks is shown where a marked author is: the list of
    every paper gets it, and loses it, with the one paper that uses a mark, though the
    other papers' files did not change; a page of a paper with no mark never shows it."""
    content, out = make_content(tmp_path), tmp_path / "site"
    edit(content / "site.yaml", "publications:\n",
         "publications:\n  author_notes:\n    '*': Equal contribution\n")
    templates = copy_templates(tmp_path)
    listing, other = out / "publications/index.html", out / "publications/p0/index.html"
    for authors in ("Ada Example, Bob", "Ada Example*, Bob", "Ada Example, Bob"):
        edit(content / "publications/p3.md", "authors: [Ada Example",
             f"authors: [{authors}] #", 1)
        build_into(content, out, templates)
        assert ("Equal contribution" in listing.read_text("utf-8")) == ("*" in authors)
        assert "Equal contribution" not in other.read_text("utf-8")
        assert tree_bytes(out) == cold_bytes(content, templates)


def test_a_page_changed_by_hand_is_made_again(tmp_path):
    content, out, args = built_twice(tmp_path)
    page = out / "publications/p0/index.html"
    made = page.read_bytes()
    page.write_text("changed by hand", encoding="utf-8")
    edit(content / "publications/p2.md", "An abstract.", "Another abstract.")
    result = run_cli(*args)
    assert result.code == 0, result.err
    assert page.read_bytes() == made


def test_a_file_a_paper_links_counts_though_the_paper_did_not_change(tmp_path):
    """The link to content/files/p.pdf is left out while the file is missing: the paper's
    page changes when it appears, although the file that holds the paper did not."""
    content, out = make_content(tmp_path), tmp_path / "site"
    templates = copy_templates(tmp_path)
    for _ in range(2):
        build_into(content, out, templates)
    assert "p.pdf" not in (out / "publications/linked/index.html").read_text("utf-8")
    write_files(content, {"files/p.pdf": b"%PDF-1.4\n"})
    build_into(content, out, templates)
    assert "p.pdf" in (out / "publications/linked/index.html").read_text("utf-8")
    assert tree_bytes(out) == cold_bytes(content, templates)


def png(width: int, height: int) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), (40, 90, 160)).save(out, format="PNG")
    return out.getvalue()


def test_a_picture_a_paper_shows_counts_though_the_paper_did_not_change(tmp_path):
    """A paper's page gives the size of its link-preview picture, its own or the owner's
    photo: a picture replaced by one of another size changes the page, not the paper's
    file."""
    content, out = make_content(tmp_path), tmp_path / "site"
    edit(content / "publications/p1.md", "date: ", "preview: files/fig.png\ndate: ", 1)
    edit(content / "site.yaml", "  name: Ada Example\n",
         "  name: Ada Example\n  photo: files/me.png\n")
    write_files(content, {"files/fig.png": png(400, 300), "files/me.png": png(300, 300)})
    templates = copy_templates(tmp_path)
    for _ in range(2):
        build_into(content, out, templates)
    write_files(content, {"files/fig.png": png(640, 200), "files/me.png": png(320, 480)})
    build_into(content, out, templates)
    assert 'content="640"' in (out / "publications/p1/index.html").read_text("utf-8")
    assert 'content="480"' in (out / "publications/p2/index.html").read_text("utf-8")
    assert tree_bytes(out) == cold_bytes(content, templates)


def test_a_list_that_shows_papers_outside_their_entries_is_made_whole(tmp_path):
    """The publications list is brought up to date from its last file by putting the
    changed papers' entries in place (fastpath/lists.py); one whose template also shows a
    paper's title elsewhere gets the new title there too."""
    content, out = make_content(tmp_path), tmp_path / "site"
    templates = copy_templates(tmp_path)
    edit(templates / "publications.html", '<ol class="papers">',
         '<p>{% for paper in group.papers %}{{ paper.title }}; {% endfor %}</p>'
         '<ol class="papers">')
    for n in range(3):
        edit(content / "publications/p1.md", "title: ", f"title: N{n} ", 1)
        build_into(content, out, templates)
    shown = (out / "publications/index.html").read_text(encoding="utf-8")
    assert "N2 N1 N0 Paper 1; " in shown
    assert tree_bytes(out) == cold_bytes(content, templates)


STEPS = st.lists(st.one_of(
    st.tuples(st.just("paper"), st.sampled_from(sorted(PAPERS)),
              st.sampled_from(["title: T{n}", "date: 20{n:02d}-03", "selected: true",
                               "authors: [Ada Example*, Bob {n}]", "tier: CCF-A"]),
              st.integers(0, 30)),
    st.tuples(st.just("config"), st.sampled_from(["title: Site {n}", "description: D{n}"]),
              st.integers(0, 30)),
    st.tuples(st.just("template"), st.integers(0, 30)),
    st.tuples(st.just("by hand"), st.sampled_from(sorted(PAPERS))),
    st.tuples(st.just("file"), st.booleans())), min_size=1, max_size=6)


def take_step(step: tuple, content: Path, out: Path, templates: Path) -> None:
    kind = step[0]
    if kind == "paper":
        _, rel, line, n = step
        set_front_line(content / rel, line.format(n=n))
    elif kind == "config":
        _, line, n = step
        key = line.split(":")[0]
        kept = [row for row in CONFIG.split("\n") if not row.startswith(f"{key}:")]
        (content / "site.yaml").write_text("\n".join([line.format(n=n), *kept]),
                                           encoding="utf-8")
    elif kind == "template":
        page = templates / "paper.html"
        page.write_text(page.read_text(encoding="utf-8") + f"{{# {step[1]} #}}x{step[1]}",
                        encoding="utf-8")
    elif kind == "by hand":
        page = out / "publications" / Path(step[1]).stem / "index.html"
        if page.is_file():
            page.write_text("changed by hand", encoding="utf-8")
    elif step[1]:
        write_files(content, {"files/p.pdf": b"%PDF-1.4\n"})
    else:
        (content / "files" / "p.pdf").unlink(missing_ok=True)


@pytest.mark.full(only=True)  # CI's first step, with all its examples
@settings(max_examples=examples(12), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=STEPS)
def test_any_sequence_of_changes_gives_the_cold_build(tmp_path_factory, steps):
    tmp_path = tmp_path_factory.mktemp("reuse")
    content, out = make_content(tmp_path), tmp_path / "site"
    templates = copy_templates(tmp_path)
    build_into(content, out, templates)
    for step in steps:
        take_step(step, content, out, templates)
        build_into(content, out, templates)
        assert tree_bytes(out) == cold_bytes(content, templates), step


def test_a_users_files_stay_and_are_never_overwritten_in_place(tmp_path):
    content, out, args = built_twice(tmp_path)
    write_files(out, {"notes.txt": "mine", "publications/p9/index.html": "mine too"})
    edit(content / "publications/p4.md", "abstract", "abstract, once more,", 1)
    assert run_cli(*args).code == 0
    assert (out / "notes.txt").read_text(encoding="utf-8") == "mine"
    before = tree_bytes(out)
    write_files(content, {"publications/p9.md": paper("Paper 9")})
    result = run_cli(*args)
    assert result.code == 1 and "publications/p9/index.html' was not made by" in result.err
    assert tree_bytes(out) == before
    (out / "publications/p9/index.html").unlink()
    assert run_cli(*args).code == 0
    assert "Paper 9" in (out / "publications/p9/index.html").read_text(encoding="utf-8")
    assert (out / "notes.txt").read_text(encoding="utf-8") == "mine"
    # A file of the user's where a new page's folder would be.
    write_files(out, {"publications/p8": "mine as well"})
    write_files(content, {"publications/p8.md": paper("Paper 8")})
    before = tree_bytes(out)
    result = run_cli(*args)
    assert result.code == 1 and "publications/p8' was not made by" in result.err
    assert tree_bytes(out) == before


def test_copied_files_stay_unless_they_changed(tmp_path):
    content, out, args = built_twice(tmp_path)
    write_files(content, {"files/a.pdf": b"%PDF-1 a", "files/big.bin": b"a" * (2 << 20)})
    assert run_cli(*args).code == 0
    before = stamps(out)
    edit(content / "publications/p4.md", "abstract", "abstract, edited,", 1)
    assert run_cli(*args).code == 0
    assert stamps(out)["files/a.pdf"] == before["files/a.pdf"]
    assert stamps(out)["assets/style.css"] == before["assets/style.css"]
    # Changed with the same size: by its bytes, and the large one by its times.
    write_files(content, {"files/a.pdf": b"%PDF-1 b", "files/big.bin": b"b" * (2 << 20)})
    assert run_cli(*args).code == 0
    assert (out / "files/a.pdf").read_bytes() == b"%PDF-1 b"
    assert (out / "files/big.bin").read_bytes()[:1] == b"b"
