"""The commands beside build and serve: check, deploy and import-bib."""
