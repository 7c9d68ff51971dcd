"""The browser editor's two files, /admin/index.html and /admin/config.yml, for a site with
`cms:` (reading/settings/cms.py). The configuration is made from the readers' own tables
(models/forms.py for papers and people, reading/collections.SCHEMAS for the collections
and free pages, reading/cv.CV_SECTIONS for the CV, the home page's text as read_bio
reads it), so each form offers exactly the fields
the build reads, with the same names, kinds and required ones. Sveltia CMS reads Decap
CMS's configuration, so one configuration serves both (docs/editor.md).
"""

from __future__ import annotations

import os
from html import escape
from pathlib import Path

import yaml

from ..models import CmsConfig, Site
from ..models.forms import PAPER_FIELDS, PERSON_FIELDS, FormField
from ..reading.collections import PAGES, PLACES, SCHEMAS, Schema
from ..reading.cv import CV_SECTIONS, CVSchema, entry_keys
from ..reading.layout import PAPERS_DIR
from ..reading.loader import BIO_FILE
from ..reading.roster import COAUTHORS_FILE, PEOPLE_DIR, ROLES

# The editors' scripts, pinned to one release and its hash (as npm publishes it, which the
# CDN serves as it is): the only request /admin/ makes to a third party, and no other
# page loads it. tests/package.json pins the same release for the browser test.
SCRIPTS = {
    "sveltia": ("https://unpkg.com/@sveltia/cms@0.221.1/dist/sveltia-cms.js",
                "sha384-JQ+XsKx/UzwdTiNnFStza3XtqqQoVtyNPApkfvwlzZDfhe7giE9CnfQrpHqgv3k6"),
    "decap": ("https://unpkg.com/decap-cms@3.16.3/dist/decap-cms.js",
              "sha384-A/Gdn928CNLufmnGWGs9RM4Q9o8bSNLeJERqBFrBjwzL7FRpoLT3MPF8Tl0+Wd2p"),
}
DATE = {"widget": "datetime", "format": "YYYY-MM-DD", "date_format": "YYYY-MM-DD",
        "time_format": False}
# A collection field's kind (reading/collections.Field) as a FormField kind.
_ITEM_KINDS = {"text": "text", "list": "lines", "link": "text", "links": "mapping",
               "papers": "papers", "image": "image", "place": "choice"}


def editor_page(site: Site) -> str:
    """/admin/index.html: the editor's script, which reads config.yml beside it."""
    src, integrity = SCRIPTS[site.config.cms.editor]
    title = escape(f"Editor · {site.config.title}")
    return ("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            "<meta name=\"robots\" content=\"noindex\">\n"
            f"<title>{title}</title>\n"
            f"<script src=\"{src}\" integrity=\"{integrity}\" crossorigin=\"anonymous\">"
            "</script>\n</head>\n<body></body>\n</html>\n")


def editor_config(site: Site) -> str:
    """/admin/config.yml: the backend, the media folder, and one collection per kind."""
    cms = site.config.cms
    root = repo_folder(site.content_dir)
    config = {
        "backend": backend(cms),
        "media_folder": f"{root}files", "public_folder": "files",
        # An untouched optional field left out, not written '' (which the readers refuse
        # for a choice, and warn of as an empty line): as a hand-written file has it.
        "output": {"omit_empty_optional_fields": True},
        "collections": [papers_collection(site, root),
                        *(item_collection(s, site, root) for s in (*SCHEMAS, PAGES)),
                        people_collection(site, root), cv_collection(root),
                        home_collection(root)],
    }
    head = ("# Made by scholarsite from its readers' own tables, on each build: edit site.yaml's\n"
            "# `cms:`, not this file (docs/editor.md).\n")
    return head + yaml.safe_dump(config, sort_keys=False, allow_unicode=True, width=100)


def backend(cms: CmsConfig) -> dict:
    auth = {"base_url": cms.auth.rstrip("/")} if cms.auth else {}
    return {"name": "github", "repo": cms.repo, "branch": cms.branch, **auth}


def repo_folder(content_dir: Path) -> str:
    """The content folder's path in the site's git repository ('content/'), which the
    editor's paths start from: found from the nearest .git above it, else its own name."""
    folder = content_dir.resolve()
    for top in (folder, *folder.parents):
        if (top / ".git").exists():
            rel = os.path.relpath(folder, top).replace(os.sep, "/")
            return "" if rel == "." else rel + "/"
    return folder.name + "/"


def papers_collection(site: Site, root: str) -> dict:
    fields = [widget(f, site) for f in PAPER_FIELDS]
    return {"name": PAPERS_DIR, "label": "Publications", "label_singular": "Paper",
            "folder": root + PAPERS_DIR, "create": True, "extension": "md",
            "format": "frontmatter", "slug": "{{slug}}-{{year}}", "identifier_field": "title",
            "fields": [*(f for f in fields if f),
                       {"name": "body", "label": "Abstract", "widget": "markdown",
                        "required": False}]}


