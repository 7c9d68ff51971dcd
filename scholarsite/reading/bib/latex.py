"""LaTeX in BibTeX fields turned into the Unicode text a page shows.

pylatexenc does the real work (accents, `\\ss`, `\\&`, math, unknown macros). It costs a few
hundred microseconds a call, far too much for a thousand entries' names and titles, so the
LaTeX real files mostly hold (braces, dashes, ties, quotes, accents on one letter, `\\ss`,
`\\o`, `\\&`...) is done here by the same rules; a test checks both give the same text.
Anything else (math, other macros) goes to pylatexenc.

A title or an abstract keeps its math apart as well (`latex_to_rich`; `text_to_rich` for a
Markdown paper's title): MathML for the pages (mathml.py), its Unicode for plain text.
"""

from __future__ import annotations

import html
import logging
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..text.cleantext import (INLINE_MARKS, drop_inline_marks, has_inline_marks, mark_inline_html,
                              show_inline_marks, strip_inline_html)
from ..text.mathml import render_mathml
from .quotes import GRAVE_STAND_IN, keep_quotes, pair_quotes, restore_quotes

# pylatexenc logs a macro short of its arguments ('$\\frac$'); what it makes of it is shown.
logging.getLogger("pylatexenc").addHandler(logging.NullHandler())

# Symbols that may follow an author's name to mark a role (equal contribution, corresponding...).
MARKS = "*†‡§¶#✉"
# A mark written in LaTeX at the end of a name: `$^*$`, `$^{\dagger}$`, `\dag`,
# `\textsuperscript{*}`, or the symbol itself.
_LATEX_MARK = re.compile(
    r"\s*(?:\$\^\{?(?:\*|\\ast|\\dagger|\\ddagger|\\S|\\P|\\#)\}?\$"
    r"|\\textsuperscript\{[*†‡§¶#✉]\}"
    r"|\\dag(?![A-Za-z])|\\ddag(?![A-Za-z])|\\#|\^?[*∗†‡§¶#✉])$")
# Affiliations and marks in one superscript (`$^{1,*}$`, `$^{a\dagger}$`): the marks are
# the name's, the affiliations' numbers or letters no part of it.
_SUPERSCRIPT_LIST = re.compile(r"\s*\$\^\{((?:[\s,]*(?:\d+|[a-z]|\*|\\ast|\\d?dagger|"
                               r"\\d?dag|\\S|\\P|\\#|[†‡§¶#✉]))+)\}\$$")
_LISTED_MARK = re.compile(r"\*|\\ast|\\d?dagger|\\d?dag|\\S|\\P|\\#|[†‡§¶#✉]")
_BRACE = re.compile(r"[{}]")
_UNESCAPED_SPECIAL = re.compile(r"(?<!\\)([%&])")
_URL_WRAPPER = re.compile(r"^\\url\{(.*)\}$", re.DOTALL)
_URL_ESCAPE = re.compile(r"\\([%&#_~$ {}])")
# Accent commands and the combining marks pylatexenc gives them (then NFC composes them).
ACCENTS = {
    '"': "\u0308", "'": "\u0301", "`": "\u0300", "^": "\u0302", "~": "\u0303", "=": "\u0304",
    ".": "\u0307", "c": "\u0327", "v": "\u030c", "u": "\u0306", "H": "\u030b", "k": "\u0328",
    "r": "\u030a",
}
LOGOS = {"TeX": "TeX", "LaTeX": "LaTeX", "LaTeXe": "LaTeX2ε", "BibTeX": "BibTeX",
         "XeTeX": "XeTeX", "LuaTeX": "LuaTeX", "AmS": "AMS", "METAFONT": "METAFONT",
         "textgreater": ">", "textless": "<", "copyright": "©", "slash": "/",
         "textasciicircum": "^", "textasciitilde": "~", "textbar": "|",
         "textasciigrave": GRAVE_STAND_IN}
