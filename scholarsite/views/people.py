"""Plain views of the lab's people for templates: a person's card and page, the groups of
/people/ and which papers each person's page lists."""

from __future__ import annotations

from pathlib import Path

from markupsafe import Markup

from ..structure.languages import messages_for
from ..models import Person, PubDate, Site
from ..reading.collections import with_root
from ..reading.text.papers import html_to_text
from ..reading.roster import list_roles, person_url, role_title
from .itemviews import link_views
from .metadata import DESCRIPTION_LIMIT, shorten
from .photos import photo_view
from .viewtypes import PersonView
from .views import linked_people, make_anchor


def make_initials(name: str) -> str:
    """What the badge of a person without a photo shows: 'Ana Souza' -> 'AS'."""
    words = [word for word in name.replace("-", " ").split() if word[:1].isalpha()]
    if not words:
        return name[:1].upper()
    return (words[0][0] + (words[-1][0] if len(words) > 1 else "")).upper()


def show_years(start: PubDate | None, end: PubDate | None) -> str:
    """'2019–2023', '2021–present', or '' when the file gives no start."""
    if start is None:
        return ""
    until = str(end.year) if end else "present"
    return str(start.year) if until == str(start.year) else f"{start.year}–{until}"


def person_view(person: Person, root: str, content_dir: Path) -> PersonView:
    """Everything a template may show about one person (viewtypes.PersonView), for a page
    whose root is `root`.
    Every key is present ('', [] or {}); `photo`: as a card and a page show it, by place."""
    bio = Markup(with_root(person.bio_html, root)) if person.bio_html else Markup("")
    return {"slug": person.slug, "name": person.name, "scripts": list(person.scripts),
            "role": person.role, "url": person_url(person.slug),
            "photo": {place: photo_view(content_dir, person.photo, place)
                      for place in ("card", "page")} if person.photo else {},
            "initials": make_initials(person.name), "years": show_years(person.start,
                                                                        person.end),
            "alumni": person.alumni, "now": person.now, "interests": list(person.interests),
            "links": link_views(person.links, addresses=True), "bio_html": bio}


def describe_person(person: Person) -> str:
    """A person page's description: their role and interests, or their bio's start."""
    parts = [person.role + (f", now {person.now}" if person.alumni and person.now else "")]
    if person.interests:
        parts.append("Interests: " + ", ".join(person.interests))
    text = ". ".join(parts) + "."
    return shorten(text if person.interests else f"{text} {html_to_text(person.bio_html)}",
                   DESCRIPTION_LIMIT)


def group_people(site: Site, root: str) -> tuple[list[dict], list[dict]]:
    """The current members by role, in the order of /people/ (site.yaml's `people.roles`
    first), and the alumni, each as person_view shows them."""
    groups = []
    for role in list_roles(site.people, site.config.people_roles):
        title = role_title(role)
        groups.append({"title": messages_for(site.config).gettext(title),
                       "id": make_anchor(title),
                       "people": [person_view(p, root, site.content_dir) for p in site.people
                                  if p.role == role and not p.alumni]})
    return groups, [person_view(p, root, site.content_dir) for p in site.people if p.alumni]


def list_papers_by_person(site: Site, views: dict[str, dict]) -> dict[str, list[dict]]:
    """Each person's papers' views, newest first (the site's order): those whose author
    lists name them (views.linked_people)."""
    found: dict[str, list[dict]] = {person.slug: [] for person in site.people}
    for paper in site.papers:
        view = views[paper.slug]
        for slug in linked_people(view):
            found.setdefault(slug, []).append(view)
    return found
