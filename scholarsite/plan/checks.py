"""Checks of the planned site against what site.yaml and the texts ask of it."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Iterable
from urllib.parse import unquote

from ..diagnostics import Diagnostic, Diagnostics
from ..models import Paper, Site
from ..reading.loader import BIO_FILE
from ..reading.settings.yamlread import read_text
from ..structure.kinds import KIND
from ..structure.urls import (FILES_DIR, ROOT_MARKER, THEME_IDS, file_key, is_external,
                              output_path)
from .pages import Page


def check_redirects(site: Site, pages: list[Page], copies: dict[str, Path], config: Path,
                    diags: Diagnostics) -> list[Page]:
    """`pages` without the redirects refused here. A redirect from an address the site
    has a page or a file at (as a disk that does not tell case apart sees it:
    'Index.html' is 'index.html' there), or to a path of this site that is no page or
    file of it, is an error at its line in site.yaml: nothing replaces a page, and nothing
    sends a visitor nowhere. The build goes on to say every other problem, so a refused
    redirect's page is left out rather than written over a file of the site."""
    paths = {page.path for page in pages if page.kind != "redirect"}
    taken = {file_key(path): output_path(path) for path in paths}
    files = {rel.casefold(): rel for rel in copies}
    for redirect in site.config.redirects:
        target = redirect.target.split("#")[0]
        key = file_key(redirect.old)
        if key in taken or key in files:
            diags.error(config, redirect.line, f"redirect '{redirect.old}': "
                        f"{describe_taken(redirect.old, taken.get(key), files.get(key))}")
        elif not is_external(target) and target not in paths and target not in copies:
            hint = f"; did you mean '{target}/'?" if f"{target}/" in paths else ""
            diags.error(config, redirect.line, f"redirect '{redirect.old}' sends visitors "
                        f"to '{redirect.target}', which is no page or file of this "
                        f"site{hint}")
    return [page for page in pages
            if page.kind != "redirect" or file_key(page.path) not in taken.keys() | files]


def describe_taken(old: str, page: str | None, file: str | None) -> str:
    """Why a redirect may not be at `old`, the address of the site's `page` or `file`."""
    if file_key(old) == file_key(KIND["404"].path):
        return ("404.html is the page this site shows for an address it does not have (the "
                "theme's 404.html), as the old site's 404.html was; remove this redirect")
    mine = output_path(old)
    same = "" if mine in (page, file) else \
        f" ('{page or file}', which is '{mine}' on a disk that does not tell case apart)"
    if page is None:
        return f"the site publishes a file there{same}; remove the redirect or rename the file"
    return f"the site has a page at that address{same}; remove the redirect or rename the page"


# A text that links to a page or file of the site, or to '#x' with no id 'x' in it: its
# source, its line there, those links and those names (find_links).
Linking = tuple[Path, int, tuple[str, ...], tuple[str, ...]]


def check_text_links(site: Site, pages: Iterable[Page], copies: dict[str, Path],
                     diags: Diagnostics, linking: list[Linking] | None = None
                     ) -> list[Diagnostic]:
    """A warning for each site-relative link or image in a Markdown text (the bio, an
    abstract, a collection item, a free page, a person's page) to no page or file of the
    site, at the line of the text where it is written: `files/talk.pdf` not in
    content/files/, a post that does not exist; and for a link to '#x' with no id 'x' in
    its text. `check` finds them too, but in the built page, with the link rewritten.
    `linking`: find_linking of the texts but the bio, when the caller keeps it (serve).
    Returns those warnings (serve says them as a rebuild's)."""
    said = diags.empty_copy()
    if linking is None:
        linking = find_linking(list_abstracts(site.papers) + list_other_texts(site))
    # The bio is shown on the home page alone: its links are as written, not marked.
    bio = site.content_dir / BIO_FILE
    found = [(bio, 1, link) for link in AS_WRITTEN.findall(site.bio_html)]
    found += [(source, line, link) for source, line, links, _ in linking for link in links]
    # Every page's file, listed only when there is a link to look up (a save in serve
    # checks again, and at 5,000 papers the list took 0.03 s).
    outputs = {output_path(page.path) for page in pages} | set(copies) if found else set()
    for source, line, written in found:
        target = unquote(html.unescape(written)).split("#")[0].split("?")[0]
        if not target or output_path(target) in outputs or f"{target}/index.html" in outputs:
            continue
        hint = "a file in content/files/" if target.startswith(f"{FILES_DIR}/") \
            else "a page of the site"
        said.warning(source, find_written_line(source, target, line), f"link to "
                     f"'{target}', which is no page or file of this site (it should be "
                     f"{hint}): the link would be broken")
    warn_rooted_bio_links(site, said)
    for source, line, _, names in linking + find_linking([(bio, 1, site.bio_html)]):
        warn_missing_anchors(source, line, names, said)
    diags.add_all(said.items)
    return said.items


