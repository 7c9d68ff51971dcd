"""Jupyter notebooks as posts (content/posts/x.ipynb), rendered when the site is built.

nbformat reads and validates the file; nbconvert's pieces do what they are made for
(streams merged, ANSI colours taken out of tracebacks, HTML outputs sanitised), and the
rest is the site's own: Markdown cells through the site's Markdown converter (math as
MathML), code highlighted as fenced code is (text/codeblocks.py). Nothing is run.

A notebook's Markdown cells are the owner's text, trusted as a Markdown post is; its
outputs are what code and libraries printed, so they are outside text: plain text is
escaped, HTML (a data frame's table) keeps only the elements of a table and of text,
pictures are published as files beside the page (an SVG shown as <img>, in which no
script runs), and widgets or JavaScript are left out. Each output is capped
(MAX_OUTPUT_CHARS, MAX_PICTURE_BYTES, MAX_OUTPUTS), with a note saying so, so that a
notebook of 50 MB does not make a page of 50 MB.

Front matter is the notebook's `metadata.scholarsite` or a sibling x.yaml; without a
title there, the first Markdown cell's leading `# heading` is the title (and is not
shown twice).
"""

from __future__ import annotations

import base64
import binascii
import html
import io
import json
import re
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ..diagnostics import Diagnostics
from .pictures import PictureError, open_picture
from .settings.yamlread import Located, decode_text, parse_yaml, read_bytes, read_text
from .text.cleantext import clean_text
from .text.codeblocks import highlight_code
from .text.papers import Converter, render_markdown

NOTEBOOK_SUFFIX = ".ipynb"
INSTALL_HINT = "pip install 'scholarsite[notebooks]'"
# A notebook holds its pictures as base64, so it may be far larger than a Markdown file;
# what reaches the page is capped output by output below.
MAX_NOTEBOOK_BYTES = 64 * 2**20
MAX_OUTPUT_CHARS = 20_000  # of one text or HTML output
MAX_PICTURE_BYTES = 4 * 2**20  # of one picture
MAX_OUTPUTS = 20  # of one code cell
PICTURES = {"image/png": "png", "image/jpeg": "jpg", "image/svg+xml": "svg"}
# An HTML output keeps a table's elements and those of text, no attribute but a cell's
# span: no class of the site's, no style, no link, no handler.
HTML_TAGS = ["table", "thead", "tbody", "tfoot", "tr", "th", "td", "caption", "colgroup",
             "col", "p", "br", "b", "i", "em", "strong", "code", "pre", "sub", "sup", "span",
             "div", "ul", "ol", "li"]
HTML_ATTRIBUTES = {"th": ["colspan", "rowspan"], "td": ["colspan", "rowspan"]}
_SCRIPT_OR_STYLE = re.compile(r"<(script|style)\b.*?</\1\s*>", re.DOTALL | re.IGNORECASE)
_EMPTY_HEADER = re.compile(r"<th((?: [^>]*)?)>\s*</th>")
_TITLE = re.compile(r"\A\s*#[ \t]+(.+?)[ \t#]*(?:\n|\Z)")


@dataclass(frozen=True)
class Notebook:
    """What a notebook gives its post: front matter, the rendered cells (links from the
    site's root carry ROOT_MARKER), the title its first heading gives, and the pictures
    published beside the page, by file name."""

    front: Located
    body_html: str
    title: str
    files: tuple[tuple[str, bytes], ...]


