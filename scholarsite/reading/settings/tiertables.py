"""Venue tiers from the user's own tables, beside or instead of the shipped CCF list.

site.yaml's `publications.venue_tiers` names the lists to ask, in order: `ccf` (the CCF
lists, venues.py: 2026 venues, 2019 Chinese journals) and files in content/tiers/, each a
table of venues and their tier:

    # tiers/school.tsv: the tier, then the venue's names (full, short, other spellings)
    T1<TAB>International Conference on Software Engineering<TAB>ICSE
    T2<TAB>Journal of Examples<TAB>J. Ex.

    # tiers/school.yaml: the same, by tier; a venue is one name or a list of its names
    T1:
      - [International Conference on Software Engineering, ICSE]
    T2:
      - Journal of Examples

A paper without a `tier` takes the tier of the first list that knows its venue without
doubt: its names are compared as the CCF list's are (word sets for full names, so case,
"Proceedings of the", years and society names make no difference; short names without
years; Chinese names as written, cjknames.py), and names that point to rows of different
tiers give none.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ...diagnostics import Diagnostics
from ...models import TierRow, TierTable
from .fields import FieldReader, type_name
from .tierrows import check_tier, read_tsv
from .venues import look_like_abbreviation, lookup_tier, make_name_key, normalize_short, \
    split_venue
from .yamlread import parse_yaml, read_text

TIERS_DIR = "tiers"  # below the content folder
CCF = "ccf"
TABLE_SUFFIXES = (".tsv", ".yaml", ".yml")
CCF_ONLY = (TierTable(CCF),)


@dataclass(frozen=True)
class TierIndex:
    """A user's table indexed by full name (`make_name_key`) and short name."""

    by_name: dict[frozenset[str], tuple[TierRow, ...]]
    by_short: dict[str, tuple[TierRow, ...]]


def read_venue_tiers(pubs: FieldReader, content_dir: Path) -> tuple[TierTable, ...]:
    """`venue_tiers`: true (the default: the CCF list), false (none), or a list of `ccf`
    and table files in content/tiers/; every table's bad rows are errors at their lines."""
    value = pubs.raw("venue_tiers")
    if value is None or value is True:
        return CCF_ONLY
    if value is False:
        return ()
    items = value if isinstance(value, list) else [value]
    tables = []
    for at, item in enumerate(items):
        key = ("venue_tiers", at) if isinstance(value, list) else ("venue_tiers",)
        if isinstance(item, str) and item.lower() == CCF:  # "CCF" as the list is named
            tables.append(TierTable(CCF))
        elif isinstance(item, str) and item.lower().endswith(TABLE_SUFFIXES) \
                and not Path(item).is_absolute() and ".." not in Path(item).parts:
            table = read_table_file(pubs, key, item, content_dir)
            tables += [table] if table is not None else []
        else:
            found = repr(item) if isinstance(item, str) else f"{type_name(item)} {item!r}"
            pubs.error(key, f"'venue_tiers' lists 'ccf' and tables in content/{TIERS_DIR}/ "
                       f"(.tsv or .yaml files, such as school.tsv); found {found}")
    return tuple(tables)


def read_table_file(pubs: FieldReader, key: tuple, name: str, content_dir: Path
                    ) -> TierTable | None:
    path = content_dir / TIERS_DIR / name
    if not os.path.lexists(path):
        pubs.error(key, f"there is no table '{TIERS_DIR}/{name}' in the content folder: "
                   f"put it in content/{TIERS_DIR}/, or remove it from 'venue_tiers'")
        return None
    text = read_text(path, pubs.diags, content_dir)
    if text is None:
        return None
    read = read_tsv if path.suffix.lower() == ".tsv" else read_yaml_table
    rows = read(text, path, pubs.diags)
    warn_repeated(rows, path, pubs.diags)
    return TierTable(name, rows)


def warn_repeated(rows: tuple[TierRow, ...], path: Path, diags: Diagnostics) -> None:
    """A warning for a name a table gives two tiers: the venue gets neither from it."""
    first: dict[frozenset[str], TierRow] = {}
    for row in rows:
        for name in row.names:
            seen = first.setdefault(make_name_key(name), row)
            if seen.tier != row.tier:
                diags.warning(path, row.line, f"'{name}' is tier {row.tier} here and "
                              f"{seen.tier} at line {seen.line}: papers at this venue get "
                              "no tier from this table until one of the rows goes")


def read_yaml_table(text: str, path: Path, diags: Diagnostics) -> tuple[TierRow, ...]:
    """{tier: [venue, ...]}, a venue being one name or a list of its names."""
    doc = parse_yaml(text, path, 1, diags)
    if doc is None:
        return ()
    top = FieldReader(doc, path, diags, what="tier")
    rows = []
    for tier in list(top.data):
        problem = check_tier(str(tier))
        venues = top.data[tier]
        if problem or not isinstance(venues, list) or not venues:
            top.error((tier,), problem or f"tier {tier!r} must list its venues (- name, or "
                      f"- [name, short name]); found {type_name(venues)}")
            continue
        for at, venue in enumerate(venues):
            names = venue if isinstance(venue, list) else [venue]
            if not names or not all(isinstance(n, (str, int)) and str(n).strip() for n in names):
                top.error((tier, at), f"venue {at + 1} of tier {tier!r} must be a name or a "
                          f"list of names; found {venue!r}")
                continue
            rows.append(TierRow(" ".join(str(tier).split()),
                                tuple(" ".join(str(n).split()) for n in names),
                                top.line(tier, at)))
    return tuple(rows)


def index_table(table: TierTable) -> TierIndex:
    by_name: dict[frozenset[str], list[TierRow]] = {}
    by_short: dict[str, list[TierRow]] = {}
    for row in table.rows:
        for name in row.names:
            by_name.setdefault(make_name_key(name), []).append(row)
            if look_like_abbreviation(name) or len(name.split()) == 1:
                by_short.setdefault(normalize_short(name), []).append(row)
    return TierIndex({k: tuple(dict.fromkeys(v)) for k, v in by_name.items()},
                     {k: tuple(dict.fromkeys(v)) for k, v in by_short.items()})


def lookup_listed_tier(index: TierIndex, venue: str, venue_short: str = "") -> str:
    """The tier a user's table gives the venue, or "" when it knows it not or not surely:
    a short name and a full name must point to the same rows, and the rows to one tier."""
    name, short_in_name = split_venue(venue or "")
    short = (venue_short or "").strip() or short_in_name
    by_short = index.by_short.get(normalize_short(short), ()) if short else ()
    by_name = index.by_name.get(make_name_key(name), ()) if name else ()
    if not by_name and name and look_like_abbreviation(name):
        by_name = index.by_short.get(normalize_short(name), ())
    rows = [row for row in by_name if row in by_short] if by_name and by_short else \
        by_name or by_short
    tiers = {row.tier for row in rows}
    return tiers.pop() if len(tiers) == 1 else ""


def make_tier_finder(tables: tuple[TierTable, ...]) -> Callable[[str, str], str]:
    """finder(venue, venue_short): the tier of the first table that knows the venue."""
    finders = [lookup_tier if table.name == CCF and not table.rows else
               _bind(index_table(table)) for table in tables]

    def find(venue: str, venue_short: str) -> str:
        return next((tier for finder in finders if (tier := finder(venue, venue_short))), "")
    return find


def _bind(index: TierIndex) -> Callable[[str, str], str]:
    return lambda venue, venue_short: lookup_listed_tier(index, venue, venue_short)
