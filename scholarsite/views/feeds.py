"""The Atom feed of publications: newest first, ids and dates that depend on content only.

Two builds of the same content give the same bytes: an entry's id is its paper page's URL
(stable while the slug is), and every date comes from a paper's date, never from the clock.
"""

from __future__ import annotations

from ..structure.languages import messages_for, pages_url
from ..models import Paper, PubDate, Site, SiteConfig
from ..structure.kinds import FEED_PATH, KIND, paper_url
from .entries import mark_entry
from ..structure.urls import absolute_url

# `updated` of a feed with no papers: the feed must have one, and nothing was ever updated.
EMPTY_FEED_DATE = "1970-01-01T00:00:00Z"
# A slug's characters in the order slugs sort in, and how many of them set an entry's time:
# enough for a microsecond apart between slugs that differ in their first seven.
SLUG_CHARS = "-0123456789abcdefghijklmnopqrstuvwxyz"
SLUG_PLACES = 7
DAY_MICROSECONDS = 86_400_000_000


def atom_date(date: PubDate, name: str = "") -> str:
    """An RFC 3339 timestamp for a date as precise as the source: the first day of the month
    or year when the day or month is unknown. At midnight UTC; with `name` (an entry's
    slug), at a time of that day its name sets, earlier for a later name: papers of one
    month are then told apart by feed readers and validators (one `updated` for all is a
    warning) and stay in the feed's order (newest first, ties by slug), the same in every
    build whatever other papers the feed has."""
    if not name:
        return f"{date.full()}T00:00:00Z"
    place = 0
    for char in name[:SLUG_PLACES].ljust(SLUG_PLACES, "-"):
        place = place * (len(SLUG_CHARS) + 1) + SLUG_CHARS.find(char) + 1
    micro = DAY_MICROSECONDS - 1 - place * DAY_MICROSECONDS // (len(SLUG_CHARS) + 1) ** SLUG_PLACES
    seconds, micro = divmod(micro, 1_000_000)
    hours, rest = divmod(seconds, 3600)
    return f"{date.full()}T{hours:02d}:{rest // 60:02d}:{rest % 60:02d}.{micro:06d}Z"


def feed_entry(config: SiteConfig, paper: Paper, view: dict) -> dict:
    url = pages_url(config) + paper_url(paper.slug)
    return mark_entry({
        "slug": paper.slug,  # names the entry's cached fragment (render.FragmentCache)
        "id": url,
        "url": url,
        "title": paper.title,
        "updated": atom_date(paper.date, paper.slug) if paper.date else "",
        "authors": [a.name for a in paper.authors],
        "summary": paper.abstract_text or view["citation"],
        "venue": view["venue_label"],
        "categories": [c for c in (paper.category, *paper.topics) if c],
        "links": [{"kind": link["kind"], "url": absolute_url(config.url, link["url"])}
                  for link in view["links"]],
    }, paper.slug, "feed")


def feed_view(site: Site, views: dict[str, dict]) -> dict:
    """The feed's own fields and its entries: the newest papers (the site's paper order),
    as many as `publications.feed_limit` says. Each entry was made with its paper's view
    (views.paper_view), and is kept with it."""
    base = pages_url(site.config)
    limit = site.config.publications.feed_limit
    # A paper in press has no date for Atom's `updated`: it joins the feed when it has one.
    entries = [views[p.slug]["feed_entry"] for p in [p for p in site.papers if p.date][:limit]]
    return {
        "id": base + FEED_PATH,
        "self": base + FEED_PATH,
        "alternate": base + KIND["publications"].path,
        "title": f"{site.config.title}: {messages_for(site.config).gettext('Publications')}",
        "subtitle": site.config.description,
        "author": site.config.owner.name,
        "updated": max((e["updated"] for e in entries), default=EMPTY_FEED_DATE),
        "entries": entries,
    }
