"""al-folio's bibliography and files: the .bib files move as they are, each entry checked for
what the build needs (title, author, year) and for the PDFs and previews it names; al-folio's
own fields that scholarsite does not show are named in the report."""

from __future__ import annotations

import re
from pathlib import Path

from ...diagnostics import Diagnostics
from ...reading.bib.bibparse import BibEntry, BibValue, parse_library
from ...reading.bib.latex import latex_to_rich
from ...reading.slugs import make_entry_slug, make_slug
from .alfoliolinks import settle_link_fields
from .bibpage import is_hidden, read_bib_page
from .model import Migration
from .samples import find_sample_entry

# --- the bibliography ----------------------------------------------------------------------

_START = re.compile(r"^[ \t]*@[ \t]*\w+[ \t]*[{(]")
_SWITCH = re.compile(r"^([ \t]*(?:bibtex_show|selected|published|abstract_show)[ \t]*=[ \t]*)"
                     r"(true|false|yes|no)([ \t]*,?[ \t]*)$", re.M | re.I)

# An address written bare (`url=https://...`): bibtex-ruby reads it as the text, BibTeX as
# an undefined @string, whose name it would show.
_BARE_URL = re.compile(r"^([ \t]*\w+[ \t]*=[ \t]*)((?:https?|ftp)://[^\s,{}\"]+)([ \t]*,?[ \t]*)$",
                       re.M | re.I)

# al-folio fields that steer its pages and that scholarsite does not show.
UNSHOWN = {"award_name": "the award's button label; scholarsite shows 'award'",
           "additional_info": "text after the venue; move it into 'note'",
           "annotation": "a note on the authors; move it into 'note'",
           "altmetric": "a badge", "dimensions": "a badge", "google_scholar_id": "a badge",
           "inspirehep_id": "a badge"}


def read_bibliography(old: Path, mig: Migration) -> dict[str, tuple[str, str]]:
    """Copy each .bib file the old publications page reads to publications/, less the
    entries its query hides; return {citation key: (slug, title)} of the entries that will
    be papers (title, author and year present), each entry read by the build's own BibTeX
    parser."""
    papers: dict[str, tuple[str, str]] = {}
    page = read_bib_page(old, mig)
    for path in list_files(old / "_bibliography", (".bib", ".bibtex")):
        if page.found and path.stem not in page.stems:
            if mig.where(path) in mig.into:
                continue  # a page lists it (biblist.py), which the report says
            mig.leave(mig.where(path), "not moved as papers: the old publications page does "
                      f"not read it (it reads {', '.join(sorted(page.stems))}.bib)")
            continue
        target = f"publications/{make_slug(path.stem)}.bib"
        if not mig.add_copy(target, path, "bibtex", mig.where(path)):
            continue  # add_copy said why
        text = mig.read_text(path)
        if text is None:
            continue
        entries = parse_library(path, text, Diagnostics()).entries  # the build says its errors
        dropped = {e.key: why for e in entries if (why := why_dropped(e, page))}
        shown = [e for e in entries if e.key not in dropped]
        changed = settle_link_fields(text, path, shown, mig)  # line for line
        changed = brace_switches(drop_entries(changed, [e for e in entries if e.key in dropped],
                                              dropped, path, mig), path, mig)
        if changed != text:
            mig.add_text(target, changed, "bibtex", mig.where(path))
        for entry in shown:
            note_entry(path, entry, papers, mig)
            check_preview(old, path, entry.fields, mig)
        note_unshown(path, entries, mig)
    return papers


def note_entry(path: Path, entry: BibEntry, papers: dict, mig: Migration) -> None:
    fields = entry.fields
    if "title" in fields and {"author", "editor"} & set(fields) \
            and {"year", "date"} & set(fields):
        title = latex_to_rich(fields["title"].text).text  # as the build reads it
        papers.setdefault(entry.key, (make_entry_slug(entry.key, title), title))
    else:
        mig.add_review(mig.where(path, entry.line), f"entry '{entry.key}' lacks a "
                       "title, author or year: the site leaves it out, with a warning, "
                       "until it has")


