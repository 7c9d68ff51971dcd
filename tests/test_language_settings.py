"""site.yaml's language settings that could break a page or the build, refused at their
line: a tag that is no BCP 47 tag (it becomes a `lang` attribute and a folder), a
language whose folder is a page of the site, and a `strings` wording whose `%` the
templates cannot format. Each class's hostile cases share one site and one CLI run."""

from __future__ import annotations

from conftest import MINIMAL_CONFIG, build_args, paper, run_cli, write_files
from test_build_errors import assert_clean_failure, problems

START = len(MINIMAL_CONFIG.splitlines())  # the line before the settings each test adds


def errors_by_line(result) -> dict[int, str]:
    assert_clean_failure(result)
    found = problems(result.err)
    assert all(path.endswith("site.yaml") and severity == "error"
               for path, _, severity, _ in found), result.err
    return {line - START: message for _, line, _, message in found}


def test_tags_that_are_no_bcp47_tag_and_bad_percents_in_strings_are_errors(tmp_path):
    """Babel alone reads 'en@...' as English (it keeps a POSIX '@modifier' and drops a
    '.encoding'): the tag went raw into `<div lang="...">` and became a folder. A `%` the
    templates cannot format failed the build at a template's line."""
    settings = """\
languages:
  - en
  - 'en@"><img src=x onerror=alert(1)>'
  - zh.UTF-8
  - pt_BR
  - zh-Hant
description: {en: A scholar, "de@x": Eine Forscherin}
strings:
  "%(shown)s of %(total)s publications": 100% of %(total)s
  "Download %(file)s": {en: Get %(fil)s, zh-Hant: 下載 %(file)s}
  "Copy %(what)s": Copy all (%%) of %(what)s
"""
    content = write_files(tmp_path / "content", {"site.yaml": MINIMAL_CONFIG + settings,
                                                 "publications/a.md": paper()})
    found = errors_by_line(run_cli(*build_args(content, tmp_path / "site")))
    assert not (tmp_path / "site").exists()
    assert found.keys() == {3, 4, 5, 7, 9, 10}, found
    assert "'en@\"><img src=x onerror=alert(1)>' is not a well-formed language tag" in found[3]
    assert "'zh.UTF-8' is not a well-formed language tag" in found[4]
    assert found[5].endswith("write 'pt-BR'")
    assert "'de@x', which is not a language" in found[7]
    assert "has '% ', which is not a value the theme fills in" in found[9]
    assert "%(shown)s, %(total)s; write a percent sign as %%" in found[9]
    assert "has '%(fil)s', which this string has no value for" in found[10]


def test_a_language_whose_folder_is_a_page_of_the_site_is_an_error(tmp_path):
    """`cv` (Chuvash) would put its home at /cv/ over the CV, `zh` over the free page
    pages/zh.md; `de` takes no page's place."""
    content = write_files(tmp_path / "content", {
        "site.yaml": MINIMAL_CONFIG + "languages:\n  - en\n  - cv\n  - zh\n  - de\n",
        "publications/a.md": paper(), "cv.yaml": "awards:\n  - Best Example Award, 2023\n",
        "pages/zh.md": "---\ntitle: Zhōngwén\n---\nA page about Chinese.\n"})
    found = errors_by_line(run_cli(*build_args(content, tmp_path / "site")))
    assert found.keys() == {3, 4}, found
    assert "'cv' (Chuvash), whose pages would be at /cv/, over this site's CV at /cv/" \
        in found[3]
    assert "'zh' (Chinese), whose pages would be at /zh/, over this site's free page at " \
        "/zh/: leave 'zh' out, or rename the page" in found[4]
    assert not (tmp_path / "site").exists()
