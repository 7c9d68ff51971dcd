"""A fast path for Markdown that is only prose: paragraphs of plain text.

Most abstracts and bios are just that, and Python-Markdown takes about a millisecond to say
so (it runs every block and inline pattern of the `extra` extensions over the text). For
text that provably uses no Markdown syntax, the HTML is simply each paragraph in `<p>`:

- no character that starts any inline syntax (emphasis, code, links, images, escapes,
  HTML, footnotes, attribute lists, tables, abbreviations, math);
- '&', '<' and '>' only where they are text, which Python-Markdown escapes: an '&' that
  starts no entity ('R&D', not '&amp;' or '&#38;'), a '<' before a space, a digit or
  '=' ('x < 3', 'p<0.05'), and a '>' anywhere but first in a line ('a > b');
- every line starts with a letter, an opening bracket or quote, or a number not followed
  by '.' or ')' ('2019 saw', not '1. item'), so no line can be a heading, list, quote,
  code block, fence, rule, setext underline or definition;
- no two trailing spaces (a line break; Python-Markdown keeps one space as it is, and
  editors leave one after a sentence), no tabs or control characters, and blank lines
  that are empty (four spaces can open a code block).

Anything else goes to Python-Markdown. tests/test_prose.py checks, over generated text,
that whenever this function answers, Python-Markdown gives the same HTML.

Before that, `find_costly_markdown` looks for the few shapes of text Python-Markdown reads
in quadratic time or by deep recursion: a line of 20,000 '[' took two and a half minutes,
a list nested 400 deep exceeded Python's recursion limit. Each measure below estimates, in
one pass, what Python-Markdown would read; the limits are far above what prose needs and
keep the worst text that passes each under a second. Such text is an error at its line.
"""

from __future__ import annotations

import re

# Characters that can start Markdown syntax anywhere in a line (with the `extra` set),
# but '&', '<' and '>' where they are only text (_TEXT_MARKS): an '&' starting no entity,
# a '<' before a space, a digit or '='.
_INLINE = re.compile(r"[\\`*_\[\]{}$]|&(?:#|[A-Za-z0-9]+;)|<(?![\s\d=])")  # '$': math
# The first characters of _INLINE's matches: a text holding none of them (most abstracts)
# is told apart by ten scans in C, forty times faster than by the pattern (its branches are
# tried at every character).
_INLINE_FIRST = "\\`*_[]{}$&<"
# A letter, an opening bracket or quote, or a number that is no list item's ('1.', '2)').
_FIRST = re.compile(r"[^\W\d_]|[(\"']|\d+(?![\d.)])")
_TEXT_MARKS = {ord("&"): "&amp;", ord("<"): "&lt;", ord(">"): "&gt;"}


def render_prose(text: str) -> str | None:
    """The HTML of plain-prose `text`, exactly as Python-Markdown gives it; None when the
    text may use Markdown syntax."""
    if any(char in text for char in _INLINE_FIRST) and _INLINE.search(text):
        return None
    paragraphs: list[str] = []
    lines: list[str] = []
    for line in text.split("\n"):
        if not line:
            if lines:
                paragraphs.append("<p>" + "\n".join(lines) + "</p>")
                lines = []
            continue
        if not line.isprintable() or line.endswith("  ") or not _FIRST.match(line):
            return None
        lines.append(line.translate(_TEXT_MARKS))
    if lines:
        paragraphs.append("<p>" + "\n".join(lines) + "</p>")
    return "\n".join(paragraphs)


# How deep lists, quotes, definitions and `markdown` HTML blocks may nest: Python-Markdown
# recurses a few frames a level and reads the deeper lines again at each one.
MAX_NESTING = 32
# Blocks, list items and table rows: about 0.1 ms each, and more as there are more (the
# blocks still to read are kept in a list that each step inserts at the front of).
MAX_UNITS = 10_000
# A block's length times the headings, rules and abbreviations in it: the block parser
# takes those a line at a time, searching the rest of the block after each.
MAX_BLOCK_SCAN = 8_000_000
# Characters the link reader scans, in Python: from each '[' to its ']' (or the end of the
# text read inline with it), from each '](' to its ')'. About a microsecond each.
MAX_LINK_SCAN = 1_000_000
# Characters the HTML reader scans: from each '<' and a letter to the next '>' (a tag's end).
MAX_TAG_SCAN = 8_000_000
# A piece of inline text's length times the characters in it that can start inline syntax:
# each match copies the whole piece. About a nanosecond each.
MAX_INLINE_SCAN = 1_000_000_000
# Characters the math reader (arithmatex) scans from each '\(' with no '\)' after it in its
# piece of text, to the piece's end: about 80 ns each.
MAX_MATH_SCAN = 10_000_000
# Footnote marks ('[^'): each reference to a footnote is compared with all the earlier ones.
MAX_FOOTNOTES = 500
# With abbreviations defined, each element is found among its siblings again: the squares
# of the number of blocks, items and rows, and of the elements in each (about 30 ns each).
MAX_ABBR_SCAN = 30_000_000

