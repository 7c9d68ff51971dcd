"""The network, for `update` alone: `build` never imports this module.

Polite by default, as the services ask: one request at a time, a User-Agent naming the
tool and a contact address, a timeout per request, a few retries with a growing pause,
and a 429's `Retry-After` honoured. Each service's base address may be pointed elsewhere
by an environment variable (the tests point them at a server on 127.0.0.1).
"""

from __future__ import annotations

import email.utils
import http.client
import json
import os
import socket
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import Callable
from urllib.parse import urlsplit

from .. import __version__

# Each service: the variable that overrides its base address, and the address.
BASES = {
    "dblp": ("SCHOLARSITE_DBLP_URL", "https://dblp.org"),
    "orcid": ("SCHOLARSITE_ORCID_URL", "https://pub.orcid.org/v3.0"),
    "openalex": ("SCHOLARSITE_OPENALEX_URL", "https://api.openalex.org"),
    "semantic-scholar": ("SCHOLARSITE_S2_URL", "https://api.semanticscholar.org/graph/v1"),
}
TIMEOUT_VARIABLE = "SCHOLARSITE_TIMEOUT"  # seconds per request
DEFAULT_TIMEOUT = 30.0
RETRIED_STATUSES = (429, 500, 502, 503, 504)  # busy or briefly down: worth asking again
MISSING_STATUSES = (404, 410)


class FetchError(Exception):
    """A request that failed for good. `kind`: 'missing' (the service does not know it),
    'offline' (no connection at all: asking again will not help), or 'failed'."""

    def __init__(self, url: str, message: str, kind: str = "failed") -> None:
        super().__init__(f"{url}: {message}")
        self.url = url
        self.kind = kind


def base_url(service: str) -> str:
    variable, default = BASES[service]
    return (os.environ.get(variable) or default).rstrip("/")


def read_timeout() -> float:
    try:
        return max(float(os.environ.get(TIMEOUT_VARIABLE, "")), 0.01)
    except ValueError:
        return DEFAULT_TIMEOUT


@dataclass
class Fetcher:
    """Asks one thing at a time; counts what it asked (`requests`), for the report."""

    contact: str
    timeout: float = field(default_factory=read_timeout)
    retries: int = 3
    backoff: float = 1.0  # the first pause, doubled after each retry
    max_wait: float = 60.0  # the longest pause a Retry-After may ask for
    sleep: Callable[[float], None] = time.sleep
    requests: int = 0

    def user_agent(self) -> str:
        contact = f"; mailto:{self.contact}" if self.contact else ""
        return f"scholarsite/{__version__} (academic homepage update{contact})"

    def fetch(self, url: str, accept: str = "*/*") -> bytes:
        """The response's body; FetchError when it cannot be had."""
        request = urllib.request.Request(url, headers={"User-Agent": self.user_agent(),
                                                       "Accept": accept})
        for attempt in range(self.retries + 1):
            last = attempt == self.retries
            self.requests += 1
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    return response.read()
            except urllib.error.HTTPError as exc:
                wait = self.judge_status(url, exc, last)
            except urllib.error.URLError as exc:
                if not isinstance(exc.reason, (TimeoutError, socket.timeout)):
                    raise FetchError(url, describe_offline(url, exc.reason), "offline") from None
                wait = self.judge_failure(url, f"no answer within {self.timeout:g} s", last)
            except (TimeoutError, socket.timeout):
                wait = self.judge_failure(url, f"no answer within {self.timeout:g} s", last)
            except (ConnectionError, http.client.HTTPException) as exc:
                broke = f"the connection broke ({exc or type(exc).__name__})"
                wait = self.judge_failure(url, broke, last)
            self.sleep(min(wait if wait is not None else self.backoff * 2 ** attempt,
                           self.max_wait))
        raise AssertionError("unreachable")  # the last attempt returns or raises

    def judge_status(self, url: str, exc: urllib.error.HTTPError, last: bool) -> float | None:
        """The pause before asking again (None: the usual backoff), or FetchError."""
        if exc.code in MISSING_STATUSES:
            raise FetchError(url, "not found", "missing") from None
        if exc.code not in RETRIED_STATUSES or last:
            tries = f" (asked {self.retries + 1} times)" if exc.code in RETRIED_STATUSES else ""
            raise FetchError(url, f"HTTP {exc.code} {exc.reason}{tries}") from None
        return parse_retry_after(exc.headers.get("Retry-After", "")) if exc.headers else None

    def judge_failure(self, url: str, message: str, last: bool) -> None:
        if last:
            raise FetchError(url, f"{message} (asked {self.retries + 1} times)")

    def fetch_json(self, url: str) -> object:
        data = self.fetch(url, "application/json")
        try:
            return json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise FetchError(url, f"the answer is not JSON ({exc})") from None


def parse_retry_after(value: str) -> float | None:
    """Seconds to wait: `Retry-After` is a number of seconds or an HTTP date."""
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(when.timestamp() - time.time(), 0.0)


def describe_offline(url: str, reason: object) -> str:
    host = urlsplit(url).hostname or url
    return (f"cannot reach {host} ({getattr(reason, 'strerror', None) or reason}): "
            "is this machine offline?")
