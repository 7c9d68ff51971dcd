"""What makes a collection a blog (posts): tag pages, previous and next, reading time,
related posts by shared tags, and the Atom feeds of posts and news.

Decided here from the model, for the planners (plan/blog.py) and the item views; the
templates only show it. Dates and ids come from the content, never the clock, so two
builds of the same content give the same feeds.
"""

from __future__ import annotations

from functools import lru_cache

from ..structure.languages import human_date, pages_url
from ..models import Item, SiteConfig
from ..reading.collections import Schema
from ..reading.text.papers import math_as_text
from ..reading.slugs import make_tag_slug
from ..structure.kinds import KIND, section_url
from ..structure.urls import ROOT_MARKER
from .feeds import EMPTY_FEED_DATE, atom_date
from .metadata import shorten

WORDS_PER_MINUTE = 230  # a common figure for reading prose on a screen
RELATED_POSTS = 3
UNTITLED_CHARS = 80  # an untitled news item's title in the feed: its text's beginning


@lru_cache(maxsize=4096)
def tag_slug(tag: str) -> str:
    """A tag's address: made once, though related posts compare every pair's tags."""
    return make_tag_slug(tag)


def tag_path(collection: str, tag: str) -> str:
    return KIND["tag"].path.format(collection=collection, slug=tag_slug(tag))


def tags_path(collection: str) -> str:
    return KIND["tags"].path.format(collection=collection)


def feed_path(collection: str) -> str:
    return KIND["collection-feed"].path.format(collection=collection)


def group_by_tag(items: tuple[Item, ...]) -> dict[str, tuple[str, list[Item]]]:
    """Each tag's address (its slug) -> the tag as first written (by the newest item that
    has it) and its items, newest first; tags that differ only in case or accents share
    one page. Tags in order of their slugs."""
    groups: dict[str, tuple[str, list[Item]]] = {}
    for item in items:
        for tag in dict.fromkeys(item.items_of("tags")):
            slug = tag_slug(tag)
            groups.setdefault(slug, (tag, []))[1].append(item)
    return dict(sorted(groups.items()))


def tag_links(item: Item, root: str) -> list[dict]:
    return [{"name": tag, "url": root + tag_path(item.collection, tag)}
            for tag in dict.fromkeys(item.items_of("tags"))]


def tag_slugs(item: Item) -> set[str]:
    """An item's tags as their pages know them: 'Systems' and 'systems' are one."""
    return {tag_slug(tag) for tag in item.items_of("tags")}


def reading_minutes(item: Item) -> int:
    return max(1, round(len(item.body_text.split()) / WORDS_PER_MINUTE))


def find_related(item: Item, items: tuple[Item, ...]) -> list[Item]:
    """Up to RELATED_POSTS other items that share the most tags with `item`, the newest
    first among equals."""
    tags = tag_slugs(item)
    if not tags:
        return []
    scored = [(-len(tags & tag_slugs(other)), other.sort_key(), other)
              for other in items if other.slug != item.slug]
    return [other for score, _, other in sorted(scored, key=lambda s: s[:2])
            if score < 0][:RELATED_POSTS]


def blog_extras(item: Item, items: tuple[Item, ...], root: str, language: str = "en") -> dict:
    """A post's page's extras: its neighbours in time, its reading time, related posts.
    `items` is its collection, newest first."""
    at = next(i for i, other in enumerate(items) if other.slug == item.slug)
    newer = items[at - 1] if at > 0 else None
    older = items[at + 1] if at + 1 < len(items) else None
    return {"reading_minutes": reading_minutes(item),
            "newer": link_to(newer, root, language), "older": link_to(older, root, language),
            "related": [link_to(other, root, language) for other in find_related(item, items)]}


def link_to(item: Item | None, root: str, language: str = "en") -> dict | None:
    if item is None:
        return None
    return {"title": item.title, "url": f"{root}{item.collection}/{item.slug}/",
            "date": human_date(item.date, language) if item.date else "",
            "date_iso": item.date.iso() if item.date else ""}


def collection_feed_view(config: SiteConfig, schema: Schema, title: str,
                         items: tuple[Item, ...]) -> dict:
    """The Atom feed of one collection, newest first. An item with a page of its own is
    linked to it; a news item, which has none, to the news page, with its slug as the
    fragment (news-SLUG, its element's id) so that its id is still its own."""
    base = pages_url(config)
    list_url = base + section_url(schema.name)
    entries = []
    for item in items:
        url = f"{list_url}{item.slug}/" if schema.item_template else f"{list_url}#news-{item.slug}"
        html = math_as_text(item.body_html.replace(ROOT_MARKER, base))
        entries.append({"id": url, "url": url, "title": item.title or shorten(item.body_text, UNTITLED_CHARS),
                        "updated": atom_date(item.date) if item.date else EMPTY_FEED_DATE,
                        "summary": item.field("summary"), "content": html,
                        "categories": list(dict.fromkeys(item.items_of("tags")))})
    return {"id": base + feed_path(schema.name), "self": base + feed_path(schema.name),
            "alternate": list_url, "title": f"{config.title}: {title}",
            "subtitle": "", "author": config.owner.name,
            "updated": max((e["updated"] for e in entries), default=EMPTY_FEED_DATE),
            "entries": entries}
