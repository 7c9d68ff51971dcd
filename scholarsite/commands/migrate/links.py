"""The links in moved text, settled once every reader is done: a link to a file of the old
site copies the file into files/; a link to an old page address goes to where that page
is now; a link to a page the new site will not have is taken out, keeping its text, and
named in the report. So the moved site passes `check`, and nothing is lost unsaid."""

from __future__ import annotations

import html
import posixpath
import re
from pathlib import Path
from urllib.parse import unquote

from ...diagnostics import Diagnostics
from ...reading.bib.bibtex import read_bib_file
from ...reading.text.deadlinks import DEAD_LINK
from ...reading.text.mdconvert import make_heading_id
from ...structure.urls import THEME_IDS
from ...reading.settings.redirects import normalize_old_path
from ...structure.urls import check_text_link, file_key
from .model import Migration, is_inside
from .rawids import drop_repeated_ids

# [text](target "title") and ![alt](target), and href="..." / src="..." in inline HTML.
# A target may hold spaces ('/assets/pdf/class 1.pdf'), which Python-Markdown takes as written.
_MD_LINK = re.compile(r"(!?)\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*<?([^)<>\n]+?)>?(\s+\"[^\"]*\")?\s*\)")
# A tag of raw HTML, and an address in it, quoted or not.
_HTML_TAG = re.compile(r"<[a-zA-Z][^<>]*>")
_HTML_ATTR = re.compile(r"""(?<=\s)(href|src|poster|srcset|data)\s*=\s*(?:(["'])([^"']+)\2|([^\s"'>]+))""",
                        re.I)
# A reference link's address ([id]: /x/ "title"), and a reference to one.
_REF_DEF = re.compile(r"""^ {0,3}\[([^\]]+)\]:[ \t]*<?([^\s>]+)>?(?:[ \t]+("[^"]*"|'[^']*'|\([^)]*\)))?[ \t]*\n?""",
                      re.M)
