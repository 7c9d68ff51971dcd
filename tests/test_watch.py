"""The watcher: real files changed in the ways editors and people change them, real file
events, and the report of exactly what changed."""

from __future__ import annotations

import asyncio
import os
import shutil
from pathlib import Path

import pytest

from conftest import write_files
from scholarsite.live.watch import Watcher, diff_snapshots, take_snapshot


def watch_while(roots: list[Path], change, skip: list[Path] | None = None,
                wait: float = 1.0) -> list[set[Path]]:
    """Start a watcher, call change(), and return what it reported within `wait` s
    after the first report (or within `wait` s when there is none)."""
    reports: list[set[Path]] = []

    async def main() -> None:
        watcher = Watcher(roots, skip or [], reports.append)
        watcher.start()
        try:
            await asyncio.sleep(0.1)  # the system's watches are in place
            change()
            for _ in range(int(wait / 0.02)):
                await asyncio.sleep(0.02)
                if reports:
                    await asyncio.sleep(0.2)  # and nothing more comes
                    break
        finally:
            watcher.stop()

    asyncio.run(main())
    return reports


@pytest.fixture
def content(tmp_path):
    return write_files(tmp_path / "content", {
        "site.yaml": "title: x\n", "publications/a.md": "a\n", "publications/b.md": "b\n"})


def test_a_save_in_place_is_one_report(content):
    paper = content / "publications" / "a.md"
    reports = watch_while([content], lambda: paper.write_text("a, edited\n", encoding="utf-8"))
    assert reports == [{paper}]


def test_a_save_by_rename_is_reported_as_the_file(content):
    paper = content / "publications" / "a.md"

    def save() -> None:
        temp = content / "publications" / ".a.md.swp"
        temp.write_text("a, edited\n", encoding="utf-8")
        os.replace(temp, paper)

    assert watch_while([content], save) == [{paper}]


def test_several_writes_at_once_are_one_report(content):
    folder = content / "publications"

    def save() -> None:
        for name in ("a.md", "b.md", "c.md"):
            (folder / name).write_text(f"{name} again\n", encoding="utf-8")

    assert watch_while([content], save) == [{folder / "a.md", folder / "b.md", folder / "c.md"}]


def test_reading_or_touching_a_hidden_file_is_no_change(content):
    def look() -> None:
        (content / "publications" / "a.md").read_text(encoding="utf-8")
        (content / ".notes.swp").write_text("x", encoding="utf-8")

    assert watch_while([content], look, wait=0.5) == []


def test_a_folder_moved_away_reports_its_files_gone(content, tmp_path):
    folder = content / "publications"
    reports = watch_while([content], lambda: shutil.move(folder, tmp_path / "elsewhere"))
    assert set().union(*reports) == {folder / "a.md", folder / "b.md"}


def test_skipped_folders_are_not_reported(content):
    out = content / "site"
    out.mkdir()
    reports = watch_while([content], lambda: (out / "index.html").write_text("x"), [out],
                          wait=0.5)
    assert reports == []


def test_snapshots_compare_by_time_size_and_identity(tmp_path):
    files = write_files(tmp_path, {"a.md": "a", "b.md": "b", ".hidden": "h", "d/.git/x": "x"})
    old = take_snapshot([files], [])
    assert set(old) == {tmp_path / "a.md", tmp_path / "b.md"}
    (tmp_path / "b.md").unlink()
    (tmp_path / "c.md").write_text("c", encoding="utf-8")
    os.replace(tmp_path / "c.md", tmp_path / "a.md")  # same size, new file
    assert diff_snapshots(old, take_snapshot([files], [])) == {tmp_path / "a.md",
                                                             tmp_path / "b.md"}


def test_a_save_before_watching_starts_is_caught_up(content):
    """serve lists the files, builds, and only then watches: a save during the first build
    is reported once watching starts."""
    paper, new = content / "publications" / "a.md", content / "publications" / "c.md"
    reports: list[set[Path]] = []

    async def main() -> None:
        watcher = Watcher([content], [], reports.append)
        watcher.take_listing()
        paper.write_text("a, saved during the build\n", encoding="utf-8")
        new.write_text("c\n", encoding="utf-8")
        watcher.start()
        try:
            watcher.catch_up()
        finally:
            watcher.stop()

    asyncio.run(main())
    assert reports == [{paper, new}]
