"""Paper entries: the dicts of one paper that a page's context may list (its view, and
what was made with it, such as its feed entry). Each carries `ENTRY`, a name made of the
paper's slug, by which the live preview finds it in a page's context, swaps in its new
version and tells whether a template read it outside the paper's fragment (splice.py)."""

from __future__ import annotations

ENTRY = "entry_key"


def mark_entry(entry: dict, slug: str, role: str = "") -> dict:
    """`entry`, named: the paper's view by its slug, what was made with it by slug#role."""
    entry[ENTRY] = f"{slug}#{role}" if role else slug
    return entry


def is_entry(value: object) -> bool:
    return type(value) is dict and ENTRY in value


def entries_of(view: dict) -> list[dict]:
    """A paper's view and the entries made with it: what of one paper a page may list."""
    return [view, *(value for value in view.values() if is_entry(value))]
