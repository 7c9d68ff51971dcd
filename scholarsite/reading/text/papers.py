"""Reading papers from Markdown files: YAML front matter, and the abstract as the body.

Also the field checks every paper shares, whatever its source (BibTeX uses them too).
"""

from __future__ import annotations

import html
import posixpath
import re
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from ...diagnostics import Diagnostics
from ..slugs import check_file_slug
from ..settings.fields import FieldReader, check_declared, parse_status, read_status
from ..settings.langconfig import read_language
from ...structure.languages import parse_language
from ...models.forms import PAPER_FIELDS, field_names
from ...models import LINK_KINDS, PAPER_TYPES, TOPIC_SEPARATOR, Author, Link, Paper, Preview
from .codeblocks import highlight_code
from .deadlinks import warn_dead_links
from .cleantext import strip_inline_html
from ..bib.latex import RichText, describe_math_problem, read_math_text, text_to_rich
from .mathml import annotation_tex
from .prose import find_costly_markdown, render_prose
from ...structure.urls import check_link, normalize_arxiv, normalize_doi
from .morelinks import read_more_links
from ..names import NameParts, make_author, split_author
from ..settings.yamlread import read_front_matter

if TYPE_CHECKING:  # the converter itself is imported when a text first needs it
    import markdown

ET_AL = ("et al.", "et al", "others", "and others")
# The types that may name an institution or an arXiv id instead of a venue.
VENUELESS_TYPES = ("preprint", "report", "thesis", "patent", "other")
# BibTeX types that may have no year (a web page): shown with none, as Markdown imported.
UNDATED_TYPES = ("misc", "unpublished", "online", "electronic", "preprint")

_PAPER_FIELD_NAMES = field_names(PAPER_FIELDS)
_TAG = re.compile(r"<[^>]+>")
# Tags that end a line or a block of text: a word break in plain text.
_BLOCK_TAG = re.compile(r"</?(?:p|div|li|br|h[1-6]|pre|tr|td|th|blockquote|ul|ol|table|hr"
                        r"|dt|dd|figure|figcaption|math)\b[^>]*>", re.IGNORECASE)
_MATH = re.compile(r"<math\b[^>]*>.*?</math>", re.DOTALL)


class Converter:
    """Python-Markdown for the texts that need more than the fast path, made the first
    time one does (mdconvert.py), then kept: one per build, reset between documents
    (creating one is the slow part). With `root_links`, for text shown at several depths
    (mdconvert.RootLinks); with `contents`, headings get ids and a table of contents."""

    def __init__(self, root_links: bool = False, contents: bool = False) -> None:
        self.root_links, self.contents = root_links, contents
        self.made: markdown.Markdown | None = None

    def get(self) -> markdown.Markdown:
        if self.made is None:
            from .mdconvert import new_markdown

            self.made = new_markdown(self.root_links, self.contents)
        return self.made


def make_markdown(root_links: bool = False) -> Converter:
    """The converter of abstracts and other texts of one kind (see Converter)."""
    return Converter(root_links)


def render_markdown(md: Converter, text: str,
                    report: Callable[..., None] | None = None) -> str:
    """`text` as HTML: plain prose by the fast path, anything else by Python-Markdown.
    A refused link is given to `report` with its line in `text` (1 for the first), and
    so is text Markdown would take too long over (prose.find_costly_markdown): that is ''.
    Math that cannot be converted and code in an unknown language are given to it as
    warnings: `report(line, message, True)`."""
    if report is not None:
        warn_dead_links(text, report)
    html = render_prose(text)
    if html is not None:
        return html
    costly = find_costly_markdown(text)
    if costly is None:
        try:
            return convert_markdown(md.get(), text, report)
        except RecursionError:  # a shape of nesting the measures do not know
            costly = (1, "this text nests too deeply for Markdown to read: flatten it")
    if report is not None:
        report(*costly)
    return ""


def convert_markdown(md: markdown.Markdown, text: str,
                     report: Callable[..., None] | None) -> str:
    md.reset()
    md.refused = []
    md.math_problems = []
    out = md.convert(text).strip()
    if report is None:
        return highlight_code(out, text)
    for found, problem in md.refused:  # a link or an attribute the text may not have
        report(text[:max(text.find(found), 0)].count("\n") + 1, problem)
    for tex, problem in md.math_problems:
        report(text[:max(text.find(tex), 0)].count("\n") + 1,
               f"the math '{shorten_tex(tex)}' cannot be converted to MathML ({problem}): "
               "it is shown as TeX", True)
    return highlight_code(out, text, lambda line, message: report(line, message, True))


