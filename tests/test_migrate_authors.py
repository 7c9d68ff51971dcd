"""Author lists as old sites wrote them, moved whole: read from an academicpages citation
when there is no author field (APA, IEEE and Vancouver forms), never 'et al.' as a person
nor a name split at its comma; and the author-note marks the old page showed (`*`, `†`,
from a citation, an `authors` field, a BibTeX field) on the new page, with their legend.
Each site is migrated and built once through the real command line."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from bs4 import BeautifulSoup

from conftest import build_args, run_cli, write_files


def migrate_and_build(root: Path, files: dict[str, str]) -> tuple[dict, dict, str]:
    """site.yaml as migrate wrote it, each paper page's authors, and migrate's report."""
    old = write_files(root / "old", files)
    content = root / "content"
    moved = run_cli("migrate", str(old), "--content", str(content))
    assert moved.code == 0, moved.out + moved.err
    built = run_cli(*build_args(content, root / "site", "--no-cache"))
    assert built.code == 0, built.err
    settings = yaml.safe_load((content / "site.yaml").read_text("utf-8"))
    return settings, read_pages(root / "site"), moved.out


def read_pages(site: Path) -> dict[str, dict]:
    """Each paper page's title: its authors as shown (name + marks), the owner's, and the
    legend under them."""
    found = {}
    for path in sorted(site.rglob("index.html")):
        soup = BeautifulSoup(path.read_text("utf-8"), "html.parser")
        if soup.body is None or soup.body.get("data-kind") != "paper":
            continue
        spans = soup.select(".paper-authors .author")
        legend = soup.select_one(".legend")
        found[soup.h1.get_text(strip=True)] = {
            "authors": [s.get_text("", strip=True) for s in spans],
            "owner": [s.get_text("", strip=True) for s in spans if "owner" in s.get("class", [])],
            "et_al": "et al." in soup.select_one(".paper-authors").get_text(),
            "legend": " ".join(legend.get_text(" ", strip=True).split()) if legend else ""}
    return found


def ap_paper(title: str, date: str, extra: str) -> str:
    return (f"---\ntitle: \"{title}\"\ncollection: publications\ndate: {date}\n"
            f"venue: 'Journal of Tests'\n{extra}\n---\nAbstract.\n")


THIRTEEN = ", ".join(f"Family{n}, {chr(65 + n)}.{chr(66 + n)}." for n in range(12))
AP_FILES = {
    "_config.yml": "title: Site\nurl: https://quill.example.org\nauthor:\n  name: Dr. Ada Quill\n",
    "_pages/publications.md": "---\npermalink: /publications/\ntitle: Publications\n---\n"
                              "<sup>*</sup> equal contribution, <sup>†</sup> corresponding "
                              "author\n",
    "_publications/2019-01-02-apa.md": ap_paper(
        "Tidal Clocks", "2019-01-02", "citation: 'Quill, A.B., Roe, J., Moe, K., Lee, S., "
        "Park, J.H., Chen, W. (2019). Tidal Clocks. <i>Journal of Tests</i>.'"),
    "_publications/2019-01-03-ieee.md": ap_paper(
        "Sea Glass", "2019-01-03", "citation: 'A. Quill, J. Roe and K. Moe, \"Sea Glass,\" "
        "<i>Journal of Tests</i>, 2019.'"),
    "_publications/2019-01-04-vancouver.md": ap_paper(
        "Salt Maps", "2019-01-04", "citation: 'Quill AB, Roe J, Moe K. Salt Maps. Journal of "
        "Tests. 2019.'"),
    "_publications/2019-01-08-retitled.md": ap_paper(  # the citation's title is not the page's
        "Sea Lanes Revisited", "2019-01-08", "citation: 'Quill, A.B., Roe, J., Moe, K. Sea "
        "lanes, revisited. Journal of Tests, 2019.'"),
    "_publications/2019-01-09-chinese.md": ap_paper(
        "施工进度", "2019-01-09", "citation: '林佳瑞*, 张建平, 钟耀锋. (2019). 施工进度. <i>期刊</i>.'"),
    "_publications/2019-01-05-unread.md": ap_paper(
        "Kelp Forests", "2019-01-05", "citation: 'Published in the Journal of Tests, 2019.'"),
    "_publications/2019-01-06-thirteen.md": ap_paper(
        "Thirteen Hands", "2019-01-06", f"authors: '{THIRTEEN}, and Quill, A.B.'"),
    "_publications/2019-01-07-others.md": ap_paper(
        "More Hands", "2019-01-07", "authors: 'A. Quill, J. Roe et al.'"),
    # Class 6: marks in a citation (HTML, LaTeX, plain) and in an authors field.
    "_publications/2020-01-02-marked-citation.md": ap_paper(
        "Marked Citation", "2020-01-02", "citation: 'Quill, A.<sup>*</sup>, Roe, J.$^\\dagger$, "
        "Moe, K.* (2020). Marked Citation. <i>Journal of Tests</i>.'"),
    "_publications/2020-01-03-marked-field.md": ap_paper(
        "Marked Field", "2020-01-03", "authors: 'Ada Quill*, Jon Roe<sup>†</sup>, Kim Moe'"),
}


@pytest.fixture(scope="module")
def academicpages(tmp_path_factory):
    return migrate_and_build(tmp_path_factory.mktemp("apauthors"), AP_FILES)


def test_authors_are_read_from_the_citation_and_et_al_is_never_a_person(academicpages):
    settings, pages, report = academicpages
    assert settings["author"]["name"] == "Ada Quill"  # 'Dr.' is no part of the name
    assert pages["Tidal Clocks"]["authors"] == ["A.B. Quill", "J. Roe", "K. Moe", "S. Lee",
                                                "J.H. Park", "W. Chen"]
    assert pages["Sea Glass"]["authors"] == ["A. Quill", "J. Roe", "K. Moe"]
    assert pages["Salt Maps"]["authors"] == ["A.B. Quill", "J. Roe", "K. Moe"]
    assert pages["Salt Maps"]["owner"] == ["A.B. Quill"]
    assert pages["Sea Lanes Revisited"]["authors"] == ["A.B. Quill", "J. Roe", "K. Moe"]
    assert pages["施工进度"]["authors"] == ["林佳瑞*", "张建平", "钟耀锋"]
    # A citation that names nobody: the owner, without the title, stands for the list.
    assert pages["Kelp Forests"]["authors"] == ["Ada Quill"] and pages["Kelp Forests"]["et_al"]
    thirteen = pages["Thirteen Hands"]["authors"]
    assert len(thirteen) == 13 and thirteen[0] == "A.B. Family0" and thirteen[-1] == "A.B. Quill"
    assert pages["More Hands"]["authors"] == ["A. Quill", "J. Roe"]
    assert pages["More Hands"]["et_al"]
    assert "Dr. Ada Quill" not in report


def test_marks_the_old_page_showed_are_kept_with_their_legend(academicpages):
    settings, pages, report = academicpages
    assert settings["publications"]["author_notes"] == {"*": "Equal contribution",
                                                        "†": "Corresponding author"}
    assert "_pages/publications.md says" in report
    assert pages["Marked Citation"]["authors"] == ["A. Quill*", "J. Roe†", "K. Moe*"]
    assert pages["Marked Field"]["authors"] == ["Ada Quill*", "Jon Roe†", "Kim Moe"]
    for title in ("Marked Citation", "Marked Field"):
        assert pages[title]["legend"] == "( * Equal contribution / † Corresponding author)"
    assert pages["Sea Glass"]["legend"] == ""  # no marked author: no legend


def bib_entry(key: str, authors: str, title: str, extra: str = "") -> str:
    return (f"@article{{{key},\n  title={{{title}}},\n  author={{{authors}}},\n"
            f"  journal={{Journal of Tests}},\n  year={{2021}},{extra}\n}}\n\n")


def test_alfolio_bibtex_marks_keep_their_legend_and_a_note_is_no_author(tmp_path):
    """al-folio shows the marks as the .bib writes them; the meaning is the note in the
    author field ('(* indicates Equal Contribution)'), else the usual one, said so."""
    bib = (bib_entry("a", "Ann Lee* and Bo Chan* and Cy Dunn (* indicates Equal Contribution)",
                     "Noted Marks")
           + bib_entry("b", "Lee$^\\dagger$, Ann and Chan, Bo", "Dagger Marks")
           + bib_entry("c", "Lee, Ann and Chan, Bo", "No Marks")
           + bib_entry("d", "Lee, Ann$^{1,*}$ and Bo Chan∗ and Cy Dunn^*", "Written Marks"))
    files = {"_config.yml": "title: blank\nfirst_name: Ann\nlast_name: Lee\n"
                            "url: https://lee.example.org\n",
             "_bibliography/papers.bib": bib}
    settings, pages, report = migrate_and_build(tmp_path, files)
    assert settings["publications"]["author_notes"] == {"*": "Equal Contribution",
                                                        "†": "Corresponding author"}
    assert pages["Noted Marks"]["authors"] == ["Ann Lee*", "Bo Chan*", "Cy Dunn"]
    assert pages["Dagger Marks"]["authors"] == ["Ann Lee†", "Bo Chan"]
    # An affiliation beside the mark, al-folio's asterisk operator (U+2217), a bare caret.
    assert pages["Written Marks"]["authors"] == ["Ann Lee*", "Bo Chan*", "Cy Dunn*"]
    assert pages["Noted Marks"]["legend"] == "( * Equal Contribution)"
    assert "does not say what the author mark '†' means" in report
    assert pages["No Marks"]["legend"] == ""


def test_hugo_et_al_in_an_author_item_is_no_person(tmp_path):
    """'Jon Roe et al.' as one item of a Hugo `authors` list: Jon Roe, then "et al."."""
    files = {"config/_default/hugo.yaml": "title: Ada Quill\nbaseURL: https://q.example.org/\n",
             "content/authors/admin/_index.md": "---\ntitle: Ada Quill\nsuperuser: true\n---\n",
             "content/publication/many/index.md": "---\ntitle: Many Hands\nauthors: [admin, "
                                                  "Jon Roe et al.]\ndate: 2023-06-01\n"
                                                  "publication: Journal of Tests\n---\n"}
    _, pages, _ = migrate_and_build(tmp_path, files)
    assert pages["Many Hands"]["authors"] == ["Ada Quill", "Jon Roe"]
    assert pages["Many Hands"]["et_al"]
