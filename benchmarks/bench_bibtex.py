"""How long 1,000 BibTeX papers take: reading the .bib file, and a whole build.

    python3 benchmarks/bench_bibtex.py [N]

Entries are like real ones: ten authors in 'Last, First' form (some with accents in
LaTeX), capital-protecting braces, a month macro, pages with '--', an abstract, links.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scholarsite.reading.bib.bibtex import read_bib_file  # noqa: E402
from scholarsite.build import BuildOptions, build  # noqa: E402
from scholarsite.diagnostics import Diagnostics  # noqa: E402

SITE = """title: Bench
url: https://example.org/
author:
  name: Ada Example
publications:
  group_by: year
  author_limit: 5
"""
MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


def make_entry(i: int) -> str:
    authors = " and ".join(
        [f"M{{\\\"u}}ller{j}, J{{\\'o}}rg" if j % 4 == 0 else f"Person{i}x{j}, Given"
         for j in range(9)] + ["Example, Ada"])
    return (f"@inproceedings{{paper{i},\n"
            f"  title = {{{{GPU}}-Aware Scheduling of {{LLM}} Jobs, Part {i}}},\n"
            f"  author = {{{authors}}},\n"
            f"  booktitle = {{Proceedings of the {i % 40}th Symposium on Systems (SOSP)}},\n"
            f"  year = {2000 + i % 26},\n  month = {MONTHS[i % 12]},\n"
            f"  pages = {{{i}--{i + 12}}},\n  abbr = {{SOSP}},\n"
            f"  url = {{https://example.org/papers/{i}}},\n"
            f"  abstract = {{We study the scheduling of jobs \\& show a 30\\% gain. "
            f"Second sentence with {{Braces}} and --- dashes.}},\n}}\n\n")


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    with tempfile.TemporaryDirectory() as tmp:
        content = Path(tmp) / "content"
        (content / "publications").mkdir(parents=True)
        (content / "site.yaml").write_text(SITE, encoding="utf-8")
        bib = content / "publications" / "papers.bib"
        bib.write_text("".join(make_entry(i) for i in range(n)), encoding="utf-8")
        start = time.perf_counter()
        papers = read_bib_file(bib, Diagnostics())
        read_s = time.perf_counter() - start
        result = build(BuildOptions(content, Path(tmp) / "site", ROOT / "templates"))
        print(f"{len(papers)} papers: read {read_s:.3f} s, whole build {result.seconds:.3f} s "
              f"({result.files} files)")


if __name__ == "__main__":
    main()
