"""Rebuild a site after a change, redoing only what the change affects.

`serve` rebuilds through this module on every save. A `SiteBuilder` keeps what the last
build made: the settings, the papers read from each content file, the paper views, the
planned pages and a digest of every file written. A change then costs what it touches:

- a paper's file: that file is read again (a .bib file whole), the site is planned again
  from the kept views, and only pages whose context changed are rendered: the paper's
  page, the lists that show it, the sitemaps and feeds;
- a collection's item, a free page, cv.yaml: those (few) files are read again, and the
  pages whose context changed are rendered;
- a template: the pages whose template uses it (extends, include, import) are rendered;
- site.yaml: everything is read and rendered again;
- static files (templates/assets/, content/files/): those files are copied.

Only files whose bytes changed are written, each through a temporary file and os.replace,
so the output folder never holds a half-written file. While any error remains nothing is
written: the output keeps the last good site.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

import jinja2
from jinja2 import meta

from .build import ASSETS_DIR, BuildOptions, collect_copies, render_pages
from .config import load_config
from .diagnostics import Diagnostic, Diagnostics
from .collections import MARKDOWN_SUFFIXES, PAGES, SCHEMAS
from .loader import (BIO_FILE, CONFIG_FILE, CV_FILE, FILES_DIR, PAPER_SUFFIXES, PAPERS_DIR,
                     accept_file, apply_site_rules, check_nav, check_slugs, list_user_files,
                     read_bio, read_extras)
from .models import CV, Item, Paper, Site, SiteConfig
from .paperfiles import read_paper_file
from .pages import Page, plan_pages, site_view
from .papers import make_markdown
from .render import drop_fragments, make_env
from .urls import output_path
from .views import fold_name, paper_url, paper_view, used_notes
from .writer import (OutputError, check_output_dir, remove_output,
                     replace_file, safe_relpath, write_manifest, write_site)

ANY_TEMPLATE = "*"  # a template whose includes are computed at run time uses them all
EXTRA_FOLDERS = frozenset((*(s.name for s in SCHEMAS), PAGES.name))  # collections, free pages


@dataclass
class Changes:
    """What a set of changed paths touches, by kind."""

    config: bool = False
    bio: bool = False
    papers: set[Path] = field(default_factory=set)
    extras: bool = False  # collections, free pages, cv.yaml
    templates: set[str] = field(default_factory=set)  # names below the templates folder
    static: bool = False  # templates/assets/ or content/files/

    def any(self) -> bool:
        return bool(self.config or self.bio or self.papers or self.extras or self.templates
                    or self.static)


@dataclass(frozen=True)
class Outcome:
    """One build or rebuild: whether the site on disk is now up to date, and what it took."""

    ok: bool
    errors: list[Diagnostic]
    warnings: list[Diagnostic]  # those found in what was read this time
    written: list[str]  # output paths written or removed
    rendered: int  # pages rendered
    papers: int
    seconds: float


@dataclass(frozen=True)
class SourceFile:
    """What one paper file gave: its papers (site rules applied), and its problems."""

    papers: tuple[Paper, ...]
    diagnostics: tuple[Diagnostic, ...]


def relative_below(path: Path, root: Path) -> Path | None:
    """`path` relative to `root`, or None when it is not below it (links are not followed:
    a paper file that is a link is still the content folder's file)."""
    try:
        return Path(os.path.abspath(path)).relative_to(os.path.abspath(root))
    except ValueError:
        return None


def classify_changes(paths: Iterable[Path], options: BuildOptions) -> Changes:
    """Sort changed paths by what they affect; paths that no build reads are left out
    (editor backups, notes beside the content)."""
    changes = Changes()
    for path in paths:
        rel = relative_below(path, options.content_dir)
        if rel is not None and rel.parts:
            top = rel.parts[0]
            if rel.as_posix() == CONFIG_FILE:
                changes.config = True
            elif rel.as_posix() == BIO_FILE:
                changes.bio = True
            elif top == PAPERS_DIR and path.suffix.lower() in PAPER_SUFFIXES:
                changes.papers.add(options.content_dir / rel)
            elif top == FILES_DIR:
                changes.static = True
            elif rel.as_posix() == CV_FILE or (
                    top in EXTRA_FOLDERS and path.suffix.lower() in MARKDOWN_SUFFIXES):
                changes.extras = True
            continue
        rel = relative_below(path, options.templates_dir)
        if rel is not None and rel.parts:
            if rel.parts[0] == ASSETS_DIR:
                changes.static = True
            elif not any(part.startswith(".") for part in rel.parts):
                changes.templates.add(rel.as_posix())
    return changes


def find_used_templates(env: jinja2.Environment, name: str | tuple[str, ...],
                        seen: set[str] | None = None) -> set[str]:
    """`name` (or each of several names to choose from) and every template it extends,
    includes or imports, through any depth."""
    seen = set() if seen is None else seen
    if isinstance(name, tuple):
        for one in name:
            find_used_templates(env, one, seen)
        return seen
    if name in seen:
        return seen
    seen.add(name)
    try:
        source = env.loader.get_source(env, name)[0]
        refs = list(meta.find_referenced_templates(env.parse(source)))
    except jinja2.TemplateError:
        seen.add(ANY_TEMPLATE)  # rendering will report the problem
        return seen
    for ref in refs:
        if ref is None:
            seen.add(ANY_TEMPLATE)
        else:
            find_used_templates(env, ref, seen)
    return seen


def is_paper_page(page: Page) -> bool:
    """A page of one paper's own (its page and citation files), which `plan_pages` plans
    only for the papers it is asked to; other pages that name one paper are planned always."""
    return len(page.depends) == 1 and page.path.startswith(paper_url(page.depends[0]))


def digest(text: str) -> tuple[int, int]:
    """Tells a page's text from another in this process: Python's own string hash (keyed
    anew in every process, so that no text can be made to collide with another) and the
    length. Several times faster than encoding and hashing the bytes, which matters for the
    lists of every paper that a save renders again."""
    return (hash(text), len(text))


def file_signature(path: Path) -> tuple[int, int]:
    """A copied file counts as changed when its size or modification time does."""
    stat = path.stat()
    return (stat.st_mtime_ns, stat.st_size)


class SiteBuilder:
    """A site built once in full and then kept up to date, change by change.

    Not thread-safe: one builder belongs to one loop (serve calls it from its event loop,
    which is also what keeps a request from seeing the site between two writes).
    """

    def __init__(self, options: BuildOptions, show_root: Path | None = None) -> None:
        self.options = options
        self.show_root = show_root or Path.cwd()  # diagnostics show paths relative to it
        self.md = make_markdown()
        self.env = make_env(options.templates_dir)
        self.config: SiteConfig | None = None
        self.config_diags: tuple[Diagnostic, ...] = ()
        self.sources: dict[Path, SourceFile] = {}  # in sorted order, as a full load reads
        self.bio = ""
        self.bio_diags: tuple[Diagnostic, ...] = ()
        self.files: tuple[Path, ...] = ()
        self.files_diags: tuple[Diagnostic, ...] = ()
        # Collections, free pages and the CV, and what they were checked against.
        self.extras: tuple[tuple[Item, ...], tuple[Item, ...], CV | None] = ((), (), None)
        self.extras_diags: tuple[Diagnostic, ...] = ()
        self.extras_read_for: tuple | None = None  # (paper slugs, files); None: read again
        self.views: dict[str, tuple[Paper, dict]] = {}  # slug -> (paper, its view)
        self.copies: dict[str, Path] = {}
        # The output as written: pages by output path, digests, copies' signatures.
        self.pages: dict[str, Page] = {}
        self.digests: dict[str, tuple[int, int]] = {}
        self.copied: dict[str, tuple[Path, tuple[int, int]]] = {}
        # What changed since the last good write (a failed rebuild writes nothing).
        self.stale_templates: set[str] = set()
        self.stale_slugs: set[str] = set()
        self.shared: tuple | None = None  # what all paper pages last written show alike
        self.site: Site | None = None

    def new_diags(self) -> Diagnostics:
        return Diagnostics(root=self.show_root)

    # Reading -------------------------------------------------------------------------

    def read_config(self) -> None:
        diags = self.new_diags()
        self.config = load_config(self.options.content_dir / CONFIG_FILE, diags)
        self.config_diags = tuple(diags.items)

    def read_source(self, path: Path) -> SourceFile | None:
        """One paper file, or None when it is gone (or is not read, being hidden)."""
        diags = self.new_diags()
        if not accept_file(path, self.options.content_dir, diags, PAPER_SUFFIXES):
            return SourceFile((), tuple(diags.items)) if diags.items else None
        papers = read_paper_file(path, self.md, diags)
        if self.config is not None:
            papers = apply_site_rules(papers, self.config, diags)
        return SourceFile(tuple(papers), tuple(diags.items))

    def read_bio(self) -> None:
        diags = self.new_diags()
        self.bio = read_bio(self.options.content_dir, diags)
        self.bio_diags = tuple(diags.items)

    def read_files(self) -> None:
        diags = self.new_diags()
        self.files = list_user_files(self.options.content_dir, diags)
        self.files_diags = tuple(diags.items)

    def read_all(self) -> list[Diagnostic]:
        """Everything again, as a first build does; returns the warnings found."""
        self.read_config()
        folder = self.options.content_dir / PAPERS_DIR
        paths = sorted(folder.rglob("*")) if folder.is_dir() else []
        self.sources = {path: source for path in paths
                        if (source := self.read_source(path)) is not None}
        self.read_bio()
        self.read_files()
        self.extras_read_for, self.extras_diags = None, ()
        self.env = make_env(self.options.templates_dir)
        self.views = {}
        self.copies = {}
        self.shared = None  # plan every page
        return [d for d in self.all_diagnostics() if d.severity == "warning"]

    def read_changes(self, changes: Changes) -> list[Diagnostic]:
        """Only what changed; returns the warnings found in it."""
        found: list[Diagnostic] = []
        listing = set(self.sources)
        for path in sorted(changes.papers):
            source = self.read_source(path)
            if source is None:
                self.sources.pop(path, None)
            else:
                self.sources[path] = source
                found += source.diagnostics
        if set(self.sources) != listing:
            self.sources = dict(sorted(self.sources.items()))
        if changes.bio:
            self.read_bio()
            found += self.bio_diags
        if changes.static:
            self.read_files()
            found += self.files_diags
            self.copies = {}
        if changes.extras:
            self.extras_read_for = None
        if changes.templates:
            self.env = make_env(self.options.templates_dir)  # and no cached fragments
            self.stale_templates |= changes.templates
        return [d for d in found if d.severity == "warning"]

    # Building ------------------------------------------------------------------------

    def all_diagnostics(self) -> list[Diagnostic]:
        items = list(self.config_diags)
        for source in self.sources.values():
            items += source.diagnostics
        return (items + list(self.bio_diags) + list(self.files_diags)
                + list(self.extras_diags))

    def read_extras(self, slugs: frozenset[str]) -> list[Diagnostic]:
        """Collections, free pages and the CV, again when they changed or when the papers
        or files they may name did; returns the warnings found."""
        if self.extras_read_for == (slugs, self.files):
            return []
        diags = self.new_diags()
        self.extras = read_extras(self.options.content_dir, slugs, self.files, diags)
        self.extras_diags = tuple(diags.items)
        self.extras_read_for = (slugs, self.files)
        return [d for d in diags.items if d.severity == "warning"]

    def assemble(self, diags: Diagnostics, warnings: list[Diagnostic]) -> Site | None:
        """The Site from what was read, or None when anything has an error."""
        papers = [p for source in self.sources.values() for p in source.papers]
        papers = check_slugs(papers, diags)
        slugs = frozenset(p.slug for p in papers)
        reread = self.extras_read_for != (slugs, self.files)
        warnings += self.read_extras(slugs)
        if self.config is None or self.has_problems(diags):
            return None
        papers.sort(key=Paper.sort_key)
        items, pages, cv = self.extras
        site = Site(config=self.config, papers=tuple(papers), bio_html=self.bio,
                    content_dir=self.options.content_dir, files=self.files, items=items,
                    pages=pages, cv=cv)
        nav = self.new_diags()
        check_nav(site, self.options.content_dir / CONFIG_FILE, nav)
        diags.extend(nav)
        if reread:  # said once, not on every save
            warnings += [d for d in nav.items if d.severity == "warning"]
        return None if self.has_problems(diags) else site

    def has_problems(self, diags: Diagnostics) -> bool:
        return any(d.severity == "error" or self.options.strict
                   for d in self.all_diagnostics() + diags.items)

    def update_views(self, site: Site) -> dict[str, dict]:
        """Paper views, computed again only for papers read again (the others are the
        same objects); a paper whose view changes loses its cached list entries."""
        owner_names = frozenset(fold_name(n) for n in site.config.owner.names())
        kept: dict[str, tuple[Paper, dict]] = {}
        for paper in site.papers:
            old = self.views.get(paper.slug)
            if old is None or old[0] is not paper:
                old = (paper, paper_view(paper, site.config, owner_names))
                drop_fragments(self.env, paper.slug)
                self.stale_slugs.add(paper.slug)
            kept[paper.slug] = old
        for slug in self.views.keys() - kept.keys():
            drop_fragments(self.env, slug)
            self.stale_slugs.add(slug)
        self.views = kept
        return {slug: view for slug, (_, view) in kept.items()}

    def plan(self, site: Site) -> tuple[dict[str, Page], set[str], tuple]:
        """All pages by output path, which of them were planned again, and what every
        paper's page shows besides its paper (the menu and settings, the legend).

        Every page is planned the first time or when those changed; otherwise the pages
        of changed papers and all pages that are not one paper's own, the others kept."""
        views = self.update_views(site)
        shared = (site_view(site), used_notes(site))
        only = None if shared != self.shared or not self.pages else self.stale_slugs
        planned = {output_path(p.path): p for p in plan_pages(site, views, only)}
        if only is None:
            return planned, set(planned), shared
        pages = {rel: page for rel, page in self.pages.items()
                 if is_paper_page(page) and page.depends[0] not in only}
        pages.update(planned)
        return pages, set(planned), shared

    def pages_to_render(self, pages: dict[str, Page], planned: set[str]) -> list[Page]:
        """Pages whose template changed, or planned again and new or changed."""
        hit: dict[str, bool] = {}
        todo = []
        for rel, page in pages.items():
            if page.template and self.stale_templates and page.template not in hit:
                used = find_used_templates(self.env, page.template)
                hit[page.template] = ANY_TEMPLATE in used or bool(used & self.stale_templates)
            if hit.get(page.template, False):
                todo.append(page)
            elif rel in planned:
                old = self.pages.get(rel)
                if (old is None or old.template != page.template or old.body != page.body
                        or old.context != page.context):
                    todo.append(page)
        return todo

    def build(self, changed: Iterable[Path] | None = None) -> Outcome | None:
        """Bring the output up to date: everything when `changed` is None or touches
        site.yaml, otherwise only what the changed paths affect; None when they affect
        nothing."""
        start = time.perf_counter()
        changes = None if changed is None else classify_changes(changed, self.options)
        if changes is not None and not changes.any():
            return None
        if changes is None or changes.config or self.config is None:
            warnings = self.read_all()
        else:
            warnings = self.read_changes(changes)
        diags = self.new_diags()
        site = self.assemble(diags, warnings)
        if site is None:
            errors = [d for d in self.all_diagnostics() + diags.items
                      if d.severity == "error" or self.options.strict]
            return self.failed(errors, warnings, start)
        return self.render_and_write(site, diags, warnings, start)

    def render_and_write(self, site: Site, diags: Diagnostics, warnings: list[Diagnostic],
                         start: float) -> Outcome:
        if not self.options.templates_dir.is_dir():
            diags.error(self.options.templates_dir, 0,
                        "templates folder not found; pass --templates DIR")
            return self.failed(diags.errors(), warnings, start)
        pages, planned, shared = self.plan(site)
        todo = self.pages_to_render(pages, planned)
        files = render_pages(todo, self.env, self.options.templates_dir, diags)
        if diags.has_errors(self.options.strict):
            return self.failed(diags.errors(self.options.strict), warnings, start)
        if not self.copies:
            self.copies = collect_copies(site, self.options.templates_dir)
        try:
            written = self.write(pages, files)
        except (OutputError, OSError) as exc:
            diags.error(self.options.output_dir, 0, str(exc))
            return self.failed(diags.errors(), warnings, start)
        self.site = site
        self.shared = shared
        self.stale_templates = set()
        self.stale_slugs = set()
        return Outcome(True, [], warnings, written, len(todo), len(site.papers),
                       time.perf_counter() - start)

    def failed(self, errors: list[Diagnostic], warnings: list[Diagnostic], start: float
               ) -> Outcome:
        return Outcome(False, errors, warnings, [], 0, self.paper_count(),
                       time.perf_counter() - start)

    def paper_count(self) -> int:
        return len(self.site.papers) if self.site else 0

    # Writing -------------------------------------------------------------------------

    def write(self, pages: dict[str, Page], files: dict[str, str]) -> list[str]:
        """Write what changed; the first time, the whole site is swapped in as `build`
        does (it checks the folder and keeps a user's own files)."""
        out = self.options.output_dir
        if not self.pages:
            check_output_dir(out, [Path.cwd(), self.options.content_dir,
                                   self.options.templates_dir])
            write_site(out, files, self.copies)
            self.digests = {rel: digest(data) for rel, data in files.items()}
            self.copied = {rel: (src, file_signature(src)) for rel, src in self.copies.items()}
            self.pages = pages
            return sorted(self.digests) + sorted(self.copied)
        written = self.write_changes(out, pages, files)
        self.pages = pages
        return written

    def write_changes(self, out: Path, pages: dict[str, Page], files: dict[str, str]
                      ) -> list[str]:
        clash = sorted(set(pages) & set(self.copies))
        if clash:
            raise OutputError(f"two things would write '{clash[0]}': a generated page and "
                              "a file from content/; rename the file")
        before = set(self.digests) | set(self.copied)
        listing = set(pages) | set(self.copies)
        for rel in sorted(listing - before):
            if (out / safe_relpath(rel)).exists():
                raise OutputError(f"'{out / rel}' was not made by scholarsite and the build "
                                  "would overwrite it; move it into content/files/ instead")
        written = []
        for rel, data in files.items():
            new = digest(data)
            if self.digests.get(rel) != new:
                replace_file(out / safe_relpath(rel), data.encode("utf-8"))
                self.digests[rel] = new
                written.append(rel)
        for rel, source in self.copies.items():
            signature = (source, file_signature(source))
            if self.copied.get(rel) != signature:
                replace_file(out / safe_relpath(rel), source=source)
                self.copied[rel] = signature
                written.append(rel)
        for rel in sorted(before - listing):
            remove_output(out, safe_relpath(rel))
            self.digests.pop(rel, None)
            self.copied.pop(rel, None)
            written.append(rel)
        if listing != before:
            write_manifest(out, listing)
        return sorted(written)