NAMED_LETTERS = {
    "ss": "ß", "o": "ø", "O": "Ø", "ae": "æ", "AE": "Æ", "oe": "œ", "OE": "Œ", "aa": "å",
    "AA": "Å", "l": "ł", "L": "Ł", "i": "ı", "j": "ȷ",
}
# Spaces after a command: any, but two line breaks in a row make a paragraph.
_SP = r"(?:[ \t]|\n(?!\n))*"
# One pass over the text (what one rule makes is never read by another):
# \"u, \"{u}, \'\i: a symbol accent takes the next letter;
# \c{c}, \c c, \v{S}: a letter accent needs braces or a space;
# \ss, {\o}, \L{}: a named letter eats the spaces after it, and an empty group;
# \&, \%, \_, \#: the symbol; \ and \, a space; \^{} (an accent on nothing) a caret
# (\~{}, a tilde, is left to pylatexenc: here a '~' is a tie).
_LETTER = r"(\\[ij]|[A-Za-z])"
_COMMON = re.compile(
    rf"\\(?P<acc>[\"'`^~=.]){_SP}(?:\{{{_SP}{_LETTER}{_SP}\}}|(\\[ij])(?![^\W\d_]){_SP}"
    rf"|([A-Za-z])(?![\u0300-\u036f]))"
    rf"|\\(?P<lacc>[cvuHkr])(?:{_SP}\{{{_SP}{_LETTER}{_SP}\}}"
    rf"|(?:[ \t]|\n(?!\n))+([A-Za-z])(?![\u0300-\u036f]))"
    rf"|\\(?P<named>ss|ae|AE|oe|OE|aa|AA|[oOlLij])(?![^\W\d_])(?:\{{\}}|{_SP})"
    rf"|\\(?P<esc>[&%_# ,])|\\(?P<bare>\^)\{{\}}")


# Commands whose first arguments are sizes, colours or lengths, never text (pylatexenc
# knows none of them, and would print "z-0.5ex~1" for ADS's `z\raisebox{-0.5ex}\textasciitilde1`):
# name -> (pylatexenc's argument spec, the 1-based argument that is the text, 0 for none).
LAYOUT_COMMANDS = {"raisebox": ("{[[{", 4), "scalebox": ("{[{", 3), "resizebox": ("*{{{", 4),
                   "rotatebox": ("[{{", 3), "rule": ("[{{", 0), "color": ("[{", 0)}


@dataclass(frozen=True)
class Decoder:
    """pylatexenc's text maker (whose `latex_context` says which commands it knows) and the
    parser's context that reads the layout commands' arguments."""
    nodes2text: Any
    parsing: Any

    @property
    def latex_context(self):
        return self.nodes2text.latex_context

    def latex_to_text(self, value: str) -> str:
        return self.nodes2text.latex_to_text(value, latex_context=self.parsing)


@lru_cache(maxsize=1)
def make_decoder() -> Decoder:
    """One pylatexenc reader for the whole process (building it is the slow part): the
    text of `value`, through `make_decoder().latex_to_text(value)`."""
    from pylatexenc import latexwalker, macrospec
    from pylatexenc.latex2text import (LatexNodes2Text, MacroTextSpec,
                                       get_default_latex_context_db)

    parsing = latexwalker.get_default_latex_context_db()
    parsing.add_context_category("layout", prepend=True, macros=[
        macrospec.MacroSpec(name, args) for name, (args, _) in LAYOUT_COMMANDS.items()])
    layout = [MacroTextSpec(name, simplify_repl=f"%({text})s") if text else
              MacroTextSpec(name, discard=True) for name, (_, text) in LAYOUT_COMMANDS.items()]

    context = get_default_latex_context_db()
    # \url{...} is the address itself, not "<address>".
    # The TeX family's logos are their names (pylatexenc drops them: "{\\TeX}nical" ->
    # "nical").
    logos = [MacroTextSpec(name, simplify_repl=text) for name, text in LOGOS.items()]
    context.add_context_category("scholarsite", prepend=True,
                                 macros=[MacroTextSpec("url", simplify_repl="%s"), *logos,
                                         *layout])
    # A command it does not know (\texttt, an owner's \proglang{R}) keeps its arguments' text.
    context.set_unknown_macro_spec(MacroTextSpec("", discard=False))
    return Decoder(LatexNodes2Text(latex_context=context, math_mode="text"), parsing)


def fold_space(text: str) -> str:
    """One line: runs of whitespace (newlines and non-breaking spaces too) become one space."""
    return " ".join(text.split())


def decode_simple(text: str) -> str:
    """What pylatexenc makes of text without macros or math: dashes and quotes inside each
    brace group (braces split them: '-{-}' stays two hyphens), then braces dropped."""
    return "".join(decode_segment(part) for part in _BRACE.split(text))


def decode_segment(text: str) -> str:
    text = text.replace("---", "—").replace("--", "–").replace("~", " ")
    return text.replace("``", "“").replace("''", "”")


