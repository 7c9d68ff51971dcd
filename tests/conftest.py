"""Shared test helpers: small sites written from dicts into temporary folders, the real
command line run in a subprocess, the shipped sites built once per session, and the example's
papers and built pages read back without the project's code."""

from __future__ import annotations

import base64
import hashlib
import importlib.metadata
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from bs4 import BeautifulSoup

ROOT = Path(__file__).resolve().parent.parent
# Every `python build.py` a test starts keeps the package's bytecode, as a user's Python does:
# with PYTHONDONTWRITEBYTECODE set (as on some CI machines) each of the suite's several hundred
# starts would compile the package from source again (0.3 CPU-s each). The bytecode goes to a
# folder outside the checkout, which the tests leave as it was. Set here, before pytest-xdist
# starts its workers, so that they and every process they start inherit it.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
os.environ.setdefault("PYTHONPYCACHEPREFIX", str(
    Path(tempfile.gettempdir()) / "scholarsite-tests-bytecode"
    / hashlib.sha256(str(ROOT).encode()).hexdigest()[:12]))
# ../shared beside the checkout; a git worktree nested one level deeper finds it further up.
SHARED = next((p / "shared" for p in ROOT.parents if (p / "shared" / "data").is_dir()),
              ROOT.parent / "shared")
TEMPLATES = ROOT / "templates"
EXAMPLE = ROOT / "content"
BIBSITE = ROOT / "tests" / "fixtures" / "bibsite"
THEMESITE = ROOT / "tests" / "fixtures" / "themesite"
# Papers that are hard to export: specials, math, names, every type (tests/test_*_exports.py).
EXPORTSITE = ROOT / "tests" / "fixtures" / "exportsite"
DEMO = ROOT / "examples" / "demo"
HAVE_BIBTEX_READER = (ROOT / "scholarsite" / "reading" / "bib" / "bibtex.py").is_file()
needs_bibtex_reader = pytest.mark.skipif(
    not HAVE_BIBTEX_READER, reason="scholarsite/reading/bib/bibtex.py (the BibTeX reader) is not "
    "in this checkout yet")
# Property tests try a twelfth of their examples, so that the README's test command stays
# under 8 minutes on 2 cores; SCHOLARSITE_FULL_TESTS=1 tries all of them, and runs the other
# tests marked `full` in full (every Lighthouse page, every field in turn, every corpus site,
# every shipped site in the browser sweeps) and those marked `full(only=True)` at all (the
# fresh venvs of the quick start and the first publish, the slow robustness runs). CI runs those
# tests in full first (`pytest -m full`, .ci/run), then the README's command. CI=true itself
# changes no count: it makes a missing tool a failure rather than a skip (browser.require).
FULL_TESTS = os.environ.get("SCHOLARSITE_FULL_TESTS", "") not in ("", "0")
IN_CI = os.environ.get("CI", "").lower() == "true"


# The shipped sites a browser sweep opens in the README's test command: the richest three
# (every kind of page among them); all of them with SCHOLARSITE_FULL_TESTS=1.
QUICK_SITES = ("demo", "lab")  # the richest two; the example site in CI's first step


def sites_to_sweep(sites: dict) -> dict:
    """`sites` (conftest's), or in the quick run those of QUICK_SITES."""
    return sites if FULL_TESTS else {n: s for n, s in sites.items() if n in QUICK_SITES}


