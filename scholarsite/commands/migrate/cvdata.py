"""An al-folio CV as cv.yaml: `_data/cv.yml` (sections of type map, time_table, list or
nested_list) or, without it, JSON Resume's `assets/json/resume.json`. Only scholarsite's CV
sections are written (cv.yaml rejects any other); each section that fits none is named in the
report, so nothing goes missing unseen."""

from __future__ import annotations

import json
import re
from pathlib import Path

from .frontmatter import format_yaml, load_yaml, strip_html
from .model import Migration
from .samples import find_sample_data

# The scholarsite section an al-folio section title means, by the words in it: the more
# particular first ('Teaching Experience' is teaching, not positions).
SECTION_WORDS = (
    ("teaching", ("teaching", "course")),
    ("students", ("student", "mentor", "supervis", "advising")),
    ("service", ("service", "committee", "reviewing", "volunteer", "outreach")),
    ("grants", ("grant", "funding")),
    ("awards", ("award", "honor", "honour", "prize", "fellowship", "scholarship",
                "distinction")),
    ("education", ("educat", "degree", "academic background", "qualification")),
    ("positions", ("experience", "employment", "position", "appointment", "career", "work")),
)
# Each section's keys for al-folio's `title` and `institution`.
ENTRY_KEYS = {"education": ("degree", "institution"), "positions": ("title", "organization"),
              "awards": ("title", "organization"), "grants": ("title", "funder"),
              "service": ("role", "organization"), "students": ("name", "degree"),
              "teaching": ("course", "institution")}
# JSON Resume's sections scholarsite's CV has, and how each entry's fields are named there.
RESUME_SECTIONS = {"education": "education", "work": "positions", "volunteer": "service",
                   "awards": "awards"}
RESUME_MAIN = {"education": "studyType or area", "work": "position",
               "volunteer": "position", "awards": "title"}
SECTIONS_KEPT = "education, positions, awards, grants, service, students and teaching"
# '2017', '2017-09', '2017.9' (months written without their 0, as some CVs do)
_WHEN = re.compile(r"(?<!\d)(\d{4})(?:[-/.](1[0-2]|0?[1-9])(?!\d))?(?!\d)")
_OPEN_END = re.compile(r"[-–~]\s*$")  # '2017.3 ~': from then on
_DOTTED = re.compile(r"^(\d{4})\.(\d{1,2})(?:\.(\d{1,2}))?$")
_COMMENT_LINE = re.compile(r"^[ \t]*//.*$", re.M)
_ONGOING = re.compile(r"present|now|current|today|ongoing", re.I)
_ISO = re.compile(r"^\d{4}(?:-\d{2}(?:-\d{2})?)?$")
HEADER = "The CV, moved from {origin} by scholarsite migrate; see the README for its fields."


def read_cv(old: Path, mig: Migration) -> None:
    """cv.yaml from `_data/cv.yml`, or else from `assets/json/resume.json`."""
    cv_yml = next((p for p in (old / "_data" / "cv.yml", old / "_data" / "cv.yaml")
                   if p.is_file()), None)
    resume = old / "assets" / "json" / "resume.json"
    doc, origin = ({}, None) if cv_yml is None else (from_cv_yml(cv_yml, mig), cv_yml)
    if resume.is_file():
        if doc:
            mig.leave(mig.where(resume), f"not moved: {mig.where(cv_yml)} was moved as the CV")
        else:  # no cv.yml, or the template's: the JSON Resume may be the owner's
            doc, origin = from_resume(resume, mig), resume
    if doc:
        mig.add_text("cv.yaml", format_yaml(doc, HEADER.format(origin=mig.where(origin))),
                     "cv", mig.where(origin))


def compact(entry: dict) -> dict:
    """The entry without empty values (cv.yaml warns of those)."""
    return {k: v for k, v in entry.items() if v not in (None, "", [], {})}


def flatten(value: object) -> list[str]:
    """al-folio's descriptions and items: text, lists, or nested {title, contents}."""
    if isinstance(value, list):
        return [text for item in value for text in flatten(item)]
    if isinstance(value, dict):
        return [text for item in value.values() for text in flatten(item)]
    text = strip_html(str(value)) if value not in (None, "") else ""
    return [text] if text else []


