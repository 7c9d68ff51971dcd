"""What academicpages and al-folio share: `_config.yml` (the owner, the profile links and
the site's address) becomes site.yaml's settings, the about page the home page's bio, and
other Markdown pages of `_pages/` free pages.

academicpages keeps the owner under `author:` (name, bio, employer, googlescholar,
github...); al-folio at the top (first_name, last_name, scholar_userid...) or, in newer
versions, in `_data/socials.yml`; its position line is the about page's `subtitle`."""

from __future__ import annotations

import os
import re
from pathlib import Path

from ...reading.slugs import make_slug
from ...structure.kinds import list_reserved
from ...reading.collections import LIST_PAGES, SCHEMAS
from .biblist import BibList, convert_bib_lists
from .frontmatter import (Source, format_entry, owner_names, read_settings, read_source,
                          strip_html)
from .markup import convert_markup
from .model import Migration

# (the old key, scholarsite's label, the address a bare user name stands for)
PROFILE_KEYS = (
    ("googlescholar", "scholar", ""),
    ("scholar_userid", "scholar", "https://scholar.google.com/citations?user={}"),
    ("orcid", "orcid", "{}"), ("orcid_id", "orcid", "{}"),
    ("dblp", "dblp", ""), ("dblp_url", "dblp", ""),
    ("semantic", "Semantic Scholar", ""),
    ("semanticscholar_id", "Semantic Scholar", "https://www.semanticscholar.org/author/{}"),
    ("researchgate", "ResearchGate", "https://www.researchgate.net/profile/{}"),
    ("research_gate_profile", "ResearchGate", "https://www.researchgate.net/profile/{}"),
    ("github", "github", "https://github.com/{}"),
    ("github_username", "github", "https://github.com/{}"),
    ("linkedin", "linkedin", "https://www.linkedin.com/in/{}"),
    ("linkedin_username", "linkedin", "https://www.linkedin.com/in/{}"),
    ("twitter", "X", "https://x.com/{}"), ("x_username", "X", "https://x.com/{}"),
    ("twitter_username", "X", "https://x.com/{}"),
    ("bluesky", "Bluesky", "https://bsky.app/profile/{}"),
    ("bluesky_url", "Bluesky", ""), ("mastodon", "Mastodon", ""),
    ("youtube", "YouTube", "https://www.youtube.com/@{}"),
    ("youtube_id", "YouTube", "https://www.youtube.com/channel/{}"),
)
PICTURE_SUFFIXES = (".jpg", ".jpeg", ".png", ".gif", ".webp")
PLACEHOLDER_URL = "https://example.github.io/"


def read_jekyll_site(old: Path, mig: Migration) -> None:
    """Add site.yaml's settings, index.md and the free pages from a Jekyll site."""
    config_path = old / "_config.yml"
    # Any _config.yml is read, so that one that is a pipe or a link out is named.
    config = read_settings(config_path, mig) if os.path.lexists(config_path) else {}
    author = config.get("author") if isinstance(config.get("author"), dict) else {}
    socials = read_settings(old / "_data" / "socials.yml", mig) \
        if (old / "_data" / "socials.yml").is_file() else {}
    about = find_about(old, mig)
    mig.site.update(make_settings(config, author, about, mig))
    owner = mig.site["author"]
    links = read_links({**config, **author, **socials})
    if links:
        owner["links"] = links
    photo = find_photo(old, author, about)
    if photo is not None and mig.add_copy(f"files/{photo.name}", photo, "file",
                                          mig.where(photo)):
        owner["photo"] = f"files/{photo.name}"  # only a file copied: site.yaml names it
    if about is not None and about.body.strip():
        body = convert_markup(about.body, about.path, about.body_line, mig)
        mig.add_text("index.md", body.strip() + "\n", "home", mig.where(about.path))
    read_free_pages(old, about, mig)


def text_of(value: object) -> str:
    if isinstance(value, dict):  # one text per language (`en: ..., zh: ...`): the English
        value = value.get("en", next(iter(value.values()), None))
    return " ".join(str(value).split()) if value not in (None, "", [], {}) else ""


