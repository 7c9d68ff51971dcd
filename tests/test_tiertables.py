"""Venue tiers beyond CCF: site.yaml's `publications.venue_tiers` lists `ccf` and the
user's own tables (content/tiers/*.tsv or *.yaml), asked in turn; a bad row is an error at
its line, all of them at once."""

from __future__ import annotations

from conftest import MINIMAL_CONFIG, build_args, paper, run_cli, write_files

SCHOOL_YAML = """\
T1:
  - [Journal of Things, JoT]
  - Biology Letters
  - 计算机应用研究      # CCF-C in the shipped list: the school's list, asked first, wins
T2:
  - Nature Examples
  - 《中国计算机学会通讯》  # two Chinese names of two tiers: each keeps its own
"""
# A CORE-style export turned into a table: tier, full name, short name. Journal of Things
# is here too, as B: the school's list, asked first, decides it.
CORE_TSV = ("# From the user's own download of the CORE ranks\n"
            "A*\tInternational Conference on Software Engineering\tICSE\n"
            "A\tConference on Examples\tCoE\n\n"
            "B\tJournal of Things\n"
            "B\tICSE 2024\n")  # ICSE again, at another tier: a warning, and no tier from here
PAPERS = {  # slug: (venue, venue_short, extra front matter)
    "icse": ("Proceedings of the 46th International Conference on Software Engineering",
             "ICSE", ""),
    "things": ("Journal of Things", None, ""),
    "biology": ("biology letters", None, ""),
    "osdi": ("USENIX Symposium on Operating Systems Design and Implementation", "OSDI", ""),
    "examples": ("Conference on Examples", "CoE", ""),
    "unknown": ("Unknown Venue", None, ""),
    "own": ("Conference on Examples", "CoE", "tier: Q1\n"),
    "conflict": ("Conference on Examples", "ICSE", ""),  # two rows of two tiers: none
    "zh-school": ("计算机应用研究", None, ""),
    "zh-own": ("中国计算机学会通讯", None, ""),
}
EXPECTED = {"icse": "CCF-A", "things": "T1", "biology": "T1", "osdi": "CCF-A",
            "examples": "A", "unknown": "", "own": "Q1", "conflict": "", "zh-school": "T1",
            "zh-own": "T2"}
# Chinese journals in CCF's own list of them (2019), as papers name them: with or without
# 《》, full-width or half-width colon, spaces, or by the English title the journal prints.
CHINESE = {
    "jisuanji": ("计算机学报", "CCF-A"),
    "ruanjian": ("《软件学报》", "CCF-A"),
    # 软件学报's English title is another publisher's journal's too: no tier rather than a wrong one.
    "jos": ("Journal of Software", ""),
    "cjc": ("Chinese Journal of Computers", "CCF-A"),
    "scis": ('"中国科学 : 信息科学"', "CCF-A"),
    "scis-marks": ("《中国科学：信息科学》", "CCF-A"),
    "tuxiang": ("中国图像图形学报", "CCF-B"),  # as CCF's list spells 中国图象图形学报
    "jiaoyu": ("计算机教育, 2023", "CCF-C"),
    "jsep": ('"Journal of Software: Evolution and Process"', "CCF-B"),  # another journal
    "tongxun": ("中国计算机学会通讯", ""),  # CCF's own magazine, in neither list
    "chinese-unknown": ("某某大学学报", ""),
}


def shown_tier(html: str) -> str:
    marker = 'class="badge tier-badge">'
    return html.split(marker, 1)[1].split("<", 1)[0] if marker in html else ""


