"""What a build read: every input file listed before anything is read, each by a hash of
its bytes (a file over 1 MiB, such as a PDF to copy, by its identity: size, modification
and change times, inode), for the record of the build (record.py) to say what the site
was built from, and for the next build to find what changed."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Callable, Sequence

from ..output.cache import CACHE_DIR, FileIdentity, hash_bytes, identity_of
from ..output.paths import read_regular

# Inputs up to this size are known by a hash of their bytes; larger ones by their identity.
HASHED_SIZE = 1 << 20
# A large file changed this close to a recorded build may have changed within the same
# clock tick as it was looked at: its identity is not trusted (git calls such entries racy).
RACY_SECONDS = 2.0

InputKey = tuple  # ("hash", digest) or ("identity", FileIdentity)


def list_inputs(folders: list[Path], skip: list[Path],
                read_later: Callable[[str], bool] | None = None,
                known: Callable[[str, FileIdentity], InputKey | None] | None = None,
                identities: dict[str, FileIdentity] | None = None
                ) -> dict[str, InputKey | None]:
    """Every file below `folders` (the content and the templates), by absolute path,
    leaving out the folders in `skip` (the output and the cache, should they be inside)
    and hidden files and folders (the output's staging folders among them). A file for
    which `read_later(path)` holds, and that is to be hashed, is listed as None: the
    build hashes its bytes when it reads them (`fill_inputs`), rather than reading every
    paper file twice. A file that `known(path, identity)` knows is not read at all. The
    identity of each file to be hashed is put in `identities`."""
    skipped = {os.path.abspath(p) for p in skip}
    found: dict[str, InputKey | None] = {}
    for folder in folders:
        for where, dirs, names in os.walk(os.path.abspath(folder)):
            # Hidden files are never read by a build (.git/ is not content): not listed.
            dirs[:] = sorted(d for d in dirs if os.path.join(where, d) not in skipped
                             and not d.startswith("."))
            for name in sorted(n for n in names if not n.startswith(".")):
                path = os.path.join(where, name)
                try:
                    found[path] = describe_input(path, read_later, known, identities)
                except OSError:
                    continue
    return found


def describe_input(path: str, read_later: Callable[[str], bool] | None = None,
                   known: Callable[[str, FileIdentity], InputKey | None] | None = None,
                   identities: dict[str, FileIdentity] | None = None) -> InputKey | None:
    status = os.stat(path)
    identity = identity_of(status)
    if identity[0] > HASHED_SIZE or not stat.S_ISREG(status.st_mode):
        return ("identity", identity)  # a pipe or device is never opened: it may not end
    if identities is not None:
        identities[path] = identity
    key = known(path, identity) if known is not None else None
    if key is not None:
        return key
    if read_later is not None and read_later(path):
        return None
    return ("hash", hash_bytes(read_regular(path)))


def fill_inputs(inputs: dict[str, InputKey | None], hashes: dict[str, str]
                ) -> dict[str, InputKey]:
    """`inputs` with the hash of each file left to be read (None) taken from `hashes`
    (by absolute path: the bytes the build read, so the record says what it was built
    from), or, for a file that was not read after all, from the file as it is now."""
    filled: dict[str, InputKey] = {}
    for path, key in inputs.items():
        if key is None:
            digest = hashes.get(path)
            try:
                key = ("hash", digest) if digest else describe_input(path)
            except OSError:
                continue
        filled[path] = key
    return filled



def build_settings(content: Path, out: Path, templates: Sequence[Path], mode: tuple
                   ) -> tuple:
    """`templates`: the folders templates are looked up in (the site's, the theme); `mode`:
    the options that change what is built (--strict, what is published: BuildOptions.mode)."""
    return (os.path.abspath(content), os.path.abspath(out),
            tuple(os.path.abspath(folder) for folder in templates), mode, os.getcwd())


def input_folders(content: Path, out: Path, templates: Sequence[Path]
                  ) -> tuple[list[Path], list[Path]]:
    """The folders a build reads, and those inside them that it must not count."""
    out = Path(os.path.abspath(out))
    return [content, *templates], [out, out.parent / CACHE_DIR]


def is_settled(key: InputKey, started: float) -> bool:
    """A hash always; a file's identity when it is older than the build that recorded it
    by more than a clock tick could hide."""
    return key[0] != "identity" or max(key[1][1], key[1][2]) / 1e9 < started - RACY_SECONDS
