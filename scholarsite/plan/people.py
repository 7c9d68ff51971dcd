"""The pages of a lab's people: /people/ (the members by role, then the alumni, with a
link to the page on joining the lab) and each person's page with their papers; and the
current members as a lab's home page shows them."""

from __future__ import annotations

from markupsafe import Markup

from ..models import Site
from ..structure.kinds import KIND
from ..structure.urls import page_root
from ..views.people import describe_person, group_people, list_papers_by_person, person_view
from ..views.metadata import make_member_ld
from ..views.views import shown_notes
from .frame import page_view

# The free page (content/pages/join.md) /people/ links to, on openings and how to apply.
JOIN_PAGE = "join"


def list_people_pages(site: Site, views: dict[str, dict], base: dict, notes: list[dict],
                      titles: dict[str, str]) -> list[tuple[str, str, dict]]:
    """(kind, path, context) of /people/ and of each person's page; none for a site
    without people."""
    if not site.people:
        return []
    path = KIND["people"].path
    groups, alumni = group_people(site, page_root(path))
    join = next(({"title": page.title, "url": f"{page.slug}/"} for page in site.pages
                 if page.slug == JOIN_PAGE), None)
    context = {"site": base, "page": page_view(path, titles["people"], "people", site),
               "groups": groups, "alumni": alumni, "join": join}
    return [("people", path, context),
            *(("person", path, context) for path, context
              in list_person_pages(site, views, base, notes))]


def list_lab_members(site: Site, title: str) -> dict | None:
    """The current members by role, as /people/ groups them, for the home page of a lab's
    site (site.yaml's `lab`), which links /people/ for the rest; None for a person's site
    or a lab without current members."""
    groups = group_people(site, page_root(""))[0] if site.config.lab else []
    return {"title": title, "groups": groups} if groups else None


def list_person_pages(site: Site, views: dict[str, dict], base: dict, notes: list[dict]
                      ) -> list[tuple[str, dict]]:
    """Each person's page (path, context): their card and bio, and their papers, newest
    first."""
    papers = list_papers_by_person(site, views)
    pages = []
    for person in site.people:
        path = KIND["person"].path.format(slug=person.slug)
        view = person_view(person, page_root(path), site.content_dir)
        page = page_view(path, person.name, "person", site,
                         description=describe_person(person), photo=person.photo)
        page["meta"]["jsonld"] = [make_member_ld(person, site, page["canonical"])]
        context = {"site": base, "page": page,
                   "person": view, "bio_html": Markup(view["bio_html"]),
                   "papers": papers[person.slug],
                   "notes": shown_notes(notes, papers[person.slug])}
        pages.append((path, context))
    return pages
