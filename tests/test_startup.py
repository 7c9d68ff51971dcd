"""Start-up (issue 36, item 4): a build imports a library when the site first needs it, so
that before it reads its first content file it has imported none of Jinja, Babel,
bibtexparser, pylatexenc, Python-Markdown or Pillow (docs/performance.md, "Start-up").
What is imported is seen from inside a real `python build.py` run: an audit hook notes
the libraries loaded when the first file of the content folder is opened."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conftest import ROOT, paper

# Run as the child interpreter: build.py as `python build.py build ...` runs it (it ends
# with os._exit), with the hook, which prints what it saw at the first read to stderr.
WATCHED = r"""
import json, os, runpy, sys
content = os.path.abspath(sys.argv[1])
HEAVY = ("jinja2", "babel", "bibtexparser", "pylatexenc", "markdown", "PIL")
seen = []
def note_open(event, args):
    if event != "open" or seen or not isinstance(args[0], (str, bytes, os.PathLike)):
        return
    if os.path.abspath(os.fsdecode(args[0])).startswith(content + os.sep):
        seen.append(sorted(m for m in HEAVY if m in sys.modules))
        print("first read:", json.dumps(seen[0]), file=sys.stderr, flush=True)
sys.addaudithook(note_open)
build_py = sys.argv[2]
sys.argv = [build_py, "build", "--content", sys.argv[1], "--output", sys.argv[3]]
runpy.run_path(build_py, run_name="__main__")
"""

BIB = """\
@inproceedings{lovelace2024,
  author = {Ada Example and Bob Builder},
  title = {A Paper in BibTeX},
  booktitle = {Conference on Examples},
  year = {2024},
}
"""


def test_a_build_imports_its_libraries_after_reading_begins(make_site, tmp_path):
    content = make_site({
        "site.yaml": "title: Ada Example\nurl: https://example.org/\nauthor:\n"
                     "  name: Ada Example\nlanguage: de\n",
        "publications/a-paper.md": paper(abstract="Some *emphasis* in the abstract."),
        "publications/refs.bib": BIB,
    })
    out = tmp_path / "out" / "site"
    proc = subprocess.run([sys.executable, "-c", WATCHED, str(content), str(ROOT / "build.py"),
                           str(out)], cwd=tmp_path, capture_output=True, text=True,
                          encoding="utf-8", timeout=120)
    assert proc.returncode == 0, proc.stderr
    seen = [line for line in proc.stderr.splitlines() if line.startswith("first read: ")]
    assert seen == ["first read: []"], proc.stderr
    # Each library came when the site needed it: the site is whole.
    page = (out / "publications" / "index.html").read_text(encoding="utf-8")
    assert "A Paper in BibTeX" in page and "<em>emphasis</em>" in page
    assert 'lang="de"' in (out / "index.html").read_text(encoding="utf-8")
