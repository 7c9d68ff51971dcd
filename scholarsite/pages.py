"""Plan the site: which pages exist, with which template and which context.

One explicit context per page kind; every template gets `site` and `page`, plus its own keys.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from markupsafe import Markup

from .feeds import FEED_PATH, feed_view
from .metadata import DESCRIPTION_LIMIT, describe_citation, make_page_meta, shorten
from .models import Paper, Site
from .urls import page_root, split_site_link
from .views import fold_name, group_papers, paper_url, paper_view, used_notes


@dataclass(frozen=True)
class Page:
    """One output file: rendered from `template` with `context`, or `body` as it is."""

    path: str  # the URL path below the site root: '', 'publications/x/', 'robots.txt'
    template: str = ""
    context: dict | None = None
    body: str = ""
    # Which papers the page shows ('*' for all): live reload re-renders only what a change hits.
    depends: tuple[str, ...] = ()


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
                  "links": [profile_link(label, url) for label, url in owner.links]},
        "nav": [{"title": "Home", "url": ""}, {"title": "Publications", "url": "publications/"}],
        "feed": FEED_PATH,
    }


def profile_link(label: str, url: str) -> dict:
    url, internal = split_site_link(url)
    return {"label": label, "url": url, "internal": internal}


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


def plan_pages(site: Site) -> list[Page]:
    """Every page of the site, in a stable order."""
    owner_names = frozenset(fold_name(n) for n in site.config.owner.names())
    views = {p.slug: paper_view(p, site, owner_names) for p in site.papers}
    base = site_view(site)
    notes = used_notes(site)
    pages = [plan_home(site, base, views, notes), plan_publications(site, base, views, notes)]
    for paper in site.papers:
        pages.extend(plan_paper(site, base, views[paper.slug], notes))
    pages.append(Page("publications.bib", body="\n".join(v["bibtex"] for v in views.values()),
                      depends=("*",)))
    pages.append(Page("publications.ris", body="".join(v["ris"] for v in views.values()),
                      depends=("*",)))
    pages.append(Page(FEED_PATH, "feed.xml", {"site": base, "feed": feed_view(site, views)},
                      depends=("*",)))
    pages.append(plan_sitemap(site, base, views))
    pages.append(plan_sitemap_xml(site, base))
    pages.append(Page("robots.txt", "robots.txt",
                      {"site": base, "page": page_view("robots.txt", "", "robots", site)}))
    pages.append(Page("404.html", "404.html",
                      {"site": base, "page": page_view("404.html", "Page not found", "404", site,
                                                        absolute_links=True)}))
    pages.append(Page(".nojekyll", body=""))
    if site.config.cname:
        pages.append(Page("CNAME", body=site.config.cname + "\n"))
    return pages


def plan_home(site: Site, base: dict, views: dict[str, dict], notes: list[dict]) -> Page:
    selected = [views[p.slug] for p in site.papers if p.selected]
    recent = not selected
    shown = selected or [views[p.slug] for p in site.papers[:5]]
    context = {"site": base, "page": page_view("", site.config.title, "home", site),
               "bio_html": Markup(site.bio_html), "papers": shown, "papers_are_recent": recent,
               "notes": notes}
    return Page("", "home.html", context, depends=("*",))


def plan_publications(site: Site, base: dict, views: dict[str, dict], notes: list[dict]
                      ) -> Page:
    context = {"site": base, "page": page_view("publications/", "Publications", "publications",
                                               site),
               "groups": group_papers(site, views), "notes": notes,
               "count": len(site.papers)}
    return Page("publications/", "publications.html", context, depends=("*",))


def plan_paper(site: Site, base: dict, view: dict, notes: list[dict]) -> list[Page]:
    """The paper's page, and its citation in BibTeX and RIS beside it."""
    slug = view["slug"]
    paper = site.paper(slug)
    path = paper_url(slug)
    description = shorten(paper.abstract_text, DESCRIPTION_LIMIT) or describe_citation(paper)
    context = {"site": base,
               "page": page_view(path, view["title"], "paper", site, description=description,
                                 paper=paper),
               "paper": view, "notes": notes}
    return [Page(path, "paper.html", context, depends=(slug,)),
            Page(path + view["bibtex_file"], body=view["bibtex"], depends=(slug,)),
            Page(path + view["ris_file"], body=view["ris"], depends=(slug,))]


def plan_sitemap(site: Site, base: dict, views: dict[str, dict]) -> Page:
    sections = [
        {"title": "Pages", "links": [{"title": "Home", "url": ""},
                                     {"title": "Publications", "url": "publications/"},
                                     {"title": "Sitemap", "url": "sitemap/"}]},
        {"title": "Publications", "links": [{"title": v["title"], "url": v["url"]}
                                            for v in views.values()]},
    ]
    context = {"site": base, "page": page_view("sitemap/", "Sitemap", "sitemap", site),
               "sections": sections}
    return Page("sitemap/", "sitemap.html", context, depends=("*",))


def plan_sitemap_xml(site: Site, base: dict) -> Page:
    """Every HTML page with its lastmod taken from content dates, never from the clock."""
    newest = site.papers[0].date if site.papers else None
    def lastmod(date) -> str:  # noqa: E306 - sitemaps want a full date
        return f"{date.year:04d}-{date.month or 1:02d}-{date.day or 1:02d}" if date else ""
    entries = [{"loc": site.config.url, "lastmod": lastmod(newest)},
               {"loc": site.config.url + "publications/", "lastmod": lastmod(newest)},
               {"loc": site.config.url + "sitemap/", "lastmod": lastmod(newest)}]
    entries += [{"loc": site.config.url + paper_url(p.slug), "lastmod": lastmod(p.date)}
                for p in site.papers]
    context = {"site": base, "page": page_view("sitemap.xml", "", "sitemap-xml", site),
               "entries": entries}
    return Page("sitemap.xml", "sitemap.xml", context, depends=("*",))

