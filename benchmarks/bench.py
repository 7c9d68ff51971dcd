#!/usr/bin/env python3
"""Build speed, memory and output size on synthetic sites of N papers, and beside peers.

    python benchmarks/bench.py [--sizes 100,1000,5000] [--runs 5] [--dir DIR] [--no-peers]

For each size it writes a site (benchmarks/corpus.py: ~150-word abstracts, ~8 authors,
links, tiers, a fifth of the papers in BibTeX) and measures, as the median of --runs runs:

- cold: `build.py` in a new process, with no output folder and no cache;
- no change: `build.py` again, nothing changed since the last build;
- one edit: one paper's abstract changed, rebuilt through serve's own path (the
  incremental rebuilder, in process, after a first build) when that path exists, else
  by `build.py` (marked "cli");
- edit, build: one paper's abstract changed, then `build.py` in a new process, after a
  build that followed an edit too (the first build into a folder records nothing that
  the next can take: see scholarsite/fastpath/reuse.py);
- peak RSS of the largest process of a cold build, and the output's size and file count.

Wall time is what a person waits; CPU time (user + system, of the build and its workers)
shows less of what else the machine is doing. When Hugo (Debian package `hugo`) or Pelican
(`pip install pelican`) is installed, the same corpus is converted for it
(benchmarks/peers.py) and built the same way, and the table shows each tool's cold build
beside ours. Nothing here is a test; results depend on the machine, so note its load.
"""

from __future__ import annotations

import argparse
import functools
import os
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from corpus import make_corpus, paper_path  # noqa: E402
from peers import hugo_command, pelican_command, write_hugo, write_pelican  # noqa: E402

CACHE_DIR = ".scholarsite-cache"


@dataclass
class Run:
    wall: float
    cpu: float  # user + system of the process and the workers it waited for
    rss_mb: float  # peak resident memory of the largest process


# Every build runs as a user's Python runs it: keeping bytecode. Where the variable is set
# (some sandboxes and CI), our package would be compiled again on every run (about 0.3 s
# of a 1,000-paper build) while the peers' installed bytecode is used.
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run_process(cmd: list[str], cwd: Path = ROOT) -> Run:
    """Run `cmd`, failing loudly; its wall time, CPU time and peak RSS."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env=CHILD_ENV)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode("utf-8", "replace") if proc.stderr else ""
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{err}")
    # Linux gives ru_maxrss in KiB, macOS in bytes.
    scale = 1 if sys.platform == "darwin" else 1024
    return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * scale / 2**20)


def build_command(content: Path, out: Path, jobs: int) -> list[str]:
    cmd = [sys.executable, str(ROOT / "build.py"), "build", "--content", str(content),
           "--output", str(out), "--templates", str(ROOT / "templates")]
    return cmd + (["--jobs", str(jobs)] if jobs else [])


# Where a run's output is moved rather than deleted, until the size is measured. Some
# file systems (ext4 without a journal, as on the development VM) pass over every inode
# freed in the last minutes when making a file: deleting a site between runs made the next
# run's folders and files 3 to 7 times slower to create, more so run after run, a cost
# that fell on whichever tool writes the most files and that a first build does not pay.
SET_ASIDE = ".set-aside"


def set_aside(path: Path) -> None:
    """Move `path` (if there) out of the way, beside it in SET_ASIDE."""
    if path.exists():
        aside = path.parent / SET_ASIDE
        aside.mkdir(exist_ok=True)
        path.rename(aside / f"{path.name}-{time.monotonic_ns()}")


def clear(out: Path) -> None:
    set_aside(out)
    set_aside(out.parent / CACHE_DIR)


@dataclass(frozen=True)
class Cold:
    """One tool's cold build: its command, and what to remove before each run."""

    name: str
    command: list[str]
    clear: Callable[[], None]


def measure_cold(tools: list[Cold], runs: int) -> dict[str, list[Run]]:
    """Each tool's cold builds, taking turns run by run, so that a change in the machine's
    load falls on all of them alike. One build each first, not timed: it writes our
    bytecode and reads every tool's files into the disk cache."""
    results: dict[str, list[Run]] = {tool.name: [] for tool in tools}
    for n in range(runs + 1):
        for tool in tools:
            tool.clear()
            run = run_process(tool.command)
            if n:
                results[tool.name].append(run)
    return results


def measure_no_change(content: Path, out: Path, runs: int, jobs: int) -> list[Run]:
    run_process(build_command(content, out, jobs))
    return [run_process(build_command(content, out, jobs)) for _ in range(runs)]


def edit_paper(path: Path, n: int) -> None:
    """Change the abstract: the paper's page, its BibTeX-free exports and the lists change."""
    text = path.read_text(encoding="utf-8")
    head, sep, body = text.rpartition("---\n")
    path.write_text(f"{head}{sep}Edited {n} times. {body}", encoding="utf-8")


