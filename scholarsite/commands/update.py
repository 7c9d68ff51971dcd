"""`update`: the owner's papers from DBLP and ORCID, and citation counts, fetched into
plain files of the content folder, so that `build` stays offline and reproducible.

    publications/dblp.bib     DBLP's entries (the owner may edit them: bibmerge.py)
    publications/orcid.bib    ORCID's works, the same way; and openalex.bib, inspire.bib,
                              arxiv.bib, pubmed.bib, crossref.bib (workfetch.py)
    citations.yaml            each paper's count (reading/citecounts.py reads it)

Every file is written whole through a temporary file (never half), only when its text
changes, and not at all with --dry-run. A source that fails leaves its files as they were
and the others are still updated; the exit status is then 1.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

from .bibmerge import Merged, Record, format_records, merge_records, parse_records
from .counts import count_papers, format_counts
from ..diagnostics import Diagnostics, count_of, printable
from .fetch import FetchError, Fetcher, base_url
from ..models import Paper, SiteConfig
from ..output.paths import why_not_write
from ..output.writer import replace_file
from .workfetch import PAPER_SOURCES, SHAPE_ERRORS
from .papersources import (BULK_SIZE, convert_dblp, convert_orcid_work, list_orcid_works,
                           read_contributors)
from ..reading.bib.bibrepeats import identities
from ..reading.bib.bibtex import read_papers
from ..reading.citecounts import COUNTS_FILE
from ..reading.settings.config import load_config
from ..reading.listing import list_files
from ..reading.loader import CONFIG_FILE, PAPER_SUFFIXES, PAPERS_DIR, load_site
from ..reading.paperfiles import read_paper_file
from ..reading.text.papers import make_markdown
from ..reading.settings.yamlread import read_bytes, read_text

SOURCES = ("dblp", "orcid", *PAPER_SOURCES, "citations")
LABELS = {"dblp": "DBLP", "orcid": "ORCID",
          **{name: label for name, (label, _, _) in PAPER_SOURCES.items()}}


@dataclass
class Report:
    """What the update did (or, with --dry-run, would do), and what failed."""

    dry_run: bool
    lines: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # what a service sent, left out

    def fail(self, message: str) -> None:
        self.failures.append(message)


def run_update(args: argparse.Namespace, fetcher: Fetcher | None = None) -> int:
    diags = Diagnostics(root=Path.cwd())
    config = load_config(args.content / CONFIG_FILE, diags)
    if config is None:
        print_lines(diags.items, sys.stderr)
        return 1
    wanted = [args.only] if args.only else list(SOURCES)
    active = {"dblp": config.sources.dblp, "orcid": config.sources.orcid,
              "citations": config.citations,
              **{name: setting(config) for name, (_, setting, _) in PAPER_SOURCES.items()}}
    if args.only and not active[args.only]:
        print(f"{args.content / CONFIG_FILE}: error: --only {args.only}, but site.yaml sets no "
              f"{'citations' if args.only == 'citations' else 'sources.' + args.only}",
              file=sys.stderr)
        return 1
    if not any(active[name] for name in wanted):
        print("Nothing to update: site.yaml sets no 'sources' and no 'citations' (see "
              "README.md, 'Keeping your papers and citation counts up to date').")
        return 0
    fetcher = fetcher or Fetcher(config.sources.contact or config.owner.email)
    report = Report(args.dry_run)
    if not fetcher.contact:
        report.lines.append("note: site.yaml gives no e-mail address (author.email or "
                            "sources.contact) for the services to reach you by; they ask for one")
    if "dblp" in wanted and config.sources.dblp:
        update_bib("dblp", fetch_dblp(config, fetcher, report), args.content, report)
    if "orcid" in wanted and config.sources.orcid:
        update_bib("orcid", fetch_orcid(config, fetcher, report), args.content, report)
    for name in PAPER_SOURCES:
        if name in wanted and active[name]:
            update_bib(name, fetch_works(name, config, fetcher, report), args.content, report)
    if "citations" in wanted and config.citations:
        update_counts(args.content, config.citations, fetcher, report)
    return print_report(report, fetcher)


def print_lines(items: list, stream) -> None:
    for item in items:  # a service's text among them: shown, never acted on
        print(printable(str(item)), file=stream)


def print_report(report: Report, fetcher: Fetcher) -> int:
    print_lines(report.lines, sys.stdout)
    for warning in report.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    for failure in report.failures:
        print(printable(f"error: {failure}"), file=sys.stderr)
    done = "Nothing was written (--dry-run)" if report.dry_run else "Update done"
    failed = f"; {count_of(len(report.failures), 'problem')}" if report.failures else ""
    print(f"{done}: {count_of(fetcher.requests, 'request')}{failed}.")
    return 1 if report.failures else 0


def fetch_dblp(config: SiteConfig, fetcher: Fetcher, report: Report) -> list[Record] | None:
    url = f"{base_url('dblp')}/pid/{quote(config.sources.dblp, safe='/=')}.bib"
    try:
        text = fetcher.fetch(url, "application/x-bibtex").decode("utf-8")
    except (FetchError, UnicodeDecodeError) as exc:
        report.fail(f"DBLP: {exc}")
        return None
    diags = Diagnostics(root=Path.cwd())
    records = convert_dblp(text, Path(url), diags)
    if diags.has_errors():
        report.fail(f"DBLP: {url}: the answer could not be read: {diags.errors()[0].message}")
        return None
    report.warnings += [f"DBLP: {item}" for item in diags.items]
    return records


def fetch_orcid(config: SiteConfig, fetcher: Fetcher, report: Report) -> list[Record] | None:
    """The works' summaries, then their contributors, a hundred works a request."""
    base = f"{base_url('orcid')}/{config.sources.orcid}"
    notes: list[str] = []
    try:
        works = list_orcid_works(fetcher.fetch_json(f"{base}/works"), notes)
        authors: dict[str, list[str]] = {}
        codes = [str(work["put-code"]) for work in works]
        for at in range(0, len(codes), BULK_SIZE):
            chunk = ",".join(codes[at:at + BULK_SIZE])
            authors.update(read_contributors(fetcher.fetch_json(f"{base}/works/{chunk}")))
    except (FetchError, ValueError) as exc:
        report.fail(f"ORCID: {exc}")
        return None
    records = []
    for work in works:
        record = convert_orcid_work(work, authors.get(str(work["put-code"]), []),
                                    config.owner.name, notes)
        if record is None:
            report.lines.append(f"  ORCID work {work['put-code']} is left out: it has no "
                                "title or no year")
        else:
            records.append(record)
    report.warnings += notes
    return records


