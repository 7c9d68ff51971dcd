"""Venue badges take a colour per venue: the theme's table (scholarsite/data/venue_colours.tsv)
for the CCF list's venues, and site.yaml's `theme.venue_colors`, which adds or changes
venues, each held to WCAG AA as `theme.accent` is; through the command line and the built
pages."""

from __future__ import annotations

import re

import pytest

from conftest import MINIMAL_CONFIG, ROOT, build_args, paper, run_cli, soup
from test_theme_look import DARK_BACKGROUNDS, contrast

TABLE = ROOT / "scholarsite" / "data" / "venue_colours.tsv"
CCF = ROOT / "scholarsite" / "data" / "ccf_2026.tsv"


def read_table() -> dict[str, str]:
    rows = [line.split("\t") for line in TABLE.read_text(encoding="utf-8").splitlines()
            if line and not line.startswith("#")]
    return {short: colour for short, colour in rows}


def badge_colours(page) -> dict[str, dict[str, str]]:
    """venue short name -> its badge's custom properties ({} for a plain badge)."""
    return {badge.get_text(): dict(re.findall(r"(--venue[a-z-]*):([^;]+)", badge.get("style", "")))
            for badge in soup(page).select(".venue-badge")}


def site_with(make_site, theme: str = "", shorts=("OSDI", "NeurIPS", "CoE")):
    files = {f"publications/p{i}.md": paper(f"Paper {i}", f"202{i}-01", venue_short=short)
             for i, short in enumerate(shorts)}
    return make_site({"site.yaml": MINIMAL_CONFIG + theme, **files,
                      "publications/a-paper.md": None})


def test_every_colour_in_the_table_keeps_white_text_readable():
    table = read_table()
    assert len(table) > 100
    weak = {short: colour for short, colour in table.items() if contrast(colour, "#ffffff") < 4.5}
    assert weak == {}


def test_the_table_colours_the_ccf_lists_a_venues():
    keys = {re.sub(r"[\W_]+", "", s.casefold()) for s in read_table()}
    a_venues = [line.split("\t")[1] for line in CCF.read_text(encoding="utf-8").splitlines()
                if line.startswith("A\t") and line.split("\t")[1]]
    missing = [v for v in a_venues if re.sub(r"[\W_]+", "", v.casefold()) not in keys]
    assert missing == []


def test_known_venues_are_coloured_and_others_keep_the_plain_badge(make_site):
    content = site_with(make_site)
    result = run_cli(*build_args(content))
    assert result.code == 0, result.err
    badges = badge_colours(content.parent / "site" / "publications" / "index.html")
    table = read_table()
    assert badges["OSDI"]["--venue"] == table["OSDI"]
    assert badges["NeurIPS"]["--venue"] == table["NeurIPS"]
    assert badges["CoE"] == {}
    for props in (badges["OSDI"], badges["NeurIPS"]):
        assert min(contrast(props["--venue-dark"], bg) for bg in DARK_BACKGROUNDS) >= 4.5


def test_site_yaml_adds_and_changes_venues_and_darkens_a_faint_one(make_site):
    theme = 'theme:\n  venue_colors:\n    CoE: "#2a7a3a"\n    osdi: gold\n'
    content = site_with(make_site, theme)
    result = run_cli(*build_args(content))
    assert result.code == 0, result.err
    badges = badge_colours(content.parent / "site" / "publications" / "index.html")
    assert badges["CoE"]["--venue"] == "#2a7a3a"  # readable as written: kept, no warning
    gold = badges["OSDI"]["--venue"]  # matched whatever its case; darkened, and said so
    assert gold != "#ffd700" and contrast(gold, "#ffffff") >= 4.5
    warnings = [line for line in result.err.splitlines() if ": warning: " in line]
    assert len(warnings) == 1
    assert "site.yaml:10: warning: 'theme.venue_colors.osdi' gold" in warnings[0]
    assert gold in warnings[0]


@pytest.mark.parametrize("value, message", [
    ("not-a-colour", "'theme.venue_colors.OSDI' is not an opaque CSS colour"),
    ("", "'theme.venue_colors.OSDI' is empty"),
])
def test_a_bad_venue_colour_is_an_error_at_its_line(make_site, value, message):
    content = site_with(make_site, f"theme:\n  venue_colors:\n    OSDI: {value}\n")
    result = run_cli(*build_args(content))
    assert result.code == 1
    assert f"site.yaml:9: error: {message}" in result.err, result.err
    assert "Traceback" not in result.err
