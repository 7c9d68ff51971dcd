"""Hugo Blox front-matter values as real sites write them, loosely: names with Wowchemy's
line break or Markdown bold in them, two authors in one item, a DOI typed with a stray
prefix, a venue written APA-style ('*Journal, 13*(4)'), a type spelled its own way."""

from __future__ import annotations

import re

from ...reading.text.cleantext import strip_inline_html

# Wowchemy's numeric publication types, then Hugo Blox's CSL names (and their spellings
# with '_' or the words swapped, which real sites use).
PAPER_TYPES = {"0": "other", "1": "conference", "2": "journal", "3": "preprint", "4": "report",
               "5": "book", "6": "chapter", "7": "thesis", "8": "patent",
               "paper-conference": "conference", "article-journal": "journal",
               "journal-article": "journal", "conference-paper": "conference",
               "article": "preprint", "manuscript": "preprint", "preprint": "preprint",
               "report": "report", "book": "book", "chapter": "chapter",
               "book-section": "chapter", "thesis": "thesis", "patent": "patent"}
MARKS = "*†‡§¶"
SUFFIXES = {"jr", "sr", "ii", "iii", "iv", "phd", "ph.d", "md", "msc", "mba", "ma", "bsc"}
_BREAK = re.compile(r"\\n|<br\s*/?>", re.I)
_BOLD = re.compile(r"\*\*|__")
_DOI = re.compile(r"10\.\d{4,9}/[^\s\"'<>]+")
# '*Journal of X, 13*(4), 101-117' or '*Journal of X*, 13(4)': APA style, Wowchemy's example.
_APA = re.compile(r"^\s*(?:In\s*:?\s*)?\*(?P<venue>[^*]+?)(?:,\s*(?P<v1>\d+))?\*"
                  r"(?:,?\s*(?P<v2>\d+))?\s*(?:\((?P<number>[^)]+)\))?"
                  r"(?:\s*[,:]\s*(?P<pages>\d+\s*[-–]+\s*\d+))?\s*\.?\s*$")


# A Markdown link, which Hugo renders in any field: `[IEEE Access](https://...)`.
_ET_AL_END = re.compile(r",?\s*(?:\bet\.?\s*al\b\.?|\band\s+others\b\.?)\s*$", re.I)
_MD_LINK = re.compile(r"\[([^\]\n]*)\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")


def read_markdown_link(text: str) -> tuple[str, str]:
    """A field as the text Hugo showed (its Markdown links as their text), and the address
    when the whole field is one link ('' otherwise)."""
    whole = _MD_LINK.fullmatch(text.strip())
    return _MD_LINK.sub(lambda m: m.group(1), text), whole.group(2) if whole else ""


def find_markdown_links(text: str) -> list[tuple[str, str]]:
    """(text, address) of each Markdown link in a field."""
    return [(m.group(1), m.group(2)) for m in _MD_LINK.finditer(text)]


def person_name(value) -> str:
    """A name as the old site showed it: Wowchemy's line break (a literal '\\n' in the
    display name, or <br>) a space, and Markdown bold (an author highlighted by hand)
    dropped."""
    if value is None or isinstance(value, (dict, list)):
        return ""
    text = _BOLD.sub("", _BREAK.sub(" ", str(value)))
    return " ".join(text.split())


def split_names(name: str) -> tuple[list[str], str]:
    """One `authors` item as names, and a note when it was read as something else: 'Ann
    Lee, Bo Chan' (two authors in one item) is two; 'Lee, A.B.' is 'A.B. Lee'."""
    more = _ET_AL_END.search(name)
    if more and more.start() > 0:  # 'Jon Roe et al.': never a person, but more authors
        names, why = split_names(name[:more.start()])
        return [*names, "et al."], why
    parts = [p.strip() for p in name.split(",")]
    if len(parts) < 2 or not all(parts) or parts[-1].strip(".").lower() in SUFFIXES \
            or any(ch.isdigit() for ch in name):
        return [name], ""  # 'Jane Roe, PhD' is one name; 'authors 20, 25 of 25' no names
    if all(len(p.split()) >= 2 for p in parts):
        return parts, f"the author '{name}' was read as {len(parts)} authors"
    if len(parts) == 2:
        given = parts[1].rstrip(MARKS)
        flipped = f"{given} {parts[0].rstrip(MARKS)}{parts[1][len(given):]}"
        return [flipped], f"the author '{name}' was read as '{flipped}'"
    return [name], ""


def find_doi(value: str) -> str:
    """The DOI in a value ('10.1/x', 'https://doi.org/10.1/x', 'doi:10.1/x', even with a
    typo before it), or ''."""
    found = _DOI.search(value)
    return found.group(0).rstrip(".,;)") if found else ""


def split_venue(value) -> dict[str, str]:
    """An APA-style venue as venue, volume, number and pages; {} for any other."""
    found = _APA.match(value) if isinstance(value, str) else None
    if not found:
        return {}
    venue = _MD_LINK.sub(lambda m: m.group(1), found.group("venue"))  # Hugo shows its text
    parts = {"venue": strip_inline_html(venue).strip(" ,"),
             "volume": found.group("v1") or found.group("v2") or "",
             "number": (found.group("number") or "").strip(),
             "pages": re.sub(r"\s*[-–]+\s*", "–", found.group("pages") or "")}
    return {k: v for k, v in parts.items() if v}


def find_type(value) -> str:
    """scholarsite's paper type for `publication_types` ('2', 'article-journal',
    'journal_article'...), or ''."""
    first = value[0] if isinstance(value, list) and value else value
    text = str(first).strip().lower().replace("_", "-") if first is not None else ""
    return PAPER_TYPES.get(text, "")


def settle_type(value, bib: dict) -> str:
    """The paper's type; Hugo Blox's 'article' is a preprint, unless the bundle's cite.bib
    says it is a journal article (not an arXiv one): then it is that."""
    found = find_type(value)
    first = value[0] if isinstance(value, list) and value else value
    if str(first).strip().lower() == "article" and bib.get("type") == "journal" \
            and "arxiv" not in bib.get("venue", "").lower():
        return "journal"
    return found or bib.get("type", "")
