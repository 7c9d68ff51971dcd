"""`scholarsite upgrade [DIR]`: move a site to the scholarsite installed here.

It writes again the files `new` wrote outside `content/` (requirements.txt, the
workflows, .gitignore, README.md, the wheel in vendor/ when the site carries one), as the
running scholarsite has them, so a site's starter files never fall behind the tool. A
file is replaced only while it is what `new` or the last upgrade wrote (its digest in
`.scholarsite-starter.json`); one the user changed is kept and named, unless --force.
`content/` is never read or written. A wheel in vendor/ that the record knows, and that
the new requirement no longer names, is removed.

The record is the site's, so it is read as any file from outside: by the guarded reader
(a regular file, not a link, of a sane size). Upgrade touches only the files it writes, by
their exact names, never through a link, and removes only a file named as the wheels it
writes: whatever a record names, nothing else of the site is deleted.
"""

from __future__ import annotations

import json
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from ..diagnostics import Diagnostic, Diagnostics, printable
from ..output.paths import open_regular, why_not_write
from ..output.writer import replace_file
from ..reading.settings.yamlread import read_bytes
from .installsource import VENDOR, Source, find_install_source
from .new import RECORD, hash_bytes, make_record, make_starter_files
from .packwheel import PackError

# The starter files of sites made before `new` kept a record (scholarsite 0.1.0 up to
# this one): a file still as shipped then is the tool's to replace, the placeholder
# requirements.txt above all, which no workflow could install from.
UNRECORDED = {
    "requirements.txt": "bd015824f1097b3b139caf808b61da1e248b1cfc3b60952e1a1fa138bda996c0",
    ".github/workflows/pages.yml":
        "da90898eed1152b0dbb9aa412c9e6c4f88962eeeb7245f65748285df67e4c3f5",
    ".github/workflows/update.yml":
        "ed07c80cf3ae41880fcbec589d34e6458bd3822c13ee0bd7b97b15ed699483d0",
    ".gitignore": "3deed1161cde9bfc6e2bc8cf918c1076308da7c12d73dd7df73c521557b12767",
    "README.md": "f0ebe8d93fd90eb8af6272884461e6b98c9f5ad3dc401c803c4b9597fa060a44",
}
# The only files upgrade removes: a wheel as `new` and upgrade name the one they write.
RELEASE = re.compile(r"(\d+(?:\.\d+)*)(?![\d.])")  # a version's release numbers: 1.2.0
VENDORED_WHEEL = re.compile(rf"{VENDOR}/scholarsite-[A-Za-z0-9.+!_]+-py3-none-any\.whl")


@dataclass
class Outcome:
    written: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)     # changed by the user: left as it is
    removed: list[str] = field(default_factory=list)
    refused: list[tuple[str, str]] = field(default_factory=list)  # (path, why not written)
    record: dict[str, bytes] = field(default_factory=dict)  # what the record now lists


def read_record(folder: Path, diags: Diagnostics) -> dict | None:
    """The last record of what was written, or {} (a site made before records, or a
    record that is not ours); None, with an error, when it is no file to read."""
    path = folder / RECORD
    if not os.path.lexists(path):
        return {}
    if os.path.islink(path):
        diags.error(path, 0, "this is a link; upgrade reads the site's own record, never "
                    "through a link: replace it with the file, or remove it")
        return None
    data = read_bytes(path, diags, folder)
    if data is None:
        return None
    try:
        record = json.loads(data)
    except (ValueError, RecursionError):  # not JSON, or nested past Python's stack
        return {}
    files = record.get("files") if isinstance(record, dict) else None
    if not isinstance(files, dict):
        return {}
    return dict(record, files={rel: digest for rel, digest in files.items()
                               if isinstance(digest, str)})


def read_if_file(path: Path) -> bytes | None:
    """The file's bytes; None when it is not there, or is no regular file to read."""
    if not path.is_file():
        return None
    with open_regular(path) as stream:
        return stream.read()


