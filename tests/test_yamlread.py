"""YAML as PyYAML's safe loader reads it: the faster constructor gives the same data, and
the same errors, for any document."""

from __future__ import annotations

import datetime as dt

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scholarsite.diagnostics import Diagnostics
from scholarsite.reading.text.cleantext import UNTEXT
from scholarsite.reading.settings.yamlread import parse_yaml
from conftest import examples

try:
    from yaml import CSafeLoader as Loader
except ImportError:  # pragma: no cover - depends on the machine
    from yaml import SafeLoader as Loader  # type: ignore[assignment]

# Text the model takes as it is: control characters and noncharacters are removed, with a
# warning, where outside text enters the model (tests/test_security_build.py).
TEXT = st.text(st.characters(blacklist_categories=("Cc", "Cs"),
                             blacklist_characters="".join(map(chr, range(0xFDD0, 0xFDF0)))),
               max_size=20).filter(lambda s: not UNTEXT.search(s))
scalars = st.one_of(st.none(), st.booleans(), st.integers(), TEXT,
                    st.floats(allow_nan=False), st.dates(),
                    st.sampled_from(["yes", "no", "~", "0x1F", "1_000", "1:30", "2024-02-30",
                                     "2024-05", ".inf", "-.nan", "=", "<<", "null", "0o17"]))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(TEXT | st.integers(), inner,
                                                 max_size=4)), max_leaves=15)


def parse(text: str) -> tuple[object, list[str]]:
    diags = Diagnostics()
    doc = parse_yaml(text, "x.md", 2, diags)
    return (doc.data if doc else None), [d.message for d in diags.items]


def safe_load(text: str) -> object:
    return yaml.load(text, Loader=Loader)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(values, st.booleans())
def test_dumped_data_reads_as_pyyaml_reads_it(data, flow):
    text = yaml.safe_dump({"x": data, "y": [data, data]}, default_flow_style=flow,
                          allow_unicode=True)
    got, problems = parse(text)
    assert problems == [] and got == safe_load(text)


@pytest.mark.parametrize("text", [
    "a: &x {b: 1, c: [2, 3]}\nd: *x\n",
    "base: &b {x: 1, y: 2}\nmerged:\n  <<: *b\n  y: 3\n",
    "s: !!set {a, b}\no: !!omap [{a: 1}, {b: 2}]\np: !!pairs [{a: 1}]\n",
    "b: !!binary aGVsbG8=\nn: !!str 12\nf: !!float 1\nt: 2024-05-01 10:00:00\n",
    "list: [a, 'b', \"c\", 1.5, -2, true, ~, 2020-01-02]\n",
    "plain\n",
    "- a\n- [b, {c: d}]\n",
])
def test_tricky_documents_read_as_pyyaml_reads_them(text):
    got, problems = parse(text)
    assert problems == [] and got == safe_load(text)


def test_a_key_given_twice_is_an_error_where_pyyaml_keeps_the_last():
    """YAML wants keys unique; PyYAML keeps the last of two silently. A merged mapping
    (`<<: *base`) that sets a key again is not a repetition."""
    got, problems = parse("dup: 1\nother: {a: 1, a: 2}\ndup: 2\n")
    assert problems == [
        "'a' is given twice in one mapping (also line 3): YAML keeps only the last; remove one",
        "'dup' is given twice in one mapping (also line 2): YAML keeps only the last; "
        "remove one"]
    assert got == safe_load("dup: 1\nother: {a: 1, a: 2}\ndup: 2\n")
    assert parse("base: &b {x: 1, y: 2}\nmerged:\n  <<: *b\n  y: 3\n")[1] == []


def test_an_alias_is_its_anchor_not_a_copy():
    got, _ = parse("a: &x [1, 2]\nb: *x\nc: &y {k: v}\nd: [*y, *y]\n")
    assert got["a"] is got["b"] and got["d"][0] is got["d"][1] is got["c"]
    loop, _ = parse("a: &x [1, *x]\n")
    assert loop["a"][1] is loop["a"]


def test_an_anchor_given_again_means_the_latest_as_yaml_says():
    """YAML 1.2 lets an anchor be given again (Jekyll's _config.yml files do, once per
    language); PyYAML alone refuses the document. An alias means the latest."""
    text = "name: &n Ada\ndescription:\n  en: &d English\n  zh: &d Chinese\nsaid: *d\nwho: *n\n"
    with pytest.raises(yaml.YAMLError):
        safe_load(text)
    got, problems = parse(text)
    assert problems == []
    assert got == {"name": "Ada", "description": {"en": "English", "zh": "Chinese"},
                   "said": "Chinese", "who": "Ada"}
    names = "xy" * 6  # each level's anchor given again two levels on, aliasing the last
    bomb = "a: &y [1]\n" + "".join(f"a{i}: &{n} [{', '.join(['*' + 'xy'[n == 'x']] * 9)}]\n"
                                    for i, n in enumerate(names))
    got, problems = parse(bomb)  # redefined anchors build no bigger a bomb unnoticed
    assert got is None and len(problems) == 1


@pytest.mark.parametrize("text", [
    "? [a, b]\n: c\n",  # a list as a key cannot be a dict key
    "d: 2024-02-30\n",
    "x: !!python/object:os.system ls\n",
    "a: [1, 2\n",
])
def test_documents_pyyaml_refuses_are_errors(text):
    with pytest.raises((yaml.YAMLError, ValueError)):
        safe_load(text)
    got, problems = parse(text)
    assert got is None and len(problems) == 1


def test_lines_are_found_when_asked():
    diags = Diagnostics()
    doc = parse_yaml("title: T\nauthors:\n  - A\n  - B\n", "x.md", 2, diags)
    assert doc.line("authors", 1) == 5 and doc.line("title") == 2
    assert doc.line("missing") == 2 and isinstance(doc.data["title"], str)
    assert parse("d: 2024-05-01\n")[0] == {"d": dt.date(2024, 5, 1)}
