"""The bundle carries the exact nn-certify that wrote it (certify/tool_sdist.py): a
deterministic sdist of the source tree, whose members hold the sources the manifest's
`tool_sources` hashes; `certify check` accepts it as a derived file and rejects a tampered
sdist, a manifest sha256 that is not the file's, a look-alike sdist of other sources (a
careful forger re-hashes everything), a missing one and an extra one in tool/. Run from an
installed wheel (no source tree), the bundle records no sdist and ci-template asks for --pip."""

from __future__ import annotations

import hashlib
import io
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from certify import tool_sdist
from certify.bundle import Options
from certify.cli import example_specs
from certify.referee import tool_sources
from certify.verify import check_bundle_result
from tests.conftest import run_cli
from tests.test_check_derives import _manifest, _relist, _save

SPEC = "ktb-2-2-1"
SDIST = "tool/nn_certify-0.1.0.tar.gz"


def _spec() -> str:
    return str(example_specs()[0].parent / f"{SPEC}.toml")


@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`certify run` of one spec with no prover (read-only: tests copy it)."""
    out = tmp_path_factory.mktemp("sdist") / "b"
    r = run_cli("run", _spec(), "--no-coq", "--no-lean", "--out", str(out))
    assert r.returncode == 0, r.stdout + r.stderr
    return out


def _copy(b: Path, tmp_path: Path) -> Path:
    dst = tmp_path / "b"
    shutil.copytree(b, dst, symlinks=True)
    return dst


def _problems(b: Path, **opts) -> list[str]:
    o = Options(run_coq=False, run_lean=False, jobs=1) if not opts else Options(**opts)
    r = check_bundle_result(b, o)
    return r.problems + r.prover_problems


def test_the_sdist_holds_the_tool_sources_and_is_deterministic():
    a = tool_sdist.build_sdist()
    assert a is not None, "the tests run from the checkout"
    assert a.rel == SDIST and a.sha256 == hashlib.sha256(a.data).hexdigest()
    again = tool_sdist.make_sdist(tool_sdist.source_tree(), "0.1.0")
    assert again.data == a.data  # byte-identical
    digest, problems = tool_sdist.inspect_sdist(a.data, "0.1.0")
    assert problems == [] and digest == tool_sources()["sha256"]
    with tarfile.open(fileobj=io.BytesIO(a.data), mode="r:gz") as tar:
        infos = tar.getmembers()
    names = [i.name for i in infos]
    assert names == sorted(names)
    assert {i.mtime for i in infos} == {tool_sdist.FIXED_MTIME}
    assert {(i.uid, i.gid, i.uname, i.gname) for i in infos} == {(0, 0, "", "")}
    for rel in ("PKG-INFO", "pyproject.toml", "certify/__init__.py", "coq/NNCert", "README.md"):
        assert any(n.startswith(f"nn_certify-0.1.0/{rel}") for n in names), rel
    assert not any("__pycache__" in n or n.endswith(".pyc") for n in names)
    assert a.data[4:8] == b"\0\0\0\0"  # no time in the gzip header


def test_another_process_builds_the_same_bytes():
    code = "from certify.tool_sdist import build_sdist; print(build_sdist().sha256)"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert r.stdout.strip() == tool_sdist.build_sdist().sha256


def test_the_bundle_carries_the_sdist_and_check_accepts_it(plain: Path):
    m = _manifest(plain)
    sd = tool_sdist.build_sdist()
    assert m["tool_sdist"] == {"file": SDIST, "sha256": sd.sha256}
    assert (plain / SDIST).read_bytes() == sd.data
    assert m["files"][SDIST] == sd.sha256
    r = check_bundle_result(plain, Options(run_coq=False, run_lean=False, jobs=1))
    assert r.problems == [], r.problems
    assert any(n.startswith(f"{SDIST}: the sdist of the nn-certify that wrote") for n in r.notes)


def _tampered(b: Path) -> None:
    p = b / SDIST
    p.write_bytes(p.read_bytes()[:-1] + bytes([p.read_bytes()[-1] ^ 1]))


def _manifest_sha(b: Path) -> None:
    m = _manifest(b)
    m["tool_sdist"]["sha256"] = "f" * 64
    _save(b, m)
    _relist(b)


def _other_sources(b: Path) -> None:
    """A careful forger: an sdist of edited sources, with every hash recomputed."""
    data = (b / SDIST).read_bytes()
    out = io.BytesIO()
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as src:
        with tarfile.open(fileobj=out, mode="w:gz") as dst:
            for info in src.getmembers():
                body = src.extractfile(info).read()
                if info.name.endswith("/certify/checker/__init__.py"):
                    body += b"\n# accept everything\n"
                    info.size = len(body)
                dst.addfile(info, io.BytesIO(body))
    (b / SDIST).write_bytes(out.getvalue())
    m = _manifest(b)
    m["tool_sdist"]["sha256"] = hashlib.sha256(out.getvalue()).hexdigest()
    _save(b, m)
    _relist(b)


def _removed(b: Path) -> None:
    (b / SDIST).unlink()
    _relist(b)


def _extra(b: Path) -> None:
    shutil.copyfile(b / SDIST, b / "tool" / "nn_certify-0.0.9.tar.gz")
    _relist(b)


def _nulled(b: Path) -> None:
    m = _manifest(b)
    m["tool_sdist"] = None
    _save(b, m)
    _relist(b)


def _renamed(b: Path) -> None:
    m = _manifest(b)
    m["tool_sdist"]["file"] = "tool/../tool/nn_certify-0.1.0.tar.gz"
    _save(b, m)
    _relist(b)


FORGERIES = [
    ("tampered", _tampered, f"{SDIST}: sha256 differs from the manifest's inventory"),
    ("tampered-tool-sdist", _tampered, "differs from the manifest's tool_sdist sha256"),
    ("manifest-sha", _manifest_sha, "differs from the manifest's tool_sdist sha256"),
    ("other-sources", _other_sources, f"{SDIST}: the sources it holds have sha256"),
    ("removed", _removed, f"{SDIST}: missing"),
    ("extra", _extra, "tool/nn_certify-0.0.9.tar.gz: not a file this bundle derives"),
    ("nulled", _nulled, f"{SDIST}: not a file this bundle derives"),
    ("renamed", _renamed, 'manifest.tool_sdist is {"file": "tool/../tool'),
]


@pytest.mark.parametrize("forge, needle", [f[1:] for f in FORGERIES], ids=[f[0] for f in FORGERIES])
def test_check_rejects_a_forged_sdist(plain: Path, tmp_path: Path, forge, needle):
    b = _copy(plain, tmp_path)
    forge(b)
    problems = _problems(b)
    assert any(needle in p for p in problems), problems


def test_the_cli_exits_1_on_a_tampered_sdist(plain: Path, tmp_path: Path):
    b = _copy(plain, tmp_path)
    _tampered(b)
    r = run_cli("check", str(b), "--no-coq", "--no-lean", "--jobs", "1")
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert f"FAIL: {SDIST}: sha256 " in r.stdout


# ------------------------------------------------------------ an installed wheel


@pytest.mark.slow
def test_an_installed_wheel_writes_no_sdist_and_ci_template_asks_for_pip(installed_wheel):
    w = installed_wheel
    code = "import certify.cli as C; print(C.example_specs()[0].parent)"
    spec = subprocess.run([str(w.python), "-c", code], capture_output=True, text=True,
                          cwd=w.work, env=w.env, check=True)  # fmt: skip
    src = Path(spec.stdout.strip()) / f"{SPEC}.toml"
    repo = w.work / "ci-repo"
    r = subprocess.run([str(w.certify), "run", str(src), "--no-coq", "--no-lean", "--out",
                        str(repo / "bundle")], capture_output=True, text=True, cwd=w.work,
                       env=w.env)  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
    assert "without its source tree" in r.stdout + r.stderr
    m = _manifest(repo / "bundle")
    assert m["tool_sdist"] is None and not (repo / "bundle" / "tool").exists()
    r = subprocess.run([str(w.certify), "check", str(repo / "bundle"), "--no-coq", "--no-lean"],
                       capture_output=True, text=True, cwd=w.work, env=w.env)  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
    assert "the bundle carries no sdist of nn-certify" in r.stdout
    r = subprocess.run([str(w.certify), "ci-template", "--out", str(repo)], capture_output=True,
                       text=True, cwd=w.work, env=w.env)  # fmt: skip
    assert r.returncode == 2 and "--pip SPEC" in r.stderr, r.stdout + r.stderr
