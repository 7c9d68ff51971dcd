"""site.yaml's `theme` (style, accent colour, font, favicon, dark mode, venue colours) and
`analytics`.

An accent is held to WCAG AA for text (4.5:1) against the theme's backgrounds of each
mode. No colour reaches 4.5:1 on both the light and the dark backgrounds, so `accent` is
the colour of the mode the site opens in (light, unless `dark_mode: dark`) and the other
mode's is made from it; `accent_dark` (or `accent_light`) gives that one explicitly. A
colour a person wrote that is too faint is moved darker (light mode) or lighter (dark
mode), with a warning naming the colour used.
"""

from __future__ import annotations

import re

from ...models import AnalyticsConfig, ThemeConfig
from .colours import Rgb, fit_contrast, hex_rgb, least_contrast, parse_colour, to_hex
from .fields import FieldReader
from .venuecolours import read_venue_colours

AA_TEXT = 4.5
# The theme's backgrounds (style.css's --bg and --soft) that accent text sits on, by mode.
BACKGROUNDS = {"light": ("#ffffff", "#f4f6f9"), "dark": ("#121418", "#1b1e24")}
FONTS = ("sans", "serif", "humanist")
DARK_MODES = ("auto", "light", "dark")
# The looks: the same templates, each with its own stylesheet (assets/STYLE.css).
STYLES = ("profile", "compact")
# What each provider's id looks like; it is written into a <script>, so nothing else.
ANALYTICS_IDS = {
    "goatcounter": (re.compile(r"^[a-z0-9][a-z0-9-]{0,62}$"),
                    "the site code, such as 'myname' for myname.goatcounter.com"),
    "plausible": (re.compile(r"^(?:[a-z0-9-]{1,63}\.)+[a-z0-9-]{1,63}$"),
                  "the site's domain as registered, such as 'example.org'"),
    "google": (re.compile(r"^G-[A-Z0-9]{4,20}$"),
               "the measurement ID, such as 'G-ABC123DEF4'"),
}


def read_theme(theme: FieldReader) -> ThemeConfig:
    style = theme.choice("style", STYLES, STYLES[0])
    dark_mode = theme.choice("dark_mode", DARK_MODES, "auto")
    font = theme.choice("font", FONTS, "sans")
    favicon = read_site_file(theme, "favicon", "an icon")
    first, second = ("dark", "light") if dark_mode == "dark" else ("light", "dark")
    main, written = read_accent(theme, "accent", first)
    other, _ = read_accent(theme, f"accent_{second}", second)
    venue_colours = read_venue_colours(theme)
    theme.check_unknown()
    if written and not other:  # the other mode's is derived, not written: no warning
        other = to_hex(fit_mode(written, second))
    accents = {first: main, second: other}
    return ThemeConfig(accent=accents["light"], accent_dark=accents["dark"], font=font,
                       favicon=favicon, dark_mode=dark_mode, style=style,
                       venue_colours=venue_colours)


def fit_mode(rgb: Rgb, mode: str) -> Rgb:
    backgrounds = tuple(hex_rgb(bg) for bg in BACKGROUNDS[mode])
    return fit_contrast(rgb, backgrounds, AA_TEXT, darken=mode == "light")


def read_accent(theme: FieldReader, key: str, mode: str) -> tuple[str, Rgb | None]:
    """'#rrggbb' readable in `mode` ('' when not given), and the colour as written."""
    if not theme.has(key):
        return "", None
    value = theme.raw(key)
    if value is None:  # `accent: #a3123f` unquoted: YAML reads the rest as a comment
        theme.error((key,), f"'{theme.name(key)}' is empty; a colour that starts with # "
                    f"must be quoted, as in {key}: \"#a3123f\"")
        return "", None
    text = str(value)
    rgb = parse_colour(text)
    if rgb is None:
        theme.error((key,), f"'{theme.name(key)}' is not an opaque CSS colour: {text!r}; "
                    "write it as #a3123f, rgb(163 18 63), hsl(341 80% 35%) or a colour name")
        return "", None
    fitted = fit_mode(rgb, mode)
    if fitted != rgb:
        backgrounds = tuple(hex_rgb(bg) for bg in BACKGROUNDS[mode])
        ratio = least_contrast(rgb, backgrounds)
        way = "darker" if mode == "light" else "lighter"
        theme.warning((key,), f"'{theme.name(key)}' {text} has a contrast of only "
                      f"{ratio:.2f}:1 on the {mode} background (links and highlights need "
                      f"4.5:1); using {to_hex(fitted)}, a {way} shade, in {mode} mode")
    return to_hex(fitted), rgb


def read_site_file(reader: FieldReader, key: str, what: str) -> str:
    """'files/NAME': a file in content/files/, which must exist."""
    value = reader.line_text(key)
    if not value:
        return ""
    rel = value.replace("\\", "/").lstrip("/")
    if not rel.startswith("files/"):
        rel = "files/" + rel
    files_dir = reader.path.parent / "files"
    if ".." in rel.split("/") or not (reader.path.parent / rel).is_file():
        reader.error((key,), f"'{reader.name(key)}' must name {what} in "
                     f"{files_dir.as_posix()}/, written as 'files/NAME'; found {value!r}, "
                     "which is not there")
        return ""
    return rel


def read_analytics(reader: FieldReader, present: bool) -> AnalyticsConfig:
    """`analytics: {provider: goatcounter|plausible|google, id: ...}`; absent: none."""
    if not present:
        return AnalyticsConfig()
    provider = reader.choice("provider", tuple(ANALYTICS_IDS), "")
    code = reader.line_text("id", required=True)
    reader.check_unknown()
    if not provider:
        if "provider" not in reader.data:
            reader.error((), "'analytics' needs a 'provider': one of "
                         f"{', '.join(ANALYTICS_IDS)}")
        return AnalyticsConfig()
    pattern, shape = ANALYTICS_IDS[provider]
    if code and not pattern.match(code):
        reader.error(("id",), f"'analytics.id' {code!r} is not a {provider} id: write "
                     f"{shape}")
        return AnalyticsConfig()
    return AnalyticsConfig(provider=provider, id=code) if code else AnalyticsConfig()
