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

import yaml

# C0 controls but tab, line feed and carriage return; DEL and the C1 controls; lone
# surrogates (a YAML "\ud800"); the noncharacters U+FDD0..U+FDEF and the last two code
# points of every plane.
_NONCHARACTERS = "".join(f"{chr(plane * 0x10000 + 0xFFFE)}{chr(plane * 0x10000 + 0xFFFF)}"
                         for plane in range(17))
UNTEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef"
                    f"{_NONCHARACTERS}]")


def clean_text(text: str) -> tuple[str, int, str]:
    """`text` without the characters that are no text, how many were removed, and the
    first of them ('' when none)."""
    found = UNTEXT.search(text)
    if found is None:
        return text, 0, ""
    cleaned, count = UNTEXT.subn("", text)
    return cleaned, count, found.group()


def describe_removed(count: int, first: str) -> str:
    """The warning's message for `count` characters removed, `first` the first."""
    return (f"{count} control character(s) removed, the first U+{ord(first):04X}: they "
            "are not text, and no page or feed can hold them")


def clean_yaml(root: yaml.Node | None, text: str) -> tuple[int, str, int]:
    """Clean every scalar of a composed YAML document in place, before it is built into
    data (keys too): (characters removed, the first, the 0-based line of its scalar in
    the document). Only a document that may hold such a character (an escape, or one
    written raw) is walked, each node once: it may be aliased or nested deep."""
    if root is None or ("\\" not in text and UNTEXT.search(text) is None):
        return 0, "", 0
    total, first, line = 0, "", 0
    stack, seen = [root], set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.ScalarNode):
            if isinstance(node.value, str):
                node.value, count, char = clean_text(node.value)
                if count and not first:
                    first, line = char, node.start_mark.line
                total += count
        elif isinstance(node, yaml.MappingNode):
            stack.extend(n for pair in reversed(node.value) for n in reversed(pair))
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(reversed(node.value))
    return total, first, line
