"""The build cache: `.scholarsite-cache/` beside the output folder, safe to delete.

It keeps three things between builds, all only for the exact code that made them (this
package's files, its libraries', and Python's version: any change starts a new cache):

- the papers read from each paper file, by the file's path and a hash of its bytes, so
  that an unchanged file is not parsed again;
- a record of the last build into each output folder (fastpath/record.py, its inputs
  listed by fastpath/inputs.py): a hash of every input file (for a file over 1 MiB, such
  as a PDF to copy, its identity instead: size, modification and change times, inode),
  the identity of every file written, the warnings and counts. When no input changed and
  the output is as it was written, a build has nothing to do: it reports what the last
  one did and writes nothing;
- the compiled templates (Jinja's own bytecode cache, by a hash of each template's source).

Every cache file is written whole (a temporary file, then a rename); one that cannot be
read is ignored, and the build does the work instead. The cache holds Python pickles, so,
like `__pycache__`, it is trusted as the project's own files.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import pickle
import shutil
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from .. import __version__
from ..diagnostics import Diagnostics
from .paths import open_regular, read_regular
from .writer import replace_file

CACHE_DIR = ".scholarsite-cache"
LIBRARIES = ("jinja2", "markupsafe", "markdown", "yaml", "bibtexparser", "pylatexenc")
GITIGNORE = "# scholarsite's build cache: never committed.\n*\n"
# Each code version's folder carries this file: it is what marks a folder as one the cache
# made and may remove.
VERSION_MARK = ".scholarsite-version"
VERSION_TEXT = "A folder of scholarsite's build cache, for one version of the code.\n"
CACHEDIR_TAG = ("Signature: 8a477f597d28d172789f06886806bc55\n"
                "# scholarsite's build cache: safe to delete; see README.md.\n")

FileIdentity = tuple[int, int, int, int]  # size, mtime_ns, ctime_ns, inode


def identify(path: str) -> FileIdentity:
    return identity_of(os.stat(path))


def identity_of(status: os.stat_result) -> FileIdentity:
    return (status.st_size, status.st_mtime_ns, status.st_ctime_ns, status.st_ino)


def has_identity(path: str, identity: FileIdentity) -> bool:
    """Whether the file at `path` is still the one of `identity` (False when it is gone)."""
    try:
        return identify(path) == identity
    except OSError:
        return False


def hash_bytes(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def code_version() -> str:
    """Identifies the code a build runs: this package's files, its libraries' and Python's.
    Taken from file identities, without importing anything."""
    parts = [sys.version, __version__]
    package = Path(__file__).resolve().parent.parent
    parts += [f"{rel}:{identify(path)[:2]}" for rel, path in list_package_files(package)]
    for name in LIBRARIES:
        spec = importlib.util.find_spec(name)
        origin = spec.origin if spec is not None else None
        parts.append(f"{name}:{origin}:{identify(origin)[:2] if origin else ''}")
    return hash_bytes("\n".join(parts).encode("utf-8"))


def list_package_files(package: Path) -> list[tuple[str, str]]:
    """(name below the package, path) of every file of the package, however deep: its code,
    theme, data and message catalogs, whatever their kind, since the build may read any
    (a list of suffixes had left the catalogs out, and a catalog's edit went unseen).
    Compiled bytecode and hidden files are not the package's own."""
    found = []
    for folder, subfolders, names in os.walk(package):
        subfolders[:] = sorted(d for d in subfolders
                               if d != "__pycache__" and not d.startswith("."))
        rel = Path(folder).relative_to(package).as_posix()
        found += [(f"{rel}/{name}", os.path.join(folder, name)) for name in sorted(names)
                  if not name.startswith(".") and not name.endswith(".pyc")]
    return found


class BuildCache:
    """The cache of one code version, in `folder` (the cache folder beside the output)."""

    def __init__(self, folder: Path, version: str) -> None:
        self.folder = folder
        self.root = folder / version

    @classmethod
    def beside(cls, out_dir: Path) -> "BuildCache":
        return cls(cache_folder(out_dir), code_version())

    def load(self, name: str) -> object | None:
        """A cached object, or None when it is missing or cannot be read (then it is
        simply made again)."""
        try:
            with open_regular(self.root / name) as stream:
                return pickle.load(stream)
        except Exception:  # a truncated, corrupted or foreign file is no cache
            return None

    def save(self, name: str, value: object) -> None:
        """Write one cache file whole; a cache that cannot be written is no error (a full
        disk: replace_file leaves nothing half-written to take space)."""
        try:
            self.prepare()
            replace_file(self.root / name, pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
        except OSError:
            pass

    def identify(self, name: str) -> FileIdentity | None:
        """The identity of a cache file, None when there is none."""
        try:
            return identify(str(self.root / name))
        except OSError:
            return None

    def remove(self, name: str) -> None:
        try:
            (self.root / name).unlink(missing_ok=True)
        except OSError:
            pass

    def folder_for(self, name: str) -> Path | None:
        """A folder of this version's cache for others' files (compiled templates), or
        None when it cannot be made."""
        try:
            self.prepare()
            (self.root / name).mkdir(exist_ok=True)
        except OSError:
            return None
        return self.root / name

    def prepare(self) -> None:
        """Make the folder of this version, removing those of other versions. Only folders
        the cache made itself (they carry VERSION_MARK) are ever removed, never through a
        link, and a cache folder that holds anything else is not used at all."""
        if (self.root / VERSION_MARK).is_file():
            return
        problem = check_cache_folder(self.folder)
        if problem:
            raise OSError(problem)
        self.folder.mkdir(parents=True, exist_ok=True)
        # Backup tools skip a folder so tagged, and git one that ignores all it holds.
        for name, text in (("CACHEDIR.TAG", CACHEDIR_TAG), (".gitignore", GITIGNORE)):
            if not (self.folder / name).exists():
                replace_file(self.folder / name, text.encode("utf-8"))
        self.root.mkdir(exist_ok=True)
        replace_file(self.root / VERSION_MARK, VERSION_TEXT.encode("utf-8"))
        for entry in sorted(os.scandir(self.folder), key=lambda e: e.name):
            if entry.name != self.root.name and is_version_folder(entry):
                shutil.rmtree(entry.path, ignore_errors=True)


def cache_folder(out_dir: Path) -> Path:
    """The cache folder beside the output folder `out_dir`."""
    return Path(os.path.abspath(out_dir)).parent / CACHE_DIR


def is_version_folder(entry: os.DirEntry) -> bool:
    """A folder the cache made for some code version: a real folder, not a link, holding
    the mark as a real file."""
    mark = os.path.join(entry.path, VERSION_MARK)
    return entry.is_dir(follow_symlinks=False) and os.path.isfile(mark) \
        and not os.path.islink(mark)


def check_cache_folder(folder: Path) -> str:
    """Why `folder` may not hold the cache, or '' when it may: it is missing or empty, or
    carries scholarsite's CACHEDIR.TAG. A link is followed (the cache may live on a RAM
    disk), but a folder with other things in it, such as a link to `..` or to ~/.cache,
    is never written into nor cleaned."""
    try:
        if read_regular(folder / "CACHEDIR.TAG").decode("utf-8") == CACHEDIR_TAG:
            return ""
    except (OSError, UnicodeDecodeError):
        pass
    try:
        if not os.path.lexists(folder) or (folder.is_dir() and not any(folder.iterdir())):
            return ""
    except OSError:
        pass
    return (f"'{CACHE_DIR}' holds files that scholarsite did not make, so the build cache "
            "is not used; remove it, or link it to an empty folder")


def open_cache(out_dir: Path, diags: Diagnostics | None = None) -> BuildCache | None:
    """The cache beside `out_dir`, or None (with a warning in `diags`) when that folder is
    not the cache's own."""
    cache = BuildCache.beside(out_dir)
    problem = check_cache_folder(cache.folder)
    if not problem:
        return cache
    if diags is not None:
        diags.warning(cache.folder, 0, problem)
    return None


def cache_name(out_dir: Path, kind: str) -> str:
    """The name of one output folder's cache file of `kind` ('build', 'papers')."""
    return f"{hash_bytes(os.path.abspath(out_dir).encode('utf-8'))}-{kind}.pickle"


@contextmanager
def cache_kept_only_on_success(out_dir: Path) -> Iterator[None]:
    """A build that fails leaves no cache folder it made (its workers save what they read
    as they go): a failed first build leaves the folder as it found it. A cache that was
    there before is kept; what the failed build added to it is keyed by content, so harmless."""
    folder = cache_folder(out_dir)
    fresh = not os.path.lexists(folder)
    try:
        yield
    except BaseException:
        if fresh and folder.is_dir() and not folder.is_symlink():
            shutil.rmtree(folder, ignore_errors=True)
        raise
