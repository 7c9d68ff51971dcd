"""A site's .bib files are read leniently, through the real command line: one bad entry never
costs the site (it is left out with a warning at its line, and counted; --strict makes it an
error), repeats are kept once or at distinct addresses, and no link field ever becomes a
broken link (each is made right or left out, with a warning at its line). Markdown papers
stay strict. Real users' files (../shared/corpus/bib) all build, with no broken link."""

from __future__ import annotations

import posixpath
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit
from xml.etree import ElementTree

import pytest
from bs4 import BeautifulSoup
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import (FULL_TESTS, examples, MINIMAL_CONFIG, SHARED, assert_same_as_cold_build, build_args, edit,
                      paper, run_cli, start_live_site, tree_bytes, write_files)
from scholarsite.models import LINK_KINDS
from scholarsite.reading.bib.biblinks import resolve_link

CORPUS = SHARED / "corpus" / "bib"
CORPUS_FILES = sorted(CORPUS.glob("*.bib")) if CORPUS.is_dir() else []
needs_corpus = pytest.mark.skipif(not CORPUS_FILES, reason="../shared/corpus/bib is not present")
BASE_URL = "https://example.org/"  # MINIMAL_CONFIG's
PROBLEM = re.compile(r"^(?P<file>.+?):(?P<line>\d+): (?P<severity>error|warning): (?P<text>.+)$")


def entry(key: str, *fields: str, kind: str = "article", title: str = "") -> str:
    """A complete entry by Ada Example (the site's owner), with more `fields` lines."""
    lines = [f"  title = {{{title or 'Paper ' + key}}}", "  author = {Ada Example}",
             "  journal = {Journal of Tests}", "  year = 2021", *fields]
    return f"@{kind}{{{key},\n" + ",\n".join(lines) + "\n}\n\n"


def make_content(tmp_path: Path, files: dict[str, str | bytes]) -> Path:
    return write_files(tmp_path / "content", {"site.yaml": MINIMAL_CONFIG, **files})


def build(content: Path, *extra: str):
    return run_cli(*build_args(content, None, "--no-cache", *extra))


def problems(result, severity: str = "warning") -> list[tuple[str, int, str]]:
    """(file name, line, message) of each problem of that severity the command printed."""
    found = []
    for line in result.err.splitlines():
        match = PROBLEM.match(line)
        if match and match["severity"] == severity:
            found.append((Path(match["file"]).name, int(match["line"]), match["text"]))
    return found


def line_of(text: str, needle: str) -> int:
    """The 1-based line where `needle` first is in `text`."""
    assert needle in text, needle
    return text[:text.index(needle)].count("\n") + 1


def built_slugs(site: Path) -> set[str]:
    return {p.parent.name for p in (site / "publications").glob("*/index.html")}


def paper_links(site: Path, slug: str) -> list[str]:
    """The addresses a paper's page links its paper to: a file of the site by its path
    from the site's root, an outside address as it is."""
    page = BeautifulSoup((site / "publications" / slug / "index.html").read_text("utf-8"),
                         "html.parser")
    hrefs = [a["href"] for a in page.select(".paper-links a")]
    return [h if urlsplit(h).scheme else posixpath.normpath(f"publications/{slug}/{h}")
            for h in hrefs]


# --- 1. One bad entry never costs the site ------------------------------------------------


BAD_FILE = (entry("good1")
            + "@article{noauthor,\n  title = {No Author},\n  journal = {J},\n  year = 2020\n}\n\n"
            + "@article{unclosed,\n  title = {Unclosed,\n  year = 2020,\n}\n\n"
            + entry("usesmacro", "  publisher = undefinedmacro")
            + entry("good2"))


