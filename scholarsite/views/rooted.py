"""A paper's abstract on every page that shows it: rendered once, with its site-relative
links marked (reading/text/papers.RootLinks), and given the root of the page it is printed on
as it is printed. Each page's root (and language) is noted as its template starts
(render/context.py's PageContext, the environment's context class), so that a template,
the theme's or an override, prints `{{ paper.abstract_html }}` and gets working links on
the home page, the list and the paper's own page alike."""

from __future__ import annotations

import re
from contextvars import ContextVar
from functools import lru_cache

from markupsafe import Markup, escape

from ..structure.languages import Messages
from ..structure.urls import ROOT_MARKER

# The root ('', '../', '../../') of the page being rendered.
CURRENT_ROOT: ContextVar[str] = ContextVar("scholarsite_page_root", default="")
# The interface's strings in the language of the page being rendered (`site.language`,
# with site.yaml's `strings` for it: `site.strings`), which `_()` in templates gives.
CURRENT_MESSAGES: ContextVar[Messages] = ContextVar("scholarsite_messages",
                                                    default=Messages())


class RootedMarkup(Markup):
    """HTML holding ROOT_MARKER, printed with the current page's root in its place."""

    __slots__ = ()

    def __html__(self) -> Markup:
        return Markup(str.replace(self, ROOT_MARKER, CURRENT_ROOT.get()))


def make_rooted_html(html: str) -> Markup:
    """Markup of `html`, rooted when it has site-relative links (few abstracts do)."""
    return RootedMarkup(html) if ROOT_MARKER in html else Markup(html)


def mark_language(html: Markup, tag: str) -> Markup:
    """HTML written in `tag`, shown on a page in another language."""
    marked = Markup('<div lang="%s">') % tag + html + Markup("</div>")  # `%` escapes
    return make_rooted_html(str(marked)) if isinstance(html, RootedMarkup) else marked


def is_same_language(tag: str, other: str) -> bool:
    return tag.casefold() == other.casefold()  # BCP 47 tags are case-insensitive


@lru_cache(maxsize=64)
def find_messages(language: str, strings: tuple[tuple[str, str], ...]) -> Messages:
    return Messages(language, strings)


def translate(message: str) -> Markup:
    """`_()` and `gettext()` in templates: the current page's language's wording. It is
    text, not HTML (a catalog's or site.yaml's): Jinja's newstyle gettext marks what it
    is given safe, so it is given the text escaped."""
    return escape(CURRENT_MESSAGES.get().gettext(message))


@lru_cache(maxsize=4096)
def show_message(messages: Messages, message: str) -> Markup:
    """What Jinja's newstyle gettext prints for `_(message)` with nothing to fill in, in
    the language of `messages`: `translate`'s text made Markup and formatted all the same
    ('%%' prints '%')."""
    return Markup(escape(messages.gettext(message))) % {}


def translate_plural(singular: str, plural: str, count: int) -> Markup:
    """`ngettext()` and `{% trans count=... %}` in templates."""
    return escape(CURRENT_MESSAGES.get().ngettext(singular, plural, count))


_ID = re.compile(r"""(<[a-zA-Z][^<>]*?\s(?:id|name)\s*=\s*)(["'])([^"']*)\2""")
_HASH_LINK = re.compile(r"""(\shref\s*=\s*)(["'])#([^"']*)\2""")


def scope_ids(html: str, prefix: str) -> Markup:
    """A text shown beside others on one page (news items on the home page, abstracts in
    the publication list) with its ids, and its own links to them, prefixed: each text's
    `<h4 id="abstract">` would otherwise be the page's id twice. Its own page keeps them."""
    ids = {match.group(3) for match in _ID.finditer(html)}
    if not ids:
        return Markup(html)
    scoped = _ID.sub(lambda m: f"{m.group(1)}{m.group(2)}{prefix}-{m.group(3)}{m.group(2)}",
                     str(html))
    return Markup(_HASH_LINK.sub(
        lambda m: f"{m.group(1)}{m.group(2)}#{prefix}-{m.group(3)}{m.group(2)}"
        if m.group(3) in ids else m.group(), scoped))
