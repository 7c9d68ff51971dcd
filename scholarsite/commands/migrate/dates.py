"""Dates as old sites write them, made scholarsite's YYYY, YYYY-MM or YYYY-MM-DD.

'05/03/2016' says nothing about its order by itself, so the order is decided once for a
whole folder: a first number over 12 can only be a day (D/M/Y), a second one over 12 only a
day too (M/D/Y). A folder that says neither way takes the order of the site's other dates,
else is read D/M/Y and marked for a look. What no ISO reader takes ('Sep-14', '14 Sep 2016',
'Spring 2020') is read as far as it can be (read_loose_date), and the report names how."""

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
    years: tuple[int, ...] = ()  # the site's four-digit years: what a two-digit year means


# Month names and their abbreviations, in English, as sites write them ('Sept' too).
MONTHS = {**{name.casefold(): n for n, name in enumerate(calendar.month_name) if name},
          **{name.casefold(): n for n, name in enumerate(calendar.month_abbr) if name},
          "sept": 9}
_YEAR = re.compile(r"(?<!\d)(1[89]\d\d|20\d\d)(?!\d)")


def split_numeric(value: object) -> tuple[int, int, int] | None:
    """(first, second, year) of '28/09/2016' or '9-28-2016'; None for anything else."""
    match = _NUMERIC.match(value.strip()) if isinstance(value, str) else None
    return tuple(int(g) for g in match.groups()) if match else None  # type: ignore[return-value]


def decide_order(values: Iterable[object], site: DateOrder | None = None) -> DateOrder:
    """The order of a folder's D/M/Y or M/D/Y dates, from the ones only one order can read;
    when none can, the order `site` (all the site's dates) decided."""
    values = list(values)
    years = site.years if site else tuple(sorted(int(y) for v in values
                                                 for y in _YEAR.findall(str(v))))
    pairs = [p for p in (split_numeric(v) for v in values) if p]
    day_first = any(a > 12 for a, _, _ in pairs)
    month_first = any(b > 12 for _, b, _ in pairs)
    if day_first and not month_first:
        return DateOrder(True, True, "a first number over 12 makes these dates D/M/Y", years)
    if month_first and not day_first:
        return DateOrder(False, True, "a second number over 12 makes these dates M/D/Y",
                         years)
    if not pairs:
        return DateOrder(True, True, "", years)
    if site and site.decided and site.why:
        return DateOrder(site.day_first, True, f"{site.why}, in the site's other folders",
                         years)
    why = "dates over 12 on both sides" if day_first else "no number over 12"
    return DateOrder(True, False, f"read as D/M/Y, but the site's dates do not say ({why})",
                     years)


def read_loose_date(value: object, order: DateOrder) -> tuple[str | None, str]:
    """A date no ISO reader takes, read as far as it can be, and how, for the report:
    'Sep-14' and '14-Sep' (a month and a two-digit year, Excel's way), '14 September 2016',
    'Sep. 2016', and a year inside other words ('Spring 2020', '2019-2020', its first)."""
    words = [w for w in re.split(r"[\s,/.'-]+", str(value).casefold()) if w]
    months = [MONTHS[w] for w in words if w in MONTHS]
    numbers = [int(w) for w in words if w.isdigit()]
    years = [int(y) for y in _YEAR.findall(str(value))]
    if len(words) == 2 and len(months) == 1 and any(re.fullmatch(r"\d\d", w) for w in words):
        year = full_year(numbers[0], order.years)
        return make_iso(year, months[0]), f"a month and a two-digit year, {year} " + (
            "by the span of the site's other dates" if order.years else "the latest such year")
    if len(years) == 1 and len(months) == 1:
        days = [n for n in numbers if n != years[0]]
        if len(days) == 1 and len(words) == 3:
            return make_iso(years[0], months[0], days[0]), "a day, a month and a year"
        if len(words) == 2:
            return make_iso(years[0], months[0]), "a month and a year"
    if years:
        return make_iso(min(years)), "its year only"
    return None, ""


def full_year(two_digits: int, years: tuple[int, ...]) -> int:
    """The year a two-digit year stands for: of its century's two readings, the one nearer
    the middle of the site's other years; with none, the latest not past next year."""
    readings = (1900 + two_digits, 2000 + two_digits)
    if years:
        middle = years[len(years) // 2]
        return min(readings, key=lambda y: abs(y - middle))
    return readings[1] if readings[1] <= dt.date.today().year + 1 else readings[0]


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
