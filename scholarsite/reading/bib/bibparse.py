"""Parsing `.bib` text into entries: @string macros, `#` concatenation and crossref.

bibtexparser (v2) splits the file into blocks and gives every entry and field its line;
macro expansion, concatenation and crossref are done here, because its own middleware
resolves only values that are a single macro and does no crossref. Each file is read on its
own: a macro defined in another file is an error that names it. `EntryReader` then gives
typed access to one entry's fields, for bibpaper and biblinks.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ...diagnostics import Diagnostics
from .aasjournals import expand_journal_macro
from .charrefs import decode_references
from .latex import latex_to_text
from ..slugs import make_slug

if TYPE_CHECKING:  # bibtexparser itself is imported when a .bib file is read
    from bibtexparser.model import Entry, ImplicitComment, ParsingFailedBlock, String

# bibtexparser logs every block it cannot split; those become our own diagnostics instead.
logging.getLogger("bibtexparser").addHandler(logging.NullHandler())

MONTH_MACROS = {
    "jan": "January", "feb": "February", "mar": "March", "apr": "April", "may": "May",
    "jun": "June", "jul": "July", "aug": "August", "sep": "September", "oct": "October",
    "nov": "November", "dec": "December",
}
# Fields a child entry never takes from the entry it crossrefs: its own identity and links.
NOT_INHERITED = frozenset({
    "crossref", "title", "abstract", "ids", "key", "doi", "url", "eprint", "archiveprefix",
    "eprinttype", "arxiv", "note", "selected", "award", "preview", "bibtex_show", "pdf", "code",
    "html", "slides", "poster", "video", "supp", "tier", "category", "topics",
})
_WORD = re.compile(r"[^\s#{}\",=]+")
_FAILED_KEY = re.compile(r"@\s*\w+\s*[{(]\s*([^,\s{}()]+)")
# Text between entries that looks like an entry BibTeX cannot read (`@in-proceedings{`,
# `@bib:article{`): the parser takes it for a comment, and the entry would vanish.
_ODD_ENTRY = re.compile(r"^[ \t]*@[ \t]*([^\s{(]*[^\w\s{(][^\s{(]*)[ \t]*[{(]", re.MULTILINE)
_GROUP_MARK = re.compile(r'\\.|[{}"]', re.DOTALL)  # an escape pair is one mark, skipped


@dataclass(frozen=True)
class BibValue:
    """A field's value: LaTeX source with macros expanded, outer braces or quotes removed."""

    text: str
    line: int
    macro: str = ""  # the macro's name when the value was exactly one macro (month = apr)


@dataclass
class BibEntry:
    key: str
    type: str  # lowercase: article, inproceedings, ...
    line: int
    fields: dict[str, BibValue] = field(default_factory=dict)  # lowercase names, source order
    broken: bool = False  # a field could not be resolved (already reported)

    def where(self) -> str:
        return f"entry '{self.key}'"


class EntryReader:
    """Typed access to one entry's fields, with `path:line` diagnostics naming the key."""

    def __init__(self, entry: BibEntry, path: Path, diags: Diagnostics) -> None:
        self.entry = entry
        self.path = path
        self.diags = diags
        self.errors = 0

    def line(self, name: str = "") -> int:
        value = self.entry.fields.get(name)
        return value.line if value else self.entry.line

    def error(self, name: str, message: str) -> None:
        self.errors += 1
        self.diags.error(self.path, self.line(name), f"{self.entry.where()}: {message}")

    def warning(self, name: str, message: str) -> None:
        self.diags.warning(self.path, self.line(name), f"{self.entry.where()}: {message}")

    def missing(self, name: str) -> None:
        """A required field is absent or empty; after a field that could not be resolved
        (already reported) nothing more is said."""
        if self.entry.broken:
            self.errors += 1
        elif name not in self.entry.fields:
            self.error(name, f"missing required field '{name}'")
        else:
            self.error(name, f"'{name}' is empty; it is required")

    def raw(self, name: str) -> str:
        value = self.entry.fields.get(name)
        return value.text if value else ""

    def text(self, name: str) -> str:
        value = self.entry.fields.get(name)
        return expand_journal_macro(value.text) or latex_to_text(value.text) if value else ""


def slug_from_key(key: str) -> str:
    """'Chen2021:Fast_DL' -> 'chen2021-fast-dl': the paper's page address."""
    return make_slug(key)


