"""What a set of changed paths touches: the kinds of change a rebuild tells apart."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from ..build import ASSETS_DIR, BuildOptions
from ..models import Site
from ..reading.collections import MARKDOWN_SUFFIXES, PAGES, SCHEMAS, TEXT_SUFFIXES
from ..reading.citecounts import COUNTS_FILE
from ..reading.roster import COAUTHORS_FILE, PEOPLE_DIR
from ..reading.settings.tiertables import TIERS_DIR
from ..reading.loader import BIO_FILE, CONFIG_FILE, CV_FILE, FILES_DIR, PAPER_SUFFIXES, PAPERS_DIR
from ..render.layers import find_theme, is_same_folder, make_theme_name
from ..structure.languages import parse_language

NOTEBOOK_FILES = (".ipynb", ".yaml")
EXTRA_FOLDERS = frozenset((*(s.name for s in SCHEMAS), PAGES.name))  # collections, free pages


@dataclass
class Changes:
    """What a set of changed paths touches, by kind."""

    config: bool = False
    bio: bool = False
    papers: set[Path] = field(default_factory=set)
    extras: bool = False  # collections, free pages, cv.yaml
    templates: set[str] = field(default_factory=set)  # names below a templates folder
    static: bool = False  # assets/ of a templates folder, or content/files/
    notebooks: bool = False  # a notebook (an extra), which publishes pictures beside its page

    def any(self) -> bool:
        return bool(self.config or self.bio or self.papers or self.extras or self.templates
                    or self.static)



def relative_below(path: Path, root: Path) -> Path | None:
    """`path` relative to `root`, or None when it is not below it (links are not followed:
    a paper file that is a link is still the content folder's file)."""
    try:
        return Path(os.path.abspath(path)).relative_to(os.path.abspath(root))
    except ValueError:
        return None


def classify_changes(paths: Iterable[Path], options: BuildOptions) -> Changes:
    """Sort changed paths by what they affect; paths that no build reads are left out
    (editor backups, notes beside the content)."""
    changes = Changes()
    layers, theme = options.template_layers(), find_theme()
    for path in paths:
        rel = relative_below(path, options.content_dir)
        if rel is not None and rel.parts:
            if not classify_content_change(rel, options.content_dir, changes):
                # A text in another language (index.zh.md, cv.zh-Hant.yaml) touches
                # what its default-language file does.
                classify_content_change(untranslated(rel), options.content_dir, changes)
            continue
        classify_template_change(path, layers, theme, changes)
    return changes


def classify_content_change(rel: Path, content_dir: Path, changes: Changes) -> bool:
    """Note what a change of the content folder's `rel` touches; False when no build
    reads it."""
    top, suffix = rel.parts[0], rel.suffix.lower()
    if rel.as_posix() in (CONFIG_FILE, COUNTS_FILE, COAUTHORS_FILE) or top == TIERS_DIR or (
            top == PEOPLE_DIR and suffix in MARKDOWN_SUFFIXES):
        # Read with site.yaml: counts, tier tables, and the people and co-authors, whose
        # names every paper's view links (loader.load_settings).
        changes.config = True
    elif rel.as_posix() == BIO_FILE:
        changes.bio = True
    elif top == PAPERS_DIR and suffix in PAPER_SUFFIXES:
        changes.papers.add(content_dir / rel)
    elif suffix in NOTEBOOK_FILES and top == PAPERS_DIR:  # a paper's notebook, or its x.yaml
        changes.extras = changes.notebooks = True
    elif top == FILES_DIR:
        changes.static = True
    elif suffix in NOTEBOOK_FILES and top in TEXT_SUFFIXES:  # a notebook, or its x.yaml
        changes.extras = changes.notebooks = True
    elif rel.as_posix() == CV_FILE or (top in EXTRA_FOLDERS and suffix in MARKDOWN_SUFFIXES):
        changes.extras = True
    else:
        return False
    return True


def untranslated(rel: Path) -> Path:
    """The default language's file of a text in another language, `NAME.TAG.SUFFIX`
    (the tag a language's: parse_language); `rel` itself when it is no such text."""
    stem, dot, tag = rel.stem.rpartition(".")
    if not dot or not stem or parse_language(tag) is None:
        return rel
    return rel.with_name(stem + rel.suffix)


def classify_template_change(path: Path, layers: tuple[Path, ...], theme: Path | None,
                             changes: Changes) -> None:
    """A change below the first of the templates' folders that holds `path`: a theme's
    template is also known as `theme/NAME` to the overrides that extend it."""
    for folder in layers:
        rel = relative_below(path, folder)
        if rel is None or not rel.parts:
            continue
        if rel.parts[0] == ASSETS_DIR:
            changes.static = True
        elif not any(part.startswith(".") for part in rel.parts):
            changes.templates.add(rel.as_posix())
            if theme is not None and is_same_folder(folder, theme):
                changes.templates.add(make_theme_name(rel.as_posix()))
        return


def changed_notebooks(old: Site | None, new: Site) -> set[str]:
    """The slugs of the papers whose notebook (publications/SLUG.ipynb) came, went or
    changed since the site `old`: their pages show it."""
    before = {item.slug: item for item in old.notebooks
              if item.collection == PAPERS_DIR} if old is not None else {}
    after = {item.slug: item for item in new.notebooks if item.collection == PAPERS_DIR}
    return {slug for slug in before.keys() | after.keys() if before.get(slug) != after.get(slug)}
