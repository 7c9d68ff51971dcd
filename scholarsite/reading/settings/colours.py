"""CSS colours: read as a person writes them in site.yaml (hex, rgb(), hsl(), a name),
measured by WCAG 2 contrast, and moved lighter or darker until text in them is readable.

Colours are (r, g, b) tuples of 0-255 integers; `to_hex` writes one as '#rrggbb'.
"""

from __future__ import annotations

import colorsys
import functools
import re

Rgb = tuple[int, int, int]

# The CSS Color Module's named colours (level 4, less the system ones), as facts.
_NAMES = """
aliceblue f0f8ff antiquewhite faebd7 aqua 00ffff aquamarine 7fffd4 azure f0ffff beige f5f5dc
bisque ffe4c4 black 000000 blanchedalmond ffebcd blue 0000ff blueviolet 8a2be2 brown a52a2a
burlywood deb887 cadetblue 5f9ea0 chartreuse 7fff00 chocolate d2691e coral ff7f50
cornflowerblue 6495ed cornsilk fff8dc crimson dc143c cyan 00ffff darkblue 00008b
darkcyan 008b8b darkgoldenrod b8860b darkgray a9a9a9 darkgreen 006400 darkgrey a9a9a9
darkkhaki bdb76b darkmagenta 8b008b darkolivegreen 556b2f darkorange ff8c00 darkorchid 9932cc
darkred 8b0000 darksalmon e9967a darkseagreen 8fbc8f darkslateblue 483d8b
darkslategray 2f4f4f darkslategrey 2f4f4f darkturquoise 00ced1 darkviolet 9400d3
deeppink ff1493 deepskyblue 00bfff dimgray 696969 dimgrey 696969 dodgerblue 1e90ff
firebrick b22222 floralwhite fffaf0 forestgreen 228b22 fuchsia ff00ff gainsboro dcdcdc
ghostwhite f8f8ff gold ffd700 goldenrod daa520 gray 808080 green 008000 greenyellow adff2f
grey 808080 honeydew f0fff0 hotpink ff69b4 indianred cd5c5c indigo 4b0082 ivory fffff0
khaki f0e68c lavender e6e6fa lavenderblush fff0f5 lawngreen 7cfc00 lemonchiffon fffacd
lightblue add8e6 lightcoral f08080 lightcyan e0ffff lightgoldenrodyellow fafad2
lightgray d3d3d3 lightgreen 90ee90 lightgrey d3d3d3 lightpink ffb6c1 lightsalmon ffa07a
lightseagreen 20b2aa lightskyblue 87cefa lightslategray 778899 lightslategrey 778899
lightsteelblue b0c4de lightyellow ffffe0 lime 00ff00 limegreen 32cd32 linen faf0e6
magenta ff00ff maroon 800000 mediumaquamarine 66cdaa mediumblue 0000cd mediumorchid ba55d3
mediumpurple 9370db mediumseagreen 3cb371 mediumslateblue 7b68ee mediumspringgreen 00fa9a
mediumturquoise 48d1cc mediumvioletred c71585 midnightblue 191970 mintcream f5fffa
mistyrose ffe4e1 moccasin ffe4b5 navajowhite ffdead navy 000080 oldlace fdf5e6 olive 808000
olivedrab 6b8e23 orange ffa500 orangered ff4500 orchid da70d6 palegoldenrod eee8aa
palegreen 98fb98 paleturquoise afeeee palevioletred db7093 papayawhip ffefd5
peachpuff ffdab9 peru cd853f pink ffc0cb plum dda0dd powderblue b0e0e6 purple 800080
rebeccapurple 663399 red ff0000 rosybrown bc8f8f royalblue 4169e1 saddlebrown 8b4513
salmon fa8072 sandybrown f4a460 seagreen 2e8b57 seashell fff5ee sienna a0522d silver c0c0c0
skyblue 87ceeb slateblue 6a5acd slategray 708090 slategrey 708090 snow fffafa
springgreen 00ff7f steelblue 4682b4 tan d2b48c teal 008080 thistle d8bfd8 tomato ff6347
turquoise 40e0d0 violet ee82ee wheat f5deb3 white ffffff whitesmoke f5f5f5 yellow ffff00
yellowgreen 9acd32
""".split()
NAMED = dict(zip(_NAMES[::2], _NAMES[1::2]))

