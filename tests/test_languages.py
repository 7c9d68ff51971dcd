"""Sites in the owner's languages: the interface from the catalogs (scholarsite/locale/),
dates by CLDR, `strings` in site.yaml, and the bilingual example (examples/bilingual):
every page in both languages, with the right `lang`, a language switcher whose links
resolve, hreflang pairs that name each other, sitemap alternates valid against the
sitemaps schema, and no English interface string left on a Chinese page."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from bs4 import BeautifulSoup

from conftest import (MINIMAL_CONFIG, ROOT, SHARED, TEMPLATES, assert_same_as_cold_build,
                      build_args, copy_templates, edit, paper, read_front_matter, run_cli,
                      stamps, tree_bytes, write_files)

BILINGUAL = ROOT / "examples" / "bilingual"
LOCALE = ROOT / "scholarsite" / "locale"
CATALOGS = ("en", "zh_Hans", "zh_Hant", "ja", "ko", "de", "fr", "es", "pt")
SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
XHTML = "{http://www.w3.org/1999/xhtml}"
BASE = "https://example.org/bilingual/"
# What the pages show of their content (texts, titles, names, citations): not interface.
CONTENT = (".bio, .abstract, .item-body, .news-text, pre, .citation, .paper-venue, "
           ".paper-authors, .cv-what, .legend, .paper-title, .paper-page h1, .position, "
           ".contact, .language-switch, .paper-facts dd, .cv-papers, script, style, "
           "[lang]:not([lang=zh])")


def read_catalog(name: str):
    with open(LOCALE / f"{name}.po", "rb") as po:
        return read_po(po)


def message_id(message) -> str:
    return message.id if isinstance(message.id, str) else message.id[0]


def template_strings() -> set[str]:
    """Every string the templates mark for translation, as Babel's Jinja extractor finds it."""
    options = {"extensions": "scholarsite.render.render.FragmentCache"}
    found = extract_from_dir(str(TEMPLATES), method_map=[("**.html", "jinja2"), ("**.xml", "jinja2")],
                             options_map={"**.html": options, "**.xml": options})
    return {msg if isinstance(msg, str) else msg[0] for _, _, msg, _, _ in found}


def test_every_template_string_is_in_the_english_catalog():
    known = {message_id(m) for m in read_catalog("en") if m.id}
    missing = sorted(template_strings() - known)
    assert not missing, f"add these to scholarsite/locale/*.po: {missing}"
    assert len(known) > 100


# How the package's Python names what it translates: `N_` marks a table's string that is
# translated where shown (models/wording.py); the views call `t` (their gettext, bound),
# `gettext`, `pgettext` and `ngettext` on literal strings.
PYTHON_KEYWORDS = {"N_": None, "t": None, "gettext": None, "ngettext": (1, 2),
                   "pgettext": ((1, "c"), 2)}


def python_strings() -> list[tuple[str, str]]:
    """Every string the package's Python marks or translates, with where, as Babel's
    Python extractor finds it."""
    found = extract_from_dir(str(ROOT / "scholarsite"), method_map=[("**.py", "python")],
                             keywords=PYTHON_KEYWORDS, comment_tags=())
    return [(msg if isinstance(msg, str) else msg[0], f"scholarsite/{path}:{line}")
            for path, line, msg, _, _ in found]


def test_every_python_string_is_in_the_english_catalog():
    """A kind's title, a type's heading, a label: what the views translate is in the
    catalogs (the test below then asks each catalog for its wording), or it would be
    shown in English on every other language's pages."""
    known = {message_id(m) for m in read_catalog("en") if m.id}
    found = python_strings()
    missing = sorted(f"{where}: {message!r}" for message, where in found if message not in known)
    assert not missing, f"add these to scholarsite/locale/*.po: {missing}"
    assert len({message for message, _ in found}) > 80


@pytest.mark.parametrize("name", CATALOGS[1:])
def test_each_catalog_translates_every_string(name):
    """A string a catalog lacks is shown in English: listed here, once, not at build time."""
    source = {(message_id(m), m.context) for m in read_catalog("en") if m.id}
    catalog = read_catalog(name)
    done = {(message_id(m), m.context) for m in catalog if m.id and m.string
            and all(m.string if isinstance(m.string, tuple) else (m.string,))
            and not m.fuzzy}
    missing = sorted(str(s) for s in source - done)
    assert not missing, f"{name}.po has no wording for {len(missing)}: {missing}"
    assert catalog.plural_forms


@pytest.fixture(scope="module")
def bilingual(shipped) -> Path:
    return shipped(BILINGUAL)[0]


def html_files(site: Path) -> list[Path]:
    return sorted(p for p in site.rglob("*.html") if p.name != "404.html")


