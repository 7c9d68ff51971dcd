"""Collections (talks, teaching, projects, news, posts) and free pages, read by one reader.

Each collection is a folder of Markdown files with YAML front matter. What fields a file may
carry, and of which kind, is its collection's row in SCHEMAS: the reader is the same for all,
so a new field is one line in the table, and an unknown field is an error like in a paper.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from ..diagnostics import Diagnostics
from .settings.fields import FieldReader
from .settings.langconfig import read_language
from .text.imagesizes import add_image_sizes
from .notebooks import NOTEBOOK_SUFFIX, read_notebook
from .listing import list_files
from .slugs import check_file_slug, fold_latin, make_tag_slug, split_repeats
from ..models import Item
from ..models.wording import N_
from .text.papers import Converter, html_to_text, render_markdown, report_at
from .settings.publishing import Publishing, select_published, warn_links_to_held
from ..structure.urls import ROOT_MARKER, check_link, is_external, suggest_path
from .settings.yamlread import Located, read_front_matter, read_text


@dataclass(frozen=True)
class Field:
    name: str
    kind: str  # text | list | link | links | papers | image
    # How a template names it; for a link, the link's text. Marked (N_) where a page
    # shows it in the page's language: a fact's label, a link's text.
    label: str = ""


@dataclass(frozen=True)
class Schema:
    name: str  # the folder below content/, and the URL below the site root
    title: str  # the list page's default title and navigation label
    singular: str  # what one item is called, in messages and templates
    fields: tuple[Field, ...]
    list_template: str  # tried first; falls back to collection.html
    item_template: str  # tried first; falls back to item.html ('' when there are no item pages)
    date_required: bool = True
    title_required: bool = True
    scheduled: bool = False  # an item dated after today waits for its date (publishing.py)
    feed: bool = False  # has an Atom feed of its own, {name}/feed.xml


SCHEMAS = (
    Schema("talks", N_("Talks"), "talk", (
        Field("event", "text", N_("Event")), Field("location", "text", N_("Location")),
        Field("type", "text", N_("Type")), Field("slides", "link", N_("Slides")),
        Field("video", "link", N_("Video"))), "talks.html", "talk.html"),
    Schema("teaching", N_("Teaching"), "course", (
        Field("code", "text", N_("Course code")), Field("term", "text", N_("Term")),
        Field("role", "text", N_("Role")),
        Field("institution", "text", N_("Institution"))),
        "teaching.html", "course.html"),
    Schema("projects", N_("Projects"), "project", (
        Field("summary", "text", "Summary"), Field("image", "image", "Image"),
        Field("links", "links", "Links"), Field("papers", "papers", "Related papers")),
        "projects.html", "project.html", date_required=False),
    Schema("news", N_("News"), "news item", (), "news.html", "", title_required=False,
           scheduled=True, feed=True),
    Schema("posts", N_("Posts"), "post", (
        Field("summary", "text", "Summary"), Field("tags", "list", "Tags")),
        "posts.html", "post.html", scheduled=True, feed=True),
)
PAGES = Schema("pages", N_("Pages"), "page", (Field("description", "text", "Description"),
                                              Field("place", "place", "Place")),
               "", "page.html", date_required=False)
SCHEMA_BY_NAME = {s.name: s for s in SCHEMAS}
# The list pages a free page named after one (pages/publications.md) gives its text to,
# and where that text goes (`place`): above the list the build makes, or instead of it
# (an old site's hand-written list of papers, kept as the owner wrote it).
LIST_PAGES = ("publications", *SCHEMA_BY_NAME)
PLACES = ("above", "instead")


def has_tags(schema: Schema) -> bool:
    """A collection with tags is a blog: tag pages, neighbours, related items."""
    return any(spec.name == "tags" for spec in schema.fields)


MARKDOWN_SUFFIXES = (".md", ".markdown")
# A post or a project may be a Jupyter notebook too (reading/notebooks.py).
TEXT_SUFFIXES = {name: (*MARKDOWN_SUFFIXES, NOTEBOOK_SUFFIX) for name in ("posts", "projects")}


def make_item_markdown() -> Converter:
    """The converter of collection items and free pages: headings get ids, and the table
    of contents of levels 2 and 3 is kept (`md.get().toc`) for a text that asks for it."""
    return Converter(root_links=True, contents=True)


def with_root(fragment: str, root: str) -> str:
    """Rendered Markdown made ready for a page whose root is `root`."""
    return fragment.replace(ROOT_MARKER, root)


@dataclass(frozen=True)
class Context:
    """What a reader checks references against: paper slugs and the files in content/files/."""

    content_dir: Path
    paper_slugs: frozenset[str]
    files: frozenset[str]  # 'files/...' paths, POSIX
    md: Converter  # make_item_markdown's
    publishing: Publishing  # which drafts and dated items are shown
    # The site's other languages: 'x.zh.md' is x's text in Chinese, not an item of its own.
    variants: tuple[str, ...] = ()


def read_link(f: FieldReader, key: str, label: str, ctx: Context) -> tuple[str, str] | None:
    """A link that may be published; one into files/ must name a file that is there."""
    value = f.line_text(key)
    if not value:
        return None
    url, problem = check_link("url", value)
    if problem:
        f.error((key,), f"link '{f.name(key)}' {problem}")
        return None
    if url.lstrip("/").startswith("files/"):
        url = check_file_path(f, key, value, ctx)
    return (label, url) if url else None


def read_link_map(f: FieldReader, key: str, ctx: Context) -> list[tuple[str, str]]:
    """A mapping of link text to URL, in the order written."""
    links = f.mapping(key)
    out = []
    for label in list(links.data):
        if not isinstance(label, str):
            continue  # `null:` or `2024:` is no link text: check_unknown says so
        link = read_link(links, label, label, ctx)
        if link is not None:
            out.append(link)
    links.check_unknown()  # only reports keys that are not text
    return out


def read_paper_slugs(f: FieldReader, key: str, ctx: Context) -> tuple[str, ...]:
    """Related papers by slug; a slug that names no paper is an error at its line."""
    slugs = f.text_list(key)
    for i, slug in enumerate(slugs):
        if slug not in ctx.paper_slugs:
            f.error((key, i), f"'{key}' names the paper '{slug}', but there is no "
                    f"publications/{slug}.md (or BibTeX entry with that key)")
    return tuple(s for s in slugs if s in ctx.paper_slugs)


def check_file_path(f: FieldReader, key: str, value: str, ctx: Context) -> str:
    """An outside URL, or a path to a file in content/files/ that exists."""
    url, problem = check_link("url", value)
    if problem:
        f.error((key,), f"'{f.name(key)}' {problem}")
        return ""
    if is_external(url):
        return url
    rel = url.lstrip("/")
    if urlsplit(rel).path not in ctx.files:  # 'files/a.pdf#page=2' names files/a.pdf
        hint = suggest_path(rel, ctx.files) or "; write it as 'files/NAME'"
        f.error((key,), f"'{f.name(key)}' names '{value}', which is not a file in "
                f"{(ctx.content_dir / 'files').as_posix()}/{hint}")
        return ""
    return rel


def read_fields(f: FieldReader, schema: Schema, ctx: Context) -> dict:
    """The schema's fields of one file, each read as its kind says."""
    text, lists, links = [], [], []
    papers: tuple[str, ...] = ()
    for spec in schema.fields:
        if spec.kind == "text":
            value = f.line_text(spec.name)
            if value:
                text.append((spec.name, value))
        elif spec.kind == "image":
            value = f.line_text(spec.name)
            path = check_file_path(f, spec.name, value, ctx) if value else ""
            if path:
                text.append((spec.name, path))
        elif spec.kind == "list":
            values = f.text_list(spec.name)
            if values:
                lists.append((spec.name, values))
            if spec.name == "tags":
                warn_unnamed_tags(f, values)
        elif spec.kind == "link":
            link = read_link(f, spec.name, spec.label, ctx)
            if link:
                links.append(link)
        elif spec.kind == "links":
            links.extend(read_link_map(f, spec.name, ctx))
        elif spec.kind == "papers":
            papers = read_paper_slugs(f, spec.name, ctx)
        elif spec.kind == "place" and (value := read_place(f, spec.name)):
            text.append((spec.name, value))
    return {"text": tuple(text), "lists": tuple(lists), "links": tuple(links),
            "papers": papers}


