"""`migrate` on the shapes real sites take past the templates' own: academicpages forks'
fields of their own, the template's sample PDF linked as a paper's, a Jekyll site whose
papers are data (`_data/publist.yml`, JSON), a folder of .bib files (a LaTeX CV), and
Hugo's menus. Each old site is written here, modelled on real layouts, and moved, built
and checked through the real command line."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from conftest import SHARED, run_cli, write_files

CORPUS_SAMPLE = SHARED / "corpus" / "sites" / "mebilgin__academicpages"
CONFIG = "title: Mara Lindqvist\nurl: https://mara.example.org\nauthor:\n  name: Mara Lindqvist\n"
# The Allan Lab template's publist.yml, as labs fill it in: the venue and year in the
# link's label, a local PDF, a list item with no year at all.
PUBLIST = """\
- title: "Tidal Mixing in Shallow Seas"
  image: tides.png
  description: A blurb for the list page.
  authors: Mara Lindqvist, Tomas Reyes, Lin Okafor
  link:
    url: https://doi.org/10.1000/tides.2021
    display: Journal of Coastal Research (2021)
  highlight: 1
- title: "Sediment Plumes from Above"
  authors: Tomas Reyes, Mara Lindqvist
  link:
    url: /files/plumes.pdf
    display:  Remote Sensing Letters (2019)
  highlight: 0
- title: A note with no year anywhere
  authors: Mara Lindqvist
"""


def read_front(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8").split("---\n")[1])


def papers_of(content: Path) -> dict[str, dict]:
    return {read_front(p)["title"]: read_front(p)
            for p in sorted((content / "publications").glob("*.md"))}


def move_build_check(old: Path, content: Path, *extra: str):
    """migrate, then build and check what it wrote; migrate's result."""
    moved = run_cli("migrate", str(old), "--content", str(content), *extra)
    assert moved.code == 0, moved.out + moved.err
    built = run_cli("build", "--content", str(content), "--output", str(content.parent / "site"))
    assert built.code == 0, built.err
    checked = run_cli("check", "--content", str(content), "--output",
                      str(content.parent / "site"))
    assert checked.code == 0, checked.out + checked.err
    return moved


def test_an_academicpages_forks_own_fields_are_read(tmp_path):
    old = write_files(tmp_path / "old", {"_config.yml": CONFIG, "_publications/201907-tides.md": (
        "---\ntitle: Tidal Mixing\ncollection: publications\npermalink: /publication/tides\n"
        "authors: 'Mara Lindqvist, Tomas Reyes'\nconference: 'In Proceedings of OCEANS'\n"
        "conference_year: '2019'\narxiv_link: 'https://arxiv.org/abs/1906.06253'\n"
        "code_link: 'https://github.com/example/tides'\nabstract: 'Tides mix the shelf.'\n"
        "---\n")})
    move_build_check(old, tmp_path / "content")
    paper = papers_of(tmp_path / "content")["Tidal Mixing"]
    assert paper["venue"] == "In Proceedings of OCEANS"
    assert str(paper["date"]) == "2019"
    assert paper["links"] == {"arxiv": "https://arxiv.org/abs/1906.06253",
                              "code": "https://github.com/example/tides"}
    text = (tmp_path / "content" / "publications" / "201907-tides.md").read_text("utf-8")
    assert "Tides mix the shelf." in text


def test_the_templates_sample_pdf_is_not_the_owners(tmp_path):
    sample = CORPUS_SAMPLE / "files" / "paper3.pdf"
    if not sample.is_file():
        import pytest
        pytest.skip("../shared/corpus is not here")
    old = write_files(tmp_path / "old", {
        "_config.yml": CONFIG, "files/paper3.pdf": sample.read_bytes(),
        "files/mine.pdf": b"%PDF-1.4 the owner's own paper",
        "_publications/2024-01-05-a.md": "---\ntitle: A\ndate: 2024-01-05\nvenue: J\n"
        "paperurl: 'https://academicpages.github.io/files/paper3.pdf'\n---\n",
        "_publications/2024-01-06-b.md": "---\ntitle: B\ndate: 2024-01-06\nvenue: J\n"
        "paperurl: '/files/mine.pdf'\n---\n"})
    moved = move_build_check(old, tmp_path / "content")
    files = sorted(p.name for p in (tmp_path / "content" / "files").iterdir())
    assert files == ["mine.pdf"]
    assert "files/paper3.pdf: the template's own sample file" in moved.out
    papers = papers_of(tmp_path / "content")
    assert "links" not in papers["A"] and papers["B"]["links"] == {"pdf": "files/mine.pdf"}


