"""What every page shows alike: the site's settings and menu (`site`), and what a
template knows about the page it renders (`page`), with its metadata for machines."""

from __future__ import annotations

from urllib.parse import urlsplit

from ..models import Paper, Site
from ..reading.collections import SCHEMAS
from ..structure.kinds import (FEED_PATH, KIND, KINDS, list_always_present, list_fixed_urls,
                               list_sections, section_url)
from ..structure.languages import is_rtl, language_links, language_prefix, messages_for
from ..structure.urls import page_root, split_site_link
from ..views.blog import feed_path
from ..views.itemviews import profile_links
from ..views.looks import add_preview, analytics_view, comments_view, theme_view
from ..views.metadata import make_page_meta
from ..views.photos import photo_view
from ..views.viewtypes import PageView


def section_titles(site: Site) -> dict[str, str]:
    """Each section's title: its default, or the label site.yaml's `nav` gives it."""
    t = messages_for(site.config).gettext  # the theme's own titles in the site's language
    titles = {kind.key: t(kind.title) for kind in KINDS if kind.section}
    titles.update({s.name: t(s.title) for s in SCHEMAS})
    titles.update({p.slug: p.title for p in site.pages})
    titles.update({e.key: e.title for e in site.config.nav if e.key and e.title})
    return titles


def make_nav(site: Site) -> list[dict]:
    """site.yaml's `nav` when given (sections with nothing to show left out), else the
    default: Home, Publications, the collections with items, CV, the free pages."""
    titles = section_titles(site)
    sections = list_sections(site)
    present = {*sections, *list_always_present()}
    if not site.config.nav:
        return [{"title": titles[k], "url": section_url(k), "internal": True}
                for k in sections]
    nav = []
    for entry in site.config.nav:
        if entry.url:
            url, internal = split_site_link(entry.url)
            nav.append({"title": entry.title, "url": url, "internal": internal})
        elif entry.key in present:
            nav.append({"title": titles[entry.key], "url": section_url(entry.key),
                        "internal": True})
    return nav


def list_feeds(site: Site) -> list[dict]:
    """Every Atom feed of the site, advertised in each page's head: the papers', then each
    collection's that has one and has items."""
    titles = section_titles(site)
    feeds = [{"title": f"{site.config.title}: {titles['publications']}", "url": FEED_PATH}]
    feeds += [{"title": f"{site.config.title}: {titles[s.name]}", "url": feed_path(s.name)}
              for s in SCHEMAS if s.feed and site.collection(s.name)]
    return feeds


def site_view(site: Site) -> dict:
    config = site.config
    owner = config.owner
    return {
        "title": config.title,
        "description": config.description,
        "language": config.language,
        "languages": list(config.languages),  # a site in several: all, the default first
        "dir": "rtl" if is_rtl(config.language) else "",  # Arabic, Hebrew: right to left
        # site.yaml's `strings` in this language, which `_()` in templates gives first.
        "strings": tuple((message, own) for tag, message, own in config.strings
                         if tag == config.language),
        "url": config.url,
        "base_path": urlsplit(config.url).path or "/",
        "owner": {"name": owner.name, "position": owner.position,
                  "affiliation": owner.affiliation, "email": owner.email,
                  "photo": owner.photo, "links": profile_links(owner),
                  "photo_shown": photo_view(site.content_dir, owner.photo, "home")},
        "lab": lab_view(site),
        "nav": make_nav(site),
        "feed": FEED_PATH,
        "urls": list_fixed_urls(tuple(schema.name for schema in SCHEMAS)),
        "feeds": list_feeds(site),
        "theme": theme_view(config),
        "analytics": analytics_view(config),
        "comments": comments_view(config),
    }


def lab_view(site: Site) -> dict | None:
    """A lab's site (site.yaml's `lab`): its name, for the home and the footer, and its
    picture, shown as large as an owner's photo; None for a person's site."""
    lab = site.config.lab
    if lab is None:
        return None
    return {"name": lab.name, "picture": photo_view(site.content_dir, lab.picture, "home")}


def page_view(path: str, title: str, kind: str, site: Site, description: str = "",
              absolute_links: bool = False, paper: Paper | None = None,
              photo: str = "") -> PageView:
    """What every template knows about the page it renders (views/viewtypes.PageView),
    with its metadata for machines (Open Graph, Twitter, and on paper and home pages
    Highwire tags and JSON-LD); `photo`: the page's own for link previews (a person's).

    `root` prefixes every internal link: relative ('../../') so that the site works under
    any subpath and from disk; the 404 page, served at any depth, uses the absolute path.
    """
    config = site.config
    root = urlsplit(config.url).path if absolute_links else page_root(path)
    # The site's root, where the assets and files are: a language's root is one below it.
    top = root if absolute_links or not language_prefix(config.language, config.languages) \
        else root + "../"
    canonical = config.url + language_prefix(config.language, config.languages) + path
    description = description or site.config.description
    shown_title = site.config.title if kind == "home" else title
    return {"path": path, "title": title, "kind": kind, "root": root, "top": top,
            "canonical": canonical, "description": description,
            # The page in each language: not the 404 page, which is the site's alone.
            "languages": language_links(config.url, config.language, config.languages,
                                        path, top) if KIND[kind].per_language else [],
            "meta": add_preview(make_page_meta(site, shown_title, description, canonical,
                                               kind, paper), site, paper, shown_title,
                                photo)}
