"""Collect real academicpages, al-folio and Hugo (Academic, Wowchemy, Blox) sites into the
layout of the migrate corpus (../shared/corpus/sites, see its README): one folder per site,
named `<owner>__<repo>`, holding only what a migration reads, at the paths of the repository,
big binaries replaced by small stand-ins (listed in SUBSTITUTIONS.txt), with the site's
site.json and TRUTH.json, the truth read by other parsers than scholarsite's (PyYAML, tomllib,
pybtex: see corpus_truth.py).

    python scripts/collect_corpus.py MIRRORS OUT [--manifest tests/corpus/sites.tsv]
    python scripts/collect_corpus.py --from-manifest tests/corpus/sites.tsv OUT

MIRRORS holds git mirrors as `<owner>+<repo>/repo` (bare, or with a .git inside); with
--from-manifest each repository of the manifest is cloned from GitHub (when online) and read
at its pinned commit. Run it with a Python that has PyYAML and pybtex (not scholarsite's
dependencies: a scratch virtual environment outside the repository will do).
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus_placeholders import stand_in  # noqa: E402
from corpus_describe import describe_site  # noqa: E402
from corpus_truth import read_truth  # noqa: E402

LIMIT = 60_000
JEKYLL = re.compile(r"^(_config\.yml$|(_data|_pages|_publications|_bibliography|_talks|_teaching|"
                    r"_news|_posts|_projects|_portfolio|files|images|assets/pdf|assets/img)/|"
                    r"assets/json/resume\.json$)")
HUGO = re.compile(r"^((config|hugo)\.(toml|ya?ml|json)$|(config|data|content|static|"
                  r"assets/media)/)")
NEVER_REPLACED = re.compile(r"\.(md|markdown|bib|ya?ml|toml)$", re.I)
TABLES = re.compile(r"\.(json|csv|tsv)$", re.I)
BINARY = re.compile(r"\.(pdf|png|jpe?g|gif|webp|ico|bmp|tiff?|zip|gz|tgz|pptx?|docx?|xlsx?|"
                    r"mp4|mov|avi|webm|mp3|wav|eps|ps|psd|ai|key|woff2?|ttf|otf|eot|pkl|h5|"
                    r"npy|npz|mat|dat|bin|jar)$", re.I)
MANIFEST_FIELDS = ("folder", "repository", "commit", "commit_date", "kind", "language", "field",
                   "publications", "hidden", "unasserted")


@dataclass(frozen=True)
class Entry:
    mode: str
    kind: str
    blob: str
    size: int | None
    path: str


def git(gdir: Path, *args: str, data: bytes | None = None) -> bytes:
    return subprocess.run(["git", "-C", str(gdir), *args], input=data, capture_output=True,
                          check=True).stdout


def find_git_dir(path: Path) -> Path:
    return path / ".git" if (path / ".git").is_dir() else path


def list_tree(gdir: Path, commit: str) -> list[Entry]:
    entries = []
    for record in git(gdir, "ls-tree", "-r", "-l", "-z", commit).split(b"\0"):
        if not record:
            continue
        head, _, path = record.partition(b"\t")
        mode, kind, blob, size = head.decode().split()
        entries.append(Entry(mode, kind, blob, int(size) if size.isdigit() else None,
                             path.decode("utf-8", "surrogateescape")))
    return entries


def detect_kind(paths: set[str]) -> str | None:
    """al-folio keeps its papers in _bibliography/, academicpages in _publications/, Hugo
    Academic and its heirs under content/ beside a Hugo configuration."""
    tops = {p.split("/", 1)[0] for p in paths}
    if "_config.yml" in tops and any(p.startswith("_bibliography/") and p.endswith(".bib")
                                     for p in paths):
        return "al-folio"
    if "_config.yml" in tops and "_publications" in tops:
        return "academicpages"
    hugo_config = tops & {"config.toml", "config.yaml", "hugo.toml", "hugo.yaml", "config"}
    if hugo_config and "content" in tops:
        return "hugo"
    return None


def is_kept(kind: str, path: str) -> bool:
    return bool((HUGO if kind == "hugo" else JEKYLL).search(path))


def read_blobs(gdir: Path, blobs: list[str]) -> dict[str, bytes]:
    """Every blob's bytes through one `git cat-file --batch`; a blob the snapshot does not
    hold is absent from the answer."""
    out = git(gdir, "cat-file", "--batch", data="".join(b + "\n" for b in blobs).encode())
    found, at = {}, 0
    while at < len(out):
        end = out.index(b"\n", at)
        header = out[at:end].decode().split()
        at = end + 1
        if header[-1] == "missing":
            continue
        size = int(header[2])
        found[header[0]] = out[at:at + size]
        at += size + 1
    return found


def is_replaced_text(path: str) -> bool:
    """Whether a big text file is one no migration parses (see the corpus README)."""
    if NEVER_REPLACED.search(path):
        return False
    if TABLES.search(path):
        return path != "assets/json/resume.json" and bool(
            re.match(r"(static|files|images|assets)/", path))
    return True


def substitute(entry: Entry, data: bytes | None) -> tuple[bytes, str | None]:
    """The bytes to write for `entry`, and the SUBSTITUTIONS.txt line when they are not its own."""
    where = f"{entry.path}: "
    if data is None:
        stand, words = stand_in(entry.path)
        return stand, f"{where}absent from the snapshot (size unknown, blob {entry.blob}); " \
                      f"replaced by {words}"
    if len(data) <= LIMIT:
        return data, None
    binary = b"\0" in data[:8000] or bool(BINARY.search(entry.path))
    if not binary and not is_replaced_text(entry.path):
        return data, None
    stand, words = stand_in(entry.path)
    what = "bytes" if binary else "bytes of text that no migration parses"
    return stand, f"{where}{len(data)} {what}, blob {entry.blob}; replaced by {words}"


def extract_site(gdir: Path, commit: str, kind: str, out: Path) -> list[str]:
    """Write the kept files of `commit` under `out`; the substitution lines."""
    entries = [e for e in list_tree(gdir, commit) if is_kept(kind, e.path)]
    lines = [f"{e.path}: {'symbolic link' if e.mode == '120000' else 'submodule'}, left out"
             for e in entries if e.mode in ("120000", "160000")]
    files = [e for e in entries if e.kind == "blob" and e.mode != "120000"]
    blobs = read_blobs(gdir, sorted({e.blob for e in files}))
    for entry in files:
        data, line = substitute(entry, blobs.get(entry.blob))
        target = out / entry.path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        if line:
            lines.append(line)
    return sorted(lines)


def write_substitutions(out: Path, lines: list[str]) -> None:
    head = ("Files changed or left out when this site was copied into the corpus.\n"
            "Binary files over 60,000 bytes were replaced by a small placeholder of the same "
            "name and format.\n\n")
    (out / "SUBSTITUTIONS.txt").write_text(head + "".join(l + "\n" for l in lines),
                                           encoding="utf-8")


def template_blobs(mirrors: list[Path], shared: Path | None) -> set[str]:
    """Blobs that are the templates' own files: a blob found in four or more unrelated
    sites' trees of the moved kinds, and the files the shared corpus names as samples."""
    seen: dict[str, set[str]] = {}
    for mirror in mirrors:
        try:
            entries = list_tree(mirror, "HEAD")
        except subprocess.CalledProcessError:
            continue
        for e in entries:
            if e.kind == "blob" and (e.size or 0) >= 16 and (JEKYLL.search(e.path) or
                                                            HUGO.search(e.path)):
                seen.setdefault(e.blob, set()).add(
                    mirror.parts[-3] if mirror.name == ".git" else
                    mirror.parent.name if mirror.name == "repo" else mirror.name)
    blobs = {b for b, owners in seen.items() if len(owners) >= 4}
    for meta_path in (shared.glob("*/site.json") if shared else []):
        site = meta_path.parent
        for rel in json.loads(meta_path.read_text(encoding="utf-8"))["template_samples"]:
            if (site / rel).is_file():
                blobs.add(git(site, "hash-object", str(site / rel)).decode().strip())
    return blobs


