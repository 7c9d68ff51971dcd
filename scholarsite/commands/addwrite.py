"""`add`'s paper file: what a service said (addsources.Found) as the front matter and
abstract a person would write, named as the site's other papers are, and the papers the
site already has by their DOI and arXiv id (never written twice)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from .addsources import Found, Person
from ..diagnostics import Diagnostics
from .importer import author_item, format_paper_file
from ..models import Author, Owner
from ..reading.listing import list_files
from ..reading.loader import PAPER_SUFFIXES, PAPERS_DIR
from ..reading.names import NameParts, make_author, split_author
from ..reading.paperfiles import read_paper_file
from ..reading.people import is_named, is_owner
from ..reading.slugs import fold_latin, make_slug
from ..reading.text.papers import make_markdown

# The words a title's name for a paper skips ('A Study of ...' is named by 'study').
_SMALL_WORDS = frozenset("a an the on of for in to and with towards toward via by".split())
_WORD = re.compile(r"[a-z0-9]+")
# How the site names its papers, told from its files' names (the most common wins).
_STYLES = (("key-venue-year", re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*-(?:19|20)\d\d$")),
           ("name-year", re.compile(r"^[a-z]+(?:19|20)\d\d[a-z]*$")),
           ("title", re.compile(r"^[a-z]+(?:-[a-z0-9]+)+$")))


def make_front_matter(found: Found, owner: Owner) -> tuple[dict, str]:
    """(front matter, body): the paper's fields in the order the README shows them."""
    doc: dict = {"title": found.title,
                 "authors": [author_entry(person, owner) for person in found.authors]}
    for name in ("venue", "venue_short"):
        if getattr(found, name):
            doc[name] = getattr(found, name)
    if found.date:
        doc["date"] = found.date
    doc["type"] = found.type
    for name in ("volume", "number", "pages", "publisher", "isbn"):
        if getattr(found, name):
            doc[name] = getattr(found, name)
    links = {kind: value for kind, value in (("pdf", found.pdf), ("doi", found.doi),
                                             ("arxiv", found.arxiv), ("url", found.page))
             if value}
    if links:
        doc["links"] = links
    return doc, found.abstract


def author_entry(person: Person, owner: Owner) -> str | dict:
    """The name as the service gives it, or the owner's own where the site's name
    matching (reading/people.py) finds the owner: 'W. Gao' is written as the site writes
    'Wei Gao' (the first of the owner's names, aliases after, that it agrees with)."""
    author = read_person(person)
    if is_owner(author, owner):
        return next((name for name in owner.names() if is_named(author, (name,))),
                    author_item(author))
    return author_item(author)


def read_person(person: Person) -> Author:
    if person.family:
        return make_author(person.name, (), NameParts(person.family, person.given))
    return split_author(person.name)


def find_owner(found: Found, owner: Owner) -> int:
    """The owner's place among the authors (1-based); 0 when not among them."""
    return next((at for at, person in enumerate(found.authors, 1)
                 if is_owner(read_person(person), owner)), 0)


def format_paper(found: Found, owner: Owner) -> str:
    doc, body = make_front_matter(found, owner)
    return format_paper_file(doc, body)


def find_style(folder: Path, content: Path) -> str:
    """How the site's paper files are named: 'key-venue-year' (astraea-tpds-2022, the
    default), 'name-year' (gao2021chronus, BibTeX's keys) or 'title' (fair-sharing-of-gpus)."""
    names = [path.stem for path in list_files(folder, content, Diagnostics(), (".md",))]
    votes = Counter(next((style for style, shape in _STYLES if shape.match(name)), "")
                    for name in names)
    votes.pop("", None)
    return votes.most_common(1)[0][0] if votes else "key-venue-year"


def make_paper_slug(found: Found, style: str) -> str:
    words = [w for w in _WORD.findall(fold_latin(plain_title(found.title)).lower())]
    key_words = [w for w in words if w not in _SMALL_WORDS and len(w) > 1] or words \
        or ["paper"]
    year = found.date[:4]
    if style == "title":
        return make_slug(" ".join(words[:6]))
    if style == "name-year":
        family = found.authors[0].family or found.authors[0].name.split()[-1] \
            if found.authors else ""
        return make_slug(f"{fold_latin(family).lower()}{year}{key_words[0]}".replace(" ", ""))
    head = found.title.split(":")[0]
    named = _WORD.findall(fold_latin(plain_title(head)).lower()) if ":" in found.title else []
    short = found.venue_short if " " not in found.venue_short else ""  # 'J Ex Biol': none
    short = short or ("arxiv" if found.arxiv and found.type == "preprint" else "")
    # 'Astraea: A Fair ...' is astraea; else one word beside a venue's name, two alone.
    key = named if 0 < len(named) <= 2 else key_words[:1 if short else 2]
    return make_slug(" ".join([*key, short, year]))


def plain_title(title: str) -> str:
    """The title's words: no formula, and no tag ('CO<sub>2</sub>' is 'CO2')."""
    return re.sub(r"<[^>]+>", "", re.sub(r"\$[^$]*\$", " ", title))


def index_papers(content: Path) -> dict[tuple[str, str], str]:
    """Where each paper of the site is ('publications/x.md:1'), by its DOI and arXiv id."""
    found: dict[tuple[str, str], str] = {}
    md = make_markdown()
    diags = Diagnostics(root=Path.cwd())
    for path in list_files(content / PAPERS_DIR, content, diags, PAPER_SUFFIXES):
        for paper in read_paper_file(path, md, diags):
            where = f"{path.relative_to(content).as_posix()}:{paper.line}"
            for key in identities(paper.doi, paper.arxiv,
                                  paper.isbn if paper.type == "book" else "", paper.link("url")):
                found.setdefault(key, where)
    return found


def identities(doi: str, arxiv: str, isbn: str = "", page: str = ""
               ) -> list[tuple[str, str]]:
    """What tells a paper from every other: its DOI, arXiv id (any version), for a book
    its ISBN (a chapter's or a paper's is its book's, shared), and its page at the
    service that published it (an OpenReview forum: many such papers have no DOI)."""
    return ([("doi", doi.lower())] if doi else []) + \
        ([("arxiv", re.sub(r"v\d+$", "", arxiv.lower()))] if arxiv else []) + \
        ([("isbn", re.sub(r"[^0-9X]", "", isbn.upper()))] if isbn else []) + \
        ([("page", re.sub(r"^https?://(?:www\.)?|/+$", "", page))] if page else [])
