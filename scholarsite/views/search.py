"""What visitors use to find things: the publication filters' choices and the site search index.

Both are decided here, at build time, from the model and the planned pages; the browser
scripts in templates/assets/ only show and hide what the pages already contain.
"""

from __future__ import annotations

from collections import Counter
from itertools import chain

from markupsafe import Markup

from ..structure.languages import messages_for
from ..models import PAPER_TYPES, TYPE_LABELS, Site
from ..reading.text.mathml import math_to_tex
from ..structure.kinds import list_unsearched
from .citations import paper_year
from .metadata import dump_script_json
from .rooted import find_messages

# Page kinds that are not worth finding: they only list or point at other pages.
UNSEARCHED_KINDS = list_unsearched()


def make_facet(name: str, label: str, every: str, values: list, sort_key,
               labels: dict[str, str] | None = None, attr: str = "") -> dict | None:
    """One filter: its choices in order, each with how many papers it matches; None when it
    cannot tell papers apart (fewer than two distinct values, 'none' counting as one).
    `values` holds each paper's value ('' for none), or each paper's tuple of values."""
    if values and type(values[0]) is tuple:
        counts = Counter(chain.from_iterable(map(dict.fromkeys, values)))  # once a paper
        missing = not all(values)
    else:
        counts = Counter(values)
        missing = counts.pop("", 0) > 0
    if len(counts) + missing < 2:
        return None
    options = [{"value": v, "label": (labels or {}).get(v, v), "count": counts[v]}
               for v in sorted(counts, key=sort_key)]
    return {"name": name, "label": label, "every": every, "options": options,
            "attr": attr or name, "multi": type(values[0]) is tuple}


def make_facets(site: Site) -> list[dict]:
    """The filters of the publications page, each matched against the paper entries'
    data-ATTR attribute (data-topics holds a paper's topics joined by models.TOPIC_SEPARATOR)."""
    papers = site.papers
    categories = site.config.publications.categories
    t = messages_for(site.config).gettext
    facets = [
        make_facet("year", t("Year"), t("All years"), [paper_year(p, t) for p in papers],
                   lambda v: (1, -int(v), "") if v.isdigit() else (0, 0, v)),
        make_facet("tier", t("Tier"), t("All tiers"), [p.tier for p in papers], str.casefold),
        make_facet("category", t("Category"), t("All categories"),
                   [p.category for p in papers],
                   lambda v: (categories.index(v) if v in categories else len(categories),
                              v.casefold())),
        make_facet("type", t("Type"), t("All types"), [p.type for p in papers],
                   PAPER_TYPES.index, {k: t(v) for k, v in TYPE_LABELS.items()}),
        make_facet("topic", t("Topic"), t("All topics"), [tuple(p.topics) for p in papers],
                   str.casefold, attr="topics"),
    ]
    return [facet for facet in facets if facet]


def make_paper_entry(paper: dict, own_title: str) -> dict:
    """A paper as search sees it: title, authors, venue, year and abstract, as the page
    in its language shows them (a translated title), and its own title too."""
    also = own_title if own_title != paper["title"] else ""
    return {"url": paper["url"], "kind": paper["type_label"], "title": paper["title"],
            "authors": ", ".join(a["name"] for a in paper["authors"]["all"]),
            "venue": paper["venue_label"] or paper["institution"],
            "year": paper["year"], "text": " ".join(filter(None, (also, paper["abstract_text"])))}


def make_search_entry(context: dict) -> dict:
    """Any other page as search sees it: its title and text, for a talk, post or other item
    its details too. Nothing of a paper's view is read here: after a paper changes, a
    rebuild swaps the paper's entry alone (replan.patch_texts)."""
    page = context["page"]
    t = find_messages(context["site"]["language"], context["site"]["strings"]).gettext
    entry = {"url": page["path"], "kind": t("Page"), "title": page["title"], "authors": "",
             "venue": "", "year": "", "text": ""}
    item = context.get("item")
    if item:
        kind = context["collection"]["singular"]  # 'news item': the catalog's 'News item'
        return {**entry, "kind": t(kind[:1].upper() + kind[1:]), "venue": ", ".join(item["meta"]),
                "year": item["year"],
                "text": strip_tags(item["body_html"]) or item["summary"]}
    texts = []
    if page["description"] != context["site"]["description"]:
        texts.append(page["description"])
    for shown in context.get("collection", {}).get("entries", []):
        if not shown["url"]:  # an entry without a page of its own, such as a news item
            texts += [shown["title"], strip_tags(shown["body_html"])]
    for value in context.values():
        if isinstance(value, Markup):  # a page's own rendered Markdown, such as the bio
            texts.append(strip_tags(value))
    return {**entry, "text": " ".join(t for t in texts if t)}


def strip_tags(html: Markup) -> str:
    """The text of rendered Markdown, each formula as its TeX rather than MathML's pieces."""
    return Markup(math_to_tex(str(html))).striptags()


def make_search_index(contexts: list[dict], papers: list[dict]
                      ) -> tuple[list[Markup], tuple[str, ...]]:
    """The index, as JSON for the search page: one entry per page a visitor may look for,
    in the order the pages were planned, the papers (every one, from their views) right
    after the publications page. Each paper's entry is taken ready-made from its view
    (`search_json`, made with it): a save in `serve` makes this index again, and a site
    may have thousands of papers that did not change.

    `contexts` are the planned pages' contexts; paper pages among them are skipped, since an
    incremental rebuild plans only the pages of papers that changed. Returned with the
    index's pieces: the slug of the paper each is of ('' for the others)."""
    parts: list[Markup] = []
    owners: list[str] = []
    for context in contexts:
        kind = context["page"]["kind"]
        if kind in UNSEARCHED_KINDS or "paper" in context:
            continue
        parts.append(dump_entry(make_search_entry(context)))
        owners.append("")
        if kind == "publications":
            parts += [p["search_json"] for p in papers]
            owners += [p["slug"] for p in papers]
    # The same text as dump_script_json(list of entries): a list is its entries, joined;
    # given in pieces, so that the page is written without the whole index being copied
    # (8 MB at 5,000 papers, three times over).
    pieces, slugs = [Markup("[")], [""]
    for i, (part, owner) in enumerate(zip(parts, owners)):
        pieces += [part] if i == 0 else [Markup(","), part]
        slugs += [owner] if i == 0 else ["", owner]
    return [*pieces, Markup("]")], (*slugs, "")


def paper_search_json(view: dict, own_title: str) -> Markup:
    """A paper's entry in the index, as it is written there."""
    return dump_entry(make_paper_entry(view, own_title))


def dump_entry(entry: dict) -> Markup:
    return dump_script_json(entry, sort_keys=True)
