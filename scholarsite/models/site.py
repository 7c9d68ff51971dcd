"""The content model of a site: its settings, collections, CV, people, and the `Site`."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .papers import Paper, PubDate


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
class LabConfig:
    """site.yaml's `lab`: the site is a group's, whose home page is the lab's (its name,
    picture, mission and people) rather than the owner's profile."""
    name: str  # the home's heading and the footer's ©
    picture: str = ""  # a logo or group photo: 'files/NAME', or ''


@dataclass(frozen=True)
class TierRow:
    """One venue of a tier table: its tier, as shown, and its names (full and short)."""
    tier: str
    names: tuple[str, ...]
    line: int  # where the table names it


@dataclass(frozen=True)
class TierTable:
    """A list of venue tiers (site.yaml's `publications.venue_tiers`): the shipped CCF
    list (name 'ccf', no rows here: reading/settings/venues.py has it), or the user's."""
    name: str  # 'ccf', or the table's file below content/tiers/
    rows: tuple[TierRow, ...] = ()


@dataclass(frozen=True)
class PublicationsConfig:  # site.yaml's `publications`; defaults: reading/settings/config.py
    group_by: str  # category | year | type | none
    categories: tuple[str, ...]
    author_limit: int | None  # None: every author
    author_notes: tuple[tuple[str, str], ...]  # (mark, meaning)
    venue_tiers: tuple[TierTable, ...]  # asked in turn for papers without a tier; (): none
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
class CmsConfig:
    """site.yaml's `cms`: the browser editor at /admin/ (views/editor.py); editor ''
    when the site has none."""
    editor: str = ""  # sveltia | decap
    repo: str = ""  # owner/name on GitHub, where the editor commits
    branch: str = "main"
    auth: str = ""  # the OAuth proxy's https address ('' : sign in with a token)


@dataclass(frozen=True)
class CommentsConfig:
    """site.yaml's `comments`: opt-in, through giscus (GitHub Discussions); repo '' shows
    none. Loaded only when a reader asks (templates/assets/comments.js)."""
    repo: str = ""  # owner/name
    repo_id: str = ""
    category: str = ""
    category_id: str = ""
    collections: tuple[str, ...] = ("posts",)  # whose items show them unless one says no


@dataclass(frozen=True)
class SourcesConfig:
    """site.yaml's `sources`: where `update` fetches papers ('' for none), and the
    e-mail address its requests carry (the owner's when not given)."""

    dblp: str = ""  # a DBLP person id, such as 12/3456
    orcid: str = ""  # an ORCID iD, such as 0000-0002-1825-0097
    contact: str = ""
    openalex: str = ""  # an OpenAlex author id (A5023888391) or an ORCID iD
    inspire: str = ""  # an INSPIRE-HEP author identifier (BAI), such as E.Witten.1
    arxiv: str = ""  # an arXiv author identifier (lovelace_a_1), an ORCID iD or a search
    pubmed: str = ""  # a PubMed search, or an ORCID iD
    crossref: str = ""  # an ORCID iD, as Crossref's `orcid` filter takes it


@dataclass(frozen=True)
class CitationCount:
    """One paper's citation count, from content/citations.yaml (written by `update`)."""
    slug: str
    count: int
    source: str  # openalex | semantic-scholar
    work_id: str  # the source's id of the work, such as W2741809807
    fetched: str  # YYYY-MM-DD
    line: int = 0  # where citations.yaml names the paper
    by_year: tuple[tuple[int, int], ...] = ()  # (year, citations that year), oldest first


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
    lab: LabConfig | None = None  # None: the home page is the owner's profile
    citation_chart: str = ""  # home | publications: where the site's chart is; '': none
    comments: CommentsConfig = CommentsConfig()
    cms: CmsConfig = CmsConfig()


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
    comments: bool | None = None  # its own `comments:`; None: as site.yaml's `comments.collections` says
    language: str = ""  # the tag of what it is written in; '' until the loader gives the site's first
    # Files published beside its page, by name: a notebook's pictures (reading/notebooks.py).
    files: tuple[tuple[str, bytes], ...] = ()

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
    # A list page's own text: pages/publications.md (or a collection's name) with `place`
    # ('above' the list the build makes, or 'instead' of it), by slug; no page of its own.
    list_texts: tuple[Item, ...] = ()
    cv: CV | None = None
    people: tuple[Person, ...] = ()  # by role, then name (roster.py)
    variants: tuple[Variant, ...] = ()  # index.zh.md, pages/x.zh.md, cv.zh.yaml, ...
    # The notebooks beside papers and texts (publications/x.ipynb, projects/x.ipynb beside
    # projects/x.md: reading/besidenotebooks.py), each an item of that folder and slug.
    notebooks: tuple[Item, ...] = ()

    def paper(self, slug: str) -> Paper:
        return next(paper for paper in self.papers if paper.slug == slug)

    def notebook(self, collection: str, slug: str) -> Item | None:
        return next((item for item in self.notebooks
                     if item.collection == collection and item.slug == slug), None)

    def list_text(self, name: str) -> Item | None:
        return next((page for page in self.list_texts if page.slug == name), None)

    def collection(self, name: str) -> tuple[Item, ...]:
        return tuple(item for item in self.items if item.collection == name)