def upgrade_site(root: Path, files: dict[str, bytes], known: dict[str, str],
                 force: bool) -> Outcome:
    """Write `files` below `root` (the site, resolved) as the record `known` allows, and
    remove the vendored wheels it knows that `files` no longer holds."""
    outcome = Outcome()
    for rel, data in files.items():
        problem = why_not_write(root / rel, root)  # a link, or out of the site: never
        current = None if problem else read_if_file(root / rel)
        if problem:
            outcome.refused.append((rel, problem))
        elif current == data:
            outcome.record[rel] = data
        elif current is None or force or hash_bytes(current) == known.get(rel):
            replace_file(root / rel, data)
            outcome.written.append(rel)
            outcome.record[rel] = data
        else:
            outcome.kept.append(rel)
    for rel, digest in sorted(known.items()):
        if rel in files or not VENDORED_WHEEL.fullmatch(rel) or why_not_write(root / rel, root):
            continue
        current = read_if_file(root / rel)
        if current is not None and hash_bytes(current) == digest:
            (root / rel).unlink()
            outcome.removed.append(rel)
    return outcome


def write_upgrade_record(folder: Path, source: Source, outcome: Outcome,
                         known: dict[str, str]) -> None:
    """The record: what this upgrade wrote or found as written; a kept file keeps the
    digest it had, so it stays the user's until they take the new one."""
    record = json.loads(make_record(source, outcome.record))
    record["files"].update({rel: known[rel] for rel in outcome.kept if rel in known})
    text = json.dumps(dict(record, files=dict(sorted(record["files"].items()))), indent=1,
                      sort_keys=True) + "\n"
    replace_file(folder / RECORD, text.encode("utf-8"))


def run_upgrade(folder: Path, force: bool = False) -> int:
    """The `upgrade` command: exit 0 (files kept are warnings), or 1 with an error."""
    if not (folder / "content").is_dir():
        print(Diagnostic(folder.as_posix(), 0, "error", "no content/ folder here: run "
                         "`scholarsite upgrade` in a site's folder (the one `new` made), or "
                         "name it: `scholarsite upgrade DIR`"), file=sys.stderr)
        return 1
    diags = Diagnostics()
    record = read_record(folder, diags)
    try:
        source = find_install_source()
        files = {rel: data for rel, data in make_starter_files(source).items()
                 if not rel.startswith("content/")}
    except PackError as exc:
        diags.error(folder, 0, str(exc))
    if record is None or diags.has_errors():
        print("\n".join(map(str, diags.items)), file=sys.stderr)
        return 1
    before = printable(str(record.get("scholarsite", "an unknown version")))  # the site's text
    if is_older(source.version, before):
        back = (f"the site is from scholarsite {before}, newer than this one "
                f"({source.version}): upgrading moves it back to the older version")
        ask = (f"; nothing was written: install scholarsite {before} or newer, or run "
               f"`scholarsite upgrade --force` to move back to {source.version}")
        print(Diagnostic((folder / RECORD).as_posix(), 0, "warning" if force else "error",
                         back + ("" if force else ask)), file=sys.stderr)
        if not force:
            return 1
    known = record.get("files") or UNRECORDED
    outcome = upgrade_site(folder.resolve(), files, known, force)
    write_upgrade_record(folder, source, outcome, record.get("files", {}))
    report_upgrade(folder, source, before, outcome)
    return 0


def is_older(version: str, than: str) -> bool:
    """Whether release `version` ('0.1.0') comes before `than` ('0.2.0'), compared by
    their numbers; False when either is not written so (nothing to judge by)."""
    mine, theirs = RELEASE.match(version), RELEASE.match(than)
    if not mine or not theirs:
        return False
    numbers = [tuple(int(n) for n in m.group(1).split(".")) for m in (mine, theirs)]
    width = max(map(len, numbers))
    padded = [n + (0,) * (width - len(n)) for n in numbers]
    return padded[0] < padded[1]


def report_upgrade(folder: Path, source: Source, before: str, outcome: Outcome) -> None:
    for rel in outcome.written:
        print(f"wrote   {(folder / rel).as_posix()}")
    for rel in outcome.removed:
        print(f"removed {(folder / rel).as_posix()} (the scholarsite it held is not used now)")
    for rel, why in outcome.refused:
        print(Diagnostic((folder / rel).as_posix(), 0, "warning", why), file=sys.stderr)
    for rel in outcome.kept:
        print(Diagnostic((folder / rel).as_posix(), 0, "warning", "kept: you changed this "
                         "file since scholarsite wrote it; `scholarsite upgrade --force` "
                         "replaces it with the new version"), file=sys.stderr)
    moved = "Moved" if "requirements.txt" not in [*outcome.kept, *dict(outcome.refused)] else \
        "Kept requirements.txt as you changed it (so not moved)"
    print(f"{moved}: the site from scholarsite {before} to {source.version} {source.how}: "
          f"{len(outcome.written)} written, {len(outcome.kept)} kept as you changed them, "
          "content/ untouched.")
