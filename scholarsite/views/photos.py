"""The photos pages show (the owner's or the lab's on the home page, each person's on
/people/, on their page and on a lab's home page), as templates read them: resized to the
square each is shown in, at 1x and 2x, as WebP with a JPEG (a PNG, for a photo with
transparency) for browsers without it, and the size shown, so that nothing moves as they
load. A phone's 5 MB photo shown in a 96-pixel circle is then a file of a few kilobytes;
the original stays in files/, where a text may link it, and no page loads it.

Their paths are here so that the pages that link them and the build that writes them
(plan/photos.py) agree. A photo's files are named by a hash of its bytes and the settings.
An SVG is shown as it is, and so is a photo at another site's address.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from ..reading.pictures import read_photo_facts
from ..structure.urls import FILES_DIR

PHOTO_DIR = "assets/photos"
# The squares photos are shown in (CSS pixels), each written at 1x and 2x, never larger
# than the photo: a card on /people/ (style.css's .person-badge, which stands in for a
# photo; a lab's home page shows the same files smaller), a person's page
# (.person-badge.large) and the home page (profile.css's .photo, 13.5rem: the largest of
# the looks'), the owner's photo or the lab's picture. Twice the largest is
# reading/pictures.PHOTO_DRAFT.
PHOTO_BOXES = {"card": 96, "page": 160, "home": 216}
# What the written bytes follow from besides the photo: raised with the drawing code, so
# that stored photos are made again (output/generated.py keeps them by this).
PHOTO_SETTINGS = {"webp": 80, "jpeg": 85, "method": 4, "version": 1}


@dataclass(frozen=True)
class PhotoFile:
    """A photo file pages show resized: its path, the key its files are published under,
    the side of the square cut from its middle, and the fallback's format."""

    path: Path
    key: str
    side: int
    fallback: str  # "jpg", or "png" for a photo with transparency


def find_photo(content_dir: Path, photo: str) -> PhotoFile | None:
    """The photo named 'files/NAME' (as the settings give it, checked there), when pages
    show it resized; None for none, an SVG, an address elsewhere or one that cannot be
    read (which its reader reported)."""
    if not photo.startswith(FILES_DIR + "/") or photo.lower().endswith(".svg"):
        return None
    path = content_dir / photo
    facts = read_photo_facts(path)
    if facts.problem:
        return None
    key = hashlib.sha256(repr((PHOTO_SETTINGS, PHOTO_BOXES, facts.digest)).encode())
    return PhotoFile(path, key.hexdigest()[:20], facts.side, "png" if facts.alpha else "jpg")


def list_photo_sides(found: PhotoFile) -> list[int]:
    """Every side a photo is written at: each box's 1x and 2x, once each."""
    return sorted({min(found.side, box * scale) for box in PHOTO_BOXES.values()
                   for scale in (1, 2)})


def photo_file_names(side: int, fallback: str) -> tuple[str, str]:
    """The WebP's and the fallback's names of a photo written `side` pixels square."""
    return f"{side}.webp", f"{side}.{fallback}"


def photo_view(content_dir: Path, photo: str, place: str) -> dict | None:
    """What a template shows of a photo in PHOTO_BOXES[place]: its size shown, `src`, and
    for a resized one its files by pixel density (`webp`, `fallback`); `local`: whether
    `src` is in the site (and so written from its top). None without a photo."""
    if not photo:
        return None
    box = PHOTO_BOXES[place]
    found = find_photo(content_dir, photo)
    if found is None:
        return {"src": photo, "local": photo.startswith(FILES_DIR + "/"), "width": box,
                "height": box, "webp": [], "fallback": []}
    sides = sorted({min(found.side, box * scale) for scale in (1, 2)})
    files = [(side, *photo_file_names(side, found.fallback)) for side in sides]
    webp = [{"url": f"{PHOTO_DIR}/{found.key}-{name}", "density": f"{side / sides[0]:.3g}"}
            for side, name, _ in files]
    fallback = [{"url": f"{PHOTO_DIR}/{found.key}-{name}",
                 "density": f"{side / sides[0]:.3g}"} for side, _, name in files]
    # The box's size even for a smaller photo, which the browser enlarges, as it did the
    # photo itself: a card's layout does not follow the photo's size.
    return {"src": fallback[0]["url"], "local": True, "width": box, "height": box,
            "webp": webp, "fallback": fallback}
