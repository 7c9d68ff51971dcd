"""`python build.py deploy`: real git, a bare repository in a temporary folder as the remote;
and the files GitHub Pages reads (CNAME, .nojekyll)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import (MINIMAL_CONFIG, MINIMAL_PAPER, TEMPLATES, build_args, run_cli,
                      write_files)

from scholarsite.output.cache import CACHE_DIR

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def git(*args: str, cwd: Path) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True,
                          encoding="utf-8").stdout.strip()


@pytest.fixture(autouse=True)
def git_identity(monkeypatch):
    """A known author, and no settings from the machine's own git configuration."""
    for key in ("AUTHOR", "COMMITTER"):
        monkeypatch.setenv(f"GIT_{key}_NAME", "Ada Example")
        monkeypatch.setenv(f"GIT_{key}_EMAIL", "ada@example.org")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")


@pytest.fixture
def repo(tmp_path) -> Path:
    """A user's site repository on branch main, with a bare repository as its origin."""
    remote = tmp_path / "remote.git"
    git("init", "--quiet", "--bare", str(remote), cwd=tmp_path)
    work = tmp_path / "work"
    work.mkdir()
    git("init", "--quiet", "-b", "main", cwd=work)
    write_files(work, {".gitignore": "/site/\n", "content/site.yaml": MINIMAL_CONFIG,
                       "content/publications/a-paper.md": MINIMAL_PAPER})
    git("add", "-A", cwd=work)
    git("commit", "--quiet", "-m", "Sources", cwd=work)
    git("remote", "add", "origin", "../remote.git", cwd=work)
    return work


def deploy(work: Path, *extra: str):
    return run_cli("deploy", "--content", "content", "--templates", str(TEMPLATES), *extra,
                   cwd=work)


def user_state(work: Path) -> tuple:
    """Everything of the user's that deploy must not touch (not the tool's own folders)."""
    return (git("symbolic-ref", "HEAD", cwd=work), git("rev-parse", "HEAD", cwd=work),
            git("status", "--porcelain", "--untracked-files=all", cwd=work),
            (work / ".git" / "index").read_bytes(),
            {p.relative_to(work).as_posix(): p.read_bytes()
             for p in sorted(work.rglob("*")) if p.is_file() and ".git" not in p.parts
             and p.relative_to(work).parts[0] not in ("site", ".site.images", CACHE_DIR)})


def remote_git(work: Path, *args: str) -> str:
    return git("--git-dir", str(work.parent / "remote.git"), *args, cwd=work)


def test_deploy_publishes_the_built_site_on_top_of_the_last_one(repo):
    before = user_state(repo)
    first = deploy(repo)
    assert first.code == 0, first.err
    tip = remote_git(repo, "rev-parse", "gh-pages")
    assert re.search(rf"Published (\d+) files to origin gh-pages: commit {tip[:12]} \(the "
                     r"branch's first commit\)", first.out)
    assert user_state(repo) == before
    published = set(remote_git(repo, "ls-tree", "-r", "--name-only", "gh-pages").splitlines())
    built = {p.relative_to(repo / "site").as_posix()
             for p in (repo / "site").rglob("*") if p.is_file()}
    assert published == built - {".scholarsite-manifest"}
    assert {".nojekyll", "index.html", "assets/style.css"} <= published
    index = subprocess.run(["git", "--git-dir", str(repo.parent / "remote.git"), "show",
                            "gh-pages:index.html"], capture_output=True, check=True).stdout
    assert index == (repo / "site" / "index.html").read_bytes()
    source = git("rev-parse", "--short", "HEAD", cwd=repo)
    assert remote_git(repo, "log", "-1", "--format=%B", "gh-pages") == \
        f"Publish site from {source}\n\nPublished-by: scholarsite deploy"

    write_files(repo, {"content/publications/a-paper.md":
                       MINIMAL_PAPER.replace("A Paper", "A Better Paper")})
    before = user_state(repo)
    second = deploy(repo, "--message", "Spring update")
    assert second.code == 0, second.err
    assert user_state(repo) == before
    new_tip = remote_git(repo, "rev-parse", "gh-pages")
    assert f"commit {new_tip[:12]} on top of {tip[:12]}" in second.out
    assert remote_git(repo, "rev-parse", "gh-pages^") == tip
    assert remote_git(repo, "log", "-1", "--format=%s", "gh-pages") == "Spring update"
    assert "A Better Paper" in remote_git(repo, "show", "gh-pages:publications/index.html")
    assert git("rev-parse", "refs/heads/gh-pages", cwd=repo) == new_tip

    third = deploy(repo)
    assert third.code == 0, third.err
    assert "Nothing to publish" in third.out
    assert remote_git(repo, "rev-parse", "gh-pages") == new_tip


