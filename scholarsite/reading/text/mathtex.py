"""TeX math in Markdown, rendered to MathML when the site is built: no script, no request.

pymdown-extensions' `arithmatex` finds the math ($...$, \\(...\\), $$...$$, \\[...\\],
\\begin{env}...\\end{env}) before Markdown reads emphasis or escapes in it, and leaves each
span as a tagged element holding its TeX. `MathToMathML` then turns each into MathML
(mathml.py). What latex2mathml cannot convert is shown as its TeX in `<code>`, and kept
in `md.math_problems` for the caller to report at its line. Imported only with the
Markdown converter (mdconvert.py).
"""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as etree

import markdown
from markdown.extensions import Extension
from markdown.inlinepatterns import InlineProcessor
from markdown.treeprocessors import Treeprocessor
from pymdownx.arithmatex import ArithmatexExtension

from .mathml import render_mathml

# $$...$$ inside a paragraph, which arithmatex takes only as a block of its own; like its
# '$', it stops at the next '$', so each is read once.
_INLINE_DISPLAY = r"(?<!\\)\$\$(?!\s)((?:\\.|[^\\$])+?)(?<!\s)\$\$"
# \[...\] inside a paragraph (arithmatex takes it only as a block of its own too), read
# before Markdown's escapes would make it "[...]": up to the first \] after it. Markdown
# writes a literal bracket as \[ too ("\[1\]", "\[link\](x)"): only what holds TeX (a
# command, ^, _, =, a brace) and is no link text is taken as math.
_INLINE_SQUARE = (r"(?<!\\)\\\[(?=(?:(?!\\\]).)*?(?:\\(?!\])|[\^_={]))"
                  r"((?:(?!\\\]).)+?)\\\](?!\()")


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
    """$$...$$ or \\[...\\] within a paragraph: display math, in a span shown as a block."""

    def handleMatch(self, m: re.Match, data: str):  # noqa: N802 - Markdown's API
        element = etree.Element("span", {"class": "arithmatex", "data-display": ""})
        element.text = markdown.util.AtomicString(m.group(1))
        return element, m.start(0), m.end(0)


class MathToMathMLExtension(Extension):
    def extendMarkdown(self, md: markdown.Markdown) -> None:  # noqa: N802 - Markdown's API
        md.math_problems = []
        md.inlinePatterns.register(InlineDisplayMath(_INLINE_DISPLAY, md),
                                   "scholarsite_display_math", 189.95)  # before arithmatex
        md.inlinePatterns.register(InlineDisplayMath(_INLINE_SQUARE, md),
                                   "scholarsite_square_math", 189.9)  # before the escapes
        # Python-Markdown counts <math> as a block, and would take the <p> from a paragraph
        # holding one formula only; MathML is phrasing content in HTML.
        md.block_level_elements = [tag for tag in md.block_level_elements if tag != "math"]
        md.treeprocessors.register(MathToMathML(md), "scholarsite_math", 19)  # after inline
