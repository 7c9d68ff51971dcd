"""Page addresses (slugs): unique, and names every system can hold as a folder."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from pathlib import Path
from typing import Callable, Iterable, TypeVar

from ..diagnostics import Diagnostics
from ..structure.languages import parse_language

# What a slug is: lowercase letters and digits, single hyphens between.
SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
# Names Windows keeps for devices: no file or folder can have them, whatever follows a dot.
RESERVED_NAMES = frozenset({"con", "prn", "aux", "nul", *(f"com{i}" for i in range(1, 10)),
                            *(f"lpt{i}" for i in range(1, 10))})
_NOT_SLUG = re.compile(r"[^a-z0-9]+")
# Characters no Windows file name may hold ('\\' and '/' aside, which split a path).
_NOT_IN_NAMES = '<>:"|?*'
MAX_NAME = 200  # characters of one name in a path: below every system's 255 bytes
# Longest slug made from a key or title: a folder name every system holds (most allow 255
# bytes a name, Windows 260 characters a path), with room for where the site lives.
MAX_SLUG = 80
TITLE_WORDS = 8  # of a title that names a page: enough to tell papers apart, and short
# The prefixes of the keys `update` gives a source's works (commands/workfetch.py,
# papersources.py): the service's own number for the work, which no reader can read.
NUMBERED_KEYS = frozenset({"ORCID", "OpenAlex", "INSPIRE", "arXiv", "PMID", "DOI"})

T = TypeVar("T")


def split_repeats(items: Iterable[T], key: Callable[[T], str]
                  ) -> tuple[list[T], list[tuple[T, T]]]:
    """The items whose key comes first, in order, and each later one with the first of its
    key: the caller names both in its message."""
    first: dict[str, T] = {}
    unique: list[T] = []
    repeats: list[tuple[T, T]] = []
    for item in items:
        name = key(item)
        if name in first:
            repeats.append((item, first[name]))
        else:
            first[name] = item
            unique.append(item)
    return unique, repeats


def make_slug(text: str) -> str:
    """'González-García:2022' -> 'gonzalez-garcia-2022': accents dropped, not the letters
    they sit on; a name Windows keeps for a device gets '-entry' after it."""
    slug = _NOT_SLUG.sub("-", fold_latin(text).lower()).strip("-")
    digest = hashlib.sha1(text.encode("utf-8")).hexdigest()[:8]
    if not slug:  # a key in another script: named by its hash, the same every build
        return "entry-" + digest
    if len(slug) > MAX_SLUG:  # cut, and told from other cuts by the hash of the whole
        return slug[:MAX_SLUG - len(digest) - 1].rstrip("-") + "-" + digest
    return f"{slug}-entry" if slug in RESERVED_NAMES else slug


def make_entry_slug(key: str, title: str) -> str:
    """A BibTeX entry's page address: its key's slug ('González-García2022' ->
    'gonzalez-garcia2022'); a key with no Latin letter ('王2020', '深度学习') says nothing a
    reader can read, so the first words of the title name the page instead. DBLP's keys
    (`DBLP:conf/osdi/SmithJ24`) give their last part; the keys `update` makes from a
    service's number for the work (`ORCID:102`, `OpenAlex:W4390000001`, `PMID:31415926`,
    NUMBERED_KEYS), the title, as import-bib's files and a person's would."""
    if key.startswith("DBLP:"):  # DBLP:conf/osdi/SmithJ24: the last part names the paper
        key = key.rsplit("/", 1)[-1]
    elif key.split(":", 1)[0] in NUMBERED_KEYS and ":" in key:
        key = ""
    slug = make_slug(key)
    if re.search("[a-z]", fold_latin(key).lower()):
        return slug
    words = _NOT_SLUG.sub(" ", fold_latin(title).lower()).split()
    return make_slug(" ".join(words[:TITLE_WORDS])) if words else slug


# Symbols that tell tags apart ('C', 'C++', 'C#'), spelled out in their pages' addresses.
_TAG_SYMBOLS = (("+", " plus "), ("#", " sharp "))


def make_tag_slug(tag: str) -> str:
    """A tag's page address: 'Machine Learning' -> 'machine-learning', 'C++' -> 'c-plus-plus',
    'C#' -> 'c-sharp' (so neither shares 'C''s page)."""
    if any(ch.isascii() and ch.isalnum() for ch in fold_latin(tag)):
        for symbol, word in _TAG_SYMBOLS:
            tag = tag.replace(symbol, word)
    return make_slug(tag)


def fold_latin(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text)
                   if not unicodedata.combining(c))


def check_file_slug(path: Path, example: str, diags: Diagnostics,
                    translatable: bool = False) -> None:
    """An error at a content file whose name cannot be its page address. `translatable`:
    the file may be a text in another language ('x.zh.md'), which is not said as a slug."""
    language = describe_unlisted_language(path.name) if translatable else ""
    if language:
        diags.error(path, 1, language)
    elif not SLUG.match(path.stem):
        diags.error(path, 1, f"file name '{path.name}' is not a valid slug: use lowercase "
                    f"letters, digits and single hyphens, such as '{example}'")
    elif path.stem in RESERVED_NAMES:
        diags.error(path, 1, f"'{path.stem}' cannot be a page address: Windows keeps the name "
                    "for a device, so no one could check the site out there; rename the file")


def describe_unlisted_language(name: str) -> str:
    """What is wrong with 'x.zh.md' (or 'index.zh.md'), a text in a language the site does
    not list, when that is what it is; else ''. Its fix is site.yaml's `languages`, not
    another name."""
    stem, _, suffix = name.rpartition(".")
    base, _, tag = stem.rpartition(".")
    locale = parse_language(tag) if base and SLUG.match(base) else None
    if locale is None:
        return ""
    default = "zh" if locale.language == "en" else "en"
    return (f"'{name}' is the text of '{base}.{suffix}' in {locale.get_display_name('en')} "
            f"({tag}), which is not one of the site's languages, so it is not built: list "
            f"them in site.yaml, the default first, such as languages: [{default}, {tag}]")


def find_path_problem(path: str) -> str:
    """Why `path` ('a/b/', 'a/b.html') cannot be a path the site writes, or '': each name
    in it must be one every system can hold (none Windows keeps for a device nor with a
    character Windows refuses, none hidden, since '.git/hooks/' is no page) and that reads
    as written (no control character, no invisible one such as U+202E, which shows the
    rest of a name backwards)."""
    for char in path:
        if unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn"):
            return (f"contains the control or invisible character U+{ord(char):04X}; "
                    "remove it")
        if char in _NOT_IN_NAMES or char == "\\":
            return f"contains '{char}', which no file name on Windows may hold"
    for name in path.strip("/").split("/"):
        if not name:
            return "has an empty name between two slashes"
        if name.startswith("."):
            return (f"names '{name}', a hidden file or folder, which the site never "
                    "publishes")
        if name.split(".")[0].lower() in RESERVED_NAMES:
            return f"names '{name}', which Windows keeps for a device"
        if name[0] == " " or name[-1] in ". ":
            return f"names '{name}', which starts with a space or ends in a space or dot"
        if len(name) > MAX_NAME:
            return f"has a name longer than {MAX_NAME} characters"
    return ""
