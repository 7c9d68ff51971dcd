"""`scholarsite new DIR`: start a site from the starter that ships in the package.

The starter (scholarsite/starter/) is a small site that builds with no warning: settings
with placeholders, a bio, one paper, one news item, a .gitignore, a GitHub Pages workflow
and a README saying what to edit first. A file whose name begins with `dot-` is written
as `.NAME`: files with dot names are left out of installed packages by some tools, and a
`.gitignore` inside the package would hide the starter's own files from this repository.

requirements.txt names the scholarsite that runs `new` (commands/installsource.py), so the
site's first publish installs that very one; `scholarsite upgrade` (commands/upgrade.py)
later moves the site to another, from the record `new` leaves in `.scholarsite-starter.json`.

Nothing is ever overwritten or deleted: a folder that is not empty is refused, and with
`--force` only the files it lacks are added. Files are created exclusively, so one made
meanwhile by something else is kept too.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from ..diagnostics import Diagnostic
from ..output.paths import find_link_below, why_not_write
from ..output.writer import create_file
from .installsource import Source, find_install_source
from .packwheel import PackError, read_package_file

STARTER = Path(__file__).resolve().parents[1] / "starter"
DOT_PREFIX = "dot-"
REQUIREMENTS = "requirements.txt"
PLACEHOLDER = b"SCHOLARSITE_REQUIREMENT"
# What `new` wrote, by path and digest, and from which scholarsite: `upgrade` replaces a
# file only while it is still what was written, so a file the user changed is kept.
RECORD = ".scholarsite-starter.json"


def list_starter_files() -> dict[str, Path]:
    """The starter's files, by the path each is written to below the new folder. As in
    the wheel (packwheel.py), a hidden file (an editor's swap file) is none of them, nor is
    anything reached through a link: the new site is published."""
    files = {}
    for path in sorted(STARTER.rglob("*")):
        parts = path.relative_to(STARTER).parts
        if path.is_file() and "__pycache__" not in parts \
                and not any(p.startswith(".") for p in parts) \
                and not find_link_below(STARTER, "/".join(parts)):
            names = ["." + p[len(DOT_PREFIX):] if p.startswith(DOT_PREFIX) else p
                     for p in parts]
            files["/".join(names)] = path
    return files


def make_starter_files(source: Source) -> dict[str, bytes]:
    """What `new` writes, by path: the starter, its requirements.txt naming `source`, and
    the wheel when the site carries it."""
    files = {rel: read_package_file(path) for rel, path in list_starter_files().items()}
    if REQUIREMENTS in files:
        files[REQUIREMENTS] = files[REQUIREMENTS].replace(PLACEHOLDER, source.requirement.encode())
    if source.wheel is not None:
        files[f"vendor/{source.wheel.name}"] = source.wheel.data
    return files


def hash_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def make_record(source: Source, written: dict[str, bytes]) -> bytes:
    record = {"scholarsite": source.version, "requirement": source.requirement,
              "files": {rel: hash_bytes(data) for rel, data in sorted(written.items())
                        if not rel.startswith("content/")}}  # content is the user's
    return (json.dumps(record, indent=1, sort_keys=True) + "\n").encode("utf-8")


def check_folder(folder: Path, force: bool) -> str:
    """Why a site may not be started in `folder`, or ''."""
    if folder.exists() and not folder.is_dir():
        return "it is a file; choose a folder that does not exist yet"
    if folder.is_dir() and any(folder.iterdir()) and not force:
        return ("the folder is not empty; choose a new folder, or pass --force to add the "
                "starter's files it lacks (no file is ever overwritten)")
    return ""


def write_starter(folder: Path, force: bool = False) -> tuple[list[str], list[str], Source]:
    """Write the starter into `folder`; returns the files written, the files kept as
    they were, and the scholarsite the site installs. Raises OSError when the folder
    cannot be written, ValueError when it is refused (check_folder) or the running
    scholarsite cannot be named or packed."""
    problem = check_folder(folder, force)
    if problem or not list_starter_files():
        raise ValueError(problem or "the starter is missing from this installation of "
                         "scholarsite (scholarsite/starter/); reinstall it")
    try:
        source = find_install_source()
        files = make_starter_files(source)
    except PackError as exc:
        raise ValueError(f"cannot say which scholarsite the site's workflow installs: {exc}") \
            from exc
    written, kept = {}, []
    for rel, data in files.items():
        if write_new_file(folder, rel, data):
            written[rel] = data
        else:
            kept.append(rel)
    names = list(written)
    if write_new_file(folder, RECORD, make_record(source, written)):
        names.append(RECORD)
    else:
        kept.append(RECORD)
    return names, kept, source


def write_new_file(folder: Path, rel: str, data: bytes) -> bool:
    """Write `rel` below `folder` when it is not there yet; False, and nothing written, when
    it is, or when it may not be written there (output/paths.why_not_write: a link out)."""
    target = folder / rel
    if folder.is_dir() and why_not_write(folder.resolve() / rel, folder.resolve()):
        return False
    return create_file(target, data)


def run_new(folder: Path, force: bool = False) -> int:
    """The `new` command; exit 0, or 1 with `path: error: message`."""
    try:
        written, kept, source = write_starter(folder, force)
    except ValueError as exc:
        print(Diagnostic(folder.as_posix(), 0, "error", str(exc)), file=sys.stderr)
        return 1
    except OSError as exc:
        where = exc.filename or folder
        print(Diagnostic(Path(where).as_posix(), 0, "error", f"cannot write the starter: "
                         f"{exc.strerror or exc}"), file=sys.stderr)
        return 1
    for rel in written:
        print(f"wrote {(folder / rel).as_posix()}")
    for rel in kept:
        print(f"kept  {(folder / rel).as_posix()} (it was there already)")
    print(f"The site's workflow installs scholarsite {source.version} {source.how} "
          f"({REQUIREMENTS}).")
    print(f"Started a site in {folder.as_posix()}/. Next: cd {folder.as_posix()}, edit "
          "content/site.yaml (README.md there says what else), and run `scholarsite serve`.")
    return 0
