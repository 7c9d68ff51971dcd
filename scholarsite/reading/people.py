"""Which author of a paper is the site's owner (or a member of the lab, or a co-author with
a page elsewhere), whatever form of their name a source uses.

A .bib file exported from DBLP, Google Scholar or a publisher writes one person many ways:
'González-García, Sergio', 'S. Gonzalez Garcia', 'A.J.G. Gray', 'Alasdair J G Gray'. An
author is the owner when their name is one of the owner's names (site.yaml's `name` and
`aliases`) written another way: the same family name (accents, hyphens and case aside) and
given names that agree, an initial standing for any name it begins. A co-author who has
the owner's family name but other given names is not the owner. The same test tells
which author is which person of content/people/ and coauthors.yaml (reading/roster.py):
one matcher for every name. Used by the whole build and the live preview alike, through
views.

Real lists also write a name family first with initials after it and no comma ('Lin J.R.',
'Gautheron L.'), join or split a hyphenated given name ('Jiarui', 'Jia Rui', 'Jia-Rui'),
and put academic titles around it ('Dr. Robert Ladwig', 'Jane Roe, PhD'): all are read as
the same name, never loosening the namesake rule above.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from ..models import Author, AuthorLink, Owner
from .names import read_name, strip_titles

_WORD = re.compile(r"\w+")
_INITIALS = re.compile(r"^[A-Z]{2,3}$")  # 'AJG' in 'AJG Gray': three initials run together
# One word of initials with full stops ('J.', 'J.R.', 'J.-R.'), or one capital letter.
_DOTTED = re.compile(r"^(?:[^\W\d_]\.-?)+$|^[^\W\d_a-z]$")
_JOINED = re.compile(r"(?<=\w)-(?=\w)")  # 'Jia-Rui': also read as 'JiaRui'


@lru_cache(maxsize=8192)
def fold_name(name: str) -> str:
    """A name compared loosely: case, accents, punctuation and word order do not matter."""
    return " ".join(sorted(fold_words(name)))


def fold_words(text: str) -> list[str]:
    """'González-García' -> ['gonzalez', 'garcia']; 'A.J.G.' -> ['a', 'j', 'g']."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return _WORD.findall(text.casefold())


def fold_given(text: str) -> list[str]:
    """Given names as words, initials run together split apart ('AJG' -> a, j, g)."""
    words: list[str] = []
    for part in text.split():
        words += list(part.lower()) if _INITIALS.match(part) else fold_words(part)
    return words


@dataclass(frozen=True)
class NameForm:
    """One name, folded: given words, then family words."""

    given: tuple[str, ...]
    family: tuple[str, ...]


def make_form(author: Author) -> NameForm:
    bare = strip_titles(author.name)
    if bare != author.name and bare:
        author = read_name(bare).author or author
    if not author.given_names() and " " in author.family_name():
        # One brace group ('\textbf{A. {Collas}}' in a real file): read its words again.
        again = read_name(author.name).author
        author = again if again is not None and again.given_names() else author
    given, family = swap_initials(author.given_names(), author.family_name())
    return NameForm(tuple(fold_given(given)), tuple(fold_words(family)))


def swap_initials(given: str, family: str) -> tuple[str, str]:
    """(given, family) of a name written family first, initials last ('Lin J.R.',
    'Gautheron L.', 'Ozel S A'): no family name is only initials, so the full words before
    them are the family name."""
    words = f"{given} {family}".split()
    run = 0
    while run < len(words) and _DOTTED.match(words[len(words) - 1 - run]):
        run += 1
    if not run or run == len(words) or any(_DOTTED.match(w) for w in words[:-run]):
        return given, family
    return " ".join(words[-run:]), " ".join(words[:-run])


def fold_keys(name: str) -> tuple[str, str]:
    """The name folded as written and with its hyphenated words joined ('Jia-Rui Lin' is
    also 'jiarui lin', which 'Jiarui Lin' and 'Lin Jiarui' are), titles left out."""
    bare = strip_titles(name) or name
    return fold_name(bare), fold_name(_JOINED.sub("", bare))


@lru_cache(maxsize=1024)
def name_forms(names: tuple[str, ...]
               ) -> tuple[tuple[str, ...], NameForm | None, tuple[NameForm, ...]]:
    """A person's names (the main one first) folded exactly (any word order), the main
    name's form, and every name's form (the main name's and the aliases')."""
    exact = tuple(key for name in names for key in fold_keys(name))
    forms = tuple(make_form(result.author) for result in map(read_name, names)
                  if result.author is not None)
    main = read_name(names[0]).author if names else None
    return exact, make_form(main) if main is not None else None, forms


