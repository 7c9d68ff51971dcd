"""`python build.py serve`: preview the site while writing it.

Builds the site once, serves the output folder on 127.0.0.1, and on every save rebuilds
what the change affects (incremental.py) and then reloads the open pages. From livereload
come the browser side (livereload.js), its WebSocket handler and the filter that adds the
script to each page; files are served by a handler of our own (livereload's answers 403,
not 404, to a path that leaves the folder, follows links out of it and shows hidden files).

Rebuilds run on the server's one thread, between requests, and write each file with
os.replace: a request sees the site before a save or after it, never in between. When a
rebuild fails, every page request gets an error page with the problems (which reloads by
itself once they are fixed) and the console shows them; the server goes on.
"""

from __future__ import annotations

import errno
import gc
import html
import logging
import os
import signal
import socket
import webbrowser
from dataclasses import dataclass
from pathlib import Path

from livereload.handlers import LiveReloadHandler, LiveReloadJSHandler
from livereload.server import LiveScriptInjector
from tornado import web
from tornado.httpserver import HTTPServer
from tornado.ioloop import IOLoop
from tornado.netutil import bind_sockets
from tornado.websocket import WebSocketClosedError

from ..diagnostics import count_of
from ..build import BuildOptions, check_build_dirs
from ..output.paths import read_regular
from .hosts import Addresses, AddressedOnly, list_addresses
from .incremental import SiteBuilder
from .steps import Outcome
from .watch import Watcher

PORT_TRIES = 20  # a port in use: try the next ones
LIVE_SCRIPT = b'<script src="/livereload.js"></script>'  # livereload.js finds the server by its src
LOOPBACK = ("127.0.0.1", "localhost", "::1")


@dataclass(frozen=True)
class ServeOptions:
    build: BuildOptions
    host: str = "127.0.0.1"
    port: int = 8000  # 0: any free port
    open_browser: bool = False


class ServeError(Exception):
    """The server cannot start; the message says why."""


class Preview:
    """What the server shows: the output folder, or the problems of the last rebuild."""

    def __init__(self, out_dir: Path) -> None:
        self.root = os.path.realpath(out_dir)
        self.errors: list[str] = []

    def locate(self, url_path: str) -> str | None:
        """A decoded URL path as a clean path relative to the site ('a/b/'), or None for
        one that leaves the site, names a hidden file or cannot name a file at all."""
        parts = url_path.replace("\\", "/").split("/")
        names = [p for p in parts if p]
        if "\x00" in url_path or any(p.startswith(".") or ":" in p for p in names):
            return None
        real = os.path.realpath(os.path.join(self.root, *names))
        if real != self.root and not real.startswith(self.root + os.sep):
            return None  # a link inside the site that points out of it
        # What the request really names: a link, or a Windows short name (GIT~1 for .git),
        # must not reach a hidden file either.
        if any(p.startswith(".") for p in Path(os.path.relpath(real, self.root)).parts):
            return None
        return "/".join(names) + ("/" if names and parts[-1] == "" else "")


def is_page_request(url_path: str) -> bool:
    """A request for an HTML page: a folder, or a name ending in .html."""
    last = url_path.rsplit("/", 1)[-1]
    return last == "" or last.endswith(".html") or "." not in last


def render_error_page(errors: list[str]) -> bytes:
    problems = html.escape("\n".join(errors))
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Build failed</title>
<style>
body {{ font: 16px/1.5 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; }}
pre {{ background: #fff4f4; border: 1px solid #c62828; padding: 1rem; white-space: pre-wrap;
      overflow-wrap: anywhere; }}
