"""The content model: what a site means, independent of where it was read from.

Readers (Markdown front matter, BibTeX) build these once; nothing mutates them afterwards.
A paper from Markdown and a paper from BibTeX are the same `Paper`."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August",
               "September", "October", "November", "December")

# Each type's heading where papers are grouped by type, and its name in search results.
TYPE_LABELS = {
    "conference": "Conference Papers", "journal": "Journal Articles", "preprint": "Preprints",
    "report": "Technical Reports", "thesis": "Theses", "book": "Books",
    "chapter": "Book Chapters", "patent": "Patents", "other": "Other",
}
PAPER_TYPES = ("conference", "journal", "preprint", "report", "thesis", "book", "chapter", "patent", "other")

# Joins a paper's topics in the publication filters' data (so no topic may hold it).
TOPIC_SEPARATOR = "|"

# The link kinds a paper may carry, in the order they are shown.
LINK_KINDS = ("pdf", "code", "slides", "video", "poster", "supp", "html", "doi", "arxiv", "url")


@dataclass(frozen=True, order=True)
class PubDate:
    """A publication date as precise as the source gives it: a year, a month, or a day."""
    year: int
    month: int | None = None
    day: int | None = None

    def sort_key(self) -> tuple[int, int, int]:
        return (self.year, self.month or 0, self.day or 0)

    def iso(self) -> str:
        """YYYY, YYYY-MM or YYYY-MM-DD: the precision of the source, no more."""
        parts = [f"{self.year:04d}"]
        if self.month:
            parts.append(f"{self.month:02d}")
            if self.day:
                parts.append(f"{self.day:02d}")
        return "-".join(parts)

    def full(self) -> str:
        """YYYY-MM-DD, a missing month or day as the first: for sitemaps, Atom."""
        return f"{self.year:04d}-{self.month or 1:02d}-{self.day or 1:02d}"

    def human(self) -> str:
        """'July 2026', '3 July 2026' or '2026'."""
        if not self.month:
            return str(self.year)
        month = MONTH_NAMES[self.month - 1]
        return f"{self.day} {month} {self.year}" if self.day else f"{month} {self.year}"


@dataclass(frozen=True)
class Author:
    """One author as shown: the full name, and the markers (e.g. '*', '†') that follow it."""
    name: str
    marks: tuple[str, ...] = ()
    # Family and given names when the source splits them (BibTeX does); used by exports.
    family: str = ""
    given: str = ""

    def family_name(self) -> str:
        if self.family:
            return self.family
        return self.name.rsplit(" ", 1)[-1]

    def given_names(self) -> str:
        if self.family:
            return self.given
        parts = self.name.rsplit(" ", 1)
        return parts[0] if len(parts) == 2 else ""


@dataclass(frozen=True)
class Link:
    kind: str  # one of LINK_KINDS, or "more": a link of `links.more`, shown by its `label`
    url: str
    label: str = ""


@dataclass(frozen=True)
class Preview:
    """A paper's preview picture as its source names it: 'files/REL' (a file of
    content/files/), or a bare name as al-folio writes it (views/looks.py finds the file),
    and the line that names it, where a problem with the file is reported."""
    name: str
    line: int = field(compare=False)  # where, not what: papers compare without it


@dataclass(frozen=True)
class Paper:
    slug: str
    title: str
    authors: tuple[Author, ...]
    date: PubDate | None  # None for a paper with a `status` and no year yet, or undated
    type: str
    source: Path  # the file the paper was read from
    line: int  # the line where the paper starts in that file (1-based)
    venue: str = ""
    venue_short: str = ""
    location: str = ""
    tier: str = ""
    category: str = ""
    topics: tuple[str, ...] = ()
    links: tuple[Link, ...] = ()
    citation: str = ""  # an explicit recommended citation; overrides the generated one
    selected: bool = False
    award: str = ""
    note: str = ""
    more_authors: bool = False  # "et al.": the source lists only the first authors
    volume: str = ""  # this and what follows, to `arxiv`: for exports and Google Scholar
    number: str = ""
    pages: str = ""
    publisher: str = ""
    institution: str = ""  # a report's, a thesis's university
    isbn: str = ""  # a book's, or the book a chapter or proceedings paper is in
    editors: tuple[Author, ...] = ()  # of the book or proceedings the paper is in
    doi: str = ""
    arxiv: str = ""
    abstract_html: str = ""  # ready to insert: rendered Markdown, or escaped BibTeX text
    abstract_text: str = ""  # plain text, for meta descriptions and search
    # The title as HTML with its math as MathML; '' when it has none (`title` is then
    # all there is). `title` is always plain text, each formula in Unicode.
    title_html: str = ""
    bibtex_key: str = ""
    bibtex_type: str = ""  # set for a paper read (or imported) from BibTeX
    # Any other field the source had, kept so that exports lose nothing. For a paper read
    # from BibTeX: all of its entry's fields as written, which its BibTeX export repeats.
    extra: tuple[tuple[str, str], ...] = ()
    preview: Preview | None = None  # shown beside the paper in lists and on its page
    translations: tuple[tuple[str, str, str, str], ...] = ()  # (tag, title, abstract html, text)
    language: str = ""  # the tag of what it is written in; '' until the loader gives the site's first
    status: str = ""  # reading/settings/fields.PUB_STATUSES ('in press'); '' when published

    def sort_key(self) -> tuple:  # newest first within a group, ties by slug: a total order
        # No year yet (a status): newest; undated (a web page, no status): after every year.
        y, m, d = self.date.sort_key() if self.date else (10_000 if self.status else -1, 0, 0)
        return (-y, -m, -d, self.slug)

    def link(self, kind: str) -> str:
        for link in self.links:
            if link.kind == kind:
                return link.url
        return ""


@dataclass(frozen=True)
class Owner:
    """The person the site is about."""
    name: str
    aliases: tuple[str, ...] = ()
    position: str = ""
    affiliation: str = ""
    email: str = ""
    links: tuple[tuple[str, str], ...] = ()  # (label, url), in the order given
    photo: str = ""  # a site-relative path below files/, such as 'files/me.jpg'
    scripts: tuple[tuple[str, str], ...] = ()  # (language, the name written in it)

    def names(self) -> tuple[str, ...]:
        others = tuple(n for _, n in self.scripts if n != self.name and n not in self.aliases)
        return (self.name, *self.aliases, *others)


@dataclass(frozen=True)
class PublicationsConfig:  # site.yaml's `publications`; defaults: reading/settings/config.py
    group_by: str  # category | year | type | none
    categories: tuple[str, ...]
    author_limit: int | None  # None: every author
    author_notes: tuple[tuple[str, str], ...]  # (mark, meaning)
    venue_tiers: bool  # look up CCF ranks for papers without a tier
    feed_limit: int | None  # the newest papers in /feed.xml; None: all of them


@dataclass(frozen=True)
class NavEntry:
    """One navigation entry from site.yaml: a section of the site by key, or an outside URL."""
    key: str  # 'home', 'publications', 'cv', a collection, a free page's slug; '' for a URL
    title: str = ""  # '' for the section's own title
    url: str = ""  # only for links that are not a section of the site
    line: int = 0  # where site.yaml names it, for errors found once the content is read


@dataclass(frozen=True)
class ThemeConfig:
    """site.yaml's `theme`: the look. Accents are '#rrggbb', already raised to WCAG AA
    contrast for each mode; '' keeps the theme's own."""
    accent: str  # on the light background
    accent_dark: str  # on the dark background
    font: str  # sans | serif | humanist
    favicon: str  # 'files/NAME', or '' for the generated icon
    dark_mode: str  # auto | light | dark
    style: str  # profile (a personal page) | compact (a bibliography)
    venue_colours: tuple[tuple[str, str, str], ...]  # site.yaml's own (key, light, dark): venuecolours.py


