"""Reading a site's paper files: in forked workers when there are many, and from the cache
for files whose bytes have not changed since the last build.

A paper file is read the same way whatever happens around it: its papers and problems
depend on its path and bytes alone (the site's settings are applied after, and whether the
files its links name are in content/files/ checked after: check_file_links), which is what
makes them safe to keep by (path, hash of the bytes).
"""

from __future__ import annotations

import dataclasses
import os
import pickle
import posixpath
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, TypeVar
from urllib.parse import unquote, urlsplit

from ..output.cache import hash_bytes
from ..diagnostics import Diagnostic, Diagnostics
from ..models import Paper
from ..output.parallel import count_workers, map_tasks, split_spans
from .paperparts import PartStore
from .text.papers import Converter, make_markdown, read_markdown_paper
from ..structure.urls import FILES_DIR, is_bare_host, is_external
from .settings.yamlread import decode_text, read_bytes

# Below this many paper files, starting a worker to read them costs more than it saves.
PARALLEL_MIN_FILES = 300
CHUNK_FILES = 64  # files per task

T = TypeVar("T")
FileKey = tuple[str, str]  # (path, hash of its bytes)
FileResult = tuple[tuple[Paper, ...], tuple[Diagnostic, ...]]  # what reading it gave
StoredResult = tuple[tuple[Diagnostic, ...], bytes]  # and as kept: its papers pickled
Share = tuple[str, bytes]  # what was made of a file's papers, pickled, and its digest


@dataclass
class ParsedFiles:
    """What paper files gave, each file's pickled apart, so that a build keeps the bytes
    of the files it did not read again instead of pickling them anew: `known`, from the
    last build, by (path, hash of the bytes): the file's problems, and its papers pickled;
    `ready`, what the site's rules and the caller's `prepare` made of each file's papers
    then (loader.prepare_files), given only when nothing else they depend on changed
    since. Both are loaded from `store` (paperparts.py) for a run of files, by the process
    that reads it (for_run); this build's go in `results` and, when `keep_ready`, `made`,
    and are kept in the run's part by that process. Each is valid for as long as the
    file keeps its path and bytes: the store keeps the parts of one root (Diagnostics
    show paths relative to it). `seen`: the files this build read, of every run."""

    known: dict[FileKey, StoredResult] = field(default_factory=dict)
    ready: dict[FileKey, Share] = field(default_factory=dict)
    keep_ready: bool = False
    context: str | None = None  # what `ready` and `made` depend on besides the files
    # The hash of each file known to be as it was (by absolute path): not read again.
    hashes: dict[str, str] = field(default_factory=dict)
    store: PartStore | None = None
    results: dict[FileKey, StoredResult | None] = field(default_factory=dict)
    made: dict[FileKey, Share] = field(default_factory=dict)
    seen: set[FileKey] = field(default_factory=set)

    def __getstate__(self) -> dict:
        """What reading needs, sent to a spawned worker: not what this build made."""
        return {**self.__dict__, "results": {}, "made": {}, "seen": set()}

    def for_run(self, paths: list[Path]) -> ParsedFiles:
        """What a process reading `paths` starts from: what the store kept of them."""
        if self.store is None:
            return dataclasses.replace(self, results={}, made={}, seen=set())
        known, ready = self.store.load_kept([str(path) for path in paths], self.context)
        return dataclasses.replace(self, known={**self.known, **known},
                                   ready={**self.ready, **ready}, results={}, made={},
                                   seen=set())

    def keep_run(self, number: int, run: ParsedFiles) -> None:
        """What reading a run gave (`run`, from for_run), kept as the part `number`."""
        if self.store is not None:
            files = {key: run.known[key] if stored is None else stored
                     for key, stored in run.results.items()}
            self.store.keep_part(number, {"root": self.store.root, "files": files,
                                          "context": self.context if self.keep_ready else None,
                                          "ready": run.made if self.keep_ready else {}})


def store_result(result: FileResult) -> StoredResult:
    """A file's result as kept: its problems, and its papers pickled."""
    return result[1], pickle.dumps(result[0], protocol=pickle.HIGHEST_PROTOCOL)