def test_a_bad_entry_is_left_out_with_a_warning_at_its_line(tmp_path):
    content = make_content(tmp_path, {"publications/papers.bib": BAD_FILE})
    result = build(content)
    assert result.code == 0, result.err
    assert "Traceback" not in result.err and problems(result, "error") == []
    warnings = problems(result)
    lines = {line for _, line, _ in warnings}
    assert line_of(BAD_FILE, "@article{noauthor") in lines
    assert line_of(BAD_FILE, "@article{unclosed") in lines
    assert line_of(BAD_FILE, "undefinedmacro") in lines
    # an undefined macro is said and kept (its name the value): the entry is the owner's
    assert built_slugs(tmp_path / "site") == {"good1", "good2", "usesmacro"}
    assert "(3 papers)" in result.out
    [summary] = [text for _, _, text in warnings if "left out of the site" in text]
    assert summary.startswith("2 of 5 entries are left out of the site")
    for key in ("noauthor", "unclosed"):
        assert f"'{key}'" in summary
    assert "'usesmacro'" not in summary


def test_strict_makes_a_left_out_entry_an_error(tmp_path):
    content = make_content(tmp_path, {"publications/papers.bib": BAD_FILE})
    result = build(content, "--strict")
    assert result.code == 1
    assert "Traceback" not in result.err
    failing = problems(result)  # what fails the build is printed as it was found
    assert line_of(BAD_FILE, "@article{noauthor") in {line for _, line, _ in failing}
    assert any("left out of the site" in text for _, _, text in failing)
    assert f"Build failed: {len(failing)} problems" in result.err
    assert not (tmp_path / "site").exists()


def test_markdown_papers_stay_strict(tmp_path):
    broken = "---\ntitle: No Authors\nvenue: V\ndate: 2020\n---\n"
    content = make_content(tmp_path, {"publications/papers.bib": entry("good1"),
                                      "publications/no-authors.md": broken})
    result = build(content)
    assert result.code == 1
    [(name, _, message)] = problems(result, "error")
    assert name == "no-authors.md" and "authors" in message
    assert not (tmp_path / "site").exists()


def test_a_file_that_cannot_be_read_at_all_is_an_error(tmp_path):
    """No content file falls out of a published site with a warning (it did, exit 0): a
    .bib that is no text in any encoding fails the build and check, at the file."""
    content = make_content(tmp_path, {
        "publications/binary.bib": entry("zhang").encode() + bytes(range(0x80, 0x100)) * 2,
        "publications/papers.bib": entry("good1")})
    for result in (build(content), run_cli("check", "--content", str(content))):
        assert result.code == 1, result.err
        assert "Traceback" not in result.err
        texts = [text for name, _, text in problems(result, "error") if name == "binary.bib"]
        assert any("whole file is left out" in text for text in texts), result.err
        assert any("not UTF-8" in text for text in texts), result.err
    assert not (tmp_path / "site").exists()


def test_a_chinese_export_in_gbk_keeps_its_papers(tmp_path):
    """A .bib saved in GBK (as CNKI's exports and Windows in China save it) is read as
    GB18030, with a warning that shows what was read (it was left out whole)."""
    content = make_content(tmp_path, {
        "publications/gbk.bib": entry("zhang", title="张三的论文").encode("gbk"),
        "publications/papers.bib": entry("good1")})
    result = build(content)
    assert result.code == 0, result.err
    [text] = [text for name, _, text in problems(result) if name == "gbk.bib"]
    assert "GB18030" in text and "张三的论文" in text
    assert built_slugs(tmp_path / "site") == {"good1", "zhang"}
    assert "张三的论文" in (tmp_path / "site/publications/zhang/index.html").read_text("utf-8")


