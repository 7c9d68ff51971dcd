"""`migrate OLD_SITE`: a checkout of an academicpages, al-folio or Hugo Blox site becomes a
scholarsite content folder.

Each kind of site has a reader (academicpages.py, alfolio.py, hugoblox.py) that adds what it
finds to one Migration (model.py): files to write, old addresses to redirect, notes for the
report. Nothing is written until every reader is done; then write.py writes the files the
content folder lacks (an existing file is kept without --force) and report.py says what was
moved, what needs a person's look and what was left behind. The old site is only read.
"""
