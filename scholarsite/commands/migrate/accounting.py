"""Nothing of the owner's vanishes silently: every file of the old site's own folders ends
as a moved item or page, a copied file, settings read into site.yaml or cv.yaml, or a line
of the report. What no reader took is named here, with why and what to do; `--account`
prints where each file went (the corpus test reads it).

The owner's folders are those a migration reads (the template's own machinery, layouts,
styles and scripts, is not the owner's text): Jekyll's `_config.yml`, collections,
`_pages/`, `_data/`, `_bibliography/`, `files/`, `images/`, `assets/img|pdf|json/`; Hugo's
configuration, `content/`, `data/`, `static/` and `assets/media/`."""

from __future__ import annotations

import os
import re
from pathlib import Path

from .frontmatter import read_source
from .model import Migration, show_name

JEKYLL_OWNED = ("_config.yml", "_pages", "_posts", "_talks", "_teaching", "_portfolio",
                "_projects", "_news", "_publications", "_bibliography", "_data", "files",
                "images", "assets/img", "assets/pdf", "assets/json/resume.json")
HUGO_OWNED = ("config.toml", "config.yaml", "config.yml", "hugo.toml", "hugo.yaml",
              "hugo.yml", "config", "data", "content", "static", "assets/media")
PICTURES_AND_FILES = re.compile(r"^(files|images|static|assets)/")
# A Hugo section's own page, with a title and no text: the list the new site makes itself.
LIST_PAGE = "the new site's own list page (no text of its own)"
_LINE = re.compile(r":\d+$")


def list_owned(old: Path, kind: str) -> list[str]:
    """The old site's files in the owner's folders, relative, hidden ones (.DS_Store)
    passed over; links are listed, never followed."""
    found = []
    for top in HUGO_OWNED if kind == "hugo-blox" else JEKYLL_OWNED:
        start = old / top
        if start.is_file() or start.is_symlink():
            found.append(top)
            continue
        for folder, dirs, files in os.walk(start):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            base = Path(folder).relative_to(old).as_posix()
            found += [f"{base}/{name}" for name in sorted(files) if not name.startswith(".")]
    return [show_name(rel) for rel in found]  # named as the report names them


def find_fates(mig: Migration) -> dict[str, list[str]]:
    """Old file -> where it went: new files, 'settings' or 'the report'."""
    fates: dict[str, list[str]] = {}
    for new in mig.files.values():
        for origin in (new.origin, mig.where(new.source) if new.source else ""):
            if origin:
                fates.setdefault(_LINE.sub("", origin), []).append(new.path)
    for origin, new_path in mig.into.items():
        fates.setdefault(origin, []).append(new_path)
    for origin in mig.read:
        fates.setdefault(origin, []).append("site.yaml")
    for where in [note.where for note in (*mig.review, *mig.left)] + sorted(mig.listed):
        fates.setdefault(_LINE.sub("", where), []).append("the report")
    for rel in list_owned(mig.old, mig.kind):
        if rel.startswith("content/") and rel.endswith("/_index.md") and rel not in fates \
                and is_bare_list_page(mig.old / rel, mig):
            fates[rel] = [LIST_PAGE]
    return fates


def is_bare_list_page(path: Path, mig: Migration) -> bool:
    """Whether a Hugo section's `_index.md` has no text past its front matter."""
    source = read_source(path, Migration(mig.old, mig.kind))  # its notes: said elsewhere
    return source is not None and not source.body.strip()


def account_files(mig: Migration) -> None:
    """A line of the report for what nothing took: each file, or, for a folder of many
    (a theme's pictures, co-authors' profiles), one line naming how many and the first."""
    fates = find_fates(mig)
    groups: dict[tuple[str, bool], list[str]] = {}
    for rel in list_owned(mig.old, mig.kind):
        if rel not in fates:
            folder = "/".join(rel.split("/")[:-1][:2]) or rel  # at most two folders deep
            groups.setdefault((folder, bool(PICTURES_AND_FILES.match(rel))), []).append(rel)
    for (folder, linkable), rels in groups.items():
        what = ("nothing that moved links {}; not copied: copy what you still need into "
                "files/ and link it" if linkable else "migrate does not read {}; not moved: "
                "if {} your text, move that by hand")
        if len(rels) == 1:
            mig.leave(rels[0], what.format("it", "it holds"))
            continue
        shown = ", ".join(rel.rsplit("/", 1)[-1] for rel in rels[:3])
        more = f" and {len(rels) - 3} more" if len(rels) > 3 else ""
        mig.leave(f"{folder}/", f"{len(rels)} files ({shown}{more}): " +
                  what.format("them", "they hold"))
        mig.listed.update(rels)


def format_accounting(mig: Migration) -> list[str]:
    """Where each of the owner's files went, one line each, for `--account`."""
    fates = find_fates(mig)
    owned = list_owned(mig.old, mig.kind)
    lines = [f"Every file of the old site ({len(owned)}):"]
    for rel in owned:
        went = list(dict.fromkeys(fates.get(rel, ["nowhere"])))
        lines.append(f"  {rel}: {' | '.join(went)}")
    return lines
