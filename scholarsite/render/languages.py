"""What a build adds for a site in several languages (plan/languages.py): each other
language's pages and CV files. A build takes those that are the same from the last one
as it takes the default language's (fastpath/reuse.py); the touch-up knows the default
language's pages alone, and leaves such a site to this whole build; serve patches every
language's (live/languages.py), from what their planners read (noted when `keep`)."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from ..diagnostics import Diagnostics
from ..reads import ReadLog
from ..models import Site
from ..plan.languages import (check_language_folders, language_copies, language_store,
                              localize_site, other_languages, plan_languages)
from ..plan.pages import DEFERRABLE, Page, plan_pages
from ..views.cvpdf import CVFiles
from .typeset import make_cv_files


def plan_site(site: Site, views: dict[str, dict], keep: bool, log: ReadLog | None,
              typesetting: tuple[Sequence[Path], Path, Diagnostics]
              ) -> tuple[list[Page], dict[str, Path], CVFiles | None]:
    """Every page (kept for serve, `keep`: the pages that list papers planned with their
    contexts), each other language's, the files those languages' CVs add, and the CV's
    files (`typesetting` as for plan_in_languages)."""
    layers, store, diags = typesetting
    cv_files = make_cv_files(site, layers, store, diags)
    pages, more = plan_in_languages(site, views, frozenset({"paper"}) if keep else DEFERRABLE,
                                    cv_files, log, typesetting, keep)
    return pages, more, cv_files


def plan_in_languages(site: Site, views: dict[str, dict], deferred: frozenset[str],
                      cv_files: CVFiles | None, log: ReadLog | None,
                      typesetting: tuple[Sequence[Path], Path, Diagnostics],
                      keep: bool = False) -> tuple[list[Page], dict[str, Path]]:
    """Every page (plan/pages.plan_pages: `deferred` as it says; kept for serve, the pages
    that list papers are planned with their contexts), each other language's too, and
    those languages' CV files to copy (`typesetting`: the templates' folders, where the
    made files are kept, and where problems go). `keep`: for serve, whose reads of
    papers are noted in `log` in every language."""
    local_cv = make_language_cv_files(site, *typesetting)
    pages = plan_pages(site, views, deferred=deferred, cv_files=cv_files, log=log)
    check_language_folders(site, pages, typesetting[2])
    # Only serve patches every language's pages (live/languages.py), from what each read.
    others = plan_languages(site, deferred, local_cv, log if keep else None)
    return pages + others, language_copies(local_cv)


def make_language_cv_files(site: Site, layers: Sequence[Path], store: Path,
                           diags: Diagnostics) -> dict[str, CVFiles | None]:
    """The CV's files in each of the site's other languages, kept apart from the
    default's; by language."""
    return {tag: make_cv_files(localize_site(site, tag), layers, language_store(store, tag),
                               diags) for tag in other_languages(site.config)}
