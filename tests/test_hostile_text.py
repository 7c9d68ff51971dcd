"""Text that Python-Markdown or YAML would take minutes, gigabytes or a RecursionError over
is an error at its line, found at once; the neighbours of each shape that are merely
unusual still build, and quickly. Through the real command line, in temporary folders."""

from __future__ import annotations

import re
import time

import pytest

from conftest import MINIMAL_CONFIG, Result, build_args, paper, run_cli

from scholarsite.reading.text.papers import make_markdown, render_markdown

HEAD = "---\ntitle: A Paper\nauthors: [Ada Example]\nvenue: Conference on Examples\n" \
    "date: 2024-05\n---\n"
FIRST = HEAD.count("\n") + 1  # the body's first line in the file

# name: (body, line of the error counted from the body's first line, words of the message).
# Each took seconds to minutes, or raised RecursionError, before it was bounded.
REFUSED = {
    "nested-list": ("".join("    " * i + "- x\n" for i in range(400)), 32, "nest 33 deep"),
    "one-line-lists": ("1. " * 3000 + "x\n", 0, "nest 3000 deep"),
    "nested-quotes": ("".join(">" * i + " x\n" for i in range(1, 400)), 32, "nest 33 deep"),
    "markdown-in-html": ('<div markdown="1">\n' * 1000 + "x\n" + "</div>\n" * 1000, 32,
                         "HTML elements nest more than 32 deep"),
    "definitions": ("term\n: definition\n" * 600, 0, "600 definitions"),
    "brackets": ("Intro [" + "[" * 20000 + "\n", 0, "20001 '[' with no ']'"),
    "bracket-lines": ("[\n" * 10000, 0, "10000 '[' with no ']'"),
    "images": ("![" * 10000, 0, "'[' with no ']'"),
    "footnote-marks": ("[^" * 10000, 0, "'[' with no ']'"),
    "link-targets": ("[a](" * 5000, 0, "links and brackets"),
    "nested-links": ("[" * 4000 + "x" + "](u)" * 4000, 0, "links and brackets"),
    "tags": ("<a\n" * 7000, 0, "HTML tag with no '>'"),
    "attributes": ('<a b="' * 4000, 0, "HTML tag with no '>'"),
    "headings": ("# x\n" * 5000, 0, "5000 headings, rules or abbreviations"),
    "underlines": ("x\n===\n" * 4000, 0, "headings, rules or abbreviations"),
    "quoted-rules": ("> - \n" * 15000, 0, "headings, rules or abbreviations"),
    "escapes": ("[\\" * 30000, 0, "Markdown copies the paragraph"),
    "emphasis": ("*_" * 40000, 0, "Markdown copies the paragraph"),
    "footnotes": ("x[^1]\n\n" * 3000 + "[^1]: y\n", 1000, "more than 500 footnote marks"),
    "abbreviations": ("*[A]: x\n\n" + "- A\n" * 9000, 0, "defines abbreviations"),
    "paragraphs": ("*x*\n\n" * 12000, 20000, "more than 10,000 paragraphs"),
}

# Unusual but cheap: they build as they are.
ACCEPTED = {
    "nested-emphasis": "*a " * 3000 + "x" + " a*" * 3000,
    "emphasis-run": "*_" * 10000,
    "stars": "*" * 20000,
    "underscores": "_" * 20000,
    "backticks": "`" * 20000,
    "code-spans": "".join("`" * k + "x" for k in range(1, 200)),
    "less-than": "<" * 20000,
    "end-tags": "</a>" * 5000,
    "ampersands": "&" * 20000,
    "closed-brackets": "[]" * 10000,
    "quote-marks": "> " * 30 + "x\n",
    "list-at-depth-30": "".join("    " * i + "- x\n" for i in range(31)),
    "long-table": "| a | b |\n|---|---|\n" + "| [x](https://example.org/) | *y* |\n" * 3000,
}


def write_papers(make_site, bodies: dict[str, str]):
    return make_site({f"publications/{name}.md": HEAD + body for name, body in bodies.items()})


def timed_build(content) -> tuple[Result, float]:
    start = time.perf_counter()
    result = run_cli(*build_args(content, None, "--no-cache"), timeout=300)
    return result, time.perf_counter() - start


def test_costly_markdown_is_an_error_at_its_line(make_site, tmp_path):
    content = write_papers(make_site, {name: body for name, (body, _, _) in REFUSED.items()})
    result, seconds = timed_build(content)
    assert result.code == 1
    assert "Traceback" not in result.err and "RecursionError" not in result.err
    for name, (_, line, words) in REFUSED.items():
        found = re.findall(rf"^\S*/publications/{name}\.md:(\d+): error: (.*)$", result.err, re.M)
        assert len(found) == 1, (name, result.err[:3000])
        assert int(found[0][0]) == FIRST + line and words in found[0][1], (name, found)
    assert not (tmp_path / "site").exists()
    assert seconds < 60, seconds  # was minutes: 20,000 '[' alone took 143 s


