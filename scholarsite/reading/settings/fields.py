"""Typed reading of YAML mappings, with a `path:line` diagnostic for every bad field.

Each reader asks for the fields it knows; whatever is left over is an unknown field, an error
that names it and suggests the nearest known name (a typo must fail loudly).
"""

from __future__ import annotations

import calendar
import datetime as dt
import difflib
import re
from pathlib import Path

from ...diagnostics import Diagnostics
from ...models import PubDate
from ...models.wording import N_
from .yamlread import Located

_DATE = re.compile(r"^(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?$")


def parse_date(value: object) -> PubDate | None:
    """YYYY, YYYY-MM or YYYY-MM-DD (YAML may hand us an int or a date); None when invalid."""
    if isinstance(value, dt.datetime):
        value = value.date()
    if isinstance(value, dt.date):
        return PubDate(value.year, value.month, value.day)
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        return None
    match = _DATE.match(value.strip())
    if not match:
        return None
    year = int(match.group(1))
    if year < 1:  # there was no year 0, and none before
        return None
    month = int(match.group(2)) if match.group(2) else None
    day = int(match.group(3)) if match.group(3) else None
    if month is not None and not 1 <= month <= 12:
        return None
    if day is not None and not 1 <= day <= calendar.monthrange(year, month)[1]:
        return None
    return PubDate(year, month, day)


# A paper not yet out (Paper.status), and its label: shown in place of the year it has not
# got yet, listed before every dated paper (biblatex's `pubstate` keys, near enough).
STATUS_LABELS = {"in press": N_("In press"), "forthcoming": N_("Forthcoming"),
                 "submitted": N_("Submitted"), "preprint": N_("Preprint")}
PUB_STATUSES = tuple(STATUS_LABELS)
# How lists write a status where the year goes, each as its PUB_STATUSES value: biblatex's
# `pubstate` keys (inpress, prepublished) and the words people write ('To appear').
_STATUS_WORDS = {**{s: s for s in PUB_STATUSES}, "inpress": "in press", "in-press": "in press",
                 "to appear": "forthcoming", "accepted": "in press",
                 "prepublished": "preprint", "under review": "submitted"}


def parse_status(value: object) -> str:
    """'In press', 'inpress', 'Preprint', 'To appear' as a PUB_STATUSES value; '' if none."""
    if not isinstance(value, str):
        return ""
    return _STATUS_WORDS.get(" ".join(value.replace(".", " ").split()).casefold(), "")


