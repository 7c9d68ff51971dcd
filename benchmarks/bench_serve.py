#!/usr/bin/env python3
"""Live preview speed: the time from saving one paper's file to the rebuilt output.

    python benchmarks/bench_serve.py [--papers 2000] [--edits 20] [--no-server]
                                     [--languages en,zh] [--no-example] [--profile FILE]
                                     [--abstracts] [--corpus]

On two sites, the example site in content/ and a synthetic site of --papers papers (made
in a temporary folder), it measures:

- rebuild: the save, then the incremental rebuild serve runs (SiteBuilder.build with the
  saved path), until every changed file is on disk: what a change costs;
- served: the save, with `build.py serve` running in a subprocess, until the paper's page
  on disk has changed: the above plus noticing the save (a listing every 0.1 s or more,
  then one more after 0.05 s to let a burst of writes settle).

With --languages, the synthetic site is corpus.py's in those languages (each third
paper translated), as a bilingual site's save is measured; with --corpus, it is
corpus.py's site in one language (bench.py's: longer abstracts and more authors, so
larger lists, 35 MB of files written by an abstract's edit at 5,000 papers); --profile writes cProfile's
figures of the abstract edits' rebuilds to FILE; --abstracts makes every edit of the
synthetic site an abstract's. Otherwise two edits alternate: the abstract (the paper's
page changes) and the title (its page, both lists, the sitemap and the BibTeX files
change). Figures are medians, with the 90th
percentile; the machine's other work shows in them, so run it on a quiet machine.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from corpus import make_corpus  # noqa: E402
from scholarsite.build import BuildOptions  # noqa: E402
from scholarsite.live.serve import LiveSite  # noqa: E402

CATEGORIES = ("Systems", "Machine Learning", "Security", "Theory")
SITE_YAML = """\
title: Ada Example
url: https://example.org/
description: Publications of Ada Example.
author:
  name: Ada Example
publications:
  group_by: category
  categories: [Systems, Machine Learning, Security, Theory]
  author_notes:
    "*": Equal contribution
    "†": Corresponding author
"""


def make_synthetic_site(folder: Path, papers: int) -> Path:
    """A site of `papers` papers in a spread of years, venues, categories and authors."""
    content = folder / "content"
    (content / "publications").mkdir(parents=True)
    (content / "site.yaml").write_text(SITE_YAML, encoding="utf-8")
    (content / "index.md").write_text("I study *examples* at scale.\n", encoding="utf-8")
    for i in range(papers):
        authors = [f"Author {i % 97} Name", "Ada Example*" if i % 3 else "Ada Example†",
                   f"Coauthor {i % 31} Other*", f"Third {i % 13} Person"]
        text = (f"---\ntitle: \"A Study of Problem {i} in Context {i % 50}\"\n"
                f"authors: [{', '.join(authors)}]\n"
                f"venue: Conference on Examples {i % 40}\nvenue_short: CoE{i % 40}\n"
                f"date: \"{1990 + i % 36}-{1 + i % 12:02d}\"\n"
                f"category: {CATEGORIES[i % len(CATEGORIES)]}\n"
                f"selected: {'true' if i % 400 == 0 else 'false'}\n"
                f"links:\n  pdf: https://example.org/papers/{i}.pdf\n  doi: 10.1000/ex.{i}\n"
                f"---\nWe study problem {i}. Our method is *fast* and [simple]"
                f"(https://example.org/{i}); it improves the state of the art by {i % 9} %.\n")
        (content / "publications" / f"paper-{i:04d}.md").write_text(text, encoding="utf-8")
    return content


def make_language_site(folder: Path, papers: int, languages: tuple[str, ...]) -> Path:
    """corpus.py's site of `papers` papers in `languages`."""
    content = folder / "content"
    make_corpus(content, papers, languages=languages)
    return content


def copy_example_site(folder: Path) -> Path:
    content = folder / "content"
    shutil.copytree(ROOT / "content", content)
    return content


