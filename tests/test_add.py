"""`add ID...`: a paper file from a DOI, an arXiv id or a PubMed id, through the CLI,
against a local server on 127.0.0.1 that answers as Crossref, DataCite, arXiv and PubMed
do (fakeservices.py; small answers written here in each service's documented format, of
fictional papers; test_service_answers.py has whole ones, kept as files).
No test reaches the internet."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import MINIMAL_CONFIG, build_args, paper, read_front_matter, run_cli, soup
from fakeservices import Services

DOI_CONF = "10.1145/3600000.3600002"  # Crossref, with a JATS abstract and math in its title
DOI_DATA = "10.5281/zenodo.1234"  # DataCite's alone
DOI_JOURNAL = "10.1145/3600000.3600003"  # where the arXiv preprint was published
DOI_KNOWN = "10.1145/3600000.3600001"  # the site has it already
ARXIV = "2402.00003"
PMID = "31415926"
ISBN = "978-0-262-03384-8"  # its check digit agrees
HOSTILE = "&lt;script&gt;alert(1)&lt;/script&gt; {: onclick=alert(1)} [x](javascript:alert(1))"

CROSSREF_CONF = {"status": "ok", "message-type": "work", "message": {
    "DOI": DOI_CONF, "type": "proceedings-article",
    "title": ['Fast <i>k</i>-NN in <mml:math xmlns:mml="http://www.w3.org/1998/Math/MathML">'
              "<mml:mrow><mml:msup><mml:mi>n</mml:mi><mml:mn>2</mml:mn></mml:msup>"
              "</mml:mrow></mml:math> Time on GPUs"],
    "author": [{"given": "A.", "family": "Example", "sequence": "first"},
               {"given": "Bob", "family": "Builder", "sequence": "additional"},
               {"name": "The Example Consortium", "sequence": "additional"}],
    "container-title": ["Proceedings of the 30th Symposium on Example Systems"],
    "event": {"name": "SES '24: Symposium on Example Systems", "acronym": "SES '24"},
    "published": {"date-parts": [[2024, 7, 9]]}, "page": "1-12", "publisher": "ACM",
    "abstract": "<jats:title>Abstract</jats:title><jats:p>We make <jats:italic>k</jats:italic>"
                "-NN fast on H<jats:sub>2</jats:sub>O: <jats:inline-formula><jats:tex-math>"
                "O(n \\log n) &lt; n^2</jats:tex-math></jats:inline-formula>. "
                f"{HOSTILE}</jats:p><jats:p># Not a heading</jats:p>",
    "license": [{"URL": "https://creativecommons.org/licenses/by/4.0/",
                 "content-version": "vor"}],
    "link": [{"URL": "https://dl.example.org/doi/pdf/10.1145/3600000.3600002",
              "content-type": "application/pdf", "content-version": "vor"}],
    "relation": {"has-preprint": [{"id-type": "doi", "id": "10.48550/arXiv.2401.00002"}]}}}
CROSSREF_JOURNAL = {"status": "ok", "message": {
    "DOI": DOI_JOURNAL, "type": "journal-article", "title": ["Slow Engines Considered Harmful"],
    "author": [{"given": "Carol", "family": "Coder"}, {"given": "Ada", "family": "Example"}],
    "container-title": ["Journal of Example Engineering"], "volume": "33", "issue": "11",
    "page": "2781-2793", "issued": {"date-parts": [[2024, 11]]}, "publisher": "IEEE"}}
DATACITE = {"data": {"id": DOI_DATA, "type": "dois", "attributes": {
    "doi": DOI_DATA, "titles": [{"title": "examplekit: Tools for Examples<img src=x "
                                          "onerror=alert(1)> &lt;img src=x onerror=alert(2)&gt;"}],
    "creators": [{"name": "Example, Ada", "nameType": "Personal", "givenName": "Ada",
                  "familyName": "Example"}, {"name": "Example Lab", "nameType": "Organizational"}],
    "publisher": "Zenodo", "publicationYear": 2023,
    "dates": [{"date": "2023-03-14", "dateType": "Issued"}],
    "types": {"resourceTypeGeneral": "Software"},
    "descriptions": [{"description": "<p>A toolkit for <b>examples</b>.</p>",
                      "descriptionType": "Abstract"}]}}}
ARXIV_FEED = f"""<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom">
  <title type="html">ArXiv Query: id_list={ARXIV}</title>
  <entry>
    <id>http://arxiv.org/abs/{ARXIV}v2</id>
    <published>2024-02-01T10:00:00Z</published>
    <title>Slow Engines Considered
  Harmful</title>
    <summary>  Engines are slow when $x_i$ grows.
  We show why.
