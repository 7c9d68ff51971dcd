"""site.yaml: read and validated against its schema, unknown keys rejected."""

from __future__ import annotations

import os
import re
from pathlib import Path
from urllib.parse import urlsplit

from ...diagnostics import Diagnostics
from ..listing import check_inside, list_names
from ..pictures import read_photo_facts
from .fields import FieldReader
from ...models import LabConfig, NavEntry, Owner, PublicationsConfig, SiteConfig
from ..citecounts import CITATION_SOURCES, COUNTS_FILE, read_counts
from ...structure.urls import check_link, suggest_path
from .redirects import read_redirects
from .sourceconfig import read_sources
from .langconfig import read_in_languages, read_languages, read_names, read_strings
from .theme import read_analytics, read_theme
from .comments import read_comments
from .cms import read_cms
from ..collections import PAGES, SCHEMAS
from .tiertables import read_venue_tiers
from .yamlread import parse_yaml, read_text

GROUP_BY = ("category", "year", "type", "none")
CHART_PAGES = ("home", "publications")  # where `citation_chart` may put the chart
# Authors shown before "and N more authors" when site.yaml does not say (al-folio cuts too).
DEFAULT_AUTHOR_LIMIT = 10
# A feed is polled for what is new: the newest 50 papers keep it small however long the
# list grows (a 5,000-paper feed is 13 MB), and `null` in site.yaml lists them all.
DEFAULT_FEED_LIMIT = 50
# A domain name of two labels or more, each 1-63 letters, digits or inner hyphens.
HOST_NAME = re.compile(r"^(?:(?!-)[a-z0-9-]{1,63}(?<!-)\.)+(?!-)[a-z0-9-]{1,63}(?<!-)$")
_ORCID = re.compile(r"^\d{4}-\d{4}-\d{4}-\d{3}[\dX]$")


def describe_missing_config(path: Path) -> str:
    """Why there is no site.yaml at `path`, and what to do: most often the command was
    run inside the content folder, whose own content/ it then looks for."""
    folder = path.parent
    if not folder.is_dir() and (folder.parent / path.name).is_file():
        return (f"there is no folder '{folder.as_posix()}' here: this is the content "
                "folder itself (it holds site.yaml); run the command in the site's folder, "
                "the one above it (cd ..)")
    return "site.yaml is missing: every site needs one (see README.md, 'Content format')"


def load_config(path: Path, diags: Diagnostics) -> SiteConfig | None:
    """The site's settings, or None when site.yaml is missing or invalid (all problems reported)."""
    if not os.path.lexists(path):
        diags.error(path, 0, describe_missing_config(path))
        return None
    text = read_text(path, diags) if check_inside(path, path.parent, diags) else None
    if text is None:
        return None
    doc = parse_yaml(text, path, 1, diags)
    if doc is None:
        return None
    before = len(diags.errors())
    top = FieldReader(doc, path, diags, what="setting")
    language, languages = read_languages(top)
    title, titles = read_in_languages(top, "title", languages or (language,), required=True)
    url = read_base_url(top)
    description, descriptions = read_in_languages(top, "description", languages or (language,))
    strings = read_strings(top, languages or (language,))
    cname = read_cname(top, url)
    owner, owner_texts = read_owner(top.mapping("author"), top.has("author"),
                                    languages or (language,))
    pubs, note_texts = read_publications(top.mapping("publications"), languages or (language,),
                                         path.parent)
    nav = read_nav(top)
    theme = read_theme(top.mapping("theme"))
    analytics = read_analytics(top.mapping("analytics"), top.has("analytics"))
    comments = read_comments(top.mapping("comments"), top.has("comments"),
                             tuple(schema.name for schema in (*SCHEMAS, PAGES)))
    cms = read_cms(top.mapping("cms"), top.has("cms"))
    sources = read_sources(top.mapping("sources"))
    citations = top.choice("citations", CITATION_SOURCES, "")
    chart = read_citation_chart(top, citations)
    redirects = read_redirects(top.mapping("redirects"))
    roles = read_people_roles(top.mapping("people"))
    lab, lab_names = read_lab(top.mapping("lab"), top.has("lab"), (title, titles),
                              languages or (language,))
    top.check_unknown()
    if len(diags.errors()) > before or owner is None:
        return None
    counts = read_counts(path.parent / COUNTS_FILE, diags) if citations else ()
    return SiteConfig(title=title, url=url, owner=owner, description=description,
                      language=language, languages=languages, strings=strings,
                      texts=(*(("title", *t) for t in titles),
                             *(("description", *t) for t in descriptions), *owner_texts,
                             *note_texts, *lab_names),
                      publications=pubs, cname=cname, nav=nav,
                      theme=theme, analytics=analytics, sources=sources, citations=citations,
                      citation_counts=counts, redirects=redirects, people_roles=roles,
                      lab=lab, citation_chart=chart, comments=comments, cms=cms)


