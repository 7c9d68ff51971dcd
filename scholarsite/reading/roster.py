"""A lab's people (content/people/SLUG.md) and its co-authors from elsewhere
(content/coauthors.yaml): who the authors of a paper are, wherever a page lists them.

A person is a Markdown file: front matter with `name` (and `aliases`, `scripts`: other
written forms and the name in other scripts), `role`, `photo`, `start`, `end` (an `end`
before the build's day makes them alumni), `now`, `links`, `interests`; the text below is
their bio. coauthors.yaml lists people with a page elsewhere: `name`, `aliases`, `url`.
Both become `AuthorLink`s in the settings (SiteConfig.author_links), so that each paper's
view (made from the paper and the settings alone) links its authors, found by the matcher
that finds the owner (people.py). Nothing is fetched: a link is what the file says.
"""

from __future__ import annotations

import datetime as dt
import difflib
import os
from dataclasses import dataclass, replace
from pathlib import Path

from ..diagnostics import Diagnostics
from ..models import CV, AuthorLink, CVEntry, CVSection, Person, PubDate
from ..models.forms import PERSON_FIELDS, field_names
from ..models.wording import N_
from ..structure.kinds import KIND
from ..structure.urls import check_link, is_external
from .collections import Context, check_file_path, list_markdown
from .settings.config import read_profile_links, shows_photo
from .settings.fields import FieldReader, check_declared, type_name
from .text.papers import render_markdown, report_at
from .slugs import check_file_slug, split_repeats
from .settings.langconfig import read_quietly
from .settings.yamlread import parse_yaml, read_front_matter, read_text

PEOPLE_DIR = "people"
COAUTHORS_FILE = "coauthors.yaml"
# The usual roles, in the usual order of /people/; any other is the user's own, shown
# after these unless site.yaml's `people.roles` says otherwise. Each with its group's title.
ROLES = {"PI": N_("Principal investigators"), "Postdoc": N_("Postdocs"),
         "PhD student": N_("PhD students"), "Master's student": N_("Master's students"),
         "Undergraduate": N_("Undergraduates"), "Staff": N_("Staff"), "Visitor": N_("Visitors")}
_FOLDED_ROLES = {role.casefold(): role for role in ROLES}


@dataclass(frozen=True)
class Roster:
    people: tuple[Person, ...]  # ordered as /people/ shows them (order_people)
    coauthors: tuple[AuthorLink, ...]


def person_names(person: Person) -> tuple[str, ...]:
    """Every written form of a person's name, the main one first."""
    return (person.name, *person.aliases, *person.scripts)


def person_url(slug: str) -> str:
    return KIND["person"].path.format(slug=slug)


def role_title(role: str) -> str:
    """A group's heading on /people/: 'PhD students'; the user's own role as written."""
    return ROLES.get(role, role)


def list_roles(people: tuple[Person, ...] | list[Person], order: tuple[str, ...]
               ) -> list[str]:
    """The roles of the current members in the order of /people/: site.yaml's
    `people.roles` (as folded), then the usual ones, then the others by name."""
    present = {person.role for person in people if not person.alumni}
    wanted = [_FOLDED_ROLES.get(role.casefold(), role) for role in order]
    ranked = [*wanted, *(r for r in ROLES if r not in wanted)]
    return [r for r in ranked if r in present] + sorted(present - set(ranked), key=str.casefold)


def order_people(people: list[Person], order: tuple[str, ...]) -> tuple[Person, ...]:
    """Current members by role (list_roles), then by name; then alumni, the latest to
    leave first."""
    rank = {role: i for i, role in enumerate(list_roles(people, order))}
    current = sorted((p for p in people if not p.alumni),
                     key=lambda p: (rank[p.role], p.name.casefold(), p.slug))
    alumni = sorted((p for p in people if p.alumni),
                    key=lambda p: (tuple(-n for n in p.end.sort_key()),  # type: ignore[union-attr]
                                   p.name.casefold(), p.slug))
    return (*current, *alumni)


def make_author_links(roster: Roster) -> tuple[AuthorLink, ...]:
    """The names author lists link: the people's (to their pages here), then the
    co-authors' (views.find_author_link prefers a person)."""
    people = tuple(AuthorLink(person_names(p), person_url(p.slug), p.slug) for p in roster.people)
    return (*people, *roster.coauthors)