class FieldReader:
    """Reads the fields of one YAML mapping (a whole document, or a nested mapping)."""

    def __init__(self, doc: Located, path: Path, diags: Diagnostics, prefix: tuple = (),
                 data: object = None, what: str = "field") -> None:
        self.doc = doc
        self.path = path
        self.diags = diags
        self.prefix = prefix
        self.what = what
        self.data = doc.data if data is None and not prefix else data
        self._seen: set[str] = set()
        if self.data is None:
            self.data = {}
        if not isinstance(self.data, dict):
            self.error((), f"expected a mapping of {what}s (key: value lines), "
                       f"found {type_name(self.data)}")
            self.data = {}

    # -- reporting -------------------------------------------------------------------------
    def line(self, *key) -> int:
        return self.doc.line(*self.prefix, *key)

    def error(self, key: tuple, message: str) -> None:
        self.diags.error(self.path, self.line(*key), message)

    def warning(self, key: tuple, message: str) -> None:
        self.diags.warning(self.path, self.line(*key), message)

    def name(self, key: str) -> str:
        return ".".join(str(k) for k in (*self.prefix, key))

    # -- access ----------------------------------------------------------------------------
    def has(self, key: str) -> bool:
        return key in self.data

    def raw(self, key: str) -> object:
        self._seen.add(key)
        return self.data.get(key)

    def _blank(self, key: str, value: object, required: bool) -> bool:
        """True when the value is missing or empty, reporting it as it deserves."""
        if key not in self.data:
            if required:
                self.error((), f"missing required {self.what} '{self.name(key)}'")
            return True
        if value is None or (isinstance(value, (str, list, dict)) and not value):
            if required:
                self.error((key,), f"'{self.name(key)}' is empty; it is required")
            else:
                self.warning((key,), f"'{self.name(key)}' is empty; fill it in or remove the line")
            return True
        return False

    def text(self, key: str, required: bool = False) -> str:
        value = self.raw(key)
        if self._blank(key, value, required):
            return ""
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            self.error((key,), f"'{self.name(key)}' must be text, found {type_name(value)}")
            return ""
        text = str(value).strip()
        if not text:
            self._blank(key, "", required)
        return text

    def line_text(self, key: str, required: bool = False) -> str:
        """Text shown on one line: inner whitespace and newlines folded to single spaces."""
        if not required and key not in self.data:  # most fields a paper may give: no text
            self._seen.add(key)
            return ""
        return " ".join(self.text(key, required).split())

    def boolean(self, key: str, default: bool = False) -> bool:
        value = self.raw(key)
        if key not in self.data or value is None:
            return default
        if not isinstance(value, bool):
            self.error((key,), f"'{self.name(key)}' must be true or false, found {value!r}")
            return default
        return value

    def text_list(self, key: str, required: bool = False) -> tuple[str, ...]:
        """A list of one-line strings; a single string is accepted as a list of one."""
        value = self.raw(key)
        if self._blank(key, value, required):
            return ()
        if isinstance(value, (str, int, float)) and not isinstance(value, bool):
            value = [value]
        if not isinstance(value, list):
            self.error((key,), f"'{self.name(key)}' must be a list, found {type_name(value)}")
            return ()
        items = []
        for i, item in enumerate(value):
            if isinstance(item, bool) or not isinstance(item, (str, int, float)):
                self.error((key, i), f"item {i + 1} of '{self.name(key)}' must be text, "
                           f"found {type_name(item)}")
                continue
            text = " ".join(str(item).split())
            if not text:
                self.error((key, i), f"item {i + 1} of '{self.name(key)}' is empty")
                continue
            items.append(text)
        return tuple(items)

    def date(self, key: str, required: bool = False) -> PubDate | None:
        value = self.raw(key)
        if self._blank(key, value, required):
            return None
        parsed = parse_date(value)
        if parsed is None:
            found = f"the number {value}" if isinstance(value, int) else repr(value)
            self.error((key,), f"'{self.name(key)}' must be a date written YYYY, YYYY-MM or "
                       f"YYYY-MM-DD, from year 0001; found {found}")
        return parsed

    def choice(self, key: str, choices: tuple[str, ...], default: str) -> str:
        value = self.raw(key)
        if key not in self.data or value is None:
            return default
        if value not in choices:
            self.error((key,), f"'{self.name(key)}' must be one of {', '.join(choices)}; "
                       f"found {value!r}")
            return default
        return value

    def mapping(self, key: str) -> "FieldReader":
        value = self.raw(key)
        return FieldReader(self.doc, self.path, self.diags, (*self.prefix, key),
                           value if value is not None else {}, self.what)

    def asked(self) -> frozenset[str]:
        """The names this reader has asked for: the fields it accepts."""
        return frozenset(self._seen)

    def check_unknown(self) -> None:
        """Report every key nobody asked for, with the nearest known name."""
        for key in self.data:
            if key in self._seen:
                continue
            if not isinstance(key, str):
                self.error((), f"{self.what} names must be text, found {key!r}")
                continue
            hint = difflib.get_close_matches(key, sorted(self._seen), n=1)
            suggestion = f"; did you mean '{hint[0]}'?" if hint else \
                f"; known {self.what}s: {', '.join(sorted(self._seen))}"
            self.error((key,), f"unknown {self.what} '{self.name(key)}'{suggestion}")


def check_declared(f: FieldReader, table: frozenset[str], name: str) -> None:
    """A reader asks only for the fields its table (models/forms.py) names: the editor's
    forms are made from the table, so a field missing there would be one no form writes.
    A fault of the program, not of the file: it stops the build loudly."""
    undeclared = f.asked() - table
    if undeclared:
        raise AssertionError(f"models/forms.py {name} lacks {', '.join(sorted(undeclared))}")


def type_name(value: object) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, (dt.date, dt.datetime)):
        return "a date"
    if isinstance(value, str):
        return "text"
    if isinstance(value, bytes):
        return "binary data (!!binary)"
    return f"a YAML {type(value).__name__}"


def read_status(f: FieldReader) -> str:
    """`status: in press` (forthcoming, submitted, preprint): a paper not yet out, shown
    so in place of its year; `date: In press` says the same."""
    text = f.line_text("status")
    status = parse_status(text) or parse_status(f.raw("date"))
    if text and not parse_status(text):
        f.error(("status",), f"'status' must be one of {', '.join(PUB_STATUSES)}; found "
                f"{text!r}")
    return status
