"""`update`: papers from DBLP and ORCID and citation counts from OpenAlex or Semantic
Scholar, against a local HTTP server on 127.0.0.1 that answers in each service's format
(fixtures written here, of fictional people). No test reaches the internet."""

from __future__ import annotations

import html
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import bibtexparser
import pytest

from conftest import ROOT, build_args, read_download, run_cli
from fakeservices import NOT_FOUND, Services, endless, json_answer, trickle
from latexrun import HAVE_LATEX, compile_bib
from scholarsite.cli import main
from scholarsite.commands.fetch import FetchError, Fetcher, parse_retry_after
from scholarsite.commands.update import run_update

OWNER_EMAIL = "ada@example.org"
SITE = f"""\
title: Ada Example
url: https://example.org/
author:
  name: Ada Example
  email: {OWNER_EMAIL}
publications:
  group_by: year
sources:
  dblp: 00/0001
  orcid: 0000-0002-1825-0097
citations: openalex
"""
DOI_FAST = "10.1145/3600000.3600001"
DBLP_BIB = """\
@inproceedings{DBLP:conf/coe/ExampleB24,
  author       = {Ada Example 0001 and
                  Bob Builder},
  title        = {Fast Engines for Everyone},
  booktitle    = {Proceedings of the Conference on Examples, {CoE} 2024},
  pages        = {1--12},
  publisher    = {{ACM}},
  year         = {2024},
  url          = {https://doi.org/10.1145/3600000.3600001},
  doi          = {10.1145/3600000.3600001},
  timestamp    = {Mon, 01 Jul 2024 10:00:00 +0200},
  biburl       = {https://dblp.org/rec/conf/coe/ExampleB24.bib},
  bibsource    = {dblp computer science bibliography, https://dblp.org}
}

@article{DBLP:journals/corr/abs-2401-00001,
  author       = {Ada Example 0001 and
                  Carol Coder},
  title        = {Slow Engines Considered Harmful},
  journal      = {CoRR},
  volume       = {abs/2401.00001},
  year         = {2024},
  url          = {https://arxiv.org/abs/2401.00001},
  eprinttype   = {arXiv},
  eprint       = {2401.00001},
  timestamp    = {Tue, 02 Jan 2024 10:00:00 +0100},
  biburl       = {https://dblp.org/rec/journals/corr/abs-2401-00001.bib},
  bibsource    = {dblp computer science bibliography, https://dblp.org}
}

@inproceedings{DBLP:conf/coe/Example24,
  author       = {Ada Example 0001},
  title        = {A Paper},
  booktitle    = {Conference on Examples},
  year         = {2024},
  ee           = {https://example.org/a-paper.pdf},
  timestamp    = {Mon, 01 Jul 2024 10:00:00 +0200}
}
"""
ORCID_WORKS = {"group": [
    {"work-summary": [{"put-code": 101, "type": "conference-paper",
                       "title": {"title": {"value": "Fast Engines for Everyone"}},
                       "publication-date": {"year": {"value": "2024"}, "month": {"value": "07"}},
                       "external-ids": {"external-id": [
                           {"external-id-type": "doi", "external-id-value": DOI_FAST,
                            "external-id-relationship": "self"}]},
                       "journal-title": {"value": "Conference on Examples"}}]},
    {"work-summary": [{"put-code": 102, "type": "journal-article",
                       "title": {"title": {"value": "Engines & Ethics: 100% Safe_ish"}},
                       "publication-date": {"year": {"value": "2023"}, "month": None},
                       "external-ids": {"external-id": [
                           {"external-id-type": "doi", "external-id-value": "10.5555/eth.2023.1",
                            "external-id-relationship": "self"}]},
                       "journal-title": {"value": "Journal of Examples"}}]},
    {"work-summary": [{"put-code": 103, "type": "other",
                       "title": {"title": {"value": "A Work With No Date"}},
                       "publication-date": None}]},
]}
ORCID_BULK = {"bulk": [
    {"work": {"put-code": 102, "contributors": {"contributor": [
        {"credit-name": {"value": "Ada Example"},
         "contributor-attributes": {"contributor-role": "author"}},
        {"credit-name": {"value": "Dan Dev"}, "contributor-attributes": None}]}}},
    {"work": {"put-code": 101, "contributors": {"contributor": []}}},
]}
SLUG_FAST = "exampleb24"
SLUG_CORR = "abs-2401-00001"


