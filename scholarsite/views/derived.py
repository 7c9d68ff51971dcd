"""The keys of a paper's view that are made of its other keys, made when a template reads
them (render.py's environment calls `find_derived` for a key a paper's view lacks) rather
than kept in every view:

- `bibtex_href`, `ris_href`, `csl_href`: the paper's citation texts as downloads, links
  that hold the text itself (data: URLs), for its page's download links: each is the
  text again in base64, and at 5,000 papers the three were 31 MB of a build's memory,
  held from reading to the end for the one page of each paper that shows them;
- `bibtex_file`, `ris_file`, `csl_file`: the names those downloads are saved as;
- `topics_data`: the topics joined for the publication filters (filter.js).

Without the last four a view has 42 keys, what a dict holds in its smaller size (at
5,000 papers, 5 MB less)."""

from __future__ import annotations

import functools
from typing import Callable

from .csl import csl_download
from .entries import ENTRY
from ..models import TOPIC_SEPARATOR
from ..structure.urls import make_data_url

BIBTEX_TYPE = "application/x-bibtex"
RIS_TYPE = "application/x-research-info-systems"
CSL_TYPE = "application/vnd.citationstyles.csl+json"

# Each derived key, the view's key it is made of, and how.
DERIVED: dict[str, tuple[str, Callable]] = {
    "bibtex_href": ("bibtex", functools.partial(make_data_url, BIBTEX_TYPE)),
    "ris_href": ("ris", functools.partial(make_data_url, RIS_TYPE)),
    "csl_href": ("csl", lambda text: make_data_url(CSL_TYPE, csl_download(text))),
    "bibtex_file": ("slug", lambda slug: f"{slug}.bib"),
    "ris_file": ("slug", lambda slug: f"{slug}.ris"),
    "csl_file": ("slug", lambda slug: f"{slug}.json"),
    "topics_data": ("topics", TOPIC_SEPARATOR.join),
}


def find_derived(view: dict, name: str) -> str | None:
    """The derived key `name` of a paper's `view`, made from the key it is made of; None
    when `name` is no derived key's or `view` no paper's."""
    made = DERIVED.get(name)
    if made is None or ENTRY not in view or made[0] not in view:
        return None
    return made[1](view[made[0]])
