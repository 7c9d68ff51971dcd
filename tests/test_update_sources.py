"""`update` from OpenAlex, INSPIRE-HEP, arXiv, PubMed and Crossref, against the local
server of test_update.py answering in each service's documented format (small answers
written here, of fictional people and papers, hostile ones among them). One site, one
update and one build carry most cases, to keep the suite cheap."""

from __future__ import annotations

import pytest

from conftest import build_args
from scholarsite.cli import main
from fakeservices import Services, json_answer
from test_update import read, update

ORCID = "0000-0002-1825-0097"
SITE = f"""\
title: Ada Example
url: https://example.org/
author:
  name: Ada Example
  email: ada@example.org
publications:
  group_by: year
sources:
  openalex: A5000000001
  inspire: A.Example.1
  arxiv: example_a_1
  pubmed: Example A[Author]
  crossref: {ORCID}
"""
DOI_SHARED = "10.1234/shared.2024.1"  # OpenAlex and Crossref list it, PubMed its PMID
HTML_TITLE = ("<i>Leaf</i> growth <script>alert(1)</script> &amp; $\\input{/etc/passwd}$ "
              "under CO<sub>2</sub>")
FIFTY = [f"Author Number{n}" for n in range(1, 50)] + ["Ada Example"]


def openalex_work(work_id: str, title: str | None, year: int | None, **more) -> dict:
    return {"id": f"https://openalex.org/{work_id}", "title": title, "display_name": title,
            "publication_year": year, "publication_date": f"{year}-03-01" if year else None,
            "type": "article", "authorships": [
                {"author": {"display_name": name}} for name in more.pop("authors",
                                                                        ["Ada Example"])],
            "primary_location": {"source": {"display_name": "Journal of Example Engineering",
                                            "type": "journal"}},
            "biblio": {"volume": "7", "issue": "2", "first_page": "10", "last_page": "20"},
            "abstract_inverted_index": None, **more}


OPENALEX = {"meta": {"count": 5, "next_cursor": None}, "results": [
    openalex_work("W1", "Shared Paper on Engines", 2024, doi=f"https://doi.org/{DOI_SHARED}",
                  ids={"pmid": "https://pubmed.ncbi.nlm.nih.gov/31415926"}),
    openalex_work("W2", HTML_TITLE, 2023, authors=FIFTY, doi=None,
                  primary_location={"source": {"display_name": "Conference on Leaves",
                                               "type": "conference"}}),
    openalex_work("W3", None, 2022),
    openalex_work("W4", "A Work of No Date", None),
    openalex_work("W5", "Preprints Everywhere", 2024, type="preprint",
                  doi="https://doi.org/10.48550/arxiv.2401.00007",
                  primary_location={"source": {"display_name": "arXiv", "type": "repository"}}),
]}
INSPIRE = {"hits": {"total": 1, "hits": [{"id": "1234567", "metadata": {
    "control_number": 1234567, "titles": [{"title": "Dark Examples at $\\sqrt{s}=13$ TeV"}],
    "authors": [{"full_name": "Example, Ada"}, {"full_name": "Builder, Bob"}],
    "dois": [{"value": "10.1103/PhysRevD.109.012001"}],
    "arxiv_eprints": [{"value": "2402.00011", "categories": ["hep-ph"]}],
    "publication_info": [{"journal_title": "Phys.Rev.D", "journal_volume": "109",
                          "page_start": "012001", "year": 2024}],
    "document_type": ["article"], "earliest_date": "2024-01-15"}}]}}
ARXIV_AUTHOR_FEED = """<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom">
  <title>Ada Example's articles on arXiv</title>
  <entry><id>http://arxiv.org/abs/2401.00007v3</id><published>2024-01-02T00:00:00Z</published>
    <title>Preprints Everywhere</title><summary>Once.</summary>
    <author><name>Ada Example</name></author></entry>
  <entry><id>http://arxiv.org/abs/2403.00012v1</id><published>2024-03-05T00:00:00Z</published>
    <title>Only on arXiv: $O(n)$ &amp; Friends</title><summary>Twice.</summary>
    <author><name>Ada Example</name></author><author><name>Carol Coder</name></author></entry>
</feed>"""


