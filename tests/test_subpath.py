"""The site under a subpath (user.github.io/lab-site/), served by a real HTTP server that
maps the prefix as GitHub Pages does, and opened from the file system in Chromium."""

from __future__ import annotations

import re
import shutil
import threading
from collections import deque
from functools import partial
from html.parser import HTMLParser
from http.server import ThreadingHTTPServer
from pathlib import Path
from urllib.error import HTTPError
from urllib.parse import urldefrag, urljoin, urlsplit
from urllib.request import ProxyHandler, build_opener

import pytest

from browser import PagesLikeHandler
from conftest import EXAMPLE, TEMPLATES, build_args, copy_templates, edit, run_cli, write_files

LAB_URL = "https://user.github.io/lab-site/"
PREFIX = "/lab-site/"
OPENER = build_opener(ProxyHandler({}))  # 127.0.0.1 only, whatever the environment says


def make_lab_content(root: Path) -> Path:
    """The example site at LAB_URL, with files and links to them of every kind: relative and
    site-absolute, from the bio, the profile and a paper."""
    content = root / "content"
    shutil.copytree(EXAMPLE, content)
    config = (content / "site.yaml").read_text(encoding="utf-8")
    config = re.sub(r"(?m)^url: .*$", f"url: {LAB_URL}", config)
    config = config.replace("  name: Wei Gao\n",
                            "  name: Wei Gao\n  links:\n    CV: /files/cv.pdf\n")
    paper = content / "publications" / "weave-osdi-2026.md"
    text = paper.read_text(encoding="utf-8")
    text = text.replace("---\n", "---\nlinks:\n  pdf: files/weave.pdf\n"
                        "  slides: /files/weave-slides.pdf\n", 1)
    # The abstract links a file and shows a picture: it is on the home page, the list and
    # the paper's page, each at its own depth.
    paper.write_text(text + "\nThe [slides](files/weave-slides.pdf) and the design: "
                     "![Weave's design](files/weave.png)\n\n"
                     '<img src="files/weave.png" alt="Weave, in raw HTML">\n', encoding="utf-8")
    bio = (content / "index.md").read_text(encoding="utf-8")
    write_files(content, {"site.yaml": config, "index.md": bio + "\nMy [CV](files/cv.pdf).\n",
                          "files/cv.pdf": b"%PDF-1.4 cv", "files/weave.pdf": b"%PDF-1.4 paper",
                          "files/weave-slides.pdf": b"%PDF-1.4 slides",
                          "files/weave.png": make_png()})
    return content


def make_png() -> bytes:
    from io import BytesIO

    from PIL import Image

    out = BytesIO()
    Image.new("RGB", (40, 30), "navy").save(out, "PNG")
    return out.getvalue()


def build_lab_site(root: Path, templates: Path = TEMPLATES) -> Path:
    content = make_lab_content(root)
    out = root / "site"
    result = run_cli(*build_args(content, out, templates=templates))
    assert result.code == 0, result.err
    return out


@pytest.fixture(scope="module")
def lab_site(tmp_path_factory) -> Path:
    return build_lab_site(tmp_path_factory.mktemp("lab"))


class PagesHandler(PagesLikeHandler):
    """A project site on GitHub Pages: the output under PREFIX only, and its 404.html (with
    status 404) for anything missing, at any depth."""

    prefix = PREFIX


@pytest.fixture
def serve():
    """serve(folder) -> 'http://127.0.0.1:PORT', a server stopped after the test."""
    servers = []

    def start(folder: Path) -> str:
        server = ThreadingHTTPServer(("127.0.0.1", 0),
                                     partial(PagesHandler, directory=str(folder)))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}"

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


class LinkCollector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag, attrs) -> None:
        self.urls += [value for name, value in attrs if name in ("href", "src") and value]


def fetch(url: str) -> tuple[int, str, bytes, str]:
    """(status, content type, body, final URL after redirects)."""
    try:
        with OPENER.open(url, timeout=10) as response:
            return (response.status, response.headers.get_content_type(), response.read(),
                    response.geturl())
    except HTTPError as exc:
        return exc.code, exc.headers.get_content_type(), exc.read(), url


def find_urls(content_type: str, body: bytes) -> list[str]:
    if not content_type.startswith("text/") and "xml" not in content_type:
        return []  # a picture or an icon links to nothing
    text = body.decode("utf-8")
    if content_type == "text/html":
        collector = LinkCollector()
        collector.feed(text)
        return collector.urls
    if content_type in ("application/xml", "text/xml"):
        return re.findall(r"<(?:loc|link)>\s*([^<\s]+)\s*</", text)
    if content_type == "text/plain":
        return re.findall(r"(?im)^sitemap:\s*(\S+)", text)
    return []


