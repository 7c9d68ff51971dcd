"""Jupyter notebooks as posts (content/posts/x.ipynb), through the CLI: the demo's notebook
page (math as MathML, code highlighted as fenced code is, a table, a picture published as a
file, an error), a notebook that does not parse, outputs that are capped or outside HTML,
and a site without the `notebooks` extra."""

from __future__ import annotations

import base64
import io
import json
import os
import re
import subprocess
import sys

from PIL import Image

from conftest import DEMO, MINIMAL_CONFIG, ROOT, build_args, run_cli, soup

POST = "posts/simulating-a-queue"


def notebook(cells: list[dict], metadata: dict | None = None) -> str:
    """A notebook in nbformat 4.5, its cells given ids."""
    for i, cell in enumerate(cells):
        cell.setdefault("id", f"c{i}")
        cell.setdefault("metadata", {})
        if cell["cell_type"] == "code":
            cell.setdefault("execution_count", None)
            cell.setdefault("outputs", [])
    return json.dumps({"cells": cells, "metadata": metadata or {}, "nbformat": 4,
                       "nbformat_minor": 5}, indent=1)


def code(source: str, *outputs: dict) -> dict:
    return {"cell_type": "code", "source": source, "outputs": list(outputs)}


def display(data: dict) -> dict:
    return {"output_type": "display_data", "metadata": {}, "data": data}


def test_demo_notebook_post_is_rendered_in_the_theme(demo):
    page = soup(demo / POST / "index.html")
    body = page.select_one(".item-body")
    # The first heading is the title, shown once; fields from metadata.scholarsite.
    assert page.h1.get_text() == "Simulating a queue" and body.find("h1") is None
    assert page.select_one("time")["datetime"] == "2025-07-14"
    assert [a.get_text() for a in page.select(".tags a")] == ["scheduling", "math"]
    # Markdown cells through the site's converter: math as MathML, headings with ids.
    assert body.select("math[display=block] mfrac") and body.select_one("h2#a-table")
    # Code as the site's fenced code: Pygments' classes, copy button's marker.
    pre = body.select_one(".nb-code pre.highlight[data-copy=code] code.language-python")
    assert pre.select_one("span.k").get_text() == "def"
    assert body.select_one(".nb-stream").get_text() == "[1.0, 4.0, 9.0]\n"
    # The data frame's table, its style element and attributes gone.
    table = body.select_one(".nb-html table")
    assert [td.get_text() for td in table.select("tbody tr")[-1].select("td")] == ["0.9", "9.00"]
    assert not [th for th in table.select("th") if not th.get_text()]  # axe: no empty header
    assert not body.select(".nb-html style, .nb-html [style], .nb-html [class]")
    # The plot: a file beside the page, not base64 in it, with its size and alt text.
    img = body.select_one(".nb-picture img")
    assert img["src"] == "../../posts/simulating-a-queue/cell6-1.png" and img["alt"]
    with Image.open(demo / POST / "cell6-1.png") as picture:
        assert picture.format == "PNG" and picture.size == (int(img["width"]), int(img["height"]))
    assert "base64" not in (demo / POST / "index.html").read_text(encoding="utf-8")
    # The error as an output, its ANSI colours taken out.
    error = body.select_one(".nb-error").get_text()
    assert "ValueError: rho must be below 1" in error and "\x1b" not in error and "[0;31m" not in error
    # The notebook itself, published and linked.
    link = page.find("a", string="Download the notebook")
    assert link["href"] == "../../posts/simulating-a-queue/simulating-a-queue.ipynb"
    assert (demo / POST / "simulating-a-queue.ipynb").read_bytes() == \
        (DEMO / "posts/simulating-a-queue.ipynb").read_bytes()


def test_notebook_that_does_not_parse_is_an_error_at_its_path(make_site):
    content = make_site({
        "posts/broken.ipynb": '{"cells": [\n  {"cell_type": "code",,\n',
        "posts/not-a-notebook.ipynb": json.dumps({"cells": "no", "nbformat": 4}),
        "posts/no-date.ipynb": notebook([{"cell_type": "markdown", "source": "# Hi\n\nText"}]),
    })
    result = run_cli(*build_args(content))
    assert result.code == 1, result.err
    posts = (content / "posts").as_posix()
    assert f"{posts}/broken.ipynb:2: error: this notebook is not JSON" in result.err
    assert f"{posts}/not-a-notebook.ipynb: error: this is not a notebook nbformat can read" \
        in result.err
    assert f"{posts}/no-date.ipynb:1: error:" in result.err and "'date'" in result.err
    assert "Traceback" not in result.err


