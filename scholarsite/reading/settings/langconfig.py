"""site.yaml's languages: `language`, `languages`, `strings`, and a name written in
several scripts (`author.name: {en: Wei Gao, zh: 高巍}`)."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

from ...diagnostics import Diagnostics
from .fields import FieldReader
from .yamlread import Located, parse_yaml, read_text
from ...structure.languages import (is_well_formed, known_strings, parse_language,
                                    suggest_language)

LANGUAGE_HELP = "a language tag such as en, zh, zh-Hant, de, pt-BR or ar"
# What a template fills into an interface string (`%(name)s`, `%(num)d`) or a percent
# sign (`%%`, the name ''); any other `%` is one formatting cannot read.
PLACEHOLDER = re.compile(r"%(?:\((\w+)\)[sd]|%)")
PERCENT = re.compile(r"%.?")


def read_languages(top: FieldReader) -> tuple[str, tuple[str, ...]]:
    """The site's language and, for a site in several, all of them, the first the
    default (whose pages are at the root; the others' under /TAG/)."""
    languages = read_language_list(top)
    language = top.line_text("language")
    if language and not check_tag(top, ("language",), language):
        language = ""
    if languages and language and language != languages[0]:
        top.error(("language",), f"'language' is {language!r} but 'languages' starts with "
                  f"{languages[0]!r}: the first of 'languages' is the site's default; "
                  "leave 'language' out")
    if languages:
        return languages[0], languages if len(languages) > 1 else ()
    return language or "en", ()


def read_language_list(top: FieldReader) -> tuple[str, ...]:
    value = top.raw("languages")
    if value is None:
        return ()
    if not isinstance(value, list) or not value:
        top.error(("languages",), "'languages' must be a list of language tags, the "
                  "default first, such as [en, zh]")
        return ()
    tags: list[str] = []
    for i, tag in enumerate(value):
        if not isinstance(tag, str) or not check_tag(top, ("languages", i), tag.strip()):
            if not isinstance(tag, str):
                top.error(("languages", i), f"'languages' entry {i + 1} must be "
                          f"{LANGUAGE_HELP}")
            continue
        if tag.strip().lower() in (t.lower() for t in tags):
            top.error(("languages", i), f"'languages' names {tag!r} twice")
            continue
        tags.append(tag.strip())
    return tuple(tags)


def check_tag(reader: FieldReader, key: tuple, tag: str) -> bool:
    """Whether `tag` is a well-formed BCP 47 tag of a language CLDR knows; an error at
    `key` when not. A tag whose language has no catalog is taken: its interface is
    English (or `strings`)."""
    if not is_well_formed(tag):
        hyphens = tag.replace("_", "-")
        hint = f"write {hyphens!r}" if is_well_formed(hyphens) else \
            suggest_language(tag) or f"write {LANGUAGE_HELP}"
        reader.error(key, f"{tag!r} is not a well-formed language tag (BCP 47: language, "
                     f"then script, region, each after '-'): {hint}")
        return False
    if parse_language(tag) is None:
        meant = suggest_language(tag) or f"write {LANGUAGE_HELP}"
        reader.error(key, f"{tag!r} is not a known language: {meant}")
        return False
    return True


def read_language(f: FieldReader) -> str:
    """A text's `language: zh`: what it is written in ('' when not given: the site's first
    language, which the loader knows), so that every page marks it as that language."""
    tag = f.line_text("language")
    return tag if tag and check_tag(f, ("language",), tag) else ""


def read_strings(top: FieldReader, languages: tuple[str, ...]
                 ) -> tuple[tuple[str, str, str], ...]:
    """`strings`: the owner's own wording of interface strings, by the English string:
    `{Selected publications: Recent work}` (the default language), or one per language
    `{Selected publications: {en: Recent work, zh: 近期论文}}`. As (language, English,
    own)."""
    strings = top.mapping("strings")
    # The English catalog is parsed (Babel's PO reader, about 0.05 s) only for a site
    # that has strings to check against it.
    known = known_strings() if strings.data else frozenset()
    out: list[tuple[str, str, str]] = []
    for key in list(strings.data):
        message = str(key)
        if message not in known:
            strings.error((key,), f"'strings' has {message!r}, which the interface never "
                          "shows: write the English string exactly as the theme shows it "
                          "(see README.md, 'Languages')")
            continue
        value = strings.raw(message)
        if isinstance(value, dict):
            out += read_per_language(strings, message, value, languages)
        elif isinstance(value, str) and value.strip():
            if check_placeholders(strings, (key,), message, value):
                out.append((languages[0], message, value.strip()))
        else:
            strings.error((key,), f"'strings.{message}' must be text, or one text per "
                          f"language such as {{{languages[0]}: ...}}")
    return tuple(out)


def read_per_language(strings: FieldReader, message: str, value: dict,
                      languages: tuple[str, ...]) -> list[tuple[str, str, str]]:
    out = []
    for tag, text in value.items():
        if str(tag) not in languages:
            strings.error((message, tag), f"'strings.{message}' names {tag!r}, which is "
                          f"not one of the site's languages ({', '.join(languages)})")
        elif not isinstance(text, str) or not text.strip():
            strings.error((message, tag), f"'strings.{message}.{tag}' must be text")
        elif check_placeholders(strings, (message, tag), message, text):
            out.append((str(tag), message, text.strip()))
    return out


def check_placeholders(strings: FieldReader, key: tuple, message: str, own: str) -> bool:
    """Whether the owner's wording `own` of `message` names only the values the theme
    fills into it (`%(name)s`), and writes a percent sign as `%%`: the templates format
    every string with `%` (Jinja's newstyle gettext), so anything else would stop the
    build at a template's line. An error at `key` when not."""
    names = {name for name in PLACEHOLDER.findall(message) if name}
    stray = [m.group() for m in PERCENT.finditer(PLACEHOLDER.sub("", own))]
    unknown = sorted({name for name in PLACEHOLDER.findall(own) if name} - names)
    if not stray and not unknown:
        return True
    given = ", ".join(f"%({name})s" for name in sorted(names)) or "none"
    bad = f"'%({unknown[0]})s', which this string has no value for" if unknown \
        else f"{stray[0]!r}, which is not a value the theme fills in"
    strings.error(key, f"'strings.{message}' has {bad}: the values it may show are "
                  f"{given}; write a percent sign as %%")
    return False


def read_names(author: FieldReader, languages: tuple[str, ...]
               ) -> tuple[str, tuple[tuple[str, str], ...]]:
    """`author.name`: one name, or one per language (`{en: Wei Gao, zh: 高巍}`); the
    default language's (else the first given) is the name, and all are the owner's."""
    return read_in_languages(author, "name", languages, required=True)


def read_in_languages(reader: FieldReader, key: str, languages: tuple[str, ...],
                      required: bool = False) -> tuple[str, tuple[tuple[str, str], ...]]:
    """A one-line text, or one per language (`{en: ..., zh: ...}`): the default
    language's (else the first given), and each language's as (tag, text)."""
    if not isinstance(reader.raw(key), dict):
        return reader.line_text(key, required=required), ()
    texts = reader.mapping(key)
    found: list[tuple[str, str]] = []
    tags = list(texts.data)
    for i, tag in enumerate(tags):
        if i and is_split_off(texts.data, tag):
            if not is_split_off(texts.data, tags[i - 1]):
                report_split_text(texts, reader.name(key), tags[i - 1:])
            continue
        text = texts.line_text(str(tag), required=True)
        if parse_language(str(tag)) is None:
            texts.error((tag,), f"'{reader.name(key)}' has {tag!r}, which is not a "
                        f"language: key each text by {LANGUAGE_HELP}")
        elif text:
            found.append((str(tag), text))
    if not found:
        reader.error((key,), f"'{reader.name(key)}' must give at least one text")
        return "", ()
    return dict(found).get(languages[0], found[0][1]), tuple(found)


def is_split_off(data: dict, key: object) -> bool:
    """Whether `key` of a text-per-language mapping is the rest of a text cut at a comma:
    no language, and no value."""
    return data[key] is None and parse_language(str(key)) is None


def report_split_text(texts: FieldReader, name: str, tags: list) -> None:
    """`{en: Professor, PhD advisor, zh: 教授}`: in a mapping written on one line a comma
    ends a value, so the rest of the text reads as keys with no value; one error, at
    the text, saying so, rather than one for each empty key and each non-language."""
    rest = [str(tag) for tag in itertools.takewhile(
        lambda tag: is_split_off(texts.data, tag), tags[1:])]
    text = ", ".join([str(texts.data[tags[0]]), *rest])
    texts.error((tags[1],), f"'{name}' has a comma in its {tags[0]} text ({text!r}), which "
                "in {...} ends the text: put that text in quotes: "
                f"{tags[0]}: \"{text}\"")


def read_quietly(path: Path) -> Located | None:
    """site.yaml (`path`) as YAML, its problems unsaid: the build reads and checks it."""
    if not path.is_file():
        return None
    quiet = Diagnostics(root=path.parent)
    text = read_text(path, quiet)
    return parse_yaml(text, path, 1, quiet) if text is not None else None


def declares_languages(path: Path) -> bool:
    """Whether site.yaml (`path`) names several languages: serve rebuilds such a site
    after a save as `build` does (live/steps.py: its pages of every language)."""
    doc = read_quietly(path)
    data = doc.data if doc is not None else None
    return isinstance(data, dict) and isinstance(data.get("languages"), list) \
        and len(data["languages"]) > 1


def find_language_line(path: Path, tag: str) -> int:
    """The line of site.yaml (`path`) that names the language `tag` in `languages`, for
    a problem found once the content is planned (1 when it cannot be found)."""
    doc = read_quietly(path)
    listed = doc.data.get("languages") if doc is not None and isinstance(doc.data, dict) \
        else None
    found = [i for i, named in enumerate(listed if isinstance(listed, list) else ())
             if isinstance(named, str) and named.strip() == tag]
    return doc.line("languages", found[0]) if doc is not None and found else 1
