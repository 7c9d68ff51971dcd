"""The one way scholarsite asks the network, for `update` and `check --external` alike.

`fetch_url` makes one HTTP request and gives its status, headers and body, under rules
that no answer can bend:

- one deadline for the whole request (name lookup, connection, TLS, headers, body and
  every redirect), not per socket read: a server that sends one byte a second is cut off
  when the deadline passes, as is one that never answers;
- a body larger than `max_bytes` is refused, not read on into memory;
- redirects are followed by hand, at most MAX_REDIRECTS, with the method kept (a HEAD
  stays a HEAD), and only where the caller's `Reach` allows: every address a name
  resolves to must be public (no loopback, private, link-local or reserved address, so a
  link cannot make scholarsite probe the owner's own network), or, for `update`, the
  redirect must stay on the service's own scheme, host and port. The connection goes to
  the address that was checked, so a name cannot resolve to another one in between.

Tests run their servers on 127.0.0.1: the variable ALLOW_LOOPBACK_VARIABLE (set only by
tests) lets loopback addresses count as public; nothing else does. No HTTP proxy is used.
`parse_json` reads a JSON answer without the recursion a deep nesting would cause.
"""

from __future__ import annotations

import http.client
import io
import ipaddress
import json
import os
import re
import socket
import ssl
import threading
import time
from dataclasses import dataclass
from email.message import Message
from urllib.parse import quote, urljoin, urlsplit

TIMEOUT_VARIABLE = "SCHOLARSITE_TIMEOUT"  # seconds a whole request may take
ALLOW_LOOPBACK_VARIABLE = "SCHOLARSITE_ALLOW_LOOPBACK"  # '1' in tests only
MAX_REDIRECTS = 5
REDIRECT_STATUSES = (301, 302, 303, 307, 308)
MAX_JSON_DEPTH = 64  # the services' answers nest about ten levels deep
_CHUNK = 64 * 1024
_UNSENDABLE = re.compile(r"[^\x21-\x7e]")
_JSON_MARK = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.DOTALL)


class RequestError(Exception):
    """A request that gave no answer. `kind`: 'timeout', 'offline' (no connection could
    be made: the message is the system's reason), 'broken' (the connection or the answer
    broke off), 'private' (an address that is not public) or 'refused' (an answer too
    large, a redirect the rules above do not allow, an invalid certificate: asking again
    will not help)."""

    def __init__(self, message: str, kind: str) -> None:
        super().__init__(message)
        self.kind = kind


@dataclass(frozen=True)
class Reach:
    """Where a request may go. `first_trusted`: the first address is the user's own
    setting (a service's base URL), connected to as it is; `same_origin`: redirects must
    keep its scheme, host and port. Every other address must be public."""

    first_trusted: bool = False
    same_origin: bool = False


@dataclass(frozen=True)
class Answer:
    url: str  # after redirects
    status: int
    reason: str
    headers: Message
    body: bytes


def read_timeout(default: float) -> float:
    """SCHOLARSITE_TIMEOUT's seconds, or `default`."""
    try:
        return max(float(os.environ.get(TIMEOUT_VARIABLE, "")), 0.01)
    except ValueError:
        return default


def fetch_url(url: str, method: str, headers: dict[str, str], timeout: float,
              max_bytes: int, reach: Reach = Reach()) -> Answer:
    """The answer to `method url` (any status; redirects followed as above), its body
    read only when `max_bytes` > 0; RequestError when there is none."""
    deadline = time.monotonic() + timeout
    first = url
    for hop in range(MAX_REDIRECTS + 1):
        trusted = reach.first_trusted and (hop == 0 or reach.same_origin)
        answer = ask_once(url, method, headers, deadline, max_bytes, trusted)
        location = answer.headers.get("Location")
        if answer.status not in REDIRECT_STATUSES or not location:
            return answer
        url = follow_redirect(first, url, location, reach)
    raise RequestError(f"more than {MAX_REDIRECTS} redirects", "refused")


def follow_redirect(first: str, current: str, location: str, reach: Reach) -> str:
    target = urljoin(current, location.strip())
    if urlsplit(target).scheme not in ("http", "https"):
        raise RequestError(f"redirected to '{target}', which is not a web address", "refused")
    if reach.same_origin and origin_of(target) != origin_of(first):
        raise RequestError(f"redirected to '{target}', away from {origin_of(first)}; "
                           "not followed", "refused")
    return target


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    return f"{parts.scheme}://{parts.hostname}:{port}"


def ask_once(url: str, method: str, headers: dict[str, str], deadline: float,
             max_bytes: int, trusted: bool) -> Answer:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise RequestError(f"'{url}' is not a web address", "refused")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError as exc:
        raise RequestError(f"'{url}' is not a web address ({exc})", "refused") from None
    addresses = resolve_host(parts.hostname, port, deadline)
    if not trusted:
        check_addresses(url, addresses)
    conn = _Connection(parts.hostname, port, addresses, deadline, parts.scheme == "https")
    try:
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        # A browser sends a space or a non-ASCII letter of a link percent-encoded.
        conn.request(method, _UNSENDABLE.sub(lambda m: quote(m.group()), path),
                     headers=headers)
        response = conn.getresponse()
        body = read_body(response, max_bytes, url) if max_bytes > 0 else b""
        return Answer(url, response.status, response.reason, response.msg, body)
    except TimeoutError:
        raise RequestError("timeout", "timeout") from None
    except RequestError:
        raise
    except ssl.SSLCertVerificationError as exc:  # asking again will not mend it
        raise RequestError(f"its certificate is not valid ({exc.verify_message})",
                           "refused") from None
    except (OSError, http.client.HTTPException) as exc:
        raise RequestError(f"the connection broke ({exc or type(exc).__name__})",
                           "broken") from None
    except ValueError as exc:  # a header or address http.client will not send
        raise RequestError(f"cannot be asked ({exc})", "refused") from None
    finally:
        conn.close()
        conn.close_socket()


