"""The build cache's compiled templates (render.make_env)."""

from __future__ import annotations

import jinja2


class CompiledTemplates(jinja2.FileSystemBytecodeCache):
    """Jinja's cache of compiled templates, which a damaged file cannot break: one that
    cannot be read is compiled again, one that cannot be written is left out. Newly
    compiled templates are held until `write_held` (a build writes nothing to its cache
    before it knows the content is good)."""

    def __init__(self, directory: str) -> None:
        super().__init__(directory)
        self.held: list[jinja2.bccache.Bucket] = []

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except Exception:  # cut short or not Jinja's: Jinja lets some of these through
            bucket.reset()

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.held.append(bucket)

    def write_held(self) -> None:
        """Write the templates compiled so far into the folder, which must exist."""
        for bucket in self.held:
            try:
                super().dump_bytecode(bucket)
            except OSError:
                pass
        self.held.clear()
