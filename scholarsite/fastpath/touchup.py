"""A build after a few papers' edits, brought about from the last build's record without
reading the rest of the site.

A build reads every file, makes every page's context and compares it with the last
build's (fastpath/reuse.py): at 5,000 papers that is more than a second of unpickling
and planning for an edit that changes a handful of files. When the last build recorded
how its pages depend on papers (reuse.Touch) and only paper files changed since, each
keeping what the last build read of its papers outside their entries and own pages (their
slugs, and the values at what it recorded reading of each: scholarsite/reads.py), the pages
that change are known without the others: the own pages of the papers that changed (of
a .bib file's many, those whose paper or view differ), rendered from the recorded frame
(pages.paper_frame); the pages of every paper that show them in fragments, patched in
their files (fastpath/lists.py) from their recorded outlines; and the files made of the
papers' texts (the search index, the citation files), where each changed text replaces
its old self. The last build's file of every other page is as this build would write it.

Anything else (a paper shown on another page, such as the home page; a new file; a
warning; a site whose CV's PDF lists papers) leaves it to the whole build, as does any
doubt: `touch_up` returns None and the build goes on as usual. The output is the whole
build's, byte for byte (tests/test_touchup.py).
"""

from __future__ import annotations

import hashlib
import os
import pickle
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

import jinja2

from ..diagnostics import Diagnostic, Diagnostics
from ..models import Paper, Site
from ..output.cache import BuildCache, cache_name, hash_bytes
from .inputs import fill_inputs, is_settled
from .record import BuildRecord, is_output_as_written, record_build
from .patch import patched_site
from ..reads import Reads, read_values
from .reuse import (Digest, FileReads, Frame, Listing, PageDigests, Touch, key_paper_pages)
from ..output.spans import Piece, mapped, write_spans
from ..output.writer import MANIFEST, write_file
from ..plan.pages import Planning, paper_context
from ..reading.settings.publishing import Publishing
from ..reading.loader import Prepared, apply_site_rules, list_user_files, load_settings
from ..reading.besidenotebooks import is_paper_notebook
from ..reading.paperfiles import parse_paper_file, store_result
from ..reading.paperparts import PartStore, open_parts
from ..reading.text.papers import Converter, make_markdown
from ..reading.settings.yamlread import read_bytes
from .lists import refill_outline, render_fragments, write_spliced
from ..structure.kinds import EXPORTS, KIND, SEARCH_PATH, paper_url, pdf_beside_page
from ..structure.urls import ROOT_MARKER, output_path
from ..views.entries import ENTRY, entries_of
from ..views.views import make_views

# Beyond this many changed paper files, the whole build is about as quick.
TOUCH_FILES = 8
SEARCH_FIELD = "search_json"  # the field of a paper's view that is its search entry


@dataclass(frozen=True)
class Touching:
    """What a touch-up works from: the build's folders, its cache and the last build's
    record (whose settings are this build's: `templates` fingerprints them), the inputs
    as listed now (inputs.list_inputs), and `content`, the fingerprint of the content's
    other files and the settings."""

    content_dir: Path
    output_dir: Path
    cache: BuildCache
    record: BuildRecord
    inputs: dict
    identities: dict
    content: str
    templates: str  # the fingerprint of the templates and settings (reuse.py)
    started: float
    root: Path  # what diagnostics are relative to
    is_paper: Callable[[str], bool]
    make_env: Callable[[], jinja2.Environment]
    # The papers' cache, opened once (open_store).
    stores: dict[str, PartStore] = field(default_factory=dict)


@dataclass(frozen=True)
class Edited:
    """A changed paper file: its papers (the site's rules applied), their views, and what
    is kept of them for the next build (as the whole build keeps it: paperfiles.py)."""

    path: str  # absolute
    key: tuple[str, str]  # (the path as the build names it, the hash of its bytes)
    raw: tuple[Paper, ...]  # as read
    papers: tuple[Paper, ...]
    views: dict[str, dict]
    share: tuple[str, bytes]  # its digest, and the pickled Prepared
    old_views: dict[str, dict]
    old_papers: dict[str, Paper]  # by slug, as the last build had them

    def renewed(self) -> set[str]:
        """The slugs of the papers whose pages and entries change: a paper and its view
        are all that a paper's page and entries take from its file (pages.paper_context),
        so the others (in a .bib file of many) are as the last build wrote them."""
        return {paper.slug for paper in self.papers
                if paper != self.old_papers.get(paper.slug)
                or self.views[paper.slug] != self.old_views.get(paper.slug)}


