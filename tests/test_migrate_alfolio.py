"""`migrate` from al-folio (scholarsite/commands/migrate/alfolio.py and cvdata.py), through
the real command line, on the fictional checkout in tests/fixtures/migrate/al-folio/: what
is written, that the new site builds and checks clean, what the report says is left behind,
and that the old site is never touched."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest
import yaml

from conftest import ROOT, build_args, run_cli, soup

OLD = ROOT / "tests" / "fixtures" / "migrate" / "al-folio"
# Written before migrating: migrate keeps it and adds the redirects, so these tests do not
# depend on how _config.yml is read (test_migrate.py tests that).
SITE_YAML = """\
title: Mira Castellan
url: https://mcastellan.example.org/home/
author:
  name: Mira Castellan
"""


def hash_tree(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def migrate_and_build(old: Path, root: Path, *extra: str):
    """Migrate `old` into root/content, then build it into root/site; returns (content,
    site, the migrate run)."""
    content = root / "content"
    content.mkdir(parents=True)
    (content / "site.yaml").write_text(SITE_YAML, encoding="utf-8")
    moved = run_cli("migrate", str(old), "--content", str(content), *extra)
    assert moved.code == 0, moved.out + moved.err
    built = run_cli(*build_args(content, root / "site"))
    assert built.code == 0, built.out + built.err
    return content, root / "site", moved


@pytest.fixture(scope="module")
def moved(tmp_path_factory):
    before = hash_tree(OLD)
    content, site, result = migrate_and_build(OLD, tmp_path_factory.mktemp("alfolio"))
    return content, site, result, before


def page(site: Path, rel: str):
    return soup(site / rel)


def test_the_new_site_builds_and_checks_clean(moved):
    content, _, result, _ = moved
    assert result.out.startswith("Moved from al-folio")
    checked = run_cli("check", "--content", str(content))
    assert checked.code == 0, checked.out + checked.err


def test_the_old_site_is_left_as_it_was(moved):
    assert hash_tree(OLD) == moved[3]


def test_the_bibliography_moves_as_it_is_with_its_pdfs_and_previews(moved):
    content, site, _, _ = moved
    # al-folio's `website` button is scholarsite's `html` link: the one change.
    old = (OLD / "_bibliography" / "papers.bib").read_text(encoding="utf-8")
    assert (content / "publications" / "papers.bib").read_text(encoding="utf-8") == \
        old.replace("  website = {", "  html = {")
    assert (content / "files" / "example.pdf").read_bytes().startswith(b"%PDF-1.4")
    assert (content / "files" / "publication_preview" / "sand.png").is_file()
    listing = page(site, "publications/index.html")
    assert "Moving Sand with Small Sensors" in listing.get_text()
    assert "Waves, Counted" in listing.get_text()
    assert listing.find("a", href="../files/example.pdf") is not None
    assert listing.find("img", class_="paper-preview") is not None
    paper = page(site, "publications/castellan2023sand/index.html")
    assert paper.find("a", href="../../files/example.pdf") is not None
    assert "Best Paper Award" in paper.get_text()
    assert paper.find("a", href="https://sand.example.org/") is not None


def test_news_keep_their_day_and_text(moved):
    content, site, _, _ = moved
    item = (content / "news" / "announcement-1.md").read_text(encoding="utf-8")
    assert "date: '2023-06-02'" in item and "layout" not in item and "inline" not in item
    news = page(site, "news/index.html").get_text()
    assert "Our paper on sand sensors was accepted" in news
    assert "The tide lab opens its doors" in news
    assert (content / "files" / "assets" / "img" / "buoy.png").is_file()


def test_projects_get_their_summary_picture_figures_and_papers(moved):
    content, site, _, _ = moved
    front = yaml.safe_load((content / "projects" / "1-project.md").read_text(
        encoding="utf-8").split("---")[1])
    assert front == {"title": "Sand Sensors", "summary": "small sensors that follow sand "
                     "on a beach", "image": "files/assets/img/buoy.png",
                     "papers": ["castellan2023sand"]}
    project = page(site, "projects/1-project/index.html")
    assert project.find("img", src=lambda s: s and s.endswith("files/assets/img/reef.jpg"))
    assert "{%" not in project.get_text()
    assert project.find("a", href="../../publications/castellan2023sand/") is not None
    assert project.find("a", href="../../files/example.pdf") is not None


def test_posts_keep_tags_and_their_old_address_redirects(moved):
    content, site, _, _ = moved
    front = yaml.safe_load((content / "posts" / "first-notes.md").read_text(
        encoding="utf-8").split("---")[1])
    assert front["tags"] == ["sensing", "fieldwork", "notes"]
    assert front["summary"] == "what a week of sensors taught us"
    assert front["date"] == "2023-03-15" and front["toc"] is True
    assert "What comes next" in page(site, "posts/first-notes/index.html").get_text()
    redirects = yaml.safe_load((content / "site.yaml").read_text(encoding="utf-8"))["redirects"]
    assert redirects["blog/2023/first-notes"] == "posts/first-notes/"
    sends = page(site, "blog/2023/first-notes/index.html")
    assert sends.find("a", href="../../../posts/first-notes/") is not None


def test_the_cv_keeps_education_positions_and_awards(moved):
    content, site, _, _ = moved
    cv = yaml.safe_load((content / "cv.yaml").read_text(encoding="utf-8"))
    assert list(cv) == ["education", "positions", "awards"]
    assert cv["positions"][0] == {"title": "Associate Professor",
                                  "organization": "University of Examplia",
                                  "location": "Examplia City", "start": 2020,
                                  "end": "present"}
    text = page(site, "cv/index.html").get_text()
    for words in ("PhD in Coastal Science", "Postdoctoral Researcher", "Tide Prize"):
        assert words in text


def test_coauthors_are_moved_and_link_their_names(moved):
    content, site, _, _ = moved
    coauthors = yaml.safe_load((content / "coauthors.yaml").read_text(encoding="utf-8"))
    assert coauthors == [
        {"name": "Femi Oduya", "aliases": ["F. Oduya"], "url": "https://oduya.example.org"},
        {"name": "Per Lindqvist", "aliases": ["P. Lindqvist"],
         "url": "https://lindqvist.example.org"}]
    links = {a.get_text(): a["href"] for a in page(site, "publications/index.html").select(
        "main .paper-authors a.author-link")}
    assert links == {"Femi Oduya": "https://oduya.example.org",
                     "Per Lindqvist": "https://lindqvist.example.org"}


def test_the_report_names_what_was_left_behind(moved):
    out = moved[2].out
    assert "_news/announcement_3.md:5: front matter is not valid YAML" in out
    assert "CV section 'Skills' not moved" in out
    assert "CV section 'General Information' not moved" in out
    assert "assets/json/resume.json: not moved" in out
    assert "_posts/2022-11-01-old-layout.html: not moved" in out
    assert "_bibliography/papers.bib:38: entry 'castellan_noyear'" in out
    assert "'website'" in out and "'award_name'" in out
    assert "{% twitter" in out  # left as text, and named
    assert ".DS_Store" not in out


def test_a_checkout_with_only_a_bibliography_moves(tmp_path):
    old = tmp_path / "old"
    shutil.copytree(OLD / "_bibliography", old / "_bibliography")
    content, site, result = migrate_and_build(old, tmp_path / "new")
    assert (content / "publications" / "papers.bib").is_file()
    assert "pdf 'example.pdf' is not in assets/pdf/" in result.out
    assert (site / "publications" / "castellan2021waves" / "index.html").is_file()


def test_resume_json_is_the_cv_without_cv_yml(tmp_path):
    old = tmp_path / "old"
    shutil.copytree(OLD, old)
    (old / "_data" / "cv.yml").unlink()
    content, site, result = migrate_and_build(old, tmp_path / "new")
    cv = yaml.safe_load((content / "cv.yaml").read_text(encoding="utf-8"))
    assert cv["education"][0]["degree"] == "PhD in Coastal Science"
    assert cv["positions"][0]["end"] == "present"
    assert cv["positions"][1] == {"title": "Postdoctoral Researcher",
                                  "organization": "Institute of Shores",
                                  "start": "2016-10-01", "end": "2020-08-31"}
    assert cv["service"][0]["role"] == "Program committee member"
    assert cv["awards"][0]["organization"] == "Examplia Academy"
    for name in ("skills", "languages", "publications"):
        assert f"JSON Resume section '{name}' not moved" in result.out
    assert "Program committee member" in page(site, "cv/index.html").get_text()
    checked = run_cli("check", "--content", str(content))
    assert checked.code == 0, checked.out + checked.err


def test_real_world_shapes_of_projects_posts_and_the_cv(moved):
    """A project dated by `year`, its picture missing and Liquid in an HTML comment; a post
    whose `date` is no real day; a CV entry open-ended with '~', its month unpadded."""
    content, _, result, _ = moved
    front = yaml.safe_load((content / "projects" / "3-project.md").read_text(
        encoding="utf-8").split("---")[1])
    assert front == {"title": "Lagoon Soundings", "date": "2021",
                     "summary": "listening to a fictional lagoon"}  # no 'image': no file
    assert "_projects/3_project.md:1: 'assets/img/lagoon-cover.jpg' names no file of the " \
           "old site, so it is left out" in result.out
    assert "old-lagoon" not in result.out  # commented out: neither moved nor noted
    post = yaml.safe_load((content / "posts" / "tide-tables.md").read_text(
        encoding="utf-8").split("---")[1])
    assert post["date"] == "2023-04-02"
    assert "_posts/2023-04-02-tide-tables.md:1: 'date: 2023-04-31 09:00:00' is no real day" \
        in result.out
    cv = yaml.safe_load((content / "cv.yaml").read_text(encoding="utf-8"))
    assert cv["positions"][2] == {"title": "Lagoon Station Fellow",
                                  "organization": "Lagoon Station", "start": "2019-03",
                                  "end": "present",
                                  "note": "Built the first lagoon gauge. Ran the winter survey."}


def test_resume_json_with_comment_lines_and_dotted_dates(tmp_path):
    old = tmp_path / "old"
    shutil.copytree(OLD, old)
    (old / "_data" / "cv.yml").unlink()
    content, _, result = migrate_and_build(old, tmp_path / "new")
    cv = yaml.safe_load((content / "cv.yaml").read_text(encoding="utf-8"))
    assert cv["awards"][1] == {"title": "Shore Fellowship", "organization": "Examplia Academy",
                               "date": "2019-07"}
    assert "assets/json/resume.json:40: '//' comment lines (not JSON) were skipped" \
        in result.out


def test_owners_projects_in_a_samples_clothing_move(tmp_path):
    """Two projects whose title, description, picture and external link are the owner's
    but whose text is the template's move, the report naming the text as the sample's; the
    template's own project stays behind (issue 45, class 1)."""
    sample = ("Every project has a beautiful feature showcase page.\nIt's easy to include "
              "images in a flexible 3-column grid format.\n")
    old = tmp_path / "old"
    for rel, front in {
            "_projects/1_project.md": "title: Tide Gauges\ndescription: cheap gauges for "
            "every shore\nimg: assets/img/gauge.jpg\nimportance: 1\ncategory: work\n",
            "_projects/2_project.md": "title: Dune Atlas\ndescription: mapping dunes\n"
            "redirect: https://dunes.example.net\nimportance: 2\ncategory: work\n",
            "_projects/3_project.md": "title: project 3\ndescription: a project that "
            "redirects to another website\nredirect: https://unsplash.com\nimportance: 3\n"
            "category: work\n"}.items():
        (old / rel).parent.mkdir(parents=True, exist_ok=True)
        (old / rel).write_text(f"---\nlayout: page\n{front}---\n{sample}", encoding="utf-8")
    (old / "assets" / "img").mkdir(parents=True)
    (old / "assets" / "img" / "gauge.jpg").write_bytes((OLD / "assets" / "img" / "prof_pic.jpg")
                                                       .read_bytes())
    content = tmp_path / "content"
    result = run_cli("migrate", str(old), "--content", str(content), "--from", "al-folio")
    assert result.code == 0, result.out + result.err
    gauges = yaml.safe_load((content / "projects" / "1-project.md").read_text(
        encoding="utf-8").split("---")[1])
    assert (gauges["title"], gauges["summary"]) == ("Tide Gauges", "cheap gauges for every "
                                                    "shore") and gauges["image"]
    dunes = yaml.safe_load((content / "projects" / "2-project.md").read_text(
        encoding="utf-8").split("---")[1])
    assert dunes["links"] == {"Website": "https://dunes.example.net"}
    for name in ("1_project", "2_project"):
        assert f"_projects/{name}.md:1: its text is still the template's sample text " \
               "(al-folio)" in result.out
    assert "_projects/3_project.md:1: the template's own sample" in result.out
    assert not (content / "projects" / "3-project.md").exists()


