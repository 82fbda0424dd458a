"""Shared fixtures: specs from dicts, certificates, a compiled Coq library, a coqc runner,
the demo bundle and a small four-certificate bundle (each built once per session), and the
rule that picks the `pytest -m quick` subset.

The quick subset (`pytest -m quick`, the inner loop; the whole suite before a commit): every
test except those that
  1. request a fixture that compiles the Coq library or builds a bundle with coqc or a
     wheel (HEAVY_FIXTURES below, directly or through another fixture), or
  2. are marked `slow` (by hand: a test that runs coqc or a process pool through the CLI for
     seconds), or
  3. live in a module that exists to drive provers, pools or clusters end to end
     (SLOW_MODULES below), or
  4. write files (request tmp_path or tmp_path_factory: they build bundles or run the CLI,
     which costs seconds each), or are hypothesis property tests (many examples each).
What is left runs the Python checkers, kernels and renderers in process on small inputs.
The rule is applied at collection (pytest_collection_modifyitems), so a new test is quick
unless it does one of these things."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from certify import certificate
from certify.families import generate_certificate
from certify.families.mlp.render_rank import module_name, render_coq
from certify.provers import coq as coqp
from certify.resources import resource_dir
from certify.spec import parse_spec


def make_spec(widths, activation="t^2", bias=False, seed=0, **params) -> Any:
    data: dict[str, Any] = {
        "name": params.pop("name", "t"),
        "network": {"family": "mlp", "widths": widths, "activation": activation, "bias": bias},
        "parameters": {"seed": seed, **params} if "weights" not in params else params,
    }
    return parse_spec(data, "<test>")


def make_cert(widths, activation="t^2", bias=False, seed=0, **params) -> dict[str, Any]:
    spec = make_spec(widths, activation, bias, seed, **params)
    return generate_certificate(spec, spec.certificates[0])


@pytest.fixture(scope="session")
def coq_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A scratch Coq project with NNCert compiled once per test session."""
    if coqp.coqc_path() is None:
        pytest.skip("coqc not installed (apt-get install -y coq)")
    root = tmp_path_factory.mktemp("coq")
    shutil.copytree(resource_dir("coq"), root / "proj", ignore=shutil.ignore_patterns("*.vo*"))
    proj = root / "proj"
    (proj / "Certificates").mkdir(exist_ok=True)
    v = coqp.build_library(proj, 600)
    assert v.status == "passed", v.message
    return proj


class CoqRunner:
    def __init__(self, proj: Path) -> None:
        self.proj = proj
        self.count = 0

    def verdict(self, cert: dict[str, Any]) -> coqp.Verdict:
        from certify.bundle import render_certificate

        self.count += 1
        if cert.get("kind") == "rank" and cert["instance"]["network"].get("family") != "relu":
            mod = f"{module_name(cert['name'])}_{self.count}"
            text = render_coq(cert, certificate.sha256(cert))
        else:
            rendered = render_certificate(cert)
            mod, text = f"{rendered.module}_{self.count}", rendered.coq_text
        (self.proj / "Certificates" / f"{mod}.v").write_text(text)
        return coqp.check_file(self.proj, f"Certificates/{mod}.v", 600)


@pytest.fixture(scope="session")
def coq(coq_project: Path) -> CoqRunner:
    return CoqRunner(coq_project)


HEAVY_FIXTURES = frozenset(
    {"coq_project", "demo_bundle", "small_bundle", "installed_wheel", "conformance_runs",
     "cached_runs"}
)  # fmt: skip
SLOW_MODULES = frozenset({"test_cache", "test_dask", "test_progress", "test_wheel"})


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark `quick` every test the rule in this module's docstring admits."""
    for item in items:
        module = item.module.__name__.rsplit(".", 1)[-1] if item.module else ""
        names = set(getattr(item, "fixturenames", ()))
        heavy = names & (HEAVY_FIXTURES | {"tmp_path", "tmp_path_factory"})
        fn = getattr(item, "function", None)
        prop = getattr(fn, "is_hypothesis_test", False)
        if heavy or prop or item.get_closest_marker("slow") or module in SLOW_MODULES:
            continue
        item.add_marker(pytest.mark.quick)


def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    import sys

    return subprocess.run(
        [sys.executable, "-m", "certify.cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        check=False,
    )


# ---------------------------------------------------------------- bundles, built once
# The four certificates of SMALL_SPECS: two MLP rank certificates (one defective: KTB's
# (3, 2, 1) with t^2) and Figure 1's ResNet implicit and orbit certificates (so the bundle has
# a figure, rank certificates with Coq assumptions and certificates without). `certify check`
# tests that run coqc run it on this bundle; one test checks the whole demo.
SMALL_SPECS = ("ktb-2-2-1", "ktb-3-2-1", "resnet-figure-1")


@pytest.fixture(scope="session")
def demo_bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`certify demo` (checker and coqc; no Lean toolchain here), once per session.
    Read-only: a test that edits it copies it first."""
    if shutil.which("coqc") is None:
        pytest.skip("coqc not installed")
    out = tmp_path_factory.mktemp("demo") / "bundle"
    r = run_cli("demo", "--out", str(out))
    assert r.returncode == 0, r.stdout + r.stderr
    return out


@pytest.fixture(scope="session")
def small_bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`certify run` of SMALL_SPECS with the checker and coqc, once per session.
    Read-only: a test that edits it copies it first."""
    if shutil.which("coqc") is None:
        pytest.skip("coqc not installed")
    from certify.cli import example_specs

    examples = example_specs()[0].parent
    out = tmp_path_factory.mktemp("small") / "bundle"
    r = run_cli("run", *(str(examples / f"{n}.toml") for n in SMALL_SPECS), "--out", str(out))
    assert r.returncode == 0, r.stdout + r.stderr
    return out


@dataclass(frozen=True)
class InstalledWheel:
    """A fresh venv with the checkout's wheel installed; `env` is the environment to run it
    in (no PYTHONPATH, so the checkout is not on the path); `work` an unrelated directory."""

    env_dir: Path
    python: Path
    certify: Path
    work: Path
    env: dict[str, str]


@pytest.fixture(scope="session")
def installed_wheel(tmp_path_factory: pytest.TempPathFactory) -> InstalledWheel:
    """`pip wheel` of the checkout, installed (without dependencies) into a new venv once per
    session. The dependencies come from the environment running the tests (a venv or not:
    inside a venv, system_site_packages would mean the base interpreter's, which lack them).
    A .pth file appends its site-packages after the new venv's own, so the package itself
    comes from the wheel; .pth files found there (an editable install of the checkout) are
    not run."""
    import os
    import sys
    import sysconfig
    import venv

    root = Path(__file__).resolve().parent.parent
    tmp = tmp_path_factory.mktemp("wheel")
    dist = tmp / "dist"
    r = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(root)],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr
    (wheel,) = dist.glob("nn_certify-*.whl")
    env_dir = tmp / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    py = env_dir / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    site = subprocess.run(
        [str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True, env=env,
    ).stdout.strip()  # fmt: skip
    deps = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (Path(site) / "outer-deps.pth").write_text("\n".join(sorted(deps)) + "\n")
    r = subprocess.run(
        [str(py), "-m", "pip", "install", "-q", "--no-deps", "--force-reinstall", str(wheel)],
        capture_output=True,
        text=True,
        env=env,
    )
    assert r.returncode == 0, r.stderr
    work = tmp / "elsewhere"
    work.mkdir()
    return InstalledWheel(env_dir, py, env_dir / "bin" / "certify", work, env)
