"""Every paper's citation as reference managers read it: citation.js (which Zotero's and
Pandoc's CSL-JSON readers share the model of) reads each site's publications.bib,
publications.ris and publications.json, and each field is compared with what the paper's
page says (its Google Scholar tags); rispy reads the hard cases' RIS as Zotero's tags mean
it. Skipped where node or tests/node_modules lacks citation.js (`npm ci --prefix tests`)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from urllib.parse import parse_qs

import pytest
import rispy

from conftest import ROOT, read_download, soup

CITEJS = ROOT / "tests" / "citejs.js"
HAVE_CITEJS = bool(shutil.which("node")) and \
    (ROOT / "tests" / "node_modules" / "@citation-js" / "plugin-ris").is_dir()
needs_citejs = pytest.mark.skipif(not HAVE_CITEJS, reason="node and citation.js are needed "
                                  "(npm ci --prefix tests)")
FORMATS = {"bibtex": "publications.bib", "ris": "publications.ris", "csl": "publications.json"}
# What citation.js itself cannot read, whoever wrote the file: TeX logos in BibTeX
# (`{\TeX}nical` stays "\TeXnical", `\LaTeX\ Way` "\LaTeX\ Way"), LaTeX's caret and tilde
# (`\^{}`, `\~{}`: accents on nothing, "undefined̂"; Zotero reads them, not `\textasciicircum`
# or `\textasciitilde`); "and others" (a person named "others").
CITEJS_LIMITS = {("bibtex", "alvarez2021zola", "title"), ("bibtex", "2019gpu", "title"),
                 ("bibtex", "example2025:specials-preprint-2025", "title")}


def read_with_citejs(path: Path, form: str) -> list[dict]:
    out = subprocess.run(["node", str(CITEJS), str(path), form], capture_output=True,
                         text=True, encoding="utf-8", timeout=60, cwd=ROOT / "tests")
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def page_facts(site: Path) -> dict[str, dict]:
    """What each paper's page tells Google Scholar, by the citation key its BibTeX has."""
    facts = {}
    for page_path in sorted((site / "publications").glob("*/index.html")):
        page = soup(page_path)
        tags: dict[str, list[str]] = {}
        for meta in page.select("meta[name^=citation_]"):
            tags.setdefault(meta["name"], []).append(meta["content"])
        bib = read_download(site, page_path.parent.name, ".bib")
        key = re.match(r"@\w+\{([^,]+),", bib).group(1)
        facts[key] = tags
    return facts


def names(item: dict) -> list[str]:
    """'Family, Given' of each author citation.js read (its particles put back), as the
    page's citation_author tags write them; 'others' left out."""
    found = []
    for name in item.get("author", []):
        if "literal" in name:
            found.append(name["literal"])
            continue
        family = " ".join(p for p in (name.get("non-dropping-particle"), name["family"]) if p)
        if family == "others":
            continue
        found.append(", ".join(p for p in (family, name.get("given"), name.get("suffix")) if p))
    return found