def work(count: int, work_id: str, title: str = "", by_year: tuple = ()) -> dict:
    """An OpenAlex work; `by_year` its counts_by_year as (year, count), newest first."""
    return {"id": f"https://openalex.org/{work_id}", "cited_by_count": count,
            "title": title, "display_name": title,
            "counts_by_year": [{"year": y, "cited_by_count": n} for y, n in by_year]}


def default_routes() -> dict:
    """Each service's answers by path (a list: answered in turn, the last one kept)."""
    return {
        "/dblp/pid/00/0001.bib": (200, DBLP_BIB.encode(), {"Content-Type": "application/x-bibtex"}),
        "/orcid/0000-0002-1825-0097/works": json_answer(ORCID_WORKS),
        "/orcid/0000-0002-1825-0097/works/101,102,103": json_answer(ORCID_BULK),
        f"/openalex/works/doi:{DOI_FAST}": json_answer(work(12, "W1", by_year=((2025, 8),
                                                                                (2024, 4)))),
        "/openalex/works/doi:10.48550/arXiv.2401.00001": json_answer(work(3, "W2")),
        "/openalex/works/doi:10.5555/eth.2023.1": NOT_FOUND,
        "/openalex/works": json_answer({"results": [work(1, "W3", "Unrelated"),
                                                    work(5, "W4", "A paper")]}),
    }


@pytest.fixture
def services(monkeypatch):
    found = Services(default_routes())
    for name, variable in (("dblp", "SCHOLARSITE_DBLP_URL"), ("orcid", "SCHOLARSITE_ORCID_URL"),
                           ("openalex", "SCHOLARSITE_OPENALEX_URL"),
                           ("s2", "SCHOLARSITE_S2_URL")):
        monkeypatch.setenv(variable, f"{found.url}/{name}")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764720000")  # 2025-12-03
    yield found
    found.close()


@pytest.fixture
def site(make_site):
    return make_site({"site.yaml": SITE})


def update(content: Path, *extra: str) -> int:
    return main(["update", "--content", str(content), *extra])


def quick_update(content: Path, *extra: str, **fetcher) -> int:
    """update with a Fetcher that waits for nothing (its pauses are recorded in `waits`)."""
    import argparse

    args = argparse.Namespace(content=content, only=None, dry_run=False)
    for item in extra:
        args.only = item
    options = {"timeout": 2.0, "retries": 1, "backoff": 0.0, "sleep": lambda s: None, **fetcher}
    return run_update(args, Fetcher(OWNER_EMAIL, **options))


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


# --- The whole round: update, then build -------------------------------------------------

