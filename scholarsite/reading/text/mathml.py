"""TeX to MathML, when the site is built: no script, no request.

latex2mathml converts each formula; the TeX is kept beside it in an `<annotation>`, so
that the plain-text forms of a text (feeds, descriptions, search) show the TeX
(`math_to_tex`). Markdown's math (mathtex.py) and titles' math (latex.py) come here.
"""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as etree
from functools import lru_cache

TEX = "application/x-tex"
# latex2mathml writes characters as numeric references in its elements' text.
_CHAR_REF = re.compile(r"&(?!#x[0-9A-Fa-f]+;)")
# A command latex2mathml did not know, or a lone backslash it left (`\\^{}`).
_COMMAND = re.compile(r"\\(?:[A-Za-z]+|.|$)")
_MATH = re.compile(r"<math\b[^>]*>.*?</math>", re.DOTALL)
_ANNOTATION = re.compile(r'<annotation encoding="application/x-tex">(.*?)</annotation>',
                         re.DOTALL)
# Attributes of latex2mathml's output that are dropped: a link from TeX (\href) would
# bypass the checks Markdown links get, and \style would put a writer's CSS on the page.
_DROPPED = {"href", "style", "xmlns"}
# latex2mathml takes about 20 ms a kilobyte: a formula longer than this is shown as TeX.
MAX_TEX = 10_000


@lru_cache(maxsize=4096)
def render_mathml(tex: str, display: bool) -> tuple[str, str]:
    """(MathML, '') for `tex`, or ('', why it cannot be converted). The same TeX always
    gives the same MathML, so a formula met again is not converted again."""
    if len(tex) > MAX_TEX:
        return "", f"longer than {MAX_TEX:,} characters"
    # Imported here: loading latex2mathml takes a tenth of a second, which a site
    # without math should not pay in every process.
    from latex2mathml.converter import convert_to_element
    try:
        element = convert_to_element(tex, display="block" if display else "inline")
    except RecursionError:
        return "", "nests too deeply to convert"
    except Exception as error:  # noqa: BLE001 - latex2mathml raises many kinds on bad TeX
        return "", (type(error).__name__ if not str(error) else str(error)).strip()
    unknown = [text for node in element.iter() for text in _COMMAND.findall(node.text or "")]
    if unknown:
        return "", f"unknown command {unknown[0]}"
    return write_math(element, tex, display), ""


def write_math(element: etree.Element, tex: str, display: bool) -> str:
    """`<math>` with the presentation and its TeX side by side in `<semantics>`."""
    inner = "".join(write_element(child) for child in element)
    if len(element) != 1:
        inner = f"<mrow>{inner}</mrow>"
    shown = ' display="block"' if display else ""
    return (f'<math{shown}><semantics>{inner}<annotation encoding="{TEX}">'
            f"{html.escape(tex, quote=False)}</annotation></semantics></math>")


def write_element(element: etree.Element) -> str:
    """An element as HTML: text escaped except latex2mathml's character references."""
    attrs = "".join(f' {name}="{html.escape(value)}"' for name, value in element.items()
                    if name not in _DROPPED)
    inner = escape_text(element.text) + "".join(write_element(child) for child in element)
    return f"<{element.tag}{attrs}>{inner}</{element.tag}>" + escape_text(element.tail)


def escape_text(text: str | None) -> str:
    if not text:
        return ""
    return _CHAR_REF.sub("&amp;", text).replace("<", "&lt;").replace(">", "&gt;")


def math_to_tex(fragment: str) -> str:
    """An HTML fragment with each `<math>` replaced by its TeX (still escaped), for the
    plain-text forms of a text."""
    if "<math" not in fragment:
        return fragment
    return _MATH.sub(show_tex, fragment)


def show_tex(found: re.Match) -> str:
    """A formula as its TeX between the dollars a writer would type."""
    mark = "$$" if found.group().startswith('<math display="block"') else "$"
    return mark + " ".join(_ANNOTATION.findall(found.group())) + mark


def annotation_tex(math: str) -> str:
    """The TeX a `<math>` element was made from (unescaped)."""
    return html.unescape(" ".join(_ANNOTATION.findall(math)))
