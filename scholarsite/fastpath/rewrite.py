"""What a rebuild renders and writes: each page the cheapest way that gives the bytes a
build would give, and only the files whose bytes changed.

A page is rendered from its template (render.render_page), or, when it lists papers,
recorded as pieces (splice.record_pieces) and after a change of papers spliced
(splice.splice_pieces); a citation file is joined from its papers' texts. Each file is
written through a temporary file and os.replace, so that the output folder never holds
half a file; the file it replaces is held open until the save is written (hold_file).
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

import jinja2

from ..diagnostics import Diagnostics
from ..plan.pages import Page
from ..render.errors import describe_template_error
from ..render.render import render_page
from .splice import Pieces, keep_page, splice_pieces
from ..output.paths import open_regular
from ..output.writer import (MANIFEST, check_outputs, refuse_overwrite, remove_output,
                             replace_file, safe_relpath, write_manifest)

Output = str | Pieces  # a page's text, or its pieces
UNWRITTEN = (0, -1)  # the digest of no text: what this process did not write itself


def digest_text(text: str) -> tuple[int, int]:
    """Tells a page's text from another in this process: Python's own string hash (keyed
    anew in every process, so that no text can be made to collide with another) and the
    length. Several times faster than encoding and hashing the bytes."""
    return (hash(text), len(text))


def file_signature(path: Path) -> tuple[int, int]:
    """A copied file counts as changed when its size or modification time does."""
    stat = path.stat()
    return (stat.st_mtime_ns, stat.st_size)


@dataclass(frozen=True)
class Change:
    """What the pages to render changed from: the papers whose entries changed, and which
    pages' contexts are the last ones with those swapped."""

    papers: set[str] = field(default_factory=set)
    swapped: set[str] = field(default_factory=set)


@dataclass
class Renderer:
    """Renders a rebuild's pages with what the last build kept of them."""

    env: jinja2.Environment
    layers: tuple[Path, ...]  # where the templates came from, for messages
    views: dict[str, dict]
    listing: set[str]  # output paths of the pages that are not one paper's own
    whole: set[str]  # pages whose templates changed: nothing of their last text is kept

    def render(self, todo: dict[str, Page], outputs: dict, change: Change,
               diags: Diagnostics) -> dict[str, Output]:
        """Each page's output; a template error is reported once per template."""
        files: dict[str, Output] = {}
        failed: set = set()
        for rel, page in todo.items():
            if page.template in failed:
                continue
            try:
                files[rel] = self.render_one(rel, page, outputs.get(rel), change)
            except Exception as exc:  # any failure inside a template is the template's bug
                failed.add(page.template)
                diags.error(*describe_template_error(exc, self.layers))
        return files

    def render_one(self, rel: str, page: Page, old: object, change: Change) -> Output:
        """A page's output: spliced into its last pieces when only papers' entries were
        swapped in its context (whose pieces were recorded from the context it had,
        which the builder keeps so), else rendered whole."""
        old = old if isinstance(old, Pieces) and rel not in self.whole else None
        if rel not in self.listing:
            return render_page(page, self.env)
        if old is not None and page.template and rel in change.swapped:
            spliced = splice_pieces(self.env, page.template, page.context, old,
                                    self.views, change.papers)
            if spliced is not None:
                return spliced
        return keep_page(self.env, page, old)