def read_place(f: FieldReader, key: str) -> str:
    """A free page's `place`: only a page named after a list page has one."""
    value = f.choice(key, PLACES, "")
    name = f.path.name.split(".", 1)[0]  # 'publications.zh.md' is publications' text too
    if value and name not in LIST_PAGES:
        f.error((key,), f"'{key}' puts a page's text on a list page, so only a page named "
                f"after one has it ({', '.join(p + '.md' for p in LIST_PAGES)}); "
                f"take it out, or rename the file")
        return ""
    return value


def warn_unnamed_tags(f: FieldReader, tags: tuple[str, ...]) -> None:
    """A tag's page is at posts/tags/SLUG/: a tag with no letter or digit to make SLUG of
    gets a made-up one, which a reader cannot guess."""
    for i, tag in enumerate(tags):
        if not any(ch.isalnum() for ch in fold_latin(tag) if ch.isascii()):
            f.warning(("tags", i), f"the tag '{tag}' has no Latin letter or digit to make its "
                      f"page's address from; it is at tags/{make_tag_slug(tag)}/")


def read_item(path: Path, schema: Schema, ctx: Context, diags: Diagnostics,
              slug: str = "") -> Item | None:
    """One Markdown file (or a post's notebook) of a collection; None (with diagnostics)
    when it cannot be used. `slug`: of a text in another language ('x.zh.md'), the slug
    of the item it translates."""
    if not slug:
        check_file_slug(path, "my-talk-2024.md", diags, translatable=True)
    slug = slug or path.stem
    notebook = path.suffix.lower() == NOTEBOOK_SUFFIX
    read = read_notebook_item(path, f"{ROOT_MARKER}{schema.name}/{slug}/", ctx, diags) \
        if notebook else read_markdown_item(path, ctx, diags)
    if read is None:
        return None
    doc, body_html, made = read
    before = len(diags.errors())
    f = FieldReader(doc, path, diags)
    title = f.line_text("title", required=schema.title_required and not made.title) \
        or made.title
    date = f.date("date", required=schema.date_required)
    draft = f.boolean("draft")
    wants_toc = f.boolean("toc")
    comments = f.boolean("comments") if f.has("comments") else None
    fields = read_fields(f, schema, ctx)
    if notebook:
        fields["links"] += notebook_links(f, f"{schema.name}/{slug}/{slug}", ctx)
    language = read_language(f)
    f.check_unknown()
    # Prose the fast path made has no heading, and then md.toc is another text's.
    toc_html = ctx.md.get().toc if wants_toc and "<h2" in body_html and not notebook \
        else ""
    if not title and not body_html and not schema.title_required:
        diags.error(path, 1, f"this {schema.singular} has neither a 'title' nor any text "
                    "below the front matter; give it one or the other")
    if len(diags.errors()) > before:
        return None
    return Item(collection=schema.name, slug=slug, title=title, source=path, line=1,
                date=date, draft=draft, body_html=body_html, body_text=html_to_text(body_html),
                toc_html=toc_html, language=language, comments=comments, files=made.files,
                **fields)


