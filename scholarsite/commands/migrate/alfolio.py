"""al-folio: `_bibliography/`, `assets/pdf/`, `_news/`, `_projects/`, `_posts/`, the CV.

The .bib files move as they are (scholarsite reads al-folio's fields itself); news, projects
and posts become collection files, their Liquid converted by markup.py and the pictures and
PDFs they name copied into files/; `_data/cv.yml` or `assets/json/resume.json` becomes
cv.yaml (cvdata.py)."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from ...reading.slugs import make_slug
from ...reading.text.mdescape import text_to_markdown
from .alfoliobib import copy_folder, list_files, read_bibliography
from .apfields import stand_in_date
from .coauthors import read_coauthors
from .dates import DateOrder, decide_order, read_loose_date
from .cvdata import read_cv
from .frontmatter import Source, format_entry, read_settings, read_source, strip_html
from .guard import guarded
from .links import new_file_path
from .markup import convert_markup
from .model import Migration, is_inside

MARKDOWN = (".md", ".markdown")
# Front matter read below, or that only steered al-folio's layout: no note for these.
HANDLED_KEYS = {"layout", "inline", "related_posts", "giscus_comments", "disqus_comments",
               "featured", "pretty_table", "scrollable", "permalink", "published", "toc",
               "mermaid", "chart", "tikzjax", "typograms", "pseudocode", "code_diff",
               "map", "tabs", "images", "thumbnail", "distill", "enable_math", "nav",
               "nav_order", "importance", "category", "related_publications", "img",
               "redirect", "slug", "description", "title", "date", "tags", "categories"}
_DATED_NAME = re.compile(r"^(\d{4})-(\d{2})-(\d{2})-(.+)$")
_DAY = re.compile(r"^\s*(\d{4}-\d{2}-\d{2})")
_CITE = re.compile(r"\{%-?\s*cite\s+([^%]+?)\s*-?%\}")
_GRID_OPEN = re.compile(r"^\s*<div\s+class=\"(?:row|col)[^\"]*\"[^>]*>\s*$")
_DIV_OPEN = re.compile(r"^\s*<div\b")
_DIV_CLOSE = re.compile(r"^\s*</div>\s*$")
_COMMENT = re.compile(r"<!--.*?-->", re.S)
# Jekyll's named permalink styles, for posts.
PERMALINK_STYLES = {"date": "/:categories/:year/:month/:day/:title:output_ext",
                    "pretty": "/:categories/:year/:month/:day/:title/",
                    "ordinal": "/:categories/:year/:y_day/:title:output_ext",
                    "none": "/:categories/:title:output_ext"}
OTHER_DATA = {"venues.yml": "al-folio's badge colours per venue are not kept; scholarsite "
              "styles badges itself"}


def read_alfolio(old: Path, mig: Migration) -> None:
    """Add the bibliography, files, news, projects, posts and CV of an al-folio site."""
    papers = read_bibliography(old, mig)
    copy_folder(old / "assets" / "pdf", "files", mig)
    copy_folder(old / "assets" / "img" / "publication_preview", "files/publication_preview",
                mig)
    read_news(old, mig)
    read_projects(old, mig, papers)
    read_posts(old, mig, read_permalink(old, mig),
               {key: title for key, (_, title) in papers.items()})
    read_cv(old, mig)
    read_coauthors(old, mig)
    for name, why in OTHER_DATA.items():
        if (old / "_data" / name).is_file():
            mig.leave(mig.where(old / "_data" / name), f"not moved: {why}")


def use_asset(old: Path, mig: Migration, ref: str, origin: str) -> str:
    """The new path of a file `ref` names, which is copied; an address elsewhere as it is."""
    if re.match(r"^[a-z][a-z0-9+.-]*:|^//|^#", ref.strip(), re.I) or not ref.strip():
        return ref
    path = ref.strip().split("#")[0].split("?")[0].lstrip("/")
    source = old / path
    new = new_file_path(path)
    if source.is_file() and is_inside(source, old):
        mig.add_copy(new, source, "file", mig.where(source))  # its note says why not
    else:
        mig.add_review(origin, f"'{ref}' names no file of the old site, so it is left out; "
                       f"put the file at {new} and name it there")
    return new


# --- Markdown bodies -----------------------------------------------------------------------


def unwrap_grid(text: str) -> str:
    """al-folio's Bootstrap rows and columns around figures, removed: Markdown inside an HTML
    block is not read, so a picture there would show as text."""
    out: list[str] = []
    opened: list[bool] = []  # one per open <div> line: is it a grid one?
    for line in text.split("\n"):
        if _GRID_OPEN.match(line):
            opened.append(True)
        elif _DIV_CLOSE.match(line) and opened:
            if not opened.pop():
                out.append(line)
        else:
            if _DIV_OPEN.match(line) and "</div>" not in line:
                opened.append(False)
            out.append(line.strip() if opened and all(opened) else line)
    return "\n".join(out)


def convert_cites(text: str, titles: dict[str, str]) -> str:
    """`{% cite key %}` (jekyll-scholar) as the papers' titles, where all are known: text,
    not links, as links.py knows no page a .bib file makes (a project's `papers` links them)."""
    def cite(match: re.Match) -> str:
        keys = [k for k in re.split(r"[\s,]+", match.group(1)) if k and "=" not in k]
        if not keys or any(k not in titles for k in keys):
            return match.group(0)
        return "(" + "; ".join(f"*{text_to_markdown(titles[k])}*" for k in keys) + ")"
    return _CITE.sub(cite, text)


def convert_body(src: Source, mig: Migration, titles: dict[str, str]) -> str:
    """The body in scholarsite's Markdown; links.py then settles its links and files."""
    text = _COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), src.body)  # not shown
    text = convert_cites(unwrap_grid(text), titles)
    return convert_markup(text, src.path, src.body_line, mig)


