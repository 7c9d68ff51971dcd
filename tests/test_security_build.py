"""Hostile or unlucky input to `build`, through the command line (issue 32): what the
output folder's manifest may list, which old addresses a redirect may take, what is no text
wherever it comes from, pictures that would eat the memory, and what a published picture
says about where it was taken."""

from __future__ import annotations

import io
import json
import re
import struct
import xml.dom.minidom
import zlib

import pytest

from conftest import MINIMAL_CONFIG, MINIMAL_PAPER, build_args, paper, run_cli, tree_bytes

MANIFEST = ".scholarsite-manifest"


# --- The manifest: no file name can make it list another ----------------------------------

def test_a_redirect_with_a_line_break_never_costs_a_users_file(make_site, tmp_path):
    content = make_site()
    out = tmp_path / "site"
    assert run_cli(*build_args(content, out)).code == 0
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    site_yaml = content / "site.yaml"
    site_yaml.write_text(MINIMAL_CONFIG + 'redirects:\n  "old\\nnotes.txt": publications/\n',
                         encoding="utf-8")
    first = run_cli(*build_args(content, out))
    assert first.code == 1 and "Traceback" not in first.err
    assert re.search(r"site\.yaml:8: error: redirect 'old\\nnotes\.txt': the old address "
                     r"contains the control or invisible character U\+000A", first.err), \
        first.err
    site_yaml.write_text(MINIMAL_CONFIG, encoding="utf-8")
    assert run_cli(*build_args(content, out)).code == 0
    assert (out / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_the_manifest_is_json_and_an_old_one_of_lines_is_read_once(make_site, tmp_path):
    content = make_site()
    out = tmp_path / "site"
    assert run_cli(*build_args(content, out)).code == 0
    listed = json.loads((out / MANIFEST).read_text(encoding="utf-8"))["files"]
    assert "index.html" in listed and listed == sorted(listed)
    # The format builds before this one wrote: one path a line, a comment first.
    (out / MANIFEST).write_text("# Files written by scholarsite\n" + "\n".join(listed) + "\n"
                                "publications/gone/index.html\n", encoding="utf-8")
    (out / "publications" / "gone").mkdir()
    (out / "publications" / "gone" / "index.html").write_text("stale", encoding="utf-8")
    (out / "mine.txt").write_text("mine", encoding="utf-8")
    assert run_cli(*build_args(content, out)).code == 0
    assert not (out / "publications" / "gone").exists()  # the tool's: removed
    assert (out / "mine.txt").read_text(encoding="utf-8") == "mine"
    assert json.loads((out / MANIFEST).read_text(encoding="utf-8"))["files"] == listed


# --- Redirects: a path the site may write, and never one of its pages ---------------------

def redirect_errors(make_site, tmp_path, keys: list[str]) -> str:
    lines = "".join(f"  {key}: https://elsewhere.example/\n" for key in keys)
    content = make_site({"site.yaml": MINIMAL_CONFIG + "redirects:\n" + lines})
    result = run_cli(*build_args(content, tmp_path / "site"))
    assert result.code == 1 and "Traceback" not in result.err, result.err
    assert not (tmp_path / "site").exists()
    return result.err


@pytest.mark.parametrize("key, problem", [
    ("CON", "names 'CON', which Windows keeps for a device"),
    ("nul.html", "names 'nul.html', which Windows keeps for a device"),
    ("old/Com1.txt", "names 'Com1.txt', which Windows keeps for a device"),
    ('"a\\tb"', "contains the control or invisible character U+0009"),
    ('"report\\u202Eexe.html"', "contains the control or invisible character U+202E"),
    (".git/hooks/pre-commit", "names '.git', a hidden file or folder"),
    ("'old/a|b'", "contains '|', which no file name on Windows may hold"),
])
def test_a_redirect_path_obeys_the_rules_of_every_path_the_site_writes(make_site, tmp_path,
                                                                        key, problem):
    err = redirect_errors(make_site, tmp_path, [key])
    assert re.search(rf"site\.yaml:8: error: redirect '.*': the old address "
                     rf"{re.escape(problem)}", err), err


def test_a_redirect_never_replaces_a_page_or_file_of_the_site(make_site, tmp_path):
    err = redirect_errors(make_site, tmp_path, [
        "index.html", "publications/index.html", "publications/a-paper/index.html",
        "Publications/A-Paper/", "favicon.ico", "404.html"])
    for line, old in enumerate(["index.html", "publications/index.html",
                                "publications/a-paper/index.html"], start=8):
        assert f"site.yaml:{line}: error: redirect '{old}': the site has a page at that " \
            "address; remove the redirect or rename the page" in err, err
    assert "site.yaml:11: error: redirect 'Publications/A-Paper/': the site has a page at " \
        "that address ('publications/a-paper/index.html', which is " \
        "'Publications/A-Paper/index.html' on a disk that does not tell case apart)" in err
    assert "site.yaml:12: error: redirect 'favicon.ico': the site publishes a file there" in err
    assert "site.yaml:13: error: redirect '404.html': 404.html is the page this site shows " \
        "for an address it does not have" in err
    assert "two things would write" not in err


# --- Text: what is no text never reaches a page, a feed or the console ---------------------

def test_yaml_escapes_of_control_characters_never_reach_the_feeds(make_site, tmp_path):
    content = make_site({
        "site.yaml": MINIMAL_CONFIG.replace("title: Ada Example", 'title: "Ada\\x01 Example"'),
        "publications/a-paper.md": paper(title='"A \\0Paper\\uFFFE of \\x85\\x9b note"'),
        "news/n.md": '---\ndate: 2024-01-01\ntitle: "N\\x07ews \\uFDD0"\n---\nSome news.\n'})
    out = tmp_path / "site"
    result = run_cli(*build_args(content, out))
    assert result.code == 0, result.err
    for where, count, first in [("site.yaml:1", 1, "0001"),
                                ("publications/a-paper.md:2", 4, "0000"),
                                ("news/n.md:3", 2, "0007")]:
        assert f"{where}: warning: {count} control character(s) removed, the first " \
            f"U+{first}" in result.err.replace("\\", "/"), result.err
    for feed in ("feed.xml", "news/feed.xml"):
        xml.dom.minidom.parse(str(out / feed))  # well-formed
    for page in out.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert not re.search("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufdd0-\ufdef\ufffe\uffff]",
                             text), page


def test_a_citation_id_with_control_characters_never_reaches_a_link(make_site, tmp_path):
    content = make_site({
        "site.yaml": MINIMAL_CONFIG + "citations: openalex\n",
        "citations.yaml": '"a-paper":\n  count: 4\n  source: openalex\n'
                          '  id: "W9\\0\\x85\\x1b[2J"\n  fetched: 2025-12-01\n'})
    out = tmp_path / "site"
    result = run_cli(*build_args(content, out))
    assert result.code == 0, result.err
    assert "citations.yaml:4: warning: 3 control character(s) removed, the first U+0000" \
        in result.err
    page = (out / "publications" / "a-paper" / "index.html").read_text(encoding="utf-8")
    assert "W9[2J" in page
    assert not re.search("[\x00-\x1f\x7f-\x9f]", page.replace("\n", ""))


def test_the_console_never_carries_a_raw_control_character(make_site, tmp_path):
    # A file name is outside text the cleaner cannot reach: it is shown, never acted on.
    content = make_site({"publications/\x1b[2Jgone\x07.md": MINIMAL_PAPER})
    result = run_cli(*build_args(content, tmp_path / "site"))
    assert result.code == 1 and "Traceback" not in result.err
    assert "\\x1b[2Jgone\\x07.md" in result.err
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f]", result.err + result.out)


