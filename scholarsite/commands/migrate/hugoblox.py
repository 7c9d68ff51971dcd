"""Hugo Blox (Wowchemy): `content/publication/`, `content/event/`, `content/post/`,
`content/project/`, the owner in `content/authors/admin/`, and the site's settings in
`config/_default/`.

Each page is a folder (a page bundle: `index.md` beside its pictures, PDF and `cite.bib`)
or a single Markdown file; the files a page uses are copied to files/<kind>/<slug>/."""

from __future__ import annotations

import re
from pathlib import Path

from ...diagnostics import Diagnostics
from ...models.forms import order_paper_fields
from ...reading.bib.bibparse import parse_library
from ...reading.bib.latex import latex_to_text
from ...reading.text.mdescape import text_to_link, text_to_markdown
from ...reading.text.papers import VENUELESS_TYPES
from .frontmatter import format_entry, mark_emphasis, strip_html
from .guard import guarded
from .dates import swapped_date
from .hugoconfig import (PLACEHOLDER_NAME, Owner, convert_body, copy_file,
                         list_of, make_date, make_settings, move_home, plain_venue,
                         read_hugo_source, read_owner, text_of)
from .hugofields import (MARKS, person_name, read_markdown_link, settle_type, split_names,
                         split_venue)
from .hugopages import find_pages
from .hugotranslations import leave_translations, paper_translations
from .hugoentry import (LINK_FIELDS, LINK_LABELS, Entry, add_link, add_venue_links,
                        copy_featured, copy_linked_file, dead_links_comment, make_links,
                        find_oldest_year, make_text, read_address, stand_in_date)
from .model import NO_VENUE, Migration

SECTIONS = {"publications": ("publication", "publications"), "talks": ("event", "talk"),
            "posts": ("post", "posts", "blog"), "projects": ("project", "projects")}
OWNER_FOLDERS = ("authors", "author")
HUGO_DATES = ("date", "publishdate", "lastmod")  # front matter keys, read lower-cased
BIB_TYPES = {"inproceedings": "conference", "conference": "conference", "article": "journal",
             "phdthesis": "thesis", "mastersthesis": "thesis", "techreport": "report",
             "book": "book", "incollection": "chapter", "inbook": "chapter",
             "unpublished": "preprint", "misc": "preprint", "patent": "patent"}


def read_hugoblox(old: Path, mig: Migration) -> None:
    """Add the settings, owner, papers, talks, posts and projects of a Hugo Blox site."""
    owner = read_owner(old, mig)
    mig.site = make_settings(old, owner, mig)
    move_home(owner, mig)
    legend: dict[str, str] = {}
    papers = find_entries(old, "publications", mig)
    oldest = find_oldest_year(papers)
    for entry in papers:
        guarded(mig, mig.where(entry.source.path, 1), move_paper, entry, owner, legend,
                oldest, mig)
    projects = find_entries(old, "projects", mig)
    related = relate_papers(papers, projects, mig)
    for entry in projects:
        guarded(mig, mig.where(entry.source.path, 1), move_project, entry,
                related.get(entry.old_path, []), mig)
    talks, posts = find_entries(old, "talks", mig), find_entries(old, "posts", mig)
    for entry in talks:
        guarded(mig, mig.where(entry.source.path, 1), move_talk, entry,
                find_oldest_year([*papers, *talks]), mig)
    for entry in posts:
        guarded(mig, mig.where(entry.source.path, 1), move_post, entry, mig)
    for entry in [*projects, *talks, *posts]:
        leave_translations(entry, mig)
    if legend:
        mig.site["publications"] = {"author_notes": {m: t for t, m in legend.items()}}
    note_other_content(old, mig)


