"""Papers' preview pictures, through the command line: resized by Pillow to the sizes the
pages claim (width, height and srcset), lazy-loaded in lists, with alt text; the same bytes on every
build and resized once (kept in .site.images/ by a hash of the picture); a broken preview an
error at its line in Markdown and a warning in BibTeX; valid HTML, no axe violation, and a
list that still reads on a phone."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from conftest import (MINIMAL_CONFIG, assert_same_as_cold_build, build_args, edit, paper,
                      run_cli, soup, start_live_site, tree_bytes, write_files)

BIB = """\
@inproceedings{{tall,
  title = {{A Tall Figure}},
  author = {{Example, Ada}},
  booktitle = {{Symposium on Examples}},
  year = {{2020}},
  preview = {{{preview}}},
}}
"""


def picture(size: tuple[int, int], fmt: str = "PNG", mode: str = "RGB", **save) -> bytes:
    """A picture with detail in it (a gradient and a band), as a figure has."""
    image = Image.new(mode, size)
    width, height = size
    image.putdata([((x * 255) // width, (y * 255) // height, 120, 200)[:len(mode)]
                   for y in range(height) for x in range(width)])
    for x in range(width // 3, width // 2):
        for y in range(height):
            image.putpixel((x, y), (250, 250, 250, 255)[:len(mode)])
    out = io.BytesIO()
    image.save(out, format=fmt, **save)
    return out.getvalue()


def site_files(md_preview: str = "preview: files/figs/wide.png\n",
               bib_preview: str = "tall.png") -> dict[str, str | bytes]:
    return {
        "site.yaml": MINIMAL_CONFIG,
        "publications/wide-paper.md": paper("A Wide Figure", extra=md_preview),
        "publications/plain.md": paper("No Picture", "2023-01"),
        "publications/refs.bib": BIB.format(preview=bib_preview),
        "files/figs/wide.png": picture((1200, 800)),
        # al-folio's folder, copied over: a bare name is looked up there first.
        "files/publication_preview/tall.png": picture((150, 300), mode="RGBA"),
    }


def build(content: Path, *extra: str):
    return run_cli(*build_args(content, None, *extra))


def built(make_site, files: dict | None = None) -> Path:
    content = make_site(files or site_files(), base=False)
    result = build(content)
    assert result.code == 0, result.err
    return content.parent / "site"


@pytest.fixture(scope="module")
def shared(tmp_path_factory) -> Path:
    """The site of site_files() built once, for the tests that only read it."""
    content = write_files(tmp_path_factory.mktemp("previews") / "content", site_files())
    result = build(content)
    assert result.code == 0, result.err
    return content.parent / "site"


def previews(page: Path) -> list:
    return soup(page).select("img.paper-preview, img.paper-figure")


def check_claims(site: Path, page: Path, img) -> None:
    """Every file the <img> names is in the site, as wide as srcset says, of the shape
    width and height give; src is the one of the size shown. Lazy in lists; on a paper's
    own page, near its top, it loads at once."""
    width, height = int(img["width"]), int(img["height"])
    candidates = [entry.strip().rsplit(" ", 1) for entry in img["srcset"].split(",")]
    assert img["src"] == candidates[0][0]
    for url, descriptor in candidates:
        path = (page.parent / url).resolve()
        assert path.is_relative_to(site.resolve()) and path.is_file(), url
        with Image.open(path) as image:
            assert image.format == "WEBP"
            assert f"{image.width}w" == descriptor
            assert abs(image.height - image.width * height / width) <= 1
            if url == img["src"]:
                assert image.size == (width, height)
    in_list = page.parent.name == "publications" or page.parent == site
    assert img.get("loading") == ("lazy" if in_list else None) and img["decoding"] == "async"
    assert img["sizes"]


def test_previews_are_resized_to_the_sizes_the_pages_claim(shared):
    site = shared
    listing = site / "publications" / "index.html"
    shown = previews(listing)
    assert len(shown) == 2  # the paper without one shows none
    for img in shown:
        check_claims(site, listing, img)
        assert img["alt"] == ""  # the title beside it names the paper
        assert img.find_next_sibling("a")["class"] == ["paper-title"]
    wide, tall = shown
    assert (wide["width"], wide["height"]) == ("160", "107")  # fitted to 160x120
    assert (tall["width"], tall["height"]) == ("60", "120")
    assert len(wide["srcset"].split(",")) == 2  # 1x and 2x
    page = site / "publications" / "wide-paper" / "index.html"
    [img] = previews(page)
    check_claims(site, page, img)
    assert (img["width"], img["height"], img["alt"]) == ("480", "320", "A Wide Figure")
    [own] = previews(site / "publications" / "tall" / "index.html")
    # Never enlarged: 150x300 fits the page's box as it is, and is written once.
    assert (own["width"], own["height"], own["srcset"].count(",")) == ("150", "300", 0)
    assert not previews(site / "publications" / "plain" / "index.html")
    assert len(previews(site / "index.html")) == 2  # the home page's list too


def test_og_image_is_the_picture_itself(shared):
    site = shared
    tag = soup(site / "publications" / "wide-paper" / "index.html").find(
        "meta", property="og:image")
    assert tag["content"] == "https://example.org/files/figs/wide.png"
    assert (site / "files" / "figs" / "wide.png").is_file()


def test_a_second_build_gives_the_same_bytes_and_resizes_nothing(make_site, tmp_path):
    content = make_site(site_files(), base=False)
    assert build(content).code == 0
    site, store = tmp_path / "site", tmp_path / ".site.images" / "previews"
    stored = {p: p.stat().st_mtime_ns for p in sorted(store.rglob("*.webp"))}
    assert len(stored) == 7  # 160, 320, 480, 960 wide; 60, 120, 150 for the tall one
    first = tree_bytes(site)
    assert build(content).code == 0
    assert tree_bytes(site) == first
    assert {p: p.stat().st_mtime_ns for p in sorted(store.rglob("*.webp"))} == stored
    # Made again from nothing, in another folder: the same bytes, so nothing is random.
    other = tmp_path / "other"
    assert run_cli(*build_args(content, other, "--no-cache")).code == 0
    assert tree_bytes(other) == first


def test_a_changed_picture_is_resized_again_and_the_old_files_go(make_site, tmp_path):
    content = make_site(site_files(), base=False)
    assert build(content).code == 0
    store = tmp_path / ".site.images" / "previews"
    before = {p.name for p in store.iterdir() if p.is_dir()}
    (content / "files" / "figs" / "wide.png").write_bytes(picture((640, 640), fmt="JPEG"))
    assert build(content).code == 0
    after = {p.name for p in store.iterdir() if p.is_dir()}
    assert len(after) == 2 and len(before & after) == 1  # the tall one's set is kept
    site = tmp_path / "site"
    [img] = previews(site / "publications" / "wide-paper" / "index.html")
    assert (img["width"], img["height"]) == ("360", "360")
    check_claims(site, site / "publications" / "wide-paper" / "index.html", img)
    names = {p.name.split("-")[0] for p in (site / "assets" / "previews").iterdir()}
    assert names == after


def test_check_starts_from_the_built_store_and_never_writes_into_it(make_site, tmp_path):
    """`check` builds into a temporary folder from a copy of the output folder's store:
    with one picture changed since the build (its stored set no longer used, which a
    build would remove), check passes and the store is as the build left it."""
    content = make_site(site_files(), base=False)
    assert build(content).code == 0
    store = tmp_path / ".site.images"
    before = {p: (p.stat().st_mtime_ns, p.read_bytes()) for p in sorted(store.rglob("*"))
              if p.is_file()}
    (content / "files" / "figs" / "wide.png").write_bytes(picture((640, 640), fmt="JPEG"))
    checked = run_cli("check", "--content", str(content), "--output", str(tmp_path / "site"))
    assert checked.code == 0, checked.err
    assert {p: (p.stat().st_mtime_ns, p.read_bytes()) for p in sorted(store.rglob("*"))
            if p.is_file()} == before
    assert not any(p.name.startswith(".tmp-") for p in store.rglob("*"))


def test_exif_orientation_is_applied(make_site):
    """A phone's photo stored on its side is shown upright, and measured so."""
    exif = Image.Exif()
    exif[0x0112] = 6  # rotate 90° clockwise to show
    files = site_files()
    files["files/figs/wide.png"] = picture((400, 200), fmt="JPEG", exif=exif.tobytes())
    site = built(make_site, files)
    page = site / "publications" / "wide-paper" / "index.html"
    [img] = previews(page)
    assert (img["width"], img["height"]) == ("180", "360")
    check_claims(site, page, img)