def join_notes(parts: list[str]) -> str:
    """Texts as one note: a sentence that ends in its own stop is followed by a space,
    any other text by '; '."""
    out = ""
    for part in parts:
        out += ("" if not out else " " if out[-1] in ".!?;:" else "; ") + part
    return out


def iso_day(text: str) -> str:
    """'2024.02' or '2024.2.29' (dotted, as some resumes write dates) as '2024-02'..."""
    found = _DOTTED.match(text.strip())
    if not found:
        return text
    return "-".join([found.group(1)] + [f"{int(p):02d}" for p in found.groups()[1:] if p])


def plain_date(value: str) -> int | str:
    """'2017' as a number (as one writes it in YAML), '2017-09' as it is."""
    return int(value) if value.isdigit() else value


# --- _data/cv.yml --------------------------------------------------------------------------


def leave_sample(data: object, path: Path, mig: Migration) -> bool:
    """Whether `data` is the template's sample CV (left behind, with a note)."""
    template = find_sample_data(data)
    if template:
        mig.leave(mig.where(path), f"the template's own sample CV ({template}: Albert "
                  "Einstein's), not yours; not moved")
    return bool(template)


def from_cv_yml(path: Path, mig: Migration) -> dict:
    text = mig.read_text(path)
    if text is None:
        return {}
    data = load_yaml(text, path, 1, mig, None, "not moved: this is not valid YAML ({})")
    if data is None:
        return {}
    if not isinstance(data, list):
        mig.leave(mig.where(path), "not moved: al-folio's CV is a list of sections "
                  "(- title: ..., type: ..., contents: ...); this file is not")
        return {}
    if leave_sample(data, path, mig):
        return {}
    doc: dict[str, list] = {}
    for section in data:
        if isinstance(section, dict):
            move_section(section, path, text, mig, doc)
    return doc


def section_key(title: str) -> str | None:
    words = title.lower()
    return next((key for key, signs in SECTION_WORDS if any(s in words for s in signs)), None)


def find_line(text: str, title: str) -> int:
    """The line of a section's title, for the report."""
    for number, line in enumerate(text.split("\n"), 1):
        if "title" in line and title in line:
            return number
    return 0


def move_section(section: dict, path: Path, text: str, mig: Migration, doc: dict) -> None:
    title = str(section.get("title") or "")
    key = section_key(title)
    where = mig.where(path, find_line(text, title))
    if key is None:
        why = ("the CV's publications are the papers themselves" if "public" in title.lower()
               else f"scholarsite's CV has {SECTIONS_KEPT} only; put it on a free page "
               "(pages/) if you want it")
        mig.leave(where, f"CV section '{title}' not moved: {why}")
        return
    contents = section.get("contents") or []
    made = [convert_item(item, key)
            for item in (contents if isinstance(contents, list) else [contents])]
    doc.setdefault(key, []).extend(e for entries in made for e in entries)
    if not doc[key]:
        del doc[key]
    if not all(made):
        mig.leave(where, f"{made.count([])} entr{'y' if made.count([]) == 1 else 'ies'} of "
                  f"CV section '{title}' not moved: each needs a title")


def convert_item(item: object, key: str) -> list:
    """One al-folio entry as scholarsite entries: a line of text stays one; a dated group of
    `items` (as awards are written) is one entry each; a {title, institution, year,
    description} entry is one with the section's keys."""
    if not isinstance(item, dict):
        return flatten(item)
    main, org = ENTRY_KEYS[key]
    when = read_when(item.get("year") or item.get("date"))
    if "title" not in item and "items" in item:
        return [compact({main: text, **when}) for text in flatten(item["items"])]
    if "name" in item and "value" in item:  # a map section's line
        return [f"{strip_html(str(item['name']))}: {' '.join(flatten(item['value']))}"]
    what = " ".join(flatten(item.get("title")))
    if not what:
        return []
    note = join_notes(flatten(item.get("description")) + flatten(item.get("items")))
    return [compact({main: what, org: " ".join(flatten(item.get("institution"))),
                     "location": " ".join(flatten(item.get("location"))), **when,
                     "note": note})]


