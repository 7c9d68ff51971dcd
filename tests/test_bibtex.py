"""The BibTeX reader: LaTeX, names, macros, crossref, the paper it makes, and its errors."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import examples, build_args, run_cli, soup
from scholarsite.reading.bib.bibtex import read_bib_file, read_bib_text
from scholarsite.views.citations import make_bibtex
from scholarsite.diagnostics import Diagnostics
from scholarsite.reading.bib.latex import decode_common, fold_space, latex_to_text, make_decoder
from scholarsite.reading.names import read_name
from scholarsite.models import Author, PubDate

BIB = Path("papers.bib")


def read(text: str) -> tuple[dict, list[str]]:
    """Papers by key, and every diagnostic as the command line prints it."""
    diags = Diagnostics()
    papers = read_bib_text(BIB, text, diags)
    return {p.bibtex_key: p for p in papers}, [str(d) for d in diags.items]


def entry(fields: str, kind: str = "article", key: str = "k") -> str:
    return f"@{kind}{{{key},\n{fields}\n}}\n"


BASIC = "  title = {T},\n  author = {Ada Example},\n  journal = {J},\n  year = 2020,"


@pytest.mark.parametrize("latex,text", [
    (r'{\"u}ber', "über"), (r"\'{e}cole", "école"), (r"Fran\c{c}ais", "Français"),
    (r"Stra{\ss}e", "Straße"), (r"R \& D", "R & D"), ("pages 1--2", "pages 1–2"),
    ("a---b", "a—b"), ("Fig.~3", "Fig. 3"),
    ("{TeleWorld}: the {GPU} way", "TeleWorld: the GPU way"),
    (r"S\~ao Paulo", "São Paulo"), (r"{\c C}a", "Ça"), (r"\L{}\'od\'z", "Łódź"),
    (r"$\tilde{O}(n)$ time", "Õ(n) time"), ("50% faster", "50% faster"),
    (r"50\% with {\"o}", "50% with ö"), (r"R&D \emph{now}", "R&D now"),
    ("``quoted''", "“quoted”"), ("two\n   lines", "two lines"), (r"\unknown{kept}", "kept"),
    # a layout command's sizes are no text (ADS writes a lowered tilde so)
    (r"at z\raisebox{-0.5ex}\textasciitilde1", "at z~1"),
    (r"\scalebox{0.8}{x} \rule{1em}{1pt}{\color{red}y}", "x y"),
])
def test_latex_to_unicode(latex, text):
    assert latex_to_text(latex) == text


@pytest.mark.parametrize("raw,author", [
    ("Wei, Zhewei", Author("Zhewei Wei")),
    ("Zhewei Wei", Author("Zhewei Wei")),
    ("Wei, Zhewei*", Author("Zhewei Wei", ("*",))),
    ("Zhewei Wei†", Author("Zhewei Wei", ("†",))),
    ("Wei*, Zhewei", Author("Zhewei Wei", ("*",))),
    (r"Wei, Zhewei$^*$", Author("Zhewei Wei", ("*",))),
    (r"Zhewei Wei\dag", Author("Zhewei Wei", ("†",))),
    ("Wei, Zhewei*†", Author("Zhewei Wei", ("*", "†"))),
    (r"M{\"u}ller, J{\"o}rg", Author("Jörg Müller")),
    ("Ludwig van Beethoven", Author("Ludwig van Beethoven", family="van Beethoven",
                                    given="Ludwig")),
    ("van Beethoven, Jr, Ludwig", Author("Ludwig van Beethoven, Jr", family="van Beethoven",
                                         given="Ludwig", suffix="Jr")),
    ("John Smith Jr.", Author("John Smith Jr.", family="Smith", given="John", suffix="Jr.")),
    ("Smith, John, III", Author("John Smith, III", family="Smith", given="John",
                                suffix="III")),
    ("de Lima, Ricardo Henrique", Author("Ricardo Henrique de Lima", family="de Lima",
                                         given="Ricardo Henrique")),
    ("{Barnes and Noble}", Author("Barnes and Noble", family="Barnes and Noble")),
    ("D.~E. Knuth", Author("D. E. Knuth")),
])
def test_names_in_every_bibtex_form(raw, author):
    assert read_name(raw).author == author


def test_names_and_others():
    papers, diags = read(entry("  title = {T},\n  author = {Wei, Zhewei and Gao, Wei and "
                               "others},\n  journal = {J},\n  year = 2020,"))
    paper = papers["k"]
    assert [a.name for a in paper.authors] == ["Zhewei Wei", "Wei Gao"]
    assert paper.more_authors and diags == []


def test_string_macros_months_and_concatenation():
    text = ('@string{ICSE = "International Conference on Software Engineering"}\n'
            '@STRING{me = {Example, Ada}}\n\n'
            + entry('  title = "Part " # {One},\n  author = me # " and Builder, Bob",\n'
                    '  booktitle = "Proc. " # icse,\n  year = 2021,\n  month = aug,',
                    kind="InProceedings"))
    papers, diags = read(text)
    paper = papers["k"]
    assert diags == []
    assert paper.title == "Part One"
    assert [a.name for a in paper.authors] == ["Ada Example", "Bob Builder"]
    assert paper.venue == "Proc. International Conference on Software Engineering"
    assert paper.date == PubDate(2021, 8) and paper.type == "conference"
    assert paper.line == 4
    bib = make_bibtex(paper)
    assert bib.startswith("@inproceedings{k,\n")
    assert "month = aug\n" in bib and "booktitle = {Proc. International" in bib


@pytest.mark.parametrize("month,number", [
    ("jan", 1), ("{May}", 5), ('"Sept."', 9), ("{12}", 12), ("{jun--jul}", 6)])
def test_months(month, number):
    papers, diags = read(entry(BASIC + f"\n  month = {month},"))
    assert papers["k"].date.month == number and diags == []


def test_crossref_inherits_and_the_parent_is_not_a_paper():
    text = (entry("  title = {Child},\n  author = {Ada Example},\n  crossref = {proc21},\n"
                  "  pages = {1--10},", kind="inproceedings", key="child")
            + entry("  title = {Proceedings of Things},\n  editor = {Bob Builder},\n"
                    "  year = 2021,\n  month = mar,\n  publisher = {ACM},\n  doi = {10.1/parent},",
                    kind="proceedings", key="proc21"))
    papers, diags = read(text)
    assert list(papers) == ["child"] and diags == []
    child = papers["child"]
    assert child.venue == "Proceedings of Things" and child.date == PubDate(2021, 3)
    assert child.publisher == "ACM" and child.doi == ""  # links are the parent's own
    bib = make_bibtex(child)
    assert "crossref" not in bib and "booktitle = {Proceedings of Things}" in bib


def test_crossref_to_a_missing_entry_is_reported():
    papers, diags = read(entry("  title = {T},\n  author = {A B},\n  crossref = {nowhere},",
                               kind="inproceedings"))
    assert papers == {}
    assert diags[0] == "papers.bib:1: error: entry 'k': missing required field 'year'"
    assert diags[1].startswith("papers.bib:4: warning: entry 'k': crossref 'nowhere' names no "
                               "other entry in this file")


def test_fields_of_the_paper():
    papers, diags = read(entry(
        "  title = {T},\n  author = {Ada Example},\n  journal = {Journal of Things (JoT)},\n"
        "  year = 2024,\n  volume = 3,\n  number = {2},\n  pages = {5--9},\n"
        "  abbr = {JoT},\n  selected = {true},\n  award = {Best Paper},\n  tier = {CCF-A},\n"
        "  category = {Systems},\n  topics = {LLM; Scheduling},\n  doi = {10.1000/xyz},\n"
        "  url = {https://doi.org/10.1000/xyz},\n  pdf = {https://example.org/t.pdf},\n"
        "  code = {https://example.org/code},\n  eprint = {2401.00001},\n"
        "  archiveprefix = {arXiv},\n  issn = {1234-5678},\n  preview = {t.png},"))
    paper = papers["k"]
    assert diags == []
    assert (paper.venue, paper.venue_short) == ("Journal of Things (JoT)", "JoT")
    assert (paper.volume, paper.number, paper.pages) == ("3", "2", "5–9")
    assert paper.selected and paper.award == "Best Paper" and paper.tier == "CCF-A"
    assert paper.category == "Systems" and paper.topics == ("LLM", "Scheduling")
    assert [(link.kind, link.url) for link in paper.links] == [
        ("pdf", "https://example.org/t.pdf"), ("code", "https://example.org/code"),
        ("doi", "https://doi.org/10.1000/xyz"), ("arxiv", "https://arxiv.org/abs/2401.00001")]
    assert paper.doi == "10.1000/xyz" and paper.arxiv == "2401.00001"
    bib = make_bibtex(paper)
    for hidden in ("abbr", "selected", "award", "tier", "category", "topics", "pdf", "code",
                   "preview"):
        assert f"{hidden} =" not in bib
    assert "issn = {1234-5678}" in bib and "eprint = {2401.00001}" in bib


@pytest.mark.parametrize("kind,venue,ptype", [
    ("inproceedings", "booktitle = {B}", "conference"), ("article", "journal = {J}", "journal"),
    ("article", "journal = {arXiv preprint arXiv:2401.00001}", "preprint"),
    ("article", "journal = {CoRR}", "preprint"), ("techreport", "institution = {I}", "report"),
    ("phdthesis", "school = {S}", "thesis"), ("mastersthesis", "school = {S}", "thesis"),
    ("book", "publisher = {P}", "book"), ("incollection", "booktitle = {B}", "chapter"),
    ("inbook", "booktitle = {B}", "chapter"), ("misc", "eprint = {2401.00001}", "preprint"),
    ("misc", "howpublished = {Blog}", "other"), ("online", "howpublished = {Blog}", "other"),
])
def test_paper_types(kind, venue, ptype):
    papers, diags = read(entry(f"  title = {{T}},\n  author = {{A B}},\n  year = 2020,\n  {venue},",
                               kind=kind))
    assert papers["k"].type == ptype and diags == []


def test_abstracts_are_escaped_text_never_html():
    papers, _ = read(entry(BASIC + "\n  abstract = {We show <script>alert(1)</script> & "
                           + r'{\"u}ber.' + "\n\n  Second " + r"\emph{paragraph}.},"))
    assert papers["k"].abstract_html == ("<p>We show &lt;script&gt;alert(1)&lt;/script&gt; "
                                         "&amp; über.</p>\n<p>Second <em>paragraph</em>.</p>")
    assert papers["k"].abstract_text.startswith("We show <script>")


def test_unsafe_links_are_dropped_with_a_warning():
    """An exported .bib is not the owner's own writing: the paper stays, the link goes."""
    papers, diags = read(entry(BASIC + "\n  code = {javascript:alert(1)},"))
    assert list(papers) == ["k"] and papers["k"].links == ()
    assert diags == ["papers.bib:6: warning: entry 'k': link 'code' uses the scheme "
                     "'javascript:'; only http, https and mailto links, DOIs, arXiv ids and "
                     "relative paths are allowed; it is left out"]