def read_html(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def test_the_example_builds_without_a_warning(tmp_path):
    """Its texts in Chinese (index.zh.md, cv.zh.yaml, x.zh.md) are read, none reported
    as unread."""
    result = run_cli(*build_args(BILINGUAL, tmp_path / "site", "--strict"))
    assert result.code == 0 and "warning" not in result.err, result.err


def test_every_page_is_in_both_languages_with_its_lang(bilingual):
    english = [p for p in html_files(bilingual) if p.relative_to(bilingual).parts[0] != "zh"]
    chinese = [p for p in html_files(bilingual) if p.relative_to(bilingual).parts[0] == "zh"]
    assert len(english) >= 10
    assert {p.relative_to(bilingual / "zh") for p in chinese} == \
        {p.relative_to(bilingual) for p in english}
    for path in english:
        assert read_html(path).html["lang"] == "en", path
    for path in chinese:
        assert read_html(path).html["lang"] == "zh", path


def test_switcher_links_resolve_and_hreflang_pairs_name_each_other(bilingual):
    for path in html_files(bilingual):
        page = read_html(path)
        rel = path.relative_to(bilingual).as_posix()
        here = BASE + rel.removesuffix("index.html")
        switcher = page.select(".language-switch a")
        assert [a["lang"] for a in switcher] == ["en", "zh"], rel
        for link in switcher:
            target = (path.parent / link["href"]).resolve()
            target = target / "index.html" if link["href"].endswith("/") else target
            assert target.is_file(), f"{rel}: {link['href']}"
        alternates = {link["hreflang"]: link["href"] for link in
                      page.select('link[rel="alternate"][hreflang]')}
        # x-default, for readers of neither, is the default language's page.
        assert set(alternates) == {"en", "zh", "x-default"}, rel
        assert alternates["x-default"] == alternates["en"], rel
        assert here in alternates.values(), rel
        assert page.select_one('link[rel="canonical"]')["href"] == here
        for tag, url in alternates.items():
            other = bilingual / urlsplit(url).path.removeprefix("/bilingual/")
            other = other / "index.html" if url.endswith("/") else other
            back = {link["hreflang"]: link["href"] for link in
                    read_html(other).select('link[rel="alternate"][hreflang]')}
            assert back == alternates, f"{rel} -> {url}"
            assert read_html(other).html["lang"] == tag.replace("x-default", "en")


def test_sitemap_names_every_page_in_each_language_and_is_valid(bilingual, tmp_path):
    """Against the sitemaps schema, which takes elements of other namespaces strictly:
    xhtml:link declared as search engines read it (rel, hreflang, href), in a schema that
    imports the sitemaps one."""
    xsd = SHARED / "data" / "sitemap.xsd"
    if not xsd.is_file():
        pytest.skip("../shared/data/sitemap.xsd is not present")
    import xmlschema

    (tmp_path / "xhtml-link.xsd").write_text(
        '<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema" '
        'targetNamespace="http://www.w3.org/1999/xhtml" elementFormDefault="qualified">'
        '<xsd:element name="link"><xsd:complexType>'
        '<xsd:attribute name="rel" use="required" type="xsd:string"/>'
        '<xsd:attribute name="hreflang" use="required" type="xsd:language"/>'
        '<xsd:attribute name="href" use="required" type="xsd:anyURI"/>'
        '</xsd:complexType></xsd:element></xsd:schema>', encoding="utf-8")
    (tmp_path / "both.xsd").write_text(
        '<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema">'
        f'<xsd:import namespace="http://www.sitemaps.org/schemas/sitemap/0.9" '
        f'schemaLocation="{xsd.resolve().as_uri()}"/>'
        '<xsd:import namespace="http://www.w3.org/1999/xhtml" schemaLocation="xhtml-link.xsd"/>'
        '</xsd:schema>', encoding="utf-8")
    sitemap = bilingual / "sitemap.xml"
    xmlschema.XMLSchema(str(tmp_path / "both.xsd")).validate(str(sitemap))
    urls = ET.parse(sitemap).getroot().findall(f"{SITEMAP}url")
    locs = [url.find(f"{SITEMAP}loc").text for url in urls]
    assert BASE + "zh/publications/" in locs and BASE + "publications/" in locs
    for url in urls:
        links = {link.get("hreflang"): link.get("href") for link in url.findall(f"{XHTML}link")}
        assert set(links) == {"en", "zh", "x-default"} and links["x-default"] == links["en"]
        assert url.find(f"{SITEMAP}loc").text in links.values()
        assert links["zh"] == links["en"].replace(BASE, BASE + "zh/")


def interface_text(path: Path) -> str:
    page = read_html(path)
    for node in page.select(CONTENT):
        node.decompose()
    return " ".join(page.body.get_text(" ").split())


def make_chinese_first(content: Path) -> Path:
    """The bilingual example with Chinese first: each text's Chinese file (x.zh.md) its
    default (x.md), its English one x.en.md; the rest as it is (the papers, and a news
    item with no Chinese text, say they are in English)."""
    shutil.copytree(BILINGUAL, content)
    for path in sorted(content.rglob("*.zh.*")):
        own = path.with_name(path.name.replace(".zh.", "."))
        own.rename(own.with_name(own.name.replace(".", ".en.", 1)))
        path.rename(own)
    site = content / "site.yaml"
    site.write_text(site.read_text(encoding="utf-8").replace("languages: [en, zh]",
                                                             "languages: [zh, en]"),
                    encoding="utf-8")
    return content


@pytest.fixture(scope="module")
def chinese_first(tmp_path_factory) -> Path:
    """The example built with Chinese first: its pages at the root, the English under /en/."""
    folder = tmp_path_factory.mktemp("chinese-first")
    result = run_cli(*build_args(make_chinese_first(folder / "content"), folder / "site",
                                 "--strict"))
    assert result.code == 0 and "warning" not in result.err, result.err
    return folder / "site"


def chinese_pages(layout: str, bilingual: Path, chinese_first: Path) -> tuple[list[Path], Path]:
    """The Chinese pages of a layout (the 404 page too where Chinese is first), and the
    Chinese CV's PDF."""
    if layout == "en-first":
        return sorted((bilingual / "zh").rglob("*.html")), bilingual / "zh" / "cv" / "cv.pdf"
    pages = [p for p in sorted(chinese_first.rglob("*.html"))
             if p.relative_to(chinese_first).parts[0] != "en"]
    return pages, next((chinese_first / "cv").glob("*.pdf"))


def english_interface() -> list[str]:
    """Every string of the interface that Chinese words differently (the pieces around
    its placeholders), and the English months, in full and abbreviated (CLDR's)."""
    from babel.dates import get_month_names

    chinese = {message_id(m): m.string for m in read_catalog("zh_Hans") if m.id}
    months = [*get_month_names("wide", locale="en").values(),
              *get_month_names("abbreviated", locale="en").values()]
    return sorted({fragment.strip() for message, wording in chinese.items()
                   if wording and wording != message
                   for fragment in re.split(r"%\(\w+\)[sd]", message)
                   if len(fragment.strip()) > 2} | set(months), key=len, reverse=True)


# Content that the interface quotes (the citation's authors and venue, a CV entry's own
# words) is taken out of the text where the page also shows it as content.
QUOTING = ".citation, .cv-what"


def shown_interface(page: BeautifulSoup) -> str:
    """A page's text outside its content (CONTENT, but what QUOTING's nodes say besides
    the content they quote), as one line."""
    for node in page.select(QUOTING):
        node.attrs.pop("class")  # not content: what it says is checked
    content = {" ".join(text.split()) for node in page.select(CONTENT)
               for part in (node, *node.find_all(True)) for text in
               (part.get_text(), part.get_text(" "))}
    for node in page.select(CONTENT):
        node.decompose()
    text = " ".join(page.body.get_text(" ").split())
    for quoted in sorted(content - {""}, key=len, reverse=True):
        text = text.replace(quoted, " ")
    return text


def find_english(text: str, english: list[str]) -> list[str]:
    return [s for s in english if re.search(rf"(?<![\w-]){re.escape(s)}(?![\w-])", text)]


@pytest.mark.parametrize("layout", ["en-first", "zh-first"])
def test_no_english_interface_text_on_a_chinese_page_or_pdf(layout, bilingual, chinese_first):
    """Each Chinese page's text outside its content (the labels and dates a citation or
    a CV entry puts around its owner's words included), and the Chinese CV's PDF less
    the papers it lists, against every string of the catalog that Chinese words
    differently and the English months: none is left in English, in either layout."""
    pages, pdf = chinese_pages(layout, bilingual, chinese_first)
    english = english_interface()
    if layout == "en-first":  # the site's one 404 page, served below /zh/ too, in Chinese too
        chinese = read_html(bilingual / "404.html").select_one('main [lang="zh"]')
        assert "页面未找到" in chinese.get_text() and chinese.a["href"] == "/bilingual/zh/"
        assert not find_english(chinese.get_text(" "), english)
    # A citation quotes a paper's title as the paper gives it, in its own language.
    titles = sorted((read_front_matter(path)["title"] for path in
                     (BILINGUAL / "publications").glob("*.md")), key=len, reverse=True)
    left = {}
    for path in pages:
        shown = shown_interface(read_html(path))
        for title in titles:
            shown = shown.replace(" ".join(title.split()), " ")
        found = find_english(shown, english)
        if found:
            left[path.name if path.name == "404.html" else path.parent.name] = found
    cv_page = read_html(next(p for p in pages if p.parent.name == "cv"))
    listed = {" ".join(node.get_text().split()) for node in cv_page.select(
        ".cv-papers a, .cv-papers .author, .cv-papers em")}
    shown = " ".join(subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True,
                                    text=True, check=True).stdout.split())
    for quoted in sorted(listed, key=len, reverse=True):
        shown = shown.replace(quoted, " ")
    left["PDF"] = find_english(shown, english)
    assert not any(left.values()), left
    home = pages[0].parent / "index.html" if layout == "zh-first" else bilingual / "zh" / "index.html"
    assert "代表作" in interface_text(home)  # site.yaml's own wording for "Selected publications"
    assert "2025年3月14日" in read_html(home).get_text()
    for text in (shown, cv_page.get_text(" ")):  # months by CLDR, labels from the catalog
        assert "2021年7月–至今" in text.replace(" ", "") and "角色" in text and "导师" in text


