"""The context every page's template renders in: it notes the page's root and language as
the template starts (views/rooted.py), for the abstracts and strings it prints. Apart from
views/, which the readers run, so that reading a site does not import Jinja."""

from __future__ import annotations

import jinja2.runtime

from ..views.rooted import CURRENT_MESSAGES, CURRENT_ROOT, find_messages


class PageContext(jinja2.runtime.Context):
    """Notes the root of the page a template starts rendering, for the abstracts it prints
    (RootedMarkup). Included templates get contexts of the same page."""

    def __init__(self, environment, parent, name, blocks, globals=None):  # noqa: A002
        super().__init__(environment, parent, name, blocks, globals)
        page = parent.get("page")
        root = page.get("root") if isinstance(page, dict) else getattr(page, "root", None)
        if isinstance(root, str):
            CURRENT_ROOT.set(root)
        site = parent.get("site")
        if isinstance(site, dict) and "language" in site:
            CURRENT_MESSAGES.set(find_messages(site["language"], site.get("strings", ())))
