"""After a save that changed papers but not where they are listed: the pages that list
papers, patched from the last build's instead of planned again.

Planning those pages costs as much as the papers are many (the publications page's
filters alone look at every paper). When every paper a save changed keeps what the last
planning read of it and its view (recorded then: scholarsite/reads.py; its place in the
order, its group, the filters' values, whatever a planner took), each such page lists
the same papers in the same places and groups, and
differs from the last build's only in the changed papers' entries (their views, and
what was made with them), which `patch_pages` swaps in. What the pages show of a paper
that is not its entry is made again: the sitemap's titles, the citation files, the
search index.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from typing import Iterable

from ..models import Paper
from ..reads import Path_, read_values
from ..plan.pages import Page, Planning, plan_export_file, plan_paper, plan_search, plan_sitemap
from ..structure.kinds import EXPORTS, SEARCH_PATH, SITEMAP_PATH
from ..views.entries import ENTRY, entries_of
from ..structure.urls import output_path


def keeps_reads(paths: frozenset[Path_] | None, old: Paper, old_view: dict, new: Paper,
                new_view: dict) -> bool:
    """Whether an edited paper reads as it did at `paths` (what the last planning read of
    it and its view): then every page that is not its own lists it as before."""
    return read_values({"paper": old, "view": old_view}, paths) == read_values(
        {"paper": new, "view": new_view}, paths)


Place = tuple  # the keys and indexes that lead from a page's context to one value in it
Located = dict[str, list[Place]]  # where a context holds paper entries: by name, their places


@dataclass(frozen=True)
class Patched:
    pages: dict[str, Page]  # output path -> page: those that changed
    swapped: set[str]  # those among them whose context is the last one, entries swapped


def locate_entries(value: dict | list, place: Place = (), found: Located | None = None
                   ) -> Located:
    """Where `value` (a page's context) holds paper entries, by their names
    (views/entries.py)."""
    found = {} if found is None else found
    for key, item in value.items() if type(value) is dict else enumerate(value):
        if type(item) is dict and ENTRY in item:
            found.setdefault(item[ENTRY], []).append((*place, key))
        elif type(item) is dict or type(item) is list:  # a call for containers only
            locate_entries(item, (*place, key), found)
    return found


def map_swaps(slugs: Iterable[str], views: dict[str, dict]) -> dict[str, dict]:
    """The entries of the papers `slugs` (their new ones, in `views`), by name."""
    return {entry[ENTRY]: entry for slug in slugs for entry in entries_of(views[slug])}


def swap_entries(context: dict, located: Located, swaps: dict[str, dict]
                 ) -> tuple[dict, bool]:
    """`context` with every entry named in `swaps` replaced by the new one, and whether
    any was. Only the containers on the way to a swapped entry are copied; the rest is
    shared with `context`, which is left as it was."""
    found = [(place, new) for name, new in swaps.items() for place in located.get(name, ())]
    if not found:
        return context, False
    copies: dict[Place, dict | list] = {(): dict(context)}
    for place, new in found:
        container = copies[()]
        for depth in range(1, len(place)):
            inner = copies.get(place[:depth])
            if inner is None:
                item = container[place[depth - 1]]
                inner = copies[place[:depth]] = dict(item) if type(item) is dict else list(item)
                container[place[depth - 1]] = inner
            container = inner
        container[place[-1]] = new
    return copies[()], True


def swap_listing(before: dict[str, Page], located: dict[str, Located],
                 planned: dict[str, Page], listing: list[str], swaps: dict[str, dict]
                 ) -> set[str]:
    """The pages of `listing` planned again (in `planned`) whose context is their last
    one (in `before`, its entries at `located`) with the entries `swaps` (map_swaps)
    swapped in: their structure did not change. Those take the swapped context, so that
    they can be spliced; returned. The others are rendered whole."""
    swapped = set()
    for rel in listing if swaps else ():
        old, new = before.get(rel), planned[rel]
        if old is None or rel not in located or old.template != new.template:
            continue
        context, hit = swap_entries(old.context, located[rel], swaps)
        if hit and context == new.context:
            planned[rel] = replace(new, context=context)
            swapped.add(rel)
    return swapped


def patch_pages(plan: Planning, pages: dict[str, Page], listing: list[str],
                located: dict[str, Located], changed: list[Paper], old_views: dict[str, dict],
                present_only: bool = False) -> Patched:
    """The pages that change when the papers `changed` did (their views before in
    `old_views`), each reading as it did (keeps_reads): their own pages, planned again, and the
    pages of `listing` (those that are not one paper's own, in planned order), patched;
    `located` tells where the listing pages hold paper entries. `present_only`: the files
    made of every paper's texts are patched where `pages` has them, never made (a language
    other than the default has none of the citation files: kinds.per_language)."""
    if not old_views:  # files saved with the same papers in them
        return Patched({}, set())
    views = plan.views
    swaps = map_swaps(old_views, views)
    out = {}
    for paper in changed:
        out.update({output_path(p.path): p for p in plan_own_pages(plan, paper)})
    retitled = any(view["title"] != views[slug]["title"] for slug, view in old_views.items())
    swapped = set()
    listed = []
    for rel in listing:
        page = pages[rel]
        if rel in EXPORTS or page.path == SEARCH_PATH:
            continue
        if page.path == SITEMAP_PATH and retitled:
            page = out[rel] = plan_sitemap(plan, [])[0]
        elif rel in located:
            context, hit = swap_entries(page.context, located[rel], swaps)
            if hit:
                page = out[rel] = replace(page, context=context)
                swapped.add(rel)
        listed.append(page)
    made_of = {field: rel for rel, (field, *_) in EXPORTS.items()}
    made_of["search_json"] = output_path(SEARCH_PATH)
    for field, rel in made_of.items():
        if present_only and rel not in pages:
            continue
        patched = patch_texts(pages.get(rel), field, views, old_views)
        out[rel] = patched if patched is not None else replan_texts(rel, plan, listed)
    return Patched(out, swapped)


def patch_texts(page: Page | None, field: str, views: dict[str, dict],
                old_views: dict[str, dict]) -> Page | None:
    """A page made of the papers' texts `field` (a citation file, the search page) with
    the changed papers' texts in place of their old ones, found by the slugs the page
    says its texts are of (Page.owners): the rest of it shows nothing of a paper
    (search.make_search_entry reads no paper's view). None when one is not found."""
    if page is None or not page.owners:
        return None
    texts = list(page.context["index_json"] if page.context else page.parts)
    at = place_owners(page.owners)
    if len(texts) != len(page.owners) or not at.keys() >= old_views.keys():
        return None
    for slug in old_views:
        texts[at[slug]] = views[slug][field]
    if page.parts:
        return replace(page, parts=tuple(texts))
    return replace(page, context={**page.context, "index_json": texts})


@functools.lru_cache(maxsize=16)  # a page's owners stay from save to save (8 ms at 5,000)
def place_owners(owners: tuple[str, ...]) -> dict[str, int]:
    """Where each slug's text is among a page's texts (Page.owners)."""
    return {slug: i for i, slug in enumerate(owners) if slug}


def replan_texts(rel: str, plan: Planning, listed: list[Page]) -> Page:
    if rel in EXPORTS:
        return plan_export_file(plan.views, rel)
    return plan_search(plan, listed)[0]


def plan_own_pages(plan: Planning, paper: Paper) -> list[Page]:
    """A paper's own pages (kinds.py: per_paper)."""
    return [plan_paper(plan, paper)]
