"""Render planned pages through the Jinja2 templates, into files or bytes."""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Protocol, Sequence

import jinja2
from jinja2 import nodes
from jinja2.ext import Extension
from markupsafe import Markup

from ..diagnostics import Diagnostics
from ..views.derived import find_derived
from ..views.metadata import dump_script_json
from ..views.rooted import CURRENT_MESSAGES, scope_ids, translate, translate_plural
from .context import PageContext
from .gettext import call_gettext, keep_messages
from ..plan.pages import Page
from ..structure.kinds import KIND
from ..output.parallel import count_workers, map_tasks, split_spans
from ..output.writer import write_chunks, write_file, write_parts
from .compiled import CompiledTemplates
from .errors import describe_template_error
from .fragmentreads import check_fragment_reads
from .layers import THEME_PREFIX, find_theme, normalize_layers


# Names that a dict has as attributes: for these, Jinja's `d.name` means the method.
DICT_ATTRIBUTES = frozenset(dir(dict))


class ViewEnvironment(jinja2.Environment):
    """Templates read views, plain dicts, as `paper.title`. Jinja tries the attribute first
    and the key only after a caught AttributeError, a few hundred times per page; a dict's
    key is looked up first here, except for names a dict has as attributes, so that every
    expression means what it means in Jinja."""

    context_class = PageContext

    def getattr(self, obj, attribute):  # noqa: A003 - Jinja's name
        if type(obj) is dict and attribute not in DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                if (derived := find_derived(obj, attribute)) is not None:
                    return derived
        return super().getattr(obj, attribute)

    def getitem(self, obj, argument):
        value = super().getitem(obj, argument)
        if isinstance(value, jinja2.Undefined) and type(obj) is dict \
                and type(argument) is str:  # a paper's derived key (derived.py)
            derived = find_derived(obj, argument)
            return value if derived is None else derived
        return value

    def __reduce__(self):
        # A spawned worker makes the environment again, from where its templates are
        # (make_env's `recipe`), rather than from the compiled code and loaders it holds.
        return remake_env, (*self.recipe, type(self), self.fragment_cache is not None)


def remake_env(layers: tuple[Path, ...], compiled_dir: Path | None,
               environment_class: type[ViewEnvironment], fragments: bool) -> jinja2.Environment:
    env = make_env(layers, compiled_dir, environment_class)
    env.fragment_cache = {} if fragments else None
    return env


# A fragment named "site:..." shows the site's settings alone (the head's links, the menu)
# at one `page.root`: rendered once per environment, in a build too, and forgotten when
# the settings change (`drop_site_fragments`).
SITE_FRAGMENT = "site:"


