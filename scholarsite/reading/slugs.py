"""Two things with one slug would write one page: the rule every reader applies."""

from __future__ import annotations

from typing import Callable, Iterable, TypeVar

T = TypeVar("T")


def split_repeats(items: Iterable[T], key: Callable[[T], str]
                  ) -> tuple[list[T], list[tuple[T, T]]]:
    """The items whose key comes first, in order, and each later one with the first of its
    key: the caller names both in its message."""
    first: dict[str, T] = {}
    unique: list[T] = []
    repeats: list[tuple[T, T]] = []
    for item in items:
        name = key(item)
        if name in first:
            repeats.append((item, first[name]))
        else:
            first[name] = item
            unique.append(item)
    return unique, repeats
