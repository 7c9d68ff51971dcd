"""Plain views of collection items, free pages, the CV and the owner's profile links.

Like views.py: templates get these dicts, decided here. An item's view is made for the page
that shows it (`root`), since its Markdown and relative links depend on the page's depth.
"""

from __future__ import annotations

import re

from markupsafe import Markup

from ..reading.collections import PAGES, SCHEMA_BY_NAME, Schema, has_tags, with_root
from .blog import feed_path, tag_links, tags_path
from .metadata import shorten
from .rooted import is_same_language, mark_language
from ..reading.roster import person_url
from ..structure.languages import Messages, format_span, human_date, messages_for
from ..models import CV, TYPE_LABELS, CVEntry, Item, Owner, Site
from ..models.wording import N_
from ..structure.urls import resolve_site_link, split_site_link

# Profile links with an icon and a proper name; any other label is shown as written.
PROFILE_KINDS = {
    "email": "Email", "scholar": "Google Scholar", "googlescholar": "Google Scholar",
    "dblp": "DBLP", "orcid": "ORCID", "github": "GitHub", "linkedin": "LinkedIn",
}
SUMMARY_CHARS = 200


def profile_kind(label: str) -> str:
    """'Google Scholar', 'google_scholar' and 'scholar' are all 'scholar'; '' if unknown."""
    key = re.sub(r"[\s_\-]+", "", label.casefold())
    if key == "googlescholar":
        return "scholar"
    return key if key in PROFILE_KINDS else ""


def profile_links(owner: Owner) -> list[dict]:
    """E-mail first, then the profile links in the order written, each with its icon name."""
    links = []
    if owner.email:
        links.append({"label": owner.email, "url": "mailto:" + owner.email, "icon": "email",
                      "internal": False})
    return links + link_views(owner.links)


def link_views(links: tuple[tuple[str, str], ...], addresses: bool = False) -> list[dict]:
    """Profile links (the owner's, a person's) in the order written, each with its icon
    name; with `addresses`, an e-mail link shows its address (a person's has no other)."""
    views = []
    for label, url in links:
        kind = profile_kind(label)
        url, internal = split_site_link(url)  # 'files/cv.pdf' is prefixed with page.root
        shown = url.removeprefix("mailto:") if addresses and url.startswith("mailto:") else \
            PROFILE_KINDS[kind] if kind else label
        views.append({"label": shown, "url": url, "icon": kind or "link",
                      "internal": internal})
    return views


def item_url(item: Item) -> str:
    """'talks/slug/', 'slug/' for a free page, '' for what has no page of its own (news);
    a paper's notebook (reading/besidenotebooks.py) is on its paper's page."""
    if item.collection == "pages":
        return f"{item.slug}/"
    schema = SCHEMA_BY_NAME.get(item.collection)
    return f"{item.collection}/{item.slug}/" if schema is None or schema.item_template else ""


def item_view(item: Item, schema: Schema, root: str, papers: dict[str, dict],
              language: str = "en") -> dict:
    """Everything a template may show about one item, for a page whose root is `root`, in
    `language` (its date's words).

    Every field of the schema is present ('' or []), so StrictUndefined catches typos; `meta`
    holds the non-empty one-line fields in the schema's order, for a line joined by commas.
    """
    view = {
        "collection": item.collection, "slug": item.slug, "url": item_url(item),
        "title": item.title,
        "date": human_date(item.date, language) if item.date else "",
        "date_iso": item.date.iso() if item.date else "",
        "year": item.date.year if item.date else "",
        "body_html": mark_language(Markup(with_root(item.body_html, root)), item.language)
        if item.body_html and not is_same_language(item.language or language, language)
        else Markup(with_root(item.body_html, root)),
        "toc_html": Markup(item.toc_html),
        "links": [{"label": label, "url": resolve_site_link(url, root)} for label, url in item.links],
        "papers": [papers[slug] for slug in item.papers],
        "meta": [], "facts": [],
        "image": "", "tags": [],  # what the generic templates ask of every collection
        "tag_links": tag_links(item, root), "draft": item.draft, "comments": item.comments,
        # A post's page's extras (views/blog.py), filled in by its planner.
        "reading_minutes": 0, "newer": None, "older": None, "related": [],
    }
    for spec in schema.fields:
        if spec.kind in ("text", "image"):
            value = item.field(spec.name)
            view[spec.name] = resolve_site_link(value, root) if spec.kind == "image" and value else value
            if value and spec.kind == "text" and spec.name not in ("summary", "description"):
                view["meta"].append(value)
                view["facts"].append({"label": spec.label, "value": value})
        elif spec.kind == "list":
            view[spec.name] = list(item.items_of(spec.name))
    view["summary"] = item.field("summary") or shorten(item.body_text, SUMMARY_CHARS)
    return view