def hostile_notebook() -> str:
    """One notebook with every output a page must not take as it is."""
    png = io.BytesIO()
    Image.new("RGB", (3, 2), "red").save(png, format="PNG")
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4" onload="alert(5)">'
           '<script>alert(1)</script><a href="javascript:alert(6)"><rect width="2" height="2"/>'
           '</a><foreignObject><p>x</p></foreignObject></svg>')
    return notebook([
        {"cell_type": "markdown", "source": "Some text, no heading."},
        code("print('x' * 300_000)",
             {"output_type": "stream", "name": "stdout", "text": "x" * 300_000}),
        code("many()", *[{"output_type": "stream", "name": "stderr" if i % 2 else "stdout",
                          "text": f"line {i}\n"} for i in range(60)]),
        code("frame()", {"output_type": "execute_result", "execution_count": 1,
                         "metadata": {}, "data": {"text/html": (
                             '<table onclick="alert(1)"><tr><td style="position:fixed">1'
                             '<script>alert(2)</script><a href="javascript:x">a</a>'
                             '<img src=x onerror=alert(3)></td></tr></table>'),
                             "text/plain": "frame"}}),
        code("pictures()", display({"image/png": base64.b64encode(png.getvalue()).decode(),
                                    "text/plain": "<Figure size 3x2>"}),
             display({"image/svg+xml": svg}),
             display({"application/vnd.jupyter.widget-view+json": {"model_id": "x"},
                      "application/javascript": "alert(4)"})),
    ], {"scholarsite": {"title": "Hostile outputs", "date": "2024-03-01",
                        "colab": "https://colab.research.google.com/github/ada/notes/blob/main/h.ipynb"}})


def test_notebook_outputs_are_capped_and_outside_html_is_cleaned(make_site):
    content = make_site({
        "posts/hostile.ipynb": hostile_notebook(),
        # As older Jupyter wrote it: cells without ids (nbformat warns, the build does not).
        "posts/sibling.ipynb": json.dumps({"cells": [{"cell_type": "markdown", "metadata": {},
                                                      "source": "Text"}], "metadata": {},
                                           "nbformat": 4, "nbformat_minor": 5}),
        "posts/sibling.yaml": "title: From its YAML\ndate: 2024-02-01\ntags: [yaml]\n",
        "projects/simulator.ipynb": notebook([{"cell_type": "markdown", "source": "# Sim"}],
                                             {"scholarsite": {"summary": "A project."}}),
    })
    result = run_cli(*build_args(content))
    assert result.code == 0 and "arning" not in result.err, result.err
    site = content.parent / "site"
    page_file = site / "posts/hostile/index.html"
    assert page_file.stat().st_size < 200_000  # 300 kB of output is not 300 kB of page
    page = soup(page_file)
    body = page.select_one(".item-body")
    cuts = [p.get_text() for p in body.select(".nb-cut")]
    assert "Cut here: 280,000 more characters of this output are in the notebook." in cuts
    assert any("more outputs of this cell are" in cut for cut in cuts)
    # Outside HTML: the table's cell text only; no handler, style, script, link or image.
    cell = body.select_one(".nb-html table td")
    assert cell.get_text() == "1a" and not cell.attrs
    assert not body.select(".nb-html script, .nb-html a, .nb-html img, .nb-html [onclick]")
    # Pictures as files; an SVG only ever as <img>, in which no script runs.
    pictures = [img["src"].rsplit("/", 1)[1] for img in body.select(".nb-picture img")]
    assert pictures == ["cell5-1.png", "cell5-2.svg"]
    assert all((site / "posts/hostile" / name).is_file() for name in pictures)
    # The SVG file can be opened by itself too: nothing in it may run.
    published = (site / "posts/hostile/cell5-2.svg").read_text(encoding="utf-8")
    assert "<rect" in published and not re.search(r"alert|script|onload|foreignObject",
                                                  published)
    assert body.select(".nb-picture img")[0]["alt"] == "A figure the code made"
    assert not page.select("main svg script") and "alert(4)" not in str(page)
    assert page.find("a", string="Open in Colab")["href"].startswith("https://colab.")
    # A sibling x.yaml gives the fields.
    sibling = soup(site / "posts/sibling/index.html")
    assert sibling.h1.get_text() == "From its YAML" and sibling.select_one(".tags a")
    # A project may be a notebook too.
    project = soup(site / "projects/simulator/index.html")
    assert project.h1.get_text() == "Sim" and (site / "projects/simulator/simulator.ipynb").is_file()


