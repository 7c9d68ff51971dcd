"""Venue tiers from the CCF 2026 list: scholarsite/data/ccf_2026.tsv, real data, no mocks."""

from __future__ import annotations

from collections import Counter

import pytest

from scholarsite.reading.settings.venues import DATA_FILE, check_tier, lookup_tier, read_venues


def tier_of(dblp_path: str) -> str:
    """The table's own tier for the row with this dblp path (the path must name one row)."""
    (row,) = [v for v in read_venues() if v.dblp_path == dblp_path]
    return row.tier


# --- The data file ------------------------------------------------------------------------------


def test_data_file_has_the_2026_list() -> None:
    venues = read_venues()
    assert len(venues) == 686
    assert Counter(v.rank for v in venues) == {"A": 96, "B": 250, "C": 340}
    assert all(v.full_name for v in venues)


def test_data_file_names_edition_source_and_columns_and_is_sorted() -> None:
    lines = DATA_FILE.read_text(encoding="utf-8").splitlines()
    comments = [line for line in lines if line.startswith("#")]
    header = "\n".join(comments)
    assert lines[: len(comments)] == comments  # comments lead
    for needed in ("2026 edition", "CCFrank4dblp", "data/dataGen.js", "MIT", "rank", "abbr",
                   "full_name", "dblp_path"):
        assert needed in header
    rows = [line.split("\t") for line in lines[len(comments):]]
    assert all(len(row) == 4 for row in rows)
    key = [(r[0], r[2].casefold(), r[1].casefold(), r[3].casefold()) for r in rows]
    assert key == sorted(key)


# --- The seed venues ----------------------------------------------------------------------------

SEEDS = [
    ("USENIX Symposium on Operating Systems Design and Implementation", "OSDI", "CCF-A"),
    ("USENIX Symposium on Networked Systems Design and Implementation", "NSDI", "CCF-A"),
    (
        "ACM International Symposium on High-Performance Parallel and Distributed Computing",
        "HPDC",
        "CCF-A",
    ),
    ("IEEE Transactions on Computers", "TC", "CCF-A"),
    ("IEEE Transactions on Parallel and Distributed Systems", "TPDS", "CCF-A"),
    ("ACM International Conference on Supercomputing", "ICS", "CCF-B"),
    ("ACM Symposium on Cloud Computing", "SoCC", "CCF-B"),
    ("IEEE/CVF Conference on Computer Vision and Pattern Recognition", "CVPR", "CCF-A"),
    ("IEEE Transactions on Pattern Analysis and Machine Intelligence", "TPAMI", "CCF-A"),
    ("Annual Conference on Machine Learning and Systems", "MLSys", ""),  # not on the list
    ("21th ACM European Conference on Computer Systems (EuroSys)", "", "CCF-A"),
    ("IEEE Transactions on Cloud Computing", "TCC", "CCF-B"),
]


@pytest.mark.parametrize(("venue", "short", "expected"), SEEDS)
def test_seed_venues(venue: str, short: str, expected: str) -> None:
    assert lookup_tier(venue, short) == expected


def test_mlsys_is_not_on_the_list() -> None:
    assert not [
        v
        for v in read_venues()
        if "mlsys" in v.abbr.lower() or "Machine Learning and Systems" in v.full_name
    ]


def test_acm_computing_surveys_gets_what_the_table_says() -> None:
    # The 2026 list as tracked by CCFrank4dblp has no CSUR row: no tier.
    rows = [v for v in read_venues() if v.abbr == "CSUR" or v.full_name == "ACM Computing Surveys"]
    expected = rows[0].tier if rows else ""
    assert expected == ""
    assert lookup_tier("ACM Computing Surveys", "CSUR") == expected


def test_usenix_atc_gets_the_table_rank() -> None:
    # The table lists ATC as "ACM SIGOPS Annual Technical Conference" (dblp /conf/usenix).
    expected = tier_of("/conf/usenix")
    assert expected == "CCF-A"
    assert lookup_tier("2025 USENIX Annual Technical Conference (ATC)") == expected
    assert lookup_tier("USENIX Annual Technical Conference", "USENIX ATC") == expected


def test_tcc_is_decided_by_the_full_name() -> None:
    assert lookup_tier("IEEE Transactions on Cloud Computing", "TCC") == tier_of("/journals/tcc")
    assert lookup_tier("Theory of Cryptography Conference", "TCC") == tier_of("/conf/tcc")


def test_fse_is_decided_by_the_full_name() -> None:
    software_engineering, encryption = tier_of("/conf/sigsoft"), tier_of("/conf/fse")
    assert (software_engineering, encryption) == ("CCF-A", "CCF-B")
    current = "ACM International Conference on the Foundations of Software Engineering"
    assert lookup_tier(current, "FSE") == software_engineering
    assert lookup_tier("Fast Software Encryption", "FSE") == encryption
    # Older and joint names of the software engineering one still read as it.
    older = "ACM SIGSOFT International Symposium on Foundations of Software Engineering"
    assert lookup_tier(older, "FSE") == software_engineering
    joint = (
        "Proceedings of the 31st ACM Joint European Software Engineering Conference and "
        "Symposium on the Foundations of Software Engineering"
    )
    assert lookup_tier(joint, "ESEC/FSE") == software_engineering