def fetch_works(name: str, config: SiteConfig, fetcher: Fetcher,
                report: Report) -> list[Record] | None:
    """One of workfetch.py's sources; None (its files left as they are) when it fails."""
    label, setting, fetch = PAPER_SOURCES[name]
    try:
        listed = fetch(config, fetcher)
    except (FetchError, UnicodeDecodeError, *SHAPE_ERRORS) as exc:
        report.fail(f"{label}: {exc}")
        return None
    report.warnings += listed.notes
    if not listed.records:  # a mistyped id, or a service's bad day: nothing to remove for
        report.fail(f"{label}: no work could be read for sources.{name} "
                    f"({setting(config)!r}); its files were left as they were")
        return None
    return listed.records


def update_bib(name: str, fetched: list[Record] | None, content: Path, report: Report) -> None:
    """publications/<name>.bib merged with what the source now says; nothing on failure."""
    if fetched is None:
        return
    target = content / PAPERS_DIR / f"{name}.bib"
    base_file = target.with_name(f".{name}.fetched.bib")
    diags = Diagnostics(root=Path.cwd())
    for path in (target, base_file):  # update reads and writes as build reads: not through
        problem = why_not_write(path, content)  # a link, nor anything but a regular file
        if problem:
            diags.error(path, 0, problem)
    ours, base = read_records(target, content, diags), read_records(base_file, content, diags)
    if diags.has_errors():
        report.fail(f"{target.as_posix()} was not updated, so that nothing in it is lost: "
                    + "; ".join(str(d) for d in diags.errors()))
        return
    merged = merge_records(base, ours, fetched)
    skipped = drop_repeats(merged, target, content)
    describe_merge(target, ours, merged, skipped, report)
    if not report.dry_run:
        # The owner's file first: were the fetched copy written alone (a crash between
        # the two), the next merge would take the old fields for the owner's edits.
        write_text(target, format_records(merged.records, LABELS[name]))
        write_text(base_file, format_records(merged.base, LABELS[name]))


def read_records(path: Path, content: Path, diags: Diagnostics) -> list[Record]:
    """The file's entries, read through the build's guarded reader; none when there is
    no file yet."""
    if not os.path.lexists(path):
        return []
    text = read_text(path, diags, content)
    return [] if text is None else parse_records(path, text, diags)


