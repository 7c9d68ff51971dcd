"""The shared BibTeX corpus, file by file, as a .bib-only site: entries, papers built,
warnings by kind, and the exit codes of `build` and `check`, as a Markdown table.

    python tests/corpus_report.py [--corpus DIR]

Each file is built alone (as content/publications/papers.bib beside a minimal site.yaml)
in a temporary folder, through the command line as a user runs it. Without the corpus
(../shared/corpus/bib, see its MANIFEST.md) it says so and exits 0.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path

from conftest import MINIMAL_CONFIG, SHARED, TEMPLATES, build_args, run_cli, write_files

CORPUS = SHARED / "corpus" / "bib"
PROBLEM = re.compile(r"^.+?:\d+: (?P<severity>error|warning): (?P<text>.+)$")
PAPERS = re.compile(r"\((\d+) papers?\)")
# An entry as BibTeX starts one: '@type{' or '@type(', less what holds no entry.
ENTRY = re.compile(rb"^[ \t]*@[ \t]*([A-Za-z]+)[ \t]*[{(]", re.MULTILINE)
NOT_ENTRIES = {b"string", b"preamble", b"comment"}
# Kinds of warning, by what their text says; the first that matches names it ('{0}': the
# pattern's group, such as the missing field).
KINDS = (
    ("entries left out (the count)", r"entr(?:y|ies) (?:is|are) left out of the site"),
    ("file left out whole", r"the whole file is left out|not UTF-8"),
    ("unparseable entry", r"could not be read"),
    ("undefined @string macro", r"undefined @string macro"),
    ("crossref to no entry in the file", r"crossref '.*' names no"),
    ("crossref'd entry", r"other entries crossref it"),
    ("missing {0}", r"missing required field '(\w+)'"),
    ("author with no name", r"names nobody|has no name|name is empty|only markers"),
    ("unreadable name", r"cannot read the name"),
    ("field given twice", r"is given twice"),
    ("exact repeat shown once", r"repeats? .* exactly"),
    ("two entries one address (second moved)", r"would both have the page address"),
    ("key used twice", r"key is used twice"),
    ("same paper in two files", r"the same paper is listed twice"),
    ("bad year", r"'year' must be"),
    ("bad date", r"'date'|'day'"),
    ("unreadable month", r"'month'"),
    ("link to a missing file, left out", r"link '\w+' \(.*\) is no file"),
    ("link left out", r"link '\w+' .*left out"),
    ("link repaired", r"link '\w+' "),
    ("preview left out", r"'preview'"),
    ("no venue", r"no venue"),
    ("journal that is a conference", r"is a conference, not a journal"),
    ("biblatex @set skipped", r"biblatex @\w+ entries only"),
    ("unknown entry type", r"is not an entry type"),
    ("math shown as text", r"cannot be converted to MathML"),
    ("flag not true/false", r"must be true or false"),
)


def count_entries(path: Path) -> int:
    return sum(1 for m in ENTRY.finditer(path.read_bytes())
               if m.group(1).lower() not in NOT_ENTRIES)


def kind_of(message: str) -> str:
    for kind, pattern in KINDS:
        found = re.search(pattern, message)
        if found:
            return kind.format(*found.groups())
    return "other: " + " ".join(message.split()[:6])


def count_kinds(stderr: str) -> Counter:
    kinds: Counter = Counter()
    for line in stderr.splitlines():
        found = PROBLEM.match(line)
        if found:
            severity = "" if found["severity"] == "warning" else "ERROR "
            kinds[severity + kind_of(found["text"])] += 1
    return kinds


def report_file(path: Path) -> dict:
    """Build and check one .bib file as a site of its own."""
    with tempfile.TemporaryDirectory() as tmp:
        content = write_files(Path(tmp) / "content", {"site.yaml": MINIMAL_CONFIG})
        (content / "publications").mkdir()
        (content / "publications" / "papers.bib").write_bytes(path.read_bytes())
        built = run_cli(*build_args(content, None, "--no-cache"), timeout=600)
        checked = run_cli("check", "--content", str(content), "--templates", str(TEMPLATES),
                          "--no-cache", timeout=600)
    papers = PAPERS.search(built.out)
    kinds = count_kinds(built.err)
    if "Traceback" in built.err:
        kinds["CRASH (a traceback)"] += 1
    said = checked.out.strip() or checked.err.strip()
    summary = (said.splitlines() or [""])[-1].replace("|", "/")
    return {"file": path.name, "entries": count_entries(path),
            "papers": int(papers.group(1)) if papers else 0, "kinds": kinds,
            "build": built.code, "check": checked.code,
            "check_says": summary.split(": ", 1)[-1] if checked.code == 0 else summary}


def format_table(rows: list[dict]) -> str:
    lines = ["| file | entries | papers built | warnings by kind | build exit | check exit |"
             " check says |", "|---|--:|--:|---|--:|--:|---|"]
    for row in rows:
        kinds = "; ".join(f"{kind}: {n}" for kind, n in sorted(row["kinds"].items())) or "none"
        lines.append(f"| {row['file']} | {row['entries']} | {row['papers']} | {kinds} "
                     f"| {row['build']} | {row['check']} | {row['check_says']} |")
    total = Counter()
    for row in rows:
        total.update(row["kinds"])
    lines += ["", f"{len(rows)} files, {sum(r['entries'] for r in rows)} entries, "
              f"{sum(r['papers'] for r in rows)} papers built; build exit 0 for "
              f"{sum(r['build'] == 0 for r in rows)}, check exit 0 for "
              f"{sum(r['check'] == 0 for r in rows)}.", "",
              "Warnings in all: " + ("; ".join(f"{k}: {n}" for k, n in sorted(total.items()))
                                     or "none") + "."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS,
                        help=f"the folder of .bib files (default: {CORPUS})")
    args = parser.parse_args(argv)
    files = sorted(args.corpus.glob("*.bib")) if args.corpus.is_dir() else []
    if not files:
        print(f"No .bib files in {args.corpus}: nothing to report.", file=sys.stderr)
        return 0
    rows = []
    for path in files:
        print(f"{path.name}...", file=sys.stderr, flush=True)
        rows.append(report_file(path))
    print(format_table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
