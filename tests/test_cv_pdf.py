"""The CV as a PDF (views/cvpdf.py, render/typeset.py, templates/cv.typ): built through the
real CLI on small sites, and read back with poppler's pdftotext and pdfinfo."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import (MINIMAL_CONFIG, ROOT, assert_same_as_cold_build, build_args, copy_templates,
                      edit, paper, run_cli, soup, start_live_site, tree_bytes, write_files)
from test_build_errors import assert_clean_failure, problems

typst = pytest.importorskip("typst")
needs_poppler = pytest.mark.skipif(shutil.which("pdftotext") is None
                                   or shutil.which("pdfinfo") is None,
                                   reason="poppler-utils (pdftotext, pdfinfo) is not installed")

CONFIG = MINIMAL_CONFIG.replace("  name: Ada Example\n", """\
  name: Ada Example
  position: Professor
  affiliation: Example University
  email: ada@example.org
  links:
    github: https://github.com/ada
""")
CV = """\
positions:
  - title: Professor
    organization: Example University
    start: 2020
    end: present
education:
  - degree: Ph.D. in Computing
    institution: Old University
    start: 2014
    end: 2019
    thesis: On examples
  - degree: B.Sc. in Examples
    institution: First University
    date: 2012
students:
  - name: 王小明
    degree: Ph.D.
    start: 2021
    end: present
awards:
  - Best Example Award, 2023
"""
SITE = {
    "site.yaml": CONFIG,
    "cv.yaml": CV,
    "publications/alpha.md": paper('"Alpha: Sharing Examples"', "2024-05",
                                   extra="tier: CCF-A\nselected: true\n"),
    "publications/beta.md": paper("'Beta [draft] #panic(\"x\") @ref'", "2023-02",
                                  venue="Journal of Examples", venue_short="JoE",
                                  extra="type: journal\naward: Best Paper Award\n"),
    "publications/gamma.md": paper("Gamma Report", "2022-11", venue_short=None,
                                   extra="type: report\n"),
    "talks/2024-keynote.md": "---\ntitle: Examples at Scale\ndate: 2024-06-01\n"
                             "event: Example Summit\n---\n",
}
PDF = "cv/ada-example-cv.pdf"


def have_cjk_font() -> bool:
    """Whether the system has a font with Chinese (Debian: fonts-noto-cjk, as .ci/run)."""
    if shutil.which("fc-list") is None:
        return False
    listed = subprocess.run(["fc-list", ":lang=zh"], capture_output=True, text=True).stdout
    return bool(listed.strip())


needs_cjk = pytest.mark.skipif(not have_cjk_font(), reason="no font with Chinese installed "
                               "(Debian: fonts-noto-cjk)")


def build(content: Path, output: Path, *extra: str, templates: Path | None = None):
    args = build_args(content, output, *extra, **({"templates": templates} if templates
                                                     else {}))
    return run_cli(*args)


def pdf_text(path: Path) -> str:
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True,
                          text=True, check=True).stdout


def pdf_info(path: Path) -> dict[str, str]:
    out = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True).stdout
    return {k.strip(): v.strip() for k, _, v in (line.partition(":")
                                                 for line in out.splitlines())}


@pytest.fixture
def built(tmp_path):
    content = write_files(tmp_path / "content", SITE)
    result = build(content, tmp_path / "site")
    assert result.code == 0, result.err
    return tmp_path / "site", result


@needs_poppler
@needs_cjk
def test_the_pdf_shows_every_section_paper_and_script(built):
    site, result = built
    assert "warning" not in result.err, result.err
    text = " ".join(pdf_text(site / PDF).split())
    for shown in ("Ada Example", "Professor", "ada@example.org", "POSITIONS", "EDUCATION",
                  "STUDENTS", "AWARDS AND HONORS", "PUBLICATIONS", "TALKS",
                  "Conference Papers", "Journal Articles", "Technical Reports",
                  "Alpha: Sharing Examples", 'Beta [draft] #panic("x") @ref', "Gamma Report",
                  "Examples at Scale", "王小明", "On examples", "CCF-A", "Best Paper Award",
                  "[1]", "[3]", "CoE", "JoE"):
        assert shown in text, shown
    # cv.yaml's order: positions before education; publications before students.
    assert text.index("POSITIONS") < text.index("EDUCATION") < text.index("PUBLICATIONS") \
        < text.index("STUDENTS")
    info = pdf_info(site / PDF)
    assert info["Title"] == "Ada Example: Curriculum Vitae" and info["Author"] == "Ada Example"
    assert 1 <= int(info["Pages"]) <= 2 and "A4" in info["Page size"]


def test_the_cv_page_links_the_pdf_with_its_size(built):
    site, _ = built
    link = soup(site / "cv" / "index.html").select_one(".cv-download a")
    assert link["href"] == "../" + PDF
    size = (site / PDF).stat().st_size
    assert f"({round(size / 1000)} KB)" in link.parent.get_text()
    assert (site / PDF).read_bytes().startswith(b"%PDF-")


def test_same_bytes_every_build_and_no_second_typesetting(built, tmp_path):
    site, _ = built
    store = next((tmp_path / ".site.images" / "cv").rglob("*.pdf"))
    made = store.stat().st_mtime_ns
    first = tree_bytes(site)
    assert build(tmp_path / "content", site).code == 0
    assert store.stat().st_mtime_ns == made  # found in the store, not typeset again
    assert tree_bytes(site) == first
    assert build(tmp_path / "content", tmp_path / "other").code == 0  # typeset anew
    assert tree_bytes(tmp_path / "other") == first


@needs_poppler
def test_pdf_settings(tmp_path):
    content = write_files(tmp_path / "content", {**SITE, "cv.yaml": CV + """\
