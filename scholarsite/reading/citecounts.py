"""content/citations.yaml: each paper's citation count, as `update` fetched it.

The build never asks the network: `update` writes the counts into this file and the build
reads them as it reads any content, only when site.yaml sets `citations`. The file is
keyed by paper slug:

    my-paper-2024:
      count: 12
      source: openalex
      id: W4385245566
      fetched: 2026-12-03
      by_year: {2023: 4, 2024: 8}   # optional: OpenAlex's counts_by_year, for the charts
"""

from __future__ import annotations

import os
from pathlib import Path

from ..diagnostics import Diagnostics
from .settings.fields import FieldReader
from ..models import CitationCount
from .settings.yamlread import parse_yaml, read_text

COUNTS_FILE = "citations.yaml"
CITATION_SOURCES = ("openalex", "semantic-scholar")
MIN_YEAR, MAX_YEAR = 1900, 2200  # the years a `by_year` may name


def read_counts(path: Path, diags: Diagnostics) -> tuple[CitationCount, ...]:
    """The counts by slug, sorted; none when the file is not there (no update has run)."""
    if not os.path.lexists(path):
        return ()
    text = read_text(path, diags)
    doc = parse_yaml(text, path, 1, diags) if text is not None else None
    if doc is None:
        return ()
    top = FieldReader(doc, path, diags, what="paper")
    counts = []
    for slug in sorted(str(key) for key in top.data):
        entry = top.mapping(slug)
        entry.what = "field"
        count = entry.raw("count")
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            entry.error(("count",) if entry.has("count") else (),
                        f"'{slug}.count' must be a whole number of citations; found {count!r}")
            continue
        source = entry.choice("source", CITATION_SOURCES, "")
        work_id = entry.line_text("id", required=True)
        fetched = entry.date("fetched", required=True)
        by_year = read_by_year(entry.mapping("by_year"), slug)
        entry.check_unknown()
        if source and work_id and fetched is not None:
            counts.append(CitationCount(slug, count, source, work_id, fetched.iso(),
                                        top.line(slug), by_year))
    return tuple(counts)


def read_by_year(years: FieldReader, slug: str) -> tuple[tuple[int, int], ...]:
    """`by_year`: year -> the citations the paper had that year, oldest year first. A bad
    pair is an error at its line: a chart drawn from it would tell a wrong story."""
    pairs = []
    for year, count in years.data.items():
        if isinstance(year, bool) or not isinstance(year, int) or not MIN_YEAR <= year <= MAX_YEAR:
            years.error((year,), f"'{slug}.by_year' must name years from {MIN_YEAR} to "
                        f"{MAX_YEAR}; found {year!r}")
        elif isinstance(count, bool) or not isinstance(count, int) or count < 0:
            years.error((year,), f"'{slug}.by_year.{year}' must be a whole number of "
                        f"citations; found {count!r}")
        else:
            pairs.append((year, count))
    return tuple(sorted(pairs))


def check_count_slugs(counts: tuple[CitationCount, ...], slugs: frozenset[str],
                      path: Path, diags: Diagnostics) -> None:
    """A count for no paper of the site: a paper renamed or removed since the update."""
    for count in counts:
        if count.slug not in slugs:
            diags.warning(path, count.line, f"citations for '{count.slug}', which is no "
                          "paper of this site; run update again, or remove the entry")
