"""Write a built site to disk safely.

The new site is written to a temporary folder beside the output and swapped in only when
complete, so a failed or killed build leaves the previous site as it was. A manifest in the
output folder records what the tool wrote: files a user put there are carried over, never
deleted, and a folder without the manifest is never touched.
"""

from __future__ import annotations

import json
import os
import posixpath
import shutil
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO, Iterable, Iterator

from .paths import open_regular

MANIFEST = ".scholarsite-manifest"
MANIFEST_NOTE = "Files written by scholarsite; the folder may be rebuilt at any time."
WRITE_PIECE = 1 << 20  # characters of a page encoded at a time
WRITEV_BATCH = 512  # pieces per os.writev call, below every system's limit (IOV_MAX)


class OutputError(Exception):
    """The output folder cannot be used; the message says why and what to do."""


def safe_relpath(path: str) -> str:
    """A normalized relative path inside the output folder, or OutputError."""
    norm = posixpath.normpath(path.replace("\\", "/"))
    if norm.startswith(("/", "../")) or norm == ".." or ":" in norm.split("/")[0]:
        raise OutputError(f"refusing to write '{path}': it is outside the output folder")
    return norm


def read_manifest(out_dir: Path) -> set[str] | None:
    """The files the tool wrote last time, or None when the folder is not the tool's."""
    path = out_dir / MANIFEST
    try:
        text = path.read_text(encoding="utf-8")
        return parse_manifest(text)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except (OSError, ValueError) as exc:  # a folder, or damaged: not to be guessed
        raise OutputError(f"'{path}' cannot be read ({getattr(exc, 'strerror', None) or exc}),"
                          " so what in the folder is the tool's is not known; remove the "
                          "folder's generated files and that file, or choose another "
                          "folder") from exc


def parse_manifest(text: str) -> set[str]:
    """The paths a manifest lists. It is JSON, so that no file name (one with a line break,
    say) can make it list another; a manifest of one path a line, as builds before wrote
    it, is read as such once, and the next build writes it as JSON."""
    if not text.lstrip().startswith("{"):
        return {line for line in text.splitlines() if line and not line.startswith("#")}
    files = json.loads(text).get("files")
    if not isinstance(files, list) or not all(isinstance(f, str) for f in files):
        raise ValueError("its 'files' is not a list of paths")
    return set(files)


def check_output_dir(out_dir: Path, protected: list[Path], inputs: list[Path] = ()
                     ) -> None:
    """Refuse an output folder that holds or is the user's work (`protected`), lies inside
    a folder the build reads (`inputs`: each build would read the last one's site), or was
    not made by the tool."""
    out = out_dir.resolve()
    for place in protected:
        place = place.resolve()
        if out == place or place.is_relative_to(out):
            raise OutputError(f"refusing to build into '{out_dir}': it is or contains "
                              f"'{place}'; choose a separate folder such as 'site'")
    for place in inputs:
        if out.is_relative_to(place.resolve()):
            raise OutputError(f"refusing to build into '{out_dir}': it is inside '{place}', "
                              "which the build reads; choose a folder such as 'site'")
    for parent in out.parents:
        if parent.exists() and not parent.is_dir():
            raise OutputError(f"refusing to build into '{out_dir}': it would be inside "
                              f"'{parent}', which is a file")
    if out_dir.is_symlink() and not out.exists():
        raise OutputError(f"refusing to build into '{out_dir}': it is a link to '{out}', "
                          "which does not exist; make that folder or remove the link")
    if out.exists() and not out.is_dir():
        raise OutputError(f"refusing to build into '{out_dir}': it is a file")
    if out.is_dir() and read_manifest(out) is None and any(out.iterdir()):
        raise OutputError(f"refusing to build into '{out_dir}': it is not empty and was not "
                          "made by scholarsite; empty it, or choose another folder")


def _staging_names(out_dir: Path) -> tuple[Path, Path]:
    pid = os.getpid()
    return (out_dir.parent / f".{out_dir.name}.tmp-{pid}",
            out_dir.parent / f".{out_dir.name}.old-{pid}")


def write_tree(root: Path, files: dict[str, bytes], copies: dict[str, Path]) -> None:
    for rel, data in files.items():
        write_file(root, rel, data)
    for rel, source in copies.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)


def open_new(root: Path, rel: str) -> BinaryIO:
    """A new file below `root`, open for writing; its folder is made when it is the first
    one there, but never `root` itself: a staging folder that vanished was removed by
    someone else, and the build must fail rather than publish what it writes after."""
    target = os.path.join(root, rel)
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(target, flags, 0o666)
    except FileNotFoundError:
        if not os.path.isdir(root):
            raise
        os.makedirs(os.path.dirname(target), exist_ok=True)
        fd = os.open(target, flags, 0o666)
    return open(fd, "wb", closefd=True)


