"""A paper's abstract on every page that shows it: rendered once, with its site-relative
links marked (reading/papers.RootLinks), and given the root of the page it is printed on
as it is printed. Each page's root is noted as its template starts (PageContext, the
environment's context class), so that a template, the theme's or an override, prints
`{{ paper.abstract_html }}` and gets working links on the home page, the list and the
paper's own page alike."""

from __future__ import annotations

from contextvars import ContextVar

import jinja2.runtime
from markupsafe import Markup

from ..structure.urls import ROOT_MARKER

# The root ('', '../', '../../') of the page being rendered.
CURRENT_ROOT: ContextVar[str] = ContextVar("scholarsite_page_root", default="")


class RootedMarkup(Markup):
    """HTML holding ROOT_MARKER, printed with the current page's root in its place."""

    __slots__ = ()

    def __html__(self) -> Markup:
        return Markup(str.replace(self, ROOT_MARKER, CURRENT_ROOT.get()))


def make_rooted_html(html: str) -> Markup:
    """Markup of `html`, rooted when it has site-relative links (few abstracts do)."""
    return RootedMarkup(html) if ROOT_MARKER in html else Markup(html)


class PageContext(jinja2.runtime.Context):
    """Notes the root of the page a template starts rendering, for the abstracts it prints
    (RootedMarkup). Included templates get contexts of the same page."""

    def __init__(self, environment, parent, name, blocks, globals=None):  # noqa: A002
        super().__init__(environment, parent, name, blocks, globals)
        page = parent.get("page")
        root = page.get("root") if isinstance(page, dict) else getattr(page, "root", None)
        if isinstance(root, str):
            CURRENT_ROOT.set(root)
