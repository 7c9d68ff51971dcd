"""A template that failed, told as a person can act on it: the file and line in the
site's templates or the theme, and what went wrong."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Sequence

import jinja2

from .layers import THEME_PREFIX, find_theme, is_same_folder, normalize_layers


def describe_template_error(exc: Exception, templates: Path | Sequence[Path]
                            ) -> tuple[str, int, str]:
    """(path, line, message) for a template that failed, as a person can act on it;
    `templates`: the folder, or the layers, the templates came from."""
    layers = normalize_layers(templates)
    first = str(layers[0]) if layers else "."
    if isinstance(exc, jinja2.TemplateSyntaxError):
        name = exc.filename or os.path.join(first, exc.name or "?")
        return name, exc.lineno or 0, f"template syntax error: {exc.message}"
    if isinstance(exc, jinja2.TemplatesNotFound):
        names = " or ".join(exc.templates)
        return first, 0, f"none of the templates {names} was found in {describe_places(layers)}"
    if isinstance(exc, jinja2.TemplateNotFound):
        # Asked for by a template (extends, include, import): named at that line.
        name, line = _template_location(exc, layers)
        return name if line else os.path.join(first, exc.name), line, \
            describe_missing(exc.name, layers)
    if isinstance(exc, UnicodeDecodeError):  # the loader does not say which file
        return first, 0, f"a template is not UTF-8 text ({exc.reason} at byte " \
            f"{exc.start}); save it as UTF-8"
    name, line = _template_location(exc, layers)
    return name, line, f"template error: {exc}"


def describe_places(layers: Sequence[Path]) -> str:
    """Where templates were looked for, as a person knows the places."""
    theme = find_theme()
    return " or ".join("the built-in theme" if theme and is_same_folder(folder, theme)
                       else f"{folder.as_posix()}/" for folder in layers) or "no folder"


def describe_missing(name: str, layers: Sequence[Path]) -> str:
    prefix = f"{THEME_PREFIX}/"
    if name.startswith(prefix):
        return (f"template '{name}' not found: the built-in theme has no "
                f"'{name[len(prefix):]}' (docs/templates.md lists its templates)")
    return f"template '{name}' not found in {describe_places(layers)}"


def _template_location(exc: Exception, layers: Sequence[Path]) -> tuple[str, int]:
    """Where a runtime error happened: Jinja rewrites traceback frames to template lines."""
    tb = exc.__traceback__
    where = (str(layers[0]) if layers else ".", 0)
    roots = [Path(os.path.realpath(folder)) for folder in layers]
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        real = Path(os.path.realpath(filename))
        if any(real.is_relative_to(root) for root in roots):
            where = (filename, tb.tb_lineno)
        tb = tb.tb_next
    return where
