"""The site's languages: which tags are languages, the interface's message catalogs, and
dates in each language.

The interface's strings are written in English in the templates and the views; each
catalog (scholarsite/locale/NAME.po, gettext's format, read with Babel) gives them in one
language. A string a catalog lacks is shown in English (a test lists those). The catalogs
are read from their .po files and compiled in memory the first time a language is used:
nothing for the user to compile, nothing generated in the package.

Dates and languages' own names come from Babel's copy of CLDR, the Unicode Consortium's
data on languages.
"""

from __future__ import annotations

import datetime
import gettext
import io
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from ..models import PubDate, SiteConfig
from ..output.paths import open_regular

if TYPE_CHECKING:  # Babel itself is imported when a language or a date is first read
    from babel import Locale

CATALOG_DIR = Path(__file__).resolve().parent.parent / "locale"
SOURCE_CATALOG = "en"  # every string the interface shows, as the templates write it
# The catalogs shipped, by file name: the language's code, with the script where one
# language is written in two (Chinese: simplified, traditional).
CATALOGS = ("en", "zh_Hans", "zh_Hant", "ja", "ko", "de", "fr", "es", "pt")
# Chinese written in traditional characters: by script, or by the regions that use it.
TRADITIONAL = frozenset({"TW", "HK", "MO"})
# A well-formed language tag, as RFC 5646 (BCP 47) writes its syntax: language (with its
# extended subtags), script, region, variants, extensions, private use. Babel alone is not
# enough: it reads POSIX names too, keeping an '@modifier' and dropping a '.encoding', so
# 'en@"><img ...>' would be taken as English. ASCII: a tag is never another letter.
LANGUAGE_TAG = re.compile(r"""
    (?: [a-z]{2,3} (?:-[a-z]{3}){0,3} | [a-z]{4,8} )
    (?: -[a-z]{4} )?
    (?: -(?:[a-z]{2} | [0-9]{3}) )?
    (?: -(?:[a-z0-9]{5,8} | [0-9][a-z0-9]{3}) )*
    (?: -[0-9a-wy-z] (?:-[a-z0-9]{2,8})+ )*
    (?: -x (?:-[a-z0-9]{1,8})+ )?
    """, re.VERBOSE | re.IGNORECASE | re.ASCII)


def is_well_formed(tag: str) -> bool:
    """Whether `tag` is written as a BCP 47 language tag ('zh-Hant', 'pt-BR')."""
    return LANGUAGE_TAG.fullmatch(tag) is not None


@lru_cache(maxsize=256)  # asked for every string of every page: parsed once per tag
def parse_language(tag: str) -> Locale | None:
    """The language a well-formed BCP 47 tag ('en', 'zh', 'zh-Hant', 'pt-BR') names, or
    None when it is not one or CLDR does not know it."""
    from babel import Locale, UnknownLocaleError

    if not is_well_formed(tag):
        return None
    try:
        return Locale.parse(tag, sep="-")
    except (ValueError, TypeError, UnknownLocaleError):
        return None


def suggest_language(word: str) -> str:
    """For what is no language tag, the tag meant, in words ('' when none is): a language's
    English name ('english': 'did you mean en (English)?'), or a country's code, which is
    the region of a tag, not its language ('cn': 'Chinese is zh (China's region is CN:
    zh-CN)'). Both from Babel's copy of CLDR."""
    from babel import Locale
    from babel.languages import get_official_languages

    english = Locale("en")
    by_name = {name.casefold(): code for code, name in english.languages.items()
               if "_" not in code}
    code = by_name.get(word.strip().casefold())
    if code:
        return f"did you mean {code!r} ({english.languages[code]})?"
    region = word.strip().upper()
    country = english.territories.get(region) if len(region) == 2 else None
    spoken = get_official_languages(region, de_facto=True) if country else ()
    if not spoken:
        return ""
    language = spoken[0]
    return (f"{english.languages.get(language, language)} is {language} ({country}'s region "
            f"is {region}: {language}-{region})")


