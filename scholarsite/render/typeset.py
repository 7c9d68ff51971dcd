"""The CV's files: a PDF typeset by Typst from the theme's cv.typ (or the site's own),
and the JSON Resume export (views/resume.py).

The data is views/cvpdf.py's, passed as one JSON text in `sys.inputs`: the template reads
it with `json(...)` and places each value as text, so no content is ever Typst source.
The PDF is kept in the build's store of generated files (output/generated.py) by a hash of
all it is made from (the data, the template, the Typst version, the date), so a build in
which nothing of the CV changed does not typeset it again, and `serve` copies it into
the site like any generated file. Its creation date is the newest date the CV shows: the
same content gives the same bytes.

A PDF that the site's own template, or a missing `typst`, cannot make does not stop the
build: the site is written without it, with a warning that says why at the template's line
or cv.yaml's (an error under --strict). One the theme's template cannot make is an error at
the CV's file: the owner has no template line to fix, and a CV quietly missing is worse.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
import zlib
from pathlib import Path
from typing import Sequence

from ..diagnostics import Diagnostics
from ..models import CV, Site, SiteConfig
from ..output.generated import remove_unused, store_files
from ..output.paths import read_regular
from ..views.cvpdf import CVFiles, cv_pdf_path, list_shown_texts, make_cv_data, newest_date
from ..views.resume import RESUME_PATH, make_resume_json
from .layers import find_theme, is_same_folder

TEMPLATE = "cv.typ"
RESUME_NAME = Path(RESUME_PATH).name
CV_STORE = "cv"  # below the build's store of generated files
STORE_FORMAT = "1"  # what a stored set holds: changed, no older set is used
WARNINGS_FILE = "warnings.json"  # the warnings typesetting gave, told again on a stored PDF
# Where a Typst message points: '┌─ path:line:column'.
SPAN = re.compile(r"┌─ (?P<path>.+?):(?P<line>\d+):\d+")
# The template lists fonts for every system; those a machine lacks are not the user's doing.
IGNORED_WARNINGS = ("unknown font family",)
MISSING_FILE = "missing.txt"  # the characters no font had, each on a line
# A font's map of the glyphs a PDF shows to the text they stand for (`<0001> <0048>`):
# a character that no font has is drawn as no glyph of any of them.
STREAM = re.compile(rb"stream\r?\n")
BFCHAR = re.compile(rb"beginbfchar(.*?)endbfchar", re.S)
BFRANGE = re.compile(rb"beginbfrange(.*?)endbfrange", re.S)
CMAP_PAIR = re.compile(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>")
CMAP_RANGE = re.compile(rb"<([0-9A-Fa-f]{1,4})>\s*<([0-9A-Fa-f]{1,4})>\s*<([0-9A-Fa-f]{1,4})>")


class TypesetError(Exception):
    """Typst refused the template: (path, line, message)."""


def find_template(layers: Sequence[Path]) -> Path | None:
    """The site's own cv.typ over the theme's."""
    return next((folder / TEMPLATE for folder in layers if (folder / TEMPLATE).is_file()),
                None)


def make_cv_files(site: Site, layers: Sequence[Path], store: Path, diags: Diagnostics
                  ) -> CVFiles | None:
    """The CV's files for a site with a cv.yaml (its PDF, its JSON Resume), each made or
    found in `store`; a PDF that cannot be made is left out, saying why (typeset_cv)."""
    cv = site.cv
    if cv is None:
        return None
    folder = store / CV_STORE
    text = make_resume_json(site, cv)
    key = hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]
    resume = store_files(folder, key, lambda: {RESUME_NAME: text.encode("utf-8")})
    copies = {RESUME_PATH: resume[RESUME_NAME]}
    made = typeset_cv(site, cv, layers, folder, diags)
    remove_unused(folder, keep={folder / key, *([made.parent] if made else [])})
    if made is None:
        return CVFiles(tuple(copies.items()))
    copies[cv_pdf_path(site)] = made
    return CVFiles(tuple(sorted(copies.items())), cv_pdf_path(site), made.stat().st_size)


def typeset_cv(site: Site, cv: CV, layers: Sequence[Path], folder: Path, diags: Diagnostics
               ) -> Path | None:
    """Where `folder` keeps the CV's PDF, typeset now or found there; None, with a
    problem saying why (report_refused), when it cannot be made."""
    template = find_template(layers)
    if template is None:
        diags.warning(cv.source, cv.pdf.line, f"the CV's PDF was not made: no {TEMPLATE} in "
                      "the templates' folders")
        return None
    try:
        import typst
    except ImportError:
        diags.warning(cv.source, cv.pdf.line, "the CV's PDF was not made: the 'typst' "
                      "package is not installed (python3 -m pip install typst)")
        return None
    data = json.dumps(make_cv_data(site, cv), ensure_ascii=False)
    date = newest_date(site)
    stamp = dt.datetime(*map(int, date.full().split("-")), tzinfo=dt.timezone.utc) \
        if date else dt.datetime(1980, 1, 1, tzinfo=dt.timezone.utc)
    name = Path(cv_pdf_path(site)).name
    chars = "".join(sorted({c for text, _, _ in list_shown_texts(site, cv) for c in text
                            if not c.isspace()}))
    key = hashlib.sha256("\0".join([STORE_FORMAT, name, data, stamp.isoformat(), chars,
                                    typst_version(typst)]).encode("utf-8")
                         + read_regular(template)).hexdigest()[:20]
    try:
        stored = store_files(folder, key, lambda: compile_cv(typst, template, data, stamp,
                                                            name, chars))
    except TypesetError as exc:
        report_refused(template, cv, site.config, exc.args, diags)
        return None
    report_warnings(stored[WARNINGS_FILE], diags)
    report_missing(stored[MISSING_FILE], site, diags)
    return stored[name]


def report_refused(template: Path, cv: CV, config: SiteConfig,
                   problem: tuple[Path, int, str], diags: Diagnostics) -> None:
    """Typst refused to make the PDF from `template`. A site's own template is the
    owner's to fix: a warning at its line. The theme's is not (a line in the package
    would tell the owner nothing they can change): an error at the CV's file, which
    asked for a CV the theme cannot make."""
    path, line, message = problem
    theme = find_theme()
    if theme is None or not is_same_folder(template.parent, theme):
        diags.warning(path, line, f"the CV's PDF was not made: {message}")
        return
    which = f"the CV's PDF in {config.language}" if config.languages else "the CV's PDF"
    diags.error(cv.source, cv.pdf.line, f"{which} cannot be made by the theme's "
                f"{TEMPLATE}: Typst says {message}")


def typst_version(typst) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("typst")
    except PackageNotFoundError:
        return getattr(typst, "__version__", "")


def compile_cv(typst, template: Path, data: str, stamp: dt.datetime, name: str, chars: str
               ) -> dict[str, bytes]:
    """The PDF, the warnings typesetting gave (as `path:line:message` triples) and which
    of `chars` (those the PDF shows) no font had, by file name; TypesetError for a
    template Typst refuses."""
    try:
        pdf, warnings = typst.compile_with_warnings(
            str(template), root=str(template.parent), sys_inputs={"data": data},
            timestamp=stamp, format="pdf")
    except typst.TypstError as exc:
        raise TypesetError(*locate(exc, template)) from None
    except Exception as exc:  # noqa: BLE001 - Typst's own failure, told without its insides
        raise TypesetError(template, 0, f"Typst failed ({type(exc).__name__}: {exc})") from None
    found = [[str(path), line, message] for path, line, message in
             (locate(warning, template) for warning in warnings)
             if not message.startswith(IGNORED_WARNINGS)]
    missing = "".join(sorted(set(chars) - list_printed(pdf)))
    return {name: pdf, WARNINGS_FILE: json.dumps(found).encode("utf-8"),
            MISSING_FILE: missing.encode("utf-8")}


def locate(problem, template: Path) -> tuple[Path, int, str]:
    """(path, line, message) of a Typst error or warning: the line its span points at, in
    the file it names when that is there (an import of the template's), else the template."""
    message = " ".join(str(getattr(problem, "message", problem)).split())
    hints = [" ".join(str(h).split()) for h in getattr(problem, "hints", None) or []]
    if hints:
        message += " (" + "; ".join(hints) + ")"
    match = SPAN.search(str(getattr(problem, "diagnostic", "")))
    if match is None:
        return template, 0, message
    named = Path(match["path"])
    for path in (named, template.parent / named):
        if path.is_file() and path.name != "":
            return (template if path.resolve() == template.resolve() else path), \
                int(match["line"]), message
    return template, int(match["line"]), message


def report_warnings(stored: Path, diags: Diagnostics) -> None:
    """The warnings typesetting gave, each at its line, every build that uses the PDF."""
    try:
        found = json.loads(read_regular(stored).decode("utf-8"))
    except (OSError, ValueError):
        return
    for path, line, message in found:
        diags.warning(path, line, f"in the CV's PDF: {message}")



def list_printed(pdf: bytes) -> set[str]:
    """Every character some font of the PDF draws: its fonts' maps to Unicode, read."""
    printed: set[str] = set()
    for match in STREAM.finditer(pdf):
        try:  # what follows the stream's end is left over, not an error
            data = zlib.decompressobj().decompress(memoryview(pdf)[match.end():])
        except zlib.error:
            continue
        if b"begincmap" not in data:
            continue
        for block in BFCHAR.findall(data):
            for _, text in CMAP_PAIR.findall(block):
                printed.update(bytes.fromhex(text.decode()).decode("utf-16-be", "replace"))
        for block in BFRANGE.findall(data):
            for first, last, text in CMAP_RANGE.findall(block):
                start, count = int(text, 16), int(last, 16) - int(first, 16) + 1
                printed.update(chr(start + i) for i in range(min(count, 0x10000)))
    return printed


def report_missing(stored: Path, site: Site, diags: Diagnostics) -> None:
    """A warning at each line that wrote a character no font has (it prints as nothing,
    or as an empty box), saying which."""
    missing = set(read_regular(stored).decode("utf-8"))
    if not missing or site.cv is None:
        return
    told: set = set()
    for text, path, line in list_shown_texts(site, site.cv):
        chars = sorted(set(text) & missing)
        if chars and (path, line, *chars) not in told:
            told.add((path, line, *chars))
            names = ", ".join(f"'{c}' (U+{ord(c):04X})" for c in chars)
            diags.warning(path, line, f"no font has {names}, so the CV's PDF cannot show "
                          "it; install a font that has it (on Debian, fonts-noto-core or "
                          "fonts-noto-cjk)")
