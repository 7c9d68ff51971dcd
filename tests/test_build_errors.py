"""Bad content and unsafe output folders: clear `path:line` messages, exit 1, no traceback,
and the previous site left as it was."""

from __future__ import annotations

import re

import pytest

from conftest import (MINIMAL_CONFIG, MINIMAL_PAPER, build_args, copy_templates, run_cli,
                      tree_bytes, write_files)

from scholarsite.output.cache import CACHE_DIR

DIAG = re.compile(r"^(?P<path>[^\s:][^:]*):(?P<line>\d+): (?P<sev>error|warning): (?P<msg>.+)$")


def problems(stderr: str) -> list[tuple[str, int, str, str]]:
    """The `path:line: severity: message` lines of a run."""
    found = []
    for line in stderr.splitlines():
        match = DIAG.match(line)
        if match:
            found.append((match["path"].replace("\\", "/"), int(match["line"]), match["sev"],
                          match["msg"]))
    return found


def assert_clean_failure(result) -> None:
    assert result.code == 1, (result.out, result.err)
    assert "Traceback" not in result.err


def test_missing_required_field_names_file_and_line(make_site):
    content = make_site({"publications/no-date.md": """\
        ---
        title: No Date
        authors: [Ada Example]
        venue: Somewhere
        ---
        """})
    result = run_cli(*build_args(content))
    assert_clean_failure(result)
    [(path, line, sev, msg)] = problems(result.err)
    assert path.endswith("publications/no-date.md") and sev == "error"
    assert "date" in msg and line == 2  # the front matter's first line


def test_bad_field_value_points_at_its_line(make_site):
    content = make_site({"publications/bad-date.md": """\
        ---
        title: Bad Date
        authors: [Ada Example]
        venue: Somewhere
        date: 2024-13
        ---
        """})
    result = run_cli(*build_args(content))
    assert_clean_failure(result)
    [(path, line, _, msg)] = problems(result.err)
    assert line == 5 and "YYYY" in msg


def test_yaml_syntax_error_at_its_own_line(make_site):
    content = make_site({"publications/broken.md": """\
        ---
        title: Fine
        authors: [Ada Example
        venue: Somewhere
        date: 2024
        ---
        """})
    result = run_cli(*build_args(content))
    assert_clean_failure(result)
    [(path, line, _, msg)] = problems(result.err)
    assert path.endswith("broken.md") and "YAML" in msg
    # Reported where the unclosed list opens, naming where the parser gave up.
    assert line == 3 and "while parsing a flow sequence that starts here" in msg


def test_every_problem_reported_at_once(make_site):
    content = make_site({
        "site.yaml": MINIMAL_CONFIG + "colour: blue\n",
        "publications/one.md": "---\ntitle: One\nauthors: [A]\ndate: 2024\n---\n",
        "publications/two.md": "---\ntitle: Two\nauthors: [A]\nvenue: V\ndate: 2024\nvenu: X\n---\n",
        "publications/Bad_Name.md": "---\ntitle: T\nauthors: [A]\nvenue: V\ndate: 2024\n---\n",
    })
    result = run_cli(*build_args(content))
    assert_clean_failure(result)
    found = problems(result.err)
    by_file = {(p.rsplit("/", 1)[-1], line) for p, line, sev, _ in found if sev == "error"}
    assert ("site.yaml", 7) in by_file  # the unknown key 'colour'
    assert ("one.md", 2) in by_file  # no venue
    assert ("two.md", 6) in by_file  # 'venu' is unknown
    assert ("Bad_Name.md", 1) in by_file  # not a slug
    assert any("did you mean 'venue'" in msg for *_, msg in found)


def test_unknown_site_setting_is_named(make_site):
    content = make_site({"site.yaml": MINIMAL_CONFIG.replace("title:", "titel:")})
    result = run_cli(*build_args(content))
    assert_clean_failure(result)
    messages = [m for *_, m in problems(result.err)]
    assert any("unknown setting 'titel'" in m and "'title'" in m for m in messages)


