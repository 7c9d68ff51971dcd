"""content/cv.yaml: the parts of a CV that are not papers, read against a schema.

Every section is a list of entries. An entry is a mapping whose keys the section's row in
CV_SECTIONS names (unknown keys are errors), or a plain string for a one-line entry. Any
other section the user names (`memberships:`) is shown too, in its place, with its name as
its heading, its entries read generically (make_own_schema). The
publications of the CV are the paper files themselves, so they are never typed twice.
`pdf:` holds the owner's choices for the CV's PDF (views/cvpdf.py).
"""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass
from pathlib import Path

from ..diagnostics import Diagnostics
from .listing import check_inside
from .settings.fields import FieldReader, parse_date, type_name
from ..models import CV, CVEntry, CVPdfSettings, CVSection
from ..models.wording import N_
from .settings.yamlread import parse_yaml, read_text

PRESENT = ("present", "now", "current", "today")
PDF_KEY = "pdf"
STUDENTS = "students"  # whose entries may name a person of content/people/


@dataclass(frozen=True)
class CVSchema:
    key: str
    title: str
    what: str  # the key of the entry's main line (required)
    org: str = ""  # the key of its organisation line
    details: tuple[tuple[str, str], ...] = ()  # (key, label) of further one-line fields
    own: bool = False  # a section the user named: any further field is a labelled detail


CV_SECTIONS = (
    CVSchema("education", N_("Education"), "degree", "institution",
             (("thesis", N_("Thesis")), ("advisor", N_("Advisor")))),
    CVSchema("positions", N_("Positions"), "title", "organization"),
    CVSchema("awards", N_("Awards and honors"), "title", "organization"),
    CVSchema("grants", N_("Grants"), "title", "funder",
             (("role", N_("Role")), ("amount", N_("Amount")))),
    CVSchema("service", N_("Service"), "role", "organization"),
    CVSchema(STUDENTS, N_("Students"), "name", "degree",
             (("topic", N_("Topic")), ("now", N_("Now")))),
    CVSchema("teaching", N_("Teaching"), "course", "institution",
             (("code", N_("Code")), ("term", N_("Term")), ("role", N_("Role")))),
)


# Keys of cv.yaml that are not sections; `publications` come from the paper files.
NOT_SECTIONS = (PDF_KEY, "publications")
# Every entry may have these; an entry of a section the user named has a title and an
# organization too.
COMMON_KEYS = ("location", "date", "start", "end", "note")
ENTRY_KEYS = ("title", "organization", *COMMON_KEYS)


def make_own_schema(key: str, top: FieldReader) -> CVSchema:
    """A section the CV has no layout of its own for (`memberships:`): shown in its place,
    headed with its name as written ('invited_talks' as 'Invited talks'); its entries have
    a title, an organization, dates, a location, a note and any other one-line field."""
    heading = key if key != key.lower() or " " in key else \
        key.replace("_", " ").replace("-", " ").strip().capitalize()
    close = difflib.get_close_matches(key, [s.key for s in CV_SECTIONS], n=1, cutoff=0.8)
    if close:
        top.warning((key,), f"'{key}' is shown as a section of its own, headed '{heading}'; "
                    f"did you mean '{close[0]}'?")
    return CVSchema(key, heading, "title", "organization", own=True)


def read_dates(f: FieldReader) -> tuple[str, str]:
    """(start, end) as ISO text ('2019', '2019-09'; end 'present' for what goes on, and
    both the same for a `date`): '' when not given or wrong (check_when says what is
    wrong). Views write them in each page's language (itemviews.cv_when)."""
    if not check_when(f):
        return "", ""
    date, start, end = (parse_date(f.raw(key)) for key in ("date", "start", "end"))
    end_raw = f.raw("end")
    ongoing = isinstance(end_raw, str) and end_raw.strip().lower() in PRESENT
    if date:
        return date.iso(), date.iso()
    return (start.iso() if start else "",
            "present" if ongoing and start else end.iso() if end and start else "")


