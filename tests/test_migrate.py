"""`migrate` as a whole, whatever the old site's kind: what it writes and never writes, a
second run, --force, the settings and home page of a Jekyll site, and the links of moved
text. Each kind's own content is tested in test_migrate_<kind>.py."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
import yaml

from conftest import build_args, run_cli, soup, write_files

CONFIG = """\
title: "Jane Q. Doe"
name: &name "Jane Q. Doe"
description: "Widgets, <i>mostly</i> &amp; gadgets"
url: https://janedoe.github.io
baseurl: "/lab"
author:
  avatar: "profile.png"
  name: *name
  bio: "Assistant Professor of Widgets"
  employer: "Example University"
  email: "jane@example.org"
  googlescholar: "https://scholar.google.com/citations?user=XYZ"
  orcid: "https://orcid.org/0000-0002-1825-0097"
  github: "janedoe"
  linkedin:
  twitter: "janedoe_x"
collections:
  publications:
    output: true
    permalink: /:collection/:path/
"""
ABOUT = """\
---
permalink: /
title: "About me"
---
{% include base_path %}
I study widgets; see [the slides]({{ base_path }}/files/talk.pdf), [my CV](/cv/),
[the group](/join-us/) and [a paper](/publication/2020-01-05-fast-widgets/).
"""
PAPER = """\
---
title: "Fast Widgets"
collection: publications
permalink: /publication/2020-01-05-fast-widgets
date: 2020-01-05
venue: 'Journal of Widgets'
citation: 'Doe, J., &amp; Roe, R. (2020). &quot;Fast Widgets.&quot; <i>J. Widgets</i>. 1(2).'
---
We make widgets fast.
"""


def make_old_site(root: Path) -> Path:
    from PIL import Image

    old = write_files(root / "old", {
        "_config.yml": CONFIG, "_pages/about.md": ABOUT,
        "_pages/join.md": "---\ntitle: Join us\npermalink: /join-us/\n---\nWe are hiring.\n",
        "_publications/2020-01-05-fast-widgets.md": PAPER,
        "files/talk.pdf": b"%PDF-1.4 slides\n",
    })
    (old / "images").mkdir()
    Image.new("RGB", (8, 8), "teal").save(old / "images" / "profile.png")
    return old


def hash_tree(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def old(tmp_path) -> Path:
    return make_old_site(tmp_path)


def migrate(old: Path, content: Path, *extra: str):
    return run_cli("migrate", str(old), "--content", str(content), *extra)


def test_a_jekyll_site_moves_builds_and_checks_and_the_old_site_is_only_read(old, tmp_path):
    before = hash_tree(old)
    content = tmp_path / "content"
    result = migrate(old, content)
    assert result.code == 0, result.err
    assert hash_tree(old) == before
    site = yaml.safe_load((content / "site.yaml").read_text(encoding="utf-8"))
    assert site["url"] == "https://janedoe.github.io/lab/"
    assert site["description"] == "Widgets, mostly & gadgets"
    owner = site["author"]
    assert (owner["name"], owner["position"], owner["affiliation"], owner["email"]) == (
        "Jane Q. Doe", "Assistant Professor of Widgets", "Example University", "jane@example.org")
    assert owner["links"]["github"] == "https://github.com/janedoe"
    assert owner["links"]["X"] == "https://x.com/janedoe_x"
    assert "linkedin" not in owner["links"]  # empty in the old config: not made up
    assert (content / owner["photo"]).read_bytes() == (old / "images/profile.png").read_bytes()
    built = run_cli(*build_args(content, tmp_path / "site"))
    assert built.code == 0, built.err
    checked = run_cli("check", "--content", str(content))
    assert checked.code == 0, checked.out + checked.err


def test_moved_text_keeps_its_links_working_or_says_which_it_took_out(old, tmp_path):
    content = tmp_path / "content"
    result = migrate(old, content)
    home = (content / "index.md").read_text(encoding="utf-8")
    assert "{%" not in home and "{{" not in home
    assert "[the slides](files/talk.pdf)" in home  # the old file, copied
    assert (content / "files/talk.pdf").read_bytes() == b"%PDF-1.4 slides\n"
    assert "[the group](join-us/)" in home  # a moved page, at its old address
    assert "my CV" in home and "(/cv/)" not in home  # no such page in the new site
    assert "_pages/about.md:6: link to '/cv/' taken out" in result.out
    paper = next((content / "publications").glob("*.md")).stem
    assert f"[a paper](publications/{paper}/)" in home  # an old address: where it is now
    run_cli(*build_args(content, tmp_path / "site"))
    page = soup(tmp_path / "site" / "index.html")
    assert page.find("a", string="the slides")["href"] == "files/talk.pdf"


def test_old_addresses_redirect_to_the_new_pages(old, tmp_path):
    content = tmp_path / "content"
    migrate(old, content)
    site = yaml.safe_load((content / "site.yaml").read_text(encoding="utf-8"))
    paper = next((content / "publications").glob("*.md")).stem
    assert site["redirects"]["publication/2020-01-05-fast-widgets"] == f"publications/{paper}/"
    run_cli(*build_args(content, tmp_path / "site"))
    redirect = soup(tmp_path / "site/publication/2020-01-05-fast-widgets/index.html")
    assert redirect.find("link", rel="canonical")["href"] == \
        f"https://janedoe.github.io/lab/publications/{paper}/"


def test_a_second_run_adds_what_is_new_and_keeps_the_owners_edits(old, tmp_path):
    content = tmp_path / "content"
    migrate(old, content)
    (content / "index.md").write_text("My own words.\n", encoding="utf-8")
    site_yaml = (content / "site.yaml").read_text(encoding="utf-8")
    write_files(old, {"_pages/teaching-statement.md": "---\ntitle: Teaching\n---\nI teach.\n"})
    again = migrate(old, content)
    assert again.code == 0, again.err
    assert (content / "index.md").read_text(encoding="utf-8") == "My own words.\n"
    assert (content / "site.yaml").read_text(encoding="utf-8") == site_yaml
    assert (content / "pages/teaching-statement.md").is_file()
    assert "Wrote 1 file" in again.out and "kept" in again.out and "--force" in again.out
    assert again.out.startswith("Moved from academicpages") and ": 1 page." in again.out
    forced = migrate(old, content, "--force")
    assert forced.code == 0, forced.err
    assert (content / "index.md").read_text(encoding="utf-8") != "My own words.\n"


def test_an_owners_site_yaml_gets_only_the_redirects_it_lacks(old, tmp_path):
    content = write_files(tmp_path / "content", {"site.yaml": (
        "# mine\ntitle: Mine\nurl: https://mine.example.org/\nauthor:\n  name: Jane Q. Doe\n")})
    result = migrate(old, content)
    assert result.code == 0, result.err
    text = (content / "site.yaml").read_text(encoding="utf-8")
    assert text.startswith("# mine\ntitle: Mine\n")
    assert yaml.safe_load(text)["redirects"]
    write_files(content, {"site.yaml": text + "\n"})  # a redirects block of the owner's now
    write_files(old, {"_pages/extra.md": "---\ntitle: Extra\npermalink: /more/extra/\n---\nx\n"})
    again = migrate(old, content)
    assert (content / "site.yaml").read_text(encoding="utf-8") == text + "\n"
    assert "Add these under 'redirects:' in site.yaml" in again.out
    assert "  more/extra: extra/" in again.out


def test_migrate_never_writes_into_the_old_site(old):
    before = hash_tree(old)
    result = migrate(old, old / "content")
    assert result.code == 1
    assert "must be outside the old site" in result.err
    assert hash_tree(old) == before


def test_an_unknown_layout_is_refused_unless_its_kind_is_given(tmp_path):
    old = write_files(tmp_path / "old", {"notes.txt": "nothing here\n"})
    result = migrate(old, tmp_path / "content")
    assert result.code == 1 and "--from" in result.err
    assert not (tmp_path / "content").exists()
    given = migrate(old, tmp_path / "content", "--from", "academicpages")
    assert given.code == 0, given.err
    site = yaml.safe_load((tmp_path / "content/site.yaml").read_text(encoding="utf-8"))
    assert site["author"]["name"] and site["url"].startswith("https://")
    assert "set author.name" in given.out  # a placeholder, and said so
    assert run_cli("check", "--content", str(tmp_path / "content")).code == 0


def test_the_report_ends_with_what_a_build_would_say_of_the_new_folder(old, tmp_path):
    content = write_files(tmp_path / "content", {
        "publications/mine.md": "---\ntitle: Mine\nauthors: [Jane Q. Doe]\ndate: 2024\n---\n"})
    result = migrate(old, content)
    assert result.code == 1
    assert "The new content folder, read as a build reads it:" in result.out
    assert "publications/mine.md:" in result.out and "venue" in result.out
    assert (content / "site.yaml").is_file()  # the rest was written all the same


def test_a_link_out_of_the_old_site_is_never_followed(old, tmp_path):
    secret = write_files(tmp_path / "elsewhere", {
        "secret.pdf": b"%PDF-1.4 private\n",
        "notes.md": "---\ntitle: Private notes\n---\nNot for the site.\n",
        "config.yml": "title: Secret\nurl: https://secret.example.org\n"})
    (old / "files" / "talk.pdf").unlink()
    (old / "files" / "talk.pdf").symlink_to(secret / "secret.pdf")
    (old / "_pages" / "notes.md").symlink_to(secret / "notes.md")
    (old / "_config.yml").unlink()
    (old / "_config.yml").symlink_to(secret / "config.yml")
    content = tmp_path / "content"
    result = migrate(old, content)
    assert not (content / "files" / "talk.pdf").exists()
    assert "outside the old site; not copied" in result.out
    assert "_pages/notes.md: a link to a file outside the old site; not read" in result.out
    assert "_config.yml: a link to a file outside the old site; not read" in result.out
    moved = "".join(p.read_text(encoding="utf-8") for p in content.rglob("*")
                    if p.is_file() and p.suffix in (".md", ".yaml"))
    assert "Private notes" not in moved and "Secret" not in moved


def test_a_venue_known_only_by_its_abbreviation_gets_its_type_from_the_venue_list(old, tmp_path):
    write_files(old, {
        "_publications/2021-06-01-db.md": PAPER.replace("Journal of Widgets", "SIGMOD")
                                         .replace("fast-widgets", "db"),
        "_publications/2022-06-01-tpds.md": PAPER.replace("Journal of Widgets", "IEEE TPDS")
                                           .replace("fast-widgets", "tpds")})
    content = tmp_path / "content"
    assert migrate(old, content).code == 0
    types = {path.stem: yaml.safe_load(path.read_text(encoding="utf-8").split("---")[1])["type"]
             for path in (content / "publications").glob("*.md")}
    assert (types["db"], types["tpds"], types["fast-widgets"]) == (
        "conference", "journal", "journal")


def test_front_matter_that_is_no_mapping_is_left_behind_with_a_hint(old, tmp_path):
    write_files(old, {"_pages/odd.md": '---\ntitle:"Odd"\n---\nText.\n'})
    result = migrate(old, tmp_path / "content")
    assert result.code == 0, result.err
    assert "_pages/odd.md:2: front matter is not a list of 'key: value' lines" in result.out


def test_the_templates_own_pages_stay_behind_the_menu_moves_and_the_result_builds(tmp_path):
    """What every real fork carries: the template's 404 page (whose address the new site's
    own 404 takes), a sample talk under the owner's file name, a menu in
    _data/navigation.yml, and an old address that a moved page now has."""
    old = write_files(tmp_path / "old", {
        "_config.yml": "title: Ada Quill\nurl: https://ada.example.org\nauthor:\n"
                       "  name: Dr. Ada Quill\n",
        "_pages/404.md": "---\ntitle: Page Not Found\npermalink: /404.html\n---\n"
                         "Sorry, but the page you were trying to view does not exist.\n",
        "_pages/about.md": "---\npermalink: /\ntitle: About\n---\nI study widgets.\n",
        "_pages/lab.md": "---\npermalink: /lab/\ntitle: Lab\n---\nOur lab.\n",
        "_data/navigation.yml": "main:\n  - title: Papers\n    url: /publications/\n"
                                "  - title: Lab\n    url: /lab/\n"
                                "  - title: Guide\n    url: /markdown/\n",
        "_talks/2024-01-01-my-talk.md": "---\ntitle: Talk 1 on Relevant Topic in Your Field\n"
                                        "date: 2024-01-01\nvenue: UC San Francisco, "
                                        "Department of Testing\n---\nThis is a "
                                        "description of your talk.\n",
        "_publications/2024-widgets.md": "---\ntitle: Widgets\ndate: 2024-01-01\nvenue: "
                                         "Widget Letters\nauthors: Quill A. and Reyes T.\n"
                                         "paperurl: 10.1000/widgets\n---\n",
        "_publications/2024-more.md": "---\ntitle: More Widgets\ndate: 2024-02-01\nvenue: "
                                      "Widget Letters\nauthors: [Quill A., Reyes T.]\n"
                                      "permalink: /publications/2024-widgets/\n---\n",
    })
    content = tmp_path / "content"
    moved = run_cli("migrate", str(old), "--content", str(content))
    assert moved.code == 0, moved.err
    assert "_pages/404.md: the old site's page for a missing address" in moved.out
    assert "_talks/2024-01-01-my-talk.md:1: the template's own sample" in moved.out
    assert not (content / "talks").exists()
    settings = yaml.safe_load((content / "site.yaml").read_text(encoding="utf-8"))
    assert settings["author"]["name"] == "Ada Quill"
    assert settings["nav"] == ["home", {"publications": "Papers"}, "lab"]
    assert "the menu's 'Guide' (/markdown/) names nothing that moved" in moved.out
    assert run_cli(*build_args(content)).code == 0
    page = soup(tmp_path / "site" / "publications" / "2024-widgets" / "index.html")
    assert [a.get_text() for a in page.select(".paper-authors .author")] == [
        "A. Quill", "T. Reyes"] and page.select(".author.owner")
    assert "https://doi.org/10.1000/widgets" in [a["href"] for a in page.select("a")]


def test_no_file_of_the_owners_vanishes_silently(tmp_path):
    """Every file of the old site's own folders ends as a new file, settings, or a line of
    the report saying why it stayed and what to do: a PDF nothing links, a folder of
    pictures (one line), data no reader takes, a page in a sub-folder of _pages/, and
    al-folio's _projects/ in an academicpages site; `--account` lists where each went
    (issue 45)."""
    old = write_files(tmp_path / "old", {
        "_config.yml": "title: Ada Quill\nname: Ada Quill\nurl: https://aq.example.org\n",
        "_publications/2020-01-02-widgets.md": "---\ntitle: Widgets\ndate: 2020-01-02\n"
                                               "venue: Widget Letters\npaperurl: /files/"
                                               "widgets.pdf\n---\n",
        "files/widgets.pdf": b"%PDF-1.4 widgets",
        "files/old-cv.pdf": b"%PDF-1.4 cv",
        "images/a.png": b"\x89PNG a", "images/b.png": b"\x89PNG b",
        "_data/awards.yml": "- Widget Prize 2019\n",
        "_pages/students/ann.md": "---\ntitle: Ann\n---\nAnn builds widgets.\n",
        "_projects/gauges.md": "---\ntitle: Gauges\n---\nTide gauges.\n",
    })
    content = tmp_path / "content"
    result = run_cli("migrate", str(old), "--content", str(content), "--account")
    assert result.code == 0, result.out + result.err
    left = result.out.split("Left behind")[1].split("\nNext:")[0]
    assert "files/old-cv.pdf: nothing that moved links it; not copied" in left
    assert "images/: 2 files (a.png, b.png): nothing that moved links them" in left
    for rel in ("_data/awards.yml", "_pages/students/ann.md", "_projects/gauges.md"):
        assert f"  {rel}: migrate does not read it; not moved: if it holds your text" in left
    account = result.out.split("Every file of the old site (9):\n")[1]
    assert "  _publications/2020-01-02-widgets.md: publications/widgets.md" in account
    assert "  files/widgets.pdf: files/widgets.pdf\n" in account
    assert "  _config.yml: site.yaml" in account and "  images/a.png: the report" in account
    assert "nowhere" not in account
