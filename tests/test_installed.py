"""scholarsite as a user gets it: a wheel built from this checkout, installed (not editable)
into a fresh virtual environment with its dependencies, and its `scholarsite` command run
in folders that hold nothing of this repository: `new`, `build`, `check`, `serve` (over
HTTP), `deploy` (to a bare git repository), a site's own templates over the built-in theme.
An editable install is checked too.

Needs the package index (for the build backend and the dependencies), as the README's
install command does. The wheel and its environment are made once for the module.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path
from urllib.error import HTTPError, URLError
from urllib.request import ProxyHandler, build_opener

import pytest
import yaml

from conftest import ROOT, write_files

# What a wheel is built from (pyproject.toml maps templates/ to scholarsite/theme/).
SOURCES = ("pyproject.toml", "README.md", "LICENSE", "scholarsite", "templates")
VERSION = re.search(r'^version = "(.+)"', (ROOT / "pyproject.toml").read_text("utf-8"),
                    re.M).group(1)
VENDORED = f"vendor/scholarsite-{VERSION}-py3-none-any.whl"  # the wheel a new site carries
STARTER_FILES = {
    ".github/workflows/pages.yml", ".github/workflows/update.yml", ".gitignore", "README.md",
    "requirements.txt", ".scholarsite-starter.json", VENDORED,
    "content/site.yaml", "content/index.md", "content/publications/example-paper-2025.md",
    "content/news/2025-01-site-launched.md"}
BANNER = '<p class="banner">My own home page</p>'
OPENER = build_opener(ProxyHandler({}))  # 127.0.0.1 only, whatever the environment says


def make_clean_env() -> dict[str, str]:
    """The environment, less what would put this checkout on the path."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP")}
    return dict(env, PYTHONIOENCODING="utf-8", PIP_DISABLE_PIP_VERSION_CHECK="1")


def run(args: list[str], cwd: Path, check: bool = True) -> subprocess.CompletedProcess:
    result = subprocess.run(args, cwd=cwd, env=make_clean_env(), capture_output=True, text=True,
                            encoding="utf-8", timeout=600)
    if check:
        assert result.returncode == 0, f"{args}:\n{result.stdout}\n{result.stderr}"
    return result


def copy_sources(target: Path) -> Path:
    target.mkdir(parents=True)
    skip = shutil.ignore_patterns("__pycache__", "*.egg-info")
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, target / name, ignore=skip)
        else:
            shutil.copy2(source, target / name)
    return target


def make_venv(folder: Path) -> tuple[Path, list[str]]:
    """A fresh environment; returns its bin folder and the pip command that installs into
    it: this Python's own pip, told where (`--python`, pip 22.3 and later: no pip is
    installed in the environment, which saves seconds), else the environment's."""
    own_pip = tuple(map(int, re.match(r"(\d+)\.(\d+)", read_pip_version()).groups())) >= (22, 3)
    run([sys.executable, "-m", "venv", *(["--without-pip"] if own_pip else []), str(folder)],
        folder.parent)
    bin_dir = folder / ("Scripts" if os.name == "nt" else "bin")
    python = str(bin_dir / "python")
    return bin_dir, [sys.executable, "-m", "pip", "--python", python] if own_pip \
        else [python, "-m", "pip"]


def read_pip_version() -> str:
    return run([sys.executable, "-m", "pip", "--version"], ROOT).stdout.split()[1]


@dataclass(frozen=True)
class Installed:
    source: Path  # the copy of the checkout the wheel was built from
    wheel: Path
    bin: Path

    def run(self, *args: str, cwd: Path, check: bool = True) -> subprocess.CompletedProcess:
        return run([str(self.bin / "scholarsite"), *args], cwd, check)


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Installed:
    root = tmp_path_factory.mktemp("installed")
    source = copy_sources(root / "source")
    started = time.perf_counter()
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(root / "dist"),
         str(source)], root)
    wheel = next((root / "dist").glob("scholarsite-*.whl"))
    built = time.perf_counter()
    bin_dir, pip = make_venv(root / "venv")
    run([*pip, "install", "-q", str(wheel)], root)
    print(f"wheel built in {built - started:.1f} s, installed with its dependencies in "
          f"{time.perf_counter() - built:.1f} s")
    return Installed(source, wheel, bin_dir)


