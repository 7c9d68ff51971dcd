"""Astronomy's journal macros: NASA ADS exports a paper's journal as an AAS macro
(`journal = {\\apj}`), which aas_macros.sty defines for LaTeX and no web page knows. A
value that is one such macro alone is read as the journal it names
(scholarsite/data/aas_journals.tsv: the table, and its source)."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from ...output.paths import read_regular

TABLE = Path(__file__).parent.parent.parent / "data" / "aas_journals.tsv"
_ONE_MACRO = re.compile(r"^[\s{]*\\([A-Za-z]+)[\s{}]*$")  # '{\apj}', '\mnras', '{{\aj}}'


@lru_cache(maxsize=1)
def read_table() -> dict[str, str]:
    rows = (line.split("\t") for line in read_regular(TABLE).decode("utf-8").splitlines()
            if line and not line.startswith("#"))
    return {macro: name for macro, name in rows}


def expand_journal_macro(value: str) -> str:
    """The journal a value of one AAS macro names ('\\apjl' -> 'The Astrophysical Journal
    Letters'); '' for any other value."""
    found = _ONE_MACRO.match(value)
    return read_table().get(found.group(1), "") if found else ""
