"""Liquid (Jekyll) and shortcodes (Hugo) in moved Markdown: converted where the meaning is
plain (a link to a page or file, a figure), otherwise left as text and named in the report,
so nothing is shown raw without a warning."""

from __future__ import annotations

import re
from pathlib import Path

from .model import Migration

# {{ site.baseurl }}/x, {{ '/x' | relative_url }}: a path inside the site.
_BASEURL = re.compile(r"\{\{-?\s*(?:site\.baseurl|site\.url|base_path)\s*-?\}\}/?"
                      r"|\{%-?\s*include\s+base_path\s*-?%\}\n?")
# Filters that escape the path too (uri_escape) leave the file it names the same.
_RELATIVE = re.compile(r"\{\{-?\s*['\"]/?([^'\"]*)['\"]((?:\s*\|\s*(?:relative_url|absolute_url|"
                       r"uri_escape|url_escape|escape|prepend:\s*site\.baseurl))+)\s*-?\}\}")
# An HTML block's opening tag alone on its line, a blank line after it (open_html_blocks).
_OPEN_BLOCK = re.compile(r"^(<(?:div|section|article|aside|details)\b(?![^>]*\bmarkdown=)"
                         r"[^<>]*?)\s*>[ \t]*(?=\n[ \t]*\n)", re.M | re.I)
# {% link _posts/x.md %}, {% post_url 2020-01-01-x %}
_LINK_TAG = re.compile(r"\{%-?\s*(?:link|post_url)\s+([^\s%]+)\s*-?%\}")
# {% include figure.liquid path="assets/img/x.jpg" caption="..." %} (al-folio's figure)
_INCLUDE_FIGURE = re.compile(r"\{%-?\s*include\s+figure\.(?:html|liquid)\s+(.*?)-?%\}", re.S)
_HUGO_FIGURE = re.compile(r"\{\{[<%]\s*figure\s+(.*?)\s*[>%]\}\}", re.S)
# Hugo Blox's staticref (a link to a file in static/), youtube and icon shortcodes.
_STATICREF = re.compile(r"\{\{[<%]\s*staticref\s+[\"']([^\"']+)[\"'][^}]*[>%]\}\}(.*?)"
                        r"\{\{[<%]\s*/staticref\s*[>%]\}\}", re.S)
_YOUTUBE = re.compile(r"\{\{[<%]\s*youtube\s+(?:id=)?[\"']?([\w-]+)[\"']?\s*[>%]\}\}")
_ICON = re.compile(r"\{\{[<%]\s*icon\s+[^}]*[>%]\}\}\s?")
_ATTRIBUTE = re.compile(r"""([\w-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|(\S+))""")
_LIQUID = re.compile(r"\{%.*?%\}|\{\{.*?\}\}", re.S)
_RAW = re.compile(r"\{%-?\s*raw\s*-?%\}(.*?)\{%-?\s*endraw\s*-?%\}", re.S)
# An event handler or a style in an attribute list (kramdown's `{: style="width: 50%"}`),
# which the new site refuses (mdconvert.SafeAttrList): dropped, with a note.
_ATTRIBUTE_LIST = re.compile(r"(?<!\{)\{(?![%{])[^{}\n]*(?<!%)\}(?!\})")  # not Liquid's
_REFUSED_ATTRIBUTE = re.compile(r"""(?<=[{:\s])(?:on[a-z]+|style)\s*=\s*"""
                                r"""(?:"[^"\n]*"|'[^'\n]*'|[^\s"'{}]+)\s*""", re.I)


def read_attributes(text: str) -> dict[str, str]:
    return {m.group(1): next(g for g in m.groups()[1:] if g is not None)
            for m in _ATTRIBUTE.finditer(text)}


