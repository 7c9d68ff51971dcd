"""Where templates and theme assets come from: a site's own templates folder, file by
file over the theme that ships with scholarsite.

A template or asset is looked up in the site's folder first, then in the theme, so a site
that overrides one template keeps every other. The theme's own files are also reachable
as `theme/NAME`, so that an override may extend the template it replaces
(`{% extends "theme/home.html" %}`). Nothing here imports Jinja: the command line reads
the layers before it knows whether anything needs building.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path
from typing import Callable, Sequence

PACKAGE = Path(__file__).resolve().parents[1]
THEME_PREFIX = "theme"  # `theme/home.html`: the theme's home.html, whatever the site has
SITE_TEMPLATES = Path("templates")  # a site's own folder when --templates is not given
ASSETS_DIR = "assets"  # copied to site/assets/, file by file as templates are
# Files of these kinds in a site's folder are templates; others (a README) are left alone.
TEMPLATE_SUFFIXES = (".html", ".xml", ".txt")


def find_theme() -> Path | None:
    """The built-in theme. Installed from a wheel, it is the package's theme/
    (pyproject.toml maps the repository's templates/ there); run from a checkout or an
    editable install, which have no theme/, it is the repository's templates/ itself."""
    installed = PACKAGE / "theme"
    if installed.is_dir():
        return installed
    checkout = PACKAGE.parent / "templates"
    if (PACKAGE.parent / "pyproject.toml").is_file() and checkout.is_dir():
        return checkout
    return None


def is_same_folder(one: Path, other: Path) -> bool:
    return os.path.realpath(one) == os.path.realpath(other)


def list_layers(site_dir: Path | None) -> tuple[Path, ...]:
    """The folders a template or asset is looked up in, first to last: the site's own
    (`site_dir`; without one, templates/ in the working folder when it is there), then
    the theme. A site folder that is the theme itself (this repository's) counts once."""
    if site_dir is None and SITE_TEMPLATES.is_dir():
        site_dir = SITE_TEMPLATES
    layers = [] if site_dir is None else [site_dir]
    theme = find_theme()
    if theme is not None and not (site_dir is not None and is_same_folder(site_dir, theme)):
        layers.append(theme)
    return tuple(layers)


def normalize_layers(templates: Path | Sequence[Path]) -> tuple[Path, ...]:
    """One folder, or several in the order they are searched, as a tuple."""
    return (templates,) if isinstance(templates, (str, os.PathLike)) else tuple(templates)


def find_layer_problem(site_dir: Path | None, layers: Sequence[Path]) -> tuple[Path, str] | None:
    """(path, message) when templates cannot be looked up as asked: a site folder given
    that is not there, or no theme to fall back on."""
    if site_dir is not None and not site_dir.is_dir():
        return site_dir, ("templates folder not found; pass --templates DIR with your "
                          "templates, or leave it out to use the built-in theme")
    if not layers:
        return SITE_TEMPLATES, ("the built-in theme is missing from this installation of "
                                "scholarsite; reinstall it, or pass --templates DIR")
    return None


def list_template_names(folder: Path) -> list[str]:
    """The templates below `folder` by name (`_list.html`, `sub/x.html`): not its assets,
    not hidden files."""
    names = []
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if path.is_file() and rel.parts[0] != ASSETS_DIR and path.suffix in TEMPLATE_SUFFIXES \
                and not any(part.startswith(".") for part in rel.parts):
            names.append(rel.as_posix())
    return names


def find_unknown_overrides(layers: Sequence[Path], theme: Path | None,
                           list_used: Callable[[], set[str] | None]
                           ) -> list[tuple[Path, str]]:
    """(path, message) for each template of the site's own folder that neither replaces
    one of the theme's nor is used by a page: a misspelt name, or one the theme has
    since dropped, would otherwise be ignored without a word. `list_used()` gives every
    template a page renders, extends, includes or imports (None: it cannot be known), and
    is called only when the site's folder has a template the theme has not."""
    if len(layers) < 2 or theme is None or not is_same_folder(layers[-1], theme):
        return []
    known = list_template_names(theme)
    extra = [name for name in list_template_names(layers[0]) if name not in known]
    used = list_used() if extra else None
    if used is None:
        return []
    problems = []
    for name in (name for name in extra if name not in used):
        close = difflib.get_close_matches(name, known, n=1)
        hint = f"did you mean '{close[0]}'? " if close else ""
        problems.append((layers[0] / name, (
            f"'{name}' overrides nothing: the built-in theme has no template of that name "
            f"and no page uses it; {hint}rename it after the theme's template it should "
            "replace (docs/templates.md lists them), or remove it")))
    return problems


def make_theme_name(rel: str) -> str:
    """How an override reaches the theme's own `rel` (see THEME_PREFIX)."""
    return f"{THEME_PREFIX}/{rel}"