def entry_date(entry: Entry, mig: Migration) -> str:
    """The page's date as YYYY-MM-DD; '2021-31-01', which has no month 31, read with day and
    month swapped (Hugo fails on it; the owner meant 31 January), and said so. A page
    without `date` has Hugo's next: `publishDate`, then `lastmod` (Hugo's default order)."""
    f = entry.source.fields
    key = next((k for k in HUGO_DATES if f.get(k) not in (None, "")), "date")
    date = make_date(f.get(key))
    if len(date) < 7 or int(date[5:7]) <= 12:
        return date
    swapped = swapped_date(date) or ""
    mig.add_review(entry.where(mig, key), f"the date {date!r} has no month {date[5:7]}: "
                   + (f"read as {swapped}" if swapped else "not used"))
    return swapped


def find_entries(old: Path, kind: str, mig: Migration) -> list[Entry]:
    """The pages of one kind, at any depth of its sections (hugopages: Hugo's rule)."""
    entries = []
    for section in SECTIONS[kind]:
        folder = old / "content" / section
        if (folder / "index.md").is_file():  # a leaf bundle: one page, the rest its files
            mig.leave(mig.where(folder / "index.md"), f"the page of content/{section}/ itself "
                      f"(Hugo shows none of the folder's other files as a page): no {kind}")
            continue
        for page in find_pages(folder, text_of(mig.site.get("language"))):
            source = read_hugo_source(page.path, mig)
            if source is None and page.path.stem.startswith("index"):
                leave_bundle(page.path.parent, mig)
            if source is not None:
                name = text_of(source.fields.get("slug")) or page.name
                slug = base = mig.free_slug(kind, name)
                while any(e.slug == slug for e in entries):  # not yet in mig.files
                    slug = f"{base}-{len(entries) + 1}"
                entries.append(Entry(source, kind, slug,
                                     f"{section}/{page.within}{name.lower()}/", page.translations))
    return entries


def leave_bundle(folder: Path, mig: Migration) -> None:
    """The files of a bundle whose page was left behind (a template's sample, say its
    picture) stay behind with it, each named, so that none seems to have been forgotten."""
    page = mig.where(folder / "index.md")
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and p.name != "index.md"):
        mig.leave(mig.where(path), f"a file of {page}, which was left behind; not moved")


def add_redirects(entry: Entry, mig: Migration) -> None:
    """The old address, and the `aliases` Hugo already redirected, to the new page."""
    new = f"{entry.kind}/{entry.slug}/"
    if entry.source.fields.get("draft") is True:
        return  # Hugo never published it, and the new site does not either
    for old in [entry.old_path, *list_of(entry.source.fields.get("aliases"))]:
        mig.add_redirect(old, new)


# --- Papers -------------------------------------------------------------------------------


def move_paper(entry: Entry, owner: Owner, legend: dict[str, str], oldest: str,
               mig: Migration) -> None:
    f = entry.source.fields
    if f.get("draft") is True:
        mig.leave(entry.where(mig, "draft"), "a draft paper; not moved")
        return
    bib = read_cite_bib(entry.folder / "cite.bib", mig) \
        if entry.bundled and (entry.folder / "cite.bib").is_file() else {}
    apa = split_venue(f.get("publication"))
    title, title_link = read_markdown_link(text_of(f.get("title")))
    fields = {"title": mark_emphasis(title) or bib.get("title", ""),
              "authors": make_authors(entry, owner, legend, mig) or bib.get("authors", []),
              "venue": apa.get("venue") or plain_venue(f.get("publication"))
              or bib.get("venue", ""),
              "venue_short": plain_venue(f.get("publication_short") or f.get("venue_short")),
              "date": entry_date(entry, mig) or bib.get("year", "")
              or stand_in_date(entry, oldest, mig),
              "type": settle_type(f.get("publication_types"), bib)}
    fields.update({k: v for k, v in {**bib, **apa}.items()
                   if k in ("volume", "number", "pages", "publisher")})
    fields["topics"] = list_of(f.get("tags"))
    fields["links"] = make_links(entry, bib, mig)
    if title_link and title_link not in fields["links"].values():
        add_link(fields["links"], "url", title_link, entry, "title", mig)
    add_venue_links(entry, fields["links"])
    fields["preview"] = copy_featured(entry, mig)
    fields["selected"] = True if f.get("featured") is True else None
    if not check_paper(entry, fields, owner, mig):
        return
    body = make_text(entry, "abstract", mig)
    fields["translations"] = paper_translations(entry, fields, body, mig)
    header = dead_links_comment(fields["links"])
    mig.add_text(f"publications/{entry.slug}.md",
                 format_entry(order_paper_fields(fields), body, header=header), "paper",
                 mig.where(entry.source.path))
    add_redirects(entry, mig)


