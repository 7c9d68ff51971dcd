"""Writing BibTeX that reads back as written: the one way `update` writes a field.

A value from a service is outside text: a title such as `x}, selected = {true` must stay
one title, and never become a field or an entry of its own. So every value goes through
`bib_value`: a value BibTeX can hold as it is (the LaTeX of DBLP's entries, or of the
owner's edits) is kept; any other is written as plain text (views/latexout.escape_latex,
which the BibTeX downloads use too). Keys, entry types and field names are checked by shape
before a record is written (`check_record`).
"""

from __future__ import annotations

import re

from ..views.latexout import escape_latex

_BRACE_MARK = re.compile(r"\\.|[{}]", re.DOTALL)  # an escape pair is one mark, skipped
# Where bibtexparser's splitter and our own reader could disagree: backslashes doubled
# before a brace (is it escaped?), and an `@` first on a line (a new entry?).
_AMBIGUOUS = re.compile(r"\\\\+[{}]|[\r\n][ \t]*@")
# What bibtexparser reads as a key or a field name: no space, and none of the marks
# that end one or start a value.
_KEY = re.compile(r"[^\s,{}()\"=#\\]+")
_NAME = re.compile(r"[^\s,{}()\"=#\\%@]+")
_TYPE = re.compile(r"[a-z]+", re.IGNORECASE)


def is_plain_bibtex(value: str) -> bool:
    """Whether `{value}` reads back as exactly `value`: braces balanced (escaped ones
    aside) and nothing a reader might take for the end of the value or of the entry."""
    if _AMBIGUOUS.search(value):
        return False
    depth = 0
    for mark in _BRACE_MARK.finditer(value):
        depth += {"{": 1, "}": -1}.get(mark.group(), 0)
        if depth < 0:
            return False
    return depth == 0 and not value.endswith("\\")


def bib_value(value: str) -> str:
    """The value as written between braces: as it is when it can be, else as text."""
    return value if is_plain_bibtex(value) else escape_latex(value)


def check_record(key: str, kind: str, names: list[str]) -> str:
    """Why a record cannot be written as an entry, or ''."""
    if not _KEY.fullmatch(key):
        return f"its key {key!r} is not a BibTeX key"
    if not _TYPE.fullmatch(kind):
        return f"its type {kind!r} is not a BibTeX entry type"
    bad = next((name for name in names if not _NAME.fullmatch(name)), None)
    return f"its field name {bad!r} is not a BibTeX field name" if bad is not None else ""


def format_entry(key: str, kind: str, fields: tuple[tuple[str, str], ...]) -> str:
    """One entry; every value through bib_value. ValueError for a key, type or field
    name that could not be read back (check_record says which)."""
    problem = check_record(key, kind, [name for name, _ in fields])
    if problem:
        raise ValueError(problem)
    lines = [f"@{kind}{{{key},"]
    lines += [f"  {name} = {{{bib_value(value)}}}," for name, value in fields]
    return "\n".join(lines) + "\n}\n"
