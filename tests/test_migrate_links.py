"""`migrate` keeps the old site's links and files (issue 33, classes 5, 10 and the link
fields of 15), through the real command line on small old sites written here: every link
a paper's old page showed reaches the new paper page, files are copied, and the moved site
passes `check`."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote

from conftest import run_cli, soup, write_files

PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"
ALFOLIO_CONFIG = ("title: Ada Quill\nfirst_name: Ada\nlast_name: Quill\n"
                  "url: https://aq.example.org\n")


def move(old: Path, root: Path) -> tuple[Path, Path, str]:
    """migrate, build and check `old`, each asserted to exit 0; (content, site, report)."""
    content, site = root / "content", root / "site"
    moved = run_cli("migrate", str(old), "--content", str(content))
    assert moved.code == 0, moved.out + moved.err
    built = run_cli("build", "--content", str(content), "--output", str(site))
    assert built.code == 0, built.out + built.err
    checked = run_cli("check", "--content", str(content), "--output", str(site))
    assert checked.code == 0, checked.out + checked.err
    return content, site, moved.out


def paper_links(site: Path, slug: str) -> dict[str, str]:
    """{href: label} of a built paper page's link chips."""
    page = soup(site / "publications" / slug / "index.html")
    return {a["href"]: a.get_text(strip=True) for a in page.select(".paper-links a.chip")}


def reaches_file(site: Path, slug: str, href: str) -> bytes:
    return (site / "publications" / slug / href).resolve().read_bytes()


# --- al-folio: the link fields its bib layout shows ------------------------------------


def entry(key: str, *fields: str) -> str:
    lines = [f"  title = {{Paper {key}}},", "  author = {Quill, Ada and Roe, Bo},",
             "  journal = {J. Tests},", "  year = {2023},", *[f"  {f}," for f in fields]]
    return f"@article{{{key},\n" + "\n".join(lines) + "\n}\n"


def test_the_link_fields_of_the_sites_own_bib_layout_are_kept(tmp_path):
    layout = """\
        ---
        ---
        <div class="links">
        {% if entry.paper %}
          {% if entry.paper contains '://' %}
          <a href="{{ entry.paper }}" class="btn">Paper</a>
          {% else %}
          <a href="{{ entry.paper | prepend: '/assets/paper/' | relative_url }}">Paper</a>
          {% endif %}
        {% endif %}
        {% if entry.colab %}<a href="{{ entry.colab }}" class="btn">Colab</a>{% endif %}
        {% if entry.code %}<a href="{{ entry.code }}" class="btn">Code</a>{% endif %}
        <!-- {% if entry.biburl %}<a href="{{ entry.biburl }}">dblp</a>{% endif %} -->
        </div>
        """
    old = write_files(tmp_path / "old", {
        "_config.yml": ALFOLIO_CONFIG, "_layouts/bib.liquid": layout,
        "_bibliography/papers.bib": entry(
            "local", "paper = {quill23.pdf}", "code = {https://github.com/aq/local}",
            "colab = {https://colab.research.google.com/drive/1}",
            "biburl = {https://dblp.org/rec/x.bib}") +
        entry("web", "paper = {https://arxiv.org/pdf/2301.00001}")})
    write_files(old, {"assets/paper/quill23.pdf": PDF})
    _, site, report = move(old, tmp_path / "new")
    local = paper_links(site, "local")
    assert "https://github.com/aq/local" in local
    assert "https://colab.research.google.com/drive/1" in local
    assert not any("dblp.org" in href for href in local)  # the layout shows no biburl
    pdf = next(href for href, label in local.items() if label == "PDF")
    assert reaches_file(site, "local", pdf) == PDF
    assert any("arxiv.org" in href for href in paper_links(site, "web"))
    assert "'paper' (a link on the old page) renamed 'pdf'" in report


