"""`python build.py serve`: a real server in a subprocess on a free port, real HTTP
requests, real saves to the content folder, and one real browser."""

from __future__ import annotations

import http.client
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from conftest import (MINIMAL_CONFIG, ROOT, TEMPLATES, build_args, copy_templates, edit,
                      paper, run_cli, write_files)

PAPER_PAGE = "/publications/a-paper/"


class Server:
    """`build.py serve` in a subprocess; its console is collected line by line."""

    def __init__(self, *args: str, interrupt_ignored: bool = False) -> None:
        env = dict(os.environ, PYTHONIOENCODING="utf-8", PYTHONUTF8="1")
        # As a script's background job starts it: with Ctrl-C's signal ignored.
        ignore = (lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)) \
            if interrupt_ignored else None
        self.proc = subprocess.Popen(
            [sys.executable, str(ROOT / "build.py"), "serve", *args],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, encoding="utf-8",
            env=env, preexec_fn=ignore)
        self.lines: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        match = self.wait_for_line(r"at (http://[^ ]+) \(Ctrl-C to stop\)")
        self.url = match.group(1)
        self.host, port = re.match(r"http://([^:/]+):(\d+)/", self.url).groups()
        self.port = int(port)

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))

    def console(self) -> str:
        return "\n".join(self.lines)

    def wait_for_line(self, pattern: str, timeout: float = 30) -> re.Match:
        deadline = time.monotonic() + timeout
        exited = None
        while time.monotonic() < deadline:
            for line in list(self.lines):
                if match := re.search(pattern, line):
                    return match
            if self.proc.poll() is not None:
                exited = exited or time.monotonic()
                if time.monotonic() - exited > 0.5:  # the reader has had the last lines
                    break
            time.sleep(0.02)
        raise AssertionError(f"no line matching {pattern!r} in:\n{self.console()}")

    def get(self, path: str, method: str = "GET") -> tuple[int, str, dict]:
        conn = http.client.HTTPConnection(self.host, self.port, timeout=10)
        try:
            conn.request(method, path)
            response = conn.getresponse()
            body = response.read().decode("utf-8", "replace")
            return response.status, body, dict(response.getheaders())
        finally:
            conn.close()

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT if os.name != "nt" else signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode


