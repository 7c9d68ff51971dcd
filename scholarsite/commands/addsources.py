"""What Crossref, DataCite, arXiv and PubMed say about one paper, as a `Found`: the facts a
person writes in a paper file, each read from the service's documented answer and each
text made what front matter and Markdown hold (reading/text/markup.py).

Crossref: `GET /works/<doi>` (JSON, `message`); DataCite: `GET /dois/<doi>` (JSON:API,
`data.attributes`); arXiv: `GET /api/query?id_list=<id>` (Atom; the newest version);
PubMed: E-utilities' `efetch.fcgi?db=pubmed&id=<pmid>&retmode=xml` (PubmedArticleSet);
Open Library: `GET /isbn/<isbn>.json` (an edition), its work's and authors' JSON.
The Atom and PubMed XML are read by the same lenient reader as the markup (no DTD, no
entity of their own is ever expanded)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .papersources import check_doi, check_url, dig
from ..reading.bib.bibpaper import find_short
from ..reading.settings.venues import match_venues
from ..reading.text.mdescape import text_to_markdown
from ..reading.text.markup import (Node, markup_to_markdown, markup_to_title, parse_markup,
                                   tex_text_to_markdown, text_of, walk)
from ..structure.urls import normalize_arxiv

CROSSREF_TYPES = {"journal-article": "journal", "proceedings-article": "conference",
                  "book-chapter": "chapter", "book": "book", "monograph": "book",
                  "edited-book": "book", "reference-book": "book", "posted-content": "preprint",
                  "report": "report", "dissertation": "thesis"}
DATACITE_TYPES = {"JournalArticle": "journal", "ConferencePaper": "conference",
                  "BookChapter": "chapter", "Book": "book", "Preprint": "preprint",
                  "Report": "report", "Dissertation": "thesis"}
ARXIV_DOI = re.compile(r"10\.48550/arxiv\.(.+)$", re.IGNORECASE)
_PAGE_RANGE = re.compile(r"^(\w+)\s*[-‐‑–—]+\s*(\w+)$")
_YEAR = re.compile(r"(\d{4})")
MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


@dataclass(frozen=True)
class Person:
    name: str  # as shown: 'Given Family', or the one name a group or the service gives
    family: str = ""
    given: str = ""


@dataclass(frozen=True)
class Found:
    source: str
    title: str
    authors: tuple[Person, ...]
    date: str  # 'YYYY', 'YYYY-MM' or 'YYYY-MM-DD'; '' when the service gives none
    type: str
    venue: str = ""
    venue_short: str = ""
    volume: str = ""
    number: str = ""
    pages: str = ""
    publisher: str = ""
    isbn: str = ""
    doi: str = ""
    arxiv: str = ""
    pdf: str = ""
    abstract: str = ""  # Markdown
    published_doi: str = ""  # arXiv's: the DOI of the version since published
    pmid: str = ""  # PubMed's id
    page: str = ""  # the paper's page at the service (OpenReview's forum, the Anthology's)


def text(value: object) -> str:
    """One line of a service's text; '' for what is not text."""
    if isinstance(value, list):
        value = next((item for item in value if isinstance(item, str) and item.strip()), "")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = str(value)
    return " ".join(value.split()) if isinstance(value, str) else ""


def format_pages(value: str) -> str:
    """'2781-2793' as a person types a range, '2781–2793'."""
    found = _PAGE_RANGE.match(value.strip())
    return f"{found.group(1)}–{found.group(2)}" if found else value.strip()


def format_date(parts: object) -> str:
    """Crossref's and citeproc's `date-parts` ([[2021, 11, 5]]) as 'YYYY-MM-DD', shorter
    as far as they go."""
    first = dig(parts, "date-parts", 0)
    if not isinstance(first, list) or not first or not isinstance(first[0], int):
        return ""
    numbers = [n for n in first[:3] if isinstance(n, int)]
    return "-".join([f"{numbers[0]:04d}", *(f"{n:02d}" for n in numbers[1:])])


def find_venue_short(venue: str, acronym: str = "") -> str:
    """The venue's short name: the event's acronym ('SOSP '23' -> 'SOSP'), one the
    ranking table knows for the venue without doubt, or one the name ends with."""
    short = re.sub(r"\s*'?\d{2,4}$", "", acronym.strip())
    if short:
        return short
    shorts = {venue.abbr for venue in match_venues(venue) if venue.abbr}
    return shorts.pop() if len(shorts) == 1 else find_short(venue)