_HEX = re.compile(r"^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$")
_FUNCTION = re.compile(r"^(rgba?|hsla?)\((.*)\)$")
_NUMBER = re.compile(r"^([+-]?(?:\d+\.?\d*|\.\d+))(%|deg)?$")


def parse_colour(text: str) -> Rgb | None:
    """The colour a CSS colour value names, or None when it is not one this reads or it
    is not opaque (an accent seen through the page behind it has no one contrast)."""
    value = text.strip().lower()
    if value in NAMED:
        return hex_rgb(NAMED[value])
    match = _HEX.match(value)
    if match:
        digits = match.group(1)
        if len(digits) <= 4:
            digits = "".join(d * 2 for d in digits)
        if len(digits) == 8 and digits[6:] != "ff":
            return None
        return hex_rgb(digits[:6])
    match = _FUNCTION.match(value)
    return parse_function(match.group(1), match.group(2)) if match else None


def parse_function(name: str, inside: str) -> Rgb | None:
    """rgb()/hsl() in either syntax: commas, or spaces with an optional '/ alpha'."""
    main, _, alpha = inside.partition("/")
    parts = [p for p in re.split(r"[\s,]+", main.strip()) if p]
    if len(parts) == 4 and not alpha:
        parts, alpha = parts[:3], parts[3]
    numbers = [_NUMBER.match(p) for p in parts]
    if len(parts) != 3 or not all(numbers) or not is_opaque(alpha):
        return None
    values = [(float(m.group(1)), m.group(2)) for m in numbers if m]
    if name.startswith("rgb"):
        if any(unit == "deg" for _, unit in values):
            return None
        channels = [v * 2.55 if unit == "%" else v for v, unit in values]
        return clamp_rgb(*channels)
    (hue, hue_unit), (sat, sat_unit), (light, light_unit) = values
    if hue_unit == "%":
        return None
    return from_hls(hue / 360 % 1, light / 100, sat / 100)


def is_opaque(alpha: str) -> bool:
    alpha = alpha.strip()
    if not alpha:
        return True
    match = _NUMBER.match(alpha)
    if not match or match.group(2) == "deg":
        return False
    value = float(match.group(1)) / (100 if match.group(2) else 1)
    return value >= 1


def hex_rgb(digits: str) -> Rgb:
    digits = digits.lstrip("#")
    return int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16)


def clamp_rgb(r: float, g: float, b: float) -> Rgb:
    return tuple(max(0, min(255, round(c))) for c in (r, g, b))  # type: ignore[return-value]


def from_hls(hue: float, light: float, sat: float) -> Rgb:
    light, sat = max(0.0, min(1.0, light)), max(0.0, min(1.0, sat))
    return clamp_rgb(*(c * 255 for c in colorsys.hls_to_rgb(hue, light, sat)))


def to_hex(rgb: Rgb) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


@functools.lru_cache(maxsize=4096)
def luminance(rgb: Rgb) -> float:
    """WCAG 2's relative luminance (kept: fitting the theme's table of venue colours,
    every build, asks for the same backgrounds' thousands of times)."""
    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one: Rgb, other: Rgb) -> float:
    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def least_contrast(rgb: Rgb, backgrounds: tuple[Rgb, ...]) -> float:
    return min(contrast(rgb, bg) for bg in backgrounds)


def fit_contrast(rgb: Rgb, backgrounds: tuple[Rgb, ...], ratio: float, darken: bool) -> Rgb:
    """`rgb` itself when it reaches `ratio` against every background; otherwise the same
    hue and saturation made only as much darker (or lighter) as it takes, found by
    bisecting HSL lightness: the colour a person chose, as little changed as can be."""
    if least_contrast(rgb, backgrounds) >= ratio:
        return rgb
    hue, light, sat = colorsys.rgb_to_hls(*(c / 255 for c in rgb))
    bad, good = light, (0.0 if darken else 1.0)
    bad_rgb, good_rgb = from_hls(hue, bad, sat), from_hls(hue, good, sat)
    # Each channel grows with the lightness: once both ends give the same colour, so
    # does every lightness between them, and bisecting further changes nothing.
    for _ in range(30):
        if bad_rgb == good_rgb:
            break
        middle = (bad + good) / 2
        middle_rgb = from_hls(hue, middle, sat)
        if least_contrast(middle_rgb, backgrounds) >= ratio:
            good, good_rgb = middle, middle_rgb
        else:
            bad, bad_rgb = middle, middle_rgb
    return good_rgb
