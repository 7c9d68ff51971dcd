"""What the CV's PDF shows, as plain data: the theme's cv.typ (render/typeset.py) reads it
as JSON and places every value as text, so nothing a user writes is ever read as Typst.

One function per part of the CV: the header (name, position, contact and profile links),
then cv.yaml's sections in its order, the publications from the paper files (grouped by
type, numbered, the owner's name marked), the talks, and the teaching when cv.yaml has
none of its own. Every key a template may read is always present ('' or []).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ..structure.languages import Messages, human_date, messages_for, split_region
from ..models import CV, TYPE_LABELS, CVEntry, CVSection, Paper, PubDate, Site
from ..reading.people import is_owner
from ..reading.slugs import fold_latin
from ..structure.kinds import KIND, paper_url
from ..structure.urls import absolute_url
from .citations import status_label, venue_label
from .itemviews import cv_details, cv_when, profile_links
from .views import count_summary, shown_texts

# Where sections go that cv.yaml does not place: publications before these, as cv_view.
AFTER_PUBLICATIONS = ("service", "students", "teaching")


@dataclass(frozen=True)
class CVFiles:
    """What a build made of the CV besides its page: each file by its path in the site and
    where it is stored (the PDF, the JSON Resume), and the PDF's path and size in bytes
    (the CV page shows it beside the link): '' and 0 when it could not be made."""

    copies: tuple[tuple[str, Path], ...]
    pdf: str = ""
    size: int = 0


def cv_pdf_view(made: CVFiles | None) -> dict | None:
    """The CV page's link to the PDF: where it is, and its size as people read it."""
    if made is None or not made.pdf:
        return None
    size = f"{max(1, round(made.size / 1000))} KB" if made.size < 1000 * 1000 \
        else f"{made.size / 1000 / 1000:.1f} MB"
    return {"url": made.pdf, "size": size}


def cv_pdf_path(site: Site) -> str:
    """'cv/ada-lovelace-cv.pdf': the owner's name, as a file name people keep (its Latin
    letters, accents dropped: 'cv/cv.pdf' for a name with none)."""
    words = re.findall(r"[a-z0-9]+", fold_latin(site.config.owner.name).casefold())
    return KIND["cv"].path + "-".join([*words, "cv"]) + ".pdf"


def make_cv_data(site: Site, cv: CV) -> dict:
    """Everything cv.typ shows, in the order it shows it, in the site's language: every
    word of the theme's from the catalogs, every date as CLDR writes it."""
    owner = site.config.owner
    messages = messages_for(site.config)
    t = messages.gettext
    language, region = split_region(site.config.language)
    return {"title": f"{owner.name}: {t('Curriculum Vitae')}", "header": header_data(site),
            "settings": {"paper": cv.pdf.paper, "font": cv.pdf.font, "tiers": cv.pdf.tiers},
            "sections": translate_sections(list_sections(site, cv, messages), t),
            "language": language, "region": region, "running_title": t("Curriculum Vitae"),
            "et_al": t("et al.")}


def translate_sections(sections: list[dict], t: Callable[[str], str]) -> list[dict]:
    """The headings the theme names (cv.yaml's own are its owner's) in the site's
    language."""
    for section in sections:
        section["title"] = t(section["title"])
        for group in section["groups"]:
            group["title"] = t(group["title"])
    return sections


def header_data(site: Site) -> dict:
    owner = site.config.owner
    links = [{"label": link["label"], "url": absolute_url(site.config.url, link["url"])
              if link["internal"] else link["url"]} for link in profile_links(owner)]
    return {"name": owner.name, "position": owner.position,
            "affiliation": owner.affiliation, "website": site.config.url, "links": links}


def list_sections(site: Site, cv: CV, messages: Messages) -> list[dict]:
    """cv.yaml's sections in its order (the teaching collection after them when cv.yaml
    has no teaching), the publications before service, students and teaching (or last),
    and the talks right after the publications."""
    sections = [section_data(section, messages) for section in cv.sections]
    if cv.section("teaching") is None and site.collection("teaching"):
        sections.append(teaching_data(site, messages))
    at = next((i for i, s in enumerate(sections) if s["key"] in AFTER_PUBLICATIONS),
              len(sections))
    publications = publications_data(site, cv, messages)
    if publications["groups"]:
        sections.insert(at, publications)
    if site.collection("talks"):
        sections.insert(sections.index(publications) + 1 if publications["groups"]
                        else len(sections), talks_data(site, messages))
    return sections


def new_section(key: str, title: str, entries: list[dict] | None = None,
                groups: list[dict] | None = None, note: str = "") -> dict:
    """`note`: a line under the section's title (the publications' citation counts)."""
    return {"key": key, "title": title, "entries": entries or [], "groups": groups or [],
            "note": note}


def entry_data(entry: CVEntry, messages: Messages) -> dict:
    return {"title": entry.title, "org": entry.org, "location": entry.location,
            "when": cv_when(entry, messages), "details": cv_details(entry, messages)}


