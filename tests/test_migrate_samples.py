"""The templates' samples, in the versions the shared corpus lacked, stay behind and are
named; the owner's item beside them, or in a sample's clothing, moves (issue 45, class 1:
an item is a sample only when every field its owner could change is the template's).
Each site is fictional and minimal; one `migrate` a kind."""

from __future__ import annotations

from pathlib import Path

from conftest import run_cli, write_files

SAMPLE = "the template's own sample"


def migrate(old: Path, kind: str, content: Path):
    result = run_cli("migrate", str(old), "--content", str(content), "--from", kind)
    assert result.code == 0, result.out + result.err
    return result


def test_academicpages_future_post_stays_behind(tmp_path):
    front = "---\ntitle: '{}'\ndate: {}\npermalink: /posts/2012/08/blog-post-4/\n---\n\n{}\n"
    old = write_files(tmp_path / "old", {
        "_config.yml": "title: Ada Byron\nauthor:\n  name: Ada Byron\n",
        "_posts/2199-01-01-future-post.md": front.format(
            "Future Blog Post", "2199-01-01", "This post will show up by default. To disable "
            "scheduling of future posts, edit `config.yml` and set `future: false`."),
        "_posts/2021-05-01-tides.md": front.format("Tides", "2021-05-01", "On tides.")})
    result = migrate(old, "academicpages", tmp_path / "content")
    assert f"_posts/2199-01-01-future-post.md:1: {SAMPLE} (academicpages)" in result.out
    assert [p.name for p in (tmp_path / "content" / "posts").glob("*.md")] == ["tides.md"]


def test_al_folio_later_samples_stay_behind_and_the_owners_paper_moves(tmp_path):
    """Projects 7-9 and the redirect to Wikipedia (al-folio 2024), the bookshelf page, and
    Einstein's papers in papers.bib; the owner's paper and project move."""
    project = ("---\nlayout: page\ntitle: {}\ndescription: {}\nimg: assets/img/{}.jpg\n{}"
               "importance: 2\ncategory: work\n---\n\nEvery project has a beautiful feature "
               "showcase page.\n")
    old = write_files(tmp_path / "old", {
        "_config.yml": "title: Ada Byron\nfirst_name: Ada\nlast_name: Byron\n",
        "_projects/8_project.md": project.format(
            "project 8", "an other project with a background image and giscus comments", 9,
            "giscus_comments: true\n"),
        "_projects/9_project.md": project.format("project 9", "another project with an "
                                                 "image 🎉", 6, ""),
        "_projects/3_project.md": project.format(
            "project 3 with very long name", "a project that redirects to another website",
            7, "redirect: https://www.wikipedia.org/\n"),
        "_projects/1_project.md": project.format("Tide gauges", "cheap gauges", 1, ""),
        "_pages/books.md": "---\nlayout: book-shelf\ntitle: bookshelf\npermalink: /books/\n"
                           "---\n\n> What an astonishing thing a book is. It's a flat object"
                           " made from a tree.\n",
        "_bibliography/papers.bib": (
            "@article{einstein1905electrodynamics,\n  title={On the electrodynamics of moving "
            "bodies},\n  author={Einstein, A.},\n  year={1905}\n}\n\n"
            "@book{przibram1967letters,\n  title={Letters on wave mechanics},\n  author="
            "{Einstein, Albert and Schr\\\"odinger, Erwin},\n  year={1967}\n}\n\n"
            "@article{byron2020tides,\n  title={On the electrodynamics of moving bodies},\n"
            "  author={Byron, Ada},\n  journal={Tides},\n  year={2020}\n}\n")})
    content = tmp_path / "content"
    result = migrate(old, "al-folio", content)
    for rel in ("_projects/8_project.md:1", "_projects/9_project.md:1",
                "_projects/3_project.md:1", "_pages/books.md:1"):
        assert f"{rel}: {SAMPLE} (al-folio)" in result.out
    for key, line in (("einstein1905electrodynamics", 1), ("przibram1967letters", 7)):
        assert f"_bibliography/papers.bib:{line}: entry '{key}' not moved: {SAMPLE} paper " \
               "(al-folio)" in result.out
    bib = (content / "publications" / "papers.bib").read_text(encoding="utf-8")
    assert "byron2020tides" in bib and "einstein" not in bib.lower()
    assert [p.name for p in (content / "projects").glob("*.md")] == ["1-project.md"]
    assert not (content / "pages" / "books.md").exists()


def test_hugo_later_samples_stay_behind_and_the_owners_example_moves(tmp_path):
    """Wowchemy's example talk, projects and papers (their dates, venues and links); a
    paper the owner wrote into the example's folder, with their own venue, moves."""
    paper = ('---\ntitle: "{}"\nauthors:\n- admin\ndate: "{}"\npublishDate: '
             '"2017-01-01T00:00:00Z"\npublication_types: ["{}"]\npublication: "{}"\n'
             "summary: Lorem ipsum dolor sit amet, consectetur adipiscing elit. Duis posuere "
             "tellus ac convallis placerat.\nurl_pdf: http://arxiv.org/pdf/1512.04133v1\n"
             "url_code: 'https://github.com/wowchemy/wowchemy-hugo-themes'\n"
             "url_video: 'https://youtube.com'\n---\n")
    old = write_files(tmp_path / "old", {
        "config/_default/config.yaml": "title: Ada Byron\n",
        "content/event/example/index.md": (
            "---\ntitle: Example Talk\nevent: Wowchemy Conference\nevent_url: "
            "https://example.org\nlocation: Wowchemy HQ\nsummary: An example talk using "
            "Wowchemy's Markdown slides feature.\ndate: '2030-06-01T13:00:00Z'\n---\n"),
        "content/project/external-project/index.md": (
            "---\ntitle: External Project\nsummary: An example of linking directly to an "
            "external project website using `external_link`.\ndate: '2016-04-27T00:00:00Z'\n"
            "external_link: https://example.org\n---\n"),
        "content/publication/journal-article/index.md": paper.format(
            "An example journal article", "2015-09-01T00:00:00Z", "2",
            "*Journal of Source Themes, 1*(1)"),
        "content/publication/conference-paper/index.md": paper.format(
            "An example conference paper", "2013-07-01T00:00:00Z", "1",
            "In *Hugo Blox Builder Conference*"),
        "content/publication/preprint/index.md": paper.format(
            "An example preprint / working paper", "2019-04-07T00:00:00Z", "3", ""),
        "content/post/getting-started/index.md": (
            "---\ntitle: 'Academic: the website designer for Hugo'\ndate: 2016-04-20\n"
            "summary: Create a beautifully simple website or blog in under 10 minutes.\n"
            "gallery_item:\n- album: gallery\n  image: theme-default.png\n---\n"),
        "content/publication/tides/index.md": paper.format(
            "An example journal article", "2015-09-01T00:00:00Z", "2", "*Journal of Tides*")})
    content = tmp_path / "content"
    result = migrate(old, "hugo-blox", content)
    for rel in ("event/example", "project/external-project", "publication/journal-article",
                "post/getting-started",
                "publication/conference-paper", "publication/preprint"):
        assert f"content/{rel}/index.md:1: {SAMPLE} (Hugo Academic)" in result.out
    assert [p.name for p in (content / "publications").glob("*.md")] == ["tides.md"]
    assert "content/publication/tides/index.md:1: its text is still the template's sample" \
        in result.out
    assert not (content / "talks").exists() and not (content / "projects").exists()