_REF_USE = re.compile(r"\[((?:[^\[\]]|\[[^\]]*\])*)\](?:[ ]?\[([^\]]*)\]|(?![(\[:]))")
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
    listed_ids: set[str] = set()
    for rel, new in list(mig.files.items()):
        if new.text is None or not rel.endswith(".md"):
            continue
        head, body = split_body(new.text)
        settled, dropped = drop_repeated_ids(settle_text(body, mig, base, known, new.origin),
                                             rel, listed_ids)
        if dropped := list(dict.fromkeys(dropped)):
            mig.add_review(new.origin, f"the id{'s' if len(dropped) > 1 else ''} "
                           f"{', '.join(repr(i) for i in dropped)} of its raw "
                           "HTML taken out where the new page (or the list that shows it) "
                           "already has it: a link to it leads to the first")
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
    ('files/x.png'), which the build roots on every page that shows the text. A link
    that leads nowhere is kept as its text, marked with its address (deadlinks.py)."""
    body = drop_template_links(resolve_hugo_refs(inline_references(body)), mig, origin)
    ids = list_text_ids(body)

    def settle(target: str) -> str | None:
        if target.startswith("#") and len(target) > 1 and target[1:] not in ids:
            note_dead(mig, origin, target, "the text has no such anchor")
            return None
        return settle_target(target, mig, base, known, origin)

    def settle_md(match: re.Match) -> str:
        bang, label, target, title = match.groups()
        new = settle(target)
        if new is None:
            return f'<span {DEAD_LINK}="{html.escape(target)}">{label}</span>'
        return f"{bang}[{label}]({new.replace(' ', '%20')}{title or ''})"

    def settle_own(match: re.Match) -> str:  # <https://own.site/x/>, the old site's own
        new = settle(match.group(1))
        return f"[{match.group(1)}]({new})" if new is not None else \
            f'<span {DEAD_LINK}="{html.escape(match.group(1))}">{match.group(1)}</span>'

    body = _MD_LINK.sub(settle_md, body)
    if base != "/":
        body = re.sub(r"<(" + re.escape(base) + r"[^>\s]*)>", settle_own, body)
    return _HTML_TAG.sub(lambda tag: settle_tag(tag.group(), settle), body)


def settle_tag(tag: str, settle) -> str:
    """A tag of raw HTML with each address it names settled (quoted or not; each of a
    srcset's); one that leads nowhere is kept as `data-dead-link`, no longer a link."""
    def settle_attr(match: re.Match) -> str:
        name, quote, value = match.group(1), match.group(2) or '"', \
            match.group(3) if match.group(2) else match.group(4)
        if name.lower() == "srcset":
            news = [settle(c.split()[0]) if c.split() else "" for c in value.split(",")]
            if None in news:
                return f"{DEAD_LINK}={quote}{value}{quote}"
            return f"{name}={quote}" + ", ".join(
                " ".join([new, *c.split()[1:]]) for new, c in zip(news, value.split(","))
                if c.split()) + quote
        new = settle(value)
        return f"{name}={quote}{new}{quote}" if new is not None else \
            f"{DEAD_LINK}={quote}{value}{quote}"
    return _HTML_ATTR.sub(settle_attr, tag)


def inline_references(body: str) -> str:
    """Markdown's reference links ([text][id], [text][], [id], with `[id]: address`
    below) written inline, so that their addresses are settled as any link's."""
    found = {m.group(1).lower(): (m.group(2), m.group(3) or "") for m in _REF_DEF.finditer(body)
             if not m.group(1).startswith("^")}  # [^1]: is a footnote
    if not found:
        return body

    def inline(match: re.Match) -> str:
        text, ref = match.group(1), match.group(2)
        key = (ref if ref else text).lower()
        if key not in found:
            return match.group()
        url, title = found[key]
        return f"[{text}]({url}{' ' + title if title else ''})"

    body = _REF_DEF.sub(lambda m: m.group() if m.group(1).startswith("^") else "", body)
    return _REF_USE.sub(inline, body)


def note_dead(mig: Migration, origin: str, target: str, why: str) -> None:
    """A link kept as text, named at its line of the old file."""
    mig.add_review(locate(mig, origin, target), f"link to '{target}' taken out, keeping its "
                   f"text (marked {DEAD_LINK}, which each build names until you mend it): "
                   f"{why}")


def locate(mig: Migration, origin: str, target: str) -> str:
    """`origin` with the line of the old file where `target` is first written."""
    path = mig.old / origin
    if ":" in origin.rsplit("/", 1)[-1] or not path.is_file():
        return origin
    text = mig.read_text(path) or ""
    at = text.find(target)
    return f"{origin}:{text.count(chr(10), 0, at) + 1}" if at != -1 else origin


def keep_fragment(mig: Migration, page: str, fragment: str, origin: str) -> str:
    """'#fragment' when the new page has that id (a moved text's heading, or one the
    theme gives every page of its kind), else '' with a note: the old home page's
    widgets (/#contact) and the old theme's ids are not on the new pages."""
    if not fragment or fragment in THEME_IDS:
        return f"#{fragment}" if fragment else ""
    rel = "index.md" if page in ("", "./") else f"pages/{page.strip('/')}.md" \
        if "/" not in page.strip("/") else page.strip("/") + ".md"
    moved = mig.files.get(rel)
    if moved is not None and moved.text is not None \
            and fragment in list_text_ids(split_body(moved.text)[1]):
        return f"#{fragment}"
    mig.add_review(origin, f"link to '{page}#{fragment}' leads to {page or 'the home page'} "
                   f"without '#{fragment}', which the new page has no id for")
    return ""


def find_linked_file(mig: Migration, path: str, target: str, origin: str) -> tuple[str, Path]:
    """(its path below the old site, the file) a link names: a relative address beside
    the text first (a Hugo bundle's 'assets/x.svg', as the old page's own folder served
    it), then at the site's root, then in Hugo's static/ (served at the root)."""
    if not target.startswith("/") and path:
        beside = posixpath.normpath(posixpath.join(posixpath.dirname(
            origin.split(":", 1)[0]), posixpath.relpath("/" + path, "/")))
        if not beside.startswith("../") and (mig.old / beside).is_file():
            return beside, mig.old / beside
    if not (mig.old / path).is_file() and (mig.old / "static" / path).is_file():
        return path, mig.old / "static" / path
    return path, mig.old / path


def settle_target(target: str, mig: Migration, base: str, known: set[str],
                  origin: str) -> str | None:
    """The link's new target, or None when the new site has nothing there."""
    written = target
    if target.startswith(base) and base != "/":
        target = target[len(base):]
    if _TEMPLATE.search(target):
        note_dead(mig, origin, written, "it is the old template's expression, not an address")
        return None
    if problem := check_text_link(target):  # 'ftp:', 'javascript:': the build refuses it
        note_dead(mig, origin, written, f"the link {problem}")
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
    if redirect is None and (path in known or path + "/" in known):
        redirect = path if path in known else path + "/"
    if redirect is not None:
        return (redirect or "./") + keep_fragment(mig, redirect, fragment, origin)
    path, source = find_linked_file(mig, path, target, origin)
    if path and source.is_file() and not is_inside(source, mig.old):
        mig.leave(origin, f"'{target}' is a link to a file outside the old site; not copied")
        return None
    if path and source.is_file() and source.suffix.lower() not in (".md", ".markdown", ".html"):
        rel = new_file_path(path)
        if mig.add_copy(rel, source, "file", mig.where(source)):
            known.add(rel)
            return rel + suffix
        return None  # its note says why
    note_dead(mig, origin, written, "the new site has no such page or file")
    return None
