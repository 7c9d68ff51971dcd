"""An imported entry's venue as a person would write it.

DBLP and Google Scholar export venues for machines: DBLP's booktitle ends in the short
name, the year, the place and the dates ("..., NSDI 2025, Philadelphia, PA, USA, April
28-30, 2025"), its arXiv papers are in the journal "CoRR" with the volume "abs/2406.05678",
and a thesis has only its school. Shown as they are, the year is printed twice and an arXiv
paper reads "CoRR". Here the tail is cut off (its short name kept for the badge), arXiv
is named with the paper's id, a thesis says what it is, and a venue the venue list knows
gets its short name as a badge. The BibTeX export is the entry as written, untouched.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..settings.venues import look_like_abbreviation, match_venues

_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
_SHORT_YEAR = re.compile(r"[\s'’]*(?:19|20)?\d\d\s*$")  # "NSDI 2025", "USENIX ATC 23"
_TRAILING_SHORT = re.compile(r"\s*\(([^()]+)\)\s*$")
_ARXIV_VENUE = re.compile(r"^\s*(?:corr|arxiv(?: e-prints)?)\s*$", re.I)
THESES = {"phdthesis": "Ph.D. thesis", "mastersthesis": "Master's thesis"}


@dataclass(frozen=True)
class Shown:
    venue: str
    venue_short: str
    volume: str


def cut_dblp_tail(venue: str) -> tuple[str, str]:
    """(the venue less DBLP's ", SHORT YEAR, place, dates" tail, SHORT) or (venue, '')."""
    parts = venue.split(",")
    for i in range(1, len(parts)):
        part = parts[i].strip()
        if _YEAR.search(part) and look_like_abbreviation(_YEAR.sub(" ", part)):
            return ",".join(parts[:i]).strip(), _SHORT_YEAR.sub("", part).strip()
    return venue, ""


def find_listed_short(venue: str, short: str) -> str:
    """The venue list's short name for the venue, when it names one row (or several with
    one short name)."""
    if not venue:
        return ""
    names = {row.abbr for row in match_venues(venue, short) if row.abbr}
    return names.pop() if len(names) == 1 else ""


def tidy_venue(kind: str, venue: str, abbr: str, school: str, arxiv: str,
               volume: str) -> Shown:
    """What an entry of BibTeX type `kind` shows as its venue, badge and volume; `abbr`,
    when the entry has one, is its badge as written."""
    if arxiv and (not venue or _ARXIV_VENUE.match(venue)):
        shown_volume = "" if volume.lower().startswith("abs/") else volume
        return Shown(f"arXiv:{arxiv}", abbr, shown_volume)
    if kind in THESES and not venue:
        return Shown(f"{THESES[kind]}, {school}" if school else THESES[kind], abbr, volume)
    cut, tail_short = cut_dblp_tail(venue)
    parens = _TRAILING_SHORT.search(cut)
    written = parens.group(1).strip() if parens and look_like_abbreviation(parens.group(1)) \
        else ""
    short = abbr or _SHORT_YEAR.sub("", written).strip() or tail_short \
        or find_listed_short(cut, "")
    return Shown(cut, short, volume)