@dataclass(frozen=True)
class TouchedUp:
    files: int
    papers: int
    warnings: list[Diagnostic]


def touch_up(work: Touching) -> TouchedUp | None:
    """The site brought up to date after a few papers' edits, or None when the whole
    build must do it (nothing has been written then)."""
    touch, record = work.record.touch, work.record
    if not (isinstance(touch, Touch) and touch.in_pages_only and record.digests.pages
            and record.digests.templates == work.templates):
        return None
    changed = list_changed_papers(work)
    if not changed or not is_output_as_written(work.output_dir, record):
        return None
    diags = Diagnostics(root=work.root)
    config, _ = load_settings(work.content_dir, list_user_files(work.content_dir, diags),
                              Publishing(), diags)  # with the names author lists link
    if config is None or diags.items:
        return None
    edited, same = [], {}
    md = make_markdown(root_links=True)  # one for every file, as paperfiles.py's
    for path in changed:
        one = read_edited(work, path, config, touch, md)
        if one is None:
            return None
        if isinstance(one, str):  # its bytes are as they were
            same[path] = one
        else:
            edited.append(one)
    site = Site(config=config, papers=tuple(p for e in edited for p in e.papers),
                content_dir=work.content_dir, files=list_user_files(work.content_dir, diags))
    if diags.items:
        return None
    return write_touched(work, site, edited, same)


def list_changed_papers(work: Touching) -> list[str] | None:
    """The paper files (absolute paths) whose bytes may have changed since the last build;
    None for any other change (an input, a file added or gone), too many, or a paper's notebook."""
    record, inputs = work.record, work.inputs
    if inputs.keys() != record.inputs.keys() \
            or not all(is_settled(key, work.started) for key in inputs.values() if key):
        return None
    changed = [path for path, key in inputs.items() if key != record.inputs[path]]
    if len(changed) > TOUCH_FILES or not all(map(work.is_paper, changed)) \
            or any(map(is_paper_notebook(work.content_dir), inputs)):
        return None
    return sorted(changed)


def read_edited(work: Touching, path: str, config, touch: Touch, md: Converter
                ) -> Edited | str | None:
    """A changed paper file read, when it keeps its standing, has no problem and what the
    last build made of it is at hand; the hash of its bytes when they are as they were;
    else None."""
    diags = Diagnostics(root=work.root)
    name = work.content_dir / os.path.relpath(path, os.path.abspath(work.content_dir))
    data = read_bytes(name, diags)
    recorded = touch.files.get(path)
    if data is None or recorded is None or diags.items:
        return None
    key = (str(name), hash_bytes(data))
    if ("hash", key[1]) == work.record.inputs[path]:
        return key[1]
    raw = parse_paper_file(name, data, md, diags)
    papers = apply_site_rules(raw, config, diags)
    slugs = tuple(sorted(p.slug for p in papers))
    if diags.items or slugs != recorded.slugs \
            or any(is_about_file(warning, name) for warning in work.record.warnings) \
            or any(ROOT_MARKER in paper.abstract_html for paper in papers):  # plan/checks.py
        return None
    old = find_old_share(work, str(name), work.record.inputs[path], slugs)
    if old is None or any(slug not in old.made for slug in slugs):
        return None
    pdfs = {paper.slug: pdf_beside_page(paper) for paper in old.papers}
    if any(pdf_beside_page(paper) != pdfs.get(paper.slug) for paper in papers):
        return None  # a PDF to copy beside its page: the whole build copies it
    views = make_views(papers, config)
    if digest_reads(papers, views, touch.reads) != recorded.digest:
        return None  # another page read what changed: the whole build
    share = Prepared(list(papers), [], dict(views))
    pickled = pickle.dumps(share, protocol=pickle.HIGHEST_PROTOCOL)
    return Edited(path, key, tuple(raw), tuple(papers), views, (hash_bytes(pickled), pickled),
                  old.made, {paper.slug: paper for paper in old.papers})


def is_about_file(warning: Diagnostic, name: Path) -> bool:
    """Whether a warning of the last build is about the file `name`, or names it."""
    shown = name.as_posix()
    return os.path.abspath(warning.path) == os.path.abspath(name) or shown in warning.message


