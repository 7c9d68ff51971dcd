"""Links that lead nowhere, kept as text with their old address: `migrate` writes a link of
the old site that the new one has nothing at (a page that never existed, a picture the old
site lacked too) as `<span data-dead-link="/old/address/">its text</span>`, and a tag of raw
HTML with `data-dead-link` in place of its `href` or `src`. A visitor sees the text, not a
broken link; every build (and so `check`) warns of each at its line, until the owner
mends it or takes the mark out."""

from __future__ import annotations

import html
import re
from typing import Callable

DEAD_LINK = "data-dead-link"
_MARKED = re.compile(DEAD_LINK + r"""\s*=\s*(["'])(.*?)\1""")


def warn_dead_links(text: str, report: Callable[..., None]) -> None:
    """A warning at the line of each link marked dead in `text` (a Markdown text)."""
    if DEAD_LINK not in text:
        return
    for match in _MARKED.finditer(text):
        report(text.count("\n", 0, match.start()) + 1,
               f"a link to '{html.unescape(match.group(2))}', which led nowhere when the site "
               "was moved, is shown as text (data-dead-link): link the text to a page or "
               "file of this site, or take the mark out", True)
