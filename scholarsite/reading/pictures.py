"""The one way a picture from the content is opened: guarded against pictures that would
take the memory.

A PNG of 45 bytes may say it is 65,535 pixels square: decoded, that is 17 GB. So every
picture (the owner's photo, the favicon, a paper's preview, a picture a text shows, one
published from content/files/) is opened here, and one of more than MAX_PIXELS pixels is
refused before any of it is decoded, with a message for the file's `path: error:` line.

A photo (the owner's, a person's) is also read whole where the setting that names it is
read, so that one that cannot be shown (HEIC, which browsers cannot show and Pillow cannot
read; a damaged one) is an error at that line; what is read is kept for the pages that
show it resized (views/photos.py).
"""

from __future__ import annotations

import functools
import hashlib
import io
import os
import re
import warnings
from contextlib import contextmanager
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Iterator

from ..output.paths import read_regular

if TYPE_CHECKING:
    from PIL.Image import Image

# Pillow's own bound for a picture it trusts (a 9,459-pixel square; 360 MB decoded as
# RGBA): a camera's photo, even a 50-megapixel one, is well below it.
MAX_PIXELS = 89_478_485
# What a photo is read at to be checked and resized: JPEG decodes at a fraction of its size
# (draft) no smaller than this, which is twice the largest box a page shows a photo in
# (views/photos.py), so that a phone's 12-megapixel photo is read in a few milliseconds.
PHOTO_DRAFT = (432, 432)
# Pictures phones and scanners make that browsers cannot show: TIFF and BMP are converted
# (Pillow reads them); HEIC, which Pillow cannot read, is refused with this advice.
HEIC_SUFFIXES = (".heic", ".heif")
HEIC_ADVICE = ("is a HEIC picture, which browsers cannot show and Pillow cannot read: save "
               "it as JPEG (an iPhone does so with Settings > Camera > Formats > Most "
               "Compatible) and name that")


class PictureError(Exception):
    """A picture that cannot be used; the message says why, for the file's line."""


class PictureTooLarge(PictureError):
    """A picture of more than MAX_PIXELS pixels: never to be published or read."""


@contextmanager
def open_picture(path: str | IO[bytes]) -> Iterator[Image]:
    """The picture at `path` (or in a stream of its bytes), open (its header read, nothing decoded yet), or
    PictureError: not a picture, damaged, or larger than MAX_PIXELS."""
    from PIL import Image, UnidentifiedImageError

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            opened = Image.open(path)
    except Image.DecompressionBombError as exc:  # over twice Pillow's bound: refused there
        pixels = re.search(r"\d+", str(exc))
        raise PictureTooLarge(too_large(f"{pixels.group()} pixels" if pixels else "larger")) \
            from None
    except UnidentifiedImageError:
        raise PictureError("is not a picture Pillow can read: use PNG, JPEG or WebP") \
            from None
    except (OSError, ValueError, SyntaxError) as exc:
        raise PictureError(f"cannot be read as a picture ({exc})") from None
    with opened:
        width, height = opened.size
        if width * height > MAX_PIXELS:
            raise PictureTooLarge(too_large(f"{width}x{height} pixels"))
        yield opened


def too_large(size: str) -> str:
    return (f"is {size}, more than the {MAX_PIXELS / 1e6:.0f} million a picture may have "
            "(its header says so, and it would take gigabytes to read); make it smaller")


def decode_picture(image: Image) -> None:
    """Decode the whole picture, so that one cut short is found now; PictureError if so."""
    try:
        image.load()
    except (OSError, ValueError, SyntaxError) as exc:
        raise PictureError(f"cannot be read as a picture ({exc})") from None


@dataclass(frozen=True)
class PhotoFacts:
    """A photo as read: a digest of its bytes, the side of the largest square it holds,
    whether it has transparency; or why it cannot be shown."""

    digest: str = ""
    side: int = 0
    alpha: bool = False
    problem: str = ""


def read_photo_facts(path: str | os.PathLike) -> PhotoFacts:
    """The facts of the photo file at `path`: read whole (at PHOTO_DRAFT), so that one cut
    short is found when the setting that names it is read."""
    if str(path).lower().endswith(HEIC_SUFFIXES):
        return PhotoFacts(problem=HEIC_ADVICE)
    try:
        status = os.stat(path)
    except OSError as exc:
        return PhotoFacts(problem=f"cannot be read ({exc.strerror})")
    return read_photo_once(str(path), status.st_mtime_ns, status.st_size)


@functools.lru_cache(maxsize=256)
def read_photo_once(path: str, mtime_ns: int, size: int) -> PhotoFacts:
    """read_photo_facts, remembered by the file's status: serve reads each photo once."""
    try:
        data = read_regular(path)
        with open_picture(io.BytesIO(data)) as image:
            side = min(image.size)
            alpha = image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info
            image.draft("RGB", PHOTO_DRAFT)  # only a JPEG's decoding heeds it
            decode_picture(image)
    except PictureError as exc:
        return PhotoFacts(problem=str(exc))
    except OSError as exc:
        return PhotoFacts(problem=f"cannot be read as a picture ({exc})")
    return PhotoFacts(hashlib.sha256(data).hexdigest(), side, alpha)
