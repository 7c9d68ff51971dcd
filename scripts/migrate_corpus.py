"""Move a whole corpus of real sites in, as a user would: `migrate --account`, `build` and
`check` on every site folder of CORPUS (the layout of ../shared/corpus/sites: TRUTH.json and
site.json beside the site's files; scripts/collect_corpus.py makes more), and every built
paper page compared with the site's TRUTH.json by tests/test_migrate_corpus.py's reader
(BeautifulSoup, never scholarsite's code).

    python scripts/migrate_corpus.py CORPUS [--json REPORT.json] [--only NAME ...]
    python scripts/migrate_corpus.py CORPUS --collect tests/corpus/sites.tsv   # from nothing

Prints one line a site (exit codes, papers faithful of the truth's, pages the truth does not
list, template samples moved, files unaccounted for), the differences by field, and the
totals: sites whole (exit codes 0, every paper faithful, nothing extra, no sample moved,
every file accounted for) and papers faithful. Exits 0; the figures are the result.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from test_migrate_corpus import judge_site  # noqa: E402


def is_whole(got: dict) -> bool:
    return (got["codes"] == {"migrate": 0, "build": 0, "check": 0}
            and got["faithful"] == got["papers"] and not got["extra"]
            and not got["samples_moved"] and not got["unaccounted"])


def describe(name: str, got: dict) -> str:
    codes = "/".join(str(got["codes"][k]) for k in ("migrate", "build", "check"))
    fields = Counter(f for wrong in got["wrong"].values() for f in wrong)
    said = ", ".join(f"{f} {n}" for f, n in sorted(fields.items()))
    return (f"{'WHOLE' if is_whole(got) else 'loss '} {name}: codes {codes}; papers "
            f"{got['faithful']}/{got['papers']}" + (f" ({said})" if said else "")
            + (f"; extra {len(got['extra'])}" if got["extra"] else "")
            + (f"; samples moved {len(got['samples_moved'])}" if got["samples_moved"] else "")
            + (f"; unaccounted {len(got['unaccounted'])}" if got["unaccounted"] else ""))


def accept_own_dois(corpus: Path, name: str, got: dict) -> dict:
    """A DOI the page shows where the old page showed none is right when it is the paper's
    own: the bundle's cite.bib (the old site's own citation download) gives it. Such a
    paper counts as faithful, and is listed under 'accepted'."""
    for source, wrong in list(got["wrong"].items()):
        shown = re.match(r"'([^']+)' != None$", wrong.get("doi", ""))
        cite = (corpus / name / source.rsplit(":", 1)[0]).parent / "cite.bib"
        if shown and cite.is_file() and shown.group(1).casefold() in \
                cite.read_text("utf-8", "replace").casefold():
            got.setdefault("accepted", []).append(f"{source}: doi {shown.group(1)} from cite.bib")
            del wrong["doi"]
            if not wrong:
                del got["wrong"][source]
                got["faithful"] += 1
    return got


def judge_all(corpus: Path, names: list[str]) -> dict[str, dict]:
    results = {}
    for name in names:
        with tempfile.TemporaryDirectory() as tmp:
            try:
                got = judge_site(name, Path(tmp), corpus)
            except Exception as error:  # a crash of the comparison is a finding, not the end
                got = {"codes": {"migrate": -1, "build": -1, "check": -1},
                       "errors": {"runner": repr(error)}, "papers": 0, "faithful": 0,
                       "wrong": {}, "extra": [], "samples_moved": [], "unaccounted": []}
        results[name] = accept_own_dois(corpus, name, got)
        print(describe(name, results[name]), flush=True)
    return results


def totals(results: dict[str, dict]) -> str:
    whole = sum(is_whole(g) for g in results.values())
    papers = sum(g["papers"] for g in results.values())
    faithful = sum(g["faithful"] for g in results.values())
    fields = Counter(f for g in results.values() for w in g["wrong"].values() for f in w)
    sites_by_field = Counter(f for g in results.values()
                             for f in {f for w in g["wrong"].values() for f in w})
    codes = Counter(k for g in results.values() for k, c in g["codes"].items() if c)
    lines = [f"sites whole: {whole}/{len(results)}",
             f"papers faithful: {faithful}/{papers}"
             + (f" ({100 * faithful / papers:.1f}%)" if papers else ""),
             "commands that did not exit 0 (sites): " + (", ".join(
                 f"{k} {n}" for k, n in sorted(codes.items())) or "none"),
             "papers wrong by field (papers, sites): " + (", ".join(
                 f"{f} {n} ({sites_by_field[f]})" for f, n in fields.most_common()) or "none"),
             f"sites with extra pages: {sum(bool(g['extra']) for g in results.values())}",
             f"sites with samples moved: "
             f"{sum(bool(g['samples_moved']) for g in results.values())}",
             f"sites with files unaccounted: "
             f"{sum(bool(g['unaccounted']) for g in results.values())}"]
    return "\n".join(lines)


def collect_missing(manifest: Path, corpus: Path) -> None:
    """When CORPUS lacks any of the manifest's sites, all of them cloned at their pinned
    commits and extracted (scripts/collect_corpus.py: the templates' samples are told by
    what the sites share), so that one command runs the whole corpus from nothing."""
    import csv
    import subprocess

    with manifest.open(encoding="utf-8", newline="") as rows:
        wanted = [row["repository"] for row in csv.DictReader(rows, delimiter="\t")]
    missing = [r for r in wanted if not (corpus / r.replace("/", "__") / "TRUTH.json").is_file()]
    if missing:
        subprocess.run([sys.executable, str(Path(__file__).with_name("collect_corpus.py")),
                        "--from-manifest", str(manifest), str(corpus)],
                       check=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--json", type=Path, help="write every site's findings here")
    parser.add_argument("--only", nargs="*", default=[])
    parser.add_argument("--from-json", type=Path, help="summarise a run's --json again")
    parser.add_argument("--collect", type=Path, metavar="MANIFEST",
                        help="first clone the manifest's sites missing from CORPUS "
                             "(collect_corpus.py --from-manifest; online, needs pybtex)")
    args = parser.parse_args(argv)
    if args.collect:
        collect_missing(args.collect, args.corpus)
    if args.from_json:
        results = json.loads(args.from_json.read_text("utf-8"))
        for name, got in results.items():
            print(describe(name, accept_own_dois(args.corpus, name, got)))
        print(totals(results))
        return 0
    names = sorted((p.name for p in args.corpus.iterdir() if (p / "TRUTH.json").is_file()),
                   key=str.casefold)
    names = [n for n in names if not args.only or n in args.only]
    results = judge_all(args.corpus, names)
    print(totals(results))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1, ensure_ascii=False, default=str),
                             encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