def read_when(value: object) -> dict:
    """al-folio's free `year` ('2012', '2012 - 2016', '2020 - present') as date or start/end."""
    text = str(value) if value is not None else ""
    found = [f"{y}-{int(m):02d}" if m else y for y, m in _WHEN.findall(text)]
    if not found:
        return {}
    if _ONGOING.search(text) or _OPEN_END.search(text):
        return {"start": plain_date(found[0]), "end": "present"}
    return make_span(found[0], found[-1], ongoing=False)


def make_span(start: str, end: str, ongoing: bool) -> dict:
    """date, or start and end; an end before the start is dropped (cv.yaml refuses it)."""
    if not start:
        return {"date": plain_date(end)} if end and end != "present" else {}
    if end == "present" or (not end and ongoing):
        return {"start": plain_date(start), "end": "present"}
    if not end or end == start or end < start:
        return {"date": plain_date(start)}
    return {"start": plain_date(start), "end": plain_date(end)}


# --- assets/json/resume.json ---------------------------------------------------------------


def from_resume(path: Path, mig: Migration) -> dict:
    text = mig.read_text(path)
    if text is None:
        return {}
    try:
        data = read_json(text, path, mig)
    except RecursionError:
        mig.leave(mig.where(path), "not moved: the JSON is nested too deeply to be a CV")
        return {}
    except json.JSONDecodeError as exc:
        mig.leave(mig.where(path, exc.lineno), f"not moved: not valid JSON ({exc.msg})")
        return {}
    if not isinstance(data, dict):
        mig.leave(mig.where(path), "not moved: a JSON Resume is an object ({...})")
        return {}
    if leave_sample(data, path, mig):
        return {}
    doc: dict[str, list] = {}
    for name, value in data.items():
        entries = value if isinstance(value, list) else []
        if name in RESUME_SECTIONS:
            made = [e for e in (convert_resume(name, raw) for raw in entries) if e]
            if made:
                doc[RESUME_SECTIONS[name]] = made
            if len(made) < len(entries):
                mig.leave(mig.where(path), f"{len(entries) - len(made)} of the {len(entries)} "
                          f"entries of JSON Resume's '{name}' not moved: each needs a "
                          f"{RESUME_MAIN[name]}")
        elif entries and name not in ("basics", "meta"):
            why = ("the CV's publications are the papers themselves" if name == "publications"
                   else f"scholarsite's CV has {SECTIONS_KEPT} only")
            mig.leave(mig.where(path), f"JSON Resume section '{name}' not moved: {why}")
    return doc


def read_json(text: str, path: Path, mig: Migration) -> object:
    """The file's JSON; `// comment` lines, which JSON does not allow but some resumes have,
    are dropped (and named) when that is all that was wrong."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        bare = _COMMENT_LINE.sub("", text)
        if bare == text:
            raise
        data = json.loads(bare)  # still broken: reported as the file's own error
        line = text.count("\n", 0, _COMMENT_LINE.search(text).start()) + 1
        mig.add_review(mig.where(path, line), "'//' comment lines (not JSON) were skipped")
        return data


def convert_resume(name: str, raw: object) -> dict:
    """A JSON Resume entry in scholarsite's keys; {} when it names nothing."""
    if not isinstance(raw, dict):
        return {}
    get = lambda *keys: " ".join(t for k in keys for t in flatten(raw.get(k)))  # noqa: E731
    start = iso_day(get("startDate", "startdate", "date"))
    end = iso_day(get("endDate", "enddate"))
    when = make_span(start if _ISO.match(start) else "",
                     "present" if _ONGOING.search(end) else end if _ISO.match(end) else "",
                     ongoing=name in ("work", "volunteer"))
    note = join_notes(flatten(raw.get("summary")) + flatten(raw.get("highlights")))
    if name == "education":
        degree = " in ".join(t for t in (get("studyType"), get("area")) if t)
        entry = {"degree": degree, "institution": get("institution"), **when, "note": note}
    elif name == "work":
        entry = {"title": get("position"), "organization": get("name", "company"),
                 "location": get("location"), **when, "note": note}
    elif name == "volunteer":
        entry = {"role": get("position"), "organization": get("organization"), **when,
                 "note": note}
    else:
        entry = {"title": get("title"), "organization": get("awarder"), **when, "note": note}
    return compact(entry) if next(iter(entry.values())) else {}
