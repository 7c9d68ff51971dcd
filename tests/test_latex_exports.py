"""The BibTeX a site exports, compiled by real LaTeX: pdflatex with classic bibtex (plain,
plainnat, ieeetr, alpha, acm: 8-bit, lowercasing titles) and biblatex with biber (UTF-8,
checking its data model), as a colleague compiles a paper that cites the site's entries.
Any LaTeX, bibtex or biber error or warning fails; the .bbl is read for what each style
must keep (capitals, math, names, labels in UTF-8).

Skipped where pdflatex, bibtex or biber is missing (CI installs them: .ci/run)."""

from __future__ import annotations

import pytest

from conftest import read_download
from latexrun import CLASSIC_STYLES, HAVE_LATEX, compile_bib

pytestmark = pytest.mark.skipif(not HAVE_LATEX, reason="pdflatex, bibtex or biber is missing "
                                "(apt-get install texlive-latex-base texlive-latex-recommended "
                                "texlive-bibtex-extra biber)")
STYLES = (*CLASSIC_STYLES, "biblatex")
EXPORT_SLUGS = ("resihp-hpdc-2026", "specials-preprint-2025", "scheduling-chapter-2024",
                "systems-book-2023", "report-2022", "thesis-2020", "alvarez2021zola", "2019gpu",
                "kaiser2018attention", "repair-bound-2024", "gossip-preprint-2024",
                "consensus-thesis-2019", "other-note-2023")


def unbraced(bbl: str) -> str:
    """The .bbl's text with braces and line breaks gone, as it prints."""
    return " ".join(bbl.replace("{", "").replace("}", "").split())


class Compiled(dict):
    """{(source, style): Compiled}, each run made when a test first asks for it: the quick
    run asks for the hard cases' six, CI's first step for the example's six as well."""

    def __init__(self, sources: dict[str, str], root):
        super().__init__()
        self.sources, self.root = sources, root

    def __missing__(self, key: tuple[str, str]):
        name, style = key
        self[key] = compile_bib(self.sources[name], style, self.root / f"{name}-{style}")
        return self[key]


@pytest.fixture(scope="module")
def compiled(example, exportsite, tmp_path_factory):
    """Each style's run over the example's publications.bib with the hard cases' per-paper
    downloads after it ("example"), and over the hard cases' publications.bib ("hard"):
    {(source, style): Compiled}: twelve runs of a second or two each, made as asked."""
    downloads = "\n".join(read_download(exportsite, slug, ".bib") for slug in EXPORT_SLUGS)
    sources = {"example": (example / "publications.bib").read_text(encoding="utf-8")
               + "\n" + downloads,
               "hard": (exportsite / "publications.bib").read_text(encoding="utf-8")}
    return Compiled(sources, tmp_path_factory.mktemp("latex"))


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("source", (pytest.param("example", marks=pytest.mark.full(only=True)),
                                    "hard"))
def test_exports_compile_without_errors(compiled, source, style):
    result = compiled[source, style]
    assert result.errors == (), result.errors  # a .bbl that is not UTF-8 among them
    assert result.warnings == ()  # `archiveprefix` beside `eprinttype` was one (biber)
    assert result.bbl.count(r"\bibitem" if style != "biblatex" else r"\entry{") == \
        (18 if source == "example" else 0) + len(EXPORT_SLUGS)


@pytest.mark.full(only=True)  # the example's six runs: CI's first step
@pytest.mark.parametrize("style", CLASSIC_STYLES)
def test_styles_that_lowercase_titles_keep_the_example_s_capitals(compiled, style):
    example = unbraced(compiled["example", style].bbl)
    for kept in ("ResiHP: Taming LLM", "GPU", "RollArt", "RLVR", "Part II: ROLL"):
        assert kept in example, kept
    # '--' in a Markdown title is two hyphens, as the page shows it.
    assert "flash -- accelerating" in example.lower()  # from -{}-
    assert "Resihp" not in example and "Unisched" not in example


@pytest.mark.parametrize("style", CLASSIC_STYLES)
def test_styles_that_lowercase_titles_keep_the_capitals(compiled, style):
    hard = unbraced(compiled["hard", style].bbl)
    for kept in ("ResiHP", "LLM", "GPU", "MLaaS", "ROLL", "\\LaTeX", "\\TeXnical",
                 # Formulas and one-letter capitals: big-O is not little-o, C# not c#.
                 "An $O(1)$ repair", "for C\\# services at plan B scale", "of C\\# \\&"):
        assert kept in hard, kept


def test_specials_print_as_typed_and_math_stays_math(compiled):
    bbl = " ".join(compiled["hard", "plain"].bbl.split())  # lines broken anywhere
    # A caret and a tilde as accents on nothing, which Zotero's BibTeX reader reads too.
    for command in (r"\^{} benefits \~{} paths", r"\textbackslash{}",
                    "$x^2$", r"100\%", r"\#", r"\&", r"my\_files", "bounds -{}- for"):
        assert command in bbl, command
    assert r"\emph{Arabidopsis thaliana}" in bbl


def test_names_read_right_in_eight_bit_and_unicode_styles(compiled):
    ieeetr = " ".join(compiled["hard", "ieeetr"].bbl.split())  # lines broken anywhere
    # Initials of a non-ASCII first letter, a Chinese given name, a suffix, a corporate name.
    for name in (r"{\'E}.~Zola", r"{\L}.~Kaiser", r"{\textrm{小}}.~{\textrm{王}}",
                 "J.~Smith, Jr.", "R.~de~Lima", "{Barnes and Noble, Inc.}",
                 r"{\'I}.~{\'A}lvarez",
                 # Markdown's 'Petrova, Elena', 'John Smith Jr.', 'Ibáñez, Teresa', '欧阳, 娜'.
                 r"E.~Petrova, J.~Smith, Jr., T.~Ib{\'a}{\~n}ez, and M.~Castell",
                 r"{\textrm{娜}}.~{\textrm{欧}}{\textrm{阳}}"):
        assert name in ieeetr, name
    alpha = compiled["hard", "alpha"].bbl
    # Labels of family names' first letters: a CJK one whole, never half of its bytes.
    for label in (r"[{\textrm{欧}}{\textrm{阳}}19]", r"[E{\textrm{王}}dLB25]", "[PSIC24]"):
        assert label in alpha, label
    plainnat = compiled["hard", "plainnat"].bbl
    assert r"\bibitem[Example et~al.(2026)" in plainnat  # no 'von' part taken for 'Émile'
    biber = compiled["hard", "biblatex"].bbl
    for part in ("family=Zola", "given=Émile", "family=Kaiser", "given=Łukasz",
                 "given=John, giveni=J\\bibinitperiod, suffix=Jr.", "family=Lima",
                 "prefix=de", "family=Barnes and Noble, Inc.", "giveni=小", "family=Álvarez",
                 "family=Petrova, familyi=P\\bibinitperiod, given=Elena",
                 "family=Ibáñez", "family=\\textrm欧\\textrm阳"):
        assert part in unbraced(biber), part


def test_downloads_drop_the_site_s_marks_and_prefixes(exportsite):
    bib = read_download(exportsite, "alvarez2021zola", ".bib")
    assert "author = {Example, Ada and {\\'A}lvarez, María and Smith, Jr., John}" in bib
    assert "doi = {10.1234/jpi.2021.45}" in bib and "$^*$" not in bib
    chapter = read_download(exportsite, "scheduling-chapter-2024", ".bib")
    assert chapter.startswith("@incollection{alvarez2024:scheduling-chapter-2024,")
