"""Rebuild a site after a change, redoing only what the change affects.

`serve` rebuilds through this module on every save. A `SiteBuilder` keeps what the last build
made: the settings, the papers read from each content file, the paper views, the planned
pages and what was written of each (rewrite.OutputFolder). A change costs what it touches:

- a paper's file: that file is read again (a .bib file whole). When its papers read as
  they did wherever the last planning read them (replan.keeps_reads), their own pages
  are planned, the pages that list them patched (replan.py) and the lists of every
  paper spliced (splice.py). Otherwise every page that is not one paper's own is planned;
- a collection's item, a free page, cv.yaml: those (few) files are read again, and the
  pages whose context changed are rendered;
- a template: the pages whose template uses it (extends, include, import) are rendered;
- site.yaml: all is read and rendered again. A site in several languages: each language's
  pages as above after a save of papers alone (languages.py), else all is read again as
  `build` reads it, which renders only the pages that changed (fastpath/reuse.py);
- static files (templates/assets/, content/files/): those files are copied.

Only files whose bytes changed are written (a temporary file, then os.replace: never a
half-written file). While any error remains nothing is written: the last good site stays.
"""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from typing import Iterable

import jinja2

from ..build import BuildOptions, BuildResult, collect_copies
from ..output.lock import output_lock
from .changes import Changes, changed_notebooks, classify_changes
from .languages import Languages
from .sources import ContentFiles
from .textlinks import PaperLinks
from .steps import (Outcome, Plan, build_again, is_paper_page, merge_planned,
                    pages_to_render)
from ..diagnostics import ContentError, Diagnostic, Diagnostics
from ..models import Paper, Site
from ..plan.checks import check_text_links
from ..plan.frame import section_titles
from ..plan.pages import Page, Planning, paper_frame, plan_pages
from ..render.layers import find_layer_problem
from ..render.render import drop_fragments, drop_site_fragments, make_env
from ..render.typeset import make_cv_files
from ..output.generated import image_store
from ..fastpath.replan import (Located, keeps_reads, locate_entries, map_swaps, patch_pages,
                               swap_listing)
from ..reads import ReadLog, merge_reads
from ..fastpath.rewrite import Change, OutputFolder, Renderer
from ..fastpath.splice import Pieces, WatchingEnvironment, check_overrides
from ..structure.urls import output_path
from ..views.views import paper_view
from ..output.writer import OutputError

