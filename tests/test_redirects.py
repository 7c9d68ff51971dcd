"""site.yaml's `redirects`: old addresses that send visitors on, through the command line
(and `check`, which follows every link): the page each becomes, what is refused at its
line, and that they stay out of the sitemaps and the search index."""

from __future__ import annotations

import re

from conftest import MINIMAL_CONFIG, build_args, run_cli, soup, write_files

REDIRECTS = """\
redirects:
  publication/2020-a-paper: publications/a-paper/
  /pubs/old.html: publications/a-paper/#abstract
  talks/keynote/: https://slides.example.net/keynote
"""


def make(tmp_path, redirects: str = REDIRECTS):
    from conftest import MINIMAL_PAPER
    return write_files(tmp_path / "content", {"site.yaml": MINIMAL_CONFIG + redirects,
                                              "publications/a-paper.md": MINIMAL_PAPER})


def test_each_old_address_sends_visitors_on(tmp_path):
    content = make(tmp_path)
    out = tmp_path / "site"
    result = run_cli(*build_args(content, out, "--strict"))
    assert result.code == 0, result.err
    page = soup(out / "publication" / "2020-a-paper" / "index.html")
    refresh = page.select_one('meta[http-equiv="refresh"]')["content"]
    assert refresh == "0; url=../../publications/a-paper/"
    canonical = page.select_one('link[rel="canonical"]')["href"]
    assert re.fullmatch(r"https?://[^ ]+/publications/a-paper/", canonical)
    assert page.select_one("a")["href"] == "../../publications/a-paper/"
    assert page.select_one('meta[name="robots"]')["content"] == "noindex"
    old = soup(out / "pubs" / "old.html")
    assert old.select_one("a")["href"] == "../publications/a-paper/#abstract"
    away = soup(out / "talks" / "keynote" / "index.html")
    assert away.select_one("a")["href"] == "https://slides.example.net/keynote"
    for listing in ("sitemap.xml", "sitemap/index.html", "search/index.html"):
        text = (out / listing).read_text(encoding="utf-8")
        assert "2020-a-paper" not in text and "pubs/old" not in text, listing
    checked = run_cli("check", "--content", str(content), "--templates",
                      str(build_args(content)[-1]))
    assert checked.code == 0, checked.out + checked.err


def build_errors(tmp_path, redirects: str) -> tuple[str, str]:
    content = make(tmp_path, redirects)
    result = run_cli(*build_args(content, tmp_path / "site"))
    assert result.code == 1 and not (tmp_path / "site").exists()
    return (content / "site.yaml").as_posix(), result.err


START = MINIMAL_CONFIG.count("\n") + 1  # the line of `redirects:`


def test_a_redirect_that_is_no_path_or_no_safe_link_is_an_error_at_its_line(tmp_path):
    path, err = build_errors(tmp_path, "redirects:\n  ../outside: publications/a-paper/\n"
                                       "  other/page: javascript:alert(1)\n")
    assert f"{path}:{START + 1}: error: redirect '../outside': the old address must be a " \
        "plain path" in err
    assert f"{path}:{START + 2}: error: redirect 'other/page' " in err
    assert "unknown setting" not in err


def test_a_redirect_from_a_page_or_to_nowhere_is_an_error_at_its_line(tmp_path):
    path, err = build_errors(tmp_path, "redirects:\n  publications/a-paper/: publications/\n"
                                       "  old/page: publications/a-paper\n")
    assert f"{path}:{START + 1}: error: redirect 'publications/a-paper/': the site has a " \
        "page at that address" in err
    assert f"{path}:{START + 2}: error: redirect 'old/page/' sends visitors to " \
        "'publications/a-paper', which is no page or file of this site; did you mean " \
        "'publications/a-paper/'?" in err