def plain(text: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", "", text).split())


@needs_citejs
@pytest.mark.parametrize("form", FORMATS)
@pytest.mark.parametrize("name", ("example", "exportsite"))
def test_citejs_reads_every_paper_as_its_page_says(name, form, request):
    site = request.getfixturevalue(name)
    facts = page_facts(site)
    items = {item["id"]: item for item in read_with_citejs(site / FORMATS[form], form)}
    assert sorted(items) == sorted(facts)
    wrong = []
    for key, tags in facts.items():
        item = items[key]
        read = {"title": plain(item.get("title", "")), "author": names(item),
                "year": str(item["issued"]["date-parts"][0][0]),
                "doi": item.get("DOI", "")}
        expected = {"title": tags["citation_title"][0], "author": tags["citation_author"],
                    "year": tags["citation_publication_date"][0][:4],
                    "doi": tags.get("citation_doi", [""])[0]}
        wrong += [(key, field, read[field], expected[field]) for field in read
                  if read[field] != expected[field] and (form, key, field) not in CITEJS_LIMITS]
    assert wrong == []


@needs_citejs
def test_csl_json_keeps_types_pages_and_numbers(exportsite):
    items = {i["id"]: i for i in read_with_citejs(exportsite / "publications.json", "csl")}
    assert {key: item["type"] for key, item in items.items()} == {
        "example2026:resihp-hpdc-2026": "paper-conference", "example2025:specials-preprint-2025": "article",
        "alvarez2024:scheduling-chapter-2024": "chapter", "example2023:systems-book-2023": "book",
        "example2022:report-2022": "report", "alvarez2021zola": "article-journal",
        "example2020:thesis-2020": "thesis", "2019gpu": "paper-conference",
        "kaiser2018attention": "chapter", "petrova2024:repair-bound-2024": "paper-conference",
        "osei2024:gossip-preprint-2024": "article", "anon2019:consensus-thesis-2019": "thesis",
        "anon2023:other-note-2023": "document"}
    assert items["example2026:resihp-hpdc-2026"]["page"] == "10-1–10-20"
    assert items["example2022:report-2022"]["number"] == "TR-2022-07"
    assert items["example2025:specials-preprint-2025"]["number"] == "arXiv:2503.01234"
    assert items["example2025:specials-preprint-2025"]["issued"] == {"date-parts": [[2025, 3, 14]]}
    assert items["example2023:systems-book-2023"]["publisher"] == "MIT Press"
    assert "container-title" not in items["example2023:systems-book-2023"]
    assert items["example2020:thesis-2020"]["publisher"] == "University of Examples"
    # A venue only shown ('Ph.D. thesis, School', 'arXiv:ID') is no container; an arXiv id
    # is a preprint's number only (APA prints another's as "Article arXiv:...").
    assert items["osei2024:gossip-preprint-2024"]["number"] == "arXiv:2401.01234"
    assert "number" not in items["petrova2024:repair-bound-2024"]
    for key in ("osei2024:gossip-preprint-2024", "anon2019:consensus-thesis-2019", "example2025:specials-preprint-2025"):
        assert "container-title" not in items[key], key
    one = json.loads(read_download(exportsite, "report-2022", ".json"))
    assert one == [item for item in json.loads((exportsite / "publications.json").read_text(
        encoding="utf-8")) if item["id"] == "example2022:report-2022"]


def test_ris_tags_are_those_zotero_reads_for_each_type(exportsite):
    refs = {r["id"]: r for r in rispy.loads(
        (exportsite / "publications.ris").read_text(encoding="utf-8"))}
    resihp = refs["example2026:resihp-hpdc-2026"]
    assert resihp["authors"][1:4] == ["Zola, Émile", "Kaiser, Łukasz", "Smith, John, Jr."]
    # A conference's full name where Zotero reads the proceedings (C3), not the badge.
    assert resihp["custom3"] == resihp["secondary_title"] == (
        "The 35th International Symposium on High-Performance Parallel and Distributed "
        "Computing")
    assert (resihp["start_page"], resihp["end_page"]) == ("10-1", "10-20")
    # No J2 but on a journal: Zotero would save a conference's 'HPDC' as its proceedings.
    assert [key for key, ref in refs.items() if "alternate_title1" in ref] == []
    book = refs["example2023:systems-book-2023"]
    assert book["publisher"] == "MIT Press" and "secondary_title" not in book
    report = refs["example2022:report-2022"]
    assert report["issn"] == "TR-2022-07" and "number" not in report  # SN: reportNumber
    preprint = refs["example2025:specials-preprint-2025"]
    # Zotero's RIS translator reads UNPB as a journal article; MANSCPT is its manuscript.
    assert preprint["type_of_reference"] == "MANSCPT"
    assert preprint["type_of_work"] == "Preprint"
    assert preprint["note"] == "arXiv:2503.01234" and preprint["publisher"] == "arXiv"
    assert preprint["authors"][1:] == ["王, 小明", "de Lima, Ricardo", "Barnes and Noble, Inc."]
    assert preprint["title"].startswith("Costs ^ Benefits ~ Paths \\ and x² Bounds -- for")
    # Markdown's 'Family, Given' and 'John Smith Jr.'; no container for a display venue.
    assert refs["petrova2024:repair-bound-2024"]["authors"] == [
        "Petrova, Elena", "Smith, John, Jr.", "Ibáñez, Teresa", "Castell, M."]
    assert refs["anon2019:consensus-thesis-2019"]["authors"] == ["欧阳, 娜"]
    for key in ("osei2024:gossip-preprint-2024", "anon2019:consensus-thesis-2019"):
        assert "secondary_title" not in refs[key], key


def test_scholar_tags_follow_the_inclusion_guidelines(exportsite):
    facts = page_facts(exportsite)
    preprint = facts["example2025:specials-preprint-2025"]
    assert preprint["citation_publication_date"] == ["2025/03/14"]
    assert facts["example2026:resihp-hpdc-2026"]["citation_publication_date"] == ["2026"]
    assert facts["example2026:resihp-hpdc-2026"]["citation_author"][3] == "Smith, John, Jr."
    assert preprint["citation_author"][2:] == ["de Lima, Ricardo", "Barnes and Noble, Inc."]
    assert preprint["citation_arxiv_id"] == ["2503.01234"]
    assert facts["alvarez2024:scheduling-chapter-2024"]["citation_inbook_title"] == [
        "Handbook of Cloud Computing"]
    assert facts["example2020:thesis-2020"]["citation_dissertation_institution"] == [
        "University of Examples"]
    assert facts["petrova2024:repair-bound-2024"]["citation_author"] == [
        "Petrova, Elena", "Smith, John, Jr.", "Ibáñez, Teresa", "Castell, M."]
    assert facts["anon2019:consensus-thesis-2019"]["citation_author"] == ["欧阳, 娜"]


def test_preprints_are_typed_as_zotero_s_embedded_metadata_reads_them(exportsite):
    """Zotero's Embedded Metadata translator types a page by its Highwire tags (a journal's,
    a conference's, a book's, a thesis's or a report's institution), else by DC.type, else
    as a journal article: a preprint says DC.type, and its archive as its repository."""
    def tags(slug: str) -> dict[str, list[str]]:
        page = soup(exportsite / "publications" / slug / "index.html")
        found: dict[str, list[str]] = {}
        for meta in page.select("meta[name]"):
            found.setdefault(meta["name"], []).append(meta["content"])
        return found

    for slug in ("specials-preprint-2025", "gossip-preprint-2024"):
        assert tags(slug)["DC.type"] == ["preprint"], slug
        assert tags(slug)["citation_publisher"] == ["arXiv"], slug
    assert tags("report-2022")["DC.type"] == ["report"]
    assert "DC.type" not in tags("resihp-hpdc-2026")


def test_json_ld_names_and_containers(exportsite):
    """schema.org's parts of a 'Family, Given' name and a suffix; a thesis and a preprint
    are part of nothing (their venues, 'Ph.D. thesis, School' and 'arXiv:ID', are shown)."""
    def json_ld(slug: str) -> dict:
        page = soup(exportsite / "publications" / slug / "index.html")
        [data] = [json.loads(s.string) for s in page.select('script[type="application/ld+json"]')]
        return data

    authors = json_ld("repair-bound-2024")["author"]
    assert [(a["name"], a.get("familyName"), a.get("givenName"), a.get("honorificSuffix"))
            for a in authors[:2]] == [("Petrova, Elena", "Petrova", "Elena", None),
                                      ("John Smith Jr.", "Smith", "John", "Jr.")]
    for slug in ("gossip-preprint-2024", "consensus-thesis-2019", "specials-preprint-2025"):
        assert "isPartOf" not in json_ld(slug), slug
    # A corporate author is an Organization, its name whole; a one-word name a Person.
    assert json_ld("specials-preprint-2025")["author"][3] == {
        "@type": "Organization", "name": "Barnes and Noble, Inc."}
    assert json_ld("other-note-2023")["author"][0] == {"@type": "Person", "name": "乔林"}
    assert json_ld("repair-bound-2024")["isPartOf"]["name"] == "Symposium on Reliable Systems"


def test_bibtex_downloads_of_markdown_names_titles_and_theses(exportsite):
    """Markdown's 'Family, Given' and 'John Smith Jr.' as BibTeX names (no comma left at a
    name's end), a formula and one-letter capitals braced, a CJK family name's letters as
    escapes (alpha's labels take them whole), no `howpublished` of a thesis's venue."""
    bib = read_download(exportsite, "repair-bound-2024", ".bib")
    assert "author = {Petrova, Elena and Smith, Jr., John and Ib{\\'a}{\\~n}ez, Teresa and " \
        "Castell, M.}" in bib
    assert "title = {An {$O(1)$} Repair Bound for {C}\\# Services at Plan {B} Scale}" in bib
    thesis = read_download(exportsite, "consensus-thesis-2019", ".bib")
    assert "author = {{\\textrm{欧}}{\\textrm{阳}}, {\\textrm{娜}}}" in thesis
    assert "howpublished" not in thesis and "school = {University of Examples}" in thesis


def test_descriptions_are_the_readers_text(exportsite):
    """'et al.' ends a description's author list once; an abstract's code stays as written
    and its math reads as Unicode (the CV, feeds and RIS take the same text)."""
    def description(slug: str) -> str:
        page = soup(exportsite / "publications" / slug / "index.html")
        return page.find("meta", attrs={"name": "description"})["content"]

    assert description("report-2022") == "Ada Example, et al. Example Labs, September 2022."
    assert description("resihp-hpdc-2026") == \
        "We bound ∑ᵢ xᵢ² and report sum(requests) per GPU."
    ris = (exportsite / "publications.ris").read_text(encoding="utf-8")
    assert "AB  - We bound ∑ᵢ xᵢ² and report sum(requests) per GPU.\n" in ris


def test_tex_logos_and_italics_in_a_bibtex_title(exportsite):
    page = soup(exportsite / "publications" / "alvarez2021zola" / "index.html")
    assert str(page.h1) == "<h1>TeXnical Notes on <em>Arabidopsis thaliana</em> Growth</h1>"
    kinds = {json.loads(s.string)["@type"] for path in (exportsite / "publications").glob(
        "*/index.html") for s in soup(path).select('script[type="application/ld+json"]')}
    assert {"Book", "Chapter", "Thesis", "ScholarlyArticle"} <= kinds


def test_the_list_page_gives_each_paper_a_coins_span(exportsite):
    """Zotero's connector saves every paper of a list page from its COinS spans, as its
    OpenURL reader reads them: each paper's title under the key its format's item type
    takes for a title, the first author's aulast/aufirst and every author's au in order."""
    facts = page_facts(exportsite)
    spans = {}
    for entry in soup(exportsite / "publications" / "index.html").select("li.paper"):
        [span] = entry.select("span.Z3988")
        query = parse_qs(span["title"])
        spans[entry["id"]] = query
        assert query["ctx_ver"] == ["Z39.88-2004"]
    assert len(spans) == len(facts) == 13
    for slug, query in spans.items():  # a preprint's title was its journal's (rft.title)
        form = query["rft_val_fmt"][0].rsplit(":", 1)[1]
        genre = query.get("rft.genre", [""])[0]
        key = "rft.atitle" if form == "journal" or genre in ("proceeding", "bookitem") else \
            "rft.btitle" if form == "book" else "rft.title"
        assert key in query and "rft.aucorp" not in query, slug  # no organisation leads
    resihp = spans["resihp-hpdc-2026"]
    assert resihp["rft.atitle"] == facts["example2026:resihp-hpdc-2026"]["citation_title"]
    assert (resihp["rft.aulast"], resihp["rft.aufirst"]) == (["Example"], ["Ada"])
    assert resihp["rft.au"] == ["Example, Ada", "Zola, Émile", "Kaiser, Łukasz", "Smith, John, Jr."]
    assert resihp["rft_id"][0] == "info:doi/10.1145/3731569.3764838"
    assert (resihp["rft.spage"], resihp["rft.epage"]) == (["10-1"], ["10-20"])
    preprint = spans["specials-preprint-2025"]
    assert (preprint["rft.genre"], preprint["rft.atitle"]) == (
        ["preprint"], facts["example2025:specials-preprint-2025"]["citation_title"])
    assert preprint["rft.au"][1:] == ["王, 小明", "de Lima, Ricardo", "Barnes and Noble, Inc."]
    assert spans["repair-bound-2024"]["rft.au"] == [
        "Petrova, Elena", "Smith, John, Jr.", "Ibáñez, Teresa", "Castell, M."]
    # A one-word person's name is an author's, not an organisation's, and leads no pair.
    other = spans["other-note-2023"]
    assert (other["rft.genre"], other["rft.atitle"]) == (["unknown"], ["Notes on Fair Queues"])
    assert "rft.aulast" not in other and other["rft.au"] == ["乔林", "Wang, Weixun", "Wang, Wei"]
    assert spans["thesis-2020"]["rft.inst"] == ["University of Examples"]
    assert spans["systems-book-2023"]["rft.btitle"] == ["Operating Systems for Large Language Models"]
    assert spans["scheduling-chapter-2024"]["rft.isbn"] == ["978-3-031-12345-0"]


@needs_citejs
@pytest.mark.parametrize("form", FORMATS)
def test_books_and_chapters_carry_their_isbn_and_editors(exportsite, form):
    """A chapter's editors and ISBN, from front matter (`editors`, `isbn`) and from a .bib
    (`editor`, `isbn`), as citation.js reads each export; a book's ISBN."""
    items = {i["id"]: i for i in read_with_citejs(exportsite / FORMATS[form], form)}
    editors = [{"family": "Hopper", "given": "Grace"}, {"family": "de Lima", "given": "Ricardo"}]
    for key, isbn, book in (
            ("alvarez2024:scheduling-chapter-2024", "978-3-031-12345-0",
             "Handbook of Cloud Computing"),
            ("kaiser2018attention", "978-1-23456-789-7", "Advances in Sequence Learning")):
        item = items[key]
        assert [{"family": " ".join(p for p in (n.get("non-dropping-particle"), n["family"])
                                    if p), "given": n["given"]} for n in item["editor"]] \
            == editors, (form, key)
        assert (item["ISBN"], item["container-title"], item["type"]) == (isbn, book, "chapter")
    book = items["example2023:systems-book-2023"]
    assert book["ISBN"] == "978-0-262-04567-4"
    # A book by its authors: its (series) editor in RIS and CSL; in BibTeX, where every
    # classic style would refuse author and editor together, none.
    assert book.get("editor", []) == ([] if form == "bibtex" else
                                      [{"family": "Liskov", "given": "Barbara"}]), form


def test_isbn_and_editors_in_scholar_tags_ris_and_json_ld(exportsite):
    facts = page_facts(exportsite)
    for key in ("alvarez2024:scheduling-chapter-2024", "kaiser2018attention"):
        assert facts[key]["citation_editor"] == ["Hopper, Grace", "de Lima, Ricardo"]
    assert facts["alvarez2024:scheduling-chapter-2024"]["citation_isbn"] == ["978-3-031-12345-0"]
    assert facts["example2023:systems-book-2023"]["citation_isbn"] == ["978-0-262-04567-4"]
    refs = {r["id"]: r for r in rispy.loads(
        (exportsite / "publications.ris").read_text(encoding="utf-8"))}
    chapter = refs["alvarez2024:scheduling-chapter-2024"]
    # A2: a chapter's editors as Zotero reads them (A3 for a book's); SN: its ISBN.
    assert chapter["secondary_authors"] == ["Hopper, Grace", "de Lima, Ricardo"]
    assert chapter["issn"] == "978-3-031-12345-0"
    page = soup(exportsite / "publications" / "scheduling-chapter-2024" / "index.html")
    [data] = [json.loads(s.string) for s in page.select('script[type="application/ld+json"]')]
    assert data["isPartOf"]["@type"] == "Book" and data["isPartOf"]["isbn"] == \
        "978-3-031-12345-0"
    assert [e["name"] for e in data["isPartOf"]["editor"]] == ["Grace Hopper", "Ricardo de Lima"]