def test_a_fresh_clone_publishes_on_top_of_the_remote_branch(repo, tmp_path):
    assert deploy(repo).code == 0
    tip = remote_git(repo, "rev-parse", "gh-pages")
    clone = tmp_path / "clone"
    git("clone", "--quiet", str(tmp_path / "remote.git"), str(clone), cwd=tmp_path)
    git("push", "--quiet", str(clone), "main", cwd=repo)  # sources reach the clone too
    git("checkout", "--quiet", "main", cwd=clone)
    write_files(clone, {"content/publications/b-paper.md": MINIMAL_PAPER.replace(
        "A Paper", "Another Paper")})
    result = deploy(clone, "--message", "From the laptop")
    assert result.code == 0, result.err
    assert remote_git(repo, "rev-parse", "gh-pages^") == tip


def test_deploy_refuses_a_site_with_errors(repo):
    write_files(repo, {"content/publications/broken.md": "---\ntitle: Broken\n---\n"})
    before = user_state(repo)
    result = deploy(repo)
    assert result.code == 1
    assert re.search(r"content/publications/broken\.md:\d+: error: ", result.err)
    assert "Deploy refused: the build has errors; nothing was published." in result.err
    assert remote_git(repo, "for-each-ref") == ""
    assert user_state(repo) == before


def test_deploy_refuses_the_branch_you_are_on(repo):
    git("checkout", "--quiet", "-b", "gh-pages", cwd=repo)
    result = deploy(repo)
    assert result.code == 1
    assert "branch 'gh-pages' is checked out in" in result.err
    assert remote_git(repo, "for-each-ref") == ""


def test_deploy_needs_a_repository_and_a_remote(repo, tmp_path):
    outside = tmp_path / "outside"
    shutil.copytree(repo / "content", outside / "content")
    result = deploy(outside)
    assert result.code == 1
    assert "not inside a git repository" in result.err
    result = deploy(repo, "--remote", str(tmp_path / "no-such-remote.git"))
    assert result.code == 1
    assert "git ls-remote failed" in result.err and "Nothing was published." in result.err


def refs(work: Path) -> tuple[str, str]:
    """Every branch, here and on the remote, with its commit."""
    return git("for-each-ref", cwd=work), remote_git(work, "for-each-ref")


def test_deploy_refuses_a_branch_it_did_not_make(repo):
    """From another branch, `--branch main` would put the site on top of the sources in
    main and push it: refused unless --force, and a branch deploy made needs no --force."""
    git("push", "--quiet", "origin", "main", cwd=repo)
    git("checkout", "--quiet", "-b", "work", cwd=repo)
    sources = git("rev-parse", "main", cwd=repo)
    before = refs(repo)
    result = deploy(repo, "--branch", "main")
    assert result.code == 1
    assert (f"error: branch 'main' holds commits deploy did not make (its last is "
            f"{sources[:12]} \"Sources\")") in result.err
    assert "add --force" in result.err and "Nothing was published." in result.err
    assert refs(repo) == before

    forced = deploy(repo, "--branch", "main", "--force")
    assert forced.code == 0, forced.err
    assert f"on top of {sources[:12]}" in forced.out
    assert remote_git(repo, "rev-parse", "main^") == sources
    write_files(repo, {"content/publications/a-paper.md":
                       MINIMAL_PAPER.replace("A Paper", "A Better Paper")})
    again = deploy(repo, "--branch", "main")  # its last commit is now deploy's
    assert again.code == 0, again.err


def test_a_pages_branch_made_by_hand_needs_force(repo, tmp_path):
    hand = tmp_path / "hand"
    git("init", "--quiet", "-b", "gh-pages", str(hand), cwd=tmp_path)
    write_files(hand, {"index.html": "<p>My old page</p>\n"})
    git("add", "-A", cwd=hand)
    git("commit", "--quiet", "-m", "Old site", cwd=hand)
    git("push", "--quiet", str(tmp_path / "remote.git"), "gh-pages", cwd=hand)
    old = remote_git(repo, "rev-parse", "gh-pages")
    result = deploy(repo)
    assert result.code == 1
    assert "branch 'gh-pages' holds commits deploy did not make" in result.err
    assert remote_git(repo, "rev-parse", "gh-pages") == old
    forced = deploy(repo, "--force")
    assert forced.code == 0, forced.err
    assert remote_git(repo, "rev-parse", "gh-pages^") == old


