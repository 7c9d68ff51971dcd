"""site.yaml's `theme` and `analytics`, through the command line: accents held to WCAG AA
(a faint one darkened, with a warning), the font and dark mode on every page, the icon and
/favicon.ico, an absolute og:image for every page whose file is in the site, analytics only
when asked for, and axe's contrast check in Chromium with each accent."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from conftest import MINIMAL_CONFIG, ROOT, build_args, paper, run_cli, soup, tree_bytes

# Three accents: one readable as it is, one written as hsl(), one far too light (gold).
ACCENTS = {"blue": '"#1a5bb0"', "green": "hsl(140 70% 25%)", "gold": "gold"}
LIGHT_BACKGROUNDS = ("#ffffff", "#f4f6f9")
DARK_BACKGROUNDS = ("#121418", "#1b1e24")
PNG_1x1 = (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06"
           b"\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\xcf\xc0\xf0\x1f\x00"
           b"\x05\x00\x01\xff\x89\x99=\x1d\x00\x00\x00\x00IEND\xaeB`\x82")


def luminance(hex_colour: str) -> float:
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(int(hex_colour[i:i + 2], 16) / 255) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one: str, other: str) -> float:
    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def with_theme(theme: str, more: str = "") -> str:
    return MINIMAL_CONFIG + theme + more


def build(content: Path, *extra: str):
    return run_cli(*build_args(content, None, *extra))


def theme_props(page: Path) -> dict[str, str]:
    style = soup(page).find("style")
    text = style.string if style else ""
    return dict(re.findall(r"(--theme-[a-z-]+):([^;}]+)", text))


@pytest.mark.parametrize("name", sorted(ACCENTS))
def test_accents_are_readable_in_both_modes(make_site, name):
    content = make_site({"site.yaml": with_theme(f"theme:\n  accent: {ACCENTS[name]}\n")})
    result = build(content)
    assert result.code == 0, result.err
    props = theme_props(content.parent / "site" / "index.html")
    light, dark = props["--theme-accent"], props["--theme-accent-dark"]
    assert min(contrast(light, bg) for bg in LIGHT_BACKGROUNDS) >= 4.5
    assert min(contrast(dark, bg) for bg in DARK_BACKGROUNDS) >= 4.5
    warned = [line for line in result.err.splitlines() if ": warning: " in line]
    if name == "gold":  # far too light: darkened, and said so at its line
        assert light != "#ffd700"
        assert len(warned) == 1 and "site.yaml:8: warning: 'theme.accent' gold" in warned[0]
        assert light in warned[0]
    else:  # readable already: kept as written, no warning
        assert light == {"blue": "#1a5bb0", "green": "#136c31"}[name]
        assert not warned, result.err


def test_without_a_theme_the_page_has_no_style_element(make_site):
    content = make_site()
    assert build(content).code == 0
    assert soup(content.parent / "site" / "index.html").find("style") is None


def test_font_and_dark_mode_reach_every_page(make_site):
    content = make_site({"site.yaml": with_theme(
        'theme:\n  accent: "#ff93ae"\n  font: serif\n  dark_mode: dark\n')})
    result = build(content)
    assert result.code == 0, result.err
    assert ": warning: " not in result.err  # a pink readable on dark, where the site opens
    site = content.parent / "site"
    for page in (site / "index.html", site / "publications" / "index.html"):
        html = soup(page)
        assert html.html["data-theme"] == "dark"
        assert html.find(id="theme-toggle") is None  # no light mode to switch to
        props = theme_props(page)
        assert props["--theme-font"].startswith("Charter,")
        assert props["--theme-accent-dark"] == "#ff93ae"
        assert min(contrast(props["--theme-accent"], bg) for bg in LIGHT_BACKGROUNDS) >= 4.5
    style = (site / "assets" / "style.css").read_text(encoding="utf-8")
    assert "var(--theme-font," in style and "var(--theme-accent," in style


def test_a_dark_site_lightens_a_dark_accent_and_says_so(make_site):
    content = make_site({"site.yaml": with_theme(
        'theme:\n  dark_mode: dark\n  accent: "#2255aa"\n')})
    result = build(content)
    assert result.code == 0, result.err
    assert "site.yaml:9: warning: 'theme.accent' #2255aa" in result.err
    assert "lighter shade, in dark mode" in result.err
    props = theme_props(content.parent / "site" / "index.html")
    assert props["--theme-accent"] == "#2255aa"  # the light mode's, from the colour as written
    assert min(contrast(props["--theme-accent-dark"], bg) for bg in DARK_BACKGROUNDS) >= 4.5


def test_auto_mode_keeps_the_toggle(make_site):
    content = make_site({"site.yaml": with_theme("theme:\n  dark_mode: auto\n  font: humanist\n")})
    assert build(content).code == 0
    html = soup(content.parent / "site" / "index.html")
    assert not html.html.has_attr("data-theme")
    assert html.find(id="theme-toggle") is not None


def test_generated_icons_exist_are_linked_and_the_same_every_build(make_site, tmp_path):
    content = make_site({"site.yaml": with_theme('theme:\n  accent: "#2a7a3a"\n')})
    trees = []
    for run in ("one", "two"):  # a fresh picture store each time: drawn twice, not copied
        store = tmp_path / f"tmp-{run}"
        store.mkdir()
        out = tmp_path / f"site-{run}"
        env = dict(os.environ, TMPDIR=str(store), PYTHONUTF8="1")
        proc = subprocess.run([sys.executable, str(ROOT / "build.py"),
                               *build_args(content, out, "--no-cache")],
                              capture_output=True, text=True, env=env, cwd=ROOT)
        assert proc.returncode == 0, proc.stderr
        trees.append(tree_bytes(out))
    assert trees[0] == trees[1]
    site = tmp_path / "site-one"
    svg = (site / "assets" / "favicon.svg").read_text(encoding="utf-8")
    assert 'fill="#2a7a3a"' in svg and ">AE</text>" in svg
    with Image.open(site / "favicon.ico") as ico:
        assert ico.format == "ICO"
    links = {link["href"] for link in soup(site / "publications" / "index.html")
             .find_all("link", rel="icon")}
    assert links == {"../favicon.ico", "../assets/favicon.svg"}


def test_own_favicon_is_linked_and_becomes_favicon_ico(make_site):
    content = make_site({"site.yaml": with_theme("theme:\n  favicon: files/icon.png\n"),
                         "files/icon.png": PNG_1x1})
    result = build(content)
    assert result.code == 0, result.err
    site = content.parent / "site"
    links = {link["href"] for link in soup(site / "index.html").find_all("link", rel="icon")}
    assert links == {"favicon.ico", "files/icon.png"}
    assert not (site / "assets" / "favicon.svg").exists()
    with Image.open(site / "favicon.ico") as ico:
        assert ico.format == "ICO"


def test_missing_favicon_is_an_error_at_its_line(make_site):
    theme = "theme:\n  font: sans\n  favicon: files/no.png\n"
    content = make_site({"site.yaml": with_theme(theme)})
    result = build(content)
    assert result.code != 0
    assert re.search(r"site\.yaml:9: error: 'theme\.favicon' must name an icon", result.err)


@pytest.mark.parametrize("yaml_text, line, message", [
    ("theme:\n  accent: red\n  colour: blue\n", 9, "unknown setting 'theme.colour'"),
    ("theme:\n  font: comic\n", 8, "'theme.font' must be one of sans, serif, humanist"),
    ("theme:\n  accent: #a3123f\n", 8, "must be quoted"),
    ("theme:\n  accent: rgb(1 2 3 / 50%)\n", 8, "is not an opaque CSS colour"),
    ("analytics:\n  provider: google\n  id: UA-1\n", 9, "is not a google id"),
    ("analytics:\n  provider: matomo\n  id: x\n", 8, "must be one of goatcounter"),
])
def test_bad_settings_are_errors_at_their_line(make_site, yaml_text, line, message):
    content = make_site({"site.yaml": with_theme(yaml_text)})
    result = build(content)
    assert result.code != 0
    assert f"site.yaml:{line}: error: " in result.err and message in result.err, result.err


def test_og_image_is_absolute_and_in_the_site(make_site):
    preview = 'extra:\n  preview: shot.png\n'
    content = make_site({"publications/shown.md": paper("Shown", extra=preview),
                         "files/shot.png": PNG_1x1})
    assert build(content).code == 0
    site = content.parent / "site"
    seen = {}
    for page in sorted(site.rglob("*.html")):
        tag = soup(page).find("meta", property="og:image")
        if tag is None:
            continue
        url = tag["content"]
        assert url.startswith("https://example.org/"), (page, url)
        assert (site / url.removeprefix("https://example.org/")).is_file(), (page, url)
        seen[page.relative_to(site).as_posix()] = url
    assert seen["index.html"] == "https://example.org/assets/preview.png"
    assert seen["publications/shown/index.html"] == "https://example.org/files/shot.png"
    with Image.open(site / "assets" / "preview.png") as image:
        assert image.size == (1200, 630)
    home = soup(site / "index.html")
    assert home.find("meta", attrs={"name": "twitter:card"})["content"] == "summary_large_image"
    own = soup(site / "publications" / "shown" / "index.html")
    assert own.find("meta", attrs={"name": "twitter:card"})["content"] == "summary"


def test_owner_photo_is_the_preview_when_there_is_one(make_site):
    config = MINIMAL_CONFIG.replace("  name: Ada Example\n",
                                    "  name: Ada Example\n  photo: files/me.png\n")
    content = make_site({"site.yaml": config, "files/me.png": PNG_1x1})
    assert build(content).code == 0
    site = content.parent / "site"
    tag = soup(site / "publications" / "index.html").find("meta", property="og:image")
    assert tag["content"] == "https://example.org/files/me.png"
    assert not (site / "assets" / "preview.png").exists()  # no page would show it


def test_an_svg_photo_gives_link_previews_a_png(make_site):
    """Link previews (Facebook's, X's, Slack's) show no SVG: with an SVG photo, pages
    without a picture of their own name the generated PNG card, the same bytes each build."""
    config = MINIMAL_CONFIG.replace("  name: Ada Example\n",
                                    "  name: Ada Example\n  photo: files/me.svg\n")
    svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle r="4"/></svg>'
    content = make_site({"site.yaml": config, "files/me.svg": svg})
    assert build(content).code == 0
    site = content.parent / "site"
    for page in ("index.html", "publications/index.html", "publications/a-paper/index.html"):
        head = soup(site / page)
        assert head.find("meta", property="og:image")["content"] == \
            "https://example.org/assets/preview.png", page
        assert head.find("meta", property="og:image:width")["content"] == "1200"
    with Image.open(site / "assets" / "preview.png") as image:
        assert (image.format, image.size) == ("PNG", (1200, 630))
        image.load()
    assert "files/me.svg" in (site / "index.html").read_text(encoding="utf-8")  # the page's
    again = content.parent / "again"
    assert run_cli(*build_args(content, again)).code == 0
    assert (again / "assets" / "preview.png").read_bytes() == \
        (site / "assets" / "preview.png").read_bytes()


@pytest.mark.parametrize("provider, code, marker", [
    ("goatcounter", "ada", "https://ada.goatcounter.com/count"),
    ("plausible", "example.org", 'data-domain="example.org"'),
    ("google", "G-ABC123DEF4", "googletagmanager.com/gtag/js?id=G-ABC123DEF4"),
])
def test_analytics_when_set(make_site, provider, code, marker):
    content = make_site({"site.yaml": with_theme(f"analytics:\n  provider: {provider}\n"
                                                 f"  id: {code}\n")})
    assert build(content).code == 0
    site = content.parent / "site"
    for page in (site / "index.html", site / "404.html"):
        assert marker in page.read_text(encoding="utf-8")


def test_no_analytics_without_the_setting(make_site):
    bare = make_site({"site.yaml": MINIMAL_CONFIG})
    assert build(bare).code == 0
    html = (bare.parent / "site" / "index.html").read_text(encoding="utf-8")
    assert not any(word in html for word in ("goatcounter", "plausible", "googletagmanager"))


# --- In Chromium: axe's contrast rules with each accent, light and dark --------------------

@pytest.mark.full(only=True)  # axe's own sweeps run in the README's command
def test_axe_finds_no_contrast_problem_with_any_accent(tmp_path, browser):
    from browser import AXE_JS, open_page, require, serve

    require(AXE_JS.is_file(), "axe-core is not installed (npm ci --prefix tests)")
    run_axe = """async () => (await axe.run(document, {runOnly: ['color-contrast',
        'link-in-text-block'], resultTypes: ['violations']})).violations.map(
        v => v.id + ': ' + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', '))"""
    found = {}
    for name, accent in sorted(ACCENTS.items()):
        content = tmp_path / name / "content"
        content.mkdir(parents=True)
        (content / "site.yaml").write_text(with_theme(f"theme:\n  accent: {accent}\n"),
                                           encoding="utf-8")
        (content / "publications").mkdir()
        (content / "publications" / "a.md").write_text(paper(extra="award: Best Paper\n"),
                                                       encoding="utf-8")
        assert build(content).code == 0
        with serve(content.parent / "site") as base:
            for scheme in ("light", "dark"):
                with open_page(browser, scheme) as page:
                    for path in ("", "publications/", "publications/a-paper/"):
                        page.goto(base + path)
                        page.add_script_tag(path=str(AXE_JS))
                        problems = page.evaluate(run_axe)
                        if problems:
                            found[f"{name} {scheme} /{path}"] = problems
    assert not found, found


# --- theme.style: two looks, one set of templates --------------------------------------------

@pytest.mark.parametrize("style", ["", "profile", "compact"])
def test_style_picks_the_looks_stylesheet(make_site, style):
    theme = f"theme:\n  style: {style}\n" if style else ""
    content = make_site({"site.yaml": with_theme(theme)})
    result = build(content)
    assert result.code == 0, result.err
    site = content.parent / "site"
    chosen = style or "profile"  # the default: the personal page
    for page in (site / "index.html", site / "publications" / "index.html"):
        sheets = [link["href"].rsplit("/", 1)[-1]
                  for link in soup(page).find_all("link", rel="stylesheet")]
        assert sheets == ["style.css", f"{chosen}.css", "code.css"], sheets
    assert (site / "assets" / f"{chosen}.css").is_file()


def test_an_unknown_style_is_an_error_at_its_line_naming_the_known_ones(make_site):
    content = make_site({"site.yaml": with_theme("theme:\n  accent: teal\n  style: fancy\n")})
    result = build(content)
    assert result.code == 1
    assert ("site.yaml:9: error: 'theme.style' must be one of profile, compact; "
            "found 'fancy'") in result.err, result.err
    assert "Traceback" not in result.err
    assert not (content.parent / "site").exists()
