"""The GitHub Pages workflow: what it runs is run here, in a clean copy of the project."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys

import yaml

from conftest import ROOT

WORKFLOW = ROOT / ".github" / "workflows" / "pages.yml"


def load_workflow() -> dict:
    return yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))


def test_the_workflow_deploys_site_on_a_push_to_main():
    workflow = load_workflow()
    triggers = workflow[True]  # YAML 1.1 reads the key `on` as true
    assert triggers["push"]["branches"] == ["main"]
    assert workflow["permissions"] == {"contents": "read", "pages": "write",
                                       "id-token": "write"}
    build = workflow["jobs"]["build"]["steps"]
    uses = [step["uses"].split("@")[0] for step in build if "uses" in step]
    assert uses == ["actions/checkout", "actions/setup-python", "actions/configure-pages",
                    "actions/upload-pages-artifact"]
    assert build[-1]["with"]["path"] == "site"
    deploy = workflow["jobs"]["deploy"]
    assert deploy["needs"] == "build"
    assert deploy["environment"]["name"] == "github-pages"
    assert deploy["steps"][0]["uses"].startswith("actions/deploy-pages@")


def test_the_workflow_commands_build_the_site_from_a_clean_copy(tmp_path):
    copy = tmp_path / "repo"
    copy.mkdir()
    for name in ("build.py", "pyproject.toml"):
        shutil.copy2(ROOT / name, copy / name)
    for name in ("scholarsite", "templates", "content"):
        shutil.copytree(ROOT / name, copy / name,
                        ignore=shutil.ignore_patterns("__pycache__"))
    commands = [step["run"] for step in load_workflow()["jobs"]["build"]["steps"]
                if "run" in step and "pip install" not in step["run"]]
    assert commands == ["python build.py", "python build.py check"]
    for command in commands:
        argv = shlex.split(command)
        result = subprocess.run([sys.executable, *argv[1:]], cwd=copy, capture_output=True,
                                text=True, encoding="utf-8", timeout=120)
        assert result.returncode == 0, (command, result.stderr)
    assert (copy / "site" / "index.html").is_file()
    assert (copy / "site" / "publications" / "index.html").is_file()