</summary>
    <author><name>Carol Coder</name></author>
    <author><name>Ada Example</name></author>
    <arxiv:doi>{DOI_JOURNAL}</arxiv:doi>
    <link title="pdf" href="http://arxiv.org/pdf/{ARXIV}v2" rel="related"/>
  </entry>
</feed>"""
PUBMED_XML = f"""<?xml version="1.0" ?>
<!DOCTYPE PubmedArticleSet PUBLIC "-//NLM//DTD PubMedArticle, 1st January 2024//EN" "x.dtd">
<PubmedArticleSet><PubmedArticle><MedlineCitation Status="MEDLINE" Owner="NLM">
<PMID Version="1">{PMID}</PMID><Article PubModel="Print">
<Journal><JournalIssue CitedMedium="Internet"><Volume>12</Volume><Issue>3</Issue>
<PubDate><Year>2022</Year><Month>Mar</Month></PubDate></JournalIssue>
<Title>Journal of Example Biology</Title><ISOAbbreviation>J Ex Biol</ISOAbbreviation></Journal>
<ArticleTitle>CO<sub>2</sub> uptake in <i>E. exemplaris</i>.</ArticleTitle>
<Pagination><MedlinePgn>101-9</MedlinePgn></Pagination>
<Abstract><AbstractText Label="BACKGROUND">Leaves breathe.</AbstractText>
<AbstractText Label="RESULTS">They breathe &lt;b&gt;more&lt;/b&gt;.</AbstractText></Abstract>
<AuthorList><Author><LastName>Example</LastName><ForeName>Ada</ForeName></Author>
<Author><CollectiveName>Leaf Study Group</CollectiveName></Author></AuthorList>
</Article></MedlineCitation><PubmedData><ArticleIdList>
<ArticleId IdType="pubmed">{PMID}</ArticleId><ArticleId IdType="doi">10.1000/jeb.2022.7</ArticleId>
</ArticleIdList></PubmedData></PubmedArticle></PubmedArticleSet>"""

EDITION = {"title": "Introduction to Examples", "subtitle": "Third Edition",
           "publishers": ["The Example Press"], "publish_date": "July 31, 2009",
           "authors": [{"key": "/authors/OL1A"}, {"key": "/authors/OL2A"}],
           "works": [{"key": "/works/OL9W"}], "isbn_13": ["9780262033848"]}
WORK = {"title": "Introduction to Examples",
        "description": {"type": "/type/text", "value": "A book of *examples* <b>for all</b>."}}


def as_json(data: object, status: int = 200, headers: dict | None = None) -> tuple:
    return status, json.dumps(data).encode(), {"Content-Type": "application/json",
                                              **(headers or {})}


ROUTES = {
    f"/crossref/works/{DOI_CONF}": as_json(CROSSREF_CONF),
    f"/crossref/works/{DOI_JOURNAL}": as_json(CROSSREF_JOURNAL),
    f"/crossref/works/{DOI_KNOWN}": as_json({"message": {**CROSSREF_JOURNAL["message"],
                                                         "DOI": DOI_KNOWN}}),
    f"/datacite/dois/{DOI_DATA}": as_json(DATACITE),
    f"/arxiv/api/query?id_list={ARXIV}&max_results=1": (200, ARXIV_FEED.encode(), {}),
    f"/pubmed/efetch.fcgi?db=pubmed&id={PMID}&retmode=xml": (200, PUBMED_XML.encode(), {}),
    "/openlibrary/isbn/9780262033848.json": as_json(EDITION),
    "/openlibrary/works/OL9W.json": as_json(WORK),
    "/openlibrary/authors/OL1A.json": as_json({"name": "Ada  Example"}),
    "/openlibrary/authors/OL2A.json": as_json({"name": "Bob Builder"}),
    "/crossref/works/10.1145/bare": as_json({"message": {
        "title": ["A Title Alone"], "author": "nobody", "abstract": {"not": "text"},
        "published": {"date-parts": [["2024"]]}, "link": {"URL": "javascript:alert(1)"}}}),
    "/crossref/works/10.1145/html": (200, b"<html>Service Unavailable</html>", {}),
    "/crossref/works/10.1145/busy": as_json({"message": "slow down"}, 429,
                                            {"Retry-After": "0"}),
}


@pytest.fixture(scope="module")
def server():
    with Services(ROUTES) as found:
        yield found.url


@pytest.fixture
def services(server, monkeypatch):
    for name in ("crossref", "datacite", "arxiv", "pubmed", "openlibrary"):
        monkeypatch.setenv(f"SCHOLARSITE_{name.upper()}_URL", f"{server}/{name}")
    monkeypatch.setenv("SCHOLARSITE_ALLOW_LOOPBACK", "1")


@pytest.fixture
def site(make_site):
    known = paper("Engines", extra=f"links:\n  doi: {DOI_KNOWN}\n")
    return make_site({"site.yaml": MINIMAL_CONFIG, "publications/a-paper.md": None,
                      "publications/engines-coe-2024.md": known})


def files_of(content: Path) -> dict[str, bytes]:
    return {p.relative_to(content).as_posix(): p.read_bytes()
            for p in sorted(content.rglob("*")) if p.is_file()}


def test_add_writes_each_kind_of_identifier_as_a_person_would(services, site):
    result = run_cli("add", "--content", str(site), f"https://doi.org/{DOI_CONF}", DOI_DATA,
                     f"https://arxiv.org/abs/{ARXIV}v1", f"pmid:{PMID}", f"ISBN {ISBN}")
    assert result.code == 0, result.err
    papers = site / "publications"
    conf = read_front_matter(papers / "fast-ses-2024.md")
    assert conf == {
        "title": "Fast <i>k</i>-NN in $n^2$ Time on GPUs",
        "authors": ["Ada Example", "Bob Builder", "The Example Consortium"],
        "venue": "Proceedings of the 30th Symposium on Example Systems", "venue_short": "SES",
        "date": "2024-07-09", "type": "conference", "pages": "1–12", "publisher": "ACM",
        "links": {"pdf": "https://dl.example.org/doi/pdf/10.1145/3600000.3600002",
                  "doi": DOI_CONF, "arxiv": "2401.00002"}}
    body = (papers / "fast-ses-2024.md").read_text("utf-8").split("---\n", 2)[2]
    assert "Abstract" not in body and r"*k*\-NN" in body and "H<sub>2</sub>O" in body
    assert r"$O(n \log n) \lt n^2$" in body and "\\# Not a heading" in body
    assert "you are author 1 of 3" in result.out
    data = read_front_matter(papers / "examplekit-2023.md")
    assert data["authors"] == ["Ada Example", "Example Lab"] and data["venue"] == "Zenodo"
    assert data["type"] == "other" and data["date"] == "2023-03-14"
    assert data["title"] == "examplekit: Tools for Examples <img src=x onerror=alert(2)>"
    # The preprint since published: one paper, the journal's, with both links.
    journal = read_front_matter(papers / "slow-engines-2024.md")
    assert journal["links"] == {"pdf": f"https://arxiv.org/pdf/{ARXIV}", "doi": DOI_JOURNAL,
                                "arxiv": ARXIV}
    assert journal["venue"] == "Journal of Example Engineering" and journal["volume"] == "33"
    assert "from Crossref and arXiv; you are author 2 of 2" in result.out
    assert "Engines are slow when $x_i$ grows. We show why." in \
        (papers / "slow-engines-2024.md").read_text("utf-8")
    pubmed = read_front_matter(papers / "co2-uptake-2022.md")
    assert pubmed["title"] == "CO<sub>2</sub> uptake in <i>E. exemplaris</i>"  # no period
    assert pubmed["venue_short"] == "J Ex Biol" and pubmed["pages"] == "101–9"
    assert pubmed["authors"] == ["Ada Example", "Leaf Study Group"]
    assert "**Background.** Leaves breathe." in (papers / "co2-uptake-2022.md").read_text("utf-8")
    book = read_front_matter(papers / "introduction-examples-2009.md")
    assert book == {"title": "Introduction to Examples: Third Edition",
                    "authors": ["Ada Example", "Bob Builder"], "venue": "The Example Press",
                    "date": "2009-07", "type": "book", "publisher": "The Example Press",
                    "isbn": "9780262033848"}
    assert r"A book of \*examples\* &lt;b&gt;for all&lt;/b&gt;." in \
        (papers / "introduction-examples-2009.md").read_text("utf-8")

    # The files build, every field where it belongs, no outside text made markup.
    assert run_cli(*build_args(site)).code == 0
    page = soup(site.parent / "site" / "publications" / "fast-ses-2024" / "index.html")
    assert page.find("h1").find("math") is not None and page.find("h1").find("em")
    assert "<strong>Ada Example</strong>" in str(page)
    abstract = str(page.find(class_="abstract") or page)
    assert "<em>k</em>" in abstract and "&lt;script&gt;alert(1)" in abstract
    assert all(script.get("type") == "application/ld+json"  # the text, as JSON-LD's
               for script in page.find_all("script", string=lambda s: s and "alert" in s))
    for built in sorted((site.parent / "site").rglob("*.html")):  # no page of any paper
        page = soup(built)  # holds an element or attribute a service's text made
        assert not page.select("[onclick], [onerror], img[src=x], a[href^=javascript]"), built


def test_add_refuses_what_the_site_has_and_dry_run_writes_nothing(services, site):
    before = files_of(site)
    result = run_cli("add", "--dry-run", "--content", str(site), DOI_KNOWN, DOI_CONF,
                     f"doi:{DOI_CONF}")
    assert result.code == 0, result.err
    assert f"{DOI_KNOWN}: already in the site (publications/engines-coe-2024.md:1)" in result.out
    assert "publications/fast-ses-2024.md (this run)" in result.out  # named twice: once
    assert "would write" in result.out and "title: Fast <i>k</i>-NN" in result.out
    assert files_of(site) == before


def test_unknown_ids_and_rate_limits_are_one_line_each_and_nothing_is_written(services, site):
    before = files_of(site)
    result = run_cli("add", "--content", str(site), DOI_CONF, "10.9999/unknown",
                     "10.1145/busy", "not-an-id", "10.1145/bare", "10.1145/html")
    assert result.code == 1
    errors = [line for line in result.err.splitlines() if line.startswith("error:")]
    assert errors[3].startswith("error: 10.1145/bare: Crossref's record is not a whole "
                                "paper: ") and "date" in errors[3]
    assert errors[4].startswith("error: 10.1145/html: Crossref: http://127.0.0.1:") \
        and errors[4].endswith("the answer is not JSON (Expecting value: line 1 column 1 "
                               "(char 0))")
    assert errors[:3] == [
        "error: 10.9999/unknown: not known to Crossref or DataCite",
        "error: 10.1145/busy: Crossref is limiting requests (HTTP 429 Too Many Requests "
        "(asked 2 times)); try again in a while",
        "error: not-an-id: not a DOI (10.1145/...), an arXiv id or address (2101.00001), an "
        "ISBN, a PubMed id (pmid:12345678), or an OpenReview or ACL Anthology address"]
    assert "Traceback" not in result.err
    assert files_of(site) == before