def read_day(value: object) -> str:
    """A date (and time, and zone: '2015-10-22 15:59:00-0400') as 'YYYY-MM-DD'."""
    if isinstance(value, dt.datetime):
        return value.date().isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    match = _DAY.match(str(value)) if isinstance(value, str) else None
    try:  # '2023-04-31' looks like a day but is none
        return dt.date.fromisoformat(match.group(1)).isoformat() if match else ""
    except ValueError:
        return ""


def note_unknown(src: Source, mig: Migration, also: tuple[str, ...] = ()) -> None:
    rest = sorted(k for k in src.fields if k not in HANDLED_KEYS and k not in also)
    if rest:
        mig.add_review(mig.where(src.path, 1), "front matter not moved (scholarsite has no "
                       f"such field): {', '.join(rest)}")


def text_of(value: object) -> str:
    return strip_html(str(value)) if value not in (None, "", False) else ""


# --- news ----------------------------------------------------------------------------------


def read_news(old: Path, mig: Migration) -> None:
    sources = [src for src in map(lambda p: read_source(p, mig), list_files(old / "_news",
                                                                           MARKDOWN)) if src]
    order = decide_order(src.fields.get("date") for src in sources)  # the news' years
    for src in sources:
        guarded(mig, mig.where(src.path, 1), move_news, src, order, mig)


