"""A file written as another file but for a few pieces, without reading the other file.

A build after one paper's edit rewrites files that are the last build's but for that
paper's part: the list of every paper with its entry spliced in (fastpath/lists.py), and
the site's citation files and search index with its text swapped (fastpath/touchup.py).
At 5,000 papers that is 50 MB read into a new process and written out again for one
abstract (0.06 s of processor time, more in waiting). Here the unchanged spans are copied
from file to file by the kernel (os.copy_file_range, where the system has it), and the
old texts are looked for in the file mapped into memory rather than read.
"""

from __future__ import annotations

import mmap
import os
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO, Iterator, Union

from .paths import open_regular
from .writer import open_new

# New bytes, or the span [start, end) of the file the new one is made from (end None: to
# the file's end).
Piece = Union[bytes, tuple[int, Union[int, None]]]
COPY_CHUNK = 1 << 20  # bytes a copy by hand reads at once


def write_spans(root: Path, rel: str, source: str, pieces: list[Piece]) -> os.stat_result:
    """Write one new file below `root` from `pieces`, the spans of them from the file
    `source` (a regular file: open_regular); returns its status once written."""
    with open_regular(source) as old, open_new(root, rel) as new:
        size = os.fstat(old.fileno()).st_size
        for piece in pieces:
            if isinstance(piece, tuple):
                start, end = piece
                copy_span(old, source, new.fileno(), start, size if end is None else end)
            else:
                write_all(new.fileno(), piece)
        return os.fstat(new.fileno())  # written by the descriptor: nothing is buffered


def copy_span(source: BinaryIO, path: str, target: int, start: int, end: int) -> None:
    """The bytes [start, end) of `source` (the file at `path`, open) appended to the file
    open as `target`."""
    while start < end:
        try:
            done = os.copy_file_range(source.fileno(), target, end - start, start)
        except (AttributeError, OSError):  # not Linux, or a file system it cannot copy on
            done = 0
        if not done:
            source.seek(start)
            data = source.read(min(end - start, COPY_CHUNK))
            if not data:
                raise OSError(f"'{path}' ended before byte {end}: it changed as it was "
                              "copied")
            write_all(target, data)
            done = len(data)
        start += done


def write_all(target: int, data: bytes | memoryview) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(target, view):]


@contextmanager
def mapped(path: Path | str) -> Iterator[bytes | mmap.mmap]:
    """The bytes of the regular file at `path`, mapped into memory rather than read (an
    empty file, which cannot be mapped, as b'')."""
    with open_regular(path) as stream:
        if not os.fstat(stream.fileno()).st_size:
            yield b""
            return
        with mmap.mmap(stream.fileno(), 0, access=mmap.ACCESS_READ) as data:
            yield data
