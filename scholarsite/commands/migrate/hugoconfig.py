"""A Hugo Blox site's settings (`config/_default/hugo.yaml`, `params.yaml`, or the older
`config.yaml`/`config.toml`) and its owner (`content/authors/admin/_index.md`): site.yaml's
settings, the home page's bio and the CV's education; and the helpers hugoblox.py shares
(front-matter values as text, dates, venues, the old files a page links to)."""

from __future__ import annotations

import datetime as dt
import posixpath
import re
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from urllib.parse import unquote

from ...reading.text.mdescape import text_to_markdown
from .frontmatter import (Source, TextDates, format_yaml, key_line, owner_names,
                          read_settings, read_source, strip_emphasis, strip_html)
from .hugofields import person_name, read_markdown_link
from .markup import convert_markup
from .model import Migration, is_inside

# Hugo reads the first of these it finds; config/_default/ is what Hugo Blox ships.
CONFIG_FILES = ("config/_default/hugo.yaml", "config/_default/hugo.toml",
                "config/_default/config.yaml", "config/_default/config.toml",
                "hugo.yaml", "hugo.toml", "config.yaml", "config.toml")
PARAMS_FILES = ("config/_default/params.yaml", "config/_default/params.toml")
# The owner's profile: `admin` in Wowchemy and Hugo Blox, `me` in the newest starters.
OWNER_NAMES = ("admin", "me")
AUTHOR_FOLDERS = ("content/authors", "content/author")
PLACEHOLDER_NAME = "Your Name"
# Titles the starters ship with, which a site kept by oversight.
THEME_TITLES = {"academic", "hugo blox", "hugo academic", "academic website", "wowchemy"}
PLACEHOLDER_URL = "https://example.org/"
# Hugo Blox's icon names (an icon pack prefix such as `brands/` dropped) -> profile keys.
ICON_KEYS = {"google-scholar": "scholar", "graduation-cap": "scholar", "orcid": "orcid",
             "github": "github", "linkedin": "linkedin", "linkedin-in": "linkedin",
             "twitter": "twitter", "x": "twitter", "x-twitter": "twitter", "dblp": "dblp",
             "researchgate": "researchgate", "gitlab": "gitlab", "mastodon": "mastodon",
             "bluesky": "bluesky", "youtube": "youtube", "cv": "cv", "ai-cv": "cv",
             "file-pdf": "cv", "semantic-scholar": "semantic-scholar"}
PICTURES = (".jpg", ".jpeg", ".png", ".webp", ".gif")
_MD_TARGET = re.compile(r"(!?\[[^\]\n]*\]\()([^)\s]+)")
_COMMENT = re.compile(r"<!--.*?-->", re.S)
# What a raw HTML page links or embeds: href= and src=, quoted either way or not.
_PAGE_REF = re.compile(r"""\b(?:href|src)\s*=\s*["']?([^"'\s>]+)""", re.I)
# {{% callout note %}} text {{% /callout %}}: Hugo Blox's box, scholarsite's admonition.
_CALLOUT = re.compile(r"\{\{[<%]\s*callout\s+(\w+)\s*[>%]\}\}(.*?)"
                      r"\{\{[<%]\s*/callout\s*[>%]\}\}", re.S)
_DATE = re.compile(r"(\d{4})(?:-(\d{2}))?(?:-(\d{2}))?")


@dataclass
class Owner:
    """The site's owner as content/authors/admin/_index.md describes them."""

    name: str = ""
    role: str = ""
    affiliation: str = ""
    email: str = ""
    links: dict[str, str] = field(default_factory=dict)
    photo: str = ""  # files/avatar.jpg, once copied
    source: Source | None = None
    usernames: dict[str, str] = field(default_factory=dict)  # authors/<user>/ -> its name
    aliases: list[str] = field(default_factory=list)  # the profile's other names


