"""Copies of an entry in another language, as bilingual Jekyll sites keep them: the same
paper in `_publications/` and `_publications/en/`, tied by `lang:` and `ref:` (the
pattern of jekyll-polyglot and hand-made multilingual sites).

scholarsite lists a paper once, in every language of a site (README: Languages), so a
copy is not a second paper: it is named as left behind, with what to do to keep its
wording, and the entry in the site's own language moves."""

from __future__ import annotations

import re

from .frontmatter import Source
from .model import Migration

# A folder named as a language tag: en, zh, pt-br, zh_CN.
_LANGUAGE_FOLDER = re.compile(r"^[a-z]{2,3}(?:[-_][A-Za-z]{2,4})?$")


def drop_translations(sources: list[Source], folder, mig: Migration) -> list[Source]:
    """`sources` less each copy, in another language, of an entry kept: one in a language
    folder (or with another `lang:`) whose `ref`, or file name, another entry has."""
    def key(source: Source) -> str:
        ref = str(source.fields.get("ref") or "").strip("/ ")
        return ref.rsplit("/", 1)[-1] if ref else source.path.stem.lower()

    def in_language_folder(source: Source) -> str:
        parts = source.path.relative_to(folder).parts
        return parts[0] if len(parts) > 1 and _LANGUAGE_FOLDER.match(parts[0]) else ""

    kept: dict[str, Source] = {}
    copies: dict[tuple[str, str], list[Source]] = {}  # (its folder, language) -> copies
    for source in sorted(sources, key=lambda s: (bool(in_language_folder(s)), s.path)):
        main = kept.setdefault(key(source), source)
        lang = str(source.fields.get("lang") or in_language_folder(source))
        if main is not source and lang != str(main.fields.get("lang") or lang + "?"):
            copies.setdefault((mig.where(source.path.parent), lang), []).append(source)
    for (where, lang), found in copies.items():
        main = kept[key(found[0])]
        mig.leave(where, f"{len(found)} {lang} cop{'y' if len(found) == 1 else 'ies'} of "
                  f"entries that move (as {mig.where(found[0].path)} is of "
                  f"{mig.where(main.path)}): scholarsite shows an entry once, in every "
                  "language of a site; to keep a copy's wording, add it to the entry as "
                  f"`translations: {{{lang.replace('_', '-')}: {{title: ...}}}}` and "
                  "`languages:` to site.yaml "
                  "(README: Languages)")
    dropped = {id(s) for found in copies.values() for s in found}
    return [s for s in sources if id(s) not in dropped]
