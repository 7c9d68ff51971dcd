"""The one way a picture from the content is opened: guarded against pictures that would
take the memory.

A PNG of 45 bytes may say it is 65,535 pixels square: decoded, that is 17 GB. So every
picture (the owner's photo, the favicon, a paper's preview, a picture a text shows, one
published from content/files/) is opened here, and one of more than MAX_PIXELS pixels is
refused before any of it is decoded, with a message for the file's `path: error:` line.
"""

from __future__ import annotations

import re
import warnings
from contextlib import contextmanager
from typing import IO, TYPE_CHECKING, Iterator

if TYPE_CHECKING:
    from PIL.Image import Image

# Pillow's own bound for a picture it trusts (a 9,459-pixel square; 360 MB decoded as
# RGBA): a camera's photo, even a 50-megapixel one, is well below it.
MAX_PIXELS = 89_478_485


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
