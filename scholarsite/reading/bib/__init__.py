"""Reading BibTeX: .bib files parsed, each entry a `Paper`, LaTeX in fields turned into
text, names, links and venues read, papers given twice told apart."""
