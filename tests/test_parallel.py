"""Work shared out among forked processes gives what one process gives: the same results
in the same order, the same site byte for byte, the same problems reported once."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from conftest import MINIMAL_PAPER, ROOT, build_args, copy_templates, edit, paper, run_cli, tree_bytes

from scholarsite.output.parallel import (START_METHOD_VARIABLE, map_forked, map_tasks,
                                         split_spans)

forking = pytest.mark.skipif(not sys.platform.startswith("linux"),
                             reason="work is shared out by fork on Linux only")


def square_slowly(n: int) -> tuple[int, int]:
    time.sleep(0.01)  # long enough that every process gets some of the tasks
    return n * n, os.getpid()


@forking
def test_results_come_back_in_order_from_every_process():
    results = map_forked(square_slowly, list(range(40)), 3, [40 - n for n in range(40)])
    assert [r[0] for r in results] == [n * n for n in range(40)]
    assert len({pid for _, pid in results}) == 3  # this process and two children
    assert map_forked(lambda n: n + 1, [1, 2], 1) == [2, 3]


@forking
def test_each_task_runs_once_whoever_takes_it(tmp_path):
    log = tmp_path / "ran"

    def task(n: int) -> int:
        with open(log, "a", encoding="utf-8") as stream:  # appends of a line are whole
            stream.write(f"{n} {os.getpid()}\n")
        return n

    assert map_forked(task, list(range(3000)), 2) == list(range(3000))
    ran = [line.split() for line in log.read_text(encoding="utf-8").splitlines()]
    assert sorted(int(n) for n, _ in ran) == list(range(3000))


@forking
def test_a_failing_task_fails_the_whole_map_wherever_it_ran():
    parent = os.getpid()

    def fail_in(where: str):
        def task(n: int) -> int:
            time.sleep(0.02)
            if (os.getpid() == parent) == (where == "parent"):
                raise ValueError("seven")
            return n
        return task

    with pytest.raises(RuntimeError, match="seven"):  # a child's, with its traceback
        map_forked(fail_in("child"), list(range(8)), 2)
    with pytest.raises(ValueError, match="seven"):  # this process's: raised as it is
        map_forked(fail_in("parent"), list(range(8)), 2)
    with pytest.raises(ChildProcessError):  # and no child is left behind
        os.waitpid(-1, os.WNOHANG)


def test_runs_of_tasks_are_split_around_heavy_ones():
    assert split_spans(10, 3, lambda i: i in (1, 7)) == [(0, 1), (1, 2), (2, 5), (5, 7),
                                                         (7, 8), (8, 10)]


@forking
def test_a_site_built_by_two_processes_is_the_site_built_by_one(make_site, tmp_path):
    files = {f"publications/p-{i}.md": MINIMAL_PAPER.replace("A Paper", f"Paper {i}")
             .replace("An abstract.", f"An *abstract* {i}.") for i in range(40)}
    files["publications/bad.md"] = paper(venue_short="''")
    content = make_site(files)
    one, two = tmp_path / "one", tmp_path / "two"
    first = run_cli(*build_args(content, one, "--jobs", "1", "--no-cache"))
    second = run_cli(*build_args(content, two, "--jobs", "2", "--no-cache"))
    assert first.code == second.code == 0, second.err
    assert tree_bytes(one) == tree_bytes(two)
    assert first.err == second.err and "bad.md" in first.err


@forking
def test_a_template_error_is_reported_once_from_any_process(make_site, tmp_path):
    files = {f"publications/p-{i}.md": MINIMAL_PAPER.replace("A Paper", f"Paper {i}")
             for i in range(30)}
    content = make_site(files)
    templates = copy_templates(tmp_path)
    edit(templates / "paper.html", "{{ paper.title_html }}", "{{ paper.no_such_field }}", 1)
    out = tmp_path / "site"
    result = run_cli(*build_args(content, out, "--jobs", "2", templates=templates))
    assert result.code == 1 and "Traceback" not in result.err
    problems = [line for line in result.err.splitlines() if ": error: " in line]
    assert len(problems) == 1 and "paper.html" in problems[0] and "no_such_field" in problems[0]
    assert not out.exists()


@forking
def test_results_larger_than_a_pipe_come_back_whole_and_in_order():
    # Each result is far larger than a pipe holds: sent in pieces, taken as they come.
    def task(n: int) -> tuple[int, int, bytes]:
        time.sleep(0.01)  # long enough that both processes get some of the tasks
        return n, os.getpid(), bytes([n % 256]) * 300_000

    results = map_forked(task, list(range(24)), 2)
    assert [n for n, _, _ in results] == list(range(24))
    assert all(data == bytes([n % 256]) * 300_000 for n, _, data in results)
    assert len({pid for _, pid, _ in results}) == 2


@pytest.mark.parametrize("workers", [1, 2])
def test_meanwhile_work_is_done_once_by_this_process(workers):
    done = []
    results = map_forked(square_slowly, list(range(10)), workers,
                         meanwhile=lambda: done.append(os.getpid()))
    assert [r[0] for r in results] == [n * n for n in range(10)]
    assert done == [os.getpid()]


def square_once_both_work(arg: tuple[int, str, int]) -> tuple[int, int]:
    """n * n; this process waits for a child's first task before it takes another (a
    spawned child takes a while to start, the longer on a busy machine)."""
    n, marker, parent = arg
    if os.getpid() != parent:
        open(marker, "a", encoding="utf-8").close()
    deadline = time.monotonic() + 60
    while not os.path.exists(marker) and time.monotonic() < deadline:
        time.sleep(0.01)
    return n * n, os.getpid()


def test_spawned_processes_return_every_result_in_order(monkeypatch, tmp_path):
    # The start method macOS and Windows get, forced here (as on any platform).
    monkeypatch.setenv(START_METHOD_VARIABLE, "spawn")
    args = [(n, str(tmp_path / "child-ran"), os.getpid()) for n in range(40)]
    results = map_tasks(square_once_both_work, args, 2, [40 - n for n in range(40)])
    assert [r[0] for r in results] == [n * n for n in range(40)]
    assert len({pid for _, pid in results}) == 2  # this process and a spawned child


def fail_in_child(arg: tuple[int, str, int]) -> int:
    """Fails in a child; this process's tasks wait for that (see square_once_both_work)."""
    n, marker, parent = arg
    if os.getpid() != parent:
        open(marker, "a", encoding="utf-8").close()
        raise ValueError("seven")
    return square_once_both_work(arg)[0]


