"""Quote marks in BibTeX text: pairs closed the wrong way made right, and quotes the writer
kept as themselves left alone.

Real files close quotes the wrong way (``Zero-Knowledge" and "x''; `x' for single): the
reader pairs them. A quote mark braced on its own (`{"}`, `{'}`, `{`}`) or written
`\\textasciigrave{}` is that character, as typed, never half of a pair nor of a `''`: so
text written by views/latexout.escape_latex reads back as it was. Such a mark is a stand-in
while the rest of the value is read, then itself again: one of Unicode's noncharacters
(U+FDD0 on), which the standard sets aside for a program's own use, never for text it
exchanges, so no file's text is taken for one (a private-use character may be: icon fonts
use them).
"""

from __future__ import annotations

import re

_OPEN_STRAIGHT = re.compile(r'“([^“”"]*)"')
_STRAIGHT_CLOSE = re.compile(r'"([^“”"]*)”')
_SINGLE = re.compile(r"`((?:[^`']|'(?=\w))*)'(?!\w)")
_KEPT_QUOTE = re.compile(r"\{([`'\"])\}")
_STAND_IN = {"`": "\ufdd0", "'": "\ufdd1", '"': "\ufdd2"}
_RESTORE = str.maketrans({code: char for char, code in _STAND_IN.items()})
GRAVE_STAND_IN = _STAND_IN["`"]  # what `\textasciigrave` reads as, until restore_quotes


def keep_quotes(value: str) -> str:
    """A BibTeX value with each quote braced on its own as its stand-in."""
    return _KEPT_QUOTE.sub(lambda m: _STAND_IN[m.group(1)], value) if "{" in value else value


def restore_quotes(text: str) -> str:
    """Decoded text with each stand-in the quote it stands for."""
    return text.translate(_RESTORE)


def pair_quotes(text: str) -> str:
    """“…” and ‘…’ however the closing quote was written: a straight `"` after ``, or
    before '', closes or opens the pair; `x' is ‘x’ (an apostrophe inside, as in `it's',
    stays one)."""
    if '"' in text and ("“" in text or "”" in text):
        text = _STRAIGHT_CLOSE.sub(r"“\1”", _OPEN_STRAIGHT.sub(r"“\1”", text))
    if "`" in text:
        text = _SINGLE.sub(r"‘\1’", text)
    return text
