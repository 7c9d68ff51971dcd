"""Pages a build takes from the last one instead of rendering them again.

What a page's template renders is a function of the templates, the code and the page's
context. So a build records, in the record of the build (record.BuildRecord), a digest
of each page's context and one of the templates. The next build with the same templates
and settings that makes a page from a context of the same digest, and finds the page's
last file as that build left it, leaves that file where it is instead of rendering and
writing it again (the site is then brought up to date in place: patch.py). After one
paper's edit, the paper's page and the pages that list papers are rendered, the other
papers' pages are not. The context is made as always and only its rendering is skipped,
so whatever a page shows (a setting, a file's presence, another paper's title) counts,
without any list of what a page reads; but for a paper's own page, whose digest is taken
from what plan/pages.py declares it made of (key_paper_pages: its view, the frame every
paper's page shows, the content's other files), without making its context.

A digest is of the context's pickle without shared references (pickle's fast mode), so
that equal contexts made by different builds give equal bytes; a context that cannot be
pickled that way is rendered. Pages written as they are rendered (the lists of every
paper) are patched in their files or rendered (fastpath/lists.py). The first build into a
folder records its digests too: the first build after an edit is quick with one before.
"""

from __future__ import annotations

import hashlib
import io
import os
import pickle
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, NamedTuple

from ..output.cache import FileIdentity, has_identity
from ..reads import Reads

Digest = bytes
Frame = tuple[dict, list[dict]]  # what every paper's page shows besides its paper


class Slot(NamedTuple):
    """Where one paper's fragment is in the file of a page of every paper. A named tuple
    rather than a dataclass: a page has one per paper, made again at every patch and
    pickled with the record."""

    name: str  # the paper's slug
    key: tuple  # the fragment's key below its name
    start: int  # its first byte in the file
    length: int  # its length in bytes


@dataclass(frozen=True)
class Listing:
    """A page of every paper as the last build wrote it, for the next to patch its
    changed papers' fragments in (fastpath/lists.py)."""

    around: Digest  # of the page's context with each paper entry standing for its name
    slots: tuple[Slot, ...]
    # The template, and the outlined context, that the changed papers' fragments are
    # made from when the context is not made (touchup.py).
    template: str | tuple[str, ...]
    outlined: object


@dataclass(frozen=True)
class PageDigests:
    """What a build records of its pages for the next to take those that would be the
    same: the fingerprint of the templates and settings, each page's digest by output
    path, the listings of the pages patched by their fragments, and the digests of the
    papers' views (by slug) those show."""

    templates: str = ""
    pages: dict[str, Digest] = field(default_factory=dict)
    listings: dict[str, Listing] = field(default_factory=dict)
    views: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class FileReads:
    """What a build read of one paper file's papers outside their entries and own pages:
    their slugs, and a digest of the values read (touchup.digest_reads)."""

    slugs: tuple[str, ...]
    digest: Digest


@dataclass(frozen=True)
class Touch:
    """What a build records, beside its pages' digests, for the next to bring the site up
    to date after a few papers' edits without reading the rest (touchup.py)."""

    frame: Frame  # pages.paper_frame
    files: dict[str, FileReads]  # by the paper file's absolute path
    shows: dict[str, frozenset[str]]  # Reuse.shows
    # Whether the papers are shown by the default language's pages alone: not where a
    # site's CV has them (its PDF), nor in a site of several languages (the touch-up
    # makes no other language's pages; the whole build takes those it can: reuse.py).
    in_pages_only: bool
    reads: Reads  # what the build read of each paper and its view, by slug (reads.py)


def digest_context(template: object, context: dict) -> Digest | None:
    """A digest of what a page is rendered from, or None when it cannot be taken."""
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=5)
    pickler.fast = True  # no memo: the bytes do not depend on which objects are shared
    try:
        pickler.dump((template, context))
    except Exception:  # noqa: BLE001 - a context that cannot be pickled is rendered
        return None
    return hashlib.blake2b(buffer.getbuffer(), digest_size=16).digest()


def fingerprint_templates(inputs: dict[str, tuple], layers: tuple, settings: tuple) -> str:
    """A digest of the templates and assets (by their recorded hashes) and the build's
    settings: pages are taken from the last build only when this is the same."""
    roots = tuple(os.path.join(os.path.abspath(folder), "") for folder in layers)
    parts = [repr(settings)]
    parts += [f"{path}\0{key!r}" for path, key in sorted(inputs.items())
              if path.startswith(roots)]
    return digest_lines(parts)


def fingerprint_content(inputs: dict[str, tuple | None], content: Path, settings: tuple
                        ) -> str:
    """A digest of the content's files in `inputs` (all but the paper files; those still
    to be read are listed as None: inputs.list_inputs) and the build's settings: what the
    site's rules and the papers' views depend on besides each paper (reading/loader.py)."""
    root = os.path.join(os.path.abspath(content), "")
    parts = [repr(settings)]
    parts += [f"{path}\0{key!r}" for path, key in sorted(inputs.items())
              if key is not None and path.startswith(root)]
    return digest_lines(parts)


