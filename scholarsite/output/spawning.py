"""Run tasks in spawned processes: the start method macOS and Windows allow.

A spawned process starts as a new interpreter, with nothing of this one's memory, so the
task and its arguments travel to it pickled, once per process (a task carries what every
run of it needs: see paperfiles.ReadTask and render.RenderJob). Tasks are dealt through a
queue, heaviest first, to this process and the children alike, and each result comes
back pickled as soon as it is made, as with forked workers (parallel.map_forked).
"""

from __future__ import annotations

import multiprocessing
import pickle
import queue
import traceback
from typing import Callable, TypeVar

from .lock import WORKER_NAME
from .workerloss import WorkerLost, describe_loss

T = TypeVar("T")
R = TypeVar("R")
POLL_SECONDS = 0.5  # how often a wait for results looks whether the children still live


def map_spawned(task: Callable[[T], R], args: list[T], workers: int, order: list[int],
                meanwhile: Callable[[], object] | None = None) -> list[R]:
    """[task(arg) for arg in args], run by this process and `workers - 1` spawned
    children, in `order`; `task` and `args` must pickle. `meanwhile` is done by this
    process first, while the children start."""
    context = multiprocessing.get_context("spawn")
    tickets = context.Queue()
    results = context.Queue()
    for i in order:
        tickets.put(i)
    for _ in range(workers):
        tickets.put(None)  # one end for each process, this one too
    # The work goes to each child through a pipe of its own, not as the process's
    # arguments: those are written by `start()` itself, which then never returns if the
    # child ends before reading them all (a script that builds unguarded, see
    # lock.refuse_in_worker); a pipe's writer learns that the child has gone.
    payload = pickle.dumps((task, args), protocol=pickle.HIGHEST_PROTOCOL)
    pipes = [context.Pipe(duplex=False) for _ in range(workers - 1)]
    children = [context.Process(target=serve_tasks, args=(reader, tickets, results),
                                name=WORKER_NAME, daemon=True) for reader, _ in pipes]
    done: dict[int, R] = {}
    try:
        for child, (reader, writer) in zip(children, pipes):
            child.start()
            reader.close()
            hand_over(writer, payload)
        del payload  # sent: each child has its copy (the whole site, for rendering)
        if meanwhile:
            meanwhile()
        while (i := take_ticket(tickets, children)) is not None:
            done[i] = task(args[i])
            take_results(results, done, children, wait=False)
        while len(done) < len(args):
            take_results(results, done, children, wait=True)
    finally:
        for child in children:  # interrupted: no child outlives the work it was for
            if child.is_alive():
                child.kill()
            child.join()
        tickets.close()
        results.close()
    return [done[i] for i in range(len(args))]


def take_ticket(tickets: multiprocessing.Queue, children: list) -> int | None:
    """The next task's number (None: no more for this process), looking in between
    whether a child was lost: one killed while it took a ticket would hold the queue's
    lock for ever."""
    while True:
        try:
            return tickets.get(timeout=POLL_SECONDS)
        except queue.Empty:
            check_children(children)


def check_children(children: list) -> None:
    """WorkerLost when a child was killed (SIGKILL, the out-of-memory killer, or a crash):
    it took its task with it. A task's own error is sent as a result; a child that exits
    before taking its work (lock.refuse_in_worker) leaves its share to the others."""
    for child in children:
        if child.exitcode is not None and child.exitcode < 0:
            raise WorkerLost(describe_loss(child.exitcode))


def take_results(results: multiprocessing.Queue, done: dict, children: list, wait: bool
                 ) -> None:
    """Add the results that have come to `done`; with `wait`, at least one, unless a
    child was lost or every child has ended without sending what is missing
    (WorkerLost)."""
    while True:
        try:
            data = results.get(timeout=POLL_SECONDS) if wait else results.get_nowait()
        except queue.Empty:
            check_children(children)
            if not wait:
                return
            if all(child.exitcode is not None for child in children) and results.empty():
                raise WorkerLost(describe_loss(None)) from None
            continue
        kind, i, payload = pickle.loads(data)
        if kind != "ok":
            raise RuntimeError(f"a worker process failed:\n{payload}")
        done[i] = payload
        wait = False


def hand_over(writer, payload: bytes) -> None:
    """Send a child its work; a child that has ended before taking it is let be (this
    process and the other children do its share)."""
    try:
        writer.send_bytes(payload)
    except OSError:  # the pipe is broken: the child has gone
        pass
    finally:
        writer.close()


def serve_tasks(reader, tickets: multiprocessing.Queue,
                results: multiprocessing.Queue) -> None:
    """A spawned child's work: the tasks it takes from `tickets`, each result pickled
    here (so that a result that cannot be pickled is reported, not lost in the queue's
    thread) and sent as soon as it is made."""
    try:
        task, args = pickle.loads(reader.recv_bytes())
        reader.close()
        while (i := tickets.get()) is not None:
            results.put(pickle.dumps(("ok", i, task(args[i])),
                                     protocol=pickle.HIGHEST_PROTOCOL))
    except BaseException:  # noqa: B036 - reported by the parent, whatever it was
        results.put(pickle.dumps(("failed", -1, traceback.format_exc())))
