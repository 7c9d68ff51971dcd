"""academicpages' `category`: the kind of a paper (`manuscripts`, `conferences`, `books`,
as the template's `publication_category` has them), or a group of the site's own (op-eds,
reports, `rapports`), which the old publications page showed under its title. No paper is
left behind for its category: one scholarsite has no type for becomes the nearest type,
and keeps the group's title as its `category`, shown on its page and in the list's filters.
"""

from __future__ import annotations

import re

from .citestyles import CATEGORY_TYPES, infer_type
from .frontmatter import Source, key_line
from .model import Migration

# A category's words -> the nearest of scholarsite's types, tried in order (in the
# languages the old sites are written in).
NEAREST = (("thesis", r"th[eè]s[ei]s?|dissertation|m[ée]moire|doktorarbeit"),
           ("chapter", r"chap"), ("book", r"\bbooks?\b|livre|ouvrage|monogra|buch"),
           ("patent", r"patent|brevet"),
           ("preprint", r"preprint|working|pr[ée]publication|submitted"),
           ("report", r"report|rapport|white ?paper|brief|deliverable|bericht|informe"),
           ("conference", r"conf|proceed|actes|workshop|symposi|tagung"),
           ("journal", r"journal|article|revue|zeitschrift|revista"))


def read_category_titles(config: dict) -> dict[str, str]:
    """`publication_category` of `_config.yml`: each category's key -> its heading."""
    found = config.get("publication_category")
    if not isinstance(found, dict):
        return {}
    return {str(key): str(spec.get("title") or key) if isinstance(spec, dict) else str(key)
            for key, spec in found.items()}


def sort_category(source: Source, venue: str, titles: dict[str, str],
                  mig: Migration) -> tuple[str, str]:
    """(the paper's type, its `category`: '' unless the old category is no type)."""
    value = source.fields.get("category")
    value = value[0] if isinstance(value, list) and value else value
    category = " ".join(str(value).split()) if isinstance(value, (str, int)) else ""
    if not category or category.lower() in CATEGORY_TYPES:
        return infer_type(venue, category.lower()), ""
    kind = infer_type(venue, "") or next(
        (kind for kind, words in NEAREST if re.search(words, category, re.I)), "other")
    title = titles.get(category, category)
    mig.add_review(mig.where(source.path, key_line(source, "category")),
                   f"category '{category}' is no type scholarsite knows: written as type: "
                   f"{kind}, and kept as the paper's category '{title}' (shown on its page "
                   "and in the list's filters; `group_by: category` in site.yaml groups "
                   "the list by it)")
    return kind, title
