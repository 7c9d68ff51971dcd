"""A .bib-only site through the real command line: the owner found in every form of their
name, readable page addresses from any key, typography (quotes, page ranges, dates) and
the defaults a site with nothing but papers needs (grouped by year, long author lists cut,
no warnings); and import-bib's short venue names."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from conftest import SHARED, build_args, run_cli, write_files

CORPUS = SHARED / "corpus" / "bib"
PROBLEM = re.compile(r"^(?P<file>.+?):(?P<line>\d+): (?P<severity>error|warning): (?P<text>.+)$")


def site_yaml(owner: str, extra: str = "") -> str:
    """The least a site.yaml may say: title, url, author."""
    return f"title: T\nurl: https://example.org/\nauthor:\n  name: {owner}\n{extra}"


def build_bib(tmp_path: Path, owner: str, bib: str, extra: str = "") -> tuple[Path, list]:
    """Build a site of one .bib file; returns the output folder and its problems as
    (line, severity, text)."""
    content = write_files(tmp_path / "content", {"site.yaml": site_yaml(owner, extra),
                                                 "publications/papers.bib": bib})
    result = run_cli(*build_args(content, None, "--no-cache"))
    assert result.code == 0, result.err
    found = [(int(m["line"]), m["severity"], m["text"]) for m in
             map(PROBLEM.match, result.err.splitlines()) if m]
    return content.parent / "site", found


def read_page(site: Path, rel: str) -> BeautifulSoup:
    return BeautifulSoup((site / rel).read_text("utf-8"), "html.parser")


def owners_by_paper(site: Path) -> dict[str, set[str]]:
    """Each listed paper's slug, and the names its author list shows as the owner's."""
    page = read_page(site, "publications/index.html")
    return {li["id"]: {s.get_text() for s in li.select("span.author.owner")}
            for li in page.select("li.paper")}


def entry(key: str, authors: str, *fields: str, kind: str = "article", title: str = "",
          year: int = 2021) -> str:
    lines = [f"  title = {{{title or 'Paper ' + key}}}", f"  author = {{{authors}}}",
             "  journal = {Journal of Tests}", f"  year = {year}", *fields]
    return f"@{kind}{{{key},\n" + ",\n".join(lines) + "\n}\n\n"


# --- 3. The owner in every real form of their name -----------------------------------------

GRAY_FORMS = {
    "dots": "Gray, A.J.G. and Smith, John",
    "spaced": "A. J. G. Gray and Smith, John",
    "bare": "Alasdair J G Gray and Smith, John",
    "given": "Smith, John and Gray, Alasdair",
    "run": "AJG Gray and Smith, John",
    "namesake": "Gray, B. and Smith, John",
    "otherfirst": "Andrew Gray and Smith, John",
    "othermiddle": "Gray, A. B. and Smith, John",
    "family": "Gray and Smith, John",
}


def test_owner_found_in_every_form_of_their_name(tmp_path):
    bib = "".join(entry(key, authors) for key, authors in GRAY_FORMS.items())
    site, _ = build_bib(tmp_path, "Alasdair J G Gray", bib)
    owners = owners_by_paper(site)
    found = {key for key, names in owners.items() if names}
    assert found == {"dots", "spaced", "bare", "given", "run"}
    assert owners["dots"] == {"A.J.G. Gray"}  # shown as written, only highlighted
    # An alias as written is the owner; a form the main name rules out stays out.
    bib += entry("nickname", "Sasha Gray")
    site, _ = build_bib(tmp_path / "aliases", "Alasdair J G Gray", bib,
                        "  aliases: [A. Gray, Sasha Gray]\n")
    found = {key for key, names in owners_by_paper(site).items() if names}
    assert found == {"dots", "spaced", "bare", "given", "run", "nickname"}


def test_accents_and_hyphens_do_not_hide_the_owner(tmp_path):
    bib = (entry("hyphen", r"Gonzalez-Garcia, S. and Gonz{\'a}lez-Garc{\'i}a, Mar{\'i}a")
           + entry("spaces", "Sergio Gonzalez Garcia and Ada Example")
           + entry("accents", r"S. Gonz{\'a}lez Garc{\'i}a")
           + entry("alias", "Sergio G. Garcia")
           + entry("nobody", "Garcia, Sergio"))
    site, _ = build_bib(tmp_path, "Sergio González-García", bib)
    owners = owners_by_paper(site)
    assert owners["hyphen"] == {"S. Gonzalez-Garcia"}  # not María, a namesake
    assert owners["spaces"] and owners["accents"]
    assert not owners["alias"] and not owners["nobody"]
    site, _ = build_bib(tmp_path / "again", "Sergio González-García", bib,
                        "  aliases: [Sergio Garcia]\n")
    owners = owners_by_paper(site)
    assert owners["alias"] and owners["nobody"]  # aliases still add names


LIN_FORMS = {
    "family-initials": "Zhang J. and Lin J.R. and Hu Z.",
    "family-initial": "Lin J. and Yu F.",
    "joined": "Jiarui Lin and Ada Example",
    "chinese-order": "Lin Jiarui and Ada Example",
    "spaced": "Jia Rui Lin and Ada Example",
    "titled": "Dr. Jia-Rui Lin and Ada Example",
    "namesake": "Lin C. and Ada Example",
    "namesake-full": "Chen Lin and Ada Example",
    "other-family": "Jiarui Lim and Ada Example",
}


def test_family_first_initials_joined_given_names_and_titles_find_the_owner(tmp_path):
    """'Lin J.R.' (family first, initials last), 'Jiarui' for 'Jia-Rui' and 'Dr.' before the
    name are the owner; 'Lin C.' and 'Chen Lin' stay namesakes. A site.yaml name with its
    title ('Dr. Jia-Rui Lin') still finds the owner."""
    bib = "".join(entry(key, authors) for key, authors in LIN_FORMS.items())
    for owner in ("Jia-Rui Lin", "Prof. Jia-Rui Lin"):
        site, _ = build_bib(tmp_path / owner.replace(" ", "_"), owner, bib)
        owners = owners_by_paper(site)
        found = {key for key, names in owners.items() if names}
        assert found == {"family-initials", "family-initial", "joined", "chinese-order",
                         "spaced", "titled"}, owner
        assert owners["family-initials"] == {"Lin J.R."}  # shown as written


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus/bib is not present")
@pytest.mark.parametrize("owner, name", [
    ("Christos N. Mavridis", "MavridisChristos__MavridisChristos.github.io_journals.bib"),
    ("Michael Vasmer", "MikeVasmer__mikevasmer.github.io_papers.bib"),
    ("Albert Einstein", "Dirk-Hartmann__dirk-hartmann.github.io_papers.bib"),
    ("Antoine Collas", "antoinecollas__antoinecollas.github.io_papers.bib"),
])
def test_owner_found_on_every_paper_of_a_real_file(tmp_path, owner, name):
    """Real al-folio owners write their name several ways ('Christos Mavridis',
    'M. Vasmer', 'A. Einstein', '\\textbf{A. {Collas}}'); every paper is theirs."""
    site, _ = build_bib(tmp_path, owner, (CORPUS / name).read_text("utf-8"))
    owners = owners_by_paper(site)
    assert owners and all(owners.values()), [k for k, v in owners.items() if not v]


# --- 4. Readable, stable URLs from any key --------------------------------------------------


def test_keys_without_latin_letters_take_the_title(tmp_path):
    bib = (entry("王2020", "Ada Example", title="Graph Learning at Scale")
           + entry("张2021", "Ada Example", title="Graph Learning at Scale", year=2022)
           + entry("González-García2022", "Ada Example"))
    site, found = build_bib(tmp_path, "Ada Example", bib)
    slugs = {p.parent.name for p in (site / "publications").glob("*/index.html")}
    assert slugs == {"graph-learning-at-scale", "graph-learning-at-scale-2",
                     "gonzalez-garcia2022"}
    # The two would share an address: never silently.
    assert any("graph-learning-at-scale" in text for _, sev, text in found if sev == "warning")


# --- 5. Typography and precision -------------------------------------------------------------


def test_quotes_page_ranges_and_dates(tmp_path):
    bib = (entry("quotes", "Ada Example", "  pages = {84-88}",
                 title="On ``Zero-Knowledge\" and ``x'' Proofs")
           + entry("full", "Ada Example", "  date = {2021-03-17}")
           + entry("stamp", "Ada Example", "  month = {2021-05-04T00:00:00Z}")
           + entry("number", "Ada Example", "  month = {07}")
           + entry("named", "Ada Example", "  month = {Sept.}"))
    site, found = build_bib(tmp_path, "Ada Example", bib)
    assert found == []
    page = read_page(site, "publications/quotes/index.html")
    assert page.h1.get_text() == "On “Zero-Knowledge” and “x” Proofs"
    facts = {dt.get_text(): dt.find_next_sibling("dd").get_text()
             for dt in page.select("dl.paper-facts dt")}
    assert facts["Pages"] == "84–88"
    assert "pp. 84–88" in page.select_one("p.citation").get_text()
    dates = {slug: read_page(site, f"publications/{slug}/index.html").select_one(
        "dl.paper-facts time")["datetime"] for slug in ("full", "stamp", "number", "named")}
    assert dates == {"full": "2021-03-17", "stamp": "2021-05-04", "number": "2021-07",
                     "named": "2021-09"}


def test_a_conference_given_as_a_journal_is_a_conference(tmp_path):
    bib = entry("scholar", "Ada Example").replace("Journal of Tests", "ICML")
    site, found = build_bib(tmp_path, "Ada Example", bib)
    assert [(line, sev) for line, sev, _ in found] == [(4, "warning")]
    assert "ICML" in found[0][2] and "conference" in found[0][2]
    li = read_page(site, "publications/index.html").select_one("li.paper")
    assert li["data-type"] == "conference"


# --- 6. Defaults that fit a .bib-only site ---------------------------------------------------


def test_a_minimal_site_groups_by_year_and_cuts_long_author_lists(tmp_path):
    many = " and ".join(f"Person{i} Coauthor" for i in range(14)) + " and Ada Example"
    bib = (entry("long", many, year=2020)
           + entry("short", "Ada Example and Bob Builder"))
    site, found = build_bib(tmp_path, "Ada Example", bib)
    assert found == []
    page = read_page(site, "publications/index.html")
    assert [h.get_text() for h in page.select("main h2")] == ["2021", "2020"]
    details = page.select_one("li#long details.authors-more")
    summary = details.summary.get_text(" ", strip=True)
    assert summary.endswith("and 5 more authors")
    assert [s.get_text() for s in details.summary.select("span.author")][-1] == "Ada Example"
    assert len(details.select(":scope > span.authors span.author")) == 15
    assert page.select_one("li#short details.authors-more") is None
    site, found = build_bib(tmp_path / "all", "Ada Example", bib,
                            "publications:\n  author_limit: null\n")
    assert found == [] and read_page(site, "publications/index.html").select("details.authors-more") == []


# --- 7. import-bib ---------------------------------------------------------------------------


def test_import_bib_takes_short_names_and_never_repeats_the_year(tmp_path):
    bib = ("@inproceedings{atc, title = {Fast Things}, author = {Ada Example},\n"
           "  booktitle = {2023 {USENIX} Annual Technical Conference (ATC)}, year = 2023}\n\n"
           "@article{abbr, title = {Slow Things}, author = {Ada Example},\n"
           "  journal = {Journal of Tests}, abbr = {JoT}, year = 2022}\n")
    content = write_files(tmp_path / "content", {"site.yaml": site_yaml("Ada Example")})
    (tmp_path / "in.bib").write_text(bib, encoding="utf-8")
    result = run_cli("import-bib", str(tmp_path / "in.bib"), "--content", str(content))
    assert result.code == 0, result.err
    atc = (content / "publications" / "atc.md").read_text("utf-8")
    assert "venue_short: ATC\n" in atc
    assert "venue_short: JoT\n" in (content / "publications" / "abbr.md").read_text("utf-8")
    result = run_cli(*build_args(content, None, "--no-cache"))
    assert result.code == 0, result.err
    site = content.parent / "site"
    citation = read_page(site, "publications/atc/index.html").select_one("p.citation")
    assert citation.get_text().endswith(". USENIX Annual Technical Conference (ATC), 2023.")
    citation = read_page(site, "publications/abbr/index.html").select_one("p.citation")
    assert citation.get_text().endswith("2022.")
