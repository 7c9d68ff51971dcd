"""A deadline for work on input nobody vetted: migrate's reading of an old site, check's
reading of each page. A hostile file that some step reads slowly (a pattern that
backtracks, HTML that html.parser reads in quadratic time) then ends in one error line
instead of holding the command for hours."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Iterator


class DeadlinePassed(BaseException):
    """Raised in the main thread when the deadline passes. A BaseException, as
    KeyboardInterrupt is, so that no reader's `except Exception` (which leaves one file
    behind and goes on) can swallow it."""


def read_seconds(variable: str, default: float) -> float:
    """The environment variable's seconds, or `default`."""
    try:
        return max(float(os.environ.get(variable, "")), 0.001)
    except ValueError:
        return default


@contextlib.contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Raise DeadlinePassed in the body once `seconds` have passed. A timer signal is
    the one thing that stops a regular expression's match midway (the matcher checks for
    signals); where there is none (Windows, a thread other than the main one), no
    deadline is set."""
    if not hasattr(signal, "setitimer") \
            or threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(_signum, _frame):
        raise DeadlinePassed

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