def parse_paper_file(path: Path, data: bytes, md: Converter, diags: Diagnostics
                     ) -> list[Paper]:
    """The papers of one file's bytes: a .bib file holds many (read leniently: see
    bibtex.py), a Markdown file one."""
    if path.suffix.lower() == ".bib":
        from .bib.bibtex import read_site_bib  # only sites with BibTeX pay for the import

        return read_site_bib(path, data, diags)
    text = decode_text(data, path, diags)
    if text is None:
        return []
    paper = read_markdown_paper(path, text, md, diags)
    return [] if paper is None else [paper]


def check_file_links(paper: Paper, files_dir: Path, diags: Diagnostics) -> Paper:
    """The paper without its links that would lead nowhere: into files/ but to no file of
    `files_dir` (content/files/), or a web address without its scheme (which a browser
    reads as a path in the site; a .bib file's are made right as they are read). Each is
    reported at the paper: a warning for a .bib file's entry, an error for a Markdown
    paper, whose author wrote it for this site. Checked once the files are read, not with
    them: content/files/ changes apart from the paper's file."""
    from_bib = paper.source.suffix.lower() == ".bib"
    kept = []
    for link in paper.links:
        name = name_site_file(link.url)
        if name is not None and not (files_dir / name).is_file():
            problem = (f"({name!r}) is no file in {files_dir.as_posix()}/ (al-folio's "
                       "assets/pdf/ files go there), nor a web address, a DOI or an arXiv id"
                       if from_bib else
                       f"names '{FILES_DIR}/{name}', which is not a file in "
                       f"{files_dir.as_posix()}/; put the file there, or fix the name")
        elif name is None and is_bare_host(link.url):
            problem = (f"{link.url!r} has no scheme, so it would lead to a page of this "
                       f"site; write 'https://{link.url}'")
        else:
            kept.append(link)
            continue
        if from_bib:
            diags.warning(paper.source, paper.line, f"entry '{paper.bibtex_key}': link "
                          f"'{link.label or link.kind}' {problem}; it is left out")
        else:
            diags.error(paper.source, paper.line, f"link '{link.label or link.kind}' {problem}")
    return paper if len(kept) == len(paper.links) else dataclasses.replace(
        paper, links=tuple(kept))


def name_site_file(url: str) -> str | None:
    """'files/a%20b.pdf#page=2' -> 'a b.pdf': the file of content/files/ a link names;
    None for a link elsewhere (a web address, a page of the site)."""
    prefix = FILES_DIR + "/"
    path = "" if is_external(url) else unquote(urlsplit(url).path).lstrip("/")
    if not path.startswith(prefix):
        return None
    path = posixpath.normpath(path)  # 'files/../x' is no file of files/: '' is none
    return path[len(prefix):] if path.startswith(prefix) else ""


def read_paper_file(path: Path, md: Converter, diags: Diagnostics) -> list[Paper]:
    """The papers of one file: a .bib file holds many, a Markdown file one."""
    data = read_bytes(path, diags)
    return [] if data is None else parse_paper_file(path, data, md, diags)


def read_known_file(path: Path, md: Converter, diags: Diagnostics,
                    parsed: ParsedFiles, results: dict[FileKey, StoredResult | None]
                    ) -> tuple[FileKey | None, list[Paper] | None, tuple | None]:
    """One file's key, papers and what was made of them last time (a `parsed.ready`
    share, unpickled, with its digest; then the papers are None). Known files are taken
    from `parsed.known` (and recorded in `results` as None: the caller has them), others
    read; so is a known one whose kept bytes are damaged."""
    digest = parsed.hashes.get(os.path.abspath(path))
    key = (str(path), digest) if digest else None
    stored = parsed.known.get(key) if key else None  # type: ignore[arg-type]
    data = None
    if stored is None:
        data = read_bytes(path, diags)
        if data is None:
            return None, [], None
        key = (str(path), hash_bytes(data))
        stored = parsed.known.get(key)
    share = load_pickled(parsed.ready[key][1]) if stored and key in parsed.ready else None
    papers = load_pickled(stored[1]) if stored and share is None else None
    if stored is None or (share is None and papers is None):
        data = read_bytes(path, diags) if data is None else data
        if data is None:
            return None, [], None
        key, found = (str(path), hash_bytes(data)), diags.empty_copy()
        papers = parse_paper_file(path, data, md, found)
        stored = results[key] = store_result((tuple(papers), tuple(found.items)))
    else:
        results[key] = None
    diags.add_all(list(stored[0]))
    return key, papers if papers is None else list(papers), \
        None if share is None else (share, parsed.ready[key][0])