def test_errors_name_the_key_and_line_and_the_rest_is_read():
    text = ("% a comment line\n"
            + entry(BASIC, key="good1")
            + "@article{unclosed,\n  title = {T,\n  year = 2020,\n}\n\n"
            + "@article{nocomma,\n  title = {T},\n  author = {A B}\n  year = 2020,\n}\n"
            + entry("  author = {A B},\n  journal = {J},", key="notitle")
            + entry("  title = {T},\n  author = {A B},\n  journal = {J},\n  year = {circa 2020},",
                    key="badyear")
            + entry("  title = {T},\n  author = undefinedname,\n  journal = {J},\n"
                    "  year = 2001,",
                    key="macro")
            + entry(BASIC, key="good2"))
    papers, diags = read(text)
    assert sorted(papers) == ["good1", "good2", "macro"]  # a macro's name is kept as text
    assert [a.name for a in papers["macro"].authors] == ["undefinedname"]
    assert diags[0].startswith("papers.bib:8: error: entry 'unclosed' could not be read: ")
    assert diags[0].endswith("check its braces, quotes and commas (the rest of the file was "
                             "still read)")
    assert diags[1:] == [
        "papers.bib:15: error: entry 'nocomma': field 'author' has an unexpected '=' "
        "(is a comma missing after this value?)",
        "papers.bib:18: error: entry 'notitle': missing required field 'title'",
        "papers.bib:18: error: entry 'notitle': missing required field 'year'",
        "papers.bib:26: error: entry 'badyear': 'year' must be a four-digit year from 0001, "
        "found 'circa 2020'",
        "papers.bib:30: warning: entry 'macro': field 'author' uses the undefined @string "
        "macro undefinedname, shown as its name; define it in this file, such as "
        "@string{undefinedname = {...}}, or write the value in braces"]


