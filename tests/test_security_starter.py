"""`new` and `upgrade` against a hostile install record, site record and checkout: what pip
recorded never adds a line to requirements.txt, upgrade never reads, writes or deletes
through a link or outside its own files, and the wheel a site carries holds only the
package's declared files. Each through the real command line.

A fake installation stands in for pip's: a folder holding a link to this checkout's
package and a dist-info beside it, as pip lays them out, whose direct_url.json each test
writes; no wheel is built and no environment made.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import ROOT, run_cli, tree_bytes, write_files

COMMIT = "0123456789abcdef0123456789abcdef01234567"
GIT = {"url": "https://github.com/example/scholarsite",
       "vcs_info": {"vcs": "git", "commit_id": COMMIT}}
needs_links = pytest.mark.skipif(os.name == "nt", reason="symbolic links need privileges")


def make_fake_install(folder: Path, origin: dict) -> Path:
    """`folder` as pip leaves a site-packages: scholarsite (this checkout's, by a link) and
    its dist-info, recording `origin` as where it came from."""
    write_files(folder / "scholarsite-0.1.0.dist-info", {
        "METADATA": "Metadata-Version: 2.1\nName: scholarsite\nVersion: 0.1.0\n",
        "INSTALLER": "pip\n", "direct_url.json": json.dumps(origin)})
    (folder / "scholarsite").symlink_to(ROOT / "scholarsite", target_is_directory=True)
    return folder


def run_installed(install: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(install), PYTHONIOENCODING="utf-8")
    return subprocess.run([sys.executable, "-m", "scholarsite", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, encoding="utf-8", timeout=120)


def set_origin(install: Path, origin: dict) -> None:
    (install / "scholarsite-0.1.0.dist-info" / "direct_url.json").write_text(
        json.dumps(origin), encoding="utf-8")


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@needs_links
def test_what_pip_recorded_never_adds_a_line_to_requirements_txt(tmp_path):
    """A line break in direct_url.json's address, commit or hash would give pip an option
    (--index-url) or another package in the site's workflows: refused, nothing written."""
    install = make_fake_install(tmp_path / "env", GIT)
    made = run_installed(install, "new", "site", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    requirements = (tmp_path / "site" / "requirements.txt").read_bytes()
    assert requirements.decode().splitlines()[-1] == \
        f"scholarsite @ git+https://github.com/example/scholarsite@{COMMIT}"
    evil = "\n--index-url https://evil.example/simple\nevilpackage"
    hostile = [dict(GIT, url=GIT["url"] + evil),
               dict(GIT, vcs_info={"vcs": "git", "commit_id": COMMIT + evil}),
               {"url": "https://example.org/scholarsite-0.1.0.tar.gz",
                "archive_info": {"hashes": {"sha256": "ab" * 32 + evil}}},
               dict(GIT, url=GIT["url"] + " ; python_version < '3'")]
    for i, origin in enumerate(hostile):
        set_origin(install, origin)
        refused = run_installed(install, "new", f"bad{i}", cwd=tmp_path)
        assert refused.returncode == 1 and "Traceback" not in refused.stderr, refused.stderr
        assert refused.stderr.startswith(f"bad{i}: error: ") and "direct_url.json" in \
            refused.stderr, refused.stderr
        assert not (tmp_path / f"bad{i}").exists()
    upgraded = run_installed(install, "upgrade", "site", cwd=tmp_path)
    assert upgraded.returncode == 1 and "direct_url.json" in upgraded.stderr
    assert (tmp_path / "site" / "requirements.txt").read_bytes() == requirements


def make_site_from_git(tmp_path: Path) -> tuple[Path, Path]:
    """A fake installation from git, and a site `new` made with it."""
    install = make_fake_install(tmp_path / "env", GIT)
    made = run_installed(install, "new", "site", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    return install, tmp_path / "site"


@needs_links
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_upgrade_reads_its_record_only_as_a_regular_file(tmp_path):
    """The record is the site's: a pipe or a link to /dev/zero is an error at it, not a
    hang or a traceback, and nothing is written."""
    install, site = make_site_from_git(tmp_path)
    record = site / ".scholarsite-starter.json"
    record.unlink()
    os.mkfifo(record)
    before = tree_bytes(site)
    piped = run_installed(install, "upgrade", "site", cwd=tmp_path)
    assert piped.returncode == 1 and piped.stderr.startswith(
        "site/.scholarsite-starter.json: error: this is not a regular file"), piped.stderr
    record.unlink()
    record.symlink_to("/dev/zero")
    zero = run_installed(install, "upgrade", "site", cwd=tmp_path)
    assert zero.returncode == 1 and zero.stderr.startswith(
        "site/.scholarsite-starter.json: error: this is a link"), zero.stderr
    assert tree_bytes(site) == before


@needs_links
def test_upgrade_never_touches_content_whatever_its_record_says(tmp_path):
    """Whatever the record names (`vendor/../content/index.md`; a paper, or a file named
    as a wheel, through a vendor/ linked to content/publications), upgrade deletes only
    wheels it wrote, and writes only its own files, never through a link (.github linked
    to content), even with --force."""
    install, site = make_site_from_git(tmp_path)
    record = site / ".scholarsite-starter.json"
    files = json.loads(record.read_text(encoding="utf-8"))["files"]
    papers = site / "content" / "publications"
    (papers / "scholarsite-0.0.1-py3-none-any.whl").write_bytes(b"a paper's data")
    shutil.rmtree(site / ".github")
    (site / ".github").symlink_to("content", target_is_directory=True)
    before = tree_bytes(site / "content")

    def upgrade_naming(names: dict[str, str]) -> None:
        record.write_text(json.dumps({"files": dict(files, **names)}), encoding="utf-8")
        result = run_installed(install, "upgrade", "--force", "site", cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        assert tree_bytes(site / "content") == before
        assert "site/.github/workflows/pages.yml: warning: '.github' is a link" in result.stderr
        assert "removed" not in result.stdout

    (site / "vendor").mkdir()
    upgrade_naming({"vendor/../content/index.md": sha256(site / "content" / "index.md")})
    (site / "vendor").rmdir()
    (site / "vendor").symlink_to("content/publications", target_is_directory=True)
    upgrade_naming({"vendor/example-paper-2025.md": sha256(papers / "example-paper-2025.md"),
                    "vendor/scholarsite-0.0.1-py3-none-any.whl":
                        sha256(papers / "scholarsite-0.0.1-py3-none-any.whl")})


@needs_links
def test_every_command_writes_through_no_link_even_one_inside_the_folder(make_site, tmp_path):
    """import-bib, as every command asks output/paths.why_not_write: a publications/
    linked to another folder of the content is not written through."""
    content = make_site()
    (content / "publications").rename(content / "papers")
    (content / "publications").symlink_to("papers", target_is_directory=True)
    bib = tmp_path / "refs.bib"
    bib.write_text("@article{k1, title={One}, author={Ada Example}, journal={J}, year=2024}\n",
                   encoding="utf-8")
    before = tree_bytes(content)
    result = run_cli("import-bib", str(bib), "--content", str(content))
    assert result.code == 1 and "'publications' is a link" in result.err, result.err
    assert tree_bytes(content) == before


def copy_checkout(target: Path) -> Path:
    skip = shutil.ignore_patterns("__pycache__")
    for name in ("scholarsite", "templates"):
        shutil.copytree(ROOT / name, target / name, ignore=skip)
    for name in ("pyproject.toml", "build.py"):
        shutil.copy2(ROOT / name, target / name)
    return target


@needs_links
def test_the_carried_wheel_holds_the_declared_files_only_never_a_link(tmp_path):
    """A checkout's hidden files (.env, an editor's swap file) are no package file (nor a
    starter file), and a link among its files (to ~/.ssh) stops the packing: the wheel is
    committed to the site's public repository."""
    checkout = copy_checkout(tmp_path / "checkout")
    write_files(checkout, {"scholarsite/.env": "TOKEN=secret\n",
                           "scholarsite/commands/.new.py.swp": "swap\n",
                           "templates/.notes.html": "notes\n",
                           "scholarsite/starter/content/.index.md.swp": "swap\n"})
    write_files(tmp_path / "home", {".ssh/id_rsa": "PRIVATE KEY\n"})
    (checkout / "scholarsite/data/key").symlink_to(tmp_path / "home/.ssh/id_rsa")
    (checkout / "templates/ssh").symlink_to(tmp_path / "home/.ssh", target_is_directory=True)
    build = [sys.executable, str(checkout / "build.py"), "new"]
    refused = subprocess.run([*build, "linked"], cwd=tmp_path, capture_output=True, text=True)
    assert refused.returncode == 1 and "Traceback" not in refused.stderr, refused.stderr
    assert "scholarsite/data/key (scholarsite/data/key is a link)" in refused.stderr
    assert "scholarsite/theme/ssh/id_rsa (templates/ssh is a link)" in refused.stderr
    assert not (tmp_path / "linked").exists()
    (checkout / "scholarsite/data/key").unlink()
    (checkout / "templates/ssh").unlink()
    made = subprocess.run([*build, "site"], cwd=tmp_path, capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    names = zipfile.ZipFile(next((tmp_path / "site/vendor").glob("*.whl"))).namelist()
    assert [n for n in names if "/." in n] == []
    assert not (tmp_path / "site/content/.index.md.swp").exists()
    assert {"scholarsite/commands/new.py", "scholarsite/theme/base.html",
            "scholarsite/starter/dot-gitignore"} <= set(names)
