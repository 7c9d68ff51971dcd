"""site.yaml's `redirects`: old addresses (a moved site's paper pages, say) and where each
now is. Each becomes a small page at the old address (plan/pages.py) that sends visitors
on; the paths are checked here, what they name once the site's pages are known
(`check_redirects`)."""

from __future__ import annotations

import posixpath

from .fields import FieldReader
from ..slugs import find_path_problem
from ...models import Redirect
from ...structure.urls import check_link, is_external


def read_redirects(redirects: FieldReader) -> tuple[Redirect, ...]:
    """`old/path: target` pairs, in the order written. An old path is a path inside the
    site ('publication/2020-x' is taken as the folder 'publication/2020-x/'); a target is
    a path of this site or an http(s) address."""
    found = []
    for key in list(redirects.data):
        if not isinstance(key, str):
            continue  # check_unknown says a key that is no text is unknown
        target = redirects.line_text(key, required=True)
        old, problem = normalize_old_path(key)
        if problem:
            redirects.error((key,), f"redirect '{key}': {problem}")
            continue
        url, problem = check_link("url", target)
        if problem:
            redirects.error((key,), f"redirect '{key}' {problem}")
            continue
        if not is_external(url):
            url = url.lstrip("/")
        found.append(Redirect(old, url, redirects.line(key)))
    redirects.check_unknown()
    return tuple(found)


def normalize_old_path(key: str) -> tuple[str, str]:
    """(the path as the site's pages are named, '' or why it cannot be one): a path the
    output may hold, by the rules of every path the site writes (slugs.find_path_problem);
    which pages the site has is checked once they are known (plan/checks.py)."""
    path = key.strip(" ").lstrip("/")
    if not path or is_external(path) or path.startswith("//"):
        return "", "the old address must be a path inside this site, such as publication/x/"
    parts = path.split("/")
    if any(part in ("..", ".") for part in parts) or "\\" in path or "?" in path or "#" in path:
        return "", "the old address must be a plain path, without '..', '?' or '#'"
    problem = find_path_problem(path)
    if problem:
        return "", f"the old address {problem}"
    if not path.endswith("/") and not posixpath.splitext(parts[-1])[1]:
        path += "/"  # an address of a folder, as Jekyll and Hugo write pages
    return path, ""
