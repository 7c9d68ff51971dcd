"""What a build publishes of the collections: a draft (`draft: true`) only in `serve`, and
a post or news item dated after today only with `--future`, as Hugo and Jekyll do.

"Today" is the build machine's date, or the one `SOURCE_DATE_EPOCH` gives (the convention
of reproducible builds), so that a build can be made again as it was on a given day.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from dataclasses import dataclass, field

from ...diagnostics import Diagnostics
from ...models import Item, PubDate


def find_today() -> dt.date:
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch.isdigit():
        return dt.datetime.fromtimestamp(int(epoch), dt.timezone.utc).date()
    return dt.date.today()


@dataclass(frozen=True)
class Publishing:
    drafts: bool = False  # serve shows drafts, marked as such
    future: bool = False  # items of a scheduled collection dated after `today` are shown
    today: dt.date = field(default_factory=find_today)

    def key(self) -> tuple:
        """What a build's output depends on: a build of another day may publish more."""
        return (self.drafts, self.future, self.today.isoformat())


def build_mode(strict: bool, publishing: Publishing) -> tuple:
    """The options a build's output depends on, as its record in the cache keeps them."""
    return (strict, *publishing.key())


def is_due(date: PubDate | None, today: dt.date) -> bool:
    """Whether an item of `date` is due on `today` (a month or year: once it has begun)."""
    if date is None:
        return True
    return (date.year, date.month or 1, date.day or 1) <= (today.year, today.month, today.day)


def select_published(items: list[Item], scheduled: bool, publishing: Publishing
                     ) -> tuple[list[Item], list[Item]]:
    """The items of one collection a build shows, and those it holds back: drafts, and in a
    `scheduled` collection (posts, news), what is dated after today."""
    shown, held = [], []
    for item in items:
        if item.draft and not publishing.drafts:
            held.append(item)
        elif scheduled and not publishing.future and not is_due(item.date, publishing.today):
            held.append(item)
        else:
            shown.append(item)
    return shown, held


def warn_links_to_held(shown: list[Item], held: dict[str, Item], marker: str,
                       diags: Diagnostics) -> None:
    """A published text that links to a held-back item's page (`held`: by its path,
    'posts/slug/') would send its readers to a missing page: a warning at the text's file."""
    if not held:
        return
    pattern = re.compile(r'href="' + re.escape(marker) + r'([^"#?]*)')
    for item in shown:
        for target in pattern.findall(item.body_html):
            path = target if target.endswith("/") else target + "/"
            other = held.get(path)
            if other is not None:
                why = "a draft" if other.draft else f"dated {other.date.iso()}"  # type: ignore[union-attr]
                diags.warning(item.source, item.line, f"links to {path}, which is {why} and "
                              "not published by this build; the link will be broken")
