"""Which content files a build reads: not hidden, of the wanted kinds, and never through
a link that leaves the content folder."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

from ..diagnostics import Diagnostics
from ..output.paths import why_not_read


def accept_file(path: Path, content_dir: Path, diags: Diagnostics, suffixes: tuple[str, ...],
                real_dirs: dict[Path, Path] | None = None) -> bool:
    """Whether a content file is read: not hidden, one of `suffixes` (any when empty), not
    a link that leaves the content folder (refused rather than followed), and a regular
    file. `real_dirs` keeps folders' resolved paths from one file to the next."""
    if path.name.startswith(".") or (suffixes and path.suffix.lower() not in suffixes):
        return False
    if not path.exists() or path.is_dir():  # a dangling link is simply nothing
        return False
    if not check_inside(path, content_dir, diags, real_dirs):
        return False
    if not path.is_file():
        warn_special(path, diags)
        return False
    return True


def check_inside(path: Path, content_dir: Path, diags: Diagnostics,
                 real_dirs: dict[Path, Path] | None = None) -> bool:
    """Whether `path` really is inside the content folder, as output/paths.py decides for
    every command; a link leaving it is an error, never followed (site.yaml linked to a
    file elsewhere would publish that file)."""
    problem = why_not_read(path, content_dir)
    if problem:
        diags.error(path, 0, problem)
        return False
    return True


def resolve_dir(folder: Path, real_dirs: dict[Path, Path]) -> Path:
    if folder not in real_dirs:
        real_dirs[folder] = folder.resolve()
    return real_dirs[folder]


def list_files(folder: Path, content_dir: Path, diags: Diagnostics, suffixes: tuple[str, ...]
               ) -> list[Path]:
    """The files below `folder` that `accept_file` takes, sorted. Folders that are links
    are not entered. A file that is not a link is inside the content folder when `folder`
    is, which is asked once (asking for each of 5,000 files took 60 ms)."""
    if not folder.is_dir():
        return []
    real_dirs: dict[Path, Path] = {}
    inside = resolve_dir(folder, real_dirs).is_relative_to(resolve_dir(content_dir, real_dirs))
    found = []
    for path, entry in walk_files(folder):
        if not is_utf8_name(path, folder, diags):
            continue
        if not inside or entry.is_symlink():
            if accept_file(path, content_dir, diags, suffixes, real_dirs):
                found.append(path)
        elif not entry.name.startswith(".") and \
                (not suffixes or path.suffix.lower() in suffixes):
            if entry.is_file():
                found.append(path)
            else:
                warn_special(path, diags)
    return sorted(found)


def is_utf8_name(path: Path, folder: Path, diags: Diagnostics) -> bool:
    """Whether the path's name is text (UTF-8): a page cannot link to a name in another
    encoding, nor can the manifest list it. Otherwise an error."""
    try:
        str(path.relative_to(folder)).encode("utf-8")
    except UnicodeEncodeError:
        diags.error(path, 0, "this file's name is not UTF-8 text; rename it")
        return False
    return True


def warn_special(path: Path, diags: Diagnostics) -> None:
    """A pipe, socket or device among the content: never opened (a pipe waits forever
    for a writer, /dev/zero never ends), and said."""
    diags.warning(path, 0, "this is not a regular file (a pipe, device or socket); skipped")


def walk_files(folder: Path) -> Iterator[tuple[Path, os.DirEntry]]:
    """Every entry below `folder` but the folders it walks through, in no set order."""
    folders = [folder]
    while folders:
        where = folders.pop()
        try:
            with os.scandir(where) as entries:
                for entry in entries:
                    path = where / entry.name
                    if entry.is_dir(follow_symlinks=False):
                        if not entry.name.startswith("."):  # .git/, .venv/: never content
                            folders.append(path)
                    else:
                        yield path, entry
        except OSError:  # a folder that cannot be read holds nothing to read
            continue


def list_names(folder: Path) -> list[str]:
    """The files below `folder`, as relative POSIX paths, for a hint ('did you mean')
    when a name given is none of them: nothing is read or checked here."""
    return [p.relative_to(folder).as_posix() for p in sorted(folder.rglob("*"))
            if p.is_file()] if folder.is_dir() else []