def check_when(f: FieldReader) -> bool:
    """Whether 'date', or 'start' and 'end' ('end: present' for what goes on), are
    given as a CV entry's dates may be (an error at their line when not)."""
    date = f.date("date")
    start = f.date("start")
    end_raw = f.raw("end")
    ongoing = isinstance(end_raw, str) and end_raw.strip().lower() in PRESENT
    end = None if ongoing else f.date("end")
    if date and (start or end or ongoing):
        f.error(("date",), "give either 'date' or 'start'/'end', not both")
        return False
    if (end or ongoing) and not start:
        f.error(("end",), "'end' without 'start': add the start date, or use 'date'")
        return False
    if start and end and end.sort_key() < start.sort_key():
        f.error(("end",), "'end' is before 'start'")
        return False
    return True


def entry_keys(schema: CVSchema) -> tuple[str, ...]:
    """The keys an entry of a section with a layout of its own may have, as read_entry
    reads them (the browser editor's form of the section offers these: views/editor.py)."""
    return tuple(dict.fromkeys(filter(None, (
        schema.what, schema.org, *(key for key, _ in schema.details),
        *(["person"] if schema.key == STUDENTS else []), *COMMON_KEYS))))


def read_entry(f: FieldReader, schema: CVSchema) -> CVEntry | None:
    before = len(f.diags.errors())
    # A student may be a person of content/people/ by slug (loader.link_students).
    person = f.line_text("person") if schema.key == STUDENTS else ""
    what = f.line_text(schema.what, required=not person)
    org = f.line_text(schema.org) if schema.org else ""
    location = f.line_text("location")
    start, end = read_dates(f)
    details = [(label, f.line_text(key)) for key, label in schema.details]
    if schema.own:
        details += [(key.replace("_", " ").capitalize(), f.line_text(key)) for key in f.data
                    if isinstance(key, str) and key not in ENTRY_KEYS]
    note = f.line_text("note")
    f.check_unknown()
    if len(f.diags.errors()) > before or not (what or person):
        return None
    details = [(label, text) for label, text in details if text]
    if note:
        details.append(("", note))
    return CVEntry(title=what, org=org, location=location, details=tuple(details),
                   line=f.line(), start=start, end=end, person=person)


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
            entries.append(CVEntry(title=" ".join(str(raw).split()),
                                   line=top.line(schema.key, i)))
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
    """The CV's sections in cv.yaml's order, or None when there is no cv.yaml (or it is
    broken: the problems are reported)."""
    if not os.path.lexists(path) or not check_inside(path, path.parent, diags):
        return None
    text = read_text(path, diags)
    doc = parse_yaml(text, path, 1, diags) if text is not None else None
    if doc is None:
        return None
    top = FieldReader(doc, path, diags, what="section")
    known = {schema.key for schema in CV_SECTIONS}
    schemas = [*CV_SECTIONS, *(make_own_schema(key, top) for key in top.data
                               if isinstance(key, str) and key not in known
                               and key not in NOT_SECTIONS)]
    sections = [s for schema in schemas if (s := read_section(top, schema)) is not None]
    settings = read_pdf_settings(top)
    top.check_unknown()
    order = list(top.data)  # the sections in the order cv.yaml gives them
    sections.sort(key=lambda s: order.index(s.key))
    return CV(sections=tuple(sections), source=path, pdf=settings,
              lines=tuple((s.key, top.line(s.key)) for s in sections))


def read_pdf_settings(top: FieldReader) -> CVPdfSettings:
    """`pdf:`: which publications, the paper size, the font, whether tiers are shown."""
    value = top.raw(PDF_KEY)
    if not top.has(PDF_KEY):
        return CVPdfSettings(line=1)
    line = top.line(PDF_KEY)
    f = FieldReader(top.doc, top.path, top.diags, (PDF_KEY,), value if value is not None
                    else {}, what="pdf setting")
    settings = CVPdfSettings(publications=f.choice("publications", ("all", "selected"), "all"),
                             paper=f.choice("paper", ("a4", "letter"), "a4"),
                             font=f.choice("font", ("serif", "sans"), "serif"),
                             tiers=f.boolean("tiers", True), line=line)
    f.check_unknown()
    return settings
