"""site.yaml's `sources`: where `update` fetches the owner's papers, each checked here, so
that a typo fails every build (at its line) rather than the weekly update alone."""

from __future__ import annotations

import re

from .fields import FieldReader
from ...models import SourcesConfig

_ORCID = re.compile(r"^\d{4}-\d{4}-\d{4}-\d{3}[\dX]$")
# A DBLP person id as its profile's address shows it: 12/3456, k/DonaldEKnuth, 45/6789-1.
_DBLP_PID = re.compile(r"^[a-z0-9]+/[A-Za-z0-9_=-]+$")
_OPENALEX_AUTHOR = re.compile(r"^A\d{1,12}$")
# INSPIRE's author identifier (BAI): the name's parts with dots, then a number.
_INSPIRE_BAI = re.compile(r"^[A-Za-z][A-Za-z'-]*(?:\.[A-Za-z][A-Za-z'-]*)*\.\d{1,4}$")
MAX_QUERY = 300  # characters of a search a source is given (arXiv's, PubMed's)
ORCID_HINT = "16 digits in groups of four, the last a checksum, such as 0000-0002-1825-0097"


def read_sources(sources: FieldReader) -> SourcesConfig:
    """Each source's identifier, in the form its service takes; a wrong one is an error
    at its line, and that source is then left out."""
    dblp = sources.line_text("dblp").removeprefix("https://dblp.org/pid/").removesuffix(".html")
    if dblp and not _DBLP_PID.match(dblp):
        sources.error(("dblp",), f"'sources.dblp' must be a DBLP person id as its profile's "
                      f"address ends, such as 12/3456 (dblp.org/pid/12/3456); found {dblp!r}")
        dblp = ""
    contact = sources.line_text("contact")
    if contact and "@" not in contact:
        sources.error(("contact",), f"'sources.contact' is not an e-mail address: {contact!r}")
    found = SourcesConfig(dblp=dblp, orcid=read_orcid(sources, "orcid"), contact=contact,
                          openalex=read_openalex(sources), inspire=read_inspire(sources),
                          arxiv=read_query(sources, "arxiv"),
                          pubmed=read_query(sources, "pubmed"),
                          crossref=read_orcid(sources, "crossref"))
    sources.check_unknown()
    return found


def read_orcid(sources: FieldReader, key: str) -> str:
    orcid = sources.line_text(key).removeprefix("https://orcid.org/").upper()
    if orcid and not is_orcid(orcid):
        sources.error((key,), f"'sources.{key}' is not an ORCID iD ({ORCID_HINT}); "
                      f"found {orcid!r}")
        return ""
    return orcid


def read_openalex(sources: FieldReader) -> str:
    """An OpenAlex author id (A5023888391, or its address) or an ORCID iD."""
    value = sources.line_text("openalex").removeprefix("https://openalex.org/")
    value = value.removeprefix("https://orcid.org/")
    if value and not _OPENALEX_AUTHOR.match(value) and not is_orcid(value.upper()):
        sources.error(("openalex",), "'sources.openalex' must be an OpenAlex author id "
                      f"(A and digits, such as A5023888391) or an ORCID iD; found {value!r}")
        return ""
    return value if _OPENALEX_AUTHOR.match(value) else value.upper()


def read_inspire(sources: FieldReader) -> str:
    """INSPIRE-HEP's author identifier (BAI), such as E.Witten.1."""
    value = sources.line_text("inspire")
    if value and not _INSPIRE_BAI.match(value):
        sources.error(("inspire",), "'sources.inspire' must be an INSPIRE author identifier "
                      f"(BAI, on the author's INSPIRE profile), such as E.Witten.1; "
                      f"found {value!r}")
        return ""
    return value


def read_query(sources: FieldReader, key: str) -> str:
    """An identifier or a search, one line of at most MAX_QUERY characters."""
    value = sources.line_text(key)
    if len(value) > MAX_QUERY:
        sources.error((key,), f"'sources.{key}' is longer than {MAX_QUERY} characters")
        return ""
    return value


def is_orcid(text: str) -> bool:
    """The form, and the last character as ISO 7064 MOD 11-2 of the 15 digits before it."""
    if not _ORCID.match(text):
        return False
    total = 0
    for digit in text.replace("-", "")[:-1]:
        total = (total + int(digit)) * 2
    check = (12 - total % 11) % 11
    return text[-1] == ("X" if check == 10 else str(check))