@pytest.mark.parametrize(
    ("venue", "short"), [("", "FSE"), ("FSE", ""), ("FSE 2024", ""), ("", "WWW"), ("", "ASE")]
)
def test_a_shared_abbreviation_alone_gives_no_tier(venue: str, short: str) -> None:
    assert lookup_tier(venue, short) == ""


# --- dblp paths ---------------------------------------------------------------------------------


@pytest.mark.parametrize("dblp", [
    "/conf/osdi",
    "conf/osdi/",
    "https://dblp.org/db/conf/osdi/index.html",
    "https://dblp.org/db/conf/osdi/osdi2024.html",
    "https://dblp.org/rec/conf/osdi/ZhangX24.html",
    "DBLP:conf/osdi/ZhangX24",
])
def test_dblp_path_matches_in_any_form(dblp: str) -> None:
    assert lookup_tier("", "", dblp) == "CCF-A"


def test_dblp_path_decides_between_rows_of_one_abbreviation() -> None:
    assert lookup_tier("", "FSE", "/conf/sigsoft") == "CCF-A"
    assert lookup_tier("", "FSE", "/conf/fse") == "CCF-B"
    assert lookup_tier("The Web Conference", "WWW", "/conf/www") == tier_of("/conf/www")
    assert lookup_tier("The Web Conference", "WWW", "/journals/www") == tier_of("/journals/www")
    assert lookup_tier("", "", "/conf/IEEEpact") == "CCF-B"  # dblp paths with capitals


def test_dblp_path_shared_by_two_ranks_needs_a_name() -> None:
    # /conf/uss holds USENIX Security (A) and the HotSec workshop (C).
    assert lookup_tier("", "", "/conf/uss") == ""
    assert lookup_tier("USENIX Security Symposium", "", "/conf/uss") == "CCF-A"
    hotsec = "USENIX Workshop on Hot Topics in Security"
    assert lookup_tier(hotsec, "HotSec", "/conf/uss/") == "CCF-C"


def test_dblp_path_conflicting_with_the_names_gives_no_tier() -> None:
    assert lookup_tier("Theory of Cryptography Conference", "TCC", "/conf/osdi") == ""


def test_unknown_dblp_path_falls_back_to_the_names() -> None:
    assert lookup_tier("", "", "/conf/mlsys") == ""
    assert lookup_tier("ACM Symposium on Cloud Computing", "SoCC", "/conf/unknown") == "CCF-B"


# --- Names --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("venue", "short", "expected"), [
    ("Proceedings of the 29th Symposium on Operating Systems Principles, SOSP 2023, Koblenz, "
     "Germany, October 23-26, 2023", "", "CCF-A"),  # dblp booktitle
    ("2024 USENIX Annual Technical Conference, USENIX ATC 2024, Santa Clara, CA", "", "CCF-A"),
    ("EuroSys '24: Proceedings of the Nineteenth European Conference on Computer Systems", "",
     "CCF-A"),  # the ACM Digital Library's form
    ("SoCC '23: Proceedings of the 2023 ACM Symposium on Cloud Computing", "", "CCF-B"),
    ("Proceedings of the ACM SIGOPS 29th Symposium on Operating Systems Principles", "SOSP",
     "CCF-A"),
    ("proceedings of the ieee/cvf conference on computer vision and pattern recognition", "",
     "CCF-A"),
    ("USENIX Symposium on Networked Systems Design and Implementation", "", "CCF-A"),
    ("ACM Symposium on High Performance Parallel & Distributed Computing", "", "CCF-A"),
    ("Data and Knowledge Engineering", "", "CCF-B"),
    ("Data & Knowledge Engineering", "", "CCF-B"),
    ("OSDI 2024", "", "CCF-A"),
    ("EuroSys '24", "", "CCF-A"),
    ("", "USENIX ATC '25", "CCF-A"),
    ("IEEE S&P", "", "CCF-A"),
    ("Proceedings of the IEEE", "", "CCF-A"),  # a journal, not a proceedings prefix
    ("Advances in Neural Information Processing Systems", "NeurIPS", "CCF-A"),
    ("Computational Visual Media", "CVM", "CCF-C"),
    ("Computational Visual Media", "CVMJ", "CCF-B"),
])
def test_name_variants(venue: str, short: str, expected: str) -> None:
    assert lookup_tier(venue, short) == expected


