"""Tools for the front-end tests (the sites to check are conftest's `sites`): a real HTTP server
on 127.0.0.1; headless Debian Chromium driven by Playwright; the W3C Nu checker; axe-core.

A test that needs a tool asks for it with `require`: when the tool is missing it skips with
the reason, except under CI (CI=true), where a missing tool is a failure, never a skip.
"""

from __future__ import annotations

import functools
import http.server
import importlib.util
import os
import re
import shutil
import threading
from contextlib import contextmanager
from pathlib import Path

import pytest

from conftest import ROOT

IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
AXE_JS = ROOT / "tests" / "node_modules" / "axe-core" / "axe.min.js"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 375, "height": 740}
_KIND = re.compile(r'<body data-kind="([^"]+)"')


def require(ok: object, reason: str) -> None:
    if not ok:
        if IN_CI:
            pytest.fail(f"{reason} (CI=true: .ci/run installs it, so this is a failure)")
        pytest.skip(reason)


def chromium_path() -> str:
    path = shutil.which("chromium") or "/usr/bin/chromium"
    require(Path(path).is_file(), "Chromium is not installed (apt-get install chromium)")
    require(importlib.util.find_spec("playwright"),
            "the playwright package is not installed (pip install -e '.[test]')")
    return path


def html_pages(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


def pages_by_kind(site: Path) -> dict[str, Path]:
    """One page (the first in path order) of each kind in each section of the site: kinds
    are read from <body data-kind>, and a section's list and item pages may have templates
    of their own ('collection in talks', 'item in posts', 'paper in publications')."""
    found: dict[str, Path] = {}
    for path in html_pages(site):
        match = _KIND.search(path.read_text(encoding="utf-8"))
        if match:
            parts = path.relative_to(site).parts
            section = parts[0] if len(parts) > 1 else ""
            found.setdefault(f"{match.group(1)} in {section}" if section else match.group(1),
                             path)
    return found


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:  # keep test output readable
        pass


@contextmanager
def serve(folder: Path):
    """Serve `folder` on a free port of 127.0.0.1; yields the base URL ending in '/'."""
    with run_server(functools.partial(QuietHandler, directory=str(folder))) as port:
        yield f"http://127.0.0.1:{port}/"


@contextmanager
def run_server(handler):
    """A threaded HTTP server of `handler` on a free port of 127.0.0.1, stopped at the end;
    yields the port."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@contextmanager
def launch_chromium():
    """Headless Debian Chromium (Playwright's own browser download does not work here);
    Playwright gives each launch a fresh, temporary profile."""
    path = chromium_path()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def open_page(browser, scheme: str = "light", viewport: dict | None = None, **options):
    """A page in a fresh context; fails the test on any script error the page raises."""
    context = browser.new_context(color_scheme=scheme, viewport=viewport or DESKTOP,
                                  **options)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        yield page
    finally:
        context.close()
    assert not errors, f"script errors: {errors}"


class PagesLikeHandler(QuietHandler):
    """What GitHub Pages does with a site: the folder under `prefix` only ('/' for a user
    site, '/repo/' for a project site), and its 404.html, with status 404, for anything
    missing."""

    prefix = "/"

    def translate_path(self, path: str) -> str:
        url_path = path.split("?", 1)[0].split("#", 1)[0]
        if url_path == self.prefix.rstrip("/") or url_path.startswith(self.prefix):
            return super().translate_path("/" + url_path[len(self.prefix):])
        return str(Path(self.directory) / ".outside-the-prefix" / "missing")

    def send_error(self, code, message=None, explain=None) -> None:
        page = Path(self.directory) / "404.html"
        if code != 404 or not page.is_file():
            return super().send_error(code, message, explain)
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


@contextmanager
def serve_like_pages(folder: Path, prefix: str = "/"):
    """Serve `folder` under `prefix` of a free port of 127.0.0.1, as GitHub Pages does
    (PagesLikeHandler); yields the site's base URL, ending in '/'."""
    handler_class = type("Handler", (PagesLikeHandler,), {"prefix": prefix})
    with run_server(functools.partial(handler_class, directory=str(folder))) as port:
        yield f"http://127.0.0.1:{port}{prefix}"