def test_update_then_build_shows_papers_and_badges(services, site, capsys):
    assert update(site) == 0
    out = capsys.readouterr().out
    dblp = read(site / "publications" / "dblp.bib")
    assert "DBLP:conf/coe/ExampleB24" in dblp and "author = {Ada Example and Bob Builder}" in dblp
    assert "timestamp" not in dblp and "biburl" not in dblp and "Example 0001" not in dblp
    assert "eprint = {2401.00001}" in dblp and "arxiv.org/abs" not in dblp  # once, as arXiv
    assert "url = {https://doi.org" not in dblp  # the DOI says it already
    # The DBLP copy of the Markdown paper is left out, and the report names it.
    assert "DBLP:conf/coe/Example24" not in dblp
    assert "left out DBLP:conf/coe/Example24 (already in publications/a-paper.md:1)" in out
    assert (site / "publications" / ".dblp.fetched.bib").is_file()
    orcid = read(site / "publications" / "orcid.bib")
    assert "ORCID:101" not in orcid  # DBLP has it (the same DOI)
    assert "title = {Engines \\& Ethics: 100\\% Safe\\_ish}" in orcid
    assert "author = {Ada Example and Dan Dev}" in orcid
    assert "ORCID work 103 is left out" in out
    counts = read(site / "citations.yaml")
    assert f'"{SLUG_FAST}":\n  count: 12\n  source: openalex\n  id: "W1"\n' \
           "  fetched: 2025-12-03\n  by_year: {2024: 4, 2025: 8}\n" in counts
    assert f'"{SLUG_CORR}":\n  count: 3' in counts and '"a-paper":\n  count: 5' in counts
    assert "engines-ethics-100-safe-ish: not known to openalex" in out
    assert all(f"mailto:{OWNER_EMAIL}" in agent for _, agent in services.seen)
    (site / "site.yaml").write_text(SITE + "citation_chart: home\n", "utf-8")
    assert main(build_args(site)) == 0
    html = read(site.parent / "site" / "publications" / "index.html")
    assert 'class="chip cite-count" href="https://openalex.org/works/W1"' in html
    assert ">12 citations</a>" in html and "<strong>Ada Example</strong>" in html
    page = read(site.parent / "site" / "publications" / SLUG_FAST / "index.html")
    assert "12 citations according to OpenAlex, as of 2025-12-03" in page
    assert '<desc id="paper-cites-desc">2024: 4, 2025: 8</desc>' in page  # the years kept
    home = read(site.parent / "site" / "index.html")
    assert "Cited 20 times, h-index 3" in home and "(OpenAlex, as of 2025-12-03)" in home
    assert '<desc id="site-cites-desc">2024: 4, 2025: 8. Total 20, h-index 3, ' \
           'i10-index 1.</desc>' in home


def test_a_second_update_changes_nothing(services, site):
    assert update(site) == 0
    before = {p: p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}
    times = {p: p.stat().st_mtime_ns for p in before}
    assert update(site) == 0
    assert {p: p.read_bytes() for p in before} == before
    assert {p: p.stat().st_mtime_ns for p in before} == times  # not even rewritten


def test_badges_only_when_citations_is_set(services, site):
    assert update(site) == 0
    (site / "site.yaml").write_text(SITE.replace("citations: openalex\n", ""), "utf-8")
    assert main(build_args(site)) == 0
    assert "cite-count" not in read(site.parent / "site" / "publications" / "index.html")


# --- Owner edits and upstream corrections --------------------------------------------------

def test_owner_edit_kept_and_upstream_correction_taken(services, site, capsys):
    assert update(site, "--only", "dblp") == 0
    bib = site / "publications" / "dblp.bib"
    bib.write_text(read(bib).replace("title = {Fast Engines for Everyone}",
                                     "title = {Fast Engines for Everyone (extended)}")
                   .replace("author = {Ada Example and Carol Coder}",
                            "author = {Ada Example and Carol Coder}, note = {Best paper}"),
                   "utf-8")
    corrected = DBLP_BIB.replace("pages        = {1--12}", "pages        = {1--14}") \
        .replace("Slow Engines Considered Harmful", "Slow Engines Considered Harmless")
    services.routes["/dblp/pid/00/0001.bib"] = (200, corrected.encode(), {})
    capsys.readouterr()
    assert update(site, "--only", "dblp") == 0
    text = read(bib)
    assert "title = {Fast Engines for Everyone (extended)}" in text  # the owner's
    assert "pages = {1--14}" in text  # upstream's correction of a field not edited
    assert "title = {Slow Engines Considered Harmless}" in text
    assert "note = {Best paper}" in text  # a field the owner added
    out = capsys.readouterr().out
    assert "kept your edit of DBLP:conf/coe/ExampleB24: title" in out
    assert "updated DBLP:journals/corr/abs-2401-00001" in out


