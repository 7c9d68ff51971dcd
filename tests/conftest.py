"""Shared test helpers: small sites written from dicts into temporary folders, and the real
command line run in a subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# ../shared beside the checkout; a git worktree nested one level deeper finds it further up.
SHARED = next((p / "shared" for p in ROOT.parents if (p / "shared" / "data").is_dir()),
              ROOT.parent / "shared")
TEMPLATES = ROOT / "templates"
EXAMPLE = ROOT / "content"
BIBSITE = ROOT / "tests" / "fixtures" / "bibsite"

MINIMAL_CONFIG = """\
title: Ada Example
url: https://example.org/
author:
  name: Ada Example
publications:
  group_by: year
"""

MINIMAL_PAPER = """\
---
title: A Paper
authors: [Ada Example, Bob Builder]
venue: Conference on Examples
venue_short: CoE
date: 2024-05
---
An abstract.
"""


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


def build_args(content: Path, output: Path | None = None, *extra: str) -> list[str]:
    output = output or content.parent / "site"
    return ["build", "--content", str(content), "--output", str(output),
            "--templates", str(TEMPLATES), *extra]


def tree_bytes(folder: Path) -> dict[str, bytes]:
    """Every file below folder, by relative path: for comparing whole builds."""
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}
