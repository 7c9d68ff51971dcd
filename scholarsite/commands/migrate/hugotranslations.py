"""A Hugo page's other languages (`index.zh.md` beside `index.en.md`; hugopages finds
them). A paper is one paper in every language of a scholarsite site, which may give its
title and abstract in others (`translations:`, README: Languages): a paper's other files
become its translations, in the languages the site is then built in, and each file is
named in the report. A talk's, post's or project's other files stay behind, named, with
what to do."""

from __future__ import annotations

from dataclasses import replace

from .frontmatter import mark_emphasis
from .hugoconfig import read_hugo_source, text_of
from .hugoentry import Entry, make_text
from .hugofields import read_markdown_link
from .model import Migration


def paper_translations(entry: Entry, fields: dict, abstract: str,
                       mig: Migration) -> dict | None:
    """{tag: {title, abstract}} of the paper's other files, each text only where it is not
    the paper's own; the tags are added to the site's languages."""
    found: dict[str, dict] = {}
    for tag, path in entry.translations:
        if tag.casefold() == text_of(mig.site.get("language")).casefold():
            mig.leave(mig.where(path, 1), f"a second file in the site's language beside "
                      f"{mig.where(entry.source.path)}, which moved; not moved")
            continue
        source = read_hugo_source(path, mig)
        if source is None:
            continue  # read_source named it, with why
        other = replace(entry, source=source)
        title = mark_emphasis(read_markdown_link(text_of(source.fields.get("title")))[0])
        texts = {"title": title, "abstract": make_text(other, "abstract", mig)}
        own = {"title": fields["title"], "abstract": abstract}
        texts = {key: text for key, text in texts.items() if text and text != own[key]}
        where, main = mig.where(path, 1), mig.where(entry.source.path)
        if texts:
            found[tag] = texts
            mig.add_review(where, f"the paper's {tag} version, moved as its `translations: "
                           f"{tag}` ({', '.join(texts)}) in publications/{entry.slug}.md")
        else:
            mig.add_review(where, f"the paper's {tag} version says what {main} says; "
                           "nothing of its own to move")
    if found:
        add_languages(list(found), mig)
    return found or None


def add_languages(tags: list[str], mig: Migration) -> None:
    """The site is built in the languages its items are written in, its own first."""
    own = text_of(mig.site.get("language")) or "en"
    listed = list(mig.site.get("languages") or [own])
    mig.site["languages"] = listed + [tag for tag in tags if tag not in listed]


def leave_translations(entry: Entry, mig: Migration) -> None:
    """A talk's, post's or project's other languages' files, named as left behind."""
    main = f"{entry.kind}/{entry.slug}.md"
    if main not in mig.files:
        return  # the entry itself stayed behind, and the report says why
    for tag, path in entry.translations:
        mig.leave(mig.where(path, 1), f"the {tag} version of {mig.where(entry.source.path)}; "
                  f"not moved: to keep it, write it as {entry.kind}/{entry.slug}.{tag}.md "
                  f"and add {tag} to `languages:` in site.yaml (README: Languages)")