def make_new_site(installed: Installed, where: Path, name: str = "site1") -> Path:
    installed.run("new", name, cwd=where)
    return where / name


def join_output(result: subprocess.CompletedProcess) -> str:
    return result.stdout + result.stderr


# --- The wheel ----------------------------------------------------------------------------


def test_the_wheel_holds_every_module_the_theme_and_the_starter(installed):
    names = set(zipfile.ZipFile(installed.wheel).namelist())
    package = installed.source / "scholarsite"
    expected = {f"scholarsite/{p.relative_to(package).as_posix()}"
                for p in package.rglob("*") if p.is_file()}
    theme = installed.source / "templates"
    expected |= {f"scholarsite/theme/{p.relative_to(theme).as_posix()}"
                 for p in theme.rglob("*") if p.is_file()}
    assert expected - names == set()
    assert {"scholarsite/theme/base.html", "scholarsite/theme/assets/style.css",
            "scholarsite/starter/dot-gitignore", "scholarsite/data/ccf_2026.tsv"} <= names
    assert not [n for n in names if n.startswith("templates/")]  # one theme, in the package


def test_the_installed_package_finds_its_own_theme(installed, tmp_path):
    code = "from scholarsite.render.layers import find_theme; print(find_theme())"
    found = run([str(installed.bin / "python"), "-c", code], tmp_path).stdout.strip()
    assert Path(found).parts[-2:] == ("scholarsite", "theme")
    assert Path(found).is_relative_to(installed.bin.parent)


def test_a_checkout_uses_its_templates_folder_as_the_theme():
    from scholarsite.render.layers import find_theme

    assert find_theme() == ROOT / "templates"


@pytest.mark.full(only=True)  # a venv of its own: CI's first step
def test_an_editable_install_finds_the_theme_and_the_starter(installed, tmp_path):
    """pyproject.toml's mapping of templates/ must not break `pip install -e .`: the
    package is the checkout's, and so is the theme. (Nothing `new` needs is a dependency.)"""
    source = copy_sources(tmp_path / "source")
    bin_dir, pip = make_venv(tmp_path / "venv")
    run([*pip, "install", "-q", "--no-deps", "-e", str(source)], tmp_path)
    code = "from scholarsite.render.layers import find_theme; print(find_theme())"
    assert run([str(bin_dir / "python"), "-c", code], tmp_path).stdout.strip() == \
        str(source / "templates")
    run([str(bin_dir / "python"), "-m", "scholarsite", "new", "fresh"], tmp_path)
    assert (tmp_path / "fresh" / ".gitignore").is_file()


# --- The README's quick start ------------------------------------------------------------


def read_quick_start() -> list[str]:
    """The commands in the README's "Quick start" fences, in order."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return [block.strip() for block in re.findall(r"```sh\n(.*?)```", section, re.S)]


# A fresh venv with every dependency and a whole build (about 25 s, twice): CI's first step.
@pytest.mark.full(only=True)
def test_the_quick_start_works_where_pip_may_install_only_into_a_venv(tmp_path):
    """PEP 668 systems (Debian 12, Ubuntu 23.04+, Homebrew) refuse `pip install` outside a
    virtual environment; PIP_REQUIRE_VIRTUALENV makes any pip refuse the same way."""
    posix, windows, tests = read_quick_start()
    assert "venv" in windows and "Scripts" in windows
    checkout = copy_sources(tmp_path / "checkout")
    for name in ("build.py", "content"):
        (shutil.copytree if (ROOT / name).is_dir() else shutil.copy2)(ROOT / name,
                                                                       checkout / name)
    env = dict(make_clean_env(), PIP_REQUIRE_VIRTUALENV="1")
    # The system's interpreter, outside any venv (the tests themselves may run in one).
    system = sys.executable if sys.prefix == sys.base_prefix else str(
        Path(sys.base_prefix) / ("python.exe" if os.name == "nt" else "bin/python3"))
    refused = subprocess.run([system, "-m", "pip", "install", "--dry-run", "-e", "."],
                             cwd=checkout, env=env, capture_output=True, text=True)
    assert refused.returncode != 0  # the stand-in for an externally managed Python holds
    if os.name != "nt":
        result = subprocess.run(["sh", "-c", posix], cwd=checkout, env=env, capture_output=True,
                                text=True, encoding="utf-8", timeout=600)
        assert result.returncode == 0, result.stdout + result.stderr
        assert (checkout / "site" / "index.html").is_file()
    # CI runs the README's test command, word for word.
    assert tests.startswith(posix.split(" && ")[0])
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()
    assert ci[-1] == tests


# --- scholarsite new ----------------------------------------------------------------------


def assert_only_placeholder_warnings(out: str) -> None:
    """No warning but those naming the starter's placeholders, which a new site has."""
    assert "error" not in out, out
    assert all("still the starter's placeholders" in line
               for line in out.splitlines() if "warning" in line), out


