"""`python build.py deploy`: build, then publish the site as a commit on a branch (gh-pages).

For GitHub Pages' "Deploy from a branch". Done with git's plumbing through a temporary index:
the built files become a tree and a commit on top of the branch's last commit, pushed to the
remote. The user's working tree, index and current branch are never touched; only the
published branch moves, and only when it is new or its last commit is deploy's own (each
ends with a `Published-by: scholarsite deploy` line), unless --force: a mistyped --branch
must not publish the site over your sources. git is the user's own tool here, not part of
the build.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from ..build import BuildOptions, build
from ..reading.settings.publishing import Publishing
from ..diagnostics import ContentError, count_of
from ..output.writer import MANIFEST

GIT_CONFIG = ["-c", "core.autocrlf=false", "-c", "core.safecrlf=false"]  # bytes as built
# The last line of every commit deploy makes: how it knows a branch it may publish onto.
TRAILER = "Published-by: scholarsite deploy"
# Files every built site has at its top, which a branch of sources does not (site/ is
# ignored there): how a site published before the trailer existed is known.
BUILT_FILES = {".nojekyll", "robots.txt", "sitemap.xml", "feed.xml"}


class DeployError(Exception):
    """Publishing failed; the message says why and what to do."""


def run_git(args: list[str], cwd: Path | None = None, env: dict | None = None) -> str:
    """git's output (stripped), or DeployError with git's own message."""
    try:
        proc = subprocess.run(["git", *GIT_CONFIG, *args], cwd=cwd, env=env,
                              capture_output=True, text=True, encoding="utf-8",
                              errors="replace")
    except FileNotFoundError:
        raise DeployError("git is not installed or not on PATH; deploy publishes with git")
    if proc.returncode != 0:
        message = proc.stderr.strip() or proc.stdout.strip()
        raise DeployError(f"git {args[0]} failed: {message}")
    return proc.stdout.strip()


def try_git(args: list[str]) -> str:
    """git's output, or '' when the command fails (a ref that does not exist)."""
    try:
        return run_git(args)
    except DeployError:
        return ""


def check_names(remote: str, branch: str) -> None:
    """Refuse names git would read as something else: an option (`--upload-pack=...` runs
    a command), a whole ref (`refs/heads/main` would make `refs/heads/refs/heads/main`) or
    revision syntax (`@` is HEAD, `@{-1}` the branch before)."""
    for kind, name in (("remote", remote), ("branch", branch)):
        if not name.strip():
            raise DeployError(f"the {kind} name is empty")
        if name.startswith("-"):
            raise DeployError(f"the {kind} name '{name}' starts with '-': git would read it "
                              f"as an option, not as a {kind}")
    if branch.startswith("refs/"):
        raise DeployError(f"'{branch}' is a ref, not a branch name: give the branch's own "
                          f"name, such as '{branch.removeprefix('refs/heads/')}'")
    if branch in ("@", "HEAD") or try_git(["check-ref-format", "--branch", branch]) != branch:
        raise DeployError(f"'{branch}' is not a valid branch name")


def check_repository(branch: str) -> None:
    """Refuse to run outside a repository, or onto a branch that is checked out somewhere."""
    if not try_git(["rev-parse", "--absolute-git-dir"]):
        raise DeployError("not inside a git repository: run deploy from your site's repository "
                          "(the one with the remote to publish to)")
    worktrees = run_git(["worktree", "list", "--porcelain"]).split("\n\n")
    for block in worktrees:
        lines = block.splitlines()
        if f"branch refs/heads/{branch}" in lines:
            where = lines[0].removeprefix("worktree ")
            raise DeployError(f"branch '{branch}' is checked out in '{where}'; deploy would "
                              "change it under you: switch to your source branch first")


def write_tree(site_dir: Path) -> str:
    """The built folder as a git tree, through a temporary index (the user's is untouched)."""
    git_dir = run_git(["rev-parse", "--absolute-git-dir"])
    with tempfile.TemporaryDirectory(prefix="scholarsite-deploy-") as tmp:
        env = dict(os.environ, GIT_INDEX_FILE=str(Path(tmp) / "index"))
        where = ["--git-dir", git_dir, "--work-tree", str(site_dir.resolve())]
        # --force: the user's ignore rules are for their sources, not for the built site.
        run_git([*where, "add", "--all", "--force", "--", ".", f":(exclude){MANIFEST}"],
                cwd=site_dir, env=env)
        return run_git([*where, "write-tree"], cwd=site_dir, env=env)


