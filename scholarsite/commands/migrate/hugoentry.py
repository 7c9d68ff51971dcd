"""One page of a Hugo Blox site being moved, and its links: `url_*` fields, `links:`
items, a bundle's own PDF, `doi` and `arxiv`, each as scholarsite writes it (a DOI, an arXiv
id, a copied file of the bundle or static/), at most one of each kind."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ...reading.text.mdescape import text_to_markdown
from .frontmatter import Source, key_line, strip_html
from .hugoconfig import (convert_body, copy_file, find_local, make_date, plain_venue,
                         text_of)
from .hugofields import find_doi, find_markdown_links
from .model import Migration

LINK_FIELDS = (("url_pdf", "pdf"), ("url_code", "code"), ("url_slides", "slides"),
               ("url_video", "video"), ("url_poster", "poster"), ("url_dataset", "supp"),
               ("url_preprint", "url"), ("url_project", "url"), ("url_source", "url"))
# A custom link's name (or type, or icon) -> the kind of link it is.
LINK_WORDS = (("pdf", "pdf"), ("paper", "pdf"), ("code", "code"), ("github", "code"),
              ("slide", "slides"), ("video", "video"), ("youtube", "video"),
              ("poster", "poster"), ("data", "supp"), ("supp", "supp"), ("arxiv", "arxiv"),
              ("doi", "doi"))
LINK_LABELS = {"pdf": "PDF", "supp": "Data", "url": "Link", "doi": "DOI", "arxiv": "arXiv"}
_ARXIV = re.compile(r"arxiv\.org/(?:abs|pdf)/([^\s?#]+?)(?:\.pdf)?/?$", re.I)
_FILE_NAME = re.compile(r"/[^/]+\.(?!html?$)[A-Za-z0-9]{1,5}$")  # a file's, not a page's
_DOI = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:)", re.I)


@dataclass(frozen=True)
class Entry:
    """One page of the old site being moved: its file, old address and new slug."""

    source: Source
    kind: str  # publications | talks | posts | projects: the new folder
    slug: str
    old_path: str  # its address on the old site, such as publication/my-paper/
    translations: tuple[tuple[str, Path], ...] = ()  # its other languages' files

    @property
    def folder(self) -> Path:
        return self.source.path.parent

    @property
    def bundled(self) -> bool:
        return self.source.path.name.startswith("index.")

    def where(self, mig: Migration, key: str = "") -> str:
        return mig.where(self.source.path, key_line(self.source, key) if key else 0)


def make_links(entry: Entry, bib: dict, mig: Migration) -> dict:
    """The paper's links; its own `doi` field first, so that a dataset's or a preprint's
    doi.org link (`url_dataset`, a `links:` item) never takes the paper's DOI slot."""
    f = entry.source.fields
    links: dict[str, str] = {}
    ids = f.get("hugoblox") if isinstance(f.get("hugoblox"), dict) else {}
    ids = ids.get("ids") if isinstance(ids.get("ids"), dict) else {}
    items = [i for i in f.get("links") or f.get("url_custom") or [] if isinstance(i, dict)]
    others = {find_doi(text_of(v)).lower() for v in [f.get(key) for key, _ in LINK_FIELDS]
              + [i.get("url") for i in items]} - {""}
    for kind in ("doi", "arxiv"):
        own = f.get(kind) or ids.get(kind)
        if not own and kind == "doi" and find_doi(text_of(bib.get("doi"))).lower() in others:
            own = None  # cite.bib is the preprint's or dataset's that a link names
        else:
            own = own or bib.get(kind)
        add_link(links, kind, own, entry, kind, mig)
    if entry.bundled and (entry.folder / f"{entry.folder.name}.pdf").is_file():
        add_link(links, "pdf", f"{entry.folder.name}.pdf", entry, "url_pdf", mig)  # Hugo's
    for key, kind in LINK_FIELDS:
        add_link(links, kind, f.get(key), entry, key, mig)
    for item in items:
        add_link(links, kind_of(item), item.get("url"), entry, "links", mig,
                 text_of(item.get("name")))
    return links


DEAD_LINKS = "dead links"  # a key of make_links' answer that no link kind has


def keep_dead_link(links: dict, key: str, url: str, entry: Entry, mig: Migration) -> None:
    """A link to a file on the old site's own address that the old site lacks led nowhere
    there too: no link of the new site can name it (the build and `check` would refuse
    it), so it is kept as a comment at the top of the moved file, and named in the
    report, until the owner puts the file in files/."""
    links.setdefault(DEAD_LINKS, []).append(f"{key}: {url}")
    mig.add_review(entry.where(mig, key), f"'{url}' names a file the old site did not have "
                   "(it led nowhere there too): kept as a comment at the top of the moved "
                   "file; put the file in files/ and link it")


def dead_links_comment(links: dict) -> str:
    """The comment that keeps the links keep_dead_link took out of `links`."""
    dead = links.pop(DEAD_LINKS, [])
    return "\n".join(["Links of the old site that led nowhere there too (no such file):",
                      *(f"  {line}" for line in dead)]) if dead else ""


def find_oldest_year(entries: list[Entry]) -> str:
    """The oldest year of the entries' dates: what stands in for a date that is missing,
    so that the entry is listed last, as Hugo lists a page without one."""
    years = [make_date(entry.source.fields.get(key))[:4] for entry in entries
             for key in ("date", "publishdate")]
    return min((y for y in years if y), default="2000")


