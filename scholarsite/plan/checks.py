"""Checks of the planned site against what site.yaml asks of it."""

from __future__ import annotations

from pathlib import Path

from ..diagnostics import Diagnostics
from ..models import Site
from ..structure.kinds import KIND
from ..structure.urls import file_key, is_external, output_path
from .pages import Page


def check_redirects(site: Site, pages: list[Page], copies: dict[str, Path], config: Path,
                    diags: Diagnostics) -> list[Page]:
    """`pages` without the redirects refused here. A redirect from an address the site
    has a page or a file at (as a disk that does not tell case apart sees it:
    'Index.html' is 'index.html' there), or to a path of this site that is no page or
    file of it, is an error at its line in site.yaml: nothing replaces a page, and nothing
    sends a visitor nowhere. The build goes on to say every other problem, so a refused
    redirect's page is left out rather than written over a file of the site."""
    paths = {page.path for page in pages if page.kind != "redirect"}
    taken = {file_key(path): output_path(path) for path in paths}
    files = {rel.casefold(): rel for rel in copies}
    for redirect in site.config.redirects:
        target = redirect.target.split("#")[0]
        key = file_key(redirect.old)
        if key in taken or key in files:
            diags.error(config, redirect.line, f"redirect '{redirect.old}': "
                        f"{describe_taken(redirect.old, taken.get(key), files.get(key))}")
        elif not is_external(target) and target not in paths and target not in copies:
            hint = f"; did you mean '{target}/'?" if f"{target}/" in paths else ""
            diags.error(config, redirect.line, f"redirect '{redirect.old}' sends visitors "
                        f"to '{redirect.target}', which is no page or file of this "
                        f"site{hint}")
    return [page for page in pages
            if page.kind != "redirect" or file_key(page.path) not in taken.keys() | files]


def describe_taken(old: str, page: str | None, file: str | None) -> str:
    """Why a redirect may not be at `old`, the address of the site's `page` or `file`."""
    if file_key(old) == file_key(KIND["404"].path):
        return ("404.html is the page this site shows for an address it does not have (the "
                "theme's 404.html), as the old site's 404.html was; remove this redirect")
    mine = output_path(old)
    same = "" if mine in (page, file) else \
        f" ('{page or file}', which is '{mine}' on a disk that does not tell case apart)"
    if page is None:
        return f"the site publishes a file there{same}; remove the redirect or rename the file"
    return f"the site has a page at that address{same}; remove the redirect or rename the page"