def test_a_new_site_builds_and_checks_with_its_placeholders_named(installed, tmp_path):
    """The untouched starter builds and checks as a preview; its only warnings name the
    lines that still hold the starter's placeholders ('Your Name'), and check says so."""
    site = make_new_site(installed, tmp_path)
    assert {p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()} \
        == STARTER_FILES
    for args in (["build"], ["check"]):
        out = join_output(installed.run(*args, cwd=site))
        warnings = [line for line in out.splitlines() if "warning" in line]
        assert "error" not in out, (args, out)
        assert [line.split(": warning: ")[0] for line in warnings] == [
            "content/publications/example-paper-2025.md:7", "content/site.yaml:3"], out
        assert all("still the starter's placeholders" in line for line in warnings), out
    assert "untouched starter" in out and "published as a preview" in out
    home = (site / "site" / "index.html").read_text(encoding="utf-8")
    assert "Your Name" in home and "An Example Paper" in home and "This site went online" in home
    theme = installed.source / "templates" / "assets"
    assert (site / "site/assets/style.css").read_bytes() == (theme / "style.css").read_bytes()
    assert (site / "site/publications/example-paper-2025/index.html").is_file()
    # The CCF look-up is said in the file the user edits first, with what it does.
    settings = (site / "content" / "site.yaml").read_text(encoding="utf-8")
    assert re.search(r"^  venue_tiers: true +# CCF-A/B/C badges .*; false: none$", settings,
                     re.M)
    ignored = (site / ".gitignore").read_text(encoding="utf-8").split()
    assert {"/site/", "/.scholarsite-cache/"} <= set(ignored)


def test_the_new_site_publishes_with_the_official_pages_actions(installed, tmp_path):
    site = make_new_site(installed, tmp_path)
    workflow = yaml.safe_load((site / ".github/workflows/pages.yml").read_text("utf-8"))
    steps = workflow["jobs"]["build"]["steps"]
    runs = "\n".join(step.get("run", "") for step in steps)
    assert "pip install -r requirements.txt" in runs
    assert "scholarsite build" in runs and "scholarsite check" in runs
    uses = [s["uses"].split("@")[0] for job in workflow["jobs"].values()
            for s in job["steps"] if "uses" in s]
    assert uses == ["actions/checkout", "actions/setup-python", "actions/configure-pages",
                    "actions/upload-pages-artifact", "actions/deploy-pages"]
    assert workflow["permissions"] == {"contents": "read", "pages": "write",
                                       "id-token": "write"}
    # Installed from a wheel file, scholarsite has no address to be installed from again:
    # the site carries it, and requirements.txt names that file.
    assert (site / "requirements.txt").read_text(encoding="utf-8").splitlines()[-1] \
        == f"./{VENDORED}"