def decode_common(text: str) -> str | None:
    """Accents on one letter, named letters and escaped symbols, by pylatexenc's rules;
    None when anything else is left (math, other macros, escaped braces)."""
    if "$" in text or "\\{" in text or "\\}" in text or "\\\\" in text:
        return None
    text = _COMMON.sub(decode_command, text)
    if "\\" in text:
        return None
    return unicodedata.normalize("NFC", decode_simple(text))


def decode_command(match: re.Match) -> str:
    if symbol := match.group("esc") or match.group("bare"):
        return " " if symbol in " ," else symbol
    if match.group("named"):
        return NAMED_LETTERS[match.group("named")]
    letter = next(match.group(i) for i in (2, 3, 4, 6, 7) if match.group(i))
    return letter.lstrip("\\") + ACCENTS[match.group("acc") or match.group("lacc")]


@lru_cache(maxsize=16384)
def latex_to_text(value: str) -> str:
    """Unicode text for one field value, on one line; LaTeX it cannot read is dropped, never
    raised: `{\\"u}` -> ü, `\\&` -> &, `--` -> –, capital-protecting braces removed.
    Cached: the same names and venues come back in entry after entry. HTML tags in it
    (`<i>x</i>`, `<a href=..>`) are dropped, their text kept (cleantext.py)."""
    value = keep_quotes(strip_inline_html(value))
    return restore_quotes(pair_quotes(fold_space(decode_latex(value))))


def decode_latex(value: str) -> str:
    if "\\" not in value and "$" not in value:
        return decode_simple(value)
    text = decode_common(value)
    if text is not None:
        return text
    # A bare % would start a LaTeX comment and a bare & an alignment cell: in BibTeX both
    # mean the characters themselves; \^{} and \~{} are a caret and a tilde (pylatexenc
    # drops them), as above.
    value = _UNESCAPED_SPECIAL.sub(r"\\\1", value).replace("\\^{}", "\\textasciicircum{}") \
        .replace("\\~{}", "\\textasciitilde{}")
    try:
        return make_decoder().latex_to_text(value)
    except Exception:  # pylatexenc is tolerant; anything left is shown as plain text
        return decode_simple(value.replace("\\", ""))


def split_paragraphs(value: str) -> list[str]:
    """A long text's paragraphs as written: blank lines and `\\par` separate them."""
    return re.split(r"\n\s*\n|\\par(?![A-Za-z])", value)


def decode_url(value: str) -> str:
    """A URL as written in BibTeX: `\\url{...}` unwrapped and `\\%`, `\\_`, `\\&`
    unescaped; never run through LaTeX, where `~` and `--` mean something else."""
    value = value.strip()
    match = _URL_WRAPPER.match(value)
    if match:
        value = match.group(1).strip()
    if value.startswith("{") and value.endswith("}"):
        value = value[1:-1].strip()
    return _URL_ESCAPE.sub(r"\1", value)


def strip_marks(raw: str) -> tuple[str, tuple[str, ...]]:
    """'Wei, Zhewei$^*$' -> ('Wei, Zhewei', ('*',)): role marks at the end of a name."""
    marks: list[str] = []
    listed = _SUPERSCRIPT_LIST.search(raw)
    if listed and listed.start() > 0 and _LISTED_MARK.search(listed.group(1)):
        marks = [mark_symbol(m) for m in _LISTED_MARK.findall(listed.group(1))]
        raw = raw[:listed.start()]
    while True:
        match = _LATEX_MARK.search(raw)
        if not match or match.start() == 0:
            break
        marks.insert(0, mark_symbol(match.group(0).strip()))
        raw = raw[:match.start()]
    return raw.rstrip(), tuple(marks)


def mark_symbol(token: str) -> str:
    if "ast" in token or "∗" in token:  # al-folio's asterisk operator, U+2217
        return "*"
    if "ddag" in token:
        return "‡"
    if "dag" in token:
        return "†"
    for symbol in MARKS:
        if symbol in token:
            return symbol
    return "§" if "\\S" in token else "¶"


def strip_trailing_symbols(text: str) -> tuple[str, tuple[str, ...]]:
    marks: list[str] = []
    text = text.rstrip()
    while text and text[-1] in MARKS:
        marks.insert(0, text[-1])
        text = text[:-1].rstrip().removesuffix("^").rstrip()
    return text, tuple(marks)


