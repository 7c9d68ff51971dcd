"""Load a whole content folder into one validated, immutable `Site`."""

from __future__ import annotations

import dataclasses
import os
import pickle
from collections import Counter
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Callable

from .listing import check_inside, list_files
from .collections import (SCHEMAS, Context, make_item_markdown, read_published,
                          read_variant_items)
from .layout import PAPER_SUFFIXES, PAPERS_DIR
from .besidenotebooks import read_notebooks_beside, warn_stray_notebooks
from .settings.publishing import Publishing
from .settings.config import load_config
from .citecounts import COUNTS_FILE, check_count_slugs
from .cv import load_cv
from ..diagnostics import Diagnostic, Diagnostics
from ..models import CV, Item, Paper, Person, Site, SiteConfig, Variant
from .unread import warn_unread
from .bib.bibrepeats import drop_same_papers, keep_repeats
from ..output.cache import hash_bytes
from ..reads import ReadLog, Reads, plain
from .paperfiles import (FileKey, PaperFiles, ParsedFiles, Share, check_file_links,
                         list_papers, read_paper_files)
from .text.papers import make_markdown, render_markdown, report_at
from ..structure.urls import FILES_DIR  # content/files/, copied to the site as it is
from ..structure.kinds import list_always_present, list_reserved, list_sections, list_section_keys
from .settings.tiertables import CCF_ONLY, make_tier_finder
from .settings.venues import load_table
from .settings.placeholders import warn_placeholders
from .settings.yamlread import read_text
from .roster import Roster, link_students, load_roster, make_author_links

# What the site itself writes at its root: a free page may not take one of these names.
RESERVED = list_reserved(tuple(s.name for s in SCHEMAS))
CONFIG_FILE = "site.yaml"
BIO_FILE = "index.md"  # the home page's text
CV_FILE = "cv.yaml"


@dataclass(frozen=True)
class Prepared:
    """Papers of a run of files with the site's rules applied, the warnings those gave,
    and what the caller's `prepare` made of them, by slug: all depend on the papers and
    the settings alone, so they are made in the process that read the files (which keeps
    each file's share, pickled, for the next build: ParsedFiles.made); `digests`, by
    slug, the digest of the share that what was made of the paper is in, where it was
    kept."""

    papers: list[Paper]
    warnings: list[Diagnostic]
    made: dict[str, object]
    digests: dict[str, str] = dataclasses.field(default_factory=dict)


@dataclass(frozen=True)
class Loaded:
    """A checked site, and what `prepare` made of each paper, in the site's order, with
    the digests of those taken from or kept for another build (Prepared.digests)."""

    site: Site
    made: dict[str, object]
    digests: dict[str, str] = dataclasses.field(default_factory=dict)
    reads: Reads = dataclasses.field(default_factory=dict)  # see settle_papers


Prepare = Callable[[list[Paper], SiteConfig], dict[str, object]]