def key_paper_pages(pages: dict[str, tuple[str, str]], frame: Frame, content: str,
                    digests: dict[str, str]) -> dict[str, Digest]:
    """The digest of each paper's own page (`pages`: output path -> its template and
    paper's slug) from what it is made of: its paper's view, by the digest of what it was
    kept with (`digests`: reading/loader.py), the frame every paper's page shows
    (plan/pages.py: paper_frame), the content's other files and the settings (`content`:
    fingerprint_content). A page whose paper has no kept digest is left out: it is
    digested by its context."""
    shared = digest_context("paper-frame", {"frame": frame, "content": content})
    if shared is None:
        return {}
    keys = {}
    for rel, (template, slug) in pages.items():
        digest = digests.get(slug)
        if digest is not None:
            keys[rel] = hashlib.blake2b(repr((template, slug, digest)).encode("utf-8"),
                                        key=shared, digest_size=16).digest()
    return keys


def digest_lines(parts: list[str]) -> str:
    # A path may hold what is no text (a file name's bytes that are not UTF-8).
    return hashlib.blake2b("\n".join(parts).encode("utf-8", "surrogatepass"),
                           digest_size=16).hexdigest()


class Reuse:
    """What the last build wrote that this one may take (its digests by output path, the
    identity of each file it left, the listings of its pages of every paper and the
    digests of its papers' views: fastpath/lists.py), and what this build gathers of the
    same for the next."""

    def __init__(self, old_root: str, fingerprint: str,
                 forget: Callable[[], object] = lambda: None,
                 last: PageDigests = PageDigests(),
                 identities: dict[str, FileIdentity] | None = None,
                 unchanged: frozenset[str] = frozenset()) -> None:
        self.old_root = old_root
        self.unchanged = unchanged  # input files as they were then, by absolute path
        self.fingerprint = fingerprint  # of this build's templates and settings
        self.forget = forget  # removes the last build's record (see patch.py)
        # Whether the site is brought up to date in place (patch.py), where a file taken
        # is left as it is; a new site swapped in whole (writer.py) takes nothing.
        self.in_place = False
        self.last = last
        self.identities = identities or {}  # of the files the last build left
        # This build's, gathered from every process: the pages' digests and listings;
        # and set once the papers are read, their views and the views' digests.
        self.digests: dict[str, Digest] = {}
        self.listings: dict[str, Listing] = {}
        self.views: dict[str, dict] = {}
        self.view_digests: dict[str, str] = {}
        # Pages known by what they are made of, without their contexts (a paper's own
        # page: key_paper_pages), by output path: their digests stand for the contexts'.
        self.keys: dict[str, Digest] = {}
        # The paper entries each page shows, of the pages that are neither a paper's own
        # nor patched by their fragments (fastpath/lists.py: note_shown).
        self.shows: dict[str, frozenset[str]] = {}

    def gathered(self) -> PageDigests:
        """What this build records of its pages for the next."""
        return PageDigests(self.fingerprint, self.digests, self.listings, self.view_digests)

    def find_listing(self, rel: str, around: Digest) -> Listing | None:
        """The last build's listing of the page `rel` when its context's outline had the
        digest `around` too and its file is as it left it, in a site updated in place."""
        old = self.last.listings.get(rel)
        if self.in_place and old is not None and old.around == around \
                and self.is_as_left(rel):
            return old
        return None

    def view_changed(self, slug: str) -> bool:
        """Whether the paper's view may differ from the last build's (one without a
        digest always may)."""
        digest = self.view_digests.get(slug)
        return digest is None or self.last.views.get(slug) != digest

    def old_path(self, rel: str) -> str:
        return os.path.join(self.old_root, rel)

    def take(self, rel: str, template: object, context: dict,
             digests: dict[str, Digest]) -> bool:
        """Whether the last build's file of `rel` is left where it is in place of
        rendering the page again; the context's digest is put in `digests` either way."""
        digest = digest_context(template, context)
        return digest is not None and self.take_digest(rel, digest, digests)

    def take_digest(self, rel: str, digest: Digest, digests: dict[str, Digest]) -> bool:
        """Whether the last build's file of `rel` stays, its page being of `digest` now
        (put in `digests`)."""
        digests[rel] = digest
        return self.in_place and self.last.pages.get(rel) == digest and self.is_as_left(rel)

    def keeps_copy(self, rel: str, source: Path) -> bool:
        """Whether the file copied to `rel` from `source` (an asset, a file of
        content/files/) stays as the last build left it: the source is as it was then, and
        so is the copy."""
        return self.in_place and os.path.abspath(source) in self.unchanged \
            and self.is_as_left(rel)

    def is_as_left(self, rel: str) -> bool:
        """Whether the file of `rel` is as the last build left it (not changed since by
        hand or by serve, nor gone)."""
        return rel in self.identities and has_identity(os.path.join(self.old_root, rel),
                                                       self.identities[rel])