def read_first(old: Path, names: tuple[str, ...], mig: Migration) -> dict:
    path = next((old / n for n in names if (old / n).is_file()), None)
    return read_settings(path, mig) if path else {}


def read_owner(old: Path, mig: Migration) -> Owner:
    """The owner's name, role, links and photo, and every author profile's name (a paper's
    `authors: [admin]` means the owner)."""
    owner = Owner()
    candidates: list[tuple[str, Source]] = []
    for folder in AUTHOR_FOLDERS:
        for index in sorted((old / folder).glob("*/_index.md")):
            source = read_hugo_source(index, mig)
            if source is None:
                continue
            user = index.parent.name
            name = person_name(source.fields.get("title") or source.fields.get("name"))
            if name:
                owner.usernames.setdefault(user.lower(), name)  # Hugo's terms: lower case
            if user in OWNER_NAMES or source.fields.get("superuser"):
                candidates.append((name, source))
    if candidates:
        fill_owner(owner, choose_owner(old, candidates, mig), mig)
    return owner


def choose_owner(old: Path, candidates: list[tuple[str, Source]], mig: Migration) -> Source:
    """The owner's profile (`admin` or a `superuser`); of several (a group's site), the one
    whose family name the site's title or address holds, else the first, as reported."""
    if len(candidates) == 1:
        return candidates[0][1]
    config = read_first(old, CONFIG_FILES, mig)
    said = " ".join(text_of(config.get(k)) for k in ("title", "baseURL", "baseurl")).casefold()
    named = [c for c in candidates if c[0] and c[0].split()[-1].casefold() in said]
    chosen = (named or candidates)[0]
    names = ", ".join(c[0] or c[1].path.parent.name for c in candidates)
    mig.add_review(mig.where(chosen[1].path), f"{len(candidates)} author profiles are the "
                   f"owner's (superuser): {names}; "
                   f"{chosen[0]} taken as the site's owner" + (
                       " (the site's title or address names them)" if named else ""))
    return chosen[1]


def read_hugo_source(path: Path, mig: Migration) -> Source | None:
    """A Hugo page's front matter and body: Hugo reads its keys in any case (`Date:`,
    `Title:`), so they are read lower-cased, a key written in lower case first; a date
    YAML cannot read ('2021-31-01') is kept as text (hugoblox.entry_date reads it)."""
    source = read_source(path, mig, TextDates)
    if source is None or all(key == key.lower() for key in source.fields):
        return source
    fields = {key.lower(): value for key, value in source.fields.items()}
    fields.update((key, value) for key, value in source.fields.items() if key == key.lower())
    return replace(source, fields=fields)


def profile_names(f: dict) -> list[str]:
    """Every name the owner's profile gives: its display name (`title`, `name`, one per
    language), `first_name` and `last_name`, and `name_pronunciation` (a name in Latin
    letters beside one in another script), the display name first."""
    forms: list[str] = []
    for key in ("title", "name"):
        value = f.get(key)
        forms += owner_names(value if isinstance(value, dict) else person_name(value))
    forms += owner_names(" ".join(text_of(f.get(k)) for k in ("first_name", "last_name")))
    forms += owner_names(person_name(f.get("name_pronunciation")))
    return list(dict.fromkeys(forms))


def fill_owner(owner: Owner, source: Source, mig: Migration) -> None:
    f = source.fields
    owner.source = source
    names = profile_names(f)
    owner.name, owner.aliases = (names[0], names[1:]) if names else ("", [])
    owner.role = text_of(f.get("role"))
    orgs = f.get("organizations") or f.get("affiliations") or []
    first = orgs[0] if isinstance(orgs, list) and orgs else {}
    owner.affiliation = text_of(first.get("name") if isinstance(first, dict) else first)
    owner.email = text_of(f.get("email"))
    for item in f.get("social") or f.get("profiles") or []:
        if isinstance(item, dict):
            add_profile_link(owner, item, source, mig)
    owner.photo = copy_avatar(source.path.parent, mig)