def read_body(response: http.client.HTTPResponse, max_bytes: int, url: str) -> bytes:
    """The whole body, or RequestError once it passes `max_bytes`."""
    declared = response.getheader("Content-Length", "")
    if declared.isdigit() and int(declared) > max_bytes:
        raise RequestError(f"the answer ({int(declared):,} bytes) is larger than the "
                           f"limit of {max_bytes:,} bytes", "refused")
    parts, size = [], 0
    while True:
        chunk = response.read(_CHUNK)
        if not chunk:
            return b"".join(parts)
        size += len(chunk)
        if size > max_bytes:
            raise RequestError(f"the answer is larger than the limit of {max_bytes:,} "
                               "bytes", "refused")
        parts.append(chunk)


def resolve_host(host: str, port: int, deadline: float) -> list[tuple]:
    """getaddrinfo's answers, looked up in a thread: the call itself has no timeout."""
    found: list = []

    def look_up() -> None:
        try:
            found.append(socket.getaddrinfo(host, port, type=socket.SOCK_STREAM))
        except (OSError, UnicodeError) as exc:
            found.append(exc)

    thread = threading.Thread(target=look_up, daemon=True)
    thread.start()
    thread.join(max(deadline - time.monotonic(), 0))
    if not found:
        raise RequestError("timeout", "timeout")
    if isinstance(found[0], Exception):
        raise RequestError(str(getattr(found[0], "strerror", None) or found[0]), "offline")
    return found[0]


def check_addresses(url: str, addresses: list[tuple]) -> None:
    """RequestError unless every address of the host is public."""
    for *_, sockaddr in addresses:
        if not is_public(sockaddr[0]):
            raise RequestError(f"'{url}' leads to {sockaddr[0]}, a private or local "
                               "address; not asked", "private")


def is_public(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.is_loopback and os.environ.get(ALLOW_LOOPBACK_VARIABLE) == "1":
        return True
    return ip.is_global and not ip.is_multicast


class _Connection(http.client.HTTPConnection):
    """An HTTP(S) connection to addresses already looked up, under one deadline."""

    def __init__(self, host: str, port: int, addresses: list[tuple], deadline: float,
                 tls: bool) -> None:
        super().__init__(host, port)
        self.default_port = 443 if tls else 80  # the Host header leaves it out
        self.addresses, self.deadline, self.tls = addresses, deadline, tls
        self.opened: list[socket.socket] = []

    def connect(self) -> None:
        sock = open_socket(self.addresses, self.deadline)
        self.opened.append(sock)
        if self.tls:
            sock = ssl.create_default_context().wrap_socket(sock, server_hostname=self.host)
            self.opened.append(sock)
        self.sock = _DeadlineSocket(sock, self.deadline)

    def close_socket(self) -> None:
        """http.client closes its connection before the body is read when the server
        will close it (HTTP/1.0); the socket itself is closed here, once all is read."""
        for sock in reversed(self.opened):
            sock.close()


def open_socket(addresses: list[tuple], deadline: float) -> socket.socket:
    """A connection to the first address that takes one, before the deadline."""
    problem: OSError = OSError("no address")
    for family, kind, proto, _, sockaddr in addresses:
        sock = socket.socket(family, kind, proto)
        try:
            sock.settimeout(remaining(deadline))
            sock.connect(sockaddr)
            return sock
        except TimeoutError:
            sock.close()
            raise
        except OSError as exc:
            sock.close()
            problem = exc
    raise RequestError(str(getattr(problem, "strerror", None) or problem), "offline")


def remaining(deadline: float) -> float:
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError("deadline")
    return left


class _DeadlineSocket:
    """The socket http.client reads and writes through: each read or write may wait only
    for what is left of the deadline, so a trickle cannot stretch it."""

    def __init__(self, sock: socket.socket, deadline: float) -> None:
        self.sock, self.deadline = sock, deadline

    def sendall(self, data: bytes) -> None:
        self.sock.settimeout(remaining(self.deadline))
        self.sock.sendall(data)  # its timeout bounds the whole call (Python 3.5+)

    def recv_into(self, buffer) -> int:
        self.sock.settimeout(remaining(self.deadline))
        return self.sock.recv_into(buffer)

    def makefile(self, mode: str) -> io.BufferedReader:
        return io.BufferedReader(_Reader(self))

    def close(self) -> None:
        pass  # see _Connection.close_socket


class _Reader(io.RawIOBase):
    def __init__(self, sock: _DeadlineSocket) -> None:
        self.sock = sock

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        return self.sock.recv_into(buffer)


def parse_json(data: bytes) -> object:
    """A JSON document; ValueError when it is not one, or nests deeper than
    MAX_JSON_DEPTH (Python's parser recurses once a level)."""
    text = data.decode("utf-8")
    depth = deepest = 0
    for mark in _JSON_MARK.finditer(text):
        token = mark.group()
        if token in ("[", "{"):
            depth += 1
            deepest = max(deepest, depth)
            if deepest > MAX_JSON_DEPTH:
                raise ValueError(f"it nests deeper than {MAX_JSON_DEPTH} levels")
        elif token in ("]", "}"):
            depth -= 1
    return json.loads(text)
