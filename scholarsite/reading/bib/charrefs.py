"""HTML character references in BibTeX values (`ViT-P&#58; ...`, `M&uuml;ller`): some
owners write them where a colon or an accent upset their tools, and the old page, being
HTML, showed the character. Each is read as its character, written as LaTeX writes it
where LaTeX gives the character a meaning (`&#36;` is `\\$`, a dollar, no formula), so that
the rest of the reader takes it as the character itself."""

from __future__ import annotations

import html
import re

_REFERENCE = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
# LaTeX's special characters, as a BibTeX value writes them to mean the characters.
_LATEX_SPECIAL = {"&": "\\&", "%": "\\%", "$": "\\$", "#": "\\#", "_": "\\_", "{": "\\{",
                  "}": "\\}", "\\": "\\textbackslash{}", "~": "\\textasciitilde{}",
                  "^": "\\textasciicircum{}"}


def decode_references(value: str) -> str:
    """`value` with each numeric or named character reference as its character; a name
    HTML does not know (`R&D;`) stays as written."""
    if "&" not in value:
        return value
    return _REFERENCE.sub(lambda m: "".join(_LATEX_SPECIAL.get(c, c)
                                            for c in html.unescape(m.group())), value)
