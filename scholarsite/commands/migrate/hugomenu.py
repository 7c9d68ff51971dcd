"""A Hugo site's main menu as site.yaml's `nav`, as menu.py does for Jekyll's.

Hugo gathers its menu from `config/_default/menus.yaml` (or `.toml`: `[[main]]`), from
`menu: main:` (`[[menu.main]]`) in the site's config, and from `menu: main` in a page's
front matter; entries are ordered by `weight`, and those with a `parent` are a submenu
(scholarsite's menu has one level: they are left out). A Hugo Academic home page's
entries are anchors of its widgets (`#publications`, `/#talks`): each becomes the section
the widget showed."""

from __future__ import annotations

import re
from pathlib import Path

from .frontmatter import read_settings, read_source, strip_html
from .hugoconfig import CONFIG_FILES
from .menu import has_section, make_item, set_nav
from .model import Migration

MENU_FILES = ("config/_default/menus.yaml", "config/_default/menus.yml",
              "config/_default/menus.toml")
# Hugo's section folders and home-page widgets -> scholarsite's sections.
WORDS = {"": "home", "home": "home", "about": "home", "publication": "publications",
         "publications": "publications", "featured": "publications", "papers": "publications",
         "event": "talks", "talk": "talks", "talks": "talks", "post": "posts",
         "posts": "posts", "blog": "posts", "news": "posts", "project": "projects",
         "projects": "projects"}


def settle_hugo_menu(old: Path, mig: Migration) -> None:
    """Set site.yaml's `nav` from the old Hugo site's main menu, when it has one."""
    set_nav(read_hugo_menu(old, mig), make_hugo_item, mig)


def read_hugo_menu(old: Path, mig: Migration) -> list[tuple[str, str, str]]:
    """(title, url, where) of each top-level entry of the main menu, by weight."""
    scratch = Migration(mig.old, mig.kind)  # the files' own problems are said elsewhere
    found: list[tuple[float, int, str, str, str]] = []
    for name in MENU_FILES + CONFIG_FILES:
        path = old / name
        if not path.is_file():
            continue
        doc = read_settings(path, scratch)
        menus = doc if name in MENU_FILES else doc.get("menu") or doc.get("menus")
        main = menus.get("main") if isinstance(menus, dict) else None
        for item in main if isinstance(main, list) else []:
            add_entry(found, item, "", mig.where(path))
    for path in front_matter_pages(old):
        source = read_source(path, scratch)
        menu = source.fields.get("menu") if source is not None else None
        item = menu.get("main") if isinstance(menu, dict) else {} if menu == "main" else None
        if isinstance(item, dict):
            add_entry(found, item, page_url(old, path), mig.where(path),
                      str(source.fields.get("title") or ""))
    return [(title, url, where) for _, _, title, url, where in sorted(found)]


def add_entry(found: list, item: object, url: str, where: str, title: str = "") -> None:
    if not isinstance(item, dict) or item.get("parent"):
        return
    name = strip_html(str(item.get("name") or title)).strip()
    url = str(item.get("url") or url).strip()
    weight = item.get("weight")
    if name and url:
        found.append((weight if isinstance(weight, (int, float)) else 0, len(found), name,
                      url, where))


def front_matter_pages(old: Path) -> list[Path]:
    """The pages that may name themselves in the menu: the sections' list pages and the
    pages at the top of content/."""
    content = old / "content"
    if not content.is_dir():
        return []
    return sorted([*content.glob("*/_index.md"), *content.glob("*.md")])


def page_url(old: Path, path: Path) -> str:
    rel = path.relative_to(old / "content")
    return f"/{rel.parent.as_posix()}/" if path.name == "_index.md" else f"/{rel.stem}/"


def make_hugo_item(title: str, url: str, mig: Migration):
    """The nav entry for a Hugo menu entry: a widget's anchor or a section's folder as
    the section, else what menu.py makes of an address."""
    if re.match(r"^(?:https?:)?//", url):
        return make_item(title, url, mig)
    path, _, anchor = url.partition("#")
    path = re.sub(r"\{\{[^}]*\}\}", "", path).strip("/")
    word = (anchor if not path else path.split("/")[0]).lower()
    section = WORDS.get(word)
    if section == "home":
        return "home"
    if section and has_section(section, mig):
        return {section: title}
    return None if anchor and not path else make_item(title, url, mig)