def run_workflow_steps(workflow: Path, cwd: Path, bin_dir: Path) -> list[str]:
    """Each `run:` step of the Pages workflow's build job, in order, as Actions runs it: in
    bash, in the repository's folder, with `python` the runner's (here: a fresh venv's)."""
    steps = yaml.safe_load(workflow.read_text("utf-8"))["jobs"]["build"]["steps"]
    commands = [step["run"] for step in steps if "run" in step]
    env = dict(make_clean_env(), PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    for command in commands:
        result = subprocess.run(["bash", "-e", "-c", command], cwd=cwd, env=env,
                                capture_output=True, text=True, encoding="utf-8", timeout=600)
        assert result.returncode == 0, f"{command}:\n{result.stdout}\n{result.stderr}"
    return commands


@pytest.mark.full(only=True)
def test_the_first_publish_installs_the_scholarsite_that_made_the_site(installed, tmp_path):
    """`new` from the installed wheel, then the workflow's steps on a copy of the site (as
    GitHub checks it out) with a fresh Python: no address to edit, nothing of this checkout
    reachable, and the scholarsite installed is the one that made the site."""
    (tmp_path / "mine").mkdir()
    made = make_new_site(installed, tmp_path / "mine")
    repo = shutil.copytree(made, tmp_path / "runner" / "repo")
    shutil.rmtree(made.parent)  # the machine that made the site is gone, too
    runner = tmp_path / "runner" / "python"
    run([sys.executable, "-m", "venv", str(runner)], tmp_path)
    bin_dir = runner / ("Scripts" if os.name == "nt" else "bin")
    commands = run_workflow_steps(repo / ".github/workflows/pages.yml", repo, bin_dir)
    # The CJK fonts step (test_languages.py) installs nothing for this English site.
    commands = [c for c in commands if "fonts-noto-cjk" not in c]
    assert commands == ["python -m pip install -r requirements.txt", "scholarsite build",
                        "scholarsite check"]
    assert (repo / "site/publications/example-paper-2025/index.html").is_file()
    where = run([str(bin_dir / "python"), "-c", "import scholarsite; print(scholarsite.__file__)"],
                tmp_path).stdout.strip()
    assert Path(where).is_relative_to(runner) and not Path(where).is_relative_to(ROOT)
    ran = zipfile.ZipFile(repo / VENDORED)
    built = zipfile.ZipFile(installed.wheel)
    for name in ("scholarsite/cli.py", "scholarsite/theme/base.html",
                 "scholarsite/starter/requirements.txt"):
        assert ran.read(name) == built.read(name), name


def find_direct_url(installed: Installed) -> Path:
    return next(installed.bin.parent.glob("lib*/**/scholarsite-*.dist-info")) / "direct_url.json"


def test_a_site_names_scholarsite_from_pypi_or_git_as_pip_recorded_it(installed, tmp_path):
    """pip records no origin for a package from an index (PEP 610), and a git address and
    commit for one installed from git: the new site's requirements.txt says the same, and
    carries no wheel."""
    recorded = find_direct_url(installed)
    wheel_origin = recorded.read_bytes()
    commit = "0123456789abcdef0123456789abcdef01234567"
    git_origin = {"url": "https://github.com/example/scholarsite",
                  "vcs_info": {"vcs": "git", "commit_id": commit, "requested_revision": "v1"}}
    try:
        recorded.unlink()
        pypi = make_new_site(installed, tmp_path, "from-pypi")
        recorded.write_text(json.dumps(git_origin), encoding="utf-8")
        git = make_new_site(installed, tmp_path, "from-git")
    finally:
        recorded.write_bytes(wheel_origin)
    for site, line in ((pypi, f"scholarsite=={VERSION}"),
                       (git, f"scholarsite @ git+https://github.com/example/scholarsite@{commit}")):
        assert (site / "requirements.txt").read_text("utf-8").splitlines()[-1] == line
        assert not (site / "vendor").exists()
        assert_only_placeholder_warnings(join_output(installed.run("build", cwd=site)))


def test_upgrade_refreshes_the_starter_files_and_keeps_what_the_user_changed(installed,
                                                                             tmp_path):
    site = make_new_site(installed, tmp_path)
    record = json.loads((site / ".scholarsite-starter.json").read_text("utf-8"))
    # As an older scholarsite left it: its own workflow and wheel, recorded as written.
    old_workflow, old_wheel = b"name: Publish site (old)\n", b"an older wheel"
    (site / ".github/workflows/pages.yml").write_bytes(old_workflow)
    (site / "vendor/scholarsite-0.0.1-py3-none-any.whl").write_bytes(old_wheel)
    (site / "vendor" / Path(VENDORED).name).unlink()
    (site / ".github/workflows/update.yml").unlink()
    record["files"].update({".github/workflows/pages.yml": sha256(old_workflow),
                            "vendor/scholarsite-0.0.1-py3-none-any.whl": sha256(old_wheel)})
    (site / ".scholarsite-starter.json").write_text(json.dumps(dict(record, scholarsite="0.0.1")),
                                                   encoding="utf-8")
    # The user's own changes: a starter file and the content.
    ignore = (site / ".gitignore").read_text("utf-8") + "/notes/\n"
    (site / ".gitignore").write_text(ignore, encoding="utf-8")
    bio = "I study engines.\n"
    (site / "content/index.md").write_text(bio, encoding="utf-8")
    result = installed.run("upgrade", cwd=site)
    assert f"from scholarsite 0.0.1 to {VERSION}" in result.stdout
    assert re.search(r"^\.gitignore: warning: kept: you changed this file", result.stderr, re.M)
    fresh = make_new_site(installed, tmp_path, "fresh")
    for rel in (".github/workflows/pages.yml", ".github/workflows/update.yml", VENDORED,
                "requirements.txt"):
        assert (site / rel).read_bytes() == (fresh / rel).read_bytes(), rel
    assert not (site / "vendor/scholarsite-0.0.1-py3-none-any.whl").exists()
    assert (site / ".gitignore").read_text("utf-8") == ignore
    assert (site / "content/index.md").read_text("utf-8") == bio
    again = installed.run("upgrade", cwd=site)  # the user's file is still the user's
    assert ".gitignore: warning: kept" in again.stderr and "wrote" not in again.stdout
    forced = installed.run("upgrade", "--force", cwd=site)
    assert "wrote   .gitignore" in forced.stdout
    assert (site / ".gitignore").read_bytes() == (fresh / ".gitignore").read_bytes()
    assert (site / "content/index.md").read_text("utf-8") == bio


@pytest.mark.skipif(os.name == "nt", reason="symbolic links need privileges on Windows")
def test_upgrade_never_writes_through_a_link_out_of_the_site(tmp_path):
    run([sys.executable, str(ROOT / "build.py"), "new", "site"], tmp_path)
    site, outside = tmp_path / "site", tmp_path / "outside"
    outside.mkdir()
    shutil.rmtree(site / ".github" / "workflows")
    (site / ".github" / "workflows").symlink_to(outside, target_is_directory=True)
    result = run([sys.executable, str(ROOT / "build.py"), "upgrade", "site"], tmp_path)
    assert list(outside.iterdir()) == []
    assert "site/.github/workflows/pages.yml: warning: this path leads outside the site " \
        "folder (through a link); not written" in result.stderr


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_new_refuses_a_folder_that_is_not_empty_and_force_only_adds(installed, tmp_path):
    mine = tmp_path / "mine"
    (mine / "content").mkdir(parents=True)
    (mine / "content" / "site.yaml").write_text("title: Mine\n", encoding="utf-8")
    refused = installed.run("new", "mine", cwd=tmp_path, check=False)
    assert refused.returncode == 1 and "Traceback" not in refused.stderr
    assert re.match(r"mine: error: the folder is not empty; .*--force", refused.stderr)
    assert [p.name for p in mine.rglob("*")] == ["content", "site.yaml"]
    forced = installed.run("new", "mine", "--force", cwd=tmp_path)
    assert (mine / "content" / "site.yaml").read_text(encoding="utf-8") == "title: Mine\n"
    assert "kept  mine/content/site.yaml" in forced.stdout
    assert {p.relative_to(mine).as_posix() for p in mine.rglob("*") if p.is_file()} \
        == STARTER_FILES
    (tmp_path / "a-file").write_text("x", encoding="utf-8")
    file = installed.run("new", "a-file", "--force", cwd=tmp_path, check=False)
    assert file.returncode == 1 and file.stderr.startswith("a-file: error: it is a file")


def test_build_py_new_writes_the_same_starter(installed, tmp_path):
    run([sys.executable, str(ROOT / "build.py"), "new", "from-checkout"], tmp_path)
    made = tmp_path / "from-checkout"
    assert {p.relative_to(made).as_posix() for p in made.rglob("*") if p.is_file()} \
        == STARTER_FILES


def test_a_checkout_with_setuptools_leftovers_still_carries_its_wheel(tmp_path):
    """`pip install -e .` leaves scholarsite.egg-info in the checkout, first on the path of
    `python build.py`: it records no origin, and must not pass for an install from PyPI."""
    checkout = copy_sources(tmp_path / "checkout")
    shutil.copy2(ROOT / "build.py", checkout / "build.py")
    write_files(checkout / "scholarsite.egg-info", {
        "PKG-INFO": "Metadata-Version: 2.1\nName: scholarsite\nVersion: 0.1.0\n"})
    run([sys.executable, str(checkout / "build.py"), "new", "mysite"], tmp_path)
    requirements = (tmp_path / "mysite" / "requirements.txt").read_text(encoding="utf-8")
    assert f"./{VENDORED}" in requirements and "scholarsite==" not in requirements
    assert (tmp_path / "mysite" / VENDORED).is_file()


@pytest.mark.parametrize("kind", ["academicpages", "al-folio", "hugo-blox"])
def test_the_installed_tool_moves_an_old_site_in_and_it_builds_and_checks(installed, tmp_path,
                                                                         kind):
    old = shutil.copytree(ROOT / "tests" / "fixtures" / "migrate" / kind, tmp_path / "old")
    moved = installed.run("migrate", str(old), cwd=tmp_path)
    assert f"Moved from {kind}" in moved.stdout and "Traceback" not in moved.stderr
    assert (tmp_path / "content" / "site.yaml").is_file()
    built = installed.run("build", cwd=tmp_path)
    assert ": error:" not in built.stderr
    assert (tmp_path / "site" / "index.html").is_file()
    installed.run("check", cwd=tmp_path)


# --- A site's own templates over the theme ------------------------------------------------


def test_an_override_replaces_one_template_and_the_theme_gives_the_rest(installed, tmp_path):
    site = make_new_site(installed, tmp_path)
    (site / "templates" / "assets").mkdir(parents=True)
    (site / "templates" / "home.html").write_text(
        '{% extends "theme/home.html" %}\n'
        f'{{% block main %}}{BANNER}{{{{ super() }}}}{{% endblock %}}\n', encoding="utf-8")
    (site / "templates" / "assets" / "style.css").write_text("body { color: teal }\n",
                                                              encoding="utf-8")
    out = join_output(installed.run("build", cwd=site))
    assert_only_placeholder_warnings(out)
    built = site / "site"
    home = (built / "index.html").read_text(encoding="utf-8")
    assert BANNER in home and '<h1 id="name">Your Name</h1>' in home  # the theme's, extended
    paper = (built / "publications/example-paper-2025/index.html").read_text(encoding="utf-8")
    assert BANNER not in paper and "An Example Paper" in paper  # the theme's paper.html
    assert (built / "assets/style.css").read_text(encoding="utf-8") == "body { color: teal }\n"
    theme = installed.source / "templates" / "assets"
    assert (built / "assets/search.js").read_bytes() == (theme / "search.js").read_bytes()
    # --templates names another folder of overrides; the theme still gives the rest.
    other = tmp_path / "other-templates"
    other.mkdir()
    (other / "page.html").write_text("unused here\n", encoding="utf-8")
    installed.run("build", "--templates", str(other), cwd=site)
    assert BANNER not in (built / "index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("name, text, message", [
    ("hme.html", '{% extends "base.html" %}\n',
     r"templates/hme\.html: error: 'hme\.html' overrides nothing: the built-in theme has no "
     r"template of that name and no page uses it; did you mean 'home\.html'\?"),
    pytest.param("home.html", '{% extends "theme/index.html" %}\n',
                 r"templates/home\.html:1: error: template 'theme/index\.html' not found: the "
                 r"built-in theme has no 'index\.html'", marks=pytest.mark.full(only=True)),
    ("home.html", '{% extends "base.html" %}\n{% block main %}\n{% include "_gone.html" %}'
     '{% endblock %}\n',
     r"templates/home\.html:3: error: template '_gone\.html' not found in templates/ or the "
     r"built-in theme"),
    pytest.param("paper.html", '{% extends "base.html" %}\n{% block main %}{% if %}'
                 '{% endblock %}\n', r"templates/paper\.html:2: error: template syntax error: ",
                 marks=pytest.mark.full(only=True)),
    ("home.html", '{% extends "base.html" %}\n{% block main %}{{ site.nope }}{% endblock %}\n',
     r"templates/home\.html:2: error: template error: .*'nope'"),
])
def test_a_broken_or_unknown_override_is_an_error_at_its_line(installed, tmp_path, name, text,
                                                              message):
    site = make_new_site(installed, tmp_path)
    installed.run("build", cwd=site)
    before = (site / "site" / "index.html").read_bytes()
    (site / "templates").mkdir()
    (site / "templates" / name).write_text(text, encoding="utf-8")
    for command in ("build", "check"):
        result = installed.run(command, cwd=site, check=False)
        assert result.returncode == 1 and "Traceback" not in result.stderr
        assert re.match(message, result.stderr), result.stderr
    assert (site / "site" / "index.html").read_bytes() == before


