"""Collections (talks, teaching, projects, news, posts), free pages, the CV, navigation and
the profile, through the real CLI on small sites, checked through parsed HTML."""

from __future__ import annotations

import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from conftest import (MINIMAL_CONFIG, MINIMAL_PAPER, SHARED, build_args, copy_templates, run_cli,
                      soup, text_of, write_files)
from test_build_errors import assert_clean_failure, problems

# The seed's defect and its cousins: an empty field leaves a dangling separator or label.
EMPTY = re.compile(r"(^\s*[,·:]|,\s*,|,\s*$|\(\s*\)|:\s*$|\bNone\b|\bnull\b)")

CONFIG = (MINIMAL_CONFIG + """\
  author_notes:
    "*": Equal contribution
""").replace("author:\n  name: Ada Example\n", """author:
  name: Ada Example
  position: Professor
  affiliation: Example University
  email: ada@example.org
  photo: files/ada.png
  links:
    scholar: https://scholar.google.com/citations?user=X
    dblp: https://dblp.org/pid/1/2.html
    orcid: 0000-0002-1825-0097
    github: https://github.com/ada
    linkedin: https://www.linkedin.com/in/ada
    Lab: https://lab.example.org/
""")

SITE = {
    "site.yaml": CONFIG,
    "publications/a-paper.md": MINIMAL_PAPER,
    "publications/b-paper.md": MINIMAL_PAPER.replace("A Paper", "B Paper")
                                            .replace("2024-05", "2023"),
    # A photo is a picture the build reads (and resizes): one pixel of PNG.
    "files/ada.png": (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02"
                      b"\x00\x00\x00\x90wS\xde\x00\x00\x00\x0cIDATx\x9cc8ac\x03\x00\x03\x10\x01A\"\x16g"
                      b"\x05\x00\x00\x00\x00IEND\xaeB`\x82"),
    "files/slides.pdf": b"%PDF-1.4\n",
    "files/diagram.svg": "<svg xmlns='http://www.w3.org/2000/svg'/>",
    "talks/full-talk.md": """\
        ---
        title: A Full Talk
        date: 2024-03-05
        event: Example Conference
        location: Springfield
        type: Invited talk
        slides: files/slides.pdf
        video: https://video.example.org/1
        ---
        About the talk, with [slides](files/slides.pdf).
        """,
    "talks/bare-talk.md": """\
        ---
        title: A Bare Talk
        date: 2023-01
        event: Seminar Series
        ---
        """,
    "teaching/os.md": """\
        ---
        title: Operating Systems
        date: 2024-09
        code: CS 101
        term: Fall 2024
        role: Instructor
        institution: Example University
        ---
        """,
    "teaching/net.md": """\
        ---
        title: Networks
        date: 2023-01
        term: Spring 2023
        ---
        """,
    "projects/engine.md": """\
        ---
        title: The Engine
        summary: An engine for analysis.
        image: files/diagram.svg
        links:
          Code: https://code.example.org/engine
        papers: [b-paper, a-paper]
        ---
        Long text about the engine.
        """,
    "news/one.md": "---\ndate: 2024-06-01\n---\nWe won [a prize](files/slides.pdf).\n",
    "news/two.md": "---\ntitle: Headline\ndate: 2024-05-01\n---\n",
    **{f"news/old-{i}.md": f"---\ndate: 2020-01-0{i}\n---\nOld item {i}.\n"
       for i in range(1, 6)},
    "posts/hello.md": """\
        ---
        title: Hello
        date: 2024-02-02
        tags: [intro, meta]
        ---
        First post, with a picture ![a diagram](files/diagram.svg)
        """,
    "pages/about.md": "---\ntitle: About Me\n---\nSome *Markdown*.\n",
    "cv.yaml": """\
        education:
          - degree: PhD
            institution: Example University
            start: 2010
            end: 2015
            thesis: On Engines
        positions:
          - title: Professor
            organization: Example University
            start: 2020-09
            end: present
        awards:
          - Best Teacher
        """,
}


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("collections")
    content = write_files(root / "content", SITE)
    result = run_cli(*build_args(content, root / "site"))
    assert result.code == 0, result.err
    assert "Traceback" not in result.err
    return root / "site"


def nav_of(page: BeautifulSoup) -> list[tuple[str, str]]:
    return [(text_of(a), a["href"]) for a in page.select("nav.nav ul a")]


def test_default_navigation_lists_sections_with_content(built):
    assert nav_of(soup(built / "index.html")) == [
        ("Home", ""), ("Publications", "publications/"), ("Talks", "talks/"),
        ("Teaching", "teaching/"), ("Projects", "projects/"), ("News", "news/"),
        ("Posts", "posts/"), ("CV", "cv/"), ("About Me", "about/")]
    assert nav_of(soup(built / "talks" / "full-talk" / "index.html"))[2] == ("Talks", "../../talks/")


