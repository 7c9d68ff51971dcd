"""Before anything is written, the migration is built in a temporary folder, as `build`
would build the content folder afterwards (the owner's files there included). Whatever
stops that build is taken out of the migration: a moved file the build refuses is left
behind with the build's own message, a redirect it refuses is dropped with a note. So what
migrate writes builds; what it cannot settle this way is said, and migrate exits 1."""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path

from ...build import BuildOptions, build
from ...diagnostics import ContentError, Diagnostic
from .model import Migration
from .write import SITE_YAML, write_migration

ROUNDS = 8  # each round takes something out; a real site settles in one or two
_REDIRECT = re.compile(r"redirect '([^']+)'")


def settle_build(mig: Migration, content: Path, force: bool) -> list[Diagnostic]:
    """Build `mig` as it would be written into `content`, taking out what stops the
    build, until it builds; the errors it could not settle (none when it builds)."""
    errors: list[Diagnostic] = []
    for _ in range(ROUNDS):
        try:
            errors = try_build(mig, content, force)
        except Exception:  # noqa: BLE001 - a build that fails otherwise: read_back says it
            return []
        if not errors or not take_out(mig, errors):
            break
    return errors


def try_build(mig: Migration, content: Path, force: bool) -> list[Diagnostic]:
    """The errors of a build of `content` with the migration written in (in a copy)."""
    with tempfile.TemporaryDirectory(prefix="scholarsite-migrate-") as tmp:
        trial = Path(tmp) / "content"
        if content.is_dir():
            shutil.copytree(content, trial, symlinks=True)
        done = write_migration(mig, trial, force)
        if done.problems:
            return []  # written for real, the same problems stop migrate and are said
        try:
            # Previews are not drawn: the site is thrown away, and their problems are
            # found without (plan/previews.py).
            build(BuildOptions(trial, Path(tmp) / "site", cache=False, jobs=1,
                               draw_previews=False))
        except ContentError as exc:
            return [with_path(d, trial) for d in exc.diagnostics if d.severity == "error"]
    return []


def with_path(diagnostic: Diagnostic, trial: Path) -> Diagnostic:
    """`diagnostic` with its path below the content folder ('' when outside it)."""
    path = Path(diagnostic.path)
    path = path if path.is_absolute() else Path.cwd() / path
    try:
        rel = path.resolve().relative_to(trial.resolve()).as_posix()
    except ValueError:
        rel = ""
    return Diagnostic(rel, diagnostic.line, diagnostic.severity, diagnostic.message)


def take_out(mig: Migration, errors: list[Diagnostic]) -> bool:
    """Take out of `mig` what each error names; whether anything was taken out."""
    taken = False
    for error in errors:
        if error.path in mig.files:
            new = mig.files.pop(error.path)
            mig.leave(new.origin, f"not moved: the new site would not build with it "
                      f"({error.message})")
            taken = True
        elif error.path == SITE_YAML and (named := _REDIRECT.search(error.message)):
            taken = drop_redirect(mig, named.group(1), error.message) or taken
    return taken


def drop_redirect(mig: Migration, address: str, why: str) -> bool:
    old = next((k for k in mig.redirects if k.strip("/") == address.strip("/")), None)
    if old is None:
        return False
    new = mig.redirects.pop(old)
    mig.add_review(SITE_YAML, f"the old address /{old} was not redirected to /{new}: {why}")
    return True
