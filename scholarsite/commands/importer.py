"""`import-bib`: one Markdown file per BibTeX entry, for those who prefer editing files.

Each file holds everything the entry said: the fields the Markdown format knows in its front
matter, the abstract as the body, and the entry's BibTeX fields (as written) under `extra`
with `bibtex_type` and `bibtex_key`, so that building the imported files gives the same
papers as building the .bib file itself (the venue as the reader shows it, and its short
name as `venue_short`: reading/bib/bibvenue.py).
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

import yaml

from ..output.paths import why_not_write
from ..output.writer import replace_file
from ..reading.bib.bibpaper import KEPT_IN_EXTRA, find_short
from ..reading.bib.bibtex import read_bib_file
from ..reading.bib.latex import latex_to_markdown
from ..reading.listing import check_inside
from ..reading.names import split_author
from ..diagnostics import Diagnostic, Diagnostics, count_of
from ..models import Author, Paper
from ..models.forms import PAPER_FIELDS, PaperField
from ..reading.text.mdescape import escape_markdown, undo_references
from ..reading.text.papers import Converter, make_markdown, render_markdown

_HTML_PARAGRAPH = re.compile(r"<p>(.*?)</p>", re.DOTALL)


@dataclass(frozen=True)
class ImportResult:
    created: list[Path]
    skipped: list[Path]
    problems: list[Diagnostic]
    failed: bool


def import_bib(bib_path: Path, content_dir: Path, force: bool = False) -> ImportResult:
    """Write content_dir/publications/<slug>.md for every entry; existing files are kept
    unless `force`. Nothing is written when the .bib file has errors."""
    diags = Diagnostics(root=Path.cwd())
    papers = read_bib_file(bib_path, diags)
    if not content_dir.is_dir():
        diags.error(content_dir, 0, "content folder not found; pass --content DIR")
    if diags.has_errors():
        return ImportResult([], [], diags.items, True)
    folder = content_dir / "publications"
    if not check_inside(folder, content_dir, diags):  # a link out: never written through
        return ImportResult([], [], diags.items, True)
    created, skipped = [], []
    md = make_markdown()
    try:
        folder.mkdir(exist_ok=True)
        for paper in papers:
            target = folder / f"{paper.slug}.md"
            problem = why_not_write(target, content_dir)  # as every command decides it
            if target.is_symlink():
                diags.warning(target, 0, "this file is a link; import-bib never writes "
                              "through one, so it was left as it is")
                skipped.append(target)
            elif problem:
                diags.error(target, 0, problem)
                skipped.append(target)
            elif target.exists() and not force:
                skipped.append(target)
            else:
                replace_file(target, make_markdown_file(paper, md).encode("utf-8"))
                created.append(target)
    except OSError as exc:
        diags.error(exc.filename or folder, 0, f"cannot write: {exc.strerror or exc}")
        return ImportResult(created, skipped, diags.items, True)
    return ImportResult(created, skipped, diags.items, diags.has_errors())  # a refused path


def make_markdown_file(paper: Paper, md: Converter) -> str:
    return format_paper_file(front_matter(paper), abstract_markdown(paper.abstract_html, md))


def format_paper_file(doc: dict, body: str) -> str:
    """A paper file as `import-bib` and `add` write it: the front matter, then the body."""
    front = yaml.safe_dump(doc, allow_unicode=True, sort_keys=False, width=100,
                           default_flow_style=False)
    return f"---\n{front}---\n" + (f"\n{body}\n" if body else "")


def front_matter(paper: Paper) -> dict:
    """The paper as front matter: each field a BibTeX entry gives (models/forms.py's
    PAPER_FIELDS) that says something, in the table's order; a preview stays in `extra`."""
    doc: dict = {}
    for field in PAPER_FIELDS:
        if field.bibtex and field.name not in KEPT_IN_EXTRA:
            value = field_value(paper, field)
            if value:
                doc[field.name] = value
    return doc


def field_value(paper: Paper, field: PaperField) -> object:
    """One field as the Markdown reader reads it back to the same paper."""
    if field.name == "title":
        return front_matter_title(paper)
    if field.name == "authors":
        return [author_item(a) for a in paper.authors] + (["others"] if paper.more_authors else [])
    if field.name == "venue_short":  # '... Conference (ATC)' -> ATC
        return paper.venue_short or find_short(paper.venue)
    value = getattr(paper, field.name)
    if field.kind == "date":
        return value.iso() if value else None
    if field.kind == "authors":
        return [author_item(author) for author in value]
    if field.kind == "links":
        return {link.kind: link_value(paper, link.kind, link.url) for link in value}
    if field.kind in ("lines", "mapping"):
        return (list if field.kind == "lines" else dict)(value)
    return value


def front_matter_title(paper: Paper) -> str:
    """The title with its formulas as TeX, when it has any, as Markdown titles have them."""
    written = dict(paper.extra).get("title")
    if paper.title_html and isinstance(written, str):
        return latex_to_markdown(written)
    return paper.title


def author_item(author: Author) -> str | dict:
    """'Name*', or a mapping where the name alone would be read as other parts
    (reading/names.py: a corporate name, one in a script without spaces)."""
    name = author.name + "".join(author.marks)
    if split_author(name) == author:
        return name
    item = {"name": name, "family": author.family_name(), "given": author.given_names()}
    return {**item, "suffix": author.suffix} if author.suffix else item


def link_value(paper: Paper, kind: str, url: str) -> str:
    """DOIs and arXiv ids as identifiers: the reader makes the same address from them."""
    if kind == "doi" and paper.doi:
        return paper.doi
    if kind == "arxiv" and paper.arxiv:
        return paper.arxiv
    return url


def abstract_markdown(abstract_html: str, md: Converter) -> str:
    """The escaped paragraphs of a BibTeX abstract as Markdown that renders to the same HTML:
    entities stay entities, and what Markdown would read as markup is escaped as all outside
    text is (mdescape.py). The rare text no escape keeps the same (math, whose MathML is
    HTML) is written as the HTML paragraphs themselves, which Markdown passes through."""
    paragraphs = [escape_markdown(m.group(1)) for m in _HTML_PARAGRAPH.finditer(abstract_html)]
    markdown = "\n\n".join(paragraphs)
    if undo_references(render_markdown(md, markdown)) == abstract_html:
        return markdown
    return abstract_html


def print_result(result: ImportResult) -> int:
    for problem in result.problems:
        print(problem, file=sys.stderr)
    if result.failed:
        done = (f"Only {count_of(len(result.created), 'paper')} imported" if result.created
                else "Nothing was imported")
        print(f"{done}: fix the errors above and run import-bib again.", file=sys.stderr)
        return 1
    for path in result.created:
        print(f"created {path.as_posix()}")
    for path in result.skipped:
        print(f"skipped {path.as_posix()} (it exists; --force overwrites it)")
    print(f"Imported {count_of(len(result.created), 'paper')}, skipped {len(result.skipped)}.")
    return 0
