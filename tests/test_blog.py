"""Posts and news as a blog: tag pages, previous and next, reading time, related posts, an
Atom feed for each, drafts shown by serve only and future posts held back until their
date, all through the command line (and serve's rebuilder) on sites in temporary folders."""

from __future__ import annotations

import json
import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conftest import (TEMPLATES, assert_same_as_cold_build, build_args, edit, run_cli,
                      start_live_site, tree_bytes, write_files)

ATOM = "{http://www.w3.org/2005/Atom}"
CONFIG = """\
    title: A Blog
    url: https://example.org/lab/
    author:
      name: Ada Example
"""
WORDS = " ".join(["word"] * 460)  # two minutes at 230 words a minute


def post(title: str, date: str, tags: str, body: str = "Some text.", extra: str = "") -> str:
    return f"---\ntitle: {title}\ndate: {date}\ntags: {tags}\n{extra}---\n{body}\n"


POSTS = {
    "site.yaml": CONFIG,
    "posts/first.md": post("First", "2024-01-10", "[Systems, Teaching]"),
    "posts/second.md": post("Second", "2024-03-02", "[systems]", WORDS),
    "posts/third.md": post("Third", "2024-06-20", "[Systems, Teaching, Math]"),
    "posts/fourth.md": post("Fourth", "2024-09-01", "[Other]"),
    "news/n1.md": "---\ndate: 2024-05-01\n---\nWe moved to [a new lab](posts/first/).\n",
}


def build(content: Path, out: Path, *extra: str, env: dict | None = None):
    saved = dict(os.environ)
    os.environ.update(env or {})
    try:
        return run_cli(*build_args(content, out, "--no-cache", *extra))
    finally:
        os.environ.clear()
        os.environ.update(saved)


def main_of(path: Path) -> str:
    html = path.read_text(encoding="utf-8")
    return html[html.index("<main"):html.index("</main>")]


@pytest.fixture(scope="module")
def posts_site(tmp_path_factory) -> tuple[Path, Path]:
    """(content, site) of POSTS built once, for the tests that only read it."""
    root = tmp_path_factory.mktemp("blog")
    content = write_files(root / "content", POSTS)
    result = build(content, root / "site")
    assert result.code == 0, result.err
    return content, root / "site"


def test_tag_pages_list_their_posts_newest_first(posts_site):
    out = posts_site[1]
    # "Systems" and "systems" are one tag, named as the newest post writes it.
    systems = main_of(out / "posts" / "tags" / "systems" / "index.html")
    assert "Posts tagged “Systems”" in systems
    titles = re.findall(r'class="item-title" href="[^"]*">([^<]+)<', systems)
    assert titles == ["Third", "Second", "First"]
    index = main_of(out / "posts" / "tags" / "index.html")
    assert re.findall(r'<a href="([^"]+)">([^<]+)</a> <span class="count">\((\d+)\)', index) == [
        ("../../posts/tags/math/", "Math", "1"), ("../../posts/tags/other/", "Other", "1"),
        ("../../posts/tags/systems/", "Systems", "3"),
        ("../../posts/tags/teaching/", "Teaching", "2")]
    page = main_of(out / "posts" / "first" / "index.html")
    assert '<a href="../../posts/tags/teaching/">Teaching</a>' in page
    sitemap = (out / "sitemap.xml").read_text(encoding="utf-8")
    assert ("<loc>https://example.org/lab/posts/tags/systems/</loc>\n    "
            "<lastmod>2024-06-20</lastmod>") in sitemap
    assert "posts/tags/teaching/" in (out / "sitemap" / "index.html").read_text("utf-8")


