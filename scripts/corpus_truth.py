"""What an old site's publications page shows, read with other parsers than scholarsite's:
PyYAML for Jekyll and Hugo front matter, tomllib for TOML front matter and configuration,
pybtex (with latexcodec) for al-folio's .bib files. Same fields as ../shared/corpus/sites'
TRUTH.json, less what this reader cannot know without a person: `links` is left empty and
`owner_is_author` null (neither is asserted), and academicpages authors are given only where
a list field names them.

Rules (the same as the shared corpus's README, simplified where a person read the pages):
- academicpages: every document of _publications/ (sub-folders too) but `published: false`
  and, when _config.yml does not set `future: true`, those dated after the commit; the
  page's own category filters are not followed;
- al-folio: the .bib files the pages' `{% bibliography %}` tags name (`-f`), else the one
  _config.yml's `scholar.bibliography` names; a page's `years:` list filters when its tag
  asks for `year={{y}}`; other queries are not followed;
- Hugo: pages below content/publication(s)/ that are no drafts, not dated after the commit
  (publishDate, else date), not expired.
A file whose front matter or BibTeX cannot be read is listed as `unasserted`.
"""

from __future__ import annotations

import datetime as dt
import html
import re
import tomllib
import unicodedata
from pathlib import Path

import yaml

INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"))
TAG = re.compile(r"<[^>]+>")
DOI = re.compile(r"(?:doi\.org/|^doi:\s*)(10\.\d{4,9}/\S+)", re.I)
YEAR = re.compile(r"\b(1[89]\d\d|2[01]\d\d)\b")
# The AAS journal macros ADS exports (`journal = {\apj}`): the table of facts (macro, journal)
# is data, read here by this script's own code.
AAS_TABLE = Path(__file__).resolve().parent.parent / "scholarsite" / "data" / "aas_journals.tsv"


def plain(text) -> str:
    """Text as a reader sees it: tags dropped, entities decoded, invisible marks removed."""
    text = html.unescape(TAG.sub("", str(text))).translate(INVISIBLE)
    return " ".join(text.split())


def split_front_matter(text: str) -> tuple[str, str] | None:
    """(format, front matter) of a Markdown file, or None when it has none."""
    text = text.lstrip("\ufeff")
    for fence, form in (("---", "yaml"), ("+++", "toml")):
        if text.startswith(fence):
            end = re.search(rf"^{re.escape(fence)}[ \t]*$", text[3:], re.M)
            if end:
                return form, text[3:3 + end.start()]
    return None


def load_front_matter(path: Path) -> dict | None:
    """The file's front matter as a dict; {} for none; None when it cannot be read."""
    try:
        found = split_front_matter(path.read_text(encoding="utf-8"))
        if found is None:
            return {}
        form, text = found
        data = tomllib.loads(text) if form == "toml" else yaml.safe_load(text)
    except (UnicodeDecodeError, yaml.YAMLError, tomllib.TOMLDecodeError, ValueError):
        return None
    return data if isinstance(data, dict) else ({} if data is None else None)


def load_config(root: Path, names: tuple[str, ...]) -> dict:
    for name in names:
        path = root / name
        if path.is_file():
            try:
                text = path.read_text(encoding="utf-8")
                data = tomllib.loads(text) if name.endswith(".toml") else yaml.safe_load(text)
            except (UnicodeDecodeError, yaml.YAMLError, tomllib.TOMLDecodeError):
                continue
            if isinstance(data, dict):
                return data
    return {}


def as_date(value) -> dt.date | None:
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    match = re.match(r"(\d{4})-(\d{1,2})-(\d{1,2})", str(value or ""))
    try:
        return dt.date(*map(int, match.groups())) if match else None
    except ValueError:
        return None


def year_of(value):
    date = as_date(value)
    if date:
        return date.year
    match = YEAR.search(str(value or ""))
    return int(match.group(1)) if match else None


def bare_doi(value) -> str | None:
    if not value:
        return None
    text = plain(value).strip()
    match = DOI.search(text)
    if match:
        return match.group(1).rstrip(".")
    return text if text.startswith("10.") else None


def item(source: str, title, authors, venue, year, doi, **extra) -> dict:
    found = {"source": source, "title": plain(title), "authors": authors,
             "venue": plain(venue) if venue else None, "year": year, "doi": doi,
             "links": {}, "owner_is_author": None}
    found.update(extra)
    return found


# --- academicpages -----------------------------------------------------------------------