def test_a_jekyll_sites_data_list_of_papers_moves(tmp_path):
    old = write_files(tmp_path / "old", {"_config.yml": CONFIG, "_data/publist.yml": PUBLIST,
                                         "files/plumes.pdf": b"%PDF-1.4 plumes"})
    moved = move_build_check(old, tmp_path / "content")
    papers = papers_of(tmp_path / "content")
    assert sorted(papers) == ["Sediment Plumes from Above", "Tidal Mixing in Shallow Seas"]
    tides = papers["Tidal Mixing in Shallow Seas"]
    assert tides["authors"] == ["Mara Lindqvist", "Tomas Reyes", "Lin Okafor"]
    assert (tides["venue"], str(tides["date"])) == ("Journal of Coastal Research", "2021")
    assert tides["links"] == {"doi": "https://doi.org/10.1000/tides.2021"}
    assert papers["Sediment Plumes from Above"]["links"] == {"pdf": "files/plumes.pdf"}
    assert "_data/publist.yml:15: no date found" in moved.out  # the item's own line


def test_a_json_data_list_with_the_owners_mapping(tmp_path):
    """Fields no default names (`paper_title`, `journal_name`, `yr`) read through --map."""
    items = [{"paper_title": "Tidal Mixing", "people": ["Mara Lindqvist", "Lin Okafor"],
              "journal_name": "Ocean Letters", "yr": 2022, "pdf": "https://example.org/t.pdf"}]
    old = write_files(tmp_path / "old", {"_config.yml": CONFIG,
                                         "_data/publications.json": json.dumps(items, indent=1)})
    unmapped = run_cli("migrate", str(old), "--content", str(tmp_path / "first"))
    assert "_data/publications.json:2: no title, authors, date found" in unmapped.out
    move_build_check(old, tmp_path / "content", "--map",
                     "title=paper_title;authors=people;venue=journal_name;date=yr")
    paper = papers_of(tmp_path / "content")["Tidal Mixing"]
    assert (paper["venue"], str(paper["date"])) == ("Ocean Letters", "2022")
    assert paper["links"] == {"pdf": "https://example.org/t.pdf"}
    wrong = run_cli("migrate", str(old), "--content", str(tmp_path / "x"), "--map", "place=x")
    assert wrong.code == 1 and "--map: 'place=x'" in wrong.err
    assert not (tmp_path / "x").exists()


def test_a_folder_of_bib_files_moves(tmp_path):
    """A LaTeX CV's repository: its papers' .bib files are the list; talks.bib is not."""
    entry = "@article{{k{0},\n  author = {{Lindqvist, Mara and {1}}},\n  title = {{Paper {0}}},\n" \
        "  journal = {{Ocean Letters}},\n  year = {{202{0}}}\n}}\n"
    old = write_files(tmp_path / "old", {
        "cv.tex": "\\documentclass{article}\\begin{document}\\bibliography{bib/papers}"
                  "\\end{document}\n",
        "bib/papers.bib": entry.format(1, "Reyes, Tomas") + entry.format(2, "Okafor, Lin"),
        "bib/talks.bib": "@misc{t, author = {Lindqvist, Mara}, title = {A talk}, year = {2020}}\n"})
    moved = move_build_check(old, tmp_path / "content")
    assert sorted(p.name for p in (tmp_path / "content" / "publications").iterdir()) == \
        ["papers.bib"]
    assert "bib/talks.bib: by its name not a list of papers" in moved.out
    site = yaml.safe_load((tmp_path / "content" / "site.yaml").read_text("utf-8"))
    assert site["author"]["name"] == "Mara Lindqvist"
    assert "the owner is taken to be Mara Lindqvist" in moved.out
    assert len(list((tmp_path / "site" / "publications").glob("*/index.html"))) == 2


HUGO_PAPER = "---\ntitle: Tidal Mixing\nauthors: [admin]\ndate: 2021-03-01\n" \
    "publication: Journal of Coastal Research\npublication_types: ['2']\n---\n"


