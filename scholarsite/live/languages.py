"""serve's save on a site in several languages: each other language's pages patched as the
default language's are (fastpath/replan.py), languages being one more dimension of it.

A language's pages are planned from the site as that language shows it
(plan/languages.localize_site), with that site's views of the papers, and written below
/TAG/. After a save that changed papers in content only, when the default language's
pages can be patched, each other language is asked too: its frame (settings, menu, the
author-mark legend) and CV files are the same, and every changed paper, localized, reads
as it did wherever the last planning of any language read it (the reads are recorded for
every language: render/languages.plan_site). Then its pages that show those papers are
patched and the rest kept. When the default language's pages are planned again
instead (a paper read otherwise: a new title, which the sitemap reads), so are each
language's: the changed papers' own pages and every page that is not one paper's own,
those whose context is the last one with entries swapped spliced (`replan`). A save
that changed more than papers, or the frame, builds the site whole.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Sequence

from ..diagnostics import Diagnostic, Diagnostics
from ..reads import ReadLog, Reads
from ..fastpath.replan import (Located, keeps_reads, locate_entries, map_swaps, patch_pages,
                               swap_listing)
from ..models import Paper, Site
from ..plan.frame import section_titles
from ..plan.languages import (language_copies, language_store, localize_paper, localize_site,
                              other_languages)
from ..plan.pages import Page, Planning, paper_frame, plan_pages
from ..render.typeset import make_cv_files
from ..structure.kinds import KIND
from ..structure.urls import output_path
from ..views.cvpdf import CVFiles
from ..views.views import make_views, paper_view


@dataclass
class Language:
    """What serve keeps of one other language's pages: their paper views and the papers
    those were made of (localized), the pages by output path below /TAG/ (the tag left
    out, as the planners make them), those that are not one paper's own in planned
    order, where those hold paper entries, its frame and its CV files."""

    tag: str
    views: dict[str, dict]
    viewed: dict[str, Paper]
    pages: dict[str, Page]
    listing: list[str]
    located: dict[str, Located]
    shared: tuple
    cv_files: CVFiles | None
    site: Site  # the site as the language shows it, as last localized
    # Each paper of the site, by slug, and its localized self, as last localized.
    localized: dict[str, tuple[Paper, Paper]]

    def prefix(self, rel: str) -> str:
        return f"{self.tag}/{rel}"

    def localize(self, site: Site) -> Site:
        """localize_site(site, tag) after a save that changed papers alone: the last
        localized site with those papers localized again (a thousand papers localized
        anew took 80 ms of a save)."""
        papers = []
        for paper in site.papers:
            last = self.localized.get(paper.slug)
            if last is None or last[0] is not paper:
                last = self.localized[paper.slug] = (paper, localize_paper(paper))
            papers.append(last[1])
        return replace(self.site, papers=tuple(papers))


@dataclass(frozen=True)
class Pending:
    """A language's part of a save, once it is known to be patchable."""

    language: Language
    site: Site  # localized
    papers: dict[str, tuple[Paper, dict]]  # the changed papers in it and their new views


@dataclass(frozen=True)
class Patched:
    """What patching the other languages gave: their changed pages by output path
    (below /TAG/), those whose contexts are the last ones with entries swapped, and the
    papers whose views changed in any of them."""

    pages: dict[str, Page]
    swapped: set[str]
    papers: set[str]
    gone: set[str] = frozenset()  # pages planned no more (a topic's page: none has it)


def prefix_page(tag: str, page: Page) -> Page:
    """A page planned for a language's site, at its place below /TAG/ (plan_languages)."""
    return replace(page, path=f"{tag}/{page.path}")


def update_views(language: Language, local: Site, changed: dict[str, tuple[Paper, dict]]
                 ) -> dict[str, dict]:
    """The views of the papers `changed` (by slug, the paper and its new view) put in
    `language`'s, in the site's order (a date's edit may change it); returns the views
    they replaced that differ."""
    old = {slug: language.views[slug] for slug, (_, view) in changed.items()
           if view != language.views[slug]}
    for slug, (paper, view) in changed.items():
        language.views[slug], language.viewed[slug] = view, paper
    language.views = {paper.slug: language.views[paper.slug] for paper in local.papers}
    return old