def read_citation_chart(top: FieldReader, citations: str) -> str:
    """`citation_chart`: the page that shows the site's citations per year; the counts
    come from `citations`, so without it there is nothing to draw."""
    chart = top.choice("citation_chart", CHART_PAGES, "")
    if chart and not citations:
        top.warning(("citation_chart",), "'citation_chart' without 'citations' draws no "
                    "chart: set 'citations: openalex' and run update")
    return chart


def read_lab(lab: FieldReader, present: bool, title: tuple[str, tuple[tuple[str, str], ...]],
             languages: tuple[str, ...]
             ) -> tuple[LabConfig | None, tuple[tuple[str, str, str], ...]]:
    """`lab`: the home page is a group's. Its name (the site's title unless given, in each
    language: as SiteConfig.texts 'lab name') and its picture, a logo or group photo."""
    if not present:
        return None, ()
    name, names = read_in_languages(lab, "name", languages)
    if not name:
        name, names = title
    picture = read_picture(lab, "picture")
    lab.check_unknown()
    return LabConfig(name=name, picture=picture), tuple(("lab name", *n) for n in names)


def read_people_roles(people: FieldReader) -> tuple[str, ...]:
    """`people.roles`: the order of the groups of /people/ (the roles not named come
    after, in the usual order: reading/roster.py)."""
    roles = people.text_list("roles")
    folded = [role.casefold() for role in roles]
    for i, role in enumerate(folded):
        if role in folded[:i]:
            people.error(("roles", i), f"'people.roles' names '{roles[i]}' twice")
    people.check_unknown()
    return roles


def read_base_url(top: FieldReader) -> str:
    url = top.line_text("url", required=True)
    if not url:
        return ""
    safe, problem = check_link("url", url)
    parts = urlsplit(safe) if safe else None
    if parts is None or parts.scheme not in ("http", "https") or " " in url:
        top.error(("url",), f"'url' must be the site's absolute address, such as "
                  f"https://user.github.io/ or https://user.github.io/repo/; found {url!r}"
                  + (f" (it {problem})" if problem else ""))
        return ""
    if parts.query or parts.fragment:
        top.error(("url",), "'url' must not have a query (?...) or fragment (#...)")
        return ""
    return url if url.endswith("/") else url + "/"


def read_cname(top: FieldReader, url: str) -> str:
    """A custom domain for GitHub Pages' CNAME file: a bare host name, nothing more."""
    cname = top.line_text("cname")
    host = cname.lower().rstrip(".")
    if cname and not HOST_NAME.match(host):
        top.error(("cname",), "'cname' must be a bare domain name such as www.example.org "
                  f"(no https://, no path); found {cname!r}")
        return ""
    if host and url and urlsplit(url).hostname != host:
        top.warning(("cname",), f"'cname' is {host} but 'url' is {url}: the sitemap and "
                    f"canonical links use 'url'; set it to https://{host}/")
    return host


def read_owner(author: FieldReader, present: bool, languages: tuple[str, ...] = ("en",)
               ) -> tuple[Owner | None, tuple[tuple[str, str, str], ...]]:
    """The owner, and their position and affiliation in each language that site.yaml
    gives them in (as SiteConfig.texts)."""
    if not present:
        author.error((), "missing required setting 'author' (at least its 'name')")
        return None, ()
    name, scripts = read_names(author, languages)
    position, positions = read_in_languages(author, "position", languages)
    affiliation, affiliations = read_in_languages(author, "affiliation", languages)
    aliases = author.text_list("aliases")
    email = author.line_text("email")
    if email and "@" not in email:
        author.error(("email",), f"'author.email' is not an e-mail address: {email!r}")
    links = read_profile_links(author.mapping("links"))
    photo = read_picture(author, "photo")
    author.check_unknown()
    texts = (*(("position", *t) for t in positions),
             *(("affiliation", *t) for t in affiliations))
    return Owner(name=name, aliases=aliases, scripts=scripts, position=position,
                 affiliation=affiliation, email=email, links=links, photo=photo), texts


def read_picture(reader: FieldReader, key: str) -> str:
    """'files/NAME' (`key`, such as author.photo): a picture in content/files/, which must
    exist."""
    photo, name = reader.line_text(key), reader.name(key)
    if not photo:
        return ""
    rel = photo.replace("\\", "/").lstrip("/")
    files_dir = reader.path.parent / "files"
    target = reader.path.parent / rel
    if not rel.startswith("files/") or ".." in rel.split("/") or not target.is_file():
        known = (f"files/{entry}" for entry in list_names(files_dir))
        reader.error((key,), f"'{name}' must name a picture in "
                     f"{files_dir.as_posix()}/, written as 'files/NAME'; found {photo!r}"
                     f"{suggest_path(rel, known)}")
        return ""
    return rel if shows_photo(reader, name, rel, target, key) else ""


def shows_photo(reader: FieldReader, name: str, rel: str, path: Path, key: str = "photo"
                ) -> bool:
    """Whether the photo file at `path` can be shown (resized: views/photos.py); if not,
    an error at the line that names it (`key`)."""
    if path.suffix.lower() == ".svg":  # shown as it is
        return True
    problem = read_photo_facts(path).problem
    if problem:
        reader.error((key,), f"'{name}' names '{rel}', which {problem}")
    return not problem


