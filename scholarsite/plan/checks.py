"""Checks of the planned site against what site.yaml asks of it."""

from __future__ import annotations

from pathlib import Path

from ..diagnostics import Diagnostics
from ..models import Site
from ..structure.urls import is_external
from .pages import Page


def check_redirects(site: Site, pages: list[Page], copies: dict[str, Path], config: Path,
                    diags: Diagnostics) -> None:
    """A redirect from an address the site has a page at, or to a path of this site that
    is no page or file of it, is an error at its line in site.yaml: nothing sends a
    visitor nowhere."""
    paths = {page.path for page in pages if page.kind != "redirect"}
    for redirect in site.config.redirects:
        target = redirect.target.split("#")[0]
        if redirect.old in paths:
            diags.error(config, redirect.line, f"redirect '{redirect.old}': the site has a "
                        "page at that address; remove the redirect or rename the page")
        elif not is_external(target) and target not in paths and target not in copies:
            hint = f"; did you mean '{target}/'?" if f"{target}/" in paths else ""
            diags.error(config, redirect.line, f"redirect '{redirect.old}' sends visitors "
                        f"to '{redirect.target}', which is no page or file of this "
                        f"site{hint}")
