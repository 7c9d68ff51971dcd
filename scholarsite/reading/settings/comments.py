"""site.yaml's `comments`: readers' comments under posts (and under the pages that ask),
kept in the site's GitHub Discussions through giscus (https://giscus.app). Opt-in, as
`analytics` is; nothing of it is on any page without it, and with it no page asks giscus
for anything until its reader presses "Show comments".

    comments:
      giscus:                # the values giscus.app's configuration page gives
        repo: owner/name
        repo_id: R_kgDO...
        category: Announcements
        category_id: DIC_kwDO...
      collections: [posts]   # whose items show comments (default: posts);
                             # any item or page says `comments: true` or `false` itself
"""

from __future__ import annotations

import re

from ...models import CommentsConfig
from .fields import FieldReader

# What giscus's values look like: they are written into attributes and an address.
GISCUS_VALUES = {
    "repo": (re.compile(r"^[A-Za-z0-9-]{1,39}/[A-Za-z0-9._-]{1,100}$"), "owner/name"),
    "repo_id": (re.compile(r"^R_[A-Za-z0-9_-]{4,60}$"), "R_ and letters, as giscus.app gives it"),
    "category": (re.compile(r"^[^\n<>\"]{1,100}$"), "the category's name"),
    "category_id": (re.compile(r"^DIC_[A-Za-z0-9_-]{4,60}$"),
                    "DIC_ and letters, as giscus.app gives it"),
}


def read_comments(reader: FieldReader, present: bool,
                  collections: tuple[str, ...]) -> CommentsConfig:
    """`comments` (see above); absent: none. `collections`: the names it may give."""
    if not present:
        return CommentsConfig()
    if not reader.has("giscus"):  # else each of its four values would be missing too
        reader.error((), "'comments' needs 'giscus' with repo, repo_id, category and "
                     "category_id: giscus.app gives them for your repository")
    giscus = reader.mapping("giscus")
    values = {key: giscus.line_text(key, required=reader.has("giscus"))
              for key in GISCUS_VALUES}
    giscus.check_unknown()
    # (not `on:`, which YAML reads as true)
    shown = reader.text_list("collections") if reader.has("collections") else ("posts",)
    for i, name in enumerate(shown):
        if name not in collections:
            reader.error(("collections", i), f"'comments.collections' names '{name}', "
                         f"which is not a collection: one of {', '.join(collections)}")
    reader.check_unknown()
    wrong = [key for key, (pattern, _) in GISCUS_VALUES.items()
             if values[key] and not pattern.match(values[key])]
    for key in wrong:  # every one at once
        giscus.error((key,), f"'comments.giscus.{key}' {values[key]!r} is not "
                     f"{GISCUS_VALUES[key][1]}")
    if wrong or not all(values.values()):
        return CommentsConfig()
    return CommentsConfig(collections=tuple(shown), **values)
