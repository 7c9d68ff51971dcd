"""Where what paper files gave is kept from one build to the next: in parts, one per run
of files that a process reads (paperfiles.read_paper_files), each written by the process
that read its run, so that the build's own process never holds what is kept, only the
papers and what was made of them. An index names each file's part, for the next build's
processes and for the touch-up (fastpath/touchup.py), which rewrites the part of a file it read.

A part is {"root": the folder paths are shown from, "files": {(path, hash): (problems,
papers pickled)}, "context": what `ready` depends on besides the files, "ready": {(path,
hash): (digest, what was made of the file's papers, pickled)}}. Each entry is valid for
as long as its file keeps its path and bytes (what `ready` holds, for as long as the
context is the same too), so a part left by a build that stopped is no harm.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..output.cache import BuildCache, cache_name

INDEX = "papers-index"
LOADED_PARTS = 2  # parts a process holds at once: runs are mostly taken in order


@dataclass
class PartStore:
    """The kept parts of one output folder's builds: `index`, the last build's part of
    each file (by path), and `root`, the folder paths are shown from (Diagnostics)."""

    cache: BuildCache
    out_dir: Path
    root: Path
    index: dict[str, int] = field(default_factory=dict)
    loaded: dict[int, dict] = field(default_factory=dict)  # by number, in this process

    def __getstate__(self) -> dict:
        return {**self.__dict__, "loaded": {}}  # a spawned worker loads its own

    def name(self, number: int) -> str:
        return cache_name(self.out_dir, f"papers-{number}")

    def load_part(self, number: int) -> dict:
        """The part `number` of the last build, {} when there is none of this root."""
        if number not in self.loaded:
            while len(self.loaded) >= LOADED_PARTS:
                del self.loaded[next(iter(self.loaded))]
            part = self.cache.load(self.name(number))
            ok = isinstance(part, dict) and part.get("root") == self.root \
                and isinstance(part.get("files"), dict) and isinstance(part.get("ready"), dict)
            self.loaded[number] = part if ok else {}
        return self.loaded[number]

    def load_kept(self, paths: list[str], context: str | None) -> tuple[dict, dict]:
        """What the last build kept of `paths`: what each file gave, and what was made of
        each file's papers, where it was made in the same `context`."""
        wanted = set(paths)
        known: dict = {}
        ready: dict = {}
        for number in sorted({self.index[path] for path in paths if path in self.index}):
            part = self.load_part(number)
            known.update((k, v) for k, v in part.get("files", {}).items() if k[0] in wanted)
            if part.get("context") == context:
                ready.update((k, v) for k, v in part["ready"].items() if k[0] in wanted)
        return known, ready

    def keep_part(self, number: int, part: dict) -> None:
        """Write the part `number` of this build, unless the last build's is the same."""
        if self.loaded.get(number) != part:
            self.cache.save(self.name(number), part)

    def keep_index(self, runs: list[list[str]]) -> None:
        """The index of this build's parts, one per run of files; those past the last
        are removed."""
        index = {path: number for number, run in enumerate(runs) for path in run}
        if index != self.index:
            self.cache.save(cache_name(self.out_dir, INDEX), {"root": self.root,
                                                              "index": index})
        for number in range(len(runs), max(self.index.values(), default=-1) + 1):
            self.cache.remove(self.name(number))


def open_parts(cache: BuildCache, out_dir: Path, root: Path) -> PartStore:
    """The parts the last build into `out_dir` kept (none when it was of another root)."""
    kept = cache.load(cache_name(out_dir, INDEX))
    ok = isinstance(kept, dict) and kept.get("root") == root \
        and isinstance(kept.get("index"), dict)
    return PartStore(cache, out_dir, root, kept["index"] if ok else {})
