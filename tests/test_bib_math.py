"""Math in titles and abstracts, from BibTeX and from Markdown alike: MathML on the pages
that show the title (lists, the paper's page), readable Unicode wherever text is plain
(<title>, meta tags, JSON-LD, the feed, the search index, RIS, the sitemap); and a `note`
that holds the year never shows it twice. Built by the real command line."""

from __future__ import annotations

import json
import re

import pytest

from conftest import MINIMAL_CONFIG, build_args, paper, run_cli, soup, text_of, write_files

BIB = r"""@inproceedings{ada2021mf,
  title = {MF $\^{} 2$: Model Fusion for Sparse Data},
  author = {Example, Ada and Builder, Bob},
  booktitle = {Conference on Examples},
  year = {2021},
  abstract = {We sort in $O(n \log n)$ time.

  A second paragraph with \(\tilde{O}(n)\) and \& more.},
}

@inproceedings{wei2022pagerank,
  title = {Estimating Single-Node PageRank in
    \(\tilde\{O\}\left(\min\\{d_t, \sqrt\{m\}\\}\right)\) Time},
  author = {Wei, Zhewei and Example, Ada},
  booktitle = {Proceedings of the VLDB Endowment},
  year = {2022},
}

@article{ada2020cuckoo,
  title = {Cuckoo Search {$\equiv (\mu + \lambda$)}-Evolution Strategy},
  author = {Example, Ada},
  journal = {Journal of Tests},
  year = {2020},
}

@article{ada2019odd,
  title = {Sorting with $\weirdmacro x$ and \$2 million},
  author = {Example, Ada},
  journal = {Journal of Tests},
  year = {2019},
}
"""
MARKDOWN_TITLE = r"On $O(n \log n)$ sorting for $5 and $10"
PLAIN = {
    "ada2021mf": "MF ²: Model Fusion for Sparse Data",
    "wei2022pagerank": "Estimating Single-Node PageRank in Õ(min{dₜ, √(m)}) Time",
    "ada2020cuckoo": "Cuckoo Search ≡ (μ + λ)-Evolution Strategy",
    "ada2019odd": "Sorting with x and $2 million",
    "sorting-2023": "On O(n log n) sorting for $5 and $10",
}
TEX = {"ada2021mf": ["^2"], "wei2022pagerank": [r"\tilde{O}\left(\min\{d_t, \sqrt{m}\}\right)"],
       "ada2020cuckoo": [r"\equiv (\mu + \lambda"], "ada2019odd": [],
       "sorting-2023": [r"O(n \log n)"]}


@pytest.fixture(scope="module")
def math_site(tmp_path_factory):
    root = tmp_path_factory.mktemp("bibmath")
    content = write_files(root / "content", {
        "site.yaml": MINIMAL_CONFIG, "publications/papers.bib": BIB,
        "publications/sorting-2023.md": paper(MARKDOWN_TITLE, "2023-05")})
    result = run_cli(*build_args(content, None, "--no-cache"))
    assert result.code == 0, result.err
    return root / "site", result


def title_node(site, slug: str):
    return soup(site / "publications" / slug / "index.html").find("h1")


@pytest.mark.parametrize("slug", sorted(PLAIN))
def test_pages_show_the_title_with_its_math_as_mathml(math_site, slug):
    site, _ = math_site
    listed = soup(site / "publications" / "index.html").find("li", id=slug).find(
        "a", class_="paper-title")
    for node in (title_node(site, slug), listed):
        shown = [a.get_text() for a in node.find_all("annotation")]
        assert shown == TEX[slug]
        for math in node.find_all("math"):
            math.decompose()
        words = text_of(node)
        assert "\\" not in words and "$" not in words.replace("$2", "").replace("$5", "") \
            .replace("$10", "")


def test_markdown_and_bibtex_titles_read_math_alike(math_site):
    site, _ = math_site
    md = title_node(site, "sorting-2023")
    assert str(md.find("math")).startswith("<math><semantics><mrow><mi>O</mi>")
    assert text_of(md).endswith("sorting for $5 and $10")  # money is no math
    assert md.find("math").find("annotation").get_text() == r"O(n \log n)"


