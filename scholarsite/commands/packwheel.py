"""The running scholarsite, packed as a wheel (PEP 427) for a site to carry.

When scholarsite was installed from a wheel file, a folder or a checkout, no address can
install it again elsewhere; the site then carries the package itself, as
`vendor/scholarsite-VERSION-py3-none-any.whl`, and its workflow installs that. The wheel
is packed from the very files this process runs (and its theme), so it is the code that
made the site, whatever was edited since the last install. The same code gives the same
bytes (sorted names, fixed times), so a site is not changed by a build of the same version.

The wheel is committed to the site's public repository, so it holds exactly the files the
package declares, as pip would pack them: an installed scholarsite's as its RECORD lists
them, a checkout's as its pyproject.toml declares them (packages and package data, found
as setuptools finds them: a hidden file such as `.env` or an editor's `.x.py.swp` is no
package file). No file is read through a link: a link among them stops the packing.
"""

from __future__ import annotations

import base64
import glob
import hashlib
import io
import json
import zipfile
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from .. import __version__
from ..output.paths import find_link_below, name_below, open_regular, why_not_name

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
    # The metadata read here (INSTALLER, direct_url.json, METADATA, entry_points.txt) is
    # the running package's own, written by pip into its environment; whoever can change
    # it can change the code too, so it is read as importlib.metadata reads it. What goes
    # from it into a site's files is checked there (installsource.py).
    for dist in metadata.distributions(name="scholarsite"):
        # An installer says so in INSTALLER; a checkout's own scholarsite.egg-info, which
        # setuptools leaves there on `pip install -e .`, is found first on the path when the
        # checkout runs as `python build.py`, but records no origin: it is no installation.
        if dist.read_text("INSTALLER") is None:
            continue
        if is_installed_here(dist):
            return dist
        origin = read_direct_url(dist)
        folder = origin.get("url", "") if origin.get("dir_info", {}).get("editable") else ""
        if folder.startswith("file://") and PACKAGE.parent.as_uri() == folder.rstrip("/"):
            return dist
    return None


def is_installed_here(dist: metadata.Distribution) -> bool:
    """Whether `dist` is the package this process runs, installed (not editable)."""
    return Path(dist.locate_file("scholarsite/__init__.py")).resolve() == PACKAGE / "__init__.py"


def read_direct_url(dist: metadata.Distribution) -> dict:
    """What pip recorded of where the distribution came from (PEP 610), or {}. Read by
    importlib.metadata, as the package's own metadata (find_running_distribution says why);
    installsource.py checks every part of it that goes into a site."""
    try:
        data = json.loads(dist.read_text("direct_url.json") or "{}")
    except (ValueError, OSError):
        return {}
    return data if isinstance(data, dict) else {}


def read_metadata(dist: metadata.Distribution | None, project: dict) -> tuple[str, str]:
    """The core metadata (METADATA's text) and the version of the running scholarsite
    (the package's own metadata, read by importlib.metadata: see
    find_running_distribution)."""
    if dist is not None and dist.read_text("METADATA"):
        return dist.read_text("METADATA"), dist.version
    return make_metadata(project), __version__


def read_pyproject(pyproject: Path) -> dict:
    """A checkout's pyproject.toml, read as any file the wheel holds (read_package_file)."""
    try:
        import tomllib
    except ImportError:  # Python 3.10: the same parser, as a dependency (pyproject.toml)
        import tomli as tomllib
    try:
        return tomllib.loads(read_package_file(pyproject).decode("utf-8"))
    except ValueError as exc:
        raise PackError(f"cannot read {pyproject.as_posix()}: {exc}") from exc


def make_metadata(pyproject: dict) -> str:
    """METADATA for a checkout run before it was installed, from its pyproject.toml."""
    project = pyproject.get("project", {})
    lines = ["Metadata-Version: 2.1", "Name: scholarsite", f"Version: {__version__}",
             f"Summary: {project.get('description', '')}",
             f"Requires-Python: {project.get('requires-python', '>=3.10')}"]
    lines += [f"Requires-Dist: {dep}" for dep in project.get("dependencies", [])]
    return "\n".join(lines) + "\n"


def list_installed_files(dist: metadata.Distribution) -> dict[str, Path]:
    """The package's files as pip installed them, by the RECORD it keeps."""
    names = [f.as_posix() for f in dist.files or [] if f.parts[:1] == ("scholarsite",)]
    return {name: Path(dist.locate_file(name)) for name in names}


def list_declared_files(root: Path, pyproject: dict) -> dict[str, Path]:
    """A checkout's package files, by their names in the wheel, as pyproject.toml declares
    them to setuptools: each package's modules and its package data, by glob as setuptools
    expands them (hidden names left out)."""
    tool = pyproject.get("tool", {}).get("setuptools", {})
    folders, data = tool.get("package-dir", {}), tool.get("package-data", {})
    files = {}
    for package in tool.get("packages", []):
        folder = root / find_package_folder(package, folders)
        for pattern in ["*.py", *data.get(package, []), *data.get("*", [])]:
            for rel in glob.glob(pattern, root_dir=folder, recursive=True):
                if (folder / rel).is_file() or (folder / rel).is_symlink():
                    files[f"{package.replace('.', '/')}/{Path(rel).as_posix()}"] = folder / rel
    return files


def find_package_folder(package: str, folders: dict[str, str]) -> Path:
    """Where setuptools finds `package` below the checkout, by `package-dir`."""
    parts = package.split(".")
    for end in range(len(parts), 0, -1):
        if ".".join(parts[:end]) in folders:
            return Path(folders[".".join(parts[:end])], *parts[end:])
    return Path(folders.get("", "."), *parts)


def list_package_files(dist: metadata.Distribution | None, pyproject: dict) -> dict[str, Path]:
    """Each file the running package declares, by its name in the wheel (compiled files
    left out); PackError when one is a link, or is not below the package's folder."""
    installed = dist is not None and is_installed_here(dist)
    root = Path(dist.locate_file("")).resolve() if installed else PACKAGE.parent
    found = list_installed_files(dist) if installed else list_declared_files(root, pyproject)
    files, refused = {}, []
    for name, path in sorted(found.items()):
        if "__pycache__" in name.split("/") or name.endswith(".pyc"):
            continue
        rel = name_below(path, root)
        if rel is None or why_not_name(rel):
            refused.append(f"{name} (not a file below {root.as_posix()})")
        elif find_link_below(root, rel):
            refused.append(f"{name} ({find_link_below(root, rel)} is a link)")
        else:
            files[name] = path
    if refused:
        raise PackError("the running scholarsite cannot be packed for the site to carry, as "
                        "it would hold what is no file of the package; a wheel is packed "
                        "from the package's own files, never through a link: "
                        + "; ".join(refused))
    return files


def read_package_file(path: Path) -> bytes:
    """A file of the package, by the guarded reader: a regular file, or PackError."""
    try:
        with open_regular(path) as stream:
            return stream.read()
    except OSError as exc:
        raise PackError(f"cannot read {path.as_posix()}: {exc.strerror or exc}") from exc


def pack_running_wheel() -> Wheel:
    """The running scholarsite as a wheel; PackError when it cannot be packed."""
    dist = find_running_distribution()
    pyproject = {} if dist is not None and is_installed_here(dist) else \
        read_pyproject(PACKAGE.parent / "pyproject.toml")
    text, version = read_metadata(dist, pyproject)
    entry_points = (dist.read_text("entry_points.txt") if dist else None) or ENTRY_POINTS  # own
    info = f"scholarsite-{version}.dist-info"
    members = {name: read_package_file(path)
               for name, path in list_package_files(dist, pyproject).items()}
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
