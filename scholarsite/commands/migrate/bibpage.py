"""Which of an al-folio site's .bib files are its papers: those its publications page reads.

jekyll-scholar's tag `{% bibliography --file NAME %}` (or `-f NAME`, several allowed) names
them; a tag without a file reads `scholar.bibliography` of `_config.yml` (jekyll-scholar's
default: references.bib). A site keeps other .bib files beside them (talks.bib shown on a
talks page, backups, a previous owner's list): those are not papers. A query
`-q @*[FIELD!=VALUE]*` on the page hides the entries whose FIELD is VALUE."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .frontmatter import read_settings, read_source
from .model import Migration

_TAG = re.compile(r"\{%-?\s*bibliography\b([^%]*)%\}")
_FILE = re.compile(r"(?:--file|-f)\s+([^\s%]+)")
_HIDE = re.compile(r"@\*\[(\w+)\s*!=\s*([^\]\s]+)\]\*?")
# `-f {{ site.scholar.bibliography }}`: Liquid renders the tag before jekyll-scholar reads it.
_SCHOLAR = re.compile(r"\{\{\s*site\.scholar\.(\w+)\s*\}\}")
DEFAULT = "references"


@dataclass(frozen=True)
class BibPage:
    """What the old publications page reads: file stems, and (field, value) pairs that hide
    an entry; `found` is False when no page says (every .bib file is then read)."""

    found: bool
    stems: frozenset[str] = frozenset()
    hidden: tuple[tuple[str, str], ...] = field(default=())


def read_bib_page(old: Path, mig: Migration) -> BibPage:
    """The .bib files the publications page (or, without one, any page) reads."""
    scratch = Migration(mig.old, mig.kind)  # the pages' own notes are the page reader's
    tags = {}
    for path in sorted((old / "_pages").glob("*")) if (old / "_pages").is_dir() else []:
        source = read_source(path, scratch) if path.is_file() else None
        found = _TAG.findall(source.body) if source else []
        if found:
            tags[path] = (source, found)
    papers = {p: t for p, (s, t) in tags.items() if is_papers_page(p, s.fields)}
    chosen = [t for found in (papers or {p: t for p, (_, t) in tags.items()}).values()
              for t in found]
    if not chosen:
        return BibPage(False)
    settings = read_scholar(old, scratch)
    chosen = [fill_settings(tag, settings) for tag in chosen]
    stems = {stem for tag in chosen for stem in name_stems(tag, settings)}
    hidden = tuple(dict.fromkeys((f.lower(), v.strip("'\"").lower())
                                 for tag in chosen for f, v in _HIDE.findall(tag)))
    return BibPage(True, frozenset(stems), hidden)


def read_scholar(old: Path, mig: Migration) -> dict:
    """`scholar:` of `_config.yml` (jekyll-scholar's settings), {} when it has none."""
    config = old / "_config.yml"
    scholar = read_settings(config, mig, quiet=True).get("scholar") if config.is_file() \
        else None
    return scholar if isinstance(scholar, dict) else {}


def fill_settings(tag: str, settings: dict) -> str:
    """The tag's arguments with `{{ site.scholar.NAME }}` filled in, as Liquid does."""
    default = str(settings.get("bibliography") or DEFAULT)
    return _SCHOLAR.sub(lambda m: str(settings.get(m.group(1)) or default), tag)


def name_stems(tag: str, settings: dict) -> list[str]:
    """The stems of the .bib files a tag's arguments read (`-f NAME`, several allowed),
    else the site's default file."""
    default = str(settings.get("bibliography") or DEFAULT)
    return [Path(name).stem for name in _FILE.findall(tag) or [default]]


def is_papers_page(path: Path, fields: dict) -> bool:
    """Whether a page is the publications page, by its permalink, name or title."""
    said = " ".join(str(fields.get(k) or "") for k in ("permalink", "title")) + path.stem
    return bool(re.search(r"publi|paper", said, re.I)) and not re.search(r"talk", said, re.I)


def is_hidden(fields: dict, page: BibPage) -> bool:
    """Whether the page's query hides an entry (its fields, as the build's parser reads
    them)."""
    for name, value in page.hidden:
        given = fields.get(name)
        written = (given.text or given.macro) if given is not None else ""
        if re.sub(r"[{}\"',\s]", "", written).lower() == value:
            return True
    return False
