"""Authors read back from a citation string, as academicpages sites keep them: the only
place many of them list a paper's authors.

The authors are the text before the year '(2020)', a Chicago '. 2020.', the quoted title
or the title itself; its shape then says the style: APA 'Last, F., & Last, F.', IEEE
'F. Last, F. Last, and F. Last', MLA and Chicago 'Last, First, and First Last', or
'Last, F.; Last, F.'. What fits none of these, or ends in 'et al.', is uncertain, and the
caller asks a person to look."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from ...reading.settings.venues import match_venues
from .authormarks import attach_marks, write_marks
from .frontmatter import strip_emphasis, strip_html

_YEAR_PAREN = re.compile(r"\((?:\d{4}[a-z]?|n\.\s?d\.)[^)]*\)")
_YEAR_DOT = re.compile(r"(?<=[.,])\s+(?:\d{4}[a-z]?)\.")
_QUOTE = re.compile(r"[\"“”«]")
_ET_AL = re.compile(r",?\s*(?:\bet\.?\s*al\b\.?|\band\s+others\b\.?)", re.I)
# 'et al.' or 'and others' ending a list of names: never a person.
_ET_AL_END = re.compile(r"(?:,?\s*(?:\bet\.?\s*al\b\.?|(?:\band\s+|,\s*)others\b\.?)|^others)\s*$",
                        re.I)
_SUFFIX = re.compile(r"^(?:Jr|Sr|II|III|IV)\.?$")
_SEPARATOR = re.compile(r"\s*,\s*(?:(?:and|&)\s+)?|\s+(?:and|&)\s+")
# An initial is any capital letter ('Ö.', 'Ş.'), not only A-Z: no ASCII small letter.
# Between initials, spaces then at most one hyphen and spaces ('J.-P.'): written so that
# a run of spaces can be matched one way only, else 40 initials and a miss take hours.
_INITIALS = re.compile(r"^(?:[^\W\d_a-z][a-z]?\.\s*(?:-\s*)?)+$")
_GIVEN = re.compile(r"^[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*){0,2}$")
# Author-note marks: after a name ('Lee, A.*'), or any but '*', which may begin a word's
# own name ('*SEM'); emphasis pairs are read first (frontmatter.strip_emphasis).
_MARKS = re.compile(r"(?<=[\w.)\]])\*+|[†‡§¶]")
# Degrees after a name ('Lee Roe MPH, PhD'): not part of it.
_DEGREES = re.compile(r"(?<=[a-z])(?:,?\s+(?:Ph\.?D|MPhil|DPhil|MPH|MA|MS|MSc|MSW|SM|MBiostat|"
                      r"MD|MBA|BSc|BA|BS)\b\.?)+(?=\s*(?:,|$|\band\b|&))")
_ITALIC = re.compile(r"<(i|em)>(.*?)</\1>", re.I | re.S)
# Lines academicpages' generator writes around an abstract: the citation again, a link.
_BOILERPLATE = re.compile(r"^\s*(?:\**recommended citation|use google scholar|"
                          r"(?:download|get|access|read|find|view)(?: the)?(?: paper| pdf| slides)?"
                          r"(?: here)?\W*$)", re.I)
_MD_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
# academicpages' publication categories, and the type of paper each holds.
CATEGORY_TYPES = {"manuscripts": "journal", "journal": "journal", "journals": "journal",
                  "conferences": "conference", "conference": "conference",
                  "books": "book", "book": "book", "preprints": "preprint",
                  "theses": "thesis", "thesis": "thesis"}
# Words of a venue that say its kind, tried in this order.
VENUE_TYPES = (("thesis", r"\b(?:thesis|dissertation)\b"),
               ("preprint", r"\b(?:arxiv|biorxiv|medrxiv|ssrn|preprint|working paper)\b"),
               ("conference", r"\b(?:proceedings|proc\.|conference|symposium|workshop|"
                              r"congress|colloquium|meeting)\b"),
               ("journal", r"\b(?:journal|transactions|letters|review|magazine|annals)\b"))


@dataclass(frozen=True)
class CitedAuthors:
    names: tuple[str, ...]  # as 'Given Family'
    style: str  # APA, IEEE, MLA, Chicago, semicolons, names; '' when none fits
    more: bool  # the citation cuts the list short ('et al.')
    certain: bool


def clean_citation(text: str) -> str:
    """The citation as text: no tags, entities, bold marks or author-note marks."""
    return " ".join(_MARKS.sub("", strip_emphasis(strip_html(write_marks(text)))).split())


def marked_text(text: str) -> str:
    """The citation as text with its author-note marks, each as its symbol."""
    return " ".join(strip_emphasis(strip_html(write_marks(text))).split())


def find_author_part(text: str, title: str) -> tuple[str, str]:
    """(the text before the year or title, what ended it: 'year', 'yeardot', 'quote',
    'title'), or ('', '') when nothing does."""
    ends = []
    for kind, pattern in (("year", _YEAR_PAREN), ("yeardot", _YEAR_DOT), ("quote", _QUOTE)):
        match = pattern.search(text)
        if match:
            ends.append((match.start(), kind))
    at = text.lower().find(title.lower()) if title.strip() else -1
    if at > 0:
        ends.append((at, "title"))
    if not ends:
        return "", ""
    end, kind = min(ends)
    return trim_part(text[:end]), kind


def trim_part(part: str) -> str:
    """Without the punctuation that closes it: 'Doe, J.' keeps its initial's dot, 'Roe.'
    loses its full stop."""
    part = part.strip().rstrip(",;:").strip()
    if part.endswith(".") and len(part) > 2 and (part[-2].islower()
                                                  or unicodedata.category(part[-2]) == "Lo"):
        part = part[:-1]
    return part


_FAMILY_INITIALS = re.compile(r"(?P<family>[^\W\d_][\w'’-]+(?: [^\W\d_][\w'’-]+){0,2})"
                              r" (?P<initials>(?:[A-ZÀ-Þ]\.[ -]?){1,3}|[A-ZÀ-Þ]{1,2}(?!\w))\.?")


def looks_like_name(text: str) -> bool:
    words = text.split()
    return is_caseless_name(text) or 0 < len(words) <= 5 and len(text) < 60 \
        and text[:1].isupper() and not any(ch.isdigit() or ch in ':()"' for ch in text)


def is_caseless_name(text: str) -> bool:
    """A name in a script without capitals, written without spaces ('林佳瑞', '김민수')."""
    return 2 <= len(text) <= 5 and all(unicodedata.category(ch) == "Lo" for ch in text)


def invert(family: str, given: str) -> str:
    """'Given Family'; a full given name loses a stray full stop ('Merkley, Eric.')."""
    given = re.sub(r"(?<=[a-z]{2})\.$", "", given.strip())
    return f"{given} {family.strip()}"


def read_semicolons(part: str) -> list[str]:
    """'Last, F.; Last, F.' (and 'F. Last; F. Last')."""
    names = []
    for piece in filter(None, (p.strip() for p in part.split(";"))):
        piece = re.sub(r"^(?:and|&)\s+", "", piece)
        family, comma, given = piece.partition(",")
        names.append(invert(family, given) if comma else piece)
    return names


def fold_accents(text: str) -> str:
    """`text` without its accents ('Ö.' -> 'O.', 'İnan' -> 'Inan'): a name's shape (an
    initial, a capital) is told on this; the name itself keeps them."""
    return "".join(ch for ch in unicodedata.normalize("NFKD", text)
                   if not unicodedata.combining(ch))


def read_pieces(pieces: list[str], kind: str) -> tuple[list[str], str]:
    """The names in a comma-separated list, and the style its shape says."""
    folded = [fold_accents(p) for p in pieces]
    style = read_style(folded, kind)
    if style in ("APA", "inverted"):
        return [invert(f, g) for f, g in zip(pieces[::2], pieces[1::2])], style
    slipped = read_slipped(pieces, folded)
    if slipped and kind == "year":
        return slipped, "APA"
    if style in ("Chicago", "MLA"):
        return [invert(pieces[0], pieces[1]), *pieces[2:]], style
    if style == "family-initials":
        return flip_initials(pieces), style
    return (pieces if style else [p for p in pieces if " " in p and looks_like_name(p)]), style


_LOOSE_INITIALS = re.compile(r"^(?:[A-Z][a-z]?\.\s*(?:-\s*)?)*(?:[A-Z][a-z]?\.|[A-Z])$")


def read_slipped(pieces: list[str], folded: list[str]) -> list[str]:
    """An APA list with a typing slip or two, as hand-kept lists have: a comma left out
    ('Zhang Y.Y.'), an initial's last full stop left out ('Zhang, Y.Y'); [] when a piece
    is no part of such a list."""
    names, at = [], 0
    while at < len(pieces):
        given = folded[at + 1] if at + 1 < len(pieces) else ""
        if _LOOSE_INITIALS.match(given) and not _LOOSE_INITIALS.match(folded[at]):
            dot = "." if "." in given and given[-1].isupper() else ""  # 'Y.Y' is 'Y.Y.'
            names.append(invert(pieces[at], pieces[at + 1] + dot))
            at += 2
        elif _FAMILY_INITIALS.fullmatch(folded[at]):
            names += flip_initials([pieces[at]]) if _FAMILY_INITIALS.fullmatch(pieces[at]) \
                else [pieces[at]]
            at += 1
        else:
            return []
    return names


def read_style(pieces: list[str], kind: str) -> str:
    """The style the shape of a comma-separated list says ('' when none fits)."""
    if len(pieces) % 2 == 0 and all(_INITIALS.match(p) for p in pieces[1::2]):
        return "APA" if kind == "year" else "inverted"
    if len(pieces) >= 2 and " " not in pieces[0] and _GIVEN.match(pieces[1]) \
            and all(" " in p for p in pieces[2:]):
        return "Chicago" if kind == "yeardot" else "MLA"
    if pieces and all(_FAMILY_INITIALS.fullmatch(p) for p in pieces):
        return "family-initials"
    if pieces and all(is_caseless_name(p) for p in pieces):
        return "names"
    if pieces and all(" " in p for p in pieces):
        return "IEEE" if _INITIALS.match(pieces[0].split()[0]) else "names"
    return ""


def parse_cited_authors(citation: str, title: str) -> CitedAuthors:
    """The authors of a citation string (HTML allowed), and how sure that reading is."""
    part, kind = find_author_part(clean_citation(citation), clean_citation(title))
    part = _DEGREES.sub("", part)
    part, more = _ET_AL.sub("", part), bool(_ET_AL.search(part))
    part = trim_part(part)
    if not part:
        return CitedAuthors((), "", more, False)
    if ";" in part:
        names, style = read_semicolons(part), "semicolons"
    else:
        names, style = read_pieces([p for p in _SEPARATOR.split(part) if p], kind)
    names = [" ".join(n.split()) for n in names]
    certain = bool(style and names and not more and all(map(looks_like_name, names)))
    leading = [] if certain or more else read_leading_pairs(clean_citation(citation))
    if leading:
        names, style, certain = leading, "APA", True
    names = attach_marks([n for n in names if looks_like_name(n)], marked_text(citation))
    return CitedAuthors(tuple(names), style, more, certain)


_LEADING_INITIALS = re.compile(r"(?:[^\W\d_a-z][a-z]?\.\s*(?:-\s*)?)+(?=\s|$)")


def read_leading_pairs(text: str) -> list[str]:
    """The APA names that open a citation which no year or title ends ('Quill, A.B., Roe,
    J. Tidal clocks: the sea. Journal, 2019.', its title written otherwise than the
    page's): pairs read while they are pairs, the first initials followed by words ending
    them; [] unless two names at least are read so."""
    pieces = _SEPARATOR.split(text)
    names: list[str] = []
    for family, given in zip(pieces[::2], pieces[1::2]):
        found = _LEADING_INITIALS.match(fold_accents(given))
        if not found or not looks_like_name(family) or len(family.split()) > 3:
            return []
        names.append(invert(family, given[:found.end()]))
        if given[found.end():].strip():  # the title begins
            return names if len(names) >= 2 else []
    return []


def venue_from_citation(citation: str, title: str = "") -> str:
    """The first name set in italics other than the title (a journal's or proceedings'
    name), or ''."""
    for match in _ITALIC.finditer(citation):
        text = strip_html(match.group(2)).strip(" .,")
        if text and text.lower() != strip_html(title).strip(" .,").lower():
            return text
    return ""


def year_from_citation(citation: str) -> int | None:
    match = re.search(r"\b(19\d\d|20\d\d)\b", clean_citation(citation))
    return int(match.group(1)) if match else None


def infer_type(venue: str, category: str) -> str:
    """The paper's type from its venue's words, else from the venue list (a conference's
    or journal's name or abbreviation, such as 'SIGMOD'), else academicpages' category."""
    for ptype, pattern in VENUE_TYPES:
        if re.search(pattern, venue, re.I):
            return ptype
    kinds = {row.dblp_path.split("/")[1] for row in match_venues(venue) if row.dblp_path}
    if kinds in ({"conf"}, {"journals"}):
        return "conference" if kinds == {"conf"} else "journal"
    return CATEGORY_TYPES.get(category, "")


def split_names(value: object) -> list[str]:
    """An `authors` field: a list, or names separated by commas, semicolons or 'and';
    BibTeX's 'Family, G. and Family, G.', APA's 'Family, G., Family, G.' and 'Family G.'
    names given first name first; each name's marks after it ('Ann Lee*'); 'et al.' or
    'and others' no name, but the list's last item 'et al.' (more authors)."""
    items = [str(v) for v in value] if isinstance(value, list) else [str(value)]
    text = " ".join(" ".join(items).split())
    if isinstance(value, list):
        names = [clean_citation(item) for item in items]
        more = bool(names) and bool(_ET_AL_END.fullmatch(" " + names[-1]))
        names = [n for n in names if not _ET_AL_END.fullmatch(" " + n)]
    else:
        plain = clean_citation(text)
        more = bool(_ET_AL_END.search(plain))
        names = split_text(_ET_AL_END.sub("", plain))
    names = [re.sub(r"(?<=[a-z]{2})\.$", "", name) for name in join_suffixes(names) if name]
    names = attach_marks(flip_initials(names), marked_text(text))
    return names + (["et al."] if more and names else [])


def split_text(text: str) -> list[str]:
    """The names of one line of text (see split_names)."""
    pairs = [p.strip(" ,") for p in re.split(r"\s*\band\b\s*", text) if p.strip(" ,")]
    inverted = [is_inverted(p, len(pairs)) for p in pairs]
    if any(inverted) and all(flag or "," not in p for p, flag in zip(pairs, inverted)):
        # BibTeX's way ('Barrault, L. and De Mori, R.'); a slip without the comma
        # ('Federico and M.') is kept as the old page showed it.
        return [invert(*p.split(",")) if flag else p for p, flag in zip(pairs, inverted)]
    pieces = [p for p in re.split(r"\s*(?:[,;]|\band\b|&)\s*", text) if p]
    if read_style([fold_accents(p) for p in pieces], "year") == "APA":
        return [invert(f, g) for f, g in zip(pieces[::2], pieces[1::2])]
    return pieces


def join_suffixes(names: list[str]) -> list[str]:
    """'Li Wei', 'Jr.' (a list split at the comma before a suffix) as 'Li Wei Jr.'."""
    out: list[str] = []
    for name in names:
        if out and _SUFFIX.match(name):
            out[-1] = f"{out[-1]} {name}"
        else:
            out.append(name)
    return out


def is_inverted(piece: str, count: int) -> bool:
    """Whether one name of an 'and' list is 'Family, Given': one comma, no initial before
    it ('F. Burlot, M. Roe' is two names), and initials after it, or one family word before
    it, or one given name after it, initials aside ('De Mori, R.', 'Lee, Sun Jae', 'van de
    Weijer, Joost', 'Costa-jussà, Marta R.'; 'Ada Quill, Tomas Reyes' is two names); a lone
    name needs the initials ('Barrault, L.'), as 'Roe, Jones' may as well be two people."""
    family, _, given = fold_accents(piece).partition(",")
    if piece.count(",") != 1 or not family.strip() or not given.strip() \
            or _INITIALS.match(family.split()[0]):
        return False
    if _LOOSE_INITIALS.match(given.strip()):
        return True
    names = [w for w in given.split() if not _LOOSE_INITIALS.match(w)]
    return count > 1 and (len(family.split()) == 1 or len(names) == 1)


def flip_initials(names: list[str]) -> list[str]:
    """'Gautheron L.', 'Ozel S. A.' (family name, then initials: so a whole list is
    written) as 'L. Gautheron', 'S. A. Ozel'; any other list as it is."""
    found = [_FAMILY_INITIALS.fullmatch(n) for n in names]
    if not names or not all(found) or not is_initials_list(found):
        return names
    return [f"{dot_initials(m.group('initials').strip())} {m.group('family')}" for m in found]


def is_initials_list(found: list[re.Match]) -> bool:
    """Whether initials written without full stops are initials ('Quill AB, Roe J'), not
    family names in capitals ('Ada LI, Bo WU'): one of them at least is a single letter."""
    bare = [m.group("initials").strip() for m in found if "." not in m.group("initials")]
    return not bare or any(len(i) == 1 for i in bare)


def dot_initials(initials: str) -> str:
    """'AB' as 'A.B.', as an APA list writes them; 'A.B.' as it is."""
    return initials if "." in initials else "".join(f"{ch}." for ch in initials)


def same_person(one: str, other: str) -> bool:
    """Same family name and first initial: 'A. Example' is 'Ada Example'."""
    a, b = (_MARKS.sub("", n).lower().replace(".", " ").split() for n in (one, other))
    return bool(a and b) and a[-1] == b[-1] and a[0][0] == b[0][0]


def describe_doubt(cited: CitedAuthors, citation: str) -> str:
    """Why the authors read from `citation` need a person's look."""
    if not citation.strip():
        return "there is no citation to read them from"
    if cited.more:
        return "the citation ends the list with 'et al.'"
    if not cited.names:
        return "no author could be read from the citation"
    if not cited.style:
        return "the citation's style is not one migrate reads, so its authors were not " \
               "guessed: copy them from the citation"
    return f"the citation's style ({cited.style}) leaves them uncertain"


def strip_boilerplate(body: str) -> str:
    """The abstract without the lines around it that repeat the citation or link the PDF;
    they are blanked, not removed, so the lines the report names stay right."""
    return "\n".join("" if _BOILERPLATE.match(strip_html(_MD_LINK.sub(r"\1", line))) else line
                     for line in body.split("\n"))
