"""The templates' own sample files, recognised by what they say rather than by their names:
forks keep them (often published), and owners also write their own talk into
`2012-03-01-talk-1.md`. A sample is left behind with a note, never moved as the owner's.

The phrases are the sample files' own titles and opening sentences, as the templates ship
them: academicpages (github.com/academicpages/academicpages.github.io: `_talks/`,
`_teaching/`, `_posts/`, `_portfolio/`, `_publications/`, `_pages/`), al-folio
(github.com/alshedivat/al-folio: `_posts/`, `_projects/`, `_news/`, `_pages/about_einstein.md`,
`_data/cv.yml`, `assets/json/resume.json`) and Hugo Academic / Wowchemy / Hugo Blox
(github.com/HugoBlox/hugo-blox-builder: the starters' `content/`).

An item (a paper, talk, course, post, project, news item) is a sample only when every field
its owner could have changed still says what the template's sample says: owners keep a
real paper in `2009-10-01-paper-title-number-1.md` with their own title and venue but the
template's text, and that paper is theirs (find_owned_field)."""

from __future__ import annotations

import hashlib
import html
import json
import re

# A title that only a template's sample has (matched whole, in any case).
SAMPLE_TITLES = (
    ("academicpages", r"(talk|tutorial) \d+ on relevant topic in your field"),
    ("academicpages", r"conference proceeding talk \d+ on relevant topic in your field"),
    ("academicpages", r"teaching experience \d+"),
    ("academicpages", r"blog post number \d+"),
    ("academicpages", r"portfolio item number \d+"),
    ("academicpages", r"paper title number \d+"),
    ("academicpages", r"page not in menu"),
    ("academicpages", r"terms and privacy policy"),
    ("academicpages", r"archive layout with content"),
    ("academicpages", r"future blog post"),
    ("al-folio", r"(project|projeto) \d+( with very long name| com um nome bem longo)?"),
    ("al-folio", r"a (post (with|that can be cited)\b.*|distill-style blog post)"),
    ("al-folio", r"displaying beautiful tables with bootstrap tables"),
    ("Hugo Academic", r"example talk(: recent work)?"),
    ("Hugo Academic", r"(an )?example (journal article|conference paper|project)"),
    ("Hugo Academic", r"an example preprint( / working paper)?"),
    ("Hugo Academic", r"(external|internal) project"),
    ("Hugo Academic", r"create beautiful presentations with markdown"),
    ("Hugo Academic", r"academic: the website (designer|builder) for hugo"),
)
# A sentence a sample opens with (looked for near the top of its text).
SAMPLE_PHRASES = (
    ("academicpages", "this is a description of your talk"),
    ("academicpages", "this is a description of your tutorial"),
    ("academicpages", "this is a description of your conference proceedings talk"),
    ("academicpages", "this is a description of a teaching experience"),
    ("academicpages", "this is a sample blog post. lorem ipsum"),
    ("academicpages", "this post will show up by default"),
    ("academicpages", "this is an item in your portfolio"),
    ("academicpages", "this paper is about the number"),
    ("academicpages", "page not found. your pixels are in another canvas"),
    ("academicpages", "this is a page not in the menu"),
    ("academicpages", "this is a page not in th emain menu"),
    ("academicpages", "a variety of common markup showing how the theme styles them"),
    ("academicpages", "the privacy of my visitors is extremely important"),
    ("academicpages", "locations of key files/directories"),
    ("academicpages", "b.s. in github, github university"),
    ("academicpages", "{% include cv-template.html %}"),  # the CV page drawn from cv.json
    ("al-folio", "write your biography here. tell the world about yourself"),
    ("al-folio", "every project has a beautiful feature showcase page"),
    ("al-folio", "jean shorts raw denim vice normcore"),
    ("al-folio", "a sample blog page that demonstrates"),
    ("al-folio", "a simple inline announcement"),
    ("al-folio", "a long announcement with details"),
    ("al-folio", "what an astonishing thing a book is"),  # the bookshelf page's epigraph
    ("Hugo Academic", "academic theme conference"),
    ("Hugo Academic", "lorem ipsum dolor sit amet, consectetur adipiscing elit. duis posuere "
                      "tellus ac convallis placerat"),
    ("Hugo Academic", "easily create your own simple yet highly customizable blog"),
    ("Hugo Academic", "welcome to wowchemy, the website builder for hugo"),
)
# The templates' own sample files, by their SHA-256 (the same bytes in every fork that
# kept them): academicpages' files/paper1-3.pdf, slides1-3.pdf and bibtex1.bib.
SAMPLE_FILES = {
    "0fa3ddeabd3847bd77d9ce2ef0cf695ec3329a5e0bbbe84fa9f415721fb4593d": "academicpages",
    "f07e72c2f09821b5f5bf10eb8659858261ed534c1d4bd02ee90b33996a933da2": "academicpages",
    "d88074d5e623b09259e0ea46ac09a3b08460d811ad0f32e4e0ea77df7be9d5d6": "academicpages",
    "35acb4dc29970bc52f747ddc8bc2731e3f1c53f5eee01dbaec9c94f8144abeb5": "academicpages",
    "1dc065d97fb9dcb7cc6897d118b078c631695ac7ced090c6bd092a854ee5cc7e": "academicpages",
    "43de008dacf5c2f34397306f9c9b42b004fdd51ecf99f1f1f4d0e6ce7f7dd1c8": "academicpages",
    "d574419a8c515e2a5d2bda0aa095f81a31958834c75883fbba4e4ebb60df9a1e": "academicpages",
}
SAMPLE_FILE_MAX = 64 * 1024  # no sample file is larger: bigger files are not hashed
# The person a sample CV (al-folio's cv.yml and resume.json) describes.
SAMPLE_PEOPLE = ("albert einstein",)
# al-folio's sample papers (_bibliography/papers.bib, every version), by their titles as
# compared (letters and digits only, any case); each is a sample only when Einstein is
# among its authors too, so a historian's own paper of the same title stays theirs.
SAMPLE_PAPERS = frozenset(re.sub(r"\W+", "", title.casefold()) for title in (
    "On the electrodynamics of moving bodies", "The meaning of relativity",
    "Relativity: the Special and General Theory", "Letters on wave mechanics",
    "Investigations on the Theory of the Brownian Movement",
    "Can Quantum-Mechanical Description of Physical Reality Be Considered Complete?",
    "Über einen die Erzeugung und Verwandlung des Lichtes betreffenden heuristischen "
    "Gesichtspunkt",
    "Über die von der molekularkinetischen Theorie der Wärme geforderte Bewegung von in "
    "ruhenden Flüssigkeiten suspendierten Teilchen",
    "Un the movement of small particles suspended in statiunary liquids required by the "
    "molecular-kinetic theory 0f heat"))