def test_a_hugo_sites_menu_becomes_the_nav(tmp_path):
    """menus.toml's entries by weight: widget anchors and section folders as the sections
    they showed, a link elsewhere kept, a submenu and pages that did not move left out; a
    section's list page names itself in the menu through its front matter."""
    old = write_files(tmp_path / "old", {
        "config/_default/hugo.yaml": "title: Mara Lindqvist\nbaseURL: https://mara.example.org/\n",
        "config/_default/menus.toml": "".join(
            f'[[main]]\n  name = "{name}"\n  url = "{url}"\n  weight = {weight}\n{extra}'
            for name, url, weight, extra in (
                ("Lab wiki", "https://wiki.example.org/", 70, ""),
                ("Home", "#about", 10, ""), ("Papers", "#publications", 30, ""),
                ("Projects", "#projects", 35, ""),
                ("Team", "team/", 40, 'identifier = "team"\n'),
                ("Alumni", "team/#alumni", 1, 'parent = "team"\n'),
                ("Experience", "#experience", 20, ""))),
        "content/authors/admin/_index.md": "---\ntitle: Mara Lindqvist\n---\nI study tides.\n",
        "content/publication/tides/index.md": HUGO_PAPER,
        "content/project/buoys/index.md": "---\ntitle: Buoys\nsummary: Floating.\n---\n",
        "content/event/_index.md": "---\ntitle: Talks\nmenu:\n  main:\n    name: Talks\n"
                                   "    weight: 50\n---\n",
        "content/event/tide-talk/index.md": "---\ntitle: A Talk on Tides\n"
                                            "date: 2022-05-04\nevent: Ocean Week\n---\n"})
    moved = move_build_check(old, tmp_path / "content")
    site = yaml.safe_load((tmp_path / "content" / "site.yaml").read_text("utf-8"))
    assert site["nav"] == ["home", {"publications": "Papers"}, {"projects": "Projects"},
                           {"talks": "Talks"}, {"title": "Lab wiki", "url": "https://wiki.example.org/"}]
    assert "the menu's 'Team' (team/) names nothing that moved" in moved.out
    assert "Alumni" not in moved.out
    home = (tmp_path / "site" / "index.html").read_text("utf-8")
    assert home.index(">Papers<") < home.index(">Projects<") < home.index(">Talks<") \
        < home.index(">Lab wiki<")


def test_al_folio_talks_with_their_own_fields_move(tmp_path):
    """al-folio has no talks: sites add `_talks/` with `talk_date`, `sort_date`,
    `category`, and inline items that are a line of text with no title."""
    old = write_files(tmp_path / "old", {
        "_config.yml": CONFIG + "scholar:\n  bibliography: papers.bib\n",
        "_bibliography/papers.bib": "@article{k, author = {Lindqvist, Mara}, title = {Tides},"
                                    " journal = {Ocean Letters}, year = {2021}}\n",
        "_talks/tides-keynote.md": "---\ntitle: Tides, a keynote\ntalk_date: 2023-06-01\n"
                                   "event: Ocean Week\nlocation: Bergen\ncategory: invited\n"
                                   "---\nAn hour on tides.\n",
        "_talks/2022-02-03-seminar.md": "---\nsort_date: 2022-02-03\ninline: true\n---\n"
                                        "**Shelf seas seminar**, University of Bergen\n",
        "_talks/undated.md": "---\ntitle: Someday\n---\n"})
    moved = move_build_check(old, tmp_path / "content")
    talks = {read_front(p)["title"]: read_front(p)
             for p in sorted((tmp_path / "content" / "talks").glob("*.md"))}
    assert sorted(talks) == ["Shelf seas seminar, University of Bergen", "Someday",
                             "Tides, a keynote"]  # never left behind for its date
    keynote = talks["Tides, a keynote"]
    assert (str(keynote["date"]), keynote["event"], keynote["location"], keynote["type"]) \
        == ("2023-06-01", "Ocean Week", "Bergen", "invited")
    assert str(talks["Shelf seas seminar, University of Bergen"]["date"]) == "2022-02-03"
    assert str(talks["Someday"]["date"]) == "2022"
    assert "_talks/undated.md:1: no date (date, talk_date or sort_date): written as 2022" \
        in moved.out


def test_talks_press_and_hidden_items_filed_among_academicpages_papers(tmp_path):
    head = "---\ntitle: {0}\ndate: 2023-0{1}-01\nvenue: Ocean Week\n{2}\n---\n"
    old = write_files(tmp_path / "old", {"_config.yml": CONFIG, **{
        f"_publications/item-{n}.md": head.format(title, n, extra) for n, (title, extra) in
        enumerate((("A Real Paper", "collection: publications"),
                   ("Tides, a keynote", "collection: talks"),
                   ("Invited seminar", "type: Talks"), ("On the radio", "type: press"),
                   ("Old draft", "type: hide"),
                   ("Moved elsewhere", "redirect_to: https://journal.example.org/p/1")), 1)}})
    moved = move_build_check(old, tmp_path / "content")
    # The old list (site.publications) showed the press item: it stays a publication, its
    # word its category (issue 45, class 8); a hidden one stays behind.
    papers = papers_of(tmp_path / "content")
    assert sorted(papers) == ["A Real Paper", "Moved elsewhere", "On the radio"]
    assert (papers["On the radio"]["category"], papers["On the radio"]["type"]) == \
        ("press", "other")
    assert papers_of(tmp_path / "content")["Moved elsewhere"]["links"] == {
        "url": "https://journal.example.org/p/1"}
    assert "redirect_to" in moved.out
    talks = sorted(read_front(p)["title"] for p in (tmp_path / "content" / "talks").glob("*.md"))
    assert talks == ["Invited seminar", "Tides, a keynote"]
    assert "_publications/item-5.md:1: marked hidden" in moved.out
    assert "_publications/item-2.md:1: filed among the papers, but its front matter calls " \
        "it a talk: moved as a talk" in moved.out