def test_talks_list_and_pages(built):
    page = soup(built / "talks" / "index.html")
    items = page.select("main li.item")
    assert [text_of(li.select_one(".item-title")) for li in items] == ["A Full Talk", "A Bare Talk"]
    assert text_of(items[0].select_one(".item-meta")) == \
        "Example Conference, Springfield, Invited talk, 5 March 2024"
    # No location, no type: no dangling comma, no empty label.
    assert text_of(items[1].select_one(".item-meta")) == "Seminar Series, January 2023"
    assert [a["href"] for a in items[0].select(".item-links a")] == \
        ["../files/slides.pdf", "https://video.example.org/1"]
    assert items[1].select(".item-links") == []
    talk = soup(built / "talks" / "full-talk" / "index.html")
    facts = [text_of(n) for n in talk.select("dl.facts dt, dl.facts dd")]
    assert facts == ["Event", "Example Conference", "Location", "Springfield", "Type",
                     "Invited talk", "Date", "5 March 2024"]
    assert talk.select_one(".item-body a")["href"] == "../../files/slides.pdf"
    assert talk.title.get_text().startswith("A Full Talk | ")
    bare = soup(built / "talks" / "bare-talk" / "index.html")
    assert [text_of(n) for n in bare.select("dl.facts dt")] == ["Event", "Date"]
    assert bare.select(".item-body, .item-links, .item-image") == []


def test_teaching_list_and_pages(built):
    items = soup(built / "teaching" / "index.html").select("main li.item")
    assert text_of(items[0].select_one(".item-meta")) == \
        "CS 101, Fall 2024, Instructor, Example University, September 2024"
    assert text_of(items[1].select_one(".item-meta")) == "Spring 2023, January 2023"
    course = soup(built / "teaching" / "os" / "index.html")
    assert "Course code CS 101" in text_of(course.select_one("dl.facts"))


def test_project_with_image_links_and_related_papers(built):
    cards = soup(built / "projects" / "index.html").select("main li.card")
    assert len(cards) == 1
    assert cards[0].img["src"] == "../files/diagram.svg"
    assert text_of(cards[0].p) == "An engine for analysis."
    page = soup(built / "projects" / "engine" / "index.html")
    assert page.select_one(".item-image")["src"] == "../../files/diagram.svg"
    assert [(text_of(a), a["href"]) for a in page.select(".item-links a")] == \
        [("Code", "https://code.example.org/engine")]
    related = [a["href"] for a in page.select("#related ~ ol .paper-title")]
    assert related == ["../../publications/b-paper/", "../../publications/a-paper/"]
    assert (built / "projects" / "engine" / related[0]).resolve().is_dir()


def test_news_is_a_list_with_the_latest_on_the_home_page(built):
    assert not (built / "news" / "one").exists()
    news = soup(built / "news" / "index.html").select("main ul.news li")
    assert len(news) == 7
    assert news[0].time["datetime"] == "2024-06-01"
    assert news[0].a["href"] == "../files/slides.pdf"
    assert text_of(news[1]) == "1 May 2024 Headline"
    home = soup(built / "index.html")
    shown = home.select("main ul.news li")
    assert len(shown) == 5
    assert shown[0].a["href"] == "files/slides.pdf"
    assert home.find("a", string="All news")["href"] == "news/"


def test_posts_with_tags_and_summary(built):
    items = soup(built / "posts" / "index.html").select("main li.item")
    assert [text_of(li) for li in items[0].select(".tags li")] == ["intro", "meta"]
    assert text_of(items[0].select_one(".summary")) == "First post, with a picture"
    post = soup(built / "posts" / "hello" / "index.html")
    assert post.select_one(".item-body img")["src"] == "../../files/diagram.svg"
    assert post.find("meta", attrs={"name": "description"})["content"] == \
        "First post, with a picture"


def test_free_page(built):
    page = soup(built / "about" / "index.html")
    assert text_of(page.select_one("main h1")) == "About Me"
    assert page.select_one("main em").get_text() == "Markdown"


def test_home_profile_photo_and_links(built):
    home = soup(built / "index.html")
    photo = home.select_one("img.photo")
    # Resized (a 1-pixel picture stays 1 pixel), as a JPEG beside a WebP.
    assert photo["src"].startswith("assets/photos/") and photo["alt"] == "Ada Example"
    assert photo.find_parent("picture").source["type"] == "image/webp"
    links = home.select("ul.contact a")
    assert [text_of(a) for a in links] == ["ada@example.org", "Google Scholar", "DBLP", "ORCID",
                                           "GitHub", "LinkedIn", "Lab"]
    assert links[0]["href"] == "mailto:ada@example.org"
    assert links[3]["href"] == "https://orcid.org/0000-0002-1825-0097"
    for a in links:  # the icon is decoration; the visible text names the link
        assert a.svg["aria-hidden"] == "true" and text_of(a)
    # Without styles the comma parts them; the default look hides it (test_frontend.py).
    assert home.select_one(".position").get_text() == "Professor, Example University"


