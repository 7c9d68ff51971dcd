"""Read a built page for checking: its links with their lines, its ids and its title.

HTML goes through the standard library's html.parser (which tolerates what browsers
tolerate), XML (sitemaps, feeds) through expat; both give the line of each element, so a
problem is named as `path:line`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser
from xml.parsers import expat

# Attributes that load or lead to another URL, by element.
LINK_ATTRS = {
    "a": ("href",), "area": ("href",), "link": ("href",),
    "img": ("src", "srcset"), "source": ("src", "srcset"), "script": ("src",),
    "iframe": ("src",), "embed": ("src",), "video": ("src", "poster"), "audio": ("src",),
    "track": ("src",), "object": ("data",),
}
# Elements whose URL is fetched with the page: a missing one is a missing asset.
ASSET_TAGS = frozenset({"img", "source", "script", "iframe", "embed", "video", "audio",
                        "track", "object"})
ASSET_RELS = frozenset({"stylesheet", "icon", "apple-touch-icon", "manifest", "preload",
                        "modulepreload"})


@dataclass(frozen=True)
class Link:
    url: str
    line: int
    tag: str  # the element, such as 'a' or 'img'
    asset: bool  # loaded with the page (stylesheet, script, image), not followed


@dataclass
class PageScan:
    """What one output file says: its links, ids (id -> lines) and title."""

    links: list[Link] = field(default_factory=list)
    ids: dict[str, list[int]] = field(default_factory=dict)
    title: str | None = None  # None: no <title> element at all
    title_line: int = 0


class _HTMLScanner(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.scan = PageScan()
        self._in_title = False
        self._title_parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        line = self.getpos()[0]
        values = {name: value or "" for name, value in attrs}
        # An id, or the old <a name>, is a place a #fragment can point at.
        for anchor in (values.get("id"), values.get("name") if tag == "a" else None):
            if anchor:
                self.scan.ids.setdefault(anchor, []).append(line)
        if tag == "title" and self.scan.title is None:
            self._in_title, self.scan.title_line = True, line
        rels = set(values.get("rel", "").lower().split())
        asset = tag in ASSET_TAGS or (tag == "link" and bool(rels & ASSET_RELS))
        for name in LINK_ATTRS.get(tag, ()):
            if name not in values:
                continue
            urls = split_srcset(values[name]) if name == "srcset" else [values[name].strip()]
            for url in urls:
                self.scan.links.append(Link(url, line, tag, asset))

    def parse_html_declaration(self, i: int) -> int:
        """'<![' other than CDATA is a bogus comment up to the next '>', as browsers read
        it; html.parser before Python 3.13 raised AssertionError on most of them."""
        if self.rawdata.startswith("<![", i) and not self.rawdata.startswith("<![CDATA[", i):
            end = self.rawdata.find(">", i + 3)
            return -1 if end < 0 else end + 1
        return super().parse_html_declaration(i)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self._title_parts.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "title" and self._in_title:
            self._in_title = False
            self.scan.title = "".join(self._title_parts).strip()


def split_srcset(value: str) -> list[str]:
    """The URLs of a srcset ('a.png 1x, b.png 2x')."""
    return [part.split()[0] for part in value.split(",") if part.split()]


def scan_html(text: str) -> PageScan:
    """The links, ids and title of an HTML page. What follows the last '>' holds no
    whole tag (each ends in one), so it is handed over as text: html.parser would try
    each '<' there to the end of the page, in quadratic time (150 kB of '<a ' took
    minutes)."""
    scanner = _HTMLScanner()
    end = text.rfind(">") + 1
    scanner.feed(text[:end])
    scanner.close()
    scanner.handle_data(text[end:])
    if scanner._in_title:  # a <title> never closed still has its text
        scanner.scan.title = "".join(scanner._title_parts).strip()
    return scanner.scan


def scan_xml(data: bytes) -> PageScan:
    """The URLs of a sitemap (<loc>) or feed (<link>, <link href>); raises ValueError when the
    file is not well-formed XML."""
    scan = PageScan()
    parser = expat.ParserCreate(namespace_separator=" ")
    stack: list[tuple[str, int, list[str]]] = []

    def start(name: str, attrs: dict[str, str]) -> None:
        local = name.rsplit(" ", 1)[-1]
        line = parser.CurrentLineNumber
        if local == "link" and attrs.get("href"):
            scan.links.append(Link(attrs["href"].strip(), line, local, False))
        stack.append((local, line, []))

    def end(name: str) -> None:
        local, line, parts = stack.pop()
        text = "".join(parts).strip()
        if local in ("loc", "link") and text:
            scan.links.append(Link(text, line, local, False))

    def chars(data: str) -> None:
        if stack:
            stack[-1][2].append(data)

    parser.StartElementHandler, parser.EndElementHandler = start, end
    parser.CharacterDataHandler = chars
    try:
        parser.Parse(data, True)
    except expat.ExpatError as exc:
        raise ValueError(f"not well-formed XML: {exc}") from None
    return scan


def scan_robots(text: str) -> PageScan:
    """robots.txt names the sitemap on a `Sitemap:` line."""
    scan = PageScan()
    for number, line in enumerate(text.splitlines(), start=1):
        key, _, value = line.partition(":")
        if key.strip().lower() == "sitemap" and value.strip():
            scan.links.append(Link(value.strip(), number, "sitemap", False))
    return scan
