"""What the command line says: where a YAML mistake is, counts as people say them, its own
name, and what to do with a word that is no command."""

from __future__ import annotations

import subprocess
import sys

from conftest import MINIMAL_PAPER, ROOT, build_args, run_cli


def test_an_unclosed_bracket_is_reported_where_it_opens(make_site):
    paper = ("---\ntitle: A Paper\nvenue: Venue\nauthors: [Ada Example,\n  Bob Builder\n"
             "date: 2024-05\n\n\n---\nAn abstract.\n")
    content = make_site({"publications/a-paper.md": paper})
    result = run_cli(*build_args(content))
    assert result.code == 1
    [line] = [l for l in result.err.splitlines() if ": error: " in l]
    assert "a-paper.md:4: error: YAML syntax error:" in line  # where the '[' is
    assert "on line 6, while parsing a flow sequence" in line  # where the parser gave up


def test_counts_are_said_as_people_say_them(make_site):
    result = run_cli(*build_args(make_site()))
    assert result.code == 0 and "(1 paper)" in result.out, result.out
    two = make_site({"publications/b-paper.md": MINIMAL_PAPER.replace("A Paper", "B")})
    result = run_cli(*build_args(two))
    assert "(2 papers)" in result.out
    broken = make_site({"publications/b-paper.md": "---\ntitle: [\n---\n"})
    result = run_cli(*build_args(broken))
    assert result.code == 1 and "Build failed: 1 problem;" in result.err


def test_each_way_of_running_says_its_own_name():
    assert run_cli("--help").out.startswith("usage: python build.py ")
    installed = subprocess.run([sys.executable, "-m", "scholarsite", "--help"], cwd=ROOT,
                               capture_output=True, text=True)
    assert installed.stdout.startswith("usage: scholarsite ")


def test_a_word_that_is_no_command_is_a_usage_error():
    for words in (["migrat", "X"], ["publish", "--help"]):
        result = run_cli(*words)
        assert result.code == 2, (words, result.out)
        assert f"unknown command '{words[0]}'; the commands are build, serve" in result.err
    assert run_cli("--content", "nowhere").code == 1  # options alone still mean build