def test_an_entry_the_owner_deleted_stays_deleted(services, site):
    assert update(site, "--only", "dblp") == 0
    bib = site / "publications" / "dblp.bib"
    text = read(bib)
    start = text.index("@article{DBLP:journals/corr")
    bib.write_text(text[:start] + text[text.index("}\n", text.index("eprinttype", start)) + 2:],
                   "utf-8")
    assert update(site, "--only", "dblp") == 0
    assert "corr" not in read(bib)


def test_a_bib_the_owner_broke_is_not_overwritten(services, site, capsys):
    assert update(site, "--only", "dblp") == 0
    bib = site / "publications" / "dblp.bib"
    bib.write_text(read(bib) + "\n@article{broken, title = {unclosed\n", "utf-8")
    before = read(bib)
    assert update(site, "--only", "dblp") == 1
    assert read(bib) == before
    assert "was not updated, so that nothing in it is lost" in capsys.readouterr().err


# --- The network ---------------------------------------------------------------------------

def test_429_with_retry_after_then_success(services):
    services.routes["/slow"] = [(429, b"", {"Retry-After": "1"}),
                                (503, b"", {}), (200, b"done", {})]
    waits: list[float] = []
    fetcher = Fetcher(OWNER_EMAIL, retries=3, backoff=0.25, sleep=waits.append)
    assert fetcher.fetch(f"{services.url}/slow") == b"done"
    assert waits == [1.0, 0.5] and fetcher.requests == 3  # Retry-After, then the backoff


def test_429_every_time_gives_up(services):
    services.routes["/busy"] = [(429, b"", {"Retry-After": "0"})]
    fetcher = Fetcher(OWNER_EMAIL, retries=2, sleep=lambda s: None)
    with pytest.raises(FetchError, match=r"HTTP 429 .*asked 3 times"):
        fetcher.fetch(f"{services.url}/busy")


def test_retry_after_as_a_date():
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT") == 0.0  # long past
    assert parse_retry_after("soon") is None and parse_retry_after("7") == 7.0


def test_a_timeout_fails_that_source_alone(services, site, capsys):
    def slowly():
        time.sleep(1.0)
        return (200, DBLP_BIB.encode(), {})

    services.routes["/dblp/pid/00/0001.bib"] = slowly
    assert quick_update(site, timeout=0.2) == 1
    captured = capsys.readouterr()
    assert "DBLP:" in captured.err and "no answer within 0.2 s (asked 2 times)" in captured.err
    assert not (site / "publications" / "dblp.bib").exists()
    assert (site / "publications" / "orcid.bib").is_file()  # the others still updated
    assert (site / "citations.yaml").is_file()


def test_offline_is_one_clear_line(services, site, monkeypatch, capsys):
    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        closed = f"http://127.0.0.1:{sock.getsockname()[1]}"
    for variable in ("SCHOLARSITE_DBLP_URL", "SCHOLARSITE_ORCID_URL", "SCHOLARSITE_OPENALEX_URL"):
        monkeypatch.setenv(variable, closed)
    assert update(site) == 1
    err = capsys.readouterr().err
    assert "error: DBLP: " in err and "is this machine offline?" in err
    assert "(1 of 1 papers not counted)" in err and len(err.splitlines()) == 3  # one a source
    assert "Traceback" not in err
    assert not any((site / name).exists() for name in ("publications/dblp.bib",
                                                       "publications/orcid.bib",
                                                       "citations.yaml"))


def test_malformed_answers(services, site, capsys):
    services.routes["/dblp/pid/00/0001.bib"] = (200, b"@inproceedings{cut, title = {Half", {})
    services.routes["/orcid/0000-0002-1825-0097/works"] = (200, b'{"group": [', {})
    services.routes[f"/openalex/works/doi:{DOI_FAST}"] = (200, b"<html>oops</html>", {})
    assert quick_update(site) == 1
    err = capsys.readouterr().err
    assert "DBLP: " in err and "could not be read" in err
    assert "ORCID: " in err and "not JSON" in err
    assert not (site / "publications" / "dblp.bib").exists()
    assert not (site / "publications" / "orcid.bib").exists()
    assert '"a-paper":\n  count: 5' in read(site / "citations.yaml")  # what succeeded