@dataclass(frozen=True)
class Made:
    """What a source gives beside its fields and text: a notebook's title (its first
    heading) and the pictures published beside its page."""

    title: str = ""
    files: tuple[tuple[str, bytes], ...] = ()


def read_markdown_item(path: Path, ctx: Context, diags: Diagnostics
                       ) -> tuple[Located, str, Made] | None:
    """A Markdown file's front matter and its text rendered."""
    text = read_text(path, diags)
    read = read_front_matter(text, path, diags) if text is not None else None
    if read is None:
        return None
    doc, body = read
    body_html = render_markdown(ctx.md, body, report_at(diags, path, text, body)) \
        if body.strip() else ""
    return doc, add_image_sizes(body_html, ROOT_MARKER, ctx.content_dir / "files"), Made()


def read_notebook_item(path: Path, page_url: str, ctx: Context, diags: Diagnostics
                       ) -> tuple[Located, str, Made] | None:
    """A notebook's fields and its cells rendered (reading/notebooks.py)."""
    nb = read_notebook(path, page_url, ctx.md, diags)
    if nb is None:
        return None
    body_html = add_image_sizes(nb.body_html, ROOT_MARKER, ctx.content_dir / "files")
    return nb.front, body_html, Made(nb.title, nb.files)


def notebook_links(f: FieldReader, stem: str, ctx: Context) -> tuple[tuple[str, str], ...]:
    """A notebook's links: Colab when its `colab` link is given, and the file itself,
    published beside its page (plan/notebookfiles.py) as `stem`.ipynb."""
    colab = read_link(f, "colab", N_("Open in Colab"), ctx)
    return (*([colab] if colab else []), (N_("Download the notebook"), f"{stem}{NOTEBOOK_SUFFIX}"))


