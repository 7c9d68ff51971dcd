"""`scholarsite new DIR`: start a site from the starter that ships in the package.

The starter (scholarsite/starter/) is a small site that builds with no warning: settings
with placeholders, a bio, one paper, one news item, a .gitignore, a GitHub Pages workflow
and a README saying what to edit first. A file whose name begins with `dot-` is written
as `.NAME`: files with dot names are left out of installed packages by some tools, and a
`.gitignore` inside the package would hide the starter's own files from this repository.

Nothing is ever overwritten or deleted: a folder that is not empty is refused, and with
`--force` only the files it lacks are added. Files are created exclusively, so one made
meanwhile by something else is kept too.
"""

from __future__ import annotations

import json
import sys
from importlib import metadata
from pathlib import Path
from urllib.parse import urlsplit

from ..diagnostics import Diagnostic

STARTER = Path(__file__).resolve().parents[1] / "starter"
DOT_PREFIX = "dot-"
REQUIREMENTS = "requirements.txt"
PLACEHOLDER = "scholarsite @ git+https://github.com/OWNER/scholarsite@main"


def list_starter_files() -> dict[str, Path]:
    """The starter's files, by the path each is written to below the new folder."""
    files = {}
    for path in sorted(STARTER.rglob("*")):
        parts = path.relative_to(STARTER).parts
        if path.is_file() and "__pycache__" not in parts:
            names = ["." + p[len(DOT_PREFIX):] if p.startswith(DOT_PREFIX) else p
                     for p in parts]
            files["/".join(names)] = path
    return files


def find_install_source() -> str | None:
    """`scholarsite @ git+URL@COMMIT` when this scholarsite was installed by pip from a
    public git address (pip records where from: direct_url.json), so that the new site's
    workflow installs the very same; None otherwise."""
    try:
        data = json.loads(metadata.distribution("scholarsite").read_text("direct_url.json")
                          or "null")
    except (metadata.PackageNotFoundError, ValueError, OSError):
        return None
    vcs = data.get("vcs_info") if isinstance(data, dict) else None
    url = data.get("url") if isinstance(vcs, dict) else None
    if not isinstance(url, str) or vcs.get("vcs") != "git" \
            or not isinstance(vcs.get("commit_id"), str):
        return None
    parts = urlsplit(url)
    if parts.scheme != "https" or "@" in parts.netloc:  # no credentials into a public file
        return None
    return f"scholarsite @ git+{url}@{vcs['commit_id']}"


def read_starter_file(rel: str, source: Path) -> bytes:
    data = source.read_bytes()
    found = find_install_source() if rel == REQUIREMENTS else None
    return data.replace(PLACEHOLDER.encode(), found.encode()) if found else data


def check_folder(folder: Path, force: bool) -> str:
    """Why a site may not be started in `folder`, or ''."""
    if folder.exists() and not folder.is_dir():
        return "it is a file; choose a folder that does not exist yet"
    if folder.is_dir() and any(folder.iterdir()) and not force:
        return ("the folder is not empty; choose a new folder, or pass --force to add the "
                "starter's files it lacks (no file is ever overwritten)")
    return ""


def write_starter(folder: Path, force: bool = False) -> tuple[list[str], list[str]]:
    """Write the starter into `folder`; returns the files written and the files kept as
    they were. Raises OSError when the folder cannot be written, ValueError when it is
    refused (check_folder)."""
    problem = check_folder(folder, force)
    files = list_starter_files()
    if problem or not files:
        raise ValueError(problem or "the starter is missing from this installation of "
                         "scholarsite (scholarsite/starter/); reinstall it")
    written, kept = [], []
    for rel, source in files.items():
        target = folder / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            with open(target, "xb") as stream:  # exclusive: never replaces a file
                stream.write(read_starter_file(rel, source))
        except FileExistsError:
            kept.append(rel)
            continue
        written.append(rel)
    return written, kept


def run_new(folder: Path, force: bool = False) -> int:
    """The `new` command; exit 0, or 1 with `path: error: message`."""
    try:
        written, kept = write_starter(folder, force)
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
    print(f"Started a site in {folder.as_posix()}/. Next: cd {folder.as_posix()}, edit "
          "content/site.yaml (README.md there says what else), and run `scholarsite serve`.")
    return 0