def read_profile_links(links: FieldReader) -> tuple[tuple[str, str], ...]:
    """Profile links (label: URL), in the order written."""
    out = []
    for label in list(links.data):
        url = links.line_text(str(label))
        if not url:
            continue
        if str(label).lower() == "orcid" and "/" not in url:  # the bare iD, as ORCID prints it
            if not _ORCID.match(url.upper()):
                links.error((label,), f"'{url}' is not an ORCID iD: write its 16 digits in "
                            "groups of four, such as 0000-0002-1825-0097, or its address")
                continue
            url = "https://orcid.org/" + url.upper()
        safe, problem = check_link("url", url)
        if problem:
            links.error((label,), f"link '{label}' {problem}")
            continue
        out.append((str(label), safe))
    return tuple(out)


def read_publications(pubs: FieldReader, languages: tuple[str, ...], content_dir: Path
                      ) -> tuple[PublicationsConfig, tuple[tuple[str, str, str], ...]]:
    """The publications' settings, and each author mark's meaning in each language that
    site.yaml gives it in (as SiteConfig.texts: 'author_note *'); tier tables are read
    from the content folder's tiers/."""
    categories = pubs.text_list("categories")
    # A .bib-only site has no categories: its papers go by year unless told otherwise.
    group_by = pubs.choice("group_by", GROUP_BY, "category" if categories else "year")
    limit = read_limit(pubs, "author_limit", DEFAULT_AUTHOR_LIMIT, "authors")
    feed_limit = read_limit(pubs, "feed_limit", DEFAULT_FEED_LIMIT, "papers in the feed")
    notes, texts = [], []
    marks = pubs.mapping("author_notes")
    for mark in list(marks.data):
        meaning, meanings = read_in_languages(marks, str(mark), languages, required=True)
        texts += [(f"author_note {mark}", tag, text) for tag, text in meanings]
        if len(str(mark)) != 1 or str(mark).isalnum() or str(mark).isspace():
            marks.error((mark,), f"author mark {mark!r} must be one symbol, such as * or †")
            continue
        notes.append((str(mark), meaning))
    tiers = read_venue_tiers(pubs, content_dir)
    pubs.check_unknown()
    if group_by == "category" and not categories:
        pubs.warning(("group_by",), "'group_by: category' without 'categories': groups are "
                     "shown in alphabetical order")
    return PublicationsConfig(group_by=group_by, categories=categories, author_limit=limit,
                              author_notes=tuple(notes), venue_tiers=tiers,
                              feed_limit=feed_limit), tuple(texts)


def read_limit(pubs: FieldReader, key: str, default: int, what: str) -> int | None:
    """`publications.<key>`: how many to show, at least 1; None (null) for all."""
    limit = pubs.raw(key) if pubs.has(key) else default
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
        pubs.error((key,), f"'publications.{key}' must be a whole number of at least 1, "
                   f"or null for all {what}; found {limit!r}")
        return None
    return limit


def read_nav(top: FieldReader) -> tuple[NavEntry, ...]:
    """`nav`: a list of section keys ('talks'), each optionally with a label
    ({talks: Invited talks}), or links elsewhere ({title: Lab, url: https://...}).
    Whether a key names a section that exists is checked once the content is read."""
    value = top.raw("nav")
    if value is None:
        return ()
    if not isinstance(value, list):
        top.error(("nav",), "'nav' must be a list such as [home, publications, talks, cv]")
        return ()
    entries = []
    for i, raw in enumerate(value):
        line = top.line("nav", i)
        if isinstance(raw, str) and raw.strip():
            entries.append(NavEntry(key=raw.strip(), line=line))
            continue
        item = FieldReader(top.doc, top.path, top.diags, ("nav", i), raw, what="nav field")
        if not isinstance(raw, dict) or not raw:
            item.error((), f"nav entry {i + 1} must be a section key such as 'talks', "
                       "'{talks: My talks}', or '{title: ..., url: ...}'")
            continue
        if "url" in raw or "title" in raw:
            entry = read_nav_link(item, line)
        elif len(raw) == 1:
            key = next(iter(raw))
            entry = NavEntry(key=str(key), title=item.line_text(str(key), required=True),
                             line=line)
        else:
            item.error((), f"nav entry {i + 1} has several keys: write '{{KEY: Label}}' for "
                       "a section, or '{title: ..., url: ...}' for a link")
            continue
        item.check_unknown()
        if entry is not None:
            entries.append(entry)
    return tuple(entries)


def read_nav_link(item: FieldReader, line: int) -> NavEntry | None:
    title = item.line_text("title", required=True)
    url = item.line_text("url", required=True)
    safe, problem = check_link("url", url) if url else ("", "")
    if problem:
        item.error(("url",), f"nav link {problem}")
    if not title or not safe:
        return None
    return NavEntry(key="", title=title, url=safe, line=line)
