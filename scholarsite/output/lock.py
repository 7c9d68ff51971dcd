"""One build at a time per output folder, and what a killed build left put right.

Two builds into one folder would each clean up the other's staging folder and publish a
site missing files. A build holds an exclusive lock on a file beside the output folder
(`.site.lock`, for an output folder `site`) from before it looks at the folder until the
new site is in place; a second build waits for it, saying so. The lock is the system's
(flock, or msvcrt's byte lock on Windows), so it is gone with the process that held it,
however that process ended; the file is removed when the build ends.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

from .writer import OutputError, follow_link, read_manifest

POLL_SECONDS = 0.1  # Windows has no blocking lock without a time limit
# The name of a build's spawned workers (spawning.py). Spawning runs the script that
# started the build again in each worker; a script that builds outside
# `if __name__ == "__main__":` would start a second build there, which would wait for this
# build's lock while this build waits for it.
WORKER_NAME = "scholarsite-worker"


def refuse_in_worker() -> None:
    """OutputError when this process is a build's spawned worker (its name is set before
    the script is run again in it)."""
    mp = sys.modules.get("multiprocessing")  # always imported in a spawned process
    if mp is not None and mp.current_process().name == WORKER_NAME:
        raise OutputError("a build was started again inside one of a build's worker "
                          "processes: a script that builds the site must do so under "
                          "`if __name__ == \"__main__\":`, since each worker runs the "
                          "script again (Python's 'spawn' start method, used on macOS and "
                          "Windows)")


def lock_path(out_dir: Path) -> Path:
    out_dir = follow_link(out_dir)
    return out_dir.parent / f".{out_dir.name}.lock"


@contextmanager
def output_lock(out_dir: Path, on_wait: Callable[[], None] | None = None) -> Iterator[None]:
    """Hold the lock of `out_dir` for the block; `on_wait` is called once when another
    process holds it, before waiting for it."""
    refuse_in_worker()
    path = lock_path(out_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = take_lock(path, on_wait)
    try:
        yield
    finally:
        release_lock(path, fd)


def take_lock(path: Path, on_wait: Callable[[], None] | None) -> int:
    """An open descriptor of the lock file at `path`, locked. The lock file is removed by
    whoever held it last, so the one locked must still be the file at `path`: one removed
    meanwhile is let go and the new one taken."""
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_BINARY", 0), 0o666)
        if not try_lock(fd):
            if on_wait is not None:
                on_wait()
                on_wait = None
            wait_lock(fd)
        try:
            if os.path.samestat(os.fstat(fd), os.stat(path)):
                return fd
        except FileNotFoundError:
            pass
        os.close(fd)


def release_lock(path: Path, fd: int) -> None:
    """Remove the lock file, then let it go: no build leaves a file behind. (Windows
    cannot remove an open file; it is removed after, unless another build has it open.)"""
    if sys.platform != "win32":
        path.unlink(missing_ok=True)
    os.close(fd)
    if sys.platform == "win32":
        try:
            path.unlink(missing_ok=True)
        except OSError:
            pass


if sys.platform == "win32":
    import msvcrt

    def try_lock(fd: int) -> bool:
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def wait_lock(fd: int) -> None:
        while not try_lock(fd):
            time.sleep(POLL_SECONDS)
else:
    import fcntl

    def try_lock(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def wait_lock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_EX)


def recover_site(out_dir: Path) -> str | None:
    """Put back the site a build killed between its two renames left aside (`.site.old-PID`
    with no `site`), keeping the user's files in it; remove the staging folders of builds
    that are gone. Call it holding the lock: no other build is then writing. Returns what
    was put back, for a message, or None."""
    out_dir = follow_link(out_dir)
    parent = out_dir.parent
    if not parent.is_dir():
        return None
    restored = None
    olds = [p for p in parent.glob(f".{out_dir.name}.old-*") if is_ours(p)]
    if olds and not os.path.lexists(out_dir):
        newest = max(olds, key=lambda p: p.stat().st_mtime)
        os.replace(newest, out_dir)
        olds.remove(newest)
        restored = newest.name
    for path in [*olds, *parent.glob(f".{out_dir.name}.tmp-*")]:
        if is_ours(path):
            shutil.rmtree(path, ignore_errors=True)
    return restored


def is_ours(path: Path) -> bool:
    """A staging folder the tool made (a real folder holding the manifest, or empty)."""
    try:
        return path.is_dir() and not path.is_symlink() \
            and (read_manifest(path) is not None or not any(path.iterdir()))
    except (OSError, OutputError):
        return False
