"""What a rebuild plans and what it reports (incremental.py)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import jinja2

from ..build import BuildOptions, BuildResult, build
from ..diagnostics import Diagnostic
from ..plan.pages import Page
from ..structure.kinds import KIND
from ..fastpath.replan import Located
from ..fastpath.rewrite import Change
from ..fastpath.splice import ANY_TEMPLATE, find_used_templates
from ..output.writer import OutputError, read_manifest
from ..reading.loader import CONFIG_FILE
from ..reading.settings.langconfig import declares_languages


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


def is_paper_page(page: Page) -> bool:
    """A page of one paper's own (its page and citation files), which `plan_pages` plans
    only for the papers it is asked to; other pages that name one paper are planned always."""
    return KIND[page.kind].per_paper


@dataclass(frozen=True)
class Plan:
    """The pages of a rebuild, and what it takes to know what to render and write."""

    pages: dict[str, Page]  # every page, by output path
    planned: set[str]  # those planned again (or patched) this time
    shared: tuple  # what every paper's page shows besides its paper
    change: Change
    listing: list[str]  # the pages that are not one paper's own, in planned order
    located: dict[str, Located]  # where those hold paper entries (replan.locate_entries)
    paper_pages: dict[str, list[str]]  # each paper's own pages
    same_pages: bool  # the same output paths as last time


def snapshot_outputs(out_dir: Path) -> dict[str, tuple[int, int, int]]:
    """The identity of each file the tool wrote in `out_dir` (its manifest's): a file
    written again, even with the same bytes, has another (a new inode, os.replace)."""
    try:
        listed = read_manifest(out_dir) or set()
    except OutputError:
        return {}
    found = {}
    for rel in listed:
        try:
            status = os.stat(out_dir / rel)
        except OSError:
            continue
        found[rel] = (status.st_ino, status.st_mtime_ns, status.st_size)
    return found


def list_rewritten(before: dict[str, tuple], after: dict[str, tuple]) -> list[str]:
    """The output paths written, added or removed between two snapshots."""
    return sorted(rel for rel in before.keys() | after.keys()
                  if before.get(rel) != after.get(rel))


def build_again(options: BuildOptions, saved: bool) -> tuple[BuildResult, list[str] | None]:
    """The site built as `build` builds it, with what serve rebuilds from kept; and after
    a save (`saved`) of a site in several languages, the files that changed (written
    None otherwise): such a site is built whole after a save that cannot be patched
    (live/languages.py), which takes the last build's pages that would be the same
    (fastpath/reuse.py) and rewrites only the others."""
    several = saved and declares_languages(options.content_dir / CONFIG_FILE)
    before = snapshot_outputs(options.output_dir) if several else {}
    result = build(options, keep=True)
    if not several:
        return result, None
    return result, list_rewritten(before, snapshot_outputs(options.output_dir))


def pages_to_render(env: jinja2.Environment, stale_templates: set[str],
                    before: dict[str, Page], plan: Plan) -> tuple[dict[str, Page], set[str]]:
    """Pages whose template changed (of `stale_templates`), or planned again and new or
    changed from `before`; those with papers swapped in always (splicing them is cheap,
    and keeps their pieces' context the page's own). Returned with those whose template
    changed, rendered whole."""
    pages, todo = plan.pages, {}
    if stale_templates:
        hit: dict = {}
        for rel, page in pages.items():
            if page.template and page.template not in hit:
                used = find_used_templates(env, page.template)
                hit[page.template] = ANY_TEMPLATE in used or bool(used & stale_templates)
            if hit.get(page.template, False):
                todo[rel] = page
    whole = set(todo)
    for rel in plan.planned:
        page, old = pages[rel], before.get(rel)
        if rel not in todo and (rel in plan.change.swapped or old is None
                                or old.template != page.template
                                or old.body != page.body or old.parts != page.parts
                                or old.context != page.context):
            todo[rel] = page
    return todo, whole


def merge_planned(last: dict[str, Page], paper_pages: dict[str, list[str]], listing: list[str],
                  planned: dict[str, Page], listed: set[str], only: set[str] | None
                  ) -> tuple[dict[str, Page], dict[str, list[str]]]:
    """The `last` pages with the pages planned again (`only`: those of the papers `only`
    and the `listed` ones; None: all) in place of theirs (`listing`: the last pages that
    are not one paper's own), and each paper's own pages (`paper_pages`: the last ones)."""
    if only is None:
        pages, paper_pages = planned, {}
    else:
        pages, paper_pages = dict(last), dict(paper_pages)
        for rel in listing:
            pages.pop(rel, None)
        for slug in only:
            for rel in paper_pages.pop(slug, ()):
                pages.pop(rel, None)
        pages.update(planned)
    for rel, page in planned.items():
        if rel not in listed:
            paper_pages.setdefault(page.depends[0], []).append(rel)
    return pages, paper_pages
