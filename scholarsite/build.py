"""The build: load, plan, render, write. Orchestration only; each stage lives in its module."""

from __future__ import annotations

import functools
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from .output.cache import BuildCache, cache_kept_only_on_success, cache_name, open_cache
from .fastpath.inputs import build_settings, fill_inputs, is_settled
from .fastpath.record import (BuildRecord, Listed, is_current, list_build_inputs, list_unchanged,
                              load_record, record_build)
from .diagnostics import ContentError, Diagnostic, Diagnostics
from .reading.layout import is_paper_path
from .reading.loader import CONFIG_FILE, FILES_DIR, Loaded, load_site, watch_site
from .models import Site
from .plan.images import hash_image_inputs, make_images
from .plan.photos import collect_photos
from .plan.pictures import clean_published
from .plan.previews import collect_previews
from .plan.notebookfiles import collect_notebook_files
from .plan.paperpdfs import collect_paper_pdfs
from .render.layers import ASSETS_DIR, find_layer_problem, list_layers, normalize_layers
from .reading.listing import list_files
from .reading.paperfiles import ParsedFiles
from .reading.paperparts import open_parts
from .reading.settings.publishing import Publishing, build_mode
from .structure.kinds import KIND, list_common_templates
from .structure.urls import output_path
from .views.views import make_views
from .output.generated import image_store, store_generated
from .output.lock import output_lock, recover_site
from .output.parallel import collector_paused
from .reads import ReadLog, Reads
from .fastpath.patch import can_patch, patched_site
from .fastpath.reuse import (PageDigests, Reuse, fingerprint_content, fingerprint_templates,
                             key_paper_pages)
from .output.writer import (OutputError, check_output_dir, check_outputs, follow_link,
                            safe_relpath, staged_site, write_tree)

if TYPE_CHECKING:
    import jinja2

    from .plan.pages import Page
    from .views.cvpdf import CVFiles

# Templates every site renders (with base.html, which they extend): compiled, with the
# partials they include, while workers read the papers. Jinja, rendering, planning and the
# touch-up are imported then or later, where first used (docs/performance.md, "Start-up").
COMMON_TEMPLATES = list_common_templates()
TEMPLATES_CACHE = "templates"  # the cache's folder of compiled templates


@dataclass(frozen=True)
class BuildOptions:
    content_dir: Path = Path("content")
    output_dir: Path = Path("site")
    # The site's own templates, each replacing the theme's of its name (render/layers.py);
    # None: templates/ in the working folder when it is there, else the theme alone.
    templates_dir: Path | None = None
    strict: bool = False
    jobs: int = 0  # processes to render with; 0: as many as pay, 1: this one only
    cache: bool = True  # keep what can be reused in .scholarsite-cache/ beside the output
    draw_previews: bool = True  # False: named, not drawn, for a site thrown away (trial.py)
    # Which drafts and future-dated items are shown: none in a build, all in serve.
    publishing: Publishing = field(default_factory=Publishing)

    def mode(self) -> tuple:
        return build_mode(self.strict, self.publishing)

    def template_layers(self) -> tuple[Path, ...]:
        """Where templates and assets are looked up, first to last: the site's, the theme."""
        return list_layers(self.templates_dir)


@dataclass(frozen=True)
class Kept:
    """What a build made that `serve` rebuilds from after a save: the papers' views, every
    page as planned, what was kept of the pages that are not one paper's own (their text,
    or their pieces: render/splice.py), the environment that rendered them, and the files
    copied."""

    views: dict[str, dict]
    pages: dict[str, Page]
    outputs: dict[str, object]
    env: jinja2.Environment
    copies: dict[str, Path]
    cv_files: CVFiles | None = None
    reads: Reads = field(default_factory=dict)  # what the build read of each paper


