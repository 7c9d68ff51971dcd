"""The legend of the author-note marks the moved papers carry (`*`, `†`...): site.yaml's
`publications.author_notes`, which the pages show under every list with a marked author.

An old site says what its marks mean in its own words, somewhere: a line under its list
('<sup>*</sup> corresponding author, <sup>†</sup> equal contribution'), a note in a BibTeX
author field ('{[* equal contribution]}', '(* indicates Equal Contribution)'), al-folio's
`annotation`. That meaning is taken; a mark the old site never explains gets the usual one
('*' equal contribution, '†' corresponding author), and the report says so."""

from __future__ import annotations

import os
import re
from pathlib import Path

from ...diagnostics import Diagnostics
from ...reading.bib.latex import MARKS
from ...reading.settings.yamlread import read_text
from .authormarks import write_marks
from .model import Migration
from .ownernames import list_author_lists

# The usual meaning of a mark the old site does not explain.
USUAL = {"*": "Equal contribution", "†": "Corresponding author", "#": "Equal contribution"}
# A mark, then what it means ('* denotes equal contribution', '†: corresponding author').
_LEGEND = re.compile(rf"([{re.escape(MARKS)}])\s*(?:[:=–—-]\s*|(?:denotes?|indicates?|means?|"
                     r"marks?)\s+)?(equal(?:ly)? contribut\w*(?: to this work)?|"
                     r"(?:these authors )?contributed equally(?: to this work)?|"
                     r"(?:co-?first|joint first|corresponding|senior|co-?senior|co-?last) "
                     r"authors?(?:hip)?|equal supervision)\b", re.I)
TEXTS = (".md", ".markdown", ".html", ".bib", ".bibtex")
SKIPPED = {"_site", "_layouts", "_includes", "_sass", "node_modules", "vendor", "themes",
           "public", "resources", "assets", "static"}
ITEM_FOLDERS = {"_publications", "_posts", "_talks", "_news", "_teaching", "_portfolio",
                "_projects"}
MOST_FILES = 3000  # a legend is in the site's own pages: this many is plenty


def settle_author_notes(mig: Migration) -> None:
    """Give each mark the moved papers use a meaning in site.yaml (see above)."""
    used = {m for _, authors in list_author_lists(mig) for a in authors for m in a.marks}
    pubs = mig.site.get("publications") if isinstance(mig.site.get("publications"), dict) \
        else {}
    notes = dict(pubs.get("author_notes") or {})
    missing = sorted(used - set(notes), key=MARKS.index)
    if not missing:
        return
    said = find_legend(mig)
    for mark in missing:
        if mark in said:
            notes[mark] = said[mark][0]
            mig.add_review("site.yaml", f"author mark '{mark}' means '{said[mark][0]}', as "
                           f"{said[mark][1]} says (publications.author_notes)")
        else:
            notes[mark] = USUAL.get(mark, "Author note")
            mig.add_review("site.yaml", f"the old site does not say what the author mark "
                           f"'{mark}' means: '{notes[mark]}' is written in publications."
                           "author_notes; check it")
    mig.site["publications"] = {**pubs, "author_notes": notes}


def find_legend(mig: Migration) -> dict[str, tuple[str, str]]:
    """{mark: (its meaning, the file that says it)}, the first each mark is given."""
    found: dict[str, tuple[str, str]] = {}
    for path in list_texts(mig.old):
        text = read_text(path, Diagnostics(), mig.old)
        if not text or not re.search(rf"[{re.escape(MARKS)}]|\\dag|\$\^", text):
            continue
        plain = re.sub(r"<[^>]+>", "", write_marks(text))
        for match in _LEGEND.finditer(plain):
            meaning = " ".join(match.group(2).split()).rstrip(" :")
            found.setdefault(match.group(1), (meaning[:1].upper() + meaning[1:],
                                              mig.where(path)))
    return found


def list_texts(old: Path) -> list[Path]:
    """The old site's own pages and bibliographies, sorted; not its theme or its output
    (whose folders are never walked)."""
    found = []
    for folder, dirs, files in os.walk(old):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIPPED)
        found += [Path(folder) / f for f in sorted(files) if Path(f).suffix.lower() in TEXTS]
        if len(found) >= MOST_FILES:
            break
    found = [p for p in found[:MOST_FILES] if p.is_file() and not p.is_symlink()]
    return sorted(found, key=lambda p: (is_item(p.relative_to(old).parts), p))


def is_item(parts: tuple[str, ...]) -> bool:
    """Whether a file is one item (a paper, a post): a page's legend, over the whole list,
    says what the site's marks mean before a footnote in one paper's text does."""
    return parts[0] in ITEM_FOLDERS or (parts[0] == "content" and len(parts) > 2)
