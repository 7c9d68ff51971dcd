"""The look, as templates read it (`site.theme`, `site.analytics`), and the picture a link
preview shows for each page (Open Graph's og:image).

The stylesheet keeps its own colours and fonts; site.yaml's choices reach it as CSS custom
properties (`--theme-accent`, `--theme-accent-dark`, `--theme-font`) that style.css reads
with its own values as fallbacks. The generated files' paths are here so that the pages
that link them and the build that writes them agree: so are each paper's preview picture,
as found and measured (here, for its views) and the sizes it is resized to
(plan/previews.py writes them).
"""

from __future__ import annotations

import functools
import hashlib
import io
import os
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from ..models import Paper, Preview, Site, SiteConfig
from ..output.paths import read_regular
from ..reading.text.imagesizes import read_raster_size
from ..reading.loader import find_files_dir
from ..reading.pictures import PictureError, decode_picture, open_picture
from ..structure.languages import catalog_name, parse_language
from ..structure.urls import FILES_DIR

FAVICON_SVG = "assets/favicon.svg"
FAVICON_ICO = "favicon.ico"  # at the root, where browsers ask for it unprompted
PREVIEW_PNG = "assets/preview.png"
PREVIEW_SIZE = (1200, 630)  # Open Graph's and X's large card
# The pictures link previews show (Facebook's, X's, Slack's, LinkedIn's read these and no
# SVG): an owner's photo in another format (an SVG) gives way to the generated PNG.
PREVIEW_RASTERS = (".jpg", ".jpeg", ".png", ".gif", ".webp")
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
# Papers' previews: the boxes they are shown in (CSS pixels), in lists, beside the text
# (style.css's .paper-preview: at most 40% of its width, so smaller on a phone), and on the
# paper's page, on a line of its own (.item-image: no wider than the page). Each is written
# at 1x and 2x the size shown, never larger than the picture. al-folio's folder of them may
# be copied into files/ as it is.
PREVIEW_DIR = "assets/previews"
PREVIEW_BOXES = {"list": (160, 120), "page": (480, 360)}
PREVIEW_FOLDER = "publication_preview"
# What the written bytes follow from besides the picture: raised with the drawing code,
# so that stored previews are made again (output/generated.py keeps them by this).
PREVIEW_SETTINGS = {"format": "WEBP", "quality": 82, "method": 4, "version": 1}
ICON_TYPES = {".svg": "image/svg+xml", ".png": "image/png", ".ico": "image/x-icon",
              ".gif": "image/gif", ".jpg": "image/jpeg", ".jpeg": "image/jpeg",
              ".webp": "image/webp"}


def theme_view(config: SiteConfig) -> dict:
    """`site.theme`: the look (`style`, whose stylesheet pages link after style.css), the
    <style> declarations (empty: the theme's own colours), the dark mode, and the icon."""
    theme = config.theme
    props = [("--theme-accent", theme.accent), ("--theme-accent-dark", theme.accent_dark),
             ("--theme-font", FONT_STACKS[theme.font])]
    declarations = ";".join(f"{name}:{value}" for name, value in props if value)
    icon = theme.favicon or FAVICON_SVG
    return {"css": f":root{{{declarations}}}" if declarations else "",
            "style": theme.style, "dark_mode": theme.dark_mode, "icon": icon,
            "icon_type": ICON_TYPES.get(Path(icon).suffix.lower(), ""),
            "ico": FAVICON_ICO}


# giscus's interface languages (its locales/ folder); another page language gets English.
GISCUS_LANGUAGES = frozenset(
    "ar be bg ca cs da de en eo es eu fa fr gr hbs he hu id it ja kh ko nl pl pt ro ru th "
    "tr uk uz vi zh-CN zh-HK zh-TW".split())


def giscus_language(tag: str) -> str:
    """giscus's name for a page language: Chinese by its script and region as the
    catalogs are chosen (zh-HK, zh-TW for Traditional, zh-CN), else the language's own
    subtag when giscus has it, else English."""
    locale = parse_language(tag)
    if locale is None:
        return "en"
    if locale.language == "zh":
        return "zh-HK" if locale.territory == "HK" else \
            "zh-TW" if catalog_name(tag) == "zh_Hant" else "zh-CN"
    return locale.language if locale.language in GISCUS_LANGUAGES else "en"


def comments_view(config: SiteConfig) -> dict:
    """`site.comments`: repo '' when none is set, and then no page has any trace of it."""
    comments = config.comments
    return {"repo": comments.repo, "repo_id": comments.repo_id,
            "category": comments.category, "category_id": comments.category_id,
            "collections": list(comments.collections), "lang": giscus_language(config.language)}


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
    """'files/REL' of a paper's own preview picture (find_preview) when it is one the
    pages show, and so one of the site's files; '' otherwise."""
    found = find_preview(paper) if paper is not None else None
    if found is None or found.problem or Path(found.rel) not in site.files:
        return ""
    return f"{FILES_DIR}/{found.rel}"


def choose_preview(site: Site, paper: Paper | None, photo: str = ""
                   ) -> tuple[str, tuple[int, int]]:
    """The site-relative path of a page's link-preview picture and its size: the paper's
    own, else the page's photo (a person's), else the owner's, else the generated one."""
    for rel in (paper_preview(site, paper), preview_photo(photo),
                preview_photo(site.config.owner.photo)):
        if rel:
            return rel, measure_image(str(site.content_dir / rel))
    return PREVIEW_PNG, PREVIEW_SIZE


def preview_photo(photo: str) -> str:
    """A photo of the site's files when link previews can show it (by its name's suffix,
    which the generated pictures' hash covers), else ''."""
    return photo if photo.startswith("files/") and photo.lower().endswith(PREVIEW_RASTERS) \
        else ""


