"""The CV as JSON Resume (https://jsonresume.org/schema), `cv/resume.json`, for the
services and themes that read that format: made from the same data as the CV page and its
PDF. What the schema has no place for (grants, students, teaching, talks) is left out.
"""

from __future__ import annotations

import json

from ..models import CV, CVEntry, Site
from ..structure.kinds import KIND, paper_url
from .citations import venue_label
from .itemviews import PROFILE_KINDS, profile_kind

RESUME_PATH = KIND["cv"].path + "resume.json"
SCHEMA = ("https://raw.githubusercontent.com/jsonresume/resume-schema/v1.0.0/schema.json")


def make_resume_json(site: Site, cv: CV) -> str:
    """The JSON Resume document, as the text written (keys in the schema's order)."""
    resume = {"$schema": SCHEMA, "basics": basics(site),
              "work": [work(e) for e in entries(cv, "positions")],
              "volunteer": [volunteer(e) for e in entries(cv, "service")],
              "education": [education(e) for e in entries(cv, "education")],
              "awards": [award(e) for e in entries(cv, "awards")],
              "publications": publications(site),
              "meta": {"canonical": site.config.url + RESUME_PATH}}
    return json.dumps(resume, ensure_ascii=False, indent=2) + "\n"


def entries(cv: CV, key: str) -> tuple[CVEntry, ...]:
    section = cv.section(key)
    return section.entries if section else ()


def basics(site: Site) -> dict:
    owner = site.config.owner
    profiles = [{"network": PROFILE_KINDS.get(profile_kind(label), label), "url": url}
                for label, url in owner.links if url.startswith(("https://", "http://"))]
    return drop_empty({"name": owner.name, "label": owner.position, "email": owner.email,
                       "url": site.config.url, "summary": site.config.description,
                       "profiles": profiles})


def dates(entry: CVEntry, single: str = "startDate") -> dict:
    """startDate and endDate as the schema writes them (no endDate: still going on). An
    entry with one date (cv.yaml's `date`) has only `single`: a degree's is when it was
    awarded (endDate), not also when study began."""
    if entry.start and entry.start == entry.end:
        return {single: entry.start}
    end = "" if entry.end == "present" else entry.end
    return drop_empty({"startDate": entry.start, "endDate": end})


def work(entry: CVEntry) -> dict:
    return drop_empty({"name": entry.org, "position": entry.title,
                       "location": entry.location, **dates(entry),
                       "summary": details_text(entry)})


def volunteer(entry: CVEntry) -> dict:
    return drop_empty({"organization": entry.org, "position": entry.title, **dates(entry),
                       "summary": details_text(entry)})


def education(entry: CVEntry) -> dict:
    return drop_empty({"institution": entry.org, "studyType": entry.title,
                       **dates(entry, "endDate"),
                       "summary": details_text(entry)})


def award(entry: CVEntry) -> dict:
    return drop_empty({"title": entry.title, "date": entry.start, "awarder": entry.org,
                       "summary": details_text(entry)})


def details_text(entry: CVEntry) -> str:
    return "; ".join(f"{label}: {text}" if label else text for label, text in entry.details)


def publications(site: Site) -> list[dict]:
    """Each paper as the CV lists it; no abstract (each paper's page has it), so that an
    abstract's edit leaves the CV's files as they were."""
    return [drop_empty({"name": paper.title, "publisher": venue_label(paper)
                        or paper.institution or paper.publisher,
                        "releaseDate": paper.date.iso(),
                        "url": site.config.url + paper_url(paper.slug)})
            for paper in site.papers]


def drop_empty(fields: dict) -> dict:
    """The schema's fields are optional: one with nothing to say is left out."""
    return {key: value for key, value in fields.items() if value}
