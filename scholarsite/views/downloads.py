"""A paper's citation texts as downloads: `bibtex_href`, `ris_href` and `csl_href` of its
view, links that hold the text itself (data: URLs), for its page's download links.

They are made when a template reads them (render.py's environment calls `find_download`
for a key a paper's view lacks) rather than kept in every view: each is the paper's text
again, in base64, and at 5,000 papers the three were 31 MB of a build's memory, held from
reading to the end for the one page of each paper that shows them."""

from __future__ import annotations

import functools
from typing import Callable

from .csl import csl_download
from .entries import ENTRY
from ..structure.urls import make_data_url

BIBTEX_TYPE = "application/x-bibtex"
RIS_TYPE = "application/x-research-info-systems"
CSL_TYPE = "application/vnd.citationstyles.csl+json"

# Each download's name, the view's text it is made of, and how.
DOWNLOADS: dict[str, tuple[str, Callable[[str], str]]] = {
    "bibtex_href": ("bibtex", functools.partial(make_data_url, BIBTEX_TYPE)),
    "ris_href": ("ris", functools.partial(make_data_url, RIS_TYPE)),
    "csl_href": ("csl", lambda text: make_data_url(CSL_TYPE, csl_download(text))),
}


def find_download(view: dict, name: str) -> str | None:
    """The download `name` of a paper's `view`, made from its text; None when `name` is
    no download's or `view` no paper's."""
    made = DOWNLOADS.get(name)
    if made is None or ENTRY not in view or made[0] not in view:
        return None
    return made[1](view[made[0]])
