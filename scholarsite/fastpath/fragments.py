"""Rendering a page for some of its parts: all of its text as the template yields it, or
the fragments of some papers alone (render.FragmentCache), from its context cut down to
their entries. Used by `serve`'s rebuilds (splice.py) and by builds (lists.py)."""

from __future__ import annotations

import jinja2

from ..views.entries import ENTRY, is_entry


def render_text(template: jinja2.Template, context: dict) -> list[str]:
    """What Template.render joins, as the pieces the template yields (errors are raised
    with the template's lines in their traceback, as by render)."""
    try:
        return list(template.root_render_func(template.new_context(context)))
    except Exception:
        template.environment.handle_exception()
        raise  # not reached: handle_exception raises


def reduce_context(value: object, keep: set[str]) -> object:
    """`value` with every list that holds paper entries cut to those named in `keep`."""
    if type(value) is dict:
        if ENTRY in value:
            return value
        return {k: reduce_context(v, keep) for k, v in value.items()}
    if type(value) is list:
        if any(map(is_entry, value)):  # is_entry written out: 5,000 entries a list
            return [item for item in value
                    if type(item) is not dict or ENTRY not in item or item[ENTRY] in keep]
        return [reduce_context(item, keep) for item in value]
    return value
