"""Path logic that differs between systems, tried here with what each system sends: Windows'
separators, drive letters and short names, macOS's real paths for linked folders."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from scholarsite.live.serve import Preview
from scholarsite.live.watch import Watcher
from scholarsite.output.writer import OutputError, safe_relpath


@pytest.mark.parametrize("path", ["..\\x", "a\\..\\..\\x", "C:\\x", "c:x", "C:/x", "/x",
                                  "\\x", "\\\\server\\share\\x", "a/../../x", ".."])
def test_no_output_path_leaves_the_folder_whatever_its_separators(path):
    with pytest.raises(OutputError):
        safe_relpath(path)


@pytest.mark.parametrize("path, clean", [("a\\b.html", "a/b.html"), ("a/./b/../c", "a/c"),
                                         ("publications/x/index.html",
                                          "publications/x/index.html")])
def test_output_paths_are_posix_inside_the_folder(path, clean):
    assert safe_relpath(path) == clean


def link_or_skip(target: Path, link: Path) -> None:
    try:
        link.symlink_to(target, target_is_directory=True)
    except (OSError, NotImplementedError):
        pytest.skip("symlinks are not available here")


def test_an_event_reported_by_its_real_path_is_seen(tmp_path):
    """macOS's FSEvents gives /private/tmp/... for a save under /tmp/...: a watched folder
    reached through a link still sees it, spelt as the folder was given."""
    real = tmp_path / "real"
    (real / "publications").mkdir(parents=True)
    link_or_skip(real, tmp_path / "project")
    watched = tmp_path / "project"
    watcher = Watcher([watched], [], lambda paths: None)
    seen = watcher.as_watched(str(real / "publications" / "a.md"))
    assert seen == Path(os.path.abspath(watched)) / "publications" / "a.md"
    assert not watcher.is_ignored(seen)
    assert watcher.is_ignored(watcher.as_watched(str(real / ".git" / "HEAD")))


def test_a_second_name_for_a_hidden_folder_is_not_served(tmp_path):
    """Windows gives `.git` a short name such as GIT~1; a link stands in for it here. What
    a request names is judged by where it really leads."""
    site = tmp_path / "site"
    (site / ".git").mkdir(parents=True)
    (site / ".git" / "config").write_text("secret", encoding="utf-8")
    (site / "index.html").write_text("hi", encoding="utf-8")
    link_or_skip(site / ".git", site / "GIT~1")
    preview = Preview(site)
    assert preview.locate("/index.html") == "index.html"
    assert preview.locate("/GIT~1/config") is None
    assert preview.locate("/.git/config") is None
    assert preview.locate("/..\\..\\etc/passwd") is None
