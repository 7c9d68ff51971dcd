"""What a notebook post (or project, or a paper's notebook) publishes beside its page
(`posts/<slug>/`, `publications/<slug>/`): the pictures its outputs hold
(reading/notebooks.py), kept in the build's picture store by a hash of their bytes, and
the notebook itself, for readers to download or open in Colab."""

from __future__ import annotations

import hashlib
from pathlib import Path

from ..models import Item, Site
from ..output.generated import remove_unused, store_files
from ..reading.layout import PAPERS_DIR
from ..reading.notebooks import NOTEBOOK_SUFFIX

NOTEBOOKS_STORE = "notebooks"  # below the build's picture store (output/generated.py)


def collect_notebook_files(site: Site, store: Path) -> dict[str, Path]:
    """{path in the site: the file} for every notebook post's pictures and the notebook;
    the store's sets no notebook uses any more are removed."""
    folder = store / NOTEBOOKS_STORE
    copies: dict[str, Path] = {}
    used: set[Path] = set()
    for item in (*site.items, *shown_beside(site)):
        if item.source.suffix.lower() != NOTEBOOK_SUFFIX:
            continue
        page = f"{item.collection}/{item.slug}/"
        copies[f"{page}{item.slug}{NOTEBOOK_SUFFIX}"] = item.source
        if not item.files:
            continue
        key = hash_files(item.files)
        used.add(folder / key)
        stored = store_files(folder, key, lambda files=item.files: dict(files))
        copies.update((f"{page}{name}", path) for name, path in stored.items())
    remove_unused(folder, keep=used)
    return copies


def shown_beside(site: Site) -> list[Item]:
    """The notebooks beside a paper or a text that the site shows: not a draft's, nor
    that of a post still to come (reading/settings/publishing.py), whose page is not built."""
    pages = {(item.collection, item.slug) for item in site.items}
    pages |= {(PAPERS_DIR, paper.slug) for paper in site.papers}
    return [item for item in site.notebooks if (item.collection, item.slug) in pages]


def hash_files(files: tuple[tuple[str, bytes], ...]) -> str:
    digest = hashlib.sha256()
    for name, data in files:
        digest.update(f"{name}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()[:32]
