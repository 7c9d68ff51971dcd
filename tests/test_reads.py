"""What a build read of each paper is recorded by the build itself (scholarsite/reads.py), so
that its fast paths cannot go stale: after any edit of any field of a paper, of a
collection's item or of site.yaml, one at a time or in any sequence, `build` (the
touch-up, or the whole build taking pages from the last one) and `serve` (its rebuild
after the save) write byte for byte what a cold build with no cache writes. A template
that reads a field no list read before stays right with no other change.

Few examples by default (the suite stays fast); more in CI, all with
SCHOLARSITE_FULL_TESTS=1 (conftest.examples)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import (FULL_TESTS, TEMPLATES, cold_bytes, examples, tree_bytes,
                      write_files)
from scholarsite.build import BuildOptions, build
from scholarsite.models.forms import PAPER_FIELDS as FIELD_TABLE
from scholarsite.live.incremental import SiteBuilder
from scholarsite.plan.pages import PLANNERS, plan_home

SETTINGS_ = dict(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


PAPERS = ("p1", "p2", "p3", "p4")
# A value for each n of every field a paper file may give (models/forms.py's table names
# them: a field new there fails here until it has one) and of its body, the abstract.
VALUES = {
    "title": lambda n: f"Title {n}",
    "authors": lambda n: f"[Ada Example, Bob Builder{'*' if n % 2 else ''}, Cy Writer {n}]",
    "date": lambda n: f"20{10 + n % 15}-0{n % 9 + 1}",
    "type": lambda n: ("conference", "journal", "preprint", "book")[n % 4],
    "venue": lambda n: f"Venue {n % 3}",
    "venue_short": lambda n: f"V{n % 3}",
    "location": lambda n: f"City {n}",
    "tier": lambda n: ("A", "B", "")[n % 3],
    "category": lambda n: ("Systems", "Theory", "Other")[n % 3],
    "topics": lambda n: f"[t{n % 4}, t{n % 3 + 4}]",
    "links": lambda n: f"{{pdf: 'https://example.org/{n}.pdf', doi: '10.1000/x{n % 3}'}}",
    "citation": lambda n: f"A. Example. Cited as {n}.",
    "selected": lambda n: ("true", "false")[n % 2],
    "award": lambda n: f"Prize {n}",
    "note": lambda n: f"Note {n}",
    "volume": lambda n: str(n),
    "number": lambda n: str(n % 5),
    "pages": lambda n: f"{n}--{n + 9}",
    "publisher": lambda n: f"Press {n % 2}",
    "institution": lambda n: f"Institute {n % 2}",
    "bibtex_key": lambda n: f"key{n}",
    "extra": lambda n: f"{{isbn: '97{n}'}}",
    "abstract": lambda n: f"Abstract {n}, with *emphasis*.",
    "status": lambda n: ("in press", "submitted", "forthcoming")[n % 3],
    "isbn": lambda n: f"978-3-16-148410-{n % 10}",
    "editors": lambda n: f"[Ed Itor {n}, Edna Mode]",
    "language": lambda n: ("de", "fr", "en")[n % 3],
    "bibtex_type": lambda n: ("article", "inproceedings", "incollection")[n % 3],
}
# Edited by the tests below that give them what they need: a preview a picture in
# content/files/, translations a second language.
EDITED_BELOW = ("preview", "translations")
# Every field a paper file may give, in the table's order, then the body: what an edit
# sets it to.
PAPER_FIELDS = {name: VALUES[name] for name in (
    *(field.name for field in FIELD_TABLE if field.name not in EDITED_BELOW), "abstract")}
# Each collection's item: its fields, with a value for each n.
ITEMS = {
    "talks/t1.md": {"title": lambda n: f"Talk {n}", "date": lambda n: f"2021-0{n % 9 + 1}",
                    "event": lambda n: f"Event {n}", "location": lambda n: f"Town {n}",
                    "type": lambda n: ("Invited", "Keynote")[n % 2],
                    "slides": lambda n: f"https://example.org/s{n}",
                    "video": lambda n: f"https://example.org/v{n}",
                    "body": lambda n: f"The talk, take {n}."},
    "projects/engine.md": {"title": lambda n: f"Engine {n}",
                           "summary": lambda n: f"Summary {n}",
                           "papers": lambda n: ("[p1]", "[p2, p3]", "[]")[n % 3],
                           "links": lambda n: f"{{code: 'https://example.org/c{n}'}}",
                           "body": lambda n: f"An engine, take {n}."},
    "news/n1.md": {"date": lambda n: f"2022-0{n % 9 + 1}-01",
                   "body": lambda n: f"News {n}: [p2](publications/p2/)."},
    "posts/post1.md": {"title": lambda n: f"Post {n}", "date": lambda n: f"2020-0{n % 9 + 1}",
                       "summary": lambda n: f"About {n}", "tags": lambda n: f"[tag{n % 3}]",
                       "body": lambda n: f"A post, take {n}."},
    "teaching/c1.md": {"title": lambda n: f"Course {n}", "date": lambda n: f"2019-0{n % 9 + 1}",
                       "code": lambda n: f"CS{n}", "term": lambda n: f"Fall {n}",
                       "role": lambda n: ("Instructor", "TA")[n % 2],
                       "institution": lambda n: f"University {n % 2}",
                       "body": lambda n: f"A course, take {n}."},
}
# site.yaml's settings, by path: a value for each n.
SETTINGS = {
    "title": lambda n: f"Ada's Site {n}",
    "description": lambda n: f"Research {n}",
    "language": lambda n: ("en", "de")[n % 2],
    "author.name": lambda n: ("Ada Example", "Ada B. Example")[n % 2],
    "author.position": lambda n: f"Professor {n}",
    "author.affiliation": lambda n: f"University {n}",
    "publications.group_by": lambda n: ("year", "category", "type", "none")[n % 4],
    "publications.categories": lambda n: ("[Systems, Theory]", "[Theory]")[n % 2],
    "publications.feed_limit": lambda n: str(n % 4 + 1),
    "publications.author_limit": lambda n: str(n % 3 + 1),
    "publications.author_notes": lambda n: ("{'*': Equal contribution}", "{}")[n % 2],
    "theme.accent": lambda n: ("'#1a5fb4'", "'#a51d2d'")[n % 2],
}
EDITS = [*(("paper", name) for name in PAPER_FIELDS),
         *(("item", rel, name) for rel, fields in ITEMS.items() for name in fields),
         *(("setting", name) for name in SETTINGS)]


def start_state() -> dict:
    """The site's fields, file by file, before any edit."""
    papers = {slug: {"title": f"Paper {i}", "authors": "[Ada Example, Bob Builder]",
                     "date": f"202{i}-0{i + 1}", "venue": "Conference on Examples",
                     "selected": "true" if slug == "p2" else "false",
                     "abstract": f"The abstract of paper {i}."}
              for i, slug in enumerate(PAPERS)}
    items = {rel: {name: value(0) for name, value in fields.items()}
             for rel, fields in ITEMS.items()}
    return {"papers": papers, "items": items,
            "settings": {"title": "Ada Example", "url": "https://example.org/",
                         "author.name": "Ada Example", "publications.group_by": "year"}}