def sample_files(samples: set[str], paths: set[str]) -> list[str]:
    """The sample files, less a Hugo bundle's pictures and data where the bundle's page is
    the owner's (an owner's post keeps the template's featured.jpg: it moves with it)."""
    kept = []
    for path in sorted(samples):
        if path.rsplit("/", 1)[-1].startswith("."):  # .DS_Store and kin: no one's content
            continue
        page = path.rsplit("/", 1)[0] + "/index.md"
        if page != path and page in paths and page not in samples:
            continue
        kept.append(path)
    return kept

def commit_facts(gdir: Path, commit: str) -> tuple[str, str]:
    sha, date = git(gdir, "log", "-1", "--format=%H %cI", commit).decode().split()
    return sha, date


def collect_one(gdir: Path, repository: str, commit: str, out_root: Path,
                samples: set[str]) -> dict | None:
    """Extract one site and write its truth; its manifest row, or None when it is no site of
    the three kinds or only the template's samples."""
    sha, date = commit_facts(gdir, commit)
    entries = list_tree(gdir, sha)
    kind = detect_kind({e.path for e in entries})
    if kind is None:
        return None
    folder = repository.replace("/", "__")
    out = out_root / folder
    lines = extract_site(gdir, sha, kind, out)
    write_substitutions(out, lines)
    sample_paths = sample_files({e.path for e in entries if e.blob in samples
                                 and is_kept(kind, e.path)}, {e.path for e in entries})
    truth, meta = read_truth(out, kind, date, set(sample_paths))
    if not truth:  # the template as it came, or no papers at all: nothing to compare
        subprocess.run(["rm", "-rf", str(out)], check=True)
        return None
    meta.update(kind=kind, repository=f"https://github.com/{repository}", commit=sha,
                commit_date=date, publications=len(truth), template_samples=sample_paths)
    (out / "TRUTH.json").write_text(json.dumps(truth, indent=1, ensure_ascii=False) + "\n",
                                    encoding="utf-8")
    (out / "site.json").write_text(json.dumps(meta, indent=1, ensure_ascii=False) + "\n",
                                   encoding="utf-8")
    language, field = describe_site(out, kind, truth)
    return {"folder": folder, "repository": repository, "commit": sha, "commit_date": date,
            "kind": kind, "language": language, "field": field, "publications": len(truth),
            "hidden": len(meta["hidden_publications"]), "unasserted": len(meta["unasserted"])}



