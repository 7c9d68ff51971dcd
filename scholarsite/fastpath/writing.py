"""Pages rendered with the last build's at hand: where rendering meets reuse.py.

`render.render_into` renders and writes every page, and knows nothing of what a build
may take from the last one: a build that may hands it a `ReusingWriter`, which writes
each page as the render stage would, but leaves in place the last build's file of a page
that would be the same, patches the pages of every paper in their files (lists.py), and
notes what the next build goes by. A writer is used in every process that renders;
each notes into its own `Noted`, gathered by the building process.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import jinja2

from .reuse import Digest, Listing, Reuse
from ..output.writer import write_file
from ..plan.pages import Page
from .lists import note_shown, outline_context, stand_in_views, write_listing
from ..render.render import find_template, render_page_into
from ..structure.kinds import KIND


@dataclass
class Noted:
    """What a build notes of its pages for the next (reuse.py): each page's digest, the
    listing of each page of every paper patched by its fragments (lists.py), and the
    paper entries each other page shows, but for a paper's own page."""

    digests: dict[str, Digest] = field(default_factory=dict)
    listings: dict[str, Listing] = field(default_factory=dict)
    shows: dict[str, frozenset[str]] = field(default_factory=dict)


@dataclass(frozen=True)
class ReusingWriter:
    """Writes pages for render.render_into, taking the last build's where it can."""

    reuse: Reuse

    def new_notes(self) -> Noted:
        return Noted()

    def gather(self, noted: Noted) -> None:
        """What one process noted of its pages, added to what the build records."""
        self.reuse.digests.update(noted.digests)
        self.reuse.listings.update(noted.listings)
        self.reuse.shows.update(noted.shows)

    def write_page(self, root: Path, rel: str, page: Page, env: jinja2.Environment,
                   noted: Noted) -> os.stat_result | None:
        """Render `page` into the new file `rel` below `root` and return the file's
        status, or None when the last build's file stays instead (with the digest of the
        page's context noted); a page that lists every paper is patched in the last
        build's file where it can (lists.py, noting its listing)."""
        reuse = self.reuse
        if not page.template:
            return render_page_into(root, rel, page, env)
        if "*" in page.depends:
            return write_listing(root, rel, page.template, find_template(page, env),
                                 page.render_context(), reuse, noted.listings, noted.shows)
        key = reuse.keys.get(rel)
        if key is not None:
            # Known by what it is made of: its context is made only when it is rendered.
            if reuse.take_digest(rel, key, noted.digests):
                return None
            return write_file(root, rel, find_template(page, env).render(page.render_context()))
        context = page.render_context()
        if not KIND[page.kind].per_paper:
            note_shown(rel, outline_context(context), noted.shows)
        if reuse.take(rel, page.template, stand_in_views(context, reuse.view_digests),
                      noted.digests):
            return None
        return write_file(root, rel, find_template(page, env).render(context))