def test_a_misc_entry_with_only_a_publisher_shows_it_as_the_venue(make_site, tmp_path):
    """A book or a dataset written as @misc (as CoRAL-OSU's papers.bib has one) appeared
    where its publisher put it; jekyll-scholar showed the publisher."""
    content = make_site({"publications/books.bib": (
        "@misc{bai2011,\n  title={Cooperative Control Design},\n  author={Bai, He and Wen, John},"
        "\n  year={2011},\n  publisher={Springer Science \\& Business Media}\n}\n")})
    built = run_cli("build", "--content", str(content), "--output", str(tmp_path / "site"))
    assert built.code == 0, built.err
    page = (tmp_path / "site" / "publications" / "bai2011" / "index.html").read_text("utf-8")
    assert "Springer Science &amp; Business Media" in page.split('class="paper-facts"')[1]


def test_a_bilingual_sites_copies_in_another_language_are_not_second_papers(tmp_path):
    """Every paper twice, tied by `ref:` (the Chinese copy in _publications/, the English
    one in _publications/en/), as LinJiarui's site keeps them: one paper each."""
    def entry(lang: str, title: str, name: str) -> str:
        return f"---\ntitle: {title}\nlang: {lang}\nref: publications/{name}\n" \
               f"date: 2021-05-01\nvenue: Automation in Construction\n" \
               "citation: 'Lin, J., Zhang, J. (2021). A paper. Venue.'\n---\n"
    old = write_files(tmp_path / "old", {
        "_config.yml": CONFIG,
        "_publications/2021-05-01-rules.md": entry("zh", "规则自动提取", "2021-05-01-rules"),
        "_publications/en/2021-05-01-rules.md": entry("en", "Automatic Rule Extraction",
                                                      "2021-05-01-rules"),
        "_publications/en/2022-01-01-only-english.md": entry("en", "Only in English",
                                                             "2022-01-01-only-english"),
        "_publications/2023-02-02-twin.md": entry("zh", "Twin", "2023-02-02-twin"),
        "_publications/2023-02-02-twin-again.md": entry("zh", "Twin again", "2023-02-02-twin")})
    moved = move_build_check(old, tmp_path / "content")
    assert sorted(papers_of(tmp_path / "content")) == [
        "Only in English", "Twin", "Twin again", "规则自动提取"]
    assert "_publications/en: 1 en copy of entries that move" in moved.out


def test_a_footnote_the_text_never_cites_has_no_broken_back_link(make_site, tmp_path):
    """lgalke's post defines a footnote it never cites; Python-Markdown still links back
    to the citation, which is nowhere, and `check` failed on the moved site."""
    content = make_site({"pages/notes.md": "---\ntitle: Notes\n---\nCited[^b].\n\n"
                         "[^b]: Cited note.\n\n[^lone]: Never cited.\n"})
    built = run_cli("build", "--content", str(content), "--output", str(tmp_path / "site"))
    assert built.code == 0, built.err
    checked = run_cli("check", "--content", str(content), "--output", str(tmp_path / "site"))
    assert checked.code == 0, checked.out + checked.err
    page = (tmp_path / "site" / "notes" / "index.html").read_text("utf-8")
    assert 'href="#fnref:b"' in page and "#fnref:lone" not in page and "Never cited." in page


def test_a_publications_page_naming_its_bib_file_through_liquid_moves_its_papers(tmp_path):
    """Pages write `{% bibliography -f {{ site.scholar.bibliography }} %}`: Liquid gives
    jekyll-scholar the file _config.yml names (a real lab site's 19 papers were all left
    behind as 'not read by the page', the page taken to read a file named '{{')."""
    old = write_files(tmp_path / "old", {
        "_config.yml": CONFIG + "scholar:\n  bibliography: lab.bib\n",
        "_pages/publications.md": "---\nlayout: page\npermalink: /publications/\ntitle: "
                                  "publications\n---\n{% bibliography -f "
                                  "{{ site.scholar.bibliography }} %}\n",
        "_bibliography/lab.bib": "@article{k, author = {Lindqvist, Mara}, title = {Tides},"
                                 " journal = {Ocean Letters}, year = {2021}}\n",
        "_bibliography/backup.bib": "@article{b, author = {Lindqvist, Mara}, title = {Old},"
                                    " journal = {Ocean Letters}, year = {2019}}\n"})
    moved = move_build_check(old, tmp_path / "content")
    assert (tmp_path / "content" / "publications" / "lab.bib").is_file(), moved.out
    assert "_bibliography/backup.bib: not moved as papers" in moved.out
    assert (tmp_path / "site" / "publications" / "k" / "index.html").is_file()
