"""The suite's one fake web service: a handler on browser.run_server (127.0.0.1, a free
port) that answers each request from `routes`, as Crossref, DataCite, arXiv, PubMed, Open
Library, OpenReview, the ACL Anthology, INSPIRE-HEP, OpenAlex, DBLP, ORCID and Semantic
Scholar would (each test gives the answers: small ones written in the test, whole ones
from tests/fixtures/services/).
No test reaches the internet."""

from __future__ import annotations

import json
import time
from contextlib import ExitStack
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from urllib.parse import unquote, urlsplit

from browser import run_server

FIXTURES = Path(__file__).parent / "fixtures" / "services"
NOT_FOUND = (404, b'{"error": "not found"}', {"Content-Type": "application/json"})
_TYPES = {".json": "application/json", ".xml": "text/xml; charset=UTF-8",
          ".atom": "application/atom+xml; charset=UTF-8", ".atom2": "application/atom+xml",
          ".html": "text/html", ".bib": "application/x-bibtex; charset=UTF-8"}


def json_answer(data: object, status: int = 200, headers: dict | None = None) -> tuple:
    return (status, json.dumps(data).encode(), {"Content-Type": "application/json",
                                                **(headers or {})})


def fixture_answer(name: str, status: int = 200) -> tuple:
    """The answer kept in tests/fixtures/services/NAME, with its file's content type."""
    path = FIXTURES / name
    return status, path.read_bytes(), {"Content-Type": _TYPES.get(path.suffix, "text/plain")}


class Raw:
    """An answer the handler writes itself, as it comes: `write(handler)`."""

    def __init__(self, write) -> None:
        self.write = write


def trickle(body: bytes, pause: float) -> Raw:
    """The headers at once, then the body one byte per `pause` seconds."""
    def write(handler) -> None:
        handler.send_response(200)
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        for at in range(len(body)):
            handler.wfile.write(body[at:at + 1])
            handler.wfile.flush()
            time.sleep(pause)
    return Raw(write)


def endless(chunk: bytes, most: int) -> Raw:
    """A body with no length that goes on (to `most` bytes, to spare the test machine)."""
    def write(handler) -> None:
        handler.send_response(200)
        handler.send_header("Connection", "close")
        handler.end_headers()
        for _ in range(most // len(chunk)):
            handler.wfile.write(chunk)
    return Raw(write)


def oversized(body: bytes, declared: int) -> Raw:
    """An honest huge answer: its true length declared, then `body` over and over until
    that length is sent or the client hangs up (a client under a size cap hangs up at
    once, so the test machine sends almost nothing)."""
    def write(handler) -> None:
        handler.send_response(200)
        handler.send_header("Content-Length", str(declared))
        handler.end_headers()
        for _ in range(declared // len(body)):
            handler.wfile.write(body)
        handler.wfile.write(body[:declared % len(body)])
    return Raw(write)


class Services:
    """The fake services, started at once and stopped by `close()` (or as a context
    manager): `routes` maps a path, or a path with its query, to an answer, a list of
    answers given in turn (the last one kept), a function making one, or a Raw; they may
    be changed between runs. `seen` is every request as (path with query, User-Agent)."""

    def __init__(self, routes: dict) -> None:
        self.routes = routes
        self.seen: list[tuple[str, str]] = []
        self._stack = ExitStack()
        port = self._stack.enter_context(run_server(make_handler(self)))
        self.url = f"http://127.0.0.1:{port}"

    def answer(self, path: str):
        """The answer for a path with its query, else for the path alone."""
        answer = self.routes.get(path, self.routes.get(urlsplit(path).path, NOT_FOUND))
        if isinstance(answer, list):
            return answer.pop(0) if len(answer) > 1 else answer[0]
        return answer

    def paths(self) -> list[str]:
        return [path for path, _ in self.seen]

    def close(self) -> None:
        self._stack.close()

    def __enter__(self) -> Services:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def make_handler(services: Services) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            path = unquote(self.path)
            services.seen.append((path, self.headers.get("User-Agent", "")))
            answer = services.answer(path)
            try:
                if isinstance(answer, Raw):
                    return answer.write(self)
                self.send_answer(answer() if callable(answer) else answer)
            except (BrokenPipeError, ConnectionResetError):
                pass  # a client that gave up (a deadline, a size cap): as it should

        def send_answer(self, answer: tuple) -> None:
            status, body, headers = answer
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args) -> None:
            pass

    return Handler
