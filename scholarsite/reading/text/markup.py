"""A service's marked-up text (Crossref's JATS, DataCite's and PubMed's HTML, MathML) as
what a person would write: a title for front matter, an abstract as Markdown.

The markup is read leniently (html.parser: an unknown or unclosed element is no error)
into a small tree, prefixes dropped (`jats:p` is `p`, `mml:mi` is `mi`). What it says
is kept, what it does is not: every run of text goes through mdescape.escape_markdown
(so no text becomes an element, an attribute or a link), and the only markup written is
this module's own: paragraphs, emphasis, `<sub>`/`<sup>`, list items and `$...$` math.
Math is written as TeX only when it cannot end early or hold HTML (no `$`, `&`, line
break or trailing backslash; `<` and `>` written as `\\lt` and `\\gt`); otherwise its
text is kept as text."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

from .mdescape import escape_markdown

_VOID = {"br", "hr", "img", "graphic", "inline-graphic", "mspace", "none", "mprescripts"}
# Dropped with their text: code, and JATS's pointers ('<xref ref-type="bibr">1</xref>')
# into a reference list or footnotes an abstract does not carry.
_DROPPED = {"script", "style", "object-id", "annotation-xml", "xref"}
_ITEMS = {"li", "list-item"}
_BLOCKS = {"p", "sec", "div", "abstract", "list", "ul", "ol", "li", "list-item", "title",
           "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "disp-quote", "trans-abstract"}
_EMPHASIS = {"i": "*", "italic": "*", "em": "*", "b": "**", "bold": "**", "strong": "**"}
_SCRIPTS = {"sub": "sub", "sup": "sup"}
_HEADINGS = {"title", "h1", "h2", "h3", "h4", "h5", "h6"}
# A heading an abstract opens with that only says what follows is one.
_ABSTRACT_HEADING = re.compile(r"(?i)^\s*(abstract|summary)\s*[.:]?\s*$")
_UNSAFE_TEX = re.compile(r"[$&\n\r]|\\$")
_MO_TEX = {"{": "\\{", "}": "\\}", "…": "\\ldots ",
           "−": "-", "∑": "\\sum ", "∫": "\\int ", "∞": "\\infty ", "×": "\\times "}


@dataclass
class Node:
    tag: str
    attrs: dict[str, str] = field(default_factory=dict)
    children: list = field(default_factory=list)  # Nodes and strings


class _TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("root")
        self.open = [self.root]

    def handle_starttag(self, tag: str, attrs: list) -> None:
        node = Node(tag.rpartition(":")[2], {k.rpartition(":")[2]: v or "" for k, v in attrs})
        self.open[-1].children.append(node)
        if node.tag not in _VOID:
            self.open.append(node)

    def handle_startendtag(self, tag: str, attrs: list) -> None:
        self.open[-1].children.append(Node(tag.rpartition(":")[2]))

    def handle_endtag(self, tag: str) -> None:
        name = tag.rpartition(":")[2]
        for depth in range(len(self.open) - 1, 0, -1):  # closes what it opened, and
            if self.open[depth].tag == name:  # any element left open inside it
                del self.open[depth:]
                return

    def handle_data(self, data: str) -> None:
        self.open[-1].children.append(data)


def parse_markup(fragment: str) -> Node:
    builder = _TreeBuilder()
    builder.feed(fragment)
    builder.close()
    return builder.root


def text_of(node: Node | str) -> str:
    if isinstance(node, str):
        return node
    if node.tag in _DROPPED:
        return ""
    return "".join(text_of(child) for child in node.children)


def find_tex(node: Node, body: bool = True) -> str:
    """A formula's TeX: its own (`tex-math`, MathML's TeX annotation) or MathML read as
    TeX; '' when it cannot be written safely as TeX (in a Markdown `body`, where its `<`
    is written `\\lt`: a title is text, which the build escapes)."""
    own = [n for n in walk(node) if n.tag == "tex-math"
           or (n.tag == "annotation" and "tex" in n.attrs.get("encoding", ""))]
    tex = text_of(own[0]) if own else mathml_tex(node)
    tex = " ".join(tex.split()).strip("$ ")
    tex = re.sub(r"^\\\(|\\\)$|^\\\[|\\\]$", "", tex).strip()
    if not tex or _UNSAFE_TEX.search(tex):
        return ""
    return tex.replace("<", "\\lt ") if body else tex


def walk(node: Node):
    yield node
    for child in node.children:
        if isinstance(child, Node):
            yield from walk(child)


def mathml_tex(node: Node | str) -> str:
    """Presentation MathML as TeX: tokens, scripts, fractions and roots."""
    if isinstance(node, str):
        return node.strip()
    parts = [mathml_tex(child) for child in node.children if not isinstance(child, str)
             or node.tag in ("mi", "mn", "mo", "mtext", "ms")]
    if node.tag == "mo":
        return "".join(_MO_TEX.get(char, char) for char in "".join(parts))
    if node.tag == "mtext":
        return f"\\text{{{''.join(parts)}}}"
    if node.tag in ("msub", "msup", "mfrac", "mroot") and len(parts) == 2:
        a, b = (part if len(part) == 1 else f"{{{part}}}" for part in parts)
        return {"msub": f"{a}_{b}", "msup": f"{a}^{b}",
                "mfrac": f"\\frac{{{parts[0]}}}{{{parts[1]}}}",
                "mroot": f"\\sqrt[{parts[1]}]{{{parts[0]}}}"}[node.tag]
    if node.tag == "msubsup" and len(parts) == 3:
        return f"{{{parts[0]}}}_{{{parts[1]}}}^{{{parts[2]}}}"
    if node.tag == "msqrt":
        return f"\\sqrt{{{' '.join(parts)}}}"
    return " ".join(part for part in parts if part)


def is_math(node: Node) -> bool:
    return node.tag in ("math", "inline-formula", "disp-formula", "tex-math")


def markup_to_title(fragment: str | Node) -> str:
    """A title as front matter writes it: its text, HTML's inline subset the build keeps
    (`<i>`, `<b>`, `<sub>`, `<sup>`) and its formulas as `$TeX$`; everything else is text."""
    node = parse_markup(fragment) if isinstance(fragment, str) else fragment
    return " ".join(title_parts(node).split())


def title_parts(node: Node) -> str:
    out = []
    for child in node.children:
        if isinstance(child, str):
            out.append(child)
        elif child.tag in _DROPPED:
            continue
        elif is_math(child):
            tex = find_tex(child, body=False)
            out.append(f"${tex}$" if tex else text_of(child))
        elif child.tag in _EMPHASIS or child.tag in _SCRIPTS:
            element = {"*": "i", "**": "b"}.get(_EMPHASIS.get(child.tag, ""), child.tag)
            inner = title_parts(child)
            out.append(f"<{element}>{inner}</{element}>" if inner.strip() else inner)
        else:
            out.append(" " + title_parts(child) + " " if child.tag in _BLOCKS
                       else title_parts(child))
    return "".join(out)


def tex_text_to_markdown(text: str) -> str:
    """Plain text with TeX math between dollars (arXiv's abstracts) as Markdown: the text
    escaped, each formula kept as math where it may be (find_tex's rule)."""
    paragraphs = []
    for paragraph in re.split(r"\n[ \t]*\n", text):
        node = Node("p")
        for at, part in enumerate(re.split(r"(?<!\\)\$", " ".join(paragraph.split()))):
            node.children.append(Node("tex-math", children=[part]) if at % 2 else part)
        paragraphs.append(node)
    return markup_to_markdown(Node("root", children=paragraphs), drop_heading=False)


def markup_to_markdown(fragment: str | Node, drop_heading: bool = True) -> str:
    """An abstract as Markdown paragraphs (one a line, a blank line between): its
    paragraphs, sections' headings in bold, list items, emphasis, scripts and math; an
    opening 'Abstract' heading left out."""
    paragraphs: list[str] = []
    current: list[str] = []
    write_blocks(parse_markup(fragment) if isinstance(fragment, str) else fragment,
                 paragraphs, current)
    flush(paragraphs, current)
    if drop_heading and paragraphs and _ABSTRACT_HEADING.match(paragraphs[0].strip("*")):
        paragraphs.pop(0)
    return "\n\n".join(paragraphs)


def flush(paragraphs: list[str], current: list[str], prefix: str = "") -> None:
    text = " ".join("".join(current).split())
    if text:
        paragraphs.append(prefix + text)
    current.clear()


def write_blocks(node: Node, paragraphs: list[str], current: list[str]) -> None:
    for child in node.children:
        if isinstance(child, str):
            current.append(escape_markdown(html.escape(child, quote=False)))
        elif child.tag in _DROPPED:
            continue
        elif child.tag in _BLOCKS:
            flush(paragraphs, current)
            if child.tag in _HEADINGS:
                inline: list[str] = []
                write_inline(child, inline)
                flush(paragraphs, [f"**{''.join(inline).strip()}**"] if "".join(inline).strip()
                      else [])
                continue
            start = len(paragraphs)
            write_blocks(child, paragraphs, current)
            flush(paragraphs, current)
            if child.tag in _ITEMS and len(paragraphs) > start:  # JATS wraps items in <p>
                mark_item(paragraphs, start)
        elif child.tag == "br":
            current.append(" ")
        else:
            write_inline(child, current)


def mark_item(paragraphs: list[str], start: int) -> None:
    """The paragraphs from `start` on as one list item: a bullet, then its indent."""
    paragraphs[start] = "- " + paragraphs[start]
    paragraphs[start + 1:] = ["  " + paragraph for paragraph in paragraphs[start + 1:]]


def write_inline(node: Node, out: list[str]) -> None:
    """An inline element (its block children read as inline too)."""
    if is_math(node):
        tex = find_tex(node)
        joined = "".join(out)
        gap = " " if joined.endswith("\\") else ""
        out.append(f"{gap}${tex}$" if tex else
                   escape_markdown(html.escape(text_of(node), quote=False)))
        return
    inner: list[str] = []
    for child in node.children:
        if isinstance(child, str):
            inner.append(escape_markdown(html.escape(child, quote=False)))
        elif child.tag not in _DROPPED:
            write_inline(child, inner)
    text = "".join(inner)
    mark = _EMPHASIS.get(node.tag)
    if node.tag in _SCRIPTS and text.strip():
        text = f"<{node.tag}>{text}</{node.tag}>"
    elif mark and text.strip():
        core = text.strip()  # Markdown's emphasis must hug its text
        text = text[:len(text) - len(text.lstrip())] + f"{mark}{core}{mark}" \
            + text[len(text.rstrip()):]
    out.append(text)