def load_roster(ctx: Context, today: dt.date, order: tuple[str, ...], diags: Diagnostics
                ) -> Roster:
    """content/people/ and content/coauthors.yaml, checked; empty when there are none."""
    paths = list_markdown(ctx.content_dir / PEOPLE_DIR, ctx.content_dir, diags)
    read = (read_person(path, ctx, today, diags, order) for path in paths)
    people, repeats = split_repeats((p for p in read if p is not None), lambda p: p.slug)
    warn_unused_roles(order, people, ctx.content_dir, diags)
    for person, other in repeats:  # 'ana.md' and 'ana.markdown'
        diags.error(person.source, 1, f"two people files have the slug '{person.slug}': "
                    f"this one and {other.source.as_posix()}; rename one")
    coauthors = read_coauthors(ctx.content_dir / COAUTHORS_FILE, diags)
    return Roster(order_people(people, order), coauthors)


def read_person(path: Path, ctx: Context, today: dt.date, diags: Diagnostics,
                order: tuple[str, ...] = ()) -> Person | None:
    """One person's file; None (with diagnostics) when it cannot be used."""
    check_file_slug(path, "ana-souza.md", diags)
    text = read_text(path, diags)
    read = read_front_matter(text, path, diags) if text is not None else None
    if read is None:
        return None
    doc, body = read
    before = len(diags.errors())
    f = FieldReader(doc, path, diags)
    name = f.line_text("name", required=True)
    role = f.line_text("role", required=True)
    if role:
        check_role(f, role, order)
    photo = f.line_text("photo")
    photo = check_file_path(f, "photo", photo, ctx) if photo else ""
    if photo and not is_external(photo) and not shows_photo(f, "photo", photo,
                                                            ctx.content_dir / photo):
        photo = ""
    start, end = f.date("start"), f.date("end")
    if start and end and end.sort_key() < start.sort_key():
        f.error(("end",), "'end' is before 'start'")
    fields = {"aliases": f.text_list("aliases"), "scripts": f.text_list("scripts"),
              "now": f.line_text("now"), "interests": f.text_list("interests"),
              "links": read_person_links(f)}
    check_declared(f, field_names(PERSON_FIELDS), "PERSON_FIELDS")
    f.check_unknown()
    html = render_markdown(ctx.md, body, report_at(diags, path, text, body)) \
        if body.strip() else ""
    if len(diags.errors()) > before or not name or not role:
        return None
    alumni = end is not None and end_passed(end, today)
    return Person(slug=path.stem, name=name, role=_FOLDED_ROLES.get(role.casefold(), role),
                  source=path, photo=photo, start=start, end=end, alumni=alumni,
                  bio_html=html, **fields)


def check_role(f: FieldReader, role: str, order: tuple[str, ...]) -> None:
    """A warning for a role that is no usual one nor one of site.yaml's `people.roles`
    (when it gives them): it makes a group of its own on /people/, which a misspelt or
    short role ('PhD Studnet', 'phd') makes by mistake."""
    known = [*order, *(r for r in ROLES if r.casefold() not in map(str.casefold, order))]
    folded = {r.casefold(): r for r in known}
    if role.casefold() in folded and (not order or role.casefold() in map(str.casefold, order)):
        return
    near = find_near_role(role, folded)
    if near:
        f.warning(("role",), f"role '{role}' is none of {describe_roles(order)}: did you "
                  f"mean '{near}'? As written it makes a group of its own on /people/")
    elif order:
        f.warning(("role",), f"role '{role}' is not in site.yaml's people.roles; its "
                  "group is shown after theirs: add it there, or use one of them")


def find_near_role(role: str, folded: dict[str, str]) -> str:
    """The known role `role` is a misspelling ('PhD Studnet') or a short form ('phd',
    'master') of, or ''."""
    word = role.casefold().strip()
    close = difflib.get_close_matches(word, list(folded), n=1, cutoff=0.75)
    if close and close[0] != word:
        return folded[close[0]]
    starts = [r for r in folded if r.startswith(word) and r[len(word):][:1] in (" ", "'")]
    return folded[starts[0]] if len(starts) == 1 else ""


def describe_roles(order: tuple[str, ...]) -> str:
    if order:
        return f"the usual roles nor site.yaml's people.roles ({', '.join(order)})"
    return f"the usual roles ({', '.join(ROLES)})"