def test_the_check_finds_english_left_on_a_page(bilingual, tmp_path):
    """The check above can fail: an English heading put back on a Chinese page is found,
    and so is an English month in a recommended citation."""
    page = tmp_path / "index.html"
    page.write_text((bilingual / "zh" / "index.html").read_text(encoding="utf-8")
                    .replace("全部论文", "All publications"), encoding="utf-8")
    assert "All publications" in interface_text(page)
    paper = (bilingual / "zh" / "publications" / "ferry-2024" / "index.html").read_text(
        encoding="utf-8").replace("2024年11月5日.</p>", "5 November 2024.</p>")
    assert find_english(shown_interface(BeautifulSoup(paper, "html.parser")),
                        english_interface()) == ["November"]


def test_content_without_a_translation_is_marked_with_its_language(bilingual):
    listing = read_html(bilingual / "zh" / "publications" / "index.html")
    titles = {a["href"]: a for a in listing.select("a.paper-title")}
    assert titles["../publications/lantern-2025/"].get_text() == "灯笼：虚构加速器的公平共享"
    ferry = titles["../publications/ferry-2024/"]
    assert ferry.span["lang"] == "en"
    # The citation and BibTeX keep the paper's own title; the owner is marked in both scripts.
    paper = read_html(bilingual / "zh" / "publications" / "lantern-2025" / "index.html")
    assert "Lantern: Fair Sharing" in paper.select_one("pre.bibtex").get_text()
    assert [s.get_text() for s in paper.select(".author.owner strong")] == ["Lin Qiao", "乔林"]
    news = read_html(bilingual / "zh" / "news" / "index.html").select(".news-text")
    assert news[1].div["lang"] == "en"  # no Chinese text of this item


