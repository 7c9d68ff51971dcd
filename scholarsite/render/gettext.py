"""`_()` and `gettext()` in templates: what jinja2.ext's i18n functions give, in fewer
steps (Jinja's calls around `views.rooted.translate` cost more than the translation)."""

from __future__ import annotations

from typing import Callable

import jinja2

from ..views.rooted import CURRENT_MESSAGES, show_message


def keep_messages(newstyle_gettext: Callable[..., str]) -> Callable[..., str]:
    """Jinja's newstyle `gettext` (as install_gettext_callables makes it of `translate`),
    its text kept per language and message where there is nothing to fill in: a page asks
    for about 20 such strings, a 1,000-paper site for 19,000 (6% of its rendering)."""

    @jinja2.pass_context
    def gettext(context: jinja2.runtime.Context, message: str, **variables: object) -> str:
        if variables or not context.eval_ctx.autoescape:
            return newstyle_gettext(context, message, **variables)
        return show_message(CURRENT_MESSAGES.get(), message)

    gettext.keeps_messages = True  # type: ignore[attr-defined]
    return gettext


@jinja2.pass_context
def call_gettext(context: jinja2.runtime.Context, *args: object, **kwargs: object) -> str:
    """`_()`: the context's `gettext`, as jinja2.ext's alias calls it; ours without the
    alias's second `context.call` (4% of rendering a 1,000-paper site)."""
    gettext = context.resolve("gettext")
    if getattr(gettext, "keeps_messages", False):
        return gettext(context, *args, **kwargs)
    return context.call(gettext, *args, **kwargs)
