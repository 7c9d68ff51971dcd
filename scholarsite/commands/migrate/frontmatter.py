"""Jekyll's and Hugo's Markdown files read, and scholarsite's written.

Reading is forgiving: a file whose front matter is broken is named in the report, with the
line YAML stopped at, and the migration goes on with the other files."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from ...diagnostics import Diagnostics
from ...reading.people import strip_titles
from ...reading.settings.yamlhints import quote_value
from ...reading.settings.yamlread import FastLoader, parse_yaml
from .model import Migration
from .samples import find_owned_field, find_sample

_FENCE = {"---": "yaml", "+++": "toml"}
# The folders whose files are items, judged field by field when they look like samples.
ITEM_FOLDERS = ("_publications", "_talks", "_teaching", "_posts", "_portfolio", "_projects",
                "_news")
HUGO_SECTIONS = ("publication", "publications", "talk", "event", "post", "project")


@dataclass(frozen=True)
class Source:
    path: Path
    fields: dict  # the front matter, as YAML (or TOML) reads it
    body: str  # the Markdown after it
    body_line: int  # the body's first line in the file
    head: str = field(default="", compare=False)  # the text before the body, for its lines


class TextDates(FastLoader):
    """YAML as Jekyll's own reader takes it: a date with no such day ('0000-00-00',
    '2026-28-04') stays the text it is, for the date reader to judge."""


def _timestamp_or_text(loader: FastLoader, node: yaml.Node):
    try:
        return loader.construct_yaml_timestamp(node)
    except ValueError:
        return loader.construct_scalar(node)


TextDates.add_constructor("tag:yaml.org,2002:timestamp", _timestamp_or_text)


def read_source(path: Path, mig: Migration, loader_class: type | None = None
                ) -> Source | None:
    """The file's front matter and body, or None (and a note) when it cannot be read.
    A file without front matter is all body. Read as every old file is (Migration.read_text),
    its YAML as all YAML is (yamlread.parse_yaml, with the guards against alias bombs and
    deep nesting); `loader_class` may read some values its own way (TextDates)."""
    text = mig.read_text(path)
    if text is None:
        return None
    lines = text.split("\n")
    fence = lines[0].strip() if lines else ""
    if fence not in _FENCE:
        return keep_owned(Source(path, {}, text, 1), mig)
    end = next((i for i in range(1, len(lines)) if lines[i].strip() == fence), None)
    if end is None:
        mig.leave(mig.where(path, 1), f"front matter opened by '{fence}' is never closed")
        return None
    head = "\n".join(lines[1:end])
    fields = parse_head(head, _FENCE[fence], path, mig, loader_class)
    if fields is None:
        return None
    return keep_owned(Source(path, fields, "\n".join(lines[end + 1:]), end + 2,
                             "\n".join(lines[:end + 1])), mig)


def keep_owned(source: Source, mig: Migration) -> Source | None:
    """`source`, or None (and a note) when it is one of the template's own samples. An
    item with a field of its owner's in a sample's clothing moves, and its text is named."""
    template = find_sample(source.fields, source.body)
    owned = find_owned_field(source.fields, source.path.stem) if template and is_item(
        source.path, mig.old) else ""
    if owned:
        mig.add_review(mig.where(source.path, 1), f"its text is still the template's sample "
                       f"text ({template}); moved because its '{owned}' is yours: write your "
                       "own text, or delete the new file")
    elif template:
        mig.leave(mig.where(source.path, 1), f"the template's own sample ({template}), not "
                  "yours; not moved")
        return None
    return source


def is_item(path: Path, old: Path) -> bool:
    """Whether `path` is an item of a collection (a paper, talk, post...), not a page."""
    parts = path.relative_to(old).parts if path.is_relative_to(old) else ()
    return bool(parts) and (parts[0] in ITEM_FOLDERS or len(parts) > 2 and parts[0] ==
                            "content" and parts[1] in HUGO_SECTIONS)


def parse_head(head: str, syntax: str, path: Path, mig: Migration,
               loader_class: type | None = None) -> dict | None:
    if syntax == "toml":
        fields = load_toml(head, path, mig)
    else:
        head = repair_colons(head, path, mig, loader_class)
        fields = load_yaml(head, path, 2, mig, loader_class,
                           "front matter is not valid YAML ({}); this file was not moved")
    if fields is None:
        return None
    if fields == "":
        return {}
    if not isinstance(fields, dict):
        mig.leave(mig.where(path, 2), "front matter is not a list of 'key: value' lines (is a "
                  "space missing after a colon?); this file was not moved")
        return None
    return {str(k): v for k, v in fields.items()}


def repair_colons(head: str, path: Path, mig: Migration, loader_class: type | None,
                  tries: int = 20) -> str:
    """The front matter with the values YAML refused for holding ': ' quoted, as the
    build's hint says to (`citation: Widgets: a study`), each repair named in the report;
    as it was when anything else is wrong with it."""
    lines, fixes = head.split("\n"), []
    for _ in range(tries):
        diags = Diagnostics()
        if parse_yaml("\n".join(lines), path, 2, diags, loader_class) is not None:
            break
        at = diags.items[0].line - 2 if diags.items else -1
        fixed = quote_value(lines[at]) if 0 <= at < len(lines) else None
        if fixed is None:
            return head
        lines[at] = fixed
        fixes.append((at + 2, fixed.strip()))
    else:
        return head
    for line, fixed in fixes:
        mig.add_review(mig.where(path, line), "front matter repaired: a value held ': ', "
                       f"which YAML reads as another key; moved as {fixed}")
    return "\n".join(lines)


def load_yaml(text: str, path: Path, first_line: int, mig: Migration,
              loader_class: type | None, outcome: str) -> object | None:
    """The YAML's data ('' for an empty document), read by the build's own reader; None
    after an error, noted at its line as `outcome` says (its {} the error)."""
    diags = Diagnostics()
    doc = parse_yaml(text, path, first_line, diags, loader_class)
    for said in diags.items:
        if doc is None:
            reason = said.message.removeprefix("YAML syntax error: ")
            mig.leave(mig.where(path, said.line), outcome.format(reason))
            return None
        mig.add_review(mig.where(path, said.line), said.message)
    if doc is None:
        return None
    return "" if doc.data is None else doc.data


def load_toml(text: str, path: Path, mig: Migration) -> object | None:
    try:
        import tomllib  # Python 3.11+; Hugo sites rarely use TOML front matter
        return tomllib.loads(text)
    except ImportError:
        mig.leave(mig.where(path, 1), "TOML needs Python 3.11 or newer; not read")
    except (ValueError, RecursionError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else "nested too deeply"
        mig.leave(mig.where(path, 1), f"not valid TOML ({reason}); not moved")
    return None


def read_settings(path: Path, mig: Migration, quiet: bool = False) -> dict:
    """One settings file as a mapping; a broken one is named in the report (unless
    `quiet`: another reader names it) and read as {}."""
    target = Migration(mig.old, mig.kind) if quiet else mig
    text = target.read_text(path)
    if text is None:
        return {}
    if path.suffix == ".toml":
        doc = load_toml(text, path, target)
    else:
        doc = load_yaml(text, path, 1, target, None, "settings not read ({})")
    if isinstance(doc, dict) and doc:
        mig.read.add(mig.where(path))  # its settings are used: the file is accounted for
    return doc if isinstance(doc, dict) else {}


def key_line(source: Source, key: str) -> int:
    """The line of `key` in the file's front matter (1 when it cannot be told); in any
    case, as Hugo reads keys."""
    pattern = re.compile(rf"^\s*{re.escape(key)}\s*[:=]", re.I)
    return next((n for n, line in enumerate(source.head.split("\n"), 1)
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
    """Text without its HTML tags, its entities decoded, its spaces collapsed: for a field,
    which the build shows as text; in a body, only through `text_to_markdown`
    (reading/text/mdescape.py)."""
    return " ".join(html.unescape(_TAG.sub("", text)).split())


# A Markdown emphasis pair: it opens where a word may begin, before one, and closes after
# a non-space, as Markdown reads it; a lone mark ('*SEM', a venue's own name) or one after
# a name ('Lee, A.*', an author's note) is no emphasis and stays.
_EMPHASIS = re.compile(r"(?<![\w.,;:)\]*])(\*\*|__|\*|_)(?=[^\s,;.])(.+?)(?<=\S)\1(?!\w)")


_MATH = re.compile(r"(\$\$?)(?=\S).+?(?<=\S)\1")


def strip_emphasis(text: str) -> str:
    """Text without Markdown's emphasis marks: `In *Proc. of *SEM*` -> `In Proc. of *SEM`;
    a formula's own `_` and `*` ('H$_{2}$O$_{4}$') are no emphasis, and stay."""
    return replace_emphasis(text, lambda m: m.group(2))