def test_files_and_assets_are_shared_by_both_languages(bilingual):
    home = read_html(bilingual / "zh" / "index.html")
    for url in [home.select_one('link[rel="stylesheet"]')["href"], home.select_one("img.photo")["src"],
                *(a["href"] for a in home.select(".bio a"))]:
        target = urljoin("zh/", url)
        target = bilingual / (target + "index.html" if target.endswith("/") else target)
        assert target.is_file(), url
    assert (bilingual / "zh" / "cv" / "cv.pdf").is_file()
    assert (bilingual / "zh" / "feed.xml").is_file() and (bilingual / "zh" / "search" / "index.html").is_file()


def test_a_site_in_one_other_language_has_its_interface_and_dates(tmp_path):
    content = write_files(tmp_path / "content", {
        "site.yaml": MINIMAL_CONFIG + "language: de\n",
        "publications/a.md": paper(date="2024-03-05", extra="type: journal\n")})
    result = run_cli(*build_args(content, tmp_path / "site"))
    assert result.code == 0, result.err
    page = read_html(tmp_path / "site" / "publications" / "a" / "index.html")
    assert page.html["lang"] == "de" and "dir" not in page.html.attrs
    text = page.get_text(" ")
    assert "5. März 2024" in text and "Empfohlene Zitierweise" in text
    assert not page.select(".language-switch")


def test_a_right_to_left_language_gets_dir_rtl(tmp_path):
    content = write_files(tmp_path / "content", {"site.yaml": MINIMAL_CONFIG + "language: ar\n",
                                                 "publications/a.md": paper()})
    assert run_cli(*build_args(content, tmp_path / "site")).code == 0
    page = read_html(tmp_path / "site" / "index.html")
    assert page.html["dir"] == "rtl" and page.html["lang"] == "ar"


@pytest.mark.parametrize("settings, at, message", [
    ("language: klingon-xx\n", 1, "'klingon-xx' is not a known language"),
    ("languages: [en, zh, en]\n", 1, "'languages' names 'en' twice"),
    ("language: de\nlanguages: [en, zh]\n", 1, "the first of 'languages' is the site's default"),
    ("strings: {Selected pubs: Mine}\n", 1,
     "'strings' has 'Selected pubs', which the interface never shows"),
    ("languages: [en, zh]\nstrings: {Search: {fr: Chercher}}\n", 2,
     "not one of the site's languages"),
])
def test_bad_language_settings_are_errors_at_their_line(tmp_path, settings, at, message):
    content = write_files(tmp_path / "content", {"site.yaml": MINIMAL_CONFIG + settings,
                                                 "publications/a.md": paper()})
    result = run_cli(*build_args(content, tmp_path / "site"))
    assert result.code == 1
    line = len(MINIMAL_CONFIG.splitlines()) + at
    assert re.search(rf"site\.yaml:{line}: error: .*{re.escape(message)}", result.err), result.err
    assert "Traceback" not in result.err
    assert not (tmp_path / "site").exists()