def test_no_news_item_is_left_behind_for_its_date(tmp_path):
    """al-folio news dated 'Sep-14' (a month and a two-digit year) or not at all move:
    the first read as far as it can be, the second given the oldest year of the news, so
    that it is listed last; the report names both (issue 45, class 2)."""
    old = tmp_path / "old"
    (old / "_news").mkdir(parents=True)
    for name, front in {"announcement_1.md": "date: 2016-03-01 10:00:00\n",
                        "announcement_2.md": "date: Sep-14\n", "announcement_3.md": ""}.items():
        (old / "_news" / name).write_text(f"---\nlayout: post\n{front}inline: true\n---\n"
                                          f"Widget news {name}.\n", encoding="utf-8")
    content = tmp_path / "content"
    result = run_cli("migrate", str(old), "--content", str(content), "--from", "al-folio")
    assert result.code == 0, result.out + result.err
    dates = {p.stem: str(yaml.safe_load(p.read_text(encoding="utf-8").split("---")[1])["date"])
             for p in (content / "news").glob("*.md")}
    assert dates == {"announcement-1": "2016-03-01", "announcement-2": "2014-09",
                     "announcement-3": "2016"}
    assert "_news/announcement_2.md:1: the date 'Sep-14' read as 2014-09" in result.out
    assert "_news/announcement_3.md:1: the old site gives no date; written as 2016" in result.out
    assert "not moved" not in result.out


