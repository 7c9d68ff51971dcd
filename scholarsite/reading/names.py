"""People's names, read once: the one reader behind every author and editor, whatever door
the name came in by (a Markdown paper's front matter, a .bib file, and so what `migrate`,
`import-bib` and `update` write), and behind people matching (people.py).

A name is split as BibTeX splits it (bibtexparser's splitter): 'Given von Family',
'von Family, Given' or 'von Family, Jr, Given'; so 'Petrova, Elena' is Elena Petrova.
Beyond BibTeX's rules, a suffix (Jr., Sr., II, III, IV) is one wherever it stands
('John Smith Jr.', 'Smith, John, Jr.'), and in plain text (Markdown) academic titles and
degrees ('Dr.', ', PhD') are no part of the parts. The parts are what exports need (BibTeX,
RIS, CSL, Google Scholar's tags); the name shown is the source's own: Markdown's as
written, a .bib's as 'Given von Family, Jr'.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ..models import Author
from ..models.papers import shared_author
from .bib.latex import (MARKS, fold_space, latex_to_text, strip_marks,
                        strip_trailing_symbols)
from .text.cleantext import strip_inline_html
# What may end a name ('John Smith Jr.', 'John Smith, Jr.'): BibTeX's "Jr" part.
NAME_SUFFIXES = frozenset({"jr", "jr.", "sr", "sr.", "ii", "iii", "iv"})
_SUFFIX_AT_END = re.compile(r"(?:,\s*|\s+)(Jr\.?|Sr\.?|II|III|IV)$", re.IGNORECASE)
# Academic titles before a name and degrees after it: no part of the name. Matching
# people, loosely ('dr robert ladwig'); splitting a written name, only as titles are
# written, a degree after a comma ('Shoeb, Abu Awal Md' keeps its 'Md').
_TITLES = re.compile(r"^(?:(?:Dr|Prof|Professor|Mr|Mrs|Ms)\.?\s+)+|,?\s+(?:Ph\.?\s?D\.?|"
                     r"M\.?D\.?|M\.?Sc\.?)$", re.I)
_WRITTEN_TITLES = re.compile(r"^(?:(?:Dr|Prof|Professor|Mr|Mrs|Ms)\.?\s+)+|,\s*(?:Ph\.?\s?D\.?|"
                             r"M\.D\.|MD|M\.?Sc\.?)$")
# What plain text cannot hand to BibTeX's splitter, which reads braces and commands.
_LATEX_SYNTAX = re.compile(r"[{}\\]")


@dataclass(frozen=True)
class NameResult:
    author: Author | None
    problem: str = ""


@dataclass(frozen=True)
class NameParts:
    family: str
    given: str
    suffix: str = ""
    comma: bool = True  # the suffix written after a comma ('Smith, Jr., John'; not 'Grissom II')


def strip_titles(name: str) -> str:
    """'Dr. Robert Ladwig' -> 'Robert Ladwig'; 'Jane Roe, PhD' -> 'Jane Roe'."""
    return _TITLES.sub("", " ".join(name.split())).strip()


@lru_cache(maxsize=16384)
def split_name(written: str, latex: bool = False) -> NameParts:
    """A name's family and given names and suffix; `latex`: as a .bib writes it (each part
    decoded), else plain text. Raises ValueError where the splitter cannot read it."""
    text = written if latex else _WRITTEN_TITLES.sub("", written).strip() or written
    found = _SUFFIX_AT_END.search(text)
    suffix = found.group(1) if found and found.start() > 0 else ""
    comma = not suffix or found.group().startswith(",")
    text = text[:found.start()].rstrip(", ") if suffix else text
    decode = latex_to_text if latex else str
    words, syntax = text.split(), _LATEX_SYNTAX.search(text)
    if (syntax and not latex) or not (syntax or "," in text or "~" in text or any(
            not word[0].isupper() for word in words)):
        # Plain 'Given Family' (most names: the splitter's answer, without its cost), or
        # plain text the splitter would read as LaTeX: the last word is the family name.
        return NameParts(decode(words[-1]) if words else "",
                         fold_space(" ".join(map(decode, words[:-1]))), suffix, comma)
    from bibtexparser.middlewares.names import parse_single_name_into_parts

    try:
        parts = parse_single_name_into_parts(text, strict=False)
    except Exception as exc:  # the name parser raises on some malformed names
        raise ValueError(str(exc)) from exc
    last = [decode(word) for word in parts.last]
    if len(last) > 1 and last[-1].lower() in NAME_SUFFIXES and not suffix:  # 'Smith Jr., J'
        suffix, comma = last.pop(), False
    suffix = suffix or " ".join(map(decode, parts.jr))
    family = fold_space(" ".join([*map(decode, parts.von), *last]))
    return NameParts(family, fold_space(" ".join(map(decode, parts.first))), suffix, comma)


def make_author(name: str, marks: tuple[str, ...], parts: NameParts) -> Author:
    """The author shown as `name`; its parts kept only where they are not what the name's
    words imply (the last word the family name), so that a name equals itself however read."""
    plain = shared_author(name, marks)  # one object per author, as unpickled ones are
    if (plain.family_name(), plain.given_names(), "") == (parts.family, parts.given,
                                                          parts.suffix):
        return plain
    return shared_author(name, marks, parts.family, parts.given, parts.suffix)


def split_author(raw: str) -> Author:
    """A name as Markdown writes it, kept as written for the page: 'Wei Gao*' ->
    Author('Wei Gao', ('*',)); 'Petrova, Elena' is shown so, its family name Petrova.
    HTML in it (`<b>Wei Gao</b>`) dropped."""
    name = " ".join(strip_inline_html(raw).split())
    marks: list[str] = []
    while name and name[-1] in MARKS:
        marks.insert(0, name[-1])
        name = name[:-1].rstrip()
    try:
        parts = split_name(name)
    except ValueError:
        given, _, family = name.rpartition(" ")
        parts = NameParts(family, given)
    return make_author(name, tuple(marks), parts)


@lru_cache(maxsize=16384)
def read_name(raw: str) -> NameResult:
    """One BibTeX name ('Last, First', 'First Last', 'von Last, Jr, First') as an Author,
    shown as 'First von Last, Jr'."""
    raw, marks = strip_marks(strip_inline_html(raw).strip())
    try:
        parts = split_name(raw, latex=True)
    except ValueError as exc:
        return NameResult(None, f"cannot read the name {raw!r}: {exc}")
    name = fold_space(f"{parts.given} {parts.family}")
    if parts.suffix:
        name = f"{name}{',' if parts.comma else ''} {parts.suffix}"
    # A mark written right after the family name in 'Last*, First' form.
    name, more = strip_trailing_symbols(name)
    family, _ = strip_trailing_symbols(parts.family)
    if not name:
        return NameResult(None, "an author has no name, only markers" if marks or more
                          else "an author's name is empty (two 'and' in a row?)")
    return NameResult(make_author(name, marks + more, NameParts(family, parts.given,
                                                                parts.suffix)))
