"""Plan the site: which pages exist, with which template and which context.

One planner per row of structure/kinds.py's table, run in the table's order; one explicit
context per page kind: every template gets `site` and `page`, plus its own keys.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial
from typing import Callable

from markupsafe import Markup

from ..models import Item, Paper, Site
from ..reads import ReadLog, plain
from ..reading.loader import watch_site
from ..reading.collections import PAGES, SCHEMA_BY_NAME, SCHEMAS, Schema, has_tags
from ..reading.besidenotebooks import notebook_schema
from ..reading.layout import PAPERS_DIR
from ..structure.kinds import EXPORTS, KIND, KINDS, paper_url, section_url
from ..structure.languages import not_found_elsewhere
from ..structure.urls import file_key, page_root
from ..views.cvpdf import CVFiles, cv_pdf_view
from .page import Page, new_page
from ..views.blog import blog_extras
from ..views.feeds import feed_view
from ..views.redirects import redirect_view
from ..views.editor import editor_config, editor_page
from ..views.itemviews import collection_view, cv_view, item_url, item_view, list_text_view
from ..views.metadata import DESCRIPTION_LIMIT, describe_citation, shorten
from ..views.search import make_facets, make_search_index
from ..views.entries import ENTRY
from ..views.views import count_summary, group_papers, make_views, shown_notes, used_notes
from .blog import list_collection_feeds, list_tag_indexes, list_tag_pages
from .people import list_lab_members, list_people_pages
from .frame import page_view, section_titles, site_view
from .sitemaps import sitemap_entries, sitemap_sections

HOME_NEWS = 5  # news items on the home page; the rest are on news/

# The kinds of page made of every paper's text in one field (Page.owners): a later build
# swaps a changed paper's text in them, so what they read of papers is not recorded.
TEXTS = frozenset({"search", "bibtex-all", "ris-all", "csl-all"})
# The kinds whose pages may be made when they are rendered (Page.make): made in bulk, from
# every paper, so that a build shares the work out among its workers.
DEFERRABLE = TEXTS | {"paper"}


@dataclass(frozen=True)
class Planning:
    """What the planners share: the site, its papers' views (in the site's order), what
    every page shows alike, and how to plan (see plan_pages)."""

    site: Site
    views: dict[str, dict]
    base: dict
    notes: list[dict]
    titles: dict[str, str]
    only: set[str] | None = None
    deferred: frozenset[str] = frozenset()  # kinds whose pages are made when rendered
    cv_files: CVFiles | None = None  # the CV's PDF and more, made before planning


def paper_frame(site: Site) -> tuple[dict, list[dict]]:
    """What a paper's own page shows besides its paper: the settings and menu every page
    shows, and the author-mark legend, which depends on every paper (fastpath/reuse.py's
    `keys`); `serve` plans every page again when it changes."""
    return site_view(site), used_notes(site)


def start_planning(site: Site, views: dict[str, dict], only: set[str] | None = None,
                   deferred: frozenset[str] = frozenset(), cv_files: CVFiles | None = None
                   ) -> Planning:
    return Planning(site, views, *paper_frame(site), section_titles(site), only, deferred,
                    cv_files)


def plan_pages(site: Site, views: dict[str, dict] | None = None,
               only: set[str] | None = None, deferred: frozenset[str] = frozenset(),
               cv_files: CVFiles | None = None, log: ReadLog | None = None) -> list[Page]:
    """Every page of the site, in a stable order: the table's, kind by kind.

    `views` are the papers' views in the site's order (the citation files and the search
    index list them so). The incremental rebuild keeps pages between builds: it passes the
    paper views it kept, and `only`, the slugs of the papers that changed, to have their
    own pages planned and every page that is not one paper's own (those are all planned
    each time). The kinds in `deferred` (of DEFERRABLE) are made when rendered
    (`Page.make`). `cv_files`: the CV's files (render/typeset.py). With `log`, what the
    planners of the pages neither a paper's own nor of TEXTS read of each paper and its
    view is noted there (scholarsite/reads.py), and what the frame reads (paper_frame).
    """
    views = make_views(site.papers, site.config) if views is None else views
    plan = start_planning(site, views, only, deferred, cv_files)
    watched = plan if log is None else watch_planning(plan, log)
    pages: list[Page] = []
    done: dict[int, object] = {}  # what plain() has seen: contexts share parts
    for kind in KINDS:
        if watched is plan or kind.per_paper or kind.key in TEXTS:
            pages.extend(PLANNERS[kind.key](plan, pages))
        else:
            pages.extend(replace(page, context=plain(page.context, done))
                         for page in PLANNERS[kind.key](watched, pages))
    return pages


def watch_planning(plan: Planning, log: ReadLog) -> Planning:
    """`plan` with stand-ins for its papers and views that note their reads in `log` (a
    paper's entries pass unnoted: their fragments are made again with the view)."""
    site = watch_site(plan.site, log)
    views = {slug: log.watch_mapping(view, slug, "view",
                                     lambda value: type(value) is dict and ENTRY in value)
             for slug, view in plan.views.items()}
    base, notes = plain(paper_frame(site))
    return replace(plan, site=site, views=views, base=base, notes=notes)


def plan_home(plan: Planning, planned: list[Page]) -> list[Page]:
    site, views = plan.site, plan.views
    selected = [views[p.slug] for p in site.papers if p.selected]
    shown = selected or [views[p.slug] for p in site.papers[:5]]
    context = {"site": plan.base, "page": page_view("", site.config.title, "home", site),
               "bio_html": Markup(site.bio_html), "papers": shown,
               "papers_are_recent": not selected, "notes": shown_notes(plan.notes, shown),
               "news": [item_view(i, SCHEMA_BY_NAME["news"], "", views, site.config.language)
                        for i in site.collection("news")[:HOME_NEWS]],
               "more_news": len(site.collection("news")) > HOME_NEWS,
               "news_title": plan.titles["news"], "citations": count_summary(site),
               "members": list_lab_members(site, plan.titles["people"])}
    return [new_page("home", context)]


def plan_publications(plan: Planning, planned: list[Page]) -> list[Page]:
    site = plan.site
    path = KIND["publications"].path
    context = {"site": plan.base, "page": page_view(path, plan.titles["publications"],
                                                    "publications", site),
               "groups": group_papers(site, plan.views), "notes": plan.notes,
               "count": len(site.papers), "facets": make_facets(site),
               "citations": count_summary(site),  # for the chart (`citation_chart`)
               "text": list_text_view(site.list_text("publications"), page_root(path),
                                      plan.base["language"])}
    return [new_page("publications", context)]


def plan_papers(plan: Planning, planned: list[Page]) -> list[Page]:
    """Each paper's page (of those asked for: see plan_pages)."""
    return [plan_paper(plan, paper) for paper in plan.site.papers
            if plan.only is None or paper.slug in plan.only]


def plan_paper(plan: Planning, paper: Paper) -> Page:
    make = partial(paper_context, plan, paper)
    if "paper" in plan.deferred:
        return new_page("paper", slug=paper.slug, make=make)
    return new_page("paper", make(), slug=paper.slug)


def paper_context(plan: Planning, paper: Paper) -> dict:
    view = plan.views[paper.slug]
    description = shorten(view["abstract_text"], DESCRIPTION_LIMIT) or describe_citation(paper, plan.site.config)
    return {"site": plan.base,
            "page": page_view(paper_url(paper.slug), view["title"], "paper", plan.site,
                              description=description, paper=paper),
            "paper": view, "notes": shown_notes(plan.notes, [view]),
            "notebook": notebook_view(plan, PAPERS_DIR, paper.slug, paper_url(paper.slug))}


def notebook_view(plan: Planning, collection: str, slug: str, path: str) -> dict | None:
    """The notebook beside a paper or a text (reading/besidenotebooks.py), as its page
    (at `path`) shows it; None when it has none."""
    notebook = plan.site.notebook(collection, slug)
    return item_view(notebook, notebook_schema(collection), page_root(path), plan.views,
                     plan.base["language"]) if notebook else None


def plan_people(plan: Planning, planned: list[Page]) -> list[Page]:
    """/people/ and, in its row, each person's page (plan/people.py)."""
    found = list_people_pages(plan.site, plan.views, plan.base, plan.notes, plan.titles)
    return [new_page(key, context, path=path) for key, path, context in found]


def plan_collections(plan: Planning, planned: list[Page]) -> list[Page]:
    """Each collection's list page, from its own template or the generic one."""
    pages = []
    for schema in SCHEMAS:
        items = plan.site.collection(schema.name)
        path = section_url(schema.name)
        text = list_text_view(plan.site.list_text(schema.name), page_root(path),
                              plan.base["language"])
        if items or text:
            shown = [item_view(item, schema, page_root(path), plan.views, plan.base["language"])
                     for item in items]
            title = plan.titles[schema.name]
            context = {"site": plan.base,
                       "page": page_view(path, title, "collection", plan.site),
                       "collection": collection_view(schema, title, shown), "text": text}
            pages.append(new_page("collection", context, path=path,
                                  template=(schema.list_template, "collection.html")))
    return pages


def plan_items(plan: Planning, planned: list[Page]) -> list[Page]:
    """Each item's page in the collections whose items have pages."""
    return [plan_item(plan, schema, item) for schema in SCHEMAS if schema.item_template
            for item in plan.site.collection(schema.name)]


def plan_free_pages(plan: Planning, planned: list[Page]) -> list[Page]:
    return [plan_item(plan, PAGES, page) for page in plan.site.pages]


def plan_item(plan: Planning, schema: Schema, item: Item) -> Page:
    """One item's page (a talk, a post, ...) or a free page."""
    path = item_url(item)
    view = item_view(item, schema, page_root(path), plan.views, plan.base["language"])
    if has_tags(schema):
        view.update(blog_extras(item, plan.site.collection(schema.name), page_root(path),
                                plan.base["language"]))
    key = "page" if schema is PAGES else "item"
    title = "" if schema is PAGES else plan.titles[schema.name]
    context = {"site": plan.base,
               "page": page_view(path, item.title, key, plan.site,
                                 description=view.get("description") or view["summary"]),
               "collection": collection_view(schema, title, []), "item": view,
               "notes": shown_notes(plan.notes, view.get("papers") or []),
               "notebook": notebook_view(plan, item.collection, item.slug, path)}
    templates = (schema.item_template,) if schema is PAGES else (schema.item_template,
                                                                  "item.html")
    return new_page(key, context, path=path, template=templates, depends=item.papers)


def plan_tag_indexes(plan: Planning, planned: list[Page]) -> list[Page]:
    return [new_page("tags", context, path=path)
            for path, context in list_tag_indexes(plan.site, plan.base, plan.titles)]


def plan_tag_pages(plan: Planning, planned: list[Page]) -> list[Page]:
    return [new_page("tag", context, path=path, template=templates) for path, context, templates
            in list_tag_pages(plan.site, plan.views, plan.base, plan.titles)]


def plan_collection_feeds(plan: Planning, planned: list[Page]) -> list[Page]:
    return [new_page("collection-feed", context, path=path)
            for path, context in list_collection_feeds(plan.site, plan.base, plan.titles)]


def plan_cv(plan: Planning, planned: list[Page]) -> list[Page]:
    site = plan.site
    if site.cv is None:
        return []
    context = {"site": plan.base,
               "page": page_view(KIND["cv"].path, plan.titles["cv"], "cv", site),
               "sections": cv_view(site.cv, site, plan.views), "notes": plan.notes,
               "pdf": cv_pdf_view(plan.cv_files), "citations": count_summary(site)}
    return [new_page("cv", context)]


def plan_search(plan: Planning, planned: list[Page]) -> list[Page]:
    """The search page, its index inline as JSON (search works from a site opened from
    disk): the pages planned before it (searchable kinds come first) and every paper."""
    contexts = [p.context for p in planned if p.context and "page" in p.context]
    papers = [plan.views[p.slug] for p in plan.site.papers]
    if "search" in plan.deferred:
        return [new_page("search", make=partial(search_context, plan, contexts, papers, True))]
    context, owners = search_context(plan, contexts, papers)
    return [new_page("search", context, owners=owners)]


def search_context(plan: Planning, contexts: list[dict], papers: list[dict], alone=False
                   ) -> tuple[dict, tuple[str, ...]] | dict:
    """The search page's context, and the slug of each index piece's paper (`alone`: not)."""
    pieces, owners = make_search_index(contexts, papers)
    page = page_view(KIND["search"].path, plan.titles["search"], "search", plan.site)
    context = {"site": plan.base, "page": page, "index_json": pieces}
    return context if alone else (context, owners)


def plan_sitemap(plan: Planning, planned: list[Page]) -> list[Page]:
    path = KIND["sitemap"].path
    context = {"site": plan.base,
               "page": page_view(path, plan.titles["sitemap"], "sitemap", plan.site),
               "sections": sitemap_sections(plan.site, plan.views, plan.titles)}
    return [new_page("sitemap", context)]


def plan_export(key: str) -> Callable[[Planning, list[Page]], list[Page]]:
    """A planner of the file of every paper's citation in one format, kept as its parts
    (each citation, the separators) for a rebuild to encode only what changed."""
    def plan_file(plan: Planning, planned: list[Page]) -> list[Page]:
        return [plan_export_file(plan.views, KIND[key].path, key in plan.deferred)]
    return plan_file


def plan_export_file(views: dict[str, dict], path: str, deferred: bool = False) -> Page:
    field, separator, head, tail = EXPORTS[path]
    key = next(kind.key for kind in KINDS if kind.path == path)
    make = partial(join_views, views, field, separator, head, tail)
    if deferred:
        return new_page(key, make=make)
    owners = join_views(views, "slug", "", "", "")  # whose each piece is: '' for none
    return new_page(key, parts=tuple(make()), owners=tuple(owners))


def join_views(views: dict[str, dict], key: str, sep: str, head: str, tail: str) -> list[str]:
    """`head`, each view's `key` with `sep` between them, and `tail`: a file's pieces."""
    pieces = [head]
    for view in views.values():
        pieces += [sep, view[key]] if len(pieces) > 1 else [view[key]]
    return pieces + [tail]


def plan_feed(plan: Planning, planned: list[Page]) -> list[Page]:
    return [new_page("feed", {"site": plan.base, "feed": feed_view(plan.site, plan.views)})]


def plan_sitemap_xml(plan: Planning, planned: list[Page]) -> list[Page]:
    """Every HTML page with its lastmod taken from content dates, never from the clock."""
    path = KIND["sitemap-xml"].path
    context = {"site": plan.base, "page": page_view(path, "", "sitemap-xml", plan.site),
               "entries": sitemap_entries(plan.site)}
    return [new_page("sitemap-xml", context)]


def plan_robots(plan: Planning, planned: list[Page]) -> list[Page]:
    path = KIND["robots"].path
    return [new_page("robots", {"site": plan.base,
                                "page": page_view(path, "", "robots", plan.site)})]


def plan_not_found(plan: Planning, planned: list[Page]) -> list[Page]:
    path = KIND["404"].path
    return [new_page("404", {"site": plan.base, "elsewhere": not_found_elsewhere(plan.site.config),
                             "page": page_view(path, "Page not found", "404", plan.site,
                                               absolute_links=True)})]


def plan_nojekyll(plan: Planning, planned: list[Page]) -> list[Page]:
    return [new_page("nojekyll", body="")]  # GitHub Pages serves the site as it is


def plan_redirects(plan: Planning, planned: list[Page]) -> list[Page]:
    """A small page at each old address; one that is a page of the site already is left
    to that page (check_redirects reports it)."""
    taken = {file_key(page.path) for page in planned}
    config = plan.site.config
    return [new_page("redirect", {"site": plan.base, "redirect": redirect_view(config, r),
                                  "page": page_view(r.old, "Moved", "redirect", plan.site)},
                     path=r.old)
            for r in config.redirects if file_key(r.old) not in taken]


def plan_cname(plan: Planning, planned: list[Page]) -> list[Page]:
    return [new_page("cname", body=f"{plan.site.config.cname}\n")] if plan.site.config.cname else []


def plan_editor(plan: Planning, planned: list[Page]) -> list[Page]:
    return [new_page("editor", body=editor_page(plan.site))] if plan.site.config.cms.editor else []


def plan_editor_config(plan: Planning, planned: list[Page]) -> list[Page]:
    site = plan.site
    return [new_page("editor-config", body=editor_config(site))] if site.config.cms.editor else []


# Each row of the table of kinds, planned. Search comes after the kinds it indexes.
PLANNERS: dict[str, Callable[[Planning, list[Page]], list[Page]]] = {
    "home": plan_home, "publications": plan_publications, "paper": plan_papers,
    "collection": plan_collections, "item": plan_items, "tags": plan_tag_indexes,
    "tag": plan_tag_pages, "collection-feed": plan_collection_feeds, "cv": plan_cv,
    "page": plan_free_pages, "search": plan_search, "sitemap": plan_sitemap,
    **{key: plan_export(key) for key in ("bibtex-all", "ris-all", "csl-all")},
    "feed": plan_feed, "sitemap-xml": plan_sitemap_xml, "robots": plan_robots,
    "404": plan_not_found, "nojekyll": plan_nojekyll, "cname": plan_cname,
    "redirect": plan_redirects, "editor": plan_editor, "editor-config": plan_editor_config, "people": plan_people, "person": lambda *_: [],
}
assert PLANNERS.keys() == KIND.keys(), "every kind of page has its planner"
assert all(not kind.searchable for kind in KINDS[[k.key for k in KINDS].index("search"):]), \
    "the search page indexes the pages planned before it"
