"""Files a build makes that are not pages (the icon, the link-preview picture, papers'
previews resized: plan/images.py, plan/previews.py), kept on disk by a hash of what they
are made from, so that they are copied into the site like any static file (by `build` and
by `serve`'s rewrites alike) and drawn again only when what they show changed.

They live beside the output folder, in `.site.images/` for an output folder `site` (a
hidden folder of the tool's, as its staging folders are; the .gitignore that `new` writes
and this repository's leave out `.site.*`): nothing is written anywhere else, and losing
the folder costs one drawing.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Callable

from .paths import read_regular
from .writer import replace_file, write_file

LISTING = "files.txt"  # written last: a folder with it is whole


def image_store(out_dir: Path) -> Path:
    """Where the generated files of the output folder `out_dir` are kept."""
    out = Path(os.path.abspath(out_dir))
    return out.parent / f".{out.name}.images"


def seed_store(store: Path, source: Path) -> None:
    """`store` (not there yet) begun as a copy of the store `source`, which is only read:
    what was drawn for one output folder is not drawn again for another of the same site
    (`check`'s, in a temporary folder). Staging folders are not copied; a copy that fails
    is as none, and the build draws what it needs."""
    if not source.is_dir():
        return
    try:
        shutil.copytree(source, store, symlinks=True, ignore=shutil.ignore_patterns(".tmp-*"))
    except (OSError, shutil.Error):
        shutil.rmtree(store, ignore_errors=True)


def store_generated(store: Path, key: str, make: Callable[[], dict[str, bytes]]
                    ) -> dict[str, Path]:
    """Each generated file's site path and where it is stored; `make()` is called only
    when the files for `key` are not stored yet. The store keeps one set, this one."""
    listing = store / key / LISTING
    made = not listing.is_file()
    stored = store_files(store, key, make)
    if made:
        remove_unused(store, keep={store / key})
    return stored


def store_files(store: Path, key: str, make: Callable[[], dict[str, bytes]]
                ) -> dict[str, Path]:
    """store_generated for one of many sets kept side by side (papers' previews, one set
    per picture): the caller removes those no longer used (remove_unused)."""
    folder = store / key
    store.mkdir(parents=True, exist_ok=True)
    ignore = store / ".gitignore"
    if not ignore.is_file():  # git leaves the folder out, as it does the build cache
        replace_file(ignore, b"# scholarsite's generated pictures: never committed.\n*\n")
    listing = folder / LISTING
    if not listing.is_file():
        write_generated(folder, make())
    names = read_regular(listing).decode("utf-8").split("\n")
    return {rel: folder / rel for rel in names if rel}


def write_generated(folder: Path, files: dict[str, bytes]) -> None:
    """Written in a folder of its own, then renamed into place: a build that stops
    halfway, or another one at the same time, never leaves a half-written set."""
    staging = Path(tempfile.mkdtemp(prefix=".tmp-", dir=folder.parent))
    try:
        for rel, data in sorted(files.items()):
            write_file(staging, rel, data)
        write_file(staging, LISTING, "\n".join(sorted(files)) + "\n")
        os.replace(staging, folder)
    except OSError:
        if not (folder / LISTING).is_file():  # not another build's, done first
            raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def remove_unused(store: Path, keep: set[Path]) -> None:
    """The sets drawn for earlier settings (a title since changed): the store is one
    site's, so only the sets in use are kept. Only sets (folders with their listing) are
    removed, never through a link."""
    if not store.is_dir():
        return
    for folder in sorted(store.iterdir()):
        try:
            if folder not in keep and not folder.is_symlink() and (folder / LISTING).is_file():
                shutil.rmtree(folder, ignore_errors=True)
        except OSError:
            continue  # gone meanwhile
