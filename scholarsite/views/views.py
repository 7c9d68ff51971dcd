"""Plain views of the model for templates: what a page shows, already decided.

Templates never reach into the model; they get these dicts, built in one place.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from urllib.parse import urlsplit

from markupsafe import Markup, escape

from .citations import (drop_date, format_citation, format_pages, make_bibtex, make_bibtex_key,
                        paper_year, status_label, venue_label)
from .entries import mark_entry
from .feeds import feed_entry
from .looks import preview_view
from ..structure.languages import Messages, human_date, messages_for
from ..models.wording import N_
from ..models import (PAPER_TYPES, TYPE_LABELS, Author, AuthorLink,
                      CitationCount, Owner, Paper, Site, SiteConfig)
from ..reading.settings.fields import PUB_STATUSES, STATUS_LABELS
from ..reading.people import find_author_link, is_owner
from ..reading.settings.venuecolours import find_venue_colour
from .citechart import PAPER_FRAME, SITE_FRAME, draw_chart, list_figures, sum_by_year
from .coins import make_coins
from .csl import make_csl
from .ris import make_ris
from .rooted import is_same_language, make_rooted_html, mark_language
from .search import paper_search_json
from .viewtypes import PaperView
from ..structure.kinds import paper_url
from ..structure.urls import absolute_url, split_site_link

LINK_LABELS = {
    "pdf": N_("PDF"), "code": N_("Code"), "slides": N_("Slides"), "video": N_("Video"),
    "poster": N_("Poster"), "supp": N_("Supplement"), "html": N_("Web"), "doi": N_("DOI"),
    "arxiv": N_("arXiv"), "url": N_("Link"),
}
OTHER_GROUP = N_("Other")
# One paper's type, as its page names it (TYPE_LABELS name groups of them).
TYPE_NAMES = {
    "conference": N_("Conference Paper"), "journal": N_("Journal Article"),
    "preprint": N_("Preprint"), "report": N_("Technical Report"), "thesis": N_("Thesis"),
    "book": N_("Book"), "chapter": N_("Book Chapter"), "patent": N_("Patent"),
    "other": N_("Other"),
}
# Where a citation count's work is shown, by site.yaml's `citations`: its name, its page.
COUNT_SOURCES = {"openalex": ("OpenAlex", "https://openalex.org/works/{}"),
                 "semantic-scholar": ("Semantic Scholar",
                                      "https://www.semanticscholar.org/paper/{}")}


def make_anchor(text: str) -> str:
    """An id for a heading: lowercase words joined by hyphens ('LLM Serving' -> 'llm-serving')."""
    words = re.findall(r"\w+", unicodedata.normalize("NFKC", text).casefold())
    return "-".join(words) or "group"


def author_view(author: Author, owner: Owner, links: tuple[AuthorLink, ...] = ()) -> dict:
    """An author, linked to their page when they are a person of the lab (`person`, their
    slug; the link below the site root) or a co-author of coauthors.yaml."""
    link = find_author_link(author, links) if links else None
    return shared_author_view(author.name, author.marks, is_owner(author, owner),
                              link.url if link else "", link.person if link else "")


@functools.lru_cache(maxsize=8192)
def shared_author_view(name: str, marks: tuple[str, ...], is_owner: bool, url: str = "",
                       person: str = "") -> dict:
    """One view per co-author, shared by all their papers (templates only read views).
    Every key a template tests is present: a missing one costs Jinja two exceptions."""
    return {"name": name, "marks": list(marks), "is_owner": is_owner, "ellipsis": False,
            "url": url, "internal": bool(person), "person": person}


def linked_people(view: dict) -> tuple[str, ...]:
    """The slugs of the lab's people among a paper's authors (its view's): the person
    pages that list the paper. Incremental builds compare them before and after an edit."""
    return tuple(sorted({a["person"] for a in view["authors"]["all"] if a["person"]}))


def authors_view(paper: Paper, owner: Owner, limit: int | None,
                 links: tuple[AuthorLink, ...] = ()) -> dict:
    """All authors, and when the list is longer than `limit`, the short form: `limit` names,
    then 'and K more authors' (al-folio's). The owner always stays in view: when they come
    after the first `limit`, they take the last place ('A, B, …, Owner, and K more'), so
    that `limit` names are shown and K is always the rest."""
    full = [author_view(a, owner, links) for a in paper.authors]
    short = None
    hidden = 0
    if limit is not None and len(full) > limit:
        short = list(full[:limit])
        owner_at = next((i for i, a in enumerate(full) if a["is_owner"]), None)
        if owner_at is not None and owner_at >= limit:
            gap = {"name": "…", "marks": [], "is_owner": False, "ellipsis": True, "url": "",
                   "internal": False, "person": ""}
            short = [*full[:limit - 1], gap, full[owner_at]]
        hidden = len(full) - limit
    return {"all": full, "short": short, "hidden": hidden, "et_al": paper.more_authors}


def label_link(kind: str, url: str, internal: bool, messages: Messages) -> str:
    """A link's label: its kind's ('PDF'), or for a bare `url` elsewhere the site it goes
    to ('usenix.org'), which says more than 'Link'."""
    host = urlsplit(url).hostname or "" if kind == "url" and not internal else ""
    return host.removeprefix("www.") or messages.gettext(LINK_LABELS[kind])


def links_view(paper: Paper, messages: Messages) -> list[dict]:
    views = []
    for link in paper.links:
        url, internal = split_site_link(link.url)
        views.append({"kind": link.kind, "label": link.label or label_link(
                          link.kind, url, internal, messages),
                      "url": url, "internal": internal})
    return views


def type_label(kind: str) -> str:
    """One paper's type: 'Journal Article'."""
    return TYPE_NAMES[kind]


def make_views(papers: list[Paper] | tuple[Paper, ...], config: SiteConfig) -> dict[str, dict]:
    """Each paper's view, by slug: they depend on the paper and the site's settings alone."""
    counts = index_counts(config)
    return {p.slug: paper_view(p, config, counts) for p in papers}


def index_counts(config: SiteConfig) -> dict[str, CitationCount]:
    return {count.slug: count for count in config.citation_counts} if config.citations else {}


def count_view(slug: str, config: SiteConfig, counts: dict | None) -> dict | None:
    """A paper's citation badge: the count, linked to the work at its source, and its
    citations per year where the site shows charts (`citation_chart`); None: no count."""
    count = (index_counts(config) if counts is None else counts).get(slug)
    if count is None:
        return None
    name, page = COUNT_SOURCES[count.source]
    messages = messages_for(config)
    n = messages.ngettext
    said = {"count": count.count, "source": name, "date": count.fetched}
    return {"count": count.count, "source": name, "url": page.format(count.work_id),
            "label": n("%(count)d citation", "%(count)d citations", count.count) % said,
            "fetched": count.fetched,
            "title": n("%(count)d citation according to %(source)s, as of %(date)s",
                       "%(count)d citations according to %(source)s, as of %(date)s",
                       count.count) % said,
            "chart": draw_chart(count.by_year, PAPER_FRAME, "paper-cites",
                                messages.gettext("Citations of this paper per year"),
                                list_figures(count.by_year, messages.gettext))
            if count.by_year and config.citation_chart else None}


def count_summary(site: Site) -> dict | None:
    """All the site's papers' citations, and their h-index (h papers cited h times or
    more), as of the newest count: for the home page and the CV. None: no counts."""
    slugs = {paper.slug for paper in site.papers}
    counts = [c for c in site.config.citation_counts if c.slug in slugs] \
        if site.config.citations else []
    if not counts:
        return None
    ranked = sorted((c.count for c in counts), reverse=True)
    summary = {"total": sum(ranked), "h_index": sum(1 for i, n in enumerate(ranked) if n > i),
               "i10_index": sum(1 for n in ranked if n >= 10),
               "papers": len(ranked), "as_of": max(c.fetched for c in counts),
               "source": COUNT_SOURCES[site.config.citations][0]}
    return {**summary, **chart_view(site.config, counts, summary)}


def chart_view(config: SiteConfig, counts: list[CitationCount], summary: dict) -> dict:
    """The site's citations per year (`citation_chart`): the page it is on, the chart and
    its caption; no page when the site shows none or no count has its years."""
    years = sum_by_year(counts) if config.citation_chart else ()
    if not years:
        return {"chart_page": ""}
    gettext = messages_for(config).gettext
    caption = gettext("Total %(total)s, h-index %(h)s, i10-index %(i10)s") % {
        "total": summary["total"], "h": summary["h_index"], "i10": summary["i10_index"]}
    title = gettext("Citations per year")
    return {"chart_page": config.citation_chart, "chart_title": title, "caption": caption,
            "chart": draw_chart(years, SITE_FRAME, "site-cites", title,
                                f"{list_figures(years, gettext)}. {caption}.")}


def paper_view(paper: Paper, config: SiteConfig, counts: dict | None = None) -> PaperView:
    """Everything a template may show about one paper (viewtypes.PaperView); empty
    fields are '' or [].
    The owner is found from config.owner (reading/people.py)."""
    view = {
        "slug": paper.slug,
        "url": paper_url(paper.slug),
        **shown_texts(paper, config.language),
        "authors": authors_view(paper, config.owner, config.publications.author_limit,
                                config.author_links),
        "venue": paper.venue,
        "venue_short": paper.venue_short,
        "venue_label": venue_label(paper),
        "venue_colour": find_venue_colour(config.theme.venue_colours, paper.venue_short),
        "type": paper.type,
        "type_label": messages_for(config).gettext(type_label(paper.type)),
        # No year yet: the status ('In press') stands in its place, and no <time> is shown.
        "date": human_date(paper.date, config.language) if paper.date else
        paper_year(paper, messages_for(config).gettext),
        "date_iso": paper.date.iso() if paper.date else "",
        "status": messages_for(config).gettext(status_label(paper)) if paper.status else "",
        # A number, as templates have always had it; the status where there is no year.
        "year": paper.date.year if paper.date else paper_year(paper,
                                                              messages_for(config).gettext),
        "location": paper.location,
        "tier": paper.tier,
        "category": paper.category,
        "topics": list(paper.topics),
        "links": links_view(paper, messages_for(config)),
        "award": paper.award,
        "note": drop_date(paper.note, paper.date),  # shown beside the date: not its year
        "selected": paper.selected,
        "volume": paper.volume, "number": paper.number,
        "pages": format_pages(paper.pages) if paper.pages else "",
        "publisher": paper.publisher,
        "institution": paper.institution,
        "doi": paper.doi,
        "citation": format_citation(paper, messages_for(config)),
        "preview": preview_view(paper),  # None: no picture
        "citations": count_view(paper.slug, config, counts),  # None: no count to show
    }
    add_exports(view, paper, config)
    mark_entry(view, paper.slug)
    view["feed_entry"] = feed_entry(config, paper, view)
    view["search_json"] = paper_search_json(view, paper.title)
    return view


def title_html(paper: Paper) -> Markup:
    """The title as pages show it, its math as MathML (everything else reads `title`)."""
    return Markup(paper.title_html) if paper.title_html else escape(paper.title)


def shown_texts(paper: Paper, language: str) -> dict:
    """The title and abstract a page in `language` shows: the paper's own when it is
    written in that language, else those it gives in it (`translations`), else its own,
    marked with its language (`lang`), so that they are read and spoken as written.
    Markdown abstracts are the owner's own HTML; BibTeX ones were escaped when read."""
    own = paper.language or language
    shown = {"title": paper.title, "title_html": title_html(paper),
             "abstract_html": make_rooted_html(paper.abstract_html),
             "abstract_text": paper.abstract_text}
    if is_same_language(own, language):
        return shown
    title, title_markup, abstract_html, abstract_text = next(
        (rest for tag, *rest in paper.translations if is_same_language(tag, language)),
        ("", "", "", ""))
    if title:  # its math as the paper's own title's: MathML on pages, Unicode in text
        shown.update(title=title, title_html=Markup(title_markup) if title_markup
                     else escape(title))
    else:
        shown["title_html"] = Markup('<span lang="%s">%s</span>') % (own, shown["title_html"])
    if abstract_html:
        shown.update(abstract_html=make_rooted_html(abstract_html), abstract_text=abstract_text)
    elif paper.abstract_html:
        shown["abstract_html"] = mark_language(shown["abstract_html"], own)
    return shown


def add_exports(view: dict, paper: Paper, config: SiteConfig) -> None:
    """The paper's citation in each format (BibTeX, RIS, CSL-JSON); a download of each and
    the name it is saved as (derived.py) are made from the text when a template reads
    them, with no file of their own, which would quadruple the files a site writes (the
    site's whole .bib, .ris and .json are files)."""
    page_url = config.url + paper_url(paper.slug)
    view.update(bibtex=make_bibtex(paper), bibtex_key=make_bibtex_key(paper),
                ris=make_ris(paper, page_url, absolute_url(config.url, paper.link("pdf"))),
                csl=make_csl(paper, page_url), coins=make_coins(paper, page_url))


def group_papers(site: Site, views: dict[str, dict]) -> list[dict]:
    """Papers in the configured groups, groups in order, newest first inside each."""
    pubs = site.config.publications
    papers = site.papers  # already newest first, ties by slug
    if pubs.group_by == "none":
        return [{"title": "", "id": "all", "papers": [views[p.slug] for p in papers]}]
    if pubs.group_by == "year":  # papers with no year yet first, under their status; an
        # undated one (a web page) last, under 'Other'
        key_of = lambda p: p.date.year if p.date else p.status or OTHER_GROUP  # noqa: E731
        keys = sorted({key_of(p) for p in papers}, key=lambda k: k if isinstance(k, int) else (
            10_000 - PUB_STATUSES.index(k) if k in PUB_STATUSES else -1), reverse=True)
        titles = {k: STATUS_LABELS.get(k, str(k)) for k in keys}
    elif pubs.group_by == "type":
        keys = [t for t in PAPER_TYPES if any(p.type == t for p in papers)]
        titles = {k: TYPE_LABELS[k] for k in keys}
        key_of = lambda p: p.type  # noqa: E731
    else:
        present = {p.category or OTHER_GROUP for p in papers}
        keys = [c for c in pubs.categories if c in present]
        keys += sorted(present - set(keys) - {OTHER_GROUP})
        keys += [OTHER_GROUP] if OTHER_GROUP in present and OTHER_GROUP not in keys else []
        titles = {k: k for k in keys}
        key_of = lambda p: p.category or OTHER_GROUP  # noqa: E731
    members: dict = {key: [] for key in keys}
    for paper in papers:  # one pass, in order: a site may have thousands of papers
        members[key_of(paper)].append(views[paper.slug])
    # Headings the theme names are in the page's language; their anchors stay English.
    shown = messages_for(site.config).gettext
    named = set(TYPE_LABELS.values()) | {OTHER_GROUP} | set(STATUS_LABELS.values())
    return [{"title": shown(titles[key]) if titles[key] in named else titles[key],
             "id": make_anchor(titles[key]), "papers": members[key]} for key in keys]


def shown_notes(notes: list[dict], papers: list[dict]) -> list[dict]:
    """The legend over some papers' views: only the marks their authors carry (a page
    whose authors carry none shows none)."""
    used = {mark for paper in papers for author in paper["authors"]["all"]
            for mark in author["marks"]}
    return [note for note in notes if note["mark"] in used]


def used_notes(site: Site) -> list[dict]:
    """The author-mark legend: only the marks some paper uses, in the configured order."""
    notes = site.config.publications.author_notes
    wanted = {mark for mark, _ in notes}
    used: set[str] = set()
    for paper in site.papers:
        if used >= wanted:  # every mark is found: no need to look through the rest
            break
        for author in paper.authors:
            used.update(author.marks)
    return [{"mark": mark, "meaning": meaning} for mark, meaning in notes if mark in used]