def measure_cli_edit(content: Path, out: Path, papers: list[dict], runs: int, jobs: int
                     ) -> list[Run]:
    """One paper edited, then `build.py` run, as a person does without serve."""
    target = paper_path(content, papers[len(papers) // 2])
    original = target.read_text(encoding="utf-8")
    try:
        edit_paper(target, 0)
        run_process(build_command(content, out, jobs))
        results = []
        for n in range(1, runs + 1):
            edit_paper(target, n)
            results.append(run_process(build_command(content, out, jobs)))
        return results
    finally:
        target.write_text(original, encoding="utf-8")


def find_live_builder(content: Path, out: Path):
    """serve's rebuilder for this site, or None when this checkout has none."""
    try:
        from scholarsite.build import BuildOptions
        from scholarsite.live.serve import LiveSite
    except ImportError:
        return None
    return LiveSite(BuildOptions(content, out, ROOT / "templates")).builder


def measure_edit(content: Path, out: Path, papers: list[dict], runs: int, jobs: int
                 ) -> tuple[list[Run], str]:
    """One paper edited, then rebuilt: through serve's path when there is one."""
    target = paper_path(content, papers[-1])
    original = target.read_text(encoding="utf-8")
    builder = find_live_builder(content, out)
    results = []
    try:
        if builder is None:
            run_process(build_command(content, out, jobs))
            for n in range(runs):
                edit_paper(target, n)
                results.append(run_process(build_command(content, out, jobs)))
            return results, "cli"
        clear(out)
        builder.build()
        for n in range(runs):
            start, cpu = time.perf_counter(), time.process_time()
            edit_paper(target, n)
            outcome = builder.build([target])
            assert outcome is not None and outcome.ok, outcome
            results.append(Run(time.perf_counter() - start, time.process_time() - cpu, 0))
        return results, "serve"
    finally:
        target.write_text(original, encoding="utf-8")


def output_size(out: Path) -> tuple[float, int]:
    files = [p for p in out.rglob("*") if p.is_file()]
    return sum(p.stat().st_size for p in files) / 2**20, len(files)


def median(runs: list[Run], field: str) -> float:
    return statistics.median(getattr(r, field) for r in runs)


def prepare_peers(papers: list[dict], work: Path) -> list[Cold]:
    """The peers that are installed, each with the corpus converted for it."""
    peers = []
    for name, write, command in (("hugo", write_hugo, hugo_command),
                                 ("pelican", write_pelican, pelican_command)):
        if shutil.which(name) is None:
            print(f"  {name}: not installed, skipped")
            continue
        site, out = write(work / name, papers), work / f"{name}-out"
        peers.append(Cold(name, command(site, out), functools.partial(set_aside, out)))
    return peers


def bench_size(n: int, work: Path, runs: int, jobs: int, peers: bool) -> list[str]:
    work = work / str(n)
    set_aside(work)  # a last run's sites, deleted at the end
    content = work / "content"
    papers = make_corpus(content, n)
    out = work / "site"
    print(f"{n} papers:", flush=True)
    ours = Cold("scholarsite", build_command(content, out, jobs), functools.partial(clear, out))
    others = prepare_peers(papers, work) if peers else []
    colds = measure_cold([ours, *others], runs)
    cold = colds["scholarsite"]
    size, count = output_size(out)
    same = measure_no_change(content, out, runs, jobs)
    cli_edits = measure_cli_edit(content, out, papers, runs, jobs)
    edits, how = measure_edit(content, out, papers, runs, jobs)
    rows = [f"| {n:,} | scholarsite | {median(cold, 'wall'):.2f} | {median(cold, 'cpu'):.2f} | "
            f"{median(same, 'wall'):.3f} | {median(cli_edits, 'wall'):.2f} | "
            f"{median(edits, 'wall') * 1000:.0f} ({how}) | "
            f"{max(r.rss_mb for r in cold):.0f} | {size:.1f} MB, {count:,} files |"]
    for peer in others:
        results = colds[peer.name]
        psize, pcount = output_size(work / f"{peer.name}-out")
        ratio = median(cold, "wall") / median(results, "wall")
        cpu_ratio = median(cold, "cpu") / median(results, "cpu")
        rows.append(f"| {n:,} | {peer.name} | {median(results, 'wall'):.2f} | "
                    f"{median(results, 'cpu'):.2f} | | | | "
                    f"{max(r.rss_mb for r in results):.0f} | {psize:.1f} MB, "
                    f"{pcount:,} files | scholarsite/{peer.name}: {ratio:.2f} "
                    f"(CPU {cpu_ratio:.2f}) |")
    for row in rows:
        print("  " + row, flush=True)
    shutil.rmtree(work / SET_ASIDE, ignore_errors=True)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="100,1000,5000",
                        help="numbers of papers, comma-separated (default: 100,1000,5000)")
    parser.add_argument("--runs", type=int, default=5, help="runs per figure (median)")
    parser.add_argument("--dir", type=Path, default=HERE / "out",
                        help="where sites are written (default: benchmarks/out)")
    parser.add_argument("--jobs", type=int, default=0, help="build.py --jobs (default: auto)")
    parser.add_argument("--no-peers", action="store_true", help="skip Hugo and Pelican")
    args = parser.parse_args()
    rows = []
    for n in (int(s) for s in args.sizes.split(",")):
        rows += bench_size(n, args.dir.resolve(), args.runs, args.jobs, not args.no_peers)
    shutil.rmtree(args.dir.resolve() / SET_ASIDE, ignore_errors=True)
    load = os.getloadavg() if hasattr(os, "getloadavg") else ("?",)
    print(f"\n{time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores, Python "
          f"{sys.version.split()[0]}, load average {load[0]:.2f} at the end, "
          f"median of {args.runs} runs\n")
    print("| papers | tool | cold (s) | cold CPU (s) | no change (s) | edit, build (s) | "
          "one edit (ms) | peak RSS (MB) | output | ratio |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