TRUNCATED = picture((300, 200))[:400]


@pytest.mark.parametrize("line, files, message", [
    ("preview: files/figs/missing.png\n", {},
     "names 'files/figs/missing.png', which is not a file in"),
    ("preview: files/notes.png\n", {"files/notes.png": "not a picture"},
     "is not a picture Pillow can read"),
    ("preview: files/cut.png\n", {"files/cut.png": TRUNCATED}, "cannot be read as a picture"),
    ("preview: https://example.org/x.png\n", {}, "is a web address"),
    ("preview: ../site.yaml\n", {}, "names no file in content/files/"),
    ("extra:\n  preview: gone.png\n", {}, "names 'files/gone.png', which is not a file"),
])
def test_a_broken_preview_is_an_error_at_its_line_in_markdown(make_site, line, files,
                                                              message):
    content = make_site({**site_files(md_preview=line), **files}, base=False)
    result = build(content)
    assert result.code == 1
    at = 7 if line.startswith("preview") else 8  # after ---, title, authors, venue, short, date
    expected = f"publications/wide-paper.md:{at}: error: 'preview' "
    [error] = [e for e in result.err.splitlines() if ": error: " in e]
    assert expected in error and message in error, result.err


@pytest.mark.parametrize("name, message", [
    ("nowhere.png", "which is not a file in"),
    ("notes.png", "is not a picture Pillow can read"),
    ("http://example.org/x.png", "is a web address"),
])
def test_a_broken_preview_in_bibtex_is_a_warning_and_left_out(make_site, name, message):
    files = {**site_files(bib_preview=name), "files/notes.png": "not a picture"}
    content = make_site(files, base=False)
    result = build(content)
    assert result.code == 0, result.err
    [warning] = [w for w in result.err.splitlines() if ": warning: " in w]
    assert "publications/refs.bib:6: warning: " in warning and message in warning
    assert "left out" in warning
    site = content.parent / "site"
    assert not previews(site / "publications" / "tall" / "index.html")
    assert len(previews(site / "publications" / "index.html")) == 1
    tag = soup(site / "publications" / "tall" / "index.html").find("meta", property="og:image")
    assert tag["content"] == "https://example.org/assets/preview.png"
    assert build(content, "--strict").code == 1