@pytest.mark.parametrize(("venue", "short"), [
    ("Journal of Imaginary Results", ""),
    ("Workshop on Something Else", "WSE"),
    ("Security", ""),  # a word, not USENIX Security
    ("IEEE Network", ""),  # not the journal "Networks"
    ("", ""),
])
def test_unknown_venue_gives_no_tier(venue: str, short: str) -> None:
    assert lookup_tier(venue, short) == ""


@pytest.mark.parametrize(("venue", "short"), [
    ("Theory of Computing", "TC"),  # TC is unique, but this full name is another venue
    ("Transactions on Cloud Computing", "TC"),
    ("IEEE Transactions on Computers", "TPDS"),  # both known, different rows
    ("Fast Software Encryption", "ICSE"),
    ("OSDI", "SOSP"),
])
def test_conflicting_short_and_full_name_gives_no_tier(venue: str, short: str) -> None:
    assert lookup_tier(venue, short) == ""


def test_every_row_looks_itself_up() -> None:
    venues = read_venues()
    pairs = Counter((v.abbr.lower(), v.full_name.lower()) for v in venues)
    shared = [v for v in venues if pairs[(v.abbr.lower(), v.full_name.lower())] > 1]
    failed = [v for v in venues if lookup_tier(v.full_name, v.abbr) != v.tier]
    # 20 rows share both abbreviation and full name with another row (VLDB, AAMAS, ISMB ...);
    # most pairs agree on the rank, and only "The Web Conference" (WWW) is A as a conference and
    # B as a journal, so its two rows cannot be told apart by name.
    assert len(shared) == 20
    assert set(failed) <= set(shared)
    assert sorted(v.dblp_path for v in failed) == ["/conf/www", "/journals/www"]


def test_every_row_with_a_dblp_path_looks_itself_up() -> None:
    for v in read_venues():
        if v.dblp_path:
            assert lookup_tier(v.full_name, v.abbr, v.dblp_path) == v.tier, v


# --- check_tier ---------------------------------------------------------------------------------


def test_check_tier_warns_on_a_disagreeing_tier() -> None:
    osdi = "USENIX Symposium on Operating Systems Design and Implementation"
    message = check_tier("CCF-B", osdi, "OSDI")
    assert message is not None
    assert "CCF-B" in message and "CCF-A" in message and "OSDI" in message and "2026" in message


@pytest.mark.parametrize(("tier", "venue", "short"), [
    ("CCF-A", "USENIX Symposium on Operating Systems Design and Implementation", "OSDI"),
    ("ccf-a", "OSDI", ""),
    ("CORE-A*", "OSDI", ""),  # another scheme: not ours to check
    ("CCF-A", "Annual Conference on Machine Learning and Systems", "MLSys"),  # not on the list
    ("CCF-A", "", "FSE"),  # the table cannot decide
])
def test_check_tier_is_quiet_otherwise(tier: str, venue: str, short: str) -> None:
    assert check_tier(tier, venue, short) is None


# --- Venues as they are published now, through the command line ------------------------------

SERIES_BIB = """\
@article{DBLP:journals/pacmmod/Lee24,
  author = {Ada Example}, title = {Fast Joins}, journal = {Proc. {ACM} Manag. Data},
  volume = {2}, number = {1}, pages = {1--20}, year = {2024}}
@article{DBLP:journals/pvldb/Lee23,
  author = {Ada Example}, title = {Learned Indexes}, journal = {Proc. {VLDB} Endow.},
  volume = {16}, number = {11}, pages = {3000--3012}, year = {2023}}
@article{Lee25,
  author = {Ada Example}, title = {Test Generation}, year = {2025},
  journal = {Proceedings of the ACM on Software Engineering}}
"""


def test_a_venue_published_in_its_proceedings_series_has_its_tier(tmp_path):
    """SIGMOD has been published in PACMMOD since 2023, VLDB in PVLDB, FSE in PACMSE since
    2024: papers given by the series' name, in full or as dblp abbreviates it, carry the
    listed venue's tier (they had none)."""
    from conftest import MINIMAL_CONFIG, build_args, run_cli, soup, write_files

    config = MINIMAL_CONFIG.replace("publications:\n", "publications:\n  venue_tiers: true\n")
    content = write_files(tmp_path / "content", {
        "site.yaml": config, "publications/dblp.bib": SERIES_BIB,
        "publications/pvldb.md": "---\ntitle: Vector Search\nauthors: [Ada Example]\n"
                                 "venue: Proceedings of the VLDB Endowment\nvenue_short: PVLDB\n"
                                 "date: 2022-05\n---\n"})
    result = run_cli(*build_args(content, tmp_path / "site"))
    assert result.code == 0, result.err
    page = soup(tmp_path / "site" / "publications" / "index.html")
    tiers = {entry.select_one(".paper-title, h3, a").get_text(" ", strip=True)[:40]:
             entry.get("data-tier") for entry in page.select("li.paper")}
    assert sorted(tiers.values()) == ["CCF-A"] * 4, tiers
