"""Which kind of site a checkout is, from its layout (or `--from`)."""

from __future__ import annotations

from pathlib import Path

from ...diagnostics import Diagnostics
from ...reading.settings.yamlread import read_text
from .datalist import find_bib_files, find_data_list

KINDS = ("academicpages", "al-folio", "hugo-blox", "jekyll-data", "bibtex")


def read_config_text(old: Path) -> str:
    """`_config.yml`'s text, through the guarded reader ('' when it cannot be read: the
    readers say why)."""
    return read_text(old / "_config.yml", Diagnostics(), old) or ""


def detect_kind(old: Path) -> str | None:
    """'hugo-blox' for a Hugo site with publication folders, 'al-folio' for a Jekyll site
    with a `_bibliography/` (jekyll-scholar), 'academicpages' for one with `_publications/`,
    'jekyll-data' for one whose papers are data (`_data/publist.yml`), 'bibtex' for a
    folder holding .bib files (a LaTeX CV); None when the layout says none of these."""
    if (old / "content" / "publication").is_dir() or (old / "content" / "publications").is_dir() \
            or ((old / "config" / "_default").is_dir() and (old / "content").is_dir()):
        return "hugo-blox"
    config = read_config_text(old)
    if (old / "_bibliography").is_dir() or "jekyll-scholar" in config or "al-folio" in config:
        return "al-folio"
    if (old / "_publications").is_dir() or "academicpages" in config.lower():
        return "academicpages"
    if find_data_list(old) is not None:
        return "jekyll-data"
    if find_bib_files(old):
        return "bibtex"
    return None
