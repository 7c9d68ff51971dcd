"""Which old field holds each of a paper's facts, for papers kept as data rather than in a
template's own layout: a Jekyll site's `_data/publications.yml` (or `publist.yml`, or
JSON), and the fields academicpages sites invent for themselves (`conference:`,
`conference_year:`, `arxiv_link:`).

Each fact names the fields that may hold it, the first one present winning; a dotted name
reaches into a mapping (`link.url`). The owner changes a fact's fields with
`migrate --map venue=journal,booktitle` (docs/migrate.md), which replaces the defaults."""

from __future__ import annotations

import re

# fact -> the old fields that may hold it, in the order tried. The defaults are the names
# real data lists use (the Allan Lab template's publist.yml, hand-written lists) and the
# ones academicpages forks add.
DEFAULT_MAP: dict[str, tuple[str, ...]] = {
    "title": ("title", "name"),
    "authors": ("authors", "author"),
    "venue": ("venue", "conference", "journal", "booktitle", "publication", "publisher",
              "school", "link.display"),
    "date": ("date", "year", "conference_year", "journal_year", "pub_year", "published"),
    "doi": ("doi",),
    "abstract": ("abstract",),
    "type": ("type", "pub_type", "category"),
}
# Link fields: the name (less `_url`, `url`, `_link`, `link`) -> the kind of link.
LINK_NAMES = {"pdf": "pdf", "paper": "pdf", "arxiv": "arxiv", "code": "code",
              "github": "code", "slides": "slides", "poster": "poster", "video": "video",
              "project": "html", "html": "html", "web": "html", "website": "html",
              "webpage": "html", "supp": "supp", "data": "supp", "dataset": "supp",
              "": "url", "link": "url"}
_LINK_SUFFIX = re.compile(r"(?:_?url|_?link)$", re.I)
_YEAR = re.compile(r"\((\d{4})\)|\b((?:19|20)\d{2})\b")


def parse_map(text: str) -> tuple[dict[str, tuple[str, ...]], str]:
    """`--map`'s value ('venue=journal,booktitle;date=year') over the defaults, and a
    problem ('' when none)."""
    mapping = dict(DEFAULT_MAP)
    for part in filter(None, (p.strip() for p in re.split(r"[;\s]+(?=\w+=)", text or ""))):
        fact, eq, names = part.partition("=")
        fact = fact.strip()
        if not eq or fact not in DEFAULT_MAP:
            return mapping, (f"--map: '{part}' must be FACT=FIELD[,FIELD...], FACT one of "
                             f"{', '.join(DEFAULT_MAP)}")
        mapping[fact] = tuple(n.strip() for n in names.split(",") if n.strip())
    return mapping, ""


def look_up(fields: dict, name: str):
    """The value at a field name, whatever its case; a dotted name reaches into mappings."""
    value: object = fields
    for part in name.split("."):
        if not isinstance(value, dict):
            return None
        value = next((v for k, v in value.items() if str(k).lower() == part.lower()), None)
    return value


def pick(fields: dict, fact: str, mapping: dict[str, tuple[str, ...]]) -> tuple[str, object]:
    """(field name, value) of the first field for `fact` that has a value; ('', None)."""
    for name in mapping.get(fact, ()):
        value = look_up(fields, name)
        if value not in (None, "", [], {}):
            return name, value
    return "", None


def year_of(value: object) -> str:
    """A year found in a value: '2020', 2020, 'Nature (2020)'; '' when none."""
    if isinstance(value, int) and 1000 <= value <= 9999:
        return str(value)
    match = _YEAR.search(str(value or ""))
    return (match.group(1) or match.group(2)) if match else ""


def link_fields(fields: dict, skip: tuple[str, ...] = ()) -> list[tuple[str, str, str]]:
    """(field, kind, address) of each link field, in the file's order: `arxiv_link`,
    `code_url`, `pdf`, a `link: {url: ...}` mapping; names in `skip` are passed over."""
    found = []
    for key, value in fields.items():
        key = str(key)
        if key.lower() in skip:
            continue
        stem = _LINK_SUFFIX.sub("", key.lower()).rstrip("_-")
        if isinstance(value, dict) and stem in LINK_NAMES:
            value = look_up(value, "url")
        if stem in LINK_NAMES and isinstance(value, str) and value.strip() \
                and (stem or key.lower() in ("url", "link")):
            found.append((key, LINK_NAMES[stem], value.strip()))
    return found