def test_a_text_in_a_language_without_its_default_file_is_an_error(tmp_path):
    content = write_files(tmp_path / "content", {
        "site.yaml": MINIMAL_CONFIG + "languages: [en, zh]\n", "publications/a.md": paper(),
        "pages/about.zh.md": "---\ntitle: 关于\n---\n正文\n"})
    result = run_cli(*build_args(content, tmp_path / "site"))
    assert result.code == 1
    assert re.search(r"about\.zh\.md:1: error: .*has no file of its own", result.err), result.err


STARTER_WORKFLOW = ROOT / "scholarsite" / "starter" / "dot-github" / "workflows" / "pages.yml"


@pytest.mark.parametrize("text, needs", [("name: 高巍\n", True), ("name: 김민준\n", True),
                                         ("name: Zoë Müller\n", False)])
def test_the_publishing_workflow_installs_cjk_fonts_when_the_content_has_cjk(tmp_path, text,
                                                                                needs):
    """The step run by bash as GitHub's runner runs it, `python` this test's Python and
    `sudo` a stand-in that notes what it was asked to do."""
    import os
    import subprocess
    import sys

    import yaml

    steps = yaml.safe_load(STARTER_WORKFLOW.read_text("utf-8"))["jobs"]["build"]["steps"]
    step = next(step for step in steps if "fonts-noto-cjk" in step.get("run", ""))
    write_files(tmp_path, {"content/site.yaml": MINIMAL_CONFIG, "content/cv.yaml": text})
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python").symlink_to(sys.executable)
    asked = tmp_path / "asked"
    (bin_dir / "sudo").write_text(f'#!/bin/sh\necho "$*" >> {asked}\n', encoding="utf-8")
    (bin_dir / "sudo").chmod(0o755)
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    subprocess.run(["bash", "-e", "-c", step["run"]], cwd=tmp_path, check=True, env=env,
                   timeout=60)
    installs = asked.read_text(encoding="utf-8") if asked.exists() else ""
    assert ("apt-get install -y -q --no-install-recommends fonts-noto-cjk" in installs) == needs


def test_a_chinese_cv_pdf_embeds_a_cjk_font(bilingual, shipped):
    """Where the machine has CJK fonts (as the workflow installs them), the Chinese CV's
    PDF embeds one and the build warns of no character it could not print."""
    import subprocess

    fonts = subprocess.run(["fc-list", ":lang=zh"], capture_output=True, text=True)
    if not fonts.stdout.strip():
        pytest.skip("no CJK font on this machine (apt-get install fonts-noto-cjk)")
    pdf = (bilingual / "zh" / "cv" / "cv.pdf").read_bytes()
    assert re.search(rb"/BaseFont\s*/[A-Z]{6}\+\w*CJK", pdf)
    assert "no font has" not in shipped(BILINGUAL)[1].err


LAYOUT = """() => {
  const box = s => document.querySelector(s).getBoundingClientRect();
  const style = getComputedStyle(document.querySelector('.citation'));
  const text = document.createRange();
  text.selectNodeContents(document.querySelector('h1'));
  return {title: box('.site-title').left, nav: box('.nav').left,
          h1: text.getBoundingClientRect().toJSON(),
          main: box('main'), start: style.borderRightWidth, end: style.borderLeftWidth};
}"""


@pytest.mark.parametrize("language, rtl", [("ar", True), ("he", True), ("en", False)])
def test_a_right_to_left_site_mirrors_in_a_browser(tmp_path, browser, language, rtl):
    """In Chromium: the header's title on the right of the menu, the heading against the
    right edge and the citation's rule on its right, for Arabic and Hebrew; as written
    for English."""
    from browser import open_page, serve

    content = write_files(tmp_path / "content", {
        "site.yaml": MINIMAL_CONFIG + f"language: {language}\n", "publications/a.md": paper()})
    assert run_cli(*build_args(content, tmp_path / "site")).code == 0
    with serve(tmp_path / "site") as base, open_page(browser) as page:
        page.goto(base + "publications/a/")
        found = page.evaluate(LAYOUT)
    h1, main = found["h1"], found["main"]  # the heading's text, and the page's column
    assert abs(h1["right"] - main["right"]) < abs(h1["left"] - main["left"]) if rtl else \
        abs(h1["left"] - main["left"]) < abs(h1["right"] - main["right"]), found
    if rtl:
        assert found["title"] > found["nav"], found
        assert (found["start"], found["end"]) == ("3px", "0px"), found
    else:
        assert found["title"] < found["nav"], found
        assert (found["start"], found["end"]) == ("0px", "3px"), found