def find_parent(remote: str, branch: str) -> str:
    """The commit to publish on top of: the remote branch's tip (fetched), else the local
    branch's, else '' for a first publication."""
    listed = run_git(["ls-remote", "--heads", "--", remote, f"refs/heads/{branch}"])
    if listed:
        run_git(["fetch", "--quiet", "--no-tags", "--", remote, f"refs/heads/{branch}"])
        return listed.split()[0]
    return try_git(["rev-parse", "--verify", "--quiet", f"refs/heads/{branch}^{{commit}}"])


def check_published(parent: str, branch: str) -> None:
    """Refuse a branch whose last commit deploy did not make: `--branch main` would put the
    site on top of your sources and push it. A new branch is fine."""
    if not parent:
        return
    message = run_git(["log", "-1", "--format=%B", parent])
    if TRAILER in message.splitlines():
        return
    top = set(run_git(["ls-tree", "--name-only", parent]).splitlines())
    if BUILT_FILES <= top:  # a site an earlier deploy published, before the trailer
        return
    subject = message.splitlines()[0] if message else ""
    raise DeployError(f"branch '{branch}' holds commits deploy did not make (its last is "
                      f"{parent[:12]} \"{subject}\"): the site would go on top of them and be "
                      "pushed. Publish to another --branch, or add --force if this branch is "
                      "meant to hold the site")


def default_message() -> str:
    """Which sources the site was built from, so a published version can be traced back."""
    head = try_git(["rev-parse", "--short", "HEAD"])
    if not head:
        return "Publish site"
    changed = try_git(["--no-optional-locks", "status", "--porcelain", "--untracked-files=no"])
    return f"Publish site from {head}" + (" with uncommitted changes" if changed else "")


def commit_tree(tree: str, parent: str, message: str) -> str:
    args = ["commit-tree", tree, "-m", message, "-m", TRAILER]
    return run_git(args + (["-p", parent] if parent else []))


def update_local_branch(branch: str, commit: str) -> str:
    """Move the local branch to what was published when that loses nothing; a note if not."""
    local = try_git(["rev-parse", "--verify", "--quiet", f"refs/heads/{branch}^{{commit}}"])
    if local and not is_ancestor(local, commit):
        return (f"Your local branch '{branch}' has commits that were not published; it was "
                "left as it was.")
    try:
        run_git(["update-ref", "-m", "scholarsite deploy", f"refs/heads/{branch}", commit,
                 local or "0" * 40])
    except DeployError as exc:
        return f"Your local branch '{branch}' was not moved: {exc}"
    return ""


def is_ancestor(older: str, newer: str) -> bool:
    try:
        run_git(["merge-base", "--is-ancestor", older, newer])
    except DeployError:
        return False
    return True


def publish(site_dir: Path, remote: str, branch: str, message: str, parent: str) -> str:
    """Commit site_dir on top of `parent` (the branch's tip) and push it; returns what was
    done."""
    tree = write_tree(site_dir)
    if parent and run_git(["rev-parse", f"{parent}^{{tree}}"]) == tree:
        return f"Nothing to publish: {remote} {branch} already has this site ({parent[:12]})."
    commit = commit_tree(tree, parent, message)
    run_git(["push", "--quiet", "--", remote, f"{commit}:refs/heads/{branch}"])
    files = len(run_git(["ls-tree", "-r", "--name-only", commit]).splitlines())
    on_top = f" on top of {parent[:12]}" if parent else " (the branch's first commit)"
    note = update_local_branch(branch, commit)
    return (f"Published {files} files to {remote} {branch}: commit {commit[:12]}{on_top}, "
            f"\"{message}\"." + (f"\n{note}" if note else ""))


def run_deploy(args: argparse.Namespace) -> int:
    """The `deploy` command: 0 when published (or already up to date), 1 otherwise."""
    options = BuildOptions(args.content, args.output, args.templates, args.strict,
                           jobs=max(args.jobs, 0), cache=not args.no_cache,
                           publishing=Publishing(future=args.future))
    try:
        check_names(args.remote, args.branch)
        check_repository(args.branch)
        parent = find_parent(args.remote, args.branch)
        if not args.force:
            check_published(parent, args.branch)
        message = args.message or default_message()
        try:
            result = build(options)
        except ContentError as exc:
            for diagnostic in exc.diagnostics:
                print(diagnostic, file=sys.stderr)
            print("Deploy refused: the build has errors; nothing was published.",
                  file=sys.stderr)
            return 1
        for warning in result.warnings:
            print(warning, file=sys.stderr)
        print(f"Built {count_of(result.files, 'file')} "
              f"({count_of(result.papers, 'paper')}) into "
              f"{options.output_dir.as_posix()}/")
        print(publish(options.output_dir, args.remote, args.branch, message, parent))
    except DeployError as exc:
        print(f"error: {exc}", file=sys.stderr)
        print("Nothing was published.", file=sys.stderr)
        return 1
    return 0