@lru_cache(maxsize=256)
def catalog_name(tag: str) -> str:
    """The catalog for the language `tag`: 'zh_Hant' for 'zh-TW', '' when none ships."""
    locale = parse_language(tag)
    if locale is None:
        return ""
    if locale.language == "zh":
        traditional = locale.script == "Hant" or (locale.territory in TRADITIONAL
                                                  and locale.script != "Hans")
        return "zh_Hant" if traditional else "zh_Hans"
    return locale.language if locale.language in CATALOGS else ""


def split_region(tag: str) -> tuple[str, str | None]:
    """The tag's language (ISO 639) and its region (ISO 3166, None when it names none or a
    wider one, '419'), each as Typst's `text` takes it: 'pt-BR' is ('pt', 'BR'), 'zh-Hant'
    ('zh', None). Typst refuses a whole tag as a language."""
    locale = parse_language(tag)
    if locale is None:
        return "en", None
    region = locale.territory
    return locale.language, region if region and region.isalpha() else None


def is_rtl(tag: str) -> bool:
    """Whether the language is written right to left (Arabic, Hebrew, Persian, Urdu)."""
    locale = parse_language(tag)
    return locale is not None and locale.character_order == "right-to-left"


def language_name(tag: str) -> str:
    """The language's name in itself, as a language switcher shows it: 'English', '中文'."""
    locale = parse_language(tag)
    if locale is None:
        return tag
    name = locale.get_display_name(locale) or tag
    return name[:1].upper() + name[1:]


def catalog_path(name: str) -> Path:
    return CATALOG_DIR / f"{name}.po"


@lru_cache(maxsize=None)
def load_catalog(name: str) -> gettext.NullTranslations:
    """One catalog compiled in memory; English (the strings themselves) for ''."""
    if not name or name == SOURCE_CATALOG:
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with open_regular(catalog_path(name)) as po:
        catalog = read_po(po, locale=name)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)  # fuzzy entries left out: shown in English
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


@lru_cache(maxsize=1)
def known_strings() -> frozenset[str]:
    """Every string the interface shows (the English catalog's): what `strings` in
    site.yaml may replace."""
    from babel.messages.pofile import read_po

    with open_regular(catalog_path(SOURCE_CATALOG)) as po:
        catalog = read_po(po)
    return frozenset(m.id if isinstance(m.id, str) else m.id[0] for m in catalog if m.id)


@dataclass(frozen=True)
class Messages:
    """The interface's strings in one language: site.yaml's `strings` first, then the
    language's catalog, then English."""

    language: str = "en"
    overrides: tuple[tuple[str, str], ...] = ()  # (English string, the owner's own)

    def gettext(self, message: str) -> str:
        own = find_override(self.overrides, message)
        if own is not None:
            return own
        return load_catalog(catalog_name(self.language)).gettext(message)

    def pgettext(self, context: str, message: str) -> str:
        """`message` where English uses one word for two things ('Pages': of the site,
        of a paper), told apart by `context`."""
        own = find_override(self.overrides, message)
        if own is not None:
            return own
        return load_catalog(catalog_name(self.language)).pgettext(context, message)

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        own = find_override(self.overrides, singular if count == 1 else plural)
        if own is not None:
            return own
        return load_catalog(catalog_name(self.language)).ngettext(singular, plural, count)


@lru_cache(maxsize=64)
def index_overrides(overrides: tuple[tuple[str, str], ...]) -> dict[str, str]:
    return dict(overrides)


def find_override(overrides: tuple[tuple[str, str], ...], message: str) -> str | None:
    return index_overrides(overrides).get(message) if overrides else None


def is_english(tag: str) -> bool:
    locale = parse_language(tag)
    return locale is None or locale.language == "en"


