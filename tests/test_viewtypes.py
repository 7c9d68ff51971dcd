"""The views templates see are what views/viewtypes.py says: each of a paper's, a
person's and a page's keys, and a paper's view carries each field of the paper's table
(models/forms.py) but those the module names as shown otherwise."""

from __future__ import annotations

from pathlib import Path

from conftest import ROOT
from scholarsite.diagnostics import Diagnostics
from scholarsite.models.forms import PAPER_FIELDS
from scholarsite.plan.frame import page_view
from scholarsite.reading.loader import load_site
from scholarsite.views.people import person_view
from scholarsite.views.derived import DERIVED, find_derived
from scholarsite.views.viewtypes import NOT_IN_PAPER_VIEW, PageView, PaperView, PersonView
from scholarsite.views.views import make_views


def test_views_have_the_keys_their_types_name():
    """The lab example: papers with and without previews, links and notes; people
    current and past, with and without photos."""
    diags = Diagnostics(root=Path.cwd())
    loaded = load_site(ROOT / "examples" / "lab", diags)
    assert loaded is not None and not diags.has_errors()
    site = loaded.site
    for view in make_views(site.papers, site.config).values():
        # What a template reads of a paper: the view's keys and those made when read.
        assert not view.keys() & DERIVED.keys(), view["slug"]
        assert view.keys() | DERIVED.keys() == PaperView.__annotations__.keys(), view["slug"]
        assert all(isinstance(find_derived(view, name), str) for name in DERIVED)
    for person in site.people:
        assert person_view(person, "", site.content_dir).keys() == \
            PersonView.__annotations__.keys(), person.slug
    paper = site.papers[0]
    for kind, path in (("home", ""), ("paper", f"publications/{paper.slug}/")):
        view = page_view(path, paper.title, kind, site, paper=paper if kind == "paper" else None)
        assert view.keys() == PageView.__annotations__.keys(), kind
    fields = {field.name for field in PAPER_FIELDS}
    assert fields - set(NOT_IN_PAPER_VIEW) <= PaperView.__annotations__.keys()
    assert set(NOT_IN_PAPER_VIEW) <= fields
