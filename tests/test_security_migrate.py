"""`migrate` and `update` read, parse and write through the build's own guarded path
(output/paths.py, reading/settings/yamlread.py): hostile or unlucky old sites and content folders,
through the real command line. Each test is a case that once went wrong (issue 32)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
import yaml

from conftest import build_args, paper, run_cli, soup, write_files
from fakeservices import Services
from test_update import SITE, default_routes

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="links and pipes as POSIX has them")
AP_PAPER = """\
---
title: "{title}"
collection: publications
date: 2020-01-05
venue: 'Journal of Widgets'
citation: 'Doe, J. (2020). "{title}." <i>J. Widgets</i>. 1(2).'
{extra}---
{body}
"""


def ap_paper(title: str, extra: str = "", body: str = "Widgets.") -> str:
    return AP_PAPER.format(title=title, extra=extra, body=body)


def migrate(old: Path, content: Path, *extra: str, timeout: float = 60):
    return run_cli("migrate", str(old), "--content", str(content), *extra, timeout=timeout)


def all_text(folder: Path) -> str:
    return "".join(p.read_text(encoding="utf-8", errors="replace")
                   for p in sorted(folder.rglob("*")) if p.is_file())


def no_traceback(result) -> None:
    assert "Traceback" not in result.err and "nothing was written" not in result.err


# --- 1. Targets resolved whole; never written outside the content folder ------------------

@posix_only
@pytest.mark.parametrize("kind", ["al-folio", "hugo-blox"])
def test_migrate_never_writes_outside_the_content_folder(tmp_path, kind):
    """A link in the old site (`l` -> a folder `depth` levels down) makes `l/../../..`
    the old site's own file, while the same path below content/files/ leaves the content
    folder: the target must be judged whole, not by its folder."""
    victim = write_files(tmp_path / "victim", {"authorized_keys": "ORIGINAL\n"})
    depth = 3 if kind == "al-folio" else 5  # how far below content/ the copy would land
    deep = "/".join("d" * n for n in range(1, depth + 1))
    evil = "l/" + "../" * depth + "victim/authorized_keys"
    files = {"victim/authorized_keys": "ssh-ed25519 ATTACKER\n", f"{deep}/.keep": ""}
    if kind == "al-folio":
        files["_projects/p.md"] = f"---\ntitle: P\nimg: {evil}\n---\nA project.\n"
        bundle = "."
    else:
        bundle = "content/publication/p"
        files[f"{bundle}/index.md"] = (
            f"---\ntitle: P\ndate: 2020-01-01\nauthors: [A B]\nurl_pdf: {evil}\n---\n"
            f'Text {{{{< figure src="{evil}" >}}}}\n')
    old = write_files(tmp_path / "old", files)
    (old / bundle / "l").symlink_to(old / deep)
    content = tmp_path / "content"
    result = migrate(old, content, "--from", kind)
    no_traceback(result)
    assert (victim / "authorized_keys").read_text() == "ORIGINAL\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["content", "old", "victim"]
    assert "/../victim/authorized_keys: the path leaves the folder" in result.out


# --- 2. Every read of the old site through one guarded reader -----------------------------

@posix_only
def test_links_out_of_the_old_site_are_never_read_and_the_note_stays(tmp_path):
    write_files(tmp_path / "outside", {
        "secret.md": ap_paper("CANARY PAPER", "date: 0000-00-00\n"),
        "talks/t.md": "---\ntitle: CANARY TALK\ndate: 2020-01-01\n---\nSecret.\n"})
    old = write_files(tmp_path / "old", {"_publications/2020-01-05-ok.md": ap_paper("Fine")})
    (old / "_publications/2020-01-06-x.md").symlink_to(tmp_path / "outside/secret.md")
    (old / "_talks").symlink_to(tmp_path / "outside/talks")
    content = tmp_path / "content"
    result = migrate(old, content, "--from", "academicpages")
    assert result.code == 0, result.out + result.err
    assert "CANARY" not in all_text(content)
    assert "_publications/2020-01-06-x.md: a link to a file outside the old site; not read" \
        in result.out
    assert "_talks/t.md: a link to a file outside the old site; not read" in result.out
    built = run_cli(*build_args(content, tmp_path / "site"))
    assert built.code == 0 and "CANARY" not in all_text(tmp_path / "site")


# --- 4. Text the old site showed as text stays text ---------------------------------------

XSS = "&lt;img src=x onerror=alert(1)&gt; &lt;script&gt;alert(2)&lt;/script&gt;"


@pytest.mark.parametrize("kind", ["academicpages", "hugo-blox"])
def test_an_excerpt_or_summary_is_never_made_html(tmp_path, kind):
    if kind == "academicpages":
        files = {"_publications/2020-01-05-x.md": ap_paper("XSS", f"excerpt: '{XSS}'\n", "")}
    else:
        files = {"content/publication/x/index.md": "---\ntitle: XSS\ndate: 2020-01-01\n"
                 f"authors: [A B]\npublication: J\nsummary: '{XSS}'\n---\n"}
    old = write_files(tmp_path / "old", files)
    content = tmp_path / "content"
    result = migrate(old, content, "--from", kind)
    assert result.code == 0, result.out + result.err
    built = run_cli(*build_args(content, tmp_path / "site"))
    assert built.code == 0, built.err
    page = next((tmp_path / "site" / "publications").glob("*/index.html"))
    raw = page.read_text(encoding="utf-8")
    assert "<img src=x" not in raw and "<script>alert" not in raw
    assert not soup(page).find("img", onerror=True)
    shown = soup(page).select_one(".abstract").get_text()
    assert "<img src=x onerror=alert(1)> <script>alert(2)</script>" in shown


# --- 6. Regular files only ----------------------------------------------------------------

@posix_only
@pytest.mark.parametrize("how", ["fifo", "fifo-detected", "dev-zero"])
def test_a_pipe_or_device_as_config_never_hangs_migrate(tmp_path, how):
    old = write_files(tmp_path / "old", {"_publications/2020-01-05-x.md": ap_paper("Fine")})
    if how == "dev-zero":
        (old / "_config.yml").symlink_to("/dev/zero")
    else:
        os.mkfifo(old / "_config.yml")
    extra = () if how == "fifo-detected" else ("--from", "academicpages")
    result = migrate(old, tmp_path / "content", *extra, timeout=60)
    no_traceback(result)
    assert (tmp_path / "content/publications/x.md").is_file()
    said = "a link to a file outside the old site" if how == "dev-zero" else \
        "this is not a regular file"
    assert f"_config.yml: {said}" in result.out


@posix_only
def test_a_pipe_as_a_bib_file_never_hangs_update(update_site):
    os.mkfifo(update_site / "publications" / "dblp.bib")
    result = run_cli("update", "--content", str(update_site), "--only", "dblp", timeout=60)
    assert result.code == 1
    assert "dblp.bib" in result.err and "not a regular file" in result.err


# --- 7. One YAML reader, with the build's guards ------------------------------------------

BOMB = "".join(f"b{i}: &b{i} [{', '.join([f'*b{i - 1}'] * 9)}]\n" for i in range(1, 8))


def test_yaml_bombs_and_deep_nesting_leave_one_file_behind(tmp_path):
    old = write_files(tmp_path / "old", {
        "_config.yml": "b0: &b0 lol\n" + BOMB + "title: *b7\n",
        "_publications/2020-01-05-bomb.md": ap_paper("Bomb", "b0: &b0 lol\n" + BOMB
                                                     + "authors: *b7\n"),
        "_publications/2020-01-05-deep.md": ap_paper("Deep", "x: " + "[" * 5000 + "\n"),
        "_publications/2020-01-05-fine.md": ap_paper("Fine")})
    content = tmp_path / "content"
    result = migrate(old, content, "--from", "academicpages", timeout=60)
    no_traceback(result)
    assert (content / "publications/fine.md").is_file()
    assert not (content / "publications/bomb.md").exists()
    assert not (content / "publications/deep.md").exists()
    assert "_publications/2020-01-05-bomb.md:" in result.out and "alias" in result.out
    assert "_publications/2020-01-05-deep.md:" in result.out
    assert "_config.yml:" in result.out
    assert len((content / "site.yaml").read_text(encoding="utf-8")) < 10_000


# --- 10. update refuses what build refuses ------------------------------------------------

@pytest.fixture
def update_site(tmp_path, monkeypatch):
    """A content folder for `update`, and the fake services (test_update.py) on 127.0.0.1."""
    services = Services(default_routes())
    for name, variable in (("dblp", "SCHOLARSITE_DBLP_URL"), ("orcid", "SCHOLARSITE_ORCID_URL"),
                           ("openalex", "SCHOLARSITE_OPENALEX_URL")):
        monkeypatch.setenv(variable, f"{services.url}/{name}")
    yield write_files(tmp_path / "content", {"site.yaml": SITE,
                                             "publications/a-paper.md": paper()})
    services.close()


@posix_only
def test_update_never_follows_a_bib_file_linked_out_of_the_content(tmp_path, update_site):
    outside = tmp_path / "outside.bib"
    outside.write_text("@misc{secret, title={Outside Secret}, author={Eve}, year={2020}}\n",
                       encoding="utf-8")
    link = update_site / "publications" / "dblp.bib"
    link.symlink_to(outside)
    result = run_cli("update", "--content", str(update_site), "--only", "dblp")
    assert result.code == 1
    assert link.is_symlink() and "dblp.bib" in result.err and "link" in result.err
    assert not any("Outside Secret" in p.read_text(encoding="utf-8")
                   for p in update_site.rglob("*") if p.is_file() and not p.is_symlink())
    assert outside.read_text(encoding="utf-8").startswith("@misc{secret")
    assert "DBLP" not in outside.read_text(encoding="utf-8")


# --- 14. A content file over the documented size ------------------------------------------

def test_a_huge_content_file_is_an_error_at_it(tmp_path, make_site):
    huge = paper(abstract="word " * (9 * 1024 * 1024 // 5))
    content = make_site({"publications/huge.md": huge})
    built = run_cli(*build_args(content, tmp_path / "site"))
    assert built.code == 1 and "Traceback" not in built.err
    assert "huge.md: error: the file is over 8 MB" in built.err
    old = write_files(tmp_path / "old", {"_publications/2020-01-05-huge.md": ap_paper(
        "Huge", body="word " * (9 * 1024 * 1024 // 5)),
        "_publications/2020-01-05-fine.md": ap_paper("Fine")})
    result = migrate(old, tmp_path / "moved", "--from", "academicpages")
    assert "_publications/2020-01-05-huge.md: the file is over 8 MB" in result.out
    assert (tmp_path / "moved/publications/fine.md").is_file()


# --- 16. migrate writes only what the build accepts ----------------------------------------

def test_names_in_two_cases_and_escaping_permalinks_are_not_written(tmp_path):
    old = write_files(tmp_path / "old", {
        "_publications/2020-Paper.md": ap_paper("Upper paper"),
        "_publications/2020-paper.md": ap_paper("Lower paper"),
        "_publications/2020-01-05-esc.md": ap_paper("Escape",
                                                    "permalink: /../../escape/\n")})
    content = tmp_path / "content"
    result = migrate(old, content, "--from", "academicpages")
    assert result.code == 0, result.out + result.err
    site = yaml.safe_load((content / "site.yaml").read_text(encoding="utf-8"))
    pages = {f"publications/{p.stem}" for p in (content / "publications").glob("*.md")}
    for key in site.get("redirects") or {}:  # none replaces a page, in any case
        assert ".." not in key and key.strip("/").casefold() not in {
            p.casefold() for p in pages}
    assert "'/../../escape/' is not redirected" in result.out or \
        "'../../escape' is not redirected" in result.out
    built = run_cli(*build_args(content, tmp_path / "site"))
    assert built.code == 0, built.err
    for stem in pages:
        assert any(t in all_text(tmp_path / "site" / stem) for t in ("Upper", "Lower", "Escape"))


@posix_only
def test_files_linked_out_or_named_in_another_encoding_are_not_named(tmp_path):
    write_files(tmp_path / "outside", {"me.png": b"\x89PNG secret", "x.pdf": b"%PDF secret"})
    old = write_files(tmp_path / "old", {
        "_config.yml": "title: T\nurl: https://x.example\nauthor:\n  name: A B\n"
                       "  avatar: me.png\n",
        "_publications/2020-01-05-x.md": ap_paper("Linked", "paperurl: /files/x.pdf\n")})
    (old / "images").mkdir()
    (old / "images/me.png").symlink_to(tmp_path / "outside/me.png")
    (old / "files").mkdir()
    (old / "files/x.pdf").symlink_to(tmp_path / "outside/x.pdf")
    try:
        (old / "_publications" / os.fsdecode(b"2020-01-05-caf\xe9.md")).write_text(
            ap_paper("Latin"), encoding="utf-8")
    except (OSError, UnicodeError):
        pytest.skip("this file system takes UTF-8 names only")
    content = tmp_path / "content"
    result = migrate(old, content, "--from", "academicpages")
    no_traceback(result)
    site = yaml.safe_load((content / "site.yaml").read_text(encoding="utf-8"))
    assert "photo" not in site["author"]
    assert "files/x.pdf" not in (content / "publications/x.md").read_text(encoding="utf-8")
    built = run_cli(*build_args(content, tmp_path / "site"))
    assert built.code == 0, built.out + built.err
    assert "secret" not in all_text(tmp_path / "site")


# --- 17. BibTeX read by the build's parser --------------------------------------------------

def test_a_one_line_bibtex_entry_is_a_paper_and_its_project_keeps_its_link(tmp_path):
    old = write_files(tmp_path / "old", {
        "_bibliography/papers.bib": "@article{one, title={One Line}, author={Doe, Jane}, "
                                    "journal={J}, year={2021}}\n",
        "_projects/p.md": "---\ntitle: P\nrelated_publications: one\n---\nA project.\n"})
    content = tmp_path / "content"
    result = migrate(old, content, "--from", "al-folio")
    assert result.code == 0, result.out + result.err
    assert "lacks a title, author or year" not in result.out
    project = yaml.safe_load((content / "projects/p.md").read_text(
        encoding="utf-8").split("---")[1])
    assert project["papers"] == ["one"]