def make_settings(config: dict, author: dict, about: Source | None, mig: Migration) -> dict:
    """site.yaml's title, url, description and author, with a placeholder and a note for
    each required setting the old site does not give."""
    names = owner_names(author.get("name")) or owner_names(config.get("name")) or \
        owner_names(" ".join(text_of(config.get(k)) for k in ("first_name", "middle_name",
                                                              "last_name")))
    names += [n for n in scholar_names(config) if n not in names]
    if not names and scholar_last(config) and text_of(config.get("title")).split()[-1:] == \
            [scholar_last(config)]:  # al-folio: the title is the owner's name
        names = owner_names(config.get("title"))
    name, aliases = (names[0], names[1:]) if names else ("", [])
    where = mig.where(mig.old / "_config.yml")
    if not name:
        name = "Your Name"
        mig.add_review("site.yaml", "the owner's name was not found: set author.name")
    title = strip_html(text_of(config.get("title")))
    if title.lower() in ("", "blank"):  # al-folio's 'blank': the owner's name stands there
        title = name
    url = make_url(config.get("url"), config.get("baseurl"))
    if not url:
        url = PLACEHOLDER_URL
        mig.add_review(where, "no 'url' (the site's address): site.yaml says "
                       f"{PLACEHOLDER_URL}; set it before publishing")
    owner: dict = {"name": name}
    if aliases:
        owner["aliases"] = aliases
    position = text_of(author.get("bio"))
    subtitle = strip_html(text_of(about.fields.get("subtitle"))) if about else ""
    if subtitle:
        position = position or subtitle
    if position:
        owner["position"] = position
    if text_of(author.get("employer")):
        owner["affiliation"] = text_of(author.get("employer"))
    email = text_of(author.get("email") or config.get("email"))
    if "@" in email:
        owner["email"] = email.removeprefix("mailto:")
    settings = {"title": title, "url": url}
    description = strip_html(text_of(config.get("description")))
    if description:
        settings["description"] = description
    settings["author"] = owner
    return settings


def scholar_names(config: dict) -> list[str]:
    """The names jekyll-scholar highlights as the owner's (`scholar: first_name, last_name`,
    each a name or a list), less the template's own (Einstein)."""
    scholar = config.get("scholar") if isinstance(config.get("scholar"), dict) else {}
    firsts, lasts = (v if isinstance(v, list) else [v] for v in
                     (scholar.get("first_name"), scholar.get("last_name")))
    names = [f"{text_of(first)} {text_of(last)}" for last in lasts for first in firsts
             if text_of(first) and text_of(last) and text_of(last) != "Einstein"]
    return list(dict.fromkeys(names))


def scholar_last(config: dict) -> str:
    scholar = config.get("scholar") if isinstance(config.get("scholar"), dict) else {}
    last = scholar.get("last_name")
    return text_of(last[0] if isinstance(last, list) and last else last)


def make_url(url: object, baseurl: object) -> str:
    """'https://x.github.io' and '/lab' -> 'https://x.github.io/lab/'."""
    base = text_of(url).rstrip("/")
    if not re.match(r"^https?://[^/\s]+", base):
        return ""
    sub = text_of(baseurl).strip("/")
    return f"{base}/{sub}/" if sub else f"{base}/"


def read_links(values: dict) -> dict[str, str]:
    """Profile links, from whichever of the known keys the old site fills in."""
    links: dict[str, str] = {}
    for key, label, pattern in PROFILE_KEYS:
        value = text_of(values.get(key))
        if not value or label in links:
            continue
        if re.match(r"^https?://", value):
            links[label] = value
        elif pattern and "/" not in value.strip("/") or pattern == "{}":
            links[label] = pattern.format(value.strip("/@"))
    return links


def find_about(old: Path, mig: Migration) -> Source | None:
    """The page served at the site's root: `_pages/about.md` in both templates."""
    for name in ("about.md", "about.markdown", "index.md"):
        path = old / "_pages" / name
        if path.is_file():
            return read_source(path, mig)
    return None


def find_photo(old: Path, author: dict, about: Source | None) -> Path | None:
    """academicpages' `author.avatar` (in images/), al-folio's `profile.image` (in
    assets/img/): the owner's photo, when the file is there."""
    profile = about.fields.get("profile") if about else None
    names = [(old / "images", text_of(author.get("avatar")))]
    if isinstance(profile, dict):
        names.append((old / "assets" / "img", text_of(profile.get("image"))))
    for folder, name in names:
        path = folder / name.lstrip("/") if name else None
        if path and path.is_file() and path.suffix.lower() in PICTURE_SUFFIXES:
            return path
    return None


def read_free_pages(old: Path, about: Source | None, mig: Migration) -> None:
    """Markdown pages of `_pages/` other than the about page become free pages; pages
    the theme fills with Liquid (a list of posts, the publications) scholarsite makes
    itself, so they are named as left behind."""
    folder = old / "_pages"
    if not folder.is_dir():
        return
    reserved = list_reserved(tuple(s.name for s in SCHEMAS))
    for path in sorted(folder.iterdir()):
        if about is not None and path == about.path or path.name.startswith("."):
            continue
        if path.suffix.lower() not in (".md", ".markdown"):
            mig.leave(mig.where(path), "a page of HTML and template code: scholarsite makes "
                      "its own pages of this kind, or move its text by hand")
            continue
        source = read_source(path, mig)
        if source is not None:
            move_free_page(source, reserved, mig)


def move_free_page(source: Source, reserved: frozenset[str], mig: Migration) -> None:
    permalink = text_of(source.fields.get("permalink")).strip("/")
    # The old address's last part names the page, so that its address can stay the same.
    slug = make_slug(permalink.rsplit("/", 1)[-1] if permalink else source.path.stem)
    where = mig.where(source.path)
    if re.fullmatch(r"404(\.html?)?", permalink) or source.path.stem == "404":
        mig.leave(where, "the old site's page for a missing address; scholarsite makes its "
                  "own (404.html)")
        return
    listed = convert_bib_lists(source, mig)
    if listed is not None:
        move_bib_list_page(source, slug, permalink, listed, reserved, mig)
        return
    if re.search(r"\{%-?\s*(for|bibliography)\b", source.body) or slug in reserved or not source.body.strip():
        mig.leave(where, f"'{source.path.stem}' is a page scholarsite makes itself (or an "
                  "empty one); compare it with the new site's")
        return
    body = convert_markup(source.body, source.path, source.body_line, mig)
    write_page(source, mig.free_slug("pages", slug), permalink, body, "", mig)