def test_a_post_links_its_neighbours_and_related_posts_and_says_its_reading_time(posts_site):
    out = posts_site[1]
    second = main_of(out / "posts" / "second" / "index.html")
    assert "<dt>Reading time</dt><dd>2 min</dd>" in second
    assert 'rel="prev" href="../../posts/first/"' in second
    assert 'rel="next" href="../../posts/third/"' in second
    third = main_of(out / "posts" / "third" / "index.html")
    related = re.findall(r'<li><a href="../../posts/(\w+)/">', third)
    assert related == ["first", "second"]  # two shared tags, then one; "fourth" shares none
    assert 'rel="next"' not in main_of(out / "posts" / "fourth" / "index.html")


def test_posts_and_news_have_feeds_advertised_on_every_page(posts_site, tmp_path):
    content, out = posts_site
    posts = ET.parse(out / "posts" / "feed.xml").getroot()
    entries = posts.findall(f"{ATOM}entry")
    assert [e.find(f"{ATOM}title").text for e in entries] == ["Fourth", "Third", "Second",
                                                              "First"]
    assert entries[0].find(f"{ATOM}id").text == "https://example.org/lab/posts/fourth/"
    news = ET.parse(out / "news" / "feed.xml").getroot()
    content_html = news.find(f"{ATOM}entry/{ATOM}content").text
    assert 'href="https://example.org/lab/posts/first/"' in content_html  # absolute in a feed
    assert news.find(f"{ATOM}entry/{ATOM}id").text == "https://example.org/lab/news/#news-n1"
    assert 'id="news-n1"' in (out / "news" / "index.html").read_text("utf-8")
    for page in ("index.html", "posts/third/index.html", "publications/index.html"):
        head = (out / page).read_text("utf-8").split("</head>")[0]
        feeds = re.findall(r'<link rel="alternate" type="application/atom\+xml" title="([^"]+)"'
                           r' href="([^"]+)"', head)
        assert [title for title, _ in feeds] == ["A Blog: Publications", "A Blog: News",
                                                 "A Blog: Posts"]
    assert 'href="../posts/feed.xml" type="application/atom+xml">Atom feed' in \
        (out / "posts" / "index.html").read_text("utf-8")
    again = tmp_path / "again"
    assert build(content, again).code == 0
    assert tree_bytes(again) == tree_bytes(out)


def test_a_draft_is_left_out_of_a_build_and_a_link_to_it_is_warned_of(tmp_path):
    files = dict(POSTS)
    files["posts/first.md"] = post("First", "2024-01-10", "[Systems, Teaching]",
                                   extra="draft: true\n")
    content = write_files(tmp_path / "content", files)
    out = tmp_path / "site"
    result = build(content, out)
    assert result.code == 0, result.err
    assert not (out / "posts" / "first").exists()
    assert not (out / "posts" / "tags" / "teaching").exists() or \
        "First" not in (out / "posts" / "tags" / "teaching" / "index.html").read_text("utf-8")
    for rel in ("posts/feed.xml", "sitemap.xml", "search/index.html", "posts/index.html"):
        assert "posts/first/" not in (out / rel).read_text("utf-8"), rel
    news = (content / "news" / "n1.md").as_posix()
    assert f"{news}:1: warning: links to posts/first/, which is a draft" in result.err
    assert build(content, tmp_path / "strict", "--strict").code == 1


def test_serve_shows_drafts_and_future_posts_and_matches_a_build_of_the_same(tmp_path):
    from scholarsite.build import BuildOptions, build as build_site
    from scholarsite.live.incremental import SiteBuilder
    from scholarsite.reading.settings.publishing import Publishing

    files = dict(POSTS)
    files["posts/draft.md"] = post("Unfinished", "2024-02-01", "[Systems]", extra="draft: true\n")
    files["posts/later.md"] = post("Later", "2999-01-01", "[Systems]")
    content = write_files(tmp_path / "content", files)
    everything = Publishing(drafts=True, future=True)
    live = SiteBuilder(BuildOptions(content, tmp_path / "site", TEMPLATES,
                                    publishing=everything))
    assert live.build().ok
    page = main_of(tmp_path / "site" / "posts" / "draft" / "index.html")
    assert '<span class="badge draft">Draft</span>' in page
    assert (tmp_path / "site" / "posts" / "later" / "index.html").exists()
    edit(content / "posts" / "draft.md", "draft: true\n", "")
    assert live.build([content / "posts" / "draft.md"]).ok
    cold = tmp_path / "cold"
    build_site(BuildOptions(content, cold, TEMPLATES, publishing=everything, cache=False))
    assert tree_bytes(tmp_path / "site") == tree_bytes(cold)


