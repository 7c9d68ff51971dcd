"""`migrate OLD_SITE [--content DIR] [--from KIND] [--force]`: read, then write, then say
(the options are in cli.py)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ...diagnostics import Diagnostic, Diagnostics
from ...reading.loader import load_site
from ..deadline import DeadlinePassed, deadline, read_seconds
from .accounting import account_files, format_accounting
from .academicpages import read_academicpages
from .alfolio import read_alfolio
from .datalist import read_bib_folder, read_datalist
from .detect import detect_kind
from .fieldmap import parse_map
from .hugoblox import read_hugoblox
from .hugomenu import settle_hugo_menu
from .jekyll import read_jekyll_site
from .links import settle_links
from .menu import settle_menu
from .model import Migration
from .authornotes import settle_author_notes
from .ownernames import settle_owner
from .report import format_report
from .talks import read_alfolio_talks
from .trial import settle_build
from .write import check_target, write_migration

DEADLINE_VARIABLE = "SCHOLARSITE_MIGRATE_SECONDS"
DEADLINE_SECONDS = 600.0  # the largest real site moves in seconds; ten minutes is no site
READERS = {"academicpages": (read_jekyll_site, read_academicpages, read_datalist, settle_menu),
           "al-folio": (read_jekyll_site, read_alfolio, read_alfolio_talks, read_datalist,
                        settle_menu),
           "hugo-blox": (read_hugoblox, settle_hugo_menu),
           "jekyll-data": (read_jekyll_site, read_datalist, settle_menu),
           "bibtex": (read_bib_folder,)}


def run_migrate(args: argparse.Namespace) -> int:
    old: Path = args.old
    if not old.is_dir():
        print(f"{old.as_posix()}: error: no such folder", file=sys.stderr)
        return 1
    kind = args.kind or detect_kind(old)
    if kind is None:
        print(f"{old.as_posix()}: error: this does not look like an academicpages, al-folio "
              "or Hugo Blox site (no _publications/, _bibliography/ or content/publication/), "
              "nor holds _data/publications.yml or .bib files; say which with --from",
              file=sys.stderr)
        return 1
    mig = Migration(old, kind)
    mig.fieldmap, problem = parse_map(getattr(args, "map", "") or "")
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 1
    problem = check_target(mig, args.content)
    if problem:
        print(problem, file=sys.stderr)
        return 1
    problem = read_old_site(mig, kind, args.content, args.force)
    if problem:
        print(f"{old.as_posix()}: error: {problem}", file=sys.stderr)
        return 1
    done = write_migration(mig, args.content, args.force)
    for line in format_report(mig, done, args.content):
        print(line)
    if getattr(args, "account", False):
        print("\n".join(format_accounting(mig)))
    for problem in done.problems:
        print(problem, file=sys.stderr)
    said = read_back(args.content)
    if said:
        print("The new content folder, read as a build reads it:")
        for diagnostic in said:
            print(f"  {diagnostic}")
    failed = done.problems or any(d.severity == "error" for d in said)
    return 1 if failed else 0


def read_old_site(mig: Migration, kind: str, content: Path, force: bool) -> str:
    """Read the old site into `mig` and settle it against a trial build, under one
    deadline; what stopped it ('' when nothing did)."""
    seconds = read_seconds(DEADLINE_VARIABLE, DEADLINE_SECONDS)
    try:
        with deadline(seconds):
            for read in READERS[kind]:
                read(mig.old, mig)
            settle_links(mig)
            settle_owner(mig)
            settle_author_notes(mig)
            account_files(mig)  # what no reader took is named, never silently dropped
            settle_build(mig, content, force)
    except DeadlinePassed:
        return (f"migrate stopped: reading this site took over {seconds:g} s "
                f"({DEADLINE_VARIABLE} sets the limit); nothing was written. Please report "
                "it, with the site if you can.")
    except Exception as exc:  # noqa: BLE001 - a reader's bug: said plainly, nothing written
        return (f"migrate could not read this site ({type(exc).__name__}: {exc}); nothing "
                "was written. Please report it, with the file it names.")
    return ""


def read_back(content: Path) -> list[Diagnostic]:
    """What a build would say of the content folder now (every problem, not only the
    migration's: a second run reads the owner's edits too)."""
    diags = Diagnostics(root=Path.cwd())
    load_site(content, diags)
    return diags.items
