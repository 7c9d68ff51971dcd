"""Pages that list every paper (the publications list, the feed), brought up to date from
the file the last build wrote rather than rendered whole.

Such a page is mostly its papers' fragments (render.FragmentCache: `{% cache paper.slug,
... %}`). A build that may take pages from the last one (fastpath/reuse.py) writes it noting
where each fragment's bytes are, with a digest of its context in which each paper entry
(views/entries.py) stands for its name alone: its `Listing`. The next build, finding the
file as that build left it and a context of the same digest, needs only the fragments of
the papers whose views changed (by their digests, reading/loader.py): it renders those
alone, from the context cut down to them (fragments.reduce_context, as `serve` does), and
writes the old bytes with the new fragments in their places.

That holds when the page reads, outside its fragments, which entries it lists and nothing
of what they show: watched while it is written (splice.WatchingEnvironment). A page that
reads more, or shows a fragment other than where it is made, is rendered whole each time.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

import jinja2

from .reuse import Listing, Reuse, Slot, digest_context
from ..output.spans import Piece, write_spans
from ..output.writer import write_parts
from ..views.entries import ENTRY, entries_of
from .fragments import reduce_context, render_text

# Above this share of its fragments changed, a page is rendered whole: about as fast.
SPLICE_SHARE = 0.5


def outline_context(value: object) -> object:
    """`value` (a page's context) with each paper entry standing for its name."""
    if type(value) is dict:
        if ENTRY in value:
            return (ENTRY, value[ENTRY])
        return {key: outline_context(item) for key, item in value.items()}
    if type(value) is list:
        return [outline_context(item) for item in value]
    return value


def stand_in_views(context: dict, digests: dict[str, str]) -> dict:
    """A page's context with each paper view at its top level (a paper's page has its
    own there) standing for the digest of what it was kept with (reading/loader.py),
    where it has one: for the page's digest (fastpath/reuse.py), a view is the same when
    that is, and pickling the digest costs nothing beside the view."""
    shown = None
    for key, value in context.items():
        if type(value) is dict and ENTRY in value:
            digest = digests.get(value[ENTRY])
            if digest is not None:
                shown = shown or dict(context)
                shown[key] = (ENTRY, value[ENTRY], digest)
    return shown or context


def write_listing(root: Path, rel: str, names: str | tuple[str, ...],
                  template: jinja2.Template, context: dict, reuse: Reuse,
                  found: dict[str, Listing], shows: dict[str, frozenset[str]]
                  ) -> os.stat_result | None:
    """Write the page `rel` of every paper below `root`: the last build's file with the
    changed papers' fragments made again, or whole; None when the last build's file stays
    as it is (no paper it shows changed). Its `Listing` is put in `found`; when it has
    none, the entries it shows are put in `shows`."""
    outlined = outline_context(context)
    around = digest_context(names, outlined)
    old = reuse.find_listing(rel, around) if around is not None else None
    if old is not None:
        changed = {slot.name for slot in old.slots if reuse.view_changed(slot.name)}
        if not changed:
            found[rel] = old
            return None
        made = render_fragments(template, context, changed, reuse.views) \
            if len(changed) <= SPLICE_SHARE * len(old.slots) else None
        if made is not None and all(slot.key in made[slot.name] for slot in old.slots
                                    if slot.name in changed):
            status, slots = write_spliced(root, rel, reuse.old_path(rel), old.slots, made)
            found[rel] = Listing(around, slots, names, outlined)
            return status
    status, slots = write_recorded(root, rel, template, context)
    if around is not None and slots is not None:
        found[rel] = Listing(around, slots, names, outlined)
    else:
        note_shown(rel, outlined, shows)
    return status


def note_shown(rel: str, outlined: object, shows: dict[str, frozenset[str]]) -> None:
    """The names of the paper entries in a page's outlined context, put in `shows` by the
    page's path when there are any."""
    found: set[str] = set()
    stack = [outlined]
    while stack:
        value = stack.pop()
        if type(value) is dict:
            stack.extend(value.values())
        elif type(value) is list:
            stack.extend(value)
        elif is_outlined(value):
            found.add(value[1])  # type: ignore[index]
    if found:
        shows[rel] = frozenset(found)


def is_outlined(value: object) -> bool:
    """Whether `value` is a paper entry as `outline_context` leaves it: (ENTRY, its name)."""
    return type(value) is tuple and len(value) == 2 and value[0] == ENTRY


def refill_outline(outlined: object, entries: dict[str, dict]) -> object:
    """An outlined context made a context again for the papers' `entries` (by name)
    alone, as fragments.reduce_context cuts a whole one: a list keeps those of its
    entries and drops the others. KeyError when an entry outside a list is another's."""
    if type(outlined) is dict:
        return {key: refill_outline(item, entries) for key, item in outlined.items()}
    if type(outlined) is list:
        if any(map(is_outlined, outlined)):
            return [entries[item[1]] if is_outlined(item) else item for item in outlined
                    if not is_outlined(item) or item[1] in entries]
        return [refill_outline(item, entries) for item in outlined]
    return entries[outlined[1]] if is_outlined(outlined) else outlined  # type: ignore[index]


def render_fragments(template: jinja2.Template, context: dict, changed: set[str],
                     views: dict[str, dict]) -> dict[str, dict] | None:
    """The fragments of the papers `changed`, by name and key, rendered from the context
    cut down to their entries; None when that cannot be done."""
    if not changed <= views.keys():
        return None
    keep = {entry[ENTRY] for name in changed for entry in entries_of(views[name])}
    env = template.environment
    env.fragment_cache = {}
    try:
        render_text(template, reduce_context(context, keep))
        return {name: env.fragment_cache.get(name, {}) for name in changed}
    except Exception:  # noqa: BLE001 - the page is rendered whole, which reports it
        return None
    finally:
        env.fragment_cache = None  # a build's: fragments are not kept


def write_spliced(root: Path, rel: str, old_path: str, slots: tuple[Slot, ...],
                  made: dict[str, dict]) -> tuple[os.stat_result, tuple[Slot, ...]]:
    """The file at `old_path` written to `rel` below `root` with the fragments of the
    papers in `made` (each of their slots has one) in their slots; with the slots as
    they are in the new file."""
    pieces: list[Piece] = []
    moved: list[Slot] = []
    at = shift = 0
    for name, key, start, length in slots:
        if name not in made:
            moved.append(Slot(name, key, start + shift, length))
            continue
        encoded = made[name][key].encode("utf-8")
        pieces += [(at, start), encoded]
        moved.append(Slot(name, key, start + shift, len(encoded)))
        at, shift = start + length, shift + len(encoded) - length
    pieces.append((at, None))  # the rest, copied rather than read (output/spans.py)
    return write_spans(root, rel, old_path, pieces), tuple(moved)


def write_recorded(root: Path, rel: str, template: jinja2.Template, context: dict
                   ) -> tuple[os.stat_result, tuple[Slot, ...] | None]:
    """Write the page whole, as it is rendered; with its fragments' slots, or None when
    it reads a paper entry outside them or shows one that is not where it is made."""
    env = template.environment
    log: list = []
    env.fragment_log, env.watching, env.read_outside = log, True, False
    slots: list[Slot] = []
    written = [0]
    try:
        status = write_parts(root, rel, note_slots(template.generate(context), log, slots,
                                                   written))
    finally:
        env.fragment_log, env.watching = None, False
    watched = hasattr(type(env), "read_outside")  # splice.WatchingEnvironment's
    whole = watched and bool(log) and len(slots) == len(log) and not env.read_outside
    return status, tuple(slots) if whole and written[0] == status.st_size else None


def note_slots(parts: Iterator[str], log: list, slots: list[Slot], written: list[int]
               ) -> Iterator[str]:
    """The parts of a page as they come, each fragment of `log` found among them whole,
    in the order it was made, noted in `slots`; `written[0]` counts their bytes."""
    for part in parts:
        length = len(part) if part.isascii() else len(part.encode("utf-8"))
        at = len(slots)
        if at < len(log) and part is log[at][0]:  # the fragment just made, shown as it is
            slots.append(Slot(log[at][1], log[at][2], written[0], length))
        written[0] += length
        yield part
