"""Links: which ones are safe to publish, and how pages reach each other.

Every internal link is relative ("../../publications/"), so one build works at a domain's
root, under a subpath (user.github.io/repo/), and opened from the file system.
"""

from __future__ import annotations

import base64
import difflib
import html
import posixpath
import re
from typing import Iterable
from urllib.parse import quote, unquote, urlsplit

SAFE_SCHEMES = ("http", "https", "mailto")
# content/files/ is published as it is, under files/: "files/cv.pdf" links to one of them.
FILES_DIR = "files"
# Stands for the page's relative root ('', '../', '../../') in rendered Markdown that is
# shown on pages at several depths: an abstract on the home page, in the list, on its page.
ROOT_MARKER = "@@scholarsite-root@@/"
_DOI = re.compile(r"^(?:doi:\s*|https?://(?:dx\.)?doi\.org/)?(10\.\d{4,9}/\S+)$", re.IGNORECASE)
_PERCENT = re.compile(r"%[0-9A-Fa-f]{2}")
_ARXIV = re.compile(
    r"^(?:arxiv:\s*|https?://arxiv\.org/(?:abs|pdf)/)?"
    r"(\d{4}\.\d{4,5}(?:v\d+)?|[a-z\-]+(?:\.[A-Z]{2})?/\d{7}(?:v\d+)?)(?:\.pdf)?$",
    re.IGNORECASE,
)
# C0 controls, DEL and C1 controls: browsers drop or ignore some of them inside links.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_SCHEME = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.\-]*):")
# A web address without its scheme: 'www.' anything, or a host name followed by a path.
# No backslash: a browser reads it as '/', so the address would not be what is shown.
_BARE_HOST = re.compile(r"^(?:www\.[^\s/\\]+\.[^\s/\\]+(?:/[^\s\\]*)?|[a-z0-9\-]+"
                        r"(?:\.[a-z0-9\-]+)*\.[a-z]{2,}(?::\d+)?/[^\s\\]*)$", re.IGNORECASE)

# Ids the theme's pages give elements of their own: a heading of a text never takes one
# (reading/text/mdconvert.py), and a link to one is no broken anchor (plan/checks.py).
THEME_IDS = frozenset({
    "main", "name", "contents", "related", "related-items", "theme-toggle", "home-news",
    "home-papers", "abstract", "cite", "bibtex", "filters", "filter-q", "filter-status",
    "filter-empty", "search-q", "search-results", "search-status", "search-index",
    "search-needs-js"})


def normalize_doi(value: str) -> str:
    """The bare DOI (10.xxxx/...) from a DOI, 'doi:' form or doi.org URL; '' if not a DOI.

    A DOI copied out of a link comes percent-encoded ('10.1061/%28ASCE%29...'); it is
    decoded (until nothing is left to decode, as some were encoded twice), since the DOI
    is '10.1061/(ASCE)...' and its link encodes it once more."""
    match = _DOI.match(value.strip())
    if not match:
        return ""
    doi = match.group(1)
    while _PERCENT.search(doi):
        decoded = unquote(doi)  # a decoded space or control character is no DOI's: kept
        if decoded == doi or not _DOI.match(decoded) or _CONTROL.search(decoded):
            break
        doi = decoded
    return doi


def normalize_arxiv(value: str) -> str:
    """The bare arXiv identifier from an id, 'arXiv:' form or arxiv.org URL; '' if not one."""
    match = _ARXIV.match(value.strip())
    return match.group(1) if match else ""


def check_link(kind: str, value: str) -> tuple[str, str]:
    """(url, problem): a publishable URL for a link field, or why it is refused.

    Allowed: http, https and mailto URLs, relative paths inside the site, DOIs (for `doi`)
    and arXiv identifiers (for `arxiv`). Everything else (javascript:, data:, file:, ...)
    is refused, since a link is clicked by visitors. The scheme is judged as a browser
    reads the link (the WHATWG URL standard), not as it is written: a browser drops
    control characters around a link and backslashes count as slashes, so a link with a
    control character anywhere is refused, and so is a relative one with a backslash.
    """
    problem = find_control(value)
    if problem:
        return "", problem
    value = value.strip()
    if not value:
        return "", "is empty"
    if kind == "doi":
        doi = normalize_doi(value)
        if doi:
            return "https://doi.org/" + quote(doi, safe="/:;()._-<>[]"), ""
    if kind == "arxiv":
        arxiv = normalize_arxiv(value)
        if arxiv:
            return "https://arxiv.org/abs/" + arxiv, ""
    scheme = _SCHEME.match(value)
    if scheme:
        return check_absolute(value, scheme.group(1).lower())
    if "\\" in value:
        return "", "has a backslash, which browsers read as '/'; write '/' instead"
    if value.startswith("//"):
        return "", "is a protocol-relative address; write https://... instead"
    if ".." in posixpath.normpath(value.lstrip("/")).split("/")[0:1]:
        return "", "leaves the site ('..'); link to a file inside it"
    return value, ""


