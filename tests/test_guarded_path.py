"""Every command reads files, writes files, parses YAML and fetches URLs through the same few
functions (docs/security.md, "One guarded path"): a defect fixed there is fixed for every
command, and a module written later cannot go around them. Seen in the package's source, as
an AST scan: a call that opens, reads or writes a file, loads YAML or opens a URL stands only
in the modules that are the guarded path, or in a place this file names with its reason."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "scholarsite"

# The guarded path itself: the only modules that may open a file, read or write one whole,
# load YAML or open a connection.
GUARDED = {
    "output/paths.py": "decides what may be read and written; open_regular, read_regular",
    "output/writer.py": "writes the site and every other file a command writes "
                        "(write_file, replace_file)",
    "output/lock.py": "the build's lock file, opened with O_CREAT to be held, never read",
    "reading/settings/yamlread.py": "reads content files (read_text, read_bytes: the size "
                                    "limit, UTF-8) and is the one YAML loader (parse_yaml)",
    "commands/netrequest.py": "the one request: deadlines, size caps, public addresses",
}
# Calls elsewhere that open, read or write a file, each with its reason.
ALLOWED: dict[tuple[str, str], str] = {}
# What counts: a bare `open(...)`, `urlopen(...)` or `safe_load(...)` that is not one of the
# package's own functions (imported from it or defined beside the call); `x.open(...)`
# (pathlib, os, io, gzip; Pillow's Image.open is the picture guard's, which judges the
# path first); pathlib's forms of reading and writing a file whole (`p.read_text()` and
# `p.read_bytes()` take no path, `p.write_text(text)` and `p.write_bytes(data)` one
# argument; the guarded read_text(path, diags) takes the path); YAML's loaders and
# urllib's requests on any receiver.
BARE = {"open", "urlopen", "urlretrieve", "safe_load", "full_load", "unsafe_load"}
READS = {"read_text", "read_bytes"}
WRITES = {"write_text", "write_bytes"}
ANY_RECEIVER = {"urlopen", "urlretrieve", "safe_load", "full_load", "unsafe_load"}


def package_names(tree: ast.Module) -> set[str]:
    """The names a module takes from the package itself or defines: calls to them are the
    package's own functions."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith(
                "scholarsite")):
            names.update(alias.asname or alias.name for alias in node.names)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
    return names


def is_file_call(node: ast.Call, own: set[str]) -> str:
    """The name of the call when it opens, reads or writes a file, loads YAML or opens a
    URL by itself; '' otherwise."""
    func = node.func
    if isinstance(func, ast.Name):
        return func.id if func.id in BARE and func.id not in own else ""
    if not isinstance(func, ast.Attribute):
        return ""
    name, owner = func.attr, func.value
    owner_name = owner.id if isinstance(owner, ast.Name) else ""
    if name == "open":
        return "" if owner_name == "Image" else name
    if name in ANY_RECEIVER or (name == "load" and owner_name == "yaml"):
        return name
    if name in READS and not node.args:
        return name
    if name in WRITES and len(node.args) == 1:
        return name
    return ""


def list_file_calls() -> list[tuple[str, int, str]]:
    """(module, line, call) of every file, YAML or URL call in the package."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        own = package_names(tree)
        found.extend((rel, node.lineno, name) for node in ast.walk(tree)
                     if isinstance(node, ast.Call) and (name := is_file_call(node, own)))
    return found


def test_files_are_read_and_written_only_through_the_guarded_path():
    calls = list_file_calls()
    outside = [f"scholarsite/{rel}:{line}: {name}(...) outside the guarded path: use "
               "read_text/read_bytes (reading/settings/yamlread.py), read_regular or "
               "open_regular (output/paths.py), write_file or replace_file "
               "(output/writer.py), parse_yaml, or fetch_url"
               for rel, line, name in calls
               if rel not in GUARDED and (rel, name) not in ALLOWED]
    assert not outside, "\n".join(outside)


def test_every_allowance_is_still_used():
    """An allowance no call needs any more is taken out, so that the list stays the short
    list of real exceptions."""
    used = {(rel, name) for rel, _, name in list_file_calls()}
    assert not set(ALLOWED) - used, sorted(set(ALLOWED) - used)
    assert all((PACKAGE / rel).is_file() for rel in GUARDED), GUARDED
