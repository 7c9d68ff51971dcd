"""Plan the site: which pages exist, with which template and which context.

One explicit context per page kind; every template gets `site` and `page`, plus its own keys.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Callable
from urllib.parse import urlsplit

from markupsafe import Markup

from ..reading.collections import PAGES, SCHEMA_BY_NAME, SCHEMAS, Schema
from ..views.feeds import FEED_PATH, feed_view
from ..views.itemviews import collection_view, cv_view, item_url, item_view, profile_links
from ..views.metadata import DESCRIPTION_LIMIT, describe_citation, make_page_meta, shorten
from ..models import Item, Paper, PubDate, Site
from ..views.search import make_facets, make_search_index
from .urls import page_root, split_site_link
from ..views.views import group_papers, make_views, paper_url, used_notes

HOME_NEWS = 5  # news items on the home page; the rest are on news/
SITEMAP_PATH = "sitemap/"
SEARCH_PATH = "search/"
# The citation files of every paper: path -> (the view's field, what comes between papers).
EXPORTS = {"publications.bib": ("bibtex", "\n"), "publications.ris": ("ris", "")}


@dataclass(frozen=True)
class Page:
    """One output file: rendered from `template` with `context`, or `body` as it is."""

    path: str  # the URL path below the site root: '', 'publications/x/', 'robots.txt'
    # A template name, or names to try in order (a collection's own, then the generic one).
    template: str | tuple[str, ...] = ""
    context: dict | None = None
    body: str = ""
    parts: tuple[str, ...] = ()  # or the body as the texts it is joined from
    # Which papers the page shows ('*' for all): live reload re-renders only what a change hits.
    depends: tuple[str, ...] = ()
    # What makes the context (or, for a page without a template, the body) when the page is
    # rendered, in place of `context` or `body`: a build renders in forked workers, so the
    # work of making it is shared out too, and no process holds every page's at once.
    # A body is made as the pieces it is written from.
    make: Callable[[], dict | list[str]] | None = None

    def render_context(self) -> dict:
        return self.make() if self.make else (self.context or {})  # type: ignore[return-value]

    def render_body(self) -> str:
        return "".join(self.body_pieces())

    def body_pieces(self) -> list[str]:
        if self.make:
            return self.make()  # type: ignore[return-value]
        return list(self.parts) if self.parts else [self.body]


def section_url(key: str) -> str:
    """Where a section of the site lives: '' for home, 'talks/', 'cv/', 'about/'."""
    return "" if key == "home" else f"{key}/"


def section_titles(site: Site) -> dict[str, str]:
    """Each section's title: its default, or the label site.yaml's `nav` gives it."""
    titles = {"home": "Home", "publications": "Publications", "cv": "CV",
              "search": "Search", "sitemap": "Sitemap"}
    titles.update({s.name: s.title for s in SCHEMAS})
    titles.update({p.slug: p.title for p in site.pages})
    titles.update({e.key: e.title for e in site.config.nav if e.key and e.title})
    return titles


def make_nav(site: Site) -> list[dict]:
    """site.yaml's `nav` when given (sections with nothing to show left out), else the
    default: Home, Publications, the collections with items, CV, the free pages."""
    titles = section_titles(site)
    present = set(site.sections()) | {"search", "sitemap"}
    if not site.config.nav:
        return [{"title": titles[k], "url": section_url(k), "internal": True}
                for k in site.sections()]
    nav = []
    for entry in site.config.nav:
        if entry.url:
            url, internal = split_site_link(entry.url)
            nav.append({"title": entry.title, "url": url, "internal": internal})
        elif entry.key in present:
            nav.append({"title": titles[entry.key], "url": section_url(entry.key),
                        "internal": True})
    return nav


def site_view(site: Site) -> dict:
    config = site.config
    owner = config.owner
    return {
        "title": config.title,
        "description": config.description,
        "language": config.language,
        "url": config.url,
        "base_path": urlsplit(config.url).path or "/",
        "owner": {"name": owner.name, "position": owner.position,
                  "affiliation": owner.affiliation, "email": owner.email,
                  "photo": owner.photo, "links": profile_links(owner)},
        "nav": make_nav(site),
        "feed": FEED_PATH,
    }


def page_view(path: str, title: str, kind: str, site: Site, description: str = "",
              absolute_links: bool = False, paper: Paper | None = None) -> dict:
    """What every template knows about the page it renders, with its metadata for machines
    (Open Graph, Twitter, and on paper and home pages Highwire tags and JSON-LD).

    `root` prefixes every internal link: relative ('../../') so that the site works under
    any subpath and from disk; the 404 page, served at any depth, uses the absolute path.
    """
    root = urlsplit(site.config.url).path if absolute_links else page_root(path)
    canonical = site.config.url + path
    description = description or site.config.description
    shown_title = site.config.title if kind == "home" else title
    return {"path": path, "title": title, "kind": kind, "root": root,
            "canonical": canonical, "description": description,
            "meta": make_page_meta(site, shown_title, description, canonical, kind, paper)}


def make_paper_views(site: Site) -> dict[str, dict]:
    return make_views(site.papers, site.config)


def plan_pages(site: Site, views: dict[str, dict] | None = None,
               only: set[str] | None = None, deferred: bool = False) -> list[Page]:
    """Every page of the site, in a stable order.

    `views` are the papers' views in the site's order (the citation files and the search
    index list them so). The incremental rebuild keeps pages between builds: it passes the
    paper views it kept, and `only`, the slugs of the papers that changed, to have their
    own pages planned and every page that is not one paper's own (those are all planned
    each time). A paper's own pages show nothing else but the site's settings and menu and
    the author-mark legend. With `deferred`, the pages made in bulk (each paper's page, the
    lists of every paper's citation and the search index) are made when they are rendered
    (`Page.make`).
    """
    views = make_paper_views(site) if views is None else views
    base = site_view(site)
    notes = used_notes(site)
    titles = section_titles(site)
    pages = [plan_home(site, base, views, notes), plan_publications(site, base, views, notes)]
    for paper in site.papers:
        if only is None or paper.slug in only:
            pages.extend(plan_paper(site, base, paper, views[paper.slug], notes, deferred))
    for schema in SCHEMAS:
        items = site.collection(schema.name)
        if items:
            pages.append(plan_collection(site, base, schema, titles[schema.name], items,
                                         views))
            if schema.item_template:
                pages.extend(plan_item(site, base, schema, titles[schema.name], item, views,
                                       notes) for item in items)
    pages.extend(plan_item(site, base, PAGES, "", page, views, notes) for page in site.pages)
    if site.cv is not None:
        pages.append(plan_cv(site, base, views, titles["cv"], notes))
    pages.extend(plan_exports(views, deferred))
    pages.append(Page(FEED_PATH, "feed.xml", {"site": base, "feed": feed_view(site, views)},
                      depends=("*",)))
    pages.append(plan_sitemap(site, base, views))
    pages.append(plan_sitemap_xml(site, base))
    pages.append(Page("robots.txt", "robots.txt",
                      {"site": base, "page": page_view("robots.txt", "", "robots", site)}))
    pages.append(Page("404.html", "404.html",
                      {"site": base, "page": page_view("404.html", "Page not found", "404", site,
                                                        absolute_links=True)}))
    pages.append(plan_search(site, base, views, pages, deferred))
    pages.append(Page(".nojekyll", body=""))
    if site.config.cname:
        pages.append(Page("CNAME", body=site.config.cname + "\n"))
    return pages


def plan_exports(views: dict[str, dict], deferred: bool = False) -> list[Page]:
    """The citation files of every paper, as their parts (each paper's citation, and the
    separator between two): a rebuild writes them from those, encoding again only what
    changed. With `deferred`, the parts are made when the file is written."""
    pages = []
    for path, (field, separator) in EXPORTS.items():
        make = partial(join_views, views, field, separator)
        pages.append(Page(path, make=make, depends=("*",)) if deferred
                     else Page(path, parts=tuple(make()), depends=("*",)))
    return pages


def plan_home(site: Site, base: dict, views: dict[str, dict], notes: list[dict]) -> Page:
    selected = [views[p.slug] for p in site.papers if p.selected]
    recent = not selected
    shown = selected or [views[p.slug] for p in site.papers[:5]]
    news = SCHEMA_BY_NAME["news"]
    context = {"site": base, "page": page_view("", site.config.title, "home", site),
               "bio_html": Markup(site.bio_html), "papers": shown, "papers_are_recent": recent,
               "notes": notes,
               "news": [item_view(i, news, "", views)
                        for i in site.collection("news")[:HOME_NEWS]],
               "more_news": len(site.collection("news")) > HOME_NEWS,
               "news_title": section_titles(site)["news"]}
    return Page("", "home.html", context, depends=("*",))


def plan_publications(site: Site, base: dict, views: dict[str, dict], notes: list[dict]
                      ) -> Page:
    context = {"site": base, "page": page_view("publications/", "Publications", "publications",
                                               site),
               "groups": group_papers(site, views), "notes": notes,
               "count": len(site.papers), "facets": make_facets(site)}
    return Page("publications/", "publications.html", context, depends=("*",))


def join_views(views: dict[str, dict], key: str, separator: str) -> list[str]:
    """Each view's `key`, with `separator` between them: the pieces of a file."""
    pieces: list[str] = []
    for view in views.values():
        pieces += [separator, view[key]] if pieces else [view[key]]
    return pieces


def plan_paper(site: Site, base: dict, paper: Paper, view: dict, notes: list[dict],
               deferred: bool = False) -> list[Page]:
    """The paper's page, and its citation in BibTeX and RIS beside it."""
    slug = paper.slug
    path = paper_url(slug)
    make = partial(paper_context, site, base, paper, view, notes)
    page = Page(path, "paper.html", make=make, depends=(slug,)) if deferred else \
        Page(path, "paper.html", make(), depends=(slug,))
    return [page,
            Page(path + view["bibtex_file"], body=view["bibtex"], depends=(slug,)),
            Page(path + view["ris_file"], body=view["ris"], depends=(slug,))]


def paper_context(site: Site, base: dict, paper: Paper, view: dict, notes: list[dict]
                  ) -> dict:
    path = paper_url(paper.slug)
    description = shorten(paper.abstract_text, DESCRIPTION_LIMIT) or describe_citation(paper)
    return {"site": base,
            "page": page_view(path, view["title"], "paper", site, description=description,
                              paper=paper),
            "paper": view, "notes": notes}


def plan_collection(site: Site, base: dict, schema: Schema, title: str,
                    items: tuple[Item, ...], views: dict[str, dict]) -> Page:
    """A collection's list page, from its own template or the generic collection.html."""
    path = section_url(schema.name)
    root = page_root(path)
    shown = [item_view(item, schema, root, views) for item in items]
    context = {"site": base, "page": page_view(path, title, "collection", site),
               "collection": collection_view(schema, title, shown)}
    return Page(path, (schema.list_template, "collection.html"), context)


def plan_item(site: Site, base: dict, schema: Schema, title: str, item: Item,
              views: dict[str, dict], notes: list[dict]) -> Page:
    """One item's page (a talk, a post, ...) or a free page."""
    path = item_url(item)
    view = item_view(item, schema, page_root(path), views)
    kind = "page" if schema is PAGES else "item"
    context = {"site": base,
               "page": page_view(path, item.title, kind, site,
                                 description=view.get("description") or view["summary"]),
               "collection": collection_view(schema, title, []), "item": view,
               "notes": notes}
    templates = (schema.item_template,) if schema is PAGES else (schema.item_template,
                                                                  "item.html")
    return Page(path, templates, context, depends=item.papers)


def plan_cv(site: Site, base: dict, views: dict[str, dict], title: str,
            notes: list[dict]) -> Page:
    context = {"site": base, "page": page_view("cv/", title, "cv", site),
               "sections": cv_view(site.cv, site, views), "notes": notes}
    return Page("cv/", "cv.html", context, depends=("*",))


def sitemap_sections(site: Site, views: dict[str, dict]) -> list[dict]:
    """Every HTML page, grouped: the site's own pages, then papers, then each collection."""
    titles = section_titles(site)
    keys = site.sections() + ["search", "sitemap"]
    sections = [{"title": "Pages",
                 "links": [{"title": titles[k], "url": section_url(k)} for k in keys]}]
    if views:
        sections.append({"title": titles["publications"],
                         "links": [{"title": v["title"], "url": v["url"]}
                                   for v in views.values()]})
    for schema in SCHEMAS:
        items = site.collection(schema.name)
        if items and schema.item_template:
            sections.append({"title": titles[schema.name],
                             "links": [{"title": i.title, "url": item_url(i)} for i in items]})
    return sections


def plan_sitemap(site: Site, base: dict, views: dict[str, dict]) -> Page:
    context = {"site": base, "page": page_view("sitemap/", "Sitemap", "sitemap", site),
               "sections": sitemap_sections(site, views)}
    return Page(SITEMAP_PATH, "sitemap.html", context, depends=("*",))


def sitemap_date(*dates: PubDate | None) -> str:
    """The newest of `dates` as a full date (sitemaps want one); '' when none is known."""
    known = [d for d in dates if d is not None]
    if not known:
        return ""
    return full_date(max(known, key=PubDate.sort_key))


def full_date(date: PubDate) -> str:
    """YYYY-MM-DD, the first month or day standing in for one the source does not give."""
    return f"{date.year:04d}-{date.month or 1:02d}-{date.day or 1:02d}"


def plan_search(site: Site, base: dict, views: dict[str, dict], planned: list[Page],
                deferred: bool = False) -> Page:
    """The search page carries its index inline, as JSON: search works without a server,
    even from a site opened from disk, where browsers refuse to fetch a separate file."""
    contexts = [p.context for p in planned if p.context and "page" in p.context]
    papers = [views[p.slug] for p in site.papers]
    make = partial(search_context, site, base, contexts, papers)
    if deferred:
        return Page(SEARCH_PATH, "search.html", make=make, depends=("*",))
    return Page(SEARCH_PATH, "search.html", make(), depends=("*",))


def search_context(site: Site, base: dict, contexts: list[dict], papers: list[dict]) -> dict:
    return {"site": base, "page": page_view(SEARCH_PATH, "Search", "search", site),
            "index_json": make_search_index(contexts, papers)}


def plan_sitemap_xml(site: Site, base: dict) -> Page:
    """Every HTML page with its lastmod taken from content dates, never from the clock."""
    paper_dates = [p.date for p in site.papers]
    newest_paper = sitemap_date(*paper_dates)  # once: a site may have thousands of papers
    newest = sitemap_date(*paper_dates, *(i.date for i in site.items))
    pairs = [("", newest), ("publications/", newest_paper), ("search/", newest),
             ("sitemap/", newest)]
    pairs += [(paper_url(p.slug), full_date(p.date)) for p in site.papers]
    for schema in SCHEMAS:
        items = site.collection(schema.name)
        if items:
            pairs.append((section_url(schema.name), sitemap_date(*(i.date for i in items))))
        if items and schema.item_template:
            pairs += [(item_url(i), sitemap_date(i.date)) for i in items]
    if site.cv is not None:
        pairs.append(("cv/", newest_paper))
    pairs += [(item_url(p), "") for p in site.pages]
    entries = [{"loc": site.config.url + path, "lastmod": lastmod} for path, lastmod in pairs]
    context = {"site": base, "page": page_view("sitemap.xml", "", "sitemap-xml", site),
               "entries": entries}
    return Page("sitemap.xml", "sitemap.xml", context, depends=("*",))