def item_collection(schema: Schema, site: Site, root: str) -> dict:
    """A collection of reading/collections.SCHEMAS (or the free pages), as read_item reads it."""
    table = (FormField("title", "text", "Title", required=schema.title_required),
             FormField("date", "date", "Date", required=schema.date_required),
             FormField("draft", "boolean", "Draft (not published)"),
             FormField("toc", "boolean", "Table of contents"),
             FormField("comments", "boolean", "Comments"),  # its default: the site's (below)
             *(FormField(f.name, _ITEM_KINDS[f.kind], f.label or f.name,
                         choices=PLACES if f.kind == "place" else ())
               for f in schema.fields),
             FormField("language", "text", "Language (a tag such as zh, when not the site's)"))
    fields = [w for w in (widget(f, site) for f in table) if w]
    # A switch is always saved: as the site's own default, so that an untouched one says
    # what site.yaml's `comments` says of this collection, not "no comments".
    shown = site.config.comments.repo and schema.name in site.config.comments.collections
    fields = [{**w, "default": bool(shown)} if w["name"] == "comments" else w for w in fields]
    return {"name": schema.name, "label": schema.title,
            "label_singular": schema.singular.capitalize(), "folder": root + schema.name,
            "create": True, "extension": "md", "format": "frontmatter",
            "slug": "{{slug}}" if not schema.date_required else "{{year}}-{{month}}-{{slug}}",
            # A news item needs a title or a text (read_item says so): neither alone is required.
            "fields": [*fields, {"name": "body", "label": "Text", "widget": "markdown",
                                 "required": False}]}


def people_collection(site: Site, root: str) -> dict:
    roles = tuple(dict.fromkeys((*site.config.people_roles, *ROLES)))
    fields = [widget(f, site) if f.name != "role" else
              {**widget(f, site), "options": list(roles)} for f in PERSON_FIELDS]
    return {"name": PEOPLE_DIR, "label": "People", "label_singular": "Person",
            "folder": root + PEOPLE_DIR, "create": True, "extension": "md",
            "format": "frontmatter", "slug": "{{slug}}", "identifier_field": "name",
            "fields": [*(f for f in fields if f),
                       {"name": "body", "label": "Biography", "widget": "markdown",
                        "required": False}]}


def cv_collection(root: str) -> dict:
    """cv.yaml as one file: each section of reading/cv.CV_SECTIONS a list of entries."""
    sections = [{"name": s.key, "label": s.title, "widget": "list", "required": False,
                 "fields": cv_entry_fields(s)} for s in CV_SECTIONS]
    files = [{"name": "cv", "label": "CV", "file": f"{root}cv.yaml", "fields": sections}]
    return {"name": "cv", "label": "CV", "editor": {"preview": False}, "files": files,
            "description": f"The CV's sections (papers come from Publications; co-authors' "
                           f"links from {COAUTHORS_FILE}, edited in the repository)."}


def home_collection(root: str) -> dict:
    """The home page's text (index.md): Markdown with no front matter, as read_bio reads
    it, so the file is the text alone (`raw`)."""
    files = [{"name": "index", "label": "Home page", "file": f"{root}{BIO_FILE}",
              "format": "raw", "fields": [{"name": "body", "label": "Text",
                                           "widget": "markdown"}]}]
    return {"name": "home", "label": "Home page", "files": files}


# A student's `person`: the slug of a file of people/ (roster.link_students), picked.
PERSON = {"widget": "relation", "collection": PEOPLE_DIR, "value_field": "{{slug}}",
          "search_fields": ["name"], "display_fields": ["name"]}


def cv_entry_fields(section: CVSchema) -> list[dict]:
    labels = dict(section.details)
    return [{"name": n, "label": labels.get(n, n.capitalize()), "widget": "string",
             "required": n == section.what, **(PERSON if n == "person" else {})}
            for n in entry_keys(section)]


def widget(field: FormField, site: Site) -> dict | None:
    """One form field as the editor's widget; None for one this site cannot use (the
    translations of a site in one language)."""
    out = {"name": field.name, "label": field.label, "required": field.required}
    if field.hint:
        out["hint"] = field.hint
    shape = widget_shape(field, site)
    return {**out, **shape} if shape is not None else None


def widget_shape(field: FormField, site: Site) -> dict | None:
    kind = field.kind
    if kind == "mapping" and site.config.cms.editor == "decap":
        return None  # Decap has no key-value widget: such a field is edited in the file
    if kind == "authors" or kind == "lines":
        return {"widget": "list"}
    if kind == "choice":
        return {"widget": "select", "options": list(field.choices)}
    if kind == "papers":
        return {"widget": "relation", "collection": PAPERS_DIR, "search_fields": ["title"],
                "value_field": "{{slug}}", "display_fields": ["title"], "multiple": True}
    if kind == "links":
        return {"widget": "object", "collapsed": True, "fields": [
            *({"name": k, "label": k, "widget": "string", "required": False}
              for k in field.choices),
            {"name": "more", "label": "More links", "widget": "list", "required": False,
             "fields": [{"name": "label", "label": "Label", "widget": "string"},
                        {"name": "url", "label": "Address", "widget": "string"}]}]}
    if kind == "translations":
        return translations_shape(site)
    simple = {"text": {"widget": "string"}, "date": DATE, "boolean": {"widget": "boolean"},
              "image": {"widget": "image"}, "mapping": {"widget": "keyvalue"}}
    return simple[kind]


def translations_shape(site: Site) -> dict | None:
    others = site.config.languages[1:]
    if not others:
        return None
    return {"widget": "object", "collapsed": True, "fields": [
        {"name": tag, "label": tag, "widget": "object", "required": False, "fields": [
            {"name": "title", "label": "Title", "widget": "string", "required": False},
            {"name": "abstract", "label": "Abstract", "widget": "text", "required": False}]}
        for tag in others]}
