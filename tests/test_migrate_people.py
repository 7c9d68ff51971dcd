"""The owner and the author lists of a moved site, as real sites write them: migrate, then
build, through the real command line, and the built pages read back. The owner's names
come from every place the old site gives them (a `_config.yml` that repeats a YAML anchor,
a name per language, the home page, the owner's thesis); a placeholder owner is replaced by
the person on every paper; author lists written BibTeX's way or in a citation with accented
initials keep every author and the owner's highlight."""

from __future__ import annotations

from pathlib import Path

import yaml
from bs4 import BeautifulSoup

from conftest import build_args, run_cli, write_files


def migrate_and_build(tmp_path: Path, files: dict[str, str]) -> tuple[dict, Path, str]:
    """site.yaml as migrate wrote it, the built site, and migrate's report."""
    old = write_files(tmp_path / "old", files)
    content = tmp_path / "content"
    moved = run_cli("migrate", str(old), "--content", str(content))
    assert moved.code == 0, moved.out + moved.err
    built = run_cli(*build_args(content, tmp_path / "site", "--no-cache"))
    assert built.code == 0, built.err
    settings = yaml.safe_load((content / "site.yaml").read_text("utf-8"))
    return settings, tmp_path / "site", moved.out


def paper_authors(site: Path) -> dict[str, tuple[list[str], list[str]]]:
    """Each paper page's title: (its authors, those shown as the owner)."""
    found = {}
    for path in sorted(site.rglob("index.html")):
        soup = BeautifulSoup(path.read_text("utf-8"), "html.parser")
        if soup.body is None or soup.body.get("data-kind") != "paper":
            continue
        spans = soup.select(".paper-authors .author")
        for span in spans:
            for sup in span.find_all("sup"):
                sup.extract()
        found[soup.h1.get_text(strip=True)] = (
            [s.get_text(strip=True) for s in spans],
            [s.get_text(strip=True) for s in spans if "owner" in s.get("class", [])])
    return found


def ap_paper(title: str, date: str, extra: str) -> str:
    return (f"---\ntitle: \"{title}\"\ncollection: publications\ndate: {date}\n"
            f"venue: 'Journal of Tests'\n{extra}\n---\nAbstract.\n")


BILINGUAL_CONFIG = """\
locale: "zh"
title:
  en: "Jia-Rui Lin's Page"
  zh: "林佳瑞的个人网站"
name: &name "Jia-Rui Lin"
description:
  en: &description "Faculty of Tsinghua University"
  zh: &description "清华大学教师"
url: https://linjiarui.example.org
author:
  name:
    en: "Jia-Rui Lin"
    zh: "林佳瑞"
  bio:
    en: "Associate Professor"
    zh: "副研究员"
"""


def test_a_config_with_a_repeated_anchor_and_names_per_language_gives_the_owner(tmp_path):
    """Jekyll (Ruby's YAML) reads an anchor given twice, as the YAML specification says;
    the owner, the address and the texts per language come through, and the owner written
    'Lin, J.*' (family, then initials) and 'Lin J.R.' is highlighted, a namesake is not;
    an APA citation with typing slips keeps its authors."""
    files = {"_config.yml": BILINGUAL_CONFIG,
             "_publications/2012-06-27-idm.md": ap_paper(
                 "IDM-based Exchange", "2012-06-27",
                 "citation: 'Zhang, J., Lin, J.*, Hu, Z., Yu, F. (2012). IDM-based Exchange. "
                 "<i>Journal of Tests</i>.'"),
             "_publications/2020-01-01-review.md": ap_paper(
                 "A Review", "2020-01-01", "authors: Wu Y. and Lin J.R."),
             "_publications/2021-02-15-slips.md": ap_paper(
                 "With Slips", "2021-02-15",
                 "citation: 'Zhang, Y.Y, Hu, Z.Z., Lin, J.R., Zhang Y.Y.* (2021). With Slips.'"),
             "_publications/2021-01-01-other.md": ap_paper(
                 "Another Lin", "2021-01-01", "authors: Lin C. and Wu Y.")}
    settings, site, _ = migrate_and_build(tmp_path, files)
    assert settings["url"] == "https://linjiarui.example.org/"
    assert settings["title"] == "Jia-Rui Lin's Page"
    assert settings["author"]["name"] == "Jia-Rui Lin"
    assert settings["author"]["aliases"] == ["林佳瑞"]
    assert settings["author"]["position"] == "Associate Professor"
    papers = paper_authors(site)
    assert papers["IDM-based Exchange"] == (["J. Zhang", "J. Lin", "Z. Hu", "F. Yu"], ["J. Lin"])
    assert papers["A Review"] == (["Y. Wu", "J.R. Lin"], ["J.R. Lin"])
    assert papers["Another Lin"][1] == []
    # A hand-kept APA list with slips (a comma, a full stop left out) is still APA.
    assert papers["With Slips"] == (["Y.Y. Zhang", "Z.Z. Hu", "J.R. Lin", "Y.Y. Zhang"],
                                    ["J.R. Lin"])