def test_tier_tables_are_asked_in_turn_and_bad_rows_are_errors(tmp_path):
    content = write_files(tmp_path / "content", {
        "site.yaml": MINIMAL_CONFIG + "  venue_tiers: [school.yaml, CCF, core.tsv]\n",
        "tiers/school.yaml": SCHOOL_YAML, "tiers/core.tsv": CORE_TSV,
        **{f"publications/{slug}.md": paper(f"Paper {slug}", venue=venue, venue_short=short,
                                            extra=extra)
           for slug, (venue, short, extra) in PAPERS.items()}})
    result = run_cli(*build_args(content))
    assert result.code == 0, result.err
    # tiers/ is read, not reported as left out; the one warning is the repeated venue.
    assert [line.split("/content/", 1)[-1] for line in result.err.splitlines()] == [
        "tiers/core.tsv:6: warning: 'ICSE 2024' is tier B here and A* at line 2: papers at "
        "this venue get no tier from this table until one of the rows goes"]
    site = tmp_path / "site"
    shown = {slug: shown_tier((site / "publications" / slug / "index.html")
                              .read_text(encoding="utf-8")) for slug in PAPERS}
    assert shown == EXPECTED
    listing = (site / "publications" / "index.html").read_text(encoding="utf-8")
    assert listing.count('class="badge tier-badge">T1<') == 3  # shown in the list like CCF's
    assert 'data-tier="A"' in listing and 'value="T1"' in listing  # and filtered by

    # Every bad row of every table, and every bad entry in site.yaml, at its line.
    write_files(content, {
        "site.yaml": MINIMAL_CONFIG + "  venue_tiers: [school.yaml, ccf, core.tsv, gone.tsv, "
                                      "3, ../site.yaml, ccf.csv]\n",
        "tiers/school.yaml": "T1:\n  - [Journal of Things, JoT]\n  - {a: 1}\nT2: Nature\n",
        "tiers/core.tsv": "A*\tICSE\n\tNo tier\nB\n" + "x" * 50 + "\tX\n"})
    result = run_cli(*build_args(content))
    assert result.code == 1 and "Traceback" not in result.err
    errors = [line.split(str(content) + "/", 1)[-1] for line in result.err.splitlines()
              if ": error: " in line]
    assert errors == [
        "tiers/school.yaml:3: error: venue 2 of tier 'T1' must be a name or a list of "
        "names; found {'a': 1}",
        "tiers/school.yaml:4: error: tier 'T2' must list its venues (- name, or - [name, "
        "short name]); found text",
        "tiers/core.tsv:2: error: the tier is empty: a row starts with its tier (such as "
        "A*), then a tab",
        "tiers/core.tsv:3: error: no venue name after the tier: a row is the tier, a tab, "
        "then the venue's names, tab-separated",
        f"tiers/core.tsv:4: error: the tier '{'x' * 40}'... is longer than 40 characters: "
        "is a tab missing between the tier and the venue's name?",
        "site.yaml:7: error: there is no table 'tiers/gone.tsv' in the content folder: put "
        "it in content/tiers/, or remove it from 'venue_tiers'",
        "site.yaml:7: error: 'venue_tiers' lists 'ccf' and tables in content/tiers/ (.tsv "
        "or .yaml files, such as school.tsv); found a number 3",
        "site.yaml:7: error: 'venue_tiers' lists 'ccf' and tables in content/tiers/ (.tsv "
        "or .yaml files, such as school.tsv); found '../site.yaml'",
        "site.yaml:7: error: 'venue_tiers' lists 'ccf' and tables in content/tiers/ (.tsv "
        "or .yaml files, such as school.tsv); found 'ccf.csv'",
    ], result.err
    assert (site / "publications" / "things" / "index.html").is_file()  # left as it was


def test_chinese_journals_ship_with_the_ccf_list(tmp_path):
    content = write_files(tmp_path / "content", {
        "site.yaml": MINIMAL_CONFIG,  # no venue_tiers: the shipped list, Chinese journals too
        **{f"publications/{slug}.md": paper(f"Paper {slug}", venue=venue, venue_short=None)
           for slug, (venue, _) in CHINESE.items()}})
    result = run_cli(*build_args(content))
    assert result.code == 0 and "warning" not in result.err, result.err
    site = tmp_path / "site"
    shown = {slug: shown_tier((site / "publications" / slug / "index.html")
                              .read_text(encoding="utf-8")) for slug in CHINESE}
    assert shown == {slug: tier for slug, (_, tier) in CHINESE.items()}
    listing = (site / "publications" / "index.html").read_text(encoding="utf-8")
    assert listing.count('class="badge tier-badge">CCF-A<') == 5
    assert listing.count('class="badge tier-badge">') == 8
