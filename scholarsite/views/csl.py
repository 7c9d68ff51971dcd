"""CSL-JSON (https://citeproc-js.readthedocs.io/en/latest/csl-json/markup.html), the
format Zotero, Pandoc and citation.js read: one item per paper, made from the same model
as its BibTeX and RIS. A paper's own download is a list of its one item; `/publications.json`
lists every paper's (kinds.EXPORTS joins them). Tests read both back with citation.js.
"""

from __future__ import annotations

import json

from .citations import container_title, make_bibtex_key, split_pages, status_label
from ..models import Author, Paper
from .names import name_parts

CSL_TYPES = {
    "conference": "paper-conference", "journal": "article-journal", "preprint": "article",
    "report": "report", "thesis": "thesis", "book": "book", "chapter": "chapter",
    "patent": "patent", "other": "document",
}
# What goes around the items of a CSL-JSON file (a list).
LIST_HEAD, LIST_TAIL = "[\n", "\n]\n"


def csl_name(author: Author) -> dict:
    """{family, given, suffix}; a corporate author (a family name with a space and no
    given name) as a literal."""
    family, given, suffix = name_parts(author)
    if not given:
        return {"literal": family} if " " in family else {"family": family}
    name = {"family": family, "given": given}
    if suffix:
        name["suffix"] = suffix
    return name


def csl_item(paper: Paper, page_url: str) -> dict:
    """The paper as one CSL-JSON item; empty fields left out."""
    date = [part for part in (paper.date.year, paper.date.month, paper.date.day) if part] \
        if paper.date else []
    first, last = split_pages(paper.pages)
    venue = paper.venue or paper.venue_short
    item = {"id": make_bibtex_key(paper), "type": CSL_TYPES[paper.type],
            "title": paper.title, "author": [csl_name(a) for a in paper.authors],
            "issued": {"date-parts": [date]}}
    if not date:  # CSL's own variable for 'in press', which styles print for the date
        del item["issued"]
        if paper.status:  # an undated web page has none
            item["status"] = status_label(paper).lower()
    container = container_title(paper)
    if container:
        item["container-title"] = container
        if paper.venue_short and paper.venue_short != container:
            item["container-title-short"] = paper.venue_short
    publisher = paper.publisher or (paper.institution if paper.type in ("report", "thesis")
                                    else "") or (venue if paper.type == "book" else "")
    if paper.type == "preprint" and paper.arxiv and not publisher:
        publisher = "arXiv"
    fields = {"publisher": publisher, "publisher-place": paper.location,
              "volume": paper.volume, "issue": paper.number if paper.type != "report" else "",
              # A preprint's arXiv id: APA prints another's as "Article arXiv:...".
              "number": paper.number if paper.type == "report" else
              (f"arXiv:{paper.arxiv}" if paper.arxiv and paper.type == "preprint" else ""),
              "page": join_pages(first, last), "page-first": first,
              "DOI": paper.doi, "ISBN": paper.isbn, "URL": paper.link("url") or page_url,
              "abstract": paper.abstract_text,
              "note": paper.note}
    item.update((key, value) for key, value in fields.items() if value)
    if paper.editors:
        item["editor"] = [csl_name(editor) for editor in paper.editors]
    if paper.type == "thesis":
        item["genre"] = "Master's thesis" if paper.bibtex_type == "mastersthesis" \
            else "PhD thesis"
    return item


def join_pages(first: str, last: str) -> str:
    """'15-27'; compound pages ('10-1' to '10-20') joined by an en dash, which CSL
    processors read as the range's."""
    if not last:
        return first
    return f"{first}{'–' if '-' in first + last else '-'}{last}"


def make_csl(paper: Paper, page_url: str) -> str:
    """The paper's item as it stands in /publications.json: one line, indented."""
    return "  " + json.dumps(csl_item(paper, page_url), ensure_ascii=False)


def csl_download(item_text: str) -> str:
    """A paper's own CSL-JSON file: a list of its one item."""
    return LIST_HEAD + item_text + LIST_TAIL
