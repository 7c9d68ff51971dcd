"""Imported papers read like hand-written ones: DBLP's and Google Scholar's exports
(tests/fixtures/dblp-scholar.bib, written as those services write them) built by the CLI,
each entry's venue line, badge and links read from the built list of publications."""

from __future__ import annotations

import shutil

from conftest import (MINIMAL_CONFIG, ROOT, build_args, read_download, run_cli, soup, text_of,
                      write_files)

FIXTURE = ROOT / "tests" / "fixtures" / "dblp-scholar.bib"


def read_entries(tmp_path) -> dict[str, dict]:
    content = write_files(tmp_path / "content", {"site.yaml": MINIMAL_CONFIG})
    (content / "publications").mkdir()
    shutil.copy(FIXTURE, content / "publications" / "papers.bib")
    result = run_cli(*build_args(content))
    assert result.code == 0 and "warning" not in result.err, result.err
    page = soup(tmp_path / "site" / "publications" / "index.html")
    return {li["id"]: {"venue": text_of(li.select_one(".paper-venue")),
                       "badge": [text_of(b) for b in li.select(".venue-badge")],
                       "links": [text_of(a) for a in li.select(".paper-links a")]}
            for li in page.select("li.paper")}


def test_imported_entries_show_a_clean_venue_a_badge_and_named_links(tmp_path):
    entries = read_entries(tmp_path)
    nsdi = entries["chenvp25"]
    assert nsdi["venue"] == ("22nd USENIX Symposium on Networked Systems Design and "
                             "Implementation (NSDI), 2025")  # no place, no dates, one year
    assert nsdi["badge"] == ["NSDI"] and "usenix.org" in nsdi["links"]
    assert "Link" not in nsdi["links"]
    eurosys = entries["chenz24"]
    assert eurosys["venue"] == ("Proceedings of the Nineteenth European Conference on "
                                "Computer Systems (EuroSys), 2024")
    assert eurosys["badge"] == ["EuroSys"]
    arxiv = entries["abs-2406-05678"]
    assert arxiv["venue"] == "arXiv:2406.05678, 2024" and "CoRR" not in arxiv["venue"]
    assert "arXiv" in arxiv["links"] and "doi.org" not in arxiv["links"]
    assert entries["chen2020thesis"]["venue"] == "Ph.D. thesis, Example University, 2020"
    scholar = entries["chen2023fast"]
    assert scholar["badge"] == ["USENIX ATC"]
    assert entries["wei2023sosp"]["badge"] == ["SOSP"]  # from the venue list alone


def test_a_patent_shows_its_publisher_as_where_it_appeared(tmp_path):
    # Google Scholar's export names the patent office or 'Google Patents' as the publisher.
    content = write_files(tmp_path / "content", {
        "site.yaml": MINIMAL_CONFIG,
        "publications/papers.bib": "@patent{drift, title = {Detecting Drift}, author = "
                                   "{Ada Example}, year = {2022}, number = {US20220083916A1}, "
                                   "publisher = {Google Patents}}\n"})
    result = run_cli(*build_args(content))
    assert result.code == 0 and "warning" not in result.err, result.err
    page = soup(tmp_path / "site" / "publications" / "index.html")
    assert text_of(page.select_one("li.paper .paper-venue")).startswith("Google Patents")
    # ... and its downloads name the publisher once, as its publisher, as before.
    bibtex = read_download(tmp_path / "site", "drift", ".bib")
    assert "publisher = {Google Patents}" in bibtex and bibtex.count("Google Patents") == 1
    ris = read_download(tmp_path / "site", "drift", ".ris")
    assert "PB  - Google Patents" in ris and ris.count("Google Patents") == 1
