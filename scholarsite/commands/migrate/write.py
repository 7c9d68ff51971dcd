"""The migration written into the content folder: only the files it lacks, unless --force;
each file whole or not at all; never into the old site."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from ...diagnostics import Diagnostics
from ...output.paths import why_not_write
from ...output.writer import replace_file
from ...reading.settings.yamlread import parse_yaml, read_text
from .frontmatter import format_yaml
from .model import Migration, is_inside

SITE_YAML = "site.yaml"
REDIRECTS_HEADER = "Old addresses of the moved site, and where each page is now (migrate)."


@dataclass
class Written:
    created: list[str] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)  # existing files left as they were
    problems: list[str] = field(default_factory=list)  # `path: error: ...` lines
    redirects_by_hand: dict[str, str] = field(default_factory=dict)


def check_target(mig: Migration, content: Path) -> str:
    """Why `content` cannot be written to ('' when it can)."""
    if is_inside(content, mig.old) or is_inside(mig.old, content):
        return (f"{content.as_posix()}: error: the content folder must be outside the old "
                f"site ({mig.old.as_posix()}), which migrate never writes into")
    if content.exists() and not content.is_dir():
        return f"{content.as_posix()}: error: this is a file, not a folder"
    return ""


def write_migration(mig: Migration, content: Path, force: bool) -> Written:
    """Write every file of `mig` into `content`, and site.yaml with the redirects."""
    done = Written()
    for rel, new in sorted(mig.files.items()):
        target = content / rel
        problem = why_not_write(target, content)  # the whole path, its links followed
        if os.path.lexists(target) and (not force or target.is_symlink()):
            done.kept.append(rel)  # the owner's file, or a link: never written through
        elif problem:
            done.problems.append(f"{target.as_posix()}: error: {problem}")
        else:
            existed = target.exists()
            try:
                replace_file(target, new.text.encode("utf-8") if new.text is not None else None,
                             source=new.source)
            except OSError as exc:
                done.problems.append(f"{target.as_posix()}: error: cannot write: "
                                     f"{exc.strerror or exc}")
                continue
            (done.replaced if existed else done.created).append(rel)
    write_site_yaml(mig, content, force, done)
    return done


def write_site_yaml(mig: Migration, content: Path, force: bool, done: Written) -> None:
    """A new site.yaml has the settings and the redirects. An existing one is the owner's:
    without --force, only redirects it lacks are added, at its end, when it has no
    `redirects:` yet; otherwise the report lists them to add by hand."""
    target = content / SITE_YAML
    problem = why_not_write(target, content)
    if problem and not target.is_symlink():
        done.problems.append(f"{target.as_posix()}: error: {problem}")
        return
    if (force and not problem) or not os.path.lexists(target):
        doc = dict(mig.site)
        if mig.redirects:
            doc["redirects"] = dict(mig.redirects)
        try:
            existed = target.exists()
            replace_file(target, format_yaml(doc, "Written by scholarsite migrate; see the "
                                             "README for every setting.").encode("utf-8"))
            (done.replaced if existed else done.created).append(SITE_YAML)
        except OSError as exc:
            done.problems.append(f"{target.as_posix()}: error: cannot write: "
                                 f"{exc.strerror or exc}")
        return
    done.kept.append(SITE_YAML)
    diags = Diagnostics()  # read as the build reads it (it says the problems)
    text = read_text(target, diags, content)
    located = parse_yaml(text, target, 1, diags) if text is not None else None
    if located is None or diags.has_errors():
        done.redirects_by_hand = dict(mig.redirects)
        return
    doc = located.data or {}
    have = doc.get("redirects") if isinstance(doc, dict) else None
    new = {k: v for k, v in mig.redirects.items()
           if not (isinstance(have, dict) and (k in have or k + "/" in have or "/" + k in have))}
    if not new:
        return
    if have is not None or not isinstance(doc, dict) or target.is_symlink():
        done.redirects_by_hand = new
        return
    block = format_yaml({"redirects": new}, REDIRECTS_HEADER)
    replace_file(target, (text.rstrip("\n") + "\n\n" + block).encode("utf-8"))
