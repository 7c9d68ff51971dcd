"""Author-note marks (`*`, `†`, `‡`...) as old sites write them after a name: in a
citation ('Lee, A.*, Roe, J.†'), in an `authors` field ('Ann Lee<sup>*</sup>'), in LaTeX
('Lee$^\\dagger$'). The name readers work on text without the marks; the marks are then
found again in the marked text and written after each name ('Ann Lee*'), as scholarsite's
author lists write them (site.yaml's `publications.author_notes` says what each means)."""

from __future__ import annotations

import re

from ...reading.bib.latex import MARKS

_MARK = f"[{re.escape(MARKS)}]"
# A mark as LaTeX, HTML or an escape writes it, and the one symbol it stands for.
_WRITTEN = ((re.compile(r"\$\^\{?\\dagger\}?\$|\\textsuperscript\{\\dag\}|\\dag(?![A-Za-z])"), "†"),
            (re.compile(r"\$\^\{?\\ddagger\}?\$|\\textsuperscript\{\\ddag\}|\\ddag(?![A-Za-z])"),
             "‡"),
            (re.compile(r"\$\^\{?\\?([*#])\}?\$|\\textsuperscript\{\\?([*#])\}|\\([*#])"), None),
            (re.compile(r"<sup>\s*(" + _MARK + r"+)\s*</sup>", re.I), None),
            (re.compile(r"\^(" + _MARK + ")"), None), (re.compile("∗"), "*"))
# Given names or initials between a family name and its mark ('Lee, A.B.*', 'Lee AB*').
_AFTER_FAMILY = re.compile(r"(?:,?\s*(?:[^\W\d_][\w'’.-]*\s*){0,3})?(" + _MARK + r"+)")


def write_marks(text: str) -> str:
    """`text` with each mark written as its one symbol ('$^\\dagger$', '<sup>*</sup>',
    '\\*', '∗' -> '†', '*', '*', '*')."""
    for pattern, symbol in _WRITTEN:
        text = pattern.sub(lambda m: symbol or next(g for g in m.groups() if g), text)
    return text


def family_of(name: str) -> str:
    return name.split()[-1] if name.split() else ""


def attach_marks(names: list[str], marked: str) -> list[str]:
    """`names` (read without their marks, 'Given Family') with the marks that follow each
    in `marked`: all those before the next name's family name, or, for the last, those
    right after its family name and given names ('Lee, A.B.*')."""
    if not re.search(_MARK, marked):
        return names
    at, places = 0, []
    for name in names:
        found = re.search(rf"(?<!\w){re.escape(family_of(name))}(?!\w)", marked[at:]) \
            if family_of(name) else None
        places.append(at + found.end() if found else None)
        at = at + found.end() if found else at
    out = []
    for index, (name, start) in enumerate(zip(names, places)):
        if start is None:
            out.append(name)
            continue
        later = [p - len(family_of(n)) for p, n in zip(places[index + 1:], names[index + 1:])
                 if p is not None]
        if later:
            marks = "".join(re.findall(_MARK, marked[start:later[0]]))
        else:
            found = _AFTER_FAMILY.match(marked, start)
            marks = found.group(1) if found else ""
        out.append(name + "".join(dict.fromkeys(marks)))
    return out
