"""Fenced code with a language, highlighted by Pygments when the site is built, with line
numbers when the fence asks for them (```` ```{.python .linenums} ````).

This runs on the HTML Python-Markdown made (`<pre><code class="language-NAME">`), not
inside the converter, so that the converter stays the `extra` set tests/test_prose.py
holds it to. The classes are Pygments' short ones; templates/assets/code.css colours them.
A language Pygments does not know leaves the block plain, and is reported.
"""

from __future__ import annotations

import html
import re
from functools import lru_cache
from typing import Callable

_BLOCK = re.compile(r'<pre( class="linenums")?><code class="language-([^"\s]+)">(.*?)</code></pre>',
                    re.DOTALL)
# Some lexers' patterns slow down on long hostile text: longer blocks are left plain.
MAX_CODE = 50_000


def highlight_code(fragment: str, text: str,
                   report: Callable[[int, str], None] | None = None) -> str:
    """`fragment` with each fenced block of a known language highlighted; `report(line,
    message)` is told of each unknown language, at its fence's line in `text`."""
    if '<code class="language-' not in fragment:
        return fragment

    def replace(found: re.Match) -> str:
        numbered, language, code = found.groups()
        if find_lexer(language) is None:
            if report is not None:
                report(find_fence(text, language),
                       f"no highlighting known for the language {language!r} of this code "
                       "block: it is shown plain (Pygments' short names: python, bash, ...)")
            return found.group()
        if len(code) > MAX_CODE:
            return found.group()
        spans = highlight_spans(html.unescape(code), find_lexer(language))
        if numbered:
            spans = number_lines(spans)
        # Focusable, since a long line scrolls it; copy.js gives it a "Copy code" button.
        return (f'<pre class="highlight{" linenums" if numbered else ""}" data-copy="code" '
                f'tabindex="0"><code class="language-{language}">{spans}</code></pre>')
    return _BLOCK.sub(replace, fragment)


# Pygments is imported where it is used: loading its lexer table takes a tenth of a
# second, which a site without code should not pay in every process.
@lru_cache(maxsize=256)
def find_lexer(language: str):
    from pygments.lexers import get_lexer_by_name
    from pygments.util import ClassNotFound
    try:
        return get_lexer_by_name(html.unescape(language))
    except ClassNotFound:
        return None


def highlight_spans(code: str, lexer) -> str:
    """The code as Pygments' `<span class="...">`s, with no wrapping element."""
    from pygments import highlight
    from pygments.formatters import HtmlFormatter
    return highlight(code, lexer, HtmlFormatter(nowrap=True))


def number_lines(spans: str) -> str:
    """Each line of highlighted code led by its number, which screen readers skip and the
    copy button leaves out. Pygments closes its spans at each line's end, so a line is a
    whole piece of markup."""
    lines = spans.split("\n")
    last = lines.pop() if lines and lines[-1] == "" else None
    numbered = [f'<span class="ln" aria-hidden="true">{i}</span>{line}'
                for i, line in enumerate(lines, 1)]
    return "\n".join(numbered) + ("\n" if last is not None else "")


def find_fence(text: str, language: str) -> int:
    """The line (1 for the first) of the fence that names `language`."""
    name = re.escape(html.unescape(language))
    found = re.search(r"^[ \t]*(?:`{3,}|~{3,})[ \t]*(?:\{[^\n]*?)?\.?" + name, text,
                      re.MULTILINE)
    return text.count("\n", 0, found.start()) + 1 if found else 1
