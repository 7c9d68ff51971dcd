"""What a page tells machines about itself: Google Scholar's Highwire Press tags, schema.org
JSON-LD, Open Graph and Twitter cards.

Everything here is plain data (lists of name/content pairs, dicts) put in the page context;
templates only print it. `dump_script_json` makes JSON-LD safe inside a <script> element.
"""

from __future__ import annotations

import functools
import json
import re

from markupsafe import Markup

from .citations import author_line, container_title, family_given, split_pages, status_label
from .names import is_corporate
from ..models import Author, Paper, Person, Site, SiteConfig
from ..structure.kinds import pdf_beside_page
from ..structure.languages import human_date, messages_for
from ..structure.urls import absolute_url

# Google Scholar's inclusion guidelines: the tag that names where a paper appeared, by type.
VENUE_TAGS = {"conference": "citation_conference_title", "journal": "citation_journal_title"}
# schema.org's type of a paper's page, by the paper's type.
LD_TYPES = {"book": "Book", "chapter": "Chapter", "thesis": "Thesis"}
# The Dublin Core type of a paper that no Highwire tag types: Zotero's Embedded Metadata
# translator reads DC.type as a Zotero item type where none of citation_journal_title,
# _conference_title, _inbook_title, _dissertation_institution or
# _technical_report_institution said one, and saved a preprint as a journal article.
DC_TYPES = {"preprint": "preprint", "report": "report"}
# What a paper's venue is part of, in schema.org terms.
PERIODICAL_TYPES = ("journal",)
_LOCALE = re.compile(r"^([a-z]{2,3})[-_]([A-Za-z]{2})$")
DESCRIPTION_LIMIT = 300


def scholar_date(paper: Paper) -> str:
    """YYYY/MM/DD, or the year alone: the two forms Google Scholar's inclusion guidelines
    accept (a month without its day is not one of them)."""
    date = paper.date
    return f"{date.year:04d}/{date.month:02d}/{date.day:02d}" if date.day and date.month \
        else f"{date.year:04d}"


def make_highwire_tags(paper: Paper, site: Site, page_url: str) -> list[tuple[str, str]]:
    """The citation_* meta tags, in the order Google Scholar's guidelines list them."""
    tags = [("citation_title", paper.title)]
    tags += [("citation_author", family_given(author)) for author in paper.authors]
    tags += [("citation_editor", family_given(editor)) for editor in paper.editors]
    tags += date_tags(paper)
    venue = paper.venue or paper.venue_short
    if paper.type in VENUE_TAGS and venue:
        tags.append((VENUE_TAGS[paper.type], venue))
    elif paper.type == "chapter" and venue:
        tags.append(("citation_inbook_title", venue))
    if paper.volume:
        tags.append(("citation_volume", paper.volume))
    if paper.number and paper.type != "report":
        tags.append(("citation_issue", paper.number))
    first, last = split_pages(paper.pages)
    if first:
        tags.append(("citation_firstpage", first))
    if last:
        tags.append(("citation_lastpage", last))
    if paper.type == "report":
        # A report's institution; an arXiv report names the archive it appeared in.
        institution = paper.institution or venue
        if institution:
            tags.append(("citation_technical_report_institution", institution))
        if paper.number:
            tags.append(("citation_technical_report_number", paper.number))
    elif paper.type == "thesis" and (paper.institution or venue):
        tags.append(("citation_dissertation_institution", paper.institution or venue))
    publisher = paper.publisher or ("arXiv" if paper.type == "preprint" and paper.arxiv else "")
    if publisher:  # a preprint's repository, for Zotero
        tags.append(("citation_publisher", publisher))
    if paper.isbn:
        tags.append(("citation_isbn", paper.isbn))
    if paper.doi:
        tags.append(("citation_doi", paper.doi))
    if paper.arxiv:
        tags.append(("citation_arxiv_id", paper.arxiv))
    pdf = pdf_beside_page(paper)[0] or paper.link("pdf")  # where build.py copies it
    if pdf:
        tags.append(("citation_pdf_url", absolute_url(site.config.url, pdf)))
    if paper.abstract_html:
        tags.append(("citation_abstract_html_url", page_url))
    # What the paper is written in, which a page in another language is not (Zotero takes
    # the page's language otherwise).
    tags.append(("citation_language", paper.language))
    if paper.type in DC_TYPES:
        tags.append(("DC.type", DC_TYPES[paper.type]))
    return tags