def agree_word(a: str, b: str) -> bool:
    """Two given words agree when equal, or when one is an initial of the other."""
    if a == b:
        return True
    return (len(a) == 1 or len(b) == 1) and a[0] == b[0]


def agree_given(mine: tuple[str, ...], theirs: tuple[str, ...]) -> bool:
    """The first given names agree, and the fewer names are found among the more, in order:
    'A. J. Gray' and 'Alasdair J G Gray' agree, 'A. B. Gray' and 'Alasdair J G Gray' do not."""
    if not mine or not theirs or not agree_word(mine[0], theirs[0]):
        return False
    short, long = sorted((mine[1:], theirs[1:]), key=len)
    at = 0
    for word in short:
        while at < len(long) and not agree_word(word, long[at]):
            at += 1
        if at == len(long):
            return False
        at += 1
    return True


def split_family(form: NameForm, size: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(given, family) with the family `size` words long: 'Sergio Gonzalez Garcia' read as
    family 'Garcia' is the same person as 'Sergio González-García'."""
    words = form.given + form.family
    return words[:-size], words[-size:]


def match_form(author: NameForm, owner: NameForm) -> str:
    """'same', 'other' (the owner's family with given names that disagree) or ''."""
    size = max(len(author.family), len(owner.family))
    if not owner.family or len(author.given + author.family) <= size \
            or len(owner.given + owner.family) <= size:
        return ""
    a_given, a_family = split_family(author, size)
    o_given, o_family = split_family(owner, size)
    if a_family != o_family:
        return ""
    return "same" if agree_given(a_given, o_given) else "other"


def is_owner(author: Author, owner: Owner) -> bool:
    """Whether `author` is the site's owner (site.yaml's `name` and `aliases`)."""
    return is_named(author, owner.names())


@lru_cache(maxsize=65536)
def is_named(author: Author, names: tuple[str, ...]) -> bool:
    """Whether `author` is the person called `names` (the main name first): one of their
    names as written (any word order), or agreeing with one of them, unless the main name
    says it is someone else (a namesake: the same family name, other given names)."""
    exact, main, forms = name_forms(names)
    if any(key in exact for key in fold_keys(author.name)):
        return True
    form = make_form(author)
    if main is not None and match_form(form, main) == "other":
        return False  # a namesake: the main name's family, other given names
    return any(match_form(form, owner_form) == "same" for owner_form in forms)


@lru_cache(maxsize=65536)
def find_author_link(author: Author, links: tuple[AuthorLink, ...]) -> AuthorLink | None:
    """The link of the one person of the lab `author` is, else of the one co-author from
    elsewhere; None when there is none, or two of a kind (a name too short to tell two
    people apart, such as 'J. Chen' for Jia and Jun Chen, is left unlinked)."""
    index = index_links(links)
    candidates = sorted({at for key in match_keys(author.name, make_form(author))
                         for at in index.get(key, ())})
    for here in (True, False):
        found = [links[at] for at in candidates
                 if bool(links[at].person) is here and is_named(author, links[at].names)]
        if found:
            return found[0] if len(found) == 1 else None
    return None


def match_keys(name: str, form: NameForm) -> set[str]:
    """What a name shares with every name is_named finds it to be: one of its exact keys
    (fold_keys), or its form's last key (match_form compares family names, which end in
    the same word)."""
    return {*fold_keys(name), *last_key(form)}


def last_key(form: NameForm) -> tuple[str, ...]:
    words = form.given + form.family
    return ("last:" + words[-1],) if words else ()


@lru_cache(maxsize=8)
def index_links(links: tuple[AuthorLink, ...]) -> dict[str, tuple[int, ...]]:
    """The position of each link in `links` by each of its names' match_keys: an author
    is compared only with the links that share a key with it, not with every co-author
    (a build with 300 papers took 18 s with 1,000 co-authors and 216 s with 1,500)."""
    index: dict[str, list[int]] = {}
    for at, link in enumerate(links):
        exact, _, forms = name_forms(link.names)
        keys = {*exact, *(key for form in forms for key in last_key(form))}
        for key in keys:
            index.setdefault(key, []).append(at)
    return {key: tuple(ats) for key, ats in index.items()}