def read_crossref(answer: object) -> Found:
    """Crossref's `/works/<doi>` answer; ValueError when it is not shaped as documented."""
    work = dig(answer, "message")
    if not isinstance(work, dict) or not text(work.get("title")):
        raise ValueError("the answer has no work with a title")
    title = markup_to_title(text(work.get("title")))
    subtitle = text(work.get("subtitle"))
    if subtitle:
        title += f": {markup_to_title(subtitle)}"
    kind = CROSSREF_TYPES.get(text(work.get("type")), "other")
    venue = markup_to_title(text(work.get("container-title")))
    publisher = text(work.get("publisher"))
    date = next((format_date(work.get(key)) for key in ("published", "issued",
                 "published-print", "published-online") if format_date(work.get(key))), "")
    isbn = text(work.get("ISBN")) if kind in ("book", "chapter") else ""
    return Found("Crossref", title, read_crossref_people(work.get("author")), date, kind,
                 venue=venue or (publisher if kind not in ("journal", "conference",
                                                           "chapter") else ""),
                 venue_short=find_venue_short(venue, text(dig(work, "event", "acronym")))
                 if venue else "",
                 volume=text(work.get("volume")), number=text(work.get("issue")),
                 pages=format_pages(text(work.get("page"))), publisher=publisher,
                 isbn=isbn, doi=check_doi(text(work.get("DOI"))),
                 arxiv=find_preprint(work), pdf=find_open_pdf(work),
                 abstract=markup_to_markdown(text(work.get("abstract"))))


def read_crossref_people(people: object) -> tuple[Person, ...]:
    found = []
    for person in people if isinstance(people, list) else []:
        given, family = text(dig(person, "given")), text(dig(person, "family"))
        name = " ".join(part for part in (given, family) if part) or text(dig(person, "name"))
        if name:
            found.append(Person(name, family, given))
    return tuple(found)


def find_preprint(work: dict) -> str:
    """The arXiv id of the preprint Crossref relates the work to, if any."""
    for item in dig(work, "relation", "has-preprint") or []:
        found = ARXIV_DOI.match(text(dig(item, "id")))
        if found and normalize_arxiv(found.group(1)):
            return normalize_arxiv(found.group(1))
    return ""


def find_open_pdf(work: dict) -> str:
    """The PDF's address when the work is open access (a Creative Commons licence of its
    published version) and Crossref links one."""
    licences = [text(dig(item, "URL")) for item in work.get("license") or []
                if isinstance(item, dict)]
    if not any("creativecommons.org" in url for url in licences):
        return ""
    for link in work.get("link") or []:
        if text(dig(link, "content-type")) == "application/pdf":
            url = check_url(text(dig(link, "URL")))
            if url:
                return url
    return ""


def read_datacite(answer: object) -> Found:
    """DataCite's `/dois/<doi>` answer; ValueError when it is not shaped as documented."""
    found = dig(answer, "data", "attributes")
    title = text(dig(found, "titles", 0, "title"))
    if not isinstance(found, dict) or not title:
        raise ValueError("the answer has no DOI with a title")
    kind = DATACITE_TYPES.get(text(dig(found, "types", "resourceTypeGeneral")), "other")
    publisher = text(dig(found, "publisher", "name")) or text(dig(found, "publisher"))
    venue = text(dig(found, "container", "title")) or publisher
    first, last = text(dig(found, "container", "firstPage")), \
        text(dig(found, "container", "lastPage"))
    abstract = next((d.get("description") for d in found.get("descriptions") or []
                     if isinstance(d, dict) and d.get("descriptionType") == "Abstract"
                     and isinstance(d.get("description"), str)), "")
    return Found("DataCite", markup_to_title(title), read_datacite_people(found),
                 read_datacite_date(found), kind, venue=venue,
                 venue_short=find_venue_short(venue) if venue else "",
                 volume=text(dig(found, "container", "volume")),
                 number=text(dig(found, "container", "issue")),
                 pages=f"{first}–{last}" if first and last else first, publisher=publisher,
                 doi=check_doi(text(found.get("doi"))), abstract=markup_to_markdown(abstract))


def read_datacite_people(found: dict) -> tuple[Person, ...]:
    people = []
    for creator in found.get("creators") or []:
        given, family = text(dig(creator, "givenName")), text(dig(creator, "familyName"))
        name = text(dig(creator, "name"))
        if given and family:
            people.append(Person(f"{given} {family}", family, given))
        elif name:  # 'Family, Given' as DataCite writes a person: the reader splits it
            people.append(Person(name))
    return tuple(people)


