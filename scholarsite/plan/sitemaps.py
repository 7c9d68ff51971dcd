"""Both sitemaps, from the table of kinds: every HTML page of a kind that has a `lastmod`,
for people (sitemap/) and for search engines (sitemap.xml)."""

from __future__ import annotations

from ..models import Item, PubDate, Site
from ..reading.collections import SCHEMAS, has_tags
from ..reading.roster import person_url
from ..structure.languages import language_links, messages_for
from ..structure.kinds import (KINDS, has_section, list_always_present, list_sections,
                               paper_url, section_url)
from ..views.blog import group_by_tag, tag_path, tags_path
from ..views.itemviews import item_url


def sitemap_sections(site: Site, views: dict[str, dict], titles: dict[str, str]) -> list[dict]:
    """Every HTML page, grouped: the site's own pages, then papers, then each collection."""
    keys = list_sections(site) + list_always_present()
    t = messages_for(site.config).gettext
    sections = [{"title": messages_for(site.config).pgettext("sitemap", "Pages"),
                 "links": [{"title": titles[k], "url": section_url(k)} for k in keys]}]
    if views:
        sections.append({"title": titles["publications"],
                         "links": [{"title": v["title"], "url": v["url"]}
                                   for v in views.values()]})
    if site.people:
        sections.append({"title": titles["people"], "links": [
            {"title": p.name, "url": person_url(p.slug)} for p in site.people]})
    for schema in SCHEMAS:
        items = site.collection(schema.name)
        if items and schema.item_template:
            sections.append({"title": titles[schema.name],
                             "links": [{"title": i.title, "url": item_url(i)} for i in items]})
        groups = group_by_tag(items) if has_tags(schema) else {}
        if groups:
            sections.append({"title": f"{titles[schema.name]}: {t('tags')}", "links": [
                {"title": t("All tags"), "url": tags_path(schema.name)},
                *({"title": name, "url": tag_path(schema.name, name)}
                  for name, _ in groups.values())]})
    return sections


def sitemap_entries(site: Site) -> list[dict]:
    """Every HTML page with its lastmod taken from content dates, never from the clock,
    in the table's order."""
    paper_dates = [p.date for p in site.papers]
    newest = {"papers": sitemap_date(*paper_dates),  # once: there may be thousands
              "all": sitemap_date(*paper_dates, *(i.date for i in site.items)), "": ""}
    pairs: list[tuple[str, str]] = []
    for kind in KINDS:
        if kind.lastmod is None:
            continue
        if kind.lastmod != "own":
            pairs += [(url, newest[kind.lastmod]) for url in list_urls(site, kind.key)]
        elif kind.key == "paper":
            pairs += [(paper_url(p.slug), sitemap_date(p.date)) for p in site.papers]
        elif kind.key in ("tags", "tag"):
            pairs += list_tag_pages(site, kind.key)
        else:
            pairs += list_dated_items(site, kind.key)
    config = site.config
    if not config.languages:
        return [{"loc": config.url + path, "lastmod": lastmod, "alternates": []}
                for path, lastmod in pairs]
    # Each page in every language, each naming all of them (itself too), as search
    # engines ask of a site in several: <xhtml:link rel="alternate" hreflang>.
    entries = []
    for path, lastmod in pairs:
        links = language_links(config.url, config.language, config.languages, path, "")
        entries += [{"loc": link["url"], "lastmod": lastmod, "alternates": links}
                    for link in links]
    return entries


def list_urls(site: Site, key: str) -> list[str]:
    """The pages of a kind dated by the site as a whole: one section's, or every free
    page's (a site without a CV has no CV page)."""
    if key == "page":
        return [item_url(p) for p in site.pages]
    if key == "person":
        return [person_url(person.slug) for person in site.people]
    if not has_section(site, key):  # a site without a CV has no CV page
        return []
    return [section_url(key)]


def list_dated_items(site: Site, key: str) -> list[tuple[str, str]]:
    """Each collection's list (dated by its newest item), or each item's page."""
    pairs = []
    for schema in SCHEMAS:
        items: tuple[Item, ...] = site.collection(schema.name)
        if items and key == "collection":
            pairs.append((section_url(schema.name), sitemap_date(*(i.date for i in items))))
        elif items and schema.item_template:
            pairs += [(item_url(i), sitemap_date(i.date)) for i in items]
    return pairs


def list_tag_pages(site: Site, key: str) -> list[tuple[str, str]]:
    """Each tagged collection's tag index (dated by its newest tagged item), or each tag's
    page (by the tag's newest item)."""
    pairs = []
    for schema in SCHEMAS:
        groups = group_by_tag(site.collection(schema.name)) if has_tags(schema) else {}
        if groups and key == "tags":
            dates = (i.date for _, items in groups.values() for i in items)
            pairs.append((tags_path(schema.name), sitemap_date(*dates)))
        elif groups:
            pairs += [(tag_path(schema.name, name), sitemap_date(*(i.date for i in items)))
                      for name, items in groups.values()]
    return pairs


def sitemap_date(*dates: PubDate | None) -> str:
    """The newest of `dates` as a full date (sitemaps want one); '' when none is known."""
    known = [d for d in dates if d is not None]
    if not known:
        return ""
    return max(known, key=PubDate.sort_key).full()
