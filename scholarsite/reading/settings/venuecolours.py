"""Venue badge colours: the theme's table (data/venue_colours.tsv, the CCF list's venues
coloured by area) and site.yaml's `theme.venue_colors`, which adds venues or changes them.

A badge is white text on the colour in light mode, and the colour itself, as text and
border, on the page in dark mode; both must reach WCAG AA (4.5:1). So each colour is read
the way `theme.accent` is: darkened just enough for white text on it, and a dark-mode
shade of the same hue made light enough for the dark backgrounds. A colour a person wrote
that had to be darkened is a warning at its line, naming the colour used.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from ...output.paths import read_regular
from .colours import Rgb, fit_contrast, hex_rgb, least_contrast, parse_colour, to_hex
from .fields import FieldReader

DATA_FILE = Path(__file__).parent.parent.parent / "data" / "venue_colours.tsv"
AA_TEXT = 4.5
BADGE_TEXT = ("#ffffff",)  # light mode: the badge's text on the colour
DARK_BACKGROUNDS = ("#121418", "#1b1e24")  # style.css's dark --bg and --soft
_NOT_WORD = re.compile(r"[\W_]+")

# site.yaml's own colours, (venue key, light colour, dark colour), sorted by key: hashable,
# for the frozen config. The theme's table is not copied in: it is fitted venue by venue,
# when a paper shows one (fitting all 136 of them cost every build 50 ms at start).
VenueColours = tuple[tuple[str, str, str], ...]


def venue_key(short: str) -> str:
    """'USENIX ATC', 'usenix-atc' and 'UsenixATC' are one venue."""
    return _NOT_WORD.sub("", short.casefold())


def fit_badge(rgb: Rgb) -> tuple[Rgb, Rgb]:
    """(light, dark): white text readable on `light`; `dark` readable on the dark page."""
    light = fit_contrast(rgb, tuple(hex_rgb(c) for c in BADGE_TEXT), AA_TEXT, darken=True)
    dark = fit_contrast(rgb, tuple(hex_rgb(c) for c in DARK_BACKGROUNDS), AA_TEXT,
                        darken=False)
    return light, dark


@functools.lru_cache(maxsize=1)
def load_default_colours(path: Path = DATA_FILE) -> dict[str, str]:
    """The theme's table as written: venue key -> colour."""
    table: dict[str, str] = {}
    for line in read_regular(path).decode("utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            short, colour = line.split("\t")
            table[venue_key(short)] = colour
    return table


@functools.lru_cache(maxsize=None)
def fit_default_colour(key: str) -> tuple[str, str] | None:
    """(light, dark) of the theme's colour for a venue, or None when the table has none."""
    colour = load_default_colours().get(key)
    if colour is None:
        return None
    light, dark = fit_badge(hex_rgb(colour))
    return to_hex(light), to_hex(dark)


def read_venue_colours(theme: FieldReader) -> VenueColours:
    """site.yaml's `theme.venue_colors` (VENUE: colour), each fitted; the theme's table
    fills in the other venues (find_venue_colour)."""
    if not theme.has("venue_colors"):
        return ()
    table: dict[str, tuple[str, str]] = {}
    given = theme.mapping("venue_colors")
    for short in list(given.data):
        value = given.raw(short)
        if not isinstance(short, str) or not venue_key(short):
            given.error((short,), f"'{given.name(str(short))}': a venue's short name must "
                        "be text with a letter or digit, such as OSDI")
            continue
        colour = read_badge_colour(given, short, value)
        if colour:
            table[venue_key(short)] = colour
    return tuple(sorted((k, *v) for k, v in table.items()))


def read_badge_colour(given: FieldReader, short: str, value: object) -> tuple[str, str] | None:
    name = given.name(short)
    if value is None:
        given.error((short,), f"'{name}' is empty; a colour that starts with # must be "
                    f"quoted, as in {short}: \"#1d4ed8\"")
        return None
    rgb = parse_colour(str(value))
    if rgb is None or isinstance(value, bool):
        given.error((short,), f"'{name}' is not an opaque CSS colour: {value!r}; write it "
                    "as #1d4ed8, rgb(29 78 216), hsl(224 76% 48%) or a colour name")
        return None
    light, dark = fit_badge(rgb)
    if light != rgb:
        ratio = least_contrast(rgb, tuple(hex_rgb(c) for c in BADGE_TEXT))
        given.warning((short,), f"'{name}' {value} has a contrast of only {ratio:.2f}:1 "
                      f"with the badge's white text (4.5:1 is needed); using "
                      f"{to_hex(light)}, a darker shade")
    return to_hex(light), to_hex(dark)


def find_venue_colour(colours: VenueColours, short: str) -> dict | None:
    """{light, dark} for a venue's badge (the paper view's venue_colour, style.css's
    --venue and --venue-dark), or None: the theme's plain badge."""
    key = venue_key(short)
    if not key:
        return None
    found = _index(colours).get(key) or fit_default_colour(key)
    return {"light": found[0], "dark": found[1]} if found else None


@functools.lru_cache(maxsize=8)
def _index(colours: VenueColours) -> dict[str, tuple[str, str]]:
    return {key: (light, dark) for key, light, dark in colours}