def find_old_share(work: Touching, name: str, old_key: tuple, slugs: tuple[str, ...]
                   ) -> Prepared | None:
    """The papers and views the last build showed of the file `name` (as it was then:
    `old_key`), from what it kept of the file, when that is what its pages show (the
    record has the digest of what they were kept with)."""
    if not old_key or old_key[0] != "hash":
        return None
    store = open_store(work)
    part = store.load_part(store.index[name]) if name in store.index else {}
    share = part["ready"].get((name, old_key[1])) \
        if part and part.get("context") == work.content else None
    if share is None or any(work.record.digests.views.get(slug) != share[0] for slug in slugs):
        return None
    try:
        prepared = pickle.loads(share[1])
    except Exception:  # noqa: BLE001 - a damaged entry: the whole build makes it again
        return None
    return prepared if isinstance(prepared, Prepared) else None


def write_touched(work: Touching, site: Site, edited: list[Edited], same: dict[str, str]
                  ) -> TouchedUp | None:
    """The changed papers' pages written into the site in place, and the cache and record
    brought up to date; None, with nothing written, when a page cannot be made so."""
    record, touch = work.record, work.record.touch
    assert isinstance(touch, Touch)
    views = {slug: view for e in edited for slug, view in e.views.items()}
    slugs = set(views)
    renewed = set().union(*(e.renewed() for e in edited))
    own = {output_path(paper_url(slug)): slug for slug in slugs}
    if any(rel not in own and shown & slugs for rel, shown in touch.shows.items()):
        return None
    env = work.make_env()
    texts = patch_texts(work.output_dir, views, {slug: view for e in edited
                                                 for slug, view in e.old_views.items()})
    listings = {rel: listing for rel, listing in record.digests.listings.items()
                if any(slot.name in renewed for slot in listing.slots)}
    made = {rel: render_listing(env, listing, renewed, views) for rel, listing in
            listings.items()}
    if texts is None or None in made.values():
        return None
    pages = render_own_pages(env, site, views, touch.frame, renewed)
    if pages is None:
        return None
    new_listings = dict(record.digests.listings)
    with patched_site(work.output_dir, set(record.outputs) - {MANIFEST}, lambda: work.cache
                      .remove(cache_name(work.output_dir, "build")), as_left=True) as root:
        for rel, text in pages.items():
            write_file(root, rel, text)
        for rel, pieces in texts.items():
            write_spans(root, rel, os.path.join(work.output_dir, rel), pieces)
        for rel, listing in listings.items():
            _, new_slots = write_spliced(root, rel, os.path.join(work.output_dir, rel),
                                         listing.slots, made[rel])  # type: ignore[arg-type]
            new_listings[rel] = replace(listing, slots=new_slots)
    keep_edited(work, edited)
    record_touched(work, edited, same, own, new_listings, {MANIFEST, *pages, *texts, *listings})
    return TouchedUp(record.files, record.papers, list(record.warnings))


def record_touched(work: Touching, edited: list[Edited], same: dict[str, str],
                   own: dict[str, str], listings: dict[str, Listing], written: set[str]
                   ) -> None:
    """The record of this build: the last one's, with what changed (see record_build)."""
    record, touch = work.record, work.record.touch
    assert isinstance(touch, Touch)
    last = record.digests
    digests = {slug: e.share[0] for e in edited for slug in e.views}
    keys = key_paper_pages({rel: (KIND["paper"].template, slug) for rel, slug in own.items()},
                           touch.frame, work.content, digests)
    inputs = fill_inputs(work.inputs, {**same, **{e.path: e.key[1] for e in edited}})
    pages = PageDigests(last.templates, {**last.pages, **keys}, listings,
                        {**last.views, **digests})
    # The files written were moved in, which changed their status: they are looked up.
    record_build(work.cache, work.output_dir, replace(
        record, inputs=inputs, started=work.started, digests=pages,
        identities=work.identities), {},
        {rel: identity for rel, identity in record.outputs.items() if rel not in written})


def render_own_pages(env: jinja2.Environment, site: Site, views: dict[str, dict],
                     frame: Frame, slugs: set[str]) -> dict[str, str] | None:
    """The own pages of the papers of `slugs`, by output path; None when one fails (the
    whole build reports it)."""
    plan = Planning(site, views, *frame, {})
    try:
        template = env.get_template(KIND["paper"].template)
        return {output_path(paper_url(paper.slug)): template.render(paper_context(plan, paper))
                for paper in site.papers if paper.slug in slugs}
    except Exception:  # noqa: BLE001 - any failure in a template is reported by that build
        return None


