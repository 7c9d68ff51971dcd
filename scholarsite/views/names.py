"""An author's name in the parts citation formats want: family, given, and a suffix."""

from __future__ import annotations

from functools import lru_cache

from ..models import Author

# What may end a name after a comma ('John Smith, Jr.'): BibTeX's "Jr" part.
NAME_SUFFIXES = frozenset({"jr", "jr.", "sr", "sr.", "ii", "iii", "iv"})


@lru_cache(maxsize=8192)
def name_parts(author: Author) -> tuple[str, str, str]:
    """(family, given, suffix): 'John Smith, Jr.' -> ('Smith', 'John', 'Jr.'); the family
    and given names the source declared (BibTeX's split, `family:` in front matter) win.
    A corporate author has a family name and no given name."""
    head, comma, tail = author.name.rpartition(",")
    suffix = tail.strip() if comma and tail.strip().lower() in NAME_SUFFIXES else ""
    if author.family:
        return author.family, author.given, suffix
    given, _, family = (head.strip() if suffix else author.name).rpartition(" ")
    return family, given, suffix
