"""A worker process lost: killed (the system's out-of-memory killer, `kill -9`) or crashed,
it could not send its results nor say why. The build stops with one line, and the staging
folder is dropped, so the previous site stays as it was."""

from __future__ import annotations

import signal


class WorkerLost(Exception):
    """A worker process ended without its results."""


def describe_loss(exitcode: int | None) -> str:
    """Why a worker ended, from its exit code (negative: the signal that ended it; None:
    unknown), as one sentence for the owner."""
    if exitcode is None or exitcode >= 0:
        why = "stopped without its results"
    elif -exitcode == signal.SIGKILL:
        why = "was killed (SIGKILL, as the system does when memory runs out)"
    else:
        try:
            why = f"was killed ({signal.Signals(-exitcode).name})"
        except ValueError:
            why = f"was killed (signal {-exitcode})"
    return (f"a worker process {why} before it finished its share of the build; build "
            "again, or with --jobs 1 to use less memory")
