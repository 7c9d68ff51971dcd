"""A paper's links beyond one of each kind: `links.more`, a list of `{label, url}`, each
shown as a chip with its own label ("Rejoinder", "Buy"), as Hugo's `links:` items are.
They are shown, not exported: BibTeX, RIS and the rest name the kinds they have fields for."""

from __future__ import annotations

from ...models import Link
from ...structure.urls import check_link
from ..settings.fields import FieldReader

MORE = "more"


def read_more_links(reader: FieldReader) -> tuple[Link, ...]:
    """`links.more` of one paper, each URL checked as a `url` link is (urls.check_link)."""
    value = reader.raw(MORE)
    if value is None:
        return ()
    if not isinstance(value, list):
        reader.error((MORE,), "'links.more' must be a list of {label: ..., url: ...}")
        return ()
    links = []
    for n, item in enumerate(value):
        fields = FieldReader(reader.doc, reader.path, reader.diags,
                             (*reader.prefix, MORE, n), item, "link field")
        label, address = fields.line_text("label", True), fields.line_text("url", True)
        fields.check_unknown()
        url, problem = check_link("url", address) if address else ("", "")
        if problem:
            fields.error(("url",), f"link '{label or n + 1}' {problem}")
        elif label and url:
            links.append(Link(MORE, url, label))
    return tuple(links)
