"""The running scholarsite, packed as a wheel (PEP 427) for a site to carry.

When scholarsite was installed from a wheel file, a folder or a checkout, no address can
install it again elsewhere; the site then carries the package itself, as
`vendor/scholarsite-VERSION-py3-none-any.whl`, and its workflow installs that. The wheel
is packed from the very files this process runs (and its theme), so it is the code that
made the site, whatever was edited since the last install. The same code gives the same
bytes (sorted names, fixed times), so a site is not changed by a build of the same version.
"""

from __future__ import annotations

import base64
import hashlib
import io
import zipfile
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from .. import __version__
from ..render.layers import find_theme

PACKAGE = Path(__file__).resolve().parents[1]
ENTRY_POINTS = "[console_scripts]\nscholarsite = scholarsite.cli:run\n"
WHEEL_INFO = ("Wheel-Version: 1.0\nGenerator: scholarsite\nRoot-Is-Purelib: true\n"
              "Tag: py3-none-any\n")
ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # the earliest a zip file can say: no build time in it


class PackError(Exception):
    """Why the running scholarsite cannot be packed."""


@dataclass(frozen=True)
class Wheel:
    name: str  # scholarsite-0.1.0-py3-none-any.whl
    data: bytes


def find_running_distribution() -> metadata.Distribution | None:
    """The installed distribution whose files this process runs, or None (a checkout
    run as `python build.py`, or one beside another installation)."""
    for dist in metadata.distributions(name="scholarsite"):
        # An installer says so in INSTALLER; a checkout's own scholarsite.egg-info, which
        # setuptools leaves there on `pip install -e .`, is found first on the path when the
        # checkout runs as `python build.py`, but records no origin: it is no installation.
        if dist.read_text("INSTALLER") is None:
            continue
        if Path(dist.locate_file("scholarsite/__init__.py")).resolve() \
                == PACKAGE / "__init__.py":
            return dist
        origin = read_direct_url(dist)
        folder = origin.get("url", "") if origin.get("dir_info", {}).get("editable") else ""
        if folder.startswith("file://") and PACKAGE.parent.as_uri() == folder.rstrip("/"):
            return dist
    return None


def read_direct_url(dist: metadata.Distribution) -> dict:
    """What pip recorded of where the distribution came from (PEP 610), or {}."""
    import json

    try:
        data = json.loads(dist.read_text("direct_url.json") or "{}")
    except (ValueError, OSError):
        return {}
    return data if isinstance(data, dict) else {}


def read_metadata(dist: metadata.Distribution | None) -> tuple[str, str]:
    """The core metadata (METADATA's text) and the version of the running scholarsite."""
    if dist is not None and dist.read_text("METADATA"):
        return dist.read_text("METADATA"), dist.version
    return make_metadata(PACKAGE.parent / "pyproject.toml"), __version__


def make_metadata(pyproject: Path) -> str:
    """METADATA for a checkout run before it was installed, from its pyproject.toml."""
    try:
        import tomllib
    except ImportError as exc:  # Python 3.10
        raise PackError("install this checkout first (python3 -m pip install -e .)") from exc
    try:
        project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    except (OSError, ValueError, KeyError) as exc:
        raise PackError(f"cannot read {pyproject.as_posix()}: {exc}") from exc
    lines = ["Metadata-Version: 2.1", "Name: scholarsite", f"Version: {__version__}",
             f"Summary: {project.get('description', '')}",
             f"Requires-Python: {project.get('requires-python', '>=3.10')}"]
    lines += [f"Requires-Dist: {dep}" for dep in project.get("dependencies", [])]
    return "\n".join(lines) + "\n"


def list_package_files() -> dict[str, Path]:
    """Each file of the running package by its name in the wheel, the theme included."""
    files = {}
    for path in sorted(PACKAGE.rglob("*")):
        parts = path.relative_to(PACKAGE).parts
        if path.is_file() and "__pycache__" not in parts and path.suffix != ".pyc":
            files["scholarsite/" + "/".join(parts)] = path
    theme = find_theme()
    if theme is not None and theme != PACKAGE / "theme":  # a checkout: templates/
        for path in sorted(theme.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                files["scholarsite/theme/" + path.relative_to(theme).as_posix()] = path
    return files


def pack_running_wheel() -> Wheel:
    """The running scholarsite as a wheel; PackError when it cannot be packed."""
    dist = find_running_distribution()
    text, version = read_metadata(dist)
    entry_points = (dist.read_text("entry_points.txt") if dist else None) or ENTRY_POINTS
    info = f"scholarsite-{version}.dist-info"
    members = {name: path.read_bytes()
               for name, path in sorted(list_package_files().items())}
    members[f"{info}/METADATA"] = text.encode("utf-8")
    members[f"{info}/WHEEL"] = WHEEL_INFO.encode("utf-8")
    members[f"{info}/entry_points.txt"] = entry_points.encode("utf-8")
    members[f"{info}/RECORD"] = make_record(members, f"{info}/RECORD").encode("utf-8")
    return Wheel(f"scholarsite-{version}-py3-none-any.whl", zip_members(members))


def make_record(members: dict[str, bytes], own: str) -> str:
    lines = []
    for name, data in members.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
        lines.append(f"{name},sha256={digest.decode('ascii')},{len(data)}")
    return "\n".join([*lines, f"{own},,"]) + "\n"


def zip_members(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():  # the package first, RECORD last (PEP 427)
            entry = zipfile.ZipInfo(name, ZIP_TIME)
            entry.external_attr = 0o644 << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, data)
    return buffer.getvalue()