_BLANK_LINES = re.compile(r"\n(?:[ \t]*\n)+")
_ITEM = re.compile(r"^[ \t]*(?:[*+-]|\d{1,9}[.)])[ \t]", re.MULTILINE)
_DEEP_LINE = re.compile(r"^[ \t>*+\-0-9.)]{%d,}" % (MAX_NESTING + 1), re.MULTILINE)
_CONTAINERS = re.compile(r"[ \t]*(?:(?:>|[*+-](?=[ \t])|\d{1,9}[.)](?=[ \t]))[ \t]*)*")
_MARKER = re.compile(r">|[*+-](?=[ \t])|\d{1,9}[.)](?=[ \t])")
_RULE = re.compile(r" {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$", re.MULTILINE)
_MARKDOWN_ATTR = re.compile(r"<[A-Za-z][^<>]*\smarkdown\b", re.IGNORECASE)
_HTML_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9-]*)[^<>]*?(/?)>")
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
         "source", "track", "wbr"}
_DEFINITION = re.compile(r"^ {0,3}:[ \t]", re.MULTILINE)
_LINE_STEP = re.compile(r"^(?:[ \t]*>)*[ \t]*(?:#|\*\[|!!!|=+[ \t]*$|-+[ \t]*$|"
                        r"([-*_])[ \t]*(?:\1[ \t]*){2,}$)", re.MULTILINE)
_BRACKET = re.compile(r"\\.|[\[\]]", re.DOTALL)
_PAREN = re.compile(r"\\.|[()]", re.DOTALL)
_TAG_EDGE = re.compile(r"<[A-Za-z]|>")
_INLINE_STARTS = "*_`\\&<[$"
_ABBREVIATION = re.compile(r"^[ \t]*\*\[", re.MULTILINE)

Spans = list[tuple[int, int]]  # (start, end) offsets in the text
Found = tuple[int, str] | None  # (offset, message)


def find_costly_markdown(text: str) -> tuple[int, str] | None:
    """(line, message) when Python-Markdown would take too long over `text` or nest too
    deeply to read it, at the line (1 for the first) where that starts; else None."""
    blocks = list_blocks(text)
    units = list_units(text, blocks)
    for check in (check_units, check_nesting, check_html_nesting, check_definitions,
                  check_steps, check_links, check_tags, check_inline, check_math,
                  check_footnotes, check_abbreviations):
        found = check(text, blocks, units)
        if found is not None:
            offset, message = found
            return text.count("\n", 0, offset) + 1, message
    return None


def list_blocks(text: str) -> Spans:
    """Each block: the text between blank lines."""
    blocks, start = [], 0
    for gap in _BLANK_LINES.finditer(text):
        blocks.append((start, gap.start()))
        start = gap.end()
    blocks.append((start, len(text)))
    return blocks


def list_units(text: str, blocks: Spans) -> Spans:
    """The pieces Python-Markdown reads inline as one: a block, or each item of a block
    that starts a list, or each line of a table."""
    units = []
    for start, end in blocks:
        if _ITEM.match(text, start):
            cuts = [item.start() for item in _ITEM.finditer(text, start, end)]
        elif is_table(text, start, end):
            cuts = [start] + [at + 1 for at in find_all(text, "\n", start, end)]
        else:
            cuts = [start]
        units.extend(zip(cuts, cuts[1:] + [end]))
    return units


def is_table(text: str, start: int, end: int) -> bool:
    """Whether the block's second line is a table's rule, such as `|---|:--:|`."""
    first = text.find("\n", start, end)
    if first < 0:
        return False
    second = text.find("\n", first + 1, end)
    row = text[first + 1:end if second < 0 else second]
    return "|" in row and "-" in row and not row.strip(" \t|:-")


def find_all(text: str, char: str, start: int, end: int):
    at = text.find(char, start, end)
    while at >= 0:
        yield at
        at = text.find(char, at + 1, end)


def check_units(text: str, blocks: Spans, units: Spans) -> Found:
    if len(units) <= MAX_UNITS:
        return None
    return units[MAX_UNITS][0], (f"more than {MAX_UNITS:,} paragraphs, list items and table "
                                 "rows in one text: Markdown would take too long to read "
                                 "them all; split the text into several pages")