def test_cv_sections_and_publications_from_papers(built):
    page = soup(built / "cv" / "index.html")
    headings = [text_of(h) for h in page.select("main h2")]
    assert headings == ["Education", "Positions", "Awards and honors", "Publications",
                        "Teaching"]
    entries = page.select("#cv-education ~ ul li.cv-entry")
    assert text_of(entries[0]) == "2010–2015 PhD Example University Thesis: On Engines"
    position = page.select_one("#cv-positions ~ ul li.cv-entry")
    assert text_of(position.select_one(".cv-when")) == "Sep 2020–present"
    award = page.select_one("#cv-awards ~ ul li.cv-entry")
    assert text_of(award) == "Best Teacher" and award.select(".cv-org, .cv-detail") == []
    papers = [" ".join(li.get_text().split()) for li in page.select(".cv-papers li")]
    assert len(papers) == 2 and papers[0].startswith("Ada Example, Bob Builder. A Paper.")
    # No teaching in cv.yaml: the teaching collection stands in.
    teaching = [text_of(li) for li in page.select("#cv-teaching ~ ul li")]
    assert teaching == ["Fall 2024 CS 101: Operating Systems Example University Role: Instructor",
                        "Spring 2023 Networks"]


def test_no_empty_field_is_printed(built):
    for path in sorted(built.rglob("*.html")):
        page = soup(path)
        # A separator of its own (span.sep) is printed only between two fields.
        for node in page.select("main p, main li, main dd, main dt, main div, "
                                "main span:not(.sep)"):
            text = text_of(node)
            assert not EMPTY.search(text), f"{path}: {text!r}"
        for node in page.select("main dd, main dt, main h1, main h2, main li"):
            assert text_of(node) or node.find(["img", "svg"]), f"{path}: empty {node.name}"


def test_sitemaps_list_every_page(built):
    pages = sorted(p.relative_to(built).parent.as_posix() + "/"
                   for p in built.rglob("index.html"))
    pages = ["" if p == "./" else p for p in pages]
    human = soup(built / "sitemap" / "index.html")
    linked = {a["href"].removeprefix("../") for a in human.select("main a")}
    assert linked == set(pages)
    sections = [text_of(h) for h in human.select("main h2")]
    assert sections == ["Pages", "Publications", "Talks", "Teaching", "Projects", "Posts",
                        "Posts: tags"]
    tree = ET.parse(built / "sitemap.xml")
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    urls = {u.find("s:loc", ns).text: u.find("s:lastmod", ns) for u in tree.findall("s:url", ns)}
    assert sorted(urls) == sorted("https://example.org/" + p for p in pages)
    assert urls["https://example.org/talks/full-talk/"].text == "2024-03-05"
    assert urls["https://example.org/talks/"].text == "2024-03-05"
    assert urls["https://example.org/"].text == "2024-09-01"  # the newest course
    assert urls["https://example.org/about/"] is None  # undated: no invented date
    xsd = SHARED / "data" / "sitemap.xsd"
    if xsd.is_file():
        import xmlschema

        xmlschema.XMLSchema(str(xsd)).validate(str(built / "sitemap.xml"))


def test_configured_navigation_order_labels_and_links(tmp_path):
    config = CONFIG + """\
nav:
  - publications
  - talks: Invited Talks
  - about
  - title: Lab
    url: https://lab.example.org/
  - posts
"""
    content = write_files(tmp_path / "content", {**SITE, "site.yaml": config})
    del_posts = content / "posts"
    shutil.rmtree(del_posts)
    result = run_cli(*build_args(content))
    assert result.code == 0, result.err
    [(path, line, sev, msg)] = problems(result.err)
    assert path.endswith("site.yaml") and sev == "warning" and "'posts'" in msg
    assert line == config.splitlines().index("  - posts") + 1
    site = tmp_path / "site"
    page = soup(site / "talks" / "index.html")
    assert nav_of(page) == [("Publications", "../publications/"),
                            ("Invited Talks", "../talks/"), ("About Me", "../about/"),
                            ("Lab", "https://lab.example.org/")]
    assert text_of(page.select_one("main h1")) == "Invited Talks"
    assert not (site / "posts").exists()
    assert (site / "teaching" / "index.html").is_file()  # built, just not in the menu