def test_duplicate_keys_and_slugs_are_errors():
    papers, diags = read(entry(BASIC, key="Same") + entry(BASIC, key="Same")
                         + entry(BASIC, key="a:b") + entry(BASIC, key="A_B"))
    assert sorted(papers) == ["Same", "a:b"]
    assert diags == [
        "papers.bib:7: error: entry 'Same': the key is used twice (also line 1); rename one",
        "papers.bib:19: error: entry 'A_B': makes the page address 'a-b' as entry 'a:b' "
        "(line 13) does; rename one key"]


def test_duplicate_field_warns_and_keeps_the_first():
    papers, diags = read(entry(BASIC + "\n  title = {Second},"))
    assert papers["k"].title == "T"
    assert diags == ["papers.bib:6: warning: entry 'k': field 'title' is given twice; "
                     "the first one is used"]


def test_missing_venue_is_a_warning_as_in_bibtex():
    papers, diags = read(entry("  title = {T},\n  author = {A B},\n  year = 2020,"))
    assert papers["k"].venue == ""
    assert diags == ["papers.bib:1: warning: entry 'k': no venue: add 'journal' so that "
                     "readers know where it appeared"]


def test_not_utf8_is_an_error_naming_the_file(tmp_path):
    path = tmp_path / "gbk.bib"
    path.write_bytes(entry(BASIC.replace("Ada Example", "张三")).encode("gbk"))
    diags = Diagnostics()
    assert read_bib_file(path, diags) == []
    assert [str(d) for d in diags.items] == [
        f"{path.as_posix()}:3: error: the file is not UTF-8 text; save it as UTF-8 "
        "(in most editors: File > Save with Encoding > UTF-8)"]


