"""A lab's site: people/ and coauthors.yaml, built by the real CLI from examples/lab and
small sites, checked through the HTML; incremental builds after editing a person or an
author list give a cold build's bytes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import (MINIMAL_CONFIG, ROOT, assert_same_as_cold_build, build_args,
                      cold_bytes, copy_templates, edit, paper, run_cli, soup,
                      start_live_site, text_of, tree_bytes, write_files)

from scholarsite.build import BuildOptions, build

LAB = ROOT / "examples" / "lab"
# Who wrote what, by hand from the papers' author lists (not by the matcher under test):
# each person's papers, newest first.
EXPECTED = {
    "mira-castell": ["partition-survey-2026", "fault-harness-2026", "doubtful-detectors-2025",
                     "recovery-scheduling-2025", "tail-storage-2024", "model-checked-2024",
                     "detectors-2023", "partial-partitions-2023", "latency-map-2022",
                     "byzantine-repair-2022", "continental-2021", "testbed-2021",
                     "gossip-bounds-2020", "byzantine-disks-2020", "gossip-churn-2019"],
    "tomas-ibanez": ["partition-survey-2026", "model-checked-2024", "partial-partitions-2023"],
    "grace-okafor": ["partition-survey-2026", "recovery-scheduling-2025", "tail-storage-2024"],
    "jing-chen": ["partition-survey-2026", "doubtful-detectors-2025",
                  "partial-partitions-2023", "latency-map-2022"],
    "lukas-meier": ["partition-survey-2026", "doubtful-detectors-2025", "detectors-2023"],
    "priya-raman": ["partition-survey-2026", "recovery-scheduling-2025", "tail-storage-2024"],
    "sofia-lindqvist": ["fault-harness-2026"],
    "kwame-mensah": ["fault-harness-2026"],
    "hannah-vogel": ["fault-harness-2026", "model-checked-2024", "byzantine-repair-2022",
                     "testbed-2021"],
    "daniel-osei": ["gossip-bounds-2020", "gossip-churn-2019"],
    "elena-petrova": ["byzantine-repair-2022", "continental-2021", "byzantine-disks-2020"],
    "marco-bellini": ["testbed-2021"],
    "aiko-tanaka": ["latency-map-2022", "continental-2021", "testbed-2021"],
}
# Authors who share a family name with a member but are someone else: never linked.
NAMESAKES = {"A. Petrova", "K. Osei", "Jun Chen", "Ibáñez, Teresa"}
COAUTHOR_URLS = {"Ruth Abernathy": "https://example.org/~abernathy",
                 "R. Abernathy": "https://example.org/~abernathy",
                 "Felix Brandt": "https://example.org/people/brandt",
                 "Yusuf Adeyemi": "https://example.org/adeyemi/",
                 "Y. O. Adeyemi": "https://example.org/adeyemi/"}


@pytest.fixture(scope="module")
def lab(shipped) -> Path:
    """The lab example, built once for the session (conftest's shipped, which asserts its
    exit code): without a warning."""
    out, result = shipped(LAB)
    assert "warning" not in result.err, result.err
    return out


def papers_listed(page) -> list[str]:
    return [li["id"] for li in page.select("main li.paper")]


def test_each_persons_page_lists_their_papers_newest_first(lab):
    for slug, expected in EXPECTED.items():
        page = soup(lab / "people" / slug / "index.html")
        assert papers_listed(page) == expected, slug


def test_every_author_link_resolves_and_namesakes_are_not_linked(lab):
    linked = namesakes = 0
    for html in sorted((lab / "publications").glob("*/index.html")) + \
            [lab / "publications" / "index.html", *sorted((lab / "people").glob("*/index.html"))]:
        for author in soup(html).select("main .paper-authors .author"):
            name, link = text_of(author), author.select_one("a.author-link")
            if name in NAMESAKES:
                assert link is None, (html, name)
                namesakes += 1
            elif name in COAUTHOR_URLS:
                assert link["href"] == COAUTHOR_URLS[name], (html, name)
                linked += 1
            else:  # every other author of the lab's papers is a member
                assert link is not None, (html, name)
                target = (html.parent / link["href"] / "index.html").resolve()
                assert target.is_file(), (html, link["href"])
                assert text_of(soup(target).select_one("main h1")) in name or \
                    html.parent.name != "index.html"
                linked += 1
    assert linked > 150 and namesakes >= 4 * 3  # each on its paper's page and two lists
    print(f"authors linked: {linked}, namesakes rejected: {namesakes}")


def test_a_paper_page_links_each_member_to_their_own_page(lab):
    page = soup(lab / "publications" / "partition-survey-2026" / "index.html")
    hrefs = [a["href"] for a in page.select("main .paper-authors a.author-link")]
    assert hrefs == ["../../people/jing-chen/", "../../people/tomas-ibanez/",
                     "../../people/grace-okafor/", "../../people/lukas-meier/",
                     "../../people/priya-raman/", "../../people/mira-castell/"]


def test_family_first_names_export_as_family_and_given(lab):
    """The lab's 'Petrova, Elena' (front matter's '- Family, Given'), shown as written, is
    Elena Petrova in every export: never 'Elena, Petrova,' (a family name 'Elena')."""
    written = {"byzantine-repair-2022": ["Petrova, Elena"],
               "gossip-bounds-2020": ["Osei, Daniel", "Castell, Mira"],
               "model-checked-2024": ["Ibáñez, Teresa"],
               "recovery-scheduling-2025": ["Raman, Priya", "Castell, M."]}
    bib = (lab / "publications.bib").read_text(encoding="utf-8")
    authors = [line for line in bib.splitlines() if line.startswith("  author = ")]
    assert authors and not [line for line in authors if ", and " in line or line.endswith(",},")]
    for slug, names in written.items():
        page = soup(lab / "publications" / slug / "index.html")
        tags = [meta["content"] for meta in page.select('meta[name="citation_author"]')]
        assert all(name in tags for name in names), (slug, tags)
        assert all(name in text_of(page.select_one("main")) for name in names), slug
    assert "Petrova, Elena and" in bib and "Ib{\\'a}{\\~n}ez, Teresa" in bib


def test_people_page_groups_roles_in_the_configured_order_then_alumni(lab):
    page = soup(lab / "people" / "index.html")
    headings = [text_of(h) for h in page.select("main section.people-group > h2")]
    assert headings == ["Principal investigators", "Postdocs", "PhD students",
                        "Research engineer", "Master's students", "Undergraduates", "Alumni"]
    alumni = page.select("main section.alumni li.person-card")
    assert [text_of(li.select_one(".person-name")) for li in alumni] == \
        ["Aiko Tanaka", "Marco Bellini", "Elena Petrova", "Daniel Osei"]  # latest to leave first
    assert all(li.select_one(".person-now") for li in alumni)
    assert page.select_one("main .people-join a")["href"] == "../join/"
    # A photo where the file has one, else an initials badge.
    cards = {text_of(li.select_one(".person-name")): li for li in page.select("li.person-card")}
    assert cards["Grace Okafor"].select_one("img.person-photo")
    assert text_of(cards["Tomás Ibáñez"].select_one(".person-badge")) == "TI"


ALUMNI = {"aiko-tanaka", "daniel-osei", "elena-petrova", "marco-bellini"}


def test_a_lab_home_is_the_lab_s_with_its_mission_and_current_members(lab):
    """site.yaml's `lab`: the home's heading and the footer are the lab's, not the PI's;
    index.md is its mission; the current members link their pages, the alumni are left
    to /people/."""
    page = soup(lab / "index.html")
    assert text_of(page.select_one("main h1")) == "Harbor Systems Lab"
    assert "studies how distributed systems behave" in text_of(page.select_one("main .bio"))
    picture = page.select_one("main section.profile img")
    assert (picture["src"], picture["width"], picture["height"], picture["alt"]) == \
        ("files/harbor-logo.svg", "216", "216", "Harbor Systems Lab")
    members = page.select_one("main section[aria-labelledby=home-people]")
    assert [text_of(h) for h in members.select("h3")] == [
        "Principal investigators", "Postdocs", "PhD students", "Research engineer",
        "Master's students", "Undergraduates"]
    links = {a["href"] for a in members.select("li.person-card a.person-name")}
    assert links == {f"people/{slug}/" for slug in EXPECTED.keys() - ALUMNI}
    assert all((lab / href / "index.html").is_file() for href in links)
    assert members.find("a", string="All members")["href"] == "people/"
    assert text_of(page.select_one("footer p")).startswith("© Harbor Systems Lab ·")
    # The PI is still the owner, marked in author lists; the footer is the lab's everywhere.
    assert {a["href"] for a in page.select("main .author.owner a")} == {"people/mira-castell/"}
    assert text_of(soup(lab / "people" / "index.html").select_one("footer p")).startswith(
        "© Harbor Systems Lab ·")


def test_cv_students_by_slug_link_their_pages(lab):
    page = soup(lab / "cv" / "index.html")
    section = page.select_one("main section[aria-labelledby=cv-students]")
    links = {text_of(a): a["href"] for a in section.select("a")}
    assert links == {"Daniel Osei": "../people/daniel-osei/", "Aiko Tanaka":
                     "../people/aiko-tanaka/", "Jing Chen": "../people/jing-chen/"}
    assert "Now: Assistant Professor, Lakeview University (fictional)" in text_of(section)


def test_sitemaps_and_search_list_people(lab):
    sitemap = (lab / "sitemap.xml").read_text("utf-8")
    search = (lab / "search" / "index.html").read_text("utf-8")
    for slug in EXPECTED:
        assert f"https://example.org/lab/people/{slug}/</loc>" in sitemap
        assert f'"url":"people/{slug}/"' in search.replace(": ", ":")
    assert "people/aiko-tanaka/" in (lab / "sitemap" / "index.html").read_text("utf-8")
    assert 'href="people/"' in (lab / "index.html").read_text("utf-8")  # in the menu


SMALL = {
    "site.yaml": MINIMAL_CONFIG,
    "people/ana-souza.md": "---\nname: Ana Souza\nrole: PhD student\n---\nAna's bio.\n",
    "people/bo-li.md": "---\nname: Bo Li\nrole: Postdoc\naliases: [B. Li]\n---\n",
    "coauthors.yaml": "- name: Grace Hopper\n  url: https://example.org/hopper\n",
    "publications/a.md": paper("Alpha", "2024-01", authors="Ada Example, A. Souza"),
    "publications/b.md": paper("Beta", "2023-01", authors="Ada Example, Grace Hopper"),
    "publications/c.md": paper("Gamma", "2022-01", authors="Bo Li, Ada Example"),
}


# Five newer papers, and a feed of three: the small site's own papers are on no page that
# shows the newest, so that an edit of theirs may be a touch-up (fastpath/touchup.py).
NEWER = {f"publications/n{i}.md": paper(f"Newer {i}", f"2025-0{i + 1}") for i in range(5)}


def test_editing_a_person_or_an_author_list_builds_what_a_cold_build_does(tmp_path):
    content = write_files(tmp_path / "content", {
        **SMALL, **NEWER, "site.yaml": MINIMAL_CONFIG + "  feed_limit: 3\n"})
    out, templates = tmp_path / "site", copy_templates(tmp_path)
    options = BuildOptions(content, out, templates)
    for _ in range(2):
        build(options)
    edit(content / "publications/b.md", "An abstract.", "Another abstract.")
    # A person's page shows the paper's entry, abstract included, and is not yet patched by
    # fragments as the lists are: the recorded reads send this edit to the whole build.
    build(options)
    assert tree_bytes(out) == cold_bytes(content, templates)
    # An author list gains a member (the touch-up cannot know that person's page).
    edit(content / "publications/b.md", "Grace Hopper", "Grace Hopper, Ana Souza")
    build(options)
    assert tree_bytes(out) == cold_bytes(content, templates)
    assert "Beta" in (out / "people/ana-souza/index.html").read_text("utf-8")
    # and loses one.
    edit(content / "publications/a.md", "A. Souza", "M. Souza")
    build(options)
    assert tree_bytes(out) == cold_bytes(content, templates)
    assert "Alpha" not in (out / "people/ana-souza/index.html").read_text("utf-8")
    # A person's file: a new alias links a paper; a co-author's address changes.
    edit(content / "people/ana-souza.md", "role: PhD student", "role: PhD student\n"
         "aliases: [M. Souza]")
    edit(content / "coauthors.yaml", "example.org/hopper", "example.org/~hopper")
    build(options)
    assert tree_bytes(out) == cold_bytes(content, templates)
    assert "Alpha" in (out / "people/ana-souza/index.html").read_text("utf-8")
    assert "https://example.org/~hopper" in (out / "publications/index.html").read_text("utf-8")
    # A person leaves, and a new one comes.
    (content / "people/bo-li.md").unlink()
    write_files(content, {"people/cy-wu.md": "---\nname: Cy Wu\nrole: Visitor\n---\n"})
    build(options)
    assert tree_bytes(out) == cold_bytes(content, templates)
    assert not (out / "people/bo-li").exists()


def test_serve_rebuilds_after_a_person_or_an_author_list_as_a_cold_build(tmp_path):
    live = start_live_site(tmp_path, SMALL)
    content = live.options.content_dir
    steps = [(content / "publications/c.md", "Bo Li", "Bo Li, Ana Souza"),
             (content / "publications/c.md", "Ana Souza", "Ana Sousa"),
             (content / "people/ana-souza.md", "role: PhD student",
              "role: PhD student\naliases: [Ana Sousa]"),
             (content / "coauthors.yaml", "Grace Hopper", "Grace M. Hopper")]
    for path, old, new in steps:
        edit(path, old, new)
        outcome = live.build([path])
        assert outcome.ok, outcome.errors
        assert_same_as_cold_build(live)
    assert "Gamma" in (live.options.output_dir / "people/ana-souza/index.html").read_text("utf-8")


def test_bad_people_files_are_reported_at_their_lines(tmp_path):
    content = write_files(tmp_path / "content", {
        **SMALL,
        "site.yaml": MINIMAL_CONFIG + "people:\n  roles: [PI, Postdoc, pi]\n"
                     "lab:\n  nme: Typo Lab\n  picture: files/none.png\n",
        "people/x-y.md": "---\nname: X Y\nrole: Postdoc\nstart: 2024\nend: 2020\n"
                         "photo: files/none.jpg\nlinks:\n  orcid: 1234\n---\n",
        "people/no-role.md": "---\nname: No Role\n---\n",
        "coauthors.yaml": "- name: Grace Hopper\n  url: javascript:alert(1)\n"
                          "- name: Nobody\n",
        "cv.yaml": "students:\n  - person: nobody-here\n    degree: PhD\n",
    })
    result = run_cli(*build_args(content))
    assert result.code == 1
    err = result.err.replace("\\", "/")
    for expected in ("site.yaml:8: error: 'people.roles' names 'pi' twice",
                     "site.yaml:10: error: unknown setting 'lab.nme'",
                     "site.yaml:11: error: 'lab.picture' must name a picture in",
                     "people/x-y.md:5: error: 'end' is before 'start'",
                     "people/x-y.md:6: error: 'photo' names 'files/none.jpg'",
                     "people/x-y.md:8: error: '1234' is not an ORCID iD",
                     "people/no-role.md:2: error: missing required field 'role'",
                     "coauthors.yaml:2: error: 'url' must be the address",
                     "coauthors.yaml:3: error: missing required co-author field '1.url'",
                     "cv.yaml:2: error: 'person' names 'nobody-here'"):
        assert expected in err, (expected, err)
    assert "Traceback" not in err
    assert not (tmp_path / "site").exists()