class FragmentCache(Extension):
    """`{% cache paper.slug, page.root %}...{% endcache %}`: the body is rendered once per
    key and reused, as in Jinja's documented fragment-cache example.

    The first key names what the fragment shows (a paper's slug); the block reads nothing
    its keys do not name, checked as it is compiled (fragmentreads.py). An environment starts empty, so a
    full build renders every fragment; the incremental rebuild drops a paper's fragments
    when that paper changes and starts a new environment when templates or settings do.
    This is what keeps a one-paper edit from re-rendering every entry of a long list.
    """

    tags = {"cache"}

    def __init__(self, environment: jinja2.Environment) -> None:
        super().__init__(environment)
        # fragment_log: while a page is recorded (splice.py), every fragment it shows, in
        # order; fragment_depth: how many fragments are being rendered, one inside another.
        environment.extend(fragment_cache={}, site_fragments={}, fragment_log=None,
                           fragment_depth=0)

    def parse(self, parser) -> nodes.Node:
        lineno = next(parser.stream).lineno
        keys = [parser.parse_expression()]
        while parser.stream.skip_if("comma"):
            keys.append(parser.parse_expression())
        body = parser.parse_statements(("name:endcache",), drop_needle=True)
        check_fragment_reads(self.environment, keys, body, (parser.name, parser.filename))
        where = nodes.Const(f"{parser.name}:{lineno}")
        call = self.call_method("_render_cached", [where, nodes.List(keys)])
        return nodes.CallBlock(call, [], [], body).set_lineno(lineno)

    def _render_cached(self, where: object, keys: list, caller) -> Markup:
        env = self.environment
        where = (where, CURRENT_MESSAGES.get())  # a fragment in each language apart
        if type(keys[0]) is str and keys[0].startswith(SITE_FRAGMENT):
            key = (where, *keys)
            fragment = env.site_fragments.get(key)
            if fragment is None:
                fragment = env.site_fragments[key] = Markup(caller())
            return fragment
        key = (where, *keys[1:])
        if env.fragment_cache is None:  # a build: each list is made once
            if env.fragment_log is None:
                return Markup(caller())
            fragment = self._render_fragment(caller)
        else:
            by_name = env.fragment_cache.setdefault(keys[0], {})
            fragment = by_name.get(key)
            if fragment is None:
                fragment = by_name[key] = self._render_fragment(caller)
        if env.fragment_log is not None:
            env.fragment_log.append((fragment, keys[0], key))
        return fragment

    def _render_fragment(self, caller) -> Markup:
        env = self.environment
        env.fragment_depth += 1
        try:
            return Markup(caller())
        finally:
            env.fragment_depth -= 1


def make_loader(layers: Sequence[Path]) -> jinja2.BaseLoader:
    """Each template from the first of `layers` that has it (the site's folder, then the
    theme: layers.py), and the theme's own as `theme/NAME` too."""
    search = jinja2.FileSystemLoader([str(folder) for folder in layers])
    theme = find_theme()
    if theme is None:
        return search
    return jinja2.ChoiceLoader([search, jinja2.PrefixLoader(
        {THEME_PREFIX: jinja2.FileSystemLoader(str(theme))})])


def make_env(templates: Path | Sequence[Path], compiled_dir: Path | None = None,
             environment_class: type[ViewEnvironment] = ViewEnvironment
             ) -> jinja2.Environment:
    """Autoescape everywhere (HTML, XML, text alike) and StrictUndefined: a typo in a
    template is an error, never an empty string on a page. Templates are not checked for
    changes on every use: an environment lasts one build (serve makes a new one when a
    template changes). With `compiled_dir`, compiled templates are kept there, by a hash of
    their source, for the next build. `templates`: one folder, or the layers searched."""
    cache = CompiledTemplates(str(compiled_dir)) if compiled_dir else None
    env = environment_class(
        loader=make_loader(normalize_layers(templates)),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        extensions=[FragmentCache, "jinja2.ext.i18n"],
        auto_reload=False,
        bytecode_cache=cache,
    )
    env.recipe = (normalize_layers(templates), compiled_dir)  # see ViewEnvironment.__reduce__
    env.filters["script_json"] = dump_script_json  # JSON-LD that cannot end its <script>
    env.filters["scope_ids"] = scope_ids  # texts shown together: each its own ids
    # The interface's strings in each page's language (views/rooted.py): newstyle, so that
    # `_("... %(n)s", n=x)` escapes `x`.
    env.install_gettext_callables(translate, translate_plural,  # type: ignore[attr-defined]
                                  newstyle=True)
    env.globals["gettext"] = keep_messages(env.globals["gettext"])
    env.globals["_"] = call_gettext
    return env


def drop_site_fragments(env: jinja2.Environment) -> None:
    """Forget the fragments of the site's settings: they changed."""
    env.site_fragments.clear()


def drop_fragments(env: jinja2.Environment, name: str) -> None:
    """Forget the cached fragments of `name` (a paper's slug): it changed."""
    env.fragment_cache.pop(name, None)


def find_template(page: Page, env: jinja2.Environment) -> jinja2.Template:
    if isinstance(page.template, tuple):
        return env.select_template(page.template)
    return env.get_template(page.template)


