"""scholarsite: a static-site generator for academic homepages."""

__version__ = "0.1.0"