@pytest.mark.parametrize("slug", sorted(PLAIN))
def test_plain_text_forms_carry_readable_text(math_site, slug):
    site, _ = math_site
    page = soup(site / "publications" / slug / "index.html")
    assert page.find("title").get_text() == f"{PLAIN[slug]} | Ada Example"
    assert page.find("meta", attrs={"name": "citation_title"})["content"] == PLAIN[slug]
    assert page.find("meta", attrs={"property": "og:title"})["content"].startswith(PLAIN[slug])
    ld = [json.loads(s.string) for s in page.find_all("script", type="application/ld+json")]
    assert any(d.get("headline") == PLAIN[slug] for d in ld)
    feed = (site / "feed.xml").read_text(encoding="utf-8")
    assert f"<title>{PLAIN[slug]}</title>" in feed
    ris = (site / "publications.ris").read_text(encoding="utf-8")
    assert f"TI  - {PLAIN[slug]}\n" in ris
    index = soup(site / "search" / "index.html").find("script", id="search-index").string
    assert PLAIN[slug] in {entry.get("title") for entry in json.loads(index)}
    sitemap = soup(site / "sitemap" / "index.html")
    assert PLAIN[slug] in [text_of(a) for a in sitemap.find_all("a")]


def test_no_mathml_reaches_plain_text(math_site):
    site, _ = math_site
    for rel in ("feed.xml", "publications.ris", "publications.bib"):
        text = (site / rel).read_text(encoding="utf-8")
        assert "<math" not in text and "semantics" not in text, rel
    for slug in PLAIN:
        page = soup(site / "publications" / slug / "index.html")
        for meta in page.find_all("meta"):
            assert "<math" not in meta.get("content", "") and "\\" not in meta.get("content", "")


def test_the_bibtex_download_keeps_the_entry_as_written(math_site):
    site, _ = math_site
    bib = (site / "publications.bib").read_text(encoding="utf-8")
    # As written, less what classic BibTeX styles would lowercase: capitals braced.
    assert r"title = {{MF} $\^{} 2$: Model Fusion for Sparse Data}" in bib
    # The Markdown paper's: a formula with a capital braced (big-O is not little-o).
    assert r"title = {On {$O(n \log n)$} sorting for \$5 and \$10}" in bib


def test_abstract_math_is_mathml_and_its_description_unicode(math_site):
    site, _ = math_site
    page = soup(site / "publications" / "ada2021mf" / "index.html")
    abstract = page.find("section", class_="abstract") or page.find("div", class_="abstract")
    assert [a.get_text() for a in abstract.find_all("annotation")] == [r"O(n \log n)",
                                                                      r"\tilde{O}(n)"]
    assert len(abstract.find_all("p")) == 2
    description = page.find("meta", attrs={"name": "description"})["content"]
    assert description == "We sort in O(n log n) time. A second paragraph with Õ(n) and & more."


def test_math_that_cannot_be_converted_is_a_warning_at_its_line(math_site):
    _, result = math_site
    line = BIB[:BIB.index(r"Sorting with $\weirdmacro")].count("\n") + 1
    assert re.search(rf"papers\.bib:{line}: warning: entry 'ada2019odd': the math "
                     r"'\\weirdmacro x' cannot be converted to MathML \(unknown command "
                     r"\\weirdmacro\): it is shown as text", result.err), result.err
    assert result.err.count("cannot be converted") == 1


def test_a_markdown_title_with_bad_math_warns_at_the_title(make_site, tmp_path):
    content = make_site({"publications/a-paper.md": paper(r"Bad $\weirdmacro y$ math")})
    result = run_cli(*build_args(content, None, "--no-cache"))
    assert result.code == 0
    assert re.search(r"a-paper\.md:2: warning: the math '\\weirdmacro y' cannot be converted",
                     result.err), result.err
    assert "<h1>Bad y math</h1>" in (tmp_path / "site" / "publications" / "a-paper" /
                                     "index.html").read_text(encoding="utf-8")
    assert run_cli(*build_args(content, None, "--no-cache", "--strict")).code == 1