def examples(count: int) -> int:
    """How many examples a property test written for `count` tries in this run."""
    return count if FULL_TESTS else max(3, count // 12)


MARKS = "*†‡§¶#✉"
ET_AL = ("et al.", "et al", "others", "and others")

MINIMAL_CONFIG = """\
title: Ada Example
url: https://example.org/
author:
  name: Ada Example
publications:
  group_by: year
"""


def paper(title: str = "A Paper", date: str = "2024-05", *,
          authors: str = "Ada Example, Bob Builder", venue: str = "Conference on Examples",
          venue_short: str | None = "CoE", extra: str = "", abstract: str = "An abstract.") -> str:
    """A paper file: front matter (`extra` is more of it, whole lines; venue_short None
    leaves that line out), then the abstract."""
    short = "" if venue_short is None else f"venue_short: {venue_short}\n"
    return (f"---\ntitle: {title}\nauthors: [{authors}]\nvenue: {venue}\n{short}"
            f"date: {date}\n{extra}---\n{abstract}\n")


MINIMAL_PAPER = paper()


@dataclass
class Result:
    code: int
    out: str
    err: str


def write_files(root: Path, files: dict[str, str | bytes]) -> Path:
    """Write {relative path: text} below root (text is dedented); returns root."""
    for rel, data in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(data, bytes):
            path.write_bytes(data)
        else:
            path.write_text(textwrap.dedent(data), encoding="utf-8")
    return root


def run_cli(*args: str, cwd: Path | None = None, timeout: float = 120) -> Result:
    """`python build.py ARGS` as a user runs it, in a subprocess."""
    env = dict(os.environ, PYTHONIOENCODING="utf-8", PYTHONUTF8="1")
    proc = subprocess.run([sys.executable, str(ROOT / "build.py"), *args], cwd=cwd or ROOT,
                          capture_output=True, text=True, encoding="utf-8", timeout=timeout,
                          env=env)
    return Result(proc.returncode, proc.stdout, proc.stderr)


@pytest.fixture
def make_site(tmp_path):
    """make_site({path: text}) -> the content folder of a small site in a temporary folder.

    site.yaml and one paper are provided unless the dict gives its own (None removes one).
    """

    def make(files: dict[str, str | bytes | None] | None = None, base: bool = True) -> Path:
        content = tmp_path / "content"
        merged: dict[str, str | bytes | None] = {}
        if base:
            merged = {"site.yaml": MINIMAL_CONFIG, "publications/a-paper.md": MINIMAL_PAPER}
        merged.update(files or {})
        write_files(content, {k: v for k, v in merged.items() if v is not None})
        return content

    return make


def build_args(content: Path, output: Path | None = None, *extra: str,
               templates: Path = TEMPLATES) -> list[str]:
    output = output or content.parent / "site"
    return ["build", "--content", str(content), "--output", str(output),
            "--templates", str(templates), *extra]


def tree_bytes(folder: Path) -> dict[str, bytes]:
    """Every file below folder, by relative path: for comparing whole builds."""
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def cold_bytes(content: Path, templates: Path) -> dict[str, bytes]:
    """What a build with no cache and no earlier output makes of the same files (in the
    folder 'cold' beside `content`)."""
    from scholarsite.build import BuildOptions, build

    cold = content.parent / "cold"
    shutil.rmtree(cold, ignore_errors=True)
    build(BuildOptions(content, cold, templates, cache=False))
    return tree_bytes(cold)


def stamps(out: Path) -> dict[str, int]:
    """The modification time of every file below `out`, by relative path."""
    return {p.relative_to(out).as_posix(): p.stat().st_mtime_ns
            for p in out.rglob("*") if p.is_file()}


def set_front_line(path: Path, line: str) -> None:
    """Put `line` ('key: value') first in a paper file's front matter, in place of the
    line of that key, if any."""
    key = line.split(":")[0]
    rows = [row for row in path.read_text(encoding="utf-8").split("\n")
            if not row.startswith(f"{key}:")]
    rows.insert(1, line)
    path.write_text("\n".join(rows), encoding="utf-8")


def edit(path: Path, old: str, new: str, count: int = -1) -> Path:
    """Replace `old` (which must be there) by `new` in a text file, as a user saves it: every
    occurrence, or the first `count`. Returns the path."""
    text = path.read_text(encoding="utf-8")
    assert old in text, (path.name, old)
    path.write_text(text.replace(old, new, count), encoding="utf-8")
    return path


def copy_templates(root: Path, name: str = "templates") -> Path:
    """A copy of the shipped templates in root/name, for a test to change; returns it."""
    templates = root / name
    shutil.copytree(TEMPLATES, templates)
    return templates


# --- The shipped sites, built once per session; a browser ---------------------------------


def start_live_site(tmp_path: Path, files: dict[str, str | bytes],
                    template_edits: dict[str, tuple[str, str]] | None = None):
    """`serve`'s rebuilder over `files`, with its own copy of the shipped templates (with
    `template_edits`: template -> (old, new)), after its first build."""
    from scholarsite.build import BuildOptions
    from scholarsite.live.incremental import SiteBuilder

    content = write_files(tmp_path / "content", files)
    templates = copy_templates(tmp_path)
    for name, (old, new) in (template_edits or {}).items():
        edit(templates / name, old, new)
    builder = SiteBuilder(BuildOptions(content, tmp_path / "site", templates))
    outcome = builder.build()
    assert outcome.ok, outcome.errors
    return builder


def assert_same_as_cold_build(live) -> None:
    """What `live` (serve's rebuilder) has written is byte for byte what `python build.py
    build --no-cache` makes of the same content and templates in a fresh folder."""
    options = live.options
    cold = options.output_dir.parent / "cold"
    shutil.rmtree(cold, ignore_errors=True)
    result = run_cli(*build_args(options.content_dir, cold, "--no-cache",
                                 *(["--strict"] if options.strict else []),
                                 templates=options.templates_dir))
    assert result.code == 0, result.err
    assert tree_bytes(options.output_dir) == tree_bytes(cold)


def site_sources() -> list[tuple[str, Path]]:
    """Every site the project ships: the example site, a small site with what the example
    lacks, the BibTeX fixture once the BibTeX reader exists, and each demo site under
    examples/."""
    sources = [("example", EXAMPLE), ("themesite", THEMESITE)]
    if HAVE_BIBTEX_READER:
        sources.append(("bibsite", BIBSITE))
    examples = ROOT / "examples"
    if examples.is_dir():
        for folder in sorted(examples.iterdir()):
            for content in (folder / "content", folder):
                if (content / "site.yaml").is_file():
                    sources.append((folder.name, content))
                    break
    return sources


@pytest.fixture(scope="session")
def shipped(tmp_path_factory):
    """shipped(content) -> (site folder, Result): a shipped site built by `python build.py
    build` on first use, once for the whole session. Tests only read what it built."""
    done: dict[Path, tuple[Path, Result]] = {}

    def build(content: Path) -> tuple[Path, Result]:
        if content not in done:
            out = tmp_path_factory.mktemp(content.name) / "site"
            result = run_cli(*build_args(content, out))
            assert result.code == 0, f"{content}: {result.err}"
            done[content] = out, result
        return done[content]

    return build


@pytest.fixture(scope="session")
def example(shipped) -> Path:
    """The example site in content/, built."""
    return shipped(EXAMPLE)[0]


@pytest.fixture(scope="session")
def bibsite(shipped) -> Path:
    """The BibTeX fixture site, built."""
    return shipped(BIBSITE)[0]


@pytest.fixture(scope="session")
def exportsite(shipped) -> Path:
    """The fixture site of hard cases for exports, built."""
    return shipped(EXPORTSITE)[0]


@pytest.fixture(scope="session")
def demo(shipped) -> Path:
    """The demo site in examples/demo, built."""
    return shipped(DEMO)[0]


@pytest.fixture(scope="session")
def sites(shipped) -> dict[str, Path]:
    """Every shipped site, built, by name."""
    return {name: shipped(content)[0] for name, content in site_sources()}


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium (browser.launch_chromium), one for each module that asks."""
    from browser import launch_chromium  # browser.py imports this module

    with launch_chromium() as chromium:
        yield chromium


# --- Content and pages read back without the project's code ------------------------------


def read_front_matter(path: Path) -> dict:
    """A content file's front matter, as YAML reads it."""
    return yaml.safe_load(path.read_text(encoding="utf-8").split("---\n")[1])


def read_papers(content: Path) -> dict[str, dict]:
    """Each paper file's front matter and abstract (its body, spaces folded), by slug."""
    found = {}
    for path in sorted((content / "publications").glob("*.md")):
        _, head, body = path.read_text(encoding="utf-8").split("---\n", 2)
        found[path.stem] = {**yaml.safe_load(head), "abstract": " ".join(body.split())}
    return found


@pytest.fixture(scope="session")
def papers() -> dict[str, dict]:
    """The example's papers as their files say (read_papers). Tests only read it."""
    return read_papers(EXAMPLE)


def names_of(authors: list[str]) -> list[str]:
    """Author names without their markers and without 'et al.'."""
    return [a.rstrip(MARKS).strip() for a in authors if a.lower() not in ET_AL]


def soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def text_of(node) -> str:
    """A node's text with its white space folded, as a reader sees it."""
    return " ".join(node.get_text(" ").split())


def read_download(site: Path, slug: str, suffix: str) -> str:
    """What a reader downloads from a paper's page as `<slug><suffix>` (its BibTeX or
    RIS): the text the link carries, as a browser saves it."""
    page = BeautifulSoup((site / "publications" / slug / "index.html").read_text(
        encoding="utf-8"), "html.parser")
    [link] = page.select(f'a[download="{slug}{suffix}"]')
    head, _, data = link["href"].partition(",")
    assert head.startswith("data:") and head.endswith(";charset=utf-8;base64"), head
    return base64.b64decode(data, validate=True).decode("utf-8")


# --- How the tests share the cores (pytest-xdist, --dist loadgroup in pyproject.toml) ----

# Lighthouse's runs take a minute or two of a worker's time: sent out first, with the
# property tests (many builds each), so that no worker is left running one of them alone
# at the end while the other waits.
LONGEST_FIRST = ("test_lighthouse.py",)


def pytest_xdist_auto_num_workers(config) -> int:
    """`-n auto`: a worker more than the machine has cores. A share of the tests' time is
    spent waiting (on a browser, a server, pip), which another worker's builds fill: on 2
    cores, 3 workers left the processors idle 2% of the run rather than 7% (7 min 23 s
    rather than 7 min 52 s)."""
    return (os.cpu_count() or 1) + 1


def is_property_test(item) -> bool:
    return bool(getattr(getattr(item, "obj", None), "is_hypothesis_test", False))


def runs_long(item) -> bool:
    return item.path.name in LONGEST_FIRST or is_property_test(item)


def shares_module_fixture(item) -> bool:
    """Whether the test uses a module-scoped fixture (a wheel and a venv, LaTeX runs, a
    migrated site, a browser)."""
    info = getattr(item, "_fixtureinfo", None)
    return info is not None and any(
        defs and defs[-1].scope == "module" for defs in info.name2fixturedefs.values())


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items) -> None:
    """Each module whose tests share a module-scoped fixture is one group of work for
    pytest-xdist (which sends the larger groups out first): its fixture is then made once in
    a run, not once on each worker that happens to run one of its tests. The long single
    tests go first among the rest. (Run without workers, only the order changes.)"""
    for item in items:
        if shares_module_fixture(item):
            item.add_marker(pytest.mark.xdist_group(item.path.name))
        if is_property_test(item):  # `-m full` selects them (before the mark plugin does)
            item.add_marker(pytest.mark.full)
    if not FULL_TESTS:  # `full(only=True)`: CI's first step runs them, the quick run not
        only_full = [item for item in items if any(
            mark.kwargs.get("only") for mark in item.iter_markers("full"))]
        if only_full:
            config.hook.pytest_deselected(items=only_full)
            items[:] = [item for item in items if item not in only_full]
    items.sort(key=lambda item: not runs_long(item))