def test_link_fields_are_kept_without_the_layout_and_pdfs_found_in_subfolders(tmp_path):
    old = write_files(tmp_path / "old", {
        "_config.yml": ALFOLIO_CONFIG,
        "_bibliography/papers.bib": entry(
            "a", "doi = {10.1000/a}", "pdfurl = {https://journal.example.org/a.pdf}",
            "blog = {https://aq.example.org/blog/a}", "biburl = {https://dblp.org/rec/a.bib}")
        + entry("b", "pdf = {b.pdf}")})
    write_files(old, {"assets/pdf/publications/b.pdf": PDF})
    _, site, _ = move(old, tmp_path / "new")
    links = paper_links(site, "a")
    assert {"https://journal.example.org/a.pdf", "https://aq.example.org/blog/a",
            "https://doi.org/10.1000/a"} <= set(links)
    assert not any("dblp.org" in href for href in links)
    pdf = next(href for href, label in paper_links(site, "b").items() if label == "PDF")
    assert reaches_file(site, "b", pdf) == PDF



def test_a_presentation_field_without_the_layout_is_kept_as_slides(tmp_path):
    """A field of the owner's own naming (`presentation`), holding an address or a file's
    name that the old site keeps under assets/, is a link the old page showed."""
    old = write_files(tmp_path / "old", {
        "_config.yml": ALFOLIO_CONFIG,
        "_bibliography/papers.bib": entry("a", "presentation = {./a_poster.pdf}")
        + entry("b", "presentation ={https://osf.io/ybdup}")})
    write_files(old, {"assets/pdf/a_poster.pdf": PDF})
    _, site, _ = move(old, tmp_path / "new")
    poster = next(href for href in paper_links(site, "a") if href.endswith("a_poster.pdf"))
    assert reaches_file(site, "a", poster) == PDF
    assert "https://osf.io/ybdup" in paper_links(site, "b")

# --- academicpages: links to the old site's own address ---------------------------------


def ap_paper(title: str, paperurl: str) -> str:
    return (f"---\ntitle: \"{title}\"\ncollection: publications\ndate: 2020-01-01\n"
            f"venue: \"J. Tests\"\npaperurl: '{paperurl}'\n"
            "citation: 'Quill, A. (2020). Paper. J. Tests.'\n---\nAbstract.\n")


def test_a_full_address_on_the_old_host_without_its_file_is_kept_when_the_new_site_leaves_it(
        tmp_path):
    """`https://aq.github.io/papers/x.pdf` whose file the checkout lacks (files kept outside
    the repository, or another site on that host) stays a link; one under files/, which
    the new site publishes, would break there: left out, and named."""
    old = write_files(tmp_path / "old", {
        "_config.yml": "title: Ada Quill\nurl: https://aq.github.io\nauthor:\n  name: Ada Quill\n",
        "_publications/2020-01-01-kept.md": ap_paper("Kept", "https://aq.github.io/papers/k.pdf"),
        "_publications/2020-01-01-copied.md": ap_paper("Copied",
                                                       "http://aq.github.io/files/c.pdf"),
        "_publications/2020-01-01-gone.md": ap_paper("Gone", "http://aq.github.io/files/g.pdf")})
    write_files(old, {"files/c.pdf": PDF})
    _, site, report = move(old, tmp_path / "new")
    assert "https://aq.github.io/papers/k.pdf" in paper_links(site, "kept")
    [copied] = paper_links(site, "copied")
    assert reaches_file(site, "copied", copied) == PDF
    assert paper_links(site, "gone") == {}
    assert "names files/g.pdf, which is not in the old site; left out" in report
    assert "'https://aq.github.io/papers/k.pdf' is on the old site's address" in report


# --- Hugo: DOIs, files and links --------------------------------------------------------


def hugo_paper(extra: str) -> str:
    return ("---\ntitle: \"Paper\"\nauthors: [\"Ada Quill\"]\ndate: 2021-01-01\n"
            f"publication: \"J. Tests\"\npublication_types: [\"2\"]\n{extra}---\n")


