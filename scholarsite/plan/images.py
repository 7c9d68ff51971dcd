"""The pictures a build makes: the icon (an SVG of the owner's initials on the accent, and
/favicon.ico for browsers that ask for it unprompted) and the link-preview picture pages
show when they have no picture of their own (views/looks.py chooses).

Every byte follows from the site's settings alone: Pillow writes no timestamps into a PNG
or an ICO, and its built-in font is used, not whatever fonts the machine has, so two
builds of one site give the same files. One preview serves the whole site: drawing one
per page would cost a build of thousands of papers seconds, for pictures that only say
the site's name again.
"""

from __future__ import annotations

import hashlib
import io
import os
from html import escape
from pathlib import Path

from ..models import Site
from ..reading.settings.colours import contrast, hex_rgb
from ..reading.pictures import PictureError, decode_picture, open_picture
from ..views.looks import (DEFAULT_ACCENT, FAVICON_ICO, FAVICON_SVG, PREVIEW_PNG,
                           PREVIEW_SIZE, initials, preview_photo)

INK, PAPER, MUTED = "#1b1d21", "#ffffff", "#586070"  # style.css's light --fg, --bg, --muted
ICON_SIZES = [(16, 16), (32, 32), (48, 48)]
IMAGES_VERSION = 1  # raised when the drawing changes, so that stored pictures are redrawn
RASTER_ICONS = (".png", ".ico", ".gif", ".jpg", ".jpeg", ".webp")


def make_images(site: Site) -> dict[str, bytes]:
    """The generated files by their path in the site (where the site's own assets have a
    file of one of these names, build.py copies that one instead)."""
    theme = site.config.theme
    # The accent of the mode the site opens in.
    accent = (theme.accent_dark if theme.dark_mode == "dark" else theme.accent) \
        or DEFAULT_ACCENT
    letters = initials(site.config.owner.name)
    files: dict[str, bytes] = {}
    if not theme.favicon:
        files[FAVICON_SVG] = make_icon_svg(letters, accent)
    files[FAVICON_ICO] = make_icon_ico(site, letters, accent)
    # With a photo, pages without their own show it.
    if not preview_photo(site.config.owner.photo):
        files[PREVIEW_PNG] = make_preview_png(site, theme.accent or DEFAULT_ACCENT)  # on white
    return files


def hash_image_inputs(site: Site) -> str:
    """What the generated files are made from, hashed: their name in the store
    (output/generated.py). The favicon's own file counts by its status."""
    from PIL import __version__ as pillow

    config, owner = site.config, site.config.owner
    favicon = site.content_dir / config.theme.favicon if config.theme.favicon else None
    mark = os.stat(favicon)[6:9] if favicon is not None and favicon.is_file() else None
    facts = (IMAGES_VERSION, pillow, config.title, config.url, config.description,
             owner.name, owner.position, owner.affiliation, owner.photo, config.theme,
             str(favicon), mark)
    return hashlib.sha256(repr(facts).encode()).hexdigest()[:32]


def text_colour(accent: str) -> str:
    """White or ink on the accent, whichever reads better."""
    rgb = hex_rgb(accent)
    return PAPER if contrast(rgb, hex_rgb(PAPER)) >= contrast(rgb, hex_rgb(INK)) else INK


def make_icon_svg(letters: str, accent: str) -> bytes:
    size = 30 if len(letters) > 1 else 38
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">'
        f'<rect width="64" height="64" rx="14" fill="{accent}"/>'
        f'<text x="32" y="{32 + size * 0.36:g}" text-anchor="middle" font-size="{size}" '
        'font-weight="700" font-family="system-ui, -apple-system, Segoe UI, Roboto, '
        f'Helvetica, Arial, sans-serif" fill="{text_colour(accent)}">{escape(letters)}</text>'
        "</svg>\n").encode()


def make_icon_ico(site: Site, letters: str, accent: str) -> bytes:
    """The site's own icon as ICO when it is a picture Pillow reads; else the initials."""
    from PIL import Image, ImageDraw, ImageFont

    favicon = site.config.theme.favicon
    if favicon and Path(favicon).suffix.lower() in RASTER_ICONS:
        try:
            with open_picture(str(site.content_dir / favicon)) as own:
                own.draft(None, (96, 96))  # a JPEG is decoded at a fraction of its size
                decode_picture(own)
                return save_ico(own.convert("RGBA"))
        except PictureError:  # not a picture Pillow reads (one too large is an error at
            pass              # the file: plan/pictures.py): the initials stand in
    image = Image.new("RGBA", (192, 192), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, 191, 191), radius=42, fill=accent)
    font = ImageFont.load_default(size=96 if len(letters) > 1 else 120)
    draw.text((96, 98), letters, font=font, fill=text_colour(accent), anchor="mm")
    return save_ico(image)


def save_ico(image) -> bytes:
    # ICO's writer named: else Pillow imports each of its forty formats to find it (0.06 s).
    from PIL import IcoImagePlugin  # noqa: F401

    out = io.BytesIO()
    image.resize((48, 48), resample=1).save(out, format="ICO", sizes=ICON_SIZES)
    return out.getvalue()


def make_preview_png(site: Site, accent: str) -> bytes:
    """1200x630: the site's title, the owner's position and affiliation, on white with
    an accent band."""
    from PIL import Image, ImageDraw, ImageFont

    width, height = PREVIEW_SIZE
    image = Image.new("RGB", PREVIEW_SIZE, PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, 36, height), fill=accent)
    title_font = ImageFont.load_default(size=76)
    lines = wrap_text(draw, site.config.title, title_font, width - 200, 3)
    y = 150
    for line in lines:
        draw.text((100, y), line, font=title_font, fill=INK)
        y += 96
    owner = site.config.owner
    about = ", ".join(part for part in (owner.position, owner.affiliation) if part)
    small = ImageFont.load_default(size=40)
    for line in wrap_text(draw, about or site.config.description, small, width - 200, 2):
        y += 10
        draw.text((100, y), line, font=small, fill=MUTED)
        y += 50
    draw.text((100, height - 110), site.config.url.split("://", 1)[-1].rstrip("/"),
              font=small, fill=accent)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False, compress_level=6)
    return out.getvalue()


def wrap_text(draw, text: str, font, width: int, count: int) -> list[str]:
    """`text` in at most `count` lines no wider than `width`, broken between words; what
    does not fit (a word wider than a line, lines past `count`) ends in an ellipsis."""
    lines: list[str] = []
    for word in text.split():
        joined = f"{lines[-1]} {word}" if lines else word
        if lines and draw.textlength(joined, font=font) <= width:
            lines[-1] = joined
            continue
        while draw.textlength(word, font=font) > width and len(word) > 1:
            word = word[:-2] + "…"
        lines.append(word)
    if len(lines) > count:
        last = lines[count - 1]
        while draw.textlength(last + " …", font=font) > width and " " in last:
            last = last.rsplit(" ", 1)[0]
        lines[count - 1] = last + " …"
    return lines[:count]