def read_datacite_date(found: dict) -> str:
    issued = next((text(d.get("date")) for d in found.get("dates") or []
                   if isinstance(d, dict) and d.get("dateType") == "Issued"), "")
    if re.fullmatch(r"\d{4}(-\d{2}(-\d{2})?)?", issued[:10].rstrip("-")):
        return issued[:10]
    return text(found.get("publicationYear"))[:4]


def read_arxiv(feed: str) -> Found | None:
    """arXiv's Atom answer: its one entry, or None when arXiv knows no such paper (no
    entry, or its entry titled 'Error')."""
    found = read_arxiv_feed(feed)
    return found[0] if found else None


def read_arxiv_feed(feed: str) -> list[Found]:
    """Every paper of an arXiv Atom feed (the API's, or an author's), in its order; an
    entry with no title (or arXiv's 'Error' entry) is none. ValueError for an answer
    that is no whole feed (an error page, one cut off), which is no news of any paper."""
    if not re.search(r"<feed[\s>].*</feed>", feed, re.DOTALL):
        raise ValueError("the answer is not a whole Atom feed")
    entries = [n for n in walk(parse_markup(feed)) if n.tag == "entry"]
    return [read_arxiv_entry(entry) for entry in entries
            if first_text(entry, "title") not in ("", "Error")]


def read_arxiv_entry(entry: Node) -> Found:
    arxiv = normalize_arxiv(first_text(entry, "id").split("/abs/")[-1])
    arxiv = re.sub(r"v\d+$", "", arxiv)
    people = tuple(Person(" ".join(text_of(n).split())) for n in children(entry, "author")
                   for n in children(n, "name") if text_of(n).strip())
    return Found("arXiv", markup_to_title(first_text(entry, "title")), people,
                 first_text(entry, "published")[:10], "preprint", venue="arXiv preprint",
                 arxiv=arxiv, pdf=f"https://arxiv.org/pdf/{arxiv}" if arxiv else "",
                 abstract=tex_text_to_markdown(text_of(children(entry, "summary")[0])
                                               if children(entry, "summary") else ""),
                 published_doi=check_doi(first_text(entry, "doi")))


def children(node: Node, tag: str) -> list[Node]:
    return [c for c in node.children if isinstance(c, Node) and c.tag == tag]


def first_text(node: Node, tag: str) -> str:
    found = children(node, tag)
    return " ".join(text_of(found[0]).split()) if found else ""


def first_node(node: Node, *path: str) -> Node | None:
    for tag in path:
        found = [n for n in walk(node) if n.tag == tag and n is not node]
        if not found:
            return None
        node = found[0]
    return node


def read_pubmed(document: str) -> Found | None:
    """PubMed's efetch XML: its one article, or None when PubMed knows no such id."""
    found = read_pubmed_set(document)
    return found[0] if found else None


def read_pubmed_set(document: str) -> list[Found]:
    """Every article of PubMed's efetch XML (a PubmedArticleSet) that has a title (an
    empty set for ids PubMed does not know); ValueError for another answer (an error
    page, an eFetchResult's ERROR, one cut off)."""
    if not re.search(r"<PubmedArticleSet[\s>].*</PubmedArticleSet>", document, re.DOTALL):
        raise ValueError("the answer is not a whole PubmedArticleSet")
    articles = [n for n in walk(parse_markup(document)) if n.tag == "pubmedarticle"]
    return [read_pubmed_article(article) for article in articles
            if first_node(article, "articletitle") is not None]


def read_pubmed_article(article: Node) -> Found:
    title = first_node(article, "articletitle")
    journal = first_node(article, "journal")
    venue = first_text(journal, "title") if journal else ""
    ids = {n.attrs.get("idtype", ""): text_of(n).strip() for n in walk(article)
           if n.tag in ("articleid", "elocationid") and (n.attrs.get("idtype")
                                                         or n.attrs.get("eidtype"))}
    ids.update({n.attrs.get("eidtype", ""): text_of(n).strip() for n in walk(article)
                if n.tag == "elocationid"})
    abstract = "\n\n".join(pubmed_paragraph(n) for n in walk(article)
                           if n.tag == "abstracttext")
    issue = first_node(article, "journalissue")
    return Found("PubMed", read_pubmed_title(title), read_pubmed_people(article),
                 read_pubmed_date(issue), "journal", venue=venue,
                 venue_short=first_text(journal, "isoabbreviation") if journal else "",
                 volume=first_text(issue, "volume") if issue else "",
                 number=first_text(issue, "issue") if issue else "",
                 pages=read_pubmed_pages(article),
                 doi=check_doi(ids.get("doi", "")), abstract=abstract,
                 pmid=first_text(first_node(article, "medlinecitation") or Node(""), "pmid"))


