"""A page of the old site that lists a .bib file that is not its papers: jekyll-scholar's
`{% bibliography -f details %}`, often inside `{% for y in page.years %}` with the query
`-q @*[year={{y}}]*`, showing events, talks or press kept in a file of their own.

The page keeps its address and its own text; each such tag (with the loop around it)
becomes Markdown that lists the file's entries as the old page showed them: under a
heading per year, in the order of the page's years, when it looped over years; each entry
its title, its author line (a label, on such lists), its venue, its text (`details`,
`note`, `abstract`; a `<br>` a line break, two a new paragraph) and its links. The entries
are read by the build's BibTeX reader. The .bib file itself is not moved: the new site would
read it as papers; the accounting names it as moved into the page."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from pathlib import Path

from ...diagnostics import Diagnostics
from ...reading.bib.bibparse import BibEntry, parse_library
from ...reading.bib.latex import decode_url, latex_to_rich
from ...reading.text.markup import markup_to_markdown
from .bibpage import fill_settings, name_stems, read_bib_page, read_scholar
from .frontmatter import Source
from .markup import convert_markup
from .model import Migration

_TAG = re.compile(r"\{%-?\s*bibliography\b([^%]*?)-?%\}")
_LOOP = re.compile(r"\{%-?\s*for\s+(\w+)\s+in\s+([\w.]+)\s*-?%\}(.*?)"
                   r"\{%-?\s*endfor\s*-?%\}", re.S)
_DIV_OR_LIST = re.compile(r"<div\b[^>]*>|</div\s*>|\x01\d+\x01", re.I)
_QUERY = re.compile(r"(?:--query|-q)\s+@(\w+|\*)\[([^\]]*)\]")
_CONDITION = re.compile(r"^\s*(\w+)\s*(!=|=)\s*(.*?)\s*$")
_VARIABLE = re.compile(r"\{\{-?\s*(\w+)\s*-?\}\}")
_PLACE = re.compile(r"\n*\x01(\d+)\x01\n*")
_BREAKS = re.compile(r"(?:\s*<br\s*/?>\s*)+", re.I)
TEXT_FIELDS = ("details", "note", "abstract")
VENUE_FIELDS = ("journal", "booktitle", "howpublished", "school", "institution",
                "organization", "address", "location")
LINKS = {"html": "HTML", "website": "Website", "url": "Link", "pdf": "PDF", "slides": "Slides",
         "poster": "Poster", "video": "Video", "code": "Code", "blog": "Blog",
         "supp": "Supplement"}
FILE_LINKS = ("pdf", "slides", "poster", "supp")  # a bare name is in al-folio's assets/pdf/
UNSHOWN = ("abbr", "preview")  # the old list's badge and icon


@dataclass(frozen=True)
class BibList:
    """The page's body in Markdown, its tags written out, and the .bib files it lists."""

    body: str
    files: tuple[Path, ...]


def convert_bib_lists(source: Source, mig: Migration) -> BibList | None:
    """The page with each tag that lists a .bib file other than the papers written out as
    Markdown (the rest of its text converted as a free page's is); None when it has none."""
    if not _TAG.search(source.body):
        return None
    paper = read_bib_page(mig.old, mig)
    if mig.kind == "al-folio" and not paper.found:
        return None  # every .bib file moves as papers
    settings = read_scholar(mig.old, Migration(mig.old, mig.kind))
    papers = paper.stems if mig.kind == "al-folio" else frozenset()
    lists: list[str] = []
    files: dict[Path, None] = {}

    def write_out(match: re.Match) -> str:
        tag = fill_settings(_TAG.search(match.group(0)).group(1), settings)
        paths = [mig.old / "_bibliography" / f"{stem}.bib" for stem in name_stems(tag, settings)
                 if stem not in papers]
        if not paths or not all(p.is_file() for p in paths):
            return match.group(0)  # the papers' own list, or no such file: left as text
        at = source.body_line + match.string.count("\n", 0, match.start())
        entries = [e for p in paths for e in read_entries(p, mig)]
        lists.append(write_list(match, tag, entries, source, mig.where(source.path, at), mig))
        files.update(dict.fromkeys(paths))
        return f"\x01{len(lists) - 1}\x01" + "\n" * match.group(0).count("\n")

    body = _LOOP.sub(lambda m: write_out(m) if _TAG.search(m.group(3)) else m.group(0),
                     source.body)
    body = _TAG.sub(write_out, body)
    if not lists:
        return None
    body = convert_markup(open_enclosing_blocks(body), source.path, source.body_line, mig)
    return BibList(_PLACE.sub(lambda m: f"\n\n{lists[int(m.group(1))]}\n\n", body),
                   tuple(files))