</style>
</head>
<body>
<main>
<h1>The site could not be built</h1>
<p>Fix these problems and save: this page reloads by itself.</p>
<pre class="build-errors">{problems}</pre>
</main>
</body>
</html>
""".encode("utf-8")


class SiteHandler(AddressedOnly, web.StaticFileHandler):
    """The built site, and nothing else: 404 for any path that leaves it (and 403 for a
    request addressed to another host: hosts.py)."""

    def initialize(self, preview: Preview) -> None:  # type: ignore[override]
        super().initialize(path=preview.root, default_filename="index.html")
        self.preview = preview

    async def get(self, path: str, include_body: bool = True) -> None:
        rel = self.preview.locate(path)
        if rel is None:
            raise web.HTTPError(404)
        if self.preview.errors and is_page_request(rel):
            self.set_status(500)
            self.set_header("Content-Type", "text/html; charset=UTF-8")
            self.set_header("Cache-Control", "no-store")
            self.finish(render_error_page(self.preview.errors) if include_body else b"")
            return
        await super().get(rel, include_body)

    def validate_absolute_path(self, root: str, absolute_path: str) -> str | None:
        try:
            return super().validate_absolute_path(root, absolute_path)
        except web.HTTPError as exc:
            if exc.status_code == 403:  # outside the site, or a folder: not found either way
                raise web.HTTPError(404) from None
            raise

    @classmethod
    def get_content(cls, abspath: str, start: int | None = None, end: int | None = None
                    ) -> bytes:
        """The whole file at once, closed before the response goes out: a rebuild between
        two chunks then neither mixes two versions nor finds the file open (which would
        stop os.replace on Windows). Site files are small."""
        return read_regular(abspath)[start:end]

    def should_return_304(self) -> bool:
        return False  # a file saved twice in one second must not look unchanged

    def compute_etag(self) -> None:
        return None

    def set_extra_headers(self, path: str) -> None:
        self.set_header("Cache-Control", "no-store")

    def write_error(self, status_code: int, **kwargs) -> None:
        page = Path(self.preview.root, "404.html")
        if status_code == 404 and page.is_file():
            self.set_header("Content-Type", "text/html; charset=UTF-8")
            self.finish(read_regular(page))
            return
        super().write_error(status_code, **kwargs)


class ReloadHandler(AddressedOnly, LiveReloadHandler):
    """livereload's WebSocket, which takes every origin, taken from our pages only."""


class ReloadScriptHandler(AddressedOnly, LiveReloadJSHandler):
    pass


def make_app(preview: Preview, addresses: Addresses) -> web.Application:
    class InjectLiveScript(LiveScriptInjector):
        script = LIVE_SCRIPT

    LiveReloadHandler.live_css = True
    return web.Application(
        [(r"/livereload", ReloadHandler),
         (r"/livereload\.js", ReloadScriptHandler),
         (r"/(.*)", SiteHandler, {"preview": preview})],
        transforms=[InjectLiveScript],
        log_function=lambda handler: None,  # no line per request on the console
        addresses=addresses,
    )


def reload_browsers(path: str = "*") -> None:
    """Tell the open pages to reload (a stylesheet's path reloads just the styles)."""
    message = {"command": "reload", "path": path, "liveCSS": True, "liveImg": True}
    for waiter in list(LiveReloadHandler.waiters):
        try:
            waiter.write_message(message)
        except WebSocketClosedError:
            LiveReloadHandler.waiters.discard(waiter)


def bind_free_port(host: str, port: int) -> tuple[list[socket.socket], int]:
    """Listening sockets on `port`, or on the next free one when it is in use."""
    tries = 1 if port == 0 else PORT_TRIES
    for candidate in range(port, port + tries):
        try:
            sockets = bind_sockets(candidate, host or None)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                continue
            raise ServeError(f"cannot listen on {host}:{candidate}: {exc.strerror}") from None
        return sockets, sockets[0].getsockname()[1]
    raise ServeError(f"ports {port} to {port + tries - 1} are all in use; pass --port N")


def show_url(host: str, port: int) -> str:
    if host in ("", "0.0.0.0", "::"):
        host = "127.0.0.1"
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def say(text: str) -> None:
    print(text, flush=True)