def test_what_scripts_write_is_in_the_page_language(bilingual, browser):
    """The filters' count, the search's count and the copy button, in Chinese."""
    from browser import open_page, serve

    with serve(bilingual) as base, open_page(browser) as page:
        page.goto(base + "zh/publications/?year=2025")
        page.wait_for_function("document.getElementById('filter-status').textContent !== ''")
        assert page.inner_text("#filter-status") == "4 篇论文中的 1 篇"
        page.goto(base + "zh/search/?q=lantern")  # its own title, beside its Chinese one
        page.wait_for_function("document.getElementById('search-status').textContent !== ''")
        assert page.inner_text("#search-status") == "1 条结果"
        page.goto(base + "zh/search/?q=码头")  # Quay's Chinese title: its text is English
        page.wait_for_function("document.getElementById('search-status').textContent !== ''")
        assert page.inner_text("#search-status") == "1 条结果"
        page.goto(base + "zh/publications/lantern-2025/")
        assert page.inner_text(".copy-button") == "复制 BibTeX"


# What a one-paper edit of the bilingual example changes: the paper's page and the
# lists that show it, in both languages (with the files made of every paper, the CV's
# PDFs, which list papers, and the pictures made afresh each build); never another
# paper's page, nor a page that shows no paper.
PAPER_EDIT = {"publications/ferry-2024/index.html", "zh/publications/ferry-2024/index.html",
              "publications/index.html", "zh/publications/index.html"}
UNTOUCHED = {"publications/harbor-2022/index.html", "zh/publications/harbor-2022/index.html",
             "zh/publications/lantern-2025/index.html", "talks/index.html", "404.html",
             "zh/posts/pretend-queues/index.html", "zh/news/index.html"}


def edit_one_paper(content: Path, venue: str) -> Path:
    return edit(content / "publications" / "ferry-2024.md", "venue_short: JFS",
                f"venue_short: {venue}")


def test_serve_and_a_second_build_of_a_bilingual_site_equal_a_cold_build(tmp_path):
    """A site in several languages takes the last build's pages that are the same: serve's
    rebuild after a save of a Chinese text and a translation, then of one paper, and
    `build` into the last build's folder, give a cold build's bytes, and a paper's edit
    rewrites that paper's pages and the lists that show it, in both languages, and not
    the others (all 65 files were written again each time)."""
    from scholarsite.build import BuildOptions
    from scholarsite.live.incremental import SiteBuilder

    content = tmp_path / "content"
    shutil.copytree(BILINGUAL, content)
    builder = SiteBuilder(BuildOptions(content, tmp_path / "live", TEMPLATES))
    assert builder.build().ok
    changed = [edit(content / "index.zh.md", "乔林是一位", "乔林是一位认真的"),
               edit(content / "publications" / "lantern-2025.md", "title: 灯笼", "title: 新灯笼")]
    outcome = builder.build(changed)
    assert outcome.ok and "zh/index.html" in outcome.written
    assert "新灯笼" in (tmp_path / "live" / "zh" / "publications" / "index.html").read_text("utf-8")
    outcome = builder.build([edit_one_paper(content, "JFS-S")])
    assert outcome.ok and PAPER_EDIT <= set(outcome.written), outcome.written
    assert not UNTOUCHED & set(outcome.written) and len(outcome.written) < 30
    assert_same_as_cold_build(builder)
    out = tmp_path / "site"
    assert run_cli(*build_args(content, out)).code == 0
    edit(content / "pages" / "about.zh.md", "本网站", "这个网站")
    assert run_cli(*build_args(content, out)).code == 0
    before = stamps(out)
    edit_one_paper(content, "JFS-B")
    assert run_cli(*build_args(content, out)).code == 0
    rewritten = {rel for rel, stamp in stamps(out).items() if before.get(rel) != stamp}
    assert PAPER_EDIT <= rewritten, sorted(rewritten)
    assert not UNTOUCHED & rewritten and len(rewritten) < 30, sorted(rewritten)
    cold = tmp_path / "cold"
    assert run_cli(*build_args(content, cold, "--no-cache")).code == 0
    assert tree_bytes(out) == tree_bytes(cold)


def test_a_paper_edit_in_serve_patches_each_language(tmp_path):
    """serve's save of a paper on a bilingual site patches, in each language, that paper's
    page and the pages that list it, and renders nothing else (all 66 files were made
    again for every save): an abstract with no translation, a translated
    abstract, an abstract shown untranslated in Chinese; each save, and a translated
    title's after them, gives a cold build's bytes."""
    from scholarsite.build import BuildOptions
    from scholarsite.live.incremental import SiteBuilder

    content = tmp_path / "content"
    shutil.copytree(BILINGUAL, content)
    builder = SiteBuilder(BuildOptions(content, tmp_path / "live", TEMPLATES))
    assert builder.build().ok
    pubs = content / "publications"
    outcome = builder.build([edit(pubs / "ferry-2024.md", "Ferry moves", "Ferry now moves")])
    assert outcome.ok and outcome.rendered <= 12, outcome
    assert set(outcome.written) == {
        "feed.xml", "publications.json", "publications.ris", "search/index.html",
        "publications/ferry-2024/index.html", "publications/index.html", "zh/feed.xml",
        "zh/publications/ferry-2024/index.html", "zh/publications/index.html",
        "zh/search/index.html"}, outcome.written
    assert_same_as_cold_build(builder)
    for path, old, new in ((pubs / "lantern-2025.md", "灯笼是一个", "灯笼是一个新的"),
                           (pubs / "quay-2023.md", "made-up", "invented")):
        outcome = builder.build([edit(path, old, new)])
        assert outcome.ok and outcome.rendered <= 12, outcome
        assert f"zh/publications/{path.stem}/index.html" in outcome.written
    # A title the pages read outside the paper's entries (the sitemap): the lists are
    # planned again, in each language, and rendered where they changed.
    outcome = builder.build([edit(pubs / "quay-2023.md", "title: 码头", "title: 新码头")])
    assert outcome.ok and outcome.rendered < 20, outcome
    assert_same_as_cold_build(builder)


