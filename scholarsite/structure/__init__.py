"""The site's structure: the kinds of page it has and where each is written (kinds.py),
and how pages link to each other (urls.py)."""
