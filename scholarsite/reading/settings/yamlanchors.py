"""YAML whose anchors are given more than once, read as the YAML specification says.

YAML 1.2 (section 3.2.2.2) lets a document give an anchor again: an alias means the most
recent node with that anchor. Ruby's Psych (which reads every Jekyll site's _config.yml)
and libyaml's emitter follow it; PyYAML refuses the document ("found duplicate anchor").
Real _config.yml files carry `&description` twice, once per language, and a reader that
refuses them loses the whole file: the owner, the address, everything."""

from __future__ import annotations

import yaml


class _LatestAnchor(yaml.SafeLoader):
    """PyYAML's composer, letting a later anchor replace an earlier one of that name."""

    def compose_node(self, parent, index):
        event = self.peek_event()
        if not isinstance(event, yaml.AliasEvent) and event.anchor is not None:
            self.anchors.pop(event.anchor, None)
        return super().compose_node(parent, index)


def compose_document(loader: yaml.BaseLoader, text: str) -> yaml.Node | None:
    """The document's node graph, composed by `loader` (the fast reader); a document that
    gives an anchor twice is composed again by a reader that takes the latest."""
    try:
        return loader.get_single_node()
    except yaml.composer.ComposerError as exc:
        if "duplicate anchor" not in (exc.problem or "") + (exc.context or ""):
            raise
    again = _LatestAnchor(text)
    try:
        return again.get_single_node()
    finally:
        again.dispose()
