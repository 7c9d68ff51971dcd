"""`width` and `height` for the pictures a text shows from content/files/, so that the page
does not shift as they load (the CSS scales them down to the column, keeping the ratio).

Raster images are measured by Pillow, which reads only their headers; an SVG by its
`width` and `height` in pixels, or else its `viewBox`. A picture that cannot be measured
is left as it is.
"""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as etree
from functools import lru_cache
from pathlib import Path

from ..pictures import PictureError, open_picture

_IMG = re.compile(r"<img\b([^>]*)>")
_SRC = re.compile(r'\bsrc="([^"]*)"')
_PIXELS = re.compile(r"\s*(\d+(?:\.\d+)?)\s*(?:px)?\s*$")


def add_image_sizes(fragment: str, marker: str, files_dir: Path) -> str:
    """`fragment` with each `<img>` whose address is `marker` + 'files/NAME' (a file of
    `files_dir`) given its picture's size, unless it has one."""
    if "<img" not in fragment:
        return fragment

    def size(found: re.Match) -> str:
        attrs = found.group(1)
        src = _SRC.search(attrs)
        prefix = marker + "files/"
        if src is None or " width=" in attrs or not src.group(1).startswith(prefix):
            return found.group()
        name = html.unescape(src.group(1)[len(prefix):]).split("#")[0].split("?")[0]
        path = files_dir / name
        try:
            status = path.stat() if ".." not in Path(name).parts else None
        except OSError:
            status = None
        measured = measure_image(str(path), status.st_size, status.st_mtime_ns) \
            if status else None
        if measured is None:
            return found.group()
        return f'<img{attrs} width="{measured[0]}" height="{measured[1]}">'
    return _IMG.sub(size, fragment)


@lru_cache(maxsize=1024)
def measure_image(path: str, size: int, mtime_ns: int) -> tuple[int, int] | None:
    """The picture's width and height; cached by its path and the file's size and time,
    so that serve measures a replaced picture again."""
    if path.lower().endswith(".svg"):
        return measure_svg(path)
    return read_raster_size(path, size, mtime_ns)


@lru_cache(maxsize=1024)
def read_raster_size(path: str, size: int, mtime_ns: int) -> tuple[int, int] | None:
    """A raster picture's width and height from its header (Pillow), None when it is none;
    `size` and `mtime_ns` key the cache, as above."""
    try:
        with open_picture(path) as image:
            return image.size
    except PictureError:  # one too large is an error at its file: plan/pictures.py
        return None


def measure_svg(path: str) -> tuple[int, int] | None:
    try:
        root = etree.parse(path).getroot()
    except (OSError, etree.ParseError):
        return None
    width, height = (_PIXELS.match(root.get(name, "")) for name in ("width", "height"))
    if width and height:
        return round(float(width.group(1))), round(float(height.group(1)))
    box = root.get("viewBox", "").replace(",", " ").split()
    try:
        w, h = float(box[2]), float(box[3])
    except (IndexError, ValueError):
        return None
    return (round(w), round(h)) if w > 0 and h > 0 else None