def render_front(fields: dict, body_key: str) -> str:
    front = "".join(f"{key}: {value}\n" for key, value in fields.items() if key != body_key)
    return f"---\n{front}---\n{fields.get(body_key, '')}\n"


def render_settings(settings_: dict) -> str:
    top: dict[str, dict | str] = {}
    for path, value in settings_.items():
        head, _, rest = path.partition(".")
        if rest:
            top.setdefault(head, {})[rest] = value  # type: ignore[index]
        else:
            top[head] = value
    lines = []
    for key, value in top.items():
        if isinstance(value, dict):
            lines += [f"{key}:", *(f"  {k}: {v}" for k, v in value.items())]
        else:
            lines.append(f"{key}: {value}")
    return "\n".join(lines) + "\n"


def render_files(state: dict) -> dict[str, str]:
    files = {"site.yaml": render_settings(state["settings"]), "index.md": "I study examples.\n"}
    for slug, fields in state["papers"].items():
        files[f"publications/{slug}.md"] = render_front(fields, "abstract")
    for rel, fields in state["items"].items():
        files[rel] = render_front(fields, "body")
    return files


def apply_edit(state: dict, step: tuple, n: int, which: int) -> str:
    """Change one field in `state`; the content file that changed."""
    if step[0] == "paper":
        slug = PAPERS[which % len(PAPERS)]
        state["papers"][slug][step[1]] = PAPER_FIELDS[step[1]](n)
        return f"publications/{slug}.md"
    if step[0] == "item":
        state["items"][step[1]][step[2]] = ITEMS[step[1]][step[2]](n)
        return step[1]
    state["settings"][step[1]] = SETTINGS[step[1]](n)
    return "site.yaml"