def render_listing(env: jinja2.Environment, listing: Listing, slugs: set[str],
                   views: dict[str, dict]) -> dict[str, dict] | None:
    """The fragments of the changed papers in a page of every paper, made from its
    recorded outline; None when they cannot all be made so."""
    spec = listing.template
    shown = {slot.name for slot in listing.slots} & slugs
    entries = {entry[ENTRY]: entry for slug in shown for entry in entries_of(views[slug])}
    try:
        template = env.select_template(spec) if isinstance(spec, tuple) \
            else env.get_template(spec)
        context = refill_outline(listing.outlined, entries)
    except (KeyError, jinja2.TemplateError):
        return None
    made = render_fragments(template, context, shown, views)  # type: ignore[arg-type]
    if made is None or not all(slot.key in made[slot.name] for slot in listing.slots
                               if slot.name in shown):
        return None
    return made


def patch_texts(out_dir: Path, views: dict[str, dict], old_views: dict[str, dict]
                ) -> dict[str, list[Piece]] | None:
    """The files made of every paper's text in one field (the search page's index, the
    citation files), as pieces of their last files (output/spans.py) with each changed
    paper's old text replaced by its new one; None when an old text is not there once."""
    fields = {output_path(SEARCH_PATH): SEARCH_FIELD,
              **{rel: field for rel, (field, *_) in EXPORTS.items()}}
    patched = {}
    for rel, field in fields.items():
        swaps = [(old[field].encode("utf-8"), views[slug][field].encode("utf-8"))
                 for slug, old in old_views.items() if old[field] != views[slug][field]]
        if not swaps:
            continue
        try:
            with mapped(out_dir / rel) as data:
                places = [(data.find(old), len(old), new) for old, new in swaps]
                if any(at < 0 or data.find(old, at + 1) >= 0
                       for (at, _, _), (old, _) in zip(places, swaps)):
                    return None
        except (OSError, ValueError):
            return None
        pieces: list[Piece] = []
        end = 0
        for at, length, new in sorted(places):
            if at < end:  # two texts overlap: not each paper's own
                return None
            pieces += [(end, at), new]
            end = at + length
        patched[rel] = [*pieces, (end, None)]
    return patched


def keep_edited(work: Touching, edited: list[Edited]) -> None:
    """What the changed files gave, kept in the papers' cache in place of what they gave
    last time (paperparts.py)."""
    store = open_store(work)
    parts: dict[int, list[Edited]] = {}
    for one in edited:
        if one.key[0] in store.index:
            parts.setdefault(store.index[one.key[0]], []).append(one)
    for number, ones in parts.items():
        part = store.load_part(number)
        if not part:
            continue
        files, ready = dict(part["files"]), dict(part["ready"])
        for one in ones:
            for key in [k for k in files if k[0] == one.key[0]]:
                files.pop(key, None)
                ready.pop(key, None)
            files[one.key] = store_result((one.raw, ()))
            ready[one.key] = one.share
        work.cache.save(store.name(number), {**part, "files": files, "ready": ready})


def open_store(work: Touching) -> PartStore:
    """The papers' cache (paperparts.py), opened once per touch-up."""
    if not work.stores:
        work.stores["papers"] = open_parts(work.cache, work.output_dir, work.root)
    return work.stores["papers"]


def note_touch(site: Site, views: dict[str, dict], frame: Frame,
               shows: dict[str, frozenset[str]], reads: Reads) -> Touch:
    """What this build records for a touch-up after the next edits (reuse.Touch): `reads`
    is what it read of each paper and its view besides the papers' own pages."""
    files: dict[str, list[Paper]] = {}
    for paper in site.papers:
        files.setdefault(os.path.abspath(paper.source), []).append(paper)
    return Touch(frame, {path: FileReads(tuple(sorted(p.slug for p in papers)),
                                         digest_reads(papers, views, reads))
                         for path, papers in files.items()}, shows,
                 site.cv is None and len(site.config.languages) < 2, reads)


def digest_reads(papers: list[Paper] | tuple[Paper, ...], views: dict[str, dict],
                 reads: Reads) -> Digest:
    """A digest of the values the build read of a file's papers and their views outside
    their entries and own pages (`reads`, by slug): while it is the same, every other
    page reads the same of them."""
    values = sorted((paper.slug, read_values({"paper": paper, "view": views[paper.slug]},
                                             reads.get(paper.slug)))
                    for paper in papers)
    return hashlib.blake2b(pickle.dumps(values, protocol=5), digest_size=16).digest()