def test_a_scholar_export_saved_as_latin1_keeps_every_paper(tmp_path):
    """Google Scholar's export saved by a Windows program as Windows-1252: every paper is
    on the site, its accents right, with a warning at the first accent saying how to save
    the file as UTF-8 (it lost 14 of 20 papers, exit 0, as a warning)."""
    entries = "".join(entry(f"m{i}", "  note = {Stra\u00dfe}", title=f"M\u00fcller \u2013 Paper {i}")
                      for i in range(20))
    content = make_content(tmp_path, {"publications/scholar.bib": entries.encode("cp1252")})
    for result in (build(content), run_cli("check", "--content", str(content))):
        assert result.code == 0, result.err
        [warning] = [(line, text) for name, line, text in problems(result)
                     if name == "scholar.bib"]
        assert warning[0] == line_of(entries, "M\u00fcller")
        assert "Windows-1252" in warning[1] and "M\u00fcller" in warning[1]
        assert "save the file as UTF-8" in warning[1]
    assert "(20 papers)" in build(content).out
    page = (tmp_path / "site" / "publications" / "m7" / "index.html").read_text(encoding="utf-8")
    assert "M\u00fcller \u2013 Paper 7" in page


def test_an_exact_duplicate_is_kept_once(tmp_path):
    text = entry("twice") + entry("other") + entry("twice")
    content = make_content(tmp_path, {"publications/papers.bib": text})
    result = build(content)
    assert result.code == 0, result.err
    assert built_slugs(tmp_path / "site") == {"twice", "other"}
    second = text.rindex("@article{twice")
    [(_, line, message)] = [w for w in problems(result) if "repeats" in w[2]]
    assert line == text[:second].count("\n") + 1
    assert f"line {line_of(text, '@article{twice')}" in message


def test_two_entries_under_one_key_are_both_kept_at_stable_addresses(tmp_path):
    text = (entry("Same", title="The First") + entry("same-2", title="Taken Already")
            + entry("Same", title="The Second") + entry("a:b") + entry("A_B"))
    content = make_content(tmp_path, {"publications/papers.bib": text})
    result = build(content)
    assert result.code == 0, result.err
    site = tmp_path / "site"
    assert built_slugs(site) == {"same", "same-2", "same-3", "a-b", "a-b-2"}
    title = BeautifulSoup((site / "publications/same-3/index.html").read_text("utf-8"),
                          "html.parser").find("h1").get_text()
    assert "The Second" in title
    moved = {line: message for _, line, message in problems(result) if "both are kept" in message}
    first, second = line_of(text, "@article{Same"), line_of(text, "title = {The Second}") - 1
    assert f"line {first}" in moved[second] and "'same-3'" in moved[second]
    assert line_of(text, "@article{A_B") in moved
    before = tree_bytes(site)
    assert build(content).code == 0
    assert tree_bytes(site) == before  # the same addresses every build


def test_one_key_in_two_bib_files(tmp_path):
    papers = entry("bach2026", "  doi = {10.1/published}", title="Published Version")
    preprints = entry("bach2026", "  eprint = {2601.00001}", "  archiveprefix = {arXiv}",
                      kind="misc", title="A Different Preprint")
    content = make_content(tmp_path, {"publications/papers.bib": papers,
                                      "publications/preprints.bib": preprints})
    result = build(content)
    assert result.code == 0, result.err
    assert built_slugs(tmp_path / "site") == {"bach2026", "bach2026-2"}
    [(name, _, message)] = [w for w in problems(result) if "both are kept" in w[2]]
    assert name == "preprints.bib" and "papers.bib:1" in message


def test_a_markdown_paper_keeps_its_address_and_the_entry_moves(tmp_path):
    content = make_content(tmp_path, {
        "publications/papers.bib": entry("chen2021", title="From BibTeX"),
        "publications/chen2021.md": paper("From Markdown", date="2020")})
    result = build(content)
    assert result.code == 0, result.err
    site = tmp_path / "site"
    assert built_slugs(site) == {"chen2021", "chen2021-2"}
    page = (site / "publications/chen2021/index.html").read_text("utf-8")
    assert "From Markdown" in page and "From BibTeX" not in page
    [(name, _, message)] = [w for w in problems(result) if "both are kept" in w[2]]
    assert name == "papers.bib" and "chen2021.md:1" in message