def test_a_failed_count_keeps_the_previous_one(services, site):
    assert quick_update(site) == 0
    services.routes[f"/openalex/works/doi:{DOI_FAST}"] = (500, b"", {})
    assert quick_update(site, "citations") == 1
    assert f'"{SLUG_FAST}":\n  count: 12' in read(site / "citations.yaml")


def test_a_paper_the_service_does_not_know(services, make_site, capsys):
    content = make_site({"site.yaml": SITE.replace("sources:\n  dblp: 00/0001\n  orcid: "
                                                   "0000-0002-1825-0097\n", "")})
    services.routes["/openalex/works"] = json_answer({"results": []})
    assert update(content) == 0
    assert "a-paper: not known to openalex" in capsys.readouterr().out
    assert "a-paper" not in read(content / "citations.yaml")


def test_semantic_scholar(services, make_site):
    content = make_site({"site.yaml": SITE.replace("citations: openalex",
                                                   "citations: semantic-scholar"),
                         "publications/b.bib": "@article{b, author = {Ada Example}, title = "
                         "{B Paper}, journal = {J}, year = {2024}, doi = {10.5555/b.1}}\n"})
    services.routes.update({
        "/s2/paper/DOI:10.5555/b.1": json_answer({"paperId": "abc123", "citationCount": 7}),
        "/s2/paper/search/match": json_answer({"data": [{"paperId": "def456", "title": "A paper",
                                                         "year": 2024, "citationCount": 2}]})})
    assert update(content, "--only", "citations") == 0
    counts = read(content / "citations.yaml")
    assert '"b":\n  count: 7\n  source: semantic-scholar\n  id: "abc123"' in counts
    assert '"a-paper":\n  count: 2' in counts
    assert main(build_args(content)) == 0
    html = read(content.parent / "site" / "publications" / "index.html")
    assert "https://www.semanticscholar.org/paper/abc123" in html


def test_dry_run_writes_nothing(services, site, capsys):
    assert update(site, "--dry-run") == 0
    out = capsys.readouterr().out
    assert "would change: 2 added" in out and "Nothing was written (--dry-run)" in out
    assert sorted(p.name for p in site.rglob("*")) == ["a-paper.md", "publications", "site.yaml"]


def test_build_never_imports_the_network_layer(site):
    code = ("import sys; from scholarsite.build import build; import scholarsite.cli; "
            "assert not [m for m in sys.modules if m.startswith('scholarsite.commands')], "
            "sorted(sys.modules)")
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


# --- What services send: bounded, checked, never followed elsewhere -----------------------

def test_a_trickling_answer_is_cut_off_at_the_deadline(services, site, monkeypatch):
    # One byte each 0.2 s: every read is quick, the answer takes minutes. The first
    # request is cut off after SCHOLARSITE_TIMEOUT in all; the second answers at once.
    monkeypatch.setenv("SCHOLARSITE_TIMEOUT", "1")
    services.routes["/dblp/pid/00/0001.bib"] = [trickle(DBLP_BIB.encode(), 0.2),
                                                (200, DBLP_BIB.encode(), {})]
    started = time.monotonic()
    result = run_cli("update", "--content", str(site), "--only", "dblp", timeout=60)
    assert time.monotonic() - started < 15
    assert result.code == 0, result.err
    assert "Update done: 2 requests." in result.out  # the cut-off one, then the next
    assert "DBLP:conf/coe/ExampleB24" in read(site / "publications" / "dblp.bib")


def test_an_endless_answer_is_refused(services, site, capsys):
    services.routes["/dblp/pid/00/0001.bib"] = endless(b"% " + b"x" * 65534, 80 * 2 ** 20)
    assert update(site, "--only", "dblp") == 1
    assert "is larger than the limit of 67,108,864 bytes" in capsys.readouterr().err
    assert not (site / "publications" / "dblp.bib").exists()