@dataclass(frozen=True)
class AnalyticsConfig:
    """site.yaml's `analytics`: opt-in; provider '' loads nothing."""
    provider: str = ""  # goatcounter | plausible | google
    id: str = ""


@dataclass(frozen=True)
class SourcesConfig:
    """site.yaml's `sources`: where `update` fetches papers ('' for none), and the
    e-mail address its requests carry (the owner's when not given)."""

    dblp: str = ""  # a DBLP person id, such as 12/3456
    orcid: str = ""  # an ORCID iD, such as 0000-0002-1825-0097
    contact: str = ""


@dataclass(frozen=True)
class CitationCount:
    """One paper's citation count, from content/citations.yaml (written by `update`)."""
    slug: str
    count: int
    source: str  # openalex | semantic-scholar
    work_id: str  # the source's id of the work, such as W2741809807
    fetched: str  # YYYY-MM-DD
    line: int = 0  # where citations.yaml names the paper


@dataclass(frozen=True)
class Redirect:
    """An old address that sends visitors on (site.yaml's `redirects`, as `migrate` writes
    them): a page of this site, or another site's address."""

    old: str  # the path below the site root: 'publication/2020-x/' or 'pubs/x.html'
    target: str  # a path below the site root ('publications/x/'), or an absolute URL
    line: int  # where site.yaml names it