def split_author_text(text: str) -> list[str] | None:
    """Names from an author string the way a reader splits it, or None when the commas may
    be inside names ('Family, I.')."""
    text = plain(text).replace("*", "")
    if ";" in text:
        return [n.strip() for n in text.split(";") if n.strip()]
    if re.search(r",\s*[A-Z]\.", text):
        return None
    parts = re.split(r",\s*(?:and\s+)?|\s+and\s+|\s*&\s*", text)
    return [p.strip() for p in parts if p.strip()] or None


def academicpages_authors(meta: dict) -> list[str] | None:
    value = meta.get("authors")
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return [plain(v) for v in value]
    if isinstance(value, str):
        return split_author_text(value)
    return None


def truth_academicpages(root: Path, until: dt.date, samples: set[str]) -> tuple:
    config = load_config(root, ("_config.yml",))
    future = config.get("future") is True
    shown, hidden, unasserted = [], [], []
    for path in sorted((root / "_publications").rglob("*")):
        rel = path.relative_to(root).as_posix()
        if not path.is_file() or path.suffix.lower() not in (".md", ".markdown", ".html"):
            continue
        meta = load_front_matter(path)
        if meta is None:
            unasserted.append({"source": rel, "reason": "front matter that YAML refuses"})
            continue
        reason = hidden_reason(meta, until, future, rel in samples)
        if reason:
            hidden.append({"source": f"{rel}:1", "reason": reason})
            continue
        if not meta.get("title"):
            unasserted.append({"source": rel, "reason": "no title"})
            continue
        doi = bare_doi(meta.get("doi")) or bare_doi(meta.get("paperurl")) or bare_doi(
            meta.get("link"))
        shown.append(item(f"{rel}:1", meta["title"], academicpages_authors(meta),
                          meta.get("venue"), year_of(meta.get("date") or meta.get("year")), doi))
    return shown, hidden, unasserted, "documents of _publications/ (filters not followed)"


def hidden_reason(meta: dict, until: dt.date, future: bool, sample: bool) -> str | None:
    if sample:
        return "the template's own sample (same blob)"
    if meta.get("published") is False:
        return "published: false"
    date = as_date(meta.get("date"))
    if date and date > until and not future:
        return "dated after the commit, and the site does not set future: true"
    return None


# --- al-folio ------------------------------------------------------------------------------

BIB_TAG = re.compile(r"\{%-?\s*bibliography\b(.*?)-?%\}", re.S)
ENTRY_LINE = re.compile(r"^[ \t]*@[ \t]*(\w+)[ \t]*[{(][ \t]*([^,\s]*)", re.M)


def bib_pages(root: Path) -> list[tuple[Path, dict, list[str]]]:
    """The pages that show a bibliography: (page, front matter, each tag's arguments)."""
    found = []
    for path in sorted((root / "_pages").rglob("*")) if (root / "_pages").is_dir() else []:
        if path.suffix.lower() not in (".md", ".html", ".markdown", ".liquid"):
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        tags = [m.group(1) for m in BIB_TAG.finditer(text)
                if "bibliography_count" not in m.group(0)]
        if tags:
            found.append((path, load_front_matter(path) or {}, tags))
    return found


def shown_bib_files(root: Path, config: dict) -> tuple[list[tuple[str, set | None]], str]:
    """[(file name, the years shown or None for all)] and words for site.json."""
    default = str((config.get("scholar") or {}).get("bibliography") or "references.bib")
    shown: dict[str, set | None] = {}
    for path, meta, tags in bib_pages(root):
        years = meta.get("years") if isinstance(meta.get("years"), list) else None
        for tag in tags:
            names = re.findall(r"-f\s+([\w.\-]+)", tag) or [default]
            for name in names:
                name = name if name.endswith(".bib") else name + ".bib"
                by_year = years is not None and re.search(r"year\s*=\s*\{\{", tag)
                keep = {str(y) for y in years} if by_year else None
                before = shown.get(name, set())
                shown[name] = None if keep is None or before is None else before | keep
    if not shown:
        shown[default] = None
    words = ", ".join(f"_bibliography/{n}" + (f" (years {sorted(y)})" if y else "")
                      for n, y in shown.items())
    return list(shown.items()), f"entries of {words}"


SYMBOLS = {"sim": "∼", "times": "×", "pm": "±", "approx": "≈", "lesssim": "≲",
           "gtrsim": "≳", "le": "≤", "ge": "≥", "leq": "≤", "geq": "≥", "odot": "⊙",
           "textendash": "–", "textemdash": "—", "infty": "∞", "circ": "∘", "prime": "′"}