def make_figure(attrs: dict[str, str], file_path) -> str:
    """A Markdown picture, its caption as the title: scholarsite shows that as a figure
    with its caption below (mdextras.py)."""
    src = file_path(attrs.get("src") or attrs.get("path") or "")
    caption = " ".join((attrs.get("caption") or attrs.get("title") or "").split())
    alt = attrs.get("alt") or caption
    title = ' "' + caption.replace('"', "&quot;") + '"' if caption else ""
    return f"![{alt}]({src}{title})"


def convert_markup(text: str, path: Path, line: int, mig: Migration, file_path=None) -> str:
    """`text` (Markdown from `path`, starting at `line`) with its Liquid tags and Hugo
    shortcodes converted where plain; `file_path` maps an old file's path to the new one
    (files/...). What stays is reported, with its line."""
    file_path = file_path or (lambda p: p.lstrip("/"))
    raws: list[str] = []

    def keep_raw(match: re.Match) -> str:
        raws.append(match.group(1))
        return f"\x00{len(raws) - 1}\x00"

    text = _RAW.sub(keep_raw, text)
    text = drop_refused_attributes(text, path, line, mig)
    text = _BASEURL.sub("", text)
    text = _RELATIVE.sub(lambda m: m.group(1) if re.search(r"url|baseurl", m.group(2))
                         else m.group(), text)
    text = _INCLUDE_FIGURE.sub(lambda m: make_figure(read_attributes(m.group(1)), file_path),
                               text)
    text = _HUGO_FIGURE.sub(lambda m: make_figure(read_attributes(m.group(1)), file_path), text)
    text = _LINK_TAG.sub(lambda m: link_target(m.group(1)), text)
    text = _STATICREF.sub(lambda m: f"[{m.group(2).strip()}]({m.group(1).lstrip('/')})", text)
    text = _YOUTUBE.sub(lambda m: f"[Video](https://www.youtube.com/watch?v={m.group(1)})", text)
    text = _ICON.sub("", text)  # decorative
    text = open_html_blocks(text) if mig.kind == "hugo-blox" else text
    for match in _LIQUID.finditer(text):
        at = line + text.count("\n", 0, match.start())
        snippet = " ".join(match.group(0).split())[:60]
        mig.add_review(mig.where(path, at), f"template code left as text: {snippet}")
    return re.sub("\x00(\\d+)\x00", lambda m: raws[int(m.group(1))], text)


def open_html_blocks(text: str) -> str:
    """A block of raw HTML (`<div style=...>` alone on its line) whose next line is blank,
    marked `markdown="1"`: Hugo's CommonMark ends the HTML there and reads what follows as
    Markdown (its `## Conclusion` a heading); Python-Markdown reads it so only when told.
    kramdown (Jekyll) keeps such a block HTML, so Jekyll sites' are left as they are."""
    return _OPEN_BLOCK.sub(lambda m: f'{m.group(1)} markdown="1">', text)


def drop_refused_attributes(text: str, path: Path, line: int, mig: Migration) -> str:
    """`text` without the event handlers and styles of its attribute lists, each named in
    the report at its line: the rest of the list (a class, a width) and the text move."""
    def drop(match: re.Match) -> str:
        refused = [m.group(0).strip() for m in _REFUSED_ATTRIBUTE.finditer(match.group(0))]
        if not refused:
            return match.group(0)
        at = line + text.count("\n", 0, match.start())
        mig.add_review(mig.where(path, at), f"{', '.join(refused)} left out of an attribute "
                       "list: the new site sets no style or event handler from one; write "
                       "the HTML element itself if you need it")
        kept = _REFUSED_ATTRIBUTE.sub("", match.group(0))
        return "" if kept.strip("{: }") == "" else kept

    return _ATTRIBUTE_LIST.sub(drop, text)


def link_target(name: str) -> str:
    """Where a `{% link %}` or `{% post_url %}` goes in the new site: a post's page."""
    stem = Path(name).stem
    match = re.match(r"\d{4}-\d{2}-\d{2}-(.+)", stem)
    return f"posts/{(match.group(1) if match else stem).lower()}/"
