"""The site's structure: which pages exist, where each is written, and how pages link
to each other."""