def measure_image(path: str) -> tuple[int, int]:
    """(width, height), (0, 0) when unknown; remembered by the file's status, so that a
    site's thousand pages read its photo's header once."""
    try:
        status = os.stat(path)
    except OSError:
        return (0, 0)
    return read_raster_size(path, status.st_size, status.st_mtime_ns) or (0, 0)


def add_preview(meta: dict, site: Site, paper: Paper | None, alt: str, photo: str = ""
                ) -> dict:
    """`meta` with og:image (absolute) and, for a wide picture, X's large card."""
    rel, (width, height) = choose_preview(site, paper, photo)
    og = [*meta["og"], ("og:image", site.config.url + quote(rel))]
    if width and height:
        og += [("og:image:width", str(width)), ("og:image:height", str(height))]
    og.append(("og:image:alt", alt))
    large = width >= 600 and width >= 1.3 * height
    card = "summary_large_image" if large else "summary"
    twitter = [(name, card if name == "twitter:card" else value)
               for name, value in meta["twitter"]]
    return {**meta, "og": og, "twitter": twitter}


@dataclass(frozen=True)
class PreviewFile:
    """A paper's preview picture as found: its path below content/files/, the key its
    resized files are kept and published under (a hash of its bytes and the settings),
    and its size upright; or why it cannot be shown."""

    rel: str
    path: Path
    key: str = ""
    size: tuple[int, int] = (0, 0)
    problem: str = ""


def find_preview(paper: Paper) -> PreviewFile | None:
    """The paper's preview picture, looked up in the content/files/ of its own site: a
    'files/REL' name is that file; a bare name, as al-folio's `preview` field gives it,
    is looked for in files/publication_preview/ (al-folio's folder, copied over) and
    then in files/."""
    if paper.preview is None:
        return None
    files_dir = find_files_dir(paper.source)
    rel = locate_preview(files_dir, paper.preview)
    path = files_dir / rel
    real, inside = os.path.realpath(path), os.path.realpath(files_dir) + os.sep
    if not path.is_file() or not real.startswith(inside) or any(
            part.startswith(".") for part in Path(rel).parts):
        return PreviewFile(rel, path, problem=(
            f"names '{FILES_DIR}/{rel}', which is not a file in {files_dir.as_posix()}/ "
            f"(al-folio's assets/img/{PREVIEW_FOLDER}/ goes in files/{PREVIEW_FOLDER}/)"))
    status = os.stat(real)
    key, size, problem = read_picture(real, status.st_mtime_ns, status.st_size)
    return PreviewFile(rel, path, key, size, problem)


def locate_preview(files_dir: Path, preview: Preview) -> str:
    """The path below files/ that the preview's name stands for."""
    prefix = FILES_DIR + "/"
    if preview.name.startswith(prefix):
        return preview.name[len(prefix):]
    in_folder = f"{PREVIEW_FOLDER}/{preview.name}"
    return in_folder if (files_dir / in_folder).is_file() else preview.name


@functools.lru_cache(maxsize=1024)
def read_picture(path: str, mtime_ns: int, size: int) -> tuple[str, tuple[int, int], str]:
    """(key, upright size, problem) of a picture file: decoded whole, so that a file that
    opens but is cut short is found here, before any page links its resized versions.
    Remembered by the file's status: serve reads each picture once."""
    from PIL import __version__ as pillow

    try:
        data = read_regular(path)
        with open_picture(io.BytesIO(data)) as image:  # the bytes the key is of
            decode_picture(image)
            width, height = image.size
            turned = image.getexif().get(0x0112) in (5, 6, 7, 8)  # EXIF: on its side
    except PictureError as exc:
        return "", (0, 0), str(exc)
    except OSError as exc:
        return "", (0, 0), f"cannot be read as a picture ({exc})"
    facts = repr((PREVIEW_SETTINGS, PREVIEW_BOXES, pillow)).encode()
    key = hashlib.sha256(facts + b"\0" + data).hexdigest()[:20]
    return key, ((height, width) if turned else (width, height)), ""


def fit_size(size: tuple[int, int], box: tuple[int, int]) -> tuple[int, int]:
    """`size` made to fit in `box`, its shape kept; never enlarged."""
    scale = min(1.0, box[0] / size[0], box[1] / size[1])
    return (max(1, round(size[0] * scale)), max(1, round(size[1] * scale)))


def list_preview_sizes(size: tuple[int, int], box: tuple[int, int]) -> list[tuple[int, int]]:
    """The files of a picture shown in `box`: the size shown and twice it, as far as the
    picture goes."""
    return sorted({fit_size(size, box), fit_size(size, (box[0] * 2, box[1] * 2))})


def preview_file_name(size: tuple[int, int]) -> str:
    return f"{size[0]}w.webp"


def preview_url(key: str, size: tuple[int, int]) -> str:
    """Where a resized preview is published; its key changes with the picture's bytes."""
    return f"{PREVIEW_DIR}/{key}-{preview_file_name(size)}"


def preview_view(paper: Paper) -> dict | None:
    """What the templates show of a paper's preview, in lists and on its page: the size
    shown (width and height, so that nothing moves as it loads) and its files by width
    (srcset); None without one that can be shown (plan/previews.py reports why)."""
    found = find_preview(paper)
    if found is None or found.problem:
        return None
    view: dict = {"alt": paper.title}
    for kind, box in PREVIEW_BOXES.items():
        width, height = fit_size(found.size, box)
        files = [{"url": preview_url(found.key, size), "width": size[0]}
                 for size in list_preview_sizes(found.size, box)]
        view[kind] = {"src": files[0]["url"], "files": files, "width": width,
                      "height": height}
    return view
