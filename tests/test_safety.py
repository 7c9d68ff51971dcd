"""What a build may never do, whatever the folders and content look like: delete or write
outside its own folders (a cache or output folder that is a link), or publish a link that a
browser would run as script."""

from __future__ import annotations

import html
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import examples, MINIMAL_CONFIG, MINIMAL_PAPER, ROOT, TEMPLATES, build_args, copy_templates, \
    run_cli, soup, write_files

CACHE = ".scholarsite-cache"
needs_links = pytest.mark.skipif(not hasattr(os, "symlink") or sys.platform == "win32",
                                 reason="symbolic links need privileges on Windows")


def make_project(root: Path) -> Path:
    """A small project in root/proj: its content folder."""
    return write_files(root / "proj" / "content",
                       {"site.yaml": MINIMAL_CONFIG, "publications/a-paper.md": MINIMAL_PAPER})


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file() and not p.is_symlink()}


# --- A cache folder that is a link ------------------------------------------------------


@needs_links
@pytest.mark.parametrize("target", ["..", "dotcache"])
def test_a_cache_linked_to_a_full_folder_is_left_alone(tmp_path, target):
    content = make_project(tmp_path)
    write_files(tmp_path, {"sibling/notes.txt": "mine", "sibling/deep/data.csv": "1,2",
                           "dotcache/pip/wheel.whl": b"\x00", "dotcache/other/x": "y"})
    os.symlink(target, tmp_path / "proj" / CACHE)
    before = {name: snapshot(tmp_path / name) for name in ("sibling", "dotcache")}
    for _ in range(2):
        result = run_cli(*build_args(content), cwd=tmp_path / "proj")
        assert result.code == 0, result.err
        assert f"{CACHE}: warning:" in result.err and "not used" in result.err
    assert {name: snapshot(tmp_path / name) for name in ("sibling", "dotcache")} == before
    assert not (tmp_path / "CACHEDIR.TAG").exists() and not (tmp_path / ".gitignore").exists()
    assert (tmp_path / "proj" / "site" / "index.html").is_file()


@needs_links
def test_a_cache_linked_to_an_empty_folder_is_used_there(tmp_path):
    content = make_project(tmp_path)
    (tmp_path / "ramdisk").mkdir()
    os.symlink(tmp_path / "ramdisk", tmp_path / "proj" / CACHE)
    first = run_cli(*build_args(content), cwd=tmp_path / "proj")
    again = run_cli(*build_args(content), cwd=tmp_path / "proj")
    assert first.code == again.code == 0 and "warning" not in first.err + again.err
    assert (tmp_path / "ramdisk" / "CACHEDIR.TAG").is_file()
    assert "nothing changed" in again.out
    assert (tmp_path / "proj" / CACHE).is_symlink()