pdf:
  publications: selected
  paper: letter
  font: sans
  tiers: false
"""})
    assert build(content, tmp_path / "site").code == 0
    text = pdf_text(tmp_path / "site" / PDF)
    assert "Alpha: Sharing Examples" in text and "Gamma Report" not in text
    assert "CCF-A" not in text
    assert "letter" in pdf_info(tmp_path / "site" / PDF)["Page size"]


def test_each_language_with_a_script_or_region_has_its_pdf_with_its_lang(tmp_path):
    """Typst takes an ISO 639 language and, apart, a region: the whole tag ('pt-BR') was
    refused, and the PDF left out with a warning inside the theme's cv.typ."""
    tags = ("en-GB", "zh-Hant", "zh-TW", "pt-BR")
    content = write_files(tmp_path / "content", {
        "site.yaml": MINIMAL_CONFIG + f"languages: [{', '.join(tags)}]\n",
        "cv.yaml": "awards:\n  - Best Example Award, 2023\n", "publications/a.md": paper()})
    result = build(content, tmp_path / "site")
    assert result.code == 0 and "cv.typ" not in result.err, result.err
    for prefix, lang in (("", "en-GB"), ("zh-Hant/", "zh"), ("zh-TW/", "zh-TW"),
                         ("pt-BR/", "pt-BR")):
        pdf = tmp_path / "site" / prefix / PDF
        assert re.search(rf"/Lang ?\({lang}\)".encode(), pdf.read_bytes()), prefix
        link = soup(tmp_path / "site" / prefix / "cv" / "index.html").select_one(".cv-download")
        assert link is not None, prefix


def test_an_unknown_pdf_setting_is_an_error_at_its_line(tmp_path):
    content = write_files(tmp_path / "content", {**SITE, "cv.yaml": CV + """\
pdf:
  paper: a4
  colour: blue
"""})
    result = build(content, tmp_path / "site")
    assert_clean_failure(result)
    [(path, line, severity, message)] = problems(result.err)
    assert path.endswith("cv.yaml") and line == CV.count("\n") + 3 and severity == "error"
    assert "unknown pdf setting 'pdf.colour'" in message


def test_a_template_error_is_told_at_its_line_and_the_site_still_written(tmp_path):
    content = write_files(tmp_path / "content", SITE)
    templates = copy_templates(tmp_path)
    (templates / "cv.typ").write_text("#let data = json(bytes(sys.inputs.data))\n"
                                      "= #data.header.name\n#data.no-such-key\n",
                                      encoding="utf-8")
    result = build(content, tmp_path / "site", templates=templates)
    assert result.code == 0 and "Traceback" not in result.err
    [(path, line, severity, message)] = problems(result.err)
    assert path.endswith("templates/cv.typ") and line == 3 and severity == "warning"
    assert message.startswith("the CV's PDF was not made: dictionary does not contain key")
    assert not (tmp_path / "site" / PDF).exists()
    assert soup(tmp_path / "site" / "cv" / "index.html").select_one(".cv-download") is None
    strict = build(content, tmp_path / "site", "--strict", templates=templates)
    assert_clean_failure(strict)


