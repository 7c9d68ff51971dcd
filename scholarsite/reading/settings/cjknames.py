"""Chinese venue names, and the CCF list of Chinese-language journals that ranks them.

A Chinese name has no spaces between its words, so it cannot be compared as a set of words
the way venues.py compares English names (and folding it to ASCII would leave nothing, making
every Chinese name equal). It is compared as written instead, after the differences that do
not make another name: full-width and half-width forms (NFKC: "：" is ":"), spaces, the title
marks 《》 and other punctuation, digits (years, volumes) and case of any Latin letters.
"中国科学：信息科学", "《中国科学:信息科学》" and "中国科学 信息科学 2024" are one
name.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from typing import Iterator

from ...diagnostics import Diagnostics
from ...output.paths import read_regular
from .tierrows import read_tsv

ZH_FILE = Path(__file__).parent.parent.parent / "data" / "ccf_zh_2019.tsv"
ZH_EDITION = "CCF 2019 Chinese journals"

# Han ideographs (unified, extension A, compatibility), kana and Hangul: a Japanese or Korean
# name in a user's own table would fold to nothing in ASCII too.
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")


def has_cjk(text: str) -> bool:
    """Whether text holds Chinese (or Japanese, Korean) letters: compared by `normalize_cjk`."""
    return not text.isascii() and _CJK.search(text) is not None


def normalize_cjk(name: str) -> str:
    """The name's letters, in NFKC form and lower case: no spaces, punctuation or digits."""
    return "".join(char for char in unicodedata.normalize("NFKC", name).lower()
                   if char.isalpha())


def read_chinese_journals(path: Path = ZH_FILE) -> Iterator[tuple[str, str]]:
    """(rank, name) for every name of every row of class<TAB>name<TAB>other names...,
    read as a user's table is (tierrows.py)."""
    rows = read_tsv(read_regular(path).decode("utf-8"), path, Diagnostics())
    yield from ((row.tier, name) for row in rows for name in row.names)
