"""One old file that a reader cannot handle (a value of a shape no site was expected to
write) is left behind, named in the report, and the migration goes on with the others."""

from __future__ import annotations

from .model import Migration


def guarded(mig: Migration, where: str, move, *args) -> None:
    """Call `move(*args)`; an error in it leaves that one file behind, with why, and takes
    back the files and redirects it had added."""
    files, redirects = set(mig.files), set(mig.redirects)
    try:
        move(*args)
    except Exception as exc:  # noqa: BLE001 - any error: the rest of the site still moves
        for path in set(mig.files) - files:
            del mig.files[path]
        for old in set(mig.redirects) - redirects:
            del mig.redirects[old]
        reason = " ".join(str(exc).split())[:120] or type(exc).__name__
        mig.leave(where, f"not moved: migrate could not read it ({reason}); move it by hand")