def read_pubmed_title(node: Node) -> str:
    """The title as its authors wrote it: MEDLINE ends every title with a period
    ('Leaves breathe.'), which a question or an ellipsis keeps."""
    title = markup_to_title(node)
    return title[:-1] if title.endswith(".") and not title.endswith("..") else title


def read_pubmed_pages(article: Node) -> str:
    """'816–821': StartPage and EndPage whole, else MEDLINE's shortened '816-21'."""
    start, end = (text_of(first_node(article, tag) or Node("")).strip()
                  for tag in ("startpage", "endpage"))
    if start:
        return format_pages(f"{start}-{end}" if end else start)
    return format_pages(text_of(first_node(article, "medlinepgn") or Node("")))


def pubmed_paragraph(node: Node) -> str:
    """An AbstractText, its label ('BACKGROUND') in bold before it."""
    body = markup_to_markdown(node, drop_heading=False)
    label = " ".join(node.attrs.get("label", "").split()).title()
    return f"**{markup_to_markdown(label)}.** {body}" if label and body else body


def read_pubmed_people(article: Node) -> tuple[Person, ...]:
    people = []
    for author in (n for n in walk(article) if n.tag == "author"):
        family, given = first_text(author, "lastname"), first_text(author, "forename")
        group = first_text(author, "collectivename")
        if family:
            people.append(Person(f"{given} {family}".strip(), family, given))
        elif group:
            people.append(Person(group))
    return tuple(people)


def read_pubmed_date(issue: Node | None) -> str:
    """PubDate's Year, Month (a number or 'Jan') and Day, or a MedlineDate ('2020 Jan-Feb')."""
    date = first_node(issue, "pubdate") if issue else None
    if date is None:
        return ""
    year, month, day = (first_text(date, tag) for tag in ("year", "month", "day"))
    if not year:
        found = _YEAR.search(first_text(date, "medlinedate"))
        return found.group(1) if found else ""
    number = month if month.isdigit() else str(MONTHS.index(month[:3].lower()) + 1) \
        if month[:3].lower() in MONTHS else ""
    if not number:
        return year
    return f"{year}-{int(number):02d}" + (f"-{int(day):02d}" if day.isdigit() else "")


def read_isbn(value: str) -> str:
    """The ISBN-10 or ISBN-13 `value` is ('isbn:', hyphens and spaces aside), when its
    check digit agrees; else ''."""
    digits = re.sub(r"[\s-]", "", re.sub(r"(?i)^isbn(?:-1[03])?:?", "", value.strip()))
    if re.fullmatch(r"\d{9}[\dXx]", digits):
        total = sum((10 - at) * (10 if d in "Xx" else int(d)) for at, d in enumerate(digits))
        return digits.upper() if total % 11 == 0 else ""
    if re.fullmatch(r"97[89]\d{10}", digits):
        total = sum((3 if at % 2 else 1) * int(d) for at, d in enumerate(digits))
        return digits if total % 10 == 0 else ""
    return ""


def list_author_keys(edition: object, work: object) -> list[str]:
    """Open Library's author keys ('/authors/OL1A'): the edition's, else its work's."""
    keys = [dig(item, "key") for item in dig(edition, "authors") or []]
    if not any(keys):
        keys = [dig(item, "author", "key") for item in dig(work, "authors") or []]
    return [key for key in keys if isinstance(key, str)
            and re.fullmatch(r"/authors/OL\d+A", key)]


def read_openlibrary(edition: object, work: object, names: list[str], isbn: str) -> Found:
    """An Open Library edition (with its work and its authors' names) as a book."""
    title = text(dig(edition, "title"))
    if not isinstance(edition, dict) or not title:
        raise ValueError("the answer has no edition with a title")
    subtitle = text(edition.get("subtitle"))
    publisher = text(edition.get("publishers"))
    description = dig(edition, "description") or dig(work, "description")
    description = dig(description, "value") if isinstance(description, dict) else description
    return Found("Open Library", title + (f": {subtitle}" if subtitle else ""),
                 tuple(Person(name) for name in names), read_loose_date(
                     text(edition.get("publish_date"))), "book", venue=publisher,
                 publisher=publisher, isbn=isbn,
                 abstract=text_to_markdown(description) if isinstance(description, str)
                 else "")


def read_loose_date(value: str) -> str:
    """'March 2004', '2004', 'Mar 05, 2004' as '2004-03' or '2004'."""
    year = _YEAR.search(value)
    if not year:
        return ""
    month = next((at for at, name in enumerate(MONTHS, 1) if name in value.lower()), 0)
    return f"{year.group(1)}-{month:02d}" if month else year.group(1)
