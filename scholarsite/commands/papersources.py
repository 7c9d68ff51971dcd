"""What DBLP and ORCID say about a person's papers, as BibTeX records for `update`.

DBLP gives BibTeX already (https://dblp.org/pid/<pid>.bib): its entries keep their DBLP
keys (`DBLP:conf/sosp/LovelaceB23`, stable for the life of the record), lose the fields
that only describe DBLP's own copy (`timestamp`, `biburl`, `bibsource`, which change when
DBLP re-exports and would make every update a change), and have DBLP's name
disambiguation (`Wei Wang 0001`) removed, so that names read and match as people write
them. ORCID gives JSON (the public API's works, then their contributors in bulk): each
work becomes an entry keyed `ORCID:<put-code>`, ORCID's own stable id of the work.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..diagnostics import Diagnostics
from .bibmerge import Record
from ..reading.bibparse import parse_library

DBLP_ONLY_FIELDS = ("timestamp", "biburl", "bibsource")
_NUMBERED_NAME = re.compile(r" \d{4}(?= and |$)")  # 'Wei Wang 0001 and ...'
_LATEX_SPECIAL = re.compile(r"([\\{}&%$#_~^])")
_LATEX_ESCAPES = {"\\": r"\textbackslash{}", "~": r"\textasciitilde{}", "^": r"\^{}"}
# ORCID work types as BibTeX entry types, and the field their journal-title goes in.
ORCID_TYPES = {
    "journal-article": ("article", "journal"), "conference-paper": ("inproceedings", "booktitle"),
    "preprint": ("misc", "howpublished"), "book": ("book", "publisher"),
    "book-chapter": ("incollection", "booktitle"), "report": ("techreport", "institution"),
    "working-paper": ("techreport", "institution"),
    "dissertation-thesis": ("phdthesis", "school"), "dissertation": ("phdthesis", "school"),
}
BULK_SIZE = 100  # put-codes per request to ORCID's /works/<codes> (its limit)


def convert_dblp(text: str, path: Path, diags: Diagnostics) -> list[Record]:
    """DBLP's BibTeX of a person as records; an unreadable file is a problem in `diags`."""
    library = parse_library(path, text, diags)
    if library.unread or not library.entries:  # an error page, a cut-off answer
        diags.error(path, 0, "DBLP's answer is not the BibTeX of a person's papers ("
                    + (f"{len(library.unread)} unreadable entries" if library.unread
                       else "no entry") + ")")
        return []
    records = []
    for entry in library.entries:
        fields = {name: " ".join(value.text.split()) for name, value in entry.fields.items()
                  if name not in DBLP_ONLY_FIELDS}
        for name in ("author", "editor"):
            if name in fields:
                fields[name] = _NUMBERED_NAME.sub("", fields[name])
        map_dblp_links(fields)
        records.append(Record(entry.key, entry.type, tuple(fields.items())))
    return records


def map_dblp_links(fields: dict[str, str]) -> None:
    """`ee` (DBLP's electronic edition) as a DOI, an arXiv id or a link; a CoRR entry as
    the arXiv preprint it is; the `url` that only repeats the DOI or arXiv link dropped,
    so a paper shows each link once."""
    ee = fields.pop("ee", "")
    arxiv = re.match(r"https?://arxiv\.org/abs/(.+)$", ee)
    if ee.startswith(("https://doi.org/", "http://doi.org/")):
        fields.setdefault("doi", ee.split("doi.org/", 1)[1])
    elif arxiv:
        fields.setdefault("eprint", arxiv.group(1))
    elif ee:
        fields.setdefault("url", ee)
    volume = fields.get("volume", "")
    if fields.get("journal") == "CoRR" and volume.startswith("abs/"):
        fields.setdefault("eprint", volume[4:])
    if "eprint" in fields and "archiveprefix" not in fields:
        fields.setdefault("eprinttype", "arXiv")
    url = fields.get("url", "")
    if url and (url.lower() == f"https://doi.org/{fields.get('doi', '')}".lower()
                or url.rstrip("/").endswith(f"arxiv.org/abs/{fields.get('eprint', '-')}")):
        del fields["url"]


