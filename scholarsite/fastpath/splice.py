"""Pages kept as pieces: how a save in `serve` rewrites a page that lists every paper
without rendering, encoding or comparing it whole.

Such a page is mostly its papers' own parts: their cached fragments in the publications
list and the feed (render.FragmentCache), their BibTeX and RIS in the citation files,
their entries in the search index. The rebuild keeps it as `Pieces`: the bytes it was
written from, piece by piece, each with the text it was encoded from and, for a fragment,
the fragment's name (a paper's slug) and key. A text that is the same object as last
time keeps its bytes. When papers change but not where the page shows them, `splice_pieces`
renders the changed papers' fragments alone, from the page's context cut down to them,
and puts them in place of the old ones.

That needs one more promise than the fragment cache's own: outside its fragments, a
recorded page uses which paper entries it lists (and their slugs), never what they show.
`record_pieces` watches every read a template makes of a paper entry while it renders a page;
a page that reads one outside a fragment is not kept as pieces, and is rendered whole on
every change, as any other page is.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import compress
from operator import ne
from pathlib import Path

import jinja2
from jinja2 import meta, nodes
from markupsafe import Markup

from ..diagnostics import Diagnostics
from ..plan.pages import Page
from ..structure.kinds import KIND
from ..views.derived import find_derived
from ..views.entries import ENTRY, entries_of
from .fragments import reduce_context, render_text
from ..render.layers import find_theme, find_unknown_overrides
from ..render.overrides import find_unknown_blocks
from ..render.render import DICT_ATTRIBUTES, Keeping, ViewEnvironment, render_page

ANY_TEMPLATE = "*"  # a template whose includes are computed at run time uses them all
# Stands for the pieces of a value while the page around them is rendered; it is found
# in the output (or the page is rendered whole), so it never reaches a written file.
MARKER = Markup("\ufdd0scholarsite: pieces\ufdd1")

Key = tuple  # a fragment's key below its name: (template:line, the further keys)


@dataclass(eq=False)
class Pieces:
    """A page's text as the encoded pieces it is written from, one after the other."""

    data: list[bytes]
    texts: list[str]  # what each piece was encoded from
    slots: dict[str, list[tuple[int, Key]]]  # fragment name -> (index, key) of each
    context: dict | None = None  # what it was rendered from
    around: str = ""  # the context's value of pieces it was written around, if any

    def same_bytes(self, other: object) -> bool:
        return isinstance(other, Pieces) and self.data == other.data


class WatchingEnvironment(ViewEnvironment):
    """The rebuild's environment. While `record` renders a page (`watching`), a read of a
    paper entry's field (views/entries.py) other than its slug outside a fragment sets
    `read_outside`."""

    watching = False
    read_outside = False

    def getattr(self, obj, attribute):  # noqa: A003 - Jinja's name
        # Called for every `a.b` of every template: ViewEnvironment's, in one frame.
        if self.watching and attribute != "slug" and not self.fragment_depth \
                and type(obj) is dict and ENTRY in obj:
            self.read_outside = True
        if type(obj) is dict and attribute not in DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                if (derived := find_derived(obj, attribute)) is not None:
                    return derived
        return jinja2.Environment.getattr(self, obj, attribute)

    def getitem(self, obj, argument):
        if self.watching and argument != "slug" and not self.fragment_depth \
                and type(obj) is dict and ENTRY in obj:
            self.read_outside = True
        return super().getitem(obj, argument)


def find_used_templates(env: jinja2.Environment, name: str | tuple[str, ...],
                        seen: set[str] | None = None) -> set[str]:
    """`name` (or each of several names to choose from) and every template it extends,
    includes or imports, through any depth."""
    seen = set() if seen is None else seen
    if isinstance(name, tuple):
        for one in name:
            find_used_templates(env, one, seen)
        return seen
    if name in seen:
        return seen
    seen.add(name)
    try:
        source = env.loader.get_source(env, name)[0]
        refs = list(meta.find_referenced_templates(env.parse(source)))
    except (jinja2.TemplateError, UnicodeDecodeError):
        seen.add(ANY_TEMPLATE)  # rendering will report the problem
        return seen
    for ref in refs:
        if ref is None:
            seen.add(ANY_TEMPLATE)
        else:
            find_used_templates(env, ref, seen)
    return seen