def find_control(value: str) -> str:
    control = _CONTROL.search(value)
    if control:
        return f"contains the control character U+{ord(control.group()):04X}; remove it"
    return ""


def check_text_link(raw: str) -> str:
    """Why a link or image address written in Markdown text may not be published, or ''.
    Any relative path is the author's to write there, but the address a browser reads,
    with character references decoded, must be free of control characters and use a safe
    scheme."""
    value = html.unescape(raw)
    problem = find_control(value)
    if problem:
        return problem
    scheme = _SCHEME.match(value.strip())
    if scheme and scheme.group(1).lower() not in SAFE_SCHEMES:
        return (f"uses the scheme '{scheme.group(1)}:'; only http, https and mailto links "
                "and relative paths are allowed")
    return ""


def check_absolute(value: str, scheme: str) -> tuple[str, str]:
    """(url, problem) for a link written with a scheme."""
    if scheme not in SAFE_SCHEMES:
        return "", (f"uses the scheme '{scheme}:'; only http, https and mailto links, DOIs, "
                    "arXiv ids and relative paths are allowed")
    if scheme in ("http", "https"):
        try:
            parts = urlsplit(value)
            parts.port  # noqa: B018 - raises ValueError for a port out of range
        except ValueError as exc:
            return "", f"is not a valid web address ({exc})"
        if not parts.hostname:
            return "", "is not a complete web address (no host name)"
        if any(ch.isspace() for ch in parts.netloc):
            return "", "has a space in its host name"
    return value, ""


def is_bare_host(value: str) -> bool:
    """Whether a value with no scheme is a web address without it ('www.x.org',
    'osf.io/abc'), which a browser would read as a path inside the site."""
    return not _SCHEME.match(value) and bool(_BARE_HOST.match(value))


def is_external(url: str) -> bool:
    return bool(_SCHEME.match(url))


def absolute_url(base: str, url: str) -> str:
    """A link made absolute against the site's base URL ('files/a.pdf' ->
    'https://user.github.io/files/a.pdf'); external URLs unchanged. For machines (feeds,
    meta tags, exports), which read a page without knowing where it is."""
    if not url or is_external(url):
        return url
    return base + url.lstrip("/")


def page_root(url_path: str) -> str:
    """The relative prefix from a page to the site root: '' for '/', '../' for '/a/'.

    `url_path` is the page's path below the site root, such as 'publications/x/' or
    '404.html'.
    """
    depth = url_path.count("/")
    return "../" * depth


def split_site_link(url: str) -> tuple[str, bool]:
    """(url, internal): a link to a file of the site ('files/cv.pdf' or '/files/cv.pdf') made
    relative to the site root, for templates to prefix with `page.root`; other URLs as they
    are. A paper's links appear on pages at several depths, so the view cannot prefix them."""
    if is_external(url) or url.startswith("#"):
        return url, False
    return url.lstrip("/"), True


def resolve_site_link(url: str, root: str) -> str:
    """A link from content: a site-relative path ('files/cv.pdf' or '/files/cv.pdf') made
    relative to the current page; external URLs unchanged."""
    if is_external(url) or url.startswith("#"):
        return url
    return root + url.lstrip("/")


def output_path(url_path: str) -> str:
    """Where a page's URL path is written: 'a/b/' -> 'a/b/index.html'."""
    if url_path == "" or url_path.endswith("/"):
        return url_path + "index.html"
    return url_path


def file_key(url_path: str) -> str:
    """The file a page's URL path is written to, as a disk that does not tell case apart
    names it: two paths of one key would be one file there."""
    return output_path(url_path).casefold()


def make_data_url(media_type: str, text: str) -> str:
    """A link that holds `text` itself (UTF-8, in base64: made at C speed, where
    percent-encoding took a tenth of a millisecond a text, and not larger): a download
    made from what the page already shows, with no file of its own to write."""
    data = base64.b64encode(text.encode("utf-8")).decode("ascii")
    return f"data:{media_type};charset=utf-8;base64,{data}"


def suggest_path(path: str, known: Iterable[str]) -> str:
    """'; did you mean 'files/marchetti.jpg'?' for a path that is one of `known` but for
    case ('files/Marchetti.JPG': a disk that ignores case finds it, the web server does
    not), or close to one; '' when none is."""
    known = sorted(known)
    same = [name for name in known if name.casefold() == path.casefold()]
    near = same or difflib.get_close_matches(path, known, n=1, cutoff=0.8)
    return f"; did you mean '{near[0]}'?" if near else ""
