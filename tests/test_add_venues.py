"""`add` with OpenReview and ACL Anthology addresses, against whole answers in each
service's documented format (tests/fixtures/services/, README.md there) served by the
suite's one fake service through the CLI, that is through the one guarded request. One
run adds a paper of each kind (OpenReview's API 2, an older paper that only its API 1
serves, the Anthology's BibTeX); a second run gives every hostile answer at once."""

from __future__ import annotations

import pytest

from conftest import build_args, read_front_matter, run_cli, soup, write_files
from fakeservices import Services, fixture_answer
from test_service_answers import OWNER, body_of, files_of

VIT = "YicbFdNTTy"  # ICLR 2021, an API 1 venue
SORTING = "Ex4mPLe01x"  # fictional, ICLR 2025 (API 2)
ACL = "2020.acl-main.463"


def routes() -> dict:
    notes = "/openreview/notes?id={}"
    old_notes = "/openreview-v1/notes?id={}"
    missing = fixture_answer("openreview-notes-notfound.json", 404)
    return {
        notes.format(SORTING): fixture_answer(f"openreview-notes-{SORTING}.json"),
        notes.format(VIT): missing,  # API 2 does not serve API 1's venues
        old_notes.format(VIT): fixture_answer(f"openreview-v1-notes-{VIT}.json"),
        notes.format("NoSuchNote"): missing,
        old_notes.format("NoSuchNote"): fixture_answer("openreview-v1-notes-none.json"),
        notes.format("Trunc4ted1"): fixture_answer("openreview-notes-malformed.json"),
        notes.format("AnonSub001"): fixture_answer("openreview-notes-AnonSub001.json"),
        f"/acl/{ACL}.bib": fixture_answer(f"acl-{ACL}.bib"),
        "/acl/2023.acl-long.999.bib": fixture_answer("acl-malformed.bib"),
        "/acl/P99-9999.bib": fixture_answer("acl-notfound.html", 404),
    }


@pytest.fixture
def services(monkeypatch):
    with Services(routes()) as found:
        for name, variable in (("openreview", "OPENREVIEW"), ("openreview-v1", "OPENREVIEW_V1"),
                               ("acl", "ACL")):
            monkeypatch.setenv(f"SCHOLARSITE_{variable}_URL", f"{found.url}/{name}")
        monkeypatch.setenv("SCHOLARSITE_ALLOW_LOOPBACK", "1")
        yield found


