"""What `update` writes into a .bib file reads back as written, whatever a service sent:
properties over any text, read back by bibtexparser v2 and by the project's BibTeX reader
(the CLI test is tests/test_update.py, test_orcid_text_cannot_add_fields_or_entries)."""

from __future__ import annotations

from pathlib import Path
from unicodedata import normalize

import bibtexparser
from hypothesis import example, given, settings, strategies as st

from scholarsite.commands.bibmerge import Record, format_records
from scholarsite.commands.bibwrite import bib_value, is_plain_bibtex
from scholarsite.commands.papersources import ORCID_TYPES, convert_orcid_work
from scholarsite.diagnostics import Diagnostics
from scholarsite.reading.bib.bibparse import parse_library
from scholarsite.reading.bib.bibtex import read_bib_text
from scholarsite.reading.bib.latex import latex_to_text
from scholarsite.views.latexout import escape_latex
from conftest import examples

NAMES = ("title", "author", "url", "doi", "note")
# Text with BibTeX's own marks in it, more often than chance would give them.
MARKS = st.sampled_from(["{", "}", "\\", "@", ",", "=", '"', "%", "#", "\n", "\n@misc{x,",
                         "}, selected = {true", "\\\\}", "--", "''", "^", "~", "$", "`"])
TEXT = st.lists(st.one_of(st.text(max_size=8), MARKS), max_size=12).map("".join)
HOSTILE = [FIELD_VALUE := "x}, pdf = {https://evil.example/x.pdf}, selected = {true",
           "}\n}\n@inproceedings{fake, title = {Fake}, year = {2025}}\n@misc{y, title = {",
           "a\\", "a\\\\}b", "{", "\n  @misc{z,"]


def read_back(text: str) -> list[tuple[str, str, list[tuple[str, str]]]]:
    """(key, type, [(field, raw value)]) of each entry, by the project's reader, which
    must agree with bibtexparser's own reading."""
    diags = Diagnostics()
    library = parse_library(Path("x.bib"), text, diags)
    assert not diags.items and not library.unread, [str(d) for d in diags.items]
    plain = bibtexparser.parse_string(text)
    assert not plain.failed_blocks
    assert [e.key for e in plain.entries] == [e.key for e in library.entries]
    return [(e.key, e.type, [(name, value.text) for name, value in e.fields.items()])
            for e in library.entries]


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(TEXT, min_size=len(NAMES), max_size=len(NAMES)))
@example([*HOSTILE[:len(NAMES)]])
def test_any_value_reads_back_as_written(values):
    fields = tuple(zip(NAMES, values))
    text = format_records([Record("ORCID:1", "article", fields),
                           Record("next", "misc", (("title", "After"),))], "ORCID")
    assert read_back(text) == [
        ("ORCID:1", "article", [(name, bib_value(value)) for name, value in fields]),
        ("next", "misc", [("title", "After")])]


@settings(max_examples=examples(300), deadline=None)
@given(TEXT)
def test_a_value_is_kept_as_it_is_when_it_can_be(value):
    written = bib_value(value)
    assert bib_value(written) == written  # what is written is kept as it is next time
    assert (written == value) == is_plain_bibtex(value)


# Any text but control characters, lone surrogates and unassigned code points (among them
# the noncharacters, which the reader uses as stand-ins; private-use characters are text);
# the build's reader gives Unicode's composed form (NFC). (A
# compatibility character such as U+F900 may come back as written or composed.)
PLAIN = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Cn")))
TRICKY = ("x^2 | ''y'' -- z – w — v --- `q' “a\" {b} \\emph{c} $5 100% <i>d</i> a~b "
          "\\textbar{} ~~ ,, !` ?` \\(x\\) \\[y\\]")


@settings(max_examples=examples(500), deadline=None)
@given(PLAIN)
@example("Engines -- Ethics --- 100% $5 ''quoted'' x^2 a~b \\emph{c} {d}")
@example(TRICKY)
def test_plain_text_reads_back_as_the_same_text(text):
    read = normalize("NFC", latex_to_text(escape_latex(text)))
    assert read == normalize("NFC", " ".join(text.split()))


@settings(max_examples=examples(300), deadline=None)
@given(PLAIN.filter(str.strip), PLAIN)
@example(TRICKY, TRICKY)
def test_a_written_entry_gives_the_build_the_same_text(title, note):
    """What `update` writes (and a download's fields, escaped the same way) is read by the
    build's own BibTeX reader as the text it was written from."""
    fields = (("author", "Ada Example"), ("title", escape_latex(title)), ("year", "2024"),
              ("note", escape_latex(note)), ("howpublished", "A Venue"))
    diags = Diagnostics()
    [paper] = read_bib_text(Path("x.bib"), format_records([Record("k", "misc", fields)], "ORCID"),
                            diags)
    assert not diags.items, [str(d) for d in diags.items]
    assert normalize("NFC", paper.title) == normalize("NFC", " ".join(title.split()))
    assert normalize("NFC", paper.note) == normalize("NFC", " ".join(note.split()))


@settings(max_examples=examples(200), deadline=None)
@given(title=TEXT, url=TEXT, doi=TEXT, arxiv=TEXT, venue=TEXT, author=TEXT,
       kind=st.sampled_from([*ORCID_TYPES, "other"]))
def test_an_orcid_work_gives_one_entry_of_known_fields(title, url, doi, arxiv, venue, author,
                                                       kind):
    work = {"put-code": 7, "type": kind, "title": {"title": {"value": title + "T"}},
            "publication-date": {"year": {"value": "2024"}, "month": {"value": "05"}},
            "url": {"value": url}, "journal-title": {"value": venue},
            "external-ids": {"external-id": [
                {"external-id-type": "doi", "external-id-value": doi},
                {"external-id-type": "arxiv", "external-id-value": arxiv}]}}
    record = convert_orcid_work(work, [author] if author.strip() else [], "Ada", [])
    [(key, _, fields)] = read_back(format_records([record], "ORCID"))
    allowed = {"author", "title", "year", "month", "doi", "eprint", "archiveprefix", "url",
               *(name for _, name in ORCID_TYPES.values()), "howpublished"}
    assert key == "ORCID:7" and {name for name, _ in fields} <= allowed
    assert dict(fields)["title"] == escape_latex(title + "T")
