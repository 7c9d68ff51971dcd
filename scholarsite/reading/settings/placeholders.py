"""The starter's placeholders, still in a site: 'Your Name' published fifteen times, canonical
links and the sitemap at `your-username.github.io`.

What a placeholder is comes from the starter itself (`scholarsite/starter/content/`, what
`scholarsite new` writes): the made-up owner's name, the site's address, e-mail and
affiliation in its site.yaml. A content file that the starter also has and that still holds
one of them is named with the lines to edit: a warning at every build, an error in `check`
(which the Pages workflow runs) once the site is the owner's; a site that is still the
untouched starter, every file as `new` wrote it, is published as a preview, said so.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from urllib.parse import urlsplit

from ...diagnostics import Diagnostics
from ...output.paths import read_regular
from .yamlread import parse_yaml, read_text

STARTER_CONTENT = Path(__file__).resolve().parents[2] / "starter" / "content"
# The settings of the starter's site.yaml that name its made-up owner, whose values are
# found wherever they stand in the starter's files ("The research homepage of Your Name.").
# Its affiliation and position are left out: real words ('Assistant Professor'), which a
# site may well keep.
OWNER_SETTINGS = (("author", "name"), ("author", "email"), ("url",))


@dataclass(frozen=True)
class Placeholders:
    """One content file that still holds the starter's placeholders."""
    path: Path
    lines: tuple[int, ...]
    words: tuple[str, ...]

    def describe(self) -> str:
        where = ", ".join(map(str, self.lines))
        shown = ", ".join(f"'{word}'" for word in self.words)
        return (f"still the starter's placeholders ({shown}) on line"
                f"{'s' if len(self.lines) > 1 else ''} {where}: put your own there before "
                "you publish")


def list_starter_content() -> dict[str, Path]:
    """The starter's content files, by their path below a site's content folder."""
    return {path.relative_to(STARTER_CONTENT).as_posix(): path
            for path in sorted(STARTER_CONTENT.rglob("*"))
            if path.is_file() and not path.name.startswith(".")}


@lru_cache(maxsize=1)
def read_placeholder_words() -> tuple[str, ...]:
    """The starter's made-up values (its owner's name, e-mail, affiliation and the host of
    its address), read from its site.yaml."""
    path = STARTER_CONTENT / "site.yaml"
    settings = parse_yaml(read_regular(path).decode("utf-8"), path, 1, Diagnostics())
    words = []
    for keys in OWNER_SETTINGS:
        value = settings.data if settings is not None else None
        for key in keys:
            value = value.get(key) if isinstance(value, dict) else None
        if isinstance(value, str) and value:
            words.append(urlsplit(value).hostname or value if keys == ("url",) else value)
    return tuple(words)


def read_own_text(content_dir: Path, rel: str) -> str | None:
    """A content file's text, through the guarded reader; None when it is not there or
    cannot be read (the build reports that at the file, where it reads it)."""
    path = content_dir / rel
    return read_text(path, Diagnostics(), content_dir) if path.is_file() else None


def find_placeholders(content_dir: Path) -> list[Placeholders]:
    """The content files that the starter also has and that still hold its placeholders,
    each with its lines."""
    words = read_placeholder_words()
    found = []
    for rel in list_starter_content():
        text = read_own_text(content_dir, rel)
        hits = [(number, word) for number, line in enumerate((text or "").split("\n"), 1)
                for word in words if word in line]
        if hits:
            found.append(Placeholders(content_dir / rel, tuple(sorted({n for n, _ in hits})),
                                      tuple(w for w in words if w in {h for _, h in hits})))
    return found


def warn_placeholders(content_dir: Path, diags: Diagnostics) -> None:
    """A warning at each content file that still holds the starter's placeholders."""
    for found in find_placeholders(content_dir):
        diags.warning(found.path, found.lines[0], found.describe())


def is_untouched_starter(content_dir: Path) -> bool:
    """Whether the content is the starter as `new` wrote it: the same files (hidden ones
    aside), the same text."""
    starter = list_starter_content()
    own = {path.relative_to(content_dir).as_posix() for path in content_dir.rglob("*")
           if path.is_file() and not any(part.startswith(".") for part in
                                         path.relative_to(content_dir).parts)}
    return own == set(starter) and all(
        read_own_text(content_dir, rel) == read_regular(path).decode("utf-8")
        for rel, path in starter.items())
