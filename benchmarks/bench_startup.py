#!/usr/bin/env python3
"""Start-up: how long a build takes before it reads its first content file.

    python benchmarks/bench_startup.py [--runs 9] [--papers 10] [--bib] [--jobs N]
                                       [--checkout DIR]

Each run is a new interpreter (`sys.executable`, never a pyenv shim) that builds a small
synthetic site (benchmarks/corpus.py, no `.bib` file unless --bib) cold, with no output
and no cache. An audit hook notes the first file opened inside the content folder: the
wall and processor time from the interpreter's start to then, and which of the heavy
libraries were imported by then and by the end. `python build.py --help` is timed too.
--checkout measures another checkout of scholarsite (an
older commit, say) on the same site. Medians of --runs runs; nothing here is a test, and the figures move with the machine's
load (processor time moves least).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from corpus import make_corpus  # noqa: E402

LIBRARIES = ("jinja2", "markupsafe", "markdown", "pymdownx", "pygments", "latex2mathml",
             "PIL", "bibtexparser", "pylatexenc", "babel", "yaml", "typst")

# Run in the child: the build through the CLI's own main(), an audit hook noting the
# first open() of a file in the content folder. Times are from the interpreter's start
# (its creation time as the system reports it), so Python's own start-up is included.
CHILD = r"""
import json, os, sys, time
content, root, argv = sys.argv[1], sys.argv[2], sys.argv[3:]
first = {}
def note_open(event, args):
    if event != "open" or first or not isinstance(args[0], (str, bytes, os.PathLike)):
        return
    if os.path.abspath(os.fsdecode(args[0])).startswith(content + os.sep):
        first.update(cpu=time.process_time(), wall=time.time(),
                     modules=[m for m in LIBRARIES if m in sys.modules],
                     package=sum(m.startswith("scholarsite.") for m in sys.modules))
LIBRARIES = %r
sys.addaudithook(note_open)
sys.path.insert(0, root)
sys.argv = ["build.py", *argv]
from scholarsite.cli import main
code = main()
first.update(code=code, end_cpu=time.process_time(), end_wall=time.time(),
             end_modules=[m for m in LIBRARIES if m in sys.modules])
print(json.dumps(first), file=sys.stderr)
""" % (LIBRARIES,)


def run_child(content: Path, out: Path, jobs: int, root: Path) -> dict:
    shutil.rmtree(out.parent, ignore_errors=True)
    argv = ["build", "--content", str(content), "--output", str(out), "--no-cache"]
    argv += ["--jobs", str(jobs)] if jobs else []
    start = time.time()
    proc = subprocess.Popen([sys.executable, "-c", CHILD, str(content.resolve()), str(root),
                             *argv], cwd=root, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    _, err = proc.communicate()
    if proc.returncode != 0:
        raise SystemExit(f"the build failed ({proc.returncode}):\n{err}")
    result = json.loads(err.strip().splitlines()[-1])
    result["spawn"] = start
    return result


def time_help(root: Path) -> tuple[float, float]:
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, str(root / "build.py"), "--help"],
                            stdout=subprocess.DEVNULL)
    _, _, usage = os.wait4(proc.pid, 0)
    return time.perf_counter() - start, usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--papers", type=int, default=10)
    parser.add_argument("--bib", action="store_true", help="put a fifth of the papers in a .bib")
    parser.add_argument("--jobs", type=int, default=0)
    parser.add_argument("--checkout", type=Path, default=ROOT,
                        help="the checkout of scholarsite to measure (default: this one)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="scholarsite-startup-") as tmp:
        content = Path(tmp) / "content"
        make_corpus(content, args.papers, bib_share=0.2 if args.bib else 0.0)
        runs = [run_child(content, Path(tmp) / "out" / "site", args.jobs,
                          args.checkout.resolve()) for _ in range(args.runs)]
    helps = [time_help(args.checkout.resolve()) for _ in range(args.runs)]
    median = statistics.median
    print(f"--help: {median(w for w, _ in helps) * 1000:.0f} ms wall, "
          f"{median(c for _, c in helps) * 1000:.0f} ms CPU")
    print(f"to the first content file read: "
          f"{median(r['cpu'] for r in runs) * 1000:.0f} ms CPU (interpreter's own start "
          f"included), {median(r['wall'] - r['spawn'] for r in runs) * 1000:.0f} ms wall "
          f"from the spawn; the package's modules then: {runs[0]['package']}")
    print(f"whole build: {median(r['end_cpu'] for r in runs) * 1000:.0f} ms CPU, "
          f"{median(r['end_wall'] - r['spawn'] for r in runs) * 1000:.0f} ms wall")
    print(f"libraries imported by the first read: {', '.join(runs[0]['modules']) or 'none'}")
    print(f"libraries imported by the end: {', '.join(runs[0]['end_modules']) or 'none'}")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{args.runs} runs, {args.papers} papers{' (a fifth in .bib)' if args.bib else ''}; "
          f"load average {load:.1f}")


if __name__ == "__main__":
    main()
