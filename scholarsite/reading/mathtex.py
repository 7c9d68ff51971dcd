"""TeX math in Markdown, rendered to MathML when the site is built: no script, no request.

pymdown-extensions' `arithmatex` finds the math ($...$, \\(...\\), $$...$$, \\[...\\],
\\begin{env}...\\end{env}) before Markdown reads emphasis or escapes in it, and leaves each
span as a tagged element holding its TeX. `MathToMathML` then turns each into MathML by
latex2mathml, the TeX kept in an `<annotation>` so that plain text (feeds, descriptions,
search) shows the TeX (`math_to_tex`). What latex2mathml cannot convert is shown as its
TeX in `<code>`, and kept in `md.math_problems` for the caller to report at its line.
"""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as etree
from functools import lru_cache

import markdown
from markdown.extensions import Extension
from markdown.inlinepatterns import InlineProcessor
from markdown.treeprocessors import Treeprocessor
from pymdownx.arithmatex import ArithmatexExtension

TEX = "application/x-tex"
# latex2mathml writes characters as numeric references in its elements' text.
_CHAR_REF = re.compile(r"&(?!#x[0-9A-Fa-f]+;)")
# A command latex2mathml did not know, or a lone backslash it left (`\\^{}`).
_COMMAND = re.compile(r"\\(?:[A-Za-z]+|.|$)")
_MATH = re.compile(r"<math\b[^>]*>.*?</math>", re.DOTALL)
_ANNOTATION = re.compile(r'<annotation encoding="application/x-tex">(.*?)</annotation>',
                         re.DOTALL)
# Attributes of latex2mathml's output that are dropped: a link from TeX (\href) would
# bypass the checks Markdown links get, and \style would put a writer's CSS on the page.
_DROPPED = {"href", "style", "xmlns"}
# $$...$$ inside a paragraph, which arithmatex takes only as a block of its own; like its
# '$', it stops at the next '$', so each is read once.
_INLINE_DISPLAY = r"(?<!\\)\$\$(?!\s)((?:\\.|[^\\$])+?)(?<!\s)\$\$"
# latex2mathml takes about 20 ms a kilobyte: a formula longer than this is shown as TeX.
MAX_TEX = 10_000


def make_math_extensions() -> list[Extension]:
    """arithmatex in its generic form, with no delimiters around the TeX it keeps."""
    return [ArithmatexExtension(generic=True, tex_inline_wrap=["", ""],
                                tex_block_wrap=["", ""]),
            MathToMathMLExtension()]


class MathToMathML(Treeprocessor):
    """Each formula arithmatex marked, as MathML kept aside from Markdown (the HTML
    stash), or as its TeX in <code> when it cannot be converted."""

    def run(self, root: etree.Element) -> None:
        for parent in list(root.iter()):
            for index in reversed(range(len(parent))):  # the last first: removing shifts
                if parent[index].get("class") == "arithmatex":
                    self.replace_math(parent, index, parent[index])

    def replace_math(self, parent: etree.Element, index: int, child: etree.Element) -> None:
        display = child.tag == "div" or child.get("data-display") is not None
        # arithmatex escapes the TeX of a block (with '&' first, so this is exact)
        tex = html.unescape(child.text or "") if child.tag == "div" else (child.text or "")
        tex = tex.strip()
        mathml, problem = render_mathml(tex, display)
        if problem:
            self.md.math_problems.append((tex, problem))
            code = etree.Element("code")
            code.text = markdown.util.AtomicString(tex)
            if display:
                child.attrib = {"class": "math-display"}
                child.text = None
                child.append(code)
            else:
                code.tail = child.tail
                parent[index] = code
            return
        placeholder = self.md.htmlStash.store(mathml)
        if display:
            child.attrib = {"class": "math-display"}
            child.text = placeholder
            return
        before = parent[index - 1] if index else None
        joined = placeholder + (child.tail or "")
        if before is None:
            parent.text = (parent.text or "") + joined
        else:
            before.tail = (before.tail or "") + joined
        parent.remove(child)


class InlineDisplayMath(InlineProcessor):
    """$$...$$ within a paragraph: display math, in a span shown as a block."""

    def handleMatch(self, m: re.Match, data: str):  # noqa: N802 - Markdown's API
        element = etree.Element("span", {"class": "arithmatex", "data-display": ""})
        element.text = markdown.util.AtomicString(m.group(1))
        return element, m.start(0), m.end(0)


class MathToMathMLExtension(Extension):
    def extendMarkdown(self, md: markdown.Markdown) -> None:  # noqa: N802 - Markdown's API
        md.math_problems = []
        md.inlinePatterns.register(InlineDisplayMath(_INLINE_DISPLAY, md),
                                   "scholarsite_display_math", 189.95)  # before arithmatex
        # Python-Markdown counts <math> as a block, and would take the <p> from a paragraph
        # holding one formula only; MathML is phrasing content in HTML.
        md.block_level_elements = [tag for tag in md.block_level_elements if tag != "math"]
        md.treeprocessors.register(MathToMathML(md), "scholarsite_math", 19)  # after inline


@lru_cache(maxsize=4096)
def render_mathml(tex: str, display: bool) -> tuple[str, str]:
    """(MathML, '') for `tex`, or ('', why it cannot be converted). The same TeX always
    gives the same MathML, so a formula met again is not converted again."""
    if len(tex) > MAX_TEX:
        return "", f"longer than {MAX_TEX:,} characters"
    # Imported here: loading latex2mathml takes a tenth of a second, which a site
    # without math should not pay in every process.
    from latex2mathml.converter import convert_to_element
    try:
        element = convert_to_element(tex, display="block" if display else "inline")
    except RecursionError:
        return "", "nests too deeply to convert"
    except Exception as error:  # noqa: BLE001 - latex2mathml raises many kinds on bad TeX
        return "", (type(error).__name__ if not str(error) else str(error)).strip()
    unknown = [text for node in element.iter() for text in _COMMAND.findall(node.text or "")]
    if unknown:
        return "", f"unknown command {unknown[0]}"
    return write_math(element, tex, display), ""


def write_math(element: etree.Element, tex: str, display: bool) -> str:
    """`<math>` with the presentation and its TeX side by side in `<semantics>`."""
    inner = "".join(write_element(child) for child in element)
    if len(element) != 1:
        inner = f"<mrow>{inner}</mrow>"
    shown = ' display="block"' if display else ""
    return (f'<math{shown}><semantics>{inner}<annotation encoding="{TEX}">'
            f"{html.escape(tex, quote=False)}</annotation></semantics></math>")


def write_element(element: etree.Element) -> str:
    """An element as HTML: text escaped except latex2mathml's character references."""
    attrs = "".join(f' {name}="{html.escape(value)}"' for name, value in element.items()
                    if name not in _DROPPED)
    inner = escape_text(element.text) + "".join(write_element(child) for child in element)
    return f"<{element.tag}{attrs}>{inner}</{element.tag}>" + escape_text(element.tail)


def escape_text(text: str | None) -> str:
    if not text:
        return ""
    return _CHAR_REF.sub("&amp;", text).replace("<", "&lt;").replace(">", "&gt;")


def math_to_tex(fragment: str) -> str:
    """An HTML fragment with each `<math>` replaced by its TeX (still escaped), for the
    plain-text forms of a text."""
    if "<math" not in fragment:
        return fragment
    return _MATH.sub(show_tex, fragment)


def show_tex(found: re.Match) -> str:
    """A formula as its TeX between the dollars a writer would type."""
    mark = "$$" if found.group().startswith('<math display="block"') else "$"
    return mark + " ".join(_ANNOTATION.findall(found.group())) + mark