def test_a_sites_own_template_is_used(tmp_path):
    content = write_files(tmp_path / "content", SITE)
    templates = copy_templates(tmp_path)
    edit(templates / "cv.typ", "[#head.name]", "[#head.name, from its own template]")
    assert build(content, tmp_path / "site", templates=templates).code == 0
    if shutil.which("pdftotext"):
        assert "from its own template" in pdf_text(tmp_path / "site" / PDF)


def test_serve_makes_them_again_when_the_cv_a_paper_or_the_template_changes(tmp_path):
    live = start_live_site(tmp_path, SITE)
    content, templates = live.options.content_dir, live.options.templates_dir
    before = (live.options.output_dir / PDF).read_bytes()
    for path, old, new in ((content / "cv.yaml", "On examples", "On more examples"),
                           (content / "publications" / "alpha.md", "title: \"Alpha",
                            "title: \"Alpha Prime"),
                           (templates / "cv.typ", "size: 20pt", "size: 22pt")):
        outcome = live.build([edit(path, old, new)])
        assert outcome.ok and PDF in outcome.written, (path, outcome.errors)
        assert ("cv/resume.json" in outcome.written) == (path.suffix != ".typ")
        assert (live.options.output_dir / PDF).read_bytes() != before
        before = (live.options.output_dir / PDF).read_bytes()
        assert_same_as_cold_build(live)


def test_the_json_resume_export(built):
    site, _ = built
    resume = json.loads((site / "cv" / "resume.json").read_text(encoding="utf-8"))
    assert resume["basics"]["name"] == "Ada Example"
    assert resume["basics"]["label"] == "Professor" and resume["basics"]["email"]
    assert resume["basics"]["profiles"] == [{"network": "GitHub",
                                            "url": "https://github.com/ada"}]
    assert resume["work"] == [{"name": "Example University", "position": "Professor",
                               "startDate": "2020"}]  # no endDate: still going on
    assert resume["education"][0]["startDate"] == "2014" \
        and resume["education"][0]["endDate"] == "2019"
    # A degree with one date: when it was awarded, not also when study began.
    assert resume["education"][1] == {"institution": "First University",
                                      "studyType": "B.Sc. in Examples", "endDate": "2012"}
    assert [p["name"] for p in resume["publications"]] == [
        "Alpha: Sharing Examples", 'Beta [draft] #panic("x") @ref', "Gamma Report"]
    assert resume["publications"][0]["releaseDate"] == "2024-05"
    assert resume["awards"] == [{"title": "Best Example Award, 2023"}]


RESUME_SCHEMA = ROOT / "tests" / "node_modules" / "@jsonresume" / "schema" / "schema.json"


@pytest.mark.skipif(not RESUME_SCHEMA.is_file(), reason="needs npm ci --prefix tests")
@pytest.mark.parametrize("site", ["built", "demo"])
def test_the_json_resume_export_is_valid_against_the_official_schema(site, request):
    import jsonschema

    folder = request.getfixturevalue(site)
    folder = folder[0] if isinstance(folder, tuple) else folder
    schema = json.loads(RESUME_SCHEMA.read_text(encoding="utf-8"))
    resume = json.loads((folder / "cv" / "resume.json").read_text(encoding="utf-8"))
    checker = jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker())
    assert [f"{list(e.absolute_path)}: {e.message}" for e in checker.iter_errors(resume)] == []


@needs_poppler
def test_the_demo_sites_cv_is_a_few_pages(demo):
    [pdf] = sorted((demo / "cv").glob("*-cv.pdf"))
    assert 1 <= int(pdf_info(pdf)["Pages"]) <= 3
    text = pdf_text(pdf)
    for heading in ("EDUCATION", "PUBLICATIONS", "TALKS", "STUDENTS"):
        assert heading in text
    link = soup(demo / "cv" / "index.html").select_one(".cv-download a")
    assert link["href"] == f"../cv/{pdf.name}"


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils is not installed")
def test_the_demo_cvs_first_page_renders(demo, tmp_path):
    """pdftoppm draws the PDF's first page (scripts/screenshots.py keeps that picture in
    docs/screenshots/; a test never writes there)."""
    [pdf] = sorted((demo / "cv").glob("*-cv.pdf"))
    subprocess.run(["pdftoppm", "-png", "-r", "60", "-f", "1", "-l", "1", "-singlefile",
                    str(pdf), str(tmp_path / "page")], check=True, timeout=60)
    png = (tmp_path / "page.png").read_bytes()
    assert 10_000 < len(png) < 300 * 1024


