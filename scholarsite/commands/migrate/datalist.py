"""Two homes of a publication list that are no template's: a Jekyll site that keeps its
papers as data (`_data/publications.yml`, `_data/publist.yml`, or the same in JSON, as the
Allan Lab template and many hand-made sites do), and a bare folder of `.bib` files (a
LaTeX CV's repository).

A data list's items become `publications/<slug>.md`, each fact read from the fields
fieldmap.py names (which `--map` changes); a `.bib` file is copied as it is, since the
build reads BibTeX itself."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from ...diagnostics import Diagnostics
from ...models.forms import order_paper_fields
from ...reading.bib.bibparse import parse_library
from ...reading.bib.latex import latex_to_text
from ...reading.settings.yamlread import Located, parse_yaml
from ...reading.text.mdescape import text_to_markdown
from ...structure.urls import normalize_doi
from .apfields import link_kind
from .citestyles import infer_type, invert, split_names
from .dates import DateOrder, normalize_date
from .fieldmap import link_fields, pick, year_of
from .frontmatter import format_entry, strip_html
from .links import new_file_path
from .model import NO_VENUE, Migration

DATA_NAMES = tuple(f"_data/{stem}.{ext}" for stem in ("publications", "publist", "papers")
                   for ext in ("yml", "yaml", "json"))
# .bib files of a CV repository that hold no papers of the owner's (left behind, named).
NOT_PAPERS = re.compile(r"talk|teach|course|present|backup|bak|old|copy|template|example",
                        re.I)
ISO = DateOrder(False, True, "")
_YEAR_SUFFIX = re.compile(r"[\s,]*\(?\b(?:19|20)\d{2}\b\)?[\s,.]*$")


def find_data_list(old: Path) -> Path | None:
    """The first of the data files a Jekyll site keeps its papers in, or None."""
    return next((old / name for name in DATA_NAMES if (old / name).is_file()), None)


def read_datalist(old: Path, mig: Migration) -> None:
    """The papers of `_data/publications.yml` (or publist.yml, or JSON), when no other
    reader found papers: one Markdown paper per item."""
    path = find_data_list(old)
    if path is None or any(p.startswith("publications/") for p in mig.files):
        return
    doc = read_data(path, mig)
    items = doc.data if doc is not None else None
    if isinstance(items, dict):  # {papers: [...]} or {publications: [...]}
        key = next((k for k, v in items.items() if isinstance(v, list)), None)
        items, prefix = (items[key], (key,)) if key else ([], ())
    else:
        prefix = ()
    if not isinstance(items, list):
        if doc is not None:
            mig.leave(mig.where(path, 1), "not a list of papers; not moved")
        return
    for i, item in enumerate(items):
        where = mig.where(path, doc.line(*prefix, i))
        if not isinstance(item, dict):
            mig.leave(where, "an item that is not a mapping of fields; not moved")
            continue
        move_item(item, where, mig)


def read_data(path: Path, mig: Migration) -> Located | None:
    """The data file through the build's YAML reader (JSON is YAML too, and so keeps its
    lines); a broken one is named at its line."""
    text = mig.read_text(path)
    if text is None:
        return None
    diags = Diagnostics()
    doc = parse_yaml(text, path, 1, diags)
    for said in diags.items:
        (mig.leave if doc is None else mig.add_review)(mig.where(path, said.line),
                                                       said.message)
    return doc


def move_item(item: dict, where: str, mig: Migration) -> None:
    """One data item as a paper; one without a title, authors or year is named, not
    moved (which field holds each: fieldmap.py, `--map`)."""
    fields = make_fields(item, mig)
    missing = [k for k in ("title", "authors", "date") if not fields.get(k)]
    if missing:
        mig.leave(where, f"no {', '.join(missing)} found (fields read: "
                  f"{'; '.join(f'{k}: ' + ', '.join(mig.fieldmap[k]) for k in missing)}); "
                  "not moved: name the right fields with --map")
        return
    # Shown as text by the old site's template: text now too, never HTML nor attributes.
    abstract = text_to_markdown(text_of(pick(item, "abstract", mig.fieldmap)[1]))
    slug = mig.free_slug("publications", fields["title"])
    mig.add_text(f"publications/{slug}.md", format_entry(order_paper_fields(fields), abstract),
                 "paper", where)


def make_fields(item: dict, mig: Migration) -> dict:
    m = mig.fieldmap
    title = text_of(pick(item, "title", m)[1])
    names = pick(item, "authors", m)[1]
    if isinstance(names, list):
        names = [text_of(n.get("name") if isinstance(n, dict) else n) for n in names]
    authors = split_names(text_of(names).replace("\\*", "*")) if isinstance(names, str) \
        else [n for n in names or [] if n]
    key, venue = pick(item, "venue", m)
    date_value = pick(item, "date", m)[1]
    date = normalize_date(date_value, ISO) if date_value is not None else None
    date = date or year_of(date_value) or year_of(venue)
    venue = _YEAR_SUFFIX.sub("", text_of(venue)).rstrip(" ,") if key == "link.display" \
        else text_of(venue).rstrip(" ,")
    # A paper keeps its DOI among its links (a paper has no `doi` field), first.
    doi = text_of(pick(item, "doi", m)[1])
    links = {"doi": normalize_doi(doi) or doi} if doi else {}
    fields = {"title": title, "authors": authors, "venue": venue or NO_VENUE,
              "date": date, "type": infer_type(venue, text_of(pick(item, "type", m)[1]).lower())
              or ("other" if not venue else ""), "links": links | make_links(item, mig)}
    return {k: v for k, v in fields.items() if v not in (None, "", {}, [])}


def make_links(item: dict, mig: Migration) -> dict[str, str]:
    """The item's links: addresses as they are, a file of the old site copied into files/."""
    links: dict[str, str] = {}
    skip = tuple(n.lower() for fact in ("doi", "title", "venue") for n in mig.fieldmap[fact])
    for key, kind, value in link_fields(item, skip):
        if not re.match(r"^(?:https?:)?//", value):
            local = value.split("{{")[-1].split("}}")[-1].lstrip("/")
            source = mig.old / local
            new = new_file_path(local)
            if not (local and source.is_file() and mig.add_copy(new, source, "file", key)):
                continue
            value = new
        links.setdefault(link_kind(value) if kind == "url" else kind, value)
    return links