def list_markdown(folder: Path, content_dir: Path, diags: Diagnostics) -> list[Path]:
    return list_files(folder, content_dir, diags, MARKDOWN_SUFFIXES)


def read_folder(schema: Schema, ctx: Context, diags: Diagnostics) -> list[Item]:
    """Every item of one collection, newest first; two files with one slug are an error."""
    paths = list_files(ctx.content_dir / schema.name, ctx.content_dir, diags,
                       TEXT_SUFFIXES.get(schema.name, MARKDOWN_SUFFIXES))
    read = (read_item(path, schema, ctx, diags) for path in paths
            if not variant_language(path, ctx.variants) and not is_beside_text(path))
    items, repeats = split_repeats((item for item in read if item is not None),
                                   lambda item: item.slug)
    for item, other in repeats:
        diags.error(item.source, 1, f"two {schema.name} files have the slug '{item.slug}': "
                    f"this one and {other.source.as_posix()}; rename one")
    return sorted(items, key=Item.sort_key)


def is_beside_text(path: Path) -> bool:
    """Whether `path` is a notebook beside a Markdown text of its name, which shows it
    (reading/besidenotebooks.py): not an item of its own."""
    return path.suffix.lower() == NOTEBOOK_SUFFIX and any(
        path.with_suffix(suffix).is_file() for suffix in MARKDOWN_SUFFIXES)


def variant_language(path: Path, languages: tuple[str, ...]) -> str:
    """The language 'x.zh.md' is written in, when 'zh' is one of `languages`; else ''."""
    stem, _, tag = path.stem.rpartition(".")
    return tag if stem and tag in languages else ""


def read_variant_items(ctx: Context, language: str, diags: Diagnostics) -> tuple[Item, ...]:
    """Every collection's and free page's text in `language` ('x.zh.md'), each with the
    slug of the item it translates."""
    items: list[Item] = []
    for schema in (*SCHEMAS, PAGES):
        for path in list_markdown(ctx.content_dir / schema.name, ctx.content_dir, diags):
            if variant_language(path, (language,)):
                item = read_item(path, schema, ctx, diags, path.stem.rpartition(".")[0])
                items += [dataclasses.replace(item, language=language)] if item else []
    return tuple(items)


def read_published(ctx: Context, reserved: frozenset[str], diags: Diagnostics
                   ) -> tuple[tuple[Item, ...], tuple[Item, ...]]:
    """All collections' items (by collection in SCHEMAS order, newest first inside each)
    and the free pages, as far as the build publishes them (publishing.py); a published
    text that links to one held back is warned of."""
    items: list[Item] = []
    held: dict[str, Item] = {}
    for schema in (*SCHEMAS, PAGES):
        read = read_folder(schema, ctx, diags)
        if schema is PAGES:
            read = check_page_slugs(read, reserved, diags)
        shown, kept_back = select_published(read, schema.scheduled, ctx.publishing)
        items.extend(shown)
        held.update((held_path(schema, item), item) for item in kept_back)
    warn_links_to_held(items, held, ROOT_MARKER, diags)
    pages = sorted((i for i in items if i.collection == PAGES.name), key=lambda p: p.slug)
    return tuple(i for i in items if i.collection != PAGES.name), tuple(pages)


def held_path(schema: Schema, item: Item) -> str:
    """The path a held-back item's page would have: what a published link to it names."""
    return f"{item.slug}/" if schema is PAGES else f"{schema.name}/{item.slug}/"


def check_page_slugs(pages: list[Item], reserved: frozenset[str], diags: Diagnostics
                     ) -> list[Item]:
    """Free pages from content/pages/, each at /SLUG/; a slug the site uses is an error,
    but for a list page's own text (`place`: read_place)."""
    kept = []
    for page in pages:
        if page.slug in reserved and not page.field("place"):
            hint = f", or give it `place: above` (or `instead`) to show its text on " \
                f"{page.slug}/, above the list (or instead of it)" \
                if page.slug in LIST_PAGES else ""
            diags.error(page.source, 1, f"a free page cannot be called '{page.slug}': the site "
                        f"uses {page.slug}/ itself; rename the file{hint}")
            continue
        kept.append(page)
    return kept