def read_notebook(path: Path, page_url: str, md: Converter, diags: Diagnostics
                  ) -> Notebook | None:
    """The notebook at `path`, whose page is at `page_url` (ROOT_MARKER + 'posts/x/');
    None, with an error at the file, when it cannot be read or nbformat is missing."""
    try:
        import nbformat  # noqa: F401  (the extra's two packages, checked together)
        import nbconvert  # noqa: F401
    except ImportError:
        diags.error(path, 0, "this is a Jupyter notebook, and reading one needs nbformat and "
                    f"nbconvert, which are not installed: {INSTALL_HINT}")
        return None
    data = read_bytes(path, diags, limit=MAX_NOTEBOOK_BYTES)
    text = decode_text(data, path, diags) if data is not None else None
    nb = parse_notebook(text, path, diags) if text is not None else None
    front = read_front(path, text, nb, diags) if nb is not None else None
    if front is None:
        return None
    title = "" if isinstance(front.data, dict) and front.data.get("title") else \
        take_title(nb)
    made = NotebookHtml(page_url, md, path, diags, language_of(nb))
    return Notebook(front, made.render(nb.cells), title, tuple(made.files))


def parse_notebook(text: str, path: Path, diags: Diagnostics):
    """The notebook as nbformat's version 4, validated; None after an error at its line."""
    import nbformat
    try:
        with warnings.catch_warnings():  # a cell without an id, as older Jupyter wrote
            warnings.simplefilter("ignore")
            nb = nbformat.reads(text, as_version=4)
            nbformat.validate(nb)
    except nbformat.reader.NotJSONError:
        try:
            json.loads(text)  # again, for the line of the mistake
        except json.JSONDecodeError as exc:
            diags.error(path, exc.lineno, f"this notebook is not JSON: {exc.msg}; save it "
                        "again from Jupyter, or mend the file")
            return None
        raise
    except (nbformat.ValidationError, ValueError, KeyError, AttributeError, TypeError) as exc:
        first = str(getattr(exc, "message", "") or exc).strip().split("\n")[0][:200]
        diags.error(path, 0, f"this is not a notebook nbformat can read ({first}); save it "
                    "again from Jupyter")
        return None
    return nb


def read_front(path: Path, text: str, nb, diags: Diagnostics) -> Located | None:
    """The post's fields: a sibling x.yaml when there is one, else the notebook's
    `metadata.scholarsite` (its lines those of the key in the file), else none."""
    sibling = path.with_suffix(".yaml")
    if sibling.is_file():
        yaml_text = read_text(sibling, diags)
        return parse_yaml(yaml_text, sibling, 1, diags) if yaml_text is not None else None
    fields = nb.metadata.get("scholarsite")
    if fields is None:
        return Located({}, None, 1)
    found = re.search(r'^\s*"scholarsite"\s*:', text, re.MULTILINE)
    line = text.count("\n", 0, found.start()) + 1 if found else 1
    # JSON is YAML: read with the same reader and checks as any front matter.
    return parse_yaml(json.dumps(fields, indent=1, ensure_ascii=False), path, line, diags)


def take_title(nb) -> str:
    """The first Markdown cell's leading `# heading`, taken out of the cell; '' if none."""
    cell = next((c for c in nb.cells if c.cell_type == "markdown"), None)
    found = _TITLE.match(cell.source) if cell is not None else None
    if found is None:
        return ""
    cell.source = cell.source[found.end():]
    return clean_text(found.group(1))[0]


def language_of(nb) -> str:
    """The code cells' language, for Pygments: the kernel's, Python when not said."""
    info = nb.metadata.get("language_info") or {}
    name = info.get("name") or (nb.metadata.get("kernelspec") or {}).get("language")
    return name if isinstance(name, str) and re.fullmatch(r"[\w+#-]+", name) else "python"