def test_check_finds_no_problem_in_the_bilingual_example(tmp_path):
    """Every link of both languages resolves (the 404 page, the site's alone, links no
    other language's)."""
    result = run_cli("check", "--content", str(BILINGUAL), "--output", str(tmp_path / "site"),
                     "--templates", str(TEMPLATES))
    assert result.code == 0, result.err
    assert "no problems" in result.out


CHINESE_FIRST = MINIMAL_CONFIG + "languages: [zh, en]\n"


def test_a_text_is_marked_with_its_own_language_on_every_page(tmp_path):
    """Chinese first: an English paper (`language: en`) shows the title and abstract it
    gives in Chinese at the root and its own on /en/, neither marked; a Chinese paper
    (the site's first language) is marked `lang="zh"` on /en/; an English news item is
    marked `lang="en"` at the root, and search finds the Chinese title, its labels
    Chinese too."""
    content = write_files(tmp_path / "content", {
        "site.yaml": CHINESE_FIRST,
        "publications/english.md": paper("Vector Sketches", extra=(
            "language: en\ntranslations:\n  zh:\n    title: 向量草图\n"
            "    abstract: 中文摘要。\n"), abstract="English abstract."),
        "publications/chinese.md": paper("中文论文", "2023", abstract="只有中文。"),
        "news/2024-01-talk.md": "---\ndate: 2024-01\nlanguage: en\n---\nAn English note.\n",
        "pages/about.md": "---\ntitle: 关于\n---\n中文页面。\n"})
    result = run_cli(*build_args(content, tmp_path / "site", "--strict"))
    assert result.code == 0, result.err
    site = tmp_path / "site"
    english = read_html(site / "publications" / "english" / "index.html")
    assert english.h1.get_text() == "向量草图" and english.h1.span is None
    assert english.select_one(".abstract").get_text().strip() == "中文摘要。"
    assert not english.select(".abstract [lang]")
    chinese = read_html(site / "en" / "publications" / "chinese" / "index.html")
    assert chinese.h1.span["lang"] == "zh" and chinese.select_one(".abstract div")["lang"] == "zh"
    assert read_html(site / "en" / "publications" / "english" / "index.html").h1.get_text() \
        == "Vector Sketches"
    news = read_html(site / "news" / "index.html").select_one(".news-text div")
    assert news["lang"] == "en" and "An English note." in news.get_text()
    index = {entry["url"]: entry for entry in json.loads(read_html(
        site / "search" / "index.html").select_one("#search-index").string)}
    assert index["publications/english/"]["title"] == "向量草图"
    assert index["about/"]["kind"] == "页面"
    assert index["publications/chinese/"]["kind"] == "会议论文"


def test_a_language_or_a_translation_that_cannot_be_is_an_error(tmp_path):
    """A paper's translation into its own language (said, or the site's first) would be
    dropped: an error at its line; so is a `language` that is no language tag."""
    content = write_files(tmp_path / "content", {
        "site.yaml": CHINESE_FIRST,
        "publications/unsaid.md": paper(extra="translations:\n  zh:\n    title: 中文\n"),
        "publications/said.md": paper(extra="language: en\ntranslations:\n  en:\n"
                                            "    title: Again\n"),
        "publications/bad.md": paper(extra="language: en_US\n"),
        "news/2024-01-x.md": "---\ndate: 2024-01\nlanguage: english!\n---\nText.\n"})
    result = run_cli(*build_args(content, tmp_path / "site"))
    assert result.code == 1 and "Traceback" not in result.err, result.err
    assert re.search(r"unsaid\.md:1: error: 'translations' has 'zh', the paper's own "
                     r"language \(the site's first", result.err), result.err
    assert re.search(r"said\.md:\d+: error: 'translations' has 'en', the paper's own "
                     r"language", result.err), result.err
    assert re.search(r"bad\.md:\d+: error: 'en_US' is not a well-formed language tag.*"
                     r"write 'en-US'", result.err), result.err
    assert re.search(r"2024-01-x\.md:3: error: 'english!' is not a well-formed", result.err)
    assert not (tmp_path / "site").exists()


