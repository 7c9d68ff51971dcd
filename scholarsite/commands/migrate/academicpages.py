"""academicpages: `_publications/`, `_talks/`, `_teaching/`, `_posts/`, `_portfolio/`.

Each folder's files become one collection's; every old page's address (its `permalink`, or
the config's pattern's) is redirected to the new one. A paper the old site says too little
about is written, the missing part guessed and said in a comment."""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

from .apfields import (absolute_link, clean_abstract, clean_title, entry_date, extra_links,
                       is_document, link_kind, mapped_text, new_name, own_links, own_path,
                       paper_authors, paper_citation, plain_excerpt, read_entry,
                       stand_in_date, text_field)
from .categories import read_category_titles, sort_category
from .citestyles import strip_boilerplate, venue_from_citation, year_from_citation
from .dates import (DateOrder, date_from_name, decide_order, is_placeholder, normalize_date,
                    date_status)
from .fieldmap import pick, year_of
from .frontmatter import (Source, format_entry, key_line, mark_emphasis, owner_names,
                          read_settings)
from .guard import guarded
from .jekyll import is_hand_page, move_hand_page
from .markup import convert_markup
from .links import new_file_path
from .model import NO_VENUE, Migration
from .talks import as_press, filed_as, leave_hidden, note_redirect
from .translations import drop_translations
from ...models.forms import order_paper_fields
from ...structure.kinds import list_reserved

SUFFIXES = (".md", ".markdown", ".html")
# Jekyll's default permalink for a collection, and its named styles for posts.
COLLECTION_PERMALINK = "/:collection/:path/"
NAMED_PERMALINKS = {"date": "/:categories/:year/:month/:day/:title:output_ext",
                    "pretty": "/:categories/:year/:month/:day/:title/",
                    "none": "/:categories/:title:output_ext"}
TEMPLATE_HOST = "academicpages.github.io"  # the template's own links, left in many sites
# academicpages' link fields, and scholarsite's kind of link for each (None: not moved).
LINK_FIELDS = (("paperurl", "pdf"), ("slidesurl", "slides"), ("codeurl", "code"),
               ("videourl", "video"), ("posterurl", "poster"), ("bibtexurl", None))
_KRAMDOWN_ATTR = re.compile(r"\{:[^}]*\}")
_LOCAL_LINK = re.compile(r"(\]\(|(?:href|src)=[\"'])((?:\{\{[^}]*\}\})?/?(?:files|images)/"
                         r"[^)\"'\s]+)")


@dataclass(frozen=True)
class OldSite:
    old: Path
    owner: str  # the site's author, '' when the config does not say
    prefixes: tuple[str, ...]  # what starts an address of the old site itself
    permalinks: dict  # collection -> its permalink pattern
    post_permalink: str
    categories: dict[str, str]  # publication_category: each key's heading


def read_academicpages(old: Path, mig: Migration) -> None:
    """Add the papers, talks, teaching, posts and projects of an academicpages site."""
    site = read_old_site(old, mig)
    folders = [(folder, move, drop_translations(list_sources(old / folder, mig),
                                                old / folder, mig)) for folder, move in MOVERS]
    # A folder whose dates do not say D/M/Y or M/D/Y reads as the site's other dates do.
    site_order = decide_order(s.fields.get("date") for _, _, found in folders for s in found)
    for folder, move, sources in folders:
        order = decide_order((s.fields.get("date") for s in sources), site_order)
        if not order.decided:
            mig.add_review(mig.where(old / folder), order.why)
        for source in sources:
            if is_hand_page(source):  # the owner's own list, never dropped as no item
                guarded(mig, mig.where(source.path), move_hand_page, source, mig)
            else:
                guarded(mig, mig.where(source.path), move, source, site, order, mig)


def read_old_site(old: Path, mig: Migration) -> OldSite:
    """What the moved pages need of `_config.yml` (jekyll.py reports its problems)."""
    config = read_settings(old / "_config.yml", mig, quiet=True)
    author = config.get("author") if isinstance(config.get("author"), dict) else {}
    # Only the config's own name: without one, site.yaml's is a stand-in, no author.
    # An academic title ('Dr. Ada Quill') is no part of the name an author list writes.
    owner = next(iter(owner_names(author.get("name")) or owner_names(config.get("name"))), "")
    hosts = [TEMPLATE_HOST]
    url = str(config.get("url") or "")
    if url:
        hosts.insert(0, urlsplit(url).netloc + urlsplit(url).path.rstrip("/"))
    base = str(config.get("baseurl") or "").strip("/")
    prefixes = [f"{scheme}{host}/{base}".rstrip("/")
                for host in hosts for scheme in ("https://", "http://")]
    if base:
        prefixes.append(f"/{base}")
    collections = config.get("collections")
    permalinks = {name: str(spec.get("permalink") or COLLECTION_PERMALINK)
                  for name, spec in collections.items() if isinstance(spec, dict)} \
        if isinstance(collections, dict) else {}
    post = str(config.get("permalink") or "date")
    return OldSite(old, str(owner).strip(), tuple(prefixes), permalinks,
                   NAMED_PERMALINKS.get(post, post), read_category_titles(config))


