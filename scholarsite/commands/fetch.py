"""The network, for `update` alone: `build` never imports this module.

Polite by default, as the services ask: one request at a time, a User-Agent naming the
tool and a contact address, a few retries with a growing pause, and a 429's `Retry-After`
honoured. Each request goes through netrequest.fetch_url: one deadline for all of it
(SCHOLARSITE_TIMEOUT), an answer of at most MAX_ANSWER_BYTES, and redirects only within
the service's own address. Each service's base address may be pointed elsewhere by an
environment variable (the tests point them at a server on 127.0.0.1).
"""

from __future__ import annotations

import email.utils
import os
import time
from dataclasses import dataclass, field
from typing import Callable
from urllib.parse import urlsplit

from .. import __version__
from .netrequest import Answer, Reach, RequestError, fetch_url, parse_json, read_timeout

# Each service: the variable that overrides its base address, and the address.
BASES = {
    "dblp": ("SCHOLARSITE_DBLP_URL", "https://dblp.org"),
    "orcid": ("SCHOLARSITE_ORCID_URL", "https://pub.orcid.org/v3.0"),
    "openalex": ("SCHOLARSITE_OPENALEX_URL", "https://api.openalex.org"),
    "semantic-scholar": ("SCHOLARSITE_S2_URL", "https://api.semanticscholar.org/graph/v1"),
    "crossref": ("SCHOLARSITE_CROSSREF_URL", "https://api.crossref.org"),
    "datacite": ("SCHOLARSITE_DATACITE_URL", "https://api.datacite.org"),
    "arxiv": ("SCHOLARSITE_ARXIV_URL", "https://export.arxiv.org"),
    "arxiv-author": ("SCHOLARSITE_ARXIV_AUTHOR_URL", "https://arxiv.org/a"),
    "inspire": ("SCHOLARSITE_INSPIRE_URL", "https://inspirehep.net/api"),
    "pubmed": ("SCHOLARSITE_PUBMED_URL", "https://eutils.ncbi.nlm.nih.gov/entrez/eutils"),
    "openlibrary": ("SCHOLARSITE_OPENLIBRARY_URL", "https://openlibrary.org"),
    "openreview": ("SCHOLARSITE_OPENREVIEW_URL", "https://api2.openreview.net"),
    "openreview-v1": ("SCHOLARSITE_OPENREVIEW_V1_URL", "https://api.openreview.net"),
    "acl": ("SCHOLARSITE_ACL_URL", "https://aclanthology.org"),
}
DEFAULT_TIMEOUT = 30.0  # seconds for a whole request (SCHOLARSITE_TIMEOUT)
# The largest answer read: DBLP's BibTeX of a prolific author is a few MB, ORCID's
# contributors of 100 works with thousands of authors each can be tens of MB.
MAX_ANSWER_BYTES = 64 * 1024 * 1024
RETRIED_STATUSES = (429, 500, 502, 503, 504)  # busy or briefly down: worth asking again
MISSING_STATUSES = (404, 410)


class FetchError(Exception):
    """A request that failed for good. `kind`: 'missing' (the service does not know it),
    'offline' (no connection at all: asking again will not help), 'limited' (the service
    still answered 429, Too Many Requests, on the last try) or 'failed'."""

    def __init__(self, url: str, message: str, kind: str = "failed") -> None:
        super().__init__(f"{url}: {message}")
        self.url = url
        self.kind = kind


def base_url(service: str) -> str:
    variable, default = BASES[service]
    return (os.environ.get(variable) or default).rstrip("/")


@dataclass
class Fetcher:
    """Asks one thing at a time; counts what it asked (`requests`), for the report."""

    contact: str
    timeout: float = field(default_factory=lambda: read_timeout(DEFAULT_TIMEOUT))
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
        headers = {"User-Agent": self.user_agent(), "Accept": accept}
        for attempt in range(self.retries + 1):
            last = attempt == self.retries
            self.requests += 1
            try:
                answer = fetch_url(url, "GET", headers, self.timeout, MAX_ANSWER_BYTES,
                                   Reach(first_trusted=True, same_origin=True))
            except RequestError as exc:
                wait = self.judge_failure(url, exc, last)
            else:
                if answer.status == 200:
                    return answer.body
                wait = self.judge_status(url, answer, last)
            self.sleep(min(wait if wait is not None else self.backoff * 2 ** attempt,
                           self.max_wait))
        raise AssertionError("unreachable")  # the last attempt returns or raises

    def judge_status(self, url: str, answer: Answer, last: bool) -> float | None:
        """The pause before asking again (None: the usual backoff), or FetchError."""
        if answer.status in MISSING_STATUSES:
            raise FetchError(url, "not found", "missing")
        if answer.status not in RETRIED_STATUSES or last:
            tries = f" (asked {self.retries + 1} times)" \
                if answer.status in RETRIED_STATUSES else ""
            raise FetchError(url, f"HTTP {answer.status} {answer.reason}{tries}",
                             "limited" if answer.status == 429 else "failed")
        return parse_retry_after(answer.headers.get("Retry-After", ""))

    def judge_failure(self, url: str, exc: RequestError, last: bool) -> None:
        """A request that gave no answer: asked again after a timeout or a broken
        connection; FetchError for good when offline or refused, or on the last try."""
        if exc.kind == "offline":
            raise FetchError(url, describe_offline(url, exc), "offline")
        if exc.kind in ("refused", "private"):
            raise FetchError(url, str(exc))
        message = f"no answer within {self.timeout:g} s" if exc.kind == "timeout" else str(exc)
        if last:
            raise FetchError(url, f"{message} (asked {self.retries + 1} times)")

    def fetch_json(self, url: str) -> object:
        data = self.fetch(url, "application/json")
        try:
            return parse_json(data)
        except ValueError as exc:  # UnicodeDecodeError too
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
    return f"cannot reach {host} ({reason}): is this machine offline?"