def test_a_region_tag_is_taken_everywhere_and_its_cv_pdf_is_made(tmp_path):
    """`languages: [en, zh-CN]` (BCP 47 with a region): its texts (x.zh-CN.md,
    cv.zh-CN.yaml), per-language settings, a paper's `language` and `translations` all take
    the tag, its pages are Chinese, and its CV's PDF is made, in Chinese, with no warning."""
    content = write_files(tmp_path / "content", {
        "site.yaml": ("title: {en: Ada Example, zh-CN: 艾达}\nurl: https://example.org/\n"
                      "languages: [en, zh-CN]\nauthor:\n  name: {en: Ada Example, zh-CN: 艾达}\n"),
        "publications/a.md": paper(extra="language: en\ntranslations:\n  zh-CN:\n"
                                         "    title: 一篇论文\n"),
        "publications/b.md": paper("中文论文", extra="language: zh-CN\n"),
        "pages/about.md": "---\ntitle: About\n---\nAbout.\n",
        "pages/about.zh-CN.md": "---\ntitle: 关于\n---\n关于。\n",
        "cv.yaml": "positions:\n  - title: Professor\n    start: 2021-07\n    end: present\n",
        "cv.zh-CN.yaml": "positions:\n  - title: 教授\n    start: 2021-07\n    end: present\n"})
    result = run_cli(*build_args(content, tmp_path / "site", "--strict"))
    assert result.code == 0 and "warning" not in result.err, result.err
    site = tmp_path / "site" / "zh-CN"
    assert read_html(site / "about" / "index.html").h1.get_text() == "关于"
    assert read_html(site / "publications" / "a" / "index.html").h1.get_text() == "一篇论文"
    assert read_html(site / "publications" / "b" / "index.html").h1.span is None
    assert read_html(tmp_path / "site" / "publications" / "b" / "index.html").h1.span["lang"] \
        == "zh-CN"
    shown = subprocess.run(["pdftotext", str(site / "cv" / "cv.pdf"), "-"], capture_output=True,
                           text=True, check=True).stdout.replace(" ", "")
    assert "2021年7月–至今" in shown and "教授" in shown and "工作经历" in shown


def test_a_citation_badge_is_in_the_page_language(tmp_path):
    """A paper's citation count (`citations: openalex`, citations.yaml) says itself in the
    site's language, its hover text too (it was '5 citations' on a Chinese page)."""
    content = write_files(tmp_path / "content", {
        "site.yaml": MINIMAL_CONFIG + "language: zh\ncitations: openalex\n",
        "publications/a.md": paper(),
        "citations.yaml": '"a":\n  count: 5\n  source: openalex\n  id: "W1"\n'
                          "  fetched: 2025-12-03\n"})
    result = run_cli(*build_args(content, tmp_path / "site"))
    assert result.code == 0, result.err
    badge = read_html(tmp_path / "site" / "publications" / "a" / "index.html").select_one(
        ".cite-count")
    assert badge.get_text() == "被引 5 次"
    assert badge["title"] == "据 OpenAlex（截至 2025-12-03），被引 5 次"


def test_serve_writes_only_changed_files_of_a_bilingual_site_and_says_a_cv_problem(tmp_path):
    """A save that serve builds whole on a bilingual site (a talk's text, a template)
    writes only the files whose bytes changed (every file but a paper's own was written
    again, the template's save all 66), and a paper's save after which a language's CV
    cannot be made says why, as the whole build does (serve said nothing): all of it
    the cold build's bytes."""
    from scholarsite.build import BuildOptions
    from scholarsite.live.incremental import SiteBuilder

    content = tmp_path / "content"
    shutil.copytree(BILINGUAL, content)
    templates = copy_templates(tmp_path)
    with open(templates / "cv.typ", "a", encoding="utf-8") as typ:  # the site's own
        typ.write('#if data.language == "zh" and repr(data.sections).contains("Zq") '
                  '{ panic("no Zq") }\n')
    builder = SiteBuilder(BuildOptions(content, tmp_path / "live", templates))
    assert builder.build().ok
    outcome = builder.build([edit(content / "talks" / "lantern-talk-2025.md",
                                  "A talk about", "A long talk about")])
    assert outcome.ok and outcome.written == ["search/index.html",
                                              "talks/lantern-talk-2025/index.html"]
    outcome = builder.build([edit(templates / "_authors.html", '<span class="authors">',
                                  '<span class="authors names">')])
    assert outcome.ok and outcome.written == ["index.html", "publications/index.html",
                                              "zh/index.html", "zh/publications/index.html"]
    outcome = builder.build([edit(content / "publications" / "quay-2023.md", "title: 码头",
                                  "title: Zq 码头")])
    assert outcome.ok and "zh/cv/cv.pdf" in outcome.written  # gone
    [said] = outcome.warnings
    assert said.path.endswith("cv.typ") and "no Zq" in said.message
    assert_same_as_cold_build(builder)
