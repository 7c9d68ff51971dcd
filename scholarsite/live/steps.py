"""What a rebuild plans and what it reports (incremental.py)."""

from __future__ import annotations

from dataclasses import dataclass

from ..diagnostics import Diagnostic
from ..plan.pages import Page
from ..structure.kinds import KIND
from ..fastpath.replan import Located
from ..fastpath.rewrite import Change


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