@dataclass(frozen=True)
class Library:
    """A file's entries, and (line, name) of each block that looked like an entry but
    could not be read as one (already reported): its key in quotes, or where it is."""

    entries: list[BibEntry]
    unread: tuple[tuple[int, str], ...] = ()


def parse_entries(path: Path, text: str, diags: Diagnostics) -> list[BibEntry]:
    """The file's entries with every value resolved (see parse_library)."""
    return parse_library(path, text, diags).entries


def parse_library(path: Path, text: str, diags: Diagnostics) -> Library:
    """The file's entries with every value resolved; @string, @preamble, @comment and text
    between entries (al-folio's front matter, comments, headings) are not entries."""
    import bibtexparser
    from bibtexparser.model import (DuplicateBlockKeyBlock, DuplicateFieldKeyBlock, Entry,
                                    ImplicitComment, ParsingFailedBlock, String)

    try:
        library = bibtexparser.parse_string(text, parse_stack=[])
    except Exception as exc:  # a bug in the splitter, not in the file; still no traceback
        diags.error(path, 0, f"the BibTeX reader failed on this file ({exc}); please report it")
        return Library([], ((0, "the whole file"),))
    macros = dict(MONTH_MACROS)
    raw_entries: list[Entry] = []
    unread: list[tuple[int, str]] = []
    for block in library.blocks:
        if isinstance(block, (DuplicateBlockKeyBlock, DuplicateFieldKeyBlock)):
            block = block.ignore_error_block  # duplicates are found (case-blind) below
        if isinstance(block, String):
            define_macro(block, macros, path, diags)
        elif isinstance(block, Entry):
            raw_entries.append(block)
        elif isinstance(block, ParsingFailedBlock):
            unread.append(report_failed_block(block, path, diags))
        elif isinstance(block, ImplicitComment):
            unread += report_odd_entries(block, path, diags)
    return Library([resolve_entry(e, macros, path, diags) for e in raw_entries], tuple(unread))


def report_odd_entries(block: ImplicitComment, path: Path, diags: Diagnostics
                       ) -> list[tuple[int, str]]:
    """A warning for each entry among text between entries whose type is not a word;
    returns where each is."""
    text = block.comment or ""
    found = []
    for match in _ODD_ENTRY.finditer(text):
        line = (block.start_line or 0) + text.count("\n", 0, match.start()) + 1
        diags.warning(path, line, f"'@{match.group(1)}' is not an entry type BibTeX reads "
                      "(letters only, such as @inproceedings); the entry is skipped")
        found.append((line, f"@{match.group(1)}"))
    return found


def report_failed_block(block: ParsingFailedBlock, path: Path, diags: Diagnostics
                        ) -> tuple[int, str]:
    """An error for a block the parser gave up on; returns what it names."""
    match = _FAILED_KEY.match(block.raw or "")
    line = (block.start_line or 0) + 1
    what = f"entry '{match.group(1)}'" if match else "this block"
    # One line, whatever the parser quotes from the entry (a field may hold line breaks).
    reason = " ".join(str(getattr(block.error, "abort_reason", "") or block.error).split())
    diags.error(path, line, f"{what} could not be read: {reason}; check its braces, quotes "
                "and commas (the rest of the file was still read)")
    return line, f"'{match.group(1)}'" if match else "a block"


def define_macro(block: String, macros: dict[str, str], path: Path, diags: Diagnostics) -> None:
    line = (block.start_line or 0) + 1
    name = block.key.strip()
    text, undefined, _, problem = resolve_value(str(block.value), macros)
    if problem or undefined or not _WORD.fullmatch(name):
        detail = problem or (f"it uses the undefined macro(s) {', '.join(undefined)}"
                             if undefined else f"'{name}' is not a valid macro name")
        diags.error(path, line, f"@string '{name}' cannot be defined: {detail}")
        return
    macros[name.lower()] = text


