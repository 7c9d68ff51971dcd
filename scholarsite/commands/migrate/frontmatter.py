"""Jekyll's and Hugo's Markdown files read, and scholarsite's written.

Reading is forgiving: a file whose front matter is broken is named in the report, with the
line YAML stopped at, and the migration goes on with the other files."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from .model import Migration

_FENCE = {"---": "yaml", "+++": "toml"}


@dataclass(frozen=True)
class Source:
    path: Path
    fields: dict  # the front matter, as YAML (or TOML) reads it
    body: str  # the Markdown after it
    body_line: int  # the body's first line in the file


def read_source(path: Path, mig: Migration) -> Source | None:
    """The file's front matter and body, or None (and a note) when it cannot be read.
    A file without front matter is all body."""
    if not mig.may_read(path):
        return None
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        mig.leave(mig.where(path), f"not read: {getattr(exc, 'strerror', None) or exc}")
        return None
    text = text.replace("\r\n", "\n")
    lines = text.split("\n")
    fence = lines[0].strip() if lines else ""
    if fence not in _FENCE:
        return Source(path, {}, text, 1)
    end = next((i for i in range(1, len(lines)) if lines[i].strip() == fence), None)
    if end is None:
        mig.leave(mig.where(path, 1), f"front matter opened by '{fence}' is never closed")
        return None
    head = "\n".join(lines[1:end])
    fields = parse_head(head, _FENCE[fence], path, mig)
    if fields is None:
        return None
    return Source(path, fields, "\n".join(lines[end + 1:]), end + 2)


def parse_head(head: str, syntax: str, path: Path, mig: Migration) -> dict | None:
    try:
        if syntax == "toml":
            import tomllib  # Python 3.11+; Hugo sites rarely use TOML front matter
            fields = tomllib.loads(head)
        else:
            fields = yaml.safe_load(head)
    except ImportError:
        mig.leave(mig.where(path, 1), "TOML front matter needs Python 3.11 or newer")
        return None
    except (yaml.YAMLError, ValueError) as exc:
        # Where the broken construct starts (an unclosed quote's line), else where it broke.
        mark = getattr(exc, "context_mark", None) or getattr(exc, "problem_mark", None)
        line = mark.line + 2 if mark is not None else 1
        reason = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        mig.leave(mig.where(path, line), f"front matter is not valid YAML ({reason}); "
                  "this file was not moved")
        return None
    if fields is None:
        return {}
    if not isinstance(fields, dict):
        mig.leave(mig.where(path, 2), "front matter is not a list of 'key: value' lines (is a "
                  "space missing after a colon?); this file was not moved")
        return None
    return {str(k): v for k, v in fields.items()}


def read_settings(path: Path, mig: Migration) -> dict:
    """One settings file as a mapping; a broken one is named in the report and read as {}."""
    if not mig.may_read(path):
        return {}
    try:
        text = path.read_text(encoding="utf-8-sig")
        if path.suffix == ".toml":
            import tomllib  # Python 3.11+
            doc = tomllib.loads(text)
        else:
            doc = yaml.safe_load(text)
    except ImportError:
        mig.leave(mig.where(path), "TOML settings need Python 3.11 or newer; not read")
        return {}
    except (OSError, UnicodeDecodeError, yaml.YAMLError, ValueError) as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 0
        reason = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        mig.leave(mig.where(path, line), f"settings not read ({reason})")
        return {}
    return doc if isinstance(doc, dict) else {}


def key_line(source: Source, key: str) -> int:
    """The line of `key` in the file's front matter (1 when it cannot be told)."""
    try:
        lines = source.path.read_text(encoding="utf-8-sig").splitlines()
    except (OSError, UnicodeDecodeError):
        return 1
    pattern = re.compile(rf"^\s*{re.escape(key)}\s*[:=]")
    return next((n for n, line in enumerate(lines[:source.body_line], 1)
                 if pattern.match(line)), 1)


def format_entry(fields: dict, body: str = "", comments: dict[str, str] | None = None,
                 header: str = "") -> str:
    """A scholarsite Markdown file: front matter with the fields in the order given (a
    comment above a field when `comments` has one for it), then the body."""
    out = ["---"]
    if header:
        out.extend(f"# {line}" for line in header.splitlines())
    for key, value in fields.items():
        if value is None or value == "" or value == [] or value == {}:
            continue
        for line in (comments or {}).get(key, "").splitlines():
            out.append(f"# {line}")
        out.append(yaml.safe_dump({key: value}, allow_unicode=True, sort_keys=False,
                                  width=100, default_flow_style=False).rstrip("\n"))
    out.append("---")
    text = "\n".join(out) + "\n"
    body = body.strip("\n")
    return text + (f"\n{body}\n" if body.strip() else "")


def format_yaml(doc: dict, header: str = "") -> str:
    """A YAML file (site.yaml, cv.yaml), with an optional comment at its top."""
    head = "".join(f"# {line}\n" for line in header.splitlines())
    return head + yaml.safe_dump(doc, allow_unicode=True, sort_keys=False, width=100,
                                 default_flow_style=False)


_TAG = re.compile(r"<[^>]+>")


def strip_html(text: str) -> str:
    """Text without its HTML tags, its entities decoded, its spaces collapsed."""
    return " ".join(html.unescape(_TAG.sub("", text)).split())