def open_enclosing_blocks(body: str) -> str:
    """`body` with each HTML block around a written-out list (al-folio's `<div
    class="publications">`) marked `markdown="1"`: Markdown inside an HTML block is read
    only when it is marked so."""
    opened: list[int] = []
    marked: set[int] = set()
    for found in _DIV_OR_LIST.finditer(body):
        if found.group(0).startswith("\x01"):
            marked.update(opened)
        elif found.group(0).startswith("</"):
            opened = opened[:-1]
        elif not found.group(0).endswith("/>"):
            opened.append(found.end() - 1)  # where its '>' is
    for at in sorted(marked, reverse=True):
        if "markdown=" not in body[body.rindex("<div", 0, at):at]:
            body = body[:at] + ' markdown="1"' + body[at:]
    return body


def read_entries(path: Path, mig: Migration) -> list[BibEntry]:
    text = mig.read_text(path)
    return parse_library(path, text, Diagnostics()).entries if text is not None else []


def write_list(match: re.Match, tag: str, entries: list[BibEntry], source: Source, where: str,
               mig: Migration) -> str:
    """One tag's list: under a heading per value of its loop (`page.years`), or whole,
    newest first; what it does not list is named."""
    query = _QUERY.search(tag)
    if match.re is _LOOP:
        sections = list_by_loop(match, query, entries, source, where, mig)
    else:
        sections = [("", sorted((e for e in entries if matches(e, query, {})), key=entry_year,
                                reverse=True))]
    shown = [e for _, found in sections for e in found]
    unseen = [e.key for e in entries if e not in shown]
    if unseen:
        mig.add_review(where, f"{len(unseen)} entr{'y' if len(unseen) == 1 else 'ies'} the "
                       f"old page's query did not show not listed: {', '.join(unseen)}")
    unshown = [name for name in UNSHOWN if any(name in e.fields for e in shown)]
    if unshown:
        mig.add_review(where, f"the entries' {' and '.join(unshown)} (the old list's badge "
                       "and icon) are not shown in the list written out here")
    return "\n\n".join((f"## {value}\n\n" if value else "") +
                       "\n\n".join(map(format_bib_item, found)) for value, found in sections)


def list_by_loop(match: re.Match, query: re.Match | None, entries: list[BibEntry],
                 source: Source, where: str, mig: Migration) -> list[tuple[str, list]]:
    """(value, its entries) for each value of the loop that shows any: the page's own
    (`years: [2025, 2024]`), and those of entries it left out only because their year was
    not yet among them, each put in its place and named in the report."""
    loop = match.group(1)
    values = read_loop_values(match.group(2), source, entries)
    looped = next((found.group(1).lower() for condition in
                   (query.group(2).split(",") if query else [])
                   if (found := _CONDITION.match(condition))
                   and _VARIABLE.search(found.group(3))), "")
    left = [e for e in entries if not any(matches(e, query, {loop: v}) for v in values)]
    extra = [value for value in dict.fromkeys(plain_value(e, looped) for e in left)
             if value and any(matches(e, query, {loop: value}) for e in left)]
    if extra:
        keys = [e.key for e in left if plain_value(e, looped) in extra]
        mig.add_review(where, f"{', '.join(keys)}: of {', '.join(extra)}, which the page's "
                       f"`{match.group(2)}` did not name (so the old page did not show them), "
                       "listed too; take them out if they were hidden on purpose")
        values = merge_values(values, extra)
    sections = [(v, [e for e in entries if matches(e, query, {loop: v})]) for v in values]
    return [(v, found) for v, found in sections if found]


def plain_value(entry: BibEntry, name: str) -> str:
    value = entry.fields.get(name) if name else None
    return " ".join(value.text.strip("{}\"' ").split()) if value is not None else ""