def get_template(env: jinja2.Environment, names: str | tuple[str, ...]) -> jinja2.Template:
    return env.select_template(names) if isinstance(names, tuple) else env.get_template(names)


def encode_texts(texts: list[str], old: Pieces | None) -> list[bytes]:
    """Each text as UTF-8; one equal to `old`'s keeps its bytes (a text kept from the last
    build compares at once: Python sees it is the same string before reading it)."""
    if old is None:
        return [text.encode("utf-8") for text in texts]
    before = old.texts
    if len(before) == len(texts):  # the same texts in the same places, but a few
        data = list(old.data)
        for i in compress(range(len(texts)), map(ne, before, texts)):  # looped in C
            data[i] = texts[i].encode("utf-8")
        return data
    known = dict(zip(before, old.data))
    return [known.get(text) or text.encode("utf-8") for text in texts]


def join_pieces(texts: list[str], old: Pieces | None) -> Pieces:
    """A file that is `texts` joined (a citation file)."""
    return Pieces(encode_texts(texts, old), texts, {})


def record_pieces(env: WatchingEnvironment, names: str | tuple[str, ...], context: dict,
                  old: Pieces | None) -> str | Pieces:
    """A page rendered whole: as Pieces when it shows fragments and reads no paper entry
    outside them, else as its text."""
    template = get_template(env, names)
    for key, value in context.items():
        if type(value) is list and value and set(map(type, value)) == {Markup}:
            around = render_around(env, names, template, context, key, old)
            if around is not None:
                return around
    env.fragment_log, env.watching, env.read_outside = [], True, False
    try:
        texts = render_text(template, context)
    finally:
        log, env.fragment_log, env.watching = env.fragment_log, None, False
    if not log or env.read_outside:
        return "".join(texts)
    found = split_fragments(texts, log)
    if found is None:  # a fragment inside another, or inside a macro's text
        return "".join(texts)
    texts, slots = found
    return Pieces(encode_texts(texts, old), texts, slots, context)


def split_fragments(texts: list[str], log: list) -> tuple[list[str], dict] | None:
    """The texts a template yielded, the text between two fragments joined, and where each
    fragment is; None when some fragment the template showed is not among them whole."""
    named = {id(fragment): (name, key) for fragment, name, key in log}
    pieces: list[str] = []
    slots: dict[str, list[tuple[int, Key]]] = {}
    between: list[str] = []
    found = 0
    for text in texts:
        hit = named.get(id(text))
        if hit is None:
            between.append(text)
            continue
        if between:
            pieces.append("".join(between))
            between = []
        slots.setdefault(hit[0], []).append((len(pieces), hit[1]))
        pieces.append(text)
        found += 1
    if between:
        pieces.append("".join(between))
    return (pieces, slots) if found == len(log) else None


def render_around(env: jinja2.Environment, names: str | tuple[str, ...],
                  template: jinja2.Template, context: dict, key: str,
                  old: Pieces | None) -> Pieces | None:
    """A page whose context's `key` is a list of Markup pieces (the search index), as the
    text before them, the pieces and the text after. The template must print the pieces
    one after the other and read them nowhere else; None when it does not."""
    rest = {k: v for k, v in context.items() if k != key}
    if old is not None and old.around == key \
            and {k: v for k, v in old.context.items() if k != key} == rest:
        before, after = old.texts[0], old.texts[-1]  # the page around them is the same
    else:
        if not prints_pieces(env, find_used_templates(env, names), key):
            return None
        text = "".join(render_text(template, {**rest, key: [MARKER]}))
        before, found, after = text.partition(MARKER)
        if not found or MARKER in after:
            return None
    texts = [before, *context[key], after]
    return Pieces(encode_texts(texts, old), texts, {}, context, key)