def list_sources(folder: Path, mig: Migration) -> list[Source]:
    """The readable Markdown files of a folder; hidden files (.DS_Store) are passed over,
    a hidden Markdown file or any other file is named in the report."""
    if not folder.is_dir():
        return []
    sources = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        if any(part.startswith(".") for part in path.relative_to(folder).parts):
            if path.suffix.lower() in SUFFIXES:
                mig.leave(mig.where(path), "a hidden file, which Jekyll did not publish; "
                          "not moved")
            continue
        if not is_document(path, mig):
            mig.leave(mig.where(path), "not a Markdown file; not moved")
            continue
        source = read_entry(path, mig)
        if source is not None:
            sources.append(source)
    return sources


# --- What every kind of entry needs ----------------------------------------------------


def make_name(stem: str) -> str:
    """A new file's name: the old one lowercased, without Jekyll's leading date."""
    return re.sub(r"^\d{4}-\d{1,2}-\d{1,2}-", "", stem.lower()) or stem.lower()


def old_address(source: Source, site: OldSite) -> str:
    """Where the old site served this file: its `permalink`, or its folder's pattern's."""
    permalink = source.fields.get("permalink")
    if isinstance(permalink, str) and permalink.strip():
        return own_path(permalink, site.prefixes)
    stem = source.path.stem
    folder, *below = source.path.relative_to(site.old).with_suffix("").parts
    pattern = site.post_permalink if folder == "_posts" else \
        site.permalinks.get(folder.lstrip("_"), COLLECTION_PERMALINK)
    categories = source.fields.get("categories") or source.fields.get("category") or []
    categories = categories.split() if isinstance(categories, str) else categories
    date = (normalize_date(source.fields.get("date"), DateOrder(True, True, ""))
            or date_from_name(stem) or "0000-00-00") + "-00-00"
    values = {"collection": folder.lstrip("_"), "path": "/".join(below), "name": stem,
              "title": make_name(stem), "categories": "/".join(map(str, categories)),
              "year": date[:4], "month": date[5:7], "day": date[8:10],
              "output_ext": ".html"}
    filled = re.sub(r":(output_ext|collection|categories|title|path|name|year|month|day)",
                    lambda m: values[m.group(1)], pattern)
    return re.sub("/+", "/", filled)


def local_path(value: str, site: OldSite) -> str | None:
    """The old site's own file a link names ('files/x.pdf'), or None for another site."""
    url = value.strip()
    for prefix in site.prefixes:
        if url.lower().startswith(prefix.lower() + "/"):
            url = url[len(prefix):]
            break
    url = re.sub(r"^\{\{[^}]*\}\}", "", url)  # {{ site.baseurl }}/files/x.pdf
    if re.match(r"^(?:[a-z][a-z0-9+.-]*:|//|#)", url, re.I):
        return None
    path = posixpath.normpath(unquote(urlsplit(url).path).lstrip("/"))
    return None if path.startswith("..") or path == "." else path


def copy_file(url: str, site: OldSite, mig: Migration) -> str:
    """The old site's file `url` names, copied into files/: its new path, or ''."""
    local = local_path(url, site)
    if not local or not (site.old / local).is_file():
        return ""
    new = new_file_path(local)
    return new if mig.add_copy(new, site.old / local, "file", mig.where(site.old / local)) \
        else ""


def move_file(value: str, source: Source, key: str, site: OldSite, mig: Migration) -> str:
    """A link's new value: an address elsewhere as it is; a file of the old site copied
    into files/ and named there; '' (with a note) when neither."""
    where = mig.where(source.path, key_line(source, key))
    value = absolute_link(value, site.old)
    if local_path(value, site) is None:
        if re.match(r"^(?:https?|mailto):", value.strip(), re.I):
            return value.strip()
        mig.leave(where, f"'{key}' {value!r} is no address scholarsite can link to; "
                  "left out")
        return ""
    new = copy_file(value, site, mig)
    if not new and is_kept_address(value, site):
        mig.add_review(where, f"'{key}' {value.strip()!r} is on the old site's address but "
                       "not in its checkout (another site published there?): kept as it is; "
                       "copy the file into files/ if it was the old site's")
        return value.strip()
    if not new and not (site.old / local_path(value, site)).is_file():
        mig.leave(where, f"'{key}' names {local_path(value, site)}, which is not in the old "
                  "site; left out")
    return new


