"""What a migration found: the files to write, the old addresses, and notes for the report.
Readers add to one Migration; nothing is written until they are all done (write.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ...reading.slugs import make_slug


@dataclass(frozen=True)
class Note:
    where: str  # 'old/path:line', or 'old/path' when no line says more
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


@dataclass(frozen=True)
class NewFile:
    path: str  # below the content folder, with '/'
    text: str | None  # what to write, or None to copy `source` as it is
    source: Path | None
    what: str  # the report's kind: 'paper', 'talk', 'file'...
    origin: str  # where it came from, as a Note's `where`


@dataclass
class Migration:
    """What the readers found in `old`, the checkout being moved."""

    old: Path
    kind: str  # academicpages | al-folio | hugo-blox
    files: dict[str, NewFile] = field(default_factory=dict)
    site: dict = field(default_factory=dict)  # site.yaml's settings, in the order written
    redirects: dict[str, str] = field(default_factory=dict)  # old path -> new path
    review: list[Note] = field(default_factory=list)  # moved, but a person should look
    left: list[Note] = field(default_factory=list)  # not moved, and why

    def where(self, path: Path, line: int = 0) -> str:
        """`path` as the report names it: relative to the old site, with its line."""
        try:
            shown = path.relative_to(self.old).as_posix()
        except ValueError:
            shown = path.as_posix()
        return f"{shown}:{line}" if line else shown

    def add_text(self, path: str, text: str, what: str, origin: str) -> None:
        self.files[path] = NewFile(path, text, None, what, origin)

    def may_read(self, path: Path) -> bool:
        """Whether `path` is the old site's own: a link out of it is named, never followed."""
        if is_inside(path, self.old):
            return True
        self.leave(self.where(path), "a link to a file outside the old site; not read")
        return False

    def add_copy(self, path: str, source: Path, what: str, origin: str) -> None:
        if not is_inside(source, self.old):  # a link out of the old site: never followed
            self.leave(origin, "a link to a file outside the old site; not copied")
            return
        self.files[path] = NewFile(path, None, source, what, origin)

    def add_review(self, where: str, message: str) -> None:
        self.review.append(Note(where, message))

    def leave(self, where: str, message: str) -> None:
        self.left.append(Note(where, message))

    def add_redirect(self, old_path: str, new_path: str) -> None:
        """`old_path` (an old page's address, as the old site served it) sends visitors to
        `new_path`; an address that is the same in both is no redirect."""
        old = old_path.strip().strip("/")
        new = new_path.strip().lstrip("/")
        if old and old.rstrip("/") != new.rstrip("/") and old not in self.redirects:
            self.redirects[old] = new

    def free_slug(self, folder: str, name: str) -> str:
        """A slug made of `name` that no file of `folder` (a Markdown file or a page
        folder) has taken in this migration: 'x', then 'x-2', 'x-3'..."""
        base = make_slug(name)
        slug, n = base, 1
        while f"{folder}/{slug}.md" in self.files:
            n += 1
            slug = f"{base}-{n}"
        return slug


def is_inside(path: Path, folder: Path) -> bool:
    """Whether `path`, its links followed, is `folder` or below it."""
    try:
        path.resolve().relative_to(folder.resolve())
        return True
    except ValueError:
        return False