def test_a_paper_imported_from_bibtex_is_as_lenient_as_bibtex(make_site):
    """import-bib keeps al-folio's field under `extra`: a picture that is not there is a
    warning, as it is in the .bib file the paper came from."""
    imported = "bibtex_type: inproceedings\nextra:\n  preview: gone.png\n"
    content = make_site(site_files(md_preview=imported), base=False)
    result = build(content)
    assert result.code == 0, result.err
    assert ("publications/wide-paper.md:9: warning: 'preview' names 'files/gone.png'"
            in result.err)
    assert not previews(content.parent / "site" / "publications" / "wide-paper" / "index.html")




def test_serve_rebuilds_a_paper_whose_preview_changes(tmp_path):
    """serve's rebuild after the picture's name changes in the paper, and after the picture
    file itself changes, is what a cold build makes."""
    files = site_files()
    files["files/figs/other.png"] = picture((300, 300))
    live = start_live_site(tmp_path, files)
    paper_file = live.options.content_dir / "publications" / "wide-paper.md"
    outcome = live.build([edit(paper_file, "figs/wide.png", "figs/other.png")])
    assert outcome.ok, outcome.errors
    assert_same_as_cold_build(live)


@pytest.mark.full(only=True)  # the Nu sweep of every shipped site runs in the quick run
def test_pages_with_previews_are_valid_html(shared):
    import test_html_valid as nu

    site = shared
    pages = [site / "publications" / "index.html", site / "index.html",
             site / "publications" / "wide-paper" / "index.html"]
    errors = nu.check_html(pages)
    assert not errors, [(m.get("url"), m.get("lastLine"), m["message"]) for m in errors]


@pytest.mark.parametrize("width", [320, pytest.param(375, marks=pytest.mark.full(only=True)),
                                   pytest.param(1280, marks=pytest.mark.full(only=True))])
def test_lists_with_previews_read_well_and_pass_axe(shared, browser, width):
    from browser import AXE_JS, open_page, require, serve
    from test_a11y import violations_on

    require(AXE_JS.is_file(), "axe-core is not installed (npm ci --prefix tests)")
    site = shared
    with serve(site) as base, open_page(browser, "light", {"width": width, "height": 800}) as page:
        for path in ("publications/", "publications/wide-paper/"):
            page.goto(base + path)
            # The box each picture takes before it loads is the one it has after.
            boxes = page.evaluate("""() => [...document.querySelectorAll(
                'img.paper-preview, img.paper-figure')]
                .map(i => { const r = i.getBoundingClientRect();
                            return [r.width, r.height, i.width / i.height,
                                    +i.getAttribute('width') / +i.getAttribute('height')]; })""")
            assert boxes
            for shown_w, shown_h, _, claimed in boxes:
                assert shown_w > 0 and abs(shown_w / shown_h - claimed) < 0.02
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            assert violations_on(page, base + path) == []


def test_serve_after_the_picture_itself_changes(tmp_path):
    live = start_live_site(tmp_path, site_files())
    picture_file = live.options.content_dir / "files" / "figs" / "wide.png"
    picture_file.write_bytes(picture((640, 640), fmt="JPEG"))
    outcome = live.build([picture_file])
    assert outcome.ok, outcome.errors
    assert_same_as_cold_build(live)