# Babel once per date and language: a 1,000-paper site writes 2,000 dates, most of them
# the same few dozen months (about 0.1 s of Babel's formatting).
@lru_cache(maxsize=4096)
def format_month(year: int, month: int, day: int | None, tag: str) -> str:
    """'July 2026' or '3 July 2026' in English (as the site always wrote them), and in
    another language as CLDR writes a month or a day: '2026年7月', '3. Juli 2026'."""
    from babel.dates import format_date, format_skeleton

    date = datetime.date(year, month, day or 1)
    if is_english(tag):
        return format_date(date, "d MMMM y" if day else "MMMM y", locale="en")
    return format_skeleton("yMMMMd" if day else "yMMMM", date,
                           locale=parse_language(tag) or "en")


def human_date(date: PubDate, tag: str) -> str:
    """A date as precise as its source, in the language `tag`: '2026', 'July 2026',
    '2026年7月3日' (PubDate.human is the English)."""
    if not date.month:
        return str(date.year)
    return format_month(date.year, date.month, date.day, tag)


def short_month(iso: str, tag: str) -> str:
    """'2019', or a month abbreviated as CLDR does in the language `tag` ('Sep 2019',
    '2019年9月', 'Sept. 2019'): CVs are dense. A day, if any, is left out."""
    from babel.dates import format_skeleton

    year, _, rest = iso.partition("-")
    if not rest:
        return year
    return format_skeleton("yMMM", datetime.date(int(year), int(rest[:2]), 1),
                           locale=parse_language(tag) or "en")


def format_span(start: str, end: str, tag: str, present: str) -> str:
    """A CV entry's dates (ISO text, end 'present' for what goes on) as one short text in
    the language `tag`: '2019', 'Jul 2021–Mar 2023', '2021年7月–至今' (`present`: its
    word for what goes on); '' for none."""
    if not start:
        return ""
    first = short_month(start, tag)
    if not end or end == start:
        return first
    return f"{first}–{present if end == 'present' else short_month(end, tag)}"


def language_prefix(tag: str, languages: tuple[str, ...]) -> str:
    """Where a language's pages are below the site's root: '' for the default, 'zh/'."""
    return "" if not languages or tag == languages[0] else f"{tag}/"


def pages_url(config: SiteConfig) -> str:
    """The address of the root of the pages in `config`'s language: the site's for the
    default, 'https://.../zh/' for Chinese (files and assets are at the site's)."""
    return config.url + language_prefix(config.language, config.languages)


def language_links(url: str, language: str, languages: tuple[str, ...], path: str,
                   top: str) -> list[dict]:
    """The page at `path` (below its language's root) in each of the site's languages
    (none for a site in one): its tag, the language's own name, its link from this page
    (`top`: the site's root) and its address (`url`: the site's)."""
    if not languages:
        return []
    base = url
    return [{"tag": tag, "name": language_name(tag), "current": tag == language,
             "href": top + language_prefix(tag, languages) + path or "./",
             "url": base + language_prefix(tag, languages) + path} for tag in languages]


def messages_for(config: SiteConfig) -> Messages:
    """The interface's strings in the language of the pages `config` makes, for what the
    views write themselves (section titles, headings of groups, labels)."""
    return Messages(config.language, tuple((message, own) for tag, message, own
                                           in config.strings if tag == config.language))


def not_found_elsewhere(config: SiteConfig) -> list[dict]:
    """The 404 page's words in each of the site's other languages (the page itself is in
    its first): a host serves its one 404 page for every address it lacks, /zh/'s too.
    Each with the language's tag, its direction and the path of its home."""
    out = []
    for tag in config.languages[1:]:
        t = Messages(tag, tuple((message, own) for language, message, own in config.strings
                                if language == tag)).gettext
        out.append({"tag": tag, "dir": "rtl" if is_rtl(tag) else "",
                    "title": t("Page not found"), "home": t("Home"),
                    "text": t("The page you asked for does not exist, or has moved."),
                    "path": language_prefix(tag, config.languages)})
    return out