def check_paper(entry: Entry, fields: dict, owner: Owner, mig: Migration) -> bool:
    """Fill what a paper must have, or leave it (False) when that cannot be guessed."""
    if not fields["title"]:
        mig.leave(entry.where(mig), "a paper without a title; not moved")
        return False
    if not fields["authors"]:
        fields["authors"] = [owner.name or PLACEHOLDER_NAME]
        mig.add_review(entry.where(mig), "no authors: the owner is written as the only one")
    links = fields["links"]
    if not fields["venue"] and not (fields["type"] in ("preprint", "report") and "arxiv" in links):
        # A type that names where it appeared (journal, conference) would then claim a
        # journal called 'Manuscript'; a preprint or report keeps its type.
        fields["venue"] = NO_VENUE
        fields["type"] = fields["type"] if fields["type"] in VENUELESS_TYPES else "other"
        mig.add_review(entry.where(mig, "publication"), f"no venue; written as '{NO_VENUE}' "
                       f"(type: {fields['type']})")
    elif fields["venue"].casefold() == fields["title"].casefold():
        mig.add_review(entry.where(mig, "publication"), "the venue is the paper's own title; "
                       "write where it appeared")
    return True


def make_authors(entry: Entry, owner: Owner, legend: dict[str, str], mig: Migration
                 ) -> list[str]:
    """Authors by name: a profile's username (`admin`, in any case, as Hugo matches it) is
    its name; Hugo Blox's `author_notes` (one per author) become marks after the names,
    with a legend."""
    f = entry.source.fields
    notes = f.get("author_notes") if isinstance(f.get("author_notes"), list) else []
    out = []
    authors = f.get("authors") if isinstance(f.get("authors"), list) else [f.get("authors")]
    for n, author in enumerate(authors):
        name = person_name(author)
        if not name:
            continue
        if name.lower() in ("admin", "me"):  # the owner, even without a profile naming them
            name = owner.usernames.get(name.lower()) or owner.name or PLACEHOLDER_NAME
        names, why = split_names(owner.usernames.get(name.lower(), name))
        if why:
            mig.add_review(entry.where(mig, "authors"), f"{why}; check the authors")
        note = text_of(notes[n]) if n < len(notes) else ""
        if note and len(legend) < len(MARKS):
            legend.setdefault(note, MARKS[len(legend)])
        out.extend(one + legend.get(note, "") for one in names)
    return out


def read_cite_bib(path: Path, mig: Migration) -> dict:
    """What a bundle's `cite.bib` adds: venue, volume, pages... (its first entry)."""
    text = mig.read_text(path)
    if text is None:
        return {}
    library = parse_library(path, text, Diagnostics())
    if not library.entries:
        mig.add_review(mig.where(path), "no BibTeX entry could be read here; not used")
        return {}
    entry = library.entries[0]
    mig.read.add(mig.where(path))  # its facts join the paper's: accounted for
    value = {k: latex_to_text(v.text) for k, v in entry.fields.items()}
    out = {"title": value.get("title", ""), "year": value.get("year", ""),
           "venue": value.get("booktitle") or value.get("journal") or value.get("school", ""),
           "type": BIB_TYPES.get(entry.type, ""), "doi": value.get("doi", ""),
           "authors": [flip_name(a) for a in re.split(r"\s+and\s+", value.get("author", ""))
                       if a.strip()]}
    out.update({k: value[k] for k in ("volume", "number", "pages", "publisher") if k in value})
    return {k: v for k, v in out.items() if v}


