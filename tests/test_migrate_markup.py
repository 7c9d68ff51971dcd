"""Markup in old sites' fields moved as what the old page showed, never as its source text:
a Hugo venue written as a Markdown link is the venue's text with its link; a title's
formula stays math (MathML on the page, Unicode in plain text), even with its underscores
escaped for Markdown; a title's Markdown emphasis is italics, with no space added; a
citation's formula is Unicode. Each site is migrated and built through the command line."""

from __future__ import annotations

from pathlib import Path

import yaml
from bs4 import BeautifulSoup

from conftest import build_args, run_cli, write_files


def migrate_and_build(root: Path, files: dict[str, str]) -> tuple[Path, Path]:
    old = write_files(root / "old", files)
    content = root / "content"
    moved = run_cli("migrate", str(old), "--content", str(content))
    assert moved.code == 0, moved.out + moved.err
    built = run_cli(*build_args(content, root / "site", "--no-cache"))
    assert built.code == 0, built.err
    return content, root / "site"


def page(site: Path, slug: str) -> BeautifulSoup:
    return BeautifulSoup((site / "publications" / slug / "index.html").read_text("utf-8"),
                         "html.parser")


def hugo_paper(title: str, extra: str) -> str:
    return (f"---\ntitle: '{title}'\nauthors: [admin, Jon Roe]\ndate: 2023-06-01\n"
            f"publication_types: ['1']\npublication: '*Journal of Cages*'\n{extra}\n---\n")


def test_hugo_venue_links_title_math_and_emphasis_are_shown_as_the_old_page_did(tmp_path):
    files = {"config/_default/hugo.yaml": "title: Ada Quill\nbaseURL: https://quill.example.org/\n",
             "content/authors/admin/_index.md": "---\ntitle: Ada Quill\nsuperuser: true\n---\n",
             "content/publication/cages.md": hugo_paper(
                 "Charge in H$\\_{2}$O@C$\\_{60}$$^-$ cages",
                 "publication_short: '[CinC 2023](https://cinc.example.org/2023)'"),
             "content/publication/chapter.md": hugo_paper("Signal processing", "").replace(
                 "'*Journal of Cages*'", "'In *[Photoplethysmography](https://books.example"
                 ".org/ppg), Elsevier*'"),
             "content/publication/pitchers.md": hugo_paper(
                 "Traps of the pitcher plant (*Cephalotus follicularis*)", "")}
    content, site = migrate_and_build(tmp_path, files)
    cages = page(site, "cages")
    assert cages.h1.find_all("msub") and cages.h1.find_all("msup")  # MathML, not 'H_ { 2 }'
    assert cages.title.get_text().startswith("Charge in H₂O@C₆₀⁻ cages")
    assert "CinC 2023" in cages.get_text() and "](" not in cages.get_text()
    assert cages.select_one('a[href="https://cinc.example.org/2023"]').get_text(strip=True) \
        == "CinC 2023"
    chapter = page(site, "chapter")  # a link inside the emphasis of an APA-style venue
    assert "Photoplethysmography, Elsevier" in chapter.get_text() and "](" not in \
        chapter.get_text()
    pitchers = page(site, "pitchers")
    assert str(pitchers.h1) == "<h1>Traps of the pitcher plant (<em>Cephalotus " \
                               "follicularis</em>)</h1>"
    assert pitchers.title.get_text().startswith("Traps of the pitcher plant (Cephalotus "
                                                "follicularis) |")
    moved = yaml.safe_load((content / "publications" / "cages.md").read_text("utf-8")
                           .split("---\n")[1])
    assert moved["venue_short"] == "CinC 2023"


def test_academicpages_citation_math_is_unicode_and_title_emphasis_italics(tmp_path):
    citation = ("Quill, A., Roe, J. (2020). Charge in H$_{2}$O@C$_{60}$$^-$ cages. "
                "<i>Journal of Cages</i>.")
    paper = ("---\ntitle: \"{title}\"\ncollection: publications\ndate: 2020-05-0{day}\n"
             "venue: 'Journal of Cages'\ncitation: '{citation}'\n---\nAbstract.\n")
    files = {"_config.yml": "title: Ada Quill\nurl: https://quill.example.org\n"
                            "author:\n  name: Ada Quill\n",
             "_publications/2020-cages.md": paper.format(
                 title="Charge in H$_{2}$O@C$_{60}$$^-$ cages", day=2, citation=citation),
             "_publications/2020-pitchers.md": paper.format(
                 title="Traps (*Cephalotus follicularis*)", day=3,
                 citation="Quill, A. (2020). Traps. Journal of Cages.")}
    _, site = migrate_and_build(tmp_path, files)
    cages = page(site, "2020-cages")
    assert cages.h1.find_all("msub")
    assert "Charge in H₂O@C₆₀⁻ cages. Journal of Cages." in cages.get_text()
    assert str(page(site, "2020-pitchers").h1) == "<h1>Traps (<em>Cephalotus follicularis</em>)</h1>"
