"""Problems with content, reported to people as `path:line: error: message`.

Readers never raise on bad content: they add a Diagnostic and go on, so that one build
reports every problem at once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

# What a terminal acts on rather than shows: control characters (an ESC starts a colour
# or moves the cursor, a CR overwrites the line, a line feed starts a line that looks
# like another problem) and the marks that turn text around (U+202E).
_UNPRINTABLE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029"
                          "\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """`text` as the console may show it: each character a terminal would act on written
    as its escape (ESC as \\x1b), so that a file name or a value from outside can neither
    colour, hide nor forge a line of the report."""
    return _UNPRINTABLE.sub(lambda found: ascii(found.group())[1:-1], text)


@dataclass(frozen=True, order=True)
class Diagnostic:
    path: str
    line: int
    severity: str  # "error" or "warning"
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return printable(f"{where}: {self.severity}: {self.message}")


class Diagnostics:
    """Collects the problems of one build, in the order they were found."""

    def __init__(self, root: Path | None = None) -> None:
        # Paths are shown relative to root when they are inside it, as a user typed them.
        self._root = root
        self._items: list[Diagnostic] = []

    def _show(self, path: Path | str) -> str:
        path = Path(path)
        if self._root is not None:
            try:
                return path.relative_to(self._root).as_posix()
            except ValueError:
                pass
        return path.as_posix()

    def error(self, path: Path | str, line: int, message: str) -> None:
        self._items.append(Diagnostic(self._show(path), line, "error", message))

    def warning(self, path: Path | str, line: int, message: str) -> None:
        self._items.append(Diagnostic(self._show(path), line, "warning", message))

    def extend(self, other: "Diagnostics") -> None:
        self._items.extend(other._items)

    @property
    def root(self) -> Path | None:
        return self._root

    def empty_copy(self) -> "Diagnostics":
        """A new collection that shows paths as this one does (for one worker's findings)."""
        return Diagnostics(self._root)

    def add_all(self, items: list[Diagnostic]) -> None:
        self._items.extend(items)

    def sort_since(self, start: int) -> None:
        """Put the problems found since there (one file's, found in passes) in line order."""
        self._items[start:] = sorted(self._items[start:], key=lambda d: (d.path, d.line))

    @property
    def items(self) -> list[Diagnostic]:
        return list(self._items)

    def errors(self, strict: bool = False) -> list[Diagnostic]:
        if strict:
            return list(self._items)
        return [d for d in self._items if d.severity == "error"]

    def has_errors(self, strict: bool = False) -> bool:
        return bool(self.errors(strict))


def count_of(number: int, noun: str) -> str:
    """'1 paper', '2 papers': how many of something, said as people say it."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


class ContentError(Exception):
    """A build stopped by bad content; carries every diagnostic found."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        super().__init__("\n".join(str(d) for d in diagnostics))
        self.diagnostics = diagnostics