def flip_name(name: str) -> str:
    """'Family, Given' -> 'Given Family'."""
    family, _, given = name.partition(",")
    return f"{given.strip()} {family.strip()}".strip() if given else name.strip()


# --- Talks and posts ----------------------------------------------------------------------


def move_talk(entry: Entry, oldest: str, mig: Migration) -> None:
    f = entry.source.fields
    fields = {"title": text_of(f.get("title")),
              "date": entry_date(entry, mig) or stand_in_date(entry, oldest, mig),
              "event": text_of(f.get("event")), "location": make_location(f)}
    links: dict[str, str] = {}
    for key, kind in LINK_FIELDS:
        add_link(links, kind, f.get(key), entry, key, mig)
    header = dead_links_comment(links)
    fields["slides"] = links.pop("slides", "")
    fields["video"] = links.pop("video", "")
    fields["draft"] = True if f.get("draft") is True else None
    if not fields["title"]:
        mig.leave(entry.where(mig), "a talk needs a title; not moved")
        return
    text = make_text(entry, "abstract", mig)
    bases = {"arxiv": "https://arxiv.org/abs/", "doi": "https://doi.org/"}  # bare ids
    extra = [text_to_link(LINK_LABELS.get(kind, kind.capitalize()), bases.get(kind, "") + url)
             for kind, url in links.items()]
    if text_of(f.get("event_url")):
        extra.insert(0, text_to_link("Event page", text_of(f.get("event_url"))))
    if extra:
        text = f"{text}\n\n{' · '.join(extra)}".strip()
    mig.add_text(f"talks/{entry.slug}.md", format_entry(fields, text, header=header), "talk",
                 mig.where(entry.source.path))
    add_redirects(entry, mig)


def make_location(f: dict) -> str:
    address = f.get("address") if isinstance(f.get("address"), dict) else {}
    location = text_of(f.get("location"))
    parts = [location] + [text_of(address.get(k)) for k in ("city", "region", "country")
                          if text_of(address.get(k)).casefold() not in location.casefold()]
    return ", ".join(dict.fromkeys(p for p in parts if p))


def move_post(entry: Entry, mig: Migration) -> None:
    f = entry.source.fields
    tags = list_of(f.get("tags")) + list_of(f.get("categories"))
    fields = {"title": text_of(f.get("title")), "date": entry_date(entry, mig),
              "tags": list(dict.fromkeys(tags)),
              "summary": strip_html(text_of(f.get("summary"))),
              "draft": True if f.get("draft") is True else None}
    if not fields["title"] or not fields["date"]:
        mig.leave(entry.where(mig), "a post needs a title and a date; not moved")
        return
    picture = copy_featured(entry, mig)
    text = make_text(entry, "", mig)
    if picture and picture not in text:
        caption = f.get("image", {}).get("caption") if isinstance(f.get("image"), dict) else ""
        alt = text_to_markdown(strip_html(text_of(caption)) or fields["title"])
        text = f"![{alt}]({picture})\n\n{text}"
    mig.add_text(f"posts/{entry.slug}.md", format_entry(fields, text), "post",
                 mig.where(entry.source.path))
    add_redirects(entry, mig)


# --- Projects -----------------------------------------------------------------------------

# A project's link fields, in Hugo Academic's order, and the text each is shown with.
PROJECT_LINKS = (("external_link", "Website"), ("url_code", "Code"), ("url_pdf", "PDF"),
                 ("url_slides", "Slides"), ("url_video", "Video"), ("url_source", "Source"),
                 ("url_dataset", "Data"), ("url_poster", "Poster"))