ALFOLIO_CONFIG = """\
title: {title}
first_name: {first}
last_name: {last}
url: https://owner.example.org
scholar:
  last_name: [{last}]
  first_name: [{first}]
"""


def bib_entry(key: str, authors: str, title: str, year: int = 2020, extra: str = "") -> str:
    return (f"@article{{{key},\n  title={{{title}}},\n  author={{{authors}}},\n"
            f"  journal={{Journal of Tests}},\n  year={{{year}}}{extra}\n}}\n\n")


def test_the_owners_name_in_another_script_is_an_alias_when_the_site_writes_it(tmp_path):
    """A Chinese paper lists the owner as '韩放达', which the about page gives as the
    owner's name in Chinese: an alias, named in the report; a co-author's Chinese name,
    which the site does not write, is not. An address written bare (`url=https://...`),
    which jekyll-scholar showed, is braced, so its entry is not left out."""
    bib = (bib_entry("han2019", "Han, Fangda and Roe, Jane", "The Art of Food",
                     extra=",\n  url=https://arxiv.org/abs/1905.13149")
           + bib_entry("韩放达2014x", "韩放达 and 肖永顺", "X 射线源焦点尺寸测量方法", 2014)
           + bib_entry("xiao2015", "肖永顺 and 常铭", "另一篇论文", 2015))
    files = {"_config.yml": ALFOLIO_CONFIG.format(title="Fangda HAN", first="Fangda",
                                                  last="Han"),
             "_bibliography/papers.bib": bib,
             "_pages/about.md": "---\nlayout: about\npermalink: /\n---\nMy name is Fangda HAN "
                                "(韩放达 in Chinese).\n"}
    settings, site, report = migrate_and_build(tmp_path, files)
    assert settings["author"]["aliases"][-1] == "韩放达"
    assert "肖永顺" not in settings["author"]["aliases"]
    assert "'韩放达' taken as the owner's name" in report
    papers = paper_authors(site)
    assert papers["X 射线源焦点尺寸测量方法"][1] == ["韩放达"]
    assert papers["The Art of Food"][1] == ["Fangda Han"]
    assert "address(es) written without braces" in report
    assert papers["另一篇论文"][1] == []


def test_the_only_author_of_the_owners_thesis_in_another_script_is_the_owner(tmp_path):
    """A Hugo site whose settings say 'Chia-An Lee' and whose thesis lists only '李家安':
    that name is the owner's, so a paper with seven Chinese names highlights it too."""
    profile = "---\ntitle: Chia-An Lee\nsuperuser: true\nrole: Student\n---\n"

    def hugo_paper(title: str, authors: str) -> str:
        return (f"---\ntitle: \"{title}\"\nauthors: [{authors}]\ndate: 2021-06-24\n"
                f"publication_types: [\"7\"]\npublication: \"{title}\"\n---\n")
    files = {"config/_default/hugo.yaml": "title: Chia-An Lee\nbaseURL: https://calee.example.org/\n",
             "content/authors/admin/_index.md": profile,
             "content/publications/thesis/index.md": hugo_paper("一個低延遲 5G 核心網路", "\"李家安\""),
             "content/publications/tanet/index.md": hugo_paper(
                 "五個作者", "\"盧宇程\", \"林至偉\", \"李家安\", \"黃伯靜\""),
             "content/publications/l25gc/index.md": hugo_paper(
                 "L25GC", "\"Vivek Jain\", \"admin\"")}
    settings, site, report = migrate_and_build(tmp_path, files)
    assert settings["author"]["aliases"] == ["李家安"]
    assert "the only author of content/publications/thesis/index.md" in report
    papers = paper_authors(site)
    assert papers["五個作者"][1] == ["李家安"]
    assert papers["L25GC"][1] == ["Chia-An Lee"]


