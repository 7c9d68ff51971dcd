"""Citations per year as inline SVG, drawn at build time from citations.yaml's `by_year`.

No script and no request: the chart is part of the page. Its colours are `currentColor`,
which the style sheet sets from the theme's variables, so it follows light and dark mode.
Screen readers get its name and its figures from <title> and <desc> (role="img"); the
same counts give the same bytes, as every number is written with a fixed precision.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

from markupsafe import Markup, escape

from ..models import CitationCount


@dataclass(frozen=True)
class Frame:
    """A chart's measures, in SVG user units."""

    bar: int  # a bar's width
    gap: int  # the space between two bars
    plot: int  # the tallest bar's height
    top: int  # room above the bars (for their counts)
    bottom: int  # room below them (for the years)
    labels: bool  # whether counts and years are written on the chart
    font: int = 11  # their size


SITE_FRAME = Frame(bar=28, gap=8, plot=110, top=16, bottom=18, labels=True)
PAPER_FRAME = Frame(bar=6, gap=2, plot=20, top=2, bottom=2, labels=False)
# Years written under the bars: at most this many, so that they never overlap.
MAX_YEAR_LABELS = 12


def sum_by_year(counts: Iterable[CitationCount]) -> tuple[tuple[int, int], ...]:
    """The citations of all the papers, year by year (a year without any is a bar of 0,
    not left out: the time axis stays true)."""
    totals: dict[int, int] = {}
    for count in counts:
        for year, cited in count.by_year:
            totals[year] = totals.get(year, 0) + cited
    return fill_years(tuple(sorted(totals.items()))) if totals else ()


def fill_years(pairs: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    """The pairs with every year between the first and the last, 0 where none is given."""
    given = dict(pairs)
    return tuple((year, given.get(year, 0)) for year in range(pairs[0][0], pairs[-1][0] + 1))


def format_number(value: float) -> str:
    """A coordinate with two decimals at most, without trailing zeros: the same every build."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return text if text != "-0" else "0"


def list_figures(pairs: tuple[tuple[int, int], ...], gettext: Callable[[str], str]) -> str:
    """'2023: 4, 2024: 0, 2025: 9': the chart's figures, for its <desc>, a bar each."""
    return ", ".join(gettext("%(year)s: %(count)s") % {"year": year, "count": count}
                     for year, count in fill_years(pairs))


def draw_chart(pairs: tuple[tuple[int, int], ...], frame: Frame, name: str, title: str,
               desc: str) -> Markup:
    """An <svg> of one bar per (year, count); `name` makes its ids unique on the page."""
    pairs = fill_years(pairs)
    tallest = max(count for _, count in pairs) or 1
    step = frame.bar + frame.gap
    width, base = len(pairs) * step - frame.gap, frame.top + frame.plot
    height = base + frame.bottom
    every = -(-len(pairs) // MAX_YEAR_LABELS)  # a year label on every n-th bar
    shapes = []
    for at, (year, count) in enumerate(pairs):
        x, tall = at * step, count * frame.plot / tallest
        shapes.append(f'<rect x="{x}" y="{format_number(base - tall)}" width="{frame.bar}" '
                      f'height="{format_number(tall)}"/>')
        if frame.labels:
            middle = format_number(x + frame.bar / 2)
            shapes.append(f'<text x="{middle}" y="{format_number(base - tall - 3)}">'
                          f'{count}</text>')
            if (len(pairs) - 1 - at) % every == 0:  # the last year always
                shapes.append(f'<text class="year" x="{middle}" y="{height - 3}">{year}'
                              '</text>')
    return Markup(
        f'<svg class="chart-{name}" xmlns="http://www.w3.org/2000/svg" role="img" '
        f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'aria-labelledby="{name}-title {name}-desc" fill="currentColor" '
        f'font-size="{frame.font}" text-anchor="middle">'
        f'<title id="{name}-title">{escape(title)}</title>'
        f'<desc id="{name}-desc">{escape(desc)}</desc>{"".join(shapes)}</svg>')
