"""The command line: `python build.py [build|serve|check|import-bib|deploy|new|upgrade|update|
add|migrate]`.

Exit codes: 0 success, 1 content or output errors (printed as `path:line: error: ...`),
2 usage errors.
"""

from __future__ import annotations

import argparse
import difflib
import gc
import os
import sys
import time
from pathlib import Path
from typing import NoReturn

from . import __version__
from .diagnostics import ContentError, count_of, printable
from .output.workerloss import WorkerLost
from .output.writer import OutputError

COMMANDS = ("build", "serve", "check", "import-bib", "deploy", "new", "upgrade", "update",
            "add", "migrate")


# Set by run(), which ends the process without freeing its objects: what a build made
# is put here rather than freed one by one when main() returns.
LEFT_TO_EXIT: list | None = None


def add_site_options(parser: argparse.ArgumentParser, output: bool = True,
                     output_help: str = "where the site is written (default: site)",
                     full_build: bool = True) -> None:
    parser.add_argument("--content", type=Path, default=Path("content"), metavar="DIR",
                        help="the content folder (default: content)")
    if output:
        parser.add_argument("--output", type=Path, default=Path("site"), metavar="DIR",
                            help=output_help)
    parser.add_argument("--templates", type=Path, default=None, metavar="DIR",
                        help="your templates, each replacing the built-in theme's of its "
                        "name (default: templates, when that folder exists)")
    parser.add_argument("--strict", action="store_true", help="treat warnings as errors")
    if not full_build:  # serve rebuilds in its own process, what each save affects
        return
    parser.add_argument("--jobs", type=int, default=0, metavar="N",
                        help="processes to read and render with (default: one per core on "
                        "large sites; 1: this process only)")
    parser.add_argument("--no-cache", action="store_true",
                        help="neither use nor update .scholarsite-cache/ beside the output")
    parser.add_argument("--future", action="store_true",
                        help="publish posts and news dated after today too (serve shows "
                        "them, and drafts, always)")