def date_tags(paper: Paper) -> list[tuple[str, str]]:
    """Scholar's date and, for a month without its day, `citation_date` with the month,
    which Zotero reads last and so keeps (Scholar's year-only form drops it); none for a
    paper in press."""
    date = paper.date
    if not date:
        return []
    tags = [("citation_publication_date", scholar_date(paper))]
    if date.month and not date.day:
        tags.append(("citation_date", f"{date.year:04d}/{date.month:02d}"))
    return tags


@functools.lru_cache(maxsize=8192)  # shared by a co-author's papers: JSON-LD is only read
def person(author: Author) -> dict:
    """schema.org's Person: the name as shown, its parts where the name's last word is
    not its family name ('Petrova, Elena', 'John Smith, Jr.'); a corporate author
    ('Barnes and Noble, Inc.') an Organization, whole."""
    if is_corporate(author):
        return {"@type": "Organization", "name": author.family_name()}
    data = {"@type": "Person", "name": author.name}
    if author.family:
        data["familyName"] = author.family
        if author.given:
            data["givenName"] = author.given
        if author.suffix:
            data["honorificSuffix"] = author.suffix
    return data


def venue_ld(paper: Paper) -> dict | None:
    """The venue as schema.org: a Periodical (with its volume and issue) or a series of
    proceedings; None when it is part of none (container_title)."""
    name = container_title(paper)
    if not name:
        return None
    kind = "Periodical" if paper.type in PERIODICAL_TYPES else (
        "Book" if paper.type == "chapter" else "CreativeWorkSeries")
    part: dict = {"@type": kind, "name": name}
    if paper.venue_short and paper.venue_short != name:
        part["alternateName"] = paper.venue_short
    if kind == "Periodical" and paper.volume:
        part = {"@type": "PublicationVolume", "volumeNumber": paper.volume, "isPartOf": part}
    if kind == "Periodical" and paper.number:
        part = {"@type": "PublicationIssue", "issueNumber": paper.number, "isPartOf": part}
    if kind == "Book":  # a chapter's book: its ISBN and editors are the book's
        part.update(book_ld(paper))
    return part


def book_ld(paper: Paper) -> dict:
    """A book's ISBN and editors as schema.org has them; {} for neither."""
    data: dict = {}
    if paper.isbn:
        data["isbn"] = paper.isbn
    if paper.editors:
        data["editor"] = [person(e) for e in paper.editors]
    return data


def make_article_ld(paper: Paper, site: Site, page_url: str) -> dict:
    """schema.org ScholarlyArticle for a paper page."""
    data: dict = {
        "@context": "https://schema.org",
        "@type": LD_TYPES.get(paper.type, "ScholarlyArticle"),
        "headline": paper.title,
        "name": paper.title,
        "author": [person(a) for a in paper.authors],
        "url": page_url,
    }
    if paper.date:
        data["datePublished"] = paper.date.iso()
    venue = venue_ld(paper)
    if venue:
        data["isPartOf"] = venue
    if paper.type == "book":
        data.update(book_ld(paper))
    elif paper.editors and not (venue and venue["@type"] == "Book"):
        data["editor"] = book_ld(paper)["editor"]
    first, last = split_pages(paper.pages)
    if first:
        data["pageStart"] = first
    if last:
        data["pageEnd"] = last
    if paper.pages:
        data["pagination"] = paper.pages
    publisher = paper.publisher or paper.institution or (
        paper.venue if paper.type == "book" else "")
    if publisher:
        data["publisher"] = {"@type": "Organization", "name": publisher}
    if paper.doi:
        data["identifier"] = {"@type": "PropertyValue", "propertyID": "DOI",
                              "value": paper.doi, "url": f"https://doi.org/{paper.doi}"}
    same_as = [url for url in (paper.link("doi"), paper.link("arxiv")) if url]
    if same_as:
        data["sameAs"] = same_as
    if paper.abstract_text:
        data["abstract"] = paper.abstract_text
    if paper.topics:
        data["keywords"] = list(paper.topics)
    pdf = paper.link("pdf")
    if pdf:
        data["encoding"] = {"@type": "MediaObject", "encodingFormat": "application/pdf",
                            "contentUrl": absolute_url(site.config.url, pdf)}
    return data