def test_duplicate_slug_is_an_error(make_site):
    paper = "---\ntitle: T\nauthors: [A]\nvenue: V\ndate: 2024\n---\n"
    content = make_site({"publications/2023/same.md": paper, "publications/2024/same.md": paper})
    result = run_cli(*build_args(content))
    assert_clean_failure(result)
    [(path, _, _, msg)] = problems(result.err)
    assert "slug 'same'" in msg and "2023/same.md" in msg and path.endswith("2024/same.md")


def test_non_utf8_file_is_a_clear_error(make_site):
    content = make_site({"publications/latin.md":
                         "---\ntitle: Caf\xe9\nauthors: [A]\nvenue: V\ndate: 2024\n---\n"
                         .encode("latin-1")})
    result = run_cli(*build_args(content))
    assert_clean_failure(result)
    [(path, line, _, msg)] = problems(result.err)
    assert "UTF-8" in msg and line == 2


def test_unsafe_link_scheme_is_refused(make_site):
    content = make_site({"publications/evil.md": """\
        ---
        title: T
        authors: [A]
        venue: V
        date: 2024
        links:
          pdf: javascript:alert(1)
          code: data:text/html,hi
        ---
        """})
    result = run_cli(*build_args(content))
    assert_clean_failure(result)
    lines = sorted(line for _, line, _, _ in problems(result.err))
    assert lines == [7, 8]


def test_failed_build_leaves_previous_site_untouched(make_site, tmp_path):
    content = make_site()
    out = tmp_path / "site"
    assert run_cli(*build_args(content, out)).code == 0
    before = tree_bytes(out)
    (content / "publications" / "a-paper.md").write_text("---\ntitle: [\n---\n", encoding="utf-8")
    result = run_cli(*build_args(content, out))
    assert_clean_failure(result)
    assert tree_bytes(out) == before
    # Nothing left over beside the site but the build cache.
    assert sorted(p.name for p in tmp_path.iterdir()) == [CACHE_DIR, ".site.images", "content", "site"]


@pytest.mark.parametrize("inside", ["content", "templates"])
def test_an_output_folder_inside_what_the_build_reads_is_refused(make_site, tmp_path, inside):
    """Each build would read the last one's site (59 -> 98 -> 137 files): refused."""
    content = make_site()
    templates = copy_templates(tmp_path)
    out = (content if inside == "content" else templates) / "site"
    result = run_cli(*build_args(content, out, templates=templates))
    assert_clean_failure(result)
    assert "it is inside" in result.err and not out.exists()


def test_refuses_unsafe_output_folders(make_site, tmp_path):
    content = make_site()
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "thesis.tex").write_text("precious", encoding="utf-8")
    for target in (content, tmp_path, mine):
        result = run_cli(*build_args(content, target))
        assert_clean_failure(result)
        assert "refusing to build into" in result.err
    assert (mine / "thesis.tex").read_text(encoding="utf-8") == "precious"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["content", "mine"]


def test_usage_error_exits_2(make_site):
    assert run_cli("build", "--no-such-flag").code == 2


def test_warning_becomes_error_with_strict(make_site):
    content = make_site({"publications/a-paper.md": "---\ntitle: T\nauthors: [A]\nvenue: V\n"
                         "date: 2024\nlocation: ''\n---\n"})
    relaxed = run_cli(*build_args(content))
    assert relaxed.code == 0
    assert any(sev == "warning" and line == 6 for _, line, sev, _ in problems(relaxed.err))
    strict = run_cli(*build_args(content, None, "--strict"))
    assert_clean_failure(strict)


def test_impossible_date_is_an_error_not_a_crash(make_site):
    """YAML reads 2024-02-30 as a date and fails to build it: a clear error at its line."""
    content = make_site({"publications/feb.md": """\
        ---
        title: T
        authors: [A]
        venue: V
        date: 2024-02-30
        ---
        """})
    result = run_cli(*build_args(content))
    assert_clean_failure(result)
    [(path, line, _, msg)] = problems(result.err)
    assert path.endswith("feb.md") and line == 5 and "invalid date '2024-02-30'" in msg


