"""Ids in a moved text's raw HTML that its new page would have twice: old sites wrote
`## Looping <span id="Looping">` or `## Transformer<a name="transformer"></a>` (the heading
has the id already on the new page), the same `<div id="inner">` twice in one text, and
the same ids in every abstract or news item that a list page shows together. A page with
an id twice is one `check` refuses (a link to it finds only the first), so the attribute
that repeats one is taken out, and the report says so: the first still carries the id,
so every link to it still leads there."""

from __future__ import annotations

import re

from ...reading.text.mdconvert import make_heading_id

# An id="x" or name="x" attribute of a raw HTML tag (name is an anchor's old id).
_TAG = re.compile(r"<[a-zA-Z][^<>]*>")
_ID_ATTR = re.compile(r"""\s(id|name)\s*=\s*(["'])([^"']*)\2""", re.I)
_HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.M)
_FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)
# Texts a list page shows whole, beside others of their kind (their ids meet there).
LISTED = ("publications/", "news/")


def list_heading_ids(body: str) -> set[str]:
    """The ids the headings of `body` will have: `{#id}` as written, else made from the
    heading's text (its raw HTML taken out) as the build makes them."""
    ids = set()
    for match in _HEADING.finditer(_FENCE.sub("", body)):
        text = match.group(1)
        given = re.search(r"\{[^}]*#([\w-]+)[^}]*\}\s*$", text)
        ids.add(given.group(1) if given else make_heading_id(
            re.sub(r"<[^>]*>", "", re.sub(r"\s*\{[^}]*\}\s*$", "", text)).strip(), "-"))
    return ids


def drop_repeated_ids(body: str, rel: str, listed_ids: set[str]) -> tuple[str, list[str]]:
    """`body` without the raw HTML id (or name) attributes that repeat an id its page has
    already, and the ids taken out. A text that a list page shows (`LISTED`) also yields
    its ids to `listed_ids`, those the list's earlier texts took."""
    taken = list_heading_ids(body)
    shared = listed_ids if rel.startswith(LISTED) else set()
    dropped: list[str] = []
    seen: set[str] = set()

    def settle_attr(match: re.Match) -> str:
        value = match.group(3)
        if value in taken or value in seen or value in shared:
            dropped.append(value)
            return ""
        seen.add(value)
        return match.group()

    def settle_tag(tag: re.Match) -> str:
        return _ID_ATTR.sub(settle_attr, tag.group())

    fenced = [(m.start(), m.end()) for m in _FENCE.finditer(body)]
    parts, at = [], 0
    for start, end in fenced + [(len(body), len(body))]:
        parts += [_TAG.sub(settle_tag, body[at:start]), body[start:end]]
        at = end
    shared.update(seen)
    return "".join(parts), dropped
