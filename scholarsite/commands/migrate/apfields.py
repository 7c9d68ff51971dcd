"""academicpages' fields as real sites write them, past what the template itself makes:
files Jekyll published without a suffix, dates YAML cannot read, `Authors:` with a
capital, link fields of the user's own (`arxiv:`, `code:`), authors kept only in BibTeX,
in the excerpt or on the abstract's first line, and the labels around an abstract."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from ...diagnostics import Diagnostics
from ...reading.bib.latex import text_to_rich
from ...reading.settings.yamlread import read_bytes
from ...reading.text.mdescape import text_to_markdown
from .citestyles import (clean_citation, describe_doubt, invert, looks_like_name,
                         parse_cited_authors, same_person, split_names)
from .frontmatter import Source, TextDates, key_line, read_source, strip_html
from .dates import (DateOrder, date_from_name, date_status, normalize_date, read_loose_date,
                    split_numeric, swapped_date)
from .fieldmap import link_fields, pick
from .model import Migration

MARKDOWN = (".md", ".markdown", ".html")
# Link fields sites add themselves, and scholarsite's kind for each ('' decides by address).
EXTRA_LINKS = {"pdf": "pdf", "pdfurl": "pdf", "arxiv": "arxiv", "arxivurl": "arxiv",
               "code": "code", "github": "code", "poster": "poster", "slides": "slides",
               "video": "video", "presentationurl": "", "doi": "doi", "htmlurl": "html",
               "webpage": "html", "website": "html", "project": "html", "projecturl": "html",
               "preprint": "", "preprinturl": "", "preprent": "", "supp": "supp"}
TITLE_WORDS = 6
_VIDEO = re.compile(r"youtube\.com|youtu\.be|vimeo\.com|\.mp4$", re.I)
_BIB_AUTHOR = re.compile(r"\bauthor\s*=\s*(?:\{((?:[^{}]|\{[^{}]*\})*)\}|\"([^\"]*)\")",
                         re.I | re.S)
_FENCE = re.compile(r"^\s*(```|~~~)")
_LABEL = re.compile(r"^\s*(?:[+*-]\s+)?(?:#+\s*)?(?:\*\*|__)?\s*(?:abstract|summary)\s*"
                    r"(?:[:.]\s*(?:\*\*|__)?|(?:\*\*|__)\s*[:.]?|$)\s*", re.I)
_AUTHOR_LABEL = re.compile(r"^\s*(?:[+*-]\s+)?\**\s*authors?\s*[:：]\s*\**\s*", re.I)
_DOI_LINE = re.compile(r"^\s*(?:[+*-]\s+)?\**doi\**\s*:", re.I)
_DOI = re.compile(r"\b(10\.\d{4,9}/[^\s)\]\"'<>]+)")


def is_document(path: Path, mig: Migration) -> bool:
    """A file Jekyll made a page of: Markdown or HTML, or one with no suffix that opens
    with front matter ('1234' beside '1.md'), looked at through the guarded reader."""
    if path.suffix.lower() in MARKDOWN:
        return True
    if path.suffix:
        return False
    data = read_bytes(path, Diagnostics(), mig.old)
    return data is not None and data.lstrip(b"\xef\xbb\xbf").startswith(b"---")


def read_entry(path: Path, mig: Migration) -> Source | None:
    """The file as frontmatter.read_source reads it, a date YAML cannot read ('0000-00-00')
    kept as text, as Jekyll reads it."""
    return read_source(path, mig, TextDates)


_KEY_BREAKS = re.compile(r"[-_ ]")


def field(fields: dict, key: str):
    """A field whatever its case and word breaks: `Authors:` is `authors:`, and
    `co-authors:` or `co_authors:` is `coauthors:`."""
    if key in fields:
        return fields[key]
    wanted = _KEY_BREAKS.sub("", key.lower())
    return next((v for k, v in fields.items()
                 if _KEY_BREAKS.sub("", str(k).lower()) == wanted), None)


def own_path(permalink: str, prefixes: tuple[str, ...]) -> str:
    """A `permalink` as a path of the old site; '' for an address on another site (a
    journal's page), which no redirect can stand for."""
    url = permalink.strip()
    for prefix in prefixes:
        if url.lower().startswith(prefix.lower() + "/"):
            return url[len(prefix):]
    return "" if re.match(r"^(?:[a-z][a-z0-9+.-]*:|//)", url, re.I) else url


def extra_links(fields: dict) -> list[tuple[str, str]]:
    """(field, kind) of the link fields a site added itself, in the file's order."""
    return [(key, EXTRA_LINKS[key.lower()]) for key, value in fields.items()
            if key.lower() in EXTRA_LINKS and isinstance(value, str) and value.strip()]


def link_kind(target: str) -> str:
    low = target.lower()
    return "pdf" if low.endswith(".pdf") else "doi" if "doi.org/" in low else \
        "arxiv" if "arxiv.org/" in low else "video" if _VIDEO.search(low) else "url"


def absolute_link(value: str, old: Path) -> str:
    """A pasted link made whole: invisible characters (U+FEFF) out, a bare DOI
    ('10.1000/x', 'doi:10.1000/x') as its doi.org address, a host without its scheme
    ('x.com/name') with https:// when the old site has no such file."""
    value = re.sub(r"[\u200b-\u200d\u2060\ufeff]", "", value).strip()
    doi = re.fullmatch(r"(?:doi:\s*)?(10\.\d{4,9}/\S+)", value, re.I)
    if doi:
        return f"https://doi.org/{doi.group(1)}"
    if re.match(r"^(?:www\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}(?:/|$)", value, re.I) \
            and not (old / value).exists():
        return f"https://{value}"
    return value


def clean_title(title: str) -> str:
    """Without a list number set as code ('`11.`Title') or a closing quote left over."""
    title = re.sub(r"^`\d+\.?`\s*", "", title).strip()
    if title[-1:] in "”\"" and not re.search(r"[“\"]", title[:-1]):
        title = title[:-1].rstrip(" ,")
    return title


def new_name(name: str, title: str) -> str:
    """The new file's name: the old one, unless it is only a number ('1', '012018'),
    which says nothing; then the title's first words."""
    if re.fullmatch(r"[\d\W_]+", name):
        words = re.sub(r"[^\w]+", " ", title.lower()).split()
        return "-".join(words[:TITLE_WORDS]) or name
    return name


def bibtex_authors(source: Source) -> list[str]:
    """The `author` of a BibTeX entry in a `bibtex` field or in the text, 'Given Family'."""
    text = f"{field(source.fields, 'bibtex') or ''}\n{source.body}"
    match = _BIB_AUTHOR.search(text)
    if not match:
        return []
    value = re.sub(r"[{}*]", "", match.group(1) or match.group(2) or "")
    names = []
    for name in re.split(r"\s+and\s+", " ".join(value.split())):
        family, comma, given = name.partition(",")
        names.append(invert(family, given) if comma else name.strip())
    return [n for n in names if n and n.lower() != "others"]


def name_list(text: str) -> list[str]:
    """The names of a line that is nothing but names ('**A. Doe**, B. Roe*'), else []."""
    text = _AUTHOR_LABEL.sub("", re.sub(r"<sup>.*?</sup>", "", text, flags=re.I))
    text = re.split(r"<br\s*/?>|\s\[|\\$", text, maxsplit=1)[0]
    text = clean_citation(text.replace("\\*", "").replace("*", "")).rstrip(" .")
    names = split_names(text) if text.count(",") or " and " in text else []
    return names if len(names) >= 2 and all(map(looks_like_name, names)) else []


def text_authors(source: Source) -> tuple[list[str], int | str]:
    """Authors the old page showed as a line of text, and where: the first lines of the
    abstract (their index in the body), else the excerpt or a citation of names only."""
    lines = source.body.split("\n")
    for index, line in [(i, l) for i, l in enumerate(lines) if l.strip()][:3]:
        names = name_list(line)
        if names:
            return names, index
    for key in ("excerpt", "citation"):
        value = field(source.fields, key)
        if isinstance(value, str) and name_list(value):
            return name_list(value), key
    return [], ""


def clean_abstract(body: str, citation: str, links: dict, skip: int | None) -> str:
    """The abstract without a BibTeX block, the citation said again, an 'Abstract' label,
    a 'DOI:' line (its DOI kept as a link) or the line of authors (`skip`); blanked, so
    the lines the report names stay right."""
    lines, fenced, opened = body.split("\n"), False, 0
    cited = " ".join(clean_citation(citation).split())[:40].lower()
    for index, line in enumerate(lines):
        if _FENCE.match(line):
            fenced, opened = not fenced, index if not fenced else opened
            if not fenced and re.match(r"\s*@\w+\s*\{", "\n".join(lines[opened + 1:index])):
                lines[opened:index + 1] = [""] * (index + 1 - opened)
            continue
        plain = " ".join(clean_citation(line).split()).lower()
        if index == skip or (len(cited) >= 30 and plain.startswith(cited)):
            lines[index] = ""
        elif _DOI_LINE.match(line) and _DOI.search(line):
            links.setdefault("doi", "https://doi.org/" + _DOI.search(line).group(1))
            lines[index] = ""
        elif not fenced:
            lines[index] = _LABEL.sub("", line)
    return "\n".join(line if line.strip(" +*#-") else "" for line in lines)


def plain_excerpt(source: Source) -> str:
    """The excerpt as an abstract: not when it is the authors or the citation again."""
    excerpt = field(source.fields, "excerpt")
    if not isinstance(excerpt, str) or name_list(excerpt):
        return ""
    text = clean_abstract(strip_html(excerpt), paper_citation(source), {}, None).strip()
    return text_to_markdown(text)  # shown as text by the old site: never HTML now


def paper_citation(source: Source) -> str:
    """The citation as text, its formulas in Unicode ('H$_{2}$O' -> 'H₂O': the page shows
    a citation as text); a stand-in of a word or two ('cite') is none."""
    citation = text_to_rich(clean_citation(str(source.fields.get("citation") or ""))).text
    return citation if len(citation.split()) >= 4 else ""


# --- Fields and authors ----------------------------------------------------------------


def text_field(source: Source, key: str) -> str:
    """A field as one line of plain text ('' when absent): academicpages escapes HTML."""
    value = source.fields.get(key)
    return "" if value is None or isinstance(value, (dict, list)) else strip_html(str(value))


def paper_authors(source: Source, owner: str, mig: Migration,
                  comments: dict) -> tuple[list, int | None]:
    """The authors: the `authors` or `coauthors` field, else read from the citation, a
    BibTeX entry or a line of names; and the abstract's line they were read from."""
    if field(source.fields, "authors"):
        return split_names(field(source.fields, "authors")), None
    if field(source.fields, "coauthors"):
        names = split_names(field(source.fields, "coauthors"))
        if owner and not any(same_person(owner, n) for n in names):
            names.insert(0, owner)
            comments["authors"] = "The site's owner was added first: move the name to its place."
            mig.add_review(mig.where(source.path, key_line(source, "coauthors")),
                           f"'coauthors' leaves out {owner}, added as first author")
        return names, None
    cited = parse_cited_authors(str(source.fields.get("citation") or ""),
                                text_field(source, "title"))
    if cited.certain or bibtex_authors(source):
        return list(cited.names) if cited.certain else bibtex_authors(source), None
    names, found = text_authors(source)
    if names:
        comments["authors"] = "Read from the old page's line of names: check them."
        line = found if isinstance(found, int) else None
        where = source.body_line + line if line is not None else key_line(source, str(found))
        mig.add_review(mig.where(source.path, where), "authors read from a line of names; "
                       f"check them: {', '.join(names)}")
        return names, line
    return cited_authors(source, owner, mig, comments), None


def cited_authors(source: Source, owner: str, mig: Migration, comments: dict) -> list:
    citation = str(source.fields.get("citation") or "")
    cited = parse_cited_authors(citation, text_field(source, "title"))
    if cited.certain:
        return list(cited.names)
    why = describe_doubt(cited, citation)
    # Names a style migrate does not know gave are a guess, which may drop the owner and
    # others: then the owner stands for the list, and the report says so.
    names = list(cited.names) + ["et al."] if cited.names and cited.style else \
        [owner, "et al."] if owner else ["Unknown author"]
    comments["authors"] = f"Check the authors: {why}."
    line = key_line(source, "citation") if citation.strip() else 1
    mig.add_review(mig.where(source.path, line), f"authors to check: {why}; written as "
                   f"{', '.join(names)}")
    return names


def mapped_text(source: Source, fact: str, mig: Migration) -> str:
    """A fact a fork keeps in a field of its own (`conference:`, `abstract:`), as text."""
    value = pick(source.fields, fact, mig.fieldmap)[1]
    return "" if value is None or isinstance(value, (dict, list)) else strip_html(str(value))


def own_links(source: Source, known: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """Link fields a fork named itself (`arxiv_link`, `code_url`), past the `known` ones
    and those extra_links finds."""
    known += tuple(k.lower() for k, _ in extra_links(source.fields))
    return tuple((key, kind) for key, kind, _ in link_fields(source.fields, known)
                 if re.search(r"[_-](?:url|link)$", key, re.I))


def entry_date(source: Source, order: DateOrder, mig: Migration) -> str | None:
    """The front matter's date made ISO, else read as far as it can be, else the one of
    the file name; each guess named in the report."""
    value = source.fields.get("date")
    where = mig.where(source.path, key_line(source, "date"))
    iso = normalize_date(value, order) if value is not None else None
    pair = split_numeric(value)
    if iso and pair and pair[0] != pair[1] and max(pair[:2]) <= 12:  # either order reads it
        mig.add_review(where, f"the date {value!r} read as {iso} ({order.why})")
    if iso is None and swapped_date(value):
        iso = swapped_date(value)
        mig.add_review(where, f"the date {value!r} has no month {str(value)[5:7]}: read as {iso}")
    elif value is not None and iso is None and not date_status(value):
        iso, how = read_loose_date(value, order)
        mig.add_review(where, f"the date {value!r} read as {iso} ({how})" if iso else
                       f"the date {value!r} was not understood; the file name's date or the "
                       "citation's year was used")
    return iso or date_from_name(source.path.stem)


def stand_in_date(source: Source, order: DateOrder, mig: Migration, comments: dict) -> str:
    """The date of an item whose own cannot be read: the site's oldest year, so that it
    is listed last; its text as written is kept in a comment, and the report names it."""
    year = str(min(order.years)) if order.years else str(dt.date.today().year)
    value = source.fields.get("date")
    said = f"The old site's date is {str(value)!r}, which gives no year" if value not in (
        None, "") else "The old site gives no date"
    comments["date"] = f"{said}: {year} stands in, so that it is listed last."
    mig.add_review(mig.where(source.path, key_line(source, "date")),
                   f"{said[0].lower()}{said[1:]}; written as {year} (the site's oldest year, "
                   "listed last): give its date")
    return year