# What the templates' samples give in the fields an owner fills in, past their titles (matched
# whole, in any case, HTML and spaces aside): venues, places, citations, excerpts, summaries.
SAMPLE_VALUES = tuple(re.compile(p) for p in (
    r"journal \d+", r"conference \d+", r"github journal of bugs", r"university \d+, department",
    r"uc san francisco, department of testing",
    r"uc-berkeley institute for testing science", r"london school of testing",
    r"testing institute of america 2014 annual conference", r"city, country",
    r"(berkeley|san francisco|los angeles),? ca(lifornia)?(, usa)?", r"london, uk",
    r".*\byour name, you\..*", r"short description of portfolio item number \d+.*",
    r"project \d+", r"(a|an other|another) project (with|that) .*", r"another without an image",
    r"(with|com) (a )?(background image|imagem de fundo)", r"(um projeto|outro) .*",
    r"(wowchemy|academic theme|hugo ?blox( builder| kit)?) (conference|hq)",
    r"hugoblox showcase", r"online & in-person",
    r"(in )?\*?(source themes|wowchemy|hugo ?blox( builder| kit)?) conference\*?", r"in \*?(stc|icw)\*?",
    r"\*?journal of source themes, 1\*?\(1\)",
    r"(an example of|this is what|this is how|you can also redirect) .*",
    r"march & april, looking forward to summer", r"a quick run down on accessing github .*",
    r"source themes hq", r"lorem ipsum dolor sit amet\b.*",
    r"an example (talk|conference paper|journal article|preprint|of) .*",
    r"discover how to create stunning, interactive presentations .*",
    r"create a beautifully simple website .*"))
# The samples' dates (a dated file name's own date is the template's too, in a fork that
# renamed a sample): academicpages' papers, talks, teaching and posts; al-folio's news and
# posts (dated unlike their names, version after version); Hugo's talk.
SAMPLE_DATES = frozenset("""
    2009-10-01 2010-10-01 2015-10-01 2024-02-17 2012-03-01 2013-03-01 2014-02-01 2014-03-01
    2012-08-14 2013-08-14 2014-08-14
    2014-01-01 2015-01-01 2015-08-14 2199-01-01 2015-10-22 2015-11-07 2016-01-15 2030-06-01
    2015-03-15 2015-05-15 2015-07-15 2015-10-20 2018-12-22 2020-09-28 2021-05-22 2021-07-04
    2022-02-01 2022-12-10 2023-03-20 2023-04-24 2023-04-25 2023-05-12 2023-07-04 2023-07-12
    2023-12-12 2024-01-26 2024-01-27 2024-04-15 2024-04-28 2024-04-29 2024-05-01 2024-12-04
    2025-03-26
    2013-07-01 2015-09-01 2016-04-20 2016-04-27 2017-01-01 2019-04-07""".split())
