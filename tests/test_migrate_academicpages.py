"""`migrate --from academicpages`: a fictional academicpages checkout (fixtures/migrate/
academicpages) becomes a content folder that builds and checks clean, through the real
command line."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest
import yaml

from conftest import ROOT, build_args, run_cli, write_files

FIXTURE = ROOT / "tests" / "fixtures" / "migrate" / "academicpages"
# A site.yaml of the test's own, so that building does not hang on what jekyll.py makes of
# _config.yml; migrate keeps it and adds the redirects at its end.
SITE_YAML = "title: Ada Quill\nurl: https://adaquill.example.org/\nauthor:\n  name: Ada Quill\n"


def hash_tree(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def read_front(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8").split("---\n")[1])


def copy_old_site(tmp_path: Path, only: tuple[str, ...] = ()) -> Path:
    """The fixture copied (only the folders named, when given), with a Finder file that
    git may not keep."""
    old = tmp_path / "old"
    shutil.copytree(FIXTURE, old, ignore=(lambda d, names: [n for n in names if Path(d) == FIXTURE
                                                             and n not in only])
                    if only else None)
    (old / "_publications" / ".DS_Store").write_bytes(b"\x00\x00\x00\x01Bud1\x00\xff")
    return old


@pytest.fixture(scope="module")
def migrated(tmp_path_factory):
    """(old site, content, migrate's result, built site) for the whole fixture."""
    tmp_path = tmp_path_factory.mktemp("academicpages")
    old = copy_old_site(tmp_path)
    before = hash_tree(old)
    content = write_files(tmp_path / "content", {"site.yaml": SITE_YAML})
    result = run_cli("migrate", str(old), "--content", str(content), "--from", "academicpages")
    assert result.code == 0, result.out + result.err
    assert hash_tree(old) == before, "migrate changed the old site"
    built = run_cli(*build_args(content, tmp_path / "site"))
    assert built.code == 0, built.err
    assert "warning" not in built.err, built.err
    checked = run_cli("check", "--content", str(content))
    assert checked.code == 0, checked.out + checked.err
    return old, content, result, tmp_path / "site"


def paper(migrated, slug: str) -> dict:
    return read_front(migrated[1] / "publications" / f"{slug}.md")


def test_authors_are_read_from_each_citation_style(migrated):
    assert paper(migrated, "sparse-widgets")["authors"] == [  # APA
        "A. Quill", "T. M. Reyes", "L. Okafor"]
    assert paper(migrated, "2019-quiet-graphs")["authors"] == [  # IEEE
        "A. Quill", "T. M. Reyes", "L. Okafor"]
    assert paper(migrated, "placeholder-date")["authors"] == [  # MLA
        "Ada Quill", "Tomas Reyes"]
    assert paper(migrated, "2017-chicago-style")["authors"] == [  # Chicago author-date
        "Ada Quill", "Tomas Reyes", "Lin Okafor"]
    assert paper(migrated, "2016-semicolons")["authors"] == ["T. Reyes", "A. Quill", "L. Okafor"]


def test_uncertain_authors_are_moved_and_marked(migrated):
    _, content, result, _ = migrated
    assert paper(migrated, "2015-et-al")["authors"] == ["L. Okafor", "et al."]
    text = (content / "publications" / "2015-et-al.md").read_text(encoding="utf-8")
    assert "# Check the authors" in text.split("\nauthors:")[0]
    assert "_publications/2015-et-al.md:7: authors to check" in result.out
    # coauthors without the owner: the owner is added first, and that is said
    assert paper(migrated, "2014-coauthors")["authors"] == ["Ada Quill", "Tomas Reyes",
                                                           "Lin Okafor"]
    assert "_publications/2014-coauthors.md:7: 'coauthors' leaves out Ada Quill" in result.out
    # the field as some forks spell it, with no citation beside it
    assert paper(migrated, "2016-co-authors")["authors"] == ["Ada Quill", "Tomas Reyes",
                                                             "Lin Okafor"]


def test_dates_venues_and_types(migrated):
    sparse = paper(migrated, "sparse-widgets")
    assert (str(sparse["date"]), sparse["venue"], sparse["type"]) == (
        "2021-03-15", "Journal of Widgets & Gadgets", "journal")
    assert "<i>" not in sparse["citation"] and "&amp;" not in sparse["citation"]
    assert str(paper(migrated, "2019-quiet-graphs")["date"]) == "2019-09-28"  # D/M/Y
    # the folder is D/M/Y (28/09/2019 says so): 05/06/2017 is 5 June
    chicago = paper(migrated, "2017-chicago-style")
    assert (str(chicago["date"]), chicago["type"]) == ("2017-06-05", "preprint")
    placeholder = paper(migrated, "placeholder-date")
    assert str(placeholder["date"]) == "2018"
    assert "_publications/2018-01-01-placeholder-date.md:6: the date 2018-01-01" \
        in migrated[2].out
    novenue = paper(migrated, "2013-no-venue")
    assert (novenue["type"], novenue["venue"]) == ("other", "Manuscript")
    assert paper(migrated, "2012-html-paper")["venue"] == "Annals of Widgetry"
    for fields in map(read_front, (migrated[1] / "publications").glob("*.md")):
        assert not set(fields) & {"collection", "permalink", "excerpt", "paperurl",
                                  "category", "slidesurl", "bibtexurl"}


def test_links_and_files(migrated):
    _, content, result, site = migrated
    assert paper(migrated, "sparse-widgets")["links"] == {"pdf": "files/paper1.pdf"}
    assert paper(migrated, "placeholder-date")["links"] == {"pdf": "files/paper3.pdf"}
    assert paper(migrated, "2019-quiet-graphs")["links"] == {
        "pdf": "https://example.org/papers/quiet-graphs.pdf",
        "code": "https://example.org/code/quiet-graphs"}
    assert paper(migrated, "2016-semicolons")["links"] == {"slides": "files/slides1.pdf"}
    assert (content / "files" / "paper1.pdf").read_bytes().startswith(b"%PDF-1.4")
    assert (site / "files" / "paper1.pdf").is_file()
    assert "2016-semicolons.md:8: 'bibtexurl' not moved" in result.out


def test_abstract_without_boilerplate(migrated):
    text = (migrated[1] / "publications" / "sparse-widgets.md").read_text(encoding="utf-8")
    body = text.split("---\n", 2)[2]
    assert "Sparse widgets are everywhere." in body
    assert "Recommended citation" not in body and "Download" not in body
    quiet = (migrated[1] / "publications" / "2019-quiet-graphs.md").read_text(encoding="utf-8")
    assert "Graphs can be quiet." in quiet and "Download" not in quiet


def test_report_names_what_was_left(migrated):
    out = migrated[2].out
    left = out.split("Left behind")[1]
    assert "_publications/2011-broken.md:" in left and "not valid YAML" in left
    assert "_publications/README.txt: not a Markdown file" in left
    assert ".DS_Store" not in out
    assert "16 papers" in out


def test_old_addresses_redirect(migrated):
    _, content, _, site = migrated
    redirects = yaml.safe_load((content / "site.yaml").read_text(encoding="utf-8"))["redirects"]
    assert redirects["publication/2021-03-15-sparse-widgets"] == "publications/sparse-widgets/"
    # Its old address differs from its new page's only in case: one file on macOS and
    # Windows, which the build refuses, so it is named in the report instead.
    assert "publications/2019-Quiet-Graphs" not in redirects
    assert "'publications/2019-Quiet-Graphs' is not redirected" in migrated[2].out
    assert redirects["posts/2021/01/second-post"] == "posts/second-post/"
    assert redirects["hello-widgets"] == "posts/hello-widgets/"  # permalink: /:categories/:title/
    page = (site / "publication" / "2021-03-15-sparse-widgets" / "index.html").read_text(
        encoding="utf-8")
    assert "../../publications/sparse-widgets/" in page
    assert (site / "publications" / "sparse-widgets" / "index.html").is_file()


def test_collections_move(migrated):
    content = migrated[1]
    talk = read_front(content / "talks" / "talk-on-widgets.md")
    assert (talk["event"], talk["location"], talk["type"], talk["slides"]) == (
        "Nowhere Institute, Department of Widgets", "Nowhere Town, Atlantis", "Invited talk",
        "files/slides1.pdf")
    course = read_front(content / "teaching" / "2019-fall-widgets-101.md")
    assert course["institution"] == "University of Nowhere, Department of Widgets"
    post = read_front(content / "posts" / "hello-widgets.md")
    assert (str(post["date"]), post["tags"]) == ("2020-02-14", ["widgets", "hello"])
    project = read_front(content / "projects" / "widget-lab.md")
    assert (project["summary"], project["image"]) == ("A lab for widgets",
                                                      "files/images/teaser1.png")
    assert (content / "files" / "images" / "teaser1.png").is_file()
    assert "![The lab](files/images/teaser1.png)" in (content / "projects" / "widget-lab.md"
                                                     ).read_text(encoding="utf-8")
    assert "{{" not in (content / "talks" / "talk-on-widgets.md").read_text(encoding="utf-8")


def test_partial_checkout(tmp_path):
    """Only `_publications/`: no config, so no owner; every paper still builds."""
    old = copy_old_site(tmp_path, only=("_publications",))
    content = write_files(tmp_path / "content", {"site.yaml": SITE_YAML})
    result = run_cli("migrate", str(old), "--content", str(content), "--from", "academicpages")
    assert result.code == 0, result.out + result.err
    assert "16 papers" in result.out
    assert read_front(content / "publications" / "2014-coauthors.md")["authors"] == [
        "Tomas Reyes", "Lin Okafor"]
    built = run_cli(*build_args(content, tmp_path / "site"))
    assert built.code == 0, built.err
    assert (tmp_path / "site" / "publication" / "2021-03-15-sparse-widgets"
            / "index.html").is_file()


def test_real_world_shapes(migrated):
    """Shapes real sites' `_publications/` take (fictional data): no suffix, odd dates,
    `Authors:`, links of their own, authors only in BibTeX or a line of names, a
    permalink on another site, the citation said again under the abstract."""
    _, content, result, _ = migrated
    out, left = result.out, result.out.split("Left behind")[1]
    dawn = paper(migrated, "widgets-at-dawn")  # '7.md': a number says nothing
    assert (str(dawn["date"]), dawn["authors"]) == ("2020-08", ["Ada Quill", "Tomas Reyes"])
    text = (content / "publications" / "widgets-at-dawn.md").read_text(encoding="utf-8")
    assert "Widgets wake early." in text and text.count("Tomas Reyes") == 2  # field, citation
    assert "_publications/7.md:4: 'permalink' is an address on another site" in out
    redirects = yaml.safe_load((content / "site.yaml").read_text(encoding="utf-8"))["redirects"]
    assert not any("journal.example.org" in old for old in redirects)
    sleepy = paper(migrated, "2022-sleepy-widgets")
    assert (str(sleepy["date"]), sleepy["authors"]) == (
        "2022-03-28", ["Ada Quill*", "Tomas Reyes*", "Lin Okafor"])  # marks as shown
    assert sleepy["links"] == {"arxiv": "https://arxiv.org/abs/2203.00001",
                               "code": "https://example.org/code/sleepy-widgets"}
    assert "_publications/2022-sleepy-widgets.md:5: the date '2022-28-03'" in out
    body = (content / "publications" / "2022-sleepy-widgets.md").read_text(encoding="utf-8")
    assert "Widgets sleep too." in body and "Abstract" not in body and "@inproc" not in body
    loud = paper(migrated, "2023-loud-widgets")
    assert loud["authors"] == ["Ada Quill", "Tomas Reyes", "Lin Okafor"]
    assert loud["links"] == {"doi": "https://doi.org/10.5555/loud.2023"}
    assert "_publications/2023-loud-widgets.md:7: authors read from a line of names" in out
    body = (content / "publications" / "2023-loud-widgets.md").read_text(encoding="utf-8")
    assert "Loud widgets are heard." in body and "**Ada" not in body and "DOI" not in body
    bulk = (content / "publications" / "2024-widgets-in-bulk.md").read_text(encoding="utf-8")
    assert read_front(content / "publications" / "2024-widgets-in-bulk.md")["authors"] == [
        "Lin Okafor", "Ada Quill"] and bulk.rstrip().endswith("---")
    assert paper(migrated, "widgets-without-a-suffix")["venue"] == "Widget Review Letters"
    assert paper(migrated, "2025-certified-widgets")["authors"] == [  # degrees left out
        "Ada Quill", "Tomas Reyes", "Lin Okafor"]
    assert "_publications/2008-sample.md:1: the template's own sample (academicpages)" in left
    assert "_publications/.2009-draft.md: a hidden file" in left


def test_undecided_date_order_is_marked(tmp_path):
    old = write_files(tmp_path / "old", {"_publications/2020-one.md": """\
        ---
        title: One Widget
        date: '03/04/2020'
        venue: Journal of Widgets
        citation: 'Quill, A. (2020). One widget.'
        ---
        """})
    content = write_files(tmp_path / "content", {"site.yaml": SITE_YAML})
    result = run_cli("migrate", str(old), "--content", str(content), "--from", "academicpages")
    assert result.code == 0, result.err
    assert "_publications: read as D/M/Y" in result.out
    assert str(read_front(content / "publications" / "2020-one.md")["date"]) == "2020-04-03"
    assert run_cli(*build_args(content, tmp_path / "site")).code == 0


def test_initials_in_any_script_and_a_style_not_read_are_not_guessed(tmp_path):
    """APA with initials such as 'Ö.' and 'Ş.' (HTML around the owner) is read whole; a
    citation in no style migrate knows gives no half list: the owner stands for it, and
    the report says to copy the authors (issue 33, class 15)."""
    front = "---\ntitle: {t}\ncollection: publications\ndate: 2021-05-20\nvenue: J\n" \
            "citation: '{c}'\n---\n"
    old = write_files(tmp_path / "old", {
        "_config.yml": "title: Önder Çoban\nname: Önder Çoban\nurl: https://oc.example.org\n",
        "_publications/turkish.md": front.format(
            t="Gender", c="<b>Çoban, Ö.</b>, İnan, A., and Özel, S. A. (2021). "
                          "\"Gender\". <i>J</i>, 20(4), 1-38."),
        "_publications/odd.md": front.format(
            t="Odd Style", c="Ann Lee, Chan, Önder Çoban, Dee (2021). Odd Style."),
    })
    content = tmp_path / "content"
    result = run_cli("migrate", str(old), "--content", str(content), "--from", "academicpages")
    assert result.code == 0, result.out + result.err
    assert read_front(content / "publications" / "turkish.md")["authors"] == [
        "Ö. Çoban", "A. İnan", "S. A. Özel"]
    assert read_front(content / "publications" / "odd.md")["authors"] == ["Önder Çoban",
                                                                          "et al."]
    assert "_publications/odd.md:6: authors to check: the citation's style is not one " \
           "migrate reads" in result.out


def test_a_year_without_a_date_and_a_paper_in_press(tmp_path):
    """`year:` in place of `date:` (the file name's date first, when it has one), and
    `year: In press`: every paper moves, the one in press with its status (issue 33,
    class 12)."""
    front = "---\ntitle: {t}\nyear: {y}\nvenue: Journal of Widgets\n" \
            "citation: 'Quill, A. {t}.'\n---\n"
    old = write_files(tmp_path / "old", {
        "_config.yml": "title: Ada Quill\nname: Ada Quill\nurl: https://aq.example.org\n",
        "_publications/2019-03-02-named.md": front.format(t="Named", y=2018),
        "_publications/plain.md": front.format(t="Plain", y=2017),
        "_publications/pressed.md": front.format(t="Pressed", y="In press"),
    })
    content = tmp_path / "content"
    result = run_cli("migrate", str(old), "--content", str(content), "--from", "academicpages")
    assert result.code == 0, result.out + result.err
    assert "not moved" not in result.out
    assert str(read_front(content / "publications" / "named.md")["date"]) == "2019-03-02"
    assert str(read_front(content / "publications" / "plain.md")["date"]) == "2017"
    pressed = read_front(content / "publications" / "pressed.md")
    assert pressed["status"] == "in press" and "date" not in pressed
    built = run_cli(*build_args(content, tmp_path / "site"))
    assert built.code == 0 and "error" not in built.err, built.err


def test_a_citation_keeps_an_asterisk_that_begins_a_name(tmp_path):
    """An author's mark ('Quill, A.*') is no part of the citation's text; `*SEM`'s
    asterisk and a *pair* of emphasis marks are read as Markdown reads them (class 15)."""
    old = write_files(tmp_path / "old", {"_publications/2021-05-01-sem.md": """\
        ---
        title: Sem Paper
        date: 2021-05-01
        venue: "*SEM 2021"
        citation: "Quill, A.*, Roe, B. (2021). Sem Paper. *Proceedings of *SEM 2021*."
        ---
        """})
    content = write_files(tmp_path / "content", {"site.yaml": SITE_YAML})
    assert run_cli("migrate", str(old), "--content", str(content), "--from",
                   "academicpages").code == 0
    front = read_front(content / "publications" / "sem.md")
    assert front["citation"] == "Quill, A., Roe, B. (2021). Sem Paper. Proceedings of *SEM 2021."
    assert front["venue"] == "*SEM 2021"


def test_the_owners_item_in_a_samples_clothing_moves(tmp_path):
    """An item is a sample only when every field its owner could change is the template's:
    a real paper kept in the template's file with the owner's title, venue, date and
    citation but the sample's text moves, and so does a course with only its title the
    owner's, and a sample paper whose PDF link is the owner's; the report names their text
    as the template's. A sample all of whose fields are the template's stays (issue 45, 1)."""
    old = write_files(tmp_path / "old", {
        "_publications/2009-10-01-paper-title-number-1.md": """\
            ---
            title: "Widgets at Scale"
            collection: publications
            permalink: /publication/2009-10-01-paper-title-number-1
            excerpt: 'This paper is about the number 1. The number 2 is left for future work.'
            date: 2018-06-02
            venue: 'Widget Review'
            paperurl: 'http://academicpages.github.io/files/paper1.pdf'
            citation: 'Quill, Ada. (2018). &quot;Widgets at Scale.&quot; <i>Widget Review</i>.'
            ---
            This paper is about the number 1. The number 2 is left for future work.
            """,
        "_publications/2010-10-01-paper-title-number-2.md": """\
            ---
            title: "Paper Title Number 2"
            date: 2010-10-01
            venue: 'Journal 1'
            paperurl: 'https://widgets.example.org/quill-2010.pdf'
            citation: 'Your Name, You. (2010). &quot;Paper Title Number 2.&quot; <i>Journal 1</i>.'
            ---
            This paper is about the number 1. The number 2 is left for future work.
            """,
        "_publications/2015-10-01-paper-title-number-3.md": """\
            ---
            title: "Paper Title Number 3"
            date: 2015-10-01
            venue: 'Journal 1'
            paperurl: 'http://academicpages.github.io/files/paper3.pdf'
            citation: 'Your Name, You. (2015). &quot;Paper Title Number 3.&quot; <i>Journal 1</i>.'
            ---
            This paper is about the number 1. The number 2 is left for future work.
            """,
        "_teaching/2014-spring-teaching-1.md": """\
            ---
            title: "Widget Design 101"
            collection: teaching
            type: "Undergraduate course"
            permalink: /teaching/2014-spring-teaching-1
            venue: "University 1, Department"
            date: 2014-01-01
            location: "City, Country"
            ---
            This is a description of a teaching experience. You can use markdown like any other
            post.
            """,
        "_teaching/2015-spring-teaching-2.md": """\
            ---
            title: "Teaching experience 2"
            venue: "University 1, Department"
            date: 2015-01-01
            location: "City, Country"
            ---
            This is a description of a teaching experience. You can use markdown like any other
            post.
            """,
    })
    content = write_files(tmp_path / "content", {"site.yaml": SITE_YAML})
    result = run_cli("migrate", str(old), "--content", str(content), "--from", "academicpages")
    assert result.code == 0, result.out + result.err
    scale = read_front(content / "publications" / "paper-title-number-1.md")
    assert (scale["title"], scale["venue"], str(scale["date"])) == (
        "Widgets at Scale", "Widget Review", "2018-06-02")
    assert read_front(content / "publications" / "paper-title-number-2.md")["links"] == {
        "pdf": "https://widgets.example.org/quill-2010.pdf"}
    assert read_front(content / "teaching" / "2014-spring-teaching-1.md")["title"] == \
        "Widget Design 101"
    redirects = yaml.safe_load((content / "site.yaml").read_text(encoding="utf-8"))["redirects"]
    assert redirects["publication/2009-10-01-paper-title-number-1"] == \
        "publications/paper-title-number-1/"
    review, left = result.out.split("Left behind")
    for name in ("_publications/2009-10-01-paper-title-number-1.md",
                 "_publications/2010-10-01-paper-title-number-2.md",
                 "_teaching/2014-spring-teaching-1.md"):
        assert f"{name}:1: its text is still the template's sample text" in review
    assert "_publications/2015-10-01-paper-title-number-3.md:1: the template's own sample" \
        in left and "_teaching/2015-spring-teaching-2.md:1: the template's own sample" in left
    assert not (content / "publications" / "paper-title-number-3.md").exists()


def test_no_item_is_left_behind_for_its_date(tmp_path):
    """Dates as real sites write them: a month and a two-digit year in either order
    (Excel's '14-Sep', 'Aug-15'), '11/1/2016', a term, a year, no year at all. Every item
    moves; what can be read is, the two-digit years by the site's span; an item with no
    year is listed last, its text kept; the report names every guess (issue 45, class 2)."""
    talk = "---\ntitle: {t}\nvenue: Widget Forum\ndate: {d}\n---\nAbout widgets.\n"
    old = write_files(tmp_path / "old", {
        **{f"_talks/{name}.md": talk.format(t=f"Talk {name}", d=date) for name, date in (
            ("sep", "14-Sep"), ("aug", "Aug-15"), ("dec", "Dec-13"), ("may", "May-18"),
            ("nov", "11/1/2016"), ("iso", "2012-05-02"), ("tba", "TBA"))},
        "_teaching/spring.md": "---\ntitle: Widgets 101\nvenue: Widget U\ndate: Spring 2020\n"
                               "---\n",
        "_teaching/undated.md": "---\ntitle: Widgets 102\nvenue: Widget U\n---\n",
        "_publications/sep.md": "---\ntitle: Widget Sept\nvenue: Widget Letters\ndate: "
                                "28/09/2016\n---\n",
    })
    content = write_files(tmp_path / "content", {"site.yaml": SITE_YAML})
    result = run_cli("migrate", str(old), "--content", str(content), "--from", "academicpages")
    assert result.code == 0, result.out + result.err
    dates = {p.stem: str(read_front(p)["date"]) for p in (content / "talks").glob("*.md")}
    assert dates == {"sep": "2014-09", "aug": "2015-08", "dec": "2013-12", "may": "2018-05",
                     "nov": "2016-01-11", "iso": "2012-05-02", "tba": "2012"}
    assert str(read_front(content / "teaching" / "spring.md")["date"]) == "2020"
    assert str(read_front(content / "teaching" / "undated.md")["date"]) == "2012"
    assert str(read_front(content / "publications" / "sep.md")["date"]) == "2016-09-28"
    tba = (content / "talks" / "tba.md").read_text(encoding="utf-8")
    assert "# The old site's date is 'TBA', which gives no year: 2012 stands in" in tba
    out = result.out
    assert "_talks/sep.md:4: the date '14-Sep' read as 2014-09 (a month and a two-digit " \
           "year, 2014 by the span of the site's other dates)" in out
    assert "_talks/nov.md:4: the date '11/1/2016' read as 2016-01-11 (a first number over " \
           "12 makes these dates D/M/Y, in the site's other folders)" in out
    assert "_teaching/spring.md:4: the date 'Spring 2020' read as 2020 (its year only)" in out
    assert "_talks/tba.md:4: the old site's date is 'TBA', which gives no year; written as " \
           "2012 (the site's oldest year, listed last)" in out
    assert "_teaching/undated.md:1: the old site gives no date; written as 2012" in out
    assert "not moved" not in out  # and the new folder reads clean: migrate's exit 0 says so


def test_a_front_matter_yaml_refuses_for_a_colon_moves_repaired(tmp_path):
    """`citation:` (and `title:`) values holding ': ' unquoted: the front matter is moved
    with them quoted, as the report's hint says, each repair named; a front matter broken
    otherwise is still named and left (issue 45, class 4)."""
    old = write_files(tmp_path / "old", {
        "_publications/2020-01-02-colons.md": "---\ntitle: Widgets: A Study\ndate: 2020-01-02"
        "\nvenue: Widget Letters\ncitation: Quill, A. (2020). Widgets: a study. Widget "
        "Letters.\n---\nWidgets, studied.\n",
        "_publications/2020-01-03-broken.md": "---\ntitle: [Broken\ndate: 2020-01-03\n---\n",
    })
    content = write_files(tmp_path / "content", {"site.yaml": SITE_YAML})
    result = run_cli("migrate", str(old), "--content", str(content), "--from", "academicpages")
    assert result.code == 0, result.out + result.err
    front = read_front(content / "publications" / "colons.md")
    assert (front["title"], front["citation"]) == (
        "Widgets: A Study", "Quill, A. (2020). Widgets: a study. Widget Letters.")
    assert "_publications/2020-01-02-colons.md:2: front matter repaired: a value held ': ', " \
           "which YAML reads as another key; moved as title: \"Widgets: A Study\"" in result.out
    assert "_publications/2020-01-02-colons.md:5: front matter repaired" in result.out
    assert "_publications/2020-01-03-broken.md:2: front matter is not valid YAML" in \
        result.out.split("Left behind")[1]


def test_a_page_written_by_hand_in_a_collection_folder_is_kept(tmp_path):
    """`_publications/Publis.md` (`title: ""`, `permalink: /publications/`) holds the
    owner's whole list written by hand, and a `_teaching/` file the same: each is kept
    whole as its list page's own text (pages/publications.md, `place: above`), the report
    saying how to show the owner's list alone, beside the items that move as before; the
    build honours `place` (above the list, or instead of it) and refuses it on a page
    that is no list's (issue 45, class 3)."""
    old = write_files(tmp_path / "old", {
        "_publications/Publis.md": """\
            ---
            title: ""
            permalink: /publications/
            ---
            ## Journal papers

            1. Quill, A. (2019). [Widgets at dawn](https://doi.org/10.5555/dawn). *Widget Review*.

            ## Talks

            - Widgets, Widget Forum 2018
            """,
        "_publications/2020-01-02-real.md": "---\ntitle: Real Widgets\ndate: 2020-01-02\n"
                                            "venue: Widget Letters\n---\n",
        "_teaching/courses.md": "---\ntitle: ''\npermalink: /teaching/\n---\n"
                                "I taught *Widgets 101* at Widget U, 2015-2019.\n",
    })
    content = write_files(tmp_path / "content", {"site.yaml": SITE_YAML})
    result = run_cli("migrate", str(old), "--content", str(content), "--from", "academicpages")
    assert result.code == 0, result.out + result.err
    publis = content / "pages" / "publications.md"
    assert read_front(publis)["place"] == "above"
    assert "## Journal papers" in publis.read_text(encoding="utf-8")
    assert read_front(content / "pages" / "teaching.md")["place"] == "above"
    assert (content / "publications" / "real.md").is_file()
    assert "_publications/Publis.md: a page written by hand among the _publications/ items, " \
           "kept whole as the text of /publications/, above the list the new site makes " \
           "there (pages/publications.md, `place: above`): set `place: instead` to show " \
           "only your list" in result.out
    assert "_teaching/courses.md: a page written by hand" in result.out
    assert "not moved" not in result.out  # and the new folder reads clean (exit 0)
    site = tmp_path / "site"
    assert run_cli(*build_args(content, site)).code == 0
    page = (site / "publications" / "index.html").read_text(encoding="utf-8")
    assert page.index("Journal papers") < page.index("Real Widgets")  # above the list
    assert "Widgets 101" in (site / "teaching" / "index.html").read_text(encoding="utf-8")
    publis.write_text(publis.read_text(encoding="utf-8").replace("place: above",
                                                                 "place: instead"))
    assert run_cli(*build_args(content, site)).code == 0
    page = (site / "publications" / "index.html").read_text(encoding="utf-8")
    assert "Journal papers" in page and "Real Widgets" not in page  # the owner's list alone
    assert (site / "publications" / "real-widgets" / "index.html").is_file() or \
        (site / "publications" / "real" / "index.html").is_file()  # its page stays
    write_files(content / "pages", {"about-me.md": "---\ntitle: Me\nplace: above\n---\nHi\n"})
    refused = run_cli(*build_args(content, site))
    assert refused.code == 1 and "about-me.md:3: error: 'place' puts a page's text on a " \
        "list page" in refused.err


def test_every_paper_moves_whatever_its_category(tmp_path):
    """A site's own categories (`publication_category` with op-eds and reports, in
    French too) are no types of scholarsite's: each paper moves, as the nearest type, with
    the old group's title kept as its category, shown on its page and in the list's
    filters; the report says so (issue 45, class 8)."""
    old = write_files(tmp_path / "old", {
        "_config.yml": "title: Jeanne Quill\nauthor:\n  name: Jeanne Quill\n"
                       "publication_category:\n  manuscripts:\n    title: Articles\n"
                       "  op-eds:\n    title: Tribunes\n  rapports:\n    title: Rapports\n",
        "_publications/2020-tribune.md": "---\ntitle: Pour des widgets sobres\ncategory: "
                                         "op-eds\ndate: 2020-01-15\nvenue: Le Monde\n---\n",
        "_publications/2021-rapport.md": "---\ntitle: Rapport sur les widgets\n"
                                         "category: rapports\ndate: 2021-03-01\n---\n",
        "_publications/2022-brief.md": "---\ntitle: Widget policy\ncategory: [policy briefs]\n"
                                       "date: 2022-05-01\nvenue: Widget Institute\n---\n",
        "_publications/2019-article.md": "---\ntitle: Widgets at dawn\ncategory: manuscripts\n"
                                         "date: 2019-03-01\nvenue: Widget Review\n---\n"})
    content = write_files(tmp_path / "content", {"site.yaml": SITE_YAML})
    result = run_cli("migrate", str(old), "--content", str(content), "--from", "academicpages")
    assert result.code == 0, result.out + result.err
    moved = {name.split("-")[1]: read_front(content / "publications" / f"{name}.md")
             for name in ("2020-tribune", "2021-rapport", "2022-brief", "2019-article")}
    assert (moved["tribune"]["type"], moved["tribune"]["category"]) == ("other", "Tribunes")
    assert (moved["rapport"]["type"], moved["rapport"]["category"]) == ("report", "Rapports")
    assert (moved["brief"]["type"], moved["brief"]["category"]) == ("report", "policy briefs")
    assert moved["article"]["type"] == "journal" and "category" not in moved["article"]
    assert "_publications/2020-tribune.md:3: category 'op-eds' is no type scholarsite " \
           "knows: written as type: other, and kept as the paper's category 'Tribunes'" \
        in result.out
    site = tmp_path / "site"
    assert run_cli(*build_args(content, site)).code == 0
    page = (site / "publications" / "2020-tribune" / "index.html").read_text(encoding="utf-8")
    assert "<dd>Tribunes</dd>" in page
    listing = (site / "publications" / "index.html").read_text(encoding="utf-8")
    assert 'data-category="Rapports"' in listing and 'data-label="Tribunes"' in listing