THEME_BREAKS = {
    # A template the site's folder nor the theme has (a deleted override is simply the
    # theme's again): asked for by extends, include, import and from-import.
    "base.html includes a missing one": lambda t: (t / "base.html").write_text(
        "{% include '_gone.html' %}", encoding="utf-8"),
    "paper.html extends a missing one": lambda t: (t / "paper.html").write_text(
        "{% extends 'gone.html' %}", encoding="utf-8"),
    "_authors.html imports a missing one": lambda t: (t / "_authors.html").write_text(
        "{% import '_gone.html' as g %}", encoding="utf-8"),
    "collection.html from-imports a missing one": lambda t: (t / "collection.html").write_text(
        "{% from '_gone.html' import x %}", encoding="utf-8"),
    "include outside": lambda t: (t / "page.html").write_text(
        "{% include '../x.html' %}", encoding="utf-8"),
    "not UTF-8": lambda t: (t / "item.html").write_bytes(b"{{ page.title }} \xff\xfe"),
}


@pytest.mark.parametrize("name", list(THEME_BREAKS))
def test_a_broken_theme_is_a_message_not_a_traceback(make_site, tmp_path, name):
    """A theme file missing, unreadable or reaching outside the theme: one message that
    names it, exit 1, and the previous site as it was."""
    content = make_site({"talks/keynote.md": "---\ntitle: A Keynote\ndate: 2024-05-01\n---\n",
                         "pages/about.md": "---\ntitle: About\n---\nHello.\n"})
    out = tmp_path / "site"
    assert run_cli(*build_args(content, out)).code == 0
    before = tree_bytes(out)
    templates = copy_templates(tmp_path, "theme")
    THEME_BREAKS[name](templates)
    result = run_cli(*build_args(content, out, templates=templates))
    assert_clean_failure(result)
    found = [line for line in result.err.splitlines() if ": error: " in line]
    assert found and len(found) == len(set(found)), result.err
    assert all(line.startswith(str(templates)) for line in found), result.err
    assert tree_bytes(out) == before


def test_nothing_written_is_dropped_without_a_word(make_site, tmp_path):
    """An unknown link kind and a key given twice are errors at their lines."""
    paper = ("---\ntitle: A Paper\nauthors: [Ada Example]\nvenue: Venue\ndate: 2024\n"
             "links:\n  pdff: https://example.org/a.pdf\ntitle: Another Title\n---\n")
    content = make_site({"publications/a-paper.md": paper})
    result = run_cli(*build_args(content))
    assert_clean_failure(result)
    found = {(path.split("content/")[-1], line): msg for path, line, _, msg in problems(result.err)}
    assert "'links.pdff'" in found[("publications/a-paper.md", 7)] and \
        "did you mean 'pdf'" in found[("publications/a-paper.md", 7)]
    assert "'title' is given twice" in found[("publications/a-paper.md", 8)]


def test_bibtex_entries_the_parser_would_skip_are_named(make_site):
    """An entry type that is not a word would vanish as a comment; a crossref loop would
    hide both papers as mere parents. Each is a warning at its line, and the papers that
    can be read are built."""
    bib = ("@in-proceedings{odd, title = {Odd}, author = {Ada Example}, year = 2024}\n\n"
           "@inproceedings{a, title = {A}, author = {Ada Example}, year = 2024,\n"
           "  booktitle = {X}, crossref = {b}}\n"
           "@inproceedings{b, title = {B}, author = {Ada Example}, year = 2024,\n"
           "  booktitle = {Y}, crossref = {a}}\n")
    content = make_site({"publications/a-paper.md": None, "publications/refs.bib": bib})
    result = run_cli(*build_args(content))
    assert result.code == 0, result.err
    found = {(path.split("content/")[-1], line, sev)
             for path, line, sev, _ in problems(result.err)}
    assert {("publications/refs.bib", 1, "warning"), ("publications/refs.bib", 4, "warning"),
            ("publications/refs.bib", 6, "warning")} <= found, result.err
    pages = content.parent / "site" / "publications"
    assert (pages / "a" / "index.html").is_file() and (pages / "b" / "index.html").is_file()


