"""Files that are not UTF-8: the exports of Windows programs, read as they were saved.

A reference manager or Google Scholar's export saved on Windows is often in the system's
legacy encoding; such a file's papers are kept, read as its bytes suggest, with a warning
that shows a word as read and says how to save the file as UTF-8.
"""

from __future__ import annotations

import re
from pathlib import Path

from ...diagnostics import Diagnostics

_PUNCTUATION = '{}",;=()'  # BibTeX's, around the word the warning shows
# Three bytes in a row above ASCII: two or more characters of a legacy Chinese, Japanese or
# Korean encoding (two bytes each); Western text seldom has three accented letters in a row.
_EAST_ASIAN_BYTES = re.compile(rb"[\x80-\xff]{3}")
# What a .bib that is not UTF-8 is read as: the encodings exports are saved in on Windows.
LEGACY_ENCODINGS = {"gb18030": "GB18030 (Chinese, as CNKI and Windows save it)",
                    "cp1252": "Windows-1252 (Western European, as Google Scholar's export "
                              "saved on Windows is)"}


def decode_legacy(data: bytes, start: int, path: Path, line: int, diags: Diagnostics
                  ) -> str | None:
    """An exported file that is not UTF-8, read as the encoding its bytes suggest (GB18030
    where they run as Chinese, Japanese or Korean do, else Windows-1252, whose five
    undefined bytes are read as Latin-1's): its papers are kept, with a warning that shows
    a word as read, so that a file in yet another encoding, read wrongly, is seen. None
    when it cannot be read so either."""
    codec = "gb18030" if _EAST_ASIAN_BYTES.search(data) else "cp1252"
    try:
        text = data.decode(codec, errors="strict" if codec == "gb18030" else "surrogateescape")
    except UnicodeDecodeError:
        return None
    text = re.sub("[\udc80-\udcff]", lambda m: chr(ord(m.group()) - 0xDC00), text)
    at = len(data[:start].decode(codec, errors="replace"))  # where the first such byte is
    word = re.search(r"\S*$", text[:at]).group() + re.match(r"\S*", text[at:]).group()
    word = word.strip(_PUNCTUATION)[:40]
    diags.warning(path, line, f"the file is not UTF-8 text: read as {LEGACY_ENCODINGS[codec]}, "
                  f"which makes this line's '{word}'; if that is right, save the file as UTF-8 "
                  "to keep it so (in most editors: File > Save with Encoding > UTF-8); if not, "
                  "export it again as UTF-8")
    return text
