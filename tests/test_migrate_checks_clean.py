"""A migrated site checks with exit 0 right after `migrate` (issue 45, class 9): a file
linked beside its text (a Hugo bundle's `assets/`) or by the old site's own address is
copied; a second arXiv link keeps its address; Markdown after a raw `<div>` stays Markdown,
as Hugo read it; ids that the page (or a list of texts) would have twice are taken out or
scoped; a link the new site cannot have (ftp:) is kept as text and named by migrate and by
check at its file and line. One fictional site of each kind, one migrate and one check."""

from __future__ import annotations

from pathlib import Path

from conftest import run_cli, write_files

PNG = b"\x89PNG\r\n\x1a\n" + bytes(64)
PDF = b"%PDF-1.4\n%%EOF\n"


def migrate_and_check(old: Path, tmp_path: Path):
    content = tmp_path / "content"
    moved = run_cli("migrate", str(old), "--content", str(content))
    assert moved.code == 0, moved.out + moved.err
    checked = run_cli("check", "--content", str(content), "--output", str(tmp_path / "site"))
    assert checked.code == 0, checked.out + checked.err
    return content, moved, checked


def test_a_migrated_hugo_site_checks_clean(tmp_path):
    old = write_files(tmp_path / "old", {
        "hugo.yaml": "title: Ann Lee\nbaseURL: https://ann.example.org/\n",
        "content/post/rules/assets/cells.svg": "<svg xmlns='http://www.w3.org/2000/svg'/>",
        "content/post/rules/assets/grid.png": PNG,
        "content/post/rules/index.md": """\
            ---
            title: New Rules
            date: 2022-05-01
            ---
            See [the summary](#summary) and ![a grid](assets/grid.png).

            <object data="assets/cells.svg" type="image/svg+xml"></object>

            ## Looping <span id="looping">again</span> {#looping}

            Old mirror: [report](ftp://ftp.example.org/report.pdf).

            <div style="padding:5px">

            ## Summary

            Short.

            </div>
            """,
        "content/publication/kelp/main.pdf": PDF,
        "content/publication/kelp/index.md": """\
            ---
            title: Kelp Counts
            date: 2021-03-01
            authors: [Ann Lee]
            publication: Marine Notes
            url_pdf: https://ann.example.org/publication/kelp/main.pdf
            url_preprint: https://arxiv.org/pdf/2406.02537v1
            url_slides: https://ann.example.org/files/kelp-talk.pptx
            links:
            - name: Abstract
              url: https://arxiv.org/abs/2406.02537
            ---
            <div id="inner">One.</div>
            """,
        "content/publication/reef/index.md": """\
            ---
            title: Reef Counts
            date: 2022-03-01
            authors: [Ann Lee]
            publication: Marine Notes
            ---
            <div id="inner">Two.</div> <div id="inner">Three.</div>
            """})
    content, moved, checked = migrate_and_check(old, tmp_path)
    assert "content/post/rules/index.md:11: link to 'ftp://ftp.example.org/report.pdf' " \
        "taken out, keeping its text" in moved.out
    said = checked.out + checked.err
    assert "posts/rules.md:12: warning: a link to 'ftp://ftp.example.org/report.pdf'" in said
    post = (content / "posts" / "rules.md").read_text(encoding="utf-8")
    assert 'markdown="1"' in post and "looping" in post
    kelp = (content / "publications" / "kelp.md").read_text(encoding="utf-8")
    assert "https://arxiv.org/abs/2406.02537" in kelp
    # slides on the old site's own address that it never had: dead there too, so kept as
    # a comment of the moved file (no link the build or check would refuse), and said
    assert "#   url_slides: https://ann.example.org/files/kelp-talk.pptx" in kelp
    assert "content/publication/kelp/index.md:8: 'https://ann.example.org/files/kelp-talk" \
        ".pptx' names a file the old site did not have" in moved.out
    assert "cite.bib" not in moved.out  # a bundle without one is no problem to report
    assert "content/publication/reef/index.md: the id 'inner' of its raw HTML taken out" \
        in moved.out


def test_a_migrated_al_folio_site_checks_clean(tmp_path):
    news = "---\nlayout: post\ndate: 2023-0{}-01\n---\n#### Abstract\n\nPaper {} is out.\n"
    old = write_files(tmp_path / "old", {
        "_config.yml": "title: Joe Liu\nurl: https://joe.example.org\nbaseurl:\n"
                       "first_name: Joe\nlast_name: Liu\n",
        "assets/pdf/tides.pdf": PDF,
        "files/CV 2025.pdf": PDF,
        "_bibliography/papers.bib": (
            "@article{liu2023tides,\n  title={Tides},\n  author={Liu, Joe},\n"
            "  journal={Sea},\n  year={2023},\n"
            "  url={https://joe.example.org/assets/pdf/tides.pdf},\n"
            "  pdf={https://joe.example.org/assets/pdf/tides.pdf}\n}\n"),
        "_pages/about.md": "---\nlayout: about\ntitle: about\npermalink: /\n---\n"
                           "My <a href=\"{{ '/files/CV 2025.pdf' | uri_escape | relative_url }}"
                           "\">CV</a>.\n",
        "_news/announcement_1.md": news.format(1, 1),
        "_news/announcement_2.md": news.format(2, 2),
        "_posts/2023-01-01-diary.md": "---\nlayout: post\ntitle: Diary\ndate: 2023-01-01\n"
                                      "---\n- [Transformer](#transformer)\n\n"
                                      "## Transformer<a name=\"transformer\"></a>\n\nText.\n"})
    content, moved, _ = migrate_and_check(old, tmp_path)
    bib = (content / "publications" / "papers.bib").read_text(encoding="utf-8")
    assert "url={files/tides.pdf}" in bib and "pdf={files/tides.pdf}" in bib
    assert (content / "files" / "CV 2025.pdf").is_file()
    assert "_posts/2023-01-01-diary.md: the id 'transformer'" in moved.out
