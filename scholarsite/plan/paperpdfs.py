"""Each paper's own PDF beside its page (`publications/<slug>/<name>.pdf`), where Google
Scholar looks for it (structure/kinds.pdf_beside_page): a copy of the file in
content/files/, which stays published where it was.

The papers are read here through the build's watched site, so what this reads of each
(its slug and links) is recorded, and an edit that moves a PDF is never left to a
touch-up that would not copy it (fastpath/touchup.py)."""

from __future__ import annotations

from pathlib import Path

from ..models import Site
from ..structure.kinds import pdf_beside_page
from ..structure.urls import FILES_DIR


def collect_paper_pdfs(site: Site) -> dict[str, Path]:
    """{path in the site beside a paper's page: the PDF in content/files/} for every
    paper whose PDF is one of the site's files, in the papers' order."""
    files = set(site.files)
    copies = {}
    for paper in site.papers:
        beside, rel = pdf_beside_page(paper)
        if beside and Path(rel) in files:
            copies[beside] = site.content_dir / FILES_DIR / rel
    return copies
