"""al-folio's bibliography and files: the .bib files move as they are, each entry checked for
what the build needs (title, author, year) and for the PDFs and previews it names; al-folio's
own fields that scholarsite does not show are named in the report."""

from __future__ import annotations

import re
from pathlib import Path

from ...reading.slugs import make_entry_slug, make_slug
from .model import Migration, is_inside

# --- the bibliography ----------------------------------------------------------------------

_ENTRY = re.compile(r"^[ \t]*@[ \t]*(\w+)[ \t]*[{(][ \t]*([^,\s]+)[ \t]*,", re.M)
_FIELD = re.compile(r"^[ \t]*([\w-]+)[ \t]*=[ \t]*(.*)$", re.M)
_PLAIN_VALUE = re.compile(r'^[{"]\s*([^{}"]*?)\s*[}"]')
# al-folio fields that steer its pages and that scholarsite does not show.
UNSHOWN = {"award_name": "the award's button label; scholarsite shows 'award'",
           "website": "a link; rename it 'html'", "blog": "a link; rename it 'html'",
           "additional_info": "text after the venue; move it into 'note'",
           "annotation": "a note on the authors; move it into 'note'",
           "altmetric": "a badge", "dimensions": "a badge", "google_scholar_id": "a badge",
           "inspirehep_id": "a badge"}


def read_bibliography(old: Path, mig: Migration) -> dict[str, tuple[str, str]]:
    """Copy each .bib file to publications/; return {citation key: (slug, title)} of the
    entries that will be papers (title, author and year present)."""
    papers: dict[str, tuple[str, str]] = {}
    for path in list_files(old / "_bibliography", (".bib", ".bibtex")):
        mig.add_copy(f"publications/{make_slug(path.stem)}.bib", path, "bibtex",
                     mig.where(path))
        if not is_inside(path, mig.old):
            continue  # add_copy said so
        try:
            entries = scan_entries(path.read_text(encoding="utf-8-sig"))
        except (OSError, UnicodeDecodeError):
            continue  # the build says what is wrong with the file
        for key, line, fields in entries:
            if "title" in fields and {"author", "editor"} & set(fields) \
                    and {"year", "date"} & set(fields):
                title = " ".join(re.sub(r"[{}\"]", "", fields["title"][0]).strip(" ,").split())
                papers.setdefault(key, (make_entry_slug(key, title), title))
            else:
                mig.add_review(mig.where(path, line), f"entry '{key}' lacks a title, author "
                               "or year: the site leaves it out, with a warning, until it has")
            check_bib_files(old, path, fields, mig)
        note_unshown(path, entries, mig)
    return papers


def scan_entries(text: str) -> list[tuple[str, int, dict[str, tuple[str, int]]]]:
    """Each entry's key, line and fields {name: (value as written, line)}: enough to find
    keys and file names; the real reading is the build's."""
    starts = [m for m in _ENTRY.finditer(text)
              if m.group(1).lower() not in ("string", "comment", "preamble")]
    entries = []
    for i, match in enumerate(starts):
        end = starts[i + 1].start() if i + 1 < len(starts) else len(text)
        fields = {f.group(1).lower(): (f.group(2), text.count("\n", 0, f.start()) + 1)
                  for f in _FIELD.finditer(text, match.end(), end)}
        entries.append((match.group(2), text.count("\n", 0, match.start()) + 1, fields))
    return entries


def check_bib_files(old: Path, path: Path, fields: dict, mig: Migration) -> None:
    """A bare `pdf` or `preview` name resolves only if al-folio's folder had that file."""
    for name, folder in (("pdf", "assets/pdf"), ("preview", "assets/img/publication_preview")):
        value, line = fields.get(name, ("", 0))
        plain = _PLAIN_VALUE.match(value)
        ref = plain.group(1) if plain else ""
        if ref and "://" not in ref and not (old / folder / ref).is_file():
            mig.add_review(mig.where(path, line), f"{name} '{ref}' is not in {folder}/; "
                           f"put the file in files/ or the link is left out")


def note_unshown(path: Path, entries: list, mig: Migration) -> None:
    for name, why in UNSHOWN.items():
        lines = [fields[name][1] for _, _, fields in entries if name in fields]
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