@dataclass(frozen=True)
class BuildResult:
    # The site read; None after a touch-up, which reads only the papers that changed
    # (fastpath/touchup.py: never for serve, which keeps the site, nor without the cache).
    site: Site | None
    files: int
    papers: int
    seconds: float
    warnings: list[Diagnostic]
    kept: Kept | None = None
    # Everything else the build made (papers read, views, pages): held here so that
    # freeing it is the caller's choice. The CLI leaves it to the process's exit
    # (cli.run), which frees nothing one object at a time: 0.2 s at 5,000 papers.
    made: tuple = ()


def check_build_dirs(options: BuildOptions) -> None:
    """OutputError for an output folder that `build` and `serve` must not write (or serve)."""
    folders = [options.content_dir, *options.template_layers()]
    for folder in folders:
        real = folder.resolve()
        if real == Path(real.anchor) or real == Path(os.path.expanduser("~")).resolve():
            raise OutputError(f"refusing to read '{folder}': it is the whole disk or your "
                              "home folder, not a site's folder")
    check_output_dir(options.output_dir, [Path.cwd(), *folders], folders)


def collect_copies(site: Site, templates: Path | tuple[Path, ...], diags: Diagnostics,
                   out_dir: Path, cv_files: CVFiles | None = None, draw: bool = True,
                   pdf_site: Site | None = None) -> dict:
    """Static files copied as they are: the assets of the templates' folders (the site's
    own over the theme's, file by file), the generated pictures (plan/images.py), the
    papers' previews resized (plan/previews.py, which reports those it cannot show to
    `diags`), the photos resized (plan/photos.py) and the user's content/files/,
    pictures without their EXIF and such (plan/pictures.py). Assets are listed as content
    files are: regular files only, none hidden, no link out of their folder."""
    copies: dict[str, Path] = {}
    for folder in reversed(normalize_layers(templates)):
        assets = folder / ASSETS_DIR
        for path in list_files(assets, folder, diags, ()):
            copies[f"{ASSETS_DIR}/{path.relative_to(assets).as_posix()}"] = path
    # The icon and link-preview picture, unless the site's own assets have one of the name.
    stored = store_generated(image_store(out_dir), hash_image_inputs(site),
                             functools.partial(make_images, site))
    for rel, path in stored.items():
        copies.setdefault(rel, path)
    copies.update(collect_previews(site, image_store(out_dir), diags, draw))
    copies.update(collect_photos(site, image_store(out_dir), draw))  # resized
    if cv_files is not None:  # made before planning: the CV page shows the PDF's size
        copies.update(cv_files.copies)
    copies = dict(sorted(copies.items(), key=lambda item: Path(item[0])))  # as one folder's
    for rel in site.files:
        copies[f"{FILES_DIR}/{rel.as_posix()}"] = site.content_dir / FILES_DIR / rel
    # Each paper's PDF beside its page, as Scholar wants: read from the papers unwatched
    # (`pdf_site`), since a touch-up checks the PDFs of the papers it edits itself.
    copies.update(collect_paper_pdfs(pdf_site or site))
    copies.update(collect_notebook_files(site, image_store(out_dir)))  # posts' pictures
    # Published pictures say nothing of where they were taken (plan/pictures.py).
    return clean_published(copies, image_store(out_dir), diags)


def load_checked(options: BuildOptions, diags: Diagnostics,
                 parsed: ParsedFiles | None = None,
                 meanwhile: Callable[[], object] | None = None,
                 log: ReadLog | None = None) -> Loaded:
    """The validated site, its papers' views and their digests (loader.Loaded), or
    ContentError with every problem found (a template folder's after the content's)."""
    # Each paper's view is made in the process that read it (see parallel.py).
    loaded = load_site(options.content_dir, diags, options.jobs, parsed, make_views, meanwhile,
                       options.publishing, log)
    if loaded is None or diags.has_errors(options.strict):
        raise ContentError(diags.errors(options.strict) or diags.items)
    if problem := find_layer_problem(options.templates_dir, options.template_layers()):
        diags.error(problem[0], 0, problem[1])
        raise ContentError(diags.errors())
    return loaded