@dataclass(frozen=True)
class AuthorLink:
    """A name linked in author lists: a person here (`person`, their slug) or elsewhere."""
    names: tuple[str, ...]  # the main name first, then its other written forms
    url: str
    person: str = ""


@dataclass(frozen=True)
class SiteConfig:  # site.yaml, read: only reading/settings/config.py knows a setting's default
    title: str
    url: str  # absolute base URL, always ending in "/"
    owner: Owner
    description: str
    language: str  # the language of the pages being made (a BCP 47 tag)
    languages: tuple[str, ...]  # a site in several: all, the default first; () for one
    strings: tuple[tuple[str, str, str], ...]  # (language, English, own wording)
    texts: tuple[tuple[str, str, str], ...]  # (setting, language, text): title, ... per language
    publications: PublicationsConfig
    cname: str
    nav: tuple[NavEntry, ...]  # empty: the default navigation
    theme: ThemeConfig
    analytics: AnalyticsConfig
    sources: SourcesConfig
    citations: str  # openalex | semantic-scholar; '': no counts shown
    citation_counts: tuple[CitationCount, ...]  # by slug; read only when `citations` is set
    redirects: tuple[Redirect, ...]
    people_roles: tuple[str, ...]  # site.yaml's people.roles: the order of /people/
    author_links: tuple[AuthorLink, ...] = ()  # the people's and co-authors' (roster.py)


@dataclass(frozen=True)
class Item:
    """One entry of a collection (a talk, a course, a project, a news item, a post) or a free
    page. What fields it may carry is the collection's schema (collections.SCHEMAS)."""

    collection: str  # 'talks', 'teaching', 'projects', 'news', 'posts', or 'pages'
    slug: str
    title: str  # may be '' only for news, whose text is the item
    source: Path
    line: int
    date: PubDate | None = None
    text: tuple[tuple[str, str], ...] = ()  # one-line fields, only those given
    lists: tuple[tuple[str, tuple[str, ...]], ...] = ()  # list fields such as tags
    links: tuple[tuple[str, str], ...] = ()  # (label, url), in the order shown
    papers: tuple[str, ...] = ()  # slugs of related papers, all known
    draft: bool = False  # shown by serve only (reading/settings/publishing.py)
    # Rendered Markdown; relative links carry ROOT_MARKER, replaced by each page's root.
    body_html: str = ""
    body_text: str = ""  # plain text, for descriptions
    toc_html: str = ""  # the table of contents, when the text asks for one (`toc: true`)
    language: str = ""  # the tag of what it is written in; '' until the loader gives the site's first

    def field(self, name: str) -> str:
        return dict(self.text).get(name, "")

    def items_of(self, name: str) -> tuple[str, ...]:
        return dict(self.lists).get(name, ())

    def sort_key(self) -> tuple:
        """Newest first; undated items after dated ones; ties by slug."""
        if self.date is None:
            return (1, 0, 0, 0, self.slug)
        y, m, d = self.date.sort_key()
        return (0, -y, -m, -d, self.slug)


