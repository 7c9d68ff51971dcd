"""Hostile or merely large inputs that once hung, crashed or dropped content (issue 44),
each through the real command line: every reader guarded by size and time, its problems
said as lines."""

from __future__ import annotations

import pytest
import yaml

from conftest import run_cli, write_files

INITIALS = " ".join(["A."] * 40)
# 40 initials then a miss ('a'): once two patterns tried every way of splitting the
# spaces between them, doubling the time with each initial.
AP_PAPER = """\
---
title: "Fast Widgets"
collection: publications
date: 2020-01-05
venue: 'Journal of Widgets'
citation: 'Doe, {initials} a, Roe, B. (2020). "Fast Widgets." <i>J. Widgets</i>.'
---
Widgets.
"""


@pytest.fixture
def initials_site(tmp_path):
    return write_files(tmp_path / "old", {
        "_publications/2020-01-05-fast.md": AP_PAPER.format(initials=INITIALS),
        "_publications/2020-01-06-loose.md": AP_PAPER.format(initials=INITIALS).replace(
            "citation: 'Doe, ", "citation: 'Doe ").replace("Fast Widgets", "Loose Widgets")})


def test_forty_initials_in_a_citation_migrate_in_no_time(tmp_path, initials_site):
    content = tmp_path / "content"
    result = run_cli("migrate", str(initials_site), "--content", str(content),
                     "--from", "academicpages", timeout=60)
    assert result.code == 0, result.out + result.err
    assert (content / "publications" / "fast.md").is_file()
    assert (content / "publications" / "loose.md").is_file()


def test_migrate_stops_at_its_deadline_with_one_line_and_writes_nothing(
        tmp_path, initials_site, monkeypatch):
    monkeypatch.setenv("SCHOLARSITE_MIGRATE_SECONDS", "0.001")
    content = tmp_path / "content"
    result = run_cli("migrate", str(initials_site), "--content", str(content),
                     "--from", "academicpages", timeout=60)
    assert result.code == 1
    assert "Traceback" not in result.err
    assert result.err.strip().splitlines() == [
        f"{initials_site.as_posix()}: error: migrate stopped: reading this site took over "
        "0.001 s (SCHOLARSITE_MIGRATE_SECONDS sets the limit); nothing was written. Please "
        "report it, with the site if you can."]
    assert not content.exists()


def test_a_data_list_items_doi_is_its_doi_link(tmp_path):
    """`doi` is in the documented default map; the item once was left behind ("unknown
    field 'doi'"), as a paper keeps its DOI among its links."""
    items = [{"title": f"Paper {n}", "authors": "Ada Lovelace, Bob Roe", "year": 2020,
              "venue": "Journal of Widgets", "doi": doi}
             for n, doi in enumerate(["10.1234/abc.def", "https://doi.org/10.1234/xyz",
                                      "doi:10.1234/q(1)"])]
    old = write_files(tmp_path / "old", {"_data/publications.yml": yaml.safe_dump(items)})
    content = tmp_path / "content"
    result = run_cli("migrate", str(old), "--content", str(content), timeout=60)
    assert result.code == 0, result.out + result.err
    assert "Left behind" not in result.out and "unknown field" not in result.out
    links = [yaml.safe_load((content / f"publications/paper-{n}.md").read_text(
        encoding="utf-8").split("---")[1])["links"] for n in range(3)]
    assert links == [{"doi": "10.1234/abc.def"}, {"doi": "10.1234/xyz"},
                     {"doi": "10.1234/q(1)"}]


def test_check_reads_any_owners_html_in_files_as_lines(make_site, monkeypatch):
    """Pages of the owner's in files/ are anybody's HTML: one that html.parser failed on
    (`<![` not a marked section: a bogus comment, as browsers read it), one it read in
    quadratic time (150 kB of '<a ', minutes once) and one it still would (unclosed
    comments: stopped at the deadline) are each read or named in one warning line; the
    site's own pages are still checked."""
    monkeypatch.setenv("SCHOLARSITE_CHECK_SECONDS", "2")
    content = make_site({
        "files/old/cdata.html": "<title>T</title>\nx <![ y ]> <a href='gone.html'>g</a>\n",
        "files/old/anchors.html": "<title>T</title><a href='gone.html'>g</a>\n"
                                  + "<a " * 50_000,
        "files/old/comments.html": "<title>T</title>" + "<!--x>" * 25_000 + "\n",
        "index.md": "---\ntitle: Home\n---\n[broken](/nowhere/)\n"})
    result = run_cli("check", "--content", str(content), timeout=120)
    assert "Traceback" not in result.err
    lines = [line for line in result.err.splitlines() if ": warning: " in line
             or ": error: " in line]
    owners = " (in a file published as it is from files/)"
    assert lines[0] == ("site/files/old/anchors.html:1: warning: broken link to 'gone.html': "
                        "there is no 'files/old/gone.html' in the site" + owners)
    assert lines[1] == ("site/files/old/cdata.html:2: warning: broken link to 'gone.html': "
                        "there is no 'files/old/gone.html' in the site" + owners)
    assert lines[2] == ("site/files/old/comments.html: warning: not checked: reading it "
                        "took over 2 s" + owners)
    assert lines[3].startswith("site/index.html:") and "'/nowhere/'" in lines[3]
    assert len(lines) == 4 and result.code == 1
