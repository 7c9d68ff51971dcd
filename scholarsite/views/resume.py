"""The CV as JSON Resume (https://jsonresume.org/schema), `cv/resume.json`, for the
services and themes that read that format: made from the same data as the CV page and its
PDF. Sections the user named go where the schema has a place of that name (certificates,
skills, languages, interests); what it has none for (grants, students, teaching, talks,
memberships) is left out.
"""

from __future__ import annotations

import json

from ..models import CV, CVEntry, Site
from ..structure.kinds import KIND, paper_url
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
              "certificates": [certificate(e) for e in entries(cv, "certificates")],
              "publications": publications(site),
              "skills": [{"name": e.title} for e in entries(cv, "skills")],
              "languages": [drop_empty({"language": e.title, "fluency": e.org})
                            for e in entries(cv, "languages")],
              "interests": [{"name": e.title} for e in entries(cv, "interests")],
              "meta": {"canonical": site.config.url + RESUME_PATH}}
    resume = {key: value for key, value in resume.items() if value or key not in OWN_ONLY}
    return json.dumps(resume, ensure_ascii=False, indent=2) + "\n"


# Written only when cv.yaml has a section of that name (make_own_schema).
OWN_ONLY = ("certificates", "skills", "languages", "interests")


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


def certificate(entry: CVEntry) -> dict:
    return drop_empty({"name": entry.title, "date": entry.start, "issuer": entry.org})


def details_text(entry: CVEntry) -> str:
    return "; ".join(f"{label}: {text}" if label else text for label, text in entry.details)


def publications(site: Site) -> list[dict]:
    """Each paper as the CV lists it; no abstract (each paper's page has it), so that an
    abstract's edit leaves the CV's files as they were."""
    return [drop_empty({"name": paper.title, "publisher": paper.venue or paper.venue_short
                        or paper.institution or paper.publisher,
                        "releaseDate": paper.date.iso() if paper.date else "",
                        "url": site.config.url + paper_url(paper.slug)})
            for paper in site.papers]


def drop_empty(fields: dict) -> dict:
    """The schema's fields are optional: one with nothing to say is left out."""
    return {key: value for key, value in fields.items() if value}
