"""Reading content into the model: Markdown papers, BibTeX, collections, site.yaml,
the CV and the venue list, each checked with a `path:line` message for every problem."""