def test_page_addresses_are_names_every_system_can_hold(make_site):
    """A file named as a Windows device (con.md) is an error naming it; a BibTeX key that
    would make one, or that has accents, gets an address every system can hold."""
    bib = ("@article{CON, title = {Console}, author = {Ada Example}, journal = {J},"
           " year = 2024}\n"
           "@article{González2022, title = {Accents}, author = {Ada Example}, journal = {J},"
           " year = 2022}\n")
    content = make_site({"publications/refs.bib": bib})
    result = run_cli(*build_args(content))
    assert result.code == 0, result.err
    pages = content.parent / "site" / "publications"
    assert (pages / "con-entry" / "index.html").is_file()
    assert (pages / "gonzalez2022" / "index.html").is_file()
    assert not (pages / "con").exists()
    content = make_site({"publications/con.md": MINIMAL_PAPER,
                         "talks/aux.md": "---\ntitle: A Talk\ndate: 2024-01-01\n---\n"})
    result = run_cli(*build_args(content))
    assert_clean_failure(result)
    found = {(path.split("content/")[-1], line) for path, line, _, msg in problems(result.err)
             if "Windows keeps the name" in msg}
    assert found == {("publications/con.md", 1), ("talks/aux.md", 1)}, result.err


def test_messages_say_what_was_found(make_site):
    """A !!binary title is not 'text, found text'; year 0 exists in neither format."""
    paper = "---\ntitle: !!binary aGVsbG8=\nauthors: [Ada Example]\nvenue: V\ndate: 0000\n---\n"
    bib = "@article{k, title = {T}, author = {Ada Example}, journal = {J}, year = {0000}}\n"
    content = make_site({"publications/a-paper.md": paper, "publications/refs.bib": bib})
    result = run_cli(*build_args(content, None, "--strict"))  # the .bib's is a warning
    assert_clean_failure(result)
    found = {(path.split("content/")[-1], line): msg for path, line, _, msg in problems(result.err)}
    assert found[("publications/a-paper.md", 2)] == \
        "'title' must be text, found binary data (!!binary)"
    assert found[("publications/a-paper.md", 5)].endswith("from year 0001; found the number 0")
    assert any("'year' must be a four-digit year from 0001" in msg
               for path, line, _, msg in problems(result.err) if path.endswith("refs.bib"))


def test_link_text_must_be_text(make_site):
    """A project's links keyed by `null:` or a number were published labelled 'None'."""
    project = ("---\ntitle: A Project\nlinks:\n  null: https://example.org/a\n"
               "  2024: https://example.org/b\n  Code: https://example.org/c\n---\n")
    content = make_site({"projects/p.md": project})
    result = run_cli(*build_args(content))
    assert_clean_failure(result)
    found = [msg for path, _, _, msg in problems(result.err) if path.endswith("projects/p.md")]
    assert len(found) == 2 and all("must be text" in msg for msg in found), result.err


@pytest.mark.parametrize("orcid, expected", [
    ("0000-0002-1825-0097", "https://orcid.org/0000-0002-1825-0097"),
    ("0000-0002-1825-009x", "https://orcid.org/0000-0002-1825-009X"),
    ("0000-0002-1825-009", None), ("orcid 0000-0002-1825-0097", None)])