def relate_papers(papers: list[Entry], projects: list[Entry], mig: Migration
                  ) -> dict[str, list[str]]:
    """The moved papers of each project (by its old address): Hugo links them from the
    paper's side (`projects: [name]`), scholarsite from the project's (`papers:`). A name
    that is no project moved here is said, with the paper."""
    found: dict[str, list[str]] = {p.old_path: [] for p in projects}
    by_name = {old.rstrip("/").rsplit("/", 1)[-1]: old for old in reversed(found)}  # 1st wins
    for paper in papers:
        if f"publications/{paper.slug}.md" not in mig.files:
            continue  # left behind: no page to list
        for name in list_of(paper.source.fields.get("projects")):
            key = name.strip("/").rsplit("/", 1)[-1].removesuffix(".md").lower()
            old = by_name.get(key)
            if old is None:
                mig.leave(paper.where(mig, "projects"), f"the link to project '{name}' was "
                          "not moved: no such project was moved")
            elif paper.slug not in found[old]:
                found[old].append(paper.slug)
    return found


def move_project(entry: Entry, papers: list[str], mig: Migration) -> None:
    f = entry.source.fields
    fields = {"title": text_of(f.get("title")), "date": entry_date(entry, mig),
              "summary": strip_html(text_of(f.get("summary"))),
              "image": copy_featured(entry, mig) or copy_image(entry, mig),
              "links": make_project_links(entry, mig), "papers": papers,
              "draft": True if f.get("draft") is True else None}
    if not fields["title"]:
        mig.leave(entry.where(mig), "a project needs a title; not moved")
        return
    below = f"{entry.kind}/{entry.slug}"
    body = convert_body(entry.source, mig,
                        lambda ref: copy_file(ref, entry.folder, below, mig)).strip()
    mig.add_text(f"projects/{entry.slug}.md", format_entry(fields, body), "project",
                 mig.where(entry.source.path))
    add_redirects(entry, mig)


def copy_image(entry: Entry, mig: Migration) -> str:
    """The picture `image: {filename: ...}` names (beside the page, or in assets/media/)."""
    image = entry.source.fields.get("image")
    name = text_of(image.get("filename")) if isinstance(image, dict) else ""
    below = f"{entry.kind}/{entry.slug}"
    return next((new for ref in (name, f"media/{name}") if name
                 for new in [copy_file(ref, entry.folder, below, mig)] if new), "")


def make_project_links(entry: Entry, mig: Migration) -> dict[str, str]:
    """`external_link`, the `url_*` fields and the `links:` items (name: url) as text: URL;
    a file of the old site is copied."""
    f = entry.source.fields
    pairs = [(key, label, f.get(key)) for key, label in PROJECT_LINKS]
    items = f.get("links") or f.get("url_custom")
    pairs += [("links", text_of(i.get("name")) or "Link", i.get("url"))
              for i in (items if isinstance(items, list) else []) if isinstance(i, dict)]
    links: dict[str, str] = {}
    for key, label, value in pairs:
        url, _ = read_address(text_of(value), "url", entry.where(mig, key), key, mig)
        if url and not re.match(r"(https?|mailto):", url, re.I):
            url = copy_linked_file(url, value, entry, key, mig)
        if url and url not in links.values():
            name, count = label, 1
            while name in links:  # a second 'Code' is 'Code 2'
                count += 1
                name = f"{label} {count}"
            links[name] = url
    return links


def note_other_content(old: Path, mig: Migration) -> None:
    """Name what was not moved: the home page's blocks, slides, other sections."""
    moved = {s for sections in SECTIONS.values() for s in sections} | set(OWNER_FOLDERS)
    content = old / "content"
    for child in sorted(content.iterdir()) if content.is_dir() else []:
        if child.name.startswith(".") or child.name in moved:
            continue
        if child.name in ("_index.md", "home"):
            mig.leave(mig.where(child), "the old home page's sections (blocks or widgets) "
                      "were not moved: the bio is index.md; add what else you need to it")
        else:
            mig.leave(mig.where(child), "not moved: scholarsite has no such section; move "
                      "what you need into pages/ (a free page) or a collection")
