"""The exact nn-certify that wrote a bundle, carried in the bundle as a source distribution
(`tool/nn_certify-<version>.tar.gz`, its sha256 in manifest.json's `tool_sdist`), so that
`certify ci-template` can install that very tool (`pip install BUNDLE/tool/...tar.gz`).

Built from the source tree the running `certify` package sits in (a checkout or an
editable install: `pyproject.toml` next to the package, naming nn-certify at this
version), with the files `[tool.hatch.build.targets.sdist] include` names plus
pyproject.toml and a PKG-INFO written from it. The sdist is a function of those files'
bytes and of the zlib that compresses them: members in sorted order, every time stamp
FIXED_MTIME, owner 0/0 without names, modes 0644 or 0755, and a gzip header without a
time or a file name; so the same sources give a byte-identical file. Built once per
process (`build_sdist` is cached).

Without a source tree (nn-certify installed from a wheel) there is nothing to build it
from: `build_sdist` returns None, the manifest records `"tool_sdist": null`, and
`certify ci-template` asks for `--pip SPEC` instead.

`certify check` reads a bundled sdist without extracting it (`inspect_sdist`): every member
a regular file under `nn_certify-<version>/`, a PKG-INFO naming nn-certify at the
manifest's version, and the sha256 of the tool's sources computed over its members by
referee.tool_sources' rule, which must be the manifest's `tool_sources` (the sdist is the
tool whose sources wrote the bundle)."""

from __future__ import annotations

import gzip
import hashlib
import io
import re
import tarfile
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from certify import __version__
from certify.referee import _SKIP_DIRS, _SKIP_SUFFIXES, _source_files

DIST = "nn_certify"  # the normalised distribution name of sdist file names (PEP 625)
FIXED_MTIME = 315532800  # 1980-01-01T00:00:00Z: every member's time stamp
SOURCE_DIRS = ("certify", "templates", "coq", "lean")  # what referee.tool_sources hashes
MAX_SDIST_BYTES = 64 * 2**20  # a bundled sdist larger than this is not read
MAX_UNPACKED_BYTES = 512 * 2**20  # nor one whose members add up to more
_PKG = Path(__file__).resolve().parent


def sdist_name(version: str) -> str:
    """The bundle path of the sdist of nn-certify `version`."""
    return f"tool/{DIST}-{version}.tar.gz"


@dataclass(frozen=True)
class Sdist:
    rel: str  # its path in a bundle: sdist_name(version)
    data: bytes
    sha256: str

    def entry(self) -> dict[str, str]:
        """The manifest's `tool_sdist` value."""
        return {"file": self.rel, "sha256": self.sha256}


def source_tree() -> Path | None:
    """The checkout the running package sits in, or None (an installed wheel): the
    package's parent holds a pyproject.toml naming nn-certify at this version."""
    root = _PKG.parent
    try:
        project = tomllib.loads((root / "pyproject.toml").read_text())["project"]
    except (OSError, KeyError, tomllib.TOMLDecodeError, UnicodeDecodeError):
        return None
    if project.get("name") != "nn-certify" or project.get("version") != __version__:
        return None
    return root


NO_SOURCE_TREE = (
    "nn-certify runs from an installed package without its source tree, so the bundle "
    "carries no sdist (manifest tool_sdist: null); `certify ci-template` then needs --pip SPEC"
)


def _pkg_info(pyproject: dict, readme: str | None) -> str:
    """Core metadata 2.1 (PKG-INFO) from pyproject.toml's static [project] table."""
    p = pyproject["project"]
    lines = ["Metadata-Version: 2.1", f"Name: {p['name']}", f"Version: {p['version']}"]
    if p.get("description"):
        lines.append(f"Summary: {p['description']}")
    lic = p.get("license")
    if isinstance(lic, str):
        lines.append(f"License: {lic}")
    if p.get("requires-python"):
        lines.append(f"Requires-Python: {p['requires-python']}")
    lines += [f"Requires-Dist: {d}" for d in p.get("dependencies", [])]
    for extra, deps in sorted(p.get("optional-dependencies", {}).items()):
        lines.append(f"Provides-Extra: {extra}")
        lines += [f'Requires-Dist: {d}; extra == "{extra}"' for d in deps]
    if readme is not None:
        lines.append("Description-Content-Type: text/markdown")
        return "\n".join(lines) + "\n\n" + readme
    return "\n".join(lines) + "\n"