def view_papers(local: Site, slugs: set[str]) -> dict[str, tuple[Paper, dict]]:
    return {paper.slug: (paper, paper_view(paper, local.config))
            for paper in local.papers if paper.slug in slugs}


class Languages:
    """Every language of a site but the default, as serve keeps and patches them."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = root  # diagnostics show paths relative to it
        self.languages: list[Language] = []
        self.pending: list[Pending] = []
        # What this save made of each language (its pages, listing, entries' places and
        # CV files), taken up when the save is written (`commit`).
        self.done: list[tuple] = []
        self.typesetting: tuple[Sequence[Path], Path] = ((), Path())  # the CVs' (adopt)
        # This save's CV files of each language, and what stopped a PDF being made.
        self.made: dict[str, tuple[CVFiles | None, list[Diagnostic]]] = {}

    def adopt(self, site: Site, pages: dict[str, Page], layers: Sequence[Path],
              store: Path) -> None:
        """Take up each other language's pages from a whole build's (`pages`, by output
        path), and make its views and CV files as that build made them."""
        self.languages, self.pending, self.done = [], [], []
        self.typesetting = (layers, store)
        for tag in other_languages(site.config):
            local, head = localize_site(site, tag), f"{tag}/"
            own = {rel[len(head):]: replace(page, path=page.path[len(head):])
                   for rel, page in pages.items() if rel.startswith(head)}
            listing = [rel for rel, page in own.items() if not KIND[page.kind].per_paper]
            located = {rel: found for rel in listing if own[rel].context
                       and (found := locate_entries(own[rel].context))}
            cv = self.make_cv(local)
            self.languages.append(Language(
                tag, make_views(local.papers, local.config),
                {paper.slug: paper for paper in local.papers}, own, listing, located,
                paper_frame(local), cv, local,
                {pair[0].slug: pair for pair in zip(site.papers, local.papers)}))
        self.made = {}  # the build said what it found

    def begin(self) -> None:
        """A save begins: its CVs are made anew."""
        self.made = {}

    def make_cv(self, local: Site) -> CVFiles | None:
        """A localized site's CV files (render/languages.make_language_cv_files), made
        once a save; what stops one being made is kept for `cv_problems`."""
        tag = local.config.language
        if tag not in self.made:
            layers, store = self.typesetting
            diags = Diagnostics(self.root)
            made = make_cv_files(local, layers, language_store(store, tag), diags)
            self.made[tag] = (made, diags.items)
        return self.made[tag][0]

    def cv_problems(self) -> list[Diagnostic]:
        """What stopped this save's CVs being made, of those that changed (as serve
        says a problem once, not on every save): before `commit`."""
        return [problem for language in self.languages
                if (made := self.made.get(language.tag)) and made[0] != language.cv_files
                for problem in made[1]]

    def owns(self, rel: str) -> str | None:
        """The language whose folder holds the output path `rel`; None: the default's."""
        head = rel.split("/", 1)[0]
        return next((tag.tag for tag in self.languages if tag.tag == head), None)

    def split(self, pages: dict[str, Page]) -> dict[str | None, dict[str, Page]]:
        """`pages` (by output path) by language: None, the default's."""
        parts: dict[str | None, dict[str, Page]] = {}
        for rel, page in pages.items():
            parts.setdefault(self.owns(rel), {})[rel] = page
        return parts

    def listed(self) -> set[str]:
        """The output paths of every language's pages that are not one paper's own (as
        this save planned them)."""
        listings = [(done[0], done[2]) for done in self.done] or [
            (language, language.listing) for language in self.languages]
        return {language.prefix(rel) for language, listing in listings for rel in listing}

    def views_of(self, tag: str | None, default: dict[str, dict]) -> dict[str, dict]:
        return next((l.views for l in self.languages if l.tag == tag), default)

    def prepare(self, site: Site, slugs: set[str], reads: Reads) -> bool:
        """Whether every language's pages can be patched after the papers `slugs`
        changed (see the module's text); when they can, what it takes is kept for
        `patch`."""
        self.pending = []
        for language in self.languages:
            local = language.localize(site)
            if paper_frame(local) != language.shared or language.cv_files != \
                    self.make_cv(local):
                return False
            changed = view_papers(local, slugs)
            if not all(keeps_reads(reads.get(slug), language.viewed[slug],
                                   language.views[slug], paper, view)
                       for slug, (paper, view) in changed.items()):
                return False
            self.pending.append(Pending(language, local, changed))
        return True

    def patch(self) -> Patched:
        """Each language's pages that show the changed papers, patched, at their places
        below /TAG/; taken up as the languages' own by `commit`, once written."""
        pages, swapped, changed = {}, set(), set()
        self.done = []
        for pending in self.pending:
            language, local = pending.language, pending.site
            old = update_views(language, local, pending.papers)
            shared = language.shared
            planning = Planning(local, language.views, shared[0], shared[1],
                                section_titles(local))
            patched = patch_pages(planning, language.pages, language.listing,
                                  language.located, [language.viewed[s] for s in old], old,
                                  present_only=True)
            self.done.append((language, {**language.pages, **patched.pages},
                              language.listing, language.located, language.cv_files))
            for rel, page in patched.pages.items():
                pages[output_path(f"{language.tag}/{page.path}")] = \
                    prefix_page(language.tag, page)
            swapped |= {language.prefix(rel) for rel in patched.swapped}
            changed |= old.keys()
        self.pending = []
        return Patched(pages, swapped, changed)

    def replan(self, site: Site, slugs: set[str], log: ReadLog) -> Patched | None:
        """Each language's pages planned again after the papers `slugs` changed (see the
        module's text; what the planners read noted in `log`), at their places below
        /TAG/; None when a language's frame changed (the site is built whole)."""
        pages, swapped, changed, gone = {}, set(), set(), set()
        self.done = []
        for language in self.languages:
            local = language.localize(site)
            if paper_frame(local) != language.shared:
                return None
            old = update_views(language, local, view_papers(local, slugs))
            cv = self.make_cv(local)
            planned = {output_path(page.path): page
                       for page in plan_pages(local, language.views, slugs, cv_files=cv, log=log)
                       if KIND[page.kind].per_language}
            listing = [rel for rel, page in planned.items() if not KIND[page.kind].per_paper]
            swaps = map_swaps(old, language.views)
            swapped |= {language.prefix(rel) for rel in swap_listing(
                language.pages, language.located, planned, listing, swaps)}
            located = {rel: found for rel in listing if planned[rel].context
                       and (found := locate_entries(planned[rel].context))}
            kept = {rel: page for rel, page in language.pages.items()
                    if rel not in language.listing}
            self.done.append((language, {**kept, **planned}, listing, located, cv))
            gone |= {language.prefix(rel) for rel in set(language.listing) - set(listing)}
            pages.update({language.prefix(rel): prefix_page(language.tag, page)
                          for rel, page in planned.items()})
            changed |= old.keys()
        return Patched(pages, swapped, changed, gone)

    def commit(self) -> None:
        """What the save planned is the languages' own: the save was written."""
        for language, pages, listing, located, cv in self.done:
            language.pages, language.listing, language.located = pages, listing, located
            language.cv_files = cv
        self.done = []

    def cv_changed(self) -> bool:
        """Whether this save made another language's CV files than the last."""
        return any(language.cv_files != cv for language, *_, cv in self.done)

    def copies(self) -> dict[str, Path]:
        """Each language's CV files, at their places below /TAG/."""
        made = {done[0].tag: done[4] for done in self.done}  # by this save
        return language_copies({language.tag: made.get(language.tag, language.cv_files)
                                for language in self.languages})