def test_the_same_paper_in_two_sources_is_named_and_the_markdown_one_listed_once(tmp_path):
    md = paper("Fast Things", date="2021", extra="links:\n  doi: 10.1000/fast\n")
    bib = (entry("fast21", "  doi = {https://doi.org/10.1000/FAST}", title="Fast things!")
           + entry("slow21", title="Slow {T}hings: a Study"))
    other = entry("slowcopy", title="Slow things -- A study")
    content = make_content(tmp_path, {"publications/fast-things.md": md,
                                      "publications/papers.bib": bib,
                                      "publications/more.bib": other})
    result = build(content)
    assert result.code == 0, result.err
    same = {line: message for name, line, message in problems(result)
            if "the same paper" in message and name == "papers.bib"}
    assert len(same) == 2 and len(problems(result)) == 2
    doi = same[line_of(bib, "@article{fast21")]
    assert "DOI 10.1000/FAST" in doi and "fast-things.md:1" in doi
    assert "listed once, as the Markdown file gives it" in doi
    title = same[line_of(bib, "@article{slow21")]
    assert "title and year" in title and "more.bib:1" in title and "listed twice" in title
    site = tmp_path / "site"
    assert built_slugs(site) == {"fast-things", "slow21", "slowcopy"}
    listing = (site / "publications/index.html").read_text("utf-8")
    assert "Fast Things" in listing and "Fast things!" not in listing
    assert build(content, "--strict").code == 1


# --- 2. No broken link is ever written ----------------------------------------------------


LINK_CASES = [
    # (field line, what the paper links to; None: left out), warned?
    ("url = {www.springer.com/series/11237}", "https://www.springer.com/series/11237", True),
    ("html = {osf.io/preprints/psyarxiv/abc12}", "https://osf.io/preprints/psyarxiv/abc12",
     True),
    ("url = {DOI 10.1109/WAINA.2013.149}", "https://doi.org/10.1109/WAINA.2013.149", True),
    ("url = {doi:10.1000/r1}", "https://doi.org/10.1000/r1", True),
    ("url = {arXiv:2401.00001}", "https://arxiv.org/abs/2401.00001", True),
    ("doi = {https://doi.org/10.1000/abc}", "https://doi.org/10.1000/abc", False),
    ("doi = {http://dx.doi.org/10.1000/abd}", "https://doi.org/10.1000/abd", False),
    ("doi = {DOI: 10.1000/abe}", "https://doi.org/10.1000/abe", False),
    ("doi = {DOI 10.1000/abf}", "https://doi.org/10.1000/abf", True),
    ("doi = {10.1002/(SICI)1096-987X(199803)19:4<377::AID-JCC1>3.0.CO;2-B}",  # not HTML
     "https://doi.org/10.1002/(SICI)1096-987X(199803)19:4<377::AID-JCC1>3.0.CO;2-B", False),
    ('url = {doi:<a href="https://doi.org/10.1000/xyz">10.1000/xyz</a>}',
     "https://doi.org/10.1000/xyz", True),
    ('code = {<a href="https://github.com/ada/tool">code</a>}', "https://github.com/ada/tool",
     True),
    ("pdf = {COLM 2025}", None, True),
    ("pdf = {paper.pdf}", "files/paper.pdf", False),
    ("pdf = {my paper.pdf}", "files/my%20paper.pdf", False),
    ("slides = {talks/slides.pdf}", "files/talks/slides.pdf", False),
    ("pdf = {files/paper.pdf}", "files/paper.pdf", False),
    ("pdf = {missing.pdf}", None, True),
    ("pdf = {files/missing.pdf}", None, True),
    ("code = {javascript:alert(1)}", None, True),
    ("video = {https://example.com/talk}", "https://example.com/talk", False),
]