def shorten_tex(tex: str) -> str:
    return tex if len(tex) <= 60 else tex[:57] + "..."


def report_at(diags: Diagnostics, path: Path, text: str, body: str
              ) -> Callable[..., None]:
    """A reporter of problems in `body`, the end of the file `text`, by line in the file:
    `report(line, message)` an error, `report(line, message, True)` a warning."""
    start = text[:len(text) - len(body)].count("\n")
    return lambda line, message, warning=False: (diags.warning if warning else diags.error)(
        path, start + line, message)


def html_to_text(fragment: str) -> str:
    """Plain text of an HTML fragment, whitespace folded (for descriptions, feeds, RIS and
    search): the reader's text, math in Unicode where it can be ('x²'), code as written
    (highlighting's spans are not word breaks; blocks are)."""
    text = _TAG.sub("", _BLOCK_TAG.sub(" ", math_as_text(fragment)))
    return " ".join(html.unescape(text).split())


def math_as_text(fragment: str) -> str:
    """HTML with each formula's MathML replaced by its text, in Unicode where it can be
    ('x²'), else its TeX: for readers that show no MathML (feed readers drop it, or run
    its pieces together, and feed validators flag it), the text a reader would say."""
    if "<math" not in fragment:
        return fragment
    return _MATH.sub(lambda m: html.escape(read_math_text(annotation_tex(m.group())),
                                           quote=False), fragment)


def read_authors(names: tuple[str, ...]) -> tuple[tuple[Author, ...], bool, list[int]]:
    """Authors, whether the list ends in 'et al.', and the indexes of unusable names."""
    more = False
    if names and names[-1].lower() in ET_AL:
        names, more = names[:-1], True
    authors, bad = [], []
    for i, raw in enumerate(names):
        author = split_author(raw)
        if not author.name:
            bad.append(i)
            continue
        authors.append(author)
    return tuple(authors), more, bad


def split_author_line(f: FieldReader, value: str) -> tuple[str, ...]:
    """`authors: Ada Lovelace, Charles Babbage` (one line of text, not a list) read as the
    names it lists, with a warning; never one person with a comma in the name. A line whose
    parts are not all full names ('Lovelace, Ada') cannot be split with confidence: an
    error that shows the list to write. () when the line is one name."""
    parts = [" ".join(p.split()) for p in re.split(r",|;|\s+and\s+", value.strip())]
    parts = [p for p in parts if p]
    if len(parts) < 2:
        return ()
    listed = ", ".join(parts)
    if any(len(p.split()) < 2 and p.lower() not in ET_AL for p in parts):
        f.error(("authors",), "'authors' is one line of text, not a list, and it is not clear "
                "where one name ends: write a list of names, given name first, as "
                "'authors: [Ada Lovelace, Charles Babbage]' (or one '- name' line each)")
        return ()
    f.warning(("authors",), f"'authors' is one line of text, not a list: read as "
              f"{len(parts)} authors ({'; '.join(parts)}); write it as a list to say so: "
              f"'authors: [{listed}]'")
    return tuple(parts)


def read_author_field(f: FieldReader, key: str = "authors"
                      ) -> tuple[tuple[Author, ...], bool]:
    """`authors` (or `editors`): a list of names ('Wei Gao*'). An item may instead be a
    mapping {name, family, given, suffix}, for a name that reading/names.py would split
    otherwise ('Barnes and Noble, Inc.', '王小明'), as `import-bib` writes them."""
    value, one = f.raw(key), key[:-1]
    if not (isinstance(value, list) and any(isinstance(item, dict) for item in value)):
        names = split_author_line(f, value) if isinstance(value, str) and key == "authors" \
            else ()
        names = names or f.text_list(key, required=key == "authors")
        authors, more, bad = read_authors(names)
        for i in bad:
            f.error((key, i), f"{one} {i + 1} has no name, only markers")
        if names and not authors:
            f.error((key,), f"'{key}' lists no {one} by name")
        return authors, more
    authors = []
    more = isinstance(value[-1], str) and value[-1].strip().lower() in ET_AL
    for i, item in enumerate(value[:-1] if more else value):
        if isinstance(item, dict):
            sub = FieldReader(f.doc, f.path, f.diags, (key, i), item, f"{one} field")
            author = split_author(sub.line_text("name", required=True))
            parts = NameParts(*(sub.line_text(part) for part in ("family", "given", "suffix")))
            if parts.family:  # what the file declares wins over what the name suggests
                author = make_author(author.name, author.marks, parts)
            sub.check_unknown()
        elif isinstance(item, str):
            author = split_author(" ".join(item.split()))
        else:
            f.error((key, i), f"item {i + 1} of '{key}' must be a name, or a mapping "
                    "with 'name', 'family' and 'given'")
            continue
        if not author.name:
            f.error((key, i), f"{one} {i + 1} has no name")
            continue
        authors.append(author)
    return tuple(authors), more


