"""Real LaTeX over exported BibTeX: pdflatex with classic bibtex (plain, plainnat, ieeetr,
alpha, acm) and biblatex with biber (checking the entries against its data model), as a colleague compiles a paper that cites the site's entries.
Used by tests/test_latex_exports.py; each run is a few seconds, so tests compile a few
files, not hundreds."""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

CLASSIC_STYLES = ("plain", "plainnat", "ieeetr", "alpha", "acm")
TOOLS = ("pdflatex", "bibtex", "biber")
PACKAGES = ("natbib.sty", "etoolbox.sty", "biblatex.sty")


def find_latex() -> bool:
    """Whether the tools and the LaTeX packages the runs need are installed."""
    if not all(shutil.which(tool) for tool in (*TOOLS, "kpsewhich")):
        return False
    found = subprocess.run(["kpsewhich", *PACKAGES], capture_output=True, text=True)
    return len(found.stdout.split()) == len(PACKAGES)


HAVE_LATEX = find_latex()
# pdflatex has no glyphs for Chinese without CJK packages: each such character is declared
# as a placeholder, so that what is tested is bibtex's output, not the font.
_WIDE = re.compile(r"[\u2e80-\U0002ffff]")
_LATEX_ERROR = re.compile(r"^! .*$", re.MULTILINE)


@dataclass(frozen=True)
class Compiled:
    errors: tuple[str, ...]  # LaTeX's '! ...' lines, bibtex's and biber's error lines
    bbl: str  # the bibliography as the style wrote it ('' when none was written)
    warnings: tuple[str, ...] = ()  # bibtex's 'Warning--' lines, biber's 'WARN' lines


def preamble(bib: str, style: str) -> str:
    wide = sorted(set(_WIDE.findall(bib)))
    declared = "".join(f"\\DeclareUnicodeCharacter{{{ord(c):04X}}}{{?}}\n" for c in wide)
    packages = "\\usepackage[T1]{fontenc}\n\\usepackage[utf8]{inputenc}\n" + declared
    if style == "biblatex":
        return packages + "\\usepackage[backend=biber]{biblatex}\n\\addbibresource{refs.bib}\n"
    if style == "plainnat":
        packages += "\\usepackage{natbib}\n"
    return packages


def document(bib: str, style: str) -> str:
    end = "\\printbibliography\n" if style == "biblatex" else \
        f"\\bibliographystyle{{{style}}}\n\\bibliography{{refs}}\n"
    return (f"\\documentclass{{article}}\n{preamble(bib, style)}\\begin{{document}}\n"
            f"\\nocite{{*}}\n{end}\\end{{document}}\n")


def run(folder: Path, *command: str) -> str:
    proc = subprocess.run(command, cwd=folder, capture_output=True, timeout=120)
    return proc.stdout.decode("utf-8", "replace") + proc.stderr.decode("utf-8", "replace")


def compile_bib(bib: str, style: str, folder: Path) -> Compiled:
    """`bib` cited whole by a document in `style` (one of CLASSIC_STYLES or 'biblatex'),
    compiled in `folder`: the errors every tool reported, the .bbl, and the warnings."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "refs.bib").write_text(bib, encoding="utf-8")
    (folder / "doc.tex").write_text(document(bib, style), encoding="utf-8")
    latex = ("pdflatex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex")
    errors = []
    run(folder, *latex)
    if style == "biblatex":
        out = run(folder, "biber", "--validate-datamodel", "doc")
        errors += [line for line in out.splitlines() if line.startswith("ERROR")]
        warnings = [line for line in out.splitlines() if line.startswith("WARN")]
    else:
        out = run(folder, "bibtex", "doc")
        errors += [line for line in out.splitlines()
                   if "error message" in line or line.startswith("I was expecting")]
        warnings = [line for line in out.splitlines() if line.startswith("Warning--")]
    run(folder, *latex)
    log = (folder / "doc.log").read_text(encoding="utf-8", errors="replace")
    errors += _LATEX_ERROR.findall(log)
    bbl = folder / "doc.bbl"
    data = bbl.read_bytes() if bbl.is_file() else b""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        errors.append(f"doc.bbl is not UTF-8: {error}")
        text = data.decode("utf-8", "replace")
    return Compiled(tuple(errors), text, tuple(warnings))