def text_of(value: object) -> str:
    return strip_html(" ".join(str(value).split())) if value not in (None, "") else ""


# --- A folder of .bib files ------------------------------------------------------------


def find_bib_files(old: Path) -> list[Path]:
    """The .bib files of a folder and its subfolders, two deep (a CV repository's `bib/`;
    not hidden folders nor build output; a deeper walk could be a whole home folder)."""
    found = [p for pattern in ("*.bib", "*/*.bib", "*/*/*.bib") for p in old.glob(pattern)]
    return sorted(p for p in found if not any(
        part.startswith((".", "_")) for part in p.relative_to(old).parts[:-1]))


def read_bib_folder(old: Path, mig: Migration) -> None:
    """Each .bib file of the papers copied to publications/, and site.yaml's settings: the
    owner guessed as the one author every paper shares, with a note to check."""
    names: Counter = Counter()
    for path in find_bib_files(old):
        if NOT_PAPERS.search(path.stem):
            mig.leave(mig.where(path), "by its name not a list of papers (talks, teaching, "
                      "a backup); not moved: copy it into publications/ if it is")
            continue
        text = mig.read_text(path)
        if text is None:
            continue
        slug = mig.free_slug("publications", path.stem).removesuffix(".md")
        if f"publications/{slug}.bib" in mig.files:
            slug = f"{slug}-{len(mig.files)}"
        mig.add_text(f"publications/{slug}.bib", text, "bibliography", mig.where(path))
        names.update(count_authors(text, path))
    # Most papers, then most first-authored ones, then the name: the same guess every run.
    people = [n for n in names if not n.startswith("first:")]
    owner = max(people, key=lambda n: (names[n], names[f"first:{n}"], n)) if people \
        else "Your Name"
    mig.site.update({"title": owner, "url": "https://example.org/", "author": {"name": owner}})
    mig.add_review("site.yaml", f"the owner is taken to be {owner}, the author most papers "
                   "share, and the address https://example.org/: check both")


def count_authors(text: str, path: Path) -> Counter:
    """How many entries of a .bib text each author (as 'Given Family') is in, and first
    in ('first:Given Family')."""
    counts: Counter = Counter()
    for entry in parse_library(path, text, Diagnostics()).entries:
        value = entry.fields.get("author")
        if value is not None:
            names = (invert(*a.split(",", 1)) if "," in a else a
                     for a in re.split(r"\s+and\s+", latex_to_text(value.text)))
            names = [" ".join(n.split()) for n in names if n.strip()]
            counts.update(set(names))
            counts.update([f"first:{names[0]}"] if names else [])
    return counts