def test_hugo_links_keep_their_files_and_only_the_papers_doi_is_its_doi(tmp_path):
    old = write_files(tmp_path / "old", {
        "config.toml": "title = \"Ada Quill\"\nbaseurl = \"https://aq.example.org/\"\n",
        "content/publication/bundle/index.md": hugo_paper(
            "url_pdf: \"papers3://publication/uuid/5048E748\"\n"
            "links:\n- name: DOI\n  url: https://dl.acm.org/doi/proceedings/10.1145/3549035\n"
            "- name: DL\n  url: https://dl.acm.org/citation.cfm?id=1\n"
            "- name: Publisher\n  url: https://publisher.example.org/1\n"),
        "content/publication/flat.md": hugo_paper(
            "doi: \"10.1000/flat\"\nurl_slides: \"/flat-slides.pdf\"\n"
            "url_poster: \"/./posters/Flat%20poster.pdf\"\n")})
    write_files(old, {"content/publication/preprinted/index.md": hugo_paper(
        "links:\n- name: Preprint\n  url: 'https://doi.org/10.1101/2020.1'\n"),
        "content/publication/preprinted/cite.bib": "@article{p, title={Paper}, author={Quill,"
        " Ada}, year={2020}, doi={10.1101/2020.1}}\n"})
    write_files(old, {"content/publication/bundle/bundle.pdf": PDF,
                      "static/publication/flat-slides.pdf": PDF,
                      "static/posters/Flat poster.pdf": PDF + b"poster"})
    _, site, report = move(old, tmp_path / "new")
    page = soup(site / "publications" / "bundle" / "index.html")
    assert "DOI" not in [dt.get_text(strip=True) for dt in page.select(".paper-facts dt")]
    bundle = paper_links(site, "bundle")
    assert {"https://dl.acm.org/doi/proceedings/10.1145/3549035",
            "https://dl.acm.org/citation.cfm?id=1"} <= set(bundle)
    assert reaches_file(site, "bundle", next(h for h, label in bundle.items()
                                             if label == "PDF")) == PDF
    assert not any("papers3" in href for href in bundle)
    assert "'papers3://publication/uuid/5048E748' is no web address" in report
    assert bundle["https://publisher.example.org/1"] == "Publisher"  # its kind taken: its name
    # cite.bib is the preprint's, which a link names: its DOI is not the paper's.
    preprinted = soup(site / "publications" / "preprinted" / "index.html")
    assert "DOI" not in [dt.get_text(strip=True) for dt in preprinted.select(".paper-facts dt")]
    assert "https://doi.org/10.1101/2020.1" in paper_links(site, "preprinted")
    flat = {label: href for href, label in paper_links(site, "flat").items()}
    assert reaches_file(site, "flat", flat["Slides"]) == PDF
    assert reaches_file(site, "flat", flat["Poster"]) == PDF + b"poster"


# --- raw HTML in moved text: works on every page that shows it --------------------------

PNG = (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00"
       b"\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N"
       b"\x00\x00\x00\x00IEND\xaeB`\x82")


def test_raw_html_pictures_in_an_abstract_work_on_the_list_and_the_papers_page(tmp_path):
    """`<img src="/images/x.png">` and `<video>` in an abstract: the file copied, and the
    address right on the paper's page and on the publication list, at other depths."""
    abstract = ('Results.\n\n<img src="/images/fig.png" alt="Figure">\n\n'
                '<video src="/images/clip.mp4" poster="/images/fig.png" controls></video>\n')
    old = write_files(tmp_path / "old", {
        "_config.yml": "title: Ada Quill\nurl: https://aq.github.io\nauthor:\n  name: Ada Quill\n",
        "_publications/2020-01-01-fig.md": ap_paper("Fig", "https://x.example.org/f.pdf")
        .replace("Abstract.\n", abstract)})
    write_files(old, {"images/fig.png": PNG, "images/clip.mp4": b"\x00\x00\x00\x18ftypmp42"})
    _, site, _ = move(old, tmp_path / "new")  # check: no missing asset on any page
    for rel in ("publications/fig/index.html", "publications/index.html"):
        page = soup(site / rel)
        img = page.select_one('.abstract img[alt="Figure"]')
        assert (site / rel).parent.joinpath(img["src"]).resolve().read_bytes() == PNG, rel
        video = page.select_one(".abstract video")
        assert (site / rel).parent.joinpath(video["src"]).resolve().is_file(), rel
        assert (site / rel).parent.joinpath(video["poster"]).resolve().read_bytes() == PNG