def add_profile_link(owner: Owner, item: dict, source: Source, mig: Migration) -> None:
    """One `social` entry ({icon, icon_pack, link}) as a profile link, or the e-mail."""
    icon = text_of(item.get("icon")).rsplit("/", 1)[-1].lower()
    link = text_of(item.get("link") or item.get("url"))
    if not link or link.startswith(("#", "/#")) or link.strip("/") == "contact":
        return  # the contact form of the old home page
    if link.startswith("mailto:"):
        owner.email = owner.email or link.removeprefix("mailto:")
        return
    key = "scholar" if "scholar.google" in link else ICON_KEYS.get(icon, icon or "link")
    if not link.startswith(("http://", "https://")):
        local = find_local(mig.old, source.path.parent, link)
        if local is None:
            mig.add_review(mig.where(source.path), f"profile link '{link}' names no file "
                           "of the old site; not moved")
            return
        link = f"files/{local.name}"
        if not mig.add_copy(link, local, "file", mig.where(local)):
            return  # its note says why
    owner.links.setdefault(key, link)


def copy_avatar(folder: Path, mig: Migration) -> str:
    for path in sorted(folder.iterdir()):
        if path.stem.lower() == "avatar" and path.suffix.lower() in PICTURES:
            target = f"files/avatar{path.suffix.lower()}"
            return target if mig.add_copy(target, path, "file", mig.where(path)) else ""
    return ""


def make_settings(old: Path, owner: Owner, mig: Migration) -> dict:
    """site.yaml's settings; what the old site lacks gets a placeholder and a note."""
    config = read_first(old, CONFIG_FILES, mig)
    params = read_first(old, PARAMS_FILES, mig) or config.get("params") or {}
    where = next((n for n in CONFIG_FILES if (old / n).is_file()), "config/_default/hugo.yaml")
    title = text_of(config.get("title"))
    if title.casefold() in THEME_TITLES and owner.name:
        mig.add_review(where, f"the site's title was the theme's own '{title}': site.yaml "
                       "says the owner's name; edit it")
        title = owner.name
    site = {"title": title or owner.name,
            "url": make_url(text_of(config.get("baseURL") or config.get("baseurl"))),
            "description": find_description(params),
            # The language alone: Hugo's 'zh-cn' or POSIX 'zh_CN' ('zh_CN' is no BCP 47 tag).
            "language": re.split(r"[-_]", text_of(config.get("defaultContentLanguage")))[0]}
    if not site["title"]:
        site["title"] = PLACEHOLDER_NAME
        mig.add_review(where, "the site has no title: site.yaml says 'Your Name'; edit it")
    if not site["url"]:
        site["url"] = PLACEHOLDER_URL
        mig.add_review(where, f"no baseURL: site.yaml's url is {PLACEHOLDER_URL}; set the "
                       "address the new site will have")
    site["author"] = make_author(owner, mig)
    return {k: v for k, v in site.items() if v}


def make_author(owner: Owner, mig: Migration) -> dict:
    if not owner.name:
        mig.add_review("content/authors/admin/_index.md", "no owner profile with a name: "
                       f"site.yaml's author.name is '{PLACEHOLDER_NAME}'; edit it")
    author = {"name": owner.name or PLACEHOLDER_NAME, "aliases": owner.aliases,
              "position": owner.role,
              "affiliation": owner.affiliation,
              "email": owner.email if "@" in owner.email else "",
              "photo": owner.photo, "links": owner.links}
    return {k: v for k, v in author.items() if v}


def find_description(params) -> str:
    """params.yaml's `marketing.seo.description` (Hugo Blox) or `description` (Wowchemy)."""
    if not isinstance(params, dict):
        return ""
    marketing = params.get("marketing")
    seo = marketing.get("seo") if isinstance(marketing, dict) else None
    found = seo.get("description") if isinstance(seo, dict) else None
    return text_of(found or params.get("description"))


