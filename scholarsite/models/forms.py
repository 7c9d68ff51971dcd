"""The fields each kind of content file may carry, as one table per kind: what its reader
asks for, and what the browser editor's forms offer (views/editor.py makes them from here).

A reader asks only for the fields its table names (reading/settings/fields.check_declared
fails the build otherwise), so the forms and the reader cannot drift apart: a new field
the reader accepts is a new row here, and the editor offers it.

A paper's table says more of each field: whether a BibTeX entry gives it too, and whether
it only steers how pages show the paper (never exported). `import-bib` and `migrate`
write a paper's front matter in the table's order (order_paper_fields), and
tests/test_reads.py edits every field it names.
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


@dataclass(frozen=True)
class PaperField(FormField):
    """A field of a paper's Markdown front matter, as its form and the readers know it."""
    bibtex: bool = True  # a BibTeX entry gives it too (reading/bib/bibpaper.py)
    # It only steers how pages show the paper: left out of its exports (BibTeX, RIS,
    # CSL-JSON) even where a BibTeX entry's field of this name is kept (views/citations.py).
    display_only: bool = False

    @property
    def exported(self) -> bool:
        return not self.display_only


PAPER_FIELDS = (
    PaperField("title", "text", "Title", required=True),
    PaperField("authors", "authors", "Authors", required=True,
               hint="One name a line, as printed; '*' or '†' after a name marks it."),
    PaperField("date", "date", "Date",
               hint="Required unless a status is given; a year alone may be written in the file."),
    PaperField("status", "choice", "Status", choices=("in press", "forthcoming", "submitted",
                                                      "preprint"),
               hint="For a paper not yet out: shown in place of its year."),
    PaperField("type", "choice", "Type", choices=PAPER_TYPES),
    PaperField("venue", "text", "Venue",
               hint="Required, except for a preprint or report with an institution or arXiv link."),
    PaperField("venue_short", "text", "Venue (short)"),
    PaperField("location", "text", "Location"),
    PaperField("volume", "text", "Volume"),
    PaperField("number", "text", "Number"),
    PaperField("pages", "text", "Pages"),
    PaperField("publisher", "text", "Publisher"),
    PaperField("institution", "text", "Institution"),
    PaperField("isbn", "text", "ISBN"),
    PaperField("editors", "authors", "Editors (of the book or proceedings)"),
    PaperField("tier", "text", "Tier", display_only=True),
    PaperField("category", "text", "Category", display_only=True),
    PaperField("topics", "lines", "Topics", display_only=True),
    PaperField("links", "links", "Links", choices=LINK_KINDS),
    PaperField("citation", "text", "Citation (overrides the generated one)", bibtex=False,
               display_only=True),
    PaperField("selected", "boolean", "Selected", display_only=True),
    PaperField("award", "text", "Award", display_only=True),
    PaperField("note", "text", "Note"),
    PaperField("preview", "image", "Preview picture", display_only=True),
    PaperField("language", "text", "Language (a tag such as zh, when not the site's)",
               bibtex=False, display_only=True),
    PaperField("translations", "translations", "Translations", bibtex=False,
               display_only=True),
    PaperField("bibtex_key", "text", "BibTeX key"),
    PaperField("bibtex_type", "text", "BibTeX type"),
    PaperField("extra", "mapping", "Other BibTeX fields"),
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


_PAPER_ORDER = {field.name: at for at, field in enumerate(PAPER_FIELDS)}


def order_paper_fields(doc: dict) -> dict:
    """A paper's front matter as a writer made it, in the table's order (the editor's, the
    README's), so that every written file reads alike. A name the table lacks is one no
    reader takes: a fault of the writer, which stops it loudly."""
    unknown = sorted(set(doc) - set(_PAPER_ORDER))
    if unknown:
        raise AssertionError(f"models/forms.py PAPER_FIELDS lacks {', '.join(unknown)}")
    return {name: doc[name] for name in sorted(doc, key=_PAPER_ORDER.__getitem__)}