def list_abstracts(papers: Iterable[Paper]) -> list[tuple[Path, int, str]]:
    """The papers' abstracts, each with its source and line, as find_linking takes them."""
    return [abstract_of(paper) for paper in papers]


def abstract_of(paper: Paper) -> tuple[Path, int, str]:
    return paper.source, paper.line, paper.abstract_html


def list_other_texts(site: Site) -> list[tuple[Path, int, str]]:
    """The site's Markdown texts but the abstracts and the bio: items, free pages and
    people's pages."""
    texts = [(item.source, item.line, item.body_html)
             for item in (*site.items, *site.pages, *site.list_texts)]
    return texts + [(person.source, 1, person.bio_html) for person in site.people]


def find_linking(texts: Iterable[tuple[Path, int, str]]) -> list[Linking]:
    """Of `texts`, those with links check_text_links looks up (most have none)."""
    return [linking for text in texts if (linking := link_text(*text))]


def link_text(source: Path, line: int, text: str) -> Linking | None:
    found = find_links(text)
    return (source, line, *found) if any(found) else None


def warn_rooted_bio_links(site: Site, said: Diagnostics) -> None:
    """The bio's links are kept as written (the home page is at the root), so one that
    begins with '/' leads to the server's root: right on a domain's root, broken opened
    from disk or published under a subpath, where the other texts' links work."""
    source = site.content_dir / BIO_FILE
    for written in dict.fromkeys(ROOTED.findall(site.bio_html)):
        target = html.unescape(written)
        said.warning(source, find_written_line(source, unquote(target), 1), f"link to "
                     f"'{target}' begins with '/', the server's root: it breaks when the "
                     "site is opened from disk or published under a subpath "
                     f"(user.github.io/repo/); write it from the home page: "
                     f"'{target.lstrip('/') or './'}'")


def warn_missing_anchors(source: Path, line: int, names: tuple[str, ...],
                         said: Diagnostics) -> None:
    """A link to '#x' in a text whose HTML has no id 'x' (`names`: find_links): said at
    the line of the text where it is written (`check` finds it too, but in each built
    page that shows the text). The ids the theme gives its pages ('#cite', '#bibtex')
    are left to `check`."""
    for name in names:
        said.warning(source, find_written_line(source, f"#{name}", line), f"link to "
                     f"'#{name}', which is no id in this text (a heading's {{#{name}}}, or "
                     f"an element's id=\"{name}\"): the link would be broken")


LINKED = re.compile(r'(?:href|src)="' + re.escape(ROOT_MARKER) + r'([^"]*)"')
SAME_PAGE = re.compile(r'href="#([^"]+)"')
ANCHOR_ID = re.compile(r'\sid="([^"]+)"')
ROOTED = re.compile(r'(?:href|src)="(/(?!/)[^"]*)"')  # '/x', not '//host/x'
AS_WRITTEN = re.compile(r'(?:href|src)="(?![a-zA-Z][a-zA-Z0-9+.-]*:|[#/.])([^"]+)"')


def find_links(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A text's links to a page or file of the site (ROOT_MARKER), and the names of its
    links to '#x' where the text has no id 'x'."""
    linked = tuple(LINKED.findall(text)) if ROOT_MARKER in text else ()
    if 'href="#' not in text:  # most texts: no link to a place of their own to look for
        return linked, ()
    ids = {html.unescape(i) for i in ANCHOR_ID.findall(text)}
    names = (unquote(html.unescape(fragment))
             for fragment in dict.fromkeys(SAME_PAGE.findall(text)))
    return linked, tuple(name for name in names if not (
        name in ids or name in THEME_IDS or name == "top" or name.startswith(":~:")))


def find_written_line(source: Path, target: str, line: int) -> int:
    """The line of `source` where `target` is first written, else `line`."""
    text = read_text(source, Diagnostics()) or ""
    for number, written in enumerate(text.splitlines(), 1):
        if target in unquote(written):
            return number
    return line