def pubmed_article(pmid: str, title: str, doi: str) -> str:
    return f"""<PubmedArticle><MedlineCitation Status="MEDLINE" Owner="NLM">
<PMID Version="1">{pmid}</PMID><Article PubModel="Print">
<Journal><JournalIssue><Volume>12</Volume><PubDate><Year>2022</Year><Month>Mar</Month></PubDate>
</JournalIssue><Title>Journal of Example Biology</Title></Journal>
<ArticleTitle>{title}</ArticleTitle><Pagination><MedlinePgn>101-9</MedlinePgn></Pagination>
<AuthorList><Author><LastName>Example</LastName><ForeName>Ada</ForeName></Author>
<Author><CollectiveName>Leaf and Root Study Group</CollectiveName></Author></AuthorList>
</Article></MedlineCitation><PubmedData><ArticleIdList>
<ArticleId IdType="pubmed">{pmid}</ArticleId><ArticleId IdType="doi">{doi}</ArticleId>
</ArticleIdList></PubmedData></PubmedArticle>"""


PUBMED_XML = ('<?xml version="1.0" ?>\n<!DOCTYPE PubmedArticleSet PUBLIC "-//NLM//DTD '
              'PubMedArticle, 1st January 2024//EN" "x.dtd">\n<PubmedArticleSet>'
              + pubmed_article("31415926", "Shared Paper on Engines.", "")  # its PMID alone
              + pubmed_article("27182818", "CO<sub>2</sub> and roots.", "10.1000/roots.1")
              + "</PubmedArticleSet>")
CROSSREF = {"status": "ok", "message-type": "work-list", "message": {
    "total-results": 3, "next-cursor": "AoE", "items": [
        {"DOI": DOI_SHARED, "type": "journal-article", "title": ["Shared paper on engines"],
         "author": [{"given": "Ada", "family": "Example"}],
         "published": {"date-parts": [[2024, 3]]}},
        {"DOI": "10.1234/cr.only(1)", "type": "proceedings-article",
         "title": ["Crossref <b>Only</b>"], "author": [{"given": "Ada", "family": "Example"}],
         "container-title": ["Proceedings of Examples"], "published": {"date-parts": [[2021]]}},
        {"DOI": "10.1234/odd", "title": "not a list", "author": "nobody",
         "published": {"date-parts": "2020"}}]}}


def routes() -> dict:
    xml = {"Content-Type": "application/xml"}
    return {
        "/openalex/works": json_answer(OPENALEX),
        "/inspire/literature": json_answer(INSPIRE),
        "/arxiv-author/example_a_1.atom2": (200, ARXIV_AUTHOR_FEED.encode(), xml),
        "/pubmed/esearch.fcgi": json_answer({"esearchresult": {
            "count": "2", "idlist": ["31415926", "27182818", "<b>x</b>"]}}),
        "/pubmed/efetch.fcgi": (200, PUBMED_XML.encode(), xml),
        "/crossref/works": json_answer(CROSSREF),
    }


@pytest.fixture
def services(monkeypatch):
    found = Services(routes())
    for name in ("openalex", "inspire", "arxiv-author", "arxiv", "pubmed", "crossref"):
        variable = "ARXIV_AUTHOR" if name == "arxiv-author" else name.upper()
        monkeypatch.setenv(f"SCHOLARSITE_{variable}_URL", f"{found.url}/{name}")
    yield found
    found.close()