def check_nesting(text: str, blocks: Spans, units: Spans) -> Found:
    """A line whose quote and list markers and indentation nest too deep. A level takes
    at least one character, so only lines that start with more than the limit are read."""
    for line in _DEEP_LINE.finditer(text):
        prefix = _CONTAINERS.match(text, line.start()).group()
        markers = len(_MARKER.findall(prefix))
        columns = prefix.count(" ") + 4 * prefix.count("\t") - markers  # not a marker's space
        depth = markers + max(columns, 0) // 4
        if depth > MAX_NESTING and not _RULE.match(text, line.start()):
            return line.start(), (f"lists, quotes or indented blocks nest {depth} deep here; "
                                  f"Markdown reads at most {MAX_NESTING} levels: flatten them")
    return None


def check_html_nesting(text: str, blocks: Spans, units: Spans) -> Found:
    """HTML elements nested too deep where Markdown is read inside HTML (the `markdown`
    attribute): Python-Markdown recurses into each element there."""
    if not _MARKDOWN_ATTR.search(text):
        return None
    depth = 0
    for tag in _HTML_TAG.finditer(text):
        closing, name, empty = tag.groups()
        if closing:
            depth = max(depth - 1, 0)
        elif not empty and name.lower() not in _VOID:
            depth += 1
            if depth > MAX_NESTING:
                return tag.start(), (f"HTML elements nest more than {MAX_NESTING} deep here, "
                                     "in a text that has Markdown inside HTML (markdown=\"1\"), "
                                     "which Markdown cannot read: flatten them")
    return None


def check_definitions(text: str, blocks: Spans, units: Spans) -> Found:
    """Definitions (': ...') in one block: Python-Markdown nests each in the one before."""
    if len(_DEFINITION.findall(text)) <= MAX_NESTING:
        return None
    for start, end in blocks:
        count = len(_DEFINITION.findall(text, start, end))
        if count > MAX_NESTING:
            return start, (f"{count} definitions (lines starting ': ') in one paragraph: "
                           "Markdown nests each inside the one before, and reads at most "
                           f"{MAX_NESTING} levels; put a blank line before each term")
    return None


def check_steps(text: str, blocks: Spans, units: Spans) -> Found:
    """Headings, rules, setext underlines, abbreviations and admonitions ('!!! note')
    packed in one block (in a quote too): the block parser takes them a line at a time,
    and tests the rest of the block again after each."""
    if len(text) ** 2 <= MAX_BLOCK_SCAN:
        return None
    for start, end in blocks:
        steps = len(_LINE_STEP.findall(text, start, end))
        if steps * (end - start) > MAX_BLOCK_SCAN:
            return start, (f"{steps} headings, rules or abbreviations (or '!!!' admonitions) "
                           f"in one paragraph of {text.count(chr(10), start, end) + 1} lines: "
                           "Markdown reads the "
                           "rest of the paragraph again after each, which would take too "
                           "long; put blank lines between them")
    return None


def check_links(text: str, blocks: Spans, units: Spans) -> Found:
    """Brackets that send the link reader scanning far, too many times: from each '[' to
    its ']' (or the end of its piece) and from each '](' to its ')'."""
    if len(text) ** 2 <= MAX_LINK_SCAN or "[" not in text:
        return None
    scanned = 0
    for start, end in units:
        opened: list[int] = []
        targets: list[int] = []
        for mark in _BRACKET.finditer(text, start, end):
            if mark.group() == "[":
                opened.append(mark.start())
            elif mark.group() == "]" and opened:
                scanned += mark.start() - opened.pop()
                if text.startswith("(", mark.end()):
                    targets.append(mark.end())
        scanned += sum(end - at for at in opened)
        if scanned > MAX_LINK_SCAN and opened:
            return opened[0], (f"{len(opened)} '[' with no ']' from here to the paragraph's "
                               "end: Markdown reads the rest of the paragraph again for each, "
                               "which would take too long; close them, or write \\[ for a "
                               "bracket that is only text")
        scanned += scan_targets(text, targets, end, MAX_LINK_SCAN - scanned)
        if scanned > MAX_LINK_SCAN:
            return (targets or [start])[0], (
                "the links and brackets of this paragraph nest or stay open so much that "
                "Markdown would take too long to read them: close each '[' with ']' and "
                "each '(' with ')', or write \\[ and \\( for ones that are only text")
    return None