def drop_repeats(merged: Merged, target: Path, content: Path) -> list[str]:
    """The source's entries, not edited by the owner, that are papers the site already has
    elsewhere (the same DOI, arXiv id or PubMed id, or title and year): left out, and left out of the fetched
    copy too, so that they are weighed again next time."""
    elsewhere = index_other_papers(target, content)
    text = format_records([r for r in merged.records if r.key in merged.fresh], "")
    skipped = []
    for paper in read_papers(target, text, Diagnostics(root=Path.cwd()))[0]:
        where = next((elsewhere[i] for i in find_identities(paper) if i in elsewhere), "")
        if where:
            skipped.append(f"{paper.bibtex_key} (already in {where})")
            merged.records = [r for r in merged.records if r.key != paper.bibtex_key]
            merged.base = [r for r in merged.base if r.key != paper.bibtex_key]
    return skipped


def index_other_papers(target: Path, content: Path) -> dict[tuple, str]:
    """Where each paper of the content's other paper files is, by its identities."""
    diags = Diagnostics(root=Path.cwd())
    found: dict[tuple, str] = {}
    md = make_markdown()
    for path in list_files(content / PAPERS_DIR, content, diags, PAPER_SUFFIXES):
        if path.resolve() == target.resolve():
            continue
        for paper in read_paper_file(path, md, diags):
            for identity in find_identities(paper):
                found.setdefault(identity, f"{path.relative_to(content).as_posix()}:{paper.line}")
    return found


def find_identities(paper: Paper) -> list[tuple]:
    """What makes two papers one, the surest first: the DOI, the arXiv id, the PubMed id
    (a .bib entry's `pmid`), then the title and year."""
    found = identities(paper)
    extra = [("arxiv", paper.arxiv.lower())] if paper.arxiv else []
    extra += [("pmid", value.strip()) for name, value in paper.extra
              if name.lower() == "pmid" and value.strip()]
    return found[:1] + extra + found[1:] if paper.doi else extra + found


def describe_merge(target: Path, ours: list[Record], merged: Merged, skipped: list[str],
                   report: Report) -> None:
    before = {r.key: r for r in ours}
    after = {r.key: r for r in merged.records}
    added = [key for key in after if key not in before]
    changed = [key for key in after if key in before and after[key] != before[key]]
    removed = [key for key in before if key not in after]
    verb = "would change" if report.dry_run else "changed"
    report.lines.append(f"{target.as_posix()}: {len(after)} entries; {verb}: "
                        f"{len(added)} added, {len(changed)} updated, {len(removed)} removed")
    lines = [*(f"added {k}" for k in added), *(f"updated {k}" for k in changed),
             *(f"removed {k} (gone from the source)" for k in removed),
             *(f"kept your edit of {k}" for k in merged.kept_edits),
             *(f"left out {k} (you deleted it)" for k in merged.owner_deleted),
             *(f"left out {k}" for k in skipped)]
    report.lines += [f"  {line}" for line in lines]


def update_counts(content: Path, service: str, fetcher: Fetcher, report: Report) -> None:
    diags = Diagnostics(root=Path.cwd())
    loaded = load_site(content, diags)
    if loaded is None:
        report.fail("citations: the content has errors; run build to see them: "
                    + "; ".join(str(d) for d in diags.errors()[:3]))
        return
    site = loaded.site
    previous = {count.slug: count for count in site.config.citation_counts}
    counted = count_papers(list(site.papers), service, fetcher, find_today(), previous)
    target = content / COUNTS_FILE
    problem = why_not_write(target, content)
    if problem:
        report.fail(f"{target.as_posix()}: {problem}")
        return
    total = sum(count.count for count in counted.counts)
    verb = "would write" if report.dry_run else "wrote"
    report.lines.append(f"{target.as_posix()}: {verb} {count_of(len(counted.counts), 'count')} "
                        f"({total} citations in all) from {service}")
    report.lines += [f"  {slug}: not known to {service}" for slug in counted.unknown]
    report.warnings += [f"citations: {bad}" for bad in counted.bad]
    for failure in counted.failed:
        report.fail(f"citations: {failure}")
    if not report.dry_run and counted.answered:  # else there is no news to write
        write_text(target, format_counts(counted.counts))


def find_today() -> str:
    """Today (UTC), or SOURCE_DATE_EPOCH's day, as builds take "now"."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    when = dt.datetime.fromtimestamp(int(epoch), dt.timezone.utc) if epoch.isdigit() \
        else dt.datetime.now(dt.timezone.utc)
    return when.date().isoformat()


def write_text(path: Path, text: str) -> None:
    """The file, whole, when its text changes; otherwise untouched (no commit to make).
    The caller has asked why_not_write; the old bytes are read by the guarded reader."""
    data = text.encode("utf-8")
    if not os.path.lexists(path) or read_bytes(path, Diagnostics()) != data:
        replace_file(path, data)
