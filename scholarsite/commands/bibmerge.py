"""A fetched .bib file merged with the owner's copy of it, field by field.

`update` keeps two files per source: `publications/dblp.bib`, which the site reads and the
owner may edit, and `publications/.dblp.fetched.bib` (hidden: the build never reads it),
what the source said last time. A three-way merge of the three, for each field of each
entry: a field the owner left as it was fetched takes the source's new value; a field the
owner changed (or added, or removed) keeps the owner's. An entry the owner deleted stays
deleted; an entry the owner wrote by hand stays; an entry the source dropped goes, unless
the owner had edited it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .bibwrite import check_record, format_entry
from ..diagnostics import Diagnostics
from ..reading.bib.bibparse import parse_library

HEADER = ("% Written by `scholarsite update` from {source}; edit freely: a field you change\n"
          "% is kept on the next update (README.md, 'Keeping your papers and citation counts\n"
          "% up to date'). Comments and string macros outside entries are not kept.\n")
# (No '@' in it: classic bibtex ignores no '%' line, and reads an '@' as an entry's start.)


@dataclass(frozen=True)
class Record:
    """One BibTeX entry as plain text: its fields' values as written, in order."""

    key: str
    type: str
    fields: tuple[tuple[str, str], ...]

    def get(self, name: str) -> str | None:
        return next((value for key, value in self.fields if key == name), None)


@dataclass
class Merged:
    """What a merge gave, in the order to write, and what it did, to report."""

    records: list[Record] = field(default_factory=list)
    base: list[Record] = field(default_factory=list)  # the source's, for the next merge
    fresh: set[str] = field(default_factory=set)  # keys the owner has not edited
    kept_edits: list[str] = field(default_factory=list)  # 'key: field'
    owner_deleted: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)  # gone from the source


def parse_records(path: Path, text: str, diags: Diagnostics) -> list[Record]:
    """The file's entries as records; problems go to `diags` (the caller then writes
    nothing over the file: a file the owner broke is theirs to mend)."""
    library = parse_library(path, text, diags)
    for line, name in library.unread:
        diags.error(path, line, f"{name} could not be read; mend it before updating")
    for entry in library.entries:
        problem = check_record(entry.key, entry.type, list(entry.fields))
        if problem:
            diags.error(path, entry.line, f"{entry.where()} could not be written back: "
                        f"{problem}; mend it before updating")
    return [Record(entry.key, entry.type,
                   tuple((name, value.text) for name, value in entry.fields.items()))
            for entry in library.entries]


def format_records(records: list[Record], source: str) -> str:
    """The file's text; every field written through bibwrite, so that it reads back as
    the record it was."""
    blocks = [HEADER.format(source=source)]
    blocks += [format_entry(record.key, record.type, record.fields) for record in records]
    return "\n".join(blocks)


def merge_records(base: list[Record], ours: list[Record], theirs: list[Record]) -> Merged:
    """The three-way merge described above; the source's order, then the owner's own."""
    old = {r.key: r for r in base}
    mine = {r.key: r for r in ours}
    merged = Merged()
    for new in theirs:
        if new.key not in mine:
            if new.key in old:
                merged.owner_deleted.append(new.key)
                merged.base.append(old[new.key])
            else:
                merged.records.append(new)
                merged.base.append(new)
                merged.fresh.add(new.key)
            continue
        previous = old.get(new.key, Record(new.key, "", ()))
        record, kept = merge_fields(previous, mine[new.key], new)
        merged.records.append(record)
        merged.base.append(new)
        merged.kept_edits += [f"{new.key}: {name}" for name in kept]
        if mine[new.key] == previous:
            merged.fresh.add(new.key)
    upstream = {r.key for r in theirs}
    for record in ours:
        if record.key in upstream:
            continue
        if old.get(record.key) == record:
            merged.dropped.append(record.key)  # gone upstream, never edited: gone here
            continue
        merged.records.append(record)  # the owner's own entry, or one they edited
        if record.key in old:
            merged.base.append(old[record.key])
    return merged


def merge_fields(base: Record, ours: Record, theirs: Record) -> tuple[Record, list[str]]:
    """Field by field (the entry type as one more field): the owner's where the owner
    changed it, the source's elsewhere. Also the names of the owner's edits that differ
    from what the source now says."""
    names = [name for name, _ in theirs.fields]
    names += [name for name, _ in ours.fields if name not in names]
    pairs = [("@type", base.type or None, ours.type, theirs.type)]
    pairs += [(name, base.get(name), ours.get(name), theirs.get(name)) for name in names]
    out: dict[str, str | None] = {}
    kept = []
    for name, was, mine, now in pairs:
        if mine == was or (was is None and mine == now):
            out[name] = now
        else:
            out[name] = mine
            if mine != now:
                kept.append(name)
    fields = tuple((name, value) for name, value in out.items()
                   if name != "@type" and value is not None)
    return Record(theirs.key, out["@type"] or theirs.type, fields), kept