def test_notebook_without_the_extra_names_it(make_site, tmp_path):
    """Without nbformat a notebook is one line naming the extra (a package folder that
    fails to import stands in for the missing one)."""
    content = make_site({"posts/n.ipynb": notebook([code("1")])})
    blocker = tmp_path / "blocked" / "nbformat"
    blocker.mkdir(parents=True)
    (blocker / "__init__.py").write_text("raise ImportError('not installed')\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(blocker.parent), str(ROOT)]))
    proc = subprocess.run([sys.executable, str(ROOT / "build.py"), *build_args(content)],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines()[:-1] == [
        f"{(content / 'posts/n.ipynb').as_posix()}: error: this is a Jupyter notebook, and "
        "reading one needs nbformat and nbconvert, which are not installed: "
        "pip install 'scholarsite[notebooks]'"]


PNG_2x1 = base64.b64encode(bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000020000000108060000007bbcd8f6"
    "0000000d49444154789c63f8cfc0f01f0005000101ff89993d1d0000000049454e44ae426082")).decode()


def test_notebook_beside_a_paper_is_on_its_page_and_a_stray_one_is_warned_of(make_site):
    """publications/x.ipynb beside the paper x (a Markdown file, or a BibTeX entry of key
    x) is shown on x's page, its picture and file published beside it, as is
    projects/x.ipynb beside projects/x.md on the project's page; a notebook beside no
    paper, or in a folder that reads Markdown only, is a warning, never dropped in silence."""
    cells = [{"cell_type": "markdown", "source": "# Replication\n\nThe model is $a^2$."},
             code("print(6 * 7)", {"output_type": "stream", "name": "stdout", "text": "42\n"}),
             code("plot()", display({"image/png": PNG_2x1, "text/plain": "<Figure>"}))]
    content = make_site({
        "site.yaml": MINIMAL_CONFIG + "languages: [en, de]\n",
        "publications/a-paper.ipynb": notebook(cells),
        "publications/more.bib": "@article{kernel2024,\n  title = {Kernels},\n  author = "
                                 "{Ada Example},\n  journal = {J},\n  year = {2024}\n}\n",
        "publications/notebooks/kernel2024.ipynb": notebook([code("1 + 1")]),
        "publications/a-papr.ipynb": notebook(cells),  # misspelt
        "publications/data.ipynb": notebook(cells),  # beside nothing
        # Beside a project's text, shown on its page.
        "projects/robots.md": "---\ntitle: Robots\nsummary: Small robots.\n---\nWe build robots.\n",
        "projects/robots.ipynb": notebook(cells),
        "posts/later.md": "---\ntitle: Later\ndate: 2024-01-01\ndraft: true\n---\nNot yet.\n",
        "posts/later.ipynb": notebook(cells),  # a draft's: not published
        "posts/solo.ipynb": notebook(cells, {"scholarsite": {"date": "2024-02-01"}}),  # a post
        # In folders that read Markdown only.
        "talks/demo.ipynb": notebook(cells), "people/lab/ada.ipynb": notebook(cells),
    })
    out = content.parent / "site"
    result = run_cli(*build_args(content, out))
    assert result.code == 0, result.err
    warnings = [line for line in result.err.splitlines() if ": warning: " in line]
    assert len(warnings) == 4, result.err
    assert "publications/a-papr.ipynb: warning: this notebook is not published: there is " \
        "no paper 'a-papr' for it to be shown with; did you mean a-paper.ipynb?" in result.err
    assert "publications/data.ipynb: warning:" in result.err
    for path, folder in (("talks/demo.ipynb", "talks"), ("people/lab/ada.ipynb", "people")):
        assert f"{path}: warning: this notebook is not published: {folder}/ reads Markdown " \
            "files only; a notebook is a post (posts/)" in result.err, result.err
    page = soup(out / "publications" / "a-paper" / "index.html")
    section = page.select_one("section[aria-labelledby=notebook]")
    assert section.h2.get_text() == "Replication" and section.select_one("math")
    assert section.select_one(".nb-stream").get_text() == "42\n"
    img = section.select_one(".nb-picture img")
    assert img["src"] == "../../publications/a-paper/cell3-1.png"
    assert (out / "publications" / "a-paper" / "cell3-1.png").is_file()
    link = section.find("a", string="Download the notebook")
    assert link["href"] == "../../publications/a-paper/a-paper.ipynb"
    assert (out / "publications" / "a-paper" / "a-paper.ipynb").read_bytes() == \
        (content / "publications" / "a-paper.ipynb").read_bytes()
    kernel = soup(out / "publications" / "kernel2024" / "index.html")
    assert kernel.select_one("section[aria-labelledby=notebook] h2").get_text() == "Notebook"
    assert (out / "publications" / "kernel2024" / "kernel2024.ipynb").is_file()
    assert not (out / "publications" / "data").exists()
    project = soup(out / "projects" / "robots" / "index.html")
    assert project.select_one(".item-body").get_text().strip() == "We build robots."
    section = project.select_one("section[aria-labelledby=notebook]")
    assert section.h2.get_text() == "Replication" and section.select_one(".nb-code [data-copy]")
    assert project.select_one('script[src$="copy.js"]')  # the notebook's code has a copy button
    assert section.select_one(".nb-picture img")["src"] == "../../projects/robots/cell3-1.png"
    assert (out / "projects" / "robots" / "robots.ipynb").is_file()
    assert [p.name for p in (out / "projects").iterdir() if p.is_dir()] == ["robots"]  # one
    assert not (out / "posts" / "later").exists()
    # A language's pages link the pictures and the file beside the default's page.
    for page_file in (out / "de/publications/a-paper/index.html",
                      out / "de/projects/robots/index.html", out / "de/posts/solo/index.html"):
        shown = soup(page_file)
        for url in (shown.select_one(".nb-picture img")["src"],
                    shown.select_one('a[href$=".ipynb"]')["href"]):  # in the page's language
            assert (page_file.parent / url).resolve().is_file(), (page_file, url)