def crawl(base: str, starts: list[str]) -> tuple[dict[str, int], dict[str, str]]:
    """Follow every link, asset and sitemap entry that stays on the server: {url: status},
    and for each URL the page that first led to it. The site's own absolute address
    (sitemap, canonical links) is mapped to the local server."""
    statuses: dict[str, int] = {}
    came_from: dict[str, str] = {}
    queue = deque(base + start for start in starts)
    while queue:
        url = urldefrag(queue.popleft())[0]
        if url in statuses:
            continue
        status, content_type, body, final = fetch(url)
        statuses[url] = status
        for found in find_urls(content_type, body):
            target = urljoin(final, found)
            if target.startswith(LAB_URL):
                target = base + PREFIX + target[len(LAB_URL):]
            if target.startswith(base + "/"):
                came_from.setdefault(urldefrag(target)[0], url)
                queue.append(target)
    return statuses, came_from


def test_an_abstracts_links_work_on_every_page_that_shows_it(lab_site):
    for page, root in (("index.html", ""), ("publications/index.html", "../"),
                       ("publications/weave-osdi-2026/index.html", "../../")):
        html = (lab_site / page).read_text(encoding="utf-8")
        assert f'href="{root}files/weave-slides.pdf">slides</a>' in html, page
        assert f'src="{root}files/weave.png"' in html, page
        assert f'<img src="{root}files/weave.png" alt="Weave, in raw HTML">' in html, page


def test_every_link_works_under_the_subpath(lab_site, serve):
    base = serve(lab_site)
    deep_404 = PREFIX + "no/such/page/"  # GitHub serves 404.html here, links and all
    statuses, came_from = crawl(base, [PREFIX, PREFIX + "sitemap.xml", PREFIX + "robots.txt",
                                       deep_404])
    broken = {url: came_from.get(url) for url, status in statuses.items()
              if status != 200 and url != base + deep_404}
    assert not broken, f"not found (url: linked from): {broken}"
    assert statuses[base + deep_404] == 404
    reached = {urlsplit(url).path[len(PREFIX):] for url in statuses}
    pages = {p.relative_to(lab_site).as_posix() for p in lab_site.rglob("*.html")}
    pages = {p.removesuffix("index.html") for p in pages} - {"404.html"}
    assert pages <= reached  # every page is linked from somewhere
    for asset in ("assets/style.css", "assets/file-links.js", "files/cv.pdf",
                  "files/weave.pdf", "files/weave-slides.pdf", "sitemap.xml"):
        assert asset in reached


def test_the_crawl_finds_a_root_absolute_asset(tmp_path, serve):
    """The classic theme bug, '/assets/style.css', is a 404 under the subpath: the harness
    above can fail."""
    templates = copy_templates(tmp_path)
    edit(templates / "base.html", 'href="{{ page.top }}assets/style.css"',
         'href="/assets/style.css"')
    base = serve(build_lab_site(tmp_path, templates))
    statuses, came_from = crawl(base, [PREFIX])
    assert statuses[base + "/assets/style.css"] == 404
    assert came_from[base + "/assets/style.css"] == base + PREFIX


def open_page(browser, **options):
    """A page in a fresh context, failing in seconds rather than Playwright's 30."""
    context = browser.new_context(**options)
    context.set_default_timeout(5000)
    return context.new_page()


def is_styled(page) -> bool:
    """assets/style.css moves the skip link off screen."""
    return page.eval_on_selector("a.skip", "e => getComputedStyle(e).position") == "absolute"


def test_navigation_from_the_file_system(lab_site, browser):
    page = open_page(browser)
    page.goto((lab_site / "index.html").as_uri())
    assert is_styled(page)
    page.click("nav >> text=Publications")
    page.wait_for_url("**/publications/index.html")
    assert page.title().startswith("Publications")
    assert is_styled(page)
    page.click("a.paper-title >> nth=0")
    page.wait_for_url(re.compile(r".*/publications/[a-z0-9-]+/index\.html$"))
    assert page.locator("h1").inner_text() == page.title().split(" | ")[0]
    page.click("footer >> text=Sitemap")
    page.wait_for_url("**/sitemap/index.html")
    page.click("nav >> text=Home")
    page.wait_for_url((lab_site / "index.html").as_uri())
    page.context.close()


def test_every_link_from_the_file_system_opens_a_file(lab_site, browser):
    """Each page's links, as the browser resolves them from file://, lead to files that
    exist (never to a folder, which would show a listing)."""
    page = open_page(browser)
    root = lab_site.resolve().as_uri() + "/"
    queue, seen = deque([root + "index.html"]), set()
    while queue:
        url = queue.popleft()
        if url in seen:
            continue
        seen.add(url)
        page.goto(url)
        assert is_styled(page), url
        for href in page.eval_on_selector_all("a[href]", "links => links.map(a => a.href)"):
            target = urldefrag(href)[0]
            if not target.startswith(root):
                continue
            path = lab_site / target[len(root):]
            assert path.is_file(), f"{url} links to {href}"
            if path.suffix == ".html":
                queue.append(target)
    assert len(seen) == len(list(lab_site.rglob("index.html")))
    page.context.close()


def test_pages_read_without_javascript(lab_site, browser):
    page = open_page(browser, java_script_enabled=False)
    page.goto((lab_site / "publications" / "index.html").as_uri())
    assert is_styled(page)
    assert page.locator("a.paper-title").count() == 18
    # Without the script, links keep their pretty form: right on the web, a folder on disk.
    assert page.get_attribute("nav >> text=Home", "href") == "../"
    page.context.close()