# Addresses and pictures only a sample links: the template's own host and files.
SAMPLE_LINKS = re.compile(r"academicpages\.github\.io|(^|/)files/(paper|slides)\d+\.pdf$|"
                          r"bibtex\d+\.bib$|unsplash\.com|example_pdf\.pdf$|"
                          r"//example\.(org|com)/?$|(^|/)assets/img/\d+\.jpg$|500x300\.png|"
                          r"georgecushen|wowchemy/wowchemy-hugo-themes|arxiv\.org/pdf/1512\.04133|"
                          r"eprints\.soton\.ac\.uk/352095/|^#$|"
                          r"//(hugoblox|youtube|www\.wikipedia)\.(com|org)/?$|"
                          r"(^|/)theme-[\w-]+\.png$|"  # Academic's gallery of its themes
                          r"wikipedia\.org/wiki/(albert_einstein|boris_podolsky|nathan_rosen)",
                          re.I)
TEXT_KEYS = ("title", "venue", "publication", "publication_short", "event", "event_name",
             "location", "citation", "description", "excerpt", "summary", "abstract")
LINK_KEYS = re.compile(r"url|link|redirect|img|image|thumbnail|teaser|pdf|slides|code|"
                       r"video|poster", re.I)
_ADDRESS = re.compile(r"^(?:[a-z]+:|/|[\w.-]+/)|\.(?:pdf|jpe?g|png|gif|webp|svg|bib)$", re.I)
TOP = 600  # how far into a text its opening sentence is looked for


def find_sample(fields: dict, body: str) -> str:
    """The template whose sample this page is ('' when it is the owner's own)."""
    title = " ".join(str(fields.get("title") or "").split()).casefold()
    for template, pattern in SAMPLE_TITLES:
        if re.fullmatch(pattern, title):
            return template
    top = " ".join(" ".join(str(fields.get(k) or "") for k in ("excerpt", "summary",
                                                               "abstract", "event")).split()
                   + body[:TOP * 2].split()).casefold()[:TOP * 2]
    return next((template for template, phrase in SAMPLE_PHRASES if phrase in top), "")


def find_sample_file(data: bytes) -> str:
    """The template whose sample file these bytes are ('' when the owner's own)."""
    if len(data) > SAMPLE_FILE_MAX:
        return ""
    return SAMPLE_FILES.get(hashlib.sha256(data).hexdigest(), "")


def find_sample_data(data: object) -> str:
    """The template whose sample CV `data` (cv.yml or resume.json, as read) is."""
    text = json.dumps(data, ensure_ascii=False, default=str).casefold()
    return "al-folio" if any(person in text for person in SAMPLE_PEOPLE) else ""


def find_sample_entry(title: str, authors: str) -> str:
    """The template whose sample paper a BibTeX entry is (its title and authors as read),
    '' when the owner's own."""
    return "al-folio" if re.sub(r"\W+", "", title.casefold()) in SAMPLE_PAPERS and any(
        person.split()[-1] in authors.casefold() for person in SAMPLE_PEOPLE) else ""


def plain(value: object) -> str:
    """A field's text as compared: no HTML tags or entities, spaces collapsed, any case."""
    text = re.sub(r"<[^>]*>", " ", html.unescape(str(value)))
    return " ".join(text.split()).casefold()


def is_sample_text(value: object) -> bool:
    """Whether a text field says what a sample says (a flag, `citation: true`, says nothing)."""
    text = plain(value) if isinstance(value, str) else ""
    return not text or any(re.fullmatch(p, text) for _, p in SAMPLE_TITLES) \
        or any(p.fullmatch(text) for p in SAMPLE_VALUES) \
        or any(phrase in text for _, phrase in SAMPLE_PHRASES)


def list_links(value: object, key: str = "") -> list[tuple[str, str]]:
    """(key, address) of every link or picture a field holds, nested ones too."""
    if isinstance(value, dict):
        return [found for k, v in value.items() for found in list_links(v, str(k))]
    if isinstance(value, list):
        return [found for v in value for found in list_links(v, key)]
    text = str(value).strip() if isinstance(value, str) else ""
    return [(key, text)] if LINK_KEYS.search(key) and _ADDRESS.search(text) else []


def find_owned_field(fields: dict, stem: str) -> str:
    """The first field of a sample-looking item that its owner changed (a title, venue,
    place, citation, date, link or picture no sample gives); '' when every one is the
    template's, so the item is the template's sample."""
    for key in TEXT_KEYS:
        if not is_sample_text(fields.get(key) or ""):
            return key
    date = str(fields.get("date") or "")[:10]
    if date and date not in SAMPLE_DATES and not stem.startswith(date):
        return "date"
    return next((key for name, value in fields.items() if name != "permalink"
                 for key, link in list_links(value, name) if not SAMPLE_LINKS.search(link)),
                "")