def read_bibtex_fields(f: FieldReader) -> tuple[tuple[str, str], ...]:
    """`extra`: BibTeX fields kept as written (import-bib puts a paper's entry there)."""
    extra = f.mapping("extra")
    return tuple((str(name), extra.line_text(str(name))) for name in list(extra.data))


def read_title(f: FieldReader, title: str) -> RichText:
    """The title's math as in the text (MathML on pages, Unicode elsewhere), as BibTeX's."""
    rich = text_to_rich(title)
    for tex, problem in rich.problems:
        f.warning(("title",), describe_math_problem(tex, problem))
    return rich


def read_links(reader: FieldReader) -> tuple[Link, ...]:
    """The `links` mapping: each URL checked, DOIs and arXiv ids turned into URLs."""
    values = {kind: reader.line_text(kind) for kind in LINK_KINDS}
    more = read_more_links(reader)
    reader.check_unknown()  # `pdff:` would be lost without a word
    return make_links(values, lambda kind, message: reader.error((kind,), message)) + more


def make_links(values: dict[str, str], report: Callable[[str, str], object]
               ) -> tuple[Link, ...]:
    """The links of `values` (kind -> what the source gives), in the order pages show
    them, each checked (urls.check_link); `report(kind, message)` says why one is left
    out."""
    links = []
    for kind in LINK_KINDS:
        if not values.get(kind):
            continue
        url, problem = check_link(kind, values[kind])
        if problem:
            report(kind, f"link '{kind}' {problem}")
            continue
        links.append(Link(kind, url))
    return tuple(links)


def read_topics(f: FieldReader) -> tuple[str, ...]:
    topics = f.text_list("topics")
    if any(TOPIC_SEPARATOR in topic for topic in topics):
        f.error(("topics",), f"a topic cannot hold '{TOPIC_SEPARATOR}': the publication "
                "filters join a paper's topics with it")
    return topics


def check_preview_name(value: str) -> tuple[str, str]:
    """(name, problem) of a preview picture's name as a source writes it: 'files/REL'
    or a bare name (al-folio's), which views/looks.py looks up in content/files/. Only
    the name is judged here: whether the file is there, and a picture, is asked once the
    site is read, as content/files/ changes apart from the paper."""
    name = value.strip().replace("\\", "/")
    if "://" in name or name.startswith(("//", "data:")):
        return "", (f"{value!r} is a web address; a preview must be a picture in "
                    "content/files/, which is resized for the pages")
    name = posixpath.normpath(name.lstrip("/"))
    if name in (".", "..", "files") or name.startswith("../"):
        return "", f"{value!r} names no file in content/files/"
    return name, ""


def read_preview(f: FieldReader, paper: dict) -> Preview | None:
    """`preview`: a picture in content/files/ shown beside the paper. al-folio's field,
    which import-bib keeps under `extra`, is read the same way when there is none; a
    paper imported from BibTeX follows BibTeX, where a bad one is a warning."""
    key = ("preview",) if f.has("preview") else ("extra", "preview")
    value = f.line_text("preview") or dict(paper["extra"]).get("preview", "")
    if not value:
        return None
    name, problem = check_preview_name(value)
    if problem and paper["bibtex_type"]:
        f.warning(key, f"'preview' {problem}; it is left out")
    elif problem:
        f.error(key, f"'preview' {problem}")
    return None if problem else Preview(name, f.line(*key))