def test_a_failing_spawned_task_fails_the_whole_map(monkeypatch, tmp_path):
    monkeypatch.setenv(START_METHOD_VARIABLE, "spawn")
    args = [(n, str(tmp_path / "child-failed"), os.getpid()) for n in range(40)]
    with pytest.raises(RuntimeError, match="seven"):  # the child's, with its traceback
        map_tasks(fail_in_child, args, 2)


def test_a_site_built_by_spawned_processes_is_the_site_built_by_forked_ones(
        make_site, tmp_path, monkeypatch):
    files = {f"publications/p-{i}.md": MINIMAL_PAPER.replace("A Paper", f"Paper {i}")
             .replace("An abstract.", f"An *abstract* {i}.") for i in range(40)}
    files["publications/more.bib"] = "".join(
        f"@article{{b{i}, title={{Bib {i}}}, author={{Ada Example}}, journal={{J}}, "
        f"year={{2020}}}}\n" for i in range(5))
    files["publications/bad.md"] = paper(venue_short="''")
    content = make_site(files)
    methods = {"one": ("fork", "1"), "fork": ("fork", "2"), "spawn": ("spawn", "2")}
    for _ in range(2):  # cold, then after a setting's change with the cache of the first
        built = {}
        for name, (method, jobs) in methods.items():
            monkeypatch.setenv(START_METHOD_VARIABLE, method)
            result = run_cli(*build_args(content, tmp_path / name, "--jobs", jobs))
            assert result.code == 0, result.err
            built[name] = (tree_bytes(tmp_path / name), result.err)
        assert built["spawn"] == built["fork"] == built["one"]
        assert "bad.md" in built["one"][1]
        edit(content / "site.yaml", "Ada Example", "Ada B. Example", 1)


def test_a_script_that_builds_unguarded_finishes_rather_than_hangs_with_spawn(make_site,
                                                                              tmp_path):
    """Spawned workers run the script that started the build again; a script that builds
    outside `if __name__ == "__main__":` used to hang: a worker started a second build that
    waited for the first one's lock, while the first waited to hand the worker its work.
    The build finishes; a worker that gets as far as building says what to write."""
    files = {f"publications/p-{i}.md": MINIMAL_PAPER.replace("A Paper", f"Paper {i}")
             for i in range(40)}
    content = make_site(files)
    script = tmp_path / "make_site.py"
    args = build_args(content, tmp_path / "out", "--jobs", "2")
    script.write_text(f"import sys\nsys.path.insert(0, {str(ROOT)!r})\n"
                      f"sys.argv = ['make_site.py', *{args!r}]\n"
                      "from scholarsite.cli import run\nrun()\n", encoding="utf-8")
    env = dict(os.environ, **{START_METHOD_VARIABLE: "spawn"})
    ran = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         env=env, timeout=120)
    assert ran.returncode == 0, ran.stderr
    assert len(list((tmp_path / "out" / "publications").glob("*/index.html"))) == 41
    assert "waiting for it to finish" not in ran.stderr
    for line in ran.stderr.splitlines():
        assert "error" not in line or 'if __name__ == "__main__":' in line, ran.stderr
