"""The build cache beside the output: a build with it gives the bytes a build without it
gives, notices every change, and shrugs off a cache that is gone or damaged."""

from __future__ import annotations

import os
import pickle
import shutil
import subprocess
import sys
import time
from pathlib import Path

from jinja2.bccache import bc_magic

from conftest import MINIMAL_PAPER, build_args, copy_templates, edit, paper, run_cli, tree_bytes

from scholarsite.output.cache import CACHE_DIR, BuildCache, code_version

UNCHANGED = "nothing changed since the last build"
BIB = """\
@inproceedings{knuth1984,
  title = {Literate Programming},
  author = {Donald E. Knuth and Ada Example},
  booktitle = {The Computer Journal},
  year = {1984},
  abstract = {A \\emph{classic}.}
}
"""


def make_papers(make_site, count: int = 6) -> Path:
    files = {f"publications/paper-{i}.md": MINIMAL_PAPER.replace("A Paper", f"Paper {i}")
             for i in range(count)}
    files["publications/more.bib"] = BIB
    files["publications/bad-field.md"] = paper(venue_short="''")
    return make_site(files)


def cache_files(tmp_path: Path, pattern: str = "*.pickle") -> list[Path]:
    return sorted(p for p in (tmp_path / CACHE_DIR).rglob(pattern))


def build(content: Path, out: Path, *extra: str) -> str:
    result = run_cli(*build_args(content, out, *extra))
    assert result.code == 0, result.err
    return result.out + result.err


def test_cached_builds_give_the_bytes_of_a_cold_build(make_site, tmp_path):
    content = make_papers(make_site)
    out = tmp_path / "site"
    build(content, out, "--no-cache")
    assert not (tmp_path / CACHE_DIR).exists()
    cold = tree_bytes(out)
    build(content, out)  # writes the cache
    assert tree_bytes(out) == cold and cache_files(tmp_path)
    shutil.rmtree(out)
    build(content, out)  # every paper file from the cache
    assert tree_bytes(out) == cold
    shutil.rmtree(tmp_path / CACHE_DIR)
    build(content, out)
    assert tree_bytes(out) == cold


def test_a_build_with_nothing_changed_writes_nothing_and_says_the_same(make_site, tmp_path):
    content = make_papers(make_site)
    out = tmp_path / "site"
    first = build(content, out)
    assert UNCHANGED not in first and "bad-field.md" in first  # the warning
    stamp = (out / "index.html").stat().st_mtime_ns
    again = build(content, out)
    assert UNCHANGED in again
    assert "bad-field.md:" in again and "warning" in again  # the same warnings, again
    assert (out / "index.html").stat().st_mtime_ns == stamp


