"""al-folio's link fields, as the old site linked them. Its layout (`_layouts/bib.liquid`
or `bib.html`, which each site may change) decides which fields of an entry are links and
what prefix a file name gets (`{{ entry.paper | prepend: '/assets/paper/' }}`); scholarsite
reads the kinds of LINK_KINDS only. So a field the layout links under another name
(`pdfurl`, `paper`, `colab`, `blog`) is renamed to a free kind, and a file it names is
copied into files/ and named by its new path. A site whose layout is not there keeps the
fields whose names say they are links (`pdfurl`, `website`) and whose values are web
addresses."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ...models import LINK_KINDS
from ...reading.bib.bibparse import BibEntry, BibValue
from ...reading.bib.latex import decode_url
from .links import new_file_path
from .model import Migration, is_inside

LAYOUTS = ("_layouts/bib.liquid", "_layouts/bib.html")
# al-folio's own layout: which fields it links, and the folder a file name is in.
DEFAULT_LINKS = {"pdf": "/assets/pdf/", "supp": "/assets/pdf/", "poster": "/assets/pdf/",
                 "slides": "/assets/pdf/", "blog": "", "website": "", "html": "", "code": "",
                 "video": ""}
FILE_KINDS = ("pdf", "supp", "poster", "slides")
# Words in a field's name or its button's label -> the kind of link it is, first match first.
KIND_WORDS = (("pdf", "pdf"), ("paper", "pdf"), ("code", "code"), ("github", "code"),
              ("colab", "code"), ("notebook", "code"), ("slide", "slides"),
              ("poster", "poster"), ("present", "slides"), ("video", "video"), ("youtube", "video"),
              ("talk", "video"), ("supp", "supp"), ("data", "supp"), ("blog", "html"),
              ("web", "html"), ("project", "html"), ("html", "html"), ("page", "html"))
FALLBACK_KINDS = ("url", "html", "supp")
_LINKY_NAME = re.compile(r"url$|link$|" + "|".join(w for w, _ in KIND_WORDS))
# A value that is an address or a file's name (`./poster.pdf`, found under assets/).
_LINKY_VALUE = re.compile(r"(https?://|/)\S+$|\S+\.[A-Za-z0-9]{2,5}$")
# Fields of BibTeX exports that hold addresses no page showed (DBLP's `biburl`...).
NOT_LINKS = re.compile(r"^(bib|preview|thumbnail|image|img|file|pages$|urldate$)")
_COMMENTS = re.compile(r"<!--.*?-->|\{%-?\s*comment\s*-?%\}.*?\{%-?\s*endcomment\s*-?%\}",
                       re.S)
_HREF = re.compile(r"""href\s*=\s*(["'])(.*?)\1[^>]*>\s*([^<]*)""", re.S)
_ENTRY = re.compile(r"\{\{-?\s*entry\.(\w+)\s*((?:\|[^}]*)?)-?\}\}")
_PREPEND = re.compile(r"""prepend:\s*(["'])(.*?)\1""")
_QUOTED = re.compile(r"""\{\{-?\s*(["'])(.*?)\1\s*\|\s*(?:relative|absolute)_url\s*-?\}\}""")
_LIQUID = re.compile(r"\{\{.*?\}\}")


@dataclass(frozen=True)
class LayoutLink:
    field: str  # the entry's field, lower case
    prefix: str  # what the layout puts before a value without '://' ('' for none)
    label: str  # the button's text


def read_layout_links(old: Path, mig: Migration) -> dict[str, LayoutLink] | None:
    """The fields the old site's bib layout links ({field: LayoutLink}), or None when the
    site has no layout of its own."""
    path = next((old / p for p in LAYOUTS if (old / p).is_file()), None)
    text = mig.read_text(path) if path is not None else None
    if text is None:
        return None
    found: dict[str, LayoutLink] = {}
    for _, href, label in _HREF.findall(_COMMENTS.sub("", text)):
        use = _ENTRY.search(href)
        if use is None:
            continue
        prepend = _PREPEND.search(use.group(2))
        before = _QUOTED.sub(r"\2", href[:use.start()])
        prefix = prepend.group(2) if prepend else _LIQUID.sub("", before)
        name = use.group(1).lower()
        found.setdefault(name, LayoutLink(name, prefix, " ".join(label.split())))
    return found


def list_link_fields(entry: BibEntry, layout: dict[str, LayoutLink] | None
                     ) -> list[LayoutLink]:
    """The entry's fields the old page linked, that scholarsite does not read as links:
    those the layout links, or (no layout) al-folio's and those named and valued as links."""
    out = []
    for name, value in entry.fields.items():
        if name in LINK_KINDS or name in ("eprint", "howpublished"):
            continue
        if layout is not None:
            if name in layout:
                out.append(layout[name])
        elif name in DEFAULT_LINKS or (_LINKY_NAME.search(name) and not NOT_LINKS.match(name)
                                       and _LINKY_VALUE.match(decode_url(value.text))):
            out.append(LayoutLink(name, DEFAULT_LINKS.get(name, ""), ""))
    return out


def pick_kind(link: LayoutLink, taken: set[str]) -> str:
    """A kind of link not yet taken: the one the field's name or label says, else a link
    labelled by its site ('url'), else '' when none is free."""
    words = f"{link.field} {link.label}".lower()
    preferred = [kind for word, kind in KIND_WORDS if word in words]
    return next((k for k in (*preferred, *FALLBACK_KINDS) if k not in taken), "")


def settle_link_fields(text: str, path: Path, entries: list[BibEntry], mig: Migration) -> str:
    """`text` (the .bib file) with each entry's link fields as scholarsite reads them:
    renamed to a free kind, a file copied and named by its new path."""
    lines = text.split("\n")
    layout = read_layout_links(mig.old, mig)
    for entry in entries:
        taken = set(entry.fields) & set(LINK_KINDS)
        taken |= {"arxiv"} if "eprint" in entry.fields else set()
        for kind in FILE_KINDS + ("url", "html"):  # `url` only when it names an own file
            if kind in entry.fields and (kind in FILE_KINDS or is_own(entry.fields[kind], mig)):
                link = (layout or {}).get(kind) or LayoutLink(kind, DEFAULT_LINKS.get(kind, "/"), "")
                move_field(lines, path, entry.fields[kind], link, kind, mig)
        for link in list_link_fields(entry, layout):
            kind = pick_kind(link, taken)
            if not kind:
                mig.add_review(mig.where(path, entry.fields[link.field].line), f"entry "
                               f"'{entry.key}': its link '{link.field}' is not moved: it "
                               "has a link of every kind")
                continue
            taken.add(kind)
            move_field(lines, path, entry.fields[link.field], link, kind, mig)
    return "\n".join(lines)


def is_own(value: BibValue, mig: Migration) -> bool:
    """Whether a link names a file of the old site with the site's own address (another
    site published below that host, a book at /book/, is not the old site's)."""
    path = mig.own_path(decode_url(value.text))
    return path != decode_url(value.text) and (mig.old / path.lstrip("/")).is_file()


def move_field(lines: list[str], path: Path, value: BibValue, link: LayoutLink, kind: str,
               mig: Migration) -> None:
    """Write the field at its line as `kind`, with a file's new path for its value."""
    old_value = mig.own_path(decode_url(value.text))  # a file of the old site, as a path
    new_value = old_value
    if re.match(r"https?://", link.prefix) and not re.match(r"[a-z][a-z0-9+.-]*:", old_value):
        new_value = link.prefix + old_value  # `https://github.com/{{ entry.github }}`
    elif not re.match(r"[a-z][a-z0-9+.-]*:|//", old_value, re.I):
        new_value = find_file(old_value, link.prefix, mig)
        if not new_value:
            folder = link.prefix.strip("/") or "the old site's root"
            mig.add_review(mig.where(path, value.line), f"{link.field} '{old_value}' is not "
                           f"in {folder}/ (nor elsewhere below assets/); put the file in "
                           "files/ or the link is left out")
        if new_value in ("", "files/" + old_value.lstrip("/")):
            new_value = old_value  # the build finds a bare name in files/ itself
    if link.field == kind and new_value == old_value:
        return
    field = re.compile(rf"(?<![\w-]){re.escape(link.field)}(\s*=\s*)(\{{[^{{}}\n]*\}}|"
                       rf"\"[^\"\n]*\"|[^,}}\s]+)", re.I)
    row = value.line - 1
    if not 0 <= row < len(lines) or not field.search(lines[row]):
        return  # written over several lines: left as it is, for the build to say
    written = "" if new_value == old_value else f"{{{new_value}}}"  # else as it was
    lines[row] = field.sub(lambda m: f"{kind}{m.group(1)}{written or m.group(2)}",
                           lines[row], 1)
    if link.field != kind:
        mig.add_review(mig.where(path, value.line), f"'{link.field}' (a link on the old "
                       f"page) renamed '{kind}', the kind of link scholarsite shows")


def find_file(name: str, prefix: str, mig: Migration) -> str:
    """The new path (files/...) of the old site's file a link's value names: the layout's
    folder and the value, else the only file of that name below assets/; it is copied.
    '' when the old site has none."""
    rel = name.split("#")[0].split("?")[0].strip().lstrip("/")
    if not rel:
        return ""
    base = prefix if prefix.startswith("/") else ""
    candidates = [(base.lstrip("/") + rel) if base else rel, "assets/pdf/" + rel]
    candidates += [rel] if name.startswith("/") else []  # a path from the site's root
    assets = mig.old / "assets"
    found = sorted(p for p in assets.rglob(Path(rel).name) if p.is_file()) \
        if assets.is_dir() and "/" not in rel else []
    candidates += [p.relative_to(mig.old).as_posix() for p in found[:1] if len(found) == 1]
    for candidate in candidates:
        source = mig.old / candidate
        if source.is_file() and is_inside(source, mig.old):
            new = new_file_path(candidate)
            return new if mig.add_copy(new, source, "file", mig.where(source)) else ""
    return ""