def move_news(src: Source, order: DateOrder, mig: Migration) -> None:
    """A news item; one that was not inline had a page of its own, which now sends to news/.
    A date that is no day is read as far as it can be, never a reason to leave it."""
    named = _DATED_NAME.match(src.path.stem)
    date = read_day(src.fields.get("date")) or (read_day(src.path.stem) if named else "")
    comments: dict[str, str] = {}
    if not date:
        value = src.fields.get("date")
        date, how = read_loose_date(value, order) if value else (None, "")
        if date:
            mig.add_review(mig.where(src.path, 1), f"the date {value!r} read as {date} ({how})")
        else:
            date = stand_in_date(src, order, mig, comments)
    slug = mig.free_slug("news", named.group(4) if named else src.path.stem)
    body = convert_body(src, mig, {})
    inline = src.fields.get("inline") is True
    title = text_of(src.fields.get("title")) if not inline or not body.strip() else ""
    if not title and not body.strip():
        mig.leave(mig.where(src.path, 1), "not moved: a news item with neither title nor text")
        return
    note_unknown(src, mig)
    mig.add_text(f"news/{slug}.md", format_entry({"title": title, "date": date}, body, comments),
                 "news", mig.where(src.path))
    if not inline:
        mig.add_redirect(f"news/{src.path.stem}", "news/")


# --- projects ------------------------------------------------------------------------------


def read_projects(old: Path, mig: Migration, papers: dict[str, tuple[str, str]]) -> None:
    grouped = []
    for path in list_files(old / "_projects", MARKDOWN):
        src = read_source(path, mig)
        if src is None:
            continue
        guarded(mig, mig.where(path, 1), move_project, src, old, mig, papers)
        if "category" in src.fields or "importance" in src.fields:
            grouped.append(src.path)
    if grouped:
        mig.add_review(mig.where(grouped[0], 1), "al-folio's project 'category' and "
                       "'importance' are not kept: scholarsite lists projects newest first "
                       f"({len(grouped)} project file(s) had them)")


def move_project(src: Source, old: Path, mig: Migration,
                 papers: dict[str, tuple[str, str]]) -> None:
    fields = src.fields
    title = text_of(fields.get("title"))
    if not title:
        mig.leave(mig.where(src.path, 1), "not moved: a project needs a title")
        return
    slug = mig.free_slug("projects", src.path.stem)
    origin = mig.where(src.path, 1)
    image = use_asset(old, mig, str(fields["img"]), origin) if fields.get("img") else ""
    image = image if image in mig.files or "://" in image else ""  # a missing file: noted
    redirect = str(fields.get("redirect") or "")
    year = str(fields.get("year") or "").strip()  # some sites date projects by year
    entry = {"title": title,
             "date": read_day(fields.get("date")) or (year if re.fullmatch(r"\d{4}", year)
                                                      else ""),
             "summary": text_of(fields.get("description")), "image": image,
             "links": {"Website": redirect} if redirect.startswith(("http://", "https://"))
             else {},
             "papers": related_papers(src, mig, papers)}
    note_unknown(src, mig, also=("year",) if entry["date"] == year else ())
    mig.add_text(f"projects/{slug}.md", format_entry(entry, convert_body(
        src, mig, {key: title for key, (_, title) in papers.items()})),
                 "project", mig.where(src.path))
    mig.add_redirect(f"projects/{src.path.stem}", f"projects/{slug}/")


def related_papers(src: Source, mig: Migration, papers: dict[str, tuple[str, str]]
                   ) -> list[str]:
    """The slugs of the papers a project names: its `related_publications` keys, or with
    `related_publications: true`, the keys its text cites."""
    named = src.fields.get("related_publications")
    if isinstance(named, str):
        keys = [k for k in re.split(r"[\s,]+", named) if k]
    elif isinstance(named, list):
        keys = [str(k) for k in named]
    elif named is True:
        keys = [k for m in _CITE.finditer(src.body) for k in re.split(r"[\s,]+", m.group(1))
                if k and "=" not in k]
    else:
        return []
    missing = [k for k in keys if k not in papers]
    if missing:
        mig.add_review(mig.where(src.path, 1), "related papers not found in the .bib files "
                       f"(or left out there): {', '.join(missing)}")
    return list(dict.fromkeys(papers[k][0] for k in keys if k in papers))


# --- posts ---------------------------------------------------------------------------------


