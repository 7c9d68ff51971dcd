"""A second reading of the truth: the old site's own rendered publications page, where the
repository keeps its build (a `gh-pages` branch, or a committed `_site/`, `public/` or
`docs/` folder). al-folio's page gives every entry's BibTeX key (`<div id="KEY">`), Hugo's
build one folder per paper under publication(s)/; academicpages' list page one
`archive__item-title` a paper. What it finds goes into each site's site.json as `rendered`:
the count, and the truth's papers the build does not show and the other way round (the
build may be of another commit than the one collected: a difference is a lead, not a fact).

    python scripts/corpus_rendered.py MIRRORS CORPUS
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from bs4 import BeautifulSoup

sys.path.insert(0, str(Path(__file__).resolve().parent))
from collect_corpus import find_git_dir, git  # noqa: E402

PAGES = {"al-folio": ("publications/index.html", "publications.html"),
         "academicpages": ("publications/index.html", "publications.html"),
         "hugo": ("publication/index.html", "publications/index.html")}


def built_tree(gdir: Path) -> tuple[str, str] | None:
    """(tree-ish, folder prefix) of the site's build, or None."""
    for ref in ("gh-pages", "origin/gh-pages", "remotes/origin/gh-pages"):
        if subprocess.run(["git", "-C", str(gdir), "rev-parse", "-q", "--verify", ref],
                          capture_output=True).returncode == 0:
            return ref, ""
    tops = git(gdir, "ls-tree", "--name-only", "HEAD").decode().split()
    for folder in ("_site", "public", "docs"):
        if folder in tops:
            return "HEAD", folder + "/"
    return None


def show(gdir: Path, ref: str, path: str) -> str | None:
    done = subprocess.run(["git", "-C", str(gdir), "show", f"{ref}:{path}"],
                          capture_output=True)
    return done.stdout.decode("utf-8", "replace") if done.returncode == 0 else None


def rendered_titles(gdir: Path, kind: str, ref: str, prefix: str) -> tuple[str, set] | None:
    """(page read, keys or titles it shows) of the built publications page."""
    for page in PAGES[kind]:
        text = show(gdir, ref, prefix + page)
        if text is None:
            continue
        soup = BeautifulSoup(text, "html.parser")
        if kind == "al-folio":
            found = {div["id"] for div in soup.select("div[id]")
                     if "col-sm-8" in div.get("class", []) or "col-sm-10" in div.get("class", [])}
        elif kind == "academicpages":
            found = {" ".join(h.get_text().split()) for h in soup.select(".archive__item-title")}
        else:
            names = git(gdir, "ls-tree", "--name-only", f"{ref}:{prefix}{page.rsplit('/', 1)[0]}")
            found = {n for n in names.decode().split() if "." not in n and n != "page"}
        return f"{ref}:{prefix}{page}", found
    return None


def compare(site: Path, mirror: Path) -> dict | None:
    meta = json.loads((site / "site.json").read_text("utf-8"))
    truth = json.loads((site / "TRUTH.json").read_text("utf-8"))
    gdir = find_git_dir(mirror)
    where = built_tree(gdir)
    read = where and rendered_titles(gdir, meta["kind"], *where)
    if not read:
        return None
    page, shown = read
    if meta["kind"] == "al-folio":
        ours = {t["key"] for t in truth}
    elif meta["kind"] == "academicpages":
        ours = {t["title"] for t in truth}
    else:
        ours = {(t["source"].split("/")[-2] if t["source"].endswith("index.md:1")
                 else t["source"].rsplit("/", 1)[-1][:-5]).lower() for t in truth}
        shown = {name.lower() for name in shown}
    return {"page": page, "count": len(shown), "truth_not_rendered": sorted(ours - shown),
            "rendered_not_in_truth": sorted(shown - ours)}


def main(argv: list[str]) -> int:
    mirrors, corpus = Path(argv[0]), Path(argv[1])
    for site in sorted(p for p in corpus.iterdir() if (p / "site.json").is_file()):
        mirror = mirrors / site.name.replace("__", "+", 1) / "repo"
        found = compare(site, mirror) if mirror.is_dir() else None
        if found is None:
            continue
        meta = json.loads((site / "site.json").read_text("utf-8"))
        meta["rendered"] = found
        (site / "site.json").write_text(json.dumps(meta, indent=1, ensure_ascii=False) + "\n",
                                        encoding="utf-8")
        print(f"{site.name}: {found['page']}: {found['count']} shown, truth "
              f"{meta['publications']}; not rendered {len(found['truth_not_rendered'])}, "
              f"not in truth {len(found['rendered_not_in_truth'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
