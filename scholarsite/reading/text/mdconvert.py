"""Python-Markdown, set up for the site's texts: imported only when a text needs more
than the plain-prose fast path (prose.py), through papers.Converter. Its extensions
import Pygments and pymdown-extensions, which cost a build whose texts are prose, or
a build after one abstract's edit, more than reading the text.
"""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as etree

import markdown
from markdown.extensions import (Extension, abbr, admonition, attr_list, def_list, fenced_code,
                                 footnotes, md_in_html, sane_lists, tables, toc)
from markdown.treeprocessors import Treeprocessor
from markdown.util import AMP_SUBSTITUTE

from .mathtex import make_math_extensions
from .mdextras import WritingExtension
from ...structure.urls import THEME_IDS, ROOT_MARKER, check_text_link, is_external

# An address in raw HTML: href, src, a video's poster or an object's data, quoted.
_RAW_LINK = re.compile(r"""(\s(?:href|src|poster|data)\s*=\s*)(["'])([^"'<>]*)\2""", re.I)
# A footnote citation's id in raw HTML (drop_lone_backrefs).
_CITATION_ID = re.compile(r'<sup id="(fnref[^"]*)"')


def new_markdown(root_links: bool, contents: bool) -> markdown.Markdown:
    """A converter, reset between documents (creating one is the slow part). With
    `root_links`, for text shown at several depths (RootLinks); with `contents`, for
    collection items and free pages: headings get ids, and the table of contents of
    levels 2 and 3 is kept (`md.toc`) for a text that asks for it."""
    extensions = markdown_extensions() + ([RootLinksExtension()] if root_links else []) \
        + ([toc.TocExtension(slugify=make_heading_id, toc_depth="2-3")] if contents else [])
    return markdown.Markdown(extensions=extensions, output_format="html")


def markdown_extensions() -> list[Extension]:
    """Python-Markdown's `extra` and `sane_lists`, as objects: named by strings, each is
    looked up among the installed packages' entry points, which costs more than making the
    converter (tests/test_prose.py checks the HTML is that of the names); admonitions
    ('!!! note'); TeX math (mathtex.py); figures and task lists (mdextras.py). Attribute
    lists are `attr_list`'s, but for the attributes no text may set (SafeAttrList)."""
    return [fenced_code.FencedCodeExtension(), footnotes.FootnoteExtension(),
            SafeAttrListExtension(), def_list.DefListExtension(),
            tables.TableExtension(), abbr.AbbrExtension(), md_in_html.MarkdownInHtmlExtension(),
            sane_lists.SaneListExtension(), admonition.AdmonitionExtension(),
            *make_math_extensions(), WritingExtension(), SafeLinksExtension()]


# Attributes an attribute list may not set, from any text: a script (onload=, onfocus=...)
# or a style, which can lay a link over the whole page. The owner's raw HTML still can.
_REFUSED_ATTRIBUTE = re.compile(r"on|style$", re.I)


class SafeAttrList(attr_list.AttrListTreeprocessor):
    """attr_list's `{: ...}`, refusing event handlers and styles: each is left out of the
    element, and kept in `md.refused` for the caller to report at its line."""

    def assign_attrs(self, elem: etree.Element, attrs_string: str, *, strict: bool = False
                     ) -> str:
        before = dict(elem.attrib)
        remainder = super().assign_attrs(elem, attrs_string, strict=strict)
        # A refused name the element had before is not this list's (a table cell's
        # alignment) unless the list changed it: then it is put back.
        for name in [n for n in elem.attrib if _REFUSED_ATTRIBUTE.match(n)
                     and (n not in before or elem.get(n) != before[n])]:
            if name in before:
                elem.set(name, before[name])
            else:
                del elem.attrib[name]
            self.md.refused.append((attrs_string, (
                f"the attribute list '{{: {attrs_string.strip()}}}' sets '{name}': an "
                "attribute list may not set an event handler or a style; write the "
                "HTML element itself if you mean it")))
        return remainder


class SafeAttrListExtension(attr_list.AttrListExtension):
    def extendMarkdown(self, md: markdown.Markdown) -> None:  # noqa: N802 - Markdown's API
        md.treeprocessors.register(SafeAttrList(md), "attr_list", 8)
        md.registerExtension(self)


