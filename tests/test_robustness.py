"""Bad input never crashes: any front matter or site.yaml gives a site or `path:line: error`,
never a traceback, a hang, or partial output. Hostile fields come out escaped."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from xml.etree import ElementTree

import pytest
from bs4 import BeautifulSoup
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import examples, MINIMAL_CONFIG, MINIMAL_PAPER, ROOT, TEMPLATES, build_args, run_cli, \
    tree_bytes, write_files

from scholarsite.output.cache import CACHE_DIR
from scholarsite.build import BuildOptions, build
from scholarsite.diagnostics import ContentError

DIAG = re.compile(r"^[^\n]+:\d+: (error|warning): .+$")
FIELDS = ["title", "authors", "venue", "venue_short", "date", "type", "tier", "links",
          "location", "selected", "topics", "volume", "pages", "citation"]
yaml_scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True),
                         st.text(max_size=30))
yaml_values = st.recursive(yaml_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(FIELDS + ["pdf", "x"]), inner,
                                                 max_size=4)), max_leaves=12)


def build_in_temp(files: dict[str, str | bytes]) -> tuple[bool, list[str]]:
    """Build a site in a fresh temporary folder, in process: (built?, diagnostic lines)."""
    with tempfile.TemporaryDirectory() as tmp:
        content = write_files(Path(tmp) / "content", files)
        out = Path(tmp) / "site"
        try:
            build(BuildOptions(content, out, TEMPLATES))
        except ContentError as exc:
            lines = [str(d) for d in exc.diagnostics]
            assert lines and all(DIAG.match(line) for line in lines), lines
            assert not out.exists(), "a failed build left output behind"
            assert [p.name for p in Path(tmp).iterdir()] == ["content"]
            return False, lines
        assert (out / "index.html").is_file()
        return True, []


def yaml_dump(data: dict) -> str:
    import yaml

    return yaml.safe_dump(data, allow_unicode=True)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.sampled_from(FIELDS), yaml_values, max_size=8))
def test_any_front_matter_gives_a_site_or_errors(fields):
    build_in_temp({"site.yaml": MINIMAL_CONFIG,
                   "publications/p.md": "---\n" + yaml_dump(fields) + "---\nBody.\n"})


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=200))
def test_any_text_as_a_paper_file(text):
    build_in_temp({"site.yaml": MINIMAL_CONFIG, "publications/p.md": text})


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.sampled_from(["title", "url", "author", "publications", "language",
                                        "description", "cname", "extra"]),
                       yaml_values, max_size=6))
def test_any_site_yaml(config):
    build_in_temp({"site.yaml": yaml_dump(config), "publications/a.md": MINIMAL_PAPER})


@pytest.mark.parametrize("text", [
    "---\ntitle: " + "[" * 20000 + "]" * 20000 + "\n---\n",
    "---\ntitle: " + "{a: " * 3000 + "1" + "}" * 3000 + "\n---\n",
    # An alias bomb: a billion references if expanded.
    "---\n" + "".join(f"{c}: &{c} [{', '.join([f'*{p}'] * 9 if p else ['x'] * 9)}]\n"
                      for p, c in zip([""] + list("abcdefgh"), "abcdefghi"))
    + "title: *i\nauthors: *i\n---\n",
    "---\ntitle: T\n" + "x" * 5_000_000 + "\n---\n",
    "\ufeff---\ntitle: T\nauthors: [A]\nvenue: V\ndate: 2020\n---\n\x00\x01",
])
def test_hostile_documents_end_quickly(text):
    start = time.perf_counter()
    build_in_temp({"site.yaml": MINIMAL_CONFIG, "publications/p.md": text})
    assert time.perf_counter() - start < 30  # bounded, not a hang


HOSTILE = '</script><script>alert(1)</script>"><img src=x onerror=alert(1)>&amp;'


def test_every_field_is_escaped(make_site, tmp_path):
    quoted = HOSTILE.replace("'", "''")
    content = make_site({
        "site.yaml": MINIMAL_CONFIG.replace("Ada Example", f"'Ada {quoted}'", 1)
        + f"description: '{quoted}'\n",
        "publications/evil.md": f"""\
            ---
            title: '{quoted}'
            authors: ['{quoted}*', 'Ada Example']
            venue: '{quoted}'
            venue_short: '{quoted}'
            location: '{quoted}'
            tier: '{quoted}'
            category: '{quoted}'
            note: '{quoted}'
            award: '{quoted}'
            date: 2024
            links:
              pdf: 'https://example.org/a.pdf?q="><script>alert(1)</script>'
            ---
            """})
    out = tmp_path / "site"
    result = run_cli(*build_args(content, out))
    assert result.code == 0, result.err
    for path in sorted(out.rglob("*.html")):
        page = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
        for script in page.find_all("script"):
            if script.get("type") in ("application/ld+json", "application/json"):
                # Data, not code (JSON-LD, the search index): the text may be there, but only
                # inside JSON strings, with no '<' that could end the element.
                json.loads(script.string)
                assert "<" not in script.string, path
                continue
            assert "alert(1)" not in (script.string or ""), path
            assert not script.get("src", "").startswith(("javascript", "x"))
        assert not page.find("img", src="x"), path
        for tag in page.find_all(True):
            assert not any(attr.startswith("on") for attr in tag.attrs), (path, tag)
    for path in (out / "sitemap.xml", out / "robots.txt"):
        assert "<script>" not in path.read_text(encoding="utf-8")
    # The feed is well-formed XML whose text holds the hostile string as text, not markup.
    import xml.etree.ElementTree as ET

    feed = ET.parse(out / "feed.xml").getroot()
    atom = "{http://www.w3.org/2005/Atom}"
    titles = [e.findtext(f"{atom}title") for e in feed.iter(f"{atom}entry")]
    assert any("</script><script>alert(1)</script>" in (t or "") for t in titles)
    assert not list(feed.iter("script")) and not list(feed.iter("img"))


def test_symlinks_leaving_the_content_folder_are_refused(make_site, tmp_path):
    secret = tmp_path / "secret.md"
    secret.write_text(MINIMAL_PAPER, encoding="utf-8")
    content = make_site()
    try:
        (content / "publications" / "link.md").symlink_to(secret)
        (content / "files").mkdir()
        (content / "files" / "passwd").symlink_to(tmp_path / "secret.md")
    except OSError:
        pytest.skip("symlinks are not available here")
    result = run_cli(*build_args(content))
    assert result.code == 1 and "Traceback" not in result.err
    assert "link.md" in result.err and "passwd" in result.err
    assert "outside the content folder" in result.err


@pytest.mark.full(only=True)  # slow and seldom moved: CI's first step runs it
def test_killed_build_leaves_previous_site_intact(tmp_path):
    """SIGKILL in the middle of writing: the old site is untouched, the next build recovers."""
    if not hasattr(signal, "SIGKILL"):
        pytest.skip("no SIGKILL on this system")
    content = tmp_path / "content"
    files = {"site.yaml": MINIMAL_CONFIG}
    for i in range(1500):
        files[f"publications/p{i}.md"] = MINIMAL_PAPER.replace("A Paper", f"Paper {i}")
    write_files(content, files)
    out = tmp_path / "site"
    assert run_cli(*build_args(content, out)).code == 0
    before = tree_bytes(out)
    (content / "publications" / "p0.md").write_text(
        MINIMAL_PAPER.replace("A Paper", "Changed"), encoding="utf-8")
    killed = False
    for _ in range(5):  # kill it while the staging folder is being written
        proc = subprocess.Popen([sys.executable, str(ROOT / "build.py"), *build_args(content, out)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:
            if any(p.name.startswith(".site.tmp-") for p in tmp_path.iterdir()):
                os.kill(proc.pid, signal.SIGKILL)
                killed = True
                break
            time.sleep(0.002)
        proc.wait()
        if killed:
            break
    assert killed, "the build finished before it could be killed"
    assert tree_bytes(out) == before
    result = run_cli(*build_args(content, out))
    assert result.code == 0
    # Nothing left over beside the site but the build cache.
    assert sorted(p.name for p in tmp_path.iterdir()) == [CACHE_DIR, ".site.images", "content", "site"]
    assert "Changed" in (out / "publications" / "p0" / "index.html").read_text(encoding="utf-8")


bib_text = st.text(alphabet=st.sampled_from(list("@{}=,\"#\\%~$^_ &'`-abcdeéü 0129\n")),
                   max_size=300)
bib_values = st.text(alphabet=st.sampled_from(list("{}\\\"'#%~$^_&@,=abcXYZ éü 09-\n")),
                     max_size=40)


@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bib_text)
def test_any_text_as_a_bib_file(text):
    build_in_temp({"site.yaml": MINIMAL_CONFIG, "publications/refs.bib": text})


@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["article", "inproceedings", "misc", "techreport", "book", "weird"]),
       st.dictionaries(st.sampled_from(["title", "author", "year", "month", "journal",
                                        "booktitle", "pages", "doi", "url", "pdf", "abstract",
                                        "abbr", "eprint", "crossref", "selected", "tier"]),
                       bib_values, max_size=8))
def test_any_bib_entry(kind, fields):
    body = ",\n".join(f"  {k} = {{{v}}}" for k, v in fields.items())
    build_in_temp({"site.yaml": MINIMAL_CONFIG,
                   "publications/refs.bib": f"@{kind}{{key1,\n{body}\n}}\n"})


@pytest.mark.parametrize("text", [
    "@article{k, title = " + "{" * 50000 + "x" + "}" * 50000 + "}\n",
    "@article{k, title = " + "{" * 50000 + "\n",
    "@string{a = \"x\"}\n" + "".join(f"@string{{a{i} = a{i - 1 if i else ''} # a}}\n"
                                      for i in range(2000)),
    "@article{k, title={T}, author={" + " and ".join(["A B"] * 20000) + "}, year=2020}\n",
])
def test_hostile_bib_files_end_quickly(text):
    start = time.perf_counter()
    build_in_temp({"site.yaml": MINIMAL_CONFIG, "publications/refs.bib": text})
    assert time.perf_counter() - start < 60  # bounded, not a hang


def test_bibtex_text_is_untrusted(make_site, tmp_path):
    """HTML in a BibTeX abstract or title is shown as text, never run."""
    content = make_site({"publications/refs.bib": """\
        @inproceedings{evil,
          title = {<script>alert(1)</script>},
          author = {Mallory <img src=x onerror=alert(1)>},
          booktitle = {Conf <b>bold</b>},
          year = {2024},
          abstract = {<script>alert(2)</script> <a href="javascript:alert(3)">x</a>}
        }
        """})
    out = tmp_path / "site"
    result = run_cli(*build_args(content, out))
    assert result.code == 0, result.err
    page = BeautifulSoup((out / "publications" / "evil" / "index.html").read_text(
        encoding="utf-8"), "html.parser")
    assert "<script>alert(1)</script>" in page.h1.get_text()
    assert not page.find("b") and not page.find("img", src="x")
    assert not page.find("a", href=re.compile("^javascript", re.I))
    for script in page.find_all("script"):
        assert "alert(" not in (script.string or "") or script.get("type") == "application/ld+json"


def test_an_email_autolink_in_any_text_builds_and_checks(make_site, tmp_path):
    """`<ann@example.org>` in a paper's abstract or the home page is a mailto link, not a
    control-character error (issue 33, class 11), and the posts feed stays XML."""
    content = make_site({
        "index.md": "Hello.\n\nWrite to <ann@example.org>.\n",
        "publications/p.md": "---\ntitle: P\nauthors: [Ann Lee]\ndate: 2020-01-01\nvenue: J\n"
                             "---\n\nLine one.\n\nData from <ann@example.org> on request.\n",
        "posts/hello.md": "---\ntitle: Hello\ndate: 2021-01-01\n---\n\nMail <ann@example.org>.\n",
    })
    out = tmp_path / "site"
    built = run_cli(*build_args(content, out))
    assert built.code == 0 and "warning" not in built.err, built.err
    page = (out / "publications" / "p" / "index.html").read_text(encoding="utf-8")
    assert '<a href="mailto:ann@example.org">' in page
    for feed in out.rglob("*.xml"):
        ElementTree.parse(feed)  # raises on a control character or a stray placeholder
    checked = run_cli("check", "--content", str(content), "--output", str(out))
    assert checked.code == 0, checked.out + checked.err