def is_kept_address(value: str, site: OldSite) -> bool:
    """Whether a full address on the old site's own host, whose file its checkout lacks,
    may stay as it is: its first folder is none the new site will have (`/papers/` may be
    another site on that host, or files kept outside the repository), so the link works
    as before and `check` takes it for another site's."""
    own = [p for p in site.prefixes if "://" in p and TEMPLATE_HOST not in p]
    if not re.match(r"https?://", value.strip(), re.I) or not any(
            value.strip().lower().startswith(p.lower() + "/") for p in own):
        return False
    local = local_path(value, site) or ""
    top = local.split("/", 1)[0]
    return bool(top) and not (site.old / local).exists() and top not in list_reserved(("talks", "teaching", "posts", "projects"))


def convert_body(source: Source, text: str, site: OldSite, mig: Migration) -> str:
    """The text with its Liquid converted and the old site's files it links copied."""
    def copy_linked(match: re.Match) -> str:
        new = copy_file(match.group(2), site, mig)
        return match.group(1) + new if new else match.group(0)

    text = convert_markup(text, source.path, source.body_line, mig,
                          file_path=lambda p: copy_file(p, site, mig) or p)
    return _LOCAL_LINK.sub(copy_linked, _KRAMDOWN_ATTR.sub("", text))


def write_entry(folder: str, what: str, source: Source, fields: dict, body: str,
                site: OldSite, mig: Migration, comments: dict | None = None) -> str:
    """Add the new file and the redirect from the old page; returns the new slug."""
    slug = mig.free_slug(folder, new_name(make_name(source.path.stem), fields["title"]))
    mig.add_text(f"{folder}/{slug}.md", format_entry(fields, body, comments), what,
                 mig.where(source.path))
    if not old_address(source, site):
        mig.add_review(mig.where(source.path, key_line(source, "permalink")), "'permalink' "
                       "is an address on another site; no redirect from the old page")
    mig.add_redirect(old_address(source, site), f"{folder}/{slug}/")
    return slug


def require_title(source: Source, mig: Migration) -> str:
    title = text_field(source, "title")
    if not title:
        mig.leave(mig.where(source.path, 1), "no 'title'; not moved")
    return title


# --- Papers ----------------------------------------------------------------------------


def move_paper(source: Source, site: OldSite, order: DateOrder, mig: Migration) -> None:
    filed = filed_as(source)  # a talk, press item or hidden item filed among the papers
    if filed == "talk":
        mig.add_review(mig.where(source.path, 1), "filed among the papers, but its front "
                       "matter calls it a talk: moved as a talk")
        return move_talk(source, site, order, mig)
    if filed == "hide":
        return leave_hidden(source, mig)
    source = as_press(source) if filed == "press" else source
    if not (title := clean_title(require_title(source, mig))):
        return None
    comments: dict[str, str] = {}
    date = paper_date(source, order, mig, comments)
    status = date_status(source.fields.get("date"), source.fields.get("year"))
    if not date and not status:
        date = stand_in_date(source, order, mig, comments)
    venue = text_field(source, "venue") or mapped_text(source, "venue", mig) \
        or venue_from_citation(str(source.fields.get("citation") or ""), title)
    links = paper_links(source, site, mig)
    if target := note_redirect(source, mig):
        links.setdefault(link_kind(target), target)
    ptype, category = sort_category(source, venue, site.categories, mig)
    if not venue and not (ptype == "preprint" and "arxiv" in links):
        # A category of the site's own says the kind better than no venue does.
        ptype, venue = ptype if category else "other", NO_VENUE
        comments["venue"] = f"The old site gives no venue: '{NO_VENUE}' stands in for it."
        mig.add_review(mig.where(source.path, 1), f"no venue; written as '{NO_VENUE}' "
                       f"(type: {ptype})")
    authors, skip = paper_authors(source, site.owner, mig, comments)
    abstract = paper_abstract(source, site, mig, links, skip)
    fields = {"title": mark_emphasis(title), "authors": authors, "venue": venue, "date": date,
              "status": status, "type": ptype, "category": category, "links": links,
              "citation": paper_citation(source)}
    write_entry("publications", "paper", source, order_paper_fields(fields), abstract, site, mig,
                comments)


