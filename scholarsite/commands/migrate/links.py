"""The links in moved text, settled once every reader is done: a link to a file of the old
site copies the file into files/; a link to an old page address goes to where that page
is now; a link to a page the new site will not have is taken out, keeping its text, and
named in the report. So the moved site passes `check`, and nothing is lost unsaid."""

from __future__ import annotations

import posixpath
import re
from pathlib import Path
from urllib.parse import unquote

from ...diagnostics import Diagnostics
from ...reading.bib.bibtex import read_bib_file
from ...reading.text.mdconvert import make_heading_id
from ...reading.settings.redirects import normalize_old_path
from ...structure.urls import file_key
from .model import Migration, is_inside

# [text](target "title") and ![alt](target), and href="..." / src="..." in inline HTML.
# A target may hold spaces ('/assets/pdf/class 1.pdf'), which Python-Markdown takes as written.
_MD_LINK = re.compile(r"(!?)\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*<?([^)<>\n]+?)>?(\s+\"[^\"]*\")?\s*\)")
_HTML_LINK = re.compile(r"""\b(href|src|poster)\s*=\s*(["'])([^"']+)\2""")
_EXTERNAL = re.compile(r"^(?:[a-z][a-z0-9+.-]*:|//|#)", re.I)
# Hugo's {{< ref "path" >}} and {{< relref "path" >}} (also with %), a content file named.
_HUGO_REF = re.compile(r"""\{\{[<%]\s*(?:rel)?ref\s+["']([^"']+)["']\s*[>%]\}\}""")
# A template's expression left in a link ({{ term.url }}, {% link x %}): no address.
_TEMPLATE = re.compile(r"\{[{%]")
ALWAYS = ("", "publications/", "search/", "sitemap/", "feed.xml", "publications.bib",
          "publications.ris")


def new_file_path(old_rel: str) -> str:
    """Where a file of the old site goes below the content folder: academicpages' files/
    stays files/; al-folio's assets/pdf/ is files/ (its papers name PDFs bare) and its
    previews files/publication_preview/; anything else keeps its path under files/."""
    for prefix, to in (("files/", "files/"), ("assets/pdf/", "files/"),
                       ("assets/img/publication_preview/", "files/publication_preview/")):
        if old_rel.startswith(prefix):
            return to + old_rel[len(prefix):]
    return "files/" + old_rel


def list_site_paths(mig: Migration) -> set[str]:
    """The addresses the new site will have, from the files being written."""
    paths = set(ALWAYS)
    for rel in mig.files:
        folder, _, name = rel.partition("/")
        if rel == "cv.yaml":
            paths.add("cv/")
        elif folder == "files":
            paths.add(rel)
        elif folder == "publications" and name.endswith(".bib"):
            paths.update(list_bib_pages(mig.files[rel].source))
        elif folder == "pages" and name.endswith(".md"):
            paths.add(name[:-3] + "/")
        elif name.endswith(".md"):
            paths.update({f"{folder}/", f"{folder}/{name[:-3]}/"})
    return paths


def list_bib_pages(source: Path | None) -> set[str]:
    """The paper pages a moved .bib file will give (its problems are the build's to say)."""
    if source is None:
        return set()
    papers = read_bib_file(source, Diagnostics())
    return {f"publications/{paper.slug}/" for paper in papers}


def settle_links(mig: Migration) -> None:
    """Rewrite the links of every moved Markdown file (see the module's docstring)."""
    base = str(mig.site.get("url", "")).rstrip("/") + "/"
    known = list_site_paths(mig)
    for rel, new in list(mig.files.items()):
        if new.text is None or not rel.endswith(".md"):
            continue
        head, body = split_body(new.text)
        settled = settle_text(body, mig, base, known, new.origin)
        if settled != body:
            mig.add_text(rel, head + settled, new.what, new.origin)
    drop_clashing_redirects(mig, list_site_paths(mig))


def drop_clashing_redirects(mig: Migration, pages: set[str]) -> None:
    """Redirects the build refuses (plan/checks.py): an old address at which the new site
    has a page or file, as a disk that does not tell case apart sees it (file_key:
    'publications/2020-Paper' is the page 'publications/2020-paper/' there), or another
    redirect's, is named in the report instead of written."""
    taken = {file_key(path) for path in pages}
    for old in list(mig.redirects):
        key = file_key(normalize_old_path(old)[0])
        if key in taken:
            del mig.redirects[old]
            mig.add_review("site.yaml", f"the old address '{old}' is not redirected: the new "
                           "site has a page or file there (letter case aside)")
        taken.add(key)


def split_body(text: str) -> tuple[str, str]:
    """(front matter with its fences, body): only the body's links are settled here; the
    build checks the front matter's own."""
    if text.startswith("---\n"):
        end = text.find("\n---\n", 4)
        if end != -1:
            return text[:end + 5], text[end + 5:]
    return "", text