def symbol(match: re.Match) -> str:
    """A TeX symbol command outside $...$ as a reader of the old page saw it."""
    name = match.group(1)
    if name in SYMBOLS:
        return SYMBOLS[name]
    try:
        case = "CAPITAL" if name[0].isupper() else "SMALL"
        return unicodedata.lookup(f"GREEK {case} LETTER {name.upper()}")
    except KeyError:
        return match.group(0)


def decode(text: str) -> str:
    """BibTeX text as the old page showed it: accents decoded by latexcodec, wrappers
    (\\ensuremath, \\mathrm) unwrapped, symbol commands as their characters."""
    from pybtex.richtext import Text
    text = re.sub(r"\\(?:ensuremath|mathrm|textrm|text|rm|emph|textit|textbf|textsc|mathbf|mathit|it|bf|em)\b\s*", "", text)
    parts = re.split(r"(\$[^$]*\$)", text)  # math stays as written, as the README says
    text = "".join(p if p.startswith("$") else re.sub(r"\\([A-Za-z]+)\b", symbol, p)
                   for p in parts)
    try:
        return plain(Text.from_latex(text).render_as("text"))
    except Exception:  # pybtex raises bare errors on odd LaTeX; the braces are dropped
        return plain(text.replace("{", "").replace("}", ""))


def aas_journals() -> dict[str, str]:
    lines = AAS_TABLE.read_text(encoding="utf-8").splitlines()
    return dict(line.split("\t") for line in lines if line and not line.startswith("#"))


def bib_authors(entry) -> list[str] | None:
    people = entry.persons.get("author", [])
    raw = entry.fields.get("author", "")
    if not people:
        return None
    if len(people) == 1 and raw.count(",") > 1:  # names run together with commas
        return None
    names = []
    for person in people:
        parts = person.first_names + person.middle_names + person.prelast_names + \
            person.last_names
        name = decode(" ".join(parts))
        if person.lineage_names:
            name += ", " + decode(" ".join(person.lineage_names))
        names.append(name)
    return names


def entry_lines(text: str) -> dict[str, list[int]]:
    lines: dict[str, list[int]] = {}
    for match in ENTRY_LINE.finditer(text):
        if match.group(1).lower() not in ("string", "preamble", "comment"):
            lines.setdefault(match.group(2), []).append(text.count("\n", 0, match.start()) + 1)
    return lines


def truth_alfolio(root: Path, until: dt.date, samples: set[str]) -> tuple:
    import pybtex.errors
    from pybtex.database import parse_string
    pybtex.errors.set_strict_mode(False)
    config = load_config(root, ("_config.yml",))
    files, words = shown_bib_files(root, config)
    shown, hidden, unasserted = [], [], []
    for name, years in files:
        path = root / "_bibliography" / name
        rel = path.relative_to(root).as_posix()
        if not path.is_file():
            continue
        if rel in samples:
            hidden.append({"source": rel, "reason": "the template's own sample bibliography"})
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        try:
            data = parse_string(text, "bibtex")
        except Exception as error:  # pybtex's own PybtexSyntaxError and kin
            unasserted.append({"source": rel, "reason": f"pybtex: {error}"[:200]})
            continue
        lines = entry_lines(text)
        for key, entry in data.entries.items():
            source = f"{rel}:{(lines.get(key) or [0])[0]}"
            year = entry.fields.get("year")
            year = int(year) if year and year.strip().isdigit() else (year or None)
            if years is not None and str(year) not in years:
                hidden.append({"source": source, "reason": "not in the page's years: list"})
                continue
            venue = entry.fields.get("journal") or entry.fields.get("booktitle")
            venue = aas_journals().get(venue.strip("{} \\"), venue) if venue else venue
            shown.append(item(source, decode(entry.fields.get("title", "")),
                              bib_authors(entry), decode(venue) if venue else None, year,
                              bare_doi(entry.fields.get("doi")), key=key, type=entry.type))
    return shown, hidden, unasserted, words


# --- Hugo ----------------------------------------------------------------------------------

def hugo_profiles(root: Path) -> dict[str, str]:
    names = {}
    for path in sorted((root / "content").glob("**/authors/*/_index.md")):
        meta = load_front_matter(path) or {}
        shown = meta.get("title") or meta.get("name")
        if shown:
            names[path.parent.name.lower()] = plain(shown)
    return names


