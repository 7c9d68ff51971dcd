"""What a migration found: the files to write, the old addresses, and notes for the report.
Readers add to one Migration; nothing is written until they are all done (write.py)."""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from ...diagnostics import Diagnostics
from ...output.paths import is_inside, why_not_name, why_not_read
from ...reading.settings.redirects import normalize_old_path
from ...reading.slugs import make_slug
from ...reading.settings.yamlread import read_bytes, read_text
from .fieldmap import DEFAULT_MAP
from .samples import SAMPLE_FILE_MAX, find_sample_file

# What a paper the old site gives no venue is written with (type `other`), as the build
# asks for a venue: the same words from every template, and a note says so.
NO_VENUE = "Manuscript"


def show_name(name: str) -> str:
    """A file name as the report prints it: a name that is not UTF-8 with escapes (it
    cannot be printed as it is)."""
    return os.fsencode(name).decode("utf-8", "backslashreplace")


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
    fieldmap: dict = field(default_factory=lambda: dict(DEFAULT_MAP))  # fieldmap.py, --map
    read: set[str] = field(default_factory=set)  # settings files read into site.yaml...
    listed: set[str] = field(default_factory=set)  # files a report line names by folder
    # An old file whose text another's new file holds (a .bib its page lists) -> that file.
    into: dict[str, str] = field(default_factory=dict)

    def where(self, path: Path, line: int = 0) -> str:
        """`path` as the report names it: relative to the old site, with its line (a name
        that is not UTF-8 shown with escapes, so that it can be printed)."""
        try:
            shown = path.relative_to(self.old).as_posix()
        except ValueError:
            shown = path.as_posix()
        shown = show_name(shown)
        return f"{shown}:{line}" if line else shown

    def add_text(self, path: str, text: str, what: str, origin: str) -> None:
        if self.check_new_path(path, origin):
            self.files[path] = NewFile(path, text, None, what, origin)

    def may_read(self, path: Path) -> bool:
        """Whether `path` is the old site's own (output/paths.py decides, as for every
        command): a link out of it is named, never followed."""
        problem = why_not_read(path, self.old)
        if problem:
            self.leave(self.where(path), "a link to a file outside the old site; not read")
        return not problem

    def read_text(self, path: Path) -> str | None:
        """The old site's file as text, through the build's own reader: only the old site's
        own regular files, of a sensible size, in UTF-8; None (and a note) otherwise."""
        if not self.may_read(path):
            return None
        diags = Diagnostics()
        text = read_text(path, diags, self.old)
        for said in diags.items:
            note = self.leave if said.severity == "error" else self.add_review
            note(self.where(path, said.line), f"{said.message}; not read" if text is None
                 else said.message)
        return text

    def add_copy(self, path: str, source: Path, what: str, origin: str) -> bool:
        """Copy `source` to `path`, when it is the old site's own regular file and `path`
        is one the build reads; whether it will be copied."""
        if not is_inside(source, self.old):  # a link out of the old site: never followed
            self.leave(origin, "a link to a file outside the old site; not copied")
            return False
        try:
            regular = stat.S_ISREG(os.stat(source).st_mode)
        except OSError:
            regular = False
        if not regular:
            self.leave(origin, "not a regular file (a pipe, device, socket or folder); "
                       "not copied")
            return False
        if self.is_sample_file(source):
            note = Note(self.where(source), "the template's own sample file, not yours; not "
                        "copied, and the links to it left out")
            self.left += [] if note in self.left else [note]
            return False
        if not self.check_new_path(path, origin):
            return False
        self.files[path] = NewFile(path, None, source, what, origin)
        return True

    def own_path(self, url: str) -> str:
        """`url` as a path of the site ('/assets/pdf/x.pdf') when it is written with the
        old site's own address (https://me.example.org/assets/pdf/x.pdf), which the new
        site has at another path; else `url`."""
        own = str(self.site.get("url") or "").rstrip("/")
        return url[len(own):] if own and url.lower().startswith(own.lower() + "/") else url

    def is_sample_file(self, source: Path) -> bool:
        """Whether `source` is byte for byte one of a template's sample files (the PDFs
        academicpages ships), which forks keep and link as if they were the owner's."""
        if os.stat(source).st_size > SAMPLE_FILE_MAX:
            return False
        data = read_bytes(source, Diagnostics(), self.old)
        return data is not None and bool(find_sample_file(data))

    def check_new_path(self, path: str, origin: str) -> bool:
        """Whether `path` may be written: a name the build reads, not another file's name
        in another case (one file on macOS and Windows)."""
        if path in self.files:  # asked when it was first added (settle_links adds again)
            return True
        problem = why_not_name(path)
        clash = next((k for k in self.files if k != path and k.casefold() == path.casefold()),
                     None)
        if clash:
            problem = f"its new name differs from {clash}'s only in case; on macOS and " \
                      "Windows they are one file"
        if problem:
            self.leave(origin, f"not moved to {show_name(path)}: {problem}")
        return not problem

    def add_review(self, where: str, message: str) -> None:
        self.review.append(Note(where, message))

    def leave(self, where: str, message: str) -> None:
        self.left.append(Note(where, message))

    def add_redirect(self, old_path: str, new_path: str, where: str = "site.yaml") -> None:
        """`old_path` (an old page's address, as the old site served it) sends visitors to
        `new_path`; an address that is the same in both is no redirect, and one the
        build would refuse ('/../x', a name not UTF-8) is named in the report instead."""
        old = old_path.strip().strip("/")
        new = new_path.strip().lstrip("/")
        if not old or old.rstrip("/") == new.rstrip("/") or old in self.redirects:
            return
        problem = normalize_old_path(old)[1] or why_not_name(old)
        if problem:
            self.add_review(where, f"the old address '{show_name(old)}' is not redirected: "
                            f"{problem}")
            return
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
