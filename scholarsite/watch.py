"""Notice saved files: compare listings of the watched folders, and report what changed
once a burst of saves has settled.

livereload has a watcher, but not one a site can use: it stops at the first changed file
of a folder (a save that touches two files is seen over two polls), reports a deleted file
only when nothing else changed, polls at a fixed 0.8 s, and its server then reloads the
browser at most once every 3 s (a second save within 3 s would never show). Listing and
comparing is portable and exact: every added, changed and removed file, in one report.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Callable

from tornado.ioloop import IOLoop

Signature = tuple[int, int, int]  # modification time (ns), size, inode

MIN_INTERVAL = 0.1  # seconds between listings, at least
MAX_INTERVAL = 1.0
LOAD_SHARE = 0.05  # a listing may take at most this share of the time (big sites poll slower)
SETTLE = 0.05  # after a change, look again this soon: a save is often several writes


def take_snapshot(roots: list[Path], skip: list[Path]) -> dict[Path, Signature]:
    """Every file below `roots`, hidden files and folders (.git, editor swap files) and
    the `skip` folders left out; linked folders are not entered."""
    skipped = {os.path.abspath(p) for p in skip}
    found: dict[Path, Signature] = {}
    stack = [str(root) for root in roots if root.is_dir()]
    while stack:
        folder = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:  # removed while listing: the next listing sees it gone
            continue
        for entry in entries:
            if entry.name.startswith("."):
                continue
            try:
                if entry.is_dir(follow_symlinks=False):
                    if os.path.abspath(entry.path) not in skipped:
                        stack.append(entry.path)
                    continue
                stat = entry.stat()
            except OSError:
                continue
            found[Path(entry.path)] = (stat.st_mtime_ns, stat.st_size, stat.st_ino)
    return found


def diff_snapshots(old: dict[Path, Signature], new: dict[Path, Signature]) -> set[Path]:
    """Files added, removed, or changed in time, size or identity (an editor that saves
    by renaming a new file over the old one changes the inode)."""
    changed = {path for path, sig in new.items() if old.get(path) != sig}
    return changed | (old.keys() - new.keys())


class Poller:
    """Calls `on_change(paths)` on the IOLoop when files below `roots` changed and a
    listing taken SETTLE later shows no further change (the debounce)."""

    def __init__(self, roots: list[Path], skip: list[Path],
                 on_change: Callable[[set[Path]], None]) -> None:
        self.roots = roots
        self.skip = skip
        self.on_change = on_change
        self.snapshot: dict[Path, Signature] = {}
        self.pending: set[Path] = set()
        self.interval = MIN_INTERVAL

    def start(self) -> None:
        self.snapshot = self.take()
        IOLoop.current().call_later(self.interval, self.poll)

    def take(self) -> dict[Path, Signature]:
        start = time.perf_counter()
        snapshot = take_snapshot(self.roots, self.skip)
        cost = time.perf_counter() - start
        self.interval = min(MAX_INTERVAL, max(MIN_INTERVAL, cost / LOAD_SHARE))
        return snapshot

    def poll(self) -> None:
        new = self.take()
        changed = diff_snapshots(self.snapshot, new)
        self.snapshot = new
        delay = self.interval
        if changed:
            self.pending |= changed
            delay = SETTLE
        elif self.pending:
            paths, self.pending = self.pending, set()
            try:
                self.on_change(paths)
            finally:
                IOLoop.current().call_later(self.interval, self.poll)
            return
        IOLoop.current().call_later(delay, self.poll)