def hugo_authors(meta: dict, profiles: dict[str, str]) -> list[str] | None:
    names = meta.get("authors")
    if not isinstance(names, list) or not names:
        return None
    return [profiles.get(str(n).strip().lower().replace(" ", "-"), plain(n)) for n in names]


def hugo_hidden(meta: dict, until: dt.date) -> str | None:
    if meta.get("draft") is True:
        return "draft"
    date = as_date(meta.get("publishdate") or meta.get("date"))
    if date and date > until:
        return "dated after the commit"
    expiry = as_date(meta.get("expirydate"))
    if expiry and expiry < until:
        return "expired"
    return None


def hugo_publication_files(root: Path) -> list[Path]:
    files = []
    for section in ("publication", "publications"):
        base = root / "content" / section
        for path in sorted(base.rglob("*.md")) if base.is_dir() else []:
            index = sorted(path.parent.glob("index*.md"))
            in_bundle = any(LANGUAGE_SUFFIX.match(p.name) or p.name == "index.md"
                            for p in index) and path.parent != base
            if path.name != "_index.md" and (path.name.startswith("index.") or not in_bundle):
                files.append(path)
    return files


def markdown_text(text) -> str | None:
    """A Markdown line as its reader sees it: links as their text, emphasis marks out."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", str(text))
    text = re.sub(r"(?<!\w)[*_]+|[*_]+(?!\w)", "", text)
    return plain(text) or None


HUGO_CONFIGS = ("config/_default/config.yaml", "config/_default/config.toml",
                "config/_default/hugo.yaml", "config/_default/hugo.toml", "config.toml",
                "config.yaml", "hugo.toml", "hugo.yaml")
LANGUAGE_SUFFIX = re.compile(r"^(.+)\.([a-z]{2,3}(?:[-_][a-z0-9]{2,4})?)\.md$", re.I)


def translation_of(path: Path, language: str) -> Path | None:
    """The page in the site's language of which `path` (x.zh.md) is another language's
    version: Hugo shows one page per language, the same paper."""
    found = LANGUAGE_SUFFIX.match(path.name)
    if not found or found.group(2).lower() == language.lower():
        return None
    stem = found.group(1)
    for name in (f"{stem}.{language}.md", f"{stem}.md"):
        if (path.parent / name).is_file():
            return path.parent / name
    return None


def truth_hugo(root: Path, until: dt.date, samples: set[str]) -> tuple:
    profiles = hugo_profiles(root)
    shown, hidden, unasserted = [], [], []
    config = {str(k).lower(): v for k, v in load_config(root, HUGO_CONFIGS).items()}
    language = str(config.get("defaultcontentlanguage") or "en")
    for path in hugo_publication_files(root):
        rel = path.relative_to(root).as_posix()
        main = translation_of(path, language)
        if main is not None:
            hidden.append({"source": f"{rel}:1", "reason": "the same page in another "
                           f"language ({main.relative_to(root).as_posix()})"})
            continue
        meta = load_front_matter(path)
        if meta is None:
            unasserted.append({"source": rel, "reason": "front matter that YAML/TOML refuses"})
            continue
        meta = {str(k).lower(): v for k, v in meta.items()}
        reason = "the template's own sample (same blob)" if rel in samples else \
            hugo_hidden(meta, until)
        if reason:
            hidden.append({"source": f"{rel}:1", "reason": reason})
            continue
        if not meta.get("title"):
            unasserted.append({"source": rel, "reason": "no title"})
            continue
        venue = meta.get("publication")
        venue = markdown_text(venue) if venue else None
        shown.append(item(f"{rel}:1", meta["title"], hugo_authors(meta, profiles), venue,
                          year_of(meta.get("date")), bare_doi(meta.get("doi"))))
    return shown, hidden, unasserted, "pages below content/publication(s)/"


# --- the site ----------------------------------------------------------------------------

READERS = {"academicpages": truth_academicpages, "al-folio": truth_alfolio, "hugo": truth_hugo}


def read_truth(root: Path, kind: str, commit_date: str, samples: set[str]) -> tuple[list, dict]:
    until = dt.date.fromisoformat(commit_date[:10])
    shown, hidden, unasserted, page = READERS[kind](root, until, samples)
    from corpus_describe import owner_name  # a plain name, read as the truth is
    meta = {"owner": owner_name(root, kind), "publications_page": page,
            "hidden_publications": hidden, "unasserted": unasserted,
            "truth_read_by": "PyYAML, tomllib, pybtex (scripts/corpus_truth.py)"}
    return shown, meta

