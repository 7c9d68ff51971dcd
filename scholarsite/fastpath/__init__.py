"""The speed code: what lets a build or a save in `serve` skip work (see
docs/architecture.md). Empty, so that importing one of its modules imports no other."""
