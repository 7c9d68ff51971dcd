"""What templates see of a paper, a person and the page being rendered: one TypedDict each,
the keys a template may read and what each holds. views.paper_view, people.person_view
and plan/frame.page_view make them; tests/test_viewtypes.py checks that each gives exactly
these keys, and that a paper's view carries every field of the paper's table
(models/forms.py) but those named in NOT_IN_PAPER_VIEW.

Every key is always there (templates render with StrictUndefined): '', [] or None when
the source gives nothing.
"""

from __future__ import annotations

from typing import TypedDict

from markupsafe import Markup

# A paper's fields that its view does not carry under their own name: in its exports
# (bibtex, ris, csl), or in the texts it shows in the page's language (title, abstract).
NOT_IN_PAPER_VIEW = ("isbn", "editors", "language", "translations", "bibtex_type", "extra")


class PaperView(TypedDict):
    slug: str
    url: str  # below the root of the page's language: 'publications/SLUG/'
    title: str  # in the page's language where the paper has a translation
    title_html: Markup
    abstract_html: Markup
    abstract_text: str
    authors: dict  # all, the short form and its notes (views.authors_view)
    venue: str
    venue_short: str
    venue_label: str  # the venue as lists show it: 'Name (ABBR)'
    venue_colour: dict | None  # the badge's colours; None: the theme's own
    type: str
    type_label: str  # in the page's language: 'Journal Article'
    date: str  # as precise as the source, in the page's language; the status without one
    date_iso: str
    status: str  # 'In press', in the page's language; '' for a paper out
    year: int | str  # the status where there is no year yet
    location: str
    tier: str
    category: str
    topics: list[str]
    topics_data: str  # the topics joined for the filters; made when read (derived.py)
    links: list[dict]  # kind, label, url, internal
    award: str
    note: str
    selected: bool
    volume: str
    number: str
    pages: str
    publisher: str
    institution: str
    doi: str
    citation: str  # the paper's own, or the one made in the page's language
    preview: dict | None  # sizes and files of its picture; None: none to show
    citations: dict | None  # its citation badge; None: no count to show
    bibtex: str
    bibtex_key: str
    bibtex_file: str  # made when a template reads it (derived.py)
    bibtex_href: str  # made when a template reads it (derived.py)
    ris: str
    ris_file: str  # made when a template reads it (derived.py)
    ris_href: str  # made when a template reads it (derived.py)
    csl: str
    csl_file: str  # made when a template reads it (derived.py)
    csl_href: str  # made when a template reads it (derived.py)
    coins: str
    entry_key: str  # names the view for the fragment cache (views/entries.py)
    feed_entry: dict
    search_json: Markup


class PersonView(TypedDict):
    slug: str
    name: str
    scripts: list[str]
    role: str
    url: str
    photo: dict  # by place ('card', 'page'); {} for an initials badge
    initials: str
    years: str
    alumni: bool
    now: str
    interests: list[str]
    links: list[dict]
    bio_html: Markup


class PageView(TypedDict):
    path: str  # below the root of the page's language
    title: str
    kind: str  # a key of structure/kinds.KINDS
    root: str  # prefixes every link to a page of its language ('../../')
    top: str  # prefixes every link to the site's files and assets
    canonical: str
    description: str
    languages: list[dict]  # the page in each of the site's languages; [] for one
    meta: dict  # Open Graph, Twitter, Highwire tags and JSON-LD
