"""al-folio's `_data/coauthors.yml` as content/coauthors.yaml: the co-authors whose names
link to their pages (reading/roster.py reads it).

al-folio keys each co-author by family name, lower case, with the given names they are
written with (`firstname: [Edwin, E., E. P.]`) and one `url`; scholarsite lists each as
`name` (the first form), `aliases` (the others) and `url`."""

from __future__ import annotations

from pathlib import Path

import yaml

from .frontmatter import load_yaml
from .model import Migration

HEADER = "# Co-authors' pages, moved from {origin} by scholarsite migrate (see the README).\n"


def read_coauthors(old: Path, mig: Migration) -> None:
    path = next((p for p in (old / "_data" / "coauthors.yml", old / "_data" / "coauthors.yaml")
                 if p.is_file()), None)
    text = mig.read_text(path) if path is not None else None  # the one guarded reader
    if text is None:
        return
    data = load_yaml(text, path, 1, mig, None, "not moved: this is not valid YAML ({})")
    if data is None:
        return
    if not isinstance(data, dict):
        mig.leave(mig.where(path), "not moved: not a mapping of family names to co-authors")
        return
    found = [entry for family, entries in data.items()
             for entry in convert_family(str(family), entries)]
    if found:
        text = yaml.safe_dump(found, allow_unicode=True, sort_keys=False, width=1000)
        mig.add_text("coauthors.yaml", HEADER.format(origin=mig.where(path)) + text,
                     "co-authors", mig.where(path))


def convert_family(family: str, entries: object) -> list[dict]:
    """One family name's co-authors, each with a page on the web (others are left out)."""
    family = family if family != family.lower() else family.title()
    out = []
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, dict):
            continue
        given = entry.get("firstname")
        given = [given] if isinstance(given, str) else given if isinstance(given, list) else []
        url = str(entry.get("url") or "")
        names = [f"{g} {family}" for g in given if isinstance(g, str) and g.strip()]
        if names and url.startswith(("http://", "https://")):
            out.append({"name": names[0], **({"aliases": names[1:]} if names[1:] else {}),
                        "url": url})
    return out