def load_pickled(data: bytes) -> object | None:
    """What `data` holds, or None when it is damaged (what it held is made again)."""
    try:
        return pickle.loads(data)
    except Exception:  # noqa: BLE001 - any damage: unpickling may raise anything
        return None


def file_size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


PaperFiles = list[tuple[FileKey | None, list[Paper] | None, tuple | None]]  # read_known_file


@dataclass
class ReadTask:
    """Reading the run of paper files numbered `number`, in whichever process takes it:
    `prepare(files, parsed)` of them, the problems found (reported to a copy of `diags`)
    and the keys of the files; what they gave is kept in the run's part (keep_run). It
    travels pickled to a spawned process (parallel.map_tasks). Neither the Markdown
    converter nor the BibTeX reader is made before: each process that meets a text in
    Markdown (papers.Converter) or takes the task of a .bib file imports what it needs,
    in parallel with the others."""

    diags: Diagnostics
    parsed: ParsedFiles
    prepare: Callable[[PaperFiles, ParsedFiles], object]
    md: Converter | None = None

    def __call__(self, numbered: tuple[int, list[Path]]
                 ) -> tuple[object, list[Diagnostic], list[FileKey]]:
        number, chunk = numbered
        if self.md is None:
            self.md = make_markdown(root_links=True)  # abstracts are shown at several depths
        found = self.diags.empty_copy()
        run = self.parsed.for_run(chunk)
        files = [read_known_file(path, self.md, found, run, run.results) for path in chunk]
        made = self.prepare(files, run)
        self.parsed.keep_run(number, run)
        return made, found.items, list(run.results)

    def __getstate__(self) -> dict:
        return {**self.__dict__, "md": None}  # made again where it is needed


def list_papers(files: PaperFiles, parsed: ParsedFiles | None = None) -> list[Paper]:
    return [paper for _, papers, share in files
            for paper in (share[0].papers if papers is None else papers)]


def read_paper_files(paths: list[Path], diags: Diagnostics, jobs: int = 1,
                     parsed: ParsedFiles | None = None,
                     prepare: Callable[[PaperFiles, ParsedFiles], T] = list_papers,
                     meanwhile: Callable[[], object] | None = None) -> list[T]:
    """`prepare(files)` of each run of `paths` (each file's key and papers), in file order:
    made in the process that read them, in `jobs` processes when there are many (0: as
    many as pay). By default, the list of papers itself. The problems found come in file
    order either way. `meanwhile` is done by this process while workers start reading
    (see parallel.map_tasks)."""
    parsed = ParsedFiles() if parsed is None else parsed
    index = parsed.store.index if parsed.store else {}
    unknown = sum(1 for path in paths if str(path) not in index)
    workers = count_workers(unknown, jobs, PARALLEL_MIN_FILES)
    sizes = [file_size(path) for path in paths] if workers > 1 else [1] * len(paths)
    # A .bib file, which holds many papers, is a task of its own. Runs are as long
    # however many processes read them: each is kept as a part (paperparts.py).
    chunks = split_spans(len(paths), CHUNK_FILES, lambda i: paths[i].suffix.lower() == ".bib")
    task = ReadTask(diags.empty_copy(), parsed, prepare)
    weights = [sum(sizes[i] for i in range(start, end)) for start, end in chunks]
    prepared: list[T] = []
    runs = [paths[a:b] for a, b in chunks]
    for made, problems, keys in map_tasks(task, list(enumerate(runs)), workers, weights,
                                          meanwhile):
        prepared.append(made)
        diags.add_all(problems)
        parsed.seen.update(keys)
    if parsed.store is not None:
        parsed.store.keep_index([[str(path) for path in run] for run in runs])
    return prepared
