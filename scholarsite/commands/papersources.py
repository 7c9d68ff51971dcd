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
from .bibwrite import check_record
from ..reading.bib.bibparse import parse_library
from ..structure.urls import check_link, normalize_arxiv, normalize_doi
from ..views.latexout import escape_latex

DBLP_ONLY_FIELDS = ("timestamp", "biburl", "bibsource")
_NUMBERED_NAME = re.compile(r" \d{4}(?= and |$)")  # 'Wei Wang 0001 and ...'
# Shapes a service's links must have to be written: a DOI or web address with none of
# the characters RFC 3986 leaves out of URLs (spaces, quotes, braces, backslashes...).
_DOI = re.compile(r"10\.[0-9]{4,9}/[^\s\"<>\\^`{|}]+")
_URL = re.compile(r"https?://[^\s\"<>\\^`{|}]+", re.IGNORECASE)
_PUT_CODE = re.compile(r"\d{1,18}")
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
        problem = check_record(entry.key, entry.type, list(entry.fields))
        if problem:
            diags.warning(path, entry.line, f"{entry.where()} is left out: {problem}")
            continue
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
    if ee.startswith(("https://doi.org/", "http://doi.org/")) and check_doi(ee):
        fields.setdefault("doi", check_doi(ee))
    elif arxiv and normalize_arxiv(arxiv.group(1)):
        fields.setdefault("eprint", normalize_arxiv(arxiv.group(1)))
    elif check_url(ee):  # else no link: what is not shaped like one is left out
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


def check_doi(value: str) -> str:
    """The bare DOI, when `value` is one by its shape; else ''."""
    doi = normalize_doi(value)
    return doi if _DOI.fullmatch(doi) else ""


def check_url(value: str) -> str:
    """The web address, when `value` is one by its shape; else ''."""
    value = value.strip()
    return value if _URL.fullmatch(value) and not check_link("url", value)[1] else ""


def check_put_code(value: object) -> str:
    """ORCID's id of a work (a number) as text; '' when it is not one."""
    text = str(value) if isinstance(value, (int, str)) and not isinstance(value, bool) else ""
    return text if _PUT_CODE.fullmatch(text) else ""


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


def list_orcid_works(answer: object, notes: list[str]) -> list[dict]:
    """The preferred summary of each work of ORCID's /works answer (its first), or
    ValueError when the answer is not shaped as documented. A work without a put-code
    (ORCID's number for it, which goes into the next request and the entry's key) is left
    out, with a note."""
    groups = dig(answer, "group")
    if not isinstance(groups, list):
        raise ValueError("the answer has no 'group' list")
    works = [work for work in (dig(group, "work-summary", 0) for group in groups)
             if isinstance(work, dict)]
    for work in works:
        if not check_put_code(work.get("put-code")):
            notes.append(f"ORCID: a work is left out: its put-code {work.get('put-code')!r} "
                         "is not a number")
    return [work for work in works if check_put_code(work.get("put-code"))]


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


def convert_orcid_work(work: dict, authors: list[str], owner: str,
                       notes: list[str]) -> Record | None:
    """One ORCID work as a record; None when it lacks a title or a year. Every text is
    escaped; a DOI, arXiv id or address that is not one by its shape is left out, with
    a note."""
    title = dig(work, "title", "title", "value")
    subtitle = dig(work, "title", "subtitle", "value")
    year = str(dig(work, "publication-date", "year", "value") or "")
    if not isinstance(title, str) or not title.strip() or not re.fullmatch("[0-9]{1,4}", year):
        return None
    code = check_put_code(work.get("put-code"))
    kind, venue_field = ORCID_TYPES.get(str(dig(work, "type")), ("misc", "howpublished"))
    fields = {"author": " and ".join(escape_latex(a) for a in authors)
              or f"{escape_latex(owner)} and others",  # ORCID often lists no contributors
              "title": escape_latex(title + (f": {subtitle}" if isinstance(subtitle, str)
                                             and subtitle.strip() else "")),
              "year": year}
    month = str(dig(work, "publication-date", "month", "value") or "")
    if re.fullmatch("0?[1-9]|1[0-2]", month):
        fields["month"] = str(int(month))
    venue = dig(work, "journal-title", "value")
    if isinstance(venue, str) and venue.strip():
        fields[venue_field] = escape_latex(venue)
    found = add_orcid_ids(fields, dig(work, "external-ids", "external-id") or [])
    url = dig(work, "url", "value")
    if isinstance(url, str) and url.strip() and not check_url(url):
        found.append(f"the address {url!r}")
    elif isinstance(url, str) and url.strip() and "doi" not in fields \
            and "eprint" not in fields:
        fields["url"] = check_url(url)
    notes += [f"ORCID work {code}: {what} is left out: it is not shaped like one"
              for what in found]
    return Record(f"ORCID:{code}", kind, tuple(fields.items()))


def add_orcid_ids(fields: dict[str, str], ids: object) -> list[str]:
    """The work's own DOI and arXiv id (relationship 'self': not those of a part or a
    version of it); returns the ids left out, since they are not ids by their shape."""
    bad = []
    for item in ids if isinstance(ids, list) else []:
        kind = str(dig(item, "external-id-type") or "").lower()
        value = dig(item, "external-id-value")
        if dig(item, "external-id-relationship") not in (None, "self") \
                or not isinstance(value, str) or not value.strip() \
                or kind not in ("doi", "arxiv"):
            continue
        checked = check_doi(value) if kind == "doi" else normalize_arxiv(value)
        if not checked:
            bad.append(f"the {'DOI' if kind == 'doi' else 'arXiv id'} {value!r}")
        elif kind == "doi":
            fields.setdefault("doi", checked)
        else:
            fields.setdefault("eprint", checked)
            fields.setdefault("archiveprefix", "arXiv")
    return bad
