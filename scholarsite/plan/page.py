"""One output file as planned: its path, kind, template and context (or body), and what
it depends on. The planners (pages.py) make them; rendering and the speed code read them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..structure.kinds import KIND


@dataclass(frozen=True)
class Page:
    """One output file: rendered from `template` with `context`, or `body` as it is."""

    path: str  # the URL path below the site root: '', 'publications/x/', 'robots.txt'
    kind: str  # its row in structure/kinds.py's table
    # A template name, or names to try in order (a collection's own, then the generic one).
    template: str | tuple[str, ...] = ""
    context: dict | None = None
    body: str = ""
    parts: tuple[str, ...] = ()  # or the body as the texts it is joined from
    # Of a page made of papers' texts (`parts`, or the search page's index): the slug of
    # the paper each text is of, '' for the others; a rebuild swaps texts by these.
    owners: tuple[str, ...] = ()
    # Which papers the page shows ('*' for all): live reload re-renders only what a change hits.
    depends: tuple[str, ...] = ()
    # What makes the context (or, for a page without a template, the body) when the page is
    # rendered, in place of `context` or `body`: a build renders in forked workers, so the
    # work of making it is shared out too, and no process holds every page's at once.
    # A body is made as the pieces it is written from.
    make: Callable[[], dict | list[str]] | None = None

    def render_context(self) -> dict:
        return self.make() if self.make else (self.context or {})  # type: ignore[return-value]

    def render_body(self) -> str:
        return "".join(self.body_pieces())

    def body_pieces(self) -> list[str]:
        if self.make:
            return self.make()  # type: ignore[return-value]
        return list(self.parts) if self.parts else [self.body]


def new_page(key: str, context: dict | None = None, *, slug: str = "", path: str = "",
             template: str | tuple[str, ...] = "", depends: tuple[str, ...] = (),
             **content) -> Page:
    """A page of the kind `key`: its path, template and what it depends on from the
    table, unless given."""
    kind = KIND[key]
    if kind.every_paper:
        depends = ("*",)
    elif kind.per_paper:
        depends = (slug,)
    return Page(path or kind.path.format(slug=slug), key, template or kind.template,
                context, depends=depends, **content)