def prepare_files(files: PaperFiles, parsed: ParsedFiles, config: SiteConfig | None,
                  diags: Diagnostics, prepare: Prepare | None) -> Prepared:
    """The run's papers with the site's rules applied and `prepare` made of them: for
    each file that `parsed.ready` had, what was made of it last time (nothing it depends
    on has changed: read_known_file), for the others made here, and kept when
    `parsed.keep_ready` (in `parsed.made`, for the run's part: paperparts.py)."""
    if config is None:  # the build stops once everything is read
        return Prepared(list_papers(files), [], {})
    shares: dict[int, tuple[Prepared, str | None]] = {}  # with the digests of those kept
    fresh: dict[int, tuple[list[Paper], list[Diagnostic]]] = {}
    for i, (_, papers, share) in enumerate(files):
        if papers is None:
            shares[i] = share  # type: ignore[assignment]
        else:
            found = diags.empty_copy()
            fresh[i] = (apply_site_rules(papers, config, found), found.items)
    made = prepare([p for papers, _ in fresh.values() for p in papers], config) \
        if prepare and fresh else {}
    for i, (papers, warnings) in fresh.items():
        shares[i] = (Prepared(papers, warnings, {p.slug: made[p.slug] for p in papers
                                                 if p.slug in made}), None)
    kept: dict[FileKey, Share] = {}
    if parsed.keep_ready:  # the shares taken as they were, and the fresh ones
        kept = {key: parsed.ready[key] for i, (key, _, _) in enumerate(files)
                if i not in fresh and key in parsed.ready}
        kept.update(keep_shares(files, {i: shares[i][0] for i in fresh}))
        for i in fresh:
            if files[i][0] in kept:
                shares[i] = (shares[i][0], kept[files[i][0]][0])  # type: ignore[index]
    parsed.made.update(kept)
    ordered = [shares[i] for i in range(len(files))]
    return Prepared([p for share, _ in ordered for p in share.papers],
                    [w for share, _ in ordered for w in share.warnings],
                    {slug: view for share, _ in ordered for slug, view in share.made.items()},
                    {slug: digest for share, digest in ordered if digest for slug in share.made})


def keep_shares(files: PaperFiles, fresh: dict[int, Prepared]) -> dict[FileKey, Share]:
    """Each fresh file's share (its papers, warnings and what was made of them) pickled,
    with its digest; not a file with a paper whose address another fresh paper has, of
    which `made` holds one (collect_made makes them again)."""
    slugs = Counter(paper.slug for share in fresh.values() for paper in share.papers)
    kept: dict[FileKey, Share] = {}
    for i, share in fresh.items():
        key = files[i][0]
        if key and all(slugs[p.slug] == 1 for p in share.papers):
            data = pickle.dumps(share, protocol=pickle.HIGHEST_PROTOCOL)
            kept[key] = (hash_bytes(data), data)
    return kept


def check_slugs(papers: list[Paper], diags: Diagnostics) -> list[Paper]:
    """Every paper file's papers together, one page address each: the same paper given
    twice, or two under one address, settled as bibrepeats.py says, and the same paper
    in a .bib and a Markdown file listed once. The live preview assembles its site
    through this too."""
    return drop_same_papers(keep_repeats(papers, diags), diags)


def settle_papers(papers: list[Paper], diags: Diagnostics, log: ReadLog | None
                  ) -> list[Paper]:
    """The papers of every file, one per address (check_slugs), in the site's order;
    with `log`, what telling repeats apart and ordering read of each paper is noted there
    (scholarsite/reads.py): a paper that reads the same again keeps its place and warnings."""
    watched = papers if log is None else [log.watch(p, p.slug, "paper") for p in papers]
    settled = check_slugs(watched, diags)
    settled.sort(key=Paper.sort_key)
    return settled if log is None else [plain(p) for p in settled]


def watch_site(site: Site, log: ReadLog | None) -> Site:
    """`site` with stand-ins for its papers that note what is read of them in `log`."""
    return site if log is None else dataclasses.replace(
        site, papers=tuple(log.watch(p, p.slug, "paper") for p in site.papers))


def apply_site_rules(papers: list[Paper], config: SiteConfig, diags: Diagnostics) -> list[Paper]:
    """What depends on the site's settings: tiers by lookup, categories, author marks."""
    pubs = config.publications
    known_marks = {mark for mark, _ in pubs.author_notes}
    out = []
    files_dirs: dict[Path, Path] = {}
    find_tier = make_tier_finder(pubs.venue_tiers)
    for paper in papers:
        if paper.source.parent not in files_dirs:
            files_dirs[paper.source.parent] = find_files_dir(paper.source)
        paper = check_file_links(paper, files_dirs[paper.source.parent], diags)
        if pubs.group_by == "category" and pubs.categories and paper.category \
                and paper.category not in pubs.categories:
            diags.warning(paper.source, paper.line, f"category '{paper.category}' is not in "
                          "site.yaml's publications.categories; it is shown after them")
        if pubs.group_by == "category" and not paper.category:
            diags.warning(paper.source, paper.line, "no 'category': the paper is shown under "
                          "'Other'")
        unknown = sorted({m for a in paper.authors for m in a.marks} - known_marks)
        if unknown and pubs.author_notes:
            diags.warning(paper.source, paper.line, f"author mark(s) {' '.join(unknown)} have no "
                          "meaning in site.yaml's publications.author_notes")
        warn_unlisted_translations(paper, config.languages or (config.language,), diags)
        if not paper.tier and pubs.venue_tiers:
            tier = find_tier(paper.venue, paper.venue_short)
            if tier:
                paper = dataclasses.replace(paper, tier=tier)
        out.append(settle_language(paper, config.language, diags))
    return out


