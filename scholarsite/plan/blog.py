"""The pages of a blog (structure/kinds.py's rows "tags", "tag" and "collection-feed"):
each tagged collection's tag index and one page per tag, and the Atom feed of each
collection that has one (posts, news). plan/pages.py makes them pages."""

from __future__ import annotations

from ..models import Site
from ..reading.collections import SCHEMAS, has_tags
from ..structure.languages import messages_for
from ..structure.urls import page_root
from ..views.blog import collection_feed_view, feed_path, group_by_tag, tag_path, tags_path
from ..views.itemviews import collection_view, item_view
from .frame import page_view


def list_tag_indexes(site: Site, base: dict, titles: dict[str, str]) -> list[tuple[str, dict]]:
    """(path, context) of each tagged collection's list of its tags, with how many items
    each has."""
    pages, t = [], messages_for(site.config).gettext
    for schema in SCHEMAS:
        groups = group_by_tag(site.collection(schema.name)) if has_tags(schema) else {}
        if not groups:
            continue
        path = tags_path(schema.name)
        title = t("%(name)s by tag") % {"name": titles[schema.name]}
        root = page_root(path)
        tags = [{"name": name, "url": root + tag_path(schema.name, name),
                 "count": len(members)} for name, members in groups.values()]
        pages.append((path, {"site": base, "page": page_view(path, title, "tags", site),
                             "collection": collection_view(schema, title, []), "tags": tags}))
    return pages


def list_tag_pages(site: Site, views: dict[str, dict], base: dict, titles: dict[str, str]
                   ) -> list[tuple[str, dict, tuple[str, ...]]]:
    """(path, context, templates) of one page per tag of a tagged collection, listing its
    items as the collection's own list page does."""
    pages, t = [], messages_for(site.config).gettext
    for schema in SCHEMAS:
        if not has_tags(schema):
            continue
        for name, members in group_by_tag(site.collection(schema.name)).values():
            path = tag_path(schema.name, name)
            root, title = page_root(path), t("%(name)s tagged “%(tag)s”") % {
                "name": titles[schema.name], "tag": name}
            shown = [item_view(item, schema, root, views, site.config.language)
                     for item in members]
            context = {"site": base, "page": page_view(path, title, "tag", site),
                       "collection": collection_view(schema, title, shown),
                       "tag": name, "tags_url": root + tags_path(schema.name)}
            pages.append((path, context, ("tag.html", schema.list_template, "collection.html")))
    return pages


def list_collection_feeds(site: Site, base: dict, titles: dict[str, str]
                          ) -> list[tuple[str, dict]]:
    """(path, context) of the Atom feed of each collection that has one and has items."""
    pages = []
    for schema in SCHEMAS:
        items = site.collection(schema.name)
        if schema.feed and items:
            feed = collection_feed_view(site.config, schema, titles[schema.name], items)
            pages.append((feed_path(schema.name), {"site": base, "feed": feed}))
    return pages