def write_page(source: Source, slug: str, permalink: str, body: str, place: str,
               mig: Migration) -> bool:
    """pages/SLUG.md, with the old page's title and description, and its old address sent
    there; whether it is written (a name the build refuses is noted)."""
    title = text_of(source.fields.get("title")) or source.path.stem.replace("-", " ").title()
    fields = {"title": title, "description": text_of(source.fields.get("description")),
              "place": place}
    why = {"place": "above: this text above the list the site makes; instead: this text "
           "alone"} if place else None
    mig.add_text(f"pages/{slug}.md", format_entry(fields, body, why), "page",
                 mig.where(source.path))
    if permalink and f"pages/{slug}.md" in mig.files:
        mig.add_redirect(permalink + "/", f"{slug}/")
    return f"pages/{slug}.md" in mig.files


def move_bib_list_page(source: Source, slug: str, permalink: str, listed: BibList,
                       reserved: frozenset[str], mig: Migration) -> None:
    """A page that lists a .bib file other than the papers (biblist.py), kept at its old
    address; at an address the new site's own list has (/talks/), as that list page's text,
    above the list. The .bib files are accounted as moved into it."""
    on_list = slug in LIST_PAGES and f"pages/{slug}.md" not in mig.files
    if slug in reserved and not on_list:
        slug = f"{slug}-list"
    slug = slug if on_list else mig.free_slug("pages", slug)
    if not write_page(source, slug, permalink, listed.body, "above" if on_list else "", mig):
        return
    names = ", ".join(mig.where(path) for path in listed.files)
    for path in listed.files:
        mig.into[mig.where(path)] = f"pages/{slug}.md"
    files = "that .bib file, which holds" if len(listed.files) == 1 else \
        "those .bib files, which hold"
    mig.add_review(mig.where(source.path), f"the entries of {names} it showed are written out "
                   f"as Markdown in pages/{slug}.md (/{slug}/), with its own text: edit them "
                   f"there (the new site does not read {files} no papers)"
                   + (f"; it is the text above the new site's own /{slug}/ list "
                      "(`place: above`; `place: instead` shows it alone)" if on_list else ""))



def is_hand_page(source: Source) -> bool:
    """Whether a file of a collection folder is a page its owner wrote by hand, not one
    item: it has text, and no title or its folder's own list address as its permalink
    (`_publications/Publis.md`, `title: ""`, `permalink: /publications/`)."""
    folder = source.path.parent.name.lstrip("_")
    permalink = text_of(source.fields.get("permalink")).strip("/")
    return bool(source.body.strip()) and (not text_of(source.fields.get("title")).strip()
                                          or permalink == folder)


def move_hand_page(source: Source, mig: Migration) -> None:
    """A page written by hand in a collection folder, kept whole: at its old address when
    that is a list the new site makes (/publications/), as that list page's own text,
    above the list (`place`); at its old address when that is free; else at its file's
    name. The report says where, and how to show the owner's list alone."""
    permalink = text_of(source.fields.get("permalink")).strip("/")
    name = make_slug(permalink.rsplit("/", 1)[-1]) if permalink else ""
    on_list = name in LIST_PAGES and f"pages/{name}.md" not in mig.files
    taken = not name or name in list_reserved(tuple(s.name for s in SCHEMAS))
    slug = name if on_list else mig.free_slug(
        "pages", make_slug(source.path.stem) if taken else name)
    title = text_of(source.fields.get("title")).strip() or \
        source.path.stem.replace("-", " ").replace("_", " ").title()
    body = convert_markup(source.body, source.path, source.body_line, mig)
    where = mig.where(source.path)
    fields = {"title": title, "place": "above" if on_list else ""}
    why = {"place": "above: this text above the list the site makes; instead: this text alone"}
    mig.add_text(f"pages/{slug}.md", format_entry(fields, body, why), "page", where)
    if f"pages/{slug}.md" not in mig.files:  # a name the build refuses: noted
        return
    if permalink and not taken:
        mig.add_redirect(permalink + "/", f"{slug}/")
    mig.add_review(where, f"a page written by hand among the {source.path.parent.name}/ "
                   + (f"items, kept whole as the text of /{slug}/, above the list the new "
                      f"site makes there (pages/{slug}.md, `place: above`): set `place: "
                      "instead` to show only your list" if on_list else
                      f"items, kept whole as pages/{slug}.md (/{slug}/)" + (
                          f": its old address /{permalink}/ is the new site's own list, so "
                          "link the page from the menu (nav in site.yaml) or copy its text "
                          "into the items" if permalink and taken else "")))