def read_paper_details(f: FieldReader, bibtex_type: str) -> dict:
    """The optional fields that are read as they are written."""
    return dict(
        venue_short=f.line_text("venue_short"),
        location=f.line_text("location"),
        tier=f.line_text("tier"),
        category=f.line_text("category"),
        topics=read_topics(f),
        citation=f.line_text("citation"),
        selected=f.boolean("selected"),
        award=f.line_text("award"),
        note=f.line_text("note"),
        pages=f.line_text("pages"),
        publisher=f.line_text("publisher"),
        isbn=f.line_text("isbn"),
        editors=read_author_field(f, "editors")[0],
        bibtex_type=bibtex_type,
        bibtex_key=f.line_text("bibtex_key"),
        extra=read_bibtex_fields(f),
    )


def read_translations(f: FieldReader, md: Converter, own: str
                      ) -> tuple[tuple[str, str, str, str, str], ...]:
    """`translations: {zh: {title: ..., abstract: ...}}`: the paper's title and abstract
    (Markdown) in other languages than its own (`own`, '' when it names none), shown on
    the site's pages in those languages: (tag, title as text, as HTML, abstract as HTML,
    as text). A title's math is read as the paper's own title's is."""
    out = []
    for tag in sorted(str(key) for key in f.data):
        one = f.mapping(tag)
        title, abstract = one.line_text("title"), one.text("abstract")
        one.check_unknown()
        if parse_language(tag) is None or tag.casefold() == own.casefold():
            f.error((tag,), f"'translations' has {tag!r}, the paper's own language: "
                    "its title and text are written in it" if parse_language(tag) else
                    f"'translations' has {tag!r}, which is not a language tag (such as zh, de, ja)")
            continue
        start = one.line("abstract")
        html = render_markdown(md, abstract, lambda line, message, warning=False: (
            f.diags.warning if warning else f.diags.error)(f.path, start + line - 1, message)) \
            if abstract else ""
        rich = read_title(one, title) if title else None
        out.append((tag, rich.text if rich else "", rich.html if rich else "", html,
                    html_to_text(html)))
    return tuple(out)


def read_markdown_paper(path: Path, text: str, md: Converter,
                        diags: Diagnostics) -> Paper | None:
    """One paper from its Markdown file; None (with diagnostics) when it cannot be built."""
    slug = path.stem
    check_file_slug(path, "my-paper-2024.md", diags)
    read = read_front_matter(text, path, diags)
    if read is None:
        return None
    doc, body = read
    before = len(diags.errors())
    f = FieldReader(doc, path, diags)
    title = f.line_text("title", required=True)
    authors, more = read_author_field(f)
    status = read_status(f)
    undated = bool(status) or f.line_text("bibtex_type").lower() in UNDATED_TYPES
    date = None if parse_status(f.raw("date")) else f.date("date", required=not undated)
    volume = f.line_text("volume")
    number = f.line_text("number")
    ptype = f.choice("type", PAPER_TYPES, "journal" if volume or number else "conference")
    venue = " ".join(strip_inline_html(f.line_text("venue")).split())  # a venue is text
    institution = f.line_text("institution")
    links = read_links(f.mapping("links"))
    arxiv = next((normalize_arxiv(link.url) for link in links if link.kind == "arxiv"), "")
    doi = next((normalize_doi(link.url) for link in links if link.kind == "doi"), "")
    bibtex_type = f.line_text("bibtex_type")
    if not venue and not (ptype in VENUELESS_TYPES and (institution or arxiv)):
        # A paper imported from BibTeX follows BibTeX, where an empty venue is a warning.
        report = f.warning if bibtex_type else f.error
        report(("venue",) if f.has("venue") else (),
               "missing required field 'venue' (a preprint or report may give "
               "'institution' or an arXiv link instead)")
    paper = read_paper_details(f, bibtex_type)
    paper["preview"] = read_preview(f, paper)
    paper["language"] = read_language(f)
    paper["translations"] = read_translations(f.mapping("translations"), md, paper["language"])
    check_declared(f, _PAPER_FIELD_NAMES, "PAPER_FIELDS")
    f.check_unknown()
    if len(diags.errors()) > before or not (date or undated) or not title or not authors:
        return None
    abstract_html = render_markdown(md, body, report_at(diags, path, text, body)) \
        if body.strip() else ""
    title = read_title(f, title)
    return Paper(slug=slug, title=title.text, title_html=title.html, authors=authors,
                 date=date, type=ptype, source=path, line=1, venue=venue, links=links,
                 more_authors=more, volume=volume, number=number, institution=institution,
                 doi=doi, arxiv=arxiv,
                 abstract_html=abstract_html, abstract_text=html_to_text(abstract_html),
                 status=status, **paper)