class Sites:
    """One content folder built three ways: by `build` with its cache (two builds
    before any edit, so that the second records what a touch-up goes by), by `serve`'s
    rebuilder, and cold, without a cache, into a fresh folder, after each edit."""

    def __init__(self, root: Path, state: dict, templates: Path = TEMPLATES) -> None:
        self.root, self.state, self.templates = root, state, templates
        self.content = write_files(root / "content", render_files(state))
        for _ in range(2):
            self.build()
        self.live = SiteBuilder(BuildOptions(self.content, root / "served", templates))
        outcome = self.live.build()
        assert outcome is not None and outcome.ok, outcome and outcome.errors

    def build(self) -> None:
        build(BuildOptions(self.content, self.root / "built", self.templates))

    def save(self, rel: str) -> None:
        """The file `rel` written as the state has it, then built and served again."""
        path = self.content / rel
        path.write_text(render_files(self.state)[rel], encoding="utf-8")
        self.build()
        outcome = self.live.build([path])
        assert outcome is not None and outcome.ok, outcome and outcome.errors

    def assert_cold(self, step: object) -> None:
        cold = cold_bytes(self.content, self.templates)
        built, served = tree_bytes(self.root / "built"), tree_bytes(self.root / "served")
        assert sorted(k for k in cold if built.get(k) != cold[k]) == [], ("build", step)
        assert sorted(k for k in cold if served.get(k) != cold[k]) == [], ("serve", step)
        assert built.keys() == cold.keys() == served.keys(), step


def test_every_field_of_the_table_is_edited():
    """A value of the list above that names no field of the table would edit nothing."""
    assert set(VALUES) == set(PAPER_FIELDS)
    assert {field.name for field in FIELD_TABLE} == set(PAPER_FIELDS) - {"abstract"} \
        | set(EDITED_BELOW)


EDIT = st.tuples(st.sampled_from(EDITS), st.integers(1, 40), st.integers(0, 3))


@settings(max_examples=examples(12), **SETTINGS_)
@given(step=EDIT)
def test_any_one_field_edited_gives_the_cold_build(tmp_path_factory, step):
    sites = Sites(tmp_path_factory.mktemp("reads"), start_state())
    sites.save(apply_edit(sites.state, *step))
    sites.assert_cold(step)


@settings(max_examples=examples(8), **SETTINGS_)
@given(steps=st.lists(EDIT, min_size=2, max_size=4))
def test_any_sequence_of_field_edits_gives_the_cold_build(tmp_path_factory, steps):
    sites = Sites(tmp_path_factory.mktemp("reads"), start_state())
    for step in steps:
        sites.save(apply_edit(sites.state, *step))
        sites.assert_cold(step)