def write_file(root: Path, rel: str, data: bytes | str) -> os.stat_result:
    """Write one new file below `root`; returns its status once written. Text is written
    as UTF-8, a piece at a time: a long page is not copied whole."""
    with open_new(root, rel) as stream:
        if isinstance(data, bytes):
            stream.write(data)
        else:
            write_text(stream, data)
        return written_status(stream)


def write_chunks(root: Path, rel: str, chunks: list[bytes]) -> os.stat_result:
    """Write one new file below `root` from `chunks` of bytes, one after the other."""
    with open_new(root, rel) as stream:
        for chunk in chunks:
            stream.write(chunk)
        return written_status(stream)


def written_status(stream: BinaryIO) -> os.stat_result:
    """The status of a file whose last byte has been written: what the build cache
    records, asked here rather than by looking up every file again afterwards."""
    stream.flush()
    return os.fstat(stream.fileno())


def write_parts(root: Path, rel: str, parts: Iterable[str]) -> os.stat_result:
    """Write one new file below `root` from the parts of a template's output, as they
    come, about WRITE_PIECE characters at a time: the page is never held whole, nor the
    list of its parts. Returns its status once written."""
    with open_new(root, rel) as stream:
        batch: list[str] = []
        size = 0
        for part in parts:
            batch.append(part)
            size += len(part)
            if size >= WRITE_PIECE:
                write_text(stream, "".join(batch))  # one long part: itself, not a copy
                batch, size = [], 0
        write_text(stream, "".join(batch))
        return written_status(stream)


def write_text(stream: BinaryIO, text: str) -> None:
    """`text` as UTF-8, a piece at a time: a long text is not encoded whole."""
    for start in range(0, len(text), WRITE_PIECE):
        stream.write(text[start:start + WRITE_PIECE].encode("utf-8"))


def user_files(out_dir: Path, manifest: set[str]) -> list[str]:
    """What is in the output folder that the tool did not write (a user's own): files,
    links (a link to a folder is not entered) and empty folders, the last ending in '/'."""
    found = []
    for folder, dirs, names in os.walk(out_dir):
        dirs.sort()
        rel_dir = Path(folder).relative_to(out_dir).as_posix()
        prefix = "" if rel_dir == "." else rel_dir + "/"
        links = [d for d in dirs if os.path.islink(os.path.join(folder, d))]
        for name in [*names, *links]:
            rel = prefix + name
            if rel not in manifest and rel != MANIFEST:
                found.append(rel)
        if not dirs and not names and prefix:
            found.append(prefix)
    return sorted(found)


def list_folders(listing: set[str]) -> set[str]:
    """Every folder the files of `listing` are in, at any depth."""
    folders: set[str] = set()
    for rel in listing:
        parent = posixpath.dirname(rel)
        while parent and parent not in folders:
            folders.add(parent)
            parent = posixpath.dirname(parent)
    return folders


def carry_over(old: Path, new: Path, rel: str) -> None:
    """Put a user's file, link or empty folder (`rel`, as `user_files` lists it) from the
    old site into the new one, as it was: a link stays a link."""
    source, target = old / rel, new / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    if rel.endswith("/"):
        target.mkdir(exist_ok=True)
    elif source.is_symlink():
        os.symlink(os.readlink(source), target, target_is_directory=source.is_dir())
    elif source.is_file():
        shutil.copy2(source, target)


def check_outputs(files: dict[str, object], copies: dict[str, Path]) -> None:
    """Refuses a path that both a page and a copied file would write."""
    clash = sorted(set(files) & set(copies))
    if clash:
        raise OutputError(f"two things would write '{clash[0]}': a generated page and a file "
                          "from content/; rename the file")


def refuse_overwrite(path: Path) -> OutputError:
    """The error for a file the build did not make and would overwrite."""
    return OutputError(f"'{path}' was not made by scholarsite and the build would overwrite "
                       "it; move it into content/files/ instead")


def find_users_files(out_dir: Path, manifest: set[str] | None, listing: set[str]
                     ) -> list[str]:
    """The files a user put in `out_dir` (see user_files), or OutputError when one is where
    the new site (its files `listing`) has a file or a folder."""
    keep = user_files(out_dir, manifest) if manifest is not None else []
    folders = list_folders(listing)  # a user's file or link where the site has a folder
    overwritten = [k for k in keep if k in listing or k in folders]
    if overwritten:
        raise refuse_overwrite(out_dir / overwritten[0])
    return keep


def make_staging(folder: Path) -> None:
    """A new staging folder, marked as ours from the start, so that a build killed now can
    be cleaned up later (lock.recover_site)."""
    folder.mkdir(parents=True)
    (folder / MANIFEST).write_bytes(format_manifest(set()))