def test_an_orcid_is_an_id_or_an_error(make_site, orcid, expected):
    """A bare ORCID iD becomes its address; a malformed one was a relative link."""
    config = MINIMAL_CONFIG.replace("  name: Ada Example\n",
                                    f"  name: Ada Example\n  links:\n    orcid: '{orcid}'\n")
    content = make_site({"site.yaml": config})
    result = run_cli(*build_args(content))
    if expected is None:
        assert_clean_failure(result)
        assert [(line, sev) for path, line, sev, msg in problems(result.err)
                if "is not an ORCID iD" in msg] == [(6, "error")], result.err
    else:
        assert result.code == 0, result.err
        home = (content.parent / "site" / "index.html").read_text(encoding="utf-8")
        assert f'href="{expected}"' in home


def test_authors_written_as_one_line_are_read_as_a_list_with_a_warning(make_site, tmp_path):
    """`authors: Ada Lovelace, Charles Babbage` is two people, never one named with a comma;
    a line that cannot be split with confidence is refused with the list to write."""
    content = make_site({"publications/a-paper.md": "---\ntitle: T\nvenue: V\ndate: 2024\n"
                         "authors: Ada Example, Charles Babbage and Bob Builder\n---\n"})
    result = run_cli(*build_args(content))
    assert result.code == 0, result.err
    assert result.err.startswith("publications/a-paper.md:5: warning: 'authors' is one line "
                                 "of text, not a list: read as 3 authors (Ada Example; "
                                 "Charles Babbage; Bob Builder)".replace("publications",
                                                                          f"{content}/publications"))
    page = (tmp_path / "site/publications/a-paper/index.html").read_text(encoding="utf-8")
    assert re.findall(r'name="citation_author" content="([^"]*)"', page) \
        == ["Example, Ada", "Babbage, Charles", "Builder, Bob"]
    assert run_cli(*build_args(content, None, "--strict")).code == 1
    (content / "publications/a-paper.md").write_text(
        "---\ntitle: T\nvenue: V\ndate: 2024\nauthors: Example, Ada\n---\n", encoding="utf-8")
    refused = run_cli(*build_args(content))
    assert refused.code == 1 and "Traceback" not in refused.err
    assert f"{content}/publications/a-paper.md:5: error: 'authors' is one line of text, not a " \
        "list, and it is not clear where one name ends" in refused.err
    assert "as 'authors: [Ada Lovelace, Charles Babbage]'" in refused.err


@pytest.mark.parametrize("rel, text, line, says", [
    ("publications/a-paper.md", "---\ntitle: Tidal: Consistent Snapshots\nauthors: [A B]\n"
     "venue: V\ndate: 2024\n---\n", 2,
     "the value of 'title' holds ': ', which YAML reads as another key: put the value in "
     "quotes: title: \"Tidal: Consistent Snapshots\""),
    ("site.yaml", MINIMAL_CONFIG.replace("  name: Ada Example\n",
                                         "  name: Ada Example\n   position: Professor\n"), 5,
     "this line ('   position: Professor') is indented more than the line above it "
     "('  name: Ada Example')"),
    ("site.yaml", MINIMAL_CONFIG.replace("  name: Ada Example\n",
                                         "  name: Ada Example\n position: Professor\n"), 5,
     "this line (' position: Professor') is indented less than the line above it"),
    ("site.yaml", MINIMAL_CONFIG.replace("  group_by", "\tgroup_by"), 6,
     "a tab indents this line ('\\tgroup_by: year'); YAML indents with spaces only: replace "
     "the tab with spaces"),
])
def test_common_yaml_mistakes_say_what_to_do_at_the_one_right_line(make_site, rel, text, line,
                                                                   says):
    content = make_site({rel: text})
    result = run_cli(*build_args(content))
    assert result.code == 1 and "Traceback" not in result.err
    first = result.err.splitlines()[0]
    assert first.startswith(f"{content / rel}:{line}: error: YAML syntax error: {says}"), first
    assert result.err.count("YAML syntax error") == 1