@pytest.mark.full
def test_every_field_edited_in_turn_gives_the_cold_build(tmp_path):
    """Each field once, one after the other (two n's: a field may hold its first value)."""
    sites = Sites(tmp_path, start_state())
    for i, step in enumerate(EDITS[::1 if FULL_TESTS else 7]):
        sites.save(apply_edit(sites.state, step, i + 7, i))
        sites.assert_cold(step)


# The home page of a site's own template lists its papers' co-authors: a field of the
# papers' views that no list reads outside the papers' fragments otherwise.
COAUTHORS = ('<p class="coauthors">{% for paper in papers %}{% for author in '
             'paper.authors.all %}{{ author.name }}; {% endfor %}{% endfor %}</p>')


def test_a_template_that_reads_a_new_field_stays_right(tmp_path):
    home = (TEMPLATES / "home.html").read_text(encoding="utf-8")
    own = write_files(tmp_path / "own", {"home.html": home.replace(
        "{% block main %}", "{% block main %}" + COAUTHORS, 1)})
    sites = Sites(tmp_path / "site", start_state(), own)
    assert b"Bob Builder; " in (tmp_path / "site" / "built" / "index.html").read_bytes()
    for slug in ("p2", "p3"):  # the selected paper, then one the home page does not show
        sites.state["papers"][slug]["authors"] = "[Ada Example, Carla Coauthor]"
        sites.save(f"publications/{slug}.md")
        sites.assert_cold(slug)
    assert b"Carla Coauthor; " in (tmp_path / "site" / "built" / "index.html").read_bytes()


def sites_with_home_planning(tmp_path: Path, monkeypatch, name: str, values, shown: str
                             ) -> Sites:
    """The sites, their home page's planner adding `name` (`values(plan)`) to its
    context, shown by the site's own home template as `shown`."""
    def plan_home_with(plan, planned):
        page = plan_home(plan, planned)[0]
        return [replace(page, context={**page.context, name: values(plan)})]

    monkeypatch.setitem(PLANNERS, "home", plan_home_with)
    home = (TEMPLATES / "home.html").read_text(encoding="utf-8")
    own = write_files(tmp_path / "own", {"home.html": home.replace(
        "{% block main %}", "{% block main %}" + shown, 1)})
    return Sites(tmp_path / "site", start_state(), own)


def test_a_planner_that_reads_a_new_field_stays_right(tmp_path, monkeypatch):
    """The co-author list planned for the home page (a planner reading the papers'
    authors, which no planner read before) and shown by the site's home template: an
    edit of a selected paper's authors changes the home page in every build."""
    sites = sites_with_home_planning(
        tmp_path, monkeypatch, "coauthors",
        lambda plan: sorted({a.name for p in plan.site.papers if p.selected for a in p.authors}),
        "<p>{{ coauthors|join(', ') }}</p>")
    sites.state["papers"]["p2"]["authors"] = "[Ada Example, Carla Coauthor]"
    sites.save("publications/p2.md")
    sites.assert_cold("p2")
    assert b"Ada Example, Carla Coauthor</p>" in (
        tmp_path / "site" / "built" / "index.html").read_bytes()


def test_a_planner_reading_only_the_papers_authors_stays_right(tmp_path, monkeypatch):
    """A home page whose planner lists every paper's authors as the papers give them (not
    their views, whose authors the test below reads): an edit of the authors of a paper
    the home page does not show changes it in every build. With the record of the
    papers' authors dropped (scripts/mutate_reads.py), the co-author change went stale."""
    sites = sites_with_home_planning(
        tmp_path, monkeypatch, "authors_of",
        lambda plan: [(p.slug, [a.name for a in p.authors]) for p in plan.site.papers],
        "<pre>{{ authors_of }}</pre>")
    sites.state["papers"]["p3"]["authors"] = "[Ada Example, Dee Isolated]"
    sites.save("publications/p3.md")
    sites.assert_cold("p3")
    assert b"Dee Isolated" in (tmp_path / "site" / "built" / "index.html").read_bytes()