def test_a_future_post_waits_for_its_date_unless_future_is_given(tmp_path):
    files = dict(POSTS)
    files["posts/later.md"] = post("Later", "2030-05-01", "[Systems]")
    content = write_files(tmp_path / "content", files)
    out = tmp_path / "site"
    before = {"SOURCE_DATE_EPOCH": "1893456000"}  # 2030-01-01
    after = {"SOURCE_DATE_EPOCH": "1904025600"}  # 2030-05-03
    assert build(content, out, env=before).code == 0
    assert not (out / "posts" / "later").exists()
    assert "Later" not in (out / "posts" / "feed.xml").read_text("utf-8")
    assert build(content, tmp_path / "future", "--future", env=before).code == 0
    assert (tmp_path / "future" / "posts" / "later" / "index.html").exists()
    assert build(content, tmp_path / "due", env=after).code == 0
    assert (tmp_path / "due" / "posts" / "later" / "index.html").exists()


def test_the_cache_rebuilds_when_future_changes_what_is_published(tmp_path):
    files = dict(POSTS)
    files["posts/later.md"] = post("Later", "2999-01-01", "[Systems]")
    content = write_files(tmp_path / "content", files)
    out = tmp_path / "site"
    args = ["build", "--content", str(content), "--output", str(out), "--templates",
            str(TEMPLATES)]
    assert run_cli(*args).code == 0
    assert "nothing changed" in run_cli(*args).out
    result = run_cli(*args, "--future")
    assert result.code == 0 and "nothing changed" not in result.out
    assert (out / "posts" / "later" / "index.html").exists()


def test_tags_told_apart_by_a_symbol_get_pages_of_their_own(tmp_path):
    content = write_files(tmp_path / "content", {
        "site.yaml": CONFIG, "posts/a.md": post("A", "2024-01-01", "[C]"),
        "posts/b.md": post("B", "2024-01-02", "[C++]"),
        "posts/c.md": post("C", "2024-01-03", "[C#]")})
    assert build(content, tmp_path / "site").code == 0
    tags = tmp_path / "site" / "posts" / "tags"
    for slug, title in (("c", "A"), ("c-plus-plus", "B"), ("c-sharp", "C")):
        assert re.findall(r'href="../../../posts/(\w)/">', main_of(tags / slug / "index.html")) \
            == [title.lower()], slug


def test_a_tag_without_letters_is_warned_of_at_its_line(tmp_path):
    files = {"site.yaml": CONFIG,
             "posts/p.md": "---\ntitle: P\ndate: 2024-01-01\ntags:\n  - ok\n  - '!!!'\n---\nText.\n"}
    content = write_files(tmp_path / "content", files)
    result = build(content, tmp_path / "site")
    assert result.code == 0
    path = (content / "posts" / "p.md").as_posix()
    assert re.search(rf"{re.escape(path)}:6: warning: the tag '!!!' has no Latin letter", result.err)


def test_serve_rebuilds_tag_pages_as_tags_change(tmp_path):
    live = start_live_site(tmp_path, POSTS)
    content = live.options.content_dir
    for old, new in (("[Other]", "[Other, Fresh]"), ("[Other, Fresh]", "[Systems]")):
        assert live.build([edit(content / "posts" / "fourth.md", old, new)]).ok
        assert_same_as_cold_build(live)
    assert not (live.options.output_dir / "posts" / "tags" / "fresh").exists()


