"""A site in several languages (site.yaml's `languages: [en, zh]`): the default
language's pages at the root, each other language's under /TAG/, every page in every
language.

A language's pages are planned as a site of their own (`localize_site`): the default's,
with the texts written in that language in place of the default's (index.zh.md,
x.zh.md, cv.zh.yaml), each paper's title and abstract in it where the paper gives them
(`translations`), the owner's name as written in it, and its address below /TAG/. What
has no text in the language is shown as written, marked with its own language (`lang`).
Its pages' `page.root` is the language's root, so that a link from one page to another
stays in the language; what every language shares (the theme's assets, content/files/,
the generated pictures) is one folder up, `page.top`, where the texts' links to files are
pointed here.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from markupsafe import Markup

from ..diagnostics import Diagnostics
from ..reads import ReadLog
from ..models import Item, Paper, Person, Site, SiteConfig, Variant
from ..reading.loader import CONFIG_FILE
from ..reading.notebooks import NOTEBOOK_SUFFIX
from ..reading.settings.langconfig import find_language_line
from ..structure.kinds import KIND
from ..structure.languages import parse_language
from ..structure.urls import FILES_DIR, ROOT_MARKER
from ..views.cvpdf import CVFiles
from ..views.rooted import mark_language
from ..views.views import make_views
from .pages import Page, plan_pages

FILE_LINK = f"{FILES_DIR}/"  # content/files/, at the site's root in every language
# The home page's text links as written (it is shown at the root alone).
BIO_FILE_LINK = re.compile(r'\b(href|src)="files/')


def other_languages(config: SiteConfig) -> tuple[str, ...]:
    return config.languages[1:]


def check_language_folders(site: Site, pages: list[Page], diags: Diagnostics) -> None:
    """An error at site.yaml's line for each other language whose folder (/TAG/) is
    where the default language has a page or a folder of pages: `languages: [en, cv]`
    (Chuvash) would put its home over the CV, `zh` over a free page pages/zh.md. The
    default's `pages` are all it has at its root but the theme's assets/ and files/,
    which no language is named."""
    taken = {page.path.split("/")[0].casefold(): page for page in pages
             if page.kind != "redirect"}
    config = site.content_dir / CONFIG_FILE
    for tag in other_languages(site.config):
        page = taken.get(tag.casefold())
        if page is not None:
            what = KIND[page.kind].title or ("free page" if page.kind == "page"
                                              else f"{page.kind} page")
            name = getattr(parse_language(tag), "english_name", tag)
            diags.error(config, find_language_line(config, tag), f"'languages' names "
                        f"{tag!r} ({name}), whose pages would be at /{tag}/, over this "
                        f"site's {what} at /{page.path}: leave {tag!r} out"
                        + (", or rename the page" if page.kind == "page" else ""))


def localize_site(site: Site, tag: str) -> Site:
    """The site as its pages in the language `tag` show it (see the module's text)."""
    variant = next((v for v in site.variants if v.language == tag), Variant(tag))
    own = {(item.collection, item.slug): item for item in variant.items}
    default = site.config.languages[0]
    items = tuple(localize_item(own.get((i.collection, i.slug)), i)
                  for i in site.items)
    pages, texts_of_lists = (tuple(localize_item(own.get(("pages", p.slug)), p) for p in found)
                             for found in (site.pages, site.list_texts))
    config = site.config
    texts = {key: text for key, language, text in config.texts if language == tag}
    owner = dataclasses.replace(config.owner, name=dict(config.owner.scripts).get(
        tag, config.owner.name), position=texts.get("position", config.owner.position),
        affiliation=texts.get("affiliation", config.owner.affiliation))
    notes = tuple((mark, texts.get(f"author_note {mark}", meaning))
                  for mark, meaning in config.publications.author_notes)
    config = dataclasses.replace(config, language=tag, owner=owner,
                                 publications=dataclasses.replace(config.publications,
                                                                  author_notes=notes),
                                 title=texts.get("title", config.title),
                                 description=texts.get("description", config.description),
                                 lab=config.lab and dataclasses.replace(
                                     config.lab, name=texts.get("lab name", config.lab.name)))
    bio = variant.bio_html or (mark_language(Markup(site.bio_html), default)
                               if site.bio_html else "")
    return dataclasses.replace(
        site, config=config, papers=tuple(localize_paper(p) for p in site.papers),
        bio_html=BIO_FILE_LINK.sub(r'\1="../files/', bio), items=items, pages=pages,
        list_texts=texts_of_lists, notebooks=tuple(map(notebook_to_top, site.notebooks)),
        cv=variant.cv or site.cv, people=tuple(localize_person(p)
                                                           for p in site.people))


def to_top(html: str) -> str:
    """Links from a text to content/files/ made to reach it from a language's root."""
    return html.replace(ROOT_MARKER + FILE_LINK, ROOT_MARKER + "../" + FILE_LINK)


def link_to_top(url: str) -> str:
    trimmed = url.lstrip("/")
    return "../" + trimmed if trimmed.startswith(FILE_LINK) else url


def localize_item(own: Item | None, item: Item) -> Item:
    """An item in a language: its text in it (`own`), else the default's (which its view
    marks with its language: itemviews.item_view)."""
    item = notebook_to_top(own or item)
    return dataclasses.replace(item, body_html=to_top(item.body_html),
                               links=tuple((label, link_to_top(url))
                                           for label, url in item.links),
                               text=tuple((name, link_to_top(value))
                                          for name, value in item.text))


def notebook_to_top(item: Item) -> Item:
    """A notebook's pictures and file, published once beside the default language's page
    (plan/notebookfiles.py), linked from a language's page as its files are: one up."""
    if item.source.suffix.lower() != NOTEBOOK_SUFFIX:
        return item
    page = f"{item.collection}/{item.slug}/"
    return dataclasses.replace(
        item, body_html=item.body_html.replace(ROOT_MARKER + page, ROOT_MARKER + "../" + page),
        links=tuple((label, "../" + url if url.startswith(page) else url)
                    for label, url in item.links))


def localize_paper(paper: Paper) -> Paper:
    """The paper as a language's pages link it: its abstracts' links to files one folder
    up (its own links are to files, which templates prefix with `page.top`). Which title
    and abstract a page shows, its own or a translation, its view decides
    (views.shown_texts); its citations, BibTeX and metadata cite its own."""
    return dataclasses.replace(paper, abstract_html=to_top(paper.abstract_html),
                               translations=tuple((tag, title, title_html, to_top(html), text)
                                                  for tag, title, title_html, html, text
                                                  in paper.translations))


def localize_person(person: Person) -> Person:
    return dataclasses.replace(person, bio_html=to_top(person.bio_html))  # photos: from top


def plan_languages(site: Site, deferred: frozenset[str],
                   cv_files: dict[str, CVFiles | None], log: ReadLog | None = None
                   ) -> list[Page]:
    """The pages of every language but the default, each below its /TAG/: those of
    the kinds that are in every language (structure/kinds.py). With `log`, what their
    planners read of each paper is noted there too (plan_pages)."""
    pages: list[Page] = []
    for tag in other_languages(site.config):
        local = localize_site(site, tag)
        views = make_views(local.papers, local.config)
        for page in plan_pages(local, views, deferred=deferred, cv_files=cv_files.get(tag),
                               log=log):
            if KIND[page.kind].per_language:
                pages.append(dataclasses.replace(page, path=f"{tag}/{page.path}"))
    return pages


def language_store(store: Path, tag: str) -> Path:
    """Where a language's CV files are kept apart from the default's."""
    return store / "languages" / tag


def language_copies(cv_files: dict[str, CVFiles | None]) -> dict[str, Path]:
    """Each language's CV files (render/typeset.py), at their places below /TAG/."""
    return {f"{tag}/{rel}": path for tag, files in cv_files.items() if files
            for rel, path in files.copies}
