"""What in the content folder no part of the build reads: a warning for each, naming what
it may have meant. Hugo and Jekyll sites name folders in the singular (`talk/`,
`publication/`) or by their own words (`authors/`, `_posts/`, `static/`); moved over as
they are, they would be left out of the site in silence.
"""

from __future__ import annotations

import difflib
from pathlib import Path

from ..diagnostics import Diagnostics
from ..structure.urls import FILES_DIR
from .citecounts import COUNTS_FILE
from .collections import PAGES, SCHEMAS
from .layout import PAPERS_DIR
from .roster import COAUTHORS_FILE, PEOPLE_DIR
from .settings.tiertables import TIERS_DIR
from .slugs import describe_unlisted_language

READ_FILES = ("site.yaml", "index.md", "cv.yaml", COUNTS_FILE, COAUTHORS_FILE)
READ_FOLDERS = (PAPERS_DIR, *(s.name for s in SCHEMAS), PAGES.name, PEOPLE_DIR, FILES_DIR,
                TIERS_DIR)

# Names other generators use, and what holds the same here.
ELSEWHERE = {
    "authors": f"{PEOPLE_DIR}/", "members": f"{PEOPLE_DIR}/", "team": f"{PEOPLE_DIR}/",
    "person": f"{PEOPLE_DIR}/", "group": f"{PEOPLE_DIR}/",
    "blog": "posts/", "_posts": "posts/", "post": "posts/",
    "event": "talks/", "events": "talks/", "presentations": "talks/",
    "papers": f"{PAPERS_DIR}/", "_publications": f"{PAPERS_DIR}/", "bib": f"{PAPERS_DIR}/",
    "static": f"{FILES_DIR}/", "assets": f"{FILES_DIR}/", "images": f"{FILES_DIR}/",
    "img": f"{FILES_DIR}/", "uploads": f"{FILES_DIR}/", "media": f"{FILES_DIR}/",
    "_index.md": "index.md", "about.md": "index.md (the home page), or pages/about.md",
    "config.yaml": "site.yaml", "config.yml": "site.yaml", "_config.yml": "site.yaml",
    "site.yml": "site.yaml", "cv.yml": "cv.yaml", "citations.yml": COUNTS_FILE,
}


def suggest_name(name: str, is_folder: bool) -> str:
    """What `name` (a folder's or a file's) may have meant, in words; '' when nothing."""
    lowered = name.lower()
    if lowered in ELSEWHERE:
        return ELSEWHERE[lowered]
    known = [f"{n}/" for n in READ_FOLDERS] if is_folder else list(READ_FILES)
    close = difflib.get_close_matches(lowered + ("/" if is_folder else ""), known, n=1,
                                      cutoff=0.7)
    if close:
        return close[0]
    if not is_folder and lowered.endswith((".md", ".markdown")):
        return f"a free page, {PAGES.name}/{name}"
    return ""


def warn_unread(content_dir: Path, diags: Diagnostics, languages: tuple[str, ...] = ()
                ) -> None:
    """A warning for each entry of the content folder that nothing reads (names that
    begin with a dot, a system's or an editor's, are left alone); `languages`: the
    site's other languages, whose texts are read too (index.zh.md, cv.zh.yaml)."""
    read = (*READ_FILES, *(name.replace(".", f".{tag}.", 1) for tag in languages
                           for name in ("index.md", "cv.yaml")))
    try:
        entries = sorted(content_dir.iterdir(), key=lambda p: p.name)
    except OSError:
        return  # the folder itself is reported by what reads site.yaml
    for entry in entries:
        name, is_folder = entry.name, entry.is_dir()
        if name.startswith(".") or name in (READ_FOLDERS if is_folder else read):
            continue
        language = "" if is_folder else describe_unlisted_language(name)
        if language:
            diags.warning(entry, 0, language)
            continue
        meant = suggest_name(name, is_folder)
        shown = f"'{name}/'" if is_folder else f"'{name}'"
        meant = f"'{meant}'" if meant and " " not in meant else meant
        hint = f"; did you mean {meant}?" if meant else (
            f"; the content folder holds {', '.join(READ_FILES)} and the folders "
            f"{', '.join(f'{n}/' for n in READ_FOLDERS)}")
        diags.warning(entry, 0, f"{shown} is not read by the build: nothing in it is on "
                      f"the site{hint}")
