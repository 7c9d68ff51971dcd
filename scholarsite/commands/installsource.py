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

from dataclasses import dataclass
from urllib.parse import urlsplit

from .packwheel import Wheel, find_running_distribution, pack_running_wheel, read_direct_url

VENDOR = "vendor"


@dataclass(frozen=True)
class Source:
    requirement: str       # the line of requirements.txt that installs scholarsite
    version: str
    wheel: Wheel | None    # the wheel the site carries, in vendor/, if any
    how: str               # in words, for the report: "from PyPI", ...


def is_public(url: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme == "https" and "@" not in parts.netloc  # no credentials in a public file


def find_install_source() -> Source:
    """The scholarsite this process runs, as a site's requirements.txt can name it."""
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
    """`scholarsite @ URL` for an origin anyone can install from again, or ''."""
    url = origin.get("url")
    if not isinstance(url, str) or not is_public(url):
        return ""
    vcs = origin.get("vcs_info")
    if isinstance(vcs, dict):
        commit = vcs.get("commit_id")
        if vcs.get("vcs") == "git" and isinstance(commit, str):
            return f"scholarsite @ git+{url}@{commit}"
        return ""
    archive = origin.get("archive_info")
    if isinstance(archive, dict):
        hashes = archive.get("hashes")
        sha = hashes.get("sha256") if isinstance(hashes, dict) else None
        return f"scholarsite @ {url}" + (f"#sha256={sha}" if isinstance(sha, str) else "")
    return ""
