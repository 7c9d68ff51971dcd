"""Where Hugo finds a section's pages, at any depth below it: a folder with an `index.md` is
one page (a leaf bundle; the rest of the folder its files), any other folder is a list
whose `_index.md` is no page of its own (a branch bundle) and whose pages are found the same
way, and a Markdown file beside them is a page. `content/publication/journal/x.md` is the
page `/publication/journal/x/`, as `content/publication/2023/x/index.md` is `/publication/2023/x/`.

A page may be written in several languages, one file each, the language before the
extension (`index.en.md`, `index.zh.md`, `x.ja.md`): the file in the site's language (or
the one without a language, which Hugo gives the site's language) is the page; the others
are its translations."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from babel import localedata

_LANGUAGE = re.compile(r"^(.+)\.([A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,4})?)$")


@dataclass(frozen=True)
class Page:
    """One page of a section: the file that moves, and its other languages' files."""

    path: Path
    name: str  # the folder's name for a bundle, the file's (less its language) otherwise
    within: str  # the folders between the section and the page: '' or 'journal/'
    translations: tuple[tuple[str, Path], ...]  # (language tag, file), by tag


def split_language(path: Path) -> tuple[str, str]:
    """('index', 'zh') for index.zh.md; ('index', '') for index.md or a name whose last
    part is no language Unicode's CLDR knows (`paper.final.md`)."""
    found = _LANGUAGE.match(path.stem)
    if found and localedata.exists(found.group(2).replace("-", "_")):
        return found.group(1), found.group(2)
    return path.stem, ""


def find_pages(section: Path, language: str) -> list[Page]:
    """The section's pages, in the order of their paths."""
    return find_below(section, section, language) if section.is_dir() else []


def find_below(folder: Path, section: Path, language: str) -> list[Page]:
    pages: list[Page] = []
    files: dict[str, list[tuple[str, Path]]] = {}
    for child in sorted(folder.iterdir()):
        if child.name.startswith((".", "_")):
            continue  # hidden files, and a list's own `_index.md`
        bundle = [p for p in sorted(child.glob("index*.md")) if split_language(p)[0] == "index"
                  ] if child.is_dir() else []
        if bundle:
            pages.append(make_page([(split_language(p)[1], p) for p in bundle], child.name,
                                   child.parent, section, language))
        elif child.is_dir():
            pages += find_below(child, section, language)
        elif child.suffix == ".md":
            stem, tag = split_language(child)
            files.setdefault(stem, []).append((tag, child))
    pages += [make_page(found, stem, folder, section, language) for stem, found in files.items()]
    return sorted(pages, key=lambda page: page.path)


def make_page(files: list[tuple[str, Path]], name: str, parent: Path, section: Path,
              language: str) -> Page:
    """The page of one name: its file in the site's language, else the one without a
    language, else the first; the rest its translations."""
    def rank(item: tuple[str, Path]) -> tuple[int, str]:
        tag = item[0].casefold()
        return (0 if tag == language.casefold() else 1 if not tag else 2, item[0])

    main, *others = sorted(files, key=rank)
    within = parent.relative_to(section).as_posix()
    return Page(main[1], name, "" if within == "." else within + "/",
                tuple(sorted((tag or language, path) for tag, path in others)))