def test_every_source_is_written_once_and_builds(services, make_site, capsys):
    site = make_site({"site.yaml": SITE})
    assert update(site) == 0
    out, err = capsys.readouterr()
    papers = site / "publications"
    openalex = read(papers / "openalex.bib")
    assert "OpenAlex:W1" in openalex and f"doi = {{{DOI_SHARED}}}" in openalex
    assert "pmid = {31415926}" in openalex
    # HTML in a title: its emphasis as LaTeX, the rest as text; a formula that is not
    # plain math escaped, never run; 50 authors all named.
    assert "title = {<i>Leaf</i> growth" in openalex and "\\$\\textbackslash{}input" in openalex
    assert "Author Number49 and Ada Example}" in openalex
    assert "OpenAlex:W3" not in openalex and "OpenAlex:W4" not in openalex
    assert "OpenAlex: work 3 of the answer is left out (a work has no title)" in err
    assert "'A Work of No Date' is left out: it has no year" in err
    assert "OpenAlex:W5" in openalex and "eprint = {2401.00007}" in openalex
    inspire = read(papers / "inspire.bib")
    assert "@article{INSPIRE:1234567," in inspire and "author = {Example, Ada and Builder, " \
        "Bob}" in inspire and "$\\sqrt{s}=13$" in inspire and "eprint = {2402.00011}" in inspire
    arxiv = read(papers / "arxiv.bib")  # 2401.00007 is OpenAlex's already (the arXiv id)
    assert "arXiv:2403.00012" in arxiv and "arXiv:2401.00007" not in arxiv
    assert "left out arXiv:2401.00007 (already in publications/openalex.bib:" in out
    pubmed = read(papers / "pubmed.bib")  # the shared paper is OpenAlex's (by its PMID)
    assert "PMID:27182818" in pubmed and "PMID:31415926" not in pubmed
    assert "left out PMID:31415926 (already in publications/openalex.bib:" in out
    assert "{Leaf and Root Study Group}" in pubmed  # one group, not two people
    crossref = read(papers / "crossref.bib")
    assert "DOI:10.1234/cr.only-1-" in crossref and DOI_SHARED not in crossref
    assert f"left out DOI:{DOI_SHARED} (already in publications/openalex.bib:" in out
    assert "Crossref: 'not a list' is left out: it has no year" in err
    asked = services.paths()
    assert any("tool=scholarsite&email=ada@example.org" in path for path in asked)
    assert any("filter=orcid:" + ORCID in path and "mailto=ada@example.org" in path
               for path in asked)
    assert main(build_args(site)) == 0
    html = read(site.parent / "site" / "publications" / "index.html")
    assert html.count(">Shared Paper on Engines</a>") == 1
    assert "Shared paper on engines" not in html and "shared-paper-on-engines-2" not in html
    # Each paper's page at its title's address (as import-bib's files are), not at its
    # service's number for it ('openalex-w1', 'pmid-27182818').
    built = site / ".." / "site" / "publications"
    assert {"shared-paper-on-engines", "preprints-everywhere", "co2-and-roots",
            "crossref-only", "dark-examples-at-s-13-tev", "only-on-arxiv-o-n-friends",
            "leaf-growth-input-etc-passwd-under-co2", "a-paper"} == \
        {path.name for path in built.iterdir() if path.is_dir()}
    # The script is text, the formula that was not plain math shown as typed, not run.
    assert "<em>Leaf</em> growth &amp; $\\input{/etc/passwd}$ under CO<sub>2</sub>" in html
    assert "<script>alert" not in html
    for title in ("Dark Examples at <math>", "Only on arXiv: <math>", "CO<sub>2</sub> and",
                  "Crossref <strong>Only</strong>"):
        assert title in html, title
    before = {p: p.read_bytes() for p in papers.iterdir()}
    assert update(site) == 0  # the services say the same: no file changes
    assert {p: p.read_bytes() for p in papers.iterdir()} == before


def test_a_malformed_answer_fails_its_source_alone(services, make_site, capsys):
    site = make_site({"site.yaml": SITE, "publications/inspire.bib": "@misc{mine, title="
                      "{Mine}, author={Ada Example}, year={2020}}\n"})
    services.routes["/inspire/literature"] = json_answer({"hits": "busy"})
    services.routes["/openalex/works"] = (200, b"<html>Service Unavailable</html>", {})
    services.routes["/pubmed/efetch.fcgi"] = (200, b"<eFetchResult><ERROR>x</ERROR>", {})
    services.routes["/arxiv-author/example_a_1.atom2"] = (200, (
        "<feed><entry><id>http://arxiv.org/api/errors#x</id><title>Error</title>"
        "<summary>malformed id</summary></entry></feed>").encode(), {})
    services.routes["/crossref/works"] = json_answer({"message": {"items": []}})
    assert update(site) == 1
    err = capsys.readouterr().err
    assert "error: INSPIRE-HEP: " in err and "has no list of works (hits.hits)" in err
    assert "error: OpenAlex: " in err and "the answer is not JSON" in err
    assert "error: PubMed: the answer is not a whole PubmedArticleSet" in err
    assert "error: arXiv: arXiv answered with an error entry: check sources.arxiv" in err
    # No work at all (a mistyped id, a bad day) is no reason to empty a file.
    assert f"error: Crossref: no work could be read for sources.crossref ('{ORCID}')" in err
    assert "Traceback" not in err
    assert read(site / "publications" / "inspire.bib").startswith("@misc{mine,")
    assert not (site / "publications" / "openalex.bib").exists()


def test_bad_source_settings_are_errors_at_their_lines(make_site, capsys):
    bad = SITE.replace("A5000000001", "5000000001").replace("A.Example.1", "Ada Example") \
        .replace(f"crossref: {ORCID}", "crossref: 0000-0002-1825-0098")
    site = make_site({"site.yaml": bad + "  pubmed: " + "x" * 301 + "\n"})
    assert main(build_args(site)) == 1
    err = capsys.readouterr().err
    assert "site.yaml:9: error: 'sources.openalex' must be an OpenAlex author id" in err
    assert "site.yaml:10: error: 'sources.inspire' must be an INSPIRE author identifier" in err
    assert "site.yaml:13: error: 'sources.crossref' is not an ORCID iD" in err