def list_text_view(text: Item | None, root: str, language: str) -> dict | None:
    """A list page's own text (pages/NAME.md with `place`) as its template shows it: its
    body, and whether it stands instead of the list; None for none."""
    if text is None:
        return None
    view = item_view(text, PAGES, root, {}, language)
    return {"body_html": view["body_html"], "instead": text.field("place") == "instead"}


def collection_view(schema: Schema, title: str, entries: list[dict]) -> dict:
    """A collection as its pages show it; `feed` and `tags` (its tag index) are paths below
    the site's root, '' when it has none."""
    tagged = has_tags(schema) and any(entry["tags"] for entry in entries)
    return {"name": schema.name, "title": title, "singular": schema.singular,
            "url": f"{schema.name}/", "entries": entries,
            "feed": feed_path(schema.name) if schema.feed else "",
            "tags": tags_path(schema.name) if tagged else ""}


def cv_entry_view(entry: CVEntry, messages: Messages) -> dict:
    return {"title": entry.title, "org": entry.org, "location": entry.location,
            "when": cv_when(entry, messages),
            "url": person_url(entry.person) if entry.person else "",
            "details": cv_details(entry, messages)}


def cv_when(entry: CVEntry, messages: Messages) -> str:
    """An entry's dates in the page's language; a text of its own as written (a term)."""
    return entry.when or format_span(entry.start, entry.end, messages.language,
                                     messages.gettext("present"))


def cv_details(entry: CVEntry, messages: Messages) -> list[dict]:
    """The labelled lines, each label in the page's language (the theme's: 'Role',
    'Advisor'; a section of the owner's own is labelled with its keys, as written)."""
    return [{"label": messages.gettext(label) if label else "", "text": text}
            for label, text in entry.details]


def teaching_entries(site: Site, messages: Messages) -> list[dict]:
    """The teaching collection as CV entries, for a cv.yaml without its own 'teaching'."""
    out = []
    for item in site.collection("teaching"):
        title = f"{item.field('code')}: {item.title}" if item.field("code") else item.title
        details = [(N_("Role"), item.field("role"))] if item.field("role") else []
        when = item.field("term") or (str(item.date.year) if item.date else "")
        out.append(cv_entry_view(CVEntry(title=title, org=item.field("institution"),
                                         when=when, details=tuple(details)), messages))
    return out


def cv_publications(site: Site, papers: dict[str, dict]) -> list[dict]:
    """The papers by type (journal articles, conference papers, ...), newest first."""
    groups = []
    t = messages_for(site.config).gettext
    for ptype, label in TYPE_LABELS.items():
        members = [papers[p.slug] for p in site.papers if p.type == ptype]
        if members:
            groups.append({"title": t(label), "papers": members})
    return groups


def cv_view(cv: CV, site: Site, papers: dict[str, dict]) -> list[dict]:
    """The CV's sections in order, the publications after grants (where CVs put them)."""
    messages = messages_for(site.config)
    t = messages.gettext  # the sections' titles cv.yaml does not give
    # A section the user named ('Invited Talks') keyed as an id may be ('invited-talks').
    sections = [{"key": re.sub(r"[^a-z0-9]+", "-", s.key.lower()).strip("-") or "section",
                 "title": t(s.title),
                 "entries": [cv_entry_view(e, messages) for e in s.entries]}
                for s in cv.sections]
    if cv.section("teaching") is None and site.collection("teaching"):
        sections.append({"key": "teaching", "title": t("Teaching"),
                         "entries": teaching_entries(site, messages)})
    at = next((i for i, s in enumerate(sections)
               if s["key"] in ("service", "students", "teaching")), len(sections))
    if site.papers:
        sections.insert(at, {"key": "publications", "title": t("Publications"), "entries": [],
                             "groups": cv_publications(site, papers)})
    for section in sections:
        section.setdefault("groups", [])
    return sections
