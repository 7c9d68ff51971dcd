"""Bring the last site up to date in place, for a build that takes most of its pages from
the last one (fastpath/reuse.py).

Swapping in a whole new folder (writer.staged_site) writes every file again and removes
every file of the old one: at 5,000 papers, well over a second on a virtual disk, for a
build that changed twenty files. Here the taken files stay where they
are. What the build writes goes to a staging folder first, as in staged_site, so an
error while rendering leaves the site untouched; once all is written, each file is moved
into the site whole (os.replace: whoever reads it gets the old file or the new one), the
files the site no longer has are removed, and the manifest is written last.

An interruption while files are moved (a fraction of a second) leaves a site of whole
files, some old and some new, all in the manifest (written before the first move with
the files of both); the build's record is removed before then too, so the next build
does not trust that site and makes it whole again.
"""

from __future__ import annotations

import filecmp
import os
import shutil
import stat
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

from ..output.writer import (MANIFEST, OutputError, _staging_names, follow_link, list_folders,
                             make_staging, read_manifest, refuse_overwrite, remove_output,
                             write_manifest)


def can_patch(out_dir: Path, listing: set[str]) -> bool:
    """Whether the site in `out_dir` can be brought to `listing` in place: it is the tool's
    (it has a manifest), no file of either is a folder of the other, and no path of one
    differs from a path of the other in case alone. On a disk that ignores case (macOS's,
    Windows') a file moved to 'files/cv.pdf' would land on the old 'files/CV.pdf', which
    would then be removed as stale, and a page would keep its old folder's case."""
    out_dir = follow_link(out_dir)
    try:
        old = read_manifest(out_dir) if out_dir.is_dir() else None
    except OutputError:
        return False
    if old is None:
        return False
    old_folders, folders = list_folders(old), list_folders(listing)
    if listing & old_folders or old & folders:
        return False
    names: dict[str, str] = {}
    for rel in old | listing | old_folders | folders:
        if names.setdefault(rel.casefold(), rel) != rel:
            return False
    return True


@contextmanager
def patched_site(out_dir: Path, listing: set[str], forget: Callable[[], object],
                 as_left: bool = False) -> Iterator[Path]:
    """The folder in which to write the files of the new site that are not the last one's
    (`listing`: all of its files); when the block ends they are moved into `out_dir`, the
    files of the last site that `listing` lacks are removed, and the manifest is written.
    `forget()` is called before the first move (it removes the build's record). A user's
    file where the site has a file or folder is refused before anything is written, unless
    `as_left`: the caller knows every file of the site to be as the last build left it,
    and `listing` to be the last site's (whose manifest, listing them, is then kept)."""
    out_dir = follow_link(out_dir)
    old = read_manifest(out_dir) or set()
    listed = as_left and old == listing
    if not listed:
        refuse_users_files(out_dir, old, listing)
    tmp, _ = _staging_names(out_dir)
    make_staging(tmp)
    try:
        yield tmp
        forget()
        if not listed:
            write_manifest(out_dir, old | listing)  # killed while moving: all still ours
        move_files(tmp, out_dir)
        for rel in sorted(old - listing):
            remove_output(out_dir, rel)
        if not listed:
            write_manifest(out_dir, listing)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def refuse_users_files(out_dir: Path, old: set[str], listing: set[str]) -> None:
    """OutputError when something the last site (its files `old`) did not have is where
    this one (`listing`) has a file, or anything but a folder is where it has a folder:
    what writer.find_users_files finds, found by looking at those places alone rather
    than through the whole folder (at 5,000 papers, half a second)."""
    for rel in sorted(listing - old):
        if os.path.lexists(os.path.join(out_dir, rel)):
            raise refuse_overwrite(out_dir / rel)
    for rel in sorted(list_folders(listing)):
        path = os.path.join(out_dir, rel)
        if os.path.islink(path) or os.path.lexists(path) and not os.path.isdir(path):
            raise refuse_overwrite(out_dir / rel)


def move_files(source: Path, target: Path) -> None:
    """Every file below `source` (but the manifest) moved to its place below `target`,
    but where that file has the same bytes already: it stays as it is (a page rendered
    again the same is not written again, nor reloaded by a browser)."""
    for folder, _, names in os.walk(source):
        rel_dir = os.path.relpath(folder, source)
        for name in names:
            rel = name if rel_dir == "." else os.path.join(rel_dir, name)
            if rel == MANIFEST:
                continue
            destination = os.path.join(target, rel)
            if has_same_bytes(os.path.join(folder, name), destination):
                continue
            try:
                os.replace(os.path.join(folder, name), destination)
            except FileNotFoundError:
                os.makedirs(os.path.dirname(destination), exist_ok=True)
                os.replace(os.path.join(folder, name), destination)


def has_same_bytes(new: str, old: str) -> bool:
    """Whether the regular file `old` (not a link) holds the bytes of `new`."""
    try:
        status = os.lstat(old)
    except OSError:
        return False
    return stat.S_ISREG(status.st_mode) and status.st_size == os.path.getsize(new) \
        and filecmp.cmp(new, old, shallow=False)