def test_own_template_wins_and_generic_is_the_fallback(tmp_path):
    templates = copy_templates(tmp_path)
    (templates / "talks.html").write_text(
        '{% extends "base.html" %}{% block main %}<h1>My talks</h1>'
        '{% for t in collection.entries %}<p class="mine">{{ t.event }}</p>{% endfor %}'
        '{% endblock %}', encoding="utf-8")
    content = write_files(tmp_path / "content", SITE)
    out = tmp_path / "site"
    result = run_cli(*build_args(content, out, templates=templates))
    assert result.code == 0, result.err
    assert [text_of(p) for p in soup(out / "talks" / "index.html").select("p.mine")] == \
        ["Example Conference", "Seminar Series"]
    assert soup(out / "teaching" / "index.html").select("main li.item")  # collection.html


BAD = {
    "talks/unknown-field.md": "---\ntitle: T\ndate: 2024\nevnt: X\n---\n",
    "talks/bad-date.md": "---\ntitle: T\ndate: 2024-02-30\n---\n",
    "talks/no-title.md": "---\ndate: 2024\n---\nText.\n",
    "talks/evil.md": "---\ntitle: T\ndate: 2024\nslides: javascript:alert(1)\n---\n",
    "talks/Bad_Name.md": "---\ntitle: T\ndate: 2024\n---\n",
    "talks/gone.md": "---\ntitle: T\ndate: 2024\nvideo: files/missing.mp4\n---\n",
    "projects/p.md": "---\ntitle: P\nimage: files/nope.png\npapers:\n  - a-paper\n"
                     "  - no-such-paper\n---\n",
    "news/empty.md": "---\ndate: 2024\n---\n",
    "posts/tags.md": "---\ntitle: T\ndate: 2024\ntags: {a: 1}\n---\n",
    "pages/publications.md": "---\ntitle: Clash\n---\n",
    "cv.yaml": "education:\n  - degree: PhD\n    start: 2015\n    end: 2010\n"
               "awards: not a list\nhobbies: sailing\npositions:\n  - title: X\n    colour: red\n",
}
EXPECTED = [  # (file, line, words in the message)
    ("talks/unknown-field.md", 4, "unknown field 'evnt'; did you mean 'event'"),
    ("talks/bad-date.md", 3, "invalid date '2024-02-30'"),
    ("talks/no-title.md", 2, "missing required field 'title'"),
    ("talks/evil.md", 4, "scheme 'javascript:'"),
    ("talks/Bad_Name.md", 1, "not a valid slug"),
    ("talks/gone.md", 4, "not a file in"),
    ("projects/p.md", 3, "not a file in"),
    ("projects/p.md", 6, "no-such-paper"),
    ("news/empty.md", 1, "neither a 'title' nor any text"),
    ("posts/tags.md", 4, "'tags' must be a list"),
    ("pages/publications.md", 1, "cannot be called 'publications'"),
    ("cv.yaml", 4, "'end' is before 'start'"),
    ("cv.yaml", 5, "'awards' must be a list"),
    ("cv.yaml", 6, "'hobbies' must be a list"),
    ("cv.yaml", 9, "unknown positions field 'positions.0.colour'"),
]


def test_bad_content_is_reported_with_path_and_line(make_site):
    content = make_site({**BAD, "site.yaml": MINIMAL_CONFIG + "nav: [publications, talkz]\n"})
    result = run_cli(*build_args(content))
    assert_clean_failure(result)
    found = problems(result.err)
    for file, line, words in EXPECTED:
        assert any(p.endswith(file) and ln == line and words in msg
                   for p, ln, sev, msg in found if sev == "error"), (file, line, words, found)
    errors = [f for f in found if f[2] == "error"]
    assert len(errors) == len(EXPECTED)  # nothing reported twice; nav is checked after


def test_unknown_nav_key_and_missing_photo(make_site):
    config = MINIMAL_CONFIG.replace("  name: Ada Example\n",
                                    "  name: Ada Example\n  photo: files/me.jpg\n")
    content = make_site({"site.yaml": config})
    result = run_cli(*build_args(content))
    assert_clean_failure(result)
    [(path, line, _, msg)] = problems(result.err)
    assert path.endswith("site.yaml") and line == 5 and "author.photo" in msg
    content = make_site({"site.yaml": MINIMAL_CONFIG + "nav:\n  - publications\n  - talkz\n"})
    result = run_cli(*build_args(content))
    assert_clean_failure(result)
    [(path, line, _, msg)] = problems(result.err)
    assert line == 9 and "'talkz'" in msg and "talks" in msg


def test_a_site_without_collections_is_unchanged(make_site):
    content = make_site()
    result = run_cli(*build_args(content))
    assert result.code == 0, result.err
    site = content.parent / "site"
    assert nav_of(soup(site / "index.html")) == [("Home", ""), ("Publications", "publications/")]
    for name in ("talks", "teaching", "projects", "news", "posts", "cv"):
        assert not (site / name).exists()
    assert soup(site / "index.html").select("img.photo, ul.news, ul.contact") == []
