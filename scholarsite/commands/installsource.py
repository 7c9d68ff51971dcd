"""Which scholarsite a site's workflow installs: exactly the one that made (or upgraded) it.

pip records where a package came from (PEP 610, `direct_url.json` in its metadata):
- nothing recorded: from a package index (PyPI) -> `scholarsite==VERSION`;
- a public git address and commit -> `scholarsite @ git+https://...@COMMIT`;
- a public https archive -> that address, with its hash when pip kept one;
- anything else (a wheel file, a folder, an editable checkout, a checkout not installed)
  cannot be installed again elsewhere: the site carries the running package as a wheel
  (commands/packwheel.py) and names that file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from .packwheel import (PackError, Wheel, find_running_distribution, pack_running_wheel,
                        read_direct_url)

VENDOR = "vendor"


@dataclass(frozen=True)
class Source:
    requirement: str       # the line of requirements.txt that installs scholarsite
    version: str
    wheel: Wheel | None    # the wheel the site carries, in vendor/, if any
    how: str               # in words, for the report: "from PyPI", ...


# What each part of pip's record may hold before it goes into requirements.txt, which the
# site's workflows give to pip: a line break there would add a pip option (--index-url) or
# another package, a space a marker. An address is RFC 3986's characters (no space, no
# control character, no quote), a commit git's 40 hex digits, a hash sha256's 64, a
# version what PEP 440 spells.
URL_TEXT = re.compile(r"[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]+")
COMMIT = re.compile(r"[0-9a-fA-F]{40}")
SHA256 = re.compile(r"[0-9a-fA-F]{64}")
VERSION = re.compile(r"[A-Za-z0-9.+!_-]+")


def is_public(url: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme == "https" and "@" not in parts.netloc  # no credentials in a public file


def check_part(value: str, pattern: re.Pattern, what: str) -> str:
    """`value` when the whole of it is what `pattern` allows; PackError otherwise."""
    if not pattern.fullmatch(value):
        raise PackError(f"pip's record of this scholarsite (its METADATA, direct_url.json) "
                        f"gives {what} {value!r}, which is not one, so it is not written into "
                        "requirements.txt (the site's workflows install from it); reinstall "
                        "scholarsite")
    return value


def find_install_source() -> Source:
    """The scholarsite this process runs, as a site's requirements.txt can name it;
    PackError when what pip recorded of it cannot be put in a requirement as it is."""
    source = name_install_source()
    check_part(source.version, VERSION, "the version")
    return source


def name_install_source() -> Source:
    dist = find_running_distribution()
    if dist is not None:
        origin = read_direct_url(dist)
        if not origin:
            return Source(f"scholarsite=={dist.version}", dist.version, None, "from PyPI")
        found = name_public_origin(origin)
        if found:
            return Source(found, dist.version, None, "from " + found.split("@ ", 1)[-1])
    wheel = pack_running_wheel()
    version = wheel.name.split("-")[1]
    return Source(f"./{VENDOR}/{wheel.name}", version, wheel, f"carried in {VENDOR}/")


def name_public_origin(origin: dict) -> str:
    """`scholarsite @ URL` for an origin anyone can install from again, or ''; PackError
    when a part of it is no address, commit or hash."""
    url = origin.get("url")
    if not isinstance(url, str) or not is_public(url):
        return ""  # the site carries a wheel instead: nothing of this record is written
    check_part(url, URL_TEXT, "the address")
    vcs = origin.get("vcs_info")
    if isinstance(vcs, dict):
        commit = vcs.get("commit_id")
        if vcs.get("vcs") == "git" and isinstance(commit, str):
            return f"scholarsite @ git+{url}@{check_part(commit, COMMIT, 'the commit')}"
        return ""
    archive = origin.get("archive_info")
    if isinstance(archive, dict):
        hashes = archive.get("hashes")
        sha = hashes.get("sha256") if isinstance(hashes, dict) else None
        if not isinstance(sha, str):
            return f"scholarsite @ {url}"
        return f"scholarsite @ {url}#sha256={check_part(sha, SHA256, 'the sha256 hash')}"
    return ""
