"""Lighthouse (npm `lighthouse`, tests/package.json) with Debian's Chromium gives 100 in
performance, accessibility, best practices and SEO, on a phone and on a desktop: the demo's
home, publications, a paper, the CV, a post and a notebook post; the lab's home, people (with its photos)
and a person; the bilingual site's Chinese home, publications and paper; served from
127.0.0.1. The runs read the
pages as a visitor's browser would: with Lighthouse's simulated slow phone network, its
layout-shift and console-error audits, its contrast and tap-target checks."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack

import pytest

from browser import chromium_path, require, serve
from conftest import FULL_TESTS, ROOT, site_sources

LIGHTHOUSE = ROOT / "tests" / "node_modules" / "lighthouse" / "cli" / "index.js"
# Lighthouse's Node API over several pages in one Node process and one Chromium (see there).
RUNNER = ROOT / "tests" / "lighthouse.mjs"
# (site, page name) -> path; the sites are conftest's `site_sources`.
PAGES = {("demo", "home"): "", ("demo", "publications"): "publications/",
         ("demo", "paper"): "publications/tidepool-sis-2025/", ("demo", "cv"): "cv/",
         ("demo", "post"): "posts/queueing-in-one-page/",
         ("demo", "notebook"): "posts/simulating-a-queue/",
         ("lab", "home"): "", ("lab", "people"): "people/",
         ("lab", "person"): "people/elena-petrova/",
         ("bilingual", "zh home"): "zh/", ("bilingual", "zh publications"): "zh/publications/",
         ("bilingual", "zh paper"): "zh/publications/harbor-2022/"}
FORMS = ("mobile", "desktop")
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
# By default the two runs that once fell short (the publications page on a phone, a paper on
# a desktop); SCHOLARSITE_FULL_TESTS=1 (as CI runs it first) every page in both forms.
QUICK = {(("demo", "publications"), "mobile"), (("demo", "paper"), "desktop")}
# Pictures Lighthouse takes for its HTML report, which is not made here: time saved. (The
# full-page screenshot is also taken unless disableFullPageScreenshot says not to.)
SKIPPED = ["screenshot-thumbnails", "final-screenshot", "full-page-screenshot"]
FLAGS = {"logLevel": "silent", "onlyCategories": list(CATEGORIES), "skipAudits": SKIPPED,
         "disableFullPageScreenshot": True}
CHROME_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu"]
LANES = 2  # runs side by side, each lane one Node process and one Chromium


def run_lighthouse(runs: list[tuple[str, str]]) -> list[dict]:
    """Lighthouse's report of each (url, form), in order, run one after another."""
    node = shutil.which("node")
    require(node, "Node.js is not installed (apt-get install nodejs npm)")
    require(LIGHTHOUSE.is_file(), "lighthouse is not installed (npm ci --prefix tests)")
    job = {"flags": FLAGS, "chromeFlags": CHROME_FLAGS, "runs": runs}
    env = dict(os.environ, CHROME_PATH=chromium_path())
    proc = subprocess.run([node, str(RUNNER), json.dumps(job)], capture_output=True, text=True,
                          encoding="utf-8", env=env, timeout=180 * len(runs))
    assert proc.returncode == 0, proc.stderr[-2000:]
    reports = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    assert [(r["requestedUrl"], r["configSettings"]["formFactor"]) for r in reports] == runs
    return reports


# Performance is timed, and the tests run side by side on every core: a loaded machine
# takes points off first paint and speed index that a visitor's browser would not. 100 is
# measured on a quiet machine (docs/design.md); here a page must stay above 90, while the
# other three categories, which time nothing, must be 100.
LEAST = {"performance": 0.9}


def shortfalls(report: dict) -> dict[str, list[str]]:
    """Each category under its least score, with the audits that cost it points."""
    found = {}
    for name, category in report["categories"].items():
        if category["score"] is None or category["score"] < LEAST.get(name, 1):
            audits = [report["audits"][ref["id"]] for ref in category["auditRefs"]
                      if ref["weight"] > 0]
            found[name] = [f"{a['id']} {a['score']} {a.get('displayValue', '')}"
                           for a in audits if a["score"] is not None and a["score"] < 1]
    return found


@pytest.mark.full(only=True)  # CI's first step, every page in both forms (QUICK: run by hand)
def test_lighthouse_gives_100_in_every_category_on_a_phone_and_a_desktop(shipped):
    runs = [(page, form) for page in PAGES for form in FORMS
            if FULL_TESTS or (page, form) in QUICK]
    with ExitStack() as stack:
        sources = dict(site_sources())  # built only when a run needs them
        bases = {name: stack.enter_context(serve(shipped(sources[name])[0])) for name in
                 dict.fromkeys(site for (site, _), _ in runs)}
        urls = [(bases[page[0]] + PAGES[page], form) for page, form in runs]
        lanes = [urls[i::LANES] for i in range(LANES) if urls[i::LANES]]
        with ThreadPoolExecutor(max_workers=LANES) as pool:
            done = list(pool.map(run_lighthouse, lanes))
        reports = [done[i % LANES][i // LANES] for i in range(len(runs))]
    scores, short = {}, {}
    for ((site, name), form), report in zip(runs, reports):
        name = f"{site} {name}"
        scores[f"{name} {form}"] = {k: round(c["score"] * 100) for k, c in
                                    report["categories"].items() if c["score"] is not None}
        if shortfalls(report):
            short[f"{name} {form}"] = shortfalls(report)
        cls = report["audits"]["cumulative-layout-shift"]["numericValue"]
        # None on the publications page on a phone (its filters once moved the list); a
        # shift too small to see (a font's last pixel row on a loaded machine) elsewhere.
        assert cls == 0 if (name, form) == ("demo publications", "mobile") else cls < 0.01, \
            (name, form, cls)
    assert all(len(s) == len(CATEGORIES) for s in scores.values()), scores
    assert short == {}, short
