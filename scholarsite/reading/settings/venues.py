"""Venue tiers from the CCF lists: recommended venues (2026) and Chinese journals (2019).

`lookup_tier` answers "CCF-A", "CCF-B" or "CCF-C" for a paper's venue when the table names it
without doubt, and "" otherwise: a wrong tier is worse than none. Evidence, strongest first:

1. the dblp path ("/conf/osdi", or any dblp URL or key containing it);
2. the full name, compared as a set of normalized words, so that case, punctuation, "&"/"and",
   "Proceedings of the", years, ordinals, word order, plurals and the words ACM, IEEE, USENIX,
   IEEE/CVF, IFIP, International and Annual make no difference;
3. the short name ("OSDI", "USENIX ATC '25", or a trailing "(EuroSys)" in the venue).

Short names are not unique (FSE, TCC, WWW, VLDB, ASE ...), so when a full name is also given it
must agree: an exact name match must be one of the short name's rows, or else the name must share
enough words with the row (the table says "Network System", a paper "Networked Systems").
A full name that names another venue, or shares no distinctive word with it, gives "".

A Chinese journal (data/ccf_zh_2019.tsv) has the same badges: CCF ranks them A, B and C too,
and Chinese CVs write 计算机学报 "CCF-A"; its name is compared as written (cjknames.py). Both
files are read once and indexed by `load_table`; a name both rank differently gets no tier.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Mapping, TypeVar

from ...diagnostics import Diagnostic, Diagnostics
from ...models import Site
from ...output.paths import read_regular
from .cjknames import ZH_EDITION, has_cjk, normalize_cjk, read_chinese_journals

K = TypeVar("K")

DATA_FILE = Path(__file__).parent.parent.parent / "data" / "ccf_2026.tsv"
# Proceedings series a listed venue publishes in now (SIGMOD in PACMMOD, VLDB in PVLDB).
ALIASES_FILE = DATA_FILE.with_name("venue_aliases.tsv")
EDITION = "CCF 2026"

# Words a venue's name may carry or drop without naming another venue.
OPTIONAL_WORDS = frozenset({"acm", "ieee", "usenix", "cvf", "ifip", "international", "annual"})
# Words that carry no meaning in a name, spelled ordinals ("Nineteenth European Conference
# on Computer Systems") and volumes among them.
STOP_WORDS = frozenset({
    "a", "an", "and", "the", "of", "on", "in", "for", "to", "at", "with", "volume", "vol",
    "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
    "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth",
    "seventeenth", "eighteenth", "nineteenth", "twentieth", "thirtieth", "fortieth",
    "fiftieth", "twenty", "thirty", "forty", "fifty",
})
# Words every kind of venue has; sharing only these says nothing about being the same venue.
GENERIC_WORDS = frozenset({
    "conference", "symposium", "workshop", "journal", "transaction", "letter", "magazine",
    "proceeding", "meeting", "forum", "review", "joint", "european", "asia", "pacific",
})
# A full name the table does not know, given with a short name it does, must share at least
# this part of its words with the short name's row, and the row as much of its own.
MIN_SHARED = 0.5

_WORD = re.compile(r"[a-z0-9]+")
_NUMBER = re.compile(r"\d+(?:st|nd|rd|th)?")  # years, volumes, ordinals: "2025", "21th", "22nd"
_SIG = re.compile(r"sig[a-z]+")  # ACM special interest groups: SIGOPS, SIGPLAN ...
_SOCIETY = re.compile(r"(?:acm|ieee|usenix|ifip|ieee/cvf|sig[a-z]+)", re.IGNORECASE)
# "Proceedings of the 2024 ..." but not the journals "Proceedings of the ACM on Networking" ...
_PROCEEDINGS = re.compile(
    r"^\s*(?:proceedings|proc\.?)\s+of\s+(?!(?:the\s+)?(?:acm|ieee)\s+on\b)(?:the\s+)?",
    re.IGNORECASE,
)
_TRAILING_PARENS = re.compile(r"^(.*?)\s*\(([^()]*)\)\s*$")
# The ACM Digital Library's "EuroSys '24: Proceedings of the ..."
_ACM_PREFIX = re.compile(r"^\s*([^:]{1,40}?)\s*['’]\s?\d\d\s*:\s*(.+)$")
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")  # "2024"
_SHORT_YEAR = re.compile(r"[\s'’]*(?:19|20)?\d\d\s*$")  # "EuroSys '21", "SOSP 2023", "OSDI24"
_DBLP = re.compile(r"(?<![A-Za-z0-9])(conf|journals)/([A-Za-z0-9_\-]+)")


@dataclass(frozen=True)
class Venue:
    """One row of the table."""

    rank: str  # "A", "B" or "C"
    abbr: str  # may be empty
    full_name: str
    dblp_path: str  # may be empty
    of: str = ""  # for a series a listed venue publishes in: that venue's dblp path
    edition: str = EDITION  # the list that ranks it, for messages

    @property
    def tier(self) -> str:
        return f"CCF-{self.rank}"


@dataclass(frozen=True)
class Table:
    """The venues and the indexes `lookup_tier` needs, built once."""

    venues: tuple[Venue, ...]
    by_dblp: dict[str, tuple[Venue, ...]]  # "/conf/osdi" -> rows
    by_name: dict[frozenset[str], tuple[Venue, ...]]  # `make_name_key` -> rows
    by_short: dict[str, tuple[Venue, ...]]  # `normalize_short` -> rows
    words: dict[Venue, frozenset[str]]  # each row's `list_words`, for loose comparison
    known: dict[str, str]  # every word of the table's names -> its `reduce_word`


def read_venues(path: Path = DATA_FILE) -> list[Venue]:
    """The rows of a rank<TAB>abbr<TAB>full_name<TAB>dblp_path file; '#' lines are comments."""
    venues = []
    for line in read_regular(path).decode("utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            rank, abbr, full_name, dblp_path = line.split("\t")
            venues.append(Venue(rank, abbr.strip(), full_name.strip(), dblp_path.strip()))
    return venues


def group_venues(pairs: Iterable[tuple[K, Venue]]) -> dict[K, tuple[Venue, ...]]:
    """An index from (key, row) pairs; rows keep the table's order."""
    index: dict[K, list[Venue]] = {}
    for key, venue in pairs:
        index.setdefault(key, []).append(venue)
    return {key: tuple(rows) for key, rows in index.items()}


