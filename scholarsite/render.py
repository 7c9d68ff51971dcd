"""Render planned pages through the Jinja2 templates."""

from __future__ import annotations

from pathlib import Path

import jinja2
from jinja2 import nodes
from jinja2.ext import Extension
from markupsafe import Markup

from .metadata import dump_script_json
from .pages import Page


class FragmentCache(Extension):
    """`{% cache paper.slug, page.root %}...{% endcache %}`: the body is rendered once per
    key and reused, as in Jinja's documented fragment-cache example.

    The first key names what the fragment shows (a paper's slug); the block must use
    nothing but the keys' sources and site settings. An environment starts empty, so a
    full build renders every fragment; the incremental rebuild drops a paper's fragments
    when that paper changes and starts a new environment when templates or settings do.
    This is what keeps a one-paper edit from re-rendering every entry of a long list.
    """

    tags = {"cache"}

    def __init__(self, environment: jinja2.Environment) -> None:
        super().__init__(environment)
        environment.extend(fragment_cache={})

    def parse(self, parser) -> nodes.Node:
        lineno = next(parser.stream).lineno
        keys = [parser.parse_expression()]
        while parser.stream.skip_if("comma"):
            keys.append(parser.parse_expression())
        body = parser.parse_statements(("name:endcache",), drop_needle=True)
        where = nodes.Const(f"{parser.name}:{lineno}")
        call = self.call_method("_render_cached", [where, nodes.List(keys)])
        return nodes.CallBlock(call, [], [], body).set_lineno(lineno)

    def _render_cached(self, where: str, keys: list, caller) -> Markup:
        by_name = self.environment.fragment_cache.setdefault(keys[0], {})
        key = (where, *keys[1:])
        if key not in by_name:
            by_name[key] = Markup(caller())
        return by_name[key]


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
        extensions=[FragmentCache],
    )
    env.filters["script_json"] = dump_script_json  # JSON-LD that cannot end its <script>
    return env


def drop_fragments(env: jinja2.Environment, name: str) -> None:
    """Forget the cached fragments of `name` (a paper's slug): it changed."""
    env.fragment_cache.pop(name, None)


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
