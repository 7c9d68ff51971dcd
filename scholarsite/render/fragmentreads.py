"""What a cached fragment reads, checked against what its key names, as the template is
compiled: a fragment that read anything else would be shown stale on the next page that
shares its key (a count, the person whose page it is, `page.path`). Hugo's partialCached
has the same law by construction, since its partial sees only what it is passed; here the
block sees the whole page's context, so its free names are computed instead.

A fragment may read, without naming them in its key:
- the first key's names whole (`paper` in `{% cache paper.slug, ... %}`): the fragments
  of a paper are dropped when that paper changes;
- `site`: an environment lasts as long as the settings do;
- the environment's globals, gettext's names (the language is part of every key) and
  `loop`, and what the block itself sets (loop variables, `set`, imported macros).
Anything else must be named by a later key: `page.root`, `page.top`, a name whole.
Templates the block includes see its context, so their reads count as its own; imported
macros see only their arguments (Jinja imports without context) and are not read.
"""

from __future__ import annotations

from typing import Iterator

import jinja2
from jinja2 import nodes

ALWAYS_READABLE = frozenset({"site", "loop", "_", "gettext", "ngettext", "pgettext",
                             "npgettext", "caller", "varargs", "kwargs"})


def check_fragment_reads(env: jinja2.Environment, keys: list[nodes.Expr],
                         body: list[nodes.Node], where: tuple[str | None, str | None]) -> None:
    """Raise TemplateSyntaxError, at the first, naming every read in `body` (or in a
    template it includes) that the fragment's `keys` do not name."""
    whole, attributes = named_by_keys(keys)
    allowed = whole | ALWAYS_READABLE | frozenset(env.globals)
    unnamed = [(describe_read(node, parent), node.lineno, place)
               for node, parent, place in walk_reads(env, body, where, set())
               if node.name not in allowed and describe_read(node, parent) not in attributes]
    if unnamed:
        reads = ", ".join(dict.fromkeys(f"'{read}'" for read, _, _ in unnamed))
        _, lineno, (name, filename) = unnamed[0]
        raise jinja2.TemplateSyntaxError(
            f"a cached fragment reads {reads}, which its key does not name, so the next "
            f"page with the same key would show them stale: add them to the {{% cache %}} "
            f"key (it names: {describe_keys(whole, attributes)})", lineno, name, filename)


def named_by_keys(keys: list[nodes.Expr]) -> tuple[frozenset[str], frozenset[str]]:
    """(names readable whole, 'name.attribute' readable): the first key's names whole,
    and of the others, each name a key is (`count`) and each attribute one reads."""
    whole: set[str] = set()
    attributes: set[str] = set()
    for index, key in enumerate(keys):
        for node, parent in walk_with_parents(key, None):
            if isinstance(node, nodes.Name) and node.ctx == "load":
                read = describe_read(node, parent)
                if index == 0 or read == node.name:
                    whole.add(node.name)
                else:
                    attributes.add(read)
    return frozenset(whole), frozenset(attributes)


def describe_read(node: nodes.Name, parent: nodes.Node | None) -> str:
    """'page.root' for `page.root` or `page['root']`, else the bare name."""
    if isinstance(parent, nodes.Getattr) and parent.node is node:
        return f"{node.name}.{parent.attr}"
    if isinstance(parent, nodes.Getitem) and parent.node is node and isinstance(
            parent.arg, nodes.Const) and isinstance(parent.arg.value, str):
        return f"{node.name}.{parent.arg.value}"
    return node.name


def describe_keys(whole: frozenset[str], attributes: frozenset[str]) -> str:
    return ", ".join(sorted(whole | attributes)) or "nothing of the page"


def walk_reads(env: jinja2.Environment, body: list[nodes.Node],
               where: tuple[str | None, str | None], seen: set[str]
               ) -> Iterator[tuple[nodes.Name, nodes.Node | None, tuple[str | None, str | None]]]:
    """Each name `body` loads and does not set itself, with its parent node and the
    (template name, file name) it is in, through the templates it includes."""
    stored = {node.name for node in iter_nodes(body, nodes.Name) if node.ctx != "load"}
    stored |= {alias if isinstance(alias, str) else alias[-1]
               for imported in iter_nodes(body, nodes.FromImport) for alias in imported.names}
    stored |= {node.target for node in iter_nodes(body, nodes.Import)}
    for top in body:
        for node, parent in walk_with_parents(top, None):
            if isinstance(node, nodes.Name) and node.ctx == "load" and node.name not in stored:
                yield node, parent, where
            elif isinstance(node, nodes.Include):
                yield from walk_included(env, node, where, seen)


def walk_included(env: jinja2.Environment, include: nodes.Include,
                  where: tuple[str | None, str | None], seen: set[str]):
    """The reads of a template a fragment includes: it sees the fragment's context."""
    if not isinstance(include.template, nodes.Const):
        raise jinja2.TemplateSyntaxError(
            "a cached fragment can include only a template named in quotes: what a "
            "computed one reads cannot be known", include.lineno, *where)
    name = include.template.value
    if name in seen or env.loader is None:  # no loader: a string extractor's parse
        return
    seen.add(name)
    try:
        source, filename, _ = env.loader.get_source(env, name)
    except jinja2.TemplateNotFound:
        return  # the include itself reports it, at its own line, when rendered
    included = env.parse(source, name, filename)
    yield from walk_reads(env, included.body, (name, filename), seen)


def iter_nodes(body: list[nodes.Node], kind: type) -> Iterator:
    for top in body:
        if isinstance(top, kind):
            yield top
        yield from top.find_all(kind)


def walk_with_parents(node: nodes.Node, parent: nodes.Node | None
                      ) -> Iterator[tuple[nodes.Node, nodes.Node | None]]:
    yield node, parent
    if isinstance(node, (nodes.FromImport, nodes.Import)):
        return  # imported macros see no context (a macro defined here does)
    for child in node.iter_child_nodes():
        yield from walk_with_parents(child, node)
