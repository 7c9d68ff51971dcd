"""What the live preview has read of the content, file by file, and the site assembled
from it: a save reads again only the files it touched (see incremental.py)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..build import BuildOptions
from ..diagnostics import Diagnostic, Diagnostics
from ..models import CV, Item, Paper, Person, Site, SiteConfig
from ..reading.roster import Roster
from ..reading.listing import accept_file
from ..reading.loader import (PAPER_SUFFIXES, apply_site_rules, assemble_site,
                              list_user_files, load_settings, read_bio, read_extras,
                              settle_papers)
from ..reading.paperfiles import name_site_file, read_paper_file
from ..reading.text.papers import Converter, make_markdown
from .changes import Changes


@dataclass(frozen=True)
class SourceFile:
    """What one paper file gave: its papers (site rules applied), its problems, and the
    files of content/files/ its links name, there or not (None: not known), so that the
    file is read again when one of those comes or goes."""

    papers: tuple[Paper, ...]
    diagnostics: tuple[Diagnostic, ...]
    names: frozenset[str] | None = frozenset()


class ContentFiles:
    """The content as last read, each file's papers and problems kept apart, so that a
    save reads again only what it touched."""

    def __init__(self, options: BuildOptions, show_root: Path) -> None:
        self.options = options
        self.show_root = show_root  # diagnostics show paths relative to it
        self.md: Converter = make_markdown(root_links=True)  # as paperfiles.py
        self.config: SiteConfig | None = None
        self.config_diags: tuple[Diagnostic, ...] = ()
        self.sources: dict[Path, SourceFile] = {}  # in sorted order, as a full load reads
        self.reread: dict[Path, SourceFile | None] = {}  # files read again now, as they were
        self.bio = ""
        self.bio_diags: tuple[Diagnostic, ...] = ()
        self.files: tuple[Path, ...] = ()
        self.files_diags: tuple[Diagnostic, ...] = ()
        # Collections, free pages and the CV, and what they were checked against.
        self.extras: tuple[tuple[Item, ...], tuple[Item, ...], CV | None, tuple[Item, ...]] \
            = ((), (), None, ())
        self.extras_diags: tuple[Diagnostic, ...] = ()
        self.extras_read_for: tuple | None = None  # (paper slugs, files); None: read again
        self.people: tuple[Person, ...] = ()  # read with the settings (a change: a whole build)

    def new_diags(self) -> Diagnostics:
        return Diagnostics(root=self.show_root)

    def read_config(self) -> None:
        """The settings with the people (loader.load_settings), after the files."""
        diags = self.new_diags()
        self.config, roster = load_settings(self.options.content_dir, self.files,
                                            self.options.publishing, diags)
        self.people = roster.people
        self.config_diags = tuple(diags.items)

    def read_source(self, path: Path) -> SourceFile | None:
        """One paper file, or None when it is gone (or is not read, being hidden)."""
        diags = self.new_diags()
        if not accept_file(path, self.options.content_dir, diags, PAPER_SUFFIXES):
            return SourceFile((), tuple(diags.items)) if diags.items else None
        papers = read_paper_file(path, self.md, diags)
        names = name_site_files(papers)  # before a link to a missing file is left out
        if self.config is not None:
            papers = apply_site_rules(papers, self.config, diags)
        return SourceFile(tuple(papers), tuple(diags.items), names)

    def read_bio(self) -> None:
        diags = self.new_diags()
        self.bio = read_bio(self.options.content_dir, diags)
        self.bio_diags = tuple(diags.items)

    def read_files(self) -> None:
        diags = self.new_diags()
        self.files = list_user_files(self.options.content_dir, diags)
        self.files_diags = tuple(diags.items)


    def all_diagnostics(self) -> list[Diagnostic]:
        items = list(self.config_diags)
        for source in self.sources.values():
            items += source.diagnostics
        return (items + list(self.bio_diags) + list(self.files_diags)
                + list(self.extras_diags))

    def read_extras(self, slugs: frozenset[str]) -> list[Diagnostic]:
        """Collections, free pages and the CV, again when they changed or when the papers
        or files they may name did; returns the warnings found."""
        if self.extras_read_for == (slugs, self.files):
            return []
        diags = self.new_diags()
        self.extras = read_extras(self.options.content_dir, slugs, self.files,
                                  self.options.publishing, diags, Roster(self.people, ()))
        self.extras_diags = tuple(diags.items)
        self.extras_read_for = (slugs, self.files)
        return [d for d in diags.items if d.severity == "warning"]


    def assemble(self, diags: Diagnostics, warnings: list[Diagnostic]) -> Site | None:
        """The Site from what was read, assembled as the whole build assembles it
        (loader.settle_papers, loader.assemble_site), or None when anything has an
        error (or, --strict, a warning)."""
        papers = settle_papers([p for source in self.sources.values() for p in source.papers],
                               diags, None)
        slugs = frozenset(p.slug for p in papers)
        reread = self.extras_read_for != (slugs, self.files)
        warnings += self.read_extras(slugs)
        if self.config is None or self.has_problems(diags):
            return None
        whole = self.new_diags()
        site = assemble_site(self.config, papers, self.options.content_dir, self.bio,
                             self.files, self.extras, self.people, whole)
        diags.extend(whole)
        if reread:  # said once, not on every save
            warnings += [d for d in whole.items if d.severity == "warning"]
        return None if self.has_problems(diags) else site

    def has_problems(self, diags: Diagnostics) -> bool:
        return any(d.severity == "error" or self.options.strict
                   for d in self.all_diagnostics() + diags.items)

    def adopt(self, site: Site) -> None:
        """What a whole build read, as the site it made holds it: each paper file's
        papers in the file's order (a build that made a site found no error in them)."""
        self.config, self.config_diags = site.config, ()
        self.people = site.people
        by_file: dict[Path, list[Paper]] = {}
        for paper in site.papers:
            by_file.setdefault(paper.source, []).append(paper)
        self.sources = {path: adopt_source(path, papers) for path, papers in
                        sorted(by_file.items())}
        self.reread = {}
        self.bio, self.bio_diags = site.bio_html, ()
        self.files, self.files_diags = site.files, ()
        # The free pages as read: assemble_site puts those with `place:` on their lists.
        self.extras = (site.items, site.pages + site.list_texts, site.cv, site.notebooks)
        self.extras_diags = ()
        self.extras_read_for = (frozenset(p.slug for p in site.papers), site.files)

    def read_changes(self, changes: Changes) -> list[Diagnostic]:
        """Only what changed; returns the warnings found in it."""
        self.reread = {}
        found: list[Diagnostic] = []
        listing = set(self.sources)
        paths = set(changes.papers)
        if changes.static:  # content/files/: the paper files naming what came or went too
            before = self.files
            self.read_files()
            paths |= self.naming({f.as_posix() for f in set(before) ^ set(self.files)})
        for path in sorted(paths):
            self.reread.setdefault(path, self.sources.get(path))
            source = self.read_source(path)
            if source is None:
                self.sources.pop(path, None)
            else:
                self.sources[path] = source
                found += source.diagnostics
        if set(self.sources) != listing:
            self.sources = dict(sorted(self.sources.items()))
        if changes.bio:
            self.read_bio()
            found += self.bio_diags
        if changes.static:
            found += self.files_diags
        if changes.extras:
            self.extras_read_for = None
        return [d for d in found if d.severity == "warning"]

    def previews_changed(self) -> bool:
        """Whether a paper file read again names other previews or PDFs (copied files)."""
        for path, old in self.reread.items():
            new = self.sources.get(path)
            if [(p.preview, p.link("pdf")) for p in (old.papers if old else ())] != \
                    [(p.preview, p.link("pdf")) for p in (new.papers if new else ())]:
                return True
        return False

    def naming(self, names: set[str]) -> set[Path]:
        """The paper files whose links name any of `names` (or may: not known)."""
        if not names:
            return set()
        return {path for path, source in self.sources.items()
                if source.names is None or source.names & names}


def name_site_files(papers: list[Paper] | tuple[Paper, ...]) -> frozenset[str]:
    """The files of content/files/ that the papers' links name."""
    return frozenset(name for paper in papers for link in paper.links
                     if (name := name_site_file(link.url)))


def adopt_source(path: Path, papers: list[Paper]) -> SourceFile:
    """A paper file as a whole build read it. A link of a Markdown paper to a missing file
    is an error, so a built one's links are all it names; a .bib file's entry loses such a
    link with a warning, so what it names is not known until it is read again."""
    papers.sort(key=lambda p: p.line)
    names = None if path.suffix.lower() == ".bib" else name_site_files(papers)
    return SourceFile(tuple(papers), (), names)