def test_a_templates_folder_that_is_not_there_is_an_error(installed, tmp_path):
    site = make_new_site(installed, tmp_path)
    result = installed.run("build", "--templates", "nowhere", cwd=site, check=False)
    assert result.returncode == 1
    assert result.stderr.startswith("nowhere: error: templates folder not found")


# --- serve --------------------------------------------------------------------------------


class Serving:
    """The installed `scholarsite serve`, its console read line by line."""

    def __init__(self, installed: Installed, site: Path) -> None:
        self.proc = subprocess.Popen(
            [str(installed.bin / "scholarsite"), "serve", "--port", "0"], cwd=site,
            env=make_clean_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            encoding="utf-8")
        self.lines: list[str] = []
        threading.Thread(target=self.read, daemon=True).start()
        wait_until(lambda: any("Ctrl-C to stop" in line for line in self.lines), 30,
                   "the server started", self)

    def read(self) -> None:
        for line in self.proc.stdout:
            self.lines.append(line)

    @property
    def url(self) -> str:
        """Where it says it serves the site: http://127.0.0.1:PORT/."""
        found = re.search(r"at (http://127\.0\.0\.1:\d+/) \(Ctrl-C to stop\)",
                          "".join(self.lines))
        assert found, "".join(self.lines)
        return found.group(1)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def wait_until(check, timeout: float, what: str, serving: Serving | None = None) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            console = "".join(serving.lines) if serving else ""
            raise AssertionError(f"not within {timeout} s: {what}\n{console}")
        time.sleep(0.05)


