"""The owner's, the lab's and the people's photos, resized to the squares pages show them
in (views/photos.py says which) and kept in the build's picture store by their key, so that
a photo is resized once, not on every build.

Each size is written as WebP and as JPEG (PNG for a photo with transparency), drawn by
Pillow alone: the same photo gives the same bytes on every build, with no metadata (the
EXIF orientation is applied, then dropped; nothing of where or with what it was taken is
kept). A TIFF or BMP photo, which browsers cannot show, is converted so. A photo that
cannot be read was reported where the setting that names it was read.
"""

from __future__ import annotations

import functools
import io
from pathlib import Path

from ..models import Site
from ..output.generated import remove_unused, store_files
from ..reading.pictures import PHOTO_DRAFT, open_picture
from ..views.photos import (PHOTO_DIR, PHOTO_SETTINGS, PhotoFile, find_photo,
                            list_photo_sides, photo_file_names)

PHOTOS_STORE = "photos"  # below the build's picture store (output/generated.py)


def collect_photos(site: Site, store: Path, draw: bool = True) -> dict[str, Path]:
    """The resized photos of the owner, the lab and the people, by their path in the site,
    each where the store keeps it; the sets no photo uses any more are removed from the store.
    Without `draw`, the same paths, each given the photo itself, and the store is left
    alone (as previews.collect_previews)."""
    folder = store / PHOTOS_STORE
    copies: dict[str, Path] = {}
    used: set[Path] = set()
    lab = site.config.lab.picture if site.config.lab else ""
    for photo in sorted({site.config.owner.photo, lab, *(p.photo for p in site.people)} - {""}):
        found = find_photo(site.content_dir, photo)
        if found is None:
            continue
        used.add(folder / found.key)
        if draw:
            stored = store_files(folder, found.key, functools.partial(make_photos, found))
        else:
            stored = {name: found.path for side in list_photo_sides(found)
                      for name in photo_file_names(side, found.fallback)}
        copies.update({f"{PHOTO_DIR}/{found.key}-{name}": path
                       for name, path in stored.items()})
    if draw:
        remove_unused(folder, keep=used)
    return copies


def make_photos(found: PhotoFile) -> dict[str, bytes]:
    """The photo's middle square at each side, by file name (photo_file_names)."""
    from PIL import Image, ImageOps

    with open_picture(str(found.path)) as opened:  # read_photo_facts found it readable
        opened.draft("RGB", PHOTO_DRAFT)  # as read_photo_facts read it: a JPEG at a fraction
        image = ImageOps.exif_transpose(opened)
        image = image.convert("RGBA" if found.fallback == "png" else "RGB")
    side = min(image.size)
    left, top = (image.width - side) // 2, (image.height - side) // 2
    square = image.crop((left, top, left + side, top + side))
    files = {}
    for shown in list_photo_sides(found):
        resized = square.resize((shown, shown), Image.Resampling.LANCZOS)
        webp, fallback = photo_file_names(shown, found.fallback)
        files[webp] = encode_photo(resized, "WEBP")
        files[fallback] = encode_photo(resized, "PNG" if found.fallback == "png" else "JPEG")
    return files


def encode_photo(image, kind: str) -> bytes:
    """The pixels alone, in `kind`: nothing of the source's metadata is passed on, so that
    the bytes follow from the pixels and the settings."""
    out = io.BytesIO()
    image.info.clear()
    if kind == "WEBP":
        image.save(out, format="WEBP", quality=PHOTO_SETTINGS["webp"],
                   method=PHOTO_SETTINGS["method"], exif=b"", icc_profile=None)
    elif kind == "JPEG":
        image.save(out, format="JPEG", quality=PHOTO_SETTINGS["jpeg"], optimize=True,
                   progressive=False, exif=b"", icc_profile=None)
    else:
        image.save(out, format="PNG", optimize=False, compress_level=9)
    return out.getvalue()