def resolve_entry(entry: Entry, macros: dict[str, str], path: Path,
                  diags: Diagnostics) -> BibEntry:
    key = entry.key.strip()
    out = BibEntry(key=key, type=entry.entry_type.strip().lower(),
                   line=(entry.start_line or 0) + 1)
    for fld in entry.fields:
        name = fld.key.strip().lower()
        line = fld.start_line + 1
        if name in out.fields:
            diags.warning(path, line, f"{out.where()}: field '{name}' is given twice; "
                          "the first one is used")
            continue
        text, undefined, macro, problem = resolve_value(str(fld.value), macros)
        if problem:
            diags.error(path, line, f"{out.where()}: field '{name}' {problem}")
        elif undefined:  # kept, as its name: the entry is the owner's, never dropped
            names = list(dict.fromkeys(undefined))  # each once, in order
            diags.warning(path, line, f"{out.where()}: field '{name}' uses the undefined "
                          f"@string macro{'s' if len(names) > 1 else ''} {', '.join(names)}, "
                          f"shown as {'their names' if len(names) > 1 else 'its name'}; "
                          f"define {'them' if len(names) > 1 else 'it'} in this file, such as "
                          f"@string{{{names[0]} = {{...}}}}, or write the value in braces")
        out.broken = out.broken or bool(problem)
        out.fields[name] = BibValue(decode_references(text), line, macro)
    return out


def resolve_value(raw: str, macros: dict[str, str]) -> tuple[str, list[str], str, str]:
    """A raw field value ('{A} # " and " # name # 2020') as text.

    Returns (text, undefined macro names, the macro name if the value was only one,
    a problem or '').
    """
    parts: list[str] = []
    undefined: list[str] = []
    words: list[str] = []
    i, n = 0, len(raw)
    while i < n:
        ch = raw[i]
        if ch.isspace() or ch == "#":
            i += 1
        elif ch in "{\"":
            end = find_closing(raw, i)
            if end < 0:
                return "", [], "", "has an unclosed '{' or '\"'"
            parts.append(raw[i + 1:end])
            i = end + 1
        else:
            match = _WORD.match(raw, i)
            if not match:
                return "", [], "", (f"has an unexpected '{ch}' (is a comma missing after "
                                    "this value?)" if ch == "=" else f"has an unexpected '{ch}'")
            word = match.group(0)
            i = match.end()
            words.append(word)
            if word.isdigit():
                parts.append(word)
            elif word.lower() in macros:
                parts.append(macros[word.lower()])
            else:
                undefined.append(word)
                parts.append(word)
    single = words[0] if len(words) == 1 and len(parts) == 1 and not words[0].isdigit() else ""
    return "".join(parts), undefined, single, ""


def find_closing(raw: str, start: int) -> int:
    """Index of the '}' or '"' closing the group that opens at `start`; -1 if none.
    Braces nest; a quote inside braces does not close a quoted value; `\\{` and `\\}` do not
    count, as for bibtexparser's splitter."""
    depth = 0
    quoted = raw[start] == '"'
    for match in _GROUP_MARK.finditer(raw, start + 1 if quoted else start):
        mark = match.group(0)
        if mark == "{":
            depth += 1
        elif mark == "}":
            depth -= 1
            if depth == 0 and not quoted:
                return match.start()
            if depth < 0:
                return -1
        elif mark == '"' and quoted and depth == 0:
            return match.start()
    return -1


def inherit_crossrefs(entries: list[BibEntry], path: Path, diags: Diagnostics
                      ) -> tuple[list[BibEntry], set[str]]:
    """Children take the fields they lack from the entry they crossref (one level, as BibTeX
    does); a parent's title becomes a child's booktitle. Returns the entries and the
    lowercase keys of the parents."""
    by_key = {e.key.lower(): e for e in entries}
    parents: set[str] = set()
    for entry in entries:
        ref = entry.fields.get("crossref")
        if ref is None:
            continue
        parent = by_key.get(ref.text.strip().lower())
        if parent is None or parent is entry:
            diags.warning(path, ref.line, f"{entry.where()}: crossref '{ref.text.strip()}' names "
                          "no other entry in this file; its fields are not inherited")
            continue
        parents.add(parent.key.lower())
        for name, value in parent.fields.items():
            if name not in NOT_INHERITED and name not in entry.fields:
                entry.fields[name] = value
        if "booktitle" not in entry.fields and "title" in parent.fields:
            entry.fields["booktitle"] = parent.fields["title"]
    for entry in entries:  # a loop or a chain: a parent that is a child too stays a paper
        ref = entry.fields.get("crossref")
        if ref is not None and entry.key.lower() in parents:
            parents.discard(entry.key.lower())
            diags.warning(path, ref.line, f"{entry.where()}: other entries crossref it and it "
                          "has a crossref itself (a loop or a chain, which BibTeX does not "
                          "follow); it is kept as a paper")
    return entries, parents
