"""Which paths a command may read and which it may write: the one decision that `build`,
`migrate`, `update` and `import-bib` all ask, so that a command added later gets the same
protection (docs/security.md says what it is).

A path may be read when it really is inside the folder it belongs to (its links followed
to the end: a link out of the content folder or out of an old site is never read) and is
a regular file (a pipe waits forever for a writer, /dev/zero never ends). A path may be
written when its name, as given, is one every system can hold and has no '..' in it, the
whole of it, links followed, stays inside the folder being written, and no part of it
below that folder is a link (nothing is written through a link).
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from typing import BinaryIO

READ_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
# Characters no file name of a site may hold: control characters (a newline splits a line
# of any listing) and a backslash (a folder's separator on Windows).
_BAD_NAME = re.compile(r"[\x00-\x1f\x7f\\]")


class NotRegularFile(OSError):
    """A pipe, device or socket where a file was expected."""


def real_path(path: Path | str) -> str:
    """The path with every link in it followed (as far as the path exists), each '..'
    taken where the link before it leads, as the system takes it."""
    return os.path.realpath(path)


def is_inside(path: Path | str, root: Path | str) -> bool:
    """Whether `path`, every link in it followed, is `root` or below it."""
    real, top = real_path(path), real_path(root)
    return real == top or real.startswith(top.rstrip(os.sep) + os.sep)


def why_not_read(path: Path, root: Path) -> str:
    """'' when `path` may be read as one of `root`'s files; otherwise why not."""
    if not is_inside(path, root):
        return (f"this file is a link to a place outside the {Path(root).name or root} "
                "folder; it is never read: copy the file in instead")
    return ""


def open_regular(path: Path | str) -> BinaryIO:
    """`path` open for reading, when it is a regular file; NotRegularFile otherwise. It is
    opened without waiting (a pipe would wait for a writer), then looked at."""
    fd = os.open(path, READ_FLAGS)
    stream = open(fd, "rb")
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        stream.close()
        raise NotRegularFile(f"'{path}' is not a regular file (a pipe, device or socket); "
                             "only files are read")
    return stream


def read_regular(path: Path | str) -> bytes:
    """The bytes of a regular file the tool reads whole that is no content file (the
    package's own data, a page the last build wrote, the cache's records), through
    open_regular: a pipe or device put in its place is refused, never waited on.
    Content files go through reading/settings/yamlread.read_bytes, with its size limit."""
    with open_regular(path) as stream:
        return stream.read()


def why_not_name(rel: str) -> str:
    """'' when `rel` ('a/b.md', below the folder written) is a path every system can hold
    and the build reads; otherwise why not."""
    parts = rel.split("/")
    if not rel or rel.startswith("/") or any(p in ("", ".", "..") for p in parts):
        return "the path leaves the folder (or is empty); only paths inside it are written"
    try:
        rel.encode("utf-8")
    except UnicodeEncodeError:
        return "the name is not UTF-8 text, which a page cannot link to; rename the file"
    if _BAD_NAME.search(rel):
        return "the name holds a control character or a backslash; rename the file"
    return ""


def why_not_write(target: Path, root: Path) -> str:
    """'' when `target` may be written as a file of `root`; otherwise why not. The name is
    judged as given, before anything is made of its '..' (why_not_name: 'vendor/../content'
    is refused, not read as 'content'); then where it leads: outside `root` through a link,
    or through any link below `root` at all (a link to another folder of the site would
    have a command write where it never meant to)."""
    rel = name_below(target, root)
    if rel is None:
        return f"outside the {Path(root).name} folder; not written"
    problem = why_not_name(rel)
    if problem:
        return problem
    if os.path.islink(target):
        return "this is a link; it is never written through, so it was left as it is"
    if not is_inside(target, root):
        return (f"this path leads outside the {Path(root).name} folder (through a link); "
                "not written")
    link = find_link_below(Path(root), rel)
    if link:
        return (f"'{link}' is a link, and nothing is ever written through a link; "
                "not written")
    return ""


def name_below(path: Path | str, root: Path | str) -> str | None:
    """`path` as a name below `root` ('a/../b' kept as it is: nothing is normalised), or
    None when `path` is not spelt below `root`."""
    try:
        return Path(path).absolute().relative_to(Path(root).absolute()).as_posix()
    except ValueError:
        return None


def find_link_below(root: Path, rel: str) -> str:
    """The first part of `rel` below `root` that is a link ('vendor', 'a/b'), or '' when
    none is (the parts not there yet are no links)."""
    parts = rel.split("/")
    for end in range(1, len(parts) + 1):
        if os.path.islink(root.joinpath(*parts[:end])):
            return "/".join(parts[:end])
    return ""