def make_person_ld(site: Site) -> dict:
    """schema.org Person for the home page: who the site is about, and their profiles."""
    owner = site.config.owner
    data: dict = {"@context": "https://schema.org", "@type": "Person", "name": owner.name,
                  "url": site.config.url}
    if owner.aliases:
        data["alternateName"] = list(owner.aliases)
    if owner.position:
        data["jobTitle"] = owner.position
    if owner.affiliation:
        data["affiliation"] = {"@type": "Organization", "name": owner.affiliation}
    if owner.email:
        data["email"] = f"mailto:{owner.email}"
    profiles = [url for _, url in owner.links if url.startswith(("http://", "https://"))]
    if profiles:
        data["sameAs"] = profiles
    return data


def make_member_ld(person: Person, site: Site, page_url: str) -> dict:
    """schema.org Person for a lab member's page: their name (and its other scripts), the
    lab as their affiliation (an alumnus' as what they are an alumnus of), their photo,
    and their profiles (ORCID, homepage ...) as `sameAs`."""
    data: dict = {"@context": "https://schema.org", "@type": "Person", "name": person.name,
                  "url": page_url}
    if person.scripts or person.aliases:
        data["alternateName"] = [*person.scripts, *person.aliases]
    lab = site.config.lab.name if site.config.lab else site.config.owner.affiliation
    if lab:
        data["alumniOf" if person.alumni else "affiliation"] = {"@type": "Organization",
                                                                "name": lab}
    if person.photo:
        data["image"] = absolute_url(site.config.url, person.photo)
    profiles = [url for _, url in person.links if url.startswith(("http://", "https://"))]
    if profiles:
        data["sameAs"] = profiles
    return data


def og_locale(language: str) -> str:
    """Open Graph wants language_TERRITORY ('en_US'); '' when the site's language has none."""
    match = _LOCALE.match(language)
    return f"{match.group(1).lower()}_{match.group(2).upper()}" if match else ""


def make_social_tags(site: Site, title: str, description: str, url: str, kind: str,
                     paper: Paper | None = None) -> dict[str, list[tuple[str, str]]]:
    """Open Graph (property=) and Twitter card (name=) tags for any page."""
    description = shorten(description, DESCRIPTION_LIMIT)
    og = [("og:type", "article" if paper else ("profile" if kind == "home" else "website")),
          ("og:title", title), ("og:url", url), ("og:site_name", site.config.title)]
    if description:
        og.append(("og:description", description))
    locale = og_locale(site.config.language)
    if locale:
        og.append(("og:locale", locale))
    if paper is not None:
        if paper.date:
            og.append(("article:published_time", paper.date.iso()))
        og += [("article:tag", topic) for topic in paper.topics]
    twitter = [("twitter:card", "summary"), ("twitter:title", title)]
    if description:
        twitter.append(("twitter:description", description))
    return {"og": og, "twitter": twitter}


def make_page_meta(site: Site, title: str, description: str, url: str, kind: str,
                   paper: Paper | None = None) -> dict:
    """All machine-readable metadata of one page, for base.html's head."""
    meta = make_social_tags(site, title, description, url, kind, paper)
    meta["highwire"] = make_highwire_tags(paper, site, url) if paper is not None else []
    if paper is not None:
        meta["jsonld"] = [make_article_ld(paper, site, url)]
    elif kind == "home":
        meta["jsonld"] = [make_person_ld(site)]
    else:
        meta["jsonld"] = []
    return meta


def shorten(text: str, limit: int) -> str:
    """At most `limit` characters, cut at a word and marked with an ellipsis."""
    folded = " ".join(text.split())
    text = text if folded == text else folded  # the same string, not a copy, when folded
    if len(text) <= limit:
        return text
    cut = text[: limit - 1].rsplit(" ", 1)[0].rstrip(",;:.")
    return cut + "…"


def dump_script_json(data: object, sort_keys: bool = False) -> Markup:
    """JSON for a <script> element: '<', '>' and '&' written as \\u escapes, so that no
    string ('</script>', '<!--') can end the element early; U+2028/9 escaped for old parsers."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=sort_keys)
    for char, escape in (("&", "\\u0026"), ("<", "\\u003c"), (">", "\\u003e"),
                         ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(char, escape)
    return Markup(text)


def describe_citation(paper: Paper, config: SiteConfig) -> str:
    """A one-line description for a paper without an abstract: its authors and venue,
    its date in the language of the pages `config` makes."""
    messages = messages_for(config)
    venue = paper.venue or paper.venue_short or paper.institution
    authors = author_line(paper).removesuffix(".")  # 'et al.' ends a sentence once
    when = human_date(paper.date, messages.language) if paper.date else \
        messages.gettext(status_label(paper))
    return f"{authors}. {venue}, {when}." if venue else f"{author_line(paper)}, {when}."