@needs_cjk  # the site's CV has a student's name in Chinese: no warning for it
def test_a_character_no_font_has_is_a_warning_at_its_line(tmp_path):
    unassigned = "\u0378"  # no character yet, so no font has it
    cv = CV.replace("  - Best Example Award, 2023\n",
                    f"  - Best Example Award, 2023\n  - Prize {unassigned}\n")
    content = write_files(tmp_path / "content", {**SITE, "cv.yaml": cv})
    for _ in range(2):  # typeset, then found in the store: told both times
        result = build(content, tmp_path / "site")
        assert result.code == 0, result.err
        [(path, line, severity, message)] = problems(result.err)
        assert path.endswith("cv.yaml") and severity == "warning"
        assert line == cv.splitlines().index(f"  - Prize {unassigned}") + 1
        assert "no font has '\u0378' (U+0378)" in message
    assert_clean_failure(build(content, tmp_path / "site", "--strict"))


def test_without_typst_the_site_is_written_and_the_build_says_why(tmp_path):
    """A machine without the typst package (one that cannot be imported stands first on
    the path): the site and its JSON Resume are written, the PDF is not."""
    blocker = write_files(tmp_path / "blocker", {
        "typst/__init__.py": "raise ImportError('no typst here')\n"})
    content = write_files(tmp_path / "content", SITE)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(blocker), str(ROOT), os.environ.get("PYTHONPATH", "")]))
    run = [sys.executable, str(ROOT / "build.py"), *build_args(content, tmp_path / "site")]
    result = subprocess.run(run, capture_output=True, text=True, env=env)
    assert result.returncode == 0 and "Traceback" not in result.stderr
    [(path, line, severity, message)] = problems(result.stderr)
    assert path.endswith("cv.yaml") and severity == "warning"
    assert "'typst' package is not installed" in message
    assert (tmp_path / "site" / "cv" / "resume.json").is_file()
    assert not (tmp_path / "site" / PDF).exists()
    strict = subprocess.run(run + ["--strict"], capture_output=True, text=True, env=env)
    assert strict.returncode == 1 and "Traceback" not in strict.stderr


@needs_poppler
def test_sections_the_user_names_are_shown_in_their_order_with_their_heading(tmp_path):
    own = CV.replace("awards:\n", """\
memberships:
  - title: ACM
    start: 2015
    end: present
    member_number: "12345"
  - IEEE
Invited Talks:
  - title: On examples, again
    organization: Example Institute
    date: 2020
skills: [Typesetting, Proofs]
awards:
""")
    content = write_files(tmp_path / "content", {**SITE, "cv.yaml": own + "educaton: [x]\n"})
    result = build(content, tmp_path / "site")
    assert result.code == 0, result.err
    assert result.err.splitlines() == [
        f"{content}/cv.yaml:{len(own.splitlines()) + 1}: warning: 'educaton' is shown as a section of its own, headed "
        "'Educaton'; did you mean 'education'?"]
    page = soup(tmp_path / "site/cv/index.html")
    headings = [(h["id"], h.get_text()) for h in page.select(".cv-section h2")]
    assert headings[:6] == [("cv-positions", "Positions"), ("cv-education", "Education"),
                            ("cv-publications", "Publications"), ("cv-students", "Students"),
                            ("cv-memberships", "Memberships"),
                            ("cv-invited-talks", "Invited Talks")]
    members = page.select_one("#cv-memberships").find_parent("section")
    assert "ACM" in members.get_text() and "Member number: 12345" in members.get_text()
    assert "2015–present" in members.get_text() and "IEEE" in members.get_text()
    text = " ".join(pdf_text(tmp_path / "site" / PDF).split())
    assert text.index("STUDENTS") < text.index("MEMBERSHIPS") < text.index("INVITED TALKS") \
        < text.index("SKILLS") < text.index("AWARDS AND HONORS")
    assert "Member number: 12345" in text and "Example Institute" in text
    resume = json.loads((tmp_path / "site/cv/resume.json").read_text(encoding="utf-8"))
    assert resume["skills"] == [{"name": "Typesetting"}, {"name": "Proofs"}]
    assert "memberships" not in resume and "languages" not in resume
