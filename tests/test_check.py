"""`python build.py check`: the content, then every built page's links, anchors, assets,
titles and ids; external links only with --external (tested against 127.0.0.1)."""

from __future__ import annotations

import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from conftest import (EXAMPLE, MINIMAL_PAPER, TEMPLATES, build_args, copy_templates, edit,
                      paper, run_cli, tree_bytes)
from scholarsite.commands.check import resolve_link
from scholarsite.commands.linkscan import scan_html, scan_xml

PROBLEM = re.compile(r"^(?P<path>[^:\n]+):(?P<line>\d+): (?P<severity>error|warning): "
                     r"(?P<message>.*)$", re.MULTILINE)


def check_args(content: Path, templates: Path = TEMPLATES, *extra: str) -> list[str]:
    return ["check", "--content", str(content), "--templates", str(templates), *extra]


def tweak_templates(root: Path, edits: dict[str, tuple[str, str]]) -> Path:
    """A copy of the default templates with {file: (old, new)} replacements."""
    templates = copy_templates(root)
    for name, (old, new) in edits.items():
        edit(templates / name, old, new, 1)
    return templates


def problems(stderr: str) -> list[dict[str, str]]:
    return [m.groupdict() for m in PROBLEM.finditer(stderr)]


def line_of(path: Path, needle: str) -> int:
    """The line of `needle` in a built file: where check must point."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in {path}")


def test_the_example_site_has_no_problems(tmp_path):
    result = run_cli(*check_args(EXAMPLE), cwd=tmp_path)
    assert result.code == 0, result.err
    assert result.err == ""
    summary = re.search(r"Checked (\d+) pages, (\d+) internal links", result.out)
    assert summary and int(summary.group(1)) == 24 and int(summary.group(2)) > 300
    assert "no problems" in result.out
    assert list(tmp_path.iterdir()) == []  # check writes nothing


BROKEN_PAPER_PAGE = (
    "<h1>{{ paper.title_html }}</h1>",
    '<h1>{{ paper.title_html }}</h1>\n<p><a href="{{ page.root }}publications/no-such-paper/">gone'
    '</a></p>\n<p><a href="#no-such-anchor">nowhere</a></p>\n'
    '<p><a href="{{ page.root }}#main">main</a> <a href="{{ page.root }}#nope">nope</a></p>\n'
    '<img src="{{ page.root }}assets/missing.png" alt="">\n<p id="cite">again</p>',
)


def test_broken_links_anchors_assets_and_ids_are_named(make_site, tmp_path):
    content = make_site()
    templates = tweak_templates(tmp_path, {"paper.html": BROKEN_PAPER_PAGE})
    result = run_cli(*check_args(content, templates))
    assert result.code == 1
    # Build the same site to find the lines check must name: builds are deterministic.
    built = tmp_path / "built"
    args = build_args(content, built)
    args[args.index("--templates") + 1] = str(templates)
    assert run_cli(*args).code == 0
    page = built / "publications" / "a-paper" / "index.html"
    found = {(p["path"], int(p["line"]), p["message"].split(":")[0]) for p in problems(result.err)}
    shown = "site/publications/a-paper/index.html"
    first_cite = line_of(page, ">again<")
    assert found == {
        (shown, line_of(page, "no-such-paper"),
         "broken link to '../../publications/no-such-paper/'"),
        (shown, line_of(page, "#no-such-anchor"), "broken link to '#no-such-anchor'"),
        (shown, line_of(page, "#nope"), "broken link to '../../#nope'"),
        (shown, line_of(page, "missing.png"), "missing asset '../../assets/missing.png'"),
        (shown, line_of(page, '<h2 id="cite"'),
         f"duplicate id 'cite' (first at line {first_cite})"),
    }
    assert "this page has no id 'no-such-anchor'" in result.err
    assert "'index.html' has no id 'nope'" in result.err
    assert "Check failed: 5 problems" in result.err


def test_titles_are_required(make_site, tmp_path):
    templates = tweak_templates(tmp_path, {
        "base.html": ("<title>", "{% if page.kind != 'sitemap' %}<title>"),
    })
    text = (templates / "base.html").read_text(encoding="utf-8")
    text = text.replace("</title>", "</title>{% endif %}", 1)
    text = text.replace("{{ page.title }} | {{ site.title }}",
                        "{% if page.kind != 'paper' %}{{ page.title }} | {{ site.title }}"
                        "{% endif %}", 1)
    (templates / "base.html").write_text(text, encoding="utf-8")
    result = run_cli(*check_args(make_site(), templates))
    assert result.code == 1
    found = {(p["path"], p["message"]) for p in problems(result.err)}
    assert ("site/sitemap/index.html", "the page has no <title>; browsers, bookmarks and "
            "search results show it") in found
    assert ("site/publications/a-paper/index.html", "the page's <title> is empty") in found
    assert len(found) == 2


def test_root_absolute_links_fail_under_a_subpath(make_site, tmp_path):
    content = make_site({"site.yaml": "title: Lab\nurl: https://user.github.io/lab-site/\n"
                                      "author:\n  name: Ada Example\n"})
    templates = tweak_templates(tmp_path, {
        "base.html": ('href="{{ page.top }}assets/style.css"', 'href="/assets/style.css"')})
    result = run_cli(*check_args(content, templates))
    assert result.code == 1
    found = [p for p in problems(result.err) if p["severity"] == "error"]
    assert {p["path"] for p in found} == {"site/index.html", "site/publications/index.html",
                                          "site/publications/a-paper/index.html",
                                          "site/search/index.html", "site/sitemap/index.html",
                                          "site/404.html"}
    assert all(p["message"].startswith("link to '/assets/style.css' leaves the site's folder "
                                       "'/lab-site/'") for p in found)


def test_another_site_on_the_same_host_is_an_external_link(make_site):
    """https://example.org/ is the site; https://example.org/book/ is another one published
    on that host (the site has no book/ folder): external, not broken. A full address into
    a folder the site has is still checked."""
    abstract = ("See [the book](https://example.org/book/ch1.html) and "
                "[a lost paper](https://example.org/publications/gone/).")
    content = make_site({"publications/a-paper.md": paper(abstract=abstract)})
    result = run_cli(*check_args(content))
    assert result.code == 1
    found = {p["message"] for p in problems(result.err)}
    assert found and all("https://example.org/publications/gone/" in m for m in found)
    edit(content / "publications" / "a-paper.md", " and [a lost paper]"
         "(https://example.org/publications/gone/)", "")
    result = run_cli(*check_args(content))
    assert result.code == 0, result.err
    assert "1 external link" in result.out


def test_sitemap_entries_are_checked(make_site, tmp_path):
    templates = tweak_templates(tmp_path, {
        "sitemap.xml": ("</urlset>", "  <url><loc>{{ site.url }}old-page/</loc></url>\n"
                                     "</urlset>")})
    result = run_cli(*check_args(make_site(), templates))
    assert result.code == 1
    [problem] = problems(result.err)
    assert problem["path"] == "site/sitemap.xml"
    assert problem["message"].startswith("broken link to 'https://example.org/old-page/': "
                                         "there is no 'old-page/index.html'")


def test_content_errors_are_reported_like_build(make_site, tmp_path):
    content = make_site({"publications/b.md": "---\ntitle: B\n---\n"})
    result = run_cli(*check_args(content), cwd=tmp_path)
    assert result.code == 1
    assert any(p["path"].endswith("publications/b.md") for p in problems(result.err))
    assert "the site could not be built" in result.err
    assert not (tmp_path / "site").exists()


def test_check_leaves_the_built_site_alone(make_site, tmp_path):
    content = make_site()
    assert run_cli(*build_args(content)).code == 0
    before = tree_bytes(tmp_path / "site")
    (content / "publications" / "a-paper.md").write_text(
        MINIMAL_PAPER.replace("A Paper", "A Renamed Paper"), encoding="utf-8")
    result = run_cli(*check_args(content), cwd=tmp_path)
    assert result.code == 0, result.err
    assert tree_bytes(tmp_path / "site") == before


# Where a redirect leads: somewhere on the same server, or to private and local addresses.
REDIRECTS = {"/moved": "/ok", "/to-metadata": "http://169.254.169.254/latest/meta-data/",
             "/to-private": "http://10.0.0.1/admin"}


class StatusHandler(BaseHTTPRequestHandler):
    """/ok answers 200, /forbidden 403, /trickle its headers a byte at a time, REDIRECTS
    a redirect, anything else 404. Every request is noted in `seen` as (method, path)."""

    seen: list[tuple[str, str]] = []

    def answer(self) -> None:
        self.seen.append((self.command, self.path))
        if self.path == "/trickle":
            return self.trickle()
        code = {"/ok": 200, "/forbidden": 403}.get(self.path, 404)
        self.send_response(301 if self.path in REDIRECTS else code)
        if self.path in REDIRECTS:
            self.send_header("Location", REDIRECTS[self.path])
        self.send_header("Content-Length", "0")
        self.end_headers()

    def trickle(self) -> None:
        """A status line, then a header that never ends, one byte at a time."""
        self.wfile.write(b"HTTP/1.1 200 OK\r\nX-Slow: ")
        for _ in range(600):  # a minute, unless the client gives up first
            self.wfile.write(b"x")
            self.wfile.flush()
            time.sleep(0.1)

    do_HEAD = do_GET = answer

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def link_server(monkeypatch):
    """A server on 127.0.0.1, which check may ask only because SCHOLARSITE_ALLOW_LOOPBACK
    says so (tests alone set it)."""
    monkeypatch.setenv("SCHOLARSITE_ALLOW_LOOPBACK", "1")
    StatusHandler.seen = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), StatusHandler)
    server.daemon_threads = True
    server.handle_error = lambda request, address: None  # a client that gave up
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def site_linking(make_site, **links: str) -> Path:
    listed = "".join(f"  {kind}: {url}\n" for kind, url in links.items())
    return make_site({"publications/a-paper.md": MINIMAL_PAPER.replace(
        "---\nAn abstract", f"links:\n{listed}---\nAn abstract")})


def test_external_links_only_with_the_option(make_site, link_server, monkeypatch):
    paper = MINIMAL_PAPER.replace("---\nAn abstract", f"links:\n  code: {link_server}/ok\n"
                                  f"  pdf: {link_server}/missing\n"
                                  f"  slides: {link_server}/forbidden\n---\nAn abstract")
    content = make_site({"publications/a-paper.md": paper})
    offline = run_cli(*check_args(content))
    assert offline.code == 0, offline.err
    assert "3 external links (not checked; add --external" in offline.out
    online = run_cli(*check_args(content, TEMPLATES, "--external"))
    assert online.code == 1
    found = {(p["path"], p["severity"], p["message"]) for p in problems(online.err)}
    messages = {message for _, _, message in found}
    assert f"external link '{link_server}/missing' answered 404 Not Found" in messages
    assert not any("/ok'" in message for message in messages)
    forbidden = [f for f in found if "/forbidden" in f[2]]
    assert forbidden and all(severity == "warning" for _, severity, _ in forbidden)
    # Each problem is named where the link is: the publications list, the paper's page and
    # the feed's entry for the paper.
    assert {path for path, _, m in found if "/missing" in m} == {
        "site/index.html", "site/publications/index.html",
        "site/publications/a-paper/index.html", "site/feed.xml"}


def test_a_trickling_server_is_cut_off_at_the_deadline(make_site, link_server, monkeypatch):
    # Headers sent a byte at a time: each read is quick, the request never ends, unless
    # its whole time is bounded (here 1 s; 10 s by default).
    monkeypatch.setenv("SCHOLARSITE_TIMEOUT", "1")
    content = site_linking(make_site, code=f"{link_server}/trickle")
    started = time.monotonic()
    result = run_cli(*check_args(content, TEMPLATES, "--external"), timeout=50)
    assert time.monotonic() - started < 20
    assert result.code == 1 and "Traceback" not in result.err
    assert f"external link '{link_server}/trickle' could not be reached: no answer within " \
           "1 s" in result.err


def test_redirects_keep_the_method_and_stay_public(make_site, link_server, monkeypatch):
    content = site_linking(make_site, code=f"{link_server}/moved",
                           pdf=f"{link_server}/to-metadata", slides=f"{link_server}/to-private",
                           video="http://192.168.0.1/")
    result = run_cli(*check_args(content, TEMPLATES, "--external"), timeout=60)
    assert result.code == 0, result.err  # warnings: the links were not checked
    assert ("HEAD", "/ok") in StatusHandler.seen and ("GET", "/ok") not in StatusHandler.seen
    found = {(p["severity"], p["message"]) for p in problems(result.err)}
    for link, address in (("/to-metadata", "169.254.169.254"), ("/to-private", "10.0.0.1")):
        assert ("warning", f"external link '{link_server}{link}' is not checked: "
                f"'{REDIRECTS[link]}' leads to {address}, a private or local address; "
                "not asked") in found
    assert ("warning", "external link 'http://192.168.0.1/' is not checked: "
            "'http://192.168.0.1/' leads to 192.168.0.1, a private or local address; "
            "not asked") in found


def test_loopback_is_asked_only_when_tests_allow_it(make_site, link_server, monkeypatch):
    monkeypatch.delenv("SCHOLARSITE_ALLOW_LOOPBACK")
    content = site_linking(make_site, code=f"{link_server}/ok")
    result = run_cli(*check_args(content, TEMPLATES, "--external"), timeout=60)
    assert StatusHandler.seen == []
    assert f"external link '{link_server}/ok' is not checked: '{link_server}/ok' leads to " \
           "127.0.0.1, a private or local address" in result.err


@pytest.mark.parametrize("url, page, expected", [
    ("../", "publications/index.html", ("index.html", "")),
    ("#cite", "a/index.html", ("a/index.html", "cite")),
    ("x.bib", "publications/x/index.html", ("publications/x/x.bib", "")),
    ("../../files/a%20b.pdf#page=2", "p/x/index.html", ("files/a b.pdf", "page=2")),
    ("/lab/sitemap/", "index.html", ("sitemap/index.html", "")),
    ("https://u.github.io/lab/publications/?q=1#x", "index.html",
     ("publications/index.html", "x")),
])
def test_resolve_internal_links(url, page, expected):
    target = resolve_link(url, page, "https://u.github.io/lab/")
    assert (target.path, target.fragment) == expected and not target.problem


@pytest.mark.parametrize("url, problem", [
    ("/other/", "leaves the site's folder '/lab/'"),
    ("../../x/", "leads outside the site"),
])
def test_resolve_links_that_cannot_work(url, problem):
    assert problem in resolve_link(url, "a/index.html", "https://u.github.io/lab/").problem


def test_resolve_external_and_skipped_links():
    base = "https://u.github.io/lab/"
    assert resolve_link("https://doi.org/10.1/x", "index.html", base).external
    assert resolve_link("//cdn.example/x.js", "index.html", base).external == \
        "https://cdn.example/x.js"
    for url in ("mailto:a@b.org", "#", "", "  ", "tel:123"):  # '' is the page itself
        assert resolve_link(url, "index.html", base) is None


def test_scan_html_lines_ids_and_srcset():
    scan = scan_html('<!doctype html>\n<title> T </title>\n<p id="a">\n'
                     '<img srcset="a.png 1x, b.png 2x" src="c.png" alt="">\n<a name="old"></a>\n')
    assert scan.title == "T" and scan.title_line == 2
    assert scan.ids == {"a": [3], "old": [5]}
    assert [(link.url, link.line, link.asset) for link in scan.links] == [
        ("c.png", 4, True), ("a.png", 4, True), ("b.png", 4, True)]


def test_scan_xml_reads_sitemaps_and_feeds():
    scan = scan_xml(b'<?xml version="1.0"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/'
                    b'sitemap/0.9">\n<url><loc> https://x.org/a/ </loc></url>\n</urlset>')
    assert [(link.url, link.line) for link in scan.links] == [("https://x.org/a/", 3)]
    feed = scan_xml(b'<feed xmlns="http://www.w3.org/2005/Atom">\n'
                    b'<link href="https://x.org/"/>\n</feed>')
    assert [link.url for link in feed.links] == ["https://x.org/"]
    with pytest.raises(ValueError):
        scan_xml(b"<urlset><loc>")


def test_an_owners_file_published_as_it_is_gets_warnings_not_errors(make_site):
    """An HTML page of the owner's under files/ (an old site's page moved in) is published
    as it is: its dead links are warnings that name it (errors with --strict), while the
    pages the build writes keep theirs as errors."""
    content = make_site({"files/old/tool.html": "<!doctype html><title>Tool</title>\n"
                                                "<a href='../../styles.css'>css</a>\n"
                                                "<a href='License.txt'>license</a>\n"})
    result = run_cli(*check_args(content))
    assert result.code == 0, result.err
    found = problems(result.err)
    assert [(p["path"], p["severity"]) for p in found] == \
        [("site/files/old/tool.html", "warning")] * 2, result.err
    assert all("published as it is" in p["message"] for p in found)
    assert run_cli(*check_args(content, TEMPLATES, "--strict")).code == 1
    abstract = "See [the tool](../../files/old/missing.html)."
    edit(content / "publications" / "a-paper.md", "An abstract.", abstract)
    result = run_cli(*check_args(content))
    assert result.code == 1
    assert any(p["severity"] == "error" and "missing.html" in p["message"]
               for p in problems(result.err))