def test_deeply_nested_json_is_an_error_not_a_traceback(services, site):
    deep = b"[" * 100_000 + b"]" * 100_000
    services.routes["/orcid/0000-0002-1825-0097/works"] = (200, b'{"group": ' + deep + b"}", {})
    services.routes[f"/openalex/works/doi:{DOI_FAST}"] = (200, deep, {})
    result = run_cli("update", "--content", str(site), timeout=60)
    assert result.code == 1 and "Traceback" not in result.err
    assert "error: ORCID: " in result.err
    assert result.err.count("the answer is not JSON (it nests deeper than 64 levels)") == 2
    assert not (site / "publications" / "orcid.bib").exists()
    assert f'"{SLUG_FAST}"' not in read(site / "citations.yaml")  # the others counted


def test_a_bad_count_is_left_out_with_a_warning(services, site):
    services.routes[f"/openalex/works/doi:{DOI_FAST}"] = json_answer(work(-7, "W1"))
    services.routes["/openalex/works/doi:10.48550/arXiv.2401.00001"] = json_answer(
        {"id": "https://openalex.org/W2\u0000<script>", "cited_by_count": 3})
    assert update(site, "--only", "dblp") == 0  # the papers to count
    result = run_cli("update", "--content", str(site), "--only", "citations", timeout=60)
    assert result.code == 0, result.err
    assert f"warning: citations: {SLUG_FAST}: OpenAlex's answer is left out: " \
           "'cited_by_count' is -7, not a number of citations" in result.err
    assert f"warning: citations: {SLUG_CORR}: OpenAlex's answer is left out: 'id' is " \
           "'https://openalex.org/W2\\x00<script>', not an OpenAlex work" in result.err
    counts = read(site / "citations.yaml")
    assert "-7" not in counts and "script" not in counts and '"a-paper":\n  count: 5' in counts
    assert main(build_args(site)) == 0  # the next build reads what update wrote


FAKE_ENTRY = ("}\n}\n\n@inproceedings{fake2024, title = {A Fake Paper}, author = {Ada Example}, "
              "booktitle = {X}, year = {2025}, selected = {true}}\n@misc{rest, title = {")
HOSTILE_WORKS = {"group": [
    {"work-summary": [{"put-code": 104, "type": "journal-article",
                       "title": {"title": {"value": "Braces} , selected = {true"},
                                 "subtitle": {"value": FAKE_ENTRY}},
                       "publication-date": {"year": {"value": "2024"}},
                       "url": {"value": "https://evil.example/}, pdf = {https://evil.example/"
                                        "x.pdf}, selected = {true"},
                       "external-ids": {"external-id": [
                           {"external-id-type": "doi", "external-id-relationship": "self",
                            "external-id-value": "10.5555/ok}, selected = {true}, note = {x"},
                           {"external-id-type": "arxiv", "external-id-relationship": "self",
                            "external-id-value": "2401.00002}" + FAKE_ENTRY}]},
                       "journal-title": {"value": "J\\ournal \\\\}"}}]},
    {"work-summary": [{"put-code": "105}, selected = {true", "type": "book",
                       "title": {"title": {"value": "Key Injection"}},
                       "publication-date": {"year": {"value": "2024"}}}]},
    {"work-summary": [{"put-code": 106, "type": "book",
                       "title": {"title": {"value": "A Good Book -- 100% ''safe''"}},
                       "url": {"value": "https://example.org/book"},
                       "publication-date": {"year": {"value": "2023"}}}]},
]}


