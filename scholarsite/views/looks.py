"""The look, as templates read it (`site.theme`, `site.analytics`), and the picture a link
preview shows for each page (Open Graph's og:image).

The stylesheet keeps its own colours and fonts; site.yaml's choices reach it as CSS custom
properties (`--theme-accent`, `--theme-accent-dark`, `--theme-font`) that style.css reads
with its own values as fallbacks. The generated files' paths are here so that the pages
that link them and the build that writes them agree.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path
from urllib.parse import quote

from ..models import Paper, Site, SiteConfig

FAVICON_SVG = "assets/favicon.svg"
FAVICON_ICO = "favicon.ico"  # at the root, where browsers ask for it unprompted
PREVIEW_PNG = "assets/preview.png"
PREVIEW_SIZE = (1200, 630)  # Open Graph's and X's large card
DEFAULT_ACCENT = "#a3123f"  # style.css's light --accent
# System font stacks only: nothing is downloaded. Names are unquoted (all are valid CSS
# identifiers), so that autoescaping leaves the <style> element as written.
FONT_STACKS = {
    "sans": "",  # style.css's own stack
    "serif": "Charter, Bitstream Charter, Sitka Text, Cambria, Iowan Old Style, "
             "Noto Serif, DejaVu Serif, Georgia, serif",
    "humanist": "Seravek, Gill Sans Nova, Ubuntu, Calibri, DejaVu Sans, Source Sans Pro, "
                "sans-serif",
}
ICON_TYPES = {".svg": "image/svg+xml", ".png": "image/png", ".ico": "image/x-icon",
              ".gif": "image/gif", ".jpg": "image/jpeg", ".jpeg": "image/jpeg",
              ".webp": "image/webp"}


def theme_view(config: SiteConfig) -> dict:
    """`site.theme`: the <style> declarations (empty: the theme's own look), the dark
    mode, and the icon to link."""
    theme = config.theme
    props = [("--theme-accent", theme.accent), ("--theme-accent-dark", theme.accent_dark),
             ("--theme-font", FONT_STACKS[theme.font])]
    declarations = ";".join(f"{name}:{value}" for name, value in props if value)
    icon = theme.favicon or FAVICON_SVG
    return {"css": f":root{{{declarations}}}" if declarations else "",
            "dark_mode": theme.dark_mode, "icon": icon,
            "icon_type": ICON_TYPES.get(Path(icon).suffix.lower(), ""),
            "ico": FAVICON_ICO}


def analytics_view(config: SiteConfig) -> dict:
    """`site.analytics`: provider '' when none is set, and then nothing is loaded."""
    return {"provider": config.analytics.provider, "id": config.analytics.id}


def initials(name: str) -> str:
    """Up to two letters for the icon: the first and the last word's first letters."""
    words = [w for w in name.replace("-", " ").split() if w[:1].isalnum()]
    if not words:
        return "?"
    letters = words[0][0] + (words[-1][0] if len(words) > 1 else "")
    return letters.upper()


def paper_preview(site: Site, paper: Paper | None) -> str:
    """'files/NAME' of a paper's own preview picture (BibTeX's `preview` field, as
    al-folio writes it, or `extra: {preview: ...}` in front matter) when it is one of the
    site's files; '' otherwise."""
    if paper is None:
        return ""
    name = dict(paper.extra).get("preview", "").strip().replace("\\", "/").lstrip("/")
    rel = name[len("files/"):] if name.startswith("files/") else name
    return f"files/{rel}" if rel and Path(rel) in site.files else ""


def choose_preview(site: Site, paper: Paper | None) -> tuple[str, tuple[int, int]]:
    """The site-relative path of a page's link-preview picture and its size: the paper's
    own, else the owner's photo, else the generated one."""
    for rel in (paper_preview(site, paper), site.config.owner.photo):
        if rel:
            return rel, measure_image(str(site.content_dir / rel))
    return PREVIEW_PNG, PREVIEW_SIZE


def measure_image(path: str) -> tuple[int, int]:
    """(width, height), (0, 0) when unknown; remembered by the file's status, so that a
    site's thousand pages read its photo's header once."""
    try:
        status = os.stat(path)
    except OSError:
        return (0, 0)
    return read_image_size(path, status.st_mtime_ns, status.st_size)


@functools.lru_cache(maxsize=256)
def read_image_size(path: str, mtime_ns: int, size: int) -> tuple[int, int]:
    from PIL import Image, UnidentifiedImageError  # only the header is read

    try:
        with Image.open(path) as image:
            return image.size
    except (OSError, UnidentifiedImageError, ValueError):
        return (0, 0)


def add_preview(meta: dict, site: Site, paper: Paper | None, alt: str) -> dict:
    """`meta` with og:image (absolute) and, for a wide picture, X's large card."""
    rel, (width, height) = choose_preview(site, paper)
    og = [*meta["og"], ("og:image", site.config.url + quote(rel))]
    if width and height:
        og += [("og:image:width", str(width)), ("og:image:height", str(height))]
    og.append(("og:image:alt", alt))
    large = width >= 600 and width >= 1.3 * height
    card = "summary_large_image" if large else "summary"
    twitter = [(name, card if name == "twitter:card" else value)
               for name, value in meta["twitter"]]
    return {**meta, "og": og, "twitter": twitter}
