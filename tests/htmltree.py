"""A small element tree from html.parser, for tests that read built pages as a browser would
(by element and class), not as substrings."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}


@dataclass
class Node:
    tag: str
    attrs: dict[str, str] = field(default_factory=dict)
    children: list["Node | str"] = field(default_factory=list)

    def classes(self) -> list[str]:
        return self.attrs.get("class", "").split()

    def text(self) -> str:
        """The text content, whitespace folded."""
        parts: list[str] = []
        stack: list[Node | str] = [self]
        while stack:
            item = stack.pop()
            if isinstance(item, str):
                parts.append(item)
            else:
                stack.extend(reversed(item.children))
        return " ".join("".join(parts).split())

    def iter(self):
        for child in self.children:
            if isinstance(child, Node):
                yield child
                yield from child.iter()

    def find_all(self, tag: str = "", cls: str = "", **attrs: str) -> list["Node"]:
        return [n for n in self.iter()
                if (not tag or n.tag == tag) and (not cls or cls in n.classes())
                and all(n.attrs.get(k) == v for k, v in attrs.items())]

    def find(self, tag: str = "", cls: str = "", **attrs: str) -> "Node":
        found = self.find_all(tag, cls, **attrs)
        assert found, f"no <{tag or '*'} class={cls!r} {attrs}>"
        return found[0]

    def child_elements(self, tag: str = "") -> list["Node"]:
        return [c for c in self.children if isinstance(c, Node) and (not tag or c.tag == tag)]


class TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document")
        self.stack = [self.root]

    def handle_starttag(self, tag, attrs):
        node = Node(tag, {k: v or "" for k, v in attrs})
        self.stack[-1].children.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i].tag == tag:
                del self.stack[i:]
                return

    def handle_data(self, data):
        self.stack[-1].children.append(data)


def parse_html(text: str) -> Node:
    builder = TreeBuilder()
    builder.feed(text)
    builder.close()
    return builder.root


def parse_page(path: Path) -> Node:
    return parse_html(path.read_text(encoding="utf-8"))