def test_a_site_published_before_the_marker_existed_is_published_onto(repo, tmp_path):
    """A branch holding a built site (its top has .nojekyll, robots.txt, sitemap.xml and
    feed.xml), committed without deploy's trailer line, needs no --force."""
    old_site = tmp_path / "old-site"
    git("init", "--quiet", "-b", "gh-pages", str(old_site), cwd=tmp_path)
    write_files(old_site, {".nojekyll": "", "robots.txt": "x", "sitemap.xml": "x",
                           "feed.xml": "x", "index.html": "<p>Old</p>\n"})
    git("add", "-A", cwd=old_site)
    git("commit", "--quiet", "-m", "Publish site from 1234567", cwd=old_site)
    git("push", "--quiet", str(tmp_path / "remote.git"), "gh-pages", cwd=old_site)
    old = remote_git(repo, "rev-parse", "gh-pages")
    result = deploy(repo)
    assert result.code == 0, result.err
    assert remote_git(repo, "rev-parse", "gh-pages^") == old


@pytest.mark.parametrize("option, problem", [
    ("--branch=refs/heads/main", "'refs/heads/main' is a ref, not a branch name: give the "
     "branch's own name, such as 'main'"),
    ("--branch=refs/heads/gh-pages", "'refs/heads/gh-pages' is a ref, not a branch name"),
    ("--branch=@", "'@' is not a valid branch name"),
    ("--branch=HEAD", "'HEAD' is not a valid branch name"),
    ("--branch=@{-1}", "'@{-1}' is not a valid branch name"),
    ("--branch=a..b", "'a..b' is not a valid branch name"),
    ("--branch=-x", "the branch name '-x' starts with '-': git would read it as an option"),
    ("--branch=", "the branch name is empty"),
    ("--remote=--upload-pack=touch pwned", "the remote name '--upload-pack=touch pwned' "
     "starts with '-': git would read it as an option, not as a remote"),
    ("--remote=-v", "the remote name '-v' starts with '-'"),
])
def test_deploy_refuses_names_git_would_misread(repo, option, problem):
    git("checkout", "--quiet", "-b", "work", cwd=repo)
    git("checkout", "--quiet", "main", cwd=repo)  # so that @{-1} would name 'work'
    before = refs(repo)
    result = deploy(repo, option)
    assert result.code == 1
    assert f"error: {problem}" in result.err
    assert "Nothing was published." in result.err and "Traceback" not in result.err
    assert refs(repo) == before
    assert not (repo / "pwned").exists()  # the remote's upload-pack command never ran


def test_cname_and_nojekyll(make_site, tmp_path):
    content = make_site({"site.yaml": MINIMAL_CONFIG.replace(
        "url: https://example.org/", "url: https://www.lab.example/\ncname: www.lab.example")})
    result = run_cli(*build_args(content))
    assert result.code == 0, result.err
    assert (tmp_path / "site" / "CNAME").read_bytes() == b"www.lab.example\n"
    assert (tmp_path / "site" / ".nojekyll").read_bytes() == b""


def test_no_cname_without_the_setting(make_site, tmp_path):
    assert run_cli(*build_args(make_site())).code == 0
    assert not (tmp_path / "site" / "CNAME").exists()
    assert (tmp_path / "site" / ".nojekyll").is_file()


@pytest.mark.parametrize("value", ["https://www.lab.example/", "lab.example/people",
                                   "localhost", "-lab.example"])
def test_cname_must_be_a_domain_name(make_site, value):
    content = make_site({"site.yaml": MINIMAL_CONFIG + f"cname: {value}\n"})
    result = run_cli(*build_args(content))
    assert result.code == 1
    assert re.search(r"site\.yaml:7: error: 'cname' must be a bare domain name", result.err)


def test_cname_that_differs_from_url_is_a_warning(make_site):
    content = make_site({"site.yaml": MINIMAL_CONFIG + "cname: www.lab.example\n"})
    result = run_cli(*build_args(content))
    assert result.code == 0
    assert re.search(r"site\.yaml:7: warning: 'cname' is www.lab.example but 'url' is "
                     r"https://example.org/", result.err)
