"""Which requests the preview server answers: those addressed to it.

A page on another site can make a browser send requests to 127.0.0.1, or, through a name
whose address it changes after the page loaded (DNS rebinding), read the answers as its
own. So every request's `Host` must name an address the server listens on, on its port
(a name only where --host gave it, 'localhost' and, on all interfaces, the machine's own
name), or it gets 403. A WebSocket (the reload channel) must come from a page of the
preview itself: its `Origin` is checked the same way. An IP address, unlike a name,
cannot be pointed elsewhere by the page, so every one is accepted when the server
listens on all interfaces.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from tornado import web

LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})
ALL_INTERFACES = ("", "0.0.0.0", "::")


@dataclass(frozen=True)
class Addresses:
    """The host names the server answers to, and its port."""

    names: frozenset[str]
    port: int
    any_address: bool = False  # listening on all interfaces: any IP address is its own

    def accepts_host(self, host: str) -> bool:
        """Whether a `Host` header ('127.0.0.1:8000', '[::1]:8000') names this server."""
        try:
            parts = urlsplit(f"//{host}")
            name, port = parts.hostname, parts.port or 80
        except ValueError:  # a port that is no number, a bracket left open
            return False
        if not name or port != self.port or parts.username is not None:
            return False
        return name in self.names or (self.any_address and is_ip_address(name))

    def accepts_origin(self, origin: str) -> bool:
        """Whether an `Origin` header is a page this server served."""
        parts = urlsplit(origin)
        return parts.scheme == "http" and not parts.path and self.accepts_host(parts.netloc)


def is_ip_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def list_addresses(host: str, port: int) -> Addresses:
    """What a server listening on `host` (as --host gives it) and `port` answers to."""
    name = host.strip("[]").lower()
    if name in ALL_INTERFACES:  # and the machine's own name, which no other site sets
        own = socket.gethostname().lower()
        return Addresses(LOOPBACK_NAMES | {own, f"{own}.local"}, port, any_address=True)
    if name in LOOPBACK_NAMES:
        return Addresses(LOOPBACK_NAMES, port)
    return Addresses(frozenset({name}), port)


class AddressedOnly(web.RequestHandler):
    """A handler that answers only requests whose `Host` names the server (403 for any
    other) and takes a WebSocket only from the server's own pages. The application's
    setting 'addresses' holds what the server answers to."""

    def prepare(self):  # type: ignore[override]
        addresses: Addresses = self.settings["addresses"]
        host = self.request.headers.get("Host")  # none: HTTP/1.0, which no browser sends
        if host is not None and not addresses.accepts_host(host):
            raise web.HTTPError(403, reason="Not this server's address")
        return super().prepare()

    def check_origin(self, origin: str) -> bool:
        return self.settings["addresses"].accepts_origin(origin)