def stand_in_date(entry: Entry, year: str, mig: Migration) -> str:
    """`year` for an entry without a date (never a reason to leave it behind), said in
    the report and in a comment the moved file keeps."""
    written = text_of(entry.source.fields.get("date"))
    said = f"the date {written!r} cannot be read" if written else "no date"
    mig.add_review(entry.where(mig, "date"), f"{said}: written as {year} (the site's oldest "
                   "year, listed last); give its date")
    return year


def kind_of(item: dict) -> str:
    words = " ".join(text_of(item.get(k)).lower() for k in ("type", "name", "icon"))
    return next((kind for word, kind in LINK_WORDS if word in words), "url")


def add_link(links: dict, kind: str, value, entry: Entry, key: str, mig: Migration,
             label: str = "") -> None:
    """One link, as scholarsite writes it (a DOI, an arXiv id, a copied file); a second link
    of a kind goes to `more` with its own label when it has one (a `links:` item's name,
    'Rejoinder PDF'), else to `url`, else `html`, when free, else to `more` with its
    field's name (`url_dataset`: 'Dataset')."""
    url, kind = read_address(text_of(value), kind, entry.where(mig, key), key, mig)
    if not url:
        return
    written = url
    own = mig.own_path(url)
    if find_local(mig.old, entry.folder, own) is not None:
        url = own  # a file of the old site, written with its own address
    elif own != url and _FILE_NAME.search(own.split("?")[0].split("#")[0]):
        keep_dead_link(links, key, url, entry, mig)
        return
    arxiv = _ARXIV.search(url)
    if arxiv or kind == "arxiv":
        kind, url = "arxiv", arxiv.group(1) if arxiv else url.removeprefix("arXiv:")
    elif kind == "doi" or kind == "pdf" and _DOI.match(url) and "doi" not in links:
        kind, url = "doi", find_doi(url)  # the paper's own DOI; another doi.org link stays
        if not url:
            mig.add_review(entry.where(mig, key), f"'{text_of(value)}' is not a DOI; "
                           "not moved")
            return
    elif _DOI.match(url):
        url = "https://doi.org/" + find_doi(url) if find_doi(url) else url
    elif not re.match(r"(https?|mailto):", url):
        url = copy_linked_file(url, value, entry, key, mig)
        if not url:
            return
    if links.get(kind, url) != url:  # a second link of a kind: its own name, else a page
        url = written if re.match(r"https?://", written) else url  # not a bare arXiv id
        kind = "" if label else next((k for k in ("url", "html")  # of its site's name
                                      if links.get(k, url) == url), "")
    if kind:
        links[kind] = url
    elif url not in links.values() and url not in [m["url"] for m in links.get("more", [])]:
        name = label or key.removeprefix("url_").replace("_", " ").capitalize()
        links.setdefault("more", []).append({"label": name, "url": url})


def copy_linked_file(url: str, value, entry: Entry, key: str, mig: Migration) -> str:
    """The old site's file a link (`value`, in field `key`) names, copied beside the
    entry's; '' with a note to review when there is no such file."""
    copied = copy_file(url, entry.folder, f"{entry.kind}/{entry.slug}", mig)
    if not copied:
        mig.add_review(entry.where(mig, key), f"link '{text_of(value)}' names no file of "
                       "the old site; not moved")
    return copied


def read_address(url: str, kind: str, where: str, key: str, mig: Migration
                 ) -> tuple[str, str]:
    """(address, kind) of a link's value as written: a page that names a DOI (a
    publisher's, a proceedings') is a link, not the paper's DOI; ('', kind) for an app's
    own link (papers3:, message:), or nothing."""
    if not url or url == "#":
        return "", kind
    if kind == "doi" and key != "doi" and re.match(r"https?://", url, re.I) \
            and not _DOI.match(url):
        kind = "url"
    if kind != "doi" and re.match(r"[a-z][a-z0-9+.-]*:", url, re.I) and not re.match(
            r"(https?|mailto|doi|arxiv):", url, re.I):
        mig.add_review(where, f"'{url}' is no web address (an app's own link, such as "
                       "papers3:); not moved")
        return "", kind
    return url, kind


def copy_featured(entry: Entry, mig: Migration) -> str:
    """A bundle's `featured.png` (its picture in lists), copied: the paper's preview."""
    if not entry.bundled:
        return ""
    found = sorted(p for p in entry.folder.glob("featured.*")
                   if p.suffix.lower() in (".png", ".jpg", ".jpeg", ".webp", ".gif"))
    return copy_file(found[0].name, entry.folder, f"{entry.kind}/{entry.slug}", mig) \
        if found else ""


def add_venue_links(entry: Entry, links: dict) -> None:
    """A venue written as a Markdown link (`publication_short: "[CinC 2023](https://...)"`,
    the venue's own page, which Hugo showed as a link): its text is the venue, and the
    link is kept under that text in `links.more`."""
    for key in ("publication", "publication_short"):
        for text, url in find_markdown_links(text_of(entry.source.fields.get(key))):
            label = plain_venue(text)
            if url.startswith(("http://", "https://")) and label and url not in [
                    m["url"] for m in links.get("more", [])] and url not in links.values():
                links.setdefault("more", []).append({"label": label, "url": url})


def make_text(entry: Entry, first: str, mig: Migration) -> str:
    """The entry's text: its `abstract` (or `summary` when nothing else), then its body."""
    below = f"{entry.kind}/{entry.slug}"
    body = convert_body(entry.source, mig,
                        lambda ref: copy_file(ref, entry.folder, below, mig)).strip()
    lead = text_of(entry.source.fields.get(first)) if first else ""
    if not lead and not body:
        lead = text_to_markdown(strip_html(text_of(entry.source.fields.get("summary"))))
    return "\n\n".join(part for part in (lead, body) if part)
