"""A fixed sample of the larger corpus of real sites, kept in the repository so CI runs it:
tests/corpus/sites/ holds eight academicpages, al-folio and Hugo sites (of the 80-odd that
scripts/collect_corpus.py collects and tests/corpus/sites.tsv lists), extracted as the
shared corpus is (see ../shared/corpus/sites/README.md), with a TRUTH.json read by other
parsers than scholarsite's (PyYAML, tomllib, pybtex: scripts/corpus_truth.py).

Each is moved, built and checked as a user would, and every built paper page compared with
its truth by test_migrate_corpus.py's reader (BeautifulSoup): the same assertions as there.
The whole corpus runs with `python scripts/migrate_corpus.py DIR` (see docs/migrate.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import FULL_TESTS
from test_migrate_corpus import assert_whole, judge_site

SAMPLE = Path(__file__).resolve().parent / "corpus" / "sites"
SITES = sorted(p.name for p in SAMPLE.glob("*") if (p / "TRUTH.json").is_file())


def test_the_sample_is_there():
    """The sample is committed: a checkout without it would pass the test below vacuously."""
    assert len(SITES) >= 8, SITES


# As with the shared corpus: every third site in the README's test command, all of them with
# SCHOLARSITE_FULL_TESTS=1 (CI's first step).
@pytest.mark.full
@pytest.mark.parametrize("name", SITES if FULL_TESTS else SITES[::3])
def test_a_sampled_real_site_moves_builds_checks_and_keeps_every_paper(name, tmp_path):
    assert_whole(judge_site(name, tmp_path, SAMPLE))