def test_every_markdown_text_is_bounded(make_site, tmp_path):
    """The home page's text, a free page and a collection's item are read as papers are."""
    content = make_site({"index.md": "Hello.\n\n" + "[" * 20000 + "\n",
                         "pages/deep.md": "---\ntitle: Deep\n---\n" + "".join(
                             "    " * i + "- x\n" for i in range(400)),
                         "talks/a-talk.md": "---\ntitle: A talk\ndate: 2024-05-01\n---\n" +
                         "# x\n" * 5000})
    result, _ = timed_build(content)
    assert result.code == 1
    assert re.search(r"^\S*/index\.md:3: error: 20000 '\[' with no '\]'", result.err, re.M)
    assert re.search(r"^\S*/pages/deep\.md:36: error: lists, quotes or indented blocks nest 33 "
                     r"deep here; Markdown reads at most 32 levels", result.err, re.M)
    assert re.search(r"^\S*/talks/a-talk\.md:5: error: 5000 headings", result.err, re.M)


def test_unusual_markdown_still_builds_quickly(make_site, tmp_path):
    content = write_papers(make_site, ACCEPTED)
    result, seconds = timed_build(content)
    assert result.code == 0, result.err
    assert seconds < 60, seconds
    page = (tmp_path / "site" / "publications" / "long-table" / "index.html").read_text(
        encoding="utf-8")
    assert page.count("<tr>") == 3001


@pytest.mark.parametrize("name", sorted(ACCEPTED))
def test_each_unusual_text_takes_under_seconds(name):
    """One at a time, so that a slow one is not hidden in a build's total. The bound is
    on this process's CPU time, which other work on a busy machine does not lengthen: a
    quadratic or exponential case takes minutes, not seconds."""
    reported: list = []
    start = time.process_time()
    html = render_markdown(make_markdown(), ACCEPTED[name], lambda *found: reported.append(found))
    assert time.process_time() - start < 3
    assert html and not reported


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_each_costly_text_is_refused_at_once(name):
    reported: list = []
    start = time.process_time()  # this process's CPU: a busy machine does not lengthen it
    html = render_markdown(make_markdown(), REFUSED[name][0],
                           lambda *found: reported.append(found))
    assert time.process_time() - start < 1
    assert html == "" and len(reported) == 1 and reported[0][0] == REFUSED[name][1] + 1


# --- YAML aliases ------------------------------------------------------------------------

def test_an_alias_bomb_is_an_error_at_the_alias(make_site, tmp_path):
    """108 KB of front matter, a title of 100 KB that is also the paper's 2000 authors,
    once made 3 GB of site in 30 s, with 4.3 GB of memory."""
    text = (f'---\ntitle: &t "{"A" * 100_000}"\nauthors: [{", ".join(["*t"] * 2000)}]\n'
            "venue: Conference on Examples\ndate: 2024-05\n---\nAbstract.\n")
    assert 100_000 < len(text) < 110_000
    content = make_site({"publications/a-paper.md": text})
    result, seconds = timed_build(content)
    assert result.code == 1
    assert re.search(r"^\S*/publications/a-paper\.md:3: error: the alias '\*t' repeats 100,001 "
                     r"characters: with the aliases before it, this YAML stands for over "
                     r"[\d,]+ characters of text", result.err, re.M), result.err
    assert not (tmp_path / "site").exists()
    assert seconds < 30


def test_a_billion_laughs_is_an_error_at_the_alias(make_site):
    """Nine aliases of nine aliases of ... "lol": 9**9 of them once expanded."""
    anchors = "".join(f"  a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]\n" for i in range(1, 10))
    text = HEAD.replace("title: A Paper", 'title: &a0 "lol"')[:-4] + "extra:\n" + anchors + \
        "---\nAbstract.\n"
    content = make_site({"publications/a-paper.md": text})
    result, seconds = timed_build(content)
    assert result.code == 1
    line = text.splitlines().index("  a6: &a6 [" + ", ".join(["*a5"] * 9) + "]") + 1
    assert re.search(rf"^\S*/publications/a-paper\.md:{line}: error: the alias '\*a5' repeats "
                     r"243,577 characters", result.err, re.M), result.err
    assert seconds < 30


def test_a_bomb_in_site_yaml_is_an_error_at_the_alias(make_site):
    config = MINIMAL_CONFIG.replace("author:\n", f'description: &d "{"x" * 200_000}"\nauthor:\n'
                                    "  aliases: [" + ", ".join(["*d"] * 50) + "]\n")
    content = make_site({"site.yaml": config})
    result, _ = timed_build(content)
    assert result.code == 1
    assert re.search(r"^\S*/site\.yaml:5: error: the alias '\*d' repeats 200,001", result.err, re.M)


def test_modest_aliases_still_work(make_site, tmp_path):
    """An anchor used a few times, or a long value used twice, is what aliases are for."""
    long_note = "N" * 200_000
    text = paper(title="&t A Paper", venue="&v Conference on Examples",
                 extra=f'note: &n "{long_note}"\nextra: {{booktitle: *v, series: *t, '
                 'howpublished: *n}\n')
    content = make_site({"publications/a-paper.md": text})
    result = run_cli(*build_args(content, None, "--no-cache"))
    assert result.code == 0, result.err
    page = (tmp_path / "site" / "publications" / "a-paper" / "index.html").read_text(
        encoding="utf-8")
    assert "Conference on Examples" in page and long_note in page