def warn_unused_roles(order: tuple[str, ...], people: list[Person], content_dir: Path,
                      diags: Diagnostics) -> None:
    """Warnings for site.yaml's `people.roles` that order no one: a role near one that
    people have ('Postdocs' for 'Postdoc'), or a list that names no one's role at all."""
    held = {person.role.casefold(): person.role for person in people}
    unused = [(i, role) for i, role in enumerate(order) if role.casefold() not in held]
    if not people or not unused:
        return
    doc = read_quietly(content_dir / "site.yaml")
    where = content_dir / "site.yaml"
    for i, role in unused:
        near = difflib.get_close_matches(role.casefold(), sorted(held), n=1, cutoff=0.75)
        if near and (held[near[0]] in ROLES or role not in ROLES):  # which one is misspelt
            diags.warning(where, doc.line("people", "roles", i) if doc else 1,
                          f"people.roles names '{role}', which is no one's role: did you "
                          f"mean '{held[near[0]]}'?")
    if len(unused) == len(order):
        diags.warning(where, doc.line("people", "roles") if doc else 1, "people.roles names "
                      f"no one's role, so it orders nothing; the roles are "
                      f"{', '.join(sorted(set(held.values()), key=str.casefold))}")


def end_passed(end: PubDate, today: dt.date) -> bool:
    """An `end` of a year or month lasts to its last day: 'end: 2024' is past in 2025."""
    year, month, day = end.year, end.month or 12, end.day or 31
    return (year, month, day) < (today.year, today.month, today.day)


def read_person_links(f: FieldReader) -> tuple[tuple[str, str], ...]:
    """`links`: homepage, scholar, orcid, github, email or the user's own label, each an
    address (a bare ORCID iD, GitHub name or e-mail address is made one)."""
    links = f.mapping("links")
    for label, value in list(links.data.items()):
        kind = str(label).casefold()
        if not isinstance(value, str) or not value.strip() or ":" in value:
            continue
        value = value.strip()
        if kind in ("email", "e-mail") and "@" in value:
            links.data[label] = "mailto:" + value
        elif kind == "github" and "/" not in value:
            links.data[label] = "https://github.com/" + value
    return read_profile_links(links)


def read_coauthors(path: Path, diags: Diagnostics) -> tuple[AuthorLink, ...]:
    """coauthors.yaml: a list of `name`, `aliases` and `url`; () when there is none."""
    if not os.path.lexists(path):
        return ()
    text = read_text(path, diags)
    doc = parse_yaml(text, path, 1, diags) if text is not None else None
    if doc is None or doc.data is None:
        return ()
    if not isinstance(doc.data, list):
        diags.error(path, 1, "coauthors.yaml must be a list of co-authors, each "
                    f"'- name: ...' with 'url: ...', found {type_name(doc.data)}")
        return ()
    out = []
    for i, raw in enumerate(doc.data):
        f = FieldReader(doc, path, diags, (i,), raw, what="co-author field")
        name = f.line_text("name", required=True)
        aliases = f.text_list("aliases")
        url = read_coauthor_url(f)
        f.check_unknown()
        if name and url:
            out.append(AuthorLink((name, *aliases), url))
    return tuple(out)


def read_coauthor_url(f: FieldReader) -> str:
    """A co-author's page: an address on the web (http or https)."""
    text = f.line_text("url", required=True)
    if not text:
        return ""
    url, problem = check_link("url", text)
    if problem or not is_external(url) or url.startswith("mailto:"):
        why = f" ({problem})" if problem else ""
        f.error(("url",), f"'url' must be the address of the co-author's page, such as "
                f"https://example.org/~grace; found {text!r}{why}")
        return ""
    return url


def link_students(cv: CV, people: tuple[Person, ...], diags: Diagnostics) -> CV:
    """cv.yaml's students that name a person (`person: SLUG`) filled from their file:
    the name, the years and where they are now, unless the entry gives them."""
    section = cv.section("students")
    if section is None or not any(entry.person for entry in section.entries):
        return cv
    by_slug = {person.slug: person for person in people}
    entries = []
    for entry in section.entries:
        person = by_slug.get(entry.person)
        if entry.person and person is None:
            diags.error(cv.source, entry.line, f"'person' names '{entry.person}', but there "
                        f"is no {PEOPLE_DIR}/{entry.person}.md; known: "
                        f"{', '.join(sorted(by_slug)) or 'none'}")
        entries.append(fill_student(entry, person) if person else entry)
    sections = tuple(CVSection(s.key, s.title, tuple(entries)) if s is section else s
                     for s in cv.sections)
    return replace(cv, sections=sections)


def fill_student(entry: CVEntry, person: Person) -> CVEntry:
    """A CV entry (of `students`) with what its person's file says and it does not."""
    details = entry.details
    if person.now and not any(label == "Now" for label, _ in details):
        details = (*details, (N_("Now"), person.now))
    start, end = entry.start, entry.end
    if not start and person.start:
        start, end = person.start.iso(), person.end.iso() if person.end else "present"
    return replace(entry, title=entry.title or person.name, start=start, end=end,
                   details=details)