def merge_values(values: list[str], extra: list[str]) -> list[str]:
    """The page's values and the entries' own, newest first where the page's are (oldest
    first where they are), else the entries' after the page's."""
    every = values + extra
    if not all(v.isdigit() for v in every):
        return every
    numbers = [int(v) for v in values]
    if numbers == sorted(numbers):
        return sorted(every, key=int)
    return sorted(every, key=int, reverse=True) if numbers == sorted(numbers, reverse=True) \
        else every


def read_loop_values(name: str, source: Source, entries: list[BibEntry]) -> list[str]:
    """The values a loop takes: the page's own list (`page.years`), else the entries'
    years, newest first."""
    given = source.fields.get(name.removeprefix("page.")) if name.startswith("page.") else None
    if isinstance(given, list):
        return [str(v) for v in given]
    return sorted({entry_year(e) for e in entries if entry_year(e)}, reverse=True)


def entry_year(entry: BibEntry) -> str:
    value = entry.fields.get("year")
    return value.text.strip() if value is not None else ""


def matches(entry: BibEntry, query: re.Match | None, loop: dict[str, str]) -> bool:
    """Whether jekyll-scholar's query (`@type[field=value, field!=value]`) keeps the
    entry, the loop's variables filled in; one it cannot read keeps every entry."""
    if query is None:
        return True
    if query.group(1) != "*" and query.group(1).lower() != entry.type:
        return False
    for condition in filter(str.strip, query.group(2).split(",")):
        found = _CONDITION.match(_VARIABLE.sub(lambda m: loop.get(m.group(1), m.group(0)),
                                               condition))
        if found is None:
            continue
        name, test, value = found.groups()
        given = entry.fields.get(name.lower())
        equal = plain(given.text if given is not None else "") == plain(value)
        if equal != (test == "="):
            return False
    return True


def plain(value: str) -> str:
    return re.sub(r"[{}\"'\s]", "", value).lower()


def format_bib_item(entry: BibEntry) -> str:
    """One entry as a list item: its title in bold, its author and venue lines, its text's
    paragraphs and its links, each part below the last."""
    fields = entry.fields
    title = rich_markdown(fields["title"].text) if "title" in fields else entry.key
    lines = [f"**{title}**"] + [rich_markdown(fields[name].text) for name in ("author",)
                                if name in fields]
    venue = ", ".join(rich_markdown(fields[n].text) for n in VENUE_FIELDS if n in fields)
    paragraphs = ["  \n".join(lines + ([venue] if venue else []))]
    for name in TEXT_FIELDS:
        if name in fields:
            paragraphs += split_text(fields[name].text)
    links = [f"[{label}]({link_target(name, fields[name].text)})"
             for name, label in LINKS.items() if name in fields and fields[name].text.strip()]
    paragraphs += [" · ".join(links)] if links else []
    return "- " + "\n\n    ".join(p.replace("\n", "\n    ") for p in paragraphs if p)


def split_text(value: str) -> list[str]:
    """A text's paragraphs: two `<br>` in a row (or a blank line) part them, one breaks
    the line."""
    paragraphs = []
    for block in re.split(r"(?:\s*<br\s*/?>\s*){2,}|\n\s*\n", value, flags=re.I):
        lines = [rich_markdown(line) for line in _BREAKS.split(block)]
        if any(lines):
            paragraphs.append("  \n".join(line for line in lines if line))
    return paragraphs


def rich_markdown(value: str) -> str:
    """A BibTeX value as Markdown: LaTeX decoded, its italics, bold and formulas kept, the
    rest escaped (the abstract reader's converter)."""
    rich = latex_to_rich(value)
    return markup_to_markdown(rich.html or html.escape(rich.text, quote=False),
                              drop_heading=False).replace("\n\n", " ")


def link_target(name: str, value: str) -> str:
    """A link field's address; a bare file name is in al-folio's assets/pdf/, and links.py
    copies the file and points there."""
    url = decode_url(value).strip()
    if name in FILE_LINKS and not re.match(r"[a-z][a-z0-9+.-]*:|/", url, re.I):
        url = f"/assets/pdf/{url}"
    return url.replace(" ", "%20").replace("(", "%28").replace(")", "%29")
