"""What the file system can hold besides plain files and folders, and builds that meet:
concurrent builds, a build killed between its renames, pipes and devices, links, and the
operating system's errors. Each through the real command line."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import (MINIMAL_CONFIG, MINIMAL_PAPER, ROOT, build_args, copy_templates, run_cli,
                      tree_bytes, write_files)

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")


def symlink_or_skip(target: Path | str, link: Path) -> None:
    try:
        link.symlink_to(target)
    except (OSError, NotImplementedError):
        pytest.skip("symlinks are not available here")


def large_site(tmp_path: Path, papers: int = 1500) -> Path:
    """A site big enough that a build takes about a second."""
    files = {"site.yaml": MINIMAL_CONFIG}
    for i in range(papers):
        files[f"publications/p{i}.md"] = MINIMAL_PAPER.replace("A Paper", f"Paper {i}")
    return write_files(tmp_path / "content", files)


def start_build(*args: str) -> subprocess.Popen:
    env = dict(os.environ, PYTHONIOENCODING="utf-8", PYTHONUTF8="1")
    return subprocess.Popen([sys.executable, str(ROOT / "build.py"), *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            encoding="utf-8", env=env)


def wait_for_staging(folder: Path, proc: subprocess.Popen) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        if any(p.name.startswith(".site.tmp-") for p in folder.iterdir()):
            return
        time.sleep(0.002)
    pytest.fail("the build ended before it wrote its staging folder")


# --- One build at a time -------------------------------------------------------------------


@pytest.mark.full(only=True)  # slow and seldom moved: CI's first step runs it
def test_concurrent_builds_publish_a_whole_site(tmp_path):
    content = large_site(tmp_path)
    out = tmp_path / "site"
    # The first renders in one process, so that on a busy machine it still holds the
    # folder when the next has started Python and reached the lock.
    first = start_build(*build_args(content, out, "--no-cache", "--jobs", "1"))
    wait_for_staging(tmp_path, first)
    others = []
    for _ in range(2):
        others.append(start_build(*build_args(content, out, "--no-cache")))
        time.sleep(0.3)
    results = [(p.wait(120), *p.communicate()) for p in [first, *others]]
    assert [code for code, _, _ in results] == [0, 0, 0], results
    # The second build found the first one writing, said so and waited.
    assert "another build is writing this folder; waiting" in results[1][2]
    cold = tmp_path / "cold"
    assert run_cli(*build_args(content, cold, "--no-cache")).code == 0
    assert tree_bytes(out) == tree_bytes(cold)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        ".cold.images", ".site.images", "cold", "content", "site"]


def test_a_site_left_aside_by_a_killed_build_is_put_back(make_site, tmp_path):
    """A build killed after `site -> .site.old-PID` and before `.site.tmp-PID -> site`
    leaves no site/: the next build, even a failing one, puts it back with the user's
    own files, so that its message is true."""
    content = make_site()
    out = tmp_path / "site"
    assert run_cli(*build_args(content, out)).code == 0
    (out / "google1234.html").write_text("google-site-verification", encoding="utf-8")
    assert run_cli(*build_args(content, out)).code == 0
    before = tree_bytes(out)
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True).stdout.strip()
    os.replace(out, tmp_path / f".site.old-{dead}")  # the state the kill left
    (content / "publications" / "a-paper.md").write_text("---\ntitle: [\n---\n",
                                                          encoding="utf-8")
    failed = run_cli(*build_args(content, out))
    assert failed.code == 1 and "the previous site was left as it was" in failed.err
    assert "put back the previous site" in failed.err
    assert tree_bytes(out) == before
    (content / "publications" / "a-paper.md").write_text(MINIMAL_PAPER, encoding="utf-8")
    assert run_cli(*build_args(content, out)).code == 0
    assert (out / "google1234.html").read_text(encoding="utf-8") == "google-site-verification"
    assert not any(p.name.startswith((".site.old-", ".site.tmp-", ".site.lock"))
                   for p in tmp_path.iterdir())


# --- Pipes, devices and links --------------------------------------------------------------


@needs_fifo
@pytest.mark.parametrize("where", ["content/files/pipe.pdf", "content/publications/pipe.md",
                                   "content/publications/pipe.bib", "content/site.yaml"])
def test_a_named_pipe_is_never_opened(make_site, tmp_path, where):
    content = make_site({"files/cv.pdf": "%PDF-1.4"})
    pipe = tmp_path / where
    pipe.unlink(missing_ok=True)
    os.mkfifo(pipe)
    result = run_cli(*build_args(content), timeout=60)
    assert "Traceback" not in result.err
    if where == "content/site.yaml":  # the one file every site needs
        assert result.code == 1
        assert f"{where}: error: this is not a regular file" in result.err
    else:
        assert result.code == 0
        assert f"{where}: warning: this is not a regular file" in result.err
        assert (tmp_path / "site/files/cv.pdf").is_file()
        assert not (tmp_path / "site/files/pipe.pdf").exists()


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
def test_a_link_to_a_device_is_not_read(make_site, tmp_path):
    content = make_site()
    (content / "files").mkdir()
    symlink_or_skip("/dev/zero", content / "publications" / "zero.md")
    symlink_or_skip("/dev/zero", content / "files" / "zero.pdf")
    result = run_cli(*build_args(content), timeout=60)
    assert result.code == 1 and "Traceback" not in result.err
    assert "zero.md: error: this file is a link to a place outside the content folder" \
        in result.err
    assert "zero.pdf: error: this file is a link to a place outside" in result.err


@pytest.mark.parametrize("name", ["site.yaml", "index.md", "cv.yaml"])
def test_a_top_level_file_linked_from_outside_is_refused(make_site, tmp_path, name):
    secret = tmp_path / "secret.txt"
    secret.write_text("title: secret\n", encoding="utf-8")
    content = make_site()
    (content / name).unlink(missing_ok=True)
    symlink_or_skip(secret, content / name)
    result = run_cli(*build_args(content))
    assert result.code == 1
    assert f"{name}: error: this file is a link to a place outside the content folder" \
        in result.err
    assert not (tmp_path / "site").exists()


def test_the_whole_disk_or_home_is_no_content_folder(tmp_path):
    for folder in (Path(Path.cwd().anchor), Path.home()):
        result = run_cli("build", "--content", str(folder), "--output",
                         str(tmp_path / "site"), timeout=30)
        assert result.code == 1 and "not a site's folder" in result.err, result.err
        assert not (tmp_path / "site").exists()


def test_the_whole_disk_is_no_content_folder_for_a_site_built_before(make_site, tmp_path):
    """A folder a site was built into from its content is no reason to look at the whole
    disk when it is given as the content: refused before anything is listed."""
    content = make_site()
    assert run_cli(*build_args(content)).code == 0
    args = build_args(Path(Path.cwd().anchor), tmp_path / "site")
    result = run_cli(*args, timeout=30)
    assert result.code == 1 and "not a site's folder" in result.err, result.err


def test_hidden_folders_in_content_are_not_listed_by_the_cache(make_site, tmp_path):
    """A clone inside content/files/ (its .git/) is neither published nor opened: a pipe
    in it would otherwise stop the build."""
    content = make_site({"files/vendor/lib.js": "x", "files/vendor/.git/HEAD": "ref"})
    if hasattr(os, "mkfifo"):
        os.mkfifo(content / "files/vendor/.git/pipe")
    result = run_cli(*build_args(content), timeout=60)
    assert result.code == 0, result.err
    assert (tmp_path / "site/files/vendor/lib.js").is_file()
    assert not (tmp_path / "site/files/vendor/.git").exists()


def test_links_and_empty_folders_a_user_put_in_the_site_stay(make_site, tmp_path):
    content = make_site()
    out = tmp_path / "site"
    assert run_cli(*build_args(content, out)).code == 0
    (out / "downloads").mkdir()
    (out / "own.txt").write_text("mine", encoding="utf-8")
    symlink_or_skip("own.txt", out / "alias.txt")
    symlink_or_skip("../content", out / "sources")
    (content / "publications" / "a-paper.md").write_text(
        MINIMAL_PAPER.replace("A Paper", "Renamed"), encoding="utf-8")
    assert run_cli(*build_args(content, out)).code == 0
    assert (out / "downloads").is_dir() and not any((out / "downloads").iterdir())
    assert os.readlink(out / "alias.txt") == "own.txt"
    assert os.readlink(out / "sources") == "../content"
    assert (out / "own.txt").read_text(encoding="utf-8") == "mine"


def test_a_linked_output_folder_stays_a_link(make_site, tmp_path):
    content = make_site()
    real = tmp_path / "elsewhere" / "site"
    real.mkdir(parents=True)
    symlink_or_skip(real, tmp_path / "site")
    for _ in range(2):
        result = run_cli(*build_args(content, tmp_path / "site"))
        assert result.code == 0, result.err
    assert (tmp_path / "site").is_symlink()
    assert (real / "index.html").is_file()


def test_theme_assets_linked_from_outside_or_special_are_not_copied(make_site, tmp_path):
    content = make_site()
    templates = copy_templates(tmp_path)
    secret = tmp_path / "secret.txt"
    secret.write_text("private", encoding="utf-8")
    symlink_or_skip(secret, templates / "assets" / "leak.txt")
    if hasattr(os, "mkfifo"):
        os.mkfifo(templates / "assets" / "pipe.css")
    result = run_cli(*build_args(content, templates=templates), timeout=60)
    assert result.code == 1 and "Traceback" not in result.err
    assert "leak.txt: error: this file is a link to a place outside the templates folder" \
        in result.err
    assert not (tmp_path / "site").exists()
    (templates / "assets" / "leak.txt").unlink()
    result = run_cli(*build_args(content, templates=templates), timeout=60)
    assert result.code == 0, result.err
    if hasattr(os, "mkfifo"):
        assert "pipe.css: warning: this is not a regular file" in result.err
    assert (tmp_path / "site/assets/style.css").is_file()
    assert not (tmp_path / "site/assets/pipe.css").exists()


# --- The system's errors: one line each, the previous site intact ---------------------------


@pytest.fixture
def small_disk(tmp_path):
    """A 2 MB file system (tmpfs) at tmp_path/disk, where this machine lets one be made."""
    disk = tmp_path / "disk"
    disk.mkdir()
    if sys.platform != "linux" or subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(disk)],
            capture_output=True).returncode != 0:
        pytest.skip("cannot mount a small file system here")
    yield disk
    subprocess.run(["umount", "-l", str(disk)], capture_output=True)


def assert_one_clean_error(result, where: str) -> None:
    assert result.code == 1 and "Traceback" not in result.err, result.err
    errors = [line for line in result.err.splitlines() if ": error: " in line]
    assert len(errors) == 1 and where in errors[0], result.err


def test_a_full_disk_leaves_the_previous_site(tmp_path, small_disk):
    content = large_site(tmp_path, papers=3)
    out = small_disk / "site"
    assert run_cli(*build_args(content, out)).code == 0
    before = tree_bytes(out)
    content = large_site(tmp_path, papers=400)  # more than the disk holds
    result = run_cli(*build_args(content, out))
    assert_one_clean_error(result, str(small_disk))
    assert "No space left on device" in result.err
    assert tree_bytes(out) == before
    leftovers = [p.name for p in small_disk.rglob("*") if ".tmp-" in p.name]
    assert leftovers == []
    for extra in (content / "publications").glob("p*.md"):  # back to what fits
        if extra.stem not in ("p0", "p1", "p2"):
            extra.unlink()
    assert run_cli(*build_args(content, out)).code == 0


def test_a_read_only_output_is_one_error(make_site, tmp_path, small_disk):
    content = make_site()
    out = small_disk / "site"
    assert run_cli(*build_args(content, out)).code == 0
    before = tree_bytes(out)
    subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
    edit_title = MINIMAL_PAPER.replace("A Paper", "Changed")
    (content / "publications" / "a-paper.md").write_text(edit_title, encoding="utf-8")
    result = run_cli(*build_args(content, out))
    assert_one_clean_error(result, str(small_disk))
    assert "Read-only file system" in result.err
    assert tree_bytes(out) == before


@pytest.mark.parametrize("damage", ["folder", "not UTF-8"])
def test_a_damaged_manifest_is_one_error(make_site, tmp_path, damage):
    content = make_site()
    out = tmp_path / "site"
    assert run_cli(*build_args(content, out)).code == 0
    manifest = out / ".scholarsite-manifest"
    manifest.unlink()
    if damage == "folder":
        manifest.mkdir()
    else:
        manifest.write_bytes(b"\xff\xfe index.html\n")
    before = tree_bytes(out)
    result = run_cli(*build_args(content, out, "--no-cache"))
    assert_one_clean_error(result, ".scholarsite-manifest")
    assert tree_bytes(out) == before


def test_an_output_folder_that_cannot_be_is_one_error(make_site, tmp_path):
    content = make_site()
    (tmp_path / "a-file").write_text("x", encoding="utf-8")
    result = run_cli(*build_args(content, tmp_path / "a-file" / "site"))
    assert_one_clean_error(result, "which is a file")
    symlink_or_skip(tmp_path / "nowhere", tmp_path / "dangling")
    result = run_cli(*build_args(content, tmp_path / "dangling"))
    assert_one_clean_error(result, "does not exist")


def test_a_very_long_bibtex_key_gives_a_short_address(make_site, tmp_path):
    key = "k" + "x" * 299
    bib = f"@article{{{key}, title={{Long}}, author={{Ada Example}}, journal={{J}}, year=2024}}\n"
    content = make_site({"publications/refs.bib": bib})
    result = run_cli(*build_args(content))
    assert result.code == 0, result.err
    slugs = [p.name for p in (tmp_path / "site" / "publications").iterdir() if p.is_dir()]
    long = [s for s in slugs if s.startswith("kxxx")]
    assert len(long) == 1 and len(long[0]) <= 80
    imported = tmp_path / "imported"
    (imported / "publications").mkdir(parents=True)
    result = run_cli("import-bib", str(content / "publications" / "refs.bib"),
                     "--content", str(imported))
    assert result.code == 0, result.err
    assert [p.stem for p in (imported / "publications").iterdir()] == long


@pytest.mark.skipif(sys.platform != "linux", reason="other systems keep names as text")
def test_a_file_name_that_is_not_text_is_one_error(make_site, tmp_path):
    content = make_site({"files/ok.pdf": "x"})
    with open(os.fsencode(content / "files") + b"/caf\xe9.pdf", "wb") as stream:
        stream.write(b"x")
    result = run_cli(*build_args(content))
    assert_one_clean_error(result, "files/caf")
    assert "name is not UTF-8" in result.err


# --- import-bib never writes through a link ------------------------------------------------


def test_import_bib_never_writes_through_a_link(make_site, tmp_path):
    bib = "@article{k1, title={One}, author={Ada Example}, journal={J}, year=2024}\n"
    (tmp_path / "refs.bib").write_text(bib, encoding="utf-8")
    outside = tmp_path / "outside.md"
    outside.write_text("mine", encoding="utf-8")
    content = make_site()
    symlink_or_skip(outside, content / "publications" / "k1.md")
    result = run_cli("import-bib", str(tmp_path / "refs.bib"), "--content", str(content),
                     "--force")
    assert result.code == 0 and "k1.md: warning: this file is a link" in result.err
    assert outside.read_text(encoding="utf-8") == "mine"
    # A publications folder that is a link out of the content folder: nothing is written.
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    other = tmp_path / "other"
    (other / "site.yaml").parent.mkdir()
    symlink_or_skip(elsewhere, other / "publications")
    result = run_cli("import-bib", str(tmp_path / "refs.bib"), "--content", str(other))
    assert result.code == 1 and "outside the other folder" in result.err
    assert list(elsewhere.iterdir()) == []


def test_a_file_removed_during_the_build_is_one_error(tmp_path):
    """content/files/ is listed when the content is read and copied once the pages are
    written: a file removed in between is named, and the previous site stays."""
    content = large_site(tmp_path)
    write_files(content, {"files/slides.pdf": "%PDF-1.4"})
    out = tmp_path / "site"
    assert run_cli(*build_args(content, out, "--no-cache")).code == 0
    before = tree_bytes(out)
    (content / "publications" / "p0.md").write_text(
        MINIMAL_PAPER.replace("A Paper", "Changed"), encoding="utf-8")
    proc = start_build(*build_args(content, out, "--no-cache"))
    wait_for_staging(tmp_path, proc)
    (content / "files" / "slides.pdf").unlink()
    code, err = proc.wait(120), proc.communicate()[1]
    assert code == 1 and "Traceback" not in err, err
    errors = [line for line in err.splitlines() if ": error: " in line]
    assert len(errors) == 1 and "slides.pdf: error: No such file or directory" in errors[0]
    assert tree_bytes(out) == before
