"""The pictures a site publishes as they are (the owner's photo, the favicon, pictures in
content/files/ that texts show, a theme's own), without what they say about their author.

A phone's photo carries, in its EXIF, where it was taken (GPS), the camera and its serial
number, the time; XMP and IPTC blocks and PNG text chunks say as much. A picture with
any of that is published re-encoded by Pillow with none of it: a JPEG with its own
quantization tables (quality "keep", so it loses next to nothing), a PNG losslessly, a
WebP at quality 90. Its orientation and colour profile are kept, so it shows as before.
A picture with nothing to remove is copied as it is. What is published is kept in the
build's picture store (output/generated.py) by the file's status, so a picture is read
once, not on every build, and re-encoded the same way: the same bytes every build.

A picture too large to read safely (reading/pictures.py) is an error at its file; a
damaged one that has something to remove is left out, with a warning.
"""

from __future__ import annotations

import functools
import hashlib
import io
import os
from pathlib import Path

from ..diagnostics import Diagnostics
from ..output.generated import remove_unused, store_files
from ..output.paths import open_regular
from ..reading.pictures import PictureError, PictureTooLarge, decode_picture, open_picture

PICTURES_STORE = "pictures"  # below the build's picture store
PICTURES_VERSION = 1  # raised when what is removed changes, so that stored copies are redone
# Pictures Pillow reads; of these, the formats whose metadata is removed (the others
# carry none that says where or by whom: GIF, ICO and BMP are only checked for size).
RASTER_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp", ".gif", ".ico", ".bmp")
CLEANED_FORMATS = ("JPEG", "MPO", "PNG", "WEBP")
# EXIF tags that say how to show the picture and nothing about who made it, where or
# with what: orientation, resolution and its unit, and how the colour samples sit.
KEPT_TAGS = frozenset({0x0112, 0x011A, 0x011B, 0x0128, 0x0213})
ORIENTATION = 0x0112
# Other metadata Pillow reads into `info`: XMP (which may hold GPS too), IPTC (Photoshop),
# a JPEG's comment.
METADATA_KEYS = ("xmp", "XML:com.adobe.xmp", "photoshop", "comment")


def clean_published(copies: dict[str, Path], store: Path, diags: Diagnostics
                    ) -> dict[str, Path]:
    """`copies` (site path: source) with each picture that says too much replaced by
    its clean copy in the store; sources in the store (drawn or resized by the build)
    are the build's own and left as they are."""
    folder = store / PICTURES_STORE
    cleaned, used = dict(copies), set()
    for rel, source in copies.items():
        if source.suffix.lower() not in RASTER_SUFFIXES or source.is_relative_to(store):
            continue
        try:
            key = picture_key(source)
            stored = store_files(folder, key, functools.partial(clean_picture, source))
        except PictureTooLarge as exc:
            diags.error(source, 0, f"this picture {exc}")
            continue
        except PictureError as exc:
            diags.warning(source, 0, f"this picture {exc}, so what it says about where it "
                          "was taken cannot be removed; it is not published")
            del cleaned[rel]
            continue
        used.add(folder / key)
        for path in stored.values():  # one file, or none when the picture is clean
            cleaned[rel] = path
    remove_unused(folder, keep=used)
    return cleaned


def picture_key(source: Path) -> str:
    """The store's name for what a picture file gives: its path and status (a picture
    replaced is a new file), and what removing its metadata means."""
    from PIL import __version__ as pillow

    status = os.stat(source)
    facts = (PICTURES_VERSION, pillow, os.path.abspath(source), status.st_size,
             status.st_mtime_ns, status.st_ino)
    return hashlib.sha256(repr(facts).encode()).hexdigest()[:20]


def clean_picture(source: Path) -> dict[str, bytes]:
    """{name: bytes} of the picture without its identifying metadata; {} when it has
    none to remove, or is no picture Pillow reads (it is then copied as any file is)."""
    try:
        with open_picture(str(source)) as image:
            if image.format not in CLEANED_FORMATS:
                return {}
            if image.format == "PNG":  # text chunks after the pixels are read with them
                decode_picture(image)
            if not says_too_much(image):
                return {}
            decode_picture(image)
            return {"picture" + source.suffix.lower(): encode_clean(image)}
    except PictureTooLarge:
        raise
    except PictureError:
        if says_too_much_raw(source):
            raise
        return {}


def says_too_much(image) -> bool:
    """Whether the picture holds metadata beyond how to show it."""
    from PIL.ExifTags import IFD

    exif = image.getexif()
    if any(tag not in KEPT_TAGS for tag in exif) or exif.get_ifd(IFD.IFD1):
        return True  # IFD1 is a thumbnail: of the picture before it was cropped, maybe
    text = getattr(image, "text", None) or {}  # a PNG's text chunks
    return bool(text) or any(key in image.info for key in METADATA_KEYS)


def says_too_much_raw(source: Path) -> bool:
    """For a file Pillow cannot read whole: whether its bytes hold an EXIF or XMP block."""
    with open_regular(source) as stream:
        head = stream.read(1 << 16)
    return b"Exif\0" in head or b"http://ns.adobe.com/xap/" in head or b"eXIf" in head


def encode_clean(image) -> bytes:
    """The picture again, with only its orientation and colour profile for metadata."""
    from PIL import Image

    kept = Image.Exif()
    orientation = image.getexif().get(ORIENTATION)
    if orientation:
        kept[ORIENTATION] = orientation
    icc = image.info.get("icc_profile")
    dpi = image.info.get("dpi")
    image.info = {k: v for k, v in image.info.items() if k in ("transparency", "progressive")}
    options: dict = {"exif": kept.tobytes() if orientation else b""}
    if icc:
        options["icc_profile"] = icc
    if dpi:
        options["dpi"] = dpi
    out = io.BytesIO()
    if image.format in ("JPEG", "MPO"):
        image.save(out, format="JPEG", quality="keep", optimize=False,
                   progressive=bool(image.info.get("progressive")), **options)
    elif image.format == "PNG":
        image.save(out, format="PNG", optimize=False, compress_level=6, **options)
    else:
        image.save(out, format="WEBP", quality=90, method=4, **options)
    return out.getvalue()
