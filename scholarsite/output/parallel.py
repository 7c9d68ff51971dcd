"""Run tasks in forked processes, where that pays.

Reading and rendering are pure Python, so threads would take turns; processes run side by
side. This process forks the children, so they start with everything in memory, and then
works too: each process takes the next task when it is done with its last, heaviest
first, so that none waits on another (estimated costs were off by a factor of ten for
some pages); only results are pickled, back through a pipe. Where processes cannot be
forked safely (Windows, macOS), they are spawned instead (spawning.py), which costs more
per process; in a process with threads, or with too little work to pay for a worker, every
task runs in this process: the results are the same either way.
"""

from __future__ import annotations

import contextlib
import gc
import os
import pickle
import queue
import signal
import sys
import threading
import traceback
from typing import Callable, Iterator, TypeVar

from .workerloss import WorkerLost, describe_loss

T = TypeVar("T")
R = TypeVar("R")
# One process per core, up to this many: on a 16-core machine 8 workers built 1,000 to
# 20,000 papers 7 to 21% faster than 4, and 16 were slower than 8 (issue 36's figures;
# the serial part of a build, reading the record and planning, is what stops them).
MAX_WORKERS = 8
# Forces the start method of worker processes, "fork" or "spawn": to measure on Linux what
# macOS and Windows get, and to test it. Otherwise fork on Linux, spawn elsewhere (macOS
# can fork, but a forked process there may crash in the system's libraries).
START_METHOD_VARIABLE = "SCHOLARSITE_START_METHOD"
# A spawned worker imports the package and unpickles its work before its first task
# (about 0.35 s against about 10 ms to fork): it pays only for this many times the work.
SPAWN_FACTOR = 3


def choose_start_method() -> str:
    forced = os.environ.get(START_METHOD_VARIABLE, "")
    if forced == "spawn" or (forced == "fork" and hasattr(os, "fork")):
        return forced
    return "fork" if sys.platform.startswith("linux") else "spawn"


def count_cores() -> int:
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def count_workers(tasks: int, jobs: int, minimum: int) -> int:
    """How many processes to work with: `jobs` when given (0: one per core, when there
    are at least `minimum` tasks, more when spawned), or 1 in a process with threads,
    which a fork would copy mid-work."""
    method = choose_start_method()
    if jobs == 1 or (method == "fork" and threading.active_count() > 1):
        return 1
    if jobs > 1:
        return jobs
    if method == "spawn":
        minimum *= SPAWN_FACTOR
    return min(count_cores(), MAX_WORKERS) if tasks >= minimum else 1


def map_tasks(task: Callable[[T], R], args: list[T], workers: int,
              weights: list[float] | None = None,
              meanwhile: Callable[[], object] | None = None) -> list[R]:
    """map_forked, or with spawned processes where the start method is spawn (then
    `task` and `args` must pickle)."""
    if min(workers, len(args)) > 1 and choose_start_method() == "spawn":
        from .spawning import map_spawned

        weights = weights or [1.0] * len(args)
        order = sorted(range(len(args)), key=lambda i: (-weights[i], i))
        return map_spawned(task, args, min(workers, len(args)), order, meanwhile)
    return map_forked(task, args, workers, weights, meanwhile)


def map_forked(task: Callable[[T], R], args: list[T], workers: int,
               weights: list[float] | None = None,
               meanwhile: Callable[[], object] | None = None) -> list[R]:
    """[task(arg) for arg in args], run by this process and `workers - 1` forked children,
    heaviest tasks first (`weights`: what each task costs, roughly; 1 each by default);
    results come back in order. `meanwhile`, work for this process alone (what it needs
    next), is done first, while the children start on the tasks."""
    workers = min(workers, len(args))
    tickets = None
    if workers > 1:
        weights = weights or [1.0] * len(args)
        tickets = deal_tickets(sorted(range(len(args)), key=lambda i: (-weights[i], i)))
    if tickets is None:
        if meanwhile:
            meanwhile()
        return [task(arg) for arg in args]
    sys.stdout.flush()  # a child must not inherit output waiting to be written
    sys.stderr.flush()
    children: list[Child] = []
    results: dict[int, R] = {}
    try:
        for _ in range(workers - 1):
            children.append(fork_worker(task, args, tickets))
        if meanwhile:
            meanwhile()
        while (i := take_ticket(tickets)) is not None:
            results[i] = task(args[i])
            for child in children:  # what the children sent meanwhile, a task at a time
                child.receive(results, wait=False)
        for child in children:
            child.receive(results, wait=True)
    finally:
        os.close(tickets)
        for child in children:  # interrupted: no child outlives the work it was for
            child.stop()
    if len(results) != len(args):
        raise WorkerLost(describe_loss(None))
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