def pick_paper(content: Path) -> Path:
    """A paper from the middle of the list, with a one-line title and an abstract."""
    papers = sorted((content / "publications").glob("*.md"))
    return papers[len(papers) // 2]


def make_edit(text: str, n: int, abstracts: bool = False) -> tuple[str, str]:
    """The n-th edit of a paper's text, and a marker the rebuilt page will contain: the
    title's for odd n (with `abstracts`, never), else the abstract's. Each edit is made
    to the original text, so that the one after a title's edit brings the title back."""
    marker = f"Edit number {n}"
    if n % 2 and not abstracts:
        new = re.sub(r"(?m)^title: .*$", f'title: "{marker}"', text, count=1)
    else:
        head, sep, body = text.rpartition("---\n")
        new = f"{head}{sep}{marker}. {body}"
    return new, marker


def measure_rebuilds(content: Path, out: Path, edits: int, profile: str | None = None,
                     abstracts: bool = False) -> tuple[list[float], list[float], float]:
    """Seconds per rebuild after a save through serve's own path, wall clock and CPU;
    and the first build's. `profile`: where cProfile's figures of the abstract edits go."""
    live = LiveSite(BuildOptions(content, out, ROOT / "templates"))
    start = time.perf_counter()
    live.builder.build()
    first = time.perf_counter() - start
    live.settle_memory()
    paper = pick_paper(content)
    original = paper.read_text(encoding="utf-8")
    times, cpu = [], []
    profiler = cProfile.Profile() if profile else None
    for n in range(edits):
        text, _ = make_edit(original, n, abstracts)
        if profiler and (abstracts or n % 2 == 0):
            profiler.enable()
        start, start_cpu = time.perf_counter(), time.process_time()
        paper.write_text(text, encoding="utf-8")
        outcome = live.builder.build([paper])
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        if profiler:
            profiler.disable()
        assert outcome is not None and outcome.ok, outcome
    if profiler:
        profiler.dump_stats(profile)
    paper.write_text(original, encoding="utf-8")
    live.builder.build([paper])
    return times, cpu, first


def measure_served(content: Path, out: Path, edits: int) -> list[float]:
    """Seconds from a save to the paper's rebuilt page on disk, with serve running."""
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "build.py"), "serve", "--content", str(content),
         "--output", str(out), "--templates", str(ROOT / "templates"), "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, encoding="utf-8")
    try:
        for line in proc.stdout:
            if "(Ctrl-C to stop)" in line:
                break
        paper = pick_paper(content)
        page = out / "publications" / paper.stem / "index.html"
        original = paper.read_text(encoding="utf-8")
        times = []
        for n in range(edits):
            text, marker = make_edit(original, n)
            time.sleep(0.3)  # start from an idle server
            before = page.stat().st_ino
            start = time.perf_counter()
            paper.write_text(text, encoding="utf-8")
            # serve replaces a changed file by a new one: watch the cheap inode, not the text
            while page.stat().st_ino == before:
                if time.perf_counter() - start > 30:
                    raise RuntimeError("the page did not change within 30 s")
                time.sleep(0.002)
            times.append(time.perf_counter() - start)
            assert marker in page.read_text(encoding="utf-8")
        paper.write_text(original, encoding="utf-8")
        return times
    finally:
        proc.terminate()
        proc.wait(10)


def summary(times: list[float]) -> str:
    ms = sorted(t * 1000 for t in times)
    p90 = ms[min(len(ms) - 1, int(len(ms) * 0.9))]
    return f"median {statistics.median(ms):6.1f} ms, p90 {p90:6.1f} ms"


def run(name: str, content: Path, out: Path, edits: int, server: bool,
        profile: str | None = None, abstracts: bool = False) -> None:
    times, cpu, first = measure_rebuilds(content, out, edits, profile, abstracts)
    print(f"{name}: first build {first:.2f} s")
    if abstracts:
        print(f"  rebuild, abstract edits alone: {summary(times)}  (CPU {summary(cpu)})")
        return
    print(f"  rebuild, abstract edit: {summary(times[0::2])}  (CPU {summary(cpu[0::2])})")
    print(f"  rebuild, title edit:    {summary(times[1::2])}  (CPU {summary(cpu[1::2])})")
    if server:
        shutil.rmtree(out, ignore_errors=True)
        print(f"  served, either edit:    {summary(measure_served(content, out, edits))}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=int, default=2000)
    parser.add_argument("--edits", type=int, default=20)
    parser.add_argument("--no-server", action="store_true", help="skip the served figures")
    parser.add_argument("--no-example", action="store_true", help="skip the example site")
    parser.add_argument("--languages", default="",
                        help="the synthetic site's languages, the default first: en,zh")
    parser.add_argument("--profile", help="write the synthetic site's profile here")
    parser.add_argument("--abstracts", action="store_true",
                        help="the synthetic site's edits are all of the abstract")
    parser.add_argument("--corpus", action="store_true",
                        help="the synthetic site is corpus.py's (bench.py's), in one language")
    args = parser.parse_args()
    languages = tuple(filter(None, args.languages.split(",")))
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
          if hasattr(os, "getloadavg") else "")
    with tempfile.TemporaryDirectory(prefix="bench-serve-") as tmp:
        folder = Path(tmp)
        if not args.no_example:
            run("example site (18 papers)", copy_example_site(folder / "example"),
                folder / "example" / "site", args.edits, not args.no_server)
        if args.corpus and not languages:
            name = f"corpus.py's site ({args.papers} papers)"
            content = make_language_site(folder / "synthetic", args.papers, ())
        elif languages:
            name = f"synthetic site ({args.papers} papers, {', '.join(languages)})"
            content = make_language_site(folder / "synthetic", args.papers, languages)
        else:
            name = f"synthetic site ({args.papers} papers)"
            content = make_synthetic_site(folder / "synthetic", args.papers)
        run(name, content, folder / "synthetic" / "site", args.edits, not args.no_server,
            args.profile, args.abstracts)
    return 0


if __name__ == "__main__":
    sys.exit(main())