def paper_date(source: Source, order: DateOrder, mig: Migration,
               comments: dict) -> str | None:
    """The paper's date; a 1 January date is taken for the year it stands for."""
    date = entry_date(source, order, mig) \
        or year_of(pick(source.fields, "date", mig.fieldmap)[1])
    if not date:
        year = year_from_citation(str(source.fields.get("citation") or ""))
        date = str(year) if year else None
    if date and is_placeholder(date):
        comments["date"] = f"The old site says {date}: taken as the year only."
        mig.add_review(mig.where(source.path, key_line(source, "date")),
                       f"the date {date} looks like a stand-in for the year; written as "
                       f"'{date[:4]}'")
        date = date[:4]
    return date


def paper_links(source: Source, site: OldSite, mig: Migration) -> dict[str, str]:
    links: dict[str, str] = {}
    for key, kind in LINK_FIELDS + tuple(extra_links(source.fields)) \
            + own_links(source, tuple(k for k, _ in LINK_FIELDS)):
        value = source.fields.get(key)
        if not isinstance(value, str) or not value.strip():
            continue
        if kind is None:
            mig.leave(mig.where(source.path, key_line(source, key)), f"'{key}' not moved: "
                      "each paper's page offers its own BibTeX")
            continue
        target = move_file(value, source, key, site, mig)
        if key == "paperurl" or not kind:
            kind = link_kind(target)
        if kind == "doi" and target.startswith("10."):
            target = "https://doi.org/" + target
        if target:
            links.setdefault(kind, target)
    return links


def paper_abstract(source: Source, site: OldSite, mig: Migration, links: dict,
                   skip: int | None) -> str:
    """The body less the generator's lines around it, else the excerpt."""
    body = clean_abstract(strip_boilerplate(source.body),
                          str(source.fields.get("citation") or ""), links, skip)
    if not body.strip() and mapped_text(source, "abstract", mig):
        body = mapped_text(source, "abstract", mig)
    return convert_body(source, body, site, mig) if body.strip() else plain_excerpt(source)



# --- Talks, teaching, posts, portfolio -------------------------------------------------


def talk_fields(source: Source, site: OldSite, mig: Migration) -> dict:
    fields = {"event": text_field(source, "venue"), "location": text_field(source, "location"),
              "type": text_field(source, "type")}
    for key, new in (("slidesurl", "slides"), ("videourl", "video")):
        value = source.fields.get(key)
        if isinstance(value, str) and value.strip():
            fields[new] = move_file(value, source, key, site, mig)
    return fields


def course_fields(source: Source, site: OldSite, mig: Migration) -> dict:
    return {"institution": text_field(source, "venue"), "role": text_field(source, "role"),
            "term": text_field(source, "term")}


def post_fields(source: Source, site: OldSite, mig: Migration) -> dict:
    tags = source.fields.get("tags") or []
    return {"tags": tags.split() if isinstance(tags, str) else [str(t) for t in tags],
            "summary": text_field(source, "excerpt"),
            "toc": True if source.fields.get("toc") is True else None}


def project_fields(source: Source, site: OldSite, mig: Migration) -> dict:
    return {"summary": text_field(source, "excerpt"),
            "image": project_image(source, site, mig)}


def project_image(source: Source, site: OldSite, mig: Migration) -> str:
    """The teaser picture (minimal-mistakes looks in images/), else one in the excerpt."""
    header = source.fields.get("header")
    teaser = header.get("teaser") if isinstance(header, dict) else None
    if isinstance(teaser, str) and teaser.strip():
        name = teaser.strip()
        if "/" not in name.lstrip("/") and (site.old / "images" / name).is_file():
            name = f"images/{name}"
        return move_file(name, source, "header", site, mig)
    match = re.search(r"<img[^>]*src=[\"']([^\"']+)", str(source.fields.get("excerpt") or ""))
    return copy_file(match.group(1), site, mig) if match else ""


def move_item(folder: str, what: str, read_fields, dated: bool = True):
    """The mover of a collection's files: title, date, `read_fields`' fields, the text."""
    def move(source: Source, site: OldSite, order: DateOrder, mig: Migration) -> None:
        title = require_title(source, mig)
        date = entry_date(source, order, mig) if title else None
        comments: dict[str, str] = {}
        if title and dated and not date:  # never left behind for its date
            date = stand_in_date(source, order, mig, comments)
        if title:
            fields = {"title": title, "date": date, **read_fields(source, site, mig)}
            body = convert_body(source, source.body, site, mig)
            target = note_redirect(source, mig)
            write_entry(folder, what, source, fields, f"{body.rstrip()}\n\n<{target}>\n"
                        if target and target not in body else body, site, mig, comments)
    return move


move_talk = move_item("talks", "talk", talk_fields)
MOVERS = (("_publications", move_paper), ("_talks", move_talk),
          ("_teaching", move_item("teaching", "course", course_fields)),
          ("_posts", move_item("posts", "post", post_fields)),
          ("_portfolio", move_item("projects", "project", project_fields, dated=False)))