def mark_emphasis(text: str) -> str:
    """A title as the old page showed it, whose theme read its Markdown: `(*Cephalotus
    follicularis*)` -> `(<em>Cephalotus follicularis</em>)`, the HTML scholarsite's title
    field keeps (as italics on pages, as plain text elsewhere); formulas stay."""
    return replace_emphasis(text, lambda m: "<{0}>{1}</{0}>".format(
        "strong" if len(m.group(1)) == 2 else "em", m.group(2)))


def replace_emphasis(text: str, replace) -> str:
    """`text` with each emphasis pair outside its formulas replaced by `replace(match)`."""
    maths = [m.group(0) for m in _MATH.finditer(text)]
    text = _MATH.sub("\ufde8", text)  # a noncharacter no text read holds
    for _ in range(2):  # bold around italics, or the other way
        text = _EMPHASIS.sub(replace, text)
    pieces = text.split("\ufde8")
    return "".join(p + (maths[i] if i < len(maths) else "") for i, p in enumerate(pieces))


def owner_names(value: object) -> list[str]:
    """The owner's name as a site's settings give it, and other forms of it: a name given
    per language (`en: ..., zh: ...`) is its English (else first) form, the others after
    it; an academic title (Dr., Prof., PhD) is no part of a name an author list matches."""
    forms = list(value.values()) if isinstance(value, dict) else [value]
    if isinstance(value, dict) and "en" in value:
        forms.insert(0, value["en"])
    names = [strip_titles(str(f)) for f in forms
             if f not in (None, "") and not isinstance(f, (dict, list))]
    return list(dict.fromkeys(n for n in names if n))