def build(options: BuildOptions, keep: bool = False, listed: Listed | None = None
          ) -> BuildResult:
    """Build the site into options.output_dir; raises ContentError or OutputError. With
    `keep`, the result holds what `serve` rebuilds from (`Kept`). `listed`: the last
    build's record and the inputs as listed against it just before (the command line's
    look at the last build), taken unless another build wrote the folder since. One build
    at a time writes a folder: another waits for this one (output/lock.py)."""
    check_build_dirs(options)
    with output_lock(options.output_dir, functools.partial(say_waiting, options.output_dir)):
        restored = recover_site(options.output_dir)
        if restored:
            print(f"{options.output_dir.as_posix()}: note: put back the previous site, "
                  f"which an interrupted build had left in '{restored}'", file=sys.stderr)
        with collector_paused(), cache_kept_only_on_success(options.output_dir):
            return build_site(options, keep, listed)


def say_waiting(out_dir: Path) -> None:
    print(f"{out_dir.as_posix()}: note: another build is writing this folder; waiting for "
          "it to finish", file=sys.stderr, flush=True)


@dataclass(frozen=True)
class Begun:
    """What a build starts from: when it began, its diagnostics, the cache and the last
    build's record, its inputs as listed before anything is read, what it may take from
    the last build, and the fingerprint of the content but the papers."""

    start: float
    started: float
    diags: Diagnostics
    cache: BuildCache | None
    record: BuildRecord | None
    inputs: dict
    identities: dict
    reuse: Reuse | None
    content: str


def build_site(options: BuildOptions, keep: bool = False, listed: Listed | None = None
               ) -> BuildResult:
    start, started = time.perf_counter(), time.time()
    diags = Diagnostics(root=Path.cwd())
    cache = None
    if options.cache:  # the one the command line opened to look at the last build, if it did
        cache = listed.cache if listed and listed.cache else open_cache(options.output_dir, diags)
    if cache is not None and listed is not None and is_current(listed, cache,
                                                               options.output_dir):
        record, inputs, identities = listed.record, listed.inputs, listed.identities
        started = listed.started
    else:  # listed before anything is read
        record = load_record(cache, options.output_dir) if cache else None
        inputs, identities = list_build_inputs(
            options.content_dir, options.output_dir, options.template_layers(), record,
            is_paper_path(options.content_dir)) if cache else ({}, {})
    reuse = prepare_reuse(cache, options, inputs, record) if cache else None
    begun = Begun(start, started, diags, cache, record, inputs, identities, reuse,
                  fingerprint_other_content(options, inputs))
    if cache is not None and record is not None and reuse is not None and not keep:
        from .fastpath.touchup import Touching, touch_up  # with Jinja: only for a touch-up
        touched = touch_up(Touching(
            options.content_dir, options.output_dir, cache, record, inputs, identities,
            begun.content, reuse.fingerprint, started, diags.root,
            is_paper_path(options.content_dir),
            functools.partial(prepare_env, options, cache, True)))
        if touched is not None:
            return BuildResult(None, touched.files, touched.papers,
                               time.perf_counter() - start, touched.warnings)
    return build_whole(options, begun, keep)


