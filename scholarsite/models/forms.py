"""The fields each kind of content file may carry, as one table per kind: what its reader
asks for, and what the browser editor's forms offer (views/editor.py makes them from here).

A reader asks only for the fields its table names (reading/settings/fields.check_declared
fails the build otherwise), so the forms and the reader cannot drift apart: a new field
the reader accepts is a new row here, and the editor offers it.
"""

from __future__ import annotations

from dataclasses import dataclass

from .papers import LINK_KINDS, PAPER_TYPES


@dataclass(frozen=True)
class FormField:
    name: str
    # text | lines (a list of one-line texts) | date | boolean | choice | authors |
    # links (a mapping of LINK_KINDS) | translations | mapping (text by text) | image
    kind: str
    label: str
    required: bool = False  # the reader fails without it (in every case)
    choices: tuple[str, ...] = ()
    hint: str = ""


PAPER_FIELDS = (
    FormField("title", "text", "Title", required=True),
    FormField("authors", "authors", "Authors", required=True,
              hint="One name a line, as printed; '*' or '†' after a name marks it."),
    FormField("date", "date", "Date",
              hint="Required unless a status is given; a year alone may be written in the file."),
    FormField("status", "choice", "Status", choices=("in press", "forthcoming", "submitted",
                                                     "preprint"),
              hint="For a paper not yet out: shown in place of its year."),
    FormField("type", "choice", "Type", choices=PAPER_TYPES),
    FormField("venue", "text", "Venue",
              hint="Required, except for a preprint or report with an institution or arXiv link."),
    FormField("venue_short", "text", "Venue (short)"),
    FormField("location", "text", "Location"),
    FormField("volume", "text", "Volume"),
    FormField("number", "text", "Number"),
    FormField("pages", "text", "Pages"),
    FormField("publisher", "text", "Publisher"),
    FormField("institution", "text", "Institution"),
    FormField("isbn", "text", "ISBN"),
    FormField("editors", "authors", "Editors (of the book or proceedings)"),
    FormField("tier", "text", "Tier"),
    FormField("category", "text", "Category"),
    FormField("topics", "lines", "Topics"),
    FormField("links", "links", "Links", choices=LINK_KINDS),
    FormField("citation", "text", "Citation (overrides the generated one)"),
    FormField("selected", "boolean", "Selected"),
    FormField("award", "text", "Award"),
    FormField("note", "text", "Note"),
    FormField("preview", "image", "Preview picture"),
    FormField("language", "text", "Language (a tag such as zh, when not the site's)"),
    FormField("translations", "translations", "Translations"),
    FormField("bibtex_key", "text", "BibTeX key"),
    FormField("bibtex_type", "text", "BibTeX type"),
    FormField("extra", "mapping", "Other BibTeX fields"),
)

PERSON_FIELDS = (
    FormField("name", "text", "Name", required=True),
    FormField("role", "choice", "Role", required=True),  # choices: the site's roles
    FormField("photo", "image", "Photo"),
    FormField("start", "date", "Start"),
    FormField("end", "date", "End", hint="A past end lists the person among alumni."),
    FormField("aliases", "lines", "Other spellings of the name (as in author lists)"),
    FormField("scripts", "lines", "The name in other scripts"),
    FormField("now", "text", "Now (for alumni)"),
    FormField("interests", "lines", "Interests"),
    FormField("links", "mapping", "Links (homepage, scholar, orcid, github, email...)"),
)


def field_names(table: tuple[FormField, ...]) -> frozenset[str]:
    return frozenset(field.name for field in table)