def test_orcid_text_cannot_add_fields_or_entries(services, make_site):
    content = make_site({"site.yaml": SITE.replace("  dblp: 00/0001\n", "")})
    services.routes["/orcid/0000-0002-1825-0097/works"] = json_answer(HOSTILE_WORKS)
    services.routes["/orcid/0000-0002-1825-0097/works/104,106"] = json_answer({"bulk": []})
    result = run_cli("update", "--content", str(content), "--only", "orcid", timeout=60)
    assert result.code == 0, result.err
    for what in ("the DOI '10.5555/ok}, selected", "the arXiv id '2401.00002}",
                 "the address 'https://evil.example/}"):
        assert f"warning: ORCID work 104: {what}" in result.err
    assert "ORCID: a work is left out: its put-code '105}, selected = {true' is not a " \
           "number" in result.err
    text = read(content / "publications" / "orcid.bib")
    library = bibtexparser.parse_string(text)  # a real consumer of the file
    assert not library.failed_blocks and len(library.blocks) == 3  # header, two entries
    entries = {entry.key: entry.fields_dict for entry in library.entries}
    assert sorted(entries) == ["ORCID:104", "ORCID:106"]
    assert sorted(entries["ORCID:104"]) == ["author", "journal", "title", "year"]
    assert sorted(entries["ORCID:106"]) == ["author", "title", "url", "year"]
    assert main(build_args(content)) == 0
    page = read(content.parent / "site" / "publications" / "index.html")
    assert "Braces} , selected = {true: } } @inproceedings{fake2024, title = {A Fake " \
           "Paper}" in html.unescape(page)  # one title, shown as the text it was
    assert "A Good Book -- 100% ''safe''" in html.unescape(page)
    assert not (content.parent / "site" / "publications" / "fake2024").exists()


def test_redirects_stay_on_the_service(services, site, capsys):
    elsewhere = Services({})  # another port: another server, which must not be asked
    try:
        services.routes["/dblp/pid/00/0001.bib"] = (301, b"", {"Location": "/dblp/pid/00/2.bib"})
        services.routes["/dblp/pid/00/2.bib"] = (200, DBLP_BIB.encode(), {})
        services.routes["/orcid/0000-0002-1825-0097/works"] = (
            302, b"", {"Location": f"{elsewhere.url}/orcid/0000-0002-1825-0097/works"})
        assert update(site, "--only", "dblp") == 0  # on the same server: followed
        assert "DBLP:conf/coe/ExampleB24" in read(site / "publications" / "dblp.bib")
        assert update(site, "--only", "orcid") == 1
        assert f"redirected to '{elsewhere.url}/orcid/0000-0002-1825-0097/works', away " \
               f"from {services.url}" in capsys.readouterr().err
        assert elsewhere.seen == []
    finally:
        elsewhere.close()


# --- Settings and citations.yaml -----------------------------------------------------------

@pytest.mark.parametrize("setting, message", [
    ("sources:\n  orcid: 0000-0002-1825-0098\n", "site.yaml:9: error: 'sources.orcid' is not"),
    ("sources:\n  dblp: not a pid\n", "site.yaml:9: error: 'sources.dblp' must be"),
    ("sources:\n  dlbp: 00/0001\n", "site.yaml:9: error: unknown setting 'sources.dlbp'; "
                                    "did you mean"),
    ("citations: google\n", "site.yaml:8: error: 'citations' must be one of openalex"),
])
def test_bad_settings_are_errors_at_their_line(make_site, capsys, setting, message):
    base = SITE[:SITE.index("sources:")]
    content = make_site({"site.yaml": base + setting})
    assert main(build_args(content)) == 1
    assert message in capsys.readouterr().err


def test_citations_yaml_is_checked_with_lines(make_site, capsys):
    content = make_site({"site.yaml": SITE, "citations.yaml": (
        '"a-paper":\n  count: 4\n  source: openalex\n  id: "W9"\n  fetched: 2025-12-01\n'
        '"gone":\n  count: 1\n  source: openalex\n  id: "W8"\n  fetched: 2025-12-01\n')})
    assert main(build_args(content)) == 0
    assert "citations.yaml:6: warning: citations for 'gone', which is no paper" \
        in capsys.readouterr().err
    (content / "citations.yaml").write_text(
        '"a-paper":\n  count: many\n  source: openalex\n  id: "W9"\n  fetched: 2025-12-01\n',
        "utf-8")
    assert main(build_args(content)) == 1
    assert "citations.yaml:2: error: 'a-paper.count' must be a whole number" \
        in capsys.readouterr().err