def test_build_reports_bibtex_problems_without_traceback(make_site):
    """Entries that cannot be papers are named and left out; --strict fails the build."""
    content = make_site({"publications/papers.bib": entry(BASIC, key="ok")
                         + "@article{bad,\n  title = {T\n}\n"
                         + entry("  title = {T},\n  year = 2020,", key="noauthor")})
    for strict, code in ((False, 0), (True, 1)):
        result = run_cli(*build_args(content, None, *(["--strict"] if strict else [])))
        assert result.code == code and "Traceback" not in result.err
        lines = result.err.splitlines()
        assert any("papers.bib:7: warning: entry 'bad'" in line for line in lines)
        assert any("papers.bib:10: warning: entry 'noauthor': missing required field "
                   "'author'" in line for line in lines)


TOKENS = ["a", "B", "e", "i", "o", "u", "C", " ", "  ", "\n", "{", "}", "--", "---", "~", "``",
          "''", "'", "`", ".", ",", "-", "&", "%", "é", "Z", r"\"", r"\'", r"\`", r"\^", r"\~",
          r"\=", r"\.", r"\c", r"\v", r"\u", r"\H", r"\k", r"\r", r"\ss", r"\o", r"\O", r"\ae",
          r"\L", r"\l", r"\i", r"\j", r"\aa", r"\&", r"\%", r"\_", r"\#", r"\ ", r"\,", "{}"]


@settings(max_examples=examples(1500), deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=12).map("".join))
def test_common_latex_is_decoded_as_pylatexenc_does(text):
    """The fast path for common LaTeX gives pylatexenc's text, or leaves it to pylatexenc.
    (Read as BibTeX means it: a bare % or & is the character, and `\\^{}` a caret and
    `\\~{}` a tilde, which pylatexenc alone would drop.)"""
    fast = decode_common(text)
    if fast is not None:
        escaped = re.sub(r"(?<!\\)([%&])", r"\\\1", text).replace(
            "\\^{}", "\\textasciicircum{}").replace("\\~{}", "\\textasciitilde{}")
        assert fold_space(fast) == fold_space(make_decoder().latex_to_text(escaped))


def test_html_in_bibtex_is_its_inline_subset_on_pages_and_latex_in_the_export(make_site,
                                                                             tmp_path):
    """Sites write HTML into BibTeX (`<i>Arabidopsis</i>`, `<br>` in `abbr`, a name in
    `<b>` or a link): italics, bold, sub- and superscripts show as such, other tags go,
    their text kept; plain-text outputs drop them and the .bib export writes LaTeX (issue
    33, class 8)."""
    content = make_site({"publications/refs.bib": """\
        @article{flower,
          title = {Flowering of <i>Arabidopsis</i> under CO<sub>2</sub>, <span class="x">now</span>},
          author = {<b>Example, Ada</b> and <a href="https://bo.example.org/" target="_blank">Bo Chan</a>},
          journal = {Plant <em>Letters</em>},
          abbr = {PL<br>2020},
          year = {2020}
        }
        """})
    out = tmp_path / "site"
    result = run_cli(*build_args(content, out))
    assert result.code == 0, result.err
    page = soup(out / "publications" / "flower" / "index.html")
    assert str(page.h1) == "<h1>Flowering of <em>Arabidopsis</em> under CO<sub>2</sub>, " \
                           "now</h1>"
    assert [a.get_text() for a in page.select(".paper-authors .author")] == \
        ["Ada Example", "Bo Chan"]
    text = page.get_text()
    assert "<" not in text and "Plant Letters" in text and "PL 2020" in text
    assert page.find("meta", attrs={"name": "citation_title"})["content"] == \
        "Flowering of Arabidopsis under CO2, now"
    assert "TI  - Flowering of Arabidopsis under CO2, now" in (out / "publications.ris").read_text(
        encoding="utf-8")
    exported = (out / "publications.bib").read_text(encoding="utf-8")
    assert r"title = {Flowering of \textit{Arabidopsis} under {CO}\textsubscript{2}, now}" \
        in exported
    assert r"journal = {Plant \textit{Letters}}" in exported and "<" not in exported
