"""Papers' preview pictures, resized to the sizes pages show them at (views/looks.py says
which), and kept in the build's picture store by a hash of the picture's bytes and the
settings, so that a picture is resized once, not on every build.

Each size is written as WebP, drawn by Pillow alone: the same picture gives the same bytes
on every build (no timestamp, no metadata; the EXIF orientation is applied, then dropped).
A preview that cannot be shown is reported here, at the line that names it: an error for
a Markdown paper, whose author wrote it for this site, and a warning for a BibTeX entry (or
a paper import-bib made of one), read as leniently as its links; its pages then show no
picture (looks.preview_view finds the same problem).
"""

from __future__ import annotations

import functools
import io
from pathlib import Path

from ..diagnostics import Diagnostics
from ..models import Paper, Site
from ..output.generated import remove_unused, store_files
from ..reading.pictures import open_picture
from ..views.looks import (PREVIEW_BOXES, PREVIEW_DIR, PREVIEW_SETTINGS, PreviewFile,
                           find_preview, list_preview_sizes, preview_file_name)

PREVIEWS_STORE = "previews"  # below the build's picture store (output/generated.py)


def collect_previews(site: Site, store: Path, diags: Diagnostics, draw: bool = True
                     ) -> dict[str, Path]:
    """The resized previews of the site's papers, by their path in the site, each where
    the store keeps it; the sets no paper uses any more are removed from the store.
    Without `draw`, the same paths, each given the picture itself, and the store is left
    alone: for a build whose site is thrown away (migrate's trial build), which finds
    every problem all the same, since find_preview decodes each picture whole."""
    folder = store / PREVIEWS_STORE
    copies: dict[str, Path] = {}
    used: set[Path] = set()
    for paper in site.papers:
        found = find_preview(paper)
        if found is None:
            continue
        if found.problem:
            report_preview(paper, found, diags)
            continue
        if folder / found.key in used:  # one picture, several papers
            continue
        used.add(folder / found.key)
        if not draw:
            copies.update({f"{PREVIEW_DIR}/{found.key}-{preview_file_name(size)}": found.path
                           for size in list_sizes(found)})
            continue
        stored = store_files(folder, found.key, functools.partial(make_previews, found))
        for name, path in stored.items():
            copies[f"{PREVIEW_DIR}/{found.key}-{name}"] = path
    if draw:
        remove_unused(folder, keep=used)
    return copies


def report_preview(paper: Paper, found: PreviewFile, diags: Diagnostics) -> None:
    """At the line that names the picture: a warning for a paper read (or imported) from
    BibTeX, which follows BibTeX's leniency, an error for any other."""
    assert paper.preview is not None
    if not paper.bibtex_type:
        diags.error(paper.source, paper.preview.line, f"'preview' {found.problem}")
        return
    entry = f"entry '{paper.bibtex_key}': " if paper.source.suffix.lower() == ".bib" else ""
    diags.warning(paper.source, paper.preview.line,
                  f"{entry}'preview' {found.problem}; it is left out")


def list_sizes(found: PreviewFile) -> list[tuple[int, int]]:
    """Every size pages show the picture at, 1x and 2x, once each."""
    return sorted({size for box in PREVIEW_BOXES.values()
                   for size in list_preview_sizes(found.size, box)})


def make_previews(found: PreviewFile) -> dict[str, bytes]:
    """The picture at each size, by file name (looks.preview_file_name)."""
    from PIL import Image, ImageOps

    with open_picture(str(found.path)) as opened:  # read_picture found it readable
        image = ImageOps.exif_transpose(opened)
        # Transparency kept only where the picture has some; the rest is plain RGB.
        has_alpha = image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info
        image = image.convert("RGBA" if has_alpha else "RGB")
    files = {}
    for size in list_sizes(found):
        resized = image if size == image.size else image.resize(
            size, Image.Resampling.LANCZOS)
        files[preview_file_name(size)] = encode_webp(resized)
    return files


def encode_webp(image) -> bytes:
    """The picture's pixels alone: nothing of the source's metadata (its info) is passed
    on, so the bytes follow from the pixels and the settings."""
    out = io.BytesIO()
    image.info.clear()
    image.save(out, format=PREVIEW_SETTINGS["format"], quality=PREVIEW_SETTINGS["quality"],
               method=PREVIEW_SETTINGS["method"], exif=b"", icc_profile=None)
    return out.getvalue()