@pytest.fixture(scope="module")
def link_cases(tmp_path_factory):
    """(the .bib text, the build's result, the site): one site with an entry for each of
    LINK_CASES, keyed k00, k01, ... (no key the start of another), built once."""
    tmp = tmp_path_factory.mktemp("links")
    text = entry("first") + "".join(entry(f"k{i:02}", "  " + case[0])
                                    for i, case in enumerate(LINK_CASES))
    content = make_content(tmp, {"publications/papers.bib": text,
                                 "files/paper.pdf": b"%PDF-1.4\n",
                                 "files/my paper.pdf": b"%PDF-1.4\n",
                                 "files/talks/slides.pdf": b"%PDF-1.4\n"})
    result = build(content)
    assert result.code == 0, result.err
    return text, result, tmp / "site"


@pytest.mark.parametrize("index,field,target,warned",
                         [(i, *case) for i, case in enumerate(LINK_CASES)],
                         ids=[c[0] for c in LINK_CASES])
def test_every_link_field_is_made_right_or_left_out(link_cases, index, field, target, warned):
    text, result, site = link_cases
    key = f"k{index:02}"
    head = line_of(text, f"@article{{{key},")  # the entry's first line
    assert key in built_slugs(site)  # a bad link never costs its paper
    links = paper_links(site, key)
    assert links == ([target] if target else [])
    for link in links:
        if not urlsplit(link).scheme:
            assert (site / unquote(link)).is_file()
    warnings = [(line, message) for _, line, message in problems(result)
                if f"entry '{key}'" in message]
    if warned:  # at the field's line, or, for a file that is not there, the entry's
        own = text[text.index(f"@article{{{key},"):]
        assert [line for line, _ in warnings] in ([head - 1 + line_of(own, field)], [head])
        assert ("left out" in warnings[0][1]) == (target is None)
    else:
        assert warnings == []
    page = BeautifulSoup((site / f"publications/{key}/index.html").read_text("utf-8"),
                         "html.parser")
    assert not [a for a in page.find_all(href=True) if re.search(r"</?[a-z]", a["href"])]


# Prefixes a browser strips or ignores, before schemes it would run (as test_safety.py).
PREFIXES = st.text(alphabet=[chr(c) for c in range(0x21)] + ["\x7f", "\x85", "\xa0"],
                   max_size=3)
SCHEMES = st.sampled_from(["javascript:", "JavaScript:", "java\tscript:", "vbscript:",
                           "data:", "doi:", "arXiv:", "https:", "www.", "evil.example/",
                           "/\\evil.example/", "//evil.example/", "../", ""])
WRAPPERS = st.sampled_from(["{}", '<a href="{}">x</a>', "doi:<a href='{}'>10.1/x</a>",
                            "<b>{}</b>", "{}<script>"])


@settings(max_examples=examples(300), deadline=None)
@given(PREFIXES, SCHEMES, st.text(max_size=12), WRAPPERS, st.sampled_from(LINK_KINDS))
def test_no_value_becomes_a_link_a_browser_would_run(prefix, scheme, rest, wrapper, kind):
    """Whatever a link field holds, the address made of it is http(s), mailto, or a file
    of files/, as a browser's URL parser reads it (controls and spaces around dropped,
    tabs and newlines removed, a backslash a slash)."""
    url, note = resolve_link(kind, wrapper.format(prefix + scheme + rest))
    if not url:
        assert "left out" in note
        return
    read = re.sub(r"[\t\n\r]", "", url.strip("".join(map(chr, range(0x21))))).replace("\\", "/")
    assert read == url
    scheme_read = re.match(r"^([a-zA-Z][a-zA-Z0-9+.\-]*):", read)
    if scheme_read:
        assert scheme_read.group(1).lower() in ("http", "https", "mailto"), url
    else:
        assert read.startswith("files/") and "<" not in read, url
        assert not posixpath.normpath(read).startswith(".."), url


