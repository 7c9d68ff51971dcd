"""Outside text as Markdown: the one way text that is not the owner's own Markdown (an old
site's excerpt or summary, a data list's abstract, a BibTeX abstract `import-bib` writes)
becomes part of a Markdown body.

A Markdown body is trusted: it may hold HTML, and attribute lists (`{: .class}`) add
attributes to elements. Outside text must add neither element nor attribute, so every
character Markdown or one of the site's extensions reads as markup is escaped: HTML's
`<`, `>` and `&`, the inline marks, the braces of attribute lists, the brackets of links,
footnotes and `\\[...\\]` math (so that the text may stand inside a link's or a picture's
brackets too), the dollars of math, and a line's opening mark of a heading, list, admonition, fence or definition. Each
paragraph is folded onto one line, as HTML shows it anyway, so no line of it can be read
as the second line of a table or of a heading.
"""

from __future__ import annotations

import html
import re
from urllib.parse import quote

# Escaped by a backslash, which Markdown (and arithmatex, for '$') reads as the character.
_INLINE = re.compile(r"([\\`*_{}\[|$])")
# What makes '\\[...\\]' math (mathtex.py): TeX in it, a command, a script or a brace.
_TEX = re.compile(r"\\(?!\])|[\^_={]")
# What opens a block when it starts a line: a heading, a list item ('-', '+', '1.', '1)'),
# an admonition ('!!!'); '~~~' (a fence) and ': ' (a definition) have no backslash escape.
_LINE_START = re.compile(r"^([ \t]*)(?:(\d+)([.)])|([#+\-!])|([~:]))", re.MULTILINE)
_PARAGRAPHS = re.compile(r"\n[ \t]*\n")
# What an address keeps as written: what ends a link's address in Markdown (a space, a
# parenthesis, '<', '>', a quote, a backslash) is percent-encoded, as a browser reads it.
_ADDRESS_SAFE = "!#$%&*+,-./:;=?@_~"


def text_to_markdown(text: str) -> str:
    """Plain text as Markdown paragraphs that show exactly that text, and nothing more:
    no element and no attribute of its own, whatever it holds ('<script>', '{: onclick=x}',
    '[x](javascript:...)', '# heading'). Paragraphs (blank-line separated) stay paragraphs,
    each on one line."""
    paragraphs = (" ".join(p.split()) for p in _PARAGRAPHS.split(text))
    return "\n\n".join(escape_markdown(html.escape(p, quote=False)) for p in paragraphs if p)


def text_to_link(label: str, address: str) -> str:
    """A Markdown link from outside text: its label as text_to_markdown writes it, its
    address percent-encoded where Markdown would end it, so neither adds an element; the
    build still judges the address (a `javascript:` one is refused)."""
    return f"[{text_to_markdown(label)}]({quote(address, safe=_ADDRESS_SAFE)})"


def escape_markdown(escaped: str) -> str:
    """Text whose HTML is already escaped (`&lt;`, `&amp;`) as Markdown that shows it as
    it is: Markdown's marks escaped, and any line's opening block mark."""
    marked = escape_closing(_INLINE.sub(r"\\\1", escaped))
    return _LINE_START.sub(escape_line_start, marked)


def escape_closing(marked: str) -> str:
    """Text with its opening brackets escaped ('\\['), and now its closing ones: '\\]', but
    where '\\[...\\]' would be math (TeX after an opening bracket, and from then on: the
    math would run to the next '\\]'), the character reference '&#93;'."""
    pieces = marked.split("]")
    out, math = [pieces[0]], False
    for before, after in zip(pieces, pieces[1:]):
        opening = before.find("\\[")
        math = math or (opening >= 0 and _TEX.search(before, opening + 2) is not None)
        out += ["&#93;" if math else "\\]", after]
    return "".join(out)


def escape_line_start(match: re.Match) -> str:
    indent, digits, after_digits, mark, bare = match.groups()
    if digits:
        return f"{indent}{digits}\\{after_digits}"
    if mark:
        return f"{indent}\\{mark}"
    return f"{indent}&#{ord(bare)};"


_REFERENCES = re.compile(r"&#(93|126|58);")


def undo_references(rendered: str) -> str:
    """HTML rendered from escape_markdown's text with the character references it wrote
    (`&#58;` for a line's opening ':') as their characters, to compare with the HTML the text came from."""
    return _REFERENCES.sub(lambda m: chr(int(m.group(1))), rendered)
