"""YAML with line numbers: front matter and site.yaml.

PyYAML's composer gives every node its position; we keep the line of each mapping key
so that a validator can say `path:line: error: ...` about the field at fault.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from ...diagnostics import Diagnostics
from ...output.paths import NotRegularFile, open_regular, why_not_read
from ..text.encodings import decode_legacy
from ..text.cleantext import clean_text, clean_yaml, describe_removed, walk_scalars
from .yamlanchors import compose_document
from .yamlhints import explain_yaml_error

try:  # the C loader is several times faster; fall back where libyaml is missing
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - depends on the machine
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]
FastLoader = _Loader  # for a command that reads some tags its own way

FENCE = "---"


@dataclass(frozen=True)
class Located:
    """A parsed YAML document and the line (1-based, in the file) of every key and list item.

    The lines are indexed from the document's nodes the first time one is asked for: most
    documents have no problem to report, and need none."""

    data: object
    node: yaml.Node | None = field(repr=False, compare=False)
    first_line: int  # line of the document's first line in the file
    _lines: dict[tuple, int] = field(default_factory=dict, repr=False, compare=False)

    def line(self, *key) -> int:
        """The line of a key path such as ("authors", 2), or of its nearest parent."""
        if self.node is not None and not self._lines:
            self._lines.update(_index_lines(self.node, self.first_line))
        while key:
            if key in self._lines:
                return self._lines[key]
            key = key[:-1]
        return self.first_line


# Content never nests deeper than this (author.links.github); deeper keys get their parent's
# line. The bound also keeps hostile documents (deep nesting, alias bombs) cheap to index.
MAX_INDEX_DEPTH = 4


def _index_lines(root: yaml.Node, offset: int) -> dict[tuple, int]:
    out: dict[tuple, int] = {}
    stack: list[tuple[yaml.Node, tuple]] = [(root, ())]
    while stack:
        node, prefix = stack.pop()
        if len(prefix) >= MAX_INDEX_DEPTH:
            continue
        if isinstance(node, yaml.MappingNode):
            for key_node, value_node in node.value:
                key = key_node.value if isinstance(key_node, yaml.ScalarNode) else None
                path = prefix + (key,)
                if path not in out:
                    out[path] = key_node.start_mark.line + offset
                    stack.append((value_node, path))
        elif isinstance(node, yaml.SequenceNode):
            for i, item in enumerate(node.value):
                path = prefix + (i,)
                out[path] = item.start_mark.line + offset
                stack.append((item, path))
    return out


def parse_yaml(text: str, path: Path, first_line: int, diags: Diagnostics,
               loader_class: type | None = None) -> Located | None:
    """Parse one YAML document that starts at `first_line` of `path`; None after an error.
    Every command's YAML is read here, with the guards against alias bombs and deep
    nesting; `loader_class` (a subclass of `_Loader`) may read some tags its own way."""
    loader = (loader_class or _Loader)(text)
    node = None
    try:
        node = compose_document(loader, text)  # an anchor given twice: the latest
        repeated = find_repeated_keys(node)  # before PyYAML's merge keys change the nodes
        bomb = find_alias_bomb(node, text)
        removed = clean_yaml(node, text) if bomb is None else (0, "", 0)
        data = construct(loader, node) if node is not None and bomb is None else None
    except yaml.MarkedYAMLError as exc:
        hint = explain_yaml_error(exc, text)  # a common mistake: its line and its fix
        line, message = (hint[0] + first_line, hint[1]) if hint \
            else describe_yaml_error(exc, first_line)
        diags.error(path, line, f"YAML syntax error: {message}")
        return None
    except yaml.YAMLError as exc:
        diags.error(path, first_line, f"YAML error: {exc}")
        return None
    except RecursionError:
        diags.error(path, first_line, "the YAML is nested too deeply to be content")
        return None
    except ValueError as exc:  # a well-formed scalar with an impossible value: 2024-02-30
        bad = _find_bad_date(node)
        line = bad.start_mark.line + first_line if bad else first_line
        shown = f" {bad.value!r}" if bad else ""
        diags.error(path, line, f"invalid date{shown}: {exc}; write a real date, YYYY-MM-DD")
        return None
    finally:
        loader.dispose()
    if bomb is not None:
        diags.error(path, bomb[0] + first_line, bomb[1])
        return None
    if removed[0]:  # "\x01" in a quoted value: outside text, cleaned as it enters
        diags.warning(path, removed[2] + first_line, describe_removed(*removed[:2]))
    for key, line, first in repeated:
        diags.error(path, line + first_line, f"'{key}' is given twice in one mapping (also "
                    f"line {first + first_line}): YAML keeps only the last; remove one")
    return Located(data, node, first_line)  # read on: every problem is said at once


def describe_yaml_error(exc: yaml.MarkedYAMLError, first_line: int) -> tuple[int, str]:
    """The line and message of a YAML syntax error. Where the bad construct starts (an
    unclosed `[` on line 4) is the line given, and where the parser gave up (line 12) is
    named in the message: the second is rarely where the mistake is."""
    problem = exc.problem or exc.context or "invalid YAML"
    start, end = exc.context_mark, exc.problem_mark
    if start is not None and end is not None and start.line < end.line and exc.context:
        return (start.line + first_line,
                f"{problem} on line {end.line + first_line}, {exc.context} that starts here")
    mark = end or start
    return (mark.line + first_line if mark else first_line), problem


def find_repeated_keys(node: yaml.Node | None) -> list[tuple[str, int, int]]:
    """Each key given a second time in one mapping: (key, its line, the first one's line),
    lines counted from 0 (walked without recursion, each node once)."""
    found = []
    stack = [node] if node is not None else []
    seen: set[int] = set()
    while stack:
        current = stack.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        # Only collections go on the stack: most nodes are scalars, and have no keys.
        if isinstance(current, yaml.MappingNode):
            first: dict[tuple[str, str], int] = {}
            for key, value in current.value:
                if isinstance(key, yaml.ScalarNode):
                    name = (key.tag, key.value)
                    if name in first:
                        found.append((key.value, key.start_mark.line, first[name]))
                    else:
                        first[name] = key.start_mark.line
                else:
                    stack.append(key)
                if not isinstance(value, yaml.ScalarNode):
                    stack.append(value)
        elif isinstance(current, yaml.SequenceNode):
            stack.extend(item for item in current.value if not isinstance(item, yaml.ScalarNode))
    return sorted(found, key=lambda item: item[1])


# An alias repeats all its anchor holds, and every page and feed that shows the field
# repeats it again: `authors: [*t, *t, ...]` over a 100 KB `&t` made gigabytes of site from a
# file of 100 KB, and nested aliases (a billion laughs) grow exponentially. A document may
# stand for this many characters, aliases expanded, or ten times its own length if more.
MAX_EXPANDED = 1_000_000
EXPANSION_FACTOR = 10
_ALIAS = re.compile(r"(?:^|[\s\[{,])\*", re.MULTILINE)  # where an alias can start
_ANCHOR = re.compile(r"(?:!\S*\s+)?&([^\s,\[\]{}]+)")  # a node's anchor, after its tag if any


def find_alias_bomb(root: yaml.Node | None, text: str) -> tuple[int, str] | None:
    """(line from 0, message) at the alias past which the document, its aliases expanded,
    stands for more text than the limit; None when it stays within it (walked in document
    order without recursion, each node's children once)."""
    if root is None or "*" not in text or not _ALIAS.search(text):  # the pattern is slow
        return None
    limit = max(MAX_EXPANDED, EXPANSION_FACTOR * len(text))
    sizes = measure_nodes(root, limit)
    if sizes[id(root)] <= limit:
        return None
    total, repeats, stack = 0, {}, [root]
    while stack:
        node = stack.pop()
        if id(node) in repeats:  # an alias: its anchor's whole value once more
            repeats[id(node)] += 1
            total += sizes[id(node)]
            if total > limit:
                line, name = locate_alias(node, repeats[id(node)], text)
                return line, (f"the alias {name or 'here'} repeats {sizes[id(node)]:,} "
                              f"characters: with the aliases before it, this YAML stands for "
                              f"over {limit:,} characters of text, which every page showing "
                              "it repeats; write the value out, or use the alias less")
            continue
        repeats[id(node)] = 0
        total += _measure_own(node)
        stack.extend(reversed(_list_children(node)))
    return None


def measure_nodes(root: yaml.Node, cap: int) -> dict[int, int]:
    """Each node's size as text with its aliases expanded (capped just past `cap`), by id.
    A node inside itself (`&a [*a]`) counts once there."""
    sizes: dict[int, int] = {}
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        kids = _list_children(node)
        if done:
            total = _measure_own(node) + sum(sizes[id(kid)] for kid in kids)
            sizes[id(node)] = min(total, cap + 1)
        elif id(node) not in sizes:
            sizes[id(node)] = _measure_own(node)  # until its children are measured
            stack.append((node, True))
            stack.extend((kid, False) for kid in kids if id(kid) not in sizes)
    return sizes


def _measure_own(node: yaml.Node) -> int:
    return 1 + len(node.value) if isinstance(node, yaml.ScalarNode) else 1


def _list_children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    return node.value if isinstance(node, yaml.SequenceNode) else []


def locate_alias(node: yaml.Node, count: int, text: str) -> tuple[int, str]:
    """The line (from 0) of the `count`th alias of `node`'s anchor, found by the anchor's
    name in the text, and the alias as written ('*t'); the anchor's own line and '' when
    the name cannot be read."""
    anchor = _ANCHOR.match(text, node.start_mark.index)
    if anchor is None:
        return node.start_mark.line, ""
    name = "*" + anchor.group(1)
    alias = re.compile(re.escape(name) + r"(?![^\s,\[\]{}])")
    for found in alias.finditer(text, anchor.end()):
        count -= 1
        if count == 0:
            return text.count("\n", 0, found.start()), f"'{name}'"
    return node.start_mark.line, f"'{name}'"


_STR = "tag:yaml.org,2002:str"
_SEQ = "tag:yaml.org,2002:seq"
_MAP = "tag:yaml.org,2002:map"
_MERGE = "tag:yaml.org,2002:merge"


def construct(loader: yaml.BaseLoader, root: yaml.Node) -> object:
    """The document's data, as PyYAML's safe constructor makes it, several times faster:
    strings, lists and plain mappings are built here, everything else (numbers, dates,
    merge keys, tagged nodes) by PyYAML. An alias is the same object as its anchor, never
    a copy, as in PyYAML (which is what keeps alias bombs small)."""
    return _build(loader, root, {})


def _build(loader: yaml.BaseLoader, node: yaml.Node, built: dict[int, object]) -> object:
    if isinstance(node, yaml.ScalarNode):
        return node.value if node.tag == _STR else loader.construct_object(node, deep=True)
    if id(node) in built:
        return built[id(node)]
    if isinstance(node, yaml.SequenceNode) and node.tag == _SEQ:
        items: list = []
        built[id(node)] = items
        items.extend(_build(loader, item, built) for item in node.value)
        return items
    if isinstance(node, yaml.MappingNode) and node.tag == _MAP and all(
            isinstance(k, yaml.ScalarNode) and k.tag != _MERGE for k, _ in node.value):
        mapping: dict = {}
        built[id(node)] = mapping
        for key, value in node.value:
            mapping[_build(loader, key, built)] = _build(loader, value, built)
        return mapping
    return loader.construct_object(node, deep=True)


def _find_bad_date(node: yaml.Node | None) -> yaml.ScalarNode | None:
    """The first scalar that YAML reads as a date but that is not a real date."""
    for current in walk_scalars(node):
        if current.tag == "tag:yaml.org,2002:timestamp":
            try:
                dt.date.fromisoformat(current.value.strip()[:10])
            except ValueError:
                return current
    return None


def split_front_matter(text: str, path: Path, diags: Diagnostics) -> tuple[str, int, str, int] | None:
    """Split `---` front matter from the body.

    Returns (front matter, its first line, body, the body's first line), or None after an error.
    """
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].rstrip() != FENCE:
        diags.error(path, 1, "no front matter: the file must start with a line '---', "
                    "then the YAML fields, then a closing '---'")
        return None
    for i in range(1, len(lines)):
        if lines[i].rstrip() == FENCE:
            return "".join(lines[1:i]), 2, "".join(lines[i + 1:]), i + 2
    diags.error(path, 1, "front matter is not closed: add a line '---' after the YAML fields")
    return None


def read_text(path: Path, diags: Diagnostics, root: Path | None = None) -> str | None:
    """A content file as text: UTF-8 (a BOM is allowed), with a clear error otherwise;
    `root` as read_bytes takes it."""
    data = read_bytes(path, diags, root)
    return None if data is None else decode_text(data, path, diags)


# A content file (Markdown, BibTeX, YAML) over this size is refused: parsing takes about 27
# times a file's size in memory (a 30 MB paper took 834 MB), and no paper, CV or
# bibliography comes near it (a list of 1,500 papers from DBLP is 2 MB).
MAX_TEXT_BYTES = 8 * 1024 * 1024


def read_bytes(path: Path, diags: Diagnostics, root: Path | None = None,
               limit: int = MAX_TEXT_BYTES) -> bytes | None:
    """A content file's bytes, through the one guarded reader (output/paths.py): when
    `root` is given, only a file really inside it (its links followed); only a regular
    file (a pipe would wait forever, /dev/zero never ends); at most `limit` bytes."""
    problem = why_not_read(path, root) if root is not None else ""
    if problem:
        diags.error(path, 0, problem)
        return None
    try:
        with open_regular(path) as stream:
            data = stream.read(limit + 1)
    except NotRegularFile:
        diags.error(path, 0, "this is not a regular file (a pipe, device or socket); "
                    "only files are read")
        return None
    except OSError as exc:
        diags.error(path, 0, f"cannot read file: {exc.strerror or exc}")
        return None
    if len(data) > limit:
        diags.error(path, 0, f"the file is over {limit // 2**20} MB, more than any "
                    "content file needs (and costly to read); split it, or move what is not "
                    "text into files/")
        return None
    return data


def decode_text(data: bytes, path: Path, diags: Diagnostics, legacy: bool = False
                ) -> str | None:
    """The text of a content file's bytes, line ends made '\\n' and what is no text
    removed (cleantext.clean_text, with a warning at the first one's line); an error when
    it is not UTF-8, unless `legacy` (an exported .bib), which is then read as the exports
    of Windows programs are saved (decode_legacy), with a warning."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        text = decode_legacy(data, exc.start, path, line, diags) if legacy else None
        if text is None:
            diags.error(path, line, "the file is not UTF-8 text; save it as UTF-8 "
                        "(in most editors: File > Save with Encoding > UTF-8)")
            return None
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    cleaned, count, first = clean_text(text)
    if count:
        line = text.count("\n", 0, text.index(first)) + 1
        diags.warning(path, line, describe_removed(count, first))
    return cleaned


def read_front_matter(text: str, path: Path, diags: Diagnostics) -> tuple[Located, str] | None:
    """A Markdown content file's front matter, parsed, and its body; None after an error."""
    parts = split_front_matter(text, path, diags)
    if parts is None:
        return None
    front, front_line, body, _ = parts
    doc = parse_yaml(front, path, front_line, diags)
    return None if doc is None else (doc, body)