# --- Pictures: none too large to read, none that says where it was taken -------------------

def header_only_png(width: int, height: int) -> bytes:
    """A PNG of a few dozen bytes whose header claims `width` x `height` pixels."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(
            ">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IEND", b"")


PICTURE_USES = {
    "author.photo": {"site.yaml": MINIMAL_CONFIG.replace(
        "  name: Ada Example\n", "  name: Ada Example\n  photo: files/pic.png\n")},
    "theme.favicon": {"site.yaml": MINIMAL_CONFIG + "theme:\n  favicon: files/pic.png\n"},
    "markdown": {"publications/a-paper.md": paper(abstract="See ![a figure](files/pic.png).")},
    "preview": {"publications/a-paper.md": paper(extra="preview: files/pic.png\n")},
}


@pytest.mark.parametrize("size", [(65535, 65535), (12000, 9000)])
@pytest.mark.parametrize("use", list(PICTURE_USES))
def test_a_picture_too_large_to_read_is_an_error_at_its_file(make_site, tmp_path, use, size):
    bomb = header_only_png(*size)
    assert len(bomb) == 45
    content = make_site({**PICTURE_USES[use], "files/pic.png": bomb})
    result = run_cli(*build_args(content, tmp_path / "site"))
    assert result.code == 1 and "Traceback" not in result.err, result.err
    # A photo is read, and so refused, where the setting that names it is read.
    assert re.search(r"(files/pic\.png: error: this picture|site\.yaml:5: error: 'author\.photo' "
                     r"names 'files/pic\.png', which) is \d+(x\d+)? pixels, more than the "
                     r"89 million a picture may have", result.err.replace("\\", "/")), result.err
    assert not (tmp_path / "site").exists()


CAMERA = "Examplecam"


def phone_photo(size: tuple[int, int], orientation: int = 6, fmt: str = "JPEG") -> bytes:
    """A photo as a phone saves it: where it was taken, the camera, and on its side."""
    from PIL import Image

    exif = Image.Exif()
    exif[0x0112] = orientation
    exif[0x010F], exif[0x0110], exif[0x013B] = CAMERA, "X1", "Ada Example"  # make, model, artist
    gps = exif.get_ifd(0x8825)
    gps.update({1: "N", 2: (48.0, 51.0, 29.5), 3: "E", 4: (2.0, 17.0, 40.2)})
    image = Image.new("RGB", size, (180, 40, 40))
    out = io.BytesIO()
    image.save(out, format=fmt, exif=exif)
    return out.getvalue()


def test_no_published_picture_says_where_it_was_taken(make_site, tmp_path):
    from PIL import Image

    files = {"site.yaml": MINIMAL_CONFIG.replace(
                 "  name: Ada Example\n", "  name: Ada Example\n  photo: files/me.jpg\n")
             + "theme:\n  favicon: files/icon.png\n",
             "publications/a-paper.md": paper(extra="preview: files/fig.jpg\n",
                                              abstract="See ![a photo](files/trip.webp)."),
             "files/me.jpg": phone_photo((60, 40)), "files/fig.jpg": phone_photo((400, 300)),
             "files/trip.webp": phone_photo((50, 30), fmt="WEBP"),
             "files/icon.png": phone_photo((32, 32), orientation=1, fmt="PNG"),
             "files/plain.jpg": header_only_png(1, 1)}
    content = make_site(files)
    sites = [tmp_path / "one", tmp_path / "two"]
    for out in sites:
        result = run_cli(*build_args(content, out, "--no-cache"))
        assert result.code == 0, result.err
    published = tree_bytes(sites[0])
    assert published == tree_bytes(sites[1])  # the same bytes, build after build
    for rel, data in published.items():
        assert CAMERA.encode() not in data and b"Ada Example\0" not in data, rel
    for rel in ("files/me.jpg", "files/fig.jpg", "files/trip.webp", "files/icon.png"):
        with Image.open(sites[0] / rel) as image:
            exif = image.getexif()
            assert 0x8825 not in exif and 0x010F not in exif, rel
            # Still shown upright: the orientation is all that is left.
            assert dict(exif) == {0x0112: 1 if rel.endswith(".png") else 6}, rel
            assert image.size == Image.open(content / rel).size
    # A picture with nothing to remove is published as it is.
    assert published["files/plain.jpg"] == files["files/plain.jpg"]
    # Built again into the same folder, with the cache: the same bytes.
    assert run_cli(*build_args(content, sites[0])).code == 0
    assert run_cli(*build_args(content, sites[0])).code == 0
    assert tree_bytes(sites[0]) == published
