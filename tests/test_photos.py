"""Photos (the owner's, the lab's, the people's) published resized for where pages show
them, built by the real CLI from examples/lab with phone-sized photos in place of its
drawings, and read back through the HTML: what /people/ weighs, the sizes given, WebP with
a fallback, no metadata, upright; TIFF and BMP converted, HEIC refused at the line that
names it. (That they are the same bytes every build, test_security_build's photo test
finds.)"""

from __future__ import annotations

import io
import random
import re
import shutil
from pathlib import Path

from conftest import MINIMAL_CONFIG, ROOT, build_args, run_cli, soup

LAB = ROOT / "examples" / "lab"
WEIGHT_BOUND = 1_000_000  # /people/ with every picture it may load, in bytes
CAMERA = b"Examplecam"


def noise_photo(seed: int) -> bytes:
    """A camera's photo of about 5 MB: noise does not compress."""
    from PIL import Image

    size = (2400, 1800)
    pixels = random.Random(seed).randbytes(size[0] * size[1] * 3)
    out = io.BytesIO()
    Image.frombytes("RGB", size, pixels).save(out, format="JPEG", quality=95)
    return out.getvalue()


def sideways_photo(fmt: str = "JPEG") -> bytes:
    """Black on the left, white on the right, stored on its side (EXIF orientation 6: to
    be turned a quarter clockwise, which brings the black to the top), with where it was
    taken and the camera."""
    from PIL import Image

    image = Image.new("RGB", (400, 200), "white")
    image.paste((0, 0, 0), (0, 0, 200, 200))
    exif = Image.Exif()
    exif[0x0112], exif[0x010F] = 6, CAMERA.decode()
    exif.get_ifd(0x8825).update({1: "N", 2: (48.0, 51.0, 29.5)})
    out = io.BytesIO()
    image.save(out, format=fmt, exif=exif)
    return out.getvalue()


def plain_photo(fmt: str) -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (300, 240), (30, 90, 160)).save(out, format=fmt)
    return out.getvalue()


def make_lab(content: Path) -> Path:
    """examples/lab with photos as phones and scanners make them: two of 5 MB (the owner's
    among them), one on its side, a TIFF and a BMP."""
    shutil.copytree(LAB, content)
    photos = {"mira-castell": ("jpg", noise_photo(1)), "grace-okafor": ("jpg", noise_photo(2)),
              "aiko-tanaka": ("jpg", sideways_photo()), "daniel-osei": ("tif", plain_photo("TIFF")),
              "elena-petrova": ("bmp", plain_photo("BMP"))}
    for slug, (suffix, data) in photos.items():
        (content / "files" / f"{slug}.{suffix}").write_bytes(data)
        (content / "files" / f"{slug}.svg").unlink(missing_ok=True)
        person = content / "people" / f"{slug}.md"
        text = re.sub(r"^photo: .*\n", "", person.read_text(encoding="utf-8"), flags=re.M)
        person.write_text(text.replace("---\n", f"---\nphoto: files/{slug}.{suffix}\n", 1),
                          encoding="utf-8")
    (content / "files" / "group.jpg").write_bytes(group_photo())
    config = content / "site.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace(
        "files/mira-castell.svg", "files/mira-castell.jpg").replace(
        "files/harbor-logo.svg", "files/group.jpg"), encoding="utf-8")
    return content


def group_photo() -> bytes:
    """A lab's group photo: wider than tall, and larger than twice the home's square."""
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (900, 600), (200, 120, 40)).save(out, format="JPEG")
    return out.getvalue()


def loaded_pictures(page: Path) -> list[Path]:
    """Every picture file the page may load: each <img>'s src and srcset and each
    <source>'s srcset, as files of the built site."""
    found = []
    for tag in soup(page).select("img, picture source"):
        urls = [tag.get("src", "")] + [part.split()[0] for part in
                                       tag.get("srcset", "").split(",") if part.strip()]
        found += [(page.parent / url).resolve() for url in urls if url]
    return sorted(set(found))


def test_photos_are_published_resized_with_sizes_and_a_fallback(tmp_path):
    from PIL import Image

    content = make_lab(tmp_path / "content")
    site = tmp_path / "site"
    result = run_cli(*build_args(content, site))
    assert result.code == 0, result.err
    people = site / "people" / "index.html"
    pictures = loaded_pictures(people)
    weight = people.stat().st_size + sum(path.stat().st_size for path in pictures)
    assert len(pictures) >= 10 and weight < WEIGHT_BOUND, (weight, pictures)
    # Every photo shown, on /people/, a person's page and the lab's home page (its group
    # photo and its members): its size given, WebP beside a JPEG, at 1x and 2x; the
    # original loaded by none.
    home = site / "index.html"
    shown = [(people, "main", 96), (site / "people" / "grace-okafor" / "index.html", "main", 160),
             (home, "main section.profile", 216), (home, "main .members", 96)]
    for page, where, side in shown:
        frames = soup(page).select(f"{where} picture")
        assert frames, (page, where)
        for frame in frames:
            img, source = frame.img, frame.source
            assert (img["width"], img["height"]) == (str(side), str(side)), page
            assert source["type"] == "image/webp" and source["srcset"].endswith(" 2x")
            assert img["src"].endswith(f"-{side}.jpg") and img["srcset"].endswith(" 2x")
        assert not any(path.parent.name == "files" for path in loaded_pictures(page)), page
    # Resized files: square, upright, nothing said of where or with what; TIFF and BMP
    # shown converted.
    card = {img.find_parent("li").select_one(".person-name").text: img
            for img in soup(people).select(".person-card img")}
    for name in ("Daniel Osei", "Elena Petrova"):
        assert card[name]["src"].endswith(".jpg"), card[name]
    for path in pictures:
        data = path.read_bytes()
        assert CAMERA not in data and b"Exif" not in data, path
        with Image.open(path) as image:
            assert image.width == image.height and not image.getexif(), path
    with Image.open(people.parent / card["Aiko Tanaka"]["src"]) as aiko:
        aiko = aiko.convert("L")
        top, bottom = aiko.crop((0, 0, 96, 20)), aiko.crop((0, 76, 96, 96))
        assert top.getextrema()[1] < 60 and bottom.getextrema()[0] > 200


def test_a_heic_photo_is_an_error_at_the_line_that_names_it(make_site):
    heic = b"\0\0\0\x18ftypheic\0\0\0\0mif1heic" + bytes(64)  # what an iPhone writes first
    content = make_site({
        "site.yaml": MINIMAL_CONFIG.replace("  name: Ada Example\n",
                                            "  name: Ada Example\n  photo: files/me.heic\n"),
        "people/bo-li.md": "---\nname: Bo Li\nrole: PhD student\nphoto: files/bo.HEIC\n---\n",
        "people/cy-wu.md": "---\nname: Cy Wu\nrole: PhD student\nphoto: files/cy.jpg\n---\n",
        "files/me.heic": heic, "files/bo.HEIC": heic, "files/cy.jpg": heic})
    result = run_cli(*build_args(content))
    err = result.err.replace("\\", "/")
    assert result.code == 1 and "Traceback" not in err
    assert re.search(r"site\.yaml:5: error: 'author\.photo' names 'files/me\.heic', which is "
                     r"a HEIC picture, which browsers cannot show", err), err
    assert re.search(r"people/bo-li\.md:4: error: 'photo' names 'files/bo\.HEIC', which is "
                     r"a HEIC picture", err), err
    # One named as a JPEG that is none: refused too, at its line.
    assert re.search(r"people/cy-wu\.md:4: error: 'photo' names 'files/cy\.jpg', which is "
                     r"not a picture Pillow can read", err), err