def test_a_file_added_later_is_linked_without_reading_the_bib_again(tmp_path):
    """Which files exist is checked when the site is assembled, not kept with the paper
    file's reading (the build's cache keeps that)."""
    content = make_content(tmp_path, {"publications/papers.bib": entry("k", "  pdf = {a.pdf}")})
    assert build(content).code == 0
    assert paper_links(tmp_path / "site", "k") == []
    write_files(content, {"files/a.pdf": b"%PDF-1.4\n"})
    result = run_cli(*build_args(content))  # with the cache of parsed paper files
    assert result.code == 0, result.err
    assert paper_links(tmp_path / "site", "k") == ["files/a.pdf"]


def test_a_markdown_paper_linking_a_missing_file_is_an_error(tmp_path):
    md = paper("Mine", extra="links:\n  pdf: files/mine.pdf\n")
    content = make_content(tmp_path, {"publications/mine.md": md})
    result = build(content)
    assert result.code == 1
    [(name, line, message)] = problems(result, "error")
    assert (name, line) == ("mine.md", 1) and "files/mine.pdf" in message
    write_files(content, {"files/mine.pdf": b"%PDF-1.4\n"})
    assert build(content).code == 0
    assert paper_links(tmp_path / "site", "mine") == ["files/mine.pdf"]


def test_a_markdown_address_without_scheme_is_an_error(tmp_path):
    md = paper("Mine", extra="links:\n  code: github.com/ada/tool\n")
    result = build(make_content(tmp_path, {"publications/mine.md": md}))
    assert result.code == 1
    [(_, _, message)] = problems(result, "error")
    assert "https://github.com/ada/tool" in message


def test_the_live_preview_applies_the_same_rules(tmp_path):
    bib = (entry("k", "  pdf = {a.pdf}", "  url = {www.example.com/k}") + entry("k", title="Two")
           + "@article{bad, title = {T}}\n")
    live = start_live_site(tmp_path, {"site.yaml": MINIMAL_CONFIG, "publications/papers.bib": bib,
                                      "files/a.pdf": b"%PDF-1.4\n"})
    assert_same_as_cold_build(live)
    path = live.options.content_dir / "publications" / "papers.bib"
    edit(path, "{a.pdf}", "{gone.pdf}")
    assert live.build([path]).ok
    assert_same_as_cold_build(live)
    edit(path, "{Two}", "{Two, again}")
    assert live.build([path]).ok
    assert_same_as_cold_build(live)


def test_the_live_preview_keeps_one_key_of_two_files_apart(tmp_path):
    files = {"site.yaml": MINIMAL_CONFIG,
             "publications/papers.bib": entry("k", title="Published"),
             "publications/preprints.bib": entry("k", title="Preprint")}
    live = start_live_site(tmp_path, files)
    assert_same_as_cold_build(live)
    content = live.options.content_dir / "publications"
    for path, old, new in [(content / "preprints.bib", "Preprint", "Preprint v2"),
                           (content / "papers.bib", "Published", "Published v2"),
                           (content / "preprints.bib", "Preprint v2", "Preprint v3")]:
        edit(path, old, new)
        assert live.build([path]).ok
        assert_same_as_cold_build(live)


# --- Real users' files --------------------------------------------------------------------


def find_broken_links(site: Path) -> list[str]:
    """Every link of the built site that leads nowhere: a relative one to no file of the
    site, an absolute one under the site's address to no file either, or one with
    another scheme than http, https or mailto (data: only for a download)."""
    broken = []
    for page in sorted(site.rglob("*.html")):
        rel = page.relative_to(site).as_posix()
        soup = BeautifulSoup(page.read_text("utf-8"), "html.parser")
        for tag in soup.find_all(True):
            for attr in ("href", "src"):
                url = tag.get(attr)
                download = tag.has_attr("download")
                if url is not None and not leads_somewhere(site, rel, url, download):
                    broken.append(f"{rel}: {url}")
    for page in sorted(site.glob("*.xml")):  # the feed's links, the sitemap's addresses
        for element in ElementTree.parse(page).getroot().iter():
            url = element.get("href") or (element.text or "").strip() \
                if element.tag.rpartition("}")[2] in ("link", "loc") else None
            if url is not None and not leads_somewhere(site, page.name, url, False):
                broken.append(f"{page.name}: {url}")
    return broken