def build_whole(options: BuildOptions, begun: Begun, keep: bool) -> BuildResult:
    """Read the whole site, plan, render and write it (taking what it can from the last
    build), and record the build."""
    diags, cache, reuse = begun.diags, begun.cache, begun.reuse
    parsed = load_parsed(cache, options, diags, begun.inputs, begun.started,
                         reuse is not None, begun.content)
    # Made once; it watches what pages read, for serve and a build taking paper pages from the
    # last (render/lists.py); `log`: what is read of each paper, for the next build (reads.py).
    log = ReadLog() if (watching := keep or reuse is not None) else None
    renderer = functools.cache(lambda: prepare_env(options, cache, watching))
    loaded = load_checked(options, diags, parsed, renderer, log)
    from .plan.checks import check_redirects, check_text_links  # once reading has begun
    from .plan.pages import paper_frame
    from .fastpath.splice import check_overrides
    from .fastpath.touchup import note_touch
    from .render.languages import plan_site

    site, views = loaded.site, loaded.made
    if reuse is not None:
        reuse.views, reuse.view_digests = views, loaded.digests
    layers = options.template_layers()
    pages, more, cv_files = plan_site(site, views, keep, log, (
        layers, image_store(options.output_dir), diags))
    frame = paper_frame(site)
    if reuse is not None:
        reuse.keys = key_paper_pages(list_paper_pages(pages), frame, begun.content,
                                     loaded.digests)
    check_overrides(renderer(), layers, pages, diags)
    copies = collect_copies(watch_site(site, log), layers, diags, options.output_dir, cv_files,
                            options.draw_previews, site)
    copies.update(more)
    pages = check_redirects(site, pages, copies, options.content_dir / CONFIG_FILE, diags)
    check_text_links(site, pages, copies, diags)
    count, written, outputs = write_pages(options, pages, copies, renderer(), diags, keep,
                                          reuse)
    warnings, reads = [d for d in diags.items if d.severity == "warning"], log and log.result()
    if cache:
        keep_compiled(renderer(), cache)
        touch = note_touch(site, views, frame, reuse.shows, reads or {}) \
            if reuse and not keep else None
        record_build(cache, options.output_dir, BuildRecord(
            build_settings(options.content_dir, options.output_dir, layers, options.mode()),
            fill_inputs(begun.inputs, list_read_hashes(parsed)), begun.started,
            tuple(warnings), count, len(site.papers),
            reuse.gathered() if reuse else PageDigests(), begun.identities, touch), written)
    kept = Kept(views, {output_path(p.path): p for p in pages}, outputs, renderer(),
                copies, cv_files, reads or {}) if keep else None
    return BuildResult(site, count, len(site.papers), time.perf_counter() - begun.start,
                       warnings, kept, (parsed, loaded, pages, reuse, renderer, begun))


def prepare_env(options: BuildOptions, cache: BuildCache | None, watching: bool = False
                ) -> jinja2.Environment:
    """The templates' environment, with the templates every site uses and every partial
    compiled (or loaded from the cache: compiled ones are written there by
    `keep_compiled`, once the build has succeeded). `watching`: it watches what pages
    read (render/splice.py)."""
    from .render.render import ViewEnvironment, compile_names, make_env
    from .fastpath.splice import WatchingEnvironment

    env = make_env(options.template_layers(), cache.root / TEMPLATES_CACHE if cache else None,
                   WatchingEnvironment if watching else ViewEnvironment)
    partials = sorted(n for n in env.list_templates() if n.startswith("_"))
    compile_names(env, [*COMMON_TEMPLATES, *partials])
    return env


def keep_compiled(env: jinja2.Environment, cache: BuildCache) -> None:
    if env.bytecode_cache is not None and cache.folder_for(TEMPLATES_CACHE) is not None:
        env.bytecode_cache.write_held()


def load_parsed(cache: BuildCache | None, options: BuildOptions, diags: Diagnostics,
                inputs: dict, started: float, keep: bool, content: str) -> ParsedFiles:
    """What each paper file gave last time, by its path and bytes, and what was made of
    its papers (their views) when nothing else they depend on has changed since (the
    content's other files, the settings: `content`, their reuse.fingerprint_content).
    What is made this time is kept when `keep` (by every build with the cache, the first
    into a folder too) and those files are settled (inputs.is_settled)."""
    store = open_parts(cache, options.output_dir, diags.root) if cache else None
    papers = is_paper_path(options.content_dir)
    settled = keep and all(is_settled(key, started) for key in inputs.values() if key)
    hashes = {path: key[1] for path, key in inputs.items() if key and papers(path)}
    return ParsedFiles(keep_ready=settled, context=content, hashes=hashes, store=store)