def sdist_files(root: Path) -> list[tuple[str, Path]]:
    """(member path below the top directory, file) of every file the sdist holds but
    PKG-INFO, sorted: pyproject.toml and what its sdist `include` names, without hidden
    files, bytecode, build products or `__pycache__` (referee._source_files' rule, so the
    members under SOURCE_DIRS are exactly the files referee.tool_sources hashes)."""
    pyproject = tomllib.loads((root / "pyproject.toml").read_text())
    include = pyproject["tool"]["hatch"]["build"]["targets"]["sdist"]["include"]
    files: dict[str, Path] = {"pyproject.toml": root / "pyproject.toml"}
    for name in include:
        p = root / name
        if p.is_dir():
            files.update(_source_files(p, name))
        elif p.is_file():
            files[name] = p
    return sorted(files.items())


def _tar_gz(members: list[tuple[str, bytes, int]]) -> bytes:
    """A deterministic .tar.gz of (path, bytes, mode) in the given order."""
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, compresslevel=9, mtime=0) as gz:
        with tarfile.open(fileobj=gz, mode="w", format=tarfile.PAX_FORMAT) as tar:
            for name, data, mode in members:
                info = tarfile.TarInfo(name)
                info.size, info.mtime, info.mode = len(data), FIXED_MTIME, mode
                info.uid = info.gid = 0
                info.uname = info.gname = ""
                tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def make_sdist(root: Path, version: str) -> Sdist:
    """The sdist of the source tree `root` (module docstring), not cached."""
    top = f"{DIST}-{version}"
    pyproject = tomllib.loads((root / "pyproject.toml").read_text())
    readme_file = root / "README.md"
    readme = readme_file.read_text() if readme_file.is_file() else None
    members = [(f"{top}/PKG-INFO", _pkg_info(pyproject, readme).encode(), 0o644)]
    for rel, p in sdist_files(root):
        mode = 0o755 if p.stat().st_mode & 0o100 else 0o644
        members.append((f"{top}/{rel}", p.read_bytes(), mode))
    members.sort()
    data = _tar_gz(members)
    return Sdist(sdist_name(version), data, hashlib.sha256(data).hexdigest())


@lru_cache(maxsize=1)
def build_sdist() -> Sdist | None:
    """The sdist of the running nn-certify, built once per process; None without a source
    tree (NO_SOURCE_TREE)."""
    root = source_tree()
    return None if root is None else make_sdist(root, __version__)


def sources_digest(files: dict[str, bytes]) -> str:
    """referee.tool_sources' digest over (path -> bytes) of files under SOURCE_DIRS: sha256
    of the sorted lines `path<TAB>sha256(bytes)`, skipping what _source_files skips."""
    h = hashlib.sha256()
    for rel in sorted(files):
        parts = rel.split("/")
        if parts[0] not in SOURCE_DIRS or len(parts) < 2:
            continue
        if any(x in _SKIP_DIRS or x.startswith(".") for x in parts[1:]):
            continue
        if rel.endswith(_SKIP_SUFFIXES):
            continue
        h.update(f"{rel}\t{hashlib.sha256(files[rel]).hexdigest()}\n".encode())
    return h.hexdigest()


_FIELD = re.compile(r"^(Name|Version): (.*)$", re.M)


def inspect_sdist(data: bytes, version: str) -> tuple[str | None, list[str]]:
    """(the sources digest of its members, problems) of the bytes of a bundled sdist of
    nn-certify `version`, read without extracting anything (module docstring)."""
    top = f"{DIST}-{version}/"
    problems: list[str] = []
    files: dict[str, bytes] = {}
    total = 0
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
            for info in tar:
                if not info.isfile():
                    problems.append(f"member {info.name!r} is not a regular file")
                    continue
                if not info.name.startswith(top) or ".." in info.name.split("/"):
                    problems.append(f"member {info.name!r} is not under {top}")
                    continue
                total += info.size
                if total > MAX_UNPACKED_BYTES:
                    return None, problems + [f"members larger than {MAX_UNPACKED_BYTES} bytes"]
                f = tar.extractfile(info)
                assert f is not None  # a regular file
                files[info.name[len(top) :]] = f.read()
    except (tarfile.TarError, OSError, EOFError, ValueError) as e:
        return None, [f"not a readable .tar.gz ({e})"]
    fields = dict(_FIELD.findall(files.get("PKG-INFO", b"").decode("utf-8", "replace")))
    if fields.get("Name") != "nn-certify" or fields.get("Version") != version:
        problems.append(
            f"its PKG-INFO names {fields.get('Name')!r} {fields.get('Version')!r}, not "
            f"nn-certify {version!r}"
        )
    if "pyproject.toml" not in files:
        problems.append("it has no pyproject.toml (pip cannot build it)")
    return sources_digest(files), problems