def read_aliases(venues: list[Venue], path: Path = ALIASES_FILE) -> list[Venue]:
    """Rows for the names a listed venue's papers are published under, each at the listed
    venue's rank and naming it (`of`), so that its short name beside the series' name
    agrees with it ("Proceedings of the ACM on Management of Data", "SIGMOD")."""
    listed = group_venues((v.dblp_path, v) for v in venues if v.dblp_path)
    rows = []
    for line in read_regular(path).decode("utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            of, abbr, full_name, dblp_path = (part.strip() for part in line.split("\t"))
            rows += [Venue(venue.rank, abbr, full_name, dblp_path, of) for venue in listed[of]]
    return rows


@lru_cache(maxsize=1)
def load_table() -> Table:
    """Read the table and index it by dblp path, name words and short name (once per process)."""
    listed = read_venues()
    chinese = [Venue(rank, "", name, "", edition=ZH_EDITION)
               for rank, name in read_chinese_journals()]
    venues = tuple(dict.fromkeys(listed + read_aliases(listed) + chinese))
    known = {
        word: reduce_word(word)
        for venue in venues
        for word in _WORD.findall(fold_text(venue.full_name).lower().replace("&", " and "))
    }
    return Table(
        venues=venues,
        by_dblp=group_venues((normalize_dblp(v.dblp_path), v) for v in venues if v.dblp_path),
        by_name=group_venues((make_name_key(v.full_name, known), v) for v in venues),
        by_short=group_venues((normalize_short(v.abbr), v) for v in venues if v.abbr),
        words={venue: list_words(venue.full_name, known) for venue in venues},
        known=known,
    )


# --- Normalization -----------------------------------------------------------------------------


def fold_text(text: str) -> str:
    """ASCII, accents dropped ("Montréal" -> "Montreal"); case is kept."""
    if text.isascii():
        return text
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")


def stem_word(word: str) -> str:
    """A crude stem, enough for "Networked Systems" = "Network System"."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 5 and word.endswith("ing"):
        return word[:-3]
    if len(word) > 4 and word.endswith("ed"):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def reduce_word(word: str) -> str:
    """A lower-case word's stem, or "" for a word that does not count in a name."""
    if word in STOP_WORDS or word in OPTIONAL_WORDS or _NUMBER.fullmatch(word):
        return ""
    return stem_word(word)


def list_words(name: str, known: Mapping[str, str] | None = None) -> frozenset[str]:
    """The stemmed words of a name, without stop words, optional words, numbers and years.

    known maps words already reduced (the table's) to their `reduce_word`, to save time.
    """
    known = known or {}
    words = _WORD.findall(fold_text(name).lower().replace("&", " and "))
    reduced = [known[word] if word in known else reduce_word(word) for word in words]
    return frozenset(reduced).difference(("",))


def make_name_key(name: str, known: Mapping[str, str] | None = None) -> frozenset[str]:
    """The key two spellings of one venue's full name share.

    The `list_words` of the name without a leading "Proceedings of the" and without SIG names
    ("ACM SIGOPS Annual Technical Conference" = "USENIX Annual Technical Conference").
    Very short names keep more, so that one common word does not match the same word with a
    society's name around it: "ACM SIGMOD Conference" keeps SIGMOD; "Networks",
    "IEEE Network" and "Proceedings of the IEEE" keep every word but stop words and numbers.
    """
    if has_cjk(name):
        return frozenset((normalize_cjk(name),))
    stripped = _PROCEEDINGS.sub("", name) if name[:4].lower() == "proc" else name
    words = list_words(stripped, known)
    core = words
    if any(word.startswith("sig") for word in words):
        core = frozenset(word for word in words if not _SIG.fullmatch(word))
    if len(core) >= 2:
        return core
    if len(words) >= 2:
        return words
    return frozenset(
        stem_word(word)
        for word in _WORD.findall(fold_text(name).lower())
        if word not in STOP_WORDS and not _NUMBER.fullmatch(word)
    )


def normalize_short(short: str) -> str:
    """A short name without year, punctuation and leading society: "USENIX ATC '25" -> "atc".

    The society goes only when what follows is itself an abbreviation: "ACM SIGOPS ATC" is
    "ATC", "IEEE S&P" is "S&P", but "USENIX Security" stays whole ("Security" is a word).
    """
    if short.isascii() and short.isalpha():
        return short.lower()  # the common case: "OSDI", "EuroSys"
    if has_cjk(short):
        return normalize_cjk(short)
    words = _YEAR.sub(" ", _SHORT_YEAR.sub("", fold_text(short))).split()
    while (
        len(words) > 1
        and _SOCIETY.fullmatch(words[0])
        and look_like_abbreviation(" ".join(words[1:]))
    ):
        words = words[1:]
    return "".join(_WORD.findall(" ".join(words).lower()))  # "S&P" -> "sp"


def normalize_dblp(dblp: str) -> str:
    """The "/conf/osdi" part of a dblp path, URL or key, lower case; "" when there is none."""
    found = _DBLP.search(dblp)
    return f"/{found.group(1)}/{found.group(2)}".lower() if found else ""


def look_like_abbreviation(text: str) -> bool:
    """Whether text reads as a short name: "OSDI", "EuroSys", "USENIX ATC" ("Networks" does not)."""
    words = text.split()
    return 0 < len(words) <= 3 and any(sum(c.isupper() for c in word) >= 2 for word in words)


def split_venue(venue: str) -> tuple[str, str]:
    """Split a venue into (full name, short name found in it, or "").

    "21th ACM European Conference on Computer Systems (EuroSys)" -> (..., "EuroSys");
    "EuroSys '24: Proceedings of the Nineteenth European ..." -> ("Proceedings of ...", "EuroSys");
    dblp's "2024 USENIX Annual Technical Conference, USENIX ATC 2024, Santa Clara, ..." ->
    ("2024 USENIX Annual Technical Conference", "USENIX ATC 2024").
    """
    venue = venue.strip()
    prefixed = _ACM_PREFIX.match(venue) if ":" in venue else None
    if prefixed and look_like_abbreviation(prefixed.group(1)):
        return prefixed.group(2), prefixed.group(1)
    parens = _TRAILING_PARENS.match(venue) if venue.endswith(")") else None
    if parens and parens.group(1):
        inner = parens.group(2).strip()
        return parens.group(1), inner if look_like_abbreviation(inner) else ""
    parts = venue.split(",") if "," in venue else []
    if len(parts) > 1:
        second = parts[1].strip()
        if _YEAR.search(second) and look_like_abbreviation(_YEAR.sub(" ", second)):
            return parts[0].strip(), second
    return venue, ""


# --- Matching ----------------------------------------------------------------------------------


def find_short(table: Table, short: str) -> tuple[Venue, ...]:
    """Rows whose abbreviation is short; "ESEC/FSE" also tries "ESEC" and "FSE"."""
    found = table.by_short.get(normalize_short(short), ())
    if not found and "/" in short:
        parts = (normalize_short(part) for part in short.split("/"))
        found = tuple(venue for part in parts for venue in table.by_short.get(part, ()))
    return found


def compare_names(words: frozenset[str], venue: Venue, table: Table) -> bool:
    """Whether a full name's words can be another spelling of the row's name: at least half of
    each side's words shared, and at least one of them distinctive (not "Conference" ...)."""
    theirs = table.words[venue]
    shared = words & theirs
    return (
        bool(shared - GENERIC_WORDS)
        and len(shared) >= MIN_SHARED * len(words)
        and len(shared) >= MIN_SHARED * len(theirs)
    )


def intersect_venues(first: tuple[Venue, ...], second: tuple[Venue, ...]) -> tuple[Venue, ...]:
    """The rows of `first` that `second` names too, a series and the venue it publishes
    counting as one ("Proceedings of the ACM on Management of Data", "SIGMOD")."""
    paths = {path for venue in second for path in (venue.dblp_path, venue.of) if path}
    return tuple(venue for venue in first
                 if venue in second or venue.of in paths or venue.dblp_path in {
                     other.of for other in second if other.of})


def match_names(table: Table, venue: str, venue_short: str) -> tuple[Venue, ...]:
    """Rows the names point to: several when they cannot tell rows apart, none on a conflict."""
    name, short_in_name = split_venue(venue)
    short = venue_short.strip() or short_in_name
    by_short = find_short(table, short) if short else ()
    if not name:
        return by_short
    by_name = table.by_name.get(make_name_key(name, table.known), ())
    if not by_name and look_like_abbreviation(name):
        by_name = find_short(table, name)  # the venue is itself a short name: "OSDI 2024"
    if by_name:
        # The table knows the name: a short name it also knows must name one of the same
        # rows ("Theory of Cryptography Conference", "TCC"), or the two conflict.
        return intersect_venues(by_name, by_short) if by_short else by_name
    # The table does not know the full name as written: it must still read as the name of
    # the short name's row ("Networked Systems" for "Network System"), not of another venue.
    words = list_words(name, table.known)
    return tuple(venue for venue in by_short if compare_names(words, venue, table))


def match_venues(venue: str, venue_short: str = "", dblp: str = "") -> tuple[Venue, ...]:
    """Rows matching a paper's venue: one rank among them means the tier is known.

    A dblp path the table knows decides, unless the names point to other rows (a conflict:
    no rows) or pick among its rows (/conf/uss holds USENIX Security and HotSec).
    """
    table = load_table()
    by_names = match_names(table, venue or "", venue_short or "")
    by_dblp = table.by_dblp.get(normalize_dblp(dblp), ()) if dblp else ()
    if by_dblp and by_names:
        return intersect_venues(by_dblp, by_names)
    return by_dblp or by_names


def lookup_tier(venue: str, venue_short: str = "", dblp: str = "") -> str:
    """ "CCF-A", "CCF-B" or "CCF-C" when the venue matches the table without doubt, else "".

    venue is the full name (it may end in "(ABBR)"), venue_short the abbreviation, dblp a dblp
    path ("/conf/osdi"), URL or key. Rows that all share one rank leave no doubt.
    """
    ranks = {venue.rank for venue in match_venues(venue, venue_short, dblp)}
    return f"CCF-{ranks.pop()}" if len(ranks) == 1 else ""


@lru_cache(maxsize=4096)
def is_conference(venue: str) -> bool:
    """Whether the table knows `venue` ("ICML", "International Conference on Computer
    Vision (ICCV)") as a conference and only as one: Google Scholar exports conference
    papers as @article with the conference as the journal."""
    rows = match_venues(venue)
    return bool(rows) and all(row.dblp_path.startswith("/conf/") for row in rows)


def check_tier(tier: str, venue: str, venue_short: str = "") -> str | None:
    """For `build check`: a warning when an explicit "CCF-X" tier disagrees with the table's
    rank for the venue, else None (other schemes, or a venue the table does not decide)."""
    given = tier.strip()
    if not given.upper().startswith("CCF-"):
        return None
    found = match_venues(venue, venue_short)
    ranks = {row.rank for row in found}
    if len(ranks) != 1:
        return None
    expected = f"CCF-{ranks.pop()}"
    if given.upper() == expected:
        return None
    row = found[0]
    return (f"tier {given} disagrees with the {row.edition} list, which ranks "
            f"{row.abbr or row.full_name} {expected}")


def find_tier_conflicts(site: Site, root: Path | None = None) -> list[Diagnostic]:
    """For `build check`: a warning for every paper whose explicit CCF tier disagrees with
    the table, at the paper's file and line (paths shown relative to root when inside it).
    Tiers the lookup filled in agree with the table by construction."""
    diags = Diagnostics(root=root)
    for paper in site.papers:
        problem = check_tier(paper.tier, paper.venue, paper.venue_short) if paper.tier else None
        if problem:
            diags.warning(paper.source, paper.line, f"{problem}; fix 'tier', or remove it to "
                          "use the list's rank")
    return diags.items