def test_a_placeholder_owner_gives_way_to_the_person_on_every_paper(tmp_path):
    """al-folio's 'You R. Name' left in _config.yml: the person on every paper is the owner
    (and the title), said in the report; a paper without them highlights nobody."""
    bib = "".join(bib_entry(f"p{i}", f"Li, P. and {{Mavromatis}}, I. and {{Khan{i}}}, A.",
                            f"Paper {i}") for i in range(4))
    bib += bib_entry("p4", "Mavromatis, Ioannis and Roe, Jane", "Paper 4")
    bib += bib_entry("other", "Roe, Jane and Doe, John", "Not Theirs")
    files = {"_config.yml": "title: blank\nfirst_name: You\nmiddle_name: R.\nlast_name: Name\n"
                            "url: https://owner.example.org\n",
             "_bibliography/papers.bib": bib}
    settings, site, report = migrate_and_build(tmp_path, files)
    assert settings["author"]["name"] == "I. Mavromatis"
    assert settings["title"] == "I. Mavromatis"
    assert "template's placeholder 'You R. Name'" in report
    papers = paper_authors(site)
    assert all(papers[f"Paper {i}"][1] == ["I. Mavromatis"] for i in range(4))
    assert papers["Paper 4"][1] == ["Ioannis Mavromatis"]
    assert papers["Not Theirs"][1] == []


def test_bibtex_style_author_fields_and_accented_initials_keep_every_author(tmp_path):
    """academicpages `authors:` written BibTeX's way, one author or many, with a slip
    ('Federico and M.') kept as written; a citation with 'Ö.' and 'İ.' initials."""
    files = {"_config.yml": "title: Site\nurl: https://owner.example.org\nauthor:\n"
                            "  name: Loïc Barrault\n",
             "_publications/2005-01-01-one.md": ap_paper("One", "2005-01-01",
                                                         "authors: Barrault, L."),
             "_publications/2013-01-01-many.md": ap_paper(
                 "Many", "2013-01-01", "authors: Cettolo, M.  and  Federico and  M.  and  "
                 "Barrault, L. and Schwenk, H."),
             "_publications/2020-01-01-multiword.md": ap_paper(
                 "Multiword", "2020-01-01", "authors: García Martínez, Mercedes and "
                 "Barrault, Loïc and van de Weijer, Joost."),
             "_publications/2017-01-01-commas.md": ap_paper(
                 "Commas", "2017-01-01", "authors: F. Burlot, L. Barrault, and F. Yvon"),
             "_publications/2021-01-01-turkish.md": ap_paper(
                 "Turkish", "2021-01-01", "citation: '<b>Çoban, Ö.</b>, İnan, A., and Özel, "
                 "S. A. (2021). \"Turkish\". <i>Journal of Tests</i>.'")}
    _, site, _ = migrate_and_build(tmp_path, files)
    papers = paper_authors(site)
    assert papers["One"] == (["L. Barrault"], ["L. Barrault"])
    assert papers["Many"][0] == ["M. Cettolo", "Federico", "M.", "L. Barrault", "H. Schwenk"]
    assert papers["Many"][1] == ["L. Barrault"]
    assert papers["Multiword"] == (["Mercedes García Martínez", "Loïc Barrault",
                                    "Joost van de Weijer"], ["Loïc Barrault"])
    assert papers["Commas"] == (["F. Burlot", "L. Barrault", "F. Yvon"], ["L. Barrault"])
    assert papers["Turkish"][0] == ["Ö. Çoban", "A. İnan", "S. A. Özel"]