@dataclass
class OutputFolder:
    """The output folder as the rebuild last wrote it: each page's digest or pieces, and
    each copied file's source and signature."""

    root: Path
    outputs: dict[str, tuple[int, int] | Pieces] = field(default_factory=dict)
    copied: dict[str, tuple[Path, tuple[int, int]]] = field(default_factory=dict)

    @classmethod
    def adopt(cls, root: Path, pages: dict[str, Page], kept: dict[str, object],
              copies: dict[str, Path]) -> OutputFolder:
        """The folder as a whole build wrote it: what it kept of a page (its pieces, or
        the digest of its text), UNWRITTEN for a page rendered by a worker (written again
        whenever it is rendered again)."""
        outputs = {rel: kept[rel] if isinstance(kept.get(rel), Pieces)
                   else digest_text(kept[rel]) if rel in kept else UNWRITTEN for rel in pages}
        return cls(root, outputs, {rel: (src, file_signature(src))
                                   for rel, src in copies.items()})

    def is_intact(self) -> bool:
        """Whether the folder is still the one written: a site removed or replaced
        meanwhile (`rm -rf site`) is built again whole, not patched."""
        return (self.root / MANIFEST).is_file()

    def check_listing(self, pages: dict[str, Page], copies: dict[str, Path]) -> set[str]:
        """The paths the site now has; raises OutputError for one that two things would
        write or that is a user's file."""
        check_outputs(pages, copies)
        listing = set(pages) | set(copies)
        for rel in sorted(listing - self.outputs.keys() - self.copied.keys()):
            if (self.root / safe_relpath(rel)).exists():
                raise refuse_overwrite(self.root / rel)
        return listing

    def write_changes(self, pages: dict[str, Page], files: dict[str, Output],
                      copies: dict[str, Path], same_pages: bool) -> list[str]:
        """Write what changed and remove what is gone. `same_pages`: the site has the same
        pages as last time (its listing is not looked at again)."""
        out = self.root
        listing = None if same_pages else self.check_listing(pages, copies)
        before = set(self.outputs) | set(self.copied) if listing is not None else set()
        held: list[BinaryIO] = []
        try:
            written = self.write_pages(files, held)
        finally:
            close_later(held)
        for rel, source in copies.items():
            signature = (source, file_signature(source))
            if self.copied.get(rel) != signature:
                replace_file(out / safe_relpath(rel), source=source)
                self.copied[rel] = signature
                written.append(rel)
        if listing is not None:
            for rel in sorted(before - listing):
                remove_output(out, safe_relpath(rel))
                self.outputs.pop(rel, None)
                self.copied.pop(rel, None)
                written.append(rel)
            if listing != before:
                write_manifest(out, listing)
        return sorted(written)

    def write_pages(self, files: dict[str, Output], held: list[BinaryIO]) -> list[str]:
        """Write the pages whose bytes changed (the files they replace held open in
        `held`); returns their paths."""
        written = []
        for rel, data in files.items():
            old = self.outputs.get(rel)
            if isinstance(data, Pieces):
                if not data.same_bytes(old):
                    self.replace(rel, data.data, held)
                    written.append(rel)
                self.outputs[rel] = data  # either way: its context is the page's now
            elif old != digest_text(data):
                self.replace(rel, [data.encode("utf-8")], held)
                self.outputs[rel] = digest_text(data)
                written.append(rel)
        return written

    def replace(self, rel: str, pieces: list[bytes], held: list[BinaryIO]) -> None:
        target = self.root / safe_relpath(rel)
        try:
            hold_file(target, held)
            replace_file(target, pieces=pieces)
        except BaseException:
            self.outputs.pop(rel, None)  # what is on disk is not known: written next time
            raise


def hold_file(path: Path, held: list[BinaryIO]) -> None:
    """Put in `held` the plain file at `path`, open, about to be replaced. The system
    frees a file's blocks when its last name and descriptor go: inside os.replace, where
    on a disk that discards freed blocks (ext4 mounted with `discard`) a save waited 7 ms
    for every 10 MB it replaced (at 5,000 papers, the lists' 30 MB). Held, they are freed
    by close_later, after the save. Not on Windows, which refuses to replace an open
    file."""
    if os.name != "posix":
        return
    try:  # the guarded opener: a pipe put there is refused, never waited on
        held.append(open_regular(path))
    except OSError:  # NotRegularFile among them
        pass


def close_later(held: list[BinaryIO]) -> None:
    """Close the files `held`, in a thread of their own (the save is written)."""
    if held:
        threading.Thread(target=close_all, args=(list(held),), daemon=True).start()


def close_all(files: list[BinaryIO]) -> None:
    for stream in files:
        stream.close()