def make_url(base: str) -> str:
    """baseURL as an absolute address ending in '/', its subpath kept; '' when it says
    nothing ('/', or Hugo Blox's example address)."""
    base = base.strip()
    if not base or base == "/" or "example.com" in base:
        return ""
    if not re.match(r"https?://", base):
        base = "https://" + base.lstrip("/")
    return base.rstrip("/") + "/"


def find_local(old: Path, bundle: Path, ref: str) -> Path | None:
    """The old site's file that a link names: in the page's folder, under static/ (Hugo
    serves it at the root), or a page bundle's file under content/."""
    rel = ref.split("#")[0].split("?")[0].strip()
    if not rel or re.match(r"[a-z]+:", rel):
        return None
    rel = rel.removeprefix("./").lstrip("/")
    for base in (bundle, old / "static", old / "content", old / "assets"):
        for name in dict.fromkeys((rel, unquote(rel))):  # '%20' in an address is a space
            candidate = base / name
            try:
                if candidate.is_file() and is_inside(candidate, old):
                    return candidate
            except (OSError, ValueError):  # an unreadable path, or one with a NUL in it
                continue
    return find_by_name(old / "static", PurePosixPath(unquote(rel)).name, old)


def find_by_name(folder: Path, name: str, old: Path) -> Path | None:
    """The one file called `name` below `folder` (static/), for a link whose folder is
    wrong ('/x-slides.pdf' for static/publication/x-slides.pdf); None when there is none,
    or more than one."""
    if "." not in name or not folder.is_dir():
        return None
    found = [p for p in sorted(folder.rglob("*")) if p.name == name and p.is_file()]
    return found[0] if len(found) == 1 and is_inside(found[0], old) else None


def text_of(value) -> str:
    """A front-matter value as one line of text ('' for None and containers)."""
    if value is None or isinstance(value, (dict, list)):
        return ""
    return " ".join(str(value).split())


def plain_venue(value) -> str:
    """`In *Journal of X*`, `<i>Proc. Y</i>` or `[Journal](https://...)` (the journal's
    home, not the paper's) as plain text."""
    if isinstance(value, dict):
        value = value.get("name")
    text = strip_html(read_markdown_link(text_of(value))[0])
    text = strip_emphasis(text)
    text = re.sub(r"^(In|in)\s*:?\s+", "", text)
    return text.strip(" ,;") if text.strip("*_ ") else ""  # '**', empty bold: no venue


def make_date(value) -> str:
    """Hugo's date ('2021-07-01T00:00:00Z', a date or datetime) as YYYY-MM-DD."""
    if isinstance(value, (dt.date, dt.datetime)):
        return value.strftime("%Y-%m-%d")
    match = _DATE.match(text_of(value))
    if not match:
        return ""
    return "-".join(part for part in match.groups() if part)


# --- The owner's text, and the files pages use ---------------------------------------

def move_home(owner: Owner, mig: Migration) -> None:
    """The owner's profile text becomes the home page's bio; their interests follow it and
    their education goes to the CV."""
    source = owner.source
    if source is None:
        return
    body = convert_body(source, mig, lambda ref: copy_file(ref, source.path.parent, "", mig))
    body = body.strip() or text_of(source.fields.get("bio"))
    interests = list_of(source.fields.get("interests"))
    if interests:
        body += "\n\n**Interests:** " + "; ".join(map(text_to_markdown, interests)) + "."
    if body.strip():
        mig.add_text("index.md", body.strip() + "\n", "home", mig.where(source.path))
    education = make_education(source.fields.get("education"))
    if education:
        mig.add_text("cv.yaml", format_yaml({"education": education}, "Moved from the "
                     "old profile's education (migrate); add your positions and the rest."),
                     "cv", mig.where(source.path, key_line(source, "education")))