def escape_latex(text: str) -> str:
    """Plain text (ORCID's) as BibTeX that reads back as the same text."""
    return _LATEX_SPECIAL.sub(lambda m: _LATEX_ESCAPES.get(m.group(1), "\\" + m.group(1)),
                              " ".join(text.split()))


def dig(data: object, *keys: str | int) -> object:
    """data[k1][k2]..., or None where a level is missing or of another kind."""
    for key in keys:
        if isinstance(key, int) and isinstance(data, list) and -len(data) <= key < len(data):
            data = data[key]
        elif isinstance(key, str) and isinstance(data, dict):
            data = data.get(key)
        else:
            return None
    return data


def list_orcid_works(answer: object) -> list[dict]:
    """The preferred summary of each work of ORCID's /works answer (its first), or
    ValueError when the answer is not shaped as documented."""
    groups = dig(answer, "group")
    if not isinstance(groups, list):
        raise ValueError("the answer has no 'group' list")
    works = [dig(group, "work-summary", 0) for group in groups]
    return [work for work in works if isinstance(work, dict) and dig(work, "put-code")]


def read_contributors(answer: object) -> dict[str, list[str]]:
    """Authors' names by put-code, from ORCID's bulk /works/<codes> answer."""
    names: dict[str, list[str]] = {}
    for item in dig(answer, "bulk") or []:
        work = dig(item, "work")
        people = dig(work, "contributors", "contributor")
        if not isinstance(people, list):
            continue
        found = [dig(p, "credit-name", "value") for p in people
                 if dig(p, "contributor-attributes", "contributor-role") in (None, "author")]
        names[str(dig(work, "put-code"))] = [" ".join(n.split()) for n in found
                                             if isinstance(n, str) and n.strip()]
    return names


def convert_orcid_work(work: dict, authors: list[str], owner: str) -> Record | None:
    """One ORCID work as a record; None when it lacks a title or a year."""
    title = dig(work, "title", "title", "value")
    subtitle = dig(work, "title", "subtitle", "value")
    year = dig(work, "publication-date", "year", "value")
    if not isinstance(title, str) or not title.strip() or not str(year or "").isdigit():
        return None
    kind, venue_field = ORCID_TYPES.get(str(dig(work, "type")), ("misc", "howpublished"))
    fields = {"author": " and ".join(escape_latex(a) for a in authors)
              or f"{escape_latex(owner)} and others",  # ORCID often lists no contributors
              "title": escape_latex(title + (f": {subtitle}" if isinstance(subtitle, str)
                                             and subtitle.strip() else "")),
              "year": str(year)}
    month = dig(work, "publication-date", "month", "value")
    if isinstance(month, str) and month.isdigit():
        fields["month"] = str(int(month))
    venue = dig(work, "journal-title", "value")
    if isinstance(venue, str) and venue.strip():
        fields[venue_field] = escape_latex(venue)
    add_orcid_ids(fields, dig(work, "external-ids", "external-id") or [])
    url = dig(work, "url", "value")
    if isinstance(url, str) and url.startswith(("https://", "http://")) \
            and "doi" not in fields and "eprint" not in fields:
        fields["url"] = url
    return Record(f"ORCID:{dig(work, 'put-code')}", kind, tuple(fields.items()))


def add_orcid_ids(fields: dict[str, str], ids: object) -> None:
    """The work's own DOI and arXiv id (relationship 'self': not those of a part or a
    version of it)."""
    for item in ids if isinstance(ids, list) else []:
        kind = str(dig(item, "external-id-type") or "").lower()
        value = dig(item, "external-id-value")
        if dig(item, "external-id-relationship") not in (None, "self") \
                or not isinstance(value, str) or not value.strip():
            continue
        if kind == "doi":
            fields.setdefault("doi", value.strip())
        elif kind == "arxiv":
            fields.setdefault("eprint", value.strip().removeprefix("arXiv:"))
            fields.setdefault("archiveprefix", "arXiv")