def wait_until(check, timeout: float, what: str):
    """Poll `check` until it returns something true; the value, or AssertionError."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout} s: {what}")
        time.sleep(0.02)


@pytest.fixture
def served(make_site, tmp_path):
    """A small site, its own templates, and a server for it."""
    content = make_site()
    templates = copy_templates(tmp_path)
    servers: list[Server] = []

    def start(*extra: str, interrupt_ignored: bool = False) -> Server:
        server = Server("--content", str(content), "--output", str(tmp_path / "site"),
                        "--templates", str(templates), "--port", "0", *extra,
                        interrupt_ignored=interrupt_ignored)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


def test_the_site_is_served_with_the_reload_script(served):
    server = served()
    assert server.host == "127.0.0.1"
    status, body, headers = server.get("/")
    assert status == 200 and "<h1 id=\"name\">Ada Example</h1>" in body
    assert '<script src="/livereload.js"></script></head>' in body
    assert headers["Cache-Control"] == "no-store"
    status, body, _ = server.get(PAPER_PAGE)
    assert status == 200 and "<h1>A Paper</h1>" in body
    assert server.get("/livereload.js")[0] == 200
    assert server.get("/publications")[0] == 301  # to the folder's address, as on GitHub Pages
    status, body, _ = server.get("/no/such/page/")
    assert status == 404 and "Page not found" in body  # the site's own 404 page


def test_an_edit_to_a_paper_shows_within_two_seconds(served, tmp_path):
    server = served()
    paper = tmp_path / "content" / "publications" / "a-paper.md"
    saved = time.monotonic()
    edit(paper, "title: A Paper", "title: A Better Paper")
    wait_until(lambda: "<h1>A Better Paper</h1>" in server.get(PAPER_PAGE)[1],
               2 - (time.monotonic() - saved), "the page shows the new title")
    assert "<h1>A Better Paper</h1>" in (tmp_path / "site/publications/a-paper/index.html"
                                         ).read_text(encoding="utf-8")
    server.wait_for_line(r"^Rebuilt in \d+ ms: \d+ files? changed")


def test_a_text_in_another_language_shows_when_saved(served, tmp_path):
    """index.zh.md and cv.zh.yaml (a text in a language, `NAME.TAG.SUFFIX`) are read as
    their default file is: a save of either was seen by no rebuild."""
    content = write_files(tmp_path / "content", {
        "site.yaml": MINIMAL_CONFIG + "languages: [en, zh]\n", "index.md": "Hello.\n",
        "index.zh.md": "你好。\n", "cv.yaml": "awards:\n  - Best Example Award, 2023\n",
        "cv.zh.yaml": "awards:\n  - 最佳示例奖, 2023\n"})
    server = served()
    for path, old, new, page in ((content / "index.zh.md", "你好", "再见", "/zh/"),
                                 (content / "cv.zh.yaml", "最佳示例奖", "最佳论文奖", "/zh/cv/")):
        edit(path, old, new)
        wait_until(lambda new=new, page=page: new in server.get(page)[1], 10,
                   f"{page} shows the save of {path}")


def test_a_broken_file_shows_an_error_page_until_it_is_fixed(served, tmp_path):
    server = served()
    paper = tmp_path / "content" / "publications" / "a-paper.md"
    edit(paper, "title: A Paper", "title: <b>A Paper\ntitel: oops")
    status, body, _ = wait_until(lambda: (r := server.get(PAPER_PAGE))[0] == 500 and r,
                                 10, "the error page")
    where = f"{paper.as_posix()}:3: error: unknown field &#x27;titel&#x27;"
    assert where in body and "<b>" not in body
    assert '<script src="/livereload.js"></script></head>' in body  # reloads when fixed
    assert server.get("/")[0] == 500  # every page says so
    assert server.get("/assets/style.css")[0] == 200
    server.wait_for_line(rf"^{re.escape(paper.as_posix())}:3: error: unknown field 'titel'")
    assert server.proc.poll() is None
    edit(paper, "title: <b>A Paper\ntitel: oops", "title: A Fixed Paper")
    status, body, _ = wait_until(lambda: (r := server.get(PAPER_PAGE))[0] == 200 and r,
                                 10, "the fixed page")
    assert "<h1>A Fixed Paper</h1>" in body


def test_a_broken_link_saved_while_serving_is_named_at_its_line(served, tmp_path):
    server = served()
    paper = tmp_path / "content" / "publications" / "a-paper.md"
    edit(paper, "An abstract.", "An abstract.\n\nSee [the slides](files/gone.pdf).")
    server.wait_for_line(rf"^{re.escape(paper.as_posix())}:10: warning: link to "
                         r"'files/gone\.pdf', which is no page or file of this site")


def test_a_site_broken_from_the_start_is_served_once_fixed(served, tmp_path):
    paper = tmp_path / "content" / "publications" / "a-paper.md"
    edit(paper, "date: 2024-05", "date: someday")
    server = served()
    status, body, _ = server.get("/")
    assert status == 500 and f"{paper.as_posix()}:6: error: " in body
    edit(paper, "date: someday", "date: 2024-05")
    wait_until(lambda: server.get("/")[0] == 200, 10, "the site, once fixed")


def test_a_site_deleted_meanwhile_is_written_whole_at_the_next_save(served, tmp_path):
    server = served()
    site = tmp_path / "site"
    count = sum(1 for p in site.rglob("*") if p.is_file())
    shutil.rmtree(site)
    edit(tmp_path / "content" / "publications" / "a-paper.md", "title: A Paper",
         "title: A Better Paper")
    wait_until(lambda: "<h1>A Better Paper</h1>" in server.get(PAPER_PAGE)[1], 10,
               "the page shows the new title")
    assert sum(1 for p in site.rglob("*") if p.is_file()) == count
    assert server.get("/")[0] == 200 and server.get("/feed.xml")[0] == 200


def test_serve_strict_fails_as_build_strict_after_a_counted_paper_is_deleted(served,
                                                                              tmp_path):
    """serve assembles the site with the loader's function: a citation count left for a
    deleted paper is the same warning, an error with --strict, in both commands."""
    content = write_files(tmp_path / "content", {
        "site.yaml": MINIMAL_CONFIG + "citations: openalex\n",
        "publications/b-paper.md": paper("B Paper", "2023-01"),
        "citations.yaml": "b-paper:\n  count: 7\n  source: openalex\n  id: W1\n"
                          "  fetched: 2026-11-30\n"})
    server = served("--strict")
    assert server.get("/publications/b-paper/")[0] == 200
    (content / "publications" / "b-paper.md").unlink()
    said = server.wait_for_line(r"^.*citations for 'b-paper', which is no paper.*$").group(0)
    built = run_cli(*build_args(content, tmp_path / "built", "--strict"))
    assert built.code == 1
    assert said in built.err.splitlines(), (said, built.err)
    assert server.get("/")[0] == 500


def test_a_template_edit_shows(served, tmp_path):
    server = served()
    edit(tmp_path / "templates" / "paper.html", "Recommended citation", "How to cite")
    wait_until(lambda: "How to cite" in server.get(PAPER_PAGE)[1], 10, "the new template")


TRAVERSALS = [
    "/../content/site.yaml", "/%2e%2e/content/site.yaml", "/..%2fcontent/site.yaml",
    "/%2e%2e%2fcontent%2fsite.yaml", "/%252e%252e/content/site.yaml",
    "/%252e%252e%252fcontent%252fsite.yaml", "/publications/../../content/site.yaml",
    "/..\\content\\site.yaml", "/%5c..%5ccontent%5csite.yaml", "/.%2e/content/site.yaml",
    "/../../../../../../etc/passwd", "//etc/passwd", "/%2fetc%2fpasswd",
    "/.scholarsite-manifest", "/%00", "/index.html%00.css",
]


def test_requests_that_leave_the_site_get_404(served, tmp_path):
    server = served()
    (tmp_path / "site-secret.txt").write_text("secret", encoding="utf-8")
    absolute = (tmp_path / "content" / "site.yaml").as_posix()
    for path in TRAVERSALS + ["/" + absolute, "/../site-secret.txt"]:
        status, body, _ = server.get(path)
        assert status == 404, path
        assert "Ada Example\nurl:" not in body and "secret" not in body and "root:" not in body


def test_a_link_out_of_the_site_gets_404(served, tmp_path):
    if not hasattr(os, "symlink"):
        pytest.skip("no symbolic links here")
    server = served()
    os.symlink(tmp_path / "content", tmp_path / "site" / "linked")
    assert server.get("/linked/site.yaml")[0] == 404


def raw_status(server: Server, headers: str, path: str = "/") -> int:
    """The status of a GET with exactly these header lines, as a page elsewhere could
    make a browser send it."""
    request = f"GET {path} HTTP/1.1\r\n{headers}Connection: close\r\n\r\n"
    with socket.create_connection((server.host, server.port), timeout=10) as sock:
        sock.sendall(request.encode("latin-1"))
        reply = sock.recv(200)
    return int(reply.split(b" ", 2)[1])


def test_a_request_for_another_host_gets_403(served):
    server = served()
    port = server.port
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}"):
        assert raw_status(server, f"Host: {host}\r\n") == 200, host
    # DNS rebinding: a name the attacker points at 127.0.0.1 after its page loaded.
    for host in (f"evil.example:{port}", "evil.example", f"127.0.0.1:{port + 1}",
                 f"localhost.evil.example:{port}"):
        for path in ("/", "/livereload.js", PAPER_PAGE):
            assert raw_status(server, f"Host: {host}\r\n", path) == 403, (host, path)
    for host in (f"x@127.0.0.1:{port}", "127.0.0.1:x", f"127.0.0.1:{port}:{port}"):
        assert raw_status(server, f"Host: {host}\r\n") in (400, 403), host


WEBSOCKET = ("Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
             "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n")


def test_the_reload_channel_takes_no_websocket_from_another_site(served):
    server = served()
    host = f"Host: 127.0.0.1:{server.port}\r\n"
    for origin in ("http://evil.example", f"http://evil.example:{server.port}", "null",
                   f"http://127.0.0.1:{server.port + 1}", f"http://localhost:{server.port + 1}"):
        assert raw_status(server, f"{host}Origin: {origin}\r\n{WEBSOCKET}",
                          "/livereload") == 403, origin
    for origin in (f"http://127.0.0.1:{server.port}", f"http://localhost:{server.port}"):
        assert raw_status(server, f"{host}Origin: {origin}\r\n{WEBSOCKET}",
                          "/livereload") == 101, origin
    # A page on another site whose browser says so (Sec-Fetch-Site) is refused as well.
    assert raw_status(server, f"{host}Origin: http://evil.example\r\n"
                      f"Sec-Fetch-Site: cross-site\r\n{WEBSOCKET}", "/livereload") == 403


def test_malformed_requests_do_not_stop_the_server(served):
    server = served()
    junk = [b"\x00\xff\r\n\r\n", b"GET\r\n\r\n", b"GET / HTTP/9.9\r\n\r\n",
            b"GET /%ff HTTP/1.1\r\nHost: x\r\n\r\n", b"GET /%zz HTTP/1.1\r\nHost: x\r\n\r\n",
            b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n",
            b"GET /" + b"a" * 100_000 + b" HTTP/1.1\r\n\r\n",
            b"GET /livereload HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n\r\n"]
    for data in junk:
        with socket.create_connection((server.host, server.port), timeout=5) as sock:
            try:
                sock.sendall(data)
                sock.shutdown(socket.SHUT_WR)
                reply = sock.recv(200)
            except OSError:  # the server may close on us: that is fine
                reply = b""
        assert not reply or reply.startswith(b"HTTP/1.1 4"), (data[:40], reply)
    assert server.get("/")[0] == 200
    assert server.proc.poll() is None


def test_a_port_in_use_moves_to_the_next_free_one(make_site, tmp_path):
    content = make_site()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        server = Server("--content", str(content), "--output", str(tmp_path / "site"),
                        "--templates", str(TEMPLATES), "--port", str(port))
        try:
            assert server.port != port
            assert f"Port {port} is in use; using {server.port} instead." in server.console()
            assert server.get("/")[0] == 200
        finally:
            server.stop()


@pytest.mark.skipif(os.name == "nt", reason="Ctrl-C is a console event on Windows")
@pytest.mark.parametrize("interrupt_ignored", [False, True])
def test_ctrl_c_stops_cleanly(served, interrupt_ignored):
    """Also when started with Ctrl-C's signal ignored, as a script's background job is
    (it then served on, until killed)."""
    server = served(interrupt_ignored=interrupt_ignored)
    server.proc.send_signal(signal.SIGINT)
    assert server.proc.wait(30) == 0  # stopping is what is tested, not its speed under load
    server.wait_for_line(r"^Stopped\.$")
    assert "Traceback" not in server.console()


def test_listens_on_loopback_only_by_default(served):
    server = served()
    table = Path("/proc/net/tcp")
    if not table.exists():
        pytest.skip("no /proc/net/tcp to read listening sockets from")
    listening = [line.split()[1] for line in table.read_text().splitlines()[1:]
                 if line.split()[3] == "0A"]
    assert f"0100007F:{server.port:04X}" in listening
    assert f"00000000:{server.port:04X}" not in listening


def test_an_output_folder_inside_the_content_is_refused(make_site, tmp_path):
    content = make_site()
    proc = subprocess.run([sys.executable, str(ROOT / "build.py"), "serve", "--content",
                           str(content), "--output", str(content / "site"), "--port", "0"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and "it is inside" in proc.stderr


def test_serve_refuses_the_project_folder_as_build_does(make_site, tmp_path):
    """`serve --output .` would serve the whole project (content/site.yaml included): it is
    refused before anything is served, with build's own message."""
    make_site()
    proc = subprocess.run([sys.executable, str(ROOT / "build.py"), "serve", "--output", ".",
                           "--templates", str(ROOT / "templates"), "--port", "0"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1, proc.stderr
    assert "refusing to build into '.'" in proc.stderr and "Serving" not in proc.stdout


def test_an_open_page_reloads_by_itself_after_an_edit(served, tmp_path, browser):
    server = served()
    context = browser.new_context()
    context.set_default_timeout(10_000)
    page = context.new_page()
    sent: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda frame: sent.append(str(frame))))
    page.goto(server.url + PAPER_PAGE.lstrip("/"))
    for _ in range(200):  # Playwright delivers events while it waits
        if any('"info"' in frame for frame in sent):
            break
        page.wait_for_timeout(50)
    assert any('"info"' in frame for frame in sent), "livereload.js did not connect"
    paper = tmp_path / "content" / "publications" / "a-paper.md"
    page.evaluate("window.notReloaded = true")
    edit(paper, "title: A Paper", "title: A Paper, Revised")
    page.wait_for_function("() => !window.notReloaded && "
                           "document.querySelector('h1')?.textContent === 'A Paper, Revised'")
    edit(paper, "date: 2024-05", "date: someday")  # the error page comes by itself...
    page.wait_for_function("() => document.querySelector('h1')?.textContent === "
                           "'The site could not be built'")
    assert "error: " in page.inner_text("pre.build-errors")
    edit(paper, "date: someday", "date: 2024-05")  # ...and goes once the file is fixed
    page.wait_for_function("() => document.querySelector('h1')?.textContent === "
                           "'A Paper, Revised'")
    context.close()