def test_serve_rebuilds_when_an_override_is_saved_added_or_removed(installed, tmp_path):
    site = make_new_site(installed, tmp_path)
    theme_home = (installed.source / "templates" / "home.html").read_text(encoding="utf-8")
    override = site / "templates" / "home.html"
    override.parent.mkdir()
    override.write_text(theme_home.replace("{% block main %}", "{% block main %}<p>First</p>"),
                        encoding="utf-8")
    home = site / "site" / "index.html"
    paper = site / "site" / "publications" / "example-paper-2025" / "index.html"
    serving = Serving(installed, site)
    try:
        assert "<p>First</p>" in home.read_text(encoding="utf-8")
        override.write_text(override.read_text(encoding="utf-8").replace("First", "Second"),
                            encoding="utf-8")
        wait_until(lambda: "<p>Second</p>" in home.read_text(encoding="utf-8"), 10,
                   "the saved override is used", serving)
        (site / "templates" / "paper.html").write_text(
            '{% extends "theme/paper.html" %}\n'
            '{% block main %}<p>Added</p>{{ super() }}{% endblock %}\n', encoding="utf-8")
        wait_until(lambda: "<p>Added</p>" in paper.read_text(encoding="utf-8"), 10,
                   "a new override is used", serving)
        override.unlink()
        wait_until(lambda: "<p>Second</p>" not in home.read_text(encoding="utf-8"), 10,
                   "the theme's template is back", serving)
        assert '<h1 id="name">Your Name</h1>' in home.read_text(encoding="utf-8")
    finally:
        serving.stop()
    assert serving.proc.returncode == 0, "".join(serving.lines)