def test_the_built_site_passes_check(math_site):
    site, _ = math_site
    content = site.parent / "content"
    result = run_cli("check", "--content", str(content), "--no-cache")
    assert result.code == 0, result.out + result.err


# --- A note that holds the year ----------------------------------------------------

NOTES = r"""@article{lee2021gs,
  title = {Learning to Sort},
  author = {Lee, Kim and Example, Ada},
  journal = {Nature Communications},
  volume = {12},
  pages = {1--9},
  year = {2021},
  note = {2021},
}

@inproceedings{lee2021published,
  title = {Sorting in Public},
  author = {Example, Ada},
  booktitle = {Proceedings of the Conference on Examples},
  year = {2021},
  month = mar,
  note = {Published 2021},
}

@article{lee2022press,
  title = {Sorting Under Pressure},
  author = {Example, Ada},
  journal = {Journal of Tests},
  year = {2022},
  note = {In press (2022)},
}

@misc{lee2020march,
  title = {Sorting in March},
  author = {Example, Ada},
  howpublished = {Workshop on Examples},
  year = {2020},
  month = mar,
  note = {March 2020},
}

@article{lee2023accepted,
  title = {Sorting Accepted Early},
  author = {Example, Ada},
  journal = {Journal of Tests},
  year = {2023},
  note = {Accepted 2022, arXiv:2023.01234},
}
"""
CITED = {
    "lee2021gs": "Kim Lee, Ada Example. Learning to Sort. Nature Communications, Vol. 12, "
                 "pp. 1–9, 2021.",
    "lee2021published": "Ada Example. Sorting in Public. Proceedings of the Conference on "
                        "Examples, Published, March 2021.",
    "lee2022press": "Ada Example. Sorting Under Pressure. Journal of Tests, In press, 2022.",
    "lee2020march": "Ada Example. Sorting in March. Workshop on Examples, March 2020.",
    "lee2023accepted": "Ada Example. Sorting Accepted Early. Journal of Tests, Accepted 2022, "
                       "arXiv:2023.01234, 2023.",
}


@pytest.fixture(scope="module")
def notes_site(tmp_path_factory):
    root = tmp_path_factory.mktemp("notes")
    content = write_files(root / "content", {"site.yaml": MINIMAL_CONFIG,
                                             "publications/papers.bib": NOTES})
    result = run_cli(*build_args(content, None, "--no-cache"))
    assert result.code == 0, result.err
    return root / "site"


@pytest.mark.parametrize("slug", sorted(CITED))
def test_the_citation_never_shows_the_year_twice(notes_site, slug):
    page = soup(notes_site / "publications" / slug / "index.html")
    citation = text_of(page.find("p", class_="citation"))
    assert citation == CITED[slug]
    listed = soup(notes_site / "publications" / "index.html").find("li", id=slug)
    venue_line = text_of(listed.find("div", class_="paper-venue"))
    year = re.search(r"\d{4}(?=\.$)", CITED[slug]).group()
    # the year as a year: not inside an identifier such as arXiv:2023.01234
    assert len(re.findall(rf"(?<![\d.:/]){year}(?!\d|\.\d)", venue_line)) == 1, venue_line


def test_the_note_is_kept_whole_in_the_exports(notes_site):
    bib = (notes_site / "publications.bib").read_text(encoding="utf-8")
    ris = (notes_site / "publications.ris").read_text(encoding="utf-8")
    assert "note = {Published 2021}" in bib and "N1  - Published 2021" in ris


def test_pages_with_math_in_titles_are_valid_html(math_site):
    """The W3C Nu checker accepts MathML in a list's title links and in a heading."""
    from test_html_valid import check_html
    site, _ = math_site
    files = [site / "publications" / "index.html", site / "index.html",
             *(site / "publications" / slug / "index.html" for slug in sorted(PLAIN))]
    errors = check_html(files)
    assert not errors, "\n".join(m["message"] for m in errors)