SAMPLE_TITLE = re.compile(r"^(paper title number \d+|an example (journal article|conference "
                          r"paper|preprint.*)|the title of the paper)$", re.I)


def is_sample(entry: dict, titles: dict[str, set[str]], least: int) -> bool:
    """The templates' own papers: academicpages' 'Paper Title Number 1', Hugo's 'An example
    journal article', al-folio's papers by Albert Einstein, and any title found on `least`
    or more unrelated sites."""
    return bool(SAMPLE_TITLE.match(entry["title"])) or any(
        re.search(r"\beinstein\b", name, re.I) for name in entry["authors"] or []) or \
        len(titles[entry["title"].casefold()]) >= least


def hide_sample_titles(out: Path, rows: list[dict], least: int = 4) -> list[dict]:
    """Hide the templates' sample papers (is_sample), also where the owner edited the file
    around them; drop a site left with none."""
    titles: dict[str, set[str]] = {}
    for row in rows:
        for entry in json.loads((out / row["folder"] / "TRUTH.json").read_text("utf-8")):
            titles.setdefault(entry["title"].casefold(), set()).add(row["folder"])
    kept = []
    for row in rows:
        site = out / row["folder"]
        truth = json.loads((site / "TRUTH.json").read_text("utf-8"))
        meta = json.loads((site / "site.json").read_text("utf-8"))
        own = [e for e in truth if not is_sample(e, titles, least)]
        meta["hidden_publications"] += [
            {"source": e["source"], "reason": "the template's sample paper (its title, or "
             f"Einstein as author; title on {len(titles[e['title'].casefold()])} sites)"}
            for e in truth if is_sample(e, titles, least)]
        if not own:
            subprocess.run(["rm", "-rf", str(site)], check=True)
            continue
        meta["publications"] = row["publications"] = len(own)
        row["hidden"] = len(meta["hidden_publications"])
        for name, data in (("TRUTH.json", own), ("site.json", meta)):
            (site / name).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n",
                                     encoding="utf-8")
        kept.append(row)
    return kept

