"""The plain-prose fast path gives exactly Python-Markdown's HTML, or steps aside."""

from __future__ import annotations

import functools
import html
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import markdown

from markdown.extensions import toc

from scholarsite.reading.collections import make_item_markdown
from scholarsite.reading.text.mathtex import make_math_extensions
from scholarsite.reading.text.mdconvert import RootLinksExtension, make_heading_id
from scholarsite.reading.text.mdextras import WritingExtension
from scholarsite.reading.text.papers import make_markdown, render_markdown
from scholarsite.reading.text.prose import render_prose
from conftest import examples

CONVERTERS = {"paper": make_markdown(), "item": make_item_markdown()}

# Pieces of text that are prose, and pieces that start Markdown syntax where they stand.
TOKENS = ["word", "Word", "é", "漢字", "x", "1.", "2)", "-", "+", "#", "##", ":", "=", "==",
          "|", "~~~", "^", "a.", "i.", "(a)", '"q"', "'s", "---", "***", "%", "$", "@",
          "http://x.org", "a:b", "*[", "  ", " ", "    ", "!", "?", ",", "C#", "x|y", "a=b",
          ":-", "|-", "&", "&amp;", "<b>", "`", "\u00a0", "\t", "[^1]", "{: #id}", "_x_",
          "*x*", "[a](b)", "\\", ">", "\x02", "\u2028", "[ ]", "[x]", '![a](b "c")',
          # text that the fast path escapes, and its near misses: numbers first in a line,
          # '&', '<' and '>' that are text, entities, tags, autolinks and comments
          "2019", "3D", "10.", "10)", "1.5", "٣", "R&D", "AT&T;", "&#38;", "&#x26;", "&x",
          "&", "; ", "<", "< 3", "p<0.05", "<=", "<-", "a<b", "<a>", "</a>", "<!--", "-->",
          "<http://x.org>", "x>y", "->", "<\n", "&\n"]
lines = st.one_of(st.lists(st.sampled_from(TOKENS), max_size=8).map(" ".join),
                  st.lists(st.sampled_from(TOKENS), max_size=6).map("".join))
documents = st.one_of(st.lists(lines, max_size=6).map("\n".join),
                      st.text(st.sampled_from(list("aZé .,;:!?()\"'-#|=~\n\t*_`[]<>&\\09x/@")),
                              max_size=60))


def markdown_html(text: str, kind: str) -> str:
    md = CONVERTERS[kind].get()
    md.reset()
    return md.convert(text).strip()


@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents, st.sampled_from(sorted(CONVERTERS)))
def test_fast_path_matches_python_markdown(text, kind):
    fast = render_prose(text)
    if fast is not None:
        assert fast == markdown_html(text, kind)
    assert render_markdown(CONVERTERS[kind], text) == markdown_html(text, kind)


@pytest.mark.parametrize("text", [
    "We present Chronus, an end-to-end scheduling system: it meets 2x more deadlines.",
    "First paragraph,\nwrapped over two lines.\n\n(Second) paragraph with \"quotes\" and "
    "it's fine; 100% sure? Yes! C# = 4 ^ 2 | x ~ y.\n",
    "\n\nLeading and trailing blank lines.\n\n\n",
    "Ünïcödé, 漢字 and emoji 🎉 are prose too.",
    "R&D gains of 3x (p<0.05, n = 12 & x > y);\n2019 saw x <= 4 and AT&T and a->b.",
    "A sentence added in an editor, one space left after it. \nThe text that was there.\n\n"
    "One more at a paragraph's end. ",
])
def test_prose_takes_the_fast_path(text):
    fast = render_prose(text)
    assert fast is not None and fast.startswith("<p>")
    assert fast == markdown_html(text, "paper") == markdown_html(text, "item")


@pytest.mark.parametrize("text", [
    "Uses *emphasis*.", "A `code` span.", "A [link](https://example.org).",
    "# Heading", "Text\n===", "- a list", "1. a list", "> quote", "    code",
    "Line break  \nhere", "Term\n: definition", "a\tb", "x\n   \ny", "<b>bold</b>",
    "AT&T; here", "&amp; kept", "&#38; kept", "a <b", "<https://example.org>", "x <!-- y -->",
    "x\n2. item", "1) item", "a\n> quote",
])
def test_markdown_syntax_is_left_to_python_markdown(text):
    assert render_prose(text) is None


EVERY_EXTENSION = """\
Title {: #intro .lead }
=====

Term
:   Its definition, with *emphasis* and `code`[^1].

| a | b |
|---|---|
| 1 | 2 |

```python
print("fenced")
```

The HTML spec.

*[HTML]: Hyper Text Markup Language
[^1]: A footnote.

<div markdown="1">*inside* a block</div>

1. one
2. two

* three

![A figure](files/plot.svg "Its caption.")

- [x] a task done
- [ ] a task to do
"""


@functools.lru_cache(maxsize=None)
def make_named(kind: str) -> markdown.Markdown:
    """Plain Python-Markdown with the site's extensions asked for by their names."""
    return markdown.Markdown(extensions=["extra", "sane_lists", "admonition",
                                         *make_math_extensions(), WritingExtension()] + (
        [RootLinksExtension(), toc.TocExtension(slugify=make_heading_id, toc_depth="2-3")]
        if kind == "item" else []), output_format="html")


def assert_converts_as_named(kind: str, source: str) -> None:
    named = make_named(kind)
    named.reset()
    expected = drop_refused_links(drop_lone_backrefs(named.convert(source).strip()))
    assert markdown_html(source, kind) == expected


@pytest.mark.parametrize("kind", sorted(CONVERTERS))
def test_converters_convert_every_extension_as_named(kind):
    assert_converts_as_named(kind, EVERY_EXTENSION)


@pytest.mark.parametrize("kind", sorted(CONVERTERS))
@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow,
          HealthCheck.function_scoped_fixture])
@given(documents)
def test_converters_are_extra_and_sane_lists(kind, text):
    """The extensions, made as objects, convert as their names do."""
    for source in (text, EVERY_EXTENSION + text):
        assert_converts_as_named(kind, source)


def drop_refused_links(page: str) -> str:
    """The page without the addresses the site's Markdown refuses: one holding a control
    character (browsers drop them, so `\\x01javascript:` would run; docs/security.md)."""
    return re.sub(r' href="([^"]*)"', lambda m: "" if any(
        ord(c) < 0x20 or ord(c) == 0x7F for c in html.unescape(m.group(1))) else m.group(),
        page)


def drop_lone_backrefs(page: str) -> str:
    """The page without the links back from footnotes the text never cites: the site's
    Markdown leaves them out (they lead nowhere, a broken link for `check`)."""
    cited = set(re.findall(r'<sup id="(fnref[^"]*)"', page))
    return re.sub(r'<a class="footnote-backref" href="#(fnref[^"]*)"[^>]*>[^<]*</a>',
                  lambda m: m.group() if m.group(1) in cited else "", page)


def test_the_fixture_uses_every_extension():
    html = markdown_html(EVERY_EXTENSION, "paper")
    for mark in ('id="intro"', "<dl>", "<table>", "language-python", "<abbr", 'class="footnote"',
                 "<div>\n<p><em>inside</em>", "<ol>", "<figcaption>Its caption.</figcaption>",
                 '<ul class="task-list">'):
        assert mark in html
