"""`import-bib`: one Markdown file per entry, and the round trip to the same papers."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest
import yaml

from conftest import BIBSITE, MINIMAL_CONFIG, build_args, run_cli, tree_bytes, write_files
from scholarsite.diagnostics import Diagnostics
from scholarsite.models.forms import PAPER_FIELDS
from scholarsite.reading.bib.bibpaper import find_short
from scholarsite.reading.loader import load_site

TRICKY = r"""
@string{conf = {Conference on Things}}

@inproceedings{Beet2020:von,
  title = {{LaTeX} \& {\"U}bung: 50% of *all* things},
  author = {van Beethoven, Jr, Ludwig and Example, Ada* and de Lima, Ricardo$^\dagger$ and others},
  booktitle = conf # { (CoT)},
  year = 2020,
  month = sep,
  abbr = {CoT}, selected = {true}, award = {Best Paper}, tier = {CCF-B}, category = {Systems},
  topics = {Things, Stuff},
  pdf = {https://example.org/p.pdf}, code = {https://github.com/x/y}, doi = {10.1000/abc},
  eprint = {2009.00001}, archiveprefix = {arXiv},
  abstract = {1986. was a year. # Not a heading; *stars* and _under_ [link](x) <b>b</b> & more.

  - not a list | pipe {braces} `code` \& 3 < 4},
  address = {Paris, France}, pages = {1--2}, note = {Oral}, preview = {p.png},
  bibtex_show = {true}, keywords = {a; b},
}

@phdthesis{thesis, title = {My Thesis}, author = {Example, Ada}, school = {Uni}, year = 2019}

@misc{pre, title = {Pre}, author = {Ada Example}, eprint = {2101.00002},
  archiveprefix = {arXiv}, year = {2021}, month = {March}}

@article{nojournal, title = {No Journal}, author = {Ada Example}, year = 2018}

@article{math, title = {On {$O(n \log n)$} Sorting in G{\"o}ttingen, for \$5},
  author = {Ada Example}, journal = {J. Things}, year = 2022}
"""


def papers_of(content: Path) -> dict:
    """The papers as read, without where they were read from."""
    diags = Diagnostics()
    loaded = load_site(content, diags)
    assert loaded is not None and not diags.has_errors(), [str(d) for d in diags.items]
    papers = loaded.site.papers
    return {p.slug: dataclasses.replace(p, source=Path(), line=0) for p in papers}


def import_into(content: Path, bib: Path, *extra: str):
    return run_cli("import-bib", str(bib), "--content", str(content), *extra)


@pytest.mark.parametrize("name", ["fixture", "tricky"])
def test_round_trip_gives_the_same_papers_and_pages(tmp_path, name):
    bib_site = tmp_path / "bib"
    if name == "fixture":
        shutil.copytree(BIBSITE, bib_site)
    else:
        write_files(bib_site, {"site.yaml": MINIMAL_CONFIG, "publications/papers.bib": TRICKY})
    md_site = write_files(tmp_path / "md", {"site.yaml": (bib_site / "site.yaml").read_text(
        encoding="utf-8")})
    result = import_into(md_site, bib_site / "publications" / "papers.bib")
    assert result.code == 0, result.err
    created = sorted(p.name for p in (md_site / "publications").iterdir())
    expected = sorted(f"{slug}.md" for slug in papers_of(bib_site))
    assert created == expected
    assert result.out.count("created ") == len(expected)

    # import-bib also takes venue_short from a venue's "(ABBR)" (a badge the .bib site
    # leaves to `abbr`); the papers are otherwise the same.
    expected_papers = {slug: dataclasses.replace(p, venue_short=p.venue_short
                                                 or find_short(p.venue))
                       for slug, p in papers_of(bib_site).items()}
    assert papers_of(md_site) == expected_papers
    for site in (bib_site, md_site):
        built = run_cli(*build_args(site, tmp_path / f"out-{site.name}"))
        assert built.code == 0, built.err
    md_tree, bib_tree = tree_bytes(tmp_path / "out-md"), tree_bytes(tmp_path / "out-bib")
    if expected_papers == papers_of(bib_site):
        assert md_tree == bib_tree
    else:
        assert md_tree.keys() == bib_tree.keys()


def test_imported_file_reads_as_markdown(tmp_path):
    content = write_files(tmp_path / "content", {"site.yaml": MINIMAL_CONFIG})
    bib = write_files(tmp_path, {"papers.bib": TRICKY}) / "papers.bib"
    assert import_into(content, bib).code == 0
    text = (content / "publications" / "beet2020-von.md").read_text(encoding="utf-8")
    front, body = text.split("\n---\n", 1)
    assert "title: 'LaTeX & Übung: 50% of *all* things'" in front
    # A name whose words give its parts (von, suffix) is written alone; the round trip
    # above reads it back as the same author.
    assert "- Ludwig van Beethoven, Jr\n" in front
    assert "- Ada Example*\n" in front and "- others\n" in front
    assert "venue_short: CoT" in front and "bibtex_key: Beet2020:von" in front
    assert "  preview: p.png" in front  # kept, though not shown
    # In the order of the paper's field table, as the editor and migrate write them.
    order = [field.name for field in PAPER_FIELDS]
    names = list(yaml.safe_load(front.removeprefix("---\n")))
    assert names == sorted(names, key=order.index) and len(names) > 10
    assert body.strip().startswith("1986\\. was a year. # Not a heading; \\*stars\\*")
    assert "\n\n\\- not a list \\| pipe" in body
    assert "<strong>b</strong> &amp; more." in body  # HTML's inline subset (issue 33, class 8)


def test_existing_files_are_skipped_unless_force(tmp_path):
    content = write_files(tmp_path / "content", {"site.yaml": MINIMAL_CONFIG})
    bib = write_files(tmp_path, {"papers.bib": TRICKY}) / "papers.bib"
    assert import_into(content, bib).code == 0
    thesis = content / "publications" / "thesis.md"
    original = thesis.read_text(encoding="utf-8")
    thesis.write_text("edited\n", encoding="utf-8")

    again = import_into(content, bib)
    assert again.code == 0
    lines = again.out.splitlines()
    assert f"skipped {thesis.as_posix()} (it exists; --force overwrites it)" in lines
    assert sum(line.startswith("skipped ") for line in lines) == 5
    assert not any(line.startswith("created ") for line in lines)
    assert lines[-1] == "Imported 0 papers, skipped 5."
    assert thesis.read_text(encoding="utf-8") == "edited\n"

    forced = import_into(content, bib, "--force")
    assert forced.code == 0
    assert f"created {thesis.as_posix()}" in forced.out.splitlines()
    assert forced.out.splitlines()[-1] == "Imported 5 papers, skipped 0."
    assert thesis.read_text(encoding="utf-8") == original


def test_a_bib_file_with_errors_imports_nothing(tmp_path):
    content = write_files(tmp_path / "content", {"site.yaml": MINIMAL_CONFIG})
    bib = write_files(tmp_path, {"bad.bib": TRICKY + "@article{late, title = {T}, year = 2020}\n"})
    result = import_into(content, bib / "bad.bib")
    assert result.code == 1
    line = TRICKY.count("\n") + 1
    assert f"bad.bib:{line}: error: entry 'late': missing required field 'author'" in result.err
    assert "Traceback" not in result.err
    assert not (content / "publications").exists()


def test_missing_file_or_content_folder(tmp_path):
    result = import_into(tmp_path / "content", tmp_path / "none.bib")
    assert result.code == 1
    assert "none.bib: error: cannot read file" in result.err
    assert "content: error: content folder not found; pass --content DIR" in result.err