def prints_pieces(env: jinja2.Environment, templates: set[str], name: str) -> bool:
    """Whether `name` appears once in all of `templates`, in a loop that prints each of
    its items as it is: {% for piece in name %}{{ piece }}{% endfor %}."""
    if ANY_TEMPLATE in templates:
        return False
    uses, loops = 0, 0
    for template in templates:
        tree = env.parse(env.loader.get_source(env, template)[0])
        uses += sum(1 for node in tree.find_all(nodes.Name) if node.name == name)
        loops += sum(1 for loop in tree.find_all(nodes.For) if is_printing_loop(loop, name))
    return uses == 1 and loops == 1


def is_printing_loop(loop: nodes.For, name: str) -> bool:
    body = loop.body[0] if len(loop.body) == 1 else None
    return (isinstance(loop.iter, nodes.Name) and loop.iter.name == name
            and isinstance(loop.target, nodes.Name) and not loop.else_ and loop.test is None
            and not loop.recursive and isinstance(body, nodes.Output) and len(body.nodes) == 1
            and isinstance(body.nodes[0], nodes.Name)
            and body.nodes[0].name == loop.target.name)


def splice_pieces(env: jinja2.Environment, names: str | tuple[str, ...], context: dict,
                  old: Pieces, views: dict[str, dict], changed: set[str]) -> Pieces | None:
    """The page of `context` as `old` with the fragments of the papers `changed` made
    again, when `context` is `old`'s with those papers' entries swapped for their new
    ones (from `views`); None when that cannot be done (the page is rendered whole)."""
    touched = {name for name in changed if name in old.slots}
    if touched:
        keep = {entry[ENTRY] for name in touched for entry in entries_of(views[name])}
        try:
            # Renders the fragments (their old ones were dropped), and little else.
            render_text(get_template(env, names), reduce_context(context, keep))
        except Exception:
            return None
    data, texts = list(old.data), list(old.texts)
    for name in touched:
        made = env.fragment_cache.get(name, {})
        for index, key in old.slots[name]:
            fragment = made.get(key)
            if fragment is None:
                return None
            texts[index], data[index] = fragment, fragment.encode("utf-8")
    return Pieces(data, texts, old.slots, context)


def keeping_for(env: WatchingEnvironment, files: dict[str, Page]) -> Keeping:
    """What a build kept for serve renders of its pages: every page that is not one
    paper's own, as pieces where it can be (see `keep_page`)."""
    return Keeping(frozenset(rel for rel, page in files.items()
                             if not KIND[page.kind].per_paper),
                   lambda page: keep_page(env, page), chunks_of)


def keep_page(env: WatchingEnvironment, page: Page, old: Pieces | None = None
              ) -> str | Pieces:
    """A page that is not one paper's own, rendered whole: a file joined from texts and a
    page that shows fragments as their pieces (`old`'s bytes kept for the same texts),
    other pages as their text."""
    if page.parts:
        return join_pieces(list(page.parts), old)
    if not page.template:
        return render_page(page, env)
    return record_pieces(env, page.template, page.context, old)


def chunks_of(output: str | Pieces) -> list[bytes]:
    return output.data if isinstance(output, Pieces) else [output.encode("utf-8")]


def check_overrides(env: jinja2.Environment, layers: tuple[Path, ...], pages: list[Page],
                    diags: Diagnostics) -> None:
    """An error for each of the site's own templates that overrides nothing (see
    layers.find_unknown_overrides): what a page uses is looked up only when there is one."""
    def list_used() -> set[str] | None:
        used: set[str] = set()
        for template in sorted({page.template for page in pages if page.template}, key=str):
            find_used_templates(env, template, used)
        return None if ANY_TEMPLATE in used else used

    for path, message in find_unknown_overrides(layers, find_theme(), list_used):
        diags.error(path, 0, message)
    if len(layers) > 1:  # the site's own folder, over the theme
        for path, line, message in find_unknown_blocks(env, layers[0]):
            diags.error(path, line, message)
