"""Notice saved files and report exactly which changed, once a burst of writes settles.

The operating system says when something below the watched folders was written (watchdog:
inotify, FSEvents, ReadDirectoryChangesW), so an idle server costs nothing and a save is
seen at once. Each file named by an event is compared with the listing kept of the
folders, so a file read (or saved unchanged) is no change, whatever an editor did to save
(write in place, or write a temporary file and rename it). A folder created, moved or
deleted is a new listing of everything, compared with the last one.

livereload's own watcher is not used: it polls every 0.8 s, stops at the first changed
file of a folder, reports a deleted file only when nothing else changed, and its server
reloads the browser at most once every 3 s, so a second save within 3 s would not show.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable

from tornado.ioloop import IOLoop, PeriodicCallback
from watchdog.events import FileSystemEvent
from watchdog.observers import Observer

Signature = tuple[int, int, int]  # modification time (ns), size, inode

SETTLE = 0.03  # seconds without a new event before the listing is compared
POLL_INTERVAL = 0.5  # when the system cannot report changes (too many watches, say)
# Writes, not reads: the build itself opens and reads the content files.
WRITE_EVENTS = frozenset({"created", "deleted", "modified", "moved", "closed"})


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


def read_signature(path: Path) -> Signature | None:
    """A file's signature; None when it is gone or is not a file."""
    try:
        stat = path.stat()
    except (OSError, ValueError):
        return None
    if not os.path.isfile(path):
        return None
    return (stat.st_mtime_ns, stat.st_size, stat.st_ino)


def diff_snapshots(old: dict[Path, Signature], new: dict[Path, Signature]) -> set[Path]:
    """Files added, removed, or changed in time, size or identity (an editor that saves
    by renaming a new file over the old one changes the inode)."""
    changed = {path for path, sig in new.items() if old.get(path) != sig}
    return changed | (old.keys() - new.keys())


class Watcher:
    """Calls `on_change(paths)` on the IOLoop after files below `roots` changed and no
    further write came for SETTLE seconds (the debounce)."""

    def __init__(self, roots: list[Path], skip: list[Path],
                 on_change: Callable[[set[Path]], None]) -> None:
        self.roots = [root for root in roots if root.is_dir()]
        # Each root's real path and its own spelling, where they differ (see as_watched).
        self.spellings = [(os.path.realpath(r), os.path.abspath(r)) for r in self.roots
                          if os.path.realpath(r) != os.path.abspath(r)]
        self.skip = skip
        self.on_change = on_change
        self.snapshot: dict[Path, Signature] = {}
        self.pending: set[Path] = set()
        self.relist = False  # a folder changed: compare whole listings
        self.loop: IOLoop | None = None
        self.timer: object | None = None
        self.observer = None
        self.polling: PeriodicCallback | None = None

    def take_listing(self) -> None:
        """List the files now: what `catch_up` compares with, once watching has started."""
        self.snapshot = take_snapshot(self.roots, self.skip)

    def start(self) -> str:
        """Start watching; returns how ('events', or 'polling' when the system refused).
        Files are listed now, unless `take_listing` did."""
        self.loop = IOLoop.current()
        if self.observer is None and not self.snapshot:
            self.snapshot = take_snapshot(self.roots, self.skip)
        observer = Observer()
        try:
            for root in self.roots:
                observer.schedule(self, str(root), recursive=True)
            observer.start()
        except OSError:  # e.g. Linux's limit on inotify watches is reached
            self.relist = True
            self.polling = PeriodicCallback(self.compare, POLL_INTERVAL * 1000)
            self.polling.start()
            return "polling"
        self.observer = observer
        return "events"

    def catch_up(self) -> None:
        """Report what changed between `take_listing` and now (a save while the first
        build ran, before anything was watched)."""
        self.relist = True
        self.compare()

    def stop(self) -> None:
        if self.observer is not None:
            self.observer.stop()
            self.observer.join(2)
        if self.polling is not None:
            self.polling.stop()

    def dispatch(self, event: FileSystemEvent) -> None:
        """watchdog calls this on its own thread: hand over to the loop's."""
        if event.event_type not in WRITE_EVENTS or self.loop is None:
            return
        names = [event.src_path, event.dest_path] if event.event_type == "moved" else [
            event.src_path]
        paths = [self.as_watched(os.fsdecode(name)) for name in names if name]
        relist = event.is_directory and event.event_type != "modified"
        self.loop.add_callback(self.postpone, paths, relist)

    def postpone(self, paths: list[Path], relist: bool) -> None:
        self.pending.update(paths)
        self.relist = self.relist or relist
        if self.timer is not None:
            self.loop.remove_timeout(self.timer)
        self.timer = self.loop.call_later(SETTLE, self.compare)

    def compare(self) -> None:
        self.timer = None
        if self.relist:
            new = take_snapshot(self.roots, self.skip)
            changed = diff_snapshots(self.snapshot, new)
            self.snapshot = new
            self.relist = self.polling is not None
        else:
            changed = self.compare_files(self.pending)
        self.pending = set()
        if changed:
            self.on_change(changed)

    def compare_files(self, paths: set[Path]) -> set[Path]:
        """The files among `paths` that differ from the listing, which is brought up to
        date; hidden files and the skipped folders are not looked at."""
        changed = set()
        for path in paths:
            if self.is_ignored(path):
                continue
            signature = read_signature(path)
            if signature == self.snapshot.get(path):
                continue
            changed.add(path)
            if signature is None:
                del self.snapshot[path]
            else:
                self.snapshot[path] = signature
        return changed

    def as_watched(self, name: str) -> Path:
        """An event's path as the watched folders spell it. macOS reports real paths
        (/private/tmp/... for /tmp/...), so a project under a linked folder would
        otherwise see every save as a file outside what it watches."""
        absolute = os.path.abspath(name)
        for real, spelled in self.spellings:
            if absolute == real or absolute.startswith(real + os.sep):
                return Path(spelled + absolute[len(real):])
        return Path(absolute)

    def is_ignored(self, path: Path) -> bool:
        absolute = os.path.abspath(path)
        if any(absolute == os.path.abspath(s) or absolute.startswith(os.path.abspath(s) + os.sep)
               for s in self.skip):
            return True
        for root in self.roots:
            try:
                rel = Path(absolute).relative_to(os.path.abspath(root))
            except ValueError:
                continue
            return any(part.startswith(".") for part in rel.parts)
        return True  # not below a watched folder
