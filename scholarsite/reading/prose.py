"""A fast path for Markdown that is only prose: paragraphs of plain text.

Most abstracts and bios are just that, and Python-Markdown takes about a millisecond to say
so (it runs every block and inline pattern of the `extra` extensions over the text). For
text that provably uses no Markdown syntax, the HTML is simply each paragraph in `<p>`:

- no character that starts any inline syntax (emphasis, code, links, images, escapes,
  HTML, entities, footnotes, attribute lists, tables, abbreviations);
- every line starts with a letter or an opening bracket or quote, so no line can be a
  heading, list, quote, code block, fence, rule, setext underline or definition;
- no trailing spaces (two would be a line break), no tabs or control characters, and
  blank lines that are empty (four spaces can open a code block).

Anything else goes to Python-Markdown. tests/test_prose.py checks, over generated text,
that whenever this function answers, Python-Markdown gives the same HTML.
"""

from __future__ import annotations

import re

# Characters that can start Markdown syntax anywhere in a line (with the `extra` set).
_INLINE = re.compile(r"[\\`*_\[\]{}<>&]")
_FIRST = re.compile(r"[^\W\d_]|[(\"']")  # a letter, or an opening bracket or quote


def render_prose(text: str) -> str | None:
    """The HTML of plain-prose `text`, exactly as Python-Markdown gives it; None when the
    text may use Markdown syntax."""
    if _INLINE.search(text):
        return None
    paragraphs: list[str] = []
    lines: list[str] = []
    for line in text.split("\n"):
        if not line:
            if lines:
                paragraphs.append("<p>" + "\n".join(lines) + "</p>")
                lines = []
            continue
        if not line.isprintable() or line[-1] == " " or not _FIRST.match(line):
            return None
        lines.append(line)
    if lines:
        paragraphs.append("<p>" + "\n".join(lines) + "</p>")
    return "\n".join(paragraphs)