def test_figures_and_task_lists_in_a_post(tmp_path):
    files = {"site.yaml": CONFIG, "files/plot.svg": '<svg xmlns="http://www.w3.org/2000/svg"/>',
             "posts/p.md": post("P", "2024-01-01", "[a]", body=(
                 '![A plot of load](files/plot.svg "Load over a day.")\n\n'
                 'Text with ![an icon](files/plot.svg "not a figure") inside.\n\n'
                 "- [x] measured\n- [ ] written up\n"))}
    content = write_files(tmp_path / "content", files)
    out = tmp_path / "site"
    assert build(content, out, "--strict").code == 0
    page = main_of(out / "posts" / "p" / "index.html")
    assert ('<figure><img alt="A plot of load" src="../../files/plot.svg">'
            "<figcaption>Load over a day.</figcaption></figure>") in page
    assert 'title="not a figure"' in page  # inside a sentence it stays an image
    assert re.findall(r'<li><input aria-label="([^"]+)"[^>]*> (\w+)', page) == [
        ("done", "measured"), ("not done", "written")]
    assert page.count(" checked ") == 1


def test_headings_get_ids_and_a_post_may_ask_for_a_table_of_contents(tmp_path):
    body = "## Methods\n\nText.\n\n### Setup\n\nMore.\n\n## Related\n\nOther work.\n"
    files = {"site.yaml": CONFIG,
             "posts/long.md": post("Long", "2024-01-01", "[a]", body, extra="toc: true\n"),
             "posts/short.md": post("Short", "2024-01-02", "[a]", body)}
    content = write_files(tmp_path / "content", files)
    out = tmp_path / "site"
    assert build(content, out, "--strict").code == 0
    long = main_of(out / "posts" / "long" / "index.html")
    assert '<h2 id="methods">Methods</h2>' in long and '<h3 id="setup">Setup</h3>' in long
    assert '<h2 id="related-section">Related</h2>' in long  # the theme's own id is kept apart
    toc = long[long.index('<nav class="toc"'):long.index("</nav>")]
    assert re.findall(r'<a href="#([\w-]+)">', toc) == ["methods", "setup", "related-section"]
    assert '<nav class="toc"' not in main_of(out / "posts" / "short" / "index.html")
    assert long.count('id="related-section"') == 1


def test_pictures_from_files_get_their_width_and_height(tmp_path):
    from PIL import Image

    content = write_files(tmp_path / "content", {
        "site.yaml": CONFIG,
        "files/wide.svg": '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 640 200"/>',
        "posts/p.md": post("P", "2024-01-01", "[a]", body=(
            "![A photo](files/photo.png)\n\n![A drawing](files/wide.svg)\n\n"
            "![Sized by hand](files/photo.png){: width=\"10\" }\n\n"
            "![Missing](files/none.png) ![Outside](https://example.org/x.png)\n"))})
    Image.new("RGB", (300, 120), "white").save(content / "files" / "photo.png")
    out = tmp_path / "site"
    result = build(content, out)
    assert result.code == 0, result.err
    imgs = re.findall(r"<img [^>]*>", main_of(out / "posts" / "p" / "index.html"))
    assert imgs[0].endswith('src="../../files/photo.png" width="300" height="120">')
    assert imgs[1].endswith('src="../../files/wide.svg" width="640" height="200">')
    assert imgs[2].count("width=") == 1 and "height=" not in imgs[2]
    assert all("width=" not in img for img in imgs[3:])


def test_tag_pages_are_in_the_search_index(posts_site):
    out = posts_site[1]
    page = (out / "search" / "index.html").read_text("utf-8")
    index = json.loads(re.search(r'<script type="application/json" id="search-index">(.*?)</script>',
                                 page, re.S).group(1))
    tagged = [entry for entry in index if entry["url"] == "posts/tags/teaching/"]
    assert [entry["title"] for entry in tagged] == ["Posts tagged “Teaching”"]
    assert not any(entry["url"] == "posts/tags/" for entry in index)