class SafeLinks(Treeprocessor):
    """Every link and image address in Markdown text is judged as a browser will read it
    (urls.check_text_link). A refused one loses its address, keeping its text, and the
    problem is kept in `md.refused` for the caller to report at its line."""

    def run(self, root: etree.Element) -> None:
        drop_lone_backrefs(root, self.md.htmlStash.rawHtmlBlocks)
        for element in root.iter():
            for attr in ("href", "src"):
                url = element.get(attr)
                if url is not None and AMP_SUBSTITUTE in url:
                    # An e-mail autolink (<ann@example.org>): Python-Markdown hides its
                    # address as character references behind a placeholder of control
                    # characters, put back only as it writes the page. The address itself
                    # is what is judged, and kept, as every later step reads it.
                    url = html.unescape(url.replace(AMP_SUBSTITUTE, "&"))
                    element.set(attr, url)
                problem = check_text_link(url) if url is not None else ""
                if problem:
                    del element.attrib[attr]
                    self.md.refused.append((url, f"the link {url!r} in the text {problem}"))


def drop_lone_backrefs(root: etree.Element, raw_html: list) -> None:
    """A footnote that the text never cites still gets a link back to its citation,
    which is nowhere (`#fnref:x`, a broken link for `check`): that link is taken out. A
    citation may stand in raw HTML put back later (`a<b [^1] -->`): it counts too."""
    cited = {el.get("id") for el in root.iter("sup") if el.get("id")}
    cited |= {found for block in raw_html if isinstance(block, str)
              for found in _CITATION_ID.findall(block)}
    for item in list(root.iter("p")):
        for link in [el for el in item if el.tag == "a" and el.get("href", "").startswith(
                "#fnref") and el.get("href", "")[1:] not in cited]:
            # the link is the paragraph's last element: nothing follows it to keep
            item.remove(link)


class SafeLinksExtension(Extension):
    def extendMarkdown(self, md: markdown.Markdown) -> None:  # noqa: N802 - Markdown's API
        md.refused = []
        md.treeprocessors.register(SafeLinks(md), "scholarsite_safe_links", -1)  # after unescaping


class RootLinks(Treeprocessor):
    """Prefix site-relative links and images with ROOT_MARKER, so that 'files/x.pdf' works
    from any page; outside URLs, '#anchors', '//' links and explicitly page-relative ones
    ('./x', '../x') are left alone. Raw HTML in the text (`<img src="files/x.png">`,
    `<video>`) is rooted the same way: an abstract's is shown at several depths too."""

    def run(self, root: etree.Element) -> None:
        for element in root.iter():
            for attr in ("href", "src"):
                url = element.get(attr)
                if is_site_relative(url):
                    element.set(attr, ROOT_MARKER + url.lstrip("/"))
        stash = self.md.htmlStash.rawHtmlBlocks  # raw HTML, put back after this step
        for n, block in enumerate(stash):
            if isinstance(block, str) and _RAW_LINK.search(block):
                stash[n] = _RAW_LINK.sub(root_raw_link, block)


def is_site_relative(url: str | None) -> bool:
    return bool(url) and not is_external(url) and not url.startswith(("#", "//", "."))


def root_raw_link(match: re.Match) -> str:
    url = match.group(3)
    return match.group(0) if not is_site_relative(url.strip()) else \
        f"{match.group(1)}{match.group(2)}{ROOT_MARKER}{url.strip().lstrip('/')}{match.group(2)}"


class RootLinksExtension(Extension):
    def extendMarkdown(self, md: markdown.Markdown) -> None:  # noqa: N802 - Markdown's API
        # After SafeLinks (-1), which reads each address as a browser will, its character
        # references decoded: only an address it kept is made site-relative here.
        md.treeprocessors.register(RootLinks(md), "scholarsite_root_links", -2)


def make_heading_id(value: str, separator: str) -> str:
    """A heading's id, for links to it (#methods) and the table of contents."""
    slug = toc.slugify_unicode(value, separator) or "section"
    return f"{slug}-section" if slug in THEME_IDS else slug