@needs_links
def test_a_new_code_version_removes_only_the_folders_the_cache_made(tmp_path):
    """Run from a copy of the tool, build, change the tool's code, build again: the last
    version's folder goes; a folder the user put in the cache, and a link there, stay."""
    tool = tmp_path / "tool"
    shutil.copytree(ROOT / "scholarsite", tool / "scholarsite",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "build.py", tool / "build.py")
    content = make_project(tmp_path)
    write_files(tmp_path, {"victim/keep.txt": "keep"})

    def build() -> None:
        proc = subprocess.run([sys.executable, str(tool / "build.py"), *build_args(content)],
                              cwd=tmp_path / "proj", capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr

    build()
    cache = tmp_path / "proj" / CACHE
    first = [p.name for p in cache.iterdir() if p.is_dir()]
    assert len(first) == 1
    write_files(cache, {"my-notes/n.txt": "mine"})
    os.symlink(tmp_path / "victim", cache / "0123456789abcdef0123456789abcdef")
    with open(tool / "scholarsite" / "__init__.py", "a", encoding="utf-8") as stream:
        stream.write("\n# a new version of the code\n")
    build()
    names = sorted(p.name for p in cache.iterdir() if p.is_dir())
    assert first[0] not in names and len(names) == 3, names
    assert (cache / "my-notes" / "n.txt").read_text() == "mine"
    assert (tmp_path / "victim" / "keep.txt").read_text() == "keep"


# --- An output folder that is a link ------------------------------------------------------


@needs_links
def test_a_linked_output_folder_stays_a_link_to_the_new_site(tmp_path):
    content = make_project(tmp_path)
    (tmp_path / "elsewhere" / "www").mkdir(parents=True)
    site = tmp_path / "proj" / "site"
    os.symlink(tmp_path / "elsewhere" / "www", site)
    for title in ("First", "Second"):
        (content / "site.yaml").write_text(MINIMAL_CONFIG.replace("Ada Example\nurl",
                                                                  f"{title}\nurl"))
        result = run_cli(*build_args(content, site), cwd=tmp_path / "proj")
        assert result.code == 0, result.err
        assert site.is_symlink() and os.readlink(site) == str(tmp_path / "elsewhere" / "www")
        assert title in (tmp_path / "elsewhere" / "www" / "index.html").read_text()
    assert sorted(p.name for p in (tmp_path / "elsewhere").iterdir()) == ["www"]
    assert sorted(p.name for p in (tmp_path / "proj").iterdir()) == [
        CACHE, ".site.images", "content", "site"]


@needs_links
def test_a_dangling_output_link_is_one_clear_error(tmp_path):
    content = make_project(tmp_path)
    os.symlink(tmp_path / "gone", tmp_path / "proj" / "site")
    result = run_cli(*build_args(content, tmp_path / "proj" / "site"), cwd=tmp_path / "proj")
    assert result.code == 1 and "Traceback" not in result.err
    assert "does not exist" in result.err and not (tmp_path / "gone").exists()


def test_gitignore_patterns_also_match_links():
    """A pattern with a trailing slash matches a folder only, not a link to one."""
    lines = (ROOT / ".gitignore").read_text().splitlines()
    assert "/site" in lines and CACHE in lines


# --- Links a browser would run -----------------------------------------------------------

HOSTILE = "\x01javascript:alert(1)"
PAPER_WITH = """\
---
title: A Paper
authors: [Ada Example]
venue: Conference on Examples
date: 2024-05
links:
  pdf: "{url}"
---
An abstract.
"""


def yaml_quoted(url: str) -> str:
    """`url` inside a YAML double-quoted string."""
    return "".join(f"\\x{ord(c):02x}" if ord(c) < 0x20 or c in '"\\' else c for c in url)


def link_sites(url: str) -> dict[str, dict[str, str | bytes]]:
    """One small site per kind of link field, each with `url` in it: (file, line) of the
    field, and the files."""
    q = yaml_quoted(url)
    return {
        "front matter": {"publications/a-paper.md": PAPER_WITH.format(url=q)},
        "author.links": {"site.yaml": MINIMAL_CONFIG.replace(
            "  name: Ada Example\n", f'  name: Ada Example\n  links:\n    web: "{q}"\n')},
        "nav": {"site.yaml": MINIMAL_CONFIG + f'nav:\n  - home\n  - {{title: X, url: "{q}"}}\n'},
        "talk": {"talks/t.md": f'---\ntitle: T\ndate: 2024-01-01\nvideo: "{q}"\n---\nA talk.\n'},
        "bibtex url": {"publications/refs.bib": (
            "@inproceedings{k1,\n  title = {A Paper},\n  author = {Ada Example},\n"
            "  booktitle = {Conference on Examples},\n  year = {2024},\n"
            f"  url = {{{url}}},\n}}\n").encode("utf-8")},
        "markdown text": {"publications/a-paper.md": MINIMAL_PAPER.replace(
            "An abstract.", f"See [the code]({url.strip()}) and ![a figure]({url.strip()}).")},
    }


# The citation downloads of a paper's page: data: links a browser saves, never opens.
DOWNLOADS = ("data:application/x-bibtex;charset=utf-8;base64,",
             "data:application/x-research-info-systems;charset=utf-8;base64,",
             "data:application/vnd.citationstyles.csl+json;charset=utf-8;base64,")


def browser_url(href: str) -> str:
    """An address as a browser's URL parser reads it (WHATWG URL standard): leading and
    trailing C0 controls and spaces dropped, tabs and newlines removed, backslashes read
    as slashes (for http(s) and relative URLs)."""
    href = href.strip("".join(map(chr, range(0x21))))
    return re.sub(r"[\t\n\r]", "", href).replace("\\", "/")


def unsafe_links(site: Path) -> list[str]:
    found = []
    for page in sorted(site.rglob("*.html")):
        for tag in soup(page).find_all(href=True) + soup(page).find_all(src=True):
            for attr in ("href", "src"):
                url = browser_url(tag.get(attr) or "")
                scheme = re.match(r"^([a-zA-Z][a-zA-Z0-9+.-]*):", url)
                if tag.name == "a" and tag.has_attr("download") and url.startswith(DOWNLOADS):
                    continue  # a paper's BibTeX, RIS or CSL-JSON, as a file to save: never run
                if (scheme and scheme.group(1).lower() not in ("http", "https", "mailto")) \
                        or url.startswith("//"):
                    found.append(f"{page.name}: {tag.get(attr)!r}")
    return found


@pytest.mark.parametrize("kind", list(link_sites(HOSTILE)))
def test_a_control_character_never_hides_a_script_link(make_site, kind):
    content = make_site(link_sites(HOSTILE)[kind])
    result = run_cli(*build_args(content))
    assert "Traceback" not in result.err
    site = content.parent / "site"
    if site.exists():
        assert unsafe_links(site) == []
    assert re.search(r"^\S+:\d+: (error|warning): .*(U\+0001|javascript)", result.err, re.M), \
        result.err


@pytest.mark.parametrize("url", ["/\\evil.example/x", "\\\\evil.example/x", "\\/evil.example"])
def test_a_backslash_never_makes_a_link_leave_the_site(make_site, url):
    content = make_site(link_sites(url)["front matter"])
    result = run_cli(*build_args(content))
    assert result.code == 1 and "backslash" in result.err


@pytest.mark.parametrize("written", ["&#106;avascript:alert(1)", "javascript&#58;alert(1)",
                                     "JavaScript:alert(1)", "data:text/html,<script>"])
@pytest.mark.parametrize("where", ["publications/a-paper.md:8", "news/n.md:5", "posts/p.md:6"])
def test_character_references_in_markdown_links_are_read_as_a_browser_does(make_site,
                                                                            written, where):
    # A news item is shown on the home page too, where a site-relative link needs no prefix:
    # the address is judged before it is made site-relative, never after.
    texts = {"news/n.md": f"---\ndate: 2024-01-01\n---\nClick\n[me]({written}).\n",
             "posts/p.md": f"---\ntitle: P\ndate: 2024-01-01\n---\n\n[me]({written}).\n"}
    path = where.split(":")[0]
    content = make_site(link_sites(written)["markdown text"] if path not in texts
                        else {path: texts[path]})
    result = run_cli(*build_args(content))
    assert result.code == 1
    assert re.search(rf"{re.escape(where)}: error: the link .* in the text uses the scheme",
                     result.err), result.err


# Prefixes a browser strips or ignores, before schemes it would run.
prefixes = st.text(alphabet=[chr(c) for c in range(0x21)] + ["\x7f", "\x85", "\xa0"],
                   max_size=4)
schemes = st.sampled_from(["javascript", "JAVASCRIPT", "java\tscript", "java\nscript",
                           "vbscript", "data", "https", "mailto", "/\\evil.example/"])


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(prefixes, schemes, st.sampled_from(["front matter", "author.links", "bibtex url"]))
def test_no_link_a_browser_would_run_is_ever_published(prefix, scheme, kind):
    url = prefix + scheme + ":alert(1)"
    if kind == "bibtex url" and ("{" in url or "}" in url):
        return
    with tempfile.TemporaryDirectory() as tmp:
        files = {"site.yaml": MINIMAL_CONFIG, "publications/a-paper.md": MINIMAL_PAPER}
        files.update(link_sites(url)[kind])
        content = write_files(Path(tmp) / "content", files)
        site = Path(tmp) / "site"
        proc = subprocess.run([sys.executable, str(ROOT / "build.py"), "build", "--content",
                               str(content), "--output", str(site), "--templates",
                               str(TEMPLATES), "--no-cache"], capture_output=True, text=True)
        assert "Traceback" not in proc.stderr, proc.stderr
        if site.exists():
            assert unsafe_links(site) == [], html.escape(url)


# --- Hidden folders --------------------------------------------------------------------


def test_hidden_folders_are_never_read_or_published(tmp_path):
    """A cloned library in files/ brings its .git/; a theme folder may too."""
    content = make_project(tmp_path)
    write_files(content, {"files/vendor/lib.js": "x", "files/vendor/.git/config": "[core]",
                          "files/vendor/.git/objects/ab/cd": b"\x00",
                          "publications/.drafts/b-paper.md": MINIMAL_PAPER})
    templates = copy_templates(tmp_path, "theme")
    write_files(templates, {"assets/.git/HEAD": "ref: refs/heads/main"})
    site = tmp_path / "proj" / "site"
    result = run_cli("build", "--content", str(content), "--output", str(site),
                     "--templates", str(templates))
    assert result.code == 0, result.err
    published = {p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()}
    assert "files/vendor/lib.js" in published
    assert not [p for p in published if any(part.startswith(".") for part in p.split("/")[:-1])]
    assert not (site / "publications" / "b-paper").exists()
