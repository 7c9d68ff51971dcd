"""Where outside text becomes model text: one cleaner for every route it takes.

A content file's text (Markdown, front matter, BibTeX, site.yaml, citations.yaml, the
CV, whether a person, `migrate` or `update` wrote it) is cleaned once as it is decoded
(yamlread.decode_text), and a YAML value once more after its escapes are read
(`"\\x01"`, `"\\0"`, `"\\uFFFE"` are characters no file holds raw): both through
`clean_text`. What it removes is no text: control characters but tab and line ends,
which no XML feed may hold and browsers drop inside links, surrogates, and Unicode's
noncharacters (U+FFFE, U+FDD0...), which XML forbids too. Each removal is a warning at
its line, so the page never differs silently from the file.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import yaml

# C0 controls but tab, line feed and carriage return; DEL and the C1 controls; lone
# surrogates (a YAML "\ud800"); the noncharacters U+FDD0..U+FDEF and the last two code
# points of every plane.
_NONCHARACTERS = "".join(f"{chr(plane * 0x10000 + 0xFFFE)}{chr(plane * 0x10000 + 0xFFFF)}"
                         for plane in range(17))
UNTEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef"
                    f"{_NONCHARACTERS}]")
# The same for text that is all ASCII, where only the C0 controls and DEL can be found:
# searched about six times faster than the whole class (2% of a cold build's processor time).
ASCII_UNTEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def untext_pattern(text: str) -> re.Pattern[str]:
    """UNTEXT, or the narrower pattern that finds the same in an ASCII text."""
    return ASCII_UNTEXT if text.isascii() else UNTEXT


def clean_text(text: str) -> tuple[str, int, str]:
    """`text` without the characters that are no text, how many were removed, and the
    first of them ('' when none)."""
    pattern = untext_pattern(text)
    found = pattern.search(text)
    if found is None:
        return text, 0, ""
    cleaned, count = pattern.subn("", text)
    return cleaned, count, found.group()


def describe_removed(count: int, first: str) -> str:
    """The warning's message for `count` characters removed, `first` the first."""
    return (f"{count} control character(s) removed, the first U+{ord(first):04X}: they "
            "are not text, and no page or feed can hold them")


def clean_yaml(root: yaml.Node | None, text: str) -> tuple[int, str, int]:
    """Clean every scalar of a composed YAML document in place, before it is built into
    data (keys too): (characters removed, the first, the 0-based line of its scalar in
    the document). Only a document that may hold such a character (an escape, or one
    written raw) is walked."""
    if root is None or ("\\" not in text and untext_pattern(text).search(text) is None):
        return 0, "", 0
    total, first, line = 0, "", 0
    for node in walk_scalars(root):
        if isinstance(node.value, str):
            node.value, count, char = clean_text(node.value)
            if count and not first:
                first, line = char, node.start_mark.line
            total += count
    return total, first, line


def walk_scalars(root: yaml.Node | None) -> Iterator[yaml.ScalarNode]:
    """The scalars of a composed YAML document (keys too), in document order, each node
    once, without recursion: the document may be aliased or nested deep."""
    stack = [root] if root is not None else []
    seen: set[int] = set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.ScalarNode):
            yield node
        elif isinstance(node, yaml.MappingNode):
            stack.extend(n for pair in reversed(node.value) for n in reversed(pair))
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(reversed(node.value))


# --- HTML written into a field -------------------------------------------------------------
# Old sites write titles, names and venues with HTML in them (`<i>Arabidopsis</i>`,
# `<b>Ann Lee</b>`, `EMC<sup>2</sup>`, `<a href=...>Bo Chan</a>`). A field is text, never
# trusted as HTML: the inline subset that means something in a title (italics, bold, sub-
# and superscripts) is kept as marks, which a page shows as its own tags, a plain text drops
# and an export writes in its own markup; every other tag of HTML's inline and block
# elements is dropped, its text kept. Anything else with angle brackets ('a <b> c' is
# there, but 'x<y' or '<script>' is not an element of this set) stays text.

# The kept tags, each as the HTML element a page shows.
SAFE_INLINE = {"i": "em", "em": "em", "cite": "em", "var": "em", "b": "strong",
               "strong": "strong", "sup": "sup", "sub": "sub"}
_DROPPED = ("a|abbr|big|br|code|del|div|font|ins|kbd|mark|p|q|s|samp|small|span|strike|tt|"
            "u|wbr")
_ATTRIBUTES = r"""(?:\s+[\w:-]+(?:\s*=\s*(?:"[^"<>]*"|'[^'<>]*'|[^\s"'<>=]+))?)*\s*/?"""
_HTML_TAG = re.compile(rf"<(/?)({'|'.join(SAFE_INLINE)}|{_DROPPED})({_ATTRIBUTES})>", re.I)
# One character opens and the next closes each kept element while the text around it is
# decoded (LaTeX, math, escaping): they pass through all of that unchanged. They are
# noncharacters (U+FDE0-U+FDE7), which UNTEXT removes from every text read, so no input
# can hold one: a private-use character (an icon font's) is text, and stays text.
INLINE_MARKS = {element: (chr(0xFDE0 + 2 * n), chr(0xFDE1 + 2 * n))
                for n, element in enumerate(("em", "strong", "sup", "sub"))}
INLINE_MARK = re.compile("[\ufde0-\ufde7]")
_MARK_HTML = {mark: f"<{'/' if n else ''}{element}>"
              for element, pair in INLINE_MARKS.items() for n, mark in enumerate(pair)}
_LINE_BREAK = {"br", "p", "div"}


def mark_inline_html(text: str) -> str:
    """`text` with its HTML tags read: each kept element that is closed again as marks
    (INLINE_MARKS), every other tag dropped (a line break or a paragraph a space)."""
    if "<" not in text or not _HTML_TAG.search(text):
        return text
    pieces: list[str] = []
    opened: list[tuple[str, int]] = []  # (element, index of its opening piece)
    at = 0
    for tag in _HTML_TAG.finditer(text):
        pieces.append(text[at:tag.start()])
        at = tag.end()
        name = tag.group(2).lower()
        element = SAFE_INLINE.get(name)
        if element is None:
            pieces.append(" " if name in _LINE_BREAK else "")
        elif not tag.group(1):
            opened.append((element, len(pieces)))
            pieces.append(INLINE_MARKS[element][0])
        elif any(e == element for e, _ in opened):
            while opened:  # an element left open inside it ends with it
                inner, index = opened.pop()
                if inner == element:
                    pieces.append(INLINE_MARKS[element][1])
                    break
                pieces[index] = ""
    pieces.append(text[at:])
    for _, index in opened:  # never closed: no mark
        pieces[index] = ""
    return "".join(pieces)


def strip_inline_html(text: str) -> str:
    """`text` without the HTML tags mark_inline_html reads, as plain text shows it."""
    if "<" not in text:
        return text
    return _HTML_TAG.sub(lambda m: " " if m.group(2).lower() in _LINE_BREAK else "", text)


def drop_inline_marks(text: str) -> str:
    return INLINE_MARK.sub("", text)


def show_inline_marks(escaped: str) -> str:
    """Escaped HTML with its marks as the elements they stand for."""
    return INLINE_MARK.sub(lambda m: _MARK_HTML[m.group()], escaped)


def has_inline_marks(text: str) -> bool:
    return INLINE_MARK.search(text) is not None
