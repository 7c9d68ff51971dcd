"""An author's name in the parts citation formats want: family, given, and a suffix."""

from __future__ import annotations

from ..models import Author


def name_parts(author: Author) -> tuple[str, str, str]:
    """(family, given, suffix) as reading/names.py read them: 'John Smith, Jr.' ->
    ('Smith', 'John', 'Jr.'), 'Petrova, Elena' -> ('Petrova', 'Elena', ''). A corporate
    author has a family name and no given name."""
    return author.family_name(), author.given_names(), author.suffix


def is_corporate(author: Author) -> bool:
    """A corporate author ('Barnes and Noble, Inc.'): a family name with a space and no
    given name. A one-word name ('乔林', 'Plato') is a person's."""
    family, given, _ = name_parts(author)
    return not given and " " in family
