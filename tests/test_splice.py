"""Pages kept as pieces (splice.py): templates that break the promise a spliced page
needs are rendered whole instead, and the output stays what a cold build makes."""

from __future__ import annotations

import jinja2
import pytest

from conftest import (MINIMAL_CONFIG, TEMPLATES, assert_same_as_cold_build, build_args, edit,
                      make_site, paper, run_cli, start_live_site, write_files)
from scholarsite.live.incremental import SiteBuilder
from scholarsite.render.render import make_env
from scholarsite.fastpath.splice import Pieces, encode_texts, prints_pieces
from scholarsite.output.writer import write_pieces


def make_builder(tmp_path, edits: dict[str, tuple[str, str]]) -> SiteBuilder:
    """A built site of three papers whose templates are the shipped ones with `edits`
    (template -> (old, new)) made."""
    return start_live_site(tmp_path, {
        "site.yaml": MINIMAL_CONFIG,
        **{f"publications/{t.lower()}.md": paper(t, f"20{len(t) + 10}-05",  # a year (group) each
                                                 authors="Ada Example", venue_short=None)
           for t in ("Alpha", "Beta", "Gamma")}}, edits)


def edit_and_compare(builder: SiteBuilder, old: str, new: str, name: str = "beta") -> None:
    outcome = builder.build([edit(builder.options.content_dir / "publications" / f"{name}.md",
                                  old, new)])
    assert outcome.ok, outcome.errors
    assert_same_as_cold_build(builder)


LOOP = '{% for paper in group.papers %}{% cache paper.slug, page.root, page.top %}'
ENTRY = '{% include "_paper_entry.html" %}{% endcache %}{% endfor %}'


@pytest.mark.parametrize("name, change", [
    # A paper's title outside its fragment.
    ("publications.html", (LOOP, '{% for paper in group.papers %}<b>{{ paper.title }}</b>'
                                 '{% cache paper.slug, page.root, page.top %}')),
    ("publications.html", ('{{ group.papers | length }}',
                           '{{ group.papers | map(attribute="title") | join }}')),
    # Fragments keyed by their place: a paper's new fragment is not where the old one was.
    ("publications.html", (LOOP, '{% for paper in group.papers %}'
                                 '{% cache paper.slug, loop.index, page.root, page.top %}')),
    # Only the slug read outside the fragment.
    ("publications.html", (LOOP, LOOP.replace("%}{%", '%}<a id="{{ paper.slug }}"></a>{%'))),
    # The fragment inside a macro: what it prints reaches the page through the macro's call.
    ("publications.html", (LOOP + ENTRY, '{% macro entry(paper) %}{% cache paper.slug, '
                           'page.root, page.top %}' + ENTRY.removesuffix("{% endfor %}") + '{% endmacro %}'
                           '{% for paper in group.papers %}{{ entry(paper) }}{% endfor %}')),
])
def test_list_templates(tmp_path, name, change):
    builder = make_builder(tmp_path, {name: change})
    edit_and_compare(builder, "title: Beta", "title: Beta Two")
    edit_and_compare(builder, "An abstract.", "Another abstract.")
    edit_and_compare(builder, "An abstract.", "Gamma's, second in its group.", "gamma")


def test_a_search_page_that_reads_its_index_twice(tmp_path):
    builder = make_builder(tmp_path, {"search.html": (
        "{% endfor %}</script>", "{% endfor %}</script><p>{{ index_json | length }}</p>")})
    edit_and_compare(builder, "An abstract.", "A longer abstract than before.")


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


# What the publications and people pages give their templates besides `paper` and `site`,
# and what a page is (docs/templates.md): none of it is the same on every page that shows
# one paper's entry.
PAGE_READS = ["page.path", "page.kind", "page.title", "page.canonical", "page.languages",
              "page.meta", "groups", "papers", "person", "people", "count", "filters"]


def test_a_cached_entry_that_reads_what_its_key_does_not_name_is_an_error(make_site,
                                                                         tmp_path):
    """A site's own `_paper_entry.html` reading anything of the page beyond the fragment's
    key would be shown stale on the next page with that key (the last round's stale person
    pages): the build refuses it at the template's line, naming every such read; what the
    key names, the paper and the site's settings build."""
    content = make_site()
    own = tmp_path / "templates"
    reads = " ".join("{{ %s }}" % read for read in PAGE_READS)
    write_files(own, {"_paper_entry.html": f"<li>{{{{ paper.title }}}}\n{reads}</li>\n"})
    result = run_cli(*build_args(content, tmp_path / "site", templates=own))
    assert result.code == 1 and "Traceback" not in result.err
    stale = [line for line in result.err.splitlines() if "cached fragment" in line]
    assert len(stale) == 1 and stale[0].startswith(f"{own}/_paper_entry.html:2: error: ")
    assert all(f"'{read}'" in stale[0] for read in PAGE_READS), stale
    assert not (tmp_path / "site").exists()
    write_files(own, {"_paper_entry.html": "{% set shown = paper.title | upper %}<li><a href="
                      '"{{ page.top }}{{ paper.url }}">{{ shown }}</a> {{ site.title }}'
                      "{% for a in paper.authors %}{{ loop.index }}{% endfor %}</li>\n"})
    result = run_cli(*build_args(content, tmp_path / "site", templates=own))
    assert result.code == 0, result.err
    assert "A PAPER" in (tmp_path / "site/publications/index.html").read_text("utf-8")
