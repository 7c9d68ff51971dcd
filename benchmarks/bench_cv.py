"""What the CV's PDF adds to a cold build: the demo site built with and without its cv.yaml,
each in a new process with no output, no cache and no stored PDF, side by side.

    python3 benchmarks/bench_cv.py [RUNS]
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "examples" / "demo"


def time_build(content: Path, out: Path) -> float:
    """Seconds for a cold `build.py` of `content`: nothing from an earlier build is kept
    (the output, the cache and the stored pictures and PDF beside it)."""
    for leftover in (out, out.parent / ".scholarsite-cache", out.parent / f".{out.name}.images"):
        shutil.rmtree(leftover, ignore_errors=True)
    start = time.perf_counter()
    subprocess.run([sys.executable, str(ROOT / "build.py"), "--content", str(content),
                    "--output", str(out), "--templates", str(ROOT / "templates")],
                   check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    with tempfile.TemporaryDirectory() as tmp:
        with_cv, without = Path(tmp) / "with", Path(tmp) / "without"
        shutil.copytree(DEMO, with_cv / "content")
        shutil.copytree(DEMO, without / "content")
        (without / "content" / "cv.yaml").unlink()
        times: dict[str, list[float]] = {"with the CV's PDF": [], "without cv.yaml": []}
        for _ in range(runs):  # alternated, so that the machine's load falls on both
            times["with the CV's PDF"].append(time_build(with_cv / "content", with_cv / "site"))
            times["without cv.yaml"].append(time_build(without / "content", without / "site"))
    for name, values in times.items():
        print(f"{name}: median {statistics.median(values):.2f} s, "
              f"min {min(values):.2f} s ({runs} cold builds of the demo)")


if __name__ == "__main__":
    main()
