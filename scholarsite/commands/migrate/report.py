"""What migrate says at the end: what moved, by kind; what needs a person's look, at its
file and line; what was left behind and why; and what to run next."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from ...diagnostics import count_of
from .model import Migration
from .write import Written

# How each kind of moved file is counted in the report, in this order.
KIND_NAMES = (("paper", "paper"), ("bibtex", "BibTeX file"), ("talk", "talk"),
              ("course", "course"), ("project", "project"), ("news", "news item"),
              ("post", "post"), ("page", "page"), ("home", "home page"), ("cv", "CV"),
              ("file", "file"))


def describe_moved(mig: Migration, done: Written) -> str:
    """What this run wrote, by kind: a second run names only what was new."""
    written = set(done.created) | set(done.replaced)
    moved = Counter(new.what for path, new in mig.files.items() if path in written)
    parts = [count_of(moved[key], name) for key, name in KIND_NAMES if moved.get(key)]
    parts += [count_of(n, key) for key, n in sorted(moved.items())
              if key not in dict(KIND_NAMES)]
    if mig.redirects and "site.yaml" in written:
        n = len(mig.redirects)
        parts.append(f"{n} old address{'' if n == 1 else 'es'} redirected")
    return ", ".join(parts) or "nothing new"


def format_report(mig: Migration, done: Written, content: Path) -> list[str]:
    lines = [f"Moved from {mig.kind} ({mig.old.as_posix()}): {describe_moved(mig, done)}."]
    lines.append(f"Wrote {count_of(len(done.created), 'file')} into {content.as_posix()}/"
                 + (f", replaced {len(done.replaced)}" if done.replaced else "")
                 + (f"; kept {count_of(len(done.kept), 'file')} that were there already "
                    "(--force replaces them)" if done.kept else "") + ".")
    if done.redirects_by_hand:
        lines.append("Add these under 'redirects:' in site.yaml (it is yours, so migrate "
                     "left it as it was):")
        lines += [f"  {old}: {new}" for old, new in done.redirects_by_hand.items()]
    if mig.review:
        lines.append(f"Needs a look ({len(mig.review)}):")
        lines += [f"  {note}" for note in mig.review]
    if mig.left:
        lines.append(f"Left behind ({len(mig.left)}):")
        lines += [f"  {note}" for note in mig.left]
    lines.append(f"Next: build and check the new site, then read the pages the notes above "
                 f"name: scholarsite build --content {content.as_posix()} && "
                 f"scholarsite check --content {content.as_posix()}")
    return lines
