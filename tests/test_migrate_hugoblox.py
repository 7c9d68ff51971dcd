"""`migrate` on a Hugo Blox (Wowchemy) site: tests/fixtures/migrate/hugo-blox/ is a small,
fictional site laid out as the Hugo Blox academic starter lays one out. It is migrated and
built once through the real command line; each test reads what came out."""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

import pytest
import yaml

from conftest import ROOT, build_args, run_cli, soup, write_files

OLD = ROOT / "tests" / "fixtures" / "migrate" / "hugo-blox"


def hash_tree(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def migrate(old: Path, content: Path):
    """`migrate OLD --content CONTENT`, which must succeed; its result (the report in .out)."""
    result = run_cli("migrate", str(old), "--content", str(content))
    assert result.code == 0, result.out + result.err
    return result


def front_matter(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8").split("---\n")[1])


@pytest.fixture(scope="module")
def moved(tmp_path_factory):
    """(content, site, migrate's output, the old tree's hashes before) for one migration."""
    root = tmp_path_factory.mktemp("hugoblox")
    before = hash_tree(OLD)
    content = root / "content"
    result = run_cli("migrate", str(OLD), "--content", str(content))
    assert result.code == 0, result.out + result.err
    built = run_cli(*build_args(content, root / "site"))
    assert built.code == 0, built.out + built.err
    return content, root / "site", result.out, before


def test_the_old_site_is_only_read(moved):
    assert hash_tree(OLD) == moved[3]


def test_the_migrated_site_checks_clean(moved):
    content = moved[0]
    result = run_cli("check", "--content", str(content), "--templates",
                     str(ROOT / "templates"))
    assert result.code == 0, result.out + result.err


def test_settings_and_owner_come_from_the_config_and_the_admin_profile(moved):
    site = yaml.safe_load((moved[0] / "site.yaml").read_text(encoding="utf-8"))
    assert site["title"] == "Marlowe Quillfeather"
    assert site["url"] == "https://quillfeather.example.net/lab/"
    assert site["description"].startswith("Tidal computing")
    author = site["author"]
    assert author["name"] == "Marlowe Quillfeather"
    assert author["position"] == "Associate Professor of Tidal Computing"
    assert author["affiliation"] == "Driftwood Institute of Technology"
    assert author["email"] == "marlowe@driftwood.example.edu"
    assert author["photo"] == "files/avatar.jpg"
    assert (moved[0] / "files" / "avatar.jpg").read_bytes() == \
        (OLD / "content" / "authors" / "admin" / "avatar.jpg").read_bytes()
    assert list(author["links"]) == ["scholar", "orcid", "github", "twitter"]
    assert author["links"]["twitter"] == "https://x.com/quillfeather_example"
    assert site["publications"]["author_notes"] == {"*": "Equal contribution"}


def test_the_profile_text_is_the_home_page_and_education_the_cv(moved):
    content, site = moved[0], moved[1]
    bio = (content / "index.md").read_text(encoding="utf-8")
    assert "is a **fictional** researcher" in bio and "Tidal scheduling" in bio
    cv = yaml.safe_load((content / "cv.yaml").read_text(encoding="utf-8"))
    assert cv["education"][0] == {"degree": "PhD in Oceanic Informatics",
                                  "institution": "University of Nowhere Bay", "date": "2015"}
    home = soup(site / "index.html")
    assert "fictional" in home.get_text()


def test_papers_have_names_plain_venues_types_and_links(moved):
    content = moved[0]
    tidal = front_matter(content / "publications" / "tidal-scheduling.md")
    assert tidal["authors"] == ["Marlowe Quillfeather*", "Ines Brackwater*", "Oskar Fennimore"]
    assert tidal["venue"] == "Proceedings of the Symposium on Imaginary Systems (SIS 2023)"
    assert tidal["venue_short"] == "SIS 2023"
    assert tidal["type"] == "conference" and tidal["selected"] is True
    assert tidal["topics"] == ["Scheduling", "Tides"]
    assert tidal["links"] == {"pdf": "files/publications/tidal-scheduling/paper.pdf",
                              "code": "https://github.com/quillfeather-example/tidal",
                              "url": "https://tides.example.org/artifact",
                              "doi": "10.5555/fictional.2023.001"}
    assert tidal["preview"] == "files/publications/tidal-scheduling/featured.png"
    assert (content / tidal["links"]["pdf"]).read_bytes() == \
        (OLD / "content" / "publication" / "tidal-scheduling" / "paper.pdf").read_bytes()
    assert "summary" not in tidal and "projects" not in tidal
    # The figure of its text stays there, and shows at the paper's page's depth.
    page = (moved[1] / "publications" / "tidal-scheduling" / "index.html").read_text("utf-8")
    assert 'src="../../files/publications/tidal-scheduling/pipeline.png"' in page


def test_a_toml_paper_takes_its_details_from_cite_bib(moved):
    kelp = front_matter(moved[0] / "publications" / "kelp-storage.md")
    assert kelp["authors"] == ["Oskar Fennimore", "Marlowe Quillfeather"]
    assert kelp["venue"] == "Journal of Imaginary Oceanography"
    assert kelp["type"] == "journal" and kelp["date"] == "2021-03-01"
    assert (kelp["volume"], kelp["number"], kelp["pages"]) == ("12", "3", "101–117")
    assert kelp["links"]["pdf"] == "files/uploads/kelp-storage.pdf"  # from static/uploads/
    assert (moved[0] / "files" / "uploads" / "kelp-storage.pdf").is_file()


def test_a_preprint_keeps_its_arxiv_id(moved):
    brine = front_matter(moved[0] / "publications" / "brine-preprint.md")
    assert brine["type"] == "preprint" and "venue" not in brine
    assert brine["links"] == {"arxiv": "2402.01234",
                              "poster": "https://posters.example.org/brine.pdf"}


def test_built_paper_pages_show_the_owner_and_the_copied_pdf(moved):
    site = moved[1]
    page = soup(site / "publications" / "tidal-scheduling" / "index.html")
    text = page.get_text(" ")
    assert "Marlowe Quillfeather" in text and "admin" not in text.split()
    assert "In *" not in text and "Proceedings of the Symposium on Imaginary Systems" in text
    hrefs = [a["href"] for a in page.find_all("a", href=True)]
    assert any(h.endswith("files/publications/tidal-scheduling/paper.pdf") for h in hrefs)
    assert (site / "files" / "publications" / "tidal-scheduling" / "paper.pdf").is_file()


def test_a_talk_moves_with_its_slides_and_video(moved):
    content, site = moved[0], moved[1]
    talk = front_matter(content / "talks" / "harbour-keynote.md")
    assert talk["event"] == "Harbour Systems Workshop 2024"
    assert talk["location"] == "Lighthouse Hall, Saltmere, Atlantis"
    assert talk["date"] == "2024-05-20"
    assert talk["slides"] == "files/talks/harbour-keynote/slides.pdf"
    assert talk["video"] == "https://video.example.org/harbour-keynote"
    page = soup(site / "talks" / "harbour-keynote" / "index.html").get_text(" ")
    assert "How the moon tells the scheduler" in page


def test_a_post_keeps_its_figures_and_bundle_pictures(moved):
    content, site = moved[0], moved[1]
    text = (content / "posts" / "getting-started.md").read_text(encoding="utf-8")
    assert "{{<" not in text and "{{%" not in text
    assert ('![A queue at low tide](files/posts/getting-started/queue.png "A queue at low tide")'
            in text)
    assert "(files/posts/getting-started/chart.png)" in text
    assert "!!! note" in text  # the callout
    post = front_matter(content / "posts" / "getting-started.md")
    assert post["tags"] == ["Tides", "Tutorial", "Notes"]
    page = soup(site / "posts" / "getting-started" / "index.html")
    pictures = {img["src"].rpartition("/")[2]: img.get("alt") for img in page.find_all("img")}
    assert pictures["queue.png"] == "A queue at low tide"  # the figure shortcode's caption
    assert pictures["featured.jpg"] == "A calm sea"
    for name in ("queue.png", "chart.png", "featured.jpg"):
        assert (site / "files" / "posts" / "getting-started" / name).is_file()
    note = (content / "posts" / "short-note.md").read_text(encoding="utf-8")
    assert "(publications/brine-preprint/)" in note  # the old address, made the new one


@pytest.mark.parametrize("old, new", [
    ("publication/tidal-scheduling", "publications/tidal-scheduling/"),
    ("event/harbour-keynote", "talks/harbour-keynote/"),
    ("post/getting-started", "posts/getting-started/"),
    ("project/tides", "projects/tides/"),
    ("notes/brine", "posts/short-note/")])  # a Hugo alias
def test_old_addresses_redirect_to_the_new_pages(moved, old, new):
    page = (moved[1] / old / "index.html").read_text(encoding="utf-8")
    assert f"url=../../{new}" in page


def test_the_report_names_what_needs_a_look_and_what_was_left(moved):
    out = moved[2]
    review, _, left = out.partition("Left behind")
    assert "content/publication/tidal-scheduling/index.md:42: template code left as text: " \
           "{{< gallery" in review
    assert "content/authors/admin/_index.md:49: link to 'uploads/resume.pdf' taken out" in review
    assert "content/publication/broken-front/index.md:" in left
    assert "content/_index.md:" in left and "content/project" not in left
    assert "projects" not in left  # the paper's `projects:` is the project's `papers:`
    assert front_matter(moved[0] / "projects" / "tides.md")["papers"] == ["tidal-scheduling"]
    assert ".DS_Store" not in out
    assert not (moved[0] / "publications" / "broken-front.md").exists()
    paper = (moved[0] / "publications" / "tidal-scheduling.md").read_text(encoding="utf-8")
    assert "[Video](https://www.youtube.com/watch?v=w7Ft2ymGmfc)" in paper  # a shortcode's link
    home = (moved[0] / "index.md").read_text(encoding="utf-8")
    assert 'Download my <span data-dead-link="uploads/resume.pdf">resumé</span>.' in home \
        and "{{" not in home  # kept as text, marked: each build names it


def test_from_hugo_blox_and_a_second_run_keep_what_is_there(tmp_path):
    content = tmp_path / "content"
    first = run_cli("migrate", str(OLD), "--content", str(content), "--from", "hugo-blox")
    assert first.code == 0, first.err
    paper = content / "publications" / "kelp-storage.md"
    paper.write_text(paper.read_text(encoding="utf-8").replace("Cold Storage", "Cool Storage"),
                     encoding="utf-8")
    before = hash_tree(content)
    again = run_cli("migrate", str(OLD), "--content", str(content), "--from", "hugo-blox")
    assert again.code == 0, again.err
    assert "Wrote 0 files" in again.out
    assert hash_tree(content) == before
    assert "Cool Storage" in paper.read_text(encoding="utf-8")


def test_an_old_wowchemy_site_with_toml_settings_and_gaps(tmp_path):
    """config.toml at the root, no owner profile, single-file pages, a missing PDF: the
    gaps get placeholders and notes, and the result still builds and checks."""
    old = write_files(tmp_path / "old", {
        "config.toml": 'title = ""\nbaseurl = "/"\n',
        "content/publication/solo-note.md": """\
            +++
            title = "A Note Written Alone"
            date = 2019-11-05
            authors = ["admin"]
            publication_types = ["3"]
            url_pdf = "files/missing.pdf"
            +++
            """,
        "content/talk/winter-talk.md": "---\ntitle: Winter Talk\ndate: 2020-01-10\n---\n",
    })
    content = tmp_path / "content"
    result = migrate(old, content)
    site = yaml.safe_load((content / "site.yaml").read_text(encoding="utf-8"))
    assert site["title"] == "Your Name" and site["url"] == "https://example.org/"
    assert site["author"] == {"name": "Your Name"}
    note = front_matter(content / "publications" / "solo-note.md")
    assert note["authors"] == ["Your Name"] and note["type"] == "preprint"
    assert note["venue"] == "Manuscript" and "links" not in note
    assert "content/publication/solo-note.md:6: link 'files/missing.pdf' names no file" \
        in result.out
    assert "config.toml: no baseURL" in result.out
    assert (content / "talks" / "winter-talk.md").is_file()
    assert run_cli(*build_args(content, tmp_path / "site")).code == 0
    assert run_cli("check", "--content", str(content)).code == 0


def test_names_venues_and_dois_written_loosely_are_read_as_meant(moved):
    """Shapes real Wowchemy sites have: bold or 'Family, G.' names, two authors in one
    item, an APA-style venue, a DOI typed with a typo, 'journal_article', a capitalised
    'Admin', Wowchemy's '\\n' in a display name, 'article' that cite.bib calls a journal."""
    content, out = moved[0], moved[2]
    reef = front_matter(content / "publications" / "reef-census.md")
    assert reef["authors"] == ["Marlowe Quillfeather", "O. Fennimore", "Pelham Ashgrove",
                               "Ysolde Tarn"]
    assert (reef["venue"], reef["volume"], reef["number"], reef["pages"]) == \
        ("Journal of Imaginary Oceanography", "14", "2", "33–47")
    assert reef["type"] == "journal"
    assert reef["links"] == {"doi": "10.5555/fictional.2020.077"}
    assert "reef-census.md:5: the author 'Pelham Ashgrove, Ysolde Tarn' was read as 2" in out
    marsh = front_matter(content / "publications" / "salt-marsh.md")
    assert marsh["authors"] == ["Marlowe Quillfeather", "Ines Brackwater"]
    assert marsh["type"] == "journal" and marsh["venue"] == "Annals of Fictional Estuaries"
    assert "links" not in marsh
    assert "salt-marsh/index.md:7: 'tbd' is not a DOI; not moved" in out
    seminar = front_matter(content / "talks" / "estuary-seminar.md")
    assert seminar["location"] == "Saltmere, Atlantis"  # not 'Saltmere, Atlantis, Saltmere...'
    assert "profile link 'contact'" not in out  # the contact form, like '/#contact'


def test_one_unreadable_page_is_left_behind_and_a_draft_gets_no_redirect(moved):
    content, out = moved[0], moved[2]
    _, _, left = out.partition("Left behind")
    assert "content/publication/odd-links/index.md:1: not moved: migrate could not read it" \
        in left
    assert not (content / "publications" / "odd-links.md").exists()
    site = yaml.safe_load((content / "site.yaml").read_text(encoding="utf-8"))
    assert "publication/odd-links" not in site["redirects"]
    assert front_matter(content / "posts" / "draft-idea.md")["draft"] is True
    assert "post/draft-idea" not in site["redirects"]  # its page is not built


def test_a_theme_default_title_gives_way_to_the_owner(tmp_path):
    old = write_files(tmp_path / "old", {
        "config.toml": 'title = "Academic"\nbaseurl = "https://wren.example.org/"\n',
        "content/authors/admin/_index.md": "---\nname: Tamsin Wren\nsuperuser: true\n---\n",
        "content/publication/lone-paper.md": "---\ntitle: A Lone Paper\ndate: 2018-02-01\n"
                                              "authors: [admin]\npublication: Imaginary Letters\n"
                                              "---\n",
    })
    content = tmp_path / "content"
    result = migrate(old, content)
    site = yaml.safe_load((content / "site.yaml").read_text(encoding="utf-8"))
    assert site["title"] == "Tamsin Wren"
    assert "config.toml: the site's title was the theme's own 'Academic'" in result.out


def test_dataset_dois_keep_their_slot_and_shortcode_links_and_raw_images_work(tmp_path):
    """A `url_dataset` or preprint doi.org link never takes the paper's DOI; Hugo's ref
    shortcodes lead to the moved page; a template expression or a dead anchor is taken
    out; a raw-HTML picture of static/ works from the moved page (issue 33, classes 5,
    10, 15). A POSIX language name (`en_GB`) becomes the language alone, a BCP 47 tag."""
    old = write_files(tmp_path / "old", {
        "hugo.yaml": "title: Ann Lee\nbaseURL: https://ann.example.org/\n"
                     "defaultContentLanguage: en_GB\n",
        "static/images/map.png": b"\x89PNG\r\n\x1a\n" + bytes(64),
        "content/publication/kelp/index.md": """\
            ---
            title: Kelp Counts
            date: 2021-03-01
            authors: [Ann Lee]
            publication: Marine Notes
            url_dataset: https://doi.org/10.5061/dryad.kelp
            url_preprint: https://doi.org/10.1101/2020.01.01.kelp
            doi: 10.1000/kelp.2021
            ---
            """,
        "content/post/field-trip/index.md": """\
            ---
            title: Field Trip
            date: 2022-05-01
            ---
            Read [the paper]({{< relref "/publication/kelp/index.md" >}}) and
            [the notes](#notes) and [this]({{ page.url }}).

            <img src="/images/map.png" alt="Map">
            """,
    })
    content = tmp_path / "content"
    migrate(old, content)
    paper = front_matter(content / "publications" / "kelp.md")
    assert paper["links"] == {"doi": "10.1000/kelp.2021",
                              "supp": "https://doi.org/10.5061/dryad.kelp",
                              "url": "https://doi.org/10.1101/2020.01.01.kelp"}
    assert run_cli(*build_args(content, tmp_path / "site")).code == 0
    checked = run_cli("check", "--content", str(content), "--output", str(tmp_path / "site"))
    assert checked.code == 0, checked.out + checked.err
    post = soup(tmp_path / "site" / "posts" / "field-trip" / "index.html")
    hrefs = [a.get("href") for a in post.select("main a")]
    assert "../../publications/kelp/" in hrefs
    assert post.find("img", alt="Map")["src"] == "../../files/images/map.png"


def test_html_markdown_and_capitalised_keys_in_hugo_fields_are_read_as_hugo_shows_them(
        tmp_path):
    """A profile's name written as a link, a title in `<i>`, a venue with `<sup>` or as a
    Markdown link, and keys in capitals (`Date:`, `Title:`, which Hugo reads in any case)
    (issue 33, classes 8, 9 and 12)."""
    old = write_files(tmp_path / "old", {
        "hugo.yaml": "title: Ann Lee\nbaseURL: https://ann.example.org/\n",
        "content/authors/admin/_index.md": "---\nTitle: <b>Ann Lee</b>\nsuperuser: true\n---\n",
        "content/authors/bo/_index.md": "---\nTitle: <a href='https://bo.example.org/' "
                                        "target=\"_blank\">Bo Chan</a>\n---\n",
        "content/publication/heads/index.md": """\
            ---
            title: "A Mixture of <i>h-1</i> Heads"
            authors: [bo, admin]
            Date: 2020-04-01
            publishDate: 2021-07-01T00:00:00Z
            publication: "In *Proc. of EMC<sup>2</sup> 2020*"
            ---
            """,
        "content/publication/radar/index.md": """\
            ---
            title: "[Radar Angles](https://example.org/radar.pdf)"
            authors: [admin]
            date: 2022-01-01
            publication: "[IEEE Access (Early Access)](https://ieeexplore.example.org/)"
            ---
            """,
    })
    content = tmp_path / "content"
    migrate(old, content)
    radar = front_matter(content / "publications" / "radar.md")
    assert (radar["title"], radar["venue"]) == ("Radar Angles", "IEEE Access (Early Access)")
    assert radar["links"] == {"url": "https://example.org/radar.pdf", "more": [  # as Hugo linked it
        {"label": "IEEE Access (Early Access)", "url": "https://ieeexplore.example.org/"}]}
    assert run_cli(*build_args(content, tmp_path / "site")).code == 0
    page = soup(tmp_path / "site" / "publications" / "heads" / "index.html")
    assert str(page.h1) == "<h1>A Mixture of <em>h-1</em> Heads</h1>"
    assert [a.get_text() for a in page.select(".paper-authors .author")] == \
        ["Bo Chan", "Ann Lee"]
    assert page.select_one(".paper-authors .owner").get_text() == "Ann Lee"
    assert "Proc. of EMC2 2020" in page.get_text() and "<sup>" not in page.get_text()
    assert page.find("time")["datetime"].startswith("2020-04")


def test_a_featured_picture_the_build_refuses_leaves_its_paper_behind(tmp_path):
    """migrate's trial build resizes no previews (its site is thrown away), yet finds the
    picture the build would refuse: that paper stays behind, with the build's reason; the
    other's preview is resized by the real build."""
    from PIL import Image

    good = io.BytesIO()
    Image.new("RGB", (400, 300), (30, 90, 160)).save(good, format="PNG")
    bundle = "---\ntitle: {}\ndate: 2021-03-01\nauthors: [Ann Lee]\npublication: Notes\n---\n"
    old = write_files(tmp_path / "old", {
        "hugo.yaml": "title: Ann Lee\nbaseURL: https://ann.example.org/\n",
        "content/publication/kelp/index.md": bundle.format("Kelp Counts"),
        "content/publication/kelp/featured.png": good.getvalue(),
        "content/publication/reef/index.md": bundle.format("Reef Counts"),
        "content/publication/reef/featured.png": good.getvalue()[:200],  # cut short
    })
    content = tmp_path / "content"
    moved = migrate(old, content)
    assert (content / "publications" / "kelp.md").is_file()
    assert not (content / "publications" / "reef.md").exists()
    [said] = [line for line in moved.out.splitlines() if "reef/index.md" in line]
    assert "the new site would not build with it" in said and "'preview'" in said
    assert run_cli(*build_args(content, tmp_path / "site")).code == 0
    [img] = soup(tmp_path / "site" / "publications" / "kelp" / "index.html").select(
        "img.paper-preview, img.paper-figure")
    assert img["src"].endswith(".webp")


def test_a_date_with_day_and_month_swapped_is_read_and_said(tmp_path):
    """'2021-31-01' has no month 31: read as 31 January, with a note at its line; one that
    is no date either way is not used (issue 33, class 12)."""
    page = "---\ntitle: {t}\nauthors: [admin]\ndate: {d}\npublication: Letters\n---\n"
    old = write_files(tmp_path / "old", {
        "hugo.yaml": "title: Ann Lee\nbaseURL: https://ann.example.org/\n",
        "content/authors/admin/_index.md": "---\ntitle: Ann Lee\nsuperuser: true\n---\n",
        "content/publication/swapped.md": page.format(t="Swapped", d="2021-31-01"),
        "content/post/odd.md": "---\ntitle: Odd\ndate: 2021-31-31\n---\nText.\n",
    })
    content = tmp_path / "content"
    result = migrate(old, content)
    assert str(front_matter(content / "publications" / "swapped.md")["date"]) == "2021-01-31"
    assert "content/publication/swapped.md:4: the date '2021-31-01' has no month 31: read " \
        "as 2021-01-31" in result.out
    assert "content/post/odd.md:3: the date '2021-31-31' has no month 31: not used" \
        in result.out
    assert run_cli(*build_args(content, tmp_path / "site")).code == 0


def test_a_venue_whose_name_begins_with_an_asterisk_keeps_it(tmp_path):
    """`*SEM` is a venue's name, not Markdown emphasis: only a pair of marks around text
    is (issue 33, class 15)."""
    old = write_files(tmp_path / "old", {
        "hugo.yaml": "title: Ann Lee\nbaseURL: https://ann.example.org/\n",
        "content/authors/admin/_index.md": "---\ntitle: Ann Lee\nsuperuser: true\n---\n",
        "content/publication/sem.md": "---\ntitle: Sem\nauthors: [admin]\ndate: 2021-06-01\n"
                                      "publication: 'In *Proceedings of *SEM 2021*'\n"
                                      "publication_short: '*SEM'\n---\n",
    })
    content = tmp_path / "content"
    migrate(old, content)
    sem = front_matter(content / "publications" / "sem.md")
    assert (sem["venue"], sem["venue_short"]) == ("Proceedings of *SEM 2021", "*SEM")


def test_a_paper_with_an_empty_venue_is_written_as_a_manuscript(tmp_path):
    """`publication: '**'` (empty bold) names no venue: the paper is written as
    academicpages' are without one, not as a journal article in a made-up journal."""
    old = write_files(tmp_path / "old", {
        "hugo.yaml": "title: Ann Lee\nbaseURL: https://ann.example.org/\n",
        "content/authors/admin/_index.md": "---\ntitle: Ann Lee\nsuperuser: true\n---\n",
        "content/publication/report/index.md": "---\ntitle: A Report\nauthors: [admin]\n"
                                               "date: 2001-01-01\npublication_types: ['2']\n"
                                               "publication: '**'\n---\n",
    })
    content = tmp_path / "content"
    result = migrate(old, content)
    paper = front_matter(content / "publications" / "report.md")
    assert (paper["venue"], paper["type"]) == ("Manuscript", "other")
    assert "content/publication/report/index.md" in result.out \
        and "no venue; written as 'Manuscript' (type: other)" in result.out
    assert run_cli(*build_args(content, tmp_path / "site")).code == 0
    page = soup(tmp_path / "site" / "publications" / "report" / "index.html")
    assert "Unknown venue" not in page.get_text() and "Manuscript" in page.get_text()


def test_the_sample_talks_bundle_stays_behind_whole_and_named(tmp_path):
    """Hugo Academic's sample talk is a bundle: its picture stays behind with its page,
    and the report names it there (issue 33, class 3)."""
    old = write_files(tmp_path / "old", {
        "hugo.yaml": "title: Ann Lee\nbaseURL: https://ann.example.org/\n",
        "content/talk/example/index.md": "---\ntitle: Example Talk\nevent: Academic Theme "
                                         "Conference\ndate: 2030-06-01\n---\nSlides.\n",
        "content/talk/example/featured.jpg": b"\xff\xd8\xff\xe0 not really a picture",
        "content/talk/mine/index.md": "---\ntitle: My Talk\ndate: 2020-06-01\n---\n",
        "content/publication/p/index.md": "---\ntitle: P\ndate: 2020-01-01\n"
                                          "publication: J\n---\n",
    })
    content = tmp_path / "content"
    result = migrate(old, content)
    behind = result.out.split("Left behind", 1)[1]
    assert "content/talk/example/index.md:1: the template's own sample" in behind
    assert "content/talk/example/featured.jpg: a file of content/talk/example/index.md, " \
           "which was left behind; not moved" in behind
    assert [p.name for p in (content / "talks").iterdir()] == ["mine.md"]
    assert not [p for p in content.rglob("featured.jpg")]


def test_a_bundles_html_page_moves_with_the_files_it_links(tmp_path):
    """`url_code: code.html`, a raw page of the bundle: the bundle's files it links (and
    those of a page it links) are copied beside it, so its downloads work; what the old
    site lacked too stays a broken link, for check to name as a warning at that page, which
    is published as it is (issue 33, schwartz-lab)."""
    old = write_files(tmp_path / "old", {
        "hugo.yaml": "title: Ann Lee\nbaseURL: https://ann.example.org/\n",
        "content/publication/sp_x/index.md": "---\ntitle: P\ndate: 2020-01-01\n"
                                             "publication: J\nurl_code: code.html\n---\n",
        "content/publication/sp_x/code.html": "<title>Code</title><a href='data.zip'>data</a>"
                                              " <a href=\"tools/t.html\">tool</a> <a href="
                                              "'https://example.org/big.gz'>big</a> <link "
                                              "rel=stylesheet href='../../styles.css'>",
        "content/publication/sp_x/tools/t.html": "<title>T</title><a href='t.zip'>t</a>",
        "content/publication/sp_x/tools/t.zip": b"PK t",
        "content/publication/sp_x/data.zip": b"PK data",
        "content/publication/sp_x/unlinked.txt": "not linked from anything",
    })
    content = tmp_path / "content"
    migrate(old, content)
    folder = content / "files" / "publications" / "sp-x"
    assert sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()) \
        == ["code.html", "data.zip", "tools/t.html", "tools/t.zip"]
    checked = run_cli("check", "--content", str(content))
    assert checked.code == 0, checked.err
    assert [line.split(": warning: ")[1] for line in checked.err.splitlines()
            if ": warning: " in line and "code.html" in line] == [
        "missing asset '../../styles.css': there is no 'files/styles.css' in the site (in a "
        "file published as it is from files/)"]


def test_links_beyond_one_of_a_kind_keep_their_own_labels(tmp_path):
    """Hugo's `links:` items are named by their owner ('Rejoinder', 'Buy'): where one of
    that kind is already there, the link is kept under `links.more` with its name, and
    the page shows it so (issue 33: one link per kind lost them)."""
    old = write_files(tmp_path / "old", {
        "hugo.yaml": "title: Ann Lee\nbaseURL: https://ann.example.org/\n",
        "content/publication/rj/index.md": """\
            ---
            title: A Paper and its Rejoinder
            date: 2022-01-01
            publication: The R Journal
            links:
            - {name: Article PDF, url: /publication/paper.pdf}
            - {name: Rejoinder PDF, url: /publication/rejoinder.pdf}
            - {name: Buy, url: 'https://shop.example.com/book'}
            ---
            """,
        "static/publication/paper.pdf": b"%PDF-1.4 paper\n",
        "static/publication/rejoinder.pdf": b"%PDF-1.4 rejoinder\n",
    })
    content = tmp_path / "content"
    migrate(old, content)
    links = front_matter(content / "publications" / "rj.md")["links"]
    assert links["pdf"] == "files/publication/paper.pdf"
    assert {"label": "Rejoinder PDF", "url": "files/publication/rejoinder.pdf"} in links["more"]
    assert run_cli(*build_args(content, tmp_path / "site")).code == 0
    page = soup(tmp_path / "site" / "publications" / "rj" / "index.html")
    chips = {a.get_text(): a["href"] for a in page.select(".paper-links a.chip")}
    assert chips["Rejoinder PDF"] == "../../files/publication/rejoinder.pdf"
    assert "https://shop.example.com/book" in chips.values()


def test_projects_move_with_their_picture_links_papers_and_old_addresses(tmp_path):
    """Hugo's `content/project/`: a bundle with its `featured.jpg`, a single file, a draft
    and the theme's sample; a paper names its project under `projects:`, the project lists
    it under `papers:`, and its page shows the papers and links (hugoproj)."""
    old = write_files(tmp_path / "old", {
        "hugo.yaml": "title: Ann Lee\nbaseURL: https://ann.example.org/\n",
        "content/project/_index.md": "---\ntitle: Projects\n---\n",
        "content/project/reef-watch/index.md": """\
            ---
            title: Reef Watch
            summary: "<b>Counting</b> corals from the air."
            date: 2021-03-04
            external_link: ""
            url_code: https://github.com/ann/reef
            url_pdf: reef-report.pdf
            links:
            - {name: Dataset, url: 'https://data.example.org/reef'}
            ---
            We fly {{< icon name="plane" >}} drones over reefs. ![Map](map.png)
            """,
        "content/project/reef-watch/featured.jpg": b"\xff\xd8\xff\xe0 a picture",
        "content/project/reef-watch/map.png": b"\x89PNG map",
        "content/project/reef-watch/reef-report.pdf": b"%PDF-1.4 report\n",
        "content/project/tide-gauges.md": "---\ntitle: Tide Gauges\nsummary: Gauges.\n"
                                          "external_link: https://tides.example.org/\n---\n",
        "content/project/secret.md": "---\ntitle: Secret Plan\ndraft: true\n---\nSoon.\n",
        "content/project/example/index.md": "---\ntitle: Example Project\nsummary: An example "
                                            "of using the in-built project page.\n---\n",
        "content/project/example/featured.jpg": b"\xff\xd8\xff\xe0 the sample's",
        "content/publication/corals/index.md": "---\ntitle: Corals Counted\ndate: 2022-01-01\n"
                                               "publication: Reef Journal\nprojects: "
                                               "[reef-watch, gone]\n---\n",
    })
    content = tmp_path / "content"
    result = migrate(old, content)
    assert sorted(p.name for p in (content / "projects").iterdir()) == [
        "reef-watch.md", "secret.md", "tide-gauges.md"]
    reef = front_matter(content / "projects" / "reef-watch.md")
    assert reef["title"] == "Reef Watch" and reef["summary"] == "Counting corals from the air."
    assert str(reef["date"]) == "2021-03-04" and reef["papers"] == ["corals"]
    assert reef["image"] == "files/projects/reef-watch/featured.jpg"
    assert reef["links"] == {"Code": "https://github.com/ann/reef",
                             "PDF": "files/projects/reef-watch/reef-report.pdf",
                             "Dataset": "https://data.example.org/reef"}
    assert (content / "files" / "projects" / "reef-watch" / "map.png").is_file()
    assert "{{" not in (content / "projects" / "reef-watch.md").read_text(encoding="utf-8")
    gauges = front_matter(content / "projects" / "tide-gauges.md")
    assert gauges["links"] == {"Website": "https://tides.example.org/"}
    assert "date" not in gauges
    assert front_matter(content / "projects" / "secret.md")["draft"] is True
    behind = result.out.split("Left behind", 1)[1]
    assert "content/project/example/index.md:1: the template's own sample" in behind
    assert "content/publication/corals/index.md:5: the link to project 'gone' was not " \
           "moved" in behind
    assert "content/project:" not in behind and "content/project/_index.md" not in behind
    site = tmp_path / "site"
    built = run_cli(*build_args(content, site))
    assert built.code == 0, built.out + built.err
    checked = run_cli("check", "--content", str(content), "--output", str(site))
    assert checked.code == 0, checked.out + checked.err
    page = soup(site / "projects" / "reef-watch" / "index.html")
    hrefs = [a["href"] for a in page.select("a[href]")]
    assert any(h.endswith("publications/corals/") for h in hrefs)
    assert "https://github.com/ann/reef" in hrefs and "https://data.example.org/reef" in hrefs
    assert "url=../../projects/reef-watch/" in (site / "project" / "reef-watch" / "index.html"
                                                 ).read_text(encoding="utf-8")
    assert not (site / "projects" / "secret").exists() and not (site / "project" / "secret"
                                                                ).exists()


def test_a_sections_pages_are_found_at_any_depth_as_hugo_finds_them(tmp_path):
    """Sub-folders of a section (by kind, by year) hold pages as Hugo finds them: a folder
    with index.md is one page, `_index.md` a list and no page, a .md file a page; a page
    with no `date` has Hugo's next, `publishDate`."""
    old = write_files(tmp_path / "old", {
        "config.yaml": "title: Ivo Marsh\nbaseURL: https://ivo.example.org/\n",
        "content/authors/admin/_index.md": "---\nname: Ivo Marsh\nsuperuser: true\n---\n",
        "content/publication/_index.md": "---\ntitle: Papers\n---\n",
        "content/publication/journal/_index.md": "---\ntitle: Journal papers\n---\n",
        "content/publication/journal/salt-marsh.md": "---\ntitle: Salt Marsh Dynamics\n"
            "publishDate: '2021-05-18'\npublication: Marsh Letters\n---\n",
        "content/publication/2023/reed-beds/index.md": "---\ntitle: Reed Beds\n"
            "date: 2023-02-01\npublication: Wetland Review\n---\n",
        "content/publication/2023/old/deep/peat.md": "---\ntitle: Peat Cores\n"
            "date: 2023-03-01\npublication: Bog Studies\n---\n",
        "content/publication/tidal-flats.md": "---\ntitle: Tidal Flats\ndate: 2020-01-01\n"
            "publication: Shore Notes\n---\n",
    })
    content = tmp_path / "content"
    result = migrate(old, content)
    assert sorted(p.name for p in (content / "publications").iterdir()) == [
        "peat.md", "reed-beds.md", "salt-marsh.md", "tidal-flats.md"]
    salt = front_matter(content / "publications" / "salt-marsh.md")
    assert salt["title"] == "Salt Marsh Dynamics" and str(salt["date"]) == "2021-05-18"
    assert front_matter(content / "publications" / "reed-beds.md")["venue"] == "Wetland Review"
    redirects = yaml.safe_load((content / "site.yaml").read_text("utf-8"))["redirects"]
    assert {(old.strip("/"), new.strip("/")) for old, new in redirects.items()} >= {
        ("publication/journal/salt-marsh", "publications/salt-marsh"),
        ("publication/2023/reed-beds", "publications/reed-beds"),
        ("publication/2023/old/deep/peat", "publications/peat")}
    assert "no index.md" not in result.out and "without a date" not in result.out


def test_a_pages_other_languages_move_as_its_translations(tmp_path):
    """`index.en.md` beside `index.zh.md`: the file in the site's language is the paper,
    the others its translations where they say something of their own; a post's other
    languages are named in the report with what to do."""
    old = write_files(tmp_path / "old", {
        "config.yaml": "title: Lin Wei\nbaseURL: https://lin.example.org/\n"
                       "defaultContentLanguage: en\n",
        "content/authors/admin/_index.md": "---\nname: Lin Wei\nsuperuser: true\n---\n",
        "content/publication/lanterns/index.en.md": "---\ntitle: Lanterns\ndate: 2022-01-01\n"
            "publication: Light Letters\n---\nLanterns share light fairly.\n",
        "content/publication/lanterns/index.zh.md": "---\ntitle: 灯笼\ndate: 2022-01-01\n"
            "publication: Light Letters\n---\n灯笼公平地分享光。\n",
        "content/publication/lanterns/index.ja.md": "---\ntitle: Lanterns\ndate: 2022-01-01\n"
            "publication: Light Letters\n---\nLanterns share light fairly.\n",
        "content/publication/tides.md": "---\ntitle: Tides\ndate: 2021-01-01\n"
            "publication: Sea Notes\n---\n",
        "content/publication/tides.de.md": "---\ntitle: Gezeiten\ndate: 2021-01-01\n"
            "publication: Sea Notes\n---\n",
        "content/post/hello/index.md": "---\ntitle: Hello\ndate: 2022-02-02\n---\nHi.\n",
        "content/post/hello/index.zh.md": "---\ntitle: 你好\ndate: 2022-02-02\n---\n嗨。\n",
    })
    content = tmp_path / "content"
    result = migrate(old, content)
    assert sorted(p.name for p in (content / "publications").iterdir()) == [
        "lanterns.md", "tides.md"]
    lanterns = front_matter(content / "publications" / "lanterns.md")
    assert lanterns["title"] == "Lanterns"
    assert lanterns["translations"] == {"zh": {"title": "灯笼", "abstract": "灯笼公平地分享光。"}}
    assert front_matter(content / "publications" / "tides.md")["translations"] == {
        "de": {"title": "Gezeiten"}}
    site_yaml = yaml.safe_load((content / "site.yaml").read_text("utf-8"))
    assert site_yaml["languages"] == ["en", "zh", "de"]
    assert "content/publication/lanterns/index.ja.md:1: the paper's ja version says what " \
           "content/publication/lanterns/index.en.md says" in result.out
    assert "content/post/hello/index.zh.md:1: the zh version of content/post/hello/index.md;" \
           " not moved: to keep it, write it as posts/hello.zh.md" in result.out
    assert sorted(p.name for p in (content / "posts").iterdir()) == ["hello.md"]
    built = run_cli(*build_args(content, tmp_path / "site"))
    assert built.code == 0, built.out + built.err
    assert "灯笼" in (tmp_path / "site" / "zh" / "publications" / "lanterns" / "index.html"
                    ).read_text("utf-8")


def test_a_group_site_with_several_superusers_takes_the_one_its_title_names(tmp_path):
    """A lab's site marks its students' profiles `superuser` too; `admin` in a paper's
    authors is the one whose name the site's title holds, and the report says so."""
    old = write_files(tmp_path / "old", {
        "config/_default/hugo.yaml": "title: Quill Research Group\n"
                                     "baseURL: https://lab.example.org/\n",
        "content/authors/admin/_index.md": "<!-- an empty profile -->\n",
        "content/authors/Bo_Chen/_index.md": "---\ntitle: Bo Chen\nsuperuser: true\n---\n",
        "content/authors/Ada_Quill/_index.md": "---\ntitle: Ada Quill\nsuperuser: true\n---\n",
        "content/publication/flow/index.md": "---\ntitle: Flows\ndate: 2021-01-01\n"
                                             "authors: [Bo Chen, admin]\n"
                                             "publication: Imaginary Letters\n---\n"})
    content = tmp_path / "content"
    moved = run_cli("migrate", str(old), "--content", str(content))
    assert moved.code == 0, moved.out + moved.err
    paper = (content / "publications" / "flow.md").read_text(encoding="utf-8")
    assert "- Bo Chen\n- Ada Quill\n" in paper
    assert "3 author profiles are the owner's (superuser): Ada Quill, Bo Chen, admin;" \
        in moved.out
    assert "Ada Quill taken as the site's owner (the site's title or address names them)" \
        in moved.out


def test_a_paper_or_talk_without_a_readable_date_moves_listed_last(tmp_path):
    """Never left behind for its date: the site's oldest year stands in, and it is said."""
    old = write_files(tmp_path / "old", {
        "hugo.yaml": "title: Ada Quill\nbaseURL: https://ada.example.org/\n",
        "content/publication/old/index.md": "---\ntitle: Old Flows\ndate: 2015-03-01\n"
                                            "authors: [Ada Quill]\npublication: Letters\n---\n",
        "content/publication/review/index.md": "---\ntitle: Flows Under Review\n"
                                               "authors: [Ada Quill]\npublication: Letters\n---\n",
        "content/talk/spring/index.md": "---\ntitle: Flows, a Talk\ndate: Spring term\n"
                                        "event: Seminar\n---\n"})
    content = tmp_path / "content"
    moved = run_cli("migrate", str(old), "--content", str(content))
    assert moved.code == 0, moved.out + moved.err
    assert "date: '2015'" in (content / "publications" / "review.md").read_text("utf-8")
    assert "date: '2015'" in (content / "talks" / "spring.md").read_text("utf-8")
    assert "content/publication/review/index.md:1: no date: written as 2015" in moved.out
    assert "content/talk/spring/index.md:3: the date 'Spring term' cannot be read: written " \
        "as 2015" in moved.out
    built = run_cli(*build_args(content, tmp_path / "site"))
    assert built.code == 0, built.err
