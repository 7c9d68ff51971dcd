"""The live preview: the server, watching the content, and rebuilding after a save."""
