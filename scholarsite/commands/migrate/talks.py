"""Talks kept where the templates do not keep them.

al-folio has no talks of its own: sites add a `_talks` collection, with fields of their
own (`talk_date`, `sort_date`, `category`) and, like al-folio's news, inline items that
are a line of text with no title. academicpages sites file talks, press and hidden items
among their papers (`_publications/` with `collection: talks`, or the site's own
`type: talks`, `type: press`, `type: hide`): a talk goes to the talks, a hidden item
stays behind, and a press item (an op-ed, an interview) stays a publication, as the old
publication list showed it, with its word as its category."""

from __future__ import annotations

import re
from dataclasses import replace

from .alfolio import convert_body, read_day, text_of
from .alfoliobib import list_files
from .fieldmap import link_fields
from .frontmatter import Source, format_entry, read_source
from .guard import guarded
from .model import Migration

MARKDOWN = (".md", ".markdown")
DATE_FIELDS = ("date", "talk_date", "sort_date", "event_date")
EVENT_FIELDS = ("event", "venue", "conference", "meeting", "where")
# An academicpages `_publications` file's own `collection:` or `type:` -> where it goes.
TALK_WORDS = {"talk", "talks", "presentation", "presentations", "invited talk",
              "invited talks", "seminar", "seminars", "keynote"}
HIDDEN_WORDS = {"hide", "hidden", "draft", "private"}
PRESS_WORDS = {"press", "media", "news", "interview", "interviews", "coverage"}
_DATED = re.compile(r"^(\d{4}-\d{2}-\d{2})-")
_MARKS = re.compile(r"[*_`#>\[\]]|\]\([^)]*\)")


def read_alfolio_talks(old, mig: Migration) -> None:
    """Each file of an al-folio site's `_talks/` as a talk."""
    sources = [src for path in list_files(old / "_talks", MARKDOWN)
               if (src := read_source(path, mig)) is not None]
    oldest = min((day[:4] for src in sources if (day := talk_day(src))), default="2000")
    for src in sources:
        guarded(mig, mig.where(src.path, 1), move_talk, src, oldest, mig)


def talk_day(src: Source) -> str:
    """A talk's date from any of the fields sites use, else the file name; or ''."""
    f = src.fields
    return next((read_day(f[k]) for k in DATE_FIELDS if read_day(f.get(k))), "") \
        or read_day(src.path.stem[:10] if _DATED.match(src.path.stem) else "")


def move_talk(src: Source, oldest: str, mig: Migration) -> None:
    """One talk (dated by talk_day, else the site's oldest year of talks, listed last, as
    said); an inline item's first line of text is its title, the rest its text."""
    f = src.fields
    date = talk_day(src)
    if not date:
        date = oldest
        mig.add_review(mig.where(src.path, 1), f"no date (date, talk_date or sort_date): "
                       f"written as {oldest} (the oldest year of the talks, listed last); "
                       "give its date")
    body = convert_body(src, mig, {})
    title = text_of(f.get("title"))
    if not title:
        first, _, rest = body.strip().partition("\n")
        title, body = " ".join(_MARKS.sub("", first).split()), rest.strip()
    if not title:
        mig.leave(mig.where(src.path, 1), "not moved: a talk needs a title or a line of text")
        return
    fields = {"title": title, "date": date,
              "event": next((text_of(f[k]) for k in EVENT_FIELDS if text_of(f.get(k))), ""),
              "location": text_of(f.get("location")),
              "type": text_of(f.get("category") or f.get("type"))}
    for _, kind, url in link_fields(f):
        if kind in ("slides", "video") and re.match(r"^https?://", url):
            fields.setdefault(kind, url)
    slug = mig.free_slug("talks", _DATED.sub("", src.path.stem) or title)
    mig.add_text(f"talks/{slug}.md", format_entry({k: v for k, v in fields.items() if v},
                                                  body), "talk", mig.where(src.path))
    if f.get("inline") is not True:
        mig.add_redirect(f"talks/{src.path.stem}", f"talks/{slug}/")


def filed_as(source: Source) -> str:
    """Where an academicpages `_publications` file belongs by its own `collection:` or
    `type:`: 'talk', 'press', 'hide', or '' for a paper."""
    for key in ("collection", "type"):
        word = plain_word(source.fields.get(key))
        if word in TALK_WORDS:
            return "talk"
        if word in HIDDEN_WORDS:
            return "hide"
        if word in PRESS_WORDS:
            return "press"
    return ""


def plain_word(value: object) -> str:
    """A `collection:` or `type:` value as compared: lower case, one space for '-'."""
    return " ".join(str(value or "").lower().replace("-", " ").split())


def leave_hidden(source: Source, mig: Migration) -> None:
    """An item marked hidden, filed among the papers: named, not moved."""
    mig.leave(mig.where(source.path, 1), "marked hidden (type: hide): the old site did not "
              "list it; not moved")


def as_press(source: Source) -> Source:
    """A press item as a publication whose category is its own word ('press'): the old
    site listed it among the publications (site.publications holds every file of
    `_publications/`), so it keeps a page and a place in the list."""
    word = next(str(source.fields[key]).strip() for key in ("collection", "type")
                if plain_word(source.fields.get(key)) in PRESS_WORDS)
    return replace(source, fields={**source.fields,
                                   "category": source.fields.get("category") or word})


def note_redirect(source: Source, mig: Migration) -> str:
    """An item whose old page only sent visitors on (`redirect_to`): the address, said in
    the report, so that it is not lost without a word."""
    target = str(source.fields.get("redirect_to") or "").strip()
    if target:
        mig.add_review(mig.where(source.path, 1), f"its old page only sent visitors to "
                       f"{target} (redirect_to); that address is now one of its links")
    return target if re.match(r"^https?://", target) else ""