def test_every_change_is_seen(make_site, tmp_path):
    content = make_papers(make_site)
    out = tmp_path / "site"
    paper = content / "publications" / "paper-3.md"
    page = out / "publications" / "paper-3" / "index.html"
    build(content, out)
    # Same size, same modification time: the bytes tell.
    stat = paper.stat()
    edit(paper, "An abstract.", "A changed.")
    os.utime(paper, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert UNCHANGED not in build(content, out)
    assert "A changed." in page.read_text(encoding="utf-8")
    assert UNCHANGED in build(content, out)
    # A template.
    base = copy_templates(tmp_path)
    build(content, out, "--templates", str(base))
    assert UNCHANGED in build(content, out, "--templates", str(base))
    edit(base / "paper.html", "<h1>", "<h1 class=t>")
    build(content, out, "--templates", str(base))
    assert "<h1 class=t>" in page.read_text(encoding="utf-8")
    # A BibTeX file, a removed paper, and an output file changed by hand.
    bib = content / "publications" / "more.bib"
    bib.write_text(BIB.replace("Literate Programming", "Illiterate Programming"),
                   encoding="utf-8")
    (content / "publications" / "paper-5.md").unlink()
    (out / "robots.txt").write_text("changed by hand", encoding="utf-8")
    build(content, out)
    assert "Illiterate" in (out / "publications" / "knuth1984" / "index.html").read_text(
        encoding="utf-8")
    assert not (out / "publications" / "paper-5").exists()
    assert "changed by hand" not in (out / "robots.txt").read_text(encoding="utf-8")
    # A large file to copy (known by its identity, not its bytes), changed in place.
    big = content / "files" / "big.pdf"
    big.parent.mkdir(exist_ok=True)
    big.write_bytes(b"%PDF" + b"a" * (2 << 20))
    build(content, out)
    big.write_bytes(b"%PDF" + b"b" * (2 << 20))
    assert UNCHANGED not in build(content, out)
    assert (out / "files" / "big.pdf").read_bytes()[-1:] == b"b"
    # The output folder removed: built again, never reported as up to date.
    shutil.rmtree(out)
    assert UNCHANGED not in build(content, out) and page.is_file()


def test_a_file_is_read_again_when_it_is_not_as_it_was(make_site, tmp_path):
    """A build takes the hash it recorded of a file that is as it was then (its size,
    times and inode) without reading it, once the file is older than that build by more
    than a clock tick could hide. A change that puts back the old modification time
    still changes the file's status change time; a folder of older files put in place of
    the papers' has files of other inodes."""
    content = make_papers(make_site)
    out = tmp_path / "site"
    papers = content / "publications"
    page = out / "publications" / "paper-3" / "index.html"
    other = shutil.copytree(papers, tmp_path / "other")
    edit(other / "paper-3.md", "An abstract.", "An altered.")
    hour_ago = time.time_ns() - 3600 * 10**9
    for path in [*papers.iterdir(), *other.iterdir()]:
        os.utime(path, ns=(hour_ago, hour_ago))
    time.sleep(2.5)  # the status change times too are settled (inputs.RACY_SECONDS)
    build(content, out)
    assert UNCHANGED in build(content, out)
    edit(papers / "paper-3.md", "An abstract.", "A changed.")
    os.utime(papers / "paper-3.md", ns=(hour_ago, hour_ago))
    assert UNCHANGED not in build(content, out)
    assert "A changed." in page.read_text(encoding="utf-8")
    papers.rename(tmp_path / "before")
    other.rename(papers)
    assert UNCHANGED not in build(content, out)
    assert "An altered." in page.read_text(encoding="utf-8")


def test_a_damaged_cache_is_ignored_and_made_again(make_site, tmp_path):
    content = make_papers(make_site)
    out = tmp_path / "site"
    build(content, out)
    good = tree_bytes(out)
    files = cache_files(tmp_path)
    # The build record and what the paper files gave (in parts).
    assert {path.name.split("-")[1] for path in files} == {"build.pickle", "papers"}
    compiled = cache_files(tmp_path, "*.cache")  # Jinja's compiled templates
    assert compiled
    for i, path in enumerate(files + compiled):
        whole = path.read_bytes()  # cut short anywhere, or not what it should be at all
        path.write_bytes([b"", b"not a pickle", whole[:len(bc_magic) + 2],
                          whole[:len(whole) // 2]][i % 4])
    shutil.rmtree(out)
    build(content, out)
    assert tree_bytes(out) == good
    for path in cache_files(tmp_path):  # written again, whole
        with open(path, "rb") as stream:
            assert pickle.load(stream)
    # A cache entry that lies about a file cannot hide its change: entries are by bytes.
    (out / "index.html").unlink()
    paper = content / "publications" / "paper-1.md"
    paper.write_text(MINIMAL_PAPER.replace("A Paper", "Renamed"), encoding="utf-8")
    build(content, out)
    assert "Renamed" in (out / "publications" / "paper-1" / "index.html").read_text(
        encoding="utf-8")


def test_damaged_entries_inside_the_cache_are_made_again(make_site, tmp_path):
    """The cache of parsed papers holds each file's results, and what was made of them,
    pickled apart: one of those that cannot be read is made again from the file."""
    content = make_papers(make_site)
    out, cold = tmp_path / "site", tmp_path / "cold"
    for n in range(2):  # the second build keeps what was made of each file
        edit(content / "publications" / "paper-1.md", "An abstract", f"An abstract {n}", 1)
        build(content, out)
    parts = [path for path in cache_files(tmp_path) if "-papers-" in path.name]
    damaged = 0
    for part in parts:
        whole = part.read_bytes()
        header = whole[:3]  # each entry is a pickle too: its protocol made one none can read
        part.write_bytes(whole[:3] + whole[3:].replace(header, b"\x80\x09" + header[2:]))
        damaged += part.read_bytes().count(b"\x80\x09")
    assert damaged > 6
    edit(content / "publications" / "paper-2.md", "An abstract.", "Another abstract.")
    build(content, out)
    build(content, cold, "--no-cache")
    assert tree_bytes(out) == tree_bytes(cold)
    assert all(b"\x80\x09" not in part.read_bytes() for part in parts)


def test_other_code_versions_are_cleared(tmp_path):
    folder = tmp_path / CACHE_DIR
    BuildCache(folder, "0123456789abcdef").save("x-build.pickle", "old")
    stale = folder / "0123456789abcdef"
    mine = folder / "fedcba9876543210"  # not made by the cache: never removed
    mine.mkdir()
    cache = BuildCache(folder, code_version())
    cache.save("x-papers.pickle", {"a": 1})
    assert not stale.exists() and mine.is_dir()
    assert cache.load("x-papers.pickle") == {"a": 1}
    assert (folder / "CACHEDIR.TAG").read_text(encoding="utf-8").startswith("Signature: ")
    assert (folder / ".gitignore").read_text(encoding="utf-8").endswith("\n*\n")


def test_an_edit_to_any_file_of_the_package_is_a_new_code_version(make_site, tmp_path):
    """The cache is kept for the exact code that made it, and the code is every file of the
    package, whatever its kind: an edited message catalog gives the new wording at once (the
    cache knew only some suffixes, and said "nothing changed" with the old wording kept).
    Run from a copy of the checkout, whose catalog the test may edit."""
    root = Path(__file__).resolve().parent.parent
    copy = tmp_path / "checkout"
    shutil.copytree(root / "scholarsite", copy / "scholarsite",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy2(root / "build.py", copy / "build.py")
    content = make_site({"site.yaml": "title: T\nurl: https://example.org/\nlanguage: de\n"
                                      "author:\n  name: Ada Example\n"})
    args = ["build", "--content", str(content), "--output", str(tmp_path / "site"),
            "--templates", str(root / "templates")]

    def build_copy() -> str:
        proc = subprocess.run([sys.executable, str(copy / "build.py"), *args],
                              capture_output=True, text=True, encoding="utf-8")
        assert proc.returncode == 0, proc.stderr
        return (tmp_path / "site" / "index.html").read_text(encoding="utf-8")

    assert ">Publikationen<" in build_copy()
    edit(copy / "scholarsite" / "locale" / "de.po", 'msgstr "Publikationen"',
         'msgstr "Veröffentlichungen"')
    home = build_copy()
    assert ">Veröffentlichungen<" in home and ">Publikationen<" not in home
