"""`add` and `update` against whole answers in each service's documented format, kept as
files in tests/fixtures/services/ (README.md there says which are real records), served
by the suite's one fake service (fakeservices.py) through the CLI, that is through the
one guarded request (netrequest.fetch_url: a deadline, a size cap, loopback allowed only
as tests allow it). Hostile answers among them: huge, slow, malformed, markup in titles
and abstracts, 50 authors, no abstract. Cheap: one site and a few CLI runs each."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import build_args, read_front_matter, run_cli, soup, text_of, write_files
from fakeservices import Services, fixture_answer, oversized, trickle

OWNER = """\
title: Ada Example
url: https://example.org/
author:
  name: Ada Example
  email: ada@example.org
"""
NATURE = "10.1038/nature14539"
HOSTILE = "10.5555/12345678"
SOFTWARE = "10.5072/example.software.1"
ARXIV = "1706.03762"
PMID = "22745249"
ISBN = "978-0-262-03384-8"
LIMIT = 64 * 1024 * 1024  # fetch.MAX_ANSWER_BYTES


def add_routes() -> dict:
    arxiv = "/arxiv/api/query?id_list={}&max_results=1"
    library = {f"/openlibrary/authors/{key}.json": fixture_answer(
        f"openlibrary-author-{key}.json") for key in ("OL217477A", "OL217478A", "OL217479A",
                                                      "OL217480A")}
    return {
        f"/crossref/works/{NATURE}": fixture_answer("crossref-work-nature14539.json"),
        f"/crossref/works/{HOSTILE}": fixture_answer("crossref-work-hostile.json"),
        f"/datacite/dois/{SOFTWARE}": fixture_answer("datacite-doi-software.json"),
        arxiv.format(ARXIV): fixture_answer("arxiv-query-1706.03762.atom"),
        arxiv.format("2501.99999"): fixture_answer("arxiv-query-none.atom"),
        arxiv.format("2501.00001"): fixture_answer("arxiv-query-malformed.atom"),
        f"/pubmed/efetch.fcgi?db=pubmed&id={PMID}&retmode=xml":
            fixture_answer("pubmed-efetch-22745249.xml"),
        "/pubmed/efetch.fcgi?db=pubmed&id=1&retmode=xml":
            fixture_answer("pubmed-efetch-malformed.xml"),
        "/pubmed/efetch.fcgi?db=pubmed&id=99999999&retmode=xml":
            fixture_answer("pubmed-efetch-none.xml"),
        "/openlibrary/isbn/9780262033848.json":
            fixture_answer("openlibrary-isbn-9780262033848.json"),
        "/openlibrary/works/OL1814974W.json": fixture_answer("openlibrary-work-OL1814974W.json"),
        **library,
        "/crossref/works/10.5555/malformed": fixture_answer("crossref-work-malformed.json"),
        "/crossref/works/10.5555/huge": oversized(
            fixture_answer("crossref-work-hostile.json")[1], LIMIT + 1),
        "/crossref/works/10.5555/slow": trickle(
            fixture_answer("crossref-work-nature14539.json")[1], 0.05),
    }


@pytest.fixture
def services(monkeypatch):
    with Services(add_routes()) as found:
        for name in ("crossref", "datacite", "arxiv", "pubmed", "openlibrary"):
            monkeypatch.setenv(f"SCHOLARSITE_{name.upper()}_URL", f"{found.url}/{name}")
        monkeypatch.setenv("SCHOLARSITE_ALLOW_LOOPBACK", "1")
        yield found


def body_of(path: Path) -> str:
    return path.read_text("utf-8").split("---\n", 2)[2]


def files_of(content: Path) -> dict[str, bytes]:
    return {p.relative_to(content).as_posix(): p.read_bytes()
            for p in sorted(content.rglob("*")) if p.is_file()}


FIFTY = [f"Given{n} Family{n}" for n in range(1, 37)] + ["Ada Example"] + [
    f"Given{n} Family{n}" for n in range(38, 50)] + ["The Example Collaboration"]


def test_add_writes_whole_answers_as_papers_that_build(services, tmp_path):
    content = write_files(tmp_path / "content", {"site.yaml": OWNER})
    result = run_cli("add", "--content", str(content), NATURE, HOSTILE, SOFTWARE,
                     f"arXiv:{ARXIV}", f"pmid:{PMID}", ISBN)
    assert result.code == 0, result.err
    assert "6 papers added, 0 already in the site." in result.out
    papers = content / "publications"
    nature = read_front_matter(papers / "deep-learning-2015.md")  # no abstract, no open PDF
    assert nature == {"title": "Deep learning", "authors": ["Yann LeCun", "Yoshua Bengio",
                                                            "Geoffrey Hinton"],
                      "venue": "Nature", "date": "2015-05-27", "type": "journal",
                      "volume": "521", "number": "7553", "pages": "436–444",
                      "publisher": "Springer Science and Business Media LLC",
                      "links": {"doi": NATURE}}
    assert body_of(papers / "deep-learning-2015.md") == ""
    hostile = read_front_matter(papers / "sorting-fast-2024.md")
    assert hostile["title"] == "Sorting <i>Fast</i> in $O ( n )$ Space with " \
        "H<sub>2</sub>O-Cooled GPUs"  # its <scp> as text, its <script> gone
    assert hostile["authors"] == FIFTY and "you are author 37 of 50" in result.out
    assert (hostile["venue"], hostile["date"], hostile["pages"]) == (
        "ACM Transactions on Example Systems", "2024-10-02", "1–29")
    assert hostile["links"] == {"pdf": "https://dl.acm.org/doi/pdf/10.5555/12345678",
                                "doi": HOSTILE}  # CC BY: its PDF is open
    assert body_of(papers / "sorting-fast-2024.md") == (
        "\n**Background**\n\nSorting *n* keys takes $O(n \\log n)$ comparisons; water is "
        "H<sub>2</sub>O and 10<sup>6</sup> is a million.\n\n**Results**\n\nWe show "
        "**three** things:\n\n- it is fast;\n\n- it is &lt;b&gt;safe&lt;/b&gt; .\n")
    software = read_front_matter(papers / "examplekit-2023.md")
    assert software["title"] == "examplekit: tools for <i>examples</i> & tests"
    assert software["authors"] == ["Ada Example", "Bob Builder", "Example Lab"]
    assert (software["venue"], software["date"], software["links"]) == (
        "Zenodo", "2023-03-14", {"doi": SOFTWARE})
    assert body_of(papers / "examplekit-2023.md") == \
        "\nA toolkit for **examples**.\n\n- fast\n\n- small\n"
    attention = read_front_matter(papers / "attention-arxiv-2017.md")
    assert attention["authors"][0] == "Ashish Vaswani" and len(attention["authors"]) == 8
    assert attention["authors"][5] == "Aidan N. Gomez"
    assert (attention["venue"], attention["date"], attention["links"]) == (
        "arXiv preprint", "2017-06-12", {"pdf": f"https://arxiv.org/pdf/{ARXIV}",
                                         "arxiv": ARXIV})
    assert body_of(papers / "attention-arxiv-2017.md").startswith(
        "\nThe dominant sequence transduction models are based on complex recurrent or "
        "convolutional neural networks in an encoder-decoder configuration. The best")
    crispr = read_front_matter(papers / "programmable-science-2012.md")
    assert crispr["title"] == "A programmable dual-RNA-guided DNA endonuclease in adaptive " \
        "bacterial immunity"  # MEDLINE's closing period is not the title's
    assert crispr["authors"][4] == "Jennifer A Doudna" and len(crispr["authors"]) == 6
    assert (crispr["venue_short"], crispr["date"], crispr["volume"], crispr["pages"]) == (
        "Science", "2012-08-17", "337", "816–821")
    assert crispr["links"] == {"doi": "10.1126/science.1225829"}
    assert body_of(papers / "programmable-science-2012.md").startswith(
        "\nClustered regularly interspaced short palindromic repeats (CRISPR)/")
    book = read_front_matter(papers / "introduction-algorithms-2009.md")
    assert book["authors"] == ["Thomas H. Cormen", "Charles E. Leiserson",
                               "Ronald L. Rivest", "Clifford Stein"]
    assert (book["venue"], book["date"], book["isbn"]) == ("MIT Press", "2009", "9780262033848")

    assert run_cli(*build_args(content)).code == 0
    page = soup(content.parent / "site" / "publications" / "sorting-fast-2024" / "index.html")
    assert page.find("h1").find("math") is not None and "<strong>Ada Example</strong>" in \
        str(page)
    assert len(page.select(".abstract li")) == 2
    assert "onerror" not in str(page) and "alert(" not in str(page)


def test_hostile_answers_are_one_line_each_and_nothing_is_written(services, tmp_path,
                                                                  monkeypatch):
    monkeypatch.setenv("SCHOLARSITE_TIMEOUT", "0.5")  # the trickle takes a minute
    content = write_files(tmp_path / "content", {"site.yaml": OWNER})
    before = files_of(content)
    result = run_cli("add", "--content", str(content), NATURE, "10.5555/huge", "10.5555/slow",
                     "10.5555/malformed", "2501.00001", "2501.99999", "pmid:1", "pmid:99999999",
                     "978-0-262-03385-5")
    assert result.code == 1
    errors = [line.replace(services.url, "URL") for line in result.err.splitlines()]
    assert errors == [
        f"error: 10.5555/huge: Crossref: URL/crossref/works/10.5555/huge: the answer "
        f"({LIMIT + 1:,} bytes) is larger than the limit of {LIMIT:,} bytes",
        "error: 10.5555/slow: Crossref: URL/crossref/works/10.5555/slow: no answer within "
        "0.5 s (asked 2 times)",
        "error: 10.5555/malformed: Crossref: URL/crossref/works/10.5555/malformed: the answer "
        "is not JSON (Unterminated string starting at: line 1 column 78 (char 77))",
        "error: 2501.00001: arXiv's answer could not be read (the answer is not a whole Atom "
        "feed)",
        "error: 2501.99999: not known to arXiv",
        "error: pmid:1: PubMed's answer could not be read (the answer is not a whole "
        "PubmedArticleSet)",
        "error: pmid:99999999: not known to PubMed",
        "error: 978-0-262-03385-5: not known to Open Library",
        "Nothing was written: 8 problems."]
    assert files_of(content) == before  # not even the paper that could be had


UPDATE_SITE = OWNER + """\
sources:
  openalex: A5000000001
  inspire: A.Example.1
  arxiv: example_a_1
  pubmed: Example A[Author]
  crossref: 0000-0002-1825-0097