def scan_targets(text: str, targets: list[int], end: int, budget: int) -> int:
    """What the link reader scans from each '(' at `targets` to its ')': to the end when
    there is none, or when a quote opened in it (a title) is not closed just before it.
    Stops counting past `budget`."""
    if not targets:
        return 0
    closes, opened = {}, []
    for mark in _PAREN.finditer(text, targets[0], end):
        if mark.group() == "(":
            opened.append(mark.start())
        elif mark.group() == ")" and opened:
            closes[opened.pop()] = mark.start()
    scanned = 0
    for at in targets:
        close = closes.get(at, end)
        inside = text[at:close]
        if ('"' in inside or "'" in inside) and not inside.rstrip().endswith(("'", '"')):
            close = end
        scanned += close - at
        if scanned > budget:
            break
    return scanned


def check_tags(text: str, blocks: Spans, units: Spans) -> Found:
    """'<' and a letter open a tag to the HTML reader, which scans on to the next '>'; a
    '<' that is text sends it to the end of the text, and many of them take too long."""
    if len(text) ** 2 <= MAX_TAG_SCAN or "<" not in text:
        return None
    scanned = waiting = waiting_sum = first = 0
    for edge in _TAG_EDGE.finditer(text):
        if edge.group() == ">":
            scanned += waiting * edge.start() - waiting_sum
            waiting = waiting_sum = 0
            if scanned > MAX_TAG_SCAN:
                break
        else:
            first = first if waiting else edge.start()
            waiting += 1
            waiting_sum += edge.start()
    scanned += waiting * len(text) - waiting_sum
    if scanned <= MAX_TAG_SCAN:
        return None
    return first, ("too many '<' from here look like the start of an HTML tag with no '>' "
                   "to end it: the HTML reader scans on from each, which would take too long; "
                   "write &lt; for a '<' that is only text")


def count_marks(text: str, start: int, end: int) -> int:
    """The characters in text[start:end] that can start inline syntax."""
    return sum(text.count(char, start, end) for char in _INLINE_STARTS)


def check_inline(text: str, blocks: Spans, units: Spans) -> Found:
    """A long piece of inline text dense with syntax: Python-Markdown copies the whole
    piece for each emphasis, code span, escape, entity, tag or link it finds."""
    if len(text) ** 2 <= MAX_INLINE_SCAN:
        return None
    for start, end in units:
        marks = count_marks(text, start, end)
        if marks * (end - start) > MAX_INLINE_SCAN:
            return start, (f"this paragraph is {end - start:,} characters long with {marks:,} "
                           "'*', '_', '`', '\\', '&', '<', '[' and '$' in it: Markdown copies the "
                           "paragraph for each, which would take too long; break it into "
                           "shorter paragraphs with blank lines")
    return None


def check_math(text: str, blocks: Spans, units: Spans) -> Found:
    r"""'\(' opens inline math, and the math reader scans on from each to the next '\)':
    after the last one, each '\(' is scanned to the end of its piece of text."""
    if len(text) ** 2 <= MAX_MATH_SCAN or "\\(" not in text:
        return None
    scanned = 0
    for start, end in units:
        last = text.rfind("\\)", start, end)
        opened = list(find_all(text, "\\(", max(last, start), end))
        scanned += sum(end - at for at in opened)
        if scanned > MAX_MATH_SCAN:
            return opened[0], ("too many '\\(' from here open math with no '\\)' to end it: "
                               "the math reader scans on from each, which would take too "
                               "long; close them, or write \\\\( for one that is only text")
    return None


def check_footnotes(text: str, blocks: Spans, units: Spans) -> Found:
    if text.count("[^") <= MAX_FOOTNOTES:
        return None
    at = -1
    for _ in range(MAX_FOOTNOTES + 1):
        at = text.find("[^", at + 1)
    return at, (f"more than {MAX_FOOTNOTES} footnote marks ('[^') in one text: Markdown "
                "compares each with all the ones before, which would take too long; "
                "use fewer footnotes, or write \\[^ for one that is only text")


def check_abbreviations(text: str, blocks: Spans, units: Spans) -> Found:
    """With abbreviations defined ('*[HTML]: ...'), Python-Markdown finds each element
    among its siblings again: time in the square of the blocks, items and rows, and of
    the elements in each."""
    definition = _ABBREVIATION.search(text)
    if definition is None or len(units) ** 2 + (len(text) // 2) ** 2 <= MAX_ABBR_SCAN:
        return None
    # most marks come in pairs: *a*, `a`, <b>...</b>
    cost = len(units) ** 2 + sum((count_marks(text, *unit) // 2) ** 2 for unit in units)
    if cost <= MAX_ABBR_SCAN:
        return None
    return definition.start(), ("this text defines abbreviations (from here) and has so many "
                                "paragraphs, list items, rows or marked-up words that Markdown "
                                "would take too long to place them; write the abbreviations "
                                "out, or split the text")
