"""content/cv.yaml: the parts of a CV that are not papers, read against a schema.

Every section is a list of entries. An entry is a mapping whose keys the section's row in
CV_SECTIONS names (unknown keys are errors), or a plain string for a one-line entry. The
publications of the CV are the paper files themselves, so they are never typed twice.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from ..diagnostics import Diagnostics
from .listing import check_inside
from .fields import FieldReader, type_name
from ..models import CV, MONTH_NAMES, CVEntry, CVSection, PubDate
from .yamlread import parse_yaml, read_text

PRESENT = ("present", "now", "current", "today")


@dataclass(frozen=True)
class CVSchema:
    key: str
    title: str
    what: str  # the key of the entry's main line (required)
    org: str = ""  # the key of its organisation line
    details: tuple[tuple[str, str], ...] = ()  # (key, label) of further one-line fields


CV_SECTIONS = (
    CVSchema("education", "Education", "degree", "institution",
             (("thesis", "Thesis"), ("advisor", "Advisor"))),
    CVSchema("positions", "Positions", "title", "organization"),
    CVSchema("awards", "Awards and honors", "title", "organization"),
    CVSchema("grants", "Grants", "title", "funder", (("role", "Role"), ("amount", "Amount"))),
    CVSchema("service", "Service", "role", "organization"),
    CVSchema("students", "Students", "name", "degree",
             (("topic", "Topic"), ("now", "Now"))),
    CVSchema("teaching", "Teaching", "course", "institution",
             (("code", "Code"), ("term", "Term"), ("role", "Role"))),
)


def short_date(date: PubDate) -> str:
    """'2019', 'Sep 2019': CVs are dense, so months are abbreviated."""
    if not date.month:
        return str(date.year)
    return f"{MONTH_NAMES[date.month - 1][:3]} {date.year}"


def read_when(f: FieldReader) -> str:
    """'date', or 'start' and 'end' ('end: present' for what goes on), as one short text."""
    date = f.date("date")
    start = f.date("start")
    end_raw = f.raw("end")
    ongoing = isinstance(end_raw, str) and end_raw.strip().lower() in PRESENT
    end = None if ongoing else f.date("end")
    if date and (start or end or ongoing):
        f.error(("date",), "give either 'date' or 'start'/'end', not both")
        return ""
    if (end or ongoing) and not start:
        f.error(("end",), "'end' without 'start': add the start date, or use 'date'")
        return ""
    if start and end and end.sort_key() < start.sort_key():
        f.error(("end",), "'end' is before 'start'")
        return ""
    if date:
        return short_date(date)
    if start and ongoing:
        return f"{short_date(start)}–present"
    if start and end and end != start:
        return f"{short_date(start)}–{short_date(end)}"
    return short_date(start) if start else ""


def read_entry(f: FieldReader, schema: CVSchema) -> CVEntry | None:
    before = len(f.diags.errors())
    what = f.line_text(schema.what, required=True)
    org = f.line_text(schema.org) if schema.org else ""
    location = f.line_text("location")
    when = read_when(f)
    details = [(label, f.line_text(key)) for key, label in schema.details]
    note = f.line_text("note")
    f.check_unknown()
    if len(f.diags.errors()) > before or not what:
        return None
    details = [(label, text) for label, text in details if text]
    if note:
        details.append(("", note))
    return CVEntry(title=what, org=org, location=location, when=when, details=tuple(details))


def read_section(top: FieldReader, schema: CVSchema) -> CVSection | None:
    value = top.raw(schema.key)
    if value is None:
        if top.has(schema.key):
            top.warning((schema.key,), f"'{schema.key}' is empty; fill it in or remove it")
        return None
    if not isinstance(value, list):
        top.error((schema.key,), f"'{schema.key}' must be a list of entries (lines starting "
                  f"with '- '), found {type_name(value)}")
        return None
    entries = []
    for i, raw in enumerate(value):
        if isinstance(raw, (str, int)) and not isinstance(raw, bool) and str(raw).strip():
            entries.append(CVEntry(title=" ".join(str(raw).split())))
            continue
        if raw is None or raw == "":
            top.error((schema.key, i), f"entry {i + 1} of '{schema.key}' is empty")
            continue
        entry = FieldReader(top.doc, top.path, top.diags, (schema.key, i), raw,
                            what=f"{schema.key} field")
        if isinstance(raw, dict):  # anything else was reported by FieldReader
            made = read_entry(entry, schema)
            if made is not None:
                entries.append(made)
    return CVSection(schema.key, schema.title, tuple(entries)) if entries else None


def load_cv(path: Path, diags: Diagnostics) -> CV | None:
    """The CV's sections in their fixed order, or None when there is no cv.yaml (or it is
    broken: the problems are reported)."""
    if not os.path.lexists(path) or not check_inside(path, path.parent, diags):
        return None
    text = read_text(path, diags)
    doc = parse_yaml(text, path, 1, diags) if text is not None else None
    if doc is None:
        return None
    top = FieldReader(doc, path, diags, what="section")
    sections = [read_section(top, schema) for schema in CV_SECTIONS]
    top.check_unknown()
    return CV(sections=tuple(s for s in sections if s is not None), source=path)