@dataclass(frozen=True)
class CVEntry:
    """One line of a CV section: what, where, when, and labelled details."""
    title: str
    org: str = ""
    location: str = ""
    when: str = ""  # '2014–2019', '2021–present', '2023'
    details: tuple[tuple[str, str], ...] = ()  # (label, text)
    line: int = 0  # where cv.yaml has it (0: not from cv.yaml)
    # Its dates as ISO text ('2019', '2019-09'; end 'present' for what goes on), for machines
    # (the JSON Resume export); '' when not given.
    start: str = ""
    end: str = ""
    person: str = ""  # a student's slug in content/people/, whose page the CV links


@dataclass(frozen=True)
class CVSection:
    key: str  # 'education', 'positions', ...
    title: str
    entries: tuple[CVEntry, ...]


@dataclass(frozen=True)
class CVPdfSettings:
    """cv.yaml's `pdf:`, the owner's choices for the CV's PDF (views/cvpdf.py)."""
    publications: str = "all"  # all | selected
    paper: str = "a4"  # a4 | letter
    font: str = "serif"  # serif | sans
    tiers: bool = True  # each paper's tier beside its venue
    line: int = 0  # where cv.yaml says `pdf:` (or 1), for problems found when typesetting


@dataclass(frozen=True)
class CV:
    """content/cv.yaml; the publications come from the paper files, not from here."""
    sections: tuple[CVSection, ...]
    source: Path
    pdf: CVPdfSettings = field(default_factory=CVPdfSettings)
    lines: tuple[tuple[str, int], ...] = ()  # each section's line in cv.yaml, by key

    def section(self, key: str) -> CVSection | None:
        return next((s for s in self.sections if s.key == key), None)


@dataclass(frozen=True)
class Person:
    """A member of the lab, present or past (alumni): content/people/SLUG.md."""
    slug: str
    name: str
    role: str
    source: Path
    aliases: tuple[str, ...] = ()  # other written forms, matched in author lists
    scripts: tuple[str, ...] = ()  # the name in other scripts: shown, and matched too
    photo: str = ""  # 'files/...'; '' for an initials badge
    start: PubDate | None = None
    end: PubDate | None = None
    alumni: bool = False  # `end` is before the build's day
    now: str = ""  # where an alumnus went
    links: tuple[tuple[str, str], ...] = ()  # (label, url)
    interests: tuple[str, ...] = ()
    bio_html: str = ""  # rendered Markdown; relative links carry ROOT_MARKER


@dataclass(frozen=True)
class Variant:
    """A site's texts in another language, each in place of the default's of its slug."""
    language: str
    bio_html: str = ""
    items: tuple[Item, ...] = ()  # of every collection, and the free pages
    cv: CV | None = None


@dataclass(frozen=True)
class Site:
    """Everything a build renders, loaded and validated."""
    config: SiteConfig
    papers: tuple[Paper, ...]  # sorted by Paper.sort_key
    bio_html: str = ""
    content_dir: Path = Path("content")
    files: tuple[Path, ...] = ()  # user files to copy as they are, relative to content_dir/files
    items: tuple[Item, ...] = ()  # every collection's items, by collection, then Item.sort_key
    pages: tuple[Item, ...] = ()  # free pages from content/pages/, by slug
    cv: CV | None = None
    people: tuple[Person, ...] = ()  # by role, then name (roster.py)
    variants: tuple[Variant, ...] = ()  # index.zh.md, pages/x.zh.md, cv.zh.yaml, ...

    def paper(self, slug: str) -> Paper:
        return next(paper for paper in self.papers if paper.slug == slug)

    def collection(self, name: str) -> tuple[Item, ...]:
        return tuple(item for item in self.items if item.collection == name)
