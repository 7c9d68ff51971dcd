"""What a build read of its model, recorded while it read it.

A page that lists papers shows what its planner and template took of them; a later build
may skip a page only while nothing it took changed. Rather than a hand-written list of
what pages may read (which nothing checks), the build hands the planners stand-ins for
the model's objects that note each read, by the name of the object read (a paper's
slug) and the path of what was read of it: ('paper', 'title') for a field,
('view', 'authors') for a key of a mapping. A read whose answer depends on earlier
reads (a paper's authors read only when it is selected) is recorded exactly when it
happens, so the record of a build stays right for every later build that finds the same
values where it looks: when every recorded value of a paper is the same, every page
reads the same of it again.

The stand-ins never reach a template or a page's digest: `plain` puts the objects back
in whatever the planners made of them. Generic: this knows nothing of papers or views.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, Callable, Iterator

Path_ = tuple  # ('paper', 'title'), ('view', 'feed_entry', 'title')
Reads = dict[str, frozenset[Path_]]  # by the name of the object read


class Missing:
    """What a path that leads nowhere gives (a key a mapping lacks): one object, pickled
    by name, so that digests of values read are the same in every process."""

    def __reduce__(self) -> str:
        return "MISSING"


MISSING = Missing()


class ReadLog:
    """The paths read of each watched object, by its name."""

    def __init__(self) -> None:
        self.paths: dict[str, set[Path_]] = {}

    def seen(self, name: str) -> set[Path_]:
        return self.paths.setdefault(name, set())

    def watch(self, value: Any, name: str, root: str) -> Any:
        """A stand-in for the dataclass instance `value` that notes every field read."""
        return proxy_class(type(value), root)(value, self.seen(name))

    def watch_mapping(self, value: Mapping, name: str, root: str,
                      passes: Callable[[object], bool] = lambda _: False) -> Mapping:
        """A stand-in for `value` that notes every key read, but the keys whose values
        `passes` (those are watched in turn, their own reads noted below the key)."""
        return WatchedMapping(value, self.seen(name), (root,), passes)

    def result(self) -> Reads:
        return share_equal({name: frozenset(paths) for name, paths in self.paths.items()})


def merge_reads(*parts: Reads) -> Reads:
    merged: dict[str, set[Path_]] = {}
    for part in parts:
        for name, paths in part.items():
            merged.setdefault(name, set()).update(paths)
    return share_equal({name: frozenset(paths) for name, paths in merged.items()})


# Every path read, once: each of 5,000 papers is read along the same dozen paths, and a
# tuple of its own for each read was 5 MB of a build's memory.
PATHS: dict[Path_, Path_] = {}


def shared_path(path: Path_) -> Path_:
    return PATHS.setdefault(path, path)


def share_equal(reads: Reads) -> Reads:
    """`reads` with equal sets of paths made one object: most papers are read alike, and
    the record of the build (pickled, which writes a shared object once) then holds each
    set once rather than once a paper (at 5,000 papers, 8 ms of each load and save)."""
    kept: dict[frozenset[Path_], frozenset[Path_]] = {}
    return {name: kept.setdefault(paths, paths) for name, paths in reads.items()}


def read_path(roots: dict[str, Any], path: Path_) -> Any:
    """What `path` leads to from `roots` (by the path's first part), or MISSING."""
    value = roots.get(path[0], MISSING)
    for part in path[1:]:
        if value is MISSING:
            break
        if isinstance(value, Mapping):
            value = value.get(part, MISSING)
        else:
            value = getattr(value, part, MISSING)
    return value


def read_values(roots: dict[str, Any], paths: frozenset[Path_] | None) -> tuple:
    """The values at `paths`, in a stable order: two objects read alike while equal."""
    return tuple((path, read_path(roots, path)) for path in sorted(paths or (), key=repr))


class Watched:
    """The base of the dataclass stand-ins (proxy_class). A field read is noted once and
    its value kept in the stand-in, so that reading it again costs what reading the
    object's own does."""

    _kinds: dict[str, str] = {}
    _root = ""

    def __init__(self, target: Any, seen: set[Path_]) -> None:
        self.__dict__.update(_target=target, _seen=seen)

    @property  # type: ignore[misc]
    def __class__(self):  # isinstance() sees the object itself
        return type(self._target)

    def __getattr__(self, name: str) -> Any:
        kind = self._kinds.get(name)
        if kind == "field":
            self._seen.add(shared_path((self._root, name)))
            value = self.__dict__[name] = getattr(self._target, name)
            return value
        attribute = getattr(type(self._target), name, None)
        if kind == "property":
            return attribute.fget(self)  # type: ignore[union-attr]
        if kind == "method":
            return attribute.__get__(self)  # its reads of `self` are noted too
        return getattr(self._target, name)

    def __setattr__(self, name: str, value: Any) -> None:
        raise dataclasses.FrozenInstanceError(name)

    def note_all(self) -> Any:
        self._seen.update(shared_path((self._root, name))
                          for name, kind in self._kinds.items() if kind == "field")
        return self._target

    def __eq__(self, other: object) -> bool:
        return self.note_all() == plain(other)

    def __hash__(self) -> int:
        return hash(self.note_all())

    def __repr__(self) -> str:
        return repr(self.note_all())

    def __reduce_ex__(self, protocol: Any) -> Any:
        return self.note_all().__reduce_ex__(protocol)


PROXIES: dict[tuple[type, str], type] = {}


def proxy_class(cls: type, root: str) -> type:
    """The stand-in class for instances of the dataclass `cls`, whose reads are noted
    below `root`: made once per class and root."""
    if (cls, root) not in PROXIES:
        kinds = {f.name: "field" for f in dataclasses.fields(cls)}
        for name in dir(cls):
            attribute = getattr(cls, name, None)
            if name.startswith("__") or name in kinds:
                continue
            if isinstance(attribute, property):
                kinds[name] = "property"
            elif callable(attribute):
                kinds[name] = "method"
        PROXIES[cls, root] = type(f"Watched{cls.__name__}", (Watched,),
                                  {"_kinds": kinds, "_root": root,
                                   "__dataclass_fields__": cls.__dataclass_fields__})
    return PROXIES[cls, root]


class WatchedMapping(Mapping):
    """A mapping's stand-in that notes each key read (see ReadLog.watch_mapping)."""

    __slots__ = ("_target", "_seen", "_at", "_passes")

    def __init__(self, target: Mapping, seen: set[Path_], at: Path_,
                 passes: Callable[[object], bool]) -> None:
        self._target, self._seen, self._at, self._passes = target, seen, at, passes

    def __getitem__(self, key: Any) -> Any:
        value = self._target[key] if key in self._target else MISSING
        if value is not MISSING and self._passes(value) and isinstance(value, Mapping):
            return WatchedMapping(value, self._seen, (*self._at, key), self._passes)
        self._seen.add(shared_path((*self._at, key)))
        if value is MISSING:
            raise KeyError(key)
        return value

    def __contains__(self, key: object) -> bool:
        self._seen.add(shared_path((*self._at, key)))
        return key in self._target

    def __iter__(self) -> Iterator:
        self._seen.update(shared_path((*self._at, key)) for key in self._target)
        return iter(self._target)

    def __len__(self) -> int:
        return len(self._target)

    def __eq__(self, other: object) -> bool:
        self._seen.update(shared_path((*self._at, key)) for key in self._target)
        return self._target == plain(other)

    __hash__ = None  # type: ignore[assignment]

    def __reduce_ex__(self, protocol: Any) -> Any:
        return plain(self).__reduce_ex__(protocol)


def plain(value: Any, done: dict[int, Any] | None = None) -> Any:
    """`value` with every stand-in in it (in dicts, lists and tuples, at any depth) put
    back as the object it stands for; containers without one are returned as they are.
    `done` remembers containers already seen (contexts share some)."""
    kind = type(value)
    if isinstance(value, Watched):
        return value._target
    if kind is WatchedMapping:
        return value._target
    if kind is not dict and kind is not list and kind is not tuple:
        return value
    done = {} if done is None else done
    key = id(value)
    if key in done:
        return done[key][1]
    done[key] = (value, value)  # the container itself is kept alive while remembered
    if kind is dict:
        items = {k: plain(v, done) for k, v in value.items()}
        changed = any(items[k] is not v for k, v in value.items())
        result = items if changed else value
    else:
        items_ = [plain(v, done) for v in value]
        changed = any(a is not b for a, b in zip(items_, value))
        result = kind(items_) if changed else value
    done[key] = (value, result)
    return result