def retruth(out: Path, rows: list[dict]) -> list[dict]:
    """Read the truth of already collected sites again (after a change of corpus_truth.py)."""
    for row in rows:
        site = out / row["folder"]
        meta = json.loads((site / "site.json").read_text("utf-8"))
        files = {p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()}
        meta["template_samples"] = sample_files(set(meta["template_samples"]), files)
        truth, fresh = read_truth(site, meta["kind"], meta["commit_date"],
                                  set(meta["template_samples"]))
        meta.update(fresh, publications=len(truth))
        row.update(publications=len(truth), hidden=len(fresh["hidden_publications"]),
                   unasserted=len(fresh["unasserted"]))
        for name, data in (("TRUTH.json", truth), ("site.json", meta)):
            (site / name).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n",
                                     encoding="utf-8")
    return hide_sample_titles(out, rows)

def write_manifest(path: Path, rows: list[dict]) -> None:
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, MANIFEST_FIELDS, delimiter="\t", lineterminator="\n")
        writer.writeheader()
        writer.writerows(sorted(rows, key=lambda r: (r["kind"], r["folder"].casefold())))


def read_manifest(path: Path) -> list[dict]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def clone_pinned(repository: str, commit: str, into: Path) -> Path:
    """A bare clone of a public repository holding `commit` (needs the network)."""
    target = into / repository.replace("/", "+")
    subprocess.run(["git", "clone", "--bare", "--filter=blob:limit=10m", "-q",
                    f"https://github.com/{repository}", str(target)], check=True)
    return target


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mirrors", nargs="?", type=Path, help="folder of <owner>+<repo>/repo")
    parser.add_argument("out", type=Path, help="folder to write the sites into")
    parser.add_argument("--manifest", type=Path, help="TSV to write (one row a site)")
    parser.add_argument("--from-manifest", type=Path, help="clone a manifest's pinned sites")
    parser.add_argument("--exclude", type=Path, help="a corpus whose sites are left out")
    parser.add_argument("--only", nargs="*", default=[], help="owner/repo to collect")
    parser.add_argument("--retruth", action="store_true",
                        help="read the truth again for OUT's sites of --manifest, in place")
    return parser.parse_args(argv)


def mirror_list(root: Path, only: list[str], exclude: set[str]) -> list[tuple[str, Path]]:
    found = []
    for repo_dir in sorted(root.glob("*+*/repo")):
        repository = repo_dir.parent.name.replace("+", "/", 1)
        if repository.replace("/", "__") in exclude or only and repository not in only:
            continue
        found.append((repository, repo_dir))
    return found


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    exclude = {p.name for p in args.exclude.iterdir()} if args.exclude else set()
    if args.retruth:
        write_manifest(args.manifest, retruth(args.out, read_manifest(args.manifest)))
        return 0
    rows = []
    if args.from_manifest:
        with tempfile.TemporaryDirectory() as scratch:
            pinned = read_manifest(args.from_manifest)
            gdirs = [clone_pinned(r["repository"], r["commit"], Path(scratch)) for r in pinned]
            samples = template_blobs(gdirs, args.exclude)
            for row, gdir in zip(pinned, gdirs):
                rows.append(collect_one(gdir, row["repository"], row["commit"], args.out,
                                        samples))
    else:
        mirrors = mirror_list(args.mirrors, args.only, exclude)
        every = [m for _, m in mirror_list(args.mirrors, [], set())]
        samples = template_blobs([find_git_dir(m) for m in every], args.exclude)
        for repository, repo_dir in mirrors:
            row = collect_one(find_git_dir(repo_dir), repository, "HEAD", args.out, samples)
            print(f"{repository}: {row and row['kind']} {row and row['publications']}",
                  file=sys.stderr)
            rows.append(row)
    rows = hide_sample_titles(args.out, [r for r in rows if r])
    if args.manifest:
        write_manifest(args.manifest, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