def settle_language(paper: Paper, default: str, diags: Diagnostics) -> Paper:
    """The paper with its language said: its own `language:`, else the site's first. A
    translation into that language is an error (it would be dropped: nowhere to show it)."""
    if paper.language:
        return paper
    if any(tag.casefold() == default.casefold() for tag, *_ in paper.translations):
        diags.error(paper.source, paper.line, f"'translations' has {default!r}, the paper's "
                    f"own language (the site's first, as it names no 'language'): give its "
                    f"language ('language: en' for a paper written in English), or drop the "
                    f"translation")
    return dataclasses.replace(paper, language=default)


def settle_item_language(item: Item, default: str) -> Item:
    return item if item.language else dataclasses.replace(item, language=default)


def warn_unlisted_translations(paper: Paper, languages: tuple[str, ...],
                               diags: Diagnostics) -> None:
    """A paper's `translations` in a language the site is not built in are on no page."""
    for tag in (tag for tag, *_ in paper.translations if tag not in languages):
        diags.warning(paper.source, paper.line, f"'translations' has {tag!r}, which is not "
                      f"one of the site's languages ({', '.join(languages)}): it is shown "
                      f"nowhere; list it in site.yaml: languages: [{', '.join(languages)}, "
                      f"{tag}]")


def find_files_dir(source: Path) -> Path:
    """content/files/ of the site whose paper file `source` is: papers are read from
    below content/publications/ (the nearest such folder beside a site.yaml)."""
    folders = [folder for folder in source.parents if folder.name == PAPERS_DIR]
    home = next((f for f in folders if (f.parent / CONFIG_FILE).is_file()),
                folders[0] if folders else source.parent)
    return home.parent / FILES_DIR


def list_user_files(content_dir: Path, diags: Diagnostics) -> tuple[Path, ...]:
    """content/files/, relative to that folder: copied to the site as they are."""
    files_dir = content_dir / FILES_DIR
    return tuple(p.relative_to(files_dir) for p in list_files(files_dir, content_dir, diags, ()))


def read_bio(content_dir: Path, diags: Diagnostics, name: str = BIO_FILE) -> str:
    path = content_dir / name
    if not os.path.lexists(path) or not check_inside(path, content_dir, diags):
        return ""
    text = read_text(path, diags)
    return render_markdown(make_markdown(), text, report_at(diags, path, text, text)) \
        if text else ""


def check_nav(site: Site, path: Path, diags: Diagnostics) -> None:
    """Every key in `nav` of site.yaml (`path`) names a section this site has."""
    present = {*list_sections(site), *list_always_present()}
    known = (*list_section_keys(), *(s.name for s in SCHEMAS), *(p.slug for p in site.pages))
    for entry in site.config.nav:
        if not entry.key or entry.key in present:
            continue
        if entry.key in known:
            diags.warning(path, entry.line, f"nav names '{entry.key}', which has nothing to "
                          "show yet; the entry is left out")
        else:
            diags.error(path, entry.line, f"nav names '{entry.key}', which is not a section "
                        f"of this site; known: {', '.join(known)}")


