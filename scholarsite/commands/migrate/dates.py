"""Dates as old sites write them, made scholarsite's YYYY, YYYY-MM or YYYY-MM-DD.

'05/03/2016' says nothing about its order by itself, so the order is decided once for a
whole folder: a first number over 12 can only be a day (D/M/Y), a second one over 12 only a
day too (M/D/Y). A folder that says neither way is read D/M/Y and marked for a look."""

from __future__ import annotations

import calendar
import datetime as dt
import re
from dataclasses import dataclass
from typing import Iterable

from ...reading.settings.fields import parse_status

_ISO = re.compile(r"^(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?(?:[T ][\d:.]+.*)?$")
_NUMERIC = re.compile(r"^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$")
_YEAR_FIRST = re.compile(r"^(\d{4})[/.](\d{1,2})(?:[/.](\d{1,2}))?$")  # 2024.8.27, 2024/08
_MONTH_YEAR = re.compile(r"^(\d{1,2})[/.-](\d{4})$")  # 08/2021


@dataclass(frozen=True)
class DateOrder:
    day_first: bool
    decided: bool  # False: no date of the folder told the order; a person should look
    why: str  # for the report


def split_numeric(value: object) -> tuple[int, int, int] | None:
    """(first, second, year) of '28/09/2016' or '9-28-2016'; None for anything else."""
    match = _NUMERIC.match(value.strip()) if isinstance(value, str) else None
    return tuple(int(g) for g in match.groups()) if match else None  # type: ignore[return-value]


def decide_order(values: Iterable[object]) -> DateOrder:
    """The order of a folder's D/M/Y or M/D/Y dates, from the ones only one order can read."""
    pairs = [p for p in (split_numeric(v) for v in values) if p]
    day_first = any(a > 12 for a, _, _ in pairs)
    month_first = any(b > 12 for _, b, _ in pairs)
    if day_first and not month_first:
        return DateOrder(True, True, "a first number over 12 makes this folder's dates D/M/Y")
    if month_first and not day_first:
        return DateOrder(False, True, "a second number over 12 makes this folder's dates M/D/Y")
    if not pairs:
        return DateOrder(True, True, "")
    why = "dates over 12 on both sides" if day_first else "no number over 12"
    return DateOrder(True, False, f"read as D/M/Y, but the folder's dates do not say ({why})")


def make_iso(year: int, month: int | None = None, day: int | None = None) -> str | None:
    """'YYYY', 'YYYY-MM' or 'YYYY-MM-DD', or None when there is no such day."""
    if not 1 <= year <= 9999 or (month is not None and not 1 <= month <= 12):
        return None
    if month is None:
        return f"{year:04d}"
    if day is None:
        return f"{year:04d}-{month:02d}"
    if not 1 <= day <= calendar.monthrange(year, month)[1]:
        return None
    return f"{year:04d}-{month:02d}-{day:02d}"


def normalize_date(value: object, order: DateOrder) -> str | None:
    """A date as YAML reads it (a date, a year, a string in any of the forms above) made
    ISO; None when it is none of these."""
    if isinstance(value, dt.datetime):
        value = value.date()
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, int) and not isinstance(value, bool):
        return make_iso(value)
    if not isinstance(value, str):
        return None
    numeric = split_numeric(value)
    if numeric:
        first, second, year = numeric
        return make_iso(year, second, first) if order.day_first else make_iso(year, first,
                                                                               second)
    match = _ISO.match(value.strip()) or _YEAR_FIRST.match(value.strip())
    if not match:
        match = _MONTH_YEAR.match(value.strip())
        return make_iso(int(match.group(2)), int(match.group(1))) if match else None
    year, month, day = (int(g) if g else None for g in match.groups())
    return make_iso(year, month, day)  # type: ignore[arg-type]


def swapped_date(value: object) -> str | None:
    """'2026-28-04', a month over 12 and a day that could be one, read as Y-D-M; a guess,
    for the caller to mark."""
    match = re.match(r"^(\d{4})-(\d{1,2})-(\d{1,2})$", value.strip()) \
        if isinstance(value, str) else None
    if not match or int(match.group(2)) <= 12:
        return None
    return make_iso(int(match.group(1)), int(match.group(3)), int(match.group(2)))


def date_status(*values: object) -> str:
    """The status of a paper not yet out ('in press': reading/settings/fields.PUB_STATUSES)
    that the first of `values` to give one writes where a date goes ('In press',
    'Forthcoming')."""
    return next((status for status in map(parse_status, values) if status), "")


def date_from_name(stem: str) -> str | None:
    """The date Jekyll takes from a file name: '2020-01-05-title' -> '2020-01-05'."""
    match = re.match(r"(\d{4})-(\d{1,2})-(\d{1,2})-", stem)
    return make_iso(*(int(g) for g in match.groups())) if match else None


def is_placeholder(iso: str) -> bool:
    """1 January: what a site writes when it knows only the year."""
    return len(iso) == 10 and iso.endswith("-01-01")
