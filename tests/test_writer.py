"""The output folder: swapped in whole, stale pages removed, the user's own files kept,
identical bytes for identical content."""

from __future__ import annotations

import json
import shutil

from conftest import EXAMPLE, MINIMAL_PAPER, build_args, run_cli, tree_bytes

from scholarsite.output.writer import MANIFEST, OutputError, safe_relpath


def test_removed_paper_disappears_and_user_files_stay(make_site, tmp_path):
    content = make_site({"publications/second.md": MINIMAL_PAPER.replace("A Paper", "Second")})
    out = tmp_path / "site"
    assert run_cli(*build_args(content, out)).code == 0
    assert (out / "publications" / "second" / "index.html").is_file()
    (out / "google1234.html").write_text("verification", encoding="utf-8")
    (content / "publications" / "second.md").unlink()
    assert run_cli(*build_args(content, out)).code == 0
    assert not (out / "publications" / "second").exists()
    assert (out / "google1234.html").read_text(encoding="utf-8") == "verification"
    assert "google1234.html" not in (out / MANIFEST).read_text(encoding="utf-8")


def test_user_file_is_never_overwritten(make_site, tmp_path):
    content = make_site()
    out = tmp_path / "site"
    assert run_cli(*build_args(content, out)).code == 0
    (out / "publications" / "a-paper" / "index.html").unlink()
    (out / "robots.txt").unlink()
    manifest = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    manifest["files"].remove("robots.txt")
    (out / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    (out / "robots.txt").write_text("mine", encoding="utf-8")
    result = run_cli(*build_args(content, out))
    assert result.code == 1 and "robots.txt" in result.err and "Traceback" not in result.err
    assert (out / "robots.txt").read_text(encoding="utf-8") == "mine"


def test_same_content_gives_identical_bytes(tmp_path):
    first, second = tmp_path / "one", tmp_path / "two"
    assert run_cli(*build_args(EXAMPLE, first)).code == 0
    # The same content again, its files created in the reverse order.
    copy = tmp_path / "content"
    for path in sorted(EXAMPLE.rglob("*"), reverse=True):
        target = copy / path.relative_to(EXAMPLE)
        if path.is_file():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
    assert run_cli(*build_args(copy, second)).code == 0
    assert tree_bytes(first) == tree_bytes(second)


def test_paths_outside_the_output_are_refused():
    for bad in ("../x", "/etc/passwd", "a/../../x", "C:/x"):
        try:
            safe_relpath(bad)
        except OutputError:
            continue
        raise AssertionError(f"{bad} was accepted")
    assert safe_relpath("a/./b/") == "a/b"