class NotebookHtml:
    """The cells of one notebook as HTML, and the pictures its outputs publish."""

    def __init__(self, page_url: str, md: Converter, path: Path, diags: Diagnostics,
                 language: str) -> None:
        self.page_url, self.md, self.path, self.diags = page_url, md, path, diags
        self.language = language
        self.files: list[tuple[str, bytes]] = []

    def render(self, cells) -> str:
        from nbconvert.preprocessors import CoalesceStreamsPreprocessor
        coalesce = CoalesceStreamsPreprocessor()
        parts = []
        for number, cell in enumerate(cells, 1):
            if cell.cell_type == "markdown":
                parts.append(self.render_markdown(cell, number))
            elif cell.cell_type == "code":
                coalesce.preprocess_cell(cell, {}, number)  # one block per run of prints
                parts.append(self.render_code(cell, number))
            # Raw cells are for other converters (LaTeX, reST): not shown.
        return "\n".join(part for part in parts if part)

    def render_markdown(self, cell, number: int) -> str:
        source = clean_text(cell.source)[0]
        if not source.strip():
            return ""
        report = self.reporter(number)
        return f'<div class="nb-cell nb-markdown">{render_markdown(self.md, source, report)}</div>'

    def reporter(self, number: int) -> Callable[..., None]:
        """Problems in a cell's Markdown, at the file, naming the cell."""
        def report(line: int, message: str, warning: bool = False) -> None:
            (self.diags.warning if warning else self.diags.error)(
                self.path, 0, f"cell {number}, line {line}: {message}")
        return report

    def render_code(self, cell, number: int) -> str:
        source = clean_text(cell.source)[0]
        code = highlight_code(f'<pre><code class="language-{self.language}">'
                              f'{html.escape(source, quote=False)}</code></pre>', "")
        outputs = [self.render_output(out, number, i)
                   for i, out in enumerate(cell.outputs[:MAX_OUTPUTS], 1)]
        if len(cell.outputs) > MAX_OUTPUTS:
            outputs.append(cut_note(f"{len(cell.outputs) - MAX_OUTPUTS} more outputs of "
                                    "this cell are"))
        shown = "".join(o for o in outputs if o)
        return (f'<div class="nb-cell nb-code">{code}'
                + (f'<div class="nb-outputs">{shown}</div>' if shown else "") + "</div>")

    def render_output(self, output, number: int, index: int) -> str:
        kind = output.output_type
        if kind == "stream":
            return text_block(output.text, f"nb-stream nb-{output.name}")
        if kind == "error":
            from nbconvert.filters import strip_ansi
            return text_block(strip_ansi("\n".join(output.traceback)), "nb-error")
        data = output.get("data", {})
        for mime, suffix in PICTURES.items():
            if mime in data:
                return self.publish_picture(data[mime], mime, f"cell{number}-{index}.{suffix}",
                                            plain_text(data.get("text/plain", "")))
        # A long table is cut as its text, which Jupyter gives beside it.
        if "text/html" in data and (len(data["text/html"]) <= MAX_OUTPUT_CHARS
                                    or "text/plain" not in data):
            return html_block(data["text/html"])
        if "text/plain" in data:
            return text_block(data["text/plain"], "nb-result")
        return ""  # widgets, JavaScript and the like need a kernel: left out

    def publish_picture(self, value, mime: str, name: str, alt: str) -> str:
        """An <img> of the picture, published as `name` beside the page."""
        data = (clean_svg(value) if mime == "image/svg+xml" else decode_base64(value))
        if data is None:
            return cut_note("a picture that cannot be read (not base64, or not XML) is")
        if len(data) > MAX_PICTURE_BYTES:
            return cut_note(f"a picture of {len(data) // 2**20} MB is")
        size = picture_size(data) if mime != "image/svg+xml" else None
        self.files.append((name, data))
        dims = f' width="{size[0]}" height="{size[1]}"' if size else ""
        alt = alt if alt and not alt.startswith("<") else "A figure the code made"
        return (f'<p class="nb-picture"><img src="{self.page_url}{name}" '
                f'alt="{html.escape(alt)}"{dims} loading="lazy"></p>')


# What may run or fetch when the file is opened by itself (no longer inside <img>):
# scripts, embedded documents, and animations, which can set a link's target.
SVG_DROPPED = {"script", "foreignObject", "iframe", "embed", "object", "handler", "set",
               "animate", "animateMotion", "animateTransform", "discard"}
