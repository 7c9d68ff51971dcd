"""Screenshots of the demo site for docs/screenshots/ (shown in the README): home,
publications, a paper, the CV, a post and the notebook post, at 1280 and 390 px wide, light and dark, in the
default look (`profile`); the compact look's home and publications; and, with a green
`theme.accent`, the home page on a desktop and a paper on a phone; and the first page of the
demo's CV as a PDF (cv-first-page.png, by poppler's pdftoppm); and the lab example's
/people/ and a person's page, on a desktop; and the bilingual example's Chinese home and
publications pages, on a desktop; and the front-end fixture's home and a paper, with their
charts of citations per year (tests/fixtures/themesite, `citation_chart`), on a desktop.

    python3 scripts/screenshots.py [--out docs/screenshots]

It builds examples/demo with this checkout into a temporary folder, serves it on 127.0.0.1
and drives Debian's Chromium with Playwright. The tests never write here: run this by hand
after changing the theme, and commit the pictures that changed.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "examples" / "demo"
LAB = ROOT / "examples" / "lab"
BILINGUAL = ROOT / "examples" / "bilingual"
THEMESITE = ROOT / "tests" / "fixtures" / "themesite"
PAGES = {"home": "", "publications": "publications/",
         "paper": "publications/tidepool-sis-2025/", "cv": "cv/",
         "post": "posts/queueing-in-one-page/", "notebook": "posts/simulating-a-queue/"}
VIEWPORTS = {"desktop": ({"width": 1280, "height": 800}, 1),
             "phone": ({"width": 390, "height": 844}, 2)}
# The scripts have run: the toggle shows, and the filter count is set where there is one.
READY = ("!document.getElementById('theme-toggle').hidden && "
         "(document.getElementById('filter-status')?.textContent ?? 'none') !== ''")


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


def build_demo(out: Path, theme: str = "", source: Path = DEMO) -> None:
    """The demo (or `source`) built into `out`, with `theme` (lines such as
    '  style: compact\n') put first in its site.yaml's `theme:` mapping."""
    content = out.parent / f"content-{out.name}"
    shutil.copytree(source, content)
    config = content / "site.yaml"
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace("\ntheme:\n", f"\ntheme:\n{theme}", 1), encoding="utf-8")
    subprocess.run([sys.executable, str(ROOT / "build.py"), "--content", str(content),
                    "--output", str(out)], check=True, cwd=ROOT, capture_output=True)


def shoot(browser, site: Path, out: Path, names: dict[str, str], prefix: str = "",
          devices: tuple[str, ...] = tuple(VIEWPORTS)) -> None:
    handler = functools.partial(Quiet, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        for scheme in ("light", "dark"):
            for device in devices:
                viewport, scale = VIEWPORTS[device]
                context = browser.new_context(color_scheme=scheme, viewport=viewport,
                                              device_scale_factor=scale)
                page = context.new_page()
                for name, url in names.items():
                    page.goto(base + url)
                    page.wait_for_function(READY)
                    path = out / f"{prefix}{name}-{scheme}-{device}.png"
                    path.write_bytes(page.screenshot())
                    print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
                context.close()
    finally:
        server.shutdown()
        server.server_close()


def shoot_cv(site: Path, out: Path) -> None:
    """The first page of the demo's CV, as pdftoppm renders it at 60 dpi."""
    [pdf] = sorted((site / "cv").glob("*-cv.pdf"))
    subprocess.run(["pdftoppm", "-png", "-r", "60", "-f", "1", "-l", "1", "-singlefile",
                    str(pdf), str(out / "cv-first-page")], check=True, timeout=60)
    print(out / "cv-first-page.png")


def shoot_charts(browser, site: Path, out: Path) -> None:
    """The charts of citations per year: the fixture's home and a paper's page."""
    build_demo(site, source=THEMESITE)
    shoot(browser, site, out, {"home": "", "paper": "publications/engine/"}, "citations-",
          ("desktop",))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    args.out.mkdir(parents=True, exist_ok=True)
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium,
                                             args=["--no-sandbox", "--disable-gpu"])
        site = Path(tmp) / "site"
        build_demo(site)
        shoot(browser, site, args.out, PAGES)
        if shutil.which("pdftoppm"):
            shoot_cv(site, args.out)
        compact = Path(tmp) / "compact"
        build_demo(compact, "  style: compact\n")
        shoot(browser, compact, args.out, {"home": "", "publications": "publications/"},
              "compact-")
        green = Path(tmp) / "green"
        build_demo(green, '  accent: "#2a7a3a"\n')
        shoot(browser, green, args.out, {"home": ""}, "green-", ("desktop",))
        shoot(browser, green, args.out, {"paper": PAGES["paper"]}, "green-", ("phone",))
        lab = Path(tmp) / "lab"
        build_demo(lab, source=LAB)
        shoot(browser, lab, args.out, {"people": "people/", "person": "people/jing-chen/"},
              "lab-", ("desktop",))
        bilingual = Path(tmp) / "bilingual"
        build_demo(bilingual, source=BILINGUAL)
        shoot(browser, bilingual, args.out, {"home": "zh/", "publications": "zh/publications/"},
              "zh-", ("desktop",))
        shoot_charts(browser, Path(tmp) / "charts", args.out)
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
