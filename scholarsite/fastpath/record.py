"""The record of the last build into an output folder, kept in the cache (cache.py): what
it read (a hash of every input file; for a file over 1 MiB, its identity), the identity of
every file it wrote, its warnings and counts, and what the next build may take from it
(reuse.py, touchup.py). When no input changed and the output is as it was written, a
build has nothing to do: it reports what the last one did and writes nothing."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Sequence

from ..diagnostics import Diagnostic
from ..output.cache import (BuildCache, FileIdentity, cache_name, has_identity, identify,
                            identity_of, open_cache)
from .inputs import (InputKey, build_settings, fill_inputs, input_folders, is_settled,
                     list_inputs)
from .reuse import PageDigests, Touch
from ..output.writer import MANIFEST, read_manifest


@dataclass(frozen=True)
class BuildRecord:
    """What the last successful build into one output folder read and wrote."""

    settings: tuple  # the options and the working folder the build ran with (build_settings)
    inputs: dict[str, InputKey]
    started: float  # time.time() when the build began
    warnings: tuple[Diagnostic, ...]
    files: int
    papers: int
    # What the next build may take of the pages (reuse.py, fastpath/lists.py).
    digests: PageDigests = field(default_factory=PageDigests)
    # The identity of each hashed input when it was listed (see find_known_hashes).
    identities: dict[str, FileIdentity] = field(default_factory=dict)
    # What a build after a few papers' edits goes by besides the above (touchup.py).
    touch: Touch | None = None
    # The identity of every file of the site, by path relative to the output folder:
    # filled in by record_build.
    outputs: dict[str, FileIdentity] = field(default_factory=dict)


def find_known_hashes(record: BuildRecord | None
                 ) -> Callable[[str, FileIdentity], InputKey | None] | None:
    """The hash `record` has of a file that is as it was then: of the same identity, one
    settled before that build started (as git trusts its index), so that a build reads
    only the files that changed."""
    if record is None or not record.identities:
        return None

    def known(path: str, identity: FileIdentity) -> InputKey | None:
        key = record.inputs.get(path)
        if key is None or key[0] != "hash" or record.identities.get(path) != identity:
            return None
        return key if is_settled(("identity", identity), record.started) else None
    return known


def is_trusted(record: BuildRecord, inputs: dict[str, InputKey]) -> bool:
    """No input changed, and no large file's identity is so close to the record that a
    change within the same clock tick could hide behind it."""
    return inputs == record.inputs and all(is_settled(key, record.started)
                                           for key in inputs.values())


def list_unchanged(record: BuildRecord, inputs: dict[str, InputKey | None]) -> frozenset[str]:
    """The inputs (by absolute path) known to be as they were when `record` was made."""
    return frozenset(path for path, key in inputs.items() if key is not None
                     and record.inputs.get(path) == key and is_settled(key, record.started))


def is_output_as_written(out: Path, record: BuildRecord) -> bool:
    return all(has_identity(os.path.join(out, rel), identity)
               for rel, identity in record.outputs.items())


def load_record(cache: BuildCache, out: Path) -> BuildRecord | None:
    record = cache.load(cache_name(out, 'build'))
    return record if isinstance(record, BuildRecord) else None


@dataclass(frozen=True)
class Listed:
    """The last build's record, the identity of its file then, and the inputs as a build
    lists them against it (list_build_inputs); `unchanged` when none changed and the
    output is as that build wrote it: there is nothing to build. Found by the command
    line before it imports the modules that build, and handed to the build it runs."""

    record: BuildRecord | None
    stamp: FileIdentity | None
    inputs: dict[str, InputKey | None]
    identities: dict[str, FileIdentity]
    started: float  # time.time() before the listing: when a build from it began
    unchanged: bool = False
    # The cache it was read from: the build opens it again only when another build wrote
    # the folder since (naming this code's version walks the package's files).
    cache: BuildCache | None = None


def list_build_inputs(content: Path, out: Path, templates: Sequence[Path],
                      record: BuildRecord | None, read_later: Callable[[str], bool]
                      ) -> tuple[dict[str, InputKey | None], dict[str, FileIdentity]]:
    """What a build reads, listed before it reads anything (the files `read_later` holds
    for, the paper files, are hashed as they are read: inputs.list_inputs, unless the
    record knows them: find_known_hashes), and the identities of the files hashed."""
    folders, skip = input_folders(content, out, templates)
    identities: dict[str, FileIdentity] = {}
    listed = list_inputs(folders, skip, read_later, find_known_hashes(record), identities)
    return listed, identities


def look_at_last_build(content: Path, out: Path, templates: Sequence[Path], mode: tuple,
                       read_later: Callable[[str], bool]) -> Listed | None:
    """The last build into `out` and what changed since (Listed); None when there is no
    last build of the same folders and settings to look at."""
    started = time.time()
    try:
        cache = open_cache(out)
        if cache is None:
            return None
        stamp = cache.identify(cache_name(out, "build"))
        record = load_record(cache, out)
        # None unless a build of these folders and settings was made: the build checks the
        # folders before it lists what it reads.
        if record is None or record.settings != build_settings(content, out, templates, mode):
            return None
        inputs, identities = list_build_inputs(content, out, templates, record, read_later)
        unchanged = is_trusted(record, fill_inputs(inputs, {})) \
            and is_output_as_written(out, record)
        return Listed(record, stamp, inputs, identities, started, unchanged, cache)
    except (OSError, ValueError, TypeError, AttributeError):
        return None


def is_current(listed: Listed, cache: BuildCache, out: Path) -> bool:
    """Whether the record `listed` holds is still the last build's (no other build wrote
    the folder since it was read)."""
    return cache.identify(cache_name(out, "build")) == listed.stamp


def record_build(cache: BuildCache, out: Path, record: BuildRecord,
                 written: dict[str, os.stat_result] | None = None,
                 still: dict[str, FileIdentity] | None = None) -> None:
    """Remember a successful build into `out`: `record`, with the identity of every file
    of the site. `written`: the status of the files the build wrote, as they were written
    (others, such as the pages taken from the last build, are looked up); `still`: the
    identities of files known to be as they were, not looked up again."""
    written, still = written or {}, still or {}
    try:
        outputs = {}
        for rel in read_listing(out):
            status = written.get(rel)
            outputs[rel] = identity_of(status) if status is not None else still[rel] \
                if rel in still else identify(os.path.join(out, rel))
    except OSError:
        return
    cache.save(cache_name(out, 'build'), replace(record, outputs=outputs))


def read_listing(out: Path) -> list[str]:
    listing = read_manifest(out) or set()
    return sorted(listing | {MANIFEST})
