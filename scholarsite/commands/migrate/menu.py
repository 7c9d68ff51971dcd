"""The old site's menu as site.yaml's `nav`, so the new menu lists what the owner listed,
not every collection and page migrate moved (the template's "Page not in menu", a
"Terms and Privacy Policy" page nobody linked).

academicpages keeps its menu in `_data/navigation.yml` (`main:`, each a `title` and a
`url`); al-folio marks its pages `nav: true`, ordered by `nav_order`. Each entry becomes
the new site's section or free page at that address, a link elsewhere stays a link, and an
entry that names nothing moved (the old archive pages, a commented-out section) is left out
with a note. Without an old menu, site.yaml has no `nav` and the build's own menu stands."""

from __future__ import annotations

import re
from pathlib import Path

from ...reading.slugs import make_slug
from .frontmatter import read_settings, read_source
from .model import Migration

# An old address's first part, and the new section it is (when that section has entries).
SECTIONS = {"": "home", "about": "home", "publications": "publications",
            "papers": "publications", "research": "publications", "talks": "talks",
            "teaching": "teaching", "portfolio": "projects", "projects": "projects",
            "year-archive": "posts", "blog": "posts", "posts": "posts", "news": "news",
            "cv": "cv", "resume": "cv", "people": "people"}


def settle_menu(old: Path, mig: Migration) -> None:
    """Set site.yaml's `nav` from the old Jekyll site's menu, when it has one."""
    set_nav(read_old_menu(old, mig), make_item, mig)


def set_nav(entries: list[tuple[str, str, str]], make, mig: Migration) -> None:
    """Set site.yaml's `nav` from an old menu's (title, url, where) entries, each made an
    item by `make` (None: it names nothing that moved); none: the nav is left alone."""
    if not entries:
        return
    nav: list = ["home"]
    for title, url, where in entries:
        item = make(title, url, mig)
        if item is None:
            mig.add_review(where, f"the menu's '{title}' ({url}) names nothing that moved; "
                           "left out of site.yaml's nav")
        elif item != "home" and item not in nav:
            nav.append(item)
    mig.site["nav"] = nav


def read_old_menu(old: Path, mig: Migration) -> list[tuple[str, str, str]]:
    """(title, url, where) of each menu entry, in order."""
    scratch = Migration(mig.old, mig.kind)  # the files' own notes are said elsewhere
    path = old / "_data" / "navigation.yml"
    if path.is_file():
        main = read_settings(path, scratch).get("main")
        if main:  # the menu is read into site.yaml's nav
            mig.read.add(mig.where(path))
        return [(str(e["title"]).strip(), str(e["url"]).strip(), mig.where(path))
                for e in main or [] if isinstance(e, dict) and e.get("title") and e.get("url")]
    pages = []
    for page in sorted((old / "_pages").glob("*")) if (old / "_pages").is_dir() else []:
        source = read_source(page, scratch) if page.is_file() else None
        if source is not None and source.fields.get("nav") is True:
            order = source.fields.get("nav_order")
            pages.append((order if isinstance(order, (int, float)) else 1e9, page.name,
                          str(source.fields.get("title") or page.stem),
                          str(source.fields.get("permalink") or f"/{page.stem}/"),
                          mig.where(page)))
    return [(title, url, where) for _, _, title, url, where in sorted(pages)]


def make_item(title: str, url: str, mig: Migration):
    """The nav entry for an old menu entry: a section key (with the old label), a free
    page's slug, a link elsewhere, or None when it names nothing that moved."""
    if re.match(r"^https?://", url):
        return {"title": title, "url": url}
    path = re.sub(r"\{\{[^}]*\}\}", "", url).split("#")[0].split("?")[0].strip("/")
    section = SECTIONS.get(path.split("/")[0].removesuffix(".html"))
    if section == "home":
        return "home"
    if section and has_section(section, mig):
        return {section: title}
    return page_slug(path, mig) or None


def has_section(section: str, mig: Migration) -> bool:
    if section == "publications":
        return any(p.startswith("publications/") for p in mig.files)
    if section == "cv":
        return "cv.yaml" in mig.files
    return any(p.startswith(f"{section}/") and p.endswith(".md") for p in mig.files)


def page_slug(path: str, mig: Migration) -> str:
    """The slug of the free page that the old address `path` moved to ('' when none)."""
    moved = mig.redirects.get(path) or mig.redirects.get(path + "/") or ""
    for slug in (moved.strip("/").rsplit("/", 1)[-1], make_slug(path.rsplit("/", 1)[-1])):
        if slug and f"pages/{slug}.md" in mig.files:
            return slug
    return ""