def render_page(page: Page, env: jinja2.Environment) -> str:
    if not page.template:
        return page.render_body()
    return find_template(page, env).render(page.render_context())


def render_page_into(root: Path, rel: str, page: Page, env: jinja2.Environment
                     ) -> os.stat_result:
    """Render `page` into the new file `rel` below `root`, and return the file's status;
    a page that lists every paper is written as its parts come (whole, with its parts, it
    took 40 MB at 5,000 papers)."""
    if not page.template:
        return write_parts(root, rel, page.body_pieces())
    if "*" in page.depends:
        return write_parts(root, rel, find_template(page, env).generate(page.render_context()))
    return write_file(root, rel, find_template(page, env).render(page.render_context()))


class PageWriter(Protocol):
    """What writes each page in place of render_page_into for a build that may take pages
    from the last one (fastpath/writing.py): it notes what the next build goes by, in a
    `new_notes()` per process, which `gather` adds up in the building process."""

    def new_notes(self) -> object: ...

    def gather(self, notes: object) -> None: ...

    def write_page(self, root: Path, rel: str, page: Page, env: jinja2.Environment,
                   notes: object) -> os.stat_result | None: ...


# Below this many pages, forking a worker costs more than it saves (about 10 ms to fork,
# and about 0.3 ms to render and write a page).
PARALLEL_MIN_PAGES = 200
CHUNK_PAGES = 32  # pages per task: tasks are shared out in turn, so small ones even out


@dataclass(frozen=True)
class RenderJob:
    pages: tuple[Page, ...]
    paths: tuple[str, ...]  # each page's file below root
    env: jinja2.Environment
    layers: tuple[Path, ...]  # where the templates came from, for messages
    root: Path
    writer: PageWriter | None = None  # writes each page, taking the last build's


# A template that failed: (index of the first page it failed on, template, path, line, message).
Failure = tuple[int, str, str, int, str]
# And the status of each file written, and what the writer noted of the pages.
Rendered = tuple[list[Failure], dict[str, os.stat_result], object]


def render_span(job: RenderJob, span: tuple[int, int]) -> Rendered:
    return render_range(job, *span)


def render_range(job: RenderJob, start: int, end: int) -> Rendered:
    """Render and write pages[start:end]; a template that fails is not tried again.
    Returns the failures, the status of each file written (not of those taken from the
    last build) and what the writer noted of the pages for the next build."""
    failures: list[Failure] = []
    failed: set = set()
    written: dict[str, os.stat_result] = {}
    writer = job.writer
    noted = writer.new_notes() if writer is not None else None
    for i in range(start, end):
        page = job.pages[i]
        if page.template in failed:
            continue
        try:
            status = render_page_into(job.root, job.paths[i], page, job.env) if writer is None \
                else writer.write_page(job.root, job.paths[i], page, job.env, noted)
            if status is not None:
                written[job.paths[i]] = status
        except Exception as exc:  # any failure inside a template is the template's bug
            if isinstance(exc, OSError) and not isinstance(exc, jinja2.TemplateError):
                raise  # the output folder's problem (TemplateNotFound is an OSError too)
            failed.add(page.template)
            failures.append((i, str(page.template), *describe_template_error(exc,
                                                                              job.layers)))
    return failures, written, noted


def estimate_cost(page: Page, pages: int) -> float:
    """Roughly what rendering a page costs, in paper pages, so that the heaviest tasks are
    started first: a page that shows every paper (the publications list, the feed) costs
    up to half a paper page per paper (a third of the pages are papers'), a file written
    as it is a fifth of one. Only the order depends on it: each worker takes the next task
    when it is free."""
    if "*" in page.depends:
        return pages / 6
    return 1.0 if page.template else 0.2


def compile_templates(env: jinja2.Environment, pages: tuple[Page, ...]) -> None:
    """Compile the templates once, here, rather than once in every worker."""
    compile_names(env, sorted({p.template for p in pages
                               if isinstance(p.template, str) and p.template}))


