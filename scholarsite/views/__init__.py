"""Views of the model for templates, and what machines read of a page: metadata,
citations, exports, feeds and the search index."""