def why_dropped(entry: BibEntry, page) -> str:
    """Why an entry does not move ('' when it does): the old page's query hid it, or it is
    the template's sample paper (its title and authors both the sample's)."""
    if is_hidden(entry.fields, page):
        return "the old publications page's query hid it"
    title, authors = (entry.fields.get(name) for name in ("title", "author"))
    template = find_sample_entry(latex_to_rich(title.text).text, authors.text) \
        if title is not None and authors is not None else ""
    return f"the template's own sample paper ({template}), not yours" if template else ""


def drop_entries(text: str, hidden: list[BibEntry], whys: dict[str, str], path: Path,
                 mig: Migration) -> str:
    """`text` without the lines of the entries that do not move (each from its first line
    to the next line that starts an entry), each named with why (`whys`, by key)."""
    if not hidden:
        return text
    lines = text.split("\n")
    starts = [i + 1 for i, row in enumerate(lines) if _START.match(row)] + [len(lines) + 1]
    dropped: set[int] = set()
    for entry in hidden:
        end = next(s for s in starts if s > entry.line)
        dropped.update(range(entry.line, end))
        mig.leave(mig.where(path, entry.line), f"entry '{entry.key}' not moved: "
                  f"{whys[entry.key]}")
    return "\n".join(row for i, row in enumerate(lines, 1) if i not in dropped)


def brace_switches(text: str, path: Path, mig: Migration) -> str:
    """al-folio's switches written bare (`selected=true`), which jekyll-scholar takes as
    the word and BibTeX as an undefined @string, written in braces (`selected={true}`);
    and so are addresses written bare."""
    found = _SWITCH.findall(text)
    if found:
        mig.add_review(mig.where(path), f"{len(found)} bare true/false value(s) of al-folio's "
                       "switches (selected, bibtex_show...) written in braces")
    urls = _BARE_URL.findall(text)
    if urls:
        mig.add_review(mig.where(path), f"{len(urls)} address(es) written without braces "
                       "(url=https://...), which BibTeX cannot read, written in braces")
    text = _BARE_URL.sub(lambda m: f"{m.group(1)}{{{m.group(2)}}}{m.group(3)}", text)
    return _SWITCH.sub(lambda m: f"{m.group(1)}{{{m.group(2).lower()}}}{m.group(3)}", text)


def check_preview(old: Path, path: Path, fields: dict[str, BibValue], mig: Migration) -> None:
    """A bare `preview` name resolves only if al-folio's folder had that file (the link
    fields' files are alfoliolinks.py's)."""
    value = fields.get("preview")
    ref = value.text.strip() if value else ""
    folder = "assets/img/publication_preview"
    if ref and "://" not in ref and not (old / folder / ref).is_file():
        mig.add_review(mig.where(path, value.line), f"preview '{ref}' is not in {folder}/; "
                       "put the file in files/ or the picture is left out")


def note_unshown(path: Path, entries: list[BibEntry], mig: Migration) -> None:
    for name, why in UNSHOWN.items():
        lines = [e.fields[name].line for e in entries if name in e.fields]
        if lines:
            mig.add_review(mig.where(path, lines[0]), f"al-folio's '{name}' ({why}) is kept "
                           f"in the entry but not shown ({len(lines)} entr"
                           f"{'y' if len(lines) == 1 else 'ies'})")


# --- files ---------------------------------------------------------------------------------


def list_files(folder: Path, suffixes: tuple[str, ...] | None = None) -> list[Path]:
    """The files below `folder`, sorted, without hidden ones (.DS_Store, .ipynb_checkpoints)."""
    if not folder.is_dir():
        return []
    found = []
    for path in sorted(folder.rglob("*")):
        parts = path.relative_to(folder).parts
        if path.is_file() and not any(p.startswith((".", "_")) for p in parts) \
                and (suffixes is None or path.suffix.lower() in suffixes):
            found.append(path)
    return found


def copy_folder(folder: Path, dest: str, mig: Migration) -> None:
    for path in list_files(folder):
        rel = path.relative_to(folder).as_posix()
        mig.add_copy(f"{dest}/{rel}", path, "file", mig.where(path))