def test_add_writes_openreview_and_anthology_papers_that_build(services, tmp_path):
    content = write_files(tmp_path / "content", {"site.yaml": OWNER})
    result = run_cli("add", "--content", str(content),
                     f"https://openreview.net/forum?id={SORTING}&referrer=%5BAuthor%20Console%5D",
                     f"https://openreview.net/pdf?id={VIT}", f"https://aclanthology.org/{ACL}/")
    assert result.code == 0, result.err
    assert "3 papers added, 0 already in the site." in result.out
    assert "(from OpenReview; you are author 1 of 3)" in result.out
    papers = content / "publications"
    assert read_front_matter(papers / "sorting-iclr-2025.md") == {
        "title": "Sorting in $O(n)$ Space on GPUs",
        "authors": ["Ada Example", "Bob Builder", "Chen Wei"],
        "venue": "The Thirteenth International Conference on Learning Representations",
        "venue_short": "ICLR", "date": "2025-01-23", "type": "conference",
        "links": {"pdf": f"https://openreview.net/pdf?id={SORTING}",
                  "url": f"https://openreview.net/forum?id={SORTING}"}}
    assert body_of(papers / "sorting-iclr-2025.md") == (
        "\nWe sort $n$ keys in $O(n)$ space.\n\nThe &lt;script&gt;alert(1)&lt;/script&gt; "
        "tag and \\*stars\\* stay text.\n")
    vit = read_front_matter(papers / "image-iclr-2021.md")
    assert vit == {
        "title": "An Image is Worth 16x16 Words: Transformers for Image Recognition at Scale",
        "authors": ["Alexey Dosovitskiy", "Lucas Beyer", "Alexander Kolesnikov",
                    "Dirk Weissenborn", "Xiaohua Zhai", "Thomas Unterthiner",
                    "Mostafa Dehghani", "Matthias Minderer", "Georg Heigold", "Sylvain Gelly",
                    "Jakob Uszkoreit", "Neil Houlsby"],
        "venue": "International Conference on Learning Representations",
        "venue_short": "ICLR", "date": "2021-01-12", "type": "conference",
        "links": {"pdf": f"https://openreview.net/pdf?id={VIT}",
                  "url": f"https://openreview.net/forum?id={VIT}"}}
    assert body_of(papers / "image-iclr-2021.md") == (
        "\nWhile the Transformer architecture has become the de-facto standard for natural "
        "language processing tasks, its applications to computer vision remain limited.\n")
    assert read_front_matter(papers / "climbing-acl-2020.md") == {
        "title": "Climbing towards NLU: On Meaning, Form, and Understanding in the Age of Data",
        "authors": ["Emily M. Bender", "Alexander Koller"],
        "venue": "Proceedings of the 58th Annual Meeting of the Association for "
                 "Computational Linguistics",
        "venue_short": "ACL", "date": "2020-07", "type": "conference", "pages": "5185–5198",
        "publisher": "Association for Computational Linguistics",
        "links": {"pdf": f"https://aclanthology.org/{ACL}.pdf", "doi": f"10.18653/v1/{ACL}",
                  "url": f"https://aclanthology.org/{ACL}/"}}
    assert body_of(papers / "climbing-acl-2020.md") == (
        "\nThe success of the large neural language models on many NLP tasks is exciting. "
        "However, we find that these successes sometimes lead to hype in which these models "
        "are being described as “understanding” language or capturing “meaning”. In this "
        "position paper, we argue that a system trained only on form has a priori no way to "
        "learn meaning.\n")
    assert services.paths() == [f"/openreview/notes?id={SORTING}", f"/openreview/notes?id={VIT}",
                                f"/openreview-v1/notes?id={VIT}", f"/acl/{ACL}.bib"]

    assert run_cli(*build_args(content)).code == 0
    page = soup(content.parent / "site" / "publications" / "sorting-iclr-2025" / "index.html")
    assert page.find("h1").find("math") is not None and "<strong>Ada Example</strong>" in \
        str(page)
    assert "alert(1)</script>" not in str(page)

    before = files_of(content)
    result = run_cli("add", "--content", str(content), f"https://openreview.net/forum?id={VIT}",
                     "https://openreview.net/forum?id=NoSuchNote",
                     "openreview.net/forum?id=Trunc4ted1",
                     "https://openreview.net/forum?id=AnonSub001",
                     "https://aclanthology.org/2023.acl-long.999.bib",
                     "https://www.aclweb.org/anthology/P99-9999.pdf",
                     "https://openreview.net/group?id=ICLR.cc/2025/Conference")
    assert result.code == 1
    assert f"https://openreview.net/forum?id={VIT}: already in the site " \
        "(publications/image-iclr-2021.md:1); not added" in result.out
    errors = [line.replace(services.url, "URL") for line in result.err.splitlines()]
    assert errors == [
        "error: https://openreview.net/forum?id=NoSuchNote: not known to OpenReview",
        "error: openreview.net/forum?id=Trunc4ted1: OpenReview: URL/openreview/notes?id="
        "Trunc4ted1: the answer is not JSON (Unterminated string starting at: line 1 "
        "column 64 (char 63))",
        "error: https://openreview.net/forum?id=AnonSub001: OpenReview's record is not a "
        "whole paper: 'authors' is empty; it is required",  # hidden while under review
        "error: https://aclanthology.org/2023.acl-long.999.bib: ACL Anthology's answer could "
        "not be read (the answer is not one BibTeX entry: entry 'example-2023-cut' could not "
        "be read: Unexpectedly reached end of file.)",
        "error: https://www.aclweb.org/anthology/P99-9999.pdf: not known to the ACL Anthology",
        "error: https://openreview.net/group?id=ICLR.cc/2025/Conference: not a DOI "
        "(10.1145/...), an arXiv id or address (2101.00001), an ISBN, a PubMed id "
        "(pmid:12345678), or an OpenReview or ACL Anthology address",
        "Nothing was written: 6 problems."]
    assert files_of(content) == before