def report(outcome: Outcome, first: bool) -> None:
    """The console's account of one build: problems as `path:line: ...`, then one line."""
    for item in outcome.warnings:
        say(str(item))
    if not outcome.ok:
        for item in outcome.errors:
            say(str(item))
        say(f"Build failed: {count_of(len(outcome.errors), 'problem')}, shown in the browser "
            "too; waiting for the next save.")
    elif first:
        say(f"Built {count_of(len(outcome.written), 'file')} "
            f"({count_of(outcome.papers, 'paper')}) "
            f"in {outcome.seconds:.2f} s")
    else:
        changed = ", ".join(outcome.written[:3]) + (" ..." if len(outcome.written) > 3 else "")
        say(f"Rebuilt in {outcome.seconds * 1000:.0f} ms: "
            f"{count_of(len(outcome.written), 'file')} changed"
            f"{': ' + changed if changed else ''}")


class LiveSite:
    """The builder, what the server shows, and what happens on a save."""

    def __init__(self, options: BuildOptions) -> None:
        self.builder = SiteBuilder(options)
        self.preview = Preview(options.output_dir)

    def build_first(self) -> None:
        outcome = self.builder.build()
        report(outcome, first=True)
        self.preview.errors = [str(d) for d in outcome.errors]
        self.settle_memory()

    @staticmethod
    def settle_memory() -> None:
        """Put what the first build keeps (views, pages, templates) out of the garbage
        collector's way: otherwise some later rebuild pays for a full collection that
        walks all of it (tens of ms at 2,000 papers). Collected first: nothing that is
        garbage now is kept."""
        gc.collect()
        gc.freeze()

    def rebuild(self, paths: set[Path]) -> None:
        outcome = self.builder.build(paths)
        if outcome is None:
            return
        report(outcome, first=False)
        was_failing = bool(self.preview.errors)
        self.preview.errors = [str(d) for d in outcome.errors]
        if outcome.ok and not outcome.written and not was_failing:
            return
        styles = outcome.ok and not was_failing and all(
            rel.endswith(".css") for rel in outcome.written)
        reload_browsers(outcome.written[0] if styles else "*")


def stop_on_signal(signum: int, frame: object) -> None:
    raise KeyboardInterrupt  # a terminated server stops as cleanly as on Ctrl-C


def serve(options: ServeOptions) -> int:
    """Build, serve and watch until Ctrl-C (or SIGTERM); returns the exit code. Stopped
    during the first build, the old site is left as it was."""
    build_options = options.build
    check_build_dirs(build_options)  # what build refuses is not served either
    # Bad requests (a path that is not UTF-8, say) are answered 400, not logged.
    logging.getLogger("tornado.general").setLevel(logging.ERROR)
    sockets, port = bind_free_port(options.host, options.port)
    if options.port and port != options.port:
        say(f"Port {options.port} is in use; using {port} instead.")
    live = LiveSite(build_options)
    # The site's templates and the theme's: an override saved, added or removed rebuilds.
    watcher = Watcher([build_options.content_dir, *build_options.template_layers()],
                      [build_options.output_dir], live.rebuild)
    server = HTTPServer(make_app(live.preview, list_addresses(options.host, port)))
    signal.signal(signal.SIGTERM, stop_on_signal)
    # Ctrl-C stops the preview, as it says, even where the shell started it with Ctrl-C
    # ignored (a job put in the background by a script): Python keeps an ignored signal
    # ignored.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        # Listed before the first build, watched after it: a save during the build is
        # rebuilt after it, and the build runs with no watching thread, so that it may
        # fork workers as `build` does (parallel.count_workers).
        watcher.take_listing()
        live.build_first()
        if watcher.start() == "polling":
            say("The system cannot report file changes here; looking for them every 0.5 s.")
        watcher.catch_up()
        server.add_sockets(sockets)
        if options.host not in LOOPBACK:
            say(f"Listening on {options.host or 'all interfaces'}: other machines can see "
                "this preview.")
        url = show_url(options.host, port)
        say(f"Serving {build_options.output_dir.as_posix()}/ at {url} (Ctrl-C to stop)")
        if options.open_browser:
            IOLoop.current().add_callback(webbrowser.open, url)
        IOLoop.current().start()
    except KeyboardInterrupt:
        pass
    finally:
        watcher.stop()
        server.stop()
        for sock in sockets:
            sock.close()
    say("Stopped.")
    return 0