def make_context(content_dir: Path, slugs: frozenset[str], files: tuple[Path, ...],
                 publishing: Publishing, variants: tuple[str, ...] = ()) -> Context:
    return Context(content_dir, slugs, frozenset(f"{FILES_DIR}/{f.as_posix()}" for f in files),
                   make_item_markdown(), publishing, variants)


def read_variants(content_dir: Path, slugs: frozenset[str], files: tuple[Path, ...],
                  publishing: Publishing, languages: tuple[str, ...], site_items: tuple,
                  diags: Diagnostics) -> tuple[Variant, ...]:
    """The texts written in each of the site's other languages: content/index.zh.md,
    x.zh.md beside each collection's and the free pages' x.md, content/cv.zh.yaml. A
    text whose default-language file is missing is an error: every page is in every
    language."""
    ctx = make_context(content_dir, slugs, files, publishing, languages)
    known = {(item.collection, item.slug) for item in site_items}
    variants = []
    for tag in languages:
        items = read_variant_items(ctx, tag, diags)
        for item in items:
            if (item.collection, item.slug) not in known:
                diags.error(item.source, 1, f"'{item.source.name}' is the {tag} text of "
                            f"'{item.slug}', which has no file of its own in the default "
                            f"language; add {item.slug}.md beside it")
        cv_path = content_dir / CV_FILE.replace(".yaml", f".{tag}.yaml")
        cv = load_cv(cv_path, diags) if os.path.lexists(cv_path) else None
        bio = read_bio(content_dir, diags, BIO_FILE.replace(".md", f".{tag}.md"))
        variants.append(Variant(tag, bio, items, cv))
    return tuple(variants)


def read_extras(content_dir: Path, slugs: frozenset[str], files: tuple[Path, ...],
                publishing: Publishing, diags: Diagnostics, roster: Roster | None = None,
                languages: tuple[str, ...] = ()
                ) -> tuple[tuple[Item, ...], tuple[Item, ...], CV | None, tuple[Item, ...]]:
    """The collections, the free pages, the CV and the papers' notebooks: read after the
    papers and the files, which they may name (and the CV's students, the people: `roster`)."""
    ctx = make_context(content_dir, slugs, files, publishing, languages)
    cv = load_cv(content_dir / CV_FILE, diags)
    if cv is not None and roster is not None:
        cv = link_students(cv, roster.people, diags)
    warn_stray_notebooks(ctx, diags)
    return (*read_published(ctx, RESERVED, diags), cv, read_notebooks_beside(ctx, diags))


def load_settings(content_dir: Path, files: tuple[Path, ...], publishing: Publishing,
                  diags: Diagnostics) -> tuple[SiteConfig | None, Roster]:
    """site.yaml, with the names author lists link (the people's and co-authors':
    SiteConfig.author_links), and the people: what every paper's view depends on besides
    the paper. The whole build, the touch-up and `serve` all read the settings so."""
    config = load_config(content_dir / CONFIG_FILE, diags)
    warn_placeholders(content_dir, diags)
    roster = load_roster(make_context(content_dir, frozenset(), files, publishing),
                         publishing.today, config.people_roles if config else (), diags)
    if config is not None and (roster.people or roster.coauthors):
        config = dataclasses.replace(config, author_links=make_author_links(roster))
    return config, roster