def compile_names(env: jinja2.Environment, names: Iterable[str]) -> None:
    for name in names:
        try:
            env.get_template(name)
        except (jinja2.TemplateError, UnicodeDecodeError):
            pass  # reported when a page uses it


@dataclass(frozen=True)
class Keeping:
    """Pages a build renders in this process and hands back, for `serve` to rebuild from:
    `render(page)` makes what is kept of one (its text, or its pieces), `chunks(kept)`
    the bytes written."""

    paths: frozenset[str]
    render: Callable[[Page], object]
    chunks: Callable[[object], list[bytes]]


def render_into(root: Path, files: dict[str, Page], env: jinja2.Environment,
                templates: Path | Sequence[Path], diags: Diagnostics, jobs: int = 0,
                keeping: Keeping | None = None, writer: PageWriter | None = None
                ) -> tuple[dict[str, os.stat_result], dict[str, object]]:
    """Render every page of `files` (output path -> page) into its file below `root`, and
    return the status of each file written, and what `keeping` kept; `writer` writes
    each page in place of render_page_into (it may take the last build's file), and
    gathers what it noted. A template error
    is reported once per template, at the first page it failed on."""
    kept_paths = keeping.paths if keeping else frozenset()
    rest = {rel: page for rel, page in files.items() if rel not in kept_paths}
    job = RenderJob(tuple(rest.values()), tuple(rest), env, normalize_layers(templates), root,
                    writer)
    # Fragments pay when the same list is rendered again (serve); a build renders each list
    # once, so kept fragments would only hold memory (every entry of every list).
    env.fragment_cache = None
    compile_templates(env, tuple(files.values()))
    workers = count_workers(len(job.pages), jobs, PARALLEL_MIN_PAGES)
    costs = [estimate_cost(page, len(job.pages)) for page in job.pages]
    size = CHUNK_PAGES if workers > 1 else len(job.pages)
    spans = split_spans(len(costs), size, lambda i: costs[i] > size)
    kept: dict[str, object] = {}
    kept_run: list = []

    def render_kept() -> None:  # by this process, while the workers start
        if keeping is not None:
            env.fragment_cache = {}  # the workers were forked without one
            kept_run.append(render_kept_pages(root, files, keeping, env, job.layers, kept))
    results = map_tasks(functools.partial(render_span, job), spans, workers,
                         [sum(costs[start:end]) for start, end in spans], render_kept)
    results += kept_run
    failures = [failure for result, _, _ in results for failure in result]
    if writer is not None:
        for _, _, noted in results:
            if noted is not None:
                writer.gather(noted)
    reported: set = set()  # each template once, and each message (a missing base.html
    for _, template, path, line, message in sorted(failures):  # fails every page) once
        if template not in reported and (path, line, message) not in reported:
            reported.update((template, (path, line, message)))
            diags.error(path, line, message)
    return {rel: status for _, written, _ in results for rel, status in written.items()}, kept


def render_kept_pages(root: Path, files: dict[str, Page], keeping: Keeping,
                      env: jinja2.Environment, layers: tuple[Path, ...],
                      kept: dict[str, object]) -> Rendered:
    """The pages `keeping` names, rendered and written here, what is made of each put in
    `kept`; a template that fails is not tried again."""
    failures: list[Failure] = []
    failed: set = set()
    written: dict[str, os.stat_result] = {}
    for i, (rel, page) in enumerate(files.items()):
        if rel not in keeping.paths or page.template in failed:
            continue
        try:
            kept[rel] = keeping.render(page)
        except Exception as exc:  # any failure inside a template is the template's bug
            failed.add(page.template)
            failures.append((i, str(page.template), *describe_template_error(exc, layers)))
            continue
        written[rel] = write_chunks(root, rel, keeping.chunks(kept[rel]))
    return failures, written, None
