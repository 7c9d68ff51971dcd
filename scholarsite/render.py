"""Render planned pages through the Jinja2 templates."""

from __future__ import annotations

from pathlib import Path

import jinja2

from .metadata import dump_script_json
from .pages import Page


def make_env(templates_dir: Path) -> jinja2.Environment:
    """Autoescape everywhere (HTML, XML, text alike) and StrictUndefined: a typo in a
    template is an error, never an empty string on a page."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir)),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["script_json"] = dump_script_json  # JSON-LD that cannot end its <script>
    return env


def render_page(page: Page, env: jinja2.Environment) -> str:
    if not page.template:
        return page.body
    if isinstance(page.template, tuple):
        return env.select_template(page.template).render(page.context or {})
    return env.get_template(page.template).render(page.context or {})


def describe_template_error(exc: Exception, templates_dir: Path) -> tuple[str, int, str]:
    """(path, line, message) for a template that failed, as a person can act on it."""
    if isinstance(exc, jinja2.TemplateSyntaxError):
        name = exc.filename or str(templates_dir / (exc.name or "?"))
        return name, exc.lineno or 0, f"template syntax error: {exc.message}"
    if isinstance(exc, jinja2.TemplatesNotFound):
        names = " or ".join(exc.templates)
        return str(templates_dir), 0, f"none of the templates {names} was found"
    if isinstance(exc, jinja2.TemplateNotFound):
        return str(templates_dir / exc.name), 0, "template not found"
    name, line = _template_location(exc, templates_dir)
    return name, line, f"template error: {exc}"


def _template_location(exc: Exception, templates_dir: Path) -> tuple[str, int]:
    """Where a runtime error happened: Jinja rewrites traceback frames to template lines."""
    tb = exc.__traceback__
    where = (str(templates_dir), 0)
    root = str(templates_dir.resolve())
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if str(Path(filename).resolve()).startswith(root):
            where = (filename, tb.tb_lineno)
        tb = tb.tb_next
    return where