def read_permalink(old: Path, mig: Migration) -> str:
    """The posts' address pattern in _config.yml (Jekyll's default is 'date'; jekyll.py
    names the file's problems)."""
    config = read_settings(old / "_config.yml", mig, quiet=True)
    pattern = str(config.get("permalink") or "date")
    return PERMALINK_STYLES.get(pattern, pattern)


def read_posts(old: Path, mig: Migration, permalink: str, titles: dict[str, str]) -> None:
    for path in list_files(old / "_posts"):
        named = _DATED_NAME.match(path.stem)
        if path.suffix.lower() not in MARKDOWN:
            mig.leave(mig.where(path), f"not moved: only Markdown posts move; copy this "
                      f"{path.suffix.lstrip('.').upper() or 'file'}'s text into "
                      f"posts/{make_slug(named.group(4) if named else path.stem)}.md by hand")
        elif not named:
            mig.leave(mig.where(path), "not moved: Jekyll publishes only posts named "
                      "YYYY-MM-DD-title.md")
        else:
            src = read_source(path, mig)
            if src is not None:
                guarded(mig, mig.where(path, 1), move_post, src, named, mig, permalink, titles)
    if any(f.what == "post" for f in mig.files.values()):
        mig.add_redirect("blog", "posts/")  # al-folio's list of posts


def split_words(value: object) -> list[str]:
    """Jekyll's tags or categories: a list, or words separated by spaces."""
    if isinstance(value, list):
        return [str(v).strip() for v in value if str(v).strip()]
    return str(value).split() if value not in (None, "") else []


def move_post(src: Source, named: re.Match, mig: Migration, permalink: str,
              titles: dict[str, str]) -> None:
    fields = src.fields
    if str(fields.get("redirect") or "").startswith(("http://", "https://")):
        mig.leave(mig.where(src.path, 1), "not moved: this post only sends readers to "
                  f"{fields['redirect']}; link it from a news item or page instead")
        return
    date = read_day(fields.get("date")) or read_day("-".join(named.group(1, 2, 3)))
    if not date:
        mig.leave(mig.where(src.path, 1), "not moved: neither its date nor its file name "
                  "is a real day")
        return
    if fields.get("date") and not read_day(fields.get("date")):
        mig.add_review(mig.where(src.path, 1), f"'date: {fields['date']}' is no real day; "
                       "the file name's day is used")
    slug = mig.free_slug("posts", named.group(4))
    categories = split_words(fields.get("categories") or fields.get("category"))
    entry = {"title": text_of(fields.get("title")) or named.group(4).replace("-", " "),
             "date": date, "summary": text_of(fields.get("description")),
             "tags": list(dict.fromkeys(split_words(fields.get("tags")) + categories)),
             "toc": True if fields.get("toc") else None,
             "draft": True if fields.get("published") is False else None}
    note_unknown(src, mig)
    mig.add_text(f"posts/{slug}.md", format_entry(entry, convert_body(src, mig, titles)),
                 "post", mig.where(src.path))
    old_path = str(fields.get("permalink") or "") or fill_permalink(
        permalink, date, named.group(4), categories)
    mig.add_redirect(old_path, f"posts/{slug}/")


def fill_permalink(pattern: str, date: str, title: str, categories: list[str]) -> str:
    """The address Jekyll gave a post, from the site's `permalink` pattern."""
    day = dt.date.fromisoformat(date)
    values = {"year": f"{day.year:04d}", "month": f"{day.month:02d}", "day": f"{day.day:02d}",
              "i_month": str(day.month), "i_day": str(day.day),
              "short_year": f"{day.year % 100:02d}", "y_day": f"{day.timetuple().tm_yday:03d}",
              "title": title, "slug": title, "name": title, "output_ext": ".html",
              "categories": "/".join(c.lower() for c in categories)}
    path = re.sub(r":(\w+)", lambda m: values.get(m.group(1), m.group(0)), pattern)
    return re.sub(r"/{2,}", "/", path)