SVG_NS = {"": "http://www.w3.org/2000/svg", "xlink": "http://www.w3.org/1999/xlink"}


def clean_svg(value) -> bytes | None:
    """An SVG output as a file the site may publish: parsed as XML (no entities, through
    defusedxml, which nbconvert brings), without SVG_DROPPED's elements, event handlers
    or links other than to a part of itself or to an embedded PNG or JPEG (matplotlib's
    pictures); None when it is not XML."""
    from xml.etree import ElementTree
    from defusedxml import DefusedXmlException
    from defusedxml.ElementTree import fromstring
    try:
        root = fromstring(value if isinstance(value, str) else "".join(value))
    except (ElementTree.ParseError, DefusedXmlException):
        return None
    for element in list(root.iter()):
        for child in [c for c in element if local_name(c.tag) in SVG_DROPPED]:
            element.remove(child)
        for key in [k for k, v in element.attrib.items() if not allowed_attribute(k, v)]:
            del element.attrib[key]
    for prefix, uri in SVG_NS.items():
        ElementTree.register_namespace(prefix, uri)
    return ElementTree.tostring(root, encoding="utf-8")


def local_name(name: str) -> str:
    return name.rpartition("}")[2] if isinstance(name, str) else ""


def allowed_attribute(key: str, value: str) -> bool:
    name = local_name(key).lower()
    if name.startswith("on"):
        return False
    if name == "href":
        return value.strip().startswith(("#", "data:image/png;", "data:image/jpeg;"))
    return True


def plain_text(value) -> str:
    return clean_text(value if isinstance(value, str) else "".join(value))[0].strip()


def decode_base64(value) -> bytes | None:
    try:
        return base64.b64decode("".join(value) if isinstance(value, list) else value)
    except (binascii.Error, ValueError):
        return None


def picture_size(data: bytes) -> tuple[int, int] | None:
    """A PNG's or JPEG's size, read by the guarded opener; None when it cannot be read."""
    try:
        with open_picture(io.BytesIO(data)) as opened:
            return opened.size
    except PictureError:
        return None


def cap_text(text: str) -> tuple[str, str]:
    """The text up to MAX_OUTPUT_CHARS, and a note of what was cut ('' when nothing)."""
    if len(text) <= MAX_OUTPUT_CHARS:
        return text, ""
    cut = len(text) - MAX_OUTPUT_CHARS
    return text[:MAX_OUTPUT_CHARS], cut_note(f"{cut:,} more characters of this output are")


def cut_note(what: str) -> str:
    return f'<p class="nb-cut">Cut here: {what} in the notebook.</p>'


def text_block(text: str, classes: str) -> str:
    """Text output, escaped, as the notebook shows it."""
    shown, note = cap_text(clean_text(text)[0])
    return f'<pre class="{classes}" tabindex="0">{html.escape(shown, quote=False)}</pre>{note}'


def html_block(value: str) -> str:
    """An HTML output (a data frame's table), through nbconvert's sanitiser: only the
    elements of HTML_TAGS are kept; a script's or a style's text goes with its element."""
    from nbconvert.preprocessors.sanitize import SanitizeHTML
    text = value if isinstance(value, str) else "".join(value)
    if len(text) > MAX_OUTPUT_CHARS:
        return text_block(text, "nb-result")  # cut HTML is no HTML: shown as its text
    cleaner = SanitizeHTML(tags=HTML_TAGS, attributes=HTML_ATTRIBUTES, strip=True)
    clean = cleaner.sanitize_html_tags(_SCRIPT_OR_STYLE.sub("", clean_text(text)[0]))
    # A data frame's corner (above its index) is an empty header, which names nothing to
    # a screen reader: an empty cell says so.
    clean = _EMPTY_HEADER.sub(r"<td\1></td>", clean)
    return f'<div class="nb-html">{clean}</div>'