def fetch(url: str) -> tuple[int, str]:
    """GET url: its status and its body as text; a 404 is an answer, not an exception."""
    try:
        with OPENER.open(url, timeout=10) as response:
            return response.status, response.read().decode("utf-8", "replace")
    except HTTPError as error:
        return error.code, error.read().decode("utf-8", "replace")


def test_serve_from_a_new_site_answers_over_http_and_shows_a_saved_change(installed, tmp_path):
    site = make_new_site(installed, tmp_path)
    serving = Serving(installed, site)
    try:
        base = serving.url
        status, home = fetch(base)
        assert status == 200 and '<h1 id="name">Your Name</h1>' in home
        assert '<script src="/livereload.js"></script>' in home
        status, paper = fetch(base + "publications/example-paper-2025/")
        assert status == 200 and "An Example Paper" in paper
        for path in ("assets/style.css", "assets/site.js", "favicon.ico", "livereload.js"):
            assert fetch(base + path)[0] == 200, path
        assert fetch(base + "no/such/page/")[0] == 404
        bio = site / "content" / "index.md"
        bio.write_text(bio.read_text(encoding="utf-8") + "\nSaved while serving.\n",
                       encoding="utf-8")
        wait_until(lambda: "Saved while serving." in fetch(base)[1], 10,
                   "the served home page shows the saved bio", serving)
    finally:
        serving.stop()
    assert serving.proc.returncode == 0, "".join(serving.lines)
    assert "Traceback" not in "".join(serving.lines)
    with pytest.raises(URLError):  # stopped: nothing listens on the port any more
        fetch(base)