def list_of(value) -> list[str]:
    """A front-matter list (or one value) as texts, the empty ones left out."""
    items = value if isinstance(value, list) else [value]
    return [text_of(v) for v in items if text_of(v)]


def make_education(value) -> list[dict]:
    courses = value.get("courses") if isinstance(value, dict) else value
    out = []
    for item in courses if isinstance(courses, list) else []:
        if isinstance(item, dict) and text_of(item.get("course") or item.get("area")):
            entry = {"degree": text_of(item.get("course") or item.get("area")),
                     "institution": text_of(item.get("institution")),
                     "date": make_date(item.get("year") or item.get("date_end"))}
            out.append({k: v for k, v in entry.items() if v})
    return out


def copy_file(ref: str, bundle: Path, below: str, mig: Migration) -> str:
    """Copy the old file that `ref` names; its new path (files/...), or '' when none."""
    local = find_local(mig.old, bundle, ref)
    if local is None:
        return ""
    if local.is_relative_to(bundle) and bundle != mig.old / "content":
        target = "/".join(["files", *([below] if below else []),
                           local.relative_to(bundle).as_posix()])
    elif local.is_relative_to(mig.old / "static"):
        target = f"files/{local.relative_to(mig.old / 'static').as_posix()}"
    else:
        target = f"files/{local.relative_to(mig.old).as_posix()}"
    if not mig.add_copy(target, local, "file", mig.where(local)):
        return ""
    if local.suffix.lower() in (".html", ".htm") and local.is_relative_to(bundle) \
            and bundle != mig.old / "content":
        copy_page_files(local, bundle, target, mig)
    return target


def copy_page_files(page: Path, bundle: Path, target: str, mig: Migration) -> None:
    """A bundle's own HTML page (a code or data page that `url_code` links) keeps working
    where it now is: the bundle's files it links, by relative address, are copied beside
    it as they lay beside it (its own pages' files too). What the bundle lacks is left as
    it was: check names it."""
    text = mig.read_text(page) or ""
    for ref in dict.fromkeys(_PAGE_REF.findall(text)):
        rel = unquote(ref.split("#")[0].split("?")[0])
        if not rel or re.match(r"[a-zA-Z][a-zA-Z0-9+.\-]*:|/", rel):
            continue  # another site's address, or one from the old site's root
        local = page.parent / rel
        new = PurePosixPath(target).parent / rel
        try:
            found = local.is_file() and local.resolve().is_relative_to(bundle.resolve())
        except (OSError, ValueError):  # an unreadable path, or one with a NUL in it
            found = False
        name = posixpath.normpath(new.as_posix())
        if found and name not in mig.files and name.startswith("files/") and mig.add_copy(
                name, local, "file", mig.where(page)) \
                and local.suffix.lower() in (".html", ".htm"):
            copy_page_files(local, bundle, name, mig)


def convert_body(source: Source, mig: Migration, file_path) -> str:
    """The Markdown body with HTML comments dropped, shortcodes converted and pictures and
    links to the page's own files copied."""
    body = _COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), source.body)
    body = _CALLOUT.sub(make_admonition, body)

    def relink(match: re.Match) -> str:
        target = match.group(2)
        moved = mig.redirects.get(target.strip("/"))  # a page moved before this one
        return match.group(1) + (file_path(target) or moved or target)

    body = _MD_TARGET.sub(relink, body)
    return convert_markup(body, source.path, source.body_line, mig,
                          lambda ref: file_path(ref) or ref.lstrip("/"))


def make_admonition(match: re.Match) -> str:
    """A callout as an admonition, its line count kept so later notes name the right line."""
    lines = match.group(2).strip("\n").splitlines() or [""]
    text = "\n".join(f"    {line}" if line.strip() else "" for line in lines)
    padding = "\n" * max(0, match.group(0).count("\n") - len(lines))
    return f"!!! {match.group(1).lower()}\n{text}{padding}"
