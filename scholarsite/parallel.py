"""Run tasks in forked processes, where that pays.

Reading and rendering are pure Python, so threads would take turns; processes run side by
side. This process forks the children, so they start with everything in memory, and then
works too: each process takes the next task when it is done with its last, heaviest
first, so that none waits on another (estimated costs were off by a factor of ten for
some pages); only results are pickled, back through a pipe. Where processes cannot be forked safely (Windows, macOS, a process with
threads), or there is too little work to pay for a fork, every task runs in this process:
the results are the same either way.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import sys
import threading
import traceback
from typing import Callable, TypeVar

T = TypeVar("T")
R = TypeVar("R")
MAX_WORKERS = 4  # past this, writing files and merging results gain nothing


def count_workers(tasks: int, jobs: int, minimum: int) -> int:
    """How many processes to work with: `jobs` when given (0: one per core, when there
    are at least `minimum` tasks), or 1 where forking is not safe."""
    if jobs == 1 or not sys.platform.startswith("linux") or threading.active_count() > 1:
        return 1
    if jobs > 1:
        return jobs
    cores = len(os.sched_getaffinity(0))
    return min(cores, MAX_WORKERS) if tasks >= minimum else 1


def map_forked(task: Callable[[T], R], args: list[T], workers: int,
               weights: list[float] | None = None) -> list[R]:
    """[task(arg) for arg in args], run by this process and `workers - 1` forked children,
    heaviest tasks first (`weights`: what each task costs, roughly; 1 each by default);
    results come back in order."""
    workers = min(workers, len(args))
    if workers <= 1:
        return [task(arg) for arg in args]
    order = sorted(range(len(args)), key=lambda i: (-(weights[i] if weights else 1.0), i))
    tickets = deal_tickets(order)
    if tickets is None:
        return [task(arg) for arg in args]
    sys.stdout.flush()  # a child must not inherit output waiting to be written
    sys.stderr.flush()
    children: list[tuple[int, int]] = []
    try:
        for _ in range(workers - 1):
            children.append(fork_worker(task, args, tickets))
        results: dict[int, R] = dict(run_tickets(task, args, tickets))
        while children:
            results.update(collect_share(*children.pop(0)))
    finally:
        os.close(tickets)
        for pid, pipe in children:  # interrupted: no child outlives the work it was for
            with contextlib.suppress(OSError):
                os.close(pipe)
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
            with contextlib.suppress(OSError):
                os.waitpid(pid, 0)
    return [results[i] for i in range(len(args))]


TICKET = 4  # bytes per task number in the ticket pipe


def deal_tickets(order: list[int]) -> int | None:
    """A pipe holding every task number, in `order`, and nothing more to come: its reading
    end, which every process shares (a pipe hands each read of a few bytes to one reader
    whole, so no task is taken twice and none is left out). None when the numbers do not
    fit in a pipe (hundreds of thousands of tasks)."""
    import fcntl  # forking happens on Linux only

    read_end, write_end = os.pipe()
    data = b"".join(i.to_bytes(TICKET, "little") for i in order)
    with contextlib.suppress(OSError):  # the default holds 16,384 tickets
        if len(data) > 65536:
            fcntl.fcntl(write_end, fcntl.F_SETPIPE_SZ, len(data))
    os.set_blocking(write_end, False)  # a full pipe must fail here, not wait forever
    try:
        if os.write(write_end, data) == len(data):
            return read_end
    except BlockingIOError:
        pass
    finally:
        os.close(write_end)
    os.close(read_end)
    return None


def run_tickets(task: Callable[[T], R], args: list[T], tickets: int
                ) -> list[tuple[int, R]]:
    """Take task numbers from the ticket pipe and run them, until none is left."""
    done = []
    while True:
        ticket = os.read(tickets, TICKET)
        if not ticket:
            return done
        i = int.from_bytes(ticket, "little")
        done.append((i, task(args[i])))


def fork_worker(task: Callable[[T], R], args: list[T], tickets: int) -> tuple[int, int]:
    """Fork a child that runs tasks from the ticket pipe and pickles the results into a
    pipe of its own; returns (its pid, that pipe's reading end)."""
    parent = os.getpid()
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid:
        os.close(write_end)
        return pid, read_end
    os.close(read_end)
    status = 1
    try:
        die_with_parent(parent)
        results = run_tickets(task, args, tickets)
        data = pickle.dumps(("ok", results), protocol=pickle.HIGHEST_PROTOCOL)
        status = 0
    except BaseException:  # noqa: B036 - reported by the parent, whatever it was
        data = pickle.dumps(("failed", traceback.format_exc()))
    try:
        with open(write_end, "wb") as stream:
            stream.write(data)
    finally:
        os._exit(status)  # no cleanup of the parent's state: it is the parent's


def collect_share(pid: int, pipe: int) -> list[tuple[int, object]]:
    """A child's results, once it has sent them all and ended."""
    with open(pipe, "rb") as stream:
        data = stream.read()
    os.waitpid(pid, 0)
    try:
        kind, payload = pickle.loads(data)
    except Exception:
        raise RuntimeError("a worker process stopped without its results") from None
    if kind != "ok":
        raise RuntimeError(f"a worker process failed:\n{payload}")
    return payload


def die_with_parent(parent: int) -> None:
    """A child ends when its parent does (a killed build must not leave a process still
    writing into its staging folder)."""
    try:
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:  # the parent died before the line above
        os._exit(1)


def split_spans(count: int, size: int, alone: Callable[[int], bool]) -> list[tuple[int, int]]:
    """(start, end) spans that cover range(count), of at most `size` items each; an item
    for which `alone(i)` holds is a span of its own (a heavy task, to be shared out by
    itself)."""
    spans: list[tuple[int, int]] = []
    start = 0
    for i in range(count):
        single = alone(i)
        if (single or i - start == size) and i > start:
            spans.append((start, i))
            start = i
        if single:
            spans.append((i, i + 1))
            start = i + 1
    if start < count:
        spans.append((start, count))
    return spans