def test_count_summary_gives_the_total_and_the_h_index(services, site):
    from scholarsite.build import load_checked, BuildOptions
    from scholarsite.diagnostics import Diagnostics
    from scholarsite.views.views import count_summary

    assert update(site) == 0  # counts 12, 5 and 3, one paper not known
    loaded = load_checked(BuildOptions(site, site.parent / "site"), Diagnostics())
    assert count_summary(loaded.site) == {"total": 20, "h_index": 3, "i10_index": 1, "papers": 3,
                                     "as_of": "2025-12-03", "source": "OpenAlex",
                                          "chart_page": ""}


def test_the_cv_shows_the_total_and_the_h_index(services, site):
    assert update(site) == 0
    (site / "cv.yaml").write_text("positions:\n  - title: Professor\n    start: 2020\n", "utf-8")
    assert main(build_args(site)) == 0
    cv = read(site.parent / "site" / "cv" / "index.html")
    assert "Cited 20 times, h-index 3 <span>(OpenAlex, as of 2025-12-03)</span>" in cv
    [pdf] = (site.parent / "site" / "cv").glob("*-cv.pdf")
    if shutil.which("pdftotext"):
        text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True,
                              check=True).stdout
        assert "Cited 20 times, h-index 3 (OpenAlex, as of 2025-12-03)" in text



# A title as a service sends it, with what LaTeX reads as markup or ligatures: a caret,
# a bar (a dash in OT1), TeX's closing quote, a dash of hyphens, en and em dashes, a grave.
SPECIAL_TITLE = "x^2 | ''Quoted'' -- a – b — c `graves' and \"straight\" quotes"
SPECIAL_VENUE = "Journal of ^ and | -- –"


@pytest.mark.full(only=True)  # four LaTeX runs: CI's first step
@pytest.mark.skipif(not HAVE_LATEX, reason="pdflatex, bibtex or biber is missing")
def test_a_title_of_specials_compiles_and_reads_back(services, make_site, tmp_path):
    """What `update` writes, and the download of the Markdown paper `import-bib` makes of it,
    compile with pdflatex and bibtex, and with biber, and read back as the title sent."""
    content = make_site({"site.yaml": SITE.replace("  dblp: 00/0001\n", "")})
    works = {"group": [{"work-summary": [
        {"put-code": 107, "type": "journal-article", "title": {"title": {"value": SPECIAL_TITLE}},
         "publication-date": {"year": {"value": "2024"}},
         "journal-title": {"value": SPECIAL_VENUE}}]}]}
    services.routes["/orcid/0000-0002-1825-0097/works"] = json_answer(works)
    services.routes["/orcid/0000-0002-1825-0097/works/107"] = json_answer({"bulk": []})
    assert run_cli("update", "--content", str(content), "--only", "orcid").code == 0
    bib = content / "publications" / "orcid.bib"
    written = read(bib)
    md_site = tmp_path / "md"
    shutil.copytree(content, md_site, ignore=shutil.ignore_patterns("*.bib"))
    imported = run_cli("import-bib", str(bib), "--content", str(md_site))
    assert imported.code == 0, imported.err
    [markdown] = [path for path in (md_site / "publications").glob("*.md")
                  if "Quoted" in read(path)]
    for folder in (content, md_site):
        assert run_cli(*build_args(folder, tmp_path / f"site-{folder.name}")).code == 0
        page = html.unescape(read(tmp_path / f"site-{folder.name}" / "publications" /
                                  "index.html"))
        assert SPECIAL_TITLE in page and SPECIAL_VENUE in page
    download = read_download(tmp_path / "site-md", markdown.stem, ".bib")
    for name, text in (("update", written), ("download", download)):
        for style in ("plain", "biblatex"):
            result = compile_bib(text, style, tmp_path / f"{name}-{style}")
            assert result.errors == (), (name, style, result.errors)
            # What each style wrote: the caret a command, '--' two hyphens kept apart.
            written_out = " ".join(result.bbl.lower().split())
            assert r"x\^{}2" in written_out, written_out
            assert "quoted'{'} -{}- a -- b --- c" in written_out, written_out