def make_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=program_name(),
        description="Build an academic homepage from Markdown and BibTeX into static HTML.")
    parser.add_argument("--version", action="version", version=f"scholarsite {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    build = sub.add_parser("build", help="build the site (the default command)")
    add_site_options(build)
    serve = sub.add_parser("serve", help="build, serve with live reload, rebuild on save")
    add_site_options(serve, full_build=False)
    serve.add_argument("--host", default="127.0.0.1",
                       help="the address to listen on (default: 127.0.0.1, this machine "
                       "only; 0.0.0.0 for every interface)")
    serve.add_argument("--port", type=int, default=8000,
                       help="the port (default: 8000; the next free one when it is in use; "
                       "0 for any free port)")
    serve.add_argument("--open", action="store_true", help="open the site in a browser")
    check = sub.add_parser("check", help="build into a temporary folder and check the result: "
                           "content, links, anchors, assets, titles, ids")
    add_site_options(check, output_help="where build writes the site (default: site); check "
                     "writes nothing there, and names problems by those files")
    check.add_argument("--external", action="store_true",
                       help="also check links to other sites (needs the network)")
    deploy = sub.add_parser("deploy", help="build, then publish site/ as a commit on a branch "
                            "and push it (for GitHub Pages' 'Deploy from a branch')")
    add_site_options(deploy)
    deploy.add_argument("--remote", default="origin",
                        help="the git remote to push to (default: origin)")
    deploy.add_argument("--branch", default="gh-pages",
                        help="the branch to publish to (default: gh-pages)")
    deploy.add_argument("--message", default="", help="the commit message (default: which "
                        "source commit the site was built from)")
    deploy.add_argument("--force", action="store_true", help="publish even onto a branch whose "
                        "last commit deploy did not make (its commits are kept below the site's)")
    imp = sub.add_parser("import-bib", help="write one Markdown file per BibTeX entry")
    imp.add_argument("bib", type=Path, metavar="FILE.bib", help="the BibTeX file to import")
    imp.add_argument("--content", type=Path, default=Path("content"), metavar="DIR",
                     help="the content folder (default: content)")
    imp.add_argument("--force", action="store_true", help="overwrite existing files")
    add_new_parsers(sub)
    add_update_parser(sub)
    add_migrate_parser(sub)
    return parser


def add_new_parsers(sub: argparse._SubParsersAction) -> None:
    new = sub.add_parser("new", help="start a site: write a small example site into a new "
                         "folder, ready to build, edit and publish")
    new.add_argument("folder", type=Path, metavar="DIR", help="the folder to make")
    new.add_argument("--force", action="store_true", help="write into a folder that is not "
                     "empty: add the files it lacks, keep every file it has")
    upgrade = sub.add_parser("upgrade", help="move a site made by `new` to this scholarsite: "
                             "write its requirements.txt, workflows and other starter files "
                             "again (never content/)")
    upgrade.add_argument("folder", type=Path, nargs="?", default=Path("."), metavar="DIR",
                         help="the site's folder, holding content/ (default: this one)")
    upgrade.add_argument("--force", action="store_true", help="replace starter files you "
                         "changed too (default: keep them, and say which)")


def add_update_parser(sub: argparse._SubParsersAction) -> None:
    update = sub.add_parser("update", help="fetch your papers (DBLP, ORCID, OpenAlex, "
                            "INSPIRE-HEP, arXiv, PubMed, Crossref) and citation "
                            "counts into the content folder, as site.yaml's 'sources' and "
                            "'citations' say (needs the network; build never does)")
    update.add_argument("--content", type=Path, default=Path("content"), metavar="DIR",
                        help="the content folder (default: content)")
    update.add_argument("--only", choices=("dblp", "orcid", "openalex", "inspire", "arxiv",
                                           "pubmed", "crossref", "citations"),
                        help="update this alone")
    update.add_argument("--dry-run", action="store_true",
                        help="say what would change, write nothing")
    add = sub.add_parser("add", help="write a paper file from its DOI, arXiv id, PubMed id or "
                         "ISBN (Crossref, DataCite, arXiv, PubMed, Open Library; needs the "
                         "network)")
    add.add_argument("ids", nargs="+", metavar="ID", help="a DOI (10.1145/...), an arXiv id "
                     "or address (2101.00001), a PubMed id (pmid:12345678), an ISBN; several "
                     "at once")
    add.add_argument("--content", type=Path, default=Path("content"), metavar="DIR",
                     help="the content folder (default: content)")
    add.add_argument("--dry-run", action="store_true",
                     help="print the files that would be written, write nothing")


def add_migrate_parser(sub: argparse._SubParsersAction) -> None:
    migrate = sub.add_parser("migrate", help="move an academicpages, al-folio or Hugo Blox "
                             "site into a content folder (the old site is only read)")
    migrate.add_argument("old", type=Path, metavar="OLD_SITE",
                         help="a checkout of the old site (or a part of it, such as a folder "
                         "holding only _publications/)")
    migrate.add_argument("--content", type=Path, default=Path("content"), metavar="DIR",
                         help="the content folder to write (default: content)")
    migrate.add_argument("--from", dest="kind", choices=("academicpages", "al-folio", "hugo-blox",
                                                         "jekyll-data", "bibtex"),
                         help="the kind of the old site (default: told from its layout); "
                         "jekyll-data: papers in _data/publications.yml; bibtex: .bib files")
    migrate.add_argument("--map", default="", metavar="FACT=FIELD,...",
                         help="which old fields hold a paper's facts, for papers kept as data "
                         "(venue=journal,booktitle;date=year); see docs/migrate.md")
    migrate.add_argument("--force", action="store_true",
                         help="replace files the content folder has already (default: keep "
                         "them, and write only what is new)")
    migrate.add_argument("--account", action="store_true",
                         help="end the report with where each of the old site's own files "
                         "went (a new file, site.yaml, or a line of the report)")


def program_name() -> str:
    """What the user typed to run this: `python build.py` in a checkout, else the
    installed `scholarsite` (also `python -m scholarsite`)."""
    return "python build.py" if Path(sys.argv[0]).name == "build.py" else "scholarsite"


def normalize_argv(argv: list[str]) -> list[str]:
    """`python build.py` and `python build.py --content X` mean `build`; a first word that
    is no command is a usage error that lists them, not build's unknown argument."""
    if argv and not argv[0].startswith("-") and argv[0] not in COMMANDS:
        near = difflib.get_close_matches(argv[0].lower(), COMMANDS, n=1, cutoff=0.6)
        meant = f"; did you mean '{near[0]}'?" if near else ""
        make_parser().error(f"unknown command '{argv[0]}'; the commands are "
                            f"{', '.join(COMMANDS)}{meant}")
    if not argv or (argv[0] not in COMMANDS and argv[0] not in ("-h", "--help", "--version")):
        return ["build", *argv]
    return argv


def print_problems(diagnostics) -> None:
    for diagnostic in diagnostics:
        print(diagnostic, file=sys.stderr)


def run_build(args: argparse.Namespace) -> int:
    start = time.perf_counter()
    if LEFT_TO_EXIT is not None:
        # The process ends with the build, and the cycle collector stays off until then:
        # its passes slowed loading the last build's record (tens of thousands of objects
        # at 5,000 papers: 0.02 s without them, 0.03 to 0.09 s with), and once the build
        # (which pauses it) was over, its first pass went over every object the build had
        # made just before they are dropped unfreed.
        gc.disable()
    listed = None if args.no_cache else look_at_last_build(args)
    if listed is not None and listed.unchanged:
        report_unchanged(listed.record, args.output, start)
        return 0
    from .build import BuildOptions, build

    from .reading.settings.publishing import Publishing

    options = BuildOptions(args.content, args.output, args.templates, args.strict,
                           jobs=max(args.jobs, 0), cache=not args.no_cache,
                           publishing=Publishing(future=args.future))
    result = build(options, listed=listed)
    if LEFT_TO_EXIT is not None:
        LEFT_TO_EXIT.append(result)
    print_problems(result.warnings)
    papers = count_of(result.papers, "paper")
    print(f"Built {count_of(result.files, 'file')} ({papers}) into "
          f"{options.output_dir.as_posix()}/ in {result.seconds:.2f} s")
    return 0


def look_at_last_build(args: argparse.Namespace):
    """The last build into the output folder and what changed since (fastpath/record.py:
    Listed), looked at before the modules that build are even imported: when nothing
    changed, there is nothing to do."""
    from .fastpath.record import look_at_last_build as look
    from .reading.layout import is_paper_path
    from .reading.settings.publishing import Publishing, build_mode

    from .render.layers import list_layers

    mode = build_mode(args.strict, Publishing(future=args.future))
    return look(args.content, args.output, list_layers(args.templates), mode,
                is_paper_path(args.content))


def report_unchanged(record, output: Path, start: float) -> None:
    """Say what the last build said, that build's `record`: nothing changed since."""
    print_problems(record.warnings)
    print(f"Built {count_of(record.files, 'file')} ({count_of(record.papers, 'paper')}) into "
          f"{output.as_posix()}/ in {time.perf_counter() - start:.2f} s "
          "(nothing changed since the last build)")


def run_serve(args: argparse.Namespace) -> int:
    from .build import BuildOptions
    from .live.serve import ServeError, ServeOptions, serve

    from .reading.settings.publishing import Publishing

    # serve shows what is being written: drafts and future-dated posts too.
    everything = Publishing(drafts=True, future=True)
    options = ServeOptions(BuildOptions(args.content, args.output, args.templates, args.strict,
                                        publishing=everything),
                           host=args.host, port=args.port, open_browser=args.open)
    try:
        return serve(options)
    except ServeError as exc:
        print(printable(f"error: {exc}"), file=sys.stderr)
        return 1


def run_check(args: argparse.Namespace) -> int:
    from .commands.check import run_check as check

    return check(args)


def run_deploy(args: argparse.Namespace) -> int:
    from .commands.deploy import run_deploy as deploy

    return deploy(args)


def run_import_bib(args: argparse.Namespace) -> int:
    from .commands.importer import import_bib, print_result

    return print_result(import_bib(args.bib, args.content, args.force))


def run_new(args: argparse.Namespace) -> int:
    from .commands.new import run_new as new

    return new(args.folder, args.force)


def run_upgrade(args: argparse.Namespace) -> int:
    from .commands.upgrade import run_upgrade as upgrade

    return upgrade(args.folder, args.force)


def run_migrate(args: argparse.Namespace) -> int:
    from .commands.migrate.command import run_migrate as migrate

    return migrate(args)


def run_add(args: argparse.Namespace) -> int:
    from .commands.add import run_add as add

    return add(args)


def run_update(args: argparse.Namespace) -> int:
    from .commands.update import run_update as update

    return update(args)


def describe_os_error(exc: OSError, output: Path | None) -> str:
    """`path: error: what the system said`, as for any other problem; a failed write that
    names no file is the output folder's."""
    where = exc.filename if exc.filename is not None else output or "scholarsite"
    return printable(f"{os.fsdecode(where)}: error: {exc.strerror or exc}")


def main(argv: list[str] | None = None) -> int:
    args = make_parser().parse_args(normalize_argv(list(sys.argv[1:] if argv is None else argv)))
    handlers = {"build": run_build, "serve": run_serve, "check": run_check,
                "deploy": run_deploy, "import-bib": run_import_bib, "new": run_new,
                "upgrade": run_upgrade, "update": run_update, "add": run_add,
                "migrate": run_migrate}
    try:
        return handlers[args.command](args)
    except ContentError as exc:
        print_problems(exc.diagnostics)
        errors = sum(1 for d in exc.diagnostics if d.severity == "error") or len(exc.diagnostics)
        print(f"Build failed: {count_of(errors, 'problem')}; the previous site was left as it was.",
              file=sys.stderr)
        return 1
    except OutputError as exc:  # `path: error: ...`, the path being the output folder
        print(printable(f"{getattr(args, 'output', None) or 'scholarsite'}: error: {exc}"),
              file=sys.stderr)
        return 1
    except WorkerLost as exc:  # killed: the staging folder is dropped, the site untouched
        print(printable(f"{getattr(args, 'output', None) or 'scholarsite'}: error: {exc}; the "
                        "previous site was left as it was"), file=sys.stderr)
        return 1
    except OSError as exc:  # a full disk, a read-only folder, a file gone meanwhile
        print(describe_os_error(exc, getattr(args, "output", None)), file=sys.stderr)
        if args.command in ("build", "serve", "check", "deploy"):
            print("Build failed; the previous site was left as it was.", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


def run(argv: list[str] | None = None) -> NoReturn:
    """main(), then the process ends at once: what it wrote is written and closed, and
    freeing a build's objects one by one at exit takes longer than some builds do."""
    global LEFT_TO_EXIT
    LEFT_TO_EXIT = []
    code = main(argv)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe: no one is left to tell
            pass
    os._exit(code)