# --- Math in a title or an abstract: MathML for pages, Unicode for plain text ----------

# A formula in a BibTeX field: $$...$$, $...$ (not \$), \[...\] or \(...\).
_BIB_MATH = re.compile(r"(?<!\\)\$\$(?P<dd>[^$]+?)(?<!\\)\$\$|(?<!\\)\$(?P<d>[^$]+?)(?<!\\)\$"
                       r"|\\\[(?P<bb>.+?)\\\]|\\\((?P<b>.+?)\\\)", re.DOTALL)
# In a Markdown title, as in its text (arithmatex): '$' touching the formula on both sides,
# so that '$5 and $10' is money.
_MARKDOWN_MATH = re.compile(r"(?<!\\)\$\$(?P<dd>(?:\\.|[^\\$])+?)\$\$"
                            r"|(?<!\\)\$(?!\s)(?P<d>(?:\\.|[^\\$])+?)(?<!\s)\$"
                            r"|\\\[(?P<bb>.+?)\\\]|\\\((?P<b>.+?)\\\)")
# A sub- or superscript of letters and digits: '^2', '_i', '^{-1}', '_{ij}'.
_SCRIPT = re.compile(r"([\^_])(?:\{([0-9a-z+\-=()]+)\}|([0-9a-z+\-]))")
_COMMAND_END = re.compile(r"\\[A-Za-z]+$")
SUPERSCRIPTS = dict(zip("0123456789+-=()ni", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱ"))
SUBSCRIPTS = dict(zip("0123456789+-=()aeoxijkmnt", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₒₓᵢⱼₖₘₙₜ"))
# Stands for a formula while the text around it is decoded: a noncharacter, which no
# text read holds (cleantext.UNTEXT), as the marks of kept elements are.
_MATH_MARK = "\ufde8"
# Italics in a field (one level of braces inside): marked as HTML's are (cleantext.py).
_ITALIC = re.compile(r"\\(?:emph|textit|textsl)\s*\{((?:[^{}]|\{[^{}]*\})*)\}")
_ITALIC_ON, _ITALIC_OFF = INLINE_MARKS["em"]
# An exporter's escaped caret (Better BibTeX writes '^' as '\^{}'), which means '^'.
_ESCAPED_CARET = re.compile(r"\\\^\{\}\s*")
# A subscript's underscore escaped for Markdown ('H$\_{2}$O', as Hugo sites write it, lest
# Markdown read emphasis), which means a subscript, not TeX's literal underscore.
_ESCAPED_SUBSCRIPT = re.compile(r"\\_(?=[{\w])")
# Braces escaped as an argument (`\tilde\{O\}`, `^\{2\}`): some al-folio files escape every
# brace of their math, which then means a brace; `\{x\}` alone stays a set.
_ESCAPED_ARGUMENT = re.compile(
    r"(?:\\(?:tilde|widetilde|hat|widehat|bar|vec|dot|ddot|overline|underline|sqrt|frac|"
    r"text|textrm|textit|textbf|mathrm|mathit|mathbf|mathbb|mathcal|mathsf|mathfrak|"
    r"boldsymbol|operatorname)|[\^_])\s*\\\{")


@dataclass(frozen=True)
class RichText:
    """A one-line text with math: `text` plain (each formula in Unicode, as pylatexenc
    reads it), `html` escaped with each formula as MathML ('' when there is no math), and
    the formulas that could not be converted (TeX, why), shown as their Unicode text."""

    text: str
    html: str = ""
    problems: tuple[tuple[str, str], ...] = ()


def latex_to_rich(value: str) -> RichText:
    """A BibTeX field (a title, a paragraph of an abstract): LaTeX decoded to Unicode as
    latex_to_text does, each formula kept for MathML, and `\\emph{}`, `\\textit{}` (a
    species, a book's title) kept as italics for the page, as is HTML's inline subset."""
    marked = mark_italics(value)
    split = split_bib_math(marked)
    return show_marks(join_rich(*split) if split else RichText(latex_to_text(marked)))


def mark_italics(value: str) -> str:
    """A BibTeX field with its italics and kept HTML elements as marks (cleantext.py)."""
    value = mark_inline_html(value)
    if "\\" not in value:
        return value
    return _ITALIC.sub(lambda m: f"{_ITALIC_ON}{m.group(1)}{_ITALIC_OFF}", value)


def show_marks(rich: RichText) -> RichText:
    """`rich` with the marks of its kept elements as tags in its HTML, out of its text."""
    if not has_inline_marks(rich.text):
        return rich
    shown = rich.html or html.escape(rich.text, quote=False)
    return RichText(drop_inline_marks(rich.text), show_inline_marks(shown), rich.problems)


def split_bib_math(value: str) -> tuple[list[str], list[tuple[str, bool]]] | None:
    """A BibTeX field's text parts, decoded to Unicode, and the formulas between them
    (TeX, display); None when it has no formula, or a macro swallowed one."""
    maths = [read_formula(m) for m in _BIB_MATH.finditer(value)]
    if not maths:
        return None
    parts = latex_to_text(_BIB_MATH.sub(_MATH_MARK, value)).split(_MATH_MARK)
    return (parts, maths) if len(parts) == len(maths) + 1 else None


def latex_to_markdown(value: str) -> str:
    """A BibTeX title as a Markdown paper writes it: LaTeX decoded to Unicode, each formula
    kept as `$TeX$` (`$$TeX$$` for display), its italics and HTML's kept elements as those
    tags, so that text_to_rich reads it as latex_to_rich reads the field."""
    value = mark_italics(value)
    split = split_bib_math(value)
    if split is None:
        return show_inline_marks(latex_to_text(value))
    parts, maths = split
    fenced = [f"$${tex}$$" if display else f"${tex}$" for tex, display in maths]
    return show_inline_marks(parts[0] + "".join(f + part for f, part in zip(fenced, parts[1:])))


def text_to_rich(value: str) -> RichText:
    """A Markdown paper's title: its text as written (`--` is two hyphens, as the page
    shows it, and so in every export), with its formulas as in its prose and HTML's
    inline subset (cleantext.py) as on pages."""
    value = mark_inline_html(value)
    maths = [read_formula(m) for m in _MARKDOWN_MATH.finditer(value)]
    if not maths:
        return show_marks(RichText(value))
    return show_marks(join_rich(_MARKDOWN_MATH.sub(_MATH_MARK, value).split(_MATH_MARK), maths))


def read_formula(found: re.Match) -> tuple[str, bool]:
    """(TeX as the writer meant it, whether it is display math)."""
    tex = next(group for group in found.groups() if group is not None).strip()
    tex = _ESCAPED_SUBSCRIPT.sub("_", _ESCAPED_CARET.sub("^", tex))
    if _ESCAPED_ARGUMENT.search(tex):
        tex = re.sub(r"\\([{}])", r"\1", tex)
    return tex, found.group("dd") is not None or found.group("bb") is not None


def join_rich(parts: list[str], maths: list[tuple[str, bool]]) -> RichText:
    """Text parts with the formulas between them."""
    text, shown, problems = [], [], []
    for part, (tex, display) in zip(parts, maths):
        plain = read_math_text(tex)
        mathml, problem = render_mathml(tex, display) if tex else ("", "")
        if problem:
            problems.append((tex, problem))
        text += [part, plain]
        shown += [html.escape(part, quote=False), mathml or html.escape(plain, quote=False)]
    text.append(parts[-1])
    shown.append(html.escape(parts[-1], quote=False))
    return RichText(fold_space("".join(text)), "".join(shown).strip(), tuple(problems))


def read_math_text(tex: str) -> str:
    """A formula's Unicode reading ('x^2' -> 'x²' where Unicode has the small letters);
    its TeX where pylatexenc leaves its own placeholders (a macro short of its arguments
    gives '%s/%s')."""
    scripted = _SCRIPT.sub(small_script, tex)
    plain = latex_to_text(f"${scripted}$") if tex else ""
    return tex if "%s" in plain and "%s" not in tex else plain


def small_script(found: re.Match) -> str:
    """`^2`, `_{ij}` as Unicode superscripts or subscripts; as written when one of its
    characters has none."""
    table = SUPERSCRIPTS if found.group(1) == "^" else SUBSCRIPTS
    chars = found.group(2) or found.group(3)
    if not all(char in table for char in chars):
        return found.group()
    after_command = _COMMAND_END.search(found.string, 0, found.start())  # `\\sum_i`
    return ("{}" if after_command else "") + "".join(table[char] for char in chars)


def describe_math_problem(tex: str, problem: str) -> str:
    shown = tex if len(tex) <= 60 else tex[:57] + "..."
    return (f"the math '{shown}' cannot be converted to MathML ({problem}): it is shown as "
            "text")