def take_ticket(tickets: int) -> int | None:
    """The number of the next task to run, or None when all are taken."""
    ticket = os.read(tickets, TICKET)
    return int.from_bytes(ticket, "little") if ticket else None


FRAME_HEADER = 8  # bytes of a result's length, before the pickled result


class Child:
    """A forked worker, and the results it sends: each task's as soon as it is done, so
    that this process takes them in between its own tasks, rather than all at the end
    (tens of megabytes at once when each result is a run of papers)."""

    def __init__(self, pid: int, pipe: int) -> None:
        self.pid = pid
        self.pipe = pipe
        self.pending = bytearray()
        self.ended = False

    def receive(self, results: dict, wait: bool) -> None:
        """Add the results that have come to `results`; with `wait`, until the child has
        sent all of its own and ended."""
        if self.ended:
            return
        os.set_blocking(self.pipe, wait)
        while True:
            try:
                data = os.read(self.pipe, 1 << 20)
            except BlockingIOError:
                break
            if not data:
                self.end()
                break
            self.pending += data
            self.unpack(results)

    def unpack(self, results: dict) -> None:
        view = memoryview(self.pending)
        start = 0
        while len(view) - start >= FRAME_HEADER:
            size = int.from_bytes(view[start:start + FRAME_HEADER], "little")
            end = start + FRAME_HEADER + size
            if len(view) < end:
                break
            kind, i, payload = pickle.loads(view[start + FRAME_HEADER:end])
            if kind != "ok":
                raise RuntimeError(f"a worker process failed:\n{payload}")
            results[i] = payload
            start = end
        view.release()
        del self.pending[:start]

    def end(self) -> None:
        """The child has closed its pipe: it ended. Killed, it took the task it was on
        with it, so the build stops now rather than after the others."""
        self.ended = True
        os.close(self.pipe)
        exitcode = os.waitstatus_to_exitcode(os.waitpid(self.pid, 0)[1])
        if exitcode < 0:
            raise WorkerLost(describe_loss(exitcode))

    def stop(self) -> None:
        if self.ended:
            return
        self.ended = True
        with contextlib.suppress(OSError):
            os.close(self.pipe)
        with contextlib.suppress(OSError):
            os.kill(self.pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            os.waitpid(self.pid, 0)


def fork_worker(task: Callable[[T], R], args: list[T], tickets: int) -> Child:
    """Fork a child that runs tasks from the ticket pipe and sends each result, pickled,
    through a pipe of its own as soon as it has it."""
    parent = os.getpid()
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid:
        os.close(write_end)
        return Child(pid, read_end)
    os.close(read_end)
    status = 1
    sender = FrameSender(write_end)
    try:
        die_with_parent(parent)
        while (i := take_ticket(tickets)) is not None:
            sender.send(("ok", i, task(args[i])))
        status = 0
    except BaseException:  # noqa: B036 - reported by the parent, whatever it was
        sender.send(("failed", -1, traceback.format_exc()))
    finally:
        sender.close()
        os._exit(status)  # no cleanup of the parent's state: it is the parent's


class FrameSender:
    """Writes pickled results into a pipe from a thread of its own, so that the worker
    goes on with its next task while this process's parent is busy with one of its own
    and not yet reading."""

    def __init__(self, pipe: int) -> None:
        self.pipe = pipe
        self.queue: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self.write_all, daemon=True)
        self.thread.start()

    def send(self, result: tuple) -> None:
        data = pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL)
        self.queue.put(len(data).to_bytes(FRAME_HEADER, "little") + data)

    def write_all(self) -> None:
        with contextlib.suppress(OSError):  # the parent is gone: nothing to send to
            while (data := self.queue.get()) is not None:
                view = memoryview(data)
                while view:
                    view = view[os.write(self.pipe, view):]

    def close(self) -> None:
        self.queue.put(None)
        self.thread.join()
        with contextlib.suppress(OSError):
            os.close(self.pipe)


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


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector off for the build: a build makes hundreds of thousands of
    objects that live until its end, and the collector's passes over them grew with the
    site's size (a quarter of a 5,000-paper build). What a build leaves is collected after."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
