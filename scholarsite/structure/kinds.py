"""The kinds of page a site has, in one table.

Everything that depends on which kinds there are is derived from `KINDS`: the default
menu and the section titles, the names a free page may not take, both sitemaps, what the
search index skips, the templates compiled before any page is rendered, and which pages
the live preview plans per paper. Adding a kind of page is one row here and its planner
in plan/pages.py (which checks that every row has one).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..models import Paper, Site
from ..models.wording import N_

# What a page's date in sitemap.xml is: the newest paper's, the newest of everything
# dated (papers and collection items), the page's own content's, or none.
Lastmod = Literal["papers", "all", "own", ""]


@dataclass(frozen=True)
class PageKind:
    key: str  # `page.kind` in templates
    path: str  # the URL path below the site root; '{slug}' stands for a paper's or item's
    template: str = ""  # '' for a file written as it is made (a citation file, .nojekyll)
    title: str = ""  # the default title: the menu's label for a section
    section: bool = False  # a section: may be in the menu; no free page may take its name
    in_menu: bool = False  # in the default menu when the site has something to show there
    searchable: bool = False  # its pages are entries of the search index
    lastmod: Lastmod | None = None  # in both sitemaps (None: in neither)
    per_paper: bool = False  # one page per paper, showing that paper alone
    # May show any paper (all of them, or the newest, as home and the feed): a change
    # of any paper may touch it.
    every_paper: bool = False
    common: bool = True  # every site has one: its template is compiled up front
    # In each of a site's languages (below /TAG/ but the default's): not the files that
    # serve the whole site (sitemap.xml, robots.txt, the citation files, 404.html).
    per_language: bool = True


KINDS = (
    PageKind("home", "", "home.html", N_("Home"), section=True, in_menu=True, searchable=True,
             lastmod="all", every_paper=True),
    PageKind("publications", "publications/", "publications.html", N_("Publications"),
             section=True, in_menu=True, searchable=True, lastmod="papers", every_paper=True),
    PageKind("paper", "publications/{slug}/", "paper.html", searchable=True, lastmod="own",
             per_paper=True),
    # A lab's people (content/people/) by role, then alumni; each person's page lists
    # their papers, so it may show any paper.
    PageKind("people", "people/", "people.html", N_("People"), section=True, in_menu=True,
             searchable=True, lastmod="", common=False),
    PageKind("person", "people/{slug}/", "person.html", searchable=True, lastmod="",
             every_paper=True, common=False),
    # A collection's list and its items (talks/, talks/{slug}/...): the collections
    # themselves are reading/collections.py's SCHEMAS.
    PageKind("collection", "{collection}/", "collection.html", searchable=True,
             lastmod="own", common=False),
    PageKind("item", "{collection}/{slug}/", "item.html", searchable=True, lastmod="own",
             common=False),
    # A blog's tags (posts/tags/, posts/tags/{slug}/) and a collection's own feed.
    PageKind("tags", "{collection}/tags/", "tags.html", lastmod="own", common=False),
    PageKind("tag", "{collection}/tags/{slug}/", "tag.html", searchable=True, lastmod="own",
             common=False),
    PageKind("collection-feed", "{collection}/feed.xml", "collection_feed.xml",
             common=False),
    PageKind("cv", "cv/", "cv.html", N_("CV"), section=True, in_menu=True, searchable=True,
             lastmod="papers", every_paper=True, common=False),
    PageKind("page", "{slug}/", "page.html", searchable=True, lastmod="", common=False),
    PageKind("search", "search/", "search.html", N_("Search"), section=True, lastmod="all",
             every_paper=True),
    PageKind("sitemap", "sitemap/", "sitemap.html", N_("Sitemap"), section=True, lastmod="all",
             every_paper=True),
    PageKind("bibtex-all", "publications.bib", every_paper=True, per_language=False),
    PageKind("ris-all", "publications.ris", every_paper=True, per_language=False),
    PageKind("csl-all", "publications.json", every_paper=True, per_language=False),
    PageKind("feed", "feed.xml", "feed.xml", every_paper=True),
    PageKind("sitemap-xml", "sitemap.xml", "sitemap.xml", every_paper=True, per_language=False),
    PageKind("robots", "robots.txt", "robots.txt", per_language=False),
    PageKind("404", "404.html", "404.html", per_language=False),
    PageKind("nojekyll", ".nojekyll", per_language=False),
    PageKind("cname", "CNAME", common=False, per_language=False),
    # The browser editor (site.yaml's `cms`): in no sitemap, and only where asked for.
    PageKind("editor", "admin/index.html", common=False, per_language=False),
    PageKind("editor-config", "admin/config.yml", common=False, per_language=False),
    # An old address that sends visitors on (site.yaml's `redirects`): in no sitemap.
    PageKind("redirect", "{slug}", "redirect.html", common=False, per_language=False),
)
KIND = {kind.key: kind for kind in KINDS}

# The site's own folders beside its pages (the theme's assets, the owner's files), and
# names kept for pages to come: no free page may take one of these either.
OTHER_RESERVED = ("assets", "files", "index", "404")
FEED_PATH = KIND["feed"].path
SEARCH_PATH = KIND["search"].path
SITEMAP_PATH = KIND["sitemap"].path
# The citation files of every paper: path -> (the paper view's field, what comes between
# two papers', what comes before the first and after the last).
EXPORTS = {KIND["bibtex-all"].path: ("bibtex", "\n", "", ""),
           KIND["ris-all"].path: ("ris", "", "", ""),
           KIND["csl-all"].path: ("csl", ",\n", "[\n", "\n]\n")}


def paper_url(slug: str) -> str:
    return KIND["paper"].path.format(slug=slug)


def pdf_beside_page(paper: Paper) -> tuple[str, str]:
    """(where a copy of the paper's own PDF lives beside its page, the PDF's path below
    content/files/), or ('', '') for a PDF elsewhere or none: Google Scholar's inclusion
    guidelines want `citation_pdf_url` in the abstract page's folder, and `files/...` keeps
    working for the links already out there. The link's path is the file's, as for any
    link to a file (collections.check_file_path)."""
    path = paper.link("pdf").split("#", 1)[0].split("?", 1)[0]
    if not (path.startswith("files/") and path.lower().endswith(".pdf")):
        return "", ""
    return paper_url(paper.slug) + path.rsplit("/", 1)[-1], path.removeprefix("files/")


def list_fixed_urls(collections: tuple[str, ...]) -> dict[str, str]:
    """Where each page of a kind that has one page lives, by the kind's key, and each
    collection's list by its name: templates link through these (`site.urls`), never by
    a path of their own."""
    fixed = {kind.key: kind.path for kind in KINDS if "{" not in kind.path}
    return {**fixed, **{name: section_url(name) for name in collections}}


def section_url(key: str) -> str:
    """Where a section lives: its kind's path ('' for home, 'cv/'), or `key/` for a
    collection or a free page."""
    kind = KIND.get(key)
    return kind.path if kind is not None and kind.section else f"{key}/"


def list_sections(site: Site) -> list[str]:
    """The sections that have something to show, in the default menu's order: the
    table's, with the collections that have items and the free pages in their rows'
    places (a site without a CV has no CV section)."""
    keys: list[str] = []
    for kind in KINDS:
        if kind.key == "collection":
            keys += dict.fromkeys((*(item.collection for item in site.items),
                                   *(t.slug for t in site.list_texts if t.slug != "publications")))
        elif kind.key == "page":
            keys += [page.slug for page in site.pages]
        elif kind.in_menu and has_section(site, kind.key):
            keys.append(kind.key)
    return keys


def has_section(site: Site, key: str) -> bool:
    """Whether the site has the section `key` to show: a CV, people (others always)."""
    return {"cv": site.cv is not None, "people": bool(site.people)}.get(key, True)


def list_always_present() -> list[str]:
    """The sections every site has but the default menu leaves out (search, sitemap)."""
    return [kind.key for kind in KINDS if kind.section and kind.common and not kind.in_menu]


def list_section_keys() -> tuple[str, ...]:
    """The kinds that are sections, in the table's order."""
    return tuple(kind.key for kind in KINDS if kind.section)


def list_reserved(collections: tuple[str, ...]) -> frozenset[str]:
    """The names a free page may not take: sections, collections and the site's folders."""
    return frozenset((*list_section_keys(), *collections, *OTHER_RESERVED))


def list_common_templates() -> tuple[str, ...]:
    """The templates every site renders, with base.html that they extend."""
    return ("base.html", *(kind.template for kind in KINDS if kind.template and kind.common))


def list_unsearched() -> frozenset[str]:
    return frozenset(kind.key for kind in KINDS if not kind.searchable)
