"""The synthetic corpus for other generators: Hugo and Pelican, each with the least setup
that gives the same pages (one page per paper with its authors, venue, date and abstract,
and one list of all papers), so that the comparison is of the tools, not of their themes.
"""

from __future__ import annotations

import shutil
from pathlib import Path

HUGO_CONFIG = """\
baseURL = "https://example.org/"
title = "Ada Example"
buildFuture = true
disableKinds = ["taxonomy", "term"]
"""

HUGO_LAYOUTS = {
    "_default/baseof.html": """\
<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{{ .Title }} | {{ .Site.Title }}</title>
<meta name="description" content="{{ .Summary | plainify | truncate 300 }}"></head>
<body><main>{{ block "main" . }}{{ end }}</main></body></html>
""",
    "_default/single.html": """\
{{ define "main" }}<article><h1>{{ .Title }}</h1>
<p>{{ delimit .Params.authors ", " }}</p>
<dl><dt>Venue</dt><dd>{{ .Params.venue }} ({{ .Params.venue_short }})</dd>
<dt>Date</dt><dd>{{ .Date.Format "January 2006" }}</dd>
{{ with .Params.tier }}<dt>Tier</dt><dd>{{ . }}</dd>{{ end }}</dl>
<p>{{ range $k, $v := .Params.links }}<a href="{{ $v }}">{{ $k }}</a> {{ end }}</p>
<h2>Abstract</h2>{{ .Content }}</article>{{ end }}
""",
    "_default/list.html": """\
{{ define "main" }}<h1>{{ .Title }}</h1>
{{ range .Pages.GroupByParam "category" }}<h2>{{ .Key }}</h2><ol>
{{ range .Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a>
{{ delimit .Params.authors ", " }}. {{ .Params.venue }}, {{ .Date.Format "2006" }}.</li>
{{ end }}</ol>{{ end }}{{ end }}
""",
    "index.html": """\
{{ define "main" }}<h1>{{ .Site.Title }}</h1>
<ul>{{ range first 5 (where .Site.RegularPages "Params.selected" true) }}
<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul>{{ end }}
""",
}

PELICAN_CONFIG = """\
AUTHOR = "Ada Example"
SITENAME = "Ada Example"
SITEURL = ""
PATH = "content"
TIMEZONE = "UTC"
DEFAULT_LANG = "en"
DEFAULT_PAGINATION = False
# One page per paper and the lists of papers; no pages per author or tag, no feeds.
AUTHOR_SAVE_AS = ""
AUTHORS_SAVE_AS = ""
TAG_SAVE_AS = ""
TAGS_SAVE_AS = ""
FEED_ALL_ATOM = None
CATEGORY_FEED_ATOM = None
TRANSLATION_FEED_ATOM = None
AUTHOR_FEED_ATOM = None
AUTHOR_FEED_RSS = None
ARTICLE_URL = "publications/{slug}/"
ARTICLE_SAVE_AS = "publications/{slug}/index.html"
"""


def quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_hugo(root: Path, papers: list[dict]) -> Path:
    """A Hugo site of `papers` below root; returns its folder."""
    shutil.rmtree(root, ignore_errors=True)
    posts = root / "content" / "publications"
    posts.mkdir(parents=True)
    (root / "config.toml").write_text(HUGO_CONFIG, encoding="utf-8")
    for name, text in HUGO_LAYOUTS.items():
        path = root / "layouts" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (posts / "_index.md").write_text("---\ntitle: Publications\n---\n", encoding="utf-8")
    for p in papers:
        authors = ", ".join(quote(a) for a in p["authors"])
        links = "".join(f"  {k}: {quote(p[k])}\n" for k in ("pdf", "code", "doi", "arxiv"))
        front = (f"---\ntitle: {quote(p['title'])}\nauthors: [{authors}]\n"
                 f"venue: {quote(p['venue'])}\nvenue_short: {quote(p['venue_short'])}\n"
                 f"date: {p['year']}-{p['month']:02d}-01\ncategory: {quote(p['category'])}\n"
                 f"tier: {quote(p['tier'])}\nselected: {str(p['selected']).lower()}\n"
                 f"links:\n{links}---\n")
        (posts / f"{p['slug']}.md").write_text(front + p["abstract"] + "\n", encoding="utf-8")
    return root


def write_pelican(root: Path, papers: list[dict]) -> Path:
    """A Pelican site of `papers` below root; returns its folder."""
    shutil.rmtree(root, ignore_errors=True)
    posts = root / "content"
    posts.mkdir(parents=True)
    (root / "pelicanconf.py").write_text(PELICAN_CONFIG, encoding="utf-8")
    for p in papers:
        head = (f"Title: {p['title']}\nDate: {p['year']}-{p['month']:02d}-01\n"
                f"Authors: {', '.join(a.rstrip('*') for a in p['authors'])}\n"
                f"Category: {p['category']}\nSlug: {p['slug']}\nVenue: {p['venue']}\n"
                f"Tier: {p['tier']}\n\n")
        (posts / f"{p['slug']}.md").write_text(head + p["abstract"] + "\n", encoding="utf-8")
    return root


def hugo_command(site: Path, out: Path) -> list[str]:
    return ["hugo", "--quiet", "--source", str(site), "--destination", str(out)]


def pelican_command(site: Path, out: Path) -> list[str]:
    return ["pelican", str(site / "content"), "--output", str(out), "--settings",
            str(site / "pelicanconf.py"), "--quiet", "--delete-output-directory"]
