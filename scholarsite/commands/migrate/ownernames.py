"""The owner's names as the moved papers write them, once every paper has moved.

An old site may write its owner in a script its settings never use: '杨秀隆' in a Chinese
paper of a site whose settings say 'Xiulong Yang', the owner's thesis listing '李家安' for
'Chia-An Lee'. The build cannot tell those are one person, so such a name becomes one of
site.yaml's `aliases` when the old site itself ties it to the owner: its title or home page
writes it ('My name is Fangda HAN (韩放达 in Chinese)'), or it is the one author of a paper
whose authors are otherwise nobody the owner could be. A site that never replaced the
template's placeholder ('You R. Name') takes as its owner the person on nearly every paper.
Each such decision is named in the report, to be checked."""

from __future__ import annotations

import unicodedata
from collections import Counter
from pathlib import Path

from ...diagnostics import Diagnostics
from ...models import Author, Owner
from ...reading.bib.bibtex import read_bib_text
from ...reading.people import fold_name, fold_words, is_named, is_owner, make_form
from ...reading.names import split_author
from ...reading.settings.yamlread import read_front_matter, read_text
from .model import Migration

# The templates' own sample owners (academicpages, al-folio, Hugo Academic): no one's name.
PLACEHOLDERS = frozenset(map(fold_name, ("Your Name", "Your Sidebar Name", "You R. Name",
                                         "Nelson Bighetti", "Albert Einstein")))
SHARE = 0.8  # the person on at least this share of a placeholder site's papers is its owner


def settle_owner(mig: Migration) -> None:
    """Add to site.yaml's owner the names the moved papers write them by (see above)."""
    author = mig.site.get("author")
    if not isinstance(author, dict) or not author.get("name"):
        return
    lists = list_author_lists(mig)
    if fold_name(author["name"]) in PLACEHOLDERS:
        take_owner_from_papers(mig, author, lists)
    owner = Owner(name=author["name"], aliases=tuple(author.get("aliases") or ()))
    missing = [(origin, authors) for origin, authors in lists
               if authors and not any(is_owner(a, owner) for a in authors)]
    found = {**find_other_scripts(owner, missing, declared_text(mig)),
             **find_longer_forms(owner, missing)}
    if found:
        author["aliases"] = [*owner.aliases, *found]
        mig.site["author"] = {"name": author.pop("name"), "aliases": author.pop("aliases"),
                              **author}  # site.yaml lists the aliases after the name
    for name, why in found.items():
        mig.add_review("site.yaml", f"'{name}' taken as the owner's name ({why}): added to "
                       "author.aliases, which highlights it in author lists; check it")


def list_author_lists(mig: Migration) -> list[tuple[str, tuple[Author, ...]]]:
    """(where it came from, its authors) of every paper that moved, read as the build
    reads them."""
    lists = []
    for rel, new in sorted(mig.files.items()):
        if new.what not in ("paper", "bibtex"):
            continue
        text = new.text if new.text is not None else read_text(new.source, Diagnostics())
        if text is None:
            continue
        if rel.endswith(".bib"):
            papers = read_bib_text(Path(rel), text, Diagnostics())
            lists += [(new.origin, paper.authors) for paper in papers]
        else:
            lists.append((new.origin, read_markdown_authors(rel, text)))
    return lists


def read_markdown_authors(rel: str, text: str) -> tuple[Author, ...]:
    found = read_front_matter(text, Path(rel), Diagnostics())
    data = found[0].data if found else None
    names = data.get("authors") if isinstance(data, dict) else None
    if not isinstance(names, list):
        return ()
    authors = (split_author(str(name)) for name in names if isinstance(name, str))
    return tuple(a for a in authors if a.name and a.name.casefold() != "et al.")


def declared_text(mig: Migration) -> str:
    """What the old site says of its owner in its own words: its title and description,
    the owner's settings and the home page."""
    home = mig.files.get("index.md")
    texts = [str(v) for k, v in mig.site.items() if k in ("title", "description")]
    texts += [str(v) for v in (mig.site.get("author") or {}).values()]
    return "\n".join([*texts, home.text if home and home.text else ""])


def scripts_of(name: str) -> frozenset[str]:
    """The scripts of a name's letters: 'LATIN', 'CJK', 'CYRILLIC', 'HANGUL'..."""
    return frozenset(unicodedata.name(ch, "?").split()[0] for ch in name if ch.isalpha())


def find_other_scripts(owner: Owner, missing: list[tuple[str, tuple[Author, ...]]],
                       declared: str) -> dict[str, str]:
    """{name: why} of the owner's names in scripts their known names do not use, from
    the papers on which nobody is the owner."""
    known = frozenset().union(*map(scripts_of, owner.names()))
    foreign = [(origin, [a.name for a in authors if not scripts_of(a.name) & known])
               for origin, authors in missing]
    said = {name: f"{origin} lists it, and the old site's title or home page writes it"
            for origin, names in foreign for name in names if len(name) > 1
            and name in declared}
    if said:
        return said if len(said) == 1 else {}  # two such names: which one is not clear
    alone = {authors[0].name: f"the only author of {origin}" for origin, authors in missing
             if len(authors) == 1 and not scripts_of(authors[0].name) & known}
    return alone if len(alone) == 1 else {}


def take_owner_from_papers(mig: Migration, author: dict,
                           lists: list[tuple[str, tuple[Author, ...]]]) -> None:
    """A template's placeholder as the owner's name: the person on nearly every paper,
    in the fullest form the papers write, takes its place (and the title's)."""
    lists = [authors for _, authors in lists if authors]
    families = Counter(family for authors in lists for family in
                       {" ".join(make_form(a).family) for a in authors})
    (family, count), (_, second) = (families.most_common(2) + [("", 0)] * 2)[:2]
    if not family or count < max(3, SHARE * len(lists)) or second == count:
        return  # nobody on nearly every paper, or two people: which is the owner is unclear
    forms = Counter(a.name for authors in lists for a in authors
                    if " ".join(make_form(a).family) == family)
    name = max(forms, key=lambda n: (forms[n], len(fold_words(n)), len(n), n))
    if sum(any(is_named(a, (name,)) for a in authors) for authors in lists) < SHARE * len(lists):
        return
    old = author["name"]
    author["name"] = name
    if mig.site.get("title") == old:
        mig.site["title"] = name
    mig.add_review("site.yaml", f"the old site's owner is the template's placeholder "
                   f"'{old}'; '{name}', an author of {count} of its {len(lists)} papers, "
                   "is taken as the owner: check author.name and the title")


def find_longer_forms(owner: Owner, missing: list[tuple[str, tuple[Author, ...]]]
                      ) -> dict[str, str]:
    """{name: why} of the owner's full given name where the settings give a short one
    ('Christopher David Muir' for 'Chris Muir'), from the papers on which nobody is the
    owner: the owner's family name, a given name the owner's begins (3 letters at least).
    The build never matches a shortened name by itself: 'Chris' would take 'Christine'."""
    mine = make_form(Author(owner.name))
    short = mine.given[0] if mine.given else ""
    if len(short) < 3:
        return {}
    found = {}
    for origin, authors in missing:
        forms = [(a.name, make_form(a)) for a in authors]
        same = [name for name, form in forms if form.family == mine.family and form.given
                and form.given[0] != short and form.given[0].startswith(short)]
        if len(same) == 1:
            found.setdefault(same[0], f"{origin} lists it, with the owner's family name "
                             f"and a given name that '{short.title()}' shortens")
    return found