# --- deploy -------------------------------------------------------------------------------


def git(*args: str, cwd: Path) -> str:
    return run(["git", *args], cwd).stdout.strip()


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_deploy_from_a_new_site_publishes_it_to_a_branch(installed, tmp_path, monkeypatch):
    """`new`, the user's first commit, and `deploy` to a bare repository standing in for
    GitHub: the built site is the gh-pages branch, and the user's checkout is untouched."""
    for key in ("AUTHOR", "COMMITTER"):
        monkeypatch.setenv(f"GIT_{key}_NAME", "Ada Example")
        monkeypatch.setenv(f"GIT_{key}_EMAIL", "ada@example.org")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    site = make_new_site(installed, tmp_path)
    remote = tmp_path / "remote.git"
    git("init", "--quiet", "--bare", str(remote), cwd=tmp_path)
    git("init", "--quiet", "-b", "main", cwd=site)
    git("add", "-A", cwd=site)
    git("commit", "--quiet", "-m", "My site", cwd=site)
    git("remote", "add", "origin", str(remote), cwd=site)
    source = git("rev-parse", "HEAD", cwd=site)

    result = installed.run("deploy", cwd=site)
    tip = git("--git-dir", str(remote), "rev-parse", "gh-pages", cwd=tmp_path)
    assert re.search(rf"Published \d+ files to origin gh-pages: commit {tip[:12]} ",
                     result.stdout), join_output(result)
    assert_only_placeholder_warnings(join_output(result))
    published = set(git("--git-dir", str(remote), "ls-tree", "-r", "--name-only", "gh-pages",
                        cwd=tmp_path).splitlines())
    built = {p.relative_to(site / "site").as_posix()
             for p in (site / "site").rglob("*") if p.is_file()}
    assert published == built - {".scholarsite-manifest"}
    assert {".nojekyll", "index.html", "favicon.ico", "assets/style.css",
            "publications/example-paper-2025/index.html"} <= published
    home = subprocess.run(["git", "--git-dir", str(remote), "show", "gh-pages:index.html"],
                          capture_output=True, check=True).stdout
    assert home == (site / "site" / "index.html").read_bytes()
    # The user's branch and files are as they were: what the build made is ignored.
    assert git("rev-parse", "HEAD", cwd=site) == source
    assert git("symbolic-ref", "--short", "HEAD", cwd=site) == "main"
    assert git("status", "--porcelain", "--untracked-files=all", cwd=site) == ""
    assert "Nothing to publish" in installed.run("deploy", cwd=site).stdout