def section_data(section: CVSection, messages: Messages) -> dict:
    return new_section(section.key, section.title,
                       [entry_data(e, messages) for e in section.entries])


def teaching_data(site: Site, messages: Messages) -> dict:
    """The teaching collection, for a cv.yaml without its own 'teaching'."""
    entries = []
    for item in site.collection("teaching"):
        code = item.field("code")
        details = [("Role", item.field("role"))] if item.field("role") else []
        entries.append(entry_data(CVEntry(
            title=f"{code}: {item.title}" if code else item.title,
            org=item.field("institution"), details=tuple(details),
            when=item.field("term") or (str(item.date.year) if item.date else "")), messages))
    return new_section("teaching", "Teaching", entries)


def talks_data(site: Site, messages: Messages) -> dict:
    entries = [entry_data(CVEntry(title=item.title, org=item.field("event"),
                                  location=item.field("location"),
                                  when=human_date(item.date, site.config.language)
                                  if item.date else ""), messages)
               for item in site.collection("talks")]
    return new_section("talks", "Talks", entries)


def publications_data(site: Site, cv: CV, messages: Messages) -> dict:
    """The papers by type, newest first, numbered through (as CVs count them): all, or
    only the selected ones (`pdf: {publications: selected}`)."""
    papers = [p for p in site.papers if cv.pdf.publications == "all" or p.selected]
    groups, number = [], 0
    for ptype, label in TYPE_LABELS.items():
        members = []
        for paper in (p for p in papers if p.type == ptype):
            number += 1
            members.append(paper_data(site, paper, number, cv.pdf.tiers, messages))
        if members:
            groups.append({"title": label, "papers": members})
    return new_section("publications", "Publications", groups=groups,
                       note=describe_counts(count_summary(site), messages.gettext))


def describe_counts(summary: dict | None, t: Callable[[str], str]) -> str:
    """The citations line of the CV ('' when the site shows no counts), as the page says it."""
    if summary is None:
        return ""
    return (t("Cited %(total)s times, h-index %(h)s") % {"total": summary["total"],
                                                           "h": summary["h_index"]} + " ("
            + t("%(source)s, as of %(date)s") % {"source": summary["source"],
                                                  "date": summary["as_of"]} + ")")


def paper_data(site: Site, paper: Paper, number: int, tiers: bool, messages: Messages) -> dict:
    """A paper as the CV lists it: its title as the site's pages in this language show
    it (its own, or the one it gives in this language)."""
    owner = site.config.owner
    return {"number": number, "title": shown_texts(paper, messages.language)["title"],
            "authors": [{"name": a.name, "marks": "".join(a.marks),
                         "owner": is_owner(a, owner)} for a in paper.authors],
            "et_al": paper.more_authors,
            "venue": paper.venue_short or venue_label(paper) or paper.institution,
            "year": str(paper.date.year) if paper.date else messages.gettext(status_label(paper)),
            "tier": paper.tier if tiers else "",
            "award": paper.award, "url": site.config.url + paper_url(paper.slug)}


def newest_date(site: Site) -> PubDate | None:
    """The newest date the CV shows (a paper's or a talk's): the PDF's creation date, so
    that the same content makes the same bytes."""
    dates = [p.date for p in site.papers if p.date]
    dates += [item.date for item in site.collection("talks") if item.date]
    return max(dates, key=PubDate.sort_key, default=None)


def list_shown_texts(site: Site, cv: CV) -> list[tuple[str, Path, int]]:
    """Each text the PDF shows (as make_cv_data shows it) with the file and line it was
    written at, so that a character no font has is told where it can be fixed."""
    config = site.content_dir / "site.yaml"
    head = header_data(site)
    texts = [(text, config, 1) for text in (head["name"], head["position"],
                                            head["affiliation"], head["website"],
                                            *(link["label"] for link in head["links"]))]
    lines = dict(cv.lines)
    for section in cv.sections:
        texts += [(text, cv.source, entry.line or lines.get(section.key, 1))
                  for entry in section.entries
                  for text in (entry.title, entry.org, entry.location,
                               *(text for _, text in entry.details))]
    shown = [p for p in site.papers if cv.pdf.publications == "all" or p.selected]
    messages = messages_for(site.config)
    texts += [(text, paper.source, paper.line) for paper in shown
              for data in (paper_data(site, paper, 0, cv.pdf.tiers, messages),)
              for text in (data["title"], data["venue"], data["year"],
                           paper.tier if cv.pdf.tiers else "", paper.award,
                           *(author.name + "".join(author.marks) for author in paper.authors))]
    items = [*site.collection("talks"), *(site.collection("teaching")
                                          if cv.section("teaching") is None else ())]
    texts += [(text, item.source, item.line) for item in items
              for text in (item.title, *(item.field(name) for name in (
                  "event", "location", "code", "term", "role", "institution")))]
    return [(text, path, line) for text, path, line in texts if text]