def test_the_owners_full_given_name_and_a_placeholder_author_in_hugo(tmp_path):
    """The profile says 'Chris Muir', two papers 'Christopher D Muir' and nobody else the
    owner could be: those forms become aliases (the build alone never takes 'Chris' for
    'Christopher', which would take 'Christine' too). A generator's placeholder item
    ('authors 20, 25 of 25') stays one item, as the old page showed it; a section that is
    one page (a widget page's `index.md`) moves no paper."""
    def hugo_paper(title: str, authors: str) -> str:
        return (f"---\ntitle: \"{title}\"\nauthors: [{authors}]\ndate: 2020-01-01\n"
                f"publication_types: [\"2\"]\npublication: \"Journal of Tests\"\n---\n")
    files = {"config/_default/hugo.yaml": "title: Lab\nbaseURL: https://lab.example.org/\n",
             "content/authors/admin/_index.md": "---\ntitle: Chris Muir\nrole: PI\n---\n",
             "content/publication/a/index.md": hugo_paper("A", "\"Ann Roe\", \"admin\""),
             "content/publication/b/index.md": hugo_paper("B", "\"Christopher D Muir\", "
                                                               "\"Ann Roe\""),
             "content/publication/c/index.md": hugo_paper("C", "\"Christine Muir\", \"admin\""),
             "content/publication/d/index.md": hugo_paper(
                 "D", "\"Ann Roe\", \"admin\", \"authors 20, 25 of 25\""),
             # A widget page bundle beside the papers: the list page, no paper.
             "content/publications/index.md": "---\ntitle: Publications\ntype: widget_page\n"
                                              "date: 2019-01-01\n---\n",
             "content/publications/publications.md": "---\nwidget: pages\n---\n"}
    settings, site, report = migrate_and_build(tmp_path, files)
    assert settings["author"]["aliases"] == ["Christopher D Muir"]
    assert "a given name that 'Chris' shortens" in report
    papers = paper_authors(site)
    assert papers["B"][1] == ["Christopher D Muir"]
    assert papers["C"][1] == ["Chris Muir"]  # Christine is someone else
    assert papers["D"][0] == ["Ann Roe", "Chris Muir", "authors 20, 25 of 25"]
    assert sorted(papers) == ["A", "B", "C", "D"]
    assert "content/publications/index.md: the page of content/publications/ itself" in report


def test_every_name_of_a_hugo_profile_is_the_owners(tmp_path):
    """A profile titled in Chinese with `name_pronunciation`, `first_name` and `last_name`
    in Latin letters: one name, the others aliases, so 'C.-S. Wu' is the owner too."""
    profile = ("---\ntitle: 吴健雄\nname_pronunciation: Chien-Shiung Wu\nfirst_name: Chien-Shiung"
               "\nlast_name: Wu\nsuperuser: true\n---\n")

    def hugo_paper(title: str, authors: str) -> str:
        return (f"---\ntitle: \"{title}\"\nauthors: [{authors}]\ndate: 2020-01-01\n"
                f"publication_types: [\"2\"]\npublication: \"Journal of Tests\"\n---\n")
    files = {"config/_default/hugo.yaml": "title: Wu\nbaseURL: https://wu.example.org/\n",
             "content/authors/wu/_index.md": profile,
             "content/publication/a/index.md": hugo_paper("A", "\"C.-S. Wu\", \"Ann Roe\""),
             "content/publication/b/index.md": hugo_paper("B", "\"wu\", \"李四\"")}
    settings, site, _ = migrate_and_build(tmp_path, files)
    assert (settings["author"]["name"], settings["author"]["aliases"]) == (
        "吴健雄", ["Chien-Shiung Wu"])
    papers = paper_authors(site)
    assert papers["A"][1] == ["C.-S. Wu"] and papers["B"][1] == ["吴健雄"]
