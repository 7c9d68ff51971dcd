"""Hostile or merely large inputs that once hung, crashed or dropped content (issue 44),
each through the real command line: every reader guarded by size and time, its problems
said as lines."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from conftest import ROOT, build_args, paper, run_cli, tree_bytes, write_files

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
    # The bio's rooted link is told at its own line too (the text's), then at the page's.
    [bio] = [line for line in lines if "/content/index.md:4: warning:" in line]
    lines.remove(bio)
    owners = " (in a file published as it is from files/)"
    assert lines[0] == ("site/files/old/anchors.html:1: warning: broken link to 'gone.html': "
                        "there is no 'files/old/gone.html' in the site" + owners)
    assert lines[1] == ("site/files/old/cdata.html:2: warning: broken link to 'gone.html': "
                        "there is no 'files/old/gone.html' in the site" + owners)
    assert lines[2] == ("site/files/old/comments.html: warning: not checked: reading it "
                        "took over 2 s" + owners)
    assert lines[3].startswith("site/index.html:") and "'/nowhere/'" in lines[3]
    assert len(lines) == 4 and result.code == 1


# Each paper's page spends about 50 ms in this loop, so that a worker given pages to
# render (32 a task) is in the middle of them when it is killed.
SLOW_PAPER = "<!doctype html><title>{{ page.title }}</title>" \
             "{% for i in range(800000) %}{% endfor %}\n"


def children_of(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    with contextlib.suppress(OSError):
        return [int(p) for p in path.read_text().split()]
    return []


def cpu_seconds(pid: int) -> float:
    """User and system time of a process so far (/proc/PID/stat, fields 14 and 15)."""
    with contextlib.suppress(OSError, ValueError, IndexError):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return 0.0


# CPU seconds a worker has run when it is killed: past a spawned worker's start (it
# imports the package and unpickles the site first), inside its first task.
KILL_AFTER = {"fork": 0.5, "spawn": 1.0}


def build_killing_a_worker(args: list[str], method: str) -> subprocess.CompletedProcess | None:
    """The CLI's build, one of whose worker processes is sent SIGKILL (as the
    out-of-memory killer does) in the middle of its work; None when none ran long enough
    (on a busy machine a spawned worker may start when the work is nearly done)."""
    env = dict(os.environ, SCHOLARSITE_START_METHOD=method, PYTHONUTF8="1")
    proc = subprocess.Popen([sys.executable, str(ROOT / "build.py"), *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    killed = False
    while proc.poll() is None and not killed:
        for child in children_of(proc.pid):
            if cpu_seconds(child) >= KILL_AFTER[method]:
                os.kill(child, signal.SIGKILL)
                killed = True
        time.sleep(0.02)
    out, err = proc.communicate(timeout=120)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err) \
        if killed else None


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.full(only=True)  # slow and seldom moved: CI's first step runs it
def test_a_killed_worker_is_one_error_line_and_the_site_stays(make_site, tmp_path):
    content = make_site({f"publications/p{n}.md": paper(f"Paper {n}") for n in range(100)})
    site = tmp_path / "site"
    assert run_cli(*build_args(content, site)).code == 0
    templates = write_files(tmp_path / "slow", {"paper.html": SLOW_PAPER})
    args = build_args(content, site, "--jobs", "2", templates=templates)
    for method in ("fork", "spawn"):
        for _ in range(3):
            before = tree_bytes(site)
            result = build_killing_a_worker(args, method)
            if result is not None:
                break
        assert result is not None, f"no {method} worker ran long enough to be killed"
        assert result.returncode == 1
        assert result.stderr.splitlines() == [
            f"{site.as_posix()}: error: a worker process was killed (SIGKILL, as the system "
            "does when memory runs out) before it finished its share of the build; build "
            "again, or with --jobs 1 to use less memory; the previous site was left as it "
            "was"], method
        assert tree_bytes(site) == before


def test_a_site_with_1500_coauthors_builds_and_links_them(make_site, tmp_path):
    """Each author was once compared with every co-author, and the folded forms of their
    names were cached for 1,024 of them only: past that the cache was no use and a build
    of 300 papers went from 18 s (1,000 co-authors) to 216 s (1,500). Names still match
    as they did: an initial for a given name, and an initial two people share, unlinked."""
    names = [f"{given} {family}{n}" for n, (given, family) in enumerate(
        (g, f) for f in ("Lee", "Roe", "Kim", "Diaz", "Moss") for g in
        ("Ada", "Bob", "Cai", "Dee", "Eve", "Fay") * 50)]
    coauthors = "".join(f"- name: {name}\n  url: https://example.org/co/{n}\n"
                        for n, name in enumerate(names))
    coauthors += ("- name: Jia Chen\n  url: https://example.org/jia\n"
                  "- name: Jun Chen\n  url: https://example.org/jun\n")
    papers = {f"publications/p{p}.md": paper(f"Paper {p}", authors=", ".join(
        ["Ada Example", *(names[(p * 25 + k * 5) % 1500] for k in range(5))]))
        for p in range(60)}
    papers["publications/p60.md"] = paper("Paper 60", authors="Ada Example, B. Lee1, J. Chen")
    content = make_site({"coauthors.yaml": coauthors, **papers})
    result = run_cli(*build_args(content, tmp_path / "site"), timeout=60)
    assert result.code == 0, result.err
    page = (tmp_path / "site/publications/p0/index.html").read_text(encoding="utf-8")
    assert all(f'href="https://example.org/co/{k * 5}"' in page for k in range(5))
    page = (tmp_path / "site/publications/p60/index.html").read_text(encoding="utf-8")
    assert 'href="https://example.org/co/1">B. Lee1<' in page
    assert "example.org/jia" not in page and "example.org/jun" not in page


def export_keys(site: Path) -> list[list[str]]:
    """The keys of /publications.bib, the IDs of /publications.ris and the ids of
    /publications.json, each in its file's order."""
    bib = (site / "publications.bib").read_text(encoding="utf-8")
    ris = (site / "publications.ris").read_text(encoding="utf-8")
    csl = json.loads((site / "publications.json").read_text(encoding="utf-8"))
    return [re.findall(r"^@\w+\{([^,]+),", bib, re.M),
            re.findall(r"^ID  - (.+?)\r?$", ris, re.M), [item["id"] for item in csl]]


def test_made_citation_keys_are_unique_and_stay_when_a_paper_is_added(make_site, tmp_path):
    """Two papers of one first author and year whose titles begin with the same long
    word once had one key in all three exports; bibtex and biber drop or mix one."""
    content = make_site({"publications/a-paper.md": None,
                         "publications/fast-widgets.md": paper("Fast Widgets", "2024-05")})
    assert run_cli(*build_args(content, tmp_path / "one")).code == 0
    [alone] = export_keys(tmp_path / "one")[0]
    write_files(content, {"publications/fast-gadgets.md": paper("Fast Gadgets", "2024-03")})
    assert run_cli(*build_args(content, tmp_path / "two")).code == 0
    bib, ris, csl = export_keys(tmp_path / "two")
    assert len(set(bib)) == 2 and set(bib) == set(ris) == set(csl)
    assert alone in bib  # the first paper's key is what it was