AAS_AND_REFERENCES_BIB = r"""
@article{dust2021, title = {Dust in the Wind&#58; A Survey}, journal = {\apj},
  author = {Castellan, Mira and M&uuml;ller, Jonas}, year = {2021}}
@article{rings2020, title = {Rings &amp; Moons for &#36;5}, journal = {{\mnras}},
  author = {Castellan, Mira}, year = {2020}}
@article{cold2019, title = {Cold Gas}, journal = {\aap}, author = {Castellan, Mira},
  year = {2019}}
@article{jets2022, title = {Jets}, journal = {\apjl}, author = {Castellan, Mira},
  year = {2022}, eprint = {2201.01234}, archiveprefix = {arXiv}}
@article{odd2018, title = {R&D; at Sea}, journal = {\notajournal}, author = {Castellan, Mira},
  year = {2018}}
"""


@pytest.fixture(scope="module")
def astronomer(tmp_path_factory):
    """An al-folio bibliography as NASA ADS exports it (AAS journal macros) and with HTML
    character references in its values: (content, site, migrate's run)."""
    root = tmp_path_factory.mktemp("astronomer")
    (root / "old" / "_bibliography").mkdir(parents=True)
    (root / "old" / "_bibliography" / "papers.bib").write_text(AAS_AND_REFERENCES_BIB,
                                                                encoding="utf-8")
    return migrate_and_build(root / "old", root / "new")