def resolve_hugo_refs(body: str) -> str:
    """Hugo's ref shortcodes as the old address of the content file they name
    ('/publication/x/index.md' -> '/publication/x/'), settled then like any link."""
    def address(match: re.Match) -> str:
        path = re.sub(r"(^|/)_?index\.md$|\.md$", r"\1", match.group(1).strip())
        return "/" + path.strip("/") + "/" if path.strip("/") else "/"
    return _HUGO_REF.sub(address, body)


def list_text_ids(body: str) -> set[str]:
    """The ids a moved text's page will have: its headings' (as the build makes them),
    `{#id}` and id="..." / name="..." attributes."""
    ids = {make_heading_id(re.sub(r"\s*\{[^}]*\}\s*$", "", m.group(1)).strip(), "-")
           for m in re.finditer(r"^#{1,6}\s+(.+?)\s*#*\s*$", body, re.M)}
    ids.update(re.findall(r"\{[^}]*#([\w-]+)[^}]*\}", body))
    ids.update(re.findall(r"""\b(?:id|name)\s*=\s*["']([^"']+)["']""", body))
    return ids


def drop_template_links(body: str, mig: Migration, origin: str) -> str:
    """A Markdown link to a template's expression ([x]({{ term.url }})): its text only."""
    def label(match: re.Match) -> str:
        mig.add_review(origin, f"link to '{match.group(2)}' taken out, keeping its text: it "
                       "is the old template's expression, not an address")
        return match.group(1)
    return re.sub(r"\[([^\[\]]*)\]\(\s*(\{[{%][^)]*)\)", label, body)


def settle_text(body: str, mig: Migration, base: str, known: set[str], origin: str) -> str:
    """The text's links settled; an address inside raw HTML stays site-relative
    ('files/x.png'), which the build roots on every page that shows the text."""
    body = drop_template_links(resolve_hugo_refs(body), mig, origin)
    ids = list_text_ids(body)

    def settle(target: str) -> str | None:
        if target.startswith("#") and len(target) > 1 and target[1:] not in ids:
            mig.add_review(origin, f"link to '{target}' taken out, keeping its text: the "
                           "text has no such anchor")
            return None
        return settle_target(target, mig, base, known, origin)

    def settle_md(match: re.Match) -> str:
        bang, label, target, title = match.groups()
        new = settle(target)
        if new is None:
            return "" if bang else label
        return f"{bang}[{label}]({new.replace(' ', '%20')}{title or ''})"

    def settle_html(match: re.Match) -> str:
        new = settle(match.group(3))
        return f'{match.group(1)}={match.group(2)}{new if new is not None else "#"}' \
               f'{match.group(2)}'

    return _HTML_LINK.sub(settle_html, _MD_LINK.sub(settle_md, body))


def settle_target(target: str, mig: Migration, base: str, known: set[str],
                  origin: str) -> str | None:
    """The link's new target, or None when the new site has nothing there."""
    if target.startswith(base) and base != "/":
        target = target[len(base):]
    if _TEMPLATE.search(target):
        mig.add_review(origin, f"link to '{target}' taken out, keeping its text: it is the "
                       "old template's expression, not an address")
        return None
    if _EXTERNAL.match(target):
        return target
    path, _, fragment = target.partition("#")
    path = posixpath.normpath("/" + path.lstrip("./")).lstrip("/")
    path += "/" if target.split("#")[0].endswith("/") and path else ""
    suffix = f"#{fragment}" if fragment else ""
    if not (mig.old / path).exists() and (mig.old / unquote(path)).exists():
        path = unquote(path)  # '/files/a%20b.pdf' names 'files/a b.pdf'
    redirect = mig.redirects.get(path.rstrip("/")) or mig.redirects.get(path)
    if redirect is not None:
        return redirect + suffix
    if path in known or path + "/" in known:
        return (path if path in known else path + "/") + suffix
    source = mig.old / path
    if not source.is_file() and (mig.old / "static" / path).is_file():
        source = mig.old / "static" / path  # Hugo serves static/ at the site's root
    if path and source.is_file() and not is_inside(source, mig.old):
        mig.leave(origin, f"'{target}' is a link to a file outside the old site; not copied")
        return None
    if path and source.is_file() and source.suffix.lower() not in (".md", ".markdown", ".html"):
        rel = new_file_path(path)
        if mig.add_copy(rel, source, "file", mig.where(source)):
            known.add(rel)
            return rel + suffix
        return None  # its note says why
    mig.add_review(origin, f"link to '{target}' taken out, keeping its text: the new site "
                   "has no such page or file")
    return None
