"""Reading a site's paper files: in forked workers when there are many, and from the cache
for files whose bytes have not changed since the last build.

A paper file is read the same way whatever happens around it: its papers and problems
depend on its path and bytes alone (the site's settings are applied after, and whether the
files its links name are in content/files/ checked after: check_file_links), which is what
makes them safe to keep by (path, hash of the bytes).
"""

from __future__ import annotations

import dataclasses
import pickle
import posixpath
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, TypeVar
from urllib.parse import unquote, urlsplit

import markdown

from ..output.cache import hash_bytes
from ..diagnostics import Diagnostic, Diagnostics
from ..models import Paper
from ..output.parallel import count_workers, map_forked, split_spans
from .papers import make_markdown, read_markdown_paper
from ..structure.urls import FILES_DIR, is_bare_host, is_external
from .yamlread import decode_text, read_bytes

# Below this many paper files, starting a worker to read them costs more than it saves.
PARALLEL_MIN_FILES = 300
CHUNK_FILES = 64  # files per task

T = TypeVar("T")
FileKey = tuple[str, str]  # (path, hash of its bytes)
FileResult = tuple[tuple[Paper, ...], tuple[Diagnostic, ...]]  # what reading it gave


@dataclass
class ParsedFiles:
    """What paper files gave: `known` from the last build; `seen`, the files this one
    read, and `pickled`, what they gave, run by run, pickled for the next build by the
    worker that read them (so that saving them adds nothing to the time a build takes in
    one process, and the results cross back from a worker once, not twice)."""

    known: dict[FileKey, FileResult] = field(default_factory=dict)
    seen: set[FileKey] = field(default_factory=set)
    pickled: list[bytes] = field(default_factory=list)

    def changed(self) -> bool:
        """Whether this build read files other than those the last one left."""
        return self.seen != self.known.keys()


def unpickle_runs(runs: list[bytes]) -> dict[FileKey, FileResult]:
    """`ParsedFiles.known` again, from the `pickled` runs of a last build."""
    known: dict[FileKey, FileResult] = {}
    for run in runs:
        known.update(pickle.loads(run))
    return known


def parse_paper_file(path: Path, data: bytes, md: markdown.Markdown, diags: Diagnostics
                     ) -> list[Paper]:
    """The papers of one file's bytes: a .bib file holds many (read leniently: see
    bibtex.py), a Markdown file one."""
    if path.suffix.lower() == ".bib":
        from .bibtex import read_site_bib  # only sites with BibTeX pay for the import

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
                          f"'{link.kind}' {problem}; it is left out")
        else:
            diags.error(paper.source, paper.line, f"link '{link.kind}' {problem}")
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


def read_paper_file(path: Path, md: markdown.Markdown, diags: Diagnostics) -> list[Paper]:
    """The papers of one file: a .bib file holds many, a Markdown file one."""
    data = read_bytes(path, diags)
    return [] if data is None else parse_paper_file(path, data, md, diags)


def read_known_file(path: Path, md: markdown.Markdown, diags: Diagnostics,
                    known: dict[FileKey, FileResult], results: dict[FileKey, FileResult]
                    ) -> list[Paper]:
    """One file's papers, from `known` when its bytes are known; recorded in
    `results`."""
    data = read_bytes(path, diags)
    if data is None:
        return []
    key = (str(path), hash_bytes(data))
    result = known.get(key)
    if result is None:
        found = diags.empty_copy()
        papers = parse_paper_file(path, data, md, found)
        result = (tuple(papers), tuple(found.items))
    results[key] = result
    diags.add_all(list(result[1]))
    return list(result[0])


def file_size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def read_paper_files(paths: list[Path], diags: Diagnostics, jobs: int = 1,
                     parsed: ParsedFiles | None = None,
                     prepare: Callable[[list[Paper]], T] = list,
                     meanwhile: Callable[[], object] | None = None) -> list[T]:
    """`prepare(papers)` of each run of `paths`, in file order: made in the process that
    read them, in `jobs` processes when there are many (0: as many as pay). By default,
    the list of papers itself. The problems found come in file order either way. `meanwhile`
    is done by this process while workers start reading (see parallel.map_forked)."""
    parsed = ParsedFiles() if parsed is None else parsed
    known_paths = {path for path, _ in parsed.known}
    unknown = sum(1 for path in paths if str(path) not in known_paths)
    workers = count_workers(unknown, jobs, PARALLEL_MIN_FILES)
    sizes = [file_size(path) for path in paths] if workers > 1 else [1] * len(paths)
    # A .bib file, which holds many papers, is a task of its own.
    chunks = split_spans(len(paths), CHUNK_FILES if workers > 1 else len(paths),
                         lambda i: paths[i].suffix.lower() == ".bib")
    # Made once, before workers start. The BibTeX reader is not imported here: a .bib
    # file is a task of its own, so the worker that takes it imports it, in parallel.
    md = make_markdown(root_links=True)  # abstracts are shown at several depths

    def read_chunk(chunk: list[Path]) -> tuple[T, list[Diagnostic], list[FileKey], bytes]:
        found = diags.empty_copy()
        results: dict[FileKey, FileResult] = {}
        papers = [paper for path in chunk
                  for paper in read_known_file(path, md, found, parsed.known, results)]
        return (prepare(papers), found.items, list(results),
                pickle.dumps(results, protocol=pickle.HIGHEST_PROTOCOL))

    weights = [sum(sizes[i] for i in range(start, end)) for start, end in chunks]
    prepared: list[T] = []
    for made, problems, keys, pickled in map_forked(read_chunk, [paths[a:b] for a, b in chunks],
                                                    workers, weights, meanwhile):
        prepared.append(made)
        diags.add_all(problems)
        parsed.seen.update(keys)
        parsed.pickled.append(pickled)
    return prepared