# What each field that a build records reading (scholarsite/reads.py) is edited to, on a
# paper no other page shows (p3: not selected, in no project, and out of a feed of one;
# p4 for the feed's own entry): an edit that changes that field and no other value read
# of the paper, so that only its recorded read tells the fast paths that a page reading
# it changed (scripts/mutate_reads.py drops each field's recording in turn: this test
# fails for each). A paper's slug, source and address change with its file's name only.
ISOLATED_EDITS = {
    ("paper", "category"): ("p3", "category", "Systems"),
    ("paper", "date"): ("p3", "date", "2022-02"),
    ("paper", "doi"): ("p3", "links", "{doi: '10.1000/isolated'}"),
    ("paper", "selected"): ("p3", "selected", "true"),
    ("paper", "tier"): ("p3", "tier", "A"),
    ("paper", "topics"): ("p3", "topics", "[isolated]"),
    ("paper", "type"): ("p3", "type", "journal"),
    ("paper", "title"): ("p3", "title", "An Isolated Title"),
    ("paper", "preview"): ("p3", "preview", "files/b.png"),  # its pictures are copied
    ("view", "authors"): ("p3", "authors", "[Ada Example, Dee Isolated]"),
    ("view", "feed_entry"): ("p4", "abstract", "The feed shows this abstract."),
}


def test_a_field_read_by_a_planner_alone_stays_right(tmp_path, monkeypatch):
    """A home page whose planner shows each recorded field of every paper (and the
    authors of its view): each field edited in turn on a paper no other page shows,
    `build` (the touch-up) and `serve` (the patch of the pages listing it) write the
    cold build's bytes."""
    from PIL import Image

    def plan_home_with_fields(plan, planned):
        page = plan_home(plan, planned)[0]
        shown = [(p.slug, *(str(getattr(p, name)) for root, name in ISOLATED_EDITS
                            if root == "paper"), str(plan.views[p.slug]["authors"]))
                 for p in plan.site.papers]
        return [replace(page, context={**page.context, "fields": shown})]

    monkeypatch.setitem(PLANNERS, "home", plan_home_with_fields)
    home = (TEMPLATES / "home.html").read_text(encoding="utf-8")
    own = write_files(tmp_path / "own", {"home.html": home.replace(
        "{% block main %}", "{% block main %}<pre>{{ fields }}</pre>", 1)})
    (tmp_path / "site" / "content" / "files").mkdir(parents=True)
    for name, color in (("a.png", "red"), ("b.png", "blue")):
        Image.new("RGB", (40, 30), color).save(tmp_path / "site" / "content" / "files" / name)
    state = start_state()
    state["settings"]["publications.feed_limit"] = "1"
    state["papers"]["p3"]["preview"] = "files/a.png"
    sites = Sites(tmp_path / "site", state, own)
    edits = list(ISOLATED_EDITS.values())
    for slug, name, value in edits if FULL_TESTS else edits[::3]:
        sites.state["papers"][slug][name] = value
        sites.save(f"publications/{slug}.md")
        sites.assert_cold(name)


def test_field_edits_of_a_bilingual_site_give_the_cold_build(tmp_path):
    """A site in two languages: each paper field in turn (a few by default), and a
    paper's translation, edited one after the other; `build` and `serve` take the last
    build's pages of both languages and write the cold build's bytes."""
    state = start_state()
    state["settings"]["languages"] = "[en, zh]"
    sites = Sites(tmp_path, state)
    steps = [("paper", name) for name in PAPER_FIELDS]
    for i, step in enumerate(steps if FULL_TESTS else steps[::8]):
        sites.save(apply_edit(sites.state, step, i + 7, i))
        sites.assert_cold(step)
    sites.state["papers"]["p3"]["translations"] = "{zh: {title: 译名, abstract: 摘要。}}"
    sites.save("publications/p3.md")
    sites.assert_cold("translations")