"""
SOURCE_FILES = ("openalex", "inspire", "arxiv", "pubmed", "crossref")


def update_routes() -> dict:
    return {
        "/openalex/works": fixture_answer("openalex-works-A5000000001.json"),
        "/inspire/literature": fixture_answer("inspire-literature-A.Example.1.json"),
        "/arxiv-author/example_a_1.atom2": fixture_answer("arxiv-author-example_a_1.atom2"),
        "/pubmed/esearch.fcgi": fixture_answer("pubmed-esearch-example.json"),
        "/pubmed/efetch.fcgi": fixture_answer("pubmed-efetch-example.xml"),
        "/crossref/works": fixture_answer("crossref-works-orcid.json"),
    }


@pytest.fixture
def sources(monkeypatch):
    with Services(update_routes()) as found:
        for name in ("openalex", "inspire", "arxiv-author", "pubmed", "crossref"):
            variable = name.upper().replace("-", "_")
            monkeypatch.setenv(f"SCHOLARSITE_{variable}_URL", f"{found.url}/{name}")
        monkeypatch.setenv("SCHOLARSITE_ALLOW_LOOPBACK", "1")
        yield found


def test_update_keeps_whole_answers_and_hostile_ones_fail_their_source_alone(
        sources, tmp_path, monkeypatch):
    content = write_files(tmp_path / "content", {"site.yaml": UPDATE_SITE})
    result = run_cli("update", "--content", str(content))
    assert result.code == 0, result.err
    assert "left out PMID:99000001 (already in publications/openalex.bib:5)" in result.out
    assert "left out DOI:10.1234/shared.2024.1 (already in publications/openalex.bib:5)" \
        in result.out and "left out arXiv:2401.01234 (already in publications/inspire.bib:5)" \
        in result.out  # one paper per DOI, PMID and arXiv id, in the first source's file
    papers = content / "publications"
    bib = {name: (papers / f"{name}.bib").read_text("utf-8") for name in SOURCE_FILES}
    assert "title = {<i>Leaf</i> growth under CO<sub>2</sub> \\& $\\sqrt{x}$ light}" \
        in bib["openalex"] and "alert" not in bib["openalex"]
    fifty = " and ".join(f"Family{n}, Given{n}" if n != 10 else "Example, Ada"
                         for n in range(1, 51))
    assert f"author = {{{fifty}}}" in bib["inspire"]
    assert "title = {Only on arXiv: $O(n)$ \\& Friends of Examples}" in bib["arxiv"]
    assert "title = {CO<sub>2</sub> uptake by <i>Arabidopsis</i> roots: is it <b>real</b>?}" \
        in bib["pubmed"] and "{Leaf and Root Study Group}" in bib["pubmed"]
    assert "title = {Roots in <i>Arabidopsis</i>: a JATS story}" in bib["crossref"]

    assert run_cli(*build_args(content)).code == 0
    site = content.parent / "site" / "publications"
    pages = {  # each paper's page at its title's address, as import-bib's files are
        "shared-paper-on-engines": ("Journal of Example Engineering", "10.1234/shared.2024.1"),
        "leaf-growth-under-co2-x-light": ("Proceedings of the Conference on Leaves",
                                          "10.1234/leaf.2023.7"),
        "search-for-dark-examples-at-s-13-tev": ("Phys.Rev.D", "10.1103/PhysRevD.109.012001"),
        "only-on-arxiv-o-n-friends-of-examples": ("arXiv", "2403.00012"),
        "co2-uptake-by-arabidopsis-roots-is-it-real": ("Journal of example biology", "2022"),
        "roots-in-arabidopsis-a-jats-story": ("Proceedings of the Example Symposium on Roots",
                                              "10.1234/roots.2022.3")}
    assert sorted(p.name for p in site.iterdir() if p.is_dir()) == sorted(pages)
    for slug, facts in pages.items():
        page = str(soup(site / slug / "index.html"))
        assert all(fact in page for fact in facts) and "alert(" not in page, slug
    physics = text_of(soup(site / "search-for-dark-examples-at-s-13-tev" / "index.html"))
    named = ", ".join(f"Given{n} Family{n}" if n != 10 else "Ada Example" for n in range(1, 51))
    assert named in physics.replace(" ,", ",")  # all 50, in order

    # Hostile answers: each fails its own source; its files stay as the last update left
    # them; the slow answer is cut off at the deadline and asked again.
    before = files_of(content)
    sources.routes.update({
        "/openalex/works": oversized(fixture_answer("openalex-works-A5000000001.json")[1],
                                     LIMIT + 1),
        "/inspire/literature": [trickle(b"{}" * 1000, 0.05),
                                fixture_answer("inspire-literature-A.Example.1.json")],
        "/pubmed/efetch.fcgi": fixture_answer("pubmed-efetch-malformed.xml"),
        "/crossref/works": fixture_answer("crossref-work-malformed.json")})
    monkeypatch.setenv("SCHOLARSITE_TIMEOUT", "0.5")
    result = run_cli("update", "--content", str(content))
    assert result.code == 1
    errors = [line.replace(sources.url, "URL") for line in result.err.splitlines()]
    assert errors[0].startswith("error: OpenAlex: URL/openalex/works?") and errors[0].endswith(
        f": the answer ({LIMIT + 1:,} bytes) is larger than the limit of {LIMIT:,} bytes")
    assert errors[1] == "error: PubMed: the answer is not a whole PubmedArticleSet"
    assert errors[2].startswith("error: Crossref: URL/crossref/works?") and errors[2].endswith(
        ": the answer is not JSON (Unterminated string starting at: line 1 column 78 (char 77))")
    assert len(errors) == 3 and "inspire.bib: 1 entries; changed: 0 added" in result.out
    assert "Traceback" not in result.err and files_of(content) == before