def pytest_configure(config) -> None:
    """pytest 9.2 keeps a test's id where pytest-xdist 3.8 cannot add a group to it, so
    `--dist loadgroup` would group nothing and each worker would make every module's shared
    fixture again: said at once, rather than a silently slower run."""
    xdist = importlib.metadata.version("pytest-xdist") if config.pluginmanager.has_plugin(
        "xdist") else ""
    if getattr(config.option, "dist", "no") == "loadgroup" and pytest.version_tuple[:2] >= (
            9, 2) and tuple(map(int, xdist.split(".")[:2])) <= (3, 8):
        raise pytest.UsageError(f"pytest {pytest.__version__} with pytest-xdist {xdist} does "
                                "not group tests: pip install -e '.[test]' installs versions "
                                "that do")


# --- What the tests need from npm ----------------------------------------------------------


def pytest_sessionstart(session) -> None:
    """The npm packages tests/package-lock.json pins (axe-core, JSON Resume's schema, ...),
    installed into tests/node_modules (git-ignored) when they are missing or older than the
    lock, so the README's one test command needs no step of its own. Without npm, the tests
    that need them skip. Only the controlling process installs, never a pytest-xdist worker."""
    if hasattr(session.config, "workerinput") or not shutil.which("npm"):
        return
    tests = ROOT / "tests"
    installed = tests / "node_modules" / ".package-lock.json"
    lock = tests / "package-lock.json"
    if installed.is_file() and installed.stat().st_mtime >= lock.stat().st_mtime:
        return
    subprocess.run(["npm", "ci", "--prefix", str(tests), "--no-audit", "--no-fund",
                    "--loglevel=error"], check=False, timeout=600)