def load_site(content_dir: Path, diags: Diagnostics, jobs: int = 1,
              parsed: ParsedFiles | None = None, prepare: Prepare | None = None,
              meanwhile: Callable[[], object] | None = None,
              publishing: Publishing | None = None, log: ReadLog | None = None
              ) -> Loaded | None:
    """Everything in the content folder, validated, with `prepare(papers, config)` of
    each run of paper files; None when any error was found. Paper files are read in
    `jobs` processes (0: as many as pay), and taken from `parsed.known` when their bytes
    are known; `meanwhile` is done by this process while the workers read; `log` notes
    what settling the papers reads of them (settle_papers)."""
    publishing = publishing or Publishing()
    files = list_user_files(content_dir, diags)
    config, roster = load_settings(content_dir, files, publishing, diags)
    if config is not None and CCF_ONLY[0] in config.publications.venue_tiers:
        load_table()  # once, here, rather than in every worker
    paths = list_files(content_dir / PAPERS_DIR, content_dir, diags, PAPER_SUFFIXES)
    parsed = ParsedFiles() if parsed is None else parsed
    runs = read_paper_files(paths, diags, jobs, parsed,
                            partial(prepare_files, config=config, diags=diags,
                                    prepare=prepare), meanwhile)
    papers = settle_papers([paper for run in runs for paper in run.papers], diags, log)
    bio = read_bio(content_dir, diags)
    others = config.languages[1:] if config is not None else ()
    warn_unread(content_dir, diags, others)
    slugs = frozenset(p.slug for p in papers)
    items, pages, cv, notebooks = read_extras(content_dir, slugs, files, publishing, diags,
                                              roster, others)
    variants = read_variants(content_dir, slugs, files, publishing, others,
                             (*items, *pages), diags) if others else ()
    for run in runs:  # what the settings found wrong with a paper, with the rest
        diags.add_all([d for d in run.warnings if d.severity == "error"])
    if config is None or diags.has_errors():
        return None
    for run in runs:  # the settings' warnings come after the content's own
        diags.add_all(run.warnings)
    site = assemble_site(config, papers, content_dir, bio, files, (items, pages, cv, notebooks),
                         roster.people, diags, variants)
    if diags.has_errors():
        return None
    reads = log.result() if log else {}
    if not prepare:
        return Loaded(site, {}, reads=reads)
    made, remade = collect_made(runs, site, prepare)
    digests = {slug: digest for run in runs for slug, digest in run.digests.items()
               if slug not in remade}
    return Loaded(site, made, {p.slug: digests[p.slug] for p in site.papers
                               if p.slug in digests}, reads)


def assemble_site(config: SiteConfig, papers: list[Paper], content_dir: Path, bio: str,
                  files: tuple[Path, ...],
                  extras: tuple[tuple[Item, ...], tuple[Item, ...], CV | None,
                                tuple[Item, ...]],
                  people: tuple[Person, ...], diags: Diagnostics,
                  variants: tuple[Variant, ...] = ()) -> Site:
    """The site of what was read (the papers settled: settle_papers), checked as a whole:
    its menu names sections it has, its citation counts name its papers. The whole build
    and `serve`'s rebuilds (live/sources.py) assemble it so, and report alike."""
    items, pages = (tuple(settle_item_language(item, config.language) for item in texts)
                    for texts in extras[:2])
    cv = extras[2]
    site = Site(config=config, papers=tuple(papers), bio_html=bio, content_dir=content_dir,
                files=files, items=items, cv=cv, people=people, variants=variants,
                notebooks=extras[3],
                pages=tuple(p for p in pages if not p.field("place")),
                list_texts=tuple(p for p in pages if p.field("place")))
    check_nav(site, content_dir / CONFIG_FILE, diags)
    check_count_slugs(config.citation_counts, frozenset(p.slug for p in papers),
                      content_dir / COUNTS_FILE, diags)
    return site


def collect_made(runs: list[Prepared], site: Site, prepare: Prepare
                 ) -> tuple[dict[str, object], set[str]]:
    """What `prepare` made of each paper, by slug, in the site's order: made again here
    for a paper that check_slugs gave another address, or whose address a paper of
    another file had too; with the slugs of those made again."""
    made: dict[str, object] = {}
    read: set[str] = set()
    repeated: set[str] = set()  # what was made for these is one paper's of several
    for run in runs:
        made.update(run.made)
        for paper in run.papers:
            (repeated if paper.slug in read else read).add(paper.slug)
    fresh = [paper for paper in site.papers if paper.slug not in read or paper.slug in repeated]
    if fresh:
        made.update(prepare(fresh, site.config))
    return {paper.slug: made[paper.slug] for paper in site.papers}, {p.slug for p in fresh}