def test_markdown_links_with_spaces_in_their_address_are_moved(tmp_path):
    """`[1](/files/class 1.pdf)`, which Python-Markdown takes as written: the file copied
    and linked; a file the old site lacks taken out, its text kept."""
    abstract = "Slides: [one](/files/class 1.pdf), [two](/files/class%202.pdf), " \
               "[gone](/files/no such.zip).\n"
    old = write_files(tmp_path / "old", {
        "_config.yml": "title: Ada Quill\nurl: https://aq.github.io\nauthor:\n  name: Ada Quill\n",
        "_publications/2020-01-01-sp.md": ap_paper("Sp", "https://x.example.org/f.pdf")
        .replace("Abstract.\n", abstract)})
    write_files(old, {"files/class 1.pdf": PDF, "files/class 2.pdf": PDF + b"2"})
    _, site, report = move(old, tmp_path / "new")
    page = site / "publications" / "sp" / "index.html"
    links = {a.get_text(): a.get("href") for a in soup(page).select(".abstract a")}
    assert page.parent.joinpath(unquote(links["one"])).resolve().read_bytes() == PDF
    assert page.parent.joinpath(unquote(links["two"])).resolve().read_bytes() == PDF + b"2"
    assert "gone" not in links and "gone" in soup(page).select_one(".abstract").get_text()
    assert "link to '/files/no such.zip' taken out" in report


# --- links dead on the old site: text the new site names, never a failed check ----------


def test_links_that_lead_nowhere_are_kept_as_text_and_named_by_migrate_and_check(tmp_path):
    """A Hugo site whose texts link to pages and pictures that do not exist, in every way
    Markdown and HTML write a link (inline, reference, autolink, unquoted or srcset in raw
    HTML, an anchor of the old home page's widgets): the moved site checks with exit 0, no
    page links to them, and migrate and check both name each at its file and line as a
    warning (issue 45, class 9)."""
    old = write_files(tmp_path / "old", {
        "config.toml": "title = \"Ada Quill\"\nbaseurl = \"https://aq.example.org/\"\n",
        "content/authors/admin/_index.md": "---\ntitle: Ada Quill\n---\n"
                                           "I keep [old notes](/notes/old/).\n",
        "content/post/note/index.md": """\
            ---
            title: A note
            date: 2022-01-01
            ---
            See [contact](/#contact) and [the reference][gone] and [shortcut].

            <a href=/nowhere/>unquoted</a> <img srcset="/img/none-2x.png 2x" alt="x">

            Also <https://aq.example.org/post/never/> and ![a picture](/img/missing.png).

            [gone]: /dead/ref/
            [shortcut]: /post/nope/
            """})
    content, site = tmp_path / "new" / "content", tmp_path / "new" / "site"
    moved = run_cli("migrate", str(old), "--content", str(content), "--from", "hugo-blox")
    assert moved.code == 0, moved.out + moved.err
    assert run_cli("build", "--content", str(content), "--output", str(site)).code == 0
    checked = run_cli("check", "--content", str(content), "--output", str(site))
    assert checked.code == 0, checked.out + checked.err
    report = moved.out.split("Next:")[0]
    # Each at (its line in the moved file, in the old one: a reference's is its address's).
    dead = {"/dead/ref/": (6, 11), "/post/nope/": (6, 12), "/nowhere/": (8, 7),
            "/img/none-2x.png 2x": (8, 7), "https://aq.example.org/post/never/": (10, 9),
            "/img/missing.png": (10, 9)}
    for target, (line, old_line) in dead.items():
        assert f"content/post/note/index.md:{old_line}: link to '{target.split()[0]}" \
            in report, target
        assert f"posts/note.md:{line}: warning: a link to '{target}', which led nowhere" \
            in checked.err, target
    assert "content/authors/admin/_index.md:4: link to '/notes/old/' taken out" in report
    assert "index.md:1: warning: a link to '/notes/old/'" in checked.err
    page = soup(site / "posts" / "note" / "index.html")
    hrefs = [a.get("href") for a in page.select("main a")] + \
        [i.get("src") for i in page.select("main img")]
    assert not any(h and ("nope" in h or "dead" in h or "never" in h or "nowhere" in h
                          or "missing" in h or "contact" in h) for h in hrefs), hrefs
    assert "the reference" in page.get_text() and "unquoted" in page.get_text()
    assert "link to '#contact' leads to the home page without '#contact'" in report