def leads_somewhere(site: Path, page: str, url: str, download: bool) -> bool:
    parts = urlsplit(url)
    if parts.scheme == "data":
        return download
    if parts.scheme in ("http", "https") and url.startswith(BASE_URL):
        path = url[len(BASE_URL):]
    elif parts.scheme:
        return parts.scheme == "mailto" or (parts.scheme in ("http", "https")
                                            and bool(parts.hostname))
    elif url.startswith("#") or not url:
        return True
    elif url.startswith("/"):  # 404.html's, for a page served at any depth
        path = parts.path.lstrip("/")
    else:
        path = posixpath.normpath(posixpath.join(posixpath.dirname(page), parts.path))
    target = site / unquote(urlsplit(path).path)
    return target.is_file() or (target / "index.html").is_file()


def count_left_out(result) -> int:
    """Entries the build says it left out, from each file's summary."""
    total = 0
    for _, _, message in problems(result):
        match = re.match(r"(\d+) of \d+ entries (?:is|are) left out", message)
        total += int(match.group(1)) if match else "whole file is left out" in message
    return total


@needs_corpus
@pytest.mark.full  # every third file in the README's command, all of them in CI's first step
@pytest.mark.parametrize("path", CORPUS_FILES if FULL_TESTS else CORPUS_FILES[::3],
                         ids=lambda p: p.name)
def test_every_corpus_file_builds_with_no_broken_link(tmp_path, path):
    content = make_content(tmp_path, {"publications/papers.bib": path.read_bytes()})
    result = build(content)
    assert result.code == 0, result.err[-3000:]
    assert "Traceback" not in result.err and problems(result, "error") == []
    assert all(PROBLEM.match(line) for line in result.err.splitlines()), result.err[-3000:]
    assert find_broken_links(tmp_path / "site") == []


def owners() -> dict[str, list[Path]]:
    found: dict[str, list[Path]] = {}
    for path in CORPUS_FILES:
        if not path.name.startswith(("iridia-ulb", "sciunto-org")):
            found.setdefault(path.name.split("__")[0], []).append(path)
    return {owner: files for owner, files in found.items() if len(files) > 1}


@needs_corpus
@pytest.mark.parametrize("owner", sorted(owners()))
def test_each_owners_files_build_together(tmp_path, owner):
    """An al-folio site's .bib files as one site: papers.bib and preprints.bib share keys."""
    files = {f"publications/{p.name.rsplit('_', 1)[-1]}": p.read_bytes()
             for p in owners()[owner]}
    result = build(make_content(tmp_path, files))
    assert result.code == 0, result.err[-3000:]
    assert find_broken_links(tmp_path / "site") == []


def test_a_command_of_the_owners_own_is_said_and_its_text_kept(tmp_path):
    """`\\proglang{R}` (a command from the owner's preamble) and `\\texttt{mice}` keep their
    text; only the one no LaTeX defines is named, at its field; Better BibTeX's `\\^{}` is
    a caret (issue 33, class 15)."""
    bib = entry("own", title=r"The \proglang{R} package \texttt{mice}: 10\^{}3 imputations")
    content = make_content(tmp_path, {"publications/papers.bib": bib})
    result = run_cli(*build_args(content, tmp_path / "site"))
    assert result.code == 0, result.err
    assert "papers.bib:2: warning: entry 'own': \\proglang: no LaTeX command known here " \
        "(one of your own?); its text is kept and the command left out" in result.err
    assert "texttt" not in result.err
    page = BeautifulSoup((tmp_path / "site" / "publications" / "own" / "index.html")
                         .read_text(encoding="utf-8"), "html.parser")
    assert page.h1.get_text() == "The R package mice: 10^3 imputations"