class SiteBuilder:
    """A site built once in full and then kept up to date, change by change.

    Not thread-safe: one builder belongs to one loop (serve calls it from its event loop,
    which is also what keeps a request from seeing the site between two writes).
    """

    def __init__(self, options: BuildOptions) -> None:
        self.options = options
        self.show_root = Path.cwd()  # diagnostics show paths relative to it, as build's
        self.reset()

    def reset(self) -> None:
        """Nothing built: the next build is a whole one (build.build)."""
        self.content = ContentFiles(self.options, self.show_root)
        self.env = self.new_env()
        self.substituted: list[Paper] = []  # papers read again, put in the last site's places
        self.reordered = False  # and some of them in other places
        # Paper views, in the site's order, the paper each is of, and the views this
        # rebuild replaced, with their papers.
        self.views: dict[str, dict] = {}
        self.viewed: dict[str, Paper] = {}
        self.replaced: dict[str, tuple[Paper, dict]] = {}
        self.copies: dict[str, Path] = {}
        self.cv_files, self.reads = None, {}  # the CV's files (typeset.py); build.Kept.reads
        # The site as last written: its papers' places, its pages by output path, which
        # pages are not one paper's own (in planned order) and which are each paper's.
        self.site: Site | None = None
        self.positions: dict[str, int] = {}
        self.pages: dict[str, Page] = {}
        self.listing: list[str] = []
        self.located: dict[str, Located] = {}
        self.paper_pages: dict[str, list[str]] = {}
        self.folder = OutputFolder(self.options.output_dir)
        # What changed since the last good write (a failed rebuild writes nothing).
        self.stale_templates, self.stale_slugs = set[str](), set[str]()
        self.shared: tuple | None = None  # what all paper pages last written show alike
        self.last_ok = False  # the last build wrote the site of what was read
        self.languages = Languages(self.show_root)  # the other languages' (none: one)
        self.links = PaperLinks()  # the abstracts' links, for the check of each save

    def adopt(self, result: BuildResult) -> None:
        """Take up what a whole build kept (build.Kept), to rebuild from after a save."""
        kept, site = result.kept, result.site
        assert kept is not None
        self.content.adopt(site)
        self.env, self.views, self.copies = kept.env, kept.views, kept.copies
        self.cv_files, self.reads = kept.cv_files, kept.reads
        self.viewed = {paper.slug: paper for paper in site.papers}
        self.site, self.pages = site, kept.pages
        self.positions = {paper.slug: i for i, paper in enumerate(site.papers)}
        self.languages.adopt(site, self.pages, self.options.template_layers(),
                             image_store(self.options.output_dir))
        own = {rel: page for rel, page in self.pages.items()
               if self.languages.owns(rel) is None}  # the default language's
        self.listing = [rel for rel, page in own.items() if not is_paper_page(page)]
        self.located = {rel: found for rel in self.listing if self.pages[rel].context
                        and (found := locate_entries(self.pages[rel].context))}
        self.paper_pages = {}
        for rel, page in own.items():
            if is_paper_page(page):
                self.paper_pages.setdefault(page.depends[0], []).append(rel)
        self.shared, self.links = paper_frame(site), PaperLinks()
        self.links.update(site, None, self.positions)  # now rather than in the first save
        self.folder = OutputFolder.adopt(self.options.output_dir, self.pages, kept.outputs,
                                         self.copies)
        self.last_ok = True

    def new_diags(self) -> Diagnostics:
        return Diagnostics(root=self.show_root)

    def new_env(self) -> jinja2.Environment:
        """A new environment (and no cached fragments), which watches its pages' reads."""
        return make_env(self.options.template_layers(),
                        environment_class=WatchingEnvironment)

    # Reading -------------------------------------------------------------------------

    def read_changes(self, changes: Changes) -> list[Diagnostic]:
        """Only what changed; returns the warnings found in it."""
        warnings = self.content.read_changes(changes)
        if changes.static or changes.notebooks or self.content.previews_changed():
            self.copies = {}  # previews and notebooks' pictures are copies too
        if changes.static:  # a preview's view is measured from its picture
            for slug in [s for s, p in self.viewed.items() if p.preview is not None]:
                del self.views[slug], self.viewed[slug]
        if changes.templates:
            self.env = self.new_env()  # and no cached fragments
            self.stale_templates |= changes.templates
        return warnings

    def substitute_papers(self, changes: Changes | None) -> Site | None:
        """The last site with the papers read again in place of their old selves, when
        only paper files changed, each holds papers of the same slugs as before and none
        has a problem; None otherwise (the site is assembled anew). The papers that were
        put in are kept in `substituted`."""
        if not (self.last_ok and self.site is not None and changes is not None
                and changes.papers and not (changes.config or changes.bio or changes.extras
                                            or changes.static)):
            return None
        papers = list(self.site.papers)
        substituted, moved = [], False
        for path, old in self.content.reread.items():
            new = self.content.sources.get(path)
            if old is None or new is None or len(old.papers) != len(new.papers) \
                    or any(d.severity == "error" or self.options.strict
                           for d in new.diagnostics):
                return None
            for before, after in zip(old.papers, new.papers):
                at = self.positions.get(before.slug)
                # A slug the site gave another file's paper (a key used twice: key-2).
                if before.slug != after.slug or at is None or papers[at].source != path:
                    return None
                moved = moved or before.sort_key() != after.sort_key()
                paper = before if after == before else after
                papers[at] = paper
                substituted.append(paper)
        if moved:
            papers.sort(key=Paper.sort_key)
        self.substituted, self.reordered = substituted, moved
        return replace(self.site, papers=tuple(papers))

    def update_views(self, site: Site, papers: Iterable[Paper]) -> None:
        """The views of `papers`, made again for those that differ from the papers they
        were made of; a paper whose view changes loses its cached fragments. With all
        the site's papers, views of papers that are gone are dropped too."""
        for paper in papers:
            old = self.views.get(paper.slug)
            if old is not None and self.viewed[paper.slug] == paper:
                continue
            if old is not None:
                self.replaced.setdefault(paper.slug, (self.viewed[paper.slug], old))
            view = paper_view(paper, site.config)
            self.views[paper.slug], self.viewed[paper.slug] = view, paper
            drop_fragments(self.env, paper.slug)
            self.stale_slugs.add(paper.slug)

    def update_all_views(self, site: Site) -> None:
        self.update_views(site, site.papers)
        self.stale_slugs |= changed_notebooks(self.site, site)  # shown on their papers' pages
        for slug in self.views.keys() - {p.slug for p in site.papers}:
            del self.views[slug], self.viewed[slug]
            drop_fragments(self.env, slug)
            self.stale_slugs.add(slug)
        self.views = {p.slug: self.views[p.slug] for p in site.papers}  # in the site's order

    def plan(self, site: Site, substituted: bool, cv_files=None) -> Plan | None:
        """All pages by output path, and which of them were planned again.

        After papers changed in content only (substituted, reading as they did), their
        own pages are planned and the pages listing them patched. Otherwise every page is
        planned the first time or when what every paper's page shows changed (the menu
        and settings, the legend); else the pages of changed papers and all pages that are
        not one paper's own, the others kept. None: a site in several languages whose
        pages cannot be patched (it is built whole)."""
        self.languages.begin()
        if substituted:
            self.update_views(site, self.substituted)
            if self.reordered:
                self.views = {paper.slug: self.views[paper.slug] for paper in site.papers}
        else:
            self.update_all_views(site)
        shared = paper_frame(site)
        before = self.pages
        if substituted and self.can_patch(site, shared, cv_files):
            return self.patch(site, shared)
        only = None if shared != self.shared or not before else set(self.stale_slugs)
        if self.languages.languages and only is None:
            return None
        log = ReadLog()  # added to what was read before (the loader's reads stay)
        more = self.languages.replan(site, only or set(), log)
        if more is None:
            return None
        planned = {output_path(p.path): p for p in plan_pages(site, self.views, only,
                                                              cv_files=cv_files, log=log)}
        self.reads = merge_reads(self.reads, log.result())
        listing = [rel for rel, page in planned.items() if not is_paper_page(page)]
        pages, paper_pages = merge_planned(self.pages, self.paper_pages, self.listing, planned,
                                           set(listing), only)
        swaps = map_swaps(self.replaced, self.views) if self.last_ok else {}
        swapped = swap_listing(self.pages, self.located, pages, listing, swaps)
        located = {rel: found for rel in listing if pages[rel].context
                   and (found := locate_entries(pages[rel].context))}
        for rel in more.gone:
            pages.pop(rel, None)
        pages.update(more.pages)
        change = Change(set(self.replaced) | more.papers, swapped | more.swapped)
        return Plan(pages, set(planned) | set(more.pages), shared, change, listing, located,
                    paper_pages, pages.keys() == before.keys())

    def can_patch(self, site: Site, shared: tuple, cv_files) -> bool:
        """Whether the papers read again (substituted) read as they did, in every
        language, and nothing every paper's page shows changed (replan.py)."""
        return shared == self.shared and bool(self.pages) and cv_files == self.cv_files \
            and all(keeps_reads(self.reads.get(slug), old, view, self.viewed[slug],
                                self.views[slug]) for slug, (old, view) in self.replaced.items()) \
            and self.languages.prepare(site, set(self.replaced), self.reads)

    def patch(self, site: Site, shared: tuple) -> Plan:
        """The last pages with the changed papers' own pages planned again and the pages
        that list them patched (replan.py)."""
        before = self.pages
        planning = Planning(site, self.views, shared[0], shared[1], section_titles(site))
        patched = patch_pages(planning, before, self.listing, self.located,
                              [self.viewed[s] for s in self.replaced],
                              {slug: view for slug, (_, view) in self.replaced.items()})
        more = self.languages.patch()
        pages = dict(before)
        pages.update(patched.pages)
        pages.update(more.pages)
        change = Change(set(self.replaced) | more.papers, patched.swapped | more.swapped)
        return Plan(pages, set(patched.pages) | set(more.pages), shared, change,
                    self.listing, self.located, self.paper_pages, True)

    def build(self, changed: Iterable[Path] | None = None) -> Outcome | None:
        """Bring the output up to date: everything when `changed` is None or touches
        site.yaml, otherwise only what the changed paths affect; None when they affect
        nothing."""
        start = time.perf_counter()
        changes = None if changed is None else classify_changes(changed, self.options)
        if changes is not None and not changes.any():
            return None
        if changes is None or changes.config or self.site is None \
                or not self.folder.is_intact():
            return self.build_whole(start, changes is not None)
        self.replaced = {}
        warnings = self.read_changes(changes)
        diags = self.new_diags()
        site = self.substitute_papers(changes)
        if self.languages.languages and (site is None or changes.templates):
            return self.build_whole(start, True)  # what the languages' patch cannot do
        substituted = site is not None
        site = site or self.content.assemble(diags, warnings)
        if site is None:
            errors = [d for d in self.content.all_diagnostics() + diags.items
                      if d.severity == "error" or self.options.strict]
            return self.failed(errors, warnings, start)
        return self.render_and_write(site, substituted, diags, warnings, start)

    def build_whole(self, start: float, saved: bool = False) -> Outcome:
        """The site built as `build` builds it (steps.build_again), what it kept taken up
        for later saves."""
        try:
            result, written = build_again(self.options, saved)
        except ContentError as exc:
            self.reset()
            found = exc.diagnostics
            errors = [d for d in found if d.severity == "error" or self.options.strict]
            return self.failed(errors, [d for d in found if d not in errors], start)
        except (OutputError, OSError) as exc:
            self.reset()
            diags = self.new_diags()
            diags.error(self.options.output_dir, 0, str(exc))
            return self.failed(diags.errors(), [], start)
        self.adopt(result)
        if written is None:
            written = sorted(self.pages) + sorted(self.copies)
        return Outcome(True, [], result.warnings, written, len(self.pages) or result.files,
                       result.papers, time.perf_counter() - start)

    def render_and_write(self, site: Site, substituted: bool, diags: Diagnostics,
                         warnings: list[Diagnostic], start: float) -> Outcome:
        layers = self.options.template_layers()
        problem = find_layer_problem(self.options.templates_dir, layers)
        if problem:
            diags.error(problem[0], 0, problem[1])
            return self.failed(diags.errors(), warnings, start)
        # Typeset again only when what the CV shows changed; the CV page shows its size.
        made = self.new_diags()
        cv_files = make_cv_files(site, layers, image_store(self.options.output_dir), made)
        plan = self.plan(site, substituted, cv_files)
        if plan is None:
            return self.build_whole(start, True)
        # What stopped a CV's PDF, said when the CV changed rather than on every save.
        found = self.languages.cv_problems() + (made.items if cv_files != self.cv_files
                                                else made.errors())
        diags.add_all(found)
        warnings += [d for d in found if d.severity == "warning"]
        if plan.shared != self.shared:  # the menu, the theme: the settings' own fragments
            drop_site_fragments(self.env)
        if self.stale_templates:  # an override added or renamed may override nothing
            check_overrides(self.env, layers, list(plan.pages.values()), diags)
        todo, whole = pages_to_render(self.env, self.stale_templates, self.pages, plan)
        files = self.render(todo, plan, whole, diags)
        if diags.has_errors(self.options.strict):
            return self.failed(diags.errors(self.options.strict), warnings, start)
        if not self.copies or cv_files != self.cv_files or self.languages.cv_changed():
            self.copies = collect_copies(site, layers, diags, self.options.output_dir,
                                         cv_files) | self.languages.copies()
            plan = replace(plan, same_pages=False)
        linking = self.links.update(site, self.substituted if substituted and not self.reordered
                                    else None, self.positions)
        warnings += check_text_links(site, plan.pages.values(), self.copies, self.new_diags(),
                                     linking)
        try:
            written = self.write(plan, files)
        except (OutputError, OSError) as exc:
            diags.error(self.options.output_dir, 0, str(exc))
            return self.failed(diags.errors(), warnings, start)
        self.take_up(site, plan, todo, cv_files, substituted)
        return Outcome(True, [], warnings, written, len(todo), len(site.papers),
                       time.perf_counter() - start)

    def take_up(self, site: Site, plan: Plan, todo: dict[str, Page], cv_files,
                substituted: bool) -> None:
        """What a save wrote is the site now: the next save goes from it."""
        for rel in plan.planned - todo.keys():  # planned again, the same: its pieces too
            kept = self.folder.outputs.get(rel)
            if isinstance(kept, Pieces):
                kept.context = plan.pages[rel].context
        if not substituted or self.reordered:
            self.positions = {paper.slug: i for i, paper in enumerate(site.papers)}
        self.site, self.pages, self.shared = site, plan.pages, plan.shared
        self.listing, self.located = plan.listing, plan.located
        self.paper_pages, self.cv_files = plan.paper_pages, cv_files
        self.stale_templates, self.stale_slugs = set(), set()
        self.languages.commit()
        self.last_ok = True

    def render(self, todo: dict[str, Page], plan: Plan, whole: set[str],
               diags: Diagnostics) -> dict:
        """The pages' outputs, each language's with its own views of the papers."""
        listing, files = set(plan.listing) | self.languages.listed(), {}
        for tag, pages in self.languages.split(todo).items():
            renderer = Renderer(self.env, self.options.template_layers(),
                                self.languages.views_of(tag, self.views), listing, whole)
            files.update(renderer.render(pages, self.folder.outputs, plan.change, diags))
        return files

    def failed(self, errors: list[Diagnostic], warnings: list[Diagnostic], start: float
               ) -> Outcome:
        self.last_ok = False
        return Outcome(False, errors, warnings, [], 0, self.paper_count(),
                       time.perf_counter() - start)

    def paper_count(self) -> int:
        return len(self.site.papers) if self.site else 0

    def write(self, plan: Plan, files: dict) -> list[str]:
        """Write what changed, as the only writer of the folder (output/lock.py)."""
        with output_lock(self.options.output_dir):
            return self.folder.write_changes(plan.pages, files, self.copies, plan.same_pages)