def fingerprint_other_content(options: BuildOptions, inputs: dict) -> str:
    """A digest of the content's files other than the papers', and the settings: what
    the papers' views and pages depend on besides their papers (reuse.fingerprint_content)."""
    papers = is_paper_path(options.content_dir)
    return fingerprint_content({path: key for path, key in inputs.items() if not papers(path)},
                               options.content_dir, build_settings(
        options.content_dir, options.output_dir, (), options.mode()))


def prepare_reuse(cache: BuildCache, options: BuildOptions, inputs: dict,
                  record: BuildRecord | None) -> Reuse | None:
    """What this build may take from the last one into its output folder (reuse.py):
    nothing for the first, which records what the next takes (a quick build after an edit)."""
    layers = options.template_layers()
    fingerprint = fingerprint_templates(inputs, layers, build_settings(
        options.content_dir, options.output_dir, layers, options.mode()))
    forget = functools.partial(cache.remove, cache_name(options.output_dir, "build"))
    root = str(follow_link(options.output_dir))
    if record is None:
        return Reuse(root, fingerprint, forget)
    if record.digests.templates != fingerprint:  # only the views' digests hold
        return Reuse(root, fingerprint, forget, PageDigests(views=record.digests.views))
    return Reuse(root, fingerprint, forget, record.digests, record.outputs,
                 list_unchanged(record, inputs))


def list_paper_pages(pages: list[Page]) -> dict[str, tuple[str, str]]:
    """Each paper's own page: its output path, template and paper's slug."""
    return {safe_relpath(output_path(page.path)): (str(page.template), page.depends[0])
            for page in pages if KIND[page.kind].per_paper}


def list_read_hashes(parsed: ParsedFiles) -> dict[str, str]:
    return {os.path.abspath(path): digest for path, digest in parsed.seen}


def write_pages(options: BuildOptions, pages: list[Page], copies: dict[str, Path],
                env: jinja2.Environment, diags: Diagnostics, keep: bool = False,
                reuse: Reuse | None = None
                ) -> tuple[int, dict[str, os.stat_result], dict[str, object]]:
    """Render `pages` into a staging folder, with `copies`, and swap it in for the output
    folder; a template error raises ContentError and leaves the output as it was.
    A build that takes most pages from the last one, or serve's (`keep`), brings its site
    up to date in place instead (fastpath/patch.py: unchanged files stay). Returns the
    number of files, the status of each page's file as written (where it stays), and with
    `keep`, what is kept for serve of each page not one paper's own (see render/splice.py)."""
    files = {safe_relpath(output_path(page.path)): page for page in pages}
    copies = {safe_relpath(rel): source for rel, source in copies.items()}
    check_outputs(files, copies)
    from .fastpath.writing import ReusingWriter
    from .render.render import render_into
    from .fastpath.splice import keeping_for

    keeping = keeping_for(env, files) if keep else None
    listing = set(files) | set(copies)
    if reuse is not None and (reuse.last.pages or keep) and can_patch(options.output_dir,
                                                                      listing):
        reuse.in_place = True
        folder = patched_site(options.output_dir, listing, reuse.forget)
    else:
        folder = staged_site(options.output_dir, listing)
    with folder as root:
        written, kept = render_into(root, files, env, options.template_layers(), diags,
                                    options.jobs, keeping, reuse and ReusingWriter(reuse))
        if diags.has_errors(options.strict):
            raise ContentError(diags.errors(options.strict))
        write_tree(root, {}, {rel: source for rel, source in copies.items()
                              if not (reuse and reuse.keeps_copy(rel, source))})
    in_place = reuse is not None and reuse.in_place  # files moved: their status is stale
    return len(files) + len(copies), {} if in_place else written, kept
