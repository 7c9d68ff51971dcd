"""The rows of a table of venue tiers written as text, tier<TAB>name<TAB>other names: a
user's own (content/tiers/*.tsv, tiertables.py) and the shipped list of Chinese journals
(data/ccf_zh_2019.tsv, cjknames.py) are read alike."""

from __future__ import annotations

from pathlib import Path

from ...diagnostics import Diagnostics
from ...models import TierRow

MAX_TIER = 40  # characters: a tier is a badge, not a sentence


def read_tsv(text: str, path: Path, diags: Diagnostics) -> tuple[TierRow, ...]:
    """Rows of tier<TAB>name<TAB>other names...; blank lines and '#' lines are skipped."""
    rows = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        tier, *names = (" ".join(part.split()) for part in line.split("\t"))
        names = [name for name in names if name]
        problem = check_tier(tier) or ("" if names else "no venue name after the tier: a "
                                       "row is the tier, a tab, then the venue's names, "
                                       "tab-separated")
        if problem:
            diags.error(path, number, problem)
        else:
            rows.append(TierRow(tier, tuple(names), number))
    return tuple(rows)


def check_tier(tier: str) -> str:
    """What is wrong with a tier as a table writes it; '' when nothing."""
    if not tier.strip():
        return "the tier is empty: a row starts with its tier (such as A*), then a tab"
    if len(tier) > MAX_TIER:
        return (f"the tier {tier[:MAX_TIER]!r}... is longer than {MAX_TIER} characters: is "
                "a tab missing between the tier and the venue's name?")
    return ""
