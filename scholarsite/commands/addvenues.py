"""What OpenReview and the ACL Anthology say about one paper, as addsources.Found.

OpenReview: its API's `GET /notes?id=<forum id>` (JSON, `notes`): API 2
(api2.openreview.net, venues since 2023) writes each content field as `{"value": ...}`,
API 1 (api.openreview.net, ICLR 2018-2023 and the like) the value itself; both are read
alike. The note's own `_bibtex` (an accepted paper's `@inproceedings` or `@article`)
gives the venue's full name and the type; its dates are milliseconds since 1970.
ACL Anthology: the entry's BibTeX at the paper's address with `.bib`, read by the build's
own BibTeX reader (reading/bib/), so a title's braces, `--` and LaTeX quotes come out as
they do for a .bib file of the site's own.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from .addsources import Found, Person, find_venue_short, text
from ..diagnostics import Diagnostics
from .importer import abstract_markdown, front_matter_title
from ..models import Paper
from .papersources import dig
from ..reading.bib.bibpaper import find_short
from ..reading.bib.bibtex import read_bib_text
from ..reading.text.markup import markup_to_title, tex_text_to_markdown
from ..reading.text.papers import make_markdown

OPENREVIEW = "https://openreview.net"
ACL_ANTHOLOGY = "https://aclanthology.org"
_FORUM_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
# An Anthology id: '2020.acl-main.463' (since 2020), 'P19-1001' (before).
_ACL_ID = r"(\d{4}\.[a-z0-9]+(?:-[a-z0-9]+)*\.\d+|[A-Z]\d{2}-\d{4})"
_ACL_URL = re.compile(r"^(?:https?://)?(?:www\.)?(?:aclanthology\.org|aclweb\.org/anthology)/"
                      + _ACL_ID + r"(?:/|\.pdf|\.bib|\.xml)?$")
_VENUE_ACRONYM = re.compile(r"^([A-Za-z][A-Za-z0-9]{1,11})(?:\.cc)?(?:/|$)")
_NOT_ACCEPTED = re.compile(r"^(?:Submitted to|Withdrawn|Rejected|Desk Rejected)\b", re.I)
_EARLIEST = 631152000000  # 1990-01-01 in ms: an earlier 'date' is no date of a paper


def read_openreview_url(value: str) -> str:
    """The forum id of an OpenReview address (`/forum?id=`, `/pdf?id=`); else ''."""
    parts = urlsplit(value if "://" in value else f"https://{value}")
    if parts.scheme not in ("http", "https") or (parts.hostname or "") not in (
            "openreview.net", "www.openreview.net") or parts.path not in ("/forum", "/pdf"):
        return ""
    found = parse_qs(parts.query).get("id", [""])[0]
    return found if _FORUM_ID.fullmatch(found) else ""


def read_acl_url(value: str) -> str:
    """The Anthology id of an ACL Anthology address (the paper's page, .pdf or .bib)."""
    found = _ACL_URL.match(value)
    return found.group(1) if found else ""


def read_openreview(answer: object, forum: str) -> Found | None:
    """OpenReview's `/notes?id=` answer: the paper, or None when it has no such note;
    ValueError for an answer not shaped as documented or a note that is no paper."""
    notes = dig(answer, "notes")
    if not isinstance(notes, list):
        raise ValueError("the answer has no list of notes")
    if not notes:
        return None
    note = notes[0]
    content = dig(note, "content")
    if not isinstance(content, dict) or not text(value_of(content, "title")):
        raise ValueError("the note has no title")
    if text(dig(note, "forum")) not in ("", text(dig(note, "id"))):
        raise ValueError("the note is a reply in a forum (a review, a comment), not a paper")
    return read_note(note, content, forum)


def read_note(note: dict, content: dict, forum: str) -> Found:
    """A paper's note: accepted (its `_bibtex` an `@inproceedings` or `@article` of a
    venue), it is that venue's paper; else (submitted, withdrawn, rejected) a preprint."""
    bib = read_note_bibtex(value_of(content, "_bibtex"))
    venue_text, venue_id = text(value_of(content, "venue")), text(value_of(content, "venueid"))
    accepted = bib is not None and bib.type in ("conference", "journal") \
        and not any(_NOT_ACCEPTED.match(venue) for venue in (venue_text, bib.venue))
    venue = bib.venue if accepted else venue_text
    acronym = _VENUE_ACRONYM.match(venue_id)
    authors = value_of(content, "authors")
    names = [text(a) for a in (authors if isinstance(authors, list) else [])]
    abstract = value_of(content, "abstract")
    return Found("OpenReview", markup_to_title(text(value_of(content, "title"))),
                 tuple(Person(name) for name in names if name and name != "Anonymous"),
                 read_note_date(note), bib.type if accepted else "preprint", venue=venue,
                 venue_short=find_venue_short(venue, acronym.group(1) if acronym else "")
                 if accepted else "",
                 pdf=f"{OPENREVIEW}/pdf?id={forum}" if value_of(content, "pdf") else "",
                 page=f"{OPENREVIEW}/forum?id={forum}",
                 abstract=tex_text_to_markdown(abstract) if isinstance(abstract, str) else "")


def value_of(content: dict, name: str) -> object:
    """A content field as API 2 (`{"value": ...}`) or API 1 (the value) writes it."""
    value = content.get(name)
    return value.get("value") if isinstance(value, dict) else value


def read_note_bibtex(bib: object) -> Paper | None:
    """The paper of a note's `_bibtex`, as the build reads BibTeX; None when it has none
    that reads whole."""
    if not isinstance(bib, str):
        return None
    diags = Diagnostics(root=Path.cwd())
    papers = read_bib_text(Path("openreview.bib"), bib, diags)
    return papers[0] if len(papers) == 1 and not diags.has_errors() else None


def read_note_date(note: object) -> str:
    """The day (UTC) the paper was published (`pdate`), else put online (`odate`), else
    submitted (`cdate`)."""
    for name in ("pdate", "odate", "cdate"):
        stamp = dig(note, name)
        if isinstance(stamp, int) and not isinstance(stamp, bool) and stamp >= _EARLIEST:
            try:
                return datetime.fromtimestamp(stamp / 1000, timezone.utc).date().isoformat()
            except (OverflowError, OSError, ValueError):
                continue  # past the year 9999: no date
    return ""


def read_anthology_bibtex(bib: str, anthology_id: str) -> Found | None:
    """The ACL Anthology's BibTeX of one paper; ValueError when it is not one whole entry."""
    diags = Diagnostics(root=Path.cwd())
    papers = read_bib_text(Path(f"{anthology_id}.bib"), bib, diags)
    if diags.has_errors() or len(papers) != 1:
        # the reader's first problem, less its advice on fixing a file of one's own
        problem = next((d.message.split("; ")[0] for d in diags.errors()),
                       f"{len(papers)} entries")
        raise ValueError(f"the answer is not one BibTeX entry: {problem}")
    return paper_to_found(papers[0], "ACL Anthology",
                          pdf=f"{ACL_ANTHOLOGY}/{anthology_id}.pdf",
                          page=f"{ACL_ANTHOLOGY}/{anthology_id}/")


def paper_to_found(paper: Paper, source: str, pdf: str, page: str) -> Found:
    """A paper the BibTeX reader read, with the facts `add` writes as import-bib does."""
    return Found(source, front_matter_title(paper), tuple(
        Person(a.name, a.family, a.given) for a in paper.authors),
        paper.date.iso() if paper.date else "", paper.type, venue=paper.venue,
        venue_short=paper.venue_short or find_short(paper.venue)
        or (find_venue_short(paper.venue) if paper.venue else ""),
        volume=paper.volume, number=paper.number, pages=paper.pages,
        publisher=paper.publisher, isbn=paper.isbn if paper.type == "book" else "",
        doi=paper.doi, arxiv=paper.arxiv, pdf=pdf, page=page,
        abstract=abstract_markdown(paper.abstract_html, make_markdown()))
