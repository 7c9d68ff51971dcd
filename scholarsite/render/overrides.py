"""A site's own template that fills a block no template it extends has.

Jinja renders a child template's blocks only where a parent has a block of that name;
any other (`{% block content %}` over a theme whose block is `main`) is dropped without a
word, and the page shows the theme's own text. Each such block is an error at its line,
naming the blocks the parents have.
"""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Iterator

import jinja2
from jinja2 import nodes

from .layers import list_template_names

MAX_PARENTS = 20  # a chain of extends longer than this is a loop, reported by Jinja


def parse_template(env: jinja2.Environment, name: str) -> nodes.Template | None:
    """The template's syntax tree, or None (not found, not UTF-8, or a syntax error: each
    is reported where the page renders)."""
    try:
        source, _, _ = env.loader.get_source(env, name)
        return env.parse(source, name)
    except (jinja2.TemplateError, UnicodeDecodeError, OSError):
        return None


def find_parent(tree: nodes.Template) -> str | None:
    """The name a template extends, when it is written as a string."""
    found = next(iter(tree.find_all(nodes.Extends)), None)
    if found is not None and isinstance(found.template, nodes.Const) \
            and isinstance(found.template.value, str):
        return found.template.value
    return None


def list_top_blocks(tree: nodes.Template) -> Iterator[nodes.Block]:
    """The blocks not inside another block: in a template that extends, the ones that
    fill its parents' blocks (a block inside them is new, for templates extending it)."""
    pending = list(tree.body)
    while pending:
        node = pending.pop(0)
        if isinstance(node, nodes.Block):
            yield node
        else:
            pending[:0] = list(node.iter_child_nodes())


def list_parent_blocks(env: jinja2.Environment, parent: str) -> tuple[list[str], set[str]]:
    """The chain of templates `parent` starts, and every block any of them has; None in
    the chain's place means it could not be followed to its end."""
    chain, blocks = [], set()
    name: str | None = parent
    while name is not None and len(chain) < MAX_PARENTS:
        tree = parse_template(env, name)
        if tree is None:
            return [], set()
        chain.append(name)
        blocks.update(block.name for block in tree.find_all(nodes.Block))
        name = find_parent(tree)
    return chain, blocks


def find_unknown_blocks(env: jinja2.Environment, site_dir: Path
                        ) -> list[tuple[Path, int, str]]:
    """(path, line, message) for each block of the site's own templates that no template
    it extends has."""
    problems = []
    for name in list_template_names(site_dir):
        tree = parse_template(env, name)
        parent = find_parent(tree) if tree is not None else None
        if parent is None:
            continue
        chain, known = list_parent_blocks(env, parent)
        if not chain:
            continue
        for block in list_top_blocks(tree):
            if block.name in known:
                continue
            close = difflib.get_close_matches(block.name, sorted(known), n=1)
            hint = f"did you mean '{close[0]}'? " if close else ""
            problems.append((site_dir / name, block.lineno, (
                f"block '{block.name}' fills nothing: {' and '.join(repr(c) for c in chain)} "
                f"{'has' if len(chain) == 1 else 'have'} no block of that name, so it would "
                f"not be shown; {hint}the blocks are {', '.join(sorted(known))} "
                "(docs/templates.md)")))
    return problems