@contextmanager
def staged_site(out_dir: Path, listing: set[str]) -> Iterator[Path]:
    """The folder in which to write the new site, whose files are `listing` (normalized
    paths): it is swapped in for `out_dir` when the block ends, and removed if the block
    fails or is interrupted, leaving the previous site as it was.

    Raises OutputError before touching anything when a user's file would be overwritten.
    Files a user put in `out_dir` are carried over to the new site. An output folder that
    is a link is followed: the site is staged and swapped in beside the folder it names,
    and the link stays as it was.
    """
    out_dir = follow_link(out_dir)
    old_manifest = read_manifest(out_dir) if out_dir.is_dir() else None
    keep = find_users_files(out_dir, old_manifest, listing)
    tmp, old = _staging_names(out_dir)
    make_staging(tmp)
    try:
        yield tmp
        for rel in keep:  # the user's files stay in the site they were put in
            carry_over(out_dir, tmp, rel)
        write_manifest(tmp, listing)
        if out_dir.is_dir():
            rename_folder(out_dir, old)
        rename_folder(tmp, out_dir)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        if old.is_dir() and not out_dir.exists():
            os.replace(old, out_dir)
        raise
    shutil.rmtree(old, ignore_errors=True)


RENAME_TRIES = 20  # a virus scanner or an indexer lets go within a second or two


def rename_folder(source: Path, target: Path) -> None:
    """os.replace for a folder, tried again for a while when Windows refuses it because a
    program holds a file in it open; then an error that says so."""
    for attempt in range(RENAME_TRIES):
        try:
            os.replace(source, target)
            return
        except PermissionError:
            if sys.platform != "win32":  # elsewhere the folder's permissions: said as such
                raise
            if attempt == RENAME_TRIES - 1:
                raise OutputError(f"cannot replace '{target}': a program has a file or folder "
                                  "in it open (a terminal, an editor, a file viewer); close "
                                  "it and build again") from None
            time.sleep(0.1)


def follow_link(out_dir: Path) -> Path:
    """The folder a linked output folder names, so that the link is never replaced by the
    new site nor removed with the old one; any other folder as it is."""
    return Path(os.path.realpath(out_dir)) if out_dir.is_symlink() else out_dir


def write_manifest(out_dir: Path, listing: set[str]) -> None:
    replace_file(out_dir / MANIFEST, format_manifest(listing))


def format_manifest(listing: set[str]) -> bytes:
    """The manifest's bytes: JSON, one path a line, sorted, every character outside ASCII
    escaped, so that equal listings give equal bytes whatever their names hold."""
    files = json.dumps(sorted(listing), indent=0, ensure_ascii=True)
    return (f'{{"about": {json.dumps(MANIFEST_NOTE)},\n"files": {files}}}\n').encode("ascii")


def replace_file(target: Path, data: bytes | None = None, source: Path | None = None,
                 pieces: list[bytes] | None = None) -> None:
    """Write `data`, a copy of `source`, or `pieces` one after the other, to `target`
    through a temporary file beside it and os.replace: whoever reads `target` gets the old
    file or the new one, never half. `source` must be a regular file (a pipe would wait
    forever, /dev/zero never ends)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.tmp-{os.getpid()}")
    try:
        if source is not None:
            with open_regular(source) as stream, open(tmp, "wb") as out:
                shutil.copyfileobj(stream, out)
        elif pieces is not None:
            write_pieces(tmp, pieces)
        else:
            tmp.write_bytes(data or b"")
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def create_file(target: Path, data: bytes) -> bool:
    """Write `data` to a new file `target` (its folders made); False, and nothing written,
    when something is there already: exclusive, so it never replaces a file, nor writes
    through a link made meanwhile."""
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0),
                     0o666)
    except FileExistsError:
        return False
    with os.fdopen(fd, "wb") as stream:
        stream.write(data)
    return True


def write_pieces(path: Path, pieces: list[bytes]) -> None:
    """Write `pieces` one after the other into a new file, gathered by the system
    (os.writev, a batch at a time) where it can, so that the whole is never copied."""
    if not hasattr(os, "writev"):  # Windows
        path.write_bytes(b"".join(pieces))
        return
    with open(path, "wb", buffering=0) as stream:
        for start in range(0, len(pieces), WRITEV_BATCH):
            batch = pieces[start:start + WRITEV_BATCH]
            done = os.writev(stream.fileno(), batch)
            if done < sum(map(len, batch)):  # written in part: the rest as one
                rest = memoryview(b"".join(batch))[done:]
                while rest:
                    rest = rest[stream.write(rest):]


def remove_output(out_dir: Path, rel: str) -> None:
    """Remove a file the tool wrote, and the folders it leaves empty (never `out_dir`)."""
    path = out_dir / rel
    path.unlink(missing_ok=True)
    folder = path.parent
    while folder != out_dir and folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()
        folder = folder.parent
