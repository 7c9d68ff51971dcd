"""Real users' BibTeX files (../shared/corpus/bib, see its MANIFEST.md): every file is read in
full, each entry a paper or a clear `path:line` diagnostic naming it, or the file is
rejected with one clear error (the GBK one); never a crash."""

from __future__ import annotations

import re

from pathlib import Path

import pytest

from conftest import SHARED
from scholarsite.reading.bib.bibparse import parse_entries
from scholarsite.reading.bib.bibtex import read_bib_file
from scholarsite.diagnostics import Diagnostics

CORPUS = SHARED / "corpus" / "bib"
FILES = sorted(CORPUS.glob("*.bib")) if CORPUS.is_dir() else []
pytestmark = pytest.mark.skipif(not FILES, reason="../shared/corpus/bib is not present")


def read(name: str):
    diags = Diagnostics()
    papers = read_bib_file(CORPUS / name, diags)
    return papers, diags.items


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_entry_is_a_paper_or_a_diagnostic(path: Path):
    diags = Diagnostics()
    papers = read_bib_file(path, diags)
    lines = len(path.read_bytes().splitlines())
    for d in diags.items:
        assert d.path == path.as_posix() and 1 <= d.line <= lines, str(d)
        assert d.message and "Traceback" not in d.message
    if path.name == "sciunto-org__gbk_test.bib":
        return
    text = path.read_text(encoding="utf-8")
    entries = parse_entries(path, text, Diagnostics())
    made = {p.bibtex_key for p in papers}
    parents = {e.fields["crossref"].text.strip().lower() for e in entries if "crossref" in e.fields}
    named = " ".join(d.message for d in diags.items)
    for entry in entries:
        if entry.key in made or entry.key.lower() in parents:
            continue
        assert f"entry '{entry.key}'" in named, f"{entry.key} vanished without a word"


def test_gbk_file_is_rejected_with_one_clear_error():
    papers, items = read("sciunto-org__gbk_test.bib")
    assert papers == []
    assert [(d.severity, d.line) for d in items] == [("error", 1)]
    assert "not UTF-8" in items[0].message and items[0].path.endswith("gbk_test.bib")


def test_al_folio_example_reads_in_full():
    papers, items = read("alshedivat__al-folio_papers.bib")
    assert [d for d in items if d.severity == "error"] == []
    by_key = {p.bibtex_key: p for p in papers}
    assert len(by_key) == 7
    assert by_key["einstein1905molekularkinetischen"].title.startswith("Über die von der")
    epr = by_key["PhysRev.47.777"]
    assert epr.publisher == "American Physical Society," and epr.venue_short == "PhysRev"
    assert epr.selected and epr.date.month == 5 and epr.abstract_html.startswith("<p>In a ")
    assert [link.kind for link in epr.links] == ["pdf", "html", "doi", "url"]
    assert [a.name for a in by_key["przibram1967letters"].authors][1] == "Erwin Schrödinger"


def test_traps():
    papers, items = read("sciunto-org__traps.bib")
    assert items == [] and len(papers) == 1
    paper = papers[0]
    assert paper.title == "An amazing title" and paper.date.month == 1
    assert paper.volume == "n.s. 2" and paper.pages == "12-23"
    assert "Laidé" in paper.authors[0].name


def test_real_al_folio_site():
    papers, items = read("AlgRUC__weizhewei.com_papers.bib")
    errors = [d for d in items if d.severity == "error"]
    assert len(errors) == 1 and "'liu2022building': the key is used twice" in errors[0].message
    assert len(papers) >= 130
    marked = [a for p in papers for a in p.authors if a.name == "Zhewei Wei" and a.marks]
    assert marked and all(a.marks == ("*",) for a in marked)
    assert {p.venue_short for p in papers} >= {"VLDB", "KDD", "SIGMOD", "TKDE"}
    assert not any("\\" in p.title for p in papers)  # no LaTeX left (\\{ is a brace)


def test_iridia_biblio_alone_names_the_undefined_macros():
    """Its macros are defined in another file: each use is said, and the entry kept."""
    papers, items = read("iridia-ulb__references_biblio.bib")
    undefined = [d for d in items if "undefined @string macro" in d.message]
    assert undefined and all(d.severity == "warning" for d in undefined)
    keys = {re.search(r"entry '([^']+)'", d.message).group(1) for d in undefined}
    assert keys & {p.bibtex_key for p in papers}  # kept (those left out lack a crossref)
    assert any("entry 'AarKorMic2005': field 'author' uses the undefined @string macros "
               "Aarts, and, Korst_JHM" in d.message for d in undefined)
    assert papers  # entries that need no other file are still read


def test_biber_examples_with_crossref_and_macros():
    papers, _ = read("sciunto-org__biber-examples.bib")
    assert len(papers) >= 80
    # A paper has a date, or a status in its place, or is a web page with no year (an
    # @online entry), which is no preprint: nothing says it is one.
    assert all(p.title and p.authors and (p.date or p.status or p.bibtex_type == "online")
               for p in papers)
    assert not any(p.status == "preprint" for p in papers if p.bibtex_type == "online")