def test_what_the_build_does_not_read_is_named_with_what_it_may_have_meant(make_site,
                                                                           tmp_path):
    talk = "---\ntitle: A Talk\ndate: 2024-05-01\n---\nHello.\n"
    content = make_site({"talk/a-talk.md": talk, "authors/ada.md": "Ada\n",
                         "publication/old.md": MINIMAL_PAPER, "about.md": "Hi.\n",
                         ".DS_Store": b"\0", "talks/real.md": talk})
    for command in (build_args(content), ["check", "--content", str(content),
                                          "--templates", str(copy_templates(tmp_path))]):
        result = run_cli(*command)
        assert result.code == 0, result.err
        warned = {line.split(": warning: ")[0]: line.split(": warning: ")[1]
                  for line in result.err.splitlines() if ": warning: " in line}
        assert warned == {
            f"{content}/about.md": "'about.md' is not read by the build: nothing in it is on "
            "the site; did you mean index.md (the home page), or pages/about.md?",
            f"{content}/authors": "'authors/' is not read by the build: nothing in it is on "
            "the site; did you mean 'people/'?",
            f"{content}/publication": "'publication/' is not read by the build: nothing in it "
            "is on the site; did you mean 'publications/'?",
            f"{content}/talk": "'talk/' is not read by the build: nothing in it is on the "
            "site; did you mean 'talks/'?"}, result.err
    assert run_cli(*build_args(content, None, "--strict")).code == 1


def test_an_override_filling_a_block_the_theme_lacks_is_an_error_at_its_line(make_site,
                                                                            tmp_path):
    content = make_site()
    own = tmp_path / "templates"
    write_files(own, {"home.html": '{% extends "theme/home.html" %}\n\n'
                                   '{% block content %}<p>Mine</p>{% endblock %}\n'})
    for command in ("build", "check"):
        result = run_cli(command, "--content", str(content), "--templates", str(own),
                         "--output", str(tmp_path / "site"))
        assert result.code == 1 and "Traceback" not in result.err
        assert result.err.startswith(
            f"{own}/home.html:3: error: block 'content' fills nothing: 'theme/home.html' and "
            "'base.html' have no block of that name, so it would not be shown; the blocks "
            "are "), result.err
        assert "main" in result.err.splitlines()[0]
    # The theme's block, and a block of one's own inside it, are fine.
    write_files(own, {"home.html": '{% extends "theme/home.html" %}\n{% block main %}'
                                   '{% block banner %}<p>Mine</p>{% endblock %}{{ super() }}'
                                   '{% endblock %}\n'})
    result = run_cli(*build_args(content, None, "--strict", templates=own))
    assert result.code == 0, result.err
    assert "<p>Mine</p>" in (tmp_path / "site/index.html").read_text(encoding="utf-8")


def test_a_broken_link_into_the_site_is_named_at_the_line_that_writes_it(make_site,
                                                                          tmp_path):
    bio = "Hello.\n\nMy [slides](files/slides.pdf), [CV](files/cv.pdf),\n" \
          "a [post](posts/no-such-post/) and [the papers](publications/).\n"
    abstract = "An abstract.\n\nThe [data](files/data.csv) and [the paper](publications/" \
               "a-paper/)."
    content = make_site({"index.md": bio, "files/cv.pdf": b"%PDF",
                         "publications/a-paper.md": MINIMAL_PAPER.replace("An abstract.\n",
                                                                          abstract)})
    result = run_cli(*build_args(content))
    assert result.code == 0, result.err
    assert sorted(result.err.splitlines()) == [
        f"{content}/index.md:3: warning: link to 'files/slides.pdf', which is no page or file "
        "of this site (it should be a file in content/files/): the link would be broken",
        f"{content}/index.md:4: warning: link to 'posts/no-such-post/', which is no page or "
        "file of this site (it should be a page of the site): the link would be broken",
        f"{content}/publications/a-paper.md:10: warning: link to 'files/data.csv', which is no "
        "page or file of this site (it should be a file in content/files/): the link would be "
        "broken"]
    assert run_cli(*build_args(content, None, "--strict")).code == 1
