"""Pages kept as pieces (splice.py): templates that break the promise a spliced page
needs are rendered whole instead, and the output stays what a cold build makes."""

from __future__ import annotations


import jinja2
import pytest

from conftest import MINIMAL_CONFIG, TEMPLATES, build_cold, start_live_site, tree_bytes
from scholarsite.live.incremental import SiteBuilder
from scholarsite.render.render import make_env
from scholarsite.views.entries import mark_entry
from scholarsite.render.splice import (Pieces, WatchingEnvironment, encode_texts, prints_pieces,
                                record)
from scholarsite.output.writer import write_pieces


def paper(title: str, abstract: str = "An abstract.") -> str:
    return (f"---\ntitle: {title}\nauthors: [Ada Example]\nvenue: Conference on Examples\n"
            f"date: 20{len(title) + 10}-05\n---\n{abstract}\n")  # a year (group) each


def make_builder(tmp_path, edits: dict[str, tuple[str, str]]) -> SiteBuilder:
    """A built site of three papers whose templates are the shipped ones with `edits`
    (template -> (old, new)) made."""
    return start_live_site(tmp_path, {
        "site.yaml": MINIMAL_CONFIG, **{f"publications/{t.lower()}.md": paper(t)
                                        for t in ("Alpha", "Beta", "Gamma")}}, edits)


def edit_and_compare(builder: SiteBuilder, old: str, new: str, name: str = "beta") -> None:
    path = builder.options.content_dir / "publications" / f"{name}.md"
    path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    outcome = builder.build([path])
    assert outcome.ok, outcome.errors
    assert tree_bytes(builder.options.output_dir) == build_cold(builder)


LOOP = '{% for paper in group.papers %}{% cache paper.slug, page.root %}'


@pytest.mark.parametrize("name, edit, kept", [
    # A paper's title outside its fragment: the list is rendered whole on every change.
    ("publications.html", (LOOP, '{% for paper in group.papers %}<b>{{ paper.title }}</b>'
                                 '{% cache paper.slug, page.root %}'), False),
    ("publications.html", ('{{ group.papers | length }}',
                           '{{ group.papers | map(attribute="title") | join }}'), False),
    # Fragments keyed by their place: a paper's new fragment is not where the old one was.
    ("publications.html", (LOOP, '{% for paper in group.papers %}'
                                 '{% cache paper.slug, loop.index %}'), True),
    # Only the slug read outside: still kept as pieces.
    ("publications.html", (LOOP, LOOP.replace("%}{%", '%}<a id="{{ paper.slug }}"></a>{%')),
     True),
])
def test_list_templates(tmp_path, name, edit, kept):
    builder = make_builder(tmp_path, {name: edit})
    assert isinstance(builder.folder.outputs["publications/index.html"], Pieces) == kept
    edit_and_compare(builder, "title: Beta", "title: Beta Two")
    edit_and_compare(builder, "An abstract.", "Another abstract.")
    edit_and_compare(builder, "An abstract.", "Gamma's, second in its group.", "gamma")


def test_a_search_page_that_reads_its_index_twice(tmp_path):
    builder = make_builder(tmp_path, {"search.html": (
        "{% endfor %}</script>", "{% endfor %}</script><p>{{ index_json | length }}</p>")})
    assert not isinstance(builder.folder.outputs["search/index.html"], Pieces)
    edit_and_compare(builder, "An abstract.", "A longer abstract than before.")


def test_a_fragment_inside_a_macro_is_not_a_piece():
    env = WatchingEnvironment(loader=jinja2.DictLoader({
        "list.html": "{% macro one(p) %}{% cache p.slug %}<i>{{ p.title }}</i>{% endcache %}"
                     "{% endmacro %}{% for p in papers %}{{ one(p) }}{% endfor %}",
        "flat.html": "{% for p in papers %}{% cache p.slug %}<i>{{ p.title }}</i>"
                     "{% endcache %}{% endfor %}"}),
        autoescape=True, extensions=["scholarsite.render.render.FragmentCache"])
    papers = [mark_entry({"slug": "a", "title": "A"}, "a"),
              mark_entry({"slug": "b", "title": "B"}, "b")]
    assert record(env, "list.html", {"papers": papers}, None) == "<i>A</i><i>B</i>"
    flat = record(env, "flat.html", {"papers": papers}, None)
    assert isinstance(flat, Pieces) and b"".join(flat.data) == b"<i>A</i><i>B</i>"
    assert {name: [i for i, _ in slots] for name, slots in flat.slots.items()} == \
        {"a": [0], "b": [1]}


def test_prints_pieces():
    env = make_env(TEMPLATES)
    assert prints_pieces(env, {"search.html", "base.html"}, "index_json")
    assert not prints_pieces(env, {"search.html", "base.html"}, "page")
    env = jinja2.Environment(loader=jinja2.DictLoader({
        "a": "{% for p in x %}{{ p }}{% endfor %}", "b": "{% for p in x %}{{ p|e }}{% endfor %}",
        "c": "{% for p in x %}{{ p }}{% endfor %}{{ x|length }}"}))
    assert [prints_pieces(env, {name}, "x") for name in "abc"] == [True, False, False]


def test_encode_texts_reuses_only_what_is_the_same():
    texts = ["a", "é" * 3, "c"]
    old = Pieces(encode_texts(texts, None), texts, {})
    assert encode_texts([texts[0], "ü", texts[2]], old) == [b"a", "ü".encode(), b"c"]
    assert encode_texts([texts[2], texts[0]], old) == [b"c", b"a"]
    assert encode_texts(["a", "é" * 2 + "e", "c"], old) == [b"a", ("é" * 2 + "e").encode(), b"c"]


def test_write_pieces(tmp_path):
    pieces = [b"", b"x" * 70_000, b"", *(bytes([i % 256]) * (i % 7) for i in range(2_000))]
    write_pieces(tmp_path / "out", pieces)
    assert (tmp_path / "out").read_bytes() == b"".join(pieces)
