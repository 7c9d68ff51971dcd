"""Text written as LaTeX for a BibTeX file that classic bibtex (8-bit, with plain, plainnat,
ieeetr, alpha, acm) and biber (UTF-8) both read right.

- A plain-text value (a Markdown paper's title, venue, note) has LaTeX's special
  characters written as commands (`\\~{}`, `\\&`), so that it prints as typed;
  a title's formulas stay math (`$x^2$`).
- Words whose case matters (`ResiHP`, `LLM`, `GPU`, `3D`, the `C` of `C#`) and formulas
  (`$O(1)$`) are braced, as DBLP's exports do, so that styles that lowercase titles leave
  them alone.
- Names are 'von Last, Jr., First', with the letters bibtex cuts as LaTeX escapes when they
  are not ASCII: bibtex reads letters byte by byte, so an initial 'É' would be half a
  character (and 'Émile Zola' a 'von' part). In a given name, each word's first letter
  (`{\\'E}mile`, `{\\textrm{小}}明`), which styles abbreviate; in a family name, every
  letter (`Ib{\\'a}{\\~n}ez`, `{\\textrm{欧}}{\\textrm{阳}}`), of which alpha's labels take
  the first one to three. The rest stays UTF-8, which pdflatex and biber read. A corporate
  author is one braced group. (Checked with pdflatex, bibtex and biber:
  tests/test_latex_exports.py.)
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from ..models import Author
from .names import name_parts
from ..reading.bib.latex import ACCENTS, NAMED_LETTERS

# Plain-text characters and the LaTeX that prints them in any font encoding (OT1 prints a
# bare '|' as a dash, '<' as '¡'; '^' and '~' bare are an accent or a tie). A caret and a
# tilde are accents on nothing, as OT1 defines \textasciicircum and \textasciitilde: Zotero's
# BibTeX reader reads `\^{}` as '^' and `\~{}` as '∼', but those commands as their names
# (citation.js reads the accents on nothing as 'undefined' with a mark). A backslash has no
# form that both read: `\\`, which Zotero reads, is a line break in LaTeX. A quote mark is
# braced on its own, which our reader keeps as itself (reading/bib/quotes.py), so that
# '``' and '"' never become half of a quote pair ('"' has no command in OT1).
_SPECIALS = {
    "\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&", "%": r"\%",
    "#": r"\#", "_": r"\_", "^": r"\^{}", "~": r"\~{}",
    "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}",
    "`": r"\textasciigrave{}", '"': '{"}', "'": "{'}", "-": "-", "–": "--", "—": "---",
}
# A special; a dash after a dash (TeX would join '--' into an en dash: each is written
# apart, '-{}-'); a quote after a quote ('{'}': "''" would be a closing quote).
_SPECIAL = re.compile(r"(?P<dash>(?<=[-–—])[-–—])|(?<=')'|[\\{}$&%#_^~<>|`\"–—]")
# A piece of LaTeX: a command, a formula, a brace, a word, or any other character.
_TOKEN = re.compile(r"\\[A-Za-z]+\*?|\\.|\$\$.*?\$\$|\$.*?\$|[{}]|[^\W_]+|.", re.DOTALL)
_MARK_TO_ACCENT = {mark: command for command, mark in ACCENTS.items()}
_LETTER_TO_NAMED = {letter: name for name, letter in NAMED_LETTERS.items()}
_NAME_PART = re.compile(r"[^\s~-]+")
_NON_ASCII = re.compile(r"[^\x00-\x7f]")
_SPACES = re.compile(r"\s+")


@lru_cache(maxsize=8192)  # names and venues come back paper after paper
def escape_latex(text: str) -> str:
    """Plain text as LaTeX that prints it as typed, in bibtex and biber alike, and that our
    BibTeX reader reads back as the same text: specials as commands, dashes as TeX's ('--'
    typed means two hyphens, as the page shows it). Runs of whitespace are one space (no
    line of it can start with '@'); a piece's spaces at its ends are kept, since it may sit
    between formulas."""
    return _SPECIAL.sub(write_special, _SPACES.sub(" ", text))


def write_special(found: re.Match) -> str:
    return ("{}" if found.group("dash") else "") + _SPECIALS[found.group()]


def protect_case(tex: str) -> str:
    """`tex` with what must keep its case, at brace level 0, in braces: each formula with
    a capital (`{$O(1)$}`, which would print as little-o), each word that has a capital after its
    first letter (`LLM`, `ResiHP`, `MoE`, `3D`) or is one capital letter (`C\\#`, `Plan
    B`; but the title's first, which styles keep), and each command whose name has a
    capital; other commands and braced groups are left as they are."""
    out, depth = [], 0
    for i, token in enumerate(_TOKEN.findall(tex)):
        if token == "{":
            depth += 1
        elif token == "}":
            depth = max(depth - 1, 0)
        elif depth == 0 and (keeps_case(token) or i and is_capital_letter(token)):
            token = "{" + token + "}"
        out.append(token)
    return "".join(out)


def keeps_case(token: str) -> bool:
    """A formula with a capital, a word with a capital after its first letter, or a
    command with a capital in its name (`\\LaTeX`, which bibtex would lowercase into an
    undefined `\\latex`)."""
    if token[0] == "$":  # bibtex lowercases math too: `$O(1)$`, `$\\Delta$`
        return any(char.isupper() for char in token)
    return any(char.isupper() for char in token[1:]) and (token[0] != "\\" or token[1:].isalpha())


def is_capital_letter(token: str) -> bool:
    """One capital letter as a word ('C' of 'C#', 'B' of 'Plan B', the pronoun 'I')."""
    return len(token) == 1 and token.isupper()


def latex_letter(char: str) -> str:
    """One non-ASCII letter as a LaTeX escape bibtex counts as one letter: `{\\'E}`,
    `{\\L}`. A letter LaTeX has no command for (Chinese, Greek) is kept, wrapped as
    `{\\textrm{X}}`: bibtex abbreviates that group whole, and biber and citation.js read
    it as the letter."""
    if char in _LETTER_TO_NAMED:
        return "{\\" + _LETTER_TO_NAMED[char] + "}"
    base, *marks = unicodedata.normalize("NFD", char)
    if base.isascii() and len(marks) == 1 and marks[0] in _MARK_TO_ACCENT:
        accent = _MARK_TO_ACCENT[marks[0]]
        letter = "\\i" if base == "i" else base
        space = " " if accent.isalpha() else ""
        return "{\\" + accent + space + letter + "}"
    return "{\\textrm{" + char + "}}"


def latex_name_part(text: str, family: bool = False) -> str:
    """A name part with the letters bibtex would cut safe (see module doc): a family
    name's every letter, another part's each word's first."""
    text = escape_latex(unicodedata.normalize("NFC", text))
    if family:
        return _NON_ASCII.sub(lambda m: latex_letter(m.group()), text)
    return _NAME_PART.sub(lambda m: m.group() if m.group()[0].isascii()
                          else latex_letter(m.group()[0]) + m.group()[1:], text)


@lru_cache(maxsize=8192)
def bibtex_name(author: Author) -> str:
    """'Family, Given' or 'Family, Jr., Given'; a corporate author (a family name and no
    given name, where the name has a space) braced whole."""
    family, given, suffix = name_parts(author)
    if not given and " " in family:
        return "{" + escape_latex(family) + "}"
    parts = [latex_name_part(family, family=True)]
    if suffix:
        parts.append(latex_name_part(suffix))
    if given:
        parts.append(latex_name_part(given))
    return ", ".join(parts)
