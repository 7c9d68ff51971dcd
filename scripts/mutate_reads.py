"""A mutation test of the read recorder (scholarsite/reads.py): for each field
that a build records reading (a paper's field, `('paper', 'authors')`, or a key of its
view, `('view', 'year')`), drop that field's recording alone and run the tests that
guard the fast paths; each such mutation must fail at least one of them. A mutation
that every test survives is a field whose stale value no test would catch.

The product is never changed: the checkout's files (tracked and new, as `git ls-files`
lists them) are copied to a temporary folder, where reads.py is edited for each
mutation and the tests are run with that copy's package.

    python scripts/mutate_reads.py                 # the fields the tests' site records
    python scripts/mutate_reads.py --quick         # each test with the quick run's share
    python scripts/mutate_reads.py paper.authors view.authors   # these fields only

Exit status 1 when a mutation survives that is not known to be equivalent (EQUIVALENT
says why each such is). About 4 minutes on 2 cores: each mutation runs the tests of
tests/test_reads.py that edit every field in turn and those that add a read, until one
fails.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
READS = Path("scholarsite/reads.py")
# Where the recorder keeps what it notes of one object: every read goes into this set.
ANCHOR = "        return self.paths.setdefault(name, set())\n"
MUTANT = '''

class DroppingSet(set):
    """A set of read paths that drops those of one field: the mutation."""

    def add(self, path):
        if tuple(path[:2]) != DROPPED:
            super().add(path)

    def update(self, *paths):
        for group in paths:
            for path in group:
                self.add(path)


DROPPED = {dropped!r}
'''
# The quick ones first: a run stops at its first failure.
# Mutations no edit can tell from the recorder as it is: every change of the field
# changes another value the same planners record reading (last run: 10 of 16 fields
# killed, these 6 survived).
EQUIVALENT = {
    "paper.slug": "changes with the file's name only: a file gone and one added",
    "paper.source": "changes with the file's name only: a file gone and one added",
    "view.url": "made of the slug",
    "paper.title": "a title edit changes view.title, recorded of the same papers",
    "view.title": "made of paper.title, recorded of the same papers",
    "view.feed_entry": "its date is paper.date's, recorded too; the rest is "
                       "shown in the feed's fragments (fastpath/lists.py)",
}
TESTS = [f"tests/test_reads.py::test_{name}" for name in (
    "a_field_read_by_a_planner_alone_stays_right",
    "a_template_that_reads_a_new_field_stays_right",
    "a_planner_that_reads_a_new_field_stays_right",
    "a_planner_reading_only_the_papers_authors_stays_right",
    "every_field_edited_in_turn_gives_the_cold_build")]
# Lists what the tests' site records reading: its first build and each edit in turn
# (tests/test_reads.py's), run in the copy with the recorder as it is.
BASELINE = """
import json, sys, tempfile
from pathlib import Path
sys.path[:0] = ["tests", "."]
from scholarsite import reads
found = set()
result = reads.ReadLog.result
def noting(self):
    made = result(self)
    found.update(path[:2] for paths in made.values() for path in paths)
    return made
reads.ReadLog.result = noting
from test_reads import EDITS, Sites, apply_edit, start_state
sites = Sites(Path(tempfile.mkdtemp()), start_state())
for i, step in enumerate(EDITS):
    sites.save(apply_edit(sites.state, step, i + 7, i))
print(json.dumps(sorted(found)))
"""


def copy_checkout(dest: Path) -> None:
    """The checkout's tracked and untracked (not ignored) files, copied below `dest`."""
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT,
                            capture_output=True, check=True).stdout.decode().split("\0")
    for rel in filter(None, listed):
        source = ROOT / rel
        if source.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / rel)


def run_in(copy: Path, args: list[str], full: bool) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(copy), PYTHONDONTWRITEBYTECODE="1",
               SCHOLARSITE_FULL_TESTS="1" if full else "0")
    return subprocess.run([sys.executable, *args], cwd=copy, env=env, capture_output=True,
                          text=True)


def run_tests(copy: Path, full: bool) -> subprocess.CompletedProcess:
    return run_in(copy, ["-m", "pytest", "-n", "0", "-x", "-q", "-p", "no:cacheprovider",
                         *TESTS], full)


def mutate(copy: Path, original: str, dropped: tuple[str, str] | None) -> None:
    """reads.py in the copy with `dropped`'s recording left out (None: as it is)."""
    text = original
    if dropped is not None:
        text = original.replace(ANCHOR, ANCHOR.replace("set()", "DroppingSet()")) \
            + MUTANT.format(dropped=dropped)
    (copy / READS).write_text(text, encoding="utf-8")


def first_failure(output: str) -> str:
    failed = [line for line in output.splitlines() if line.startswith("FAILED ")]
    return failed[0].split(" ")[1].split("::")[-1] if failed else "(no test named)"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("fields", nargs="*", help="root.field, e.g. paper.authors")
    # In full by default: the quick run edits a third of the isolated fields, and the
    # mutations of the others would survive it.
    parser.add_argument("--quick", action="store_true",
                        help="each test with the quick run's share of its cases")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="mutate-reads-") as folder:
        copy = Path(folder)
        copy_checkout(copy)
        original = (copy / READS).read_text(encoding="utf-8")
        if ANCHOR not in original:
            sys.exit(f"{READS}: the line a mutation replaces is not there: {ANCHOR.strip()}")
        fields = [tuple(name.split(".", 1)) for name in options.fields]
        if not fields:
            baseline = run_in(copy, ["-c", BASELINE], False)
            if baseline.returncode:
                sys.exit(baseline.stderr)
            fields = [tuple(pair) for pair in json.loads(baseline.stdout.splitlines()[-1])]
        print(f"{len(fields)} recorded fields: {', '.join('.'.join(f) for f in fields)}")
        unmutated = run_tests(copy, not options.quick)
        if unmutated.returncode:  # else every mutation would look killed
            sys.exit(f"the tests fail with the recorder as it is:\n{unmutated.stdout}")
        survived = []
        for dropped in fields:
            mutate(copy, original, dropped)
            start = time.perf_counter()
            run = run_tests(copy, not options.quick)
            took = time.perf_counter() - start
            name = ".".join(dropped)
            if run.returncode == 0 and name in EQUIVALENT:
                print(f"survived {name}, equivalent: {EQUIVALENT[name]} ({took:.0f} s)",
                      flush=True)
            elif run.returncode == 0:
                survived.append(name)
                print(f"SURVIVED {name} ({took:.0f} s)", flush=True)
            else:
                print(f"killed   {name} by {first_failure(run.stdout)} ({took:.0f} s)",
                      flush=True)
        print(f"{len(fields)} mutations: {len(survived)} survived that should not"
              + (f" ({', '.join(survived)})" if survived else ""))
        return 1 if survived else 0


if __name__ == "__main__":
    sys.exit(main())