def test_aas_journal_macros_are_read_as_the_journals_they_name(astronomer):
    site = astronomer[1]
    shown = {}
    for key in ("dust2021", "rings2020", "cold2019", "jets2022"):
        facts = page(site, f"publications/{key}/index.html").select(".paper-facts dt, "
                                                                    ".paper-facts dd")
        texts = [" ".join(tag.get_text().split()) for tag in facts]
        shown[key] = dict(zip(texts[::2], texts[1::2])).get("Journal")
    assert shown == {"dust2021": "The Astrophysical Journal",
                     "rings2020": "Monthly Notices of the Royal Astronomical Society",
                     "cold2019": "Astronomy and Astrophysics",
                     "jets2022": "The Astrophysical Journal Letters"}


def test_html_character_references_in_bibtex_are_their_characters(astronomer):
    site = astronomer[1]
    titles = {key: page(site, f"publications/{key}/index.html").select_one("h1").get_text()
              for key in ("dust2021", "rings2020", "odd2018")}
    assert titles == {"dust2021": "Dust in the Wind: A Survey",
                      "rings2020": "Rings & Moons for $5", "odd2018": "R&D; at Sea"}
    html = (site / "publications" / "rings2020" / "index.html").read_text(encoding="utf-8")
    assert "Rings &amp; Moons for $5" in html and "&amp;amp;" not in html
    assert "Müller" in page(site, "publications/dust2021/index.html").get_text()
