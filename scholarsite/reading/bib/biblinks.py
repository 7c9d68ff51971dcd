"""A BibTeX entry's links: each made right, with a warning at its line, or left out, with a
warning at its line; never an error, and never a link that leads nowhere.

A .bib file is usually exported by another tool, or written for al-folio, so its link
fields hold what those tools accept: 'doi:10.1/x' or 'DOI 10.1/x' in `url`, an address
without its scheme ('www.springer.com/...', 'osf.io/...'), a file name ('paper.pdf', which
al-folio finds in assets/pdf/), HTML, or words ('COLM 2025'). DOIs and arXiv ids become
their addresses, an address without a scheme gets https://, a name or relative path
becomes a file of content/files/ (checked once the site is assembled, as that folder
changes apart from the .bib file: paperfiles.check_file_links), and what passes none of
these, or urls.check_link, is left out.
"""

from __future__ import annotations

import html
import posixpath
import re
from urllib.parse import quote, unquote

from .bibparse import EntryReader
from ...models import LINK_KINDS, Link
from .latex import decode_url
from ..text.papers import html_to_text
from ...structure.urls import (FILES_DIR, check_link, find_control, is_bare_host, is_external,
                               normalize_arxiv, normalize_doi)

_ARXIV_IN_VENUE = re.compile(r"arxiv:\s*([0-9]{4}\.[0-9]{4,5}(?:v\d+)?|[a-z\-]+/\d{7})", re.I)
# A DOI as people write it: '10.1/x', 'doi:10.1/x', 'DOI 10.1/x', '(https://)doi.org/10.1/x'.
_DOI_TEXT = re.compile(r"^(?:doi\s*:?\s*|(?:https?://)?(?:dx\.|www\.)?doi\.org/)?"
                       r"(10\.\d{4,9}/\S+)$", re.IGNORECASE)
_WEB = re.compile(r"^https?://", re.IGNORECASE)
# An HTML tag: a name that starts with a letter ('<377::AID-JCC1>' in a SICI DOI is none).
_TAG = re.compile(r"</?[a-zA-Z][a-zA-Z0-9\-]*(?:\s[^<>]*)?/?>")
_HREF = re.compile(r"""\bhref\s*=\s*["']?([^"'\s>]+)""", re.IGNORECASE)


def read_links(r: EntryReader) -> tuple[Link, ...]:
    """The entry's links in the order the model shows them; each problem a warning at the
    line of the field that gave the link."""
    fields = {kind: kind for kind in LINK_KINDS if r.raw(kind).strip() and kind != "arxiv"}
    arxiv = arxiv_field(r)
    if arxiv:
        fields["arxiv"] = arxiv
    if "url" not in fields and _WEB.match(decode_url(r.raw("howpublished"))):
        fields["url"] = "howpublished"  # misc entries often put their link there
    links = []
    for kind in LINK_KINDS:
        if kind not in fields:
            continue
        field = fields[kind]
        value = decode_url(r.raw(field) if field != "journal" else arxiv_in_venue(r))
        url, note = resolve_link(kind, value)
        if note:
            r.warning(field, f"link '{kind}' {note}")
        if url:
            links.append(Link(kind, url))
    # `url` is often the DOI's or the arXiv paper's address again (DBLP gives arXiv papers
    # their DataCite DOI as `url`): one link is enough.
    same = {link.url.lower() for link in links if link.kind in ("doi", "arxiv")}
    same |= {f"https://doi.org/10.48550/arxiv.{link.url.rsplit('/', 1)[-1].lower()}"
             for link in links if link.kind == "arxiv"}
    return tuple(link for link in links if not (link.kind == "url" and link.url.lower() in same))


def arxiv_field(r: EntryReader) -> str:
    """The field that gives the arXiv id: al-folio's `arxiv`, an eprint with
    archiveprefix arXiv (or one that reads as an arXiv id), or 'arXiv:2401.00001' in the
    journal; '' when none does."""
    if r.raw("arxiv").strip():
        return "arxiv"
    eprint = decode_url(r.raw("eprint"))
    prefix = (r.text("archiveprefix") or r.text("eprinttype")).lower()
    if eprint and (prefix == "arxiv" or (not prefix and normalize_arxiv(eprint))):
        return "eprint"
    return "journal" if arxiv_in_venue(r) else ""


def arxiv_in_venue(r: EntryReader) -> str:
    match = _ARXIV_IN_VENUE.search(r.text("journal"))
    return match.group(1) if match else ""


def resolve_link(kind: str, value: str) -> tuple[str, str]:
    """(url, note) for one link field's value: url '' when it is left out; the note, what
    was done and why, is '' when the value was used as it is meant."""
    if not _TAG.search(value):
        return resolve_value(kind, value)
    # HTML never reaches a page as markup: its text, or else the address it links to.
    for candidate in (html_to_text(value), *_HREF.findall(value)):
        url, _ = resolve_value(kind, html.unescape(candidate).strip())
        if url and is_external(url):
            return url, f"holds HTML ({shorten(value)}); it links to {url}"
    return "", f"holds HTML ({shorten(value)}) with no address in it; it is left out"


def resolve_value(kind: str, value: str) -> tuple[str, str]:
    """resolve_link for a value without HTML."""
    problem = find_control(value)
    if problem or not value:
        return "", f"{problem or 'is empty'}; it is left out"
    if kind in ("doi", "arxiv") or not _WEB.match(value):
        url = read_identifier(value)
        if url:
            usual = (kind == "doi" and normalize_doi(value)) or (
                kind == "arxiv" and normalize_arxiv(value)) or url == value
            return url, "" if usual else f"{value!r} is read as {url}"
    if is_bare_host(value):
        url, problem = check_link(kind, "https://" + value)
        if not problem:
            return url, f"{value!r} has no scheme; it links to {url}"
    url, problem = check_link(kind, value)
    if problem:
        return "", f"{problem}; it is left out"
    return (url, "") if is_external(url) else (site_file_url(url), "")


def read_identifier(value: str) -> str:
    """The address of a DOI or an arXiv id written in any of the usual ways, or ''."""
    doi = _DOI_TEXT.match(value)
    if doi:
        return check_link("doi", doi.group(1))[0]
    arxiv = normalize_arxiv(value)
    return check_link("arxiv", arxiv)[0] if arxiv else ""


def site_file_url(path: str) -> str:
    """A name or relative path as the address of a file in content/files/, published
    under files/ ('paper.pdf', 'files/paper.pdf' -> 'files/paper.pdf'; spaces and the
    like percent-encoded, a '#page=2' kept)."""
    path, hash_mark, fragment = path.partition("#")
    path = posixpath.normpath(unquote(path).lstrip("/"))
    if path.startswith(FILES_DIR + "/"):
        path = path[len(FILES_DIR) + 1:]
    return f"{FILES_DIR}/{quote(path)}{hash_mark}{fragment}"


def shorten(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return repr(text if len(text) <= limit else text[:limit - 1] + "…")
