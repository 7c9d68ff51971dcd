"""`migrate` keeps a page of an al-folio site that lists a .bib file that is not its papers
(events, talks or press shown with jekyll-scholar, scholarsite/commands/migrate/biblist.py):
the page keeps its address and its own text, and lists the file's entries as the old page
showed them, through the real command line (issue 45: nothing the owner wrote is left)."""

from __future__ import annotations

from conftest import build_args, run_cli, soup, text_of, write_files

OLD_SITE = {
    "_config.yml": """\
        title: Ada Quill
        url: https://aquill.example.org
        scholar:
          last_name: [Quill]
          first_name: [Ada]
        """,
    "_bibliography/papers.bib": """\
        @article{quill2024sand, title = {Counting Sand}, author = {Quill, Ada},
          journal = {Journal of Grains}, year = {2024}}
        """,
    # al-folio's custom types, `author` a label, `details` with <br>, links of each kind.
    "_bibliography/details.bib": """\
        ---
        ---
        @lecture{quill2025mooc,
          abbr = {Open<br>Lecture},
          title = {Sand from Waste},
          author = {MOOC course},
          details = {Open Lectures<br><br>Two lectures on \\emph{grains}.<br>Online course.},
          year = {2025},
          preview = {chalkboard.svg},
          html = {https://mooc.example.org/sand}
        }
        @exhibition{quill2024fair,
          title = {Grain Fair 2024},
          author = {Exhibition participation},
          details = {Stand B12<br>Hall of Dunes, Milano},
          year = {2024},
          pdf = {flyer.pdf}
        }
        @oralpresentation{quill2024talk,
          title = {Talking Sand},
          author = {Oral presentation},
          note = {Keynote at the Dune Days},
          year = {2024},
          url = {https://dunedays.example.org/}
        }
        @certification{quill2023cert,
          title = {Certified Sandbox},
          author = {Project certification},
          year = {2023}
        }
        """,
    "_bibliography/outreach.bib": """\
        @misc{old2019, title = {School Visit}, author = {Outreach}, year = {2019}}
        @misc{new2022, title = {Radio Interview}, author = {Media}, year = {2022},
          howpublished = {Radio Sand}}
        """,
    "assets/pdf/flyer.pdf": b"%PDF-1.4\n% a fictional flyer\n",
    "_pages/publications.md": """\
        ---
        layout: page
        permalink: /publications/
        title: publications
        ---
        {% bibliography -f papers %}
        """,
    "_pages/eventsandmedia.md": """\
        ---
        layout: page
        permalink: /eventsandmedia/
        title: Events and media
        years: [2025, 2024]
        ---
        Events where the sand library was shown.

        <div class="publications">

        {%- for y in page.years %}
          <h2 class="year">{{y}}</h2>
          {% bibliography -f details -q @*[year={{y}}]* %}
        {% endfor %}

        </div>

        Stay tuned for more.
        """,
    "_bibliography/talks.bib": """\
        @misc{quill2023dunes, title = {Dunes at Dusk}, author = {Quill, Ada}, year = {2023},
          booktitle = {Sand Symposium}, slides = {https://slides.example.org/dunes}}
        """,
    # At an address the new site lists itself: the text of that list page.
    "_pages/talks.md": """\
        ---
        layout: page
        permalink: /talks/
        title: talks
        ---
        {% bibliography -f talks %}
        """,
    "_pages/outreach.md": """\
        ---
        layout: page
        permalink: /outreach/
        title: Outreach
        ---
        {% bibliography -f outreach %}
        """,
}


def test_a_page_listing_another_bib_file_keeps_every_entry(tmp_path):
    old = write_files(tmp_path / "old", OLD_SITE)
    content = tmp_path / "content"
    moved = run_cli("migrate", str(old), "--content", str(content), "--account")
    assert moved.code == 0, moved.out + moved.err
    built = run_cli(*build_args(content, tmp_path / "site"))
    assert built.code == 0, built.out + built.err
    page = soup(tmp_path / "site" / "eventsandmedia" / "index.html").find("main")
    text = text_of(page)
    # The page's own text stays around the list, which is by year, in the page's order.
    assert text.index("Events where the sand library was shown.") < text.index("2025") \
        < text.index("Sand from Waste") < text.index("2024") < text.index("Grain Fair 2024") \
        < text.index("Stay tuned for more.")
    # A year the page's `years` did not name yet is listed too, in its place, and named.
    assert [text_of(h) for h in page.find_all("h2")] == ["2025", "2024", "2023"]
    for shown in ("MOOC course", "Open Lectures", "Two lectures on", "Online course.",
                  "Exhibition participation", "Stand B12", "Hall of Dunes, Milano",
                  "Talking Sand", "Oral presentation", "Keynote at the Dune Days"):
        assert shown in text, shown
    assert page.find("em", string="grains") is not None
    hrefs = {a["href"] for a in page.find_all("a")}
    assert {"https://mooc.example.org/sand", "https://dunedays.example.org/"} <= hrefs
    assert any(h.endswith("files/flyer.pdf") for h in hrefs), hrefs
    assert (content / "files" / "flyer.pdf").is_file()
    assert text.index("2023") < text.index("Certified Sandbox")
    assert "_pages/eventsandmedia.md:11: quill2023cert: of 2023, which the page's `page.years` " \
           "did not name (so the old page did not show them), listed too" in moved.out
    # A tag without a loop: every entry, newest first; the papers stay papers.
    outreach = text_of(soup(tmp_path / "site" / "outreach" / "index.html").find("main"))
    assert outreach.index("Radio Interview") < outreach.index("School Visit")
    assert "Radio Sand" in outreach
    assert (tmp_path / "site" / "publications" / "quill2024sand" / "index.html").is_file()
    assert not (tmp_path / "site" / "publications" / "quill2025mooc").exists()
    talks = soup(tmp_path / "site" / "talks" / "index.html").find("main")
    assert "Dunes at Dusk" in text_of(talks) and "Sand Symposium" in text_of(talks)
    assert talks.find("a", href="https://slides.example.org/dunes") is not None
    assert "place: above" in (content / "pages" / "talks.md").read_text(encoding="utf-8")
    # The report and the accounting: the .bib files went into the pages.
    assert "not moved as papers" not in moved.out
    assert "_bibliography/details.bib: pages/eventsandmedia.md" in moved.out
    assert "_bibliography/outreach.bib: pages/outreach.md" in moved.out
    assert "the entries of _bibliography/details.bib it showed are written out as Markdown " \
           "in pages/eventsandmedia.md" in moved.out
