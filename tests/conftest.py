"""Shared fixtures: specs from dicts, certificates, a compiled Coq library, a coqc runner,
the demo bundle and a small four-certificate bundle (each built once per session, for all
pytest-xdist workers: shared_dir), and the rule that picks the `pytest -m quick` subset.
$NN_CERTIFY_TEST_DEMO=DIR makes the demo fixture use a bundle `certify demo --out DIR` has
already written (the README's set-up line 2 and .ci/run pass line 1's demo-out).

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

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from certify import certificate
from certify.families import generate_certificate
from certify.families.polynomial.render_rank import module_name, render_coq
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
    # The library through certify's own cache (prepare_library: keyed on the library's
    # sources and the coqc version, built under a lock, its .vo hashes checked): compiled
    # once for the whole session and every xdist worker, and reused from the `certify demo`
    # of the set-up when its key matches. The .vo files are copied next to the sources, so
    # tests still run coqc with `-R NNCert NNCert` inside the project.
    cache = coqp.default_cache_base()
    got = coqp.prepare_library(resource_dir("coq"), root / "scratch", cache, 1800)
    assert got.verdict.status == "passed", got.verdict.message
    assert got.root is not None
    for vo in (got.root / "NNCert").rglob("*"):
        if vo.suffix in {".vo", ".vok", ".vos", ".glob"}:
            shutil.copyfile(vo, proj / "NNCert" / vo.relative_to(got.root / "NNCert"))
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
        from certify.provers import coq_audit

        theorems = coq_audit.theorems_of(cert, mod, text)  # what the bundle would audit
        return coqp.check_file(self.proj, f"Certificates/{mod}.v", 600, theorems=theorems)

    def audit_alone_rejects(self, module: str, text: str, theorems: list) -> coqp.Verdict:
        """Write `text` as Certificates/`module`.v: coqc alone must accept it (a redefined
        statement proves something, just not the expected thing), and the audit with the
        `theorems` the faithful file would have must reject it; returns the audit's verdict."""
        rel = f"Certificates/{module}.v"
        (self.proj / rel).write_text(text)
        alone = coqp.check_file(self.proj, rel, 600)
        assert alone.status == "passed", alone.message
        audited = coqp.check_file(self.proj, rel, 600, theorems=theorems)
        assert audited.status == "failed", audited.message
        return audited


@pytest.fixture(scope="session")
def coq(coq_project: Path) -> CoqRunner:
    return CoqRunner(coq_project)


HEAVY_FIXTURES = frozenset(
    {"coq_project", "demo_bundle", "small_bundle", "installed_wheel", "conformance_runs",
     "cached_runs"}
)  # fmt: skip
SLOW_MODULES = frozenset({"test_cache", "test_dask", "test_progress", "test_wheel"})


def pytest_configure(config: pytest.Config) -> None:
    """Byte-compile the checkout's certify/ and tests/ once per session, in the controller
    (xdist workers start after it). Hundreds of tests run the CLI in a fresh interpreter
    (`python -m certify.cli` in this checkout); where PYTHONDONTWRITEBYTECODE is set, as on
    the project's CI machines, each of them would otherwise compile every module it imports
    from source again (measured: 21 % of the CPU time of the CLI-heavy tests). Python still
    reads bytecode it is not allowed to write, and checks it against the source's mtime."""
    if hasattr(config, "workerinput"):
        return
    import compileall

    root = Path(__file__).resolve().parent.parent
    for tree in ("certify", "tests"):
        compileall.compile_dir(root / tree, quiet=1)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark `quick` every test the rule in this module's docstring admits, then run the
    modules that hold a test outside `quick` first (each module's tests stay together and in
    order, so a module fixture is built once): the two workers then end on short tests
    instead of one of them idling while the other finishes a long one."""
    slow_modules: set[str] = set()
    for item in items:
        module = item.module.__name__.rsplit(".", 1)[-1] if item.module else ""
        names = set(getattr(item, "fixturenames", ()))
        heavy = names & (HEAVY_FIXTURES | {"tmp_path", "tmp_path_factory"})
        fn = getattr(item, "function", None)
        prop = getattr(fn, "is_hypothesis_test", False)
        if heavy or prop or item.get_closest_marker("slow") or module in SLOW_MODULES:
            slow_modules.add(module)
            continue
        item.add_marker(pytest.mark.quick)
    items.sort(  # a stable sort: only the modules move
        key=lambda item: (
            (item.module.__name__.rsplit(".", 1)[-1] if item.module else "") not in slow_modules
        )
    )


def run_cli(
    *args: str,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    timeout: float | None = None,
) -> subprocess.CompletedProcess[str]:
    """`python -m certify.cli ARGS` in a subprocess; `env` is added to this environment;
    `timeout` a hang guard (subprocess.TimeoutExpired), not a speed budget."""
    import sys

    return subprocess.run(
        [sys.executable, "-m", "certify.cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=None if env is None else dict(os.environ, **env),
        timeout=timeout,
        check=False,
    )


def compind_coq_text(cert: dict[str, Any]) -> str:
    """The Coq file certify renders for a composition certificate."""
    from certify.families.compind.render import render_files

    return render_files(cert, certificate.sha256(cert))[2]


def compile_compind_text(coq: CoqRunner, cert: dict[str, Any], text: str, module: str):
    """coqc and the bundle's audit on `text` (a composition certificate's Coq file, perhaps
    tampered), auditing the theorems and statements of the faithful rendering of `cert`."""
    from certify.provers import coq_audit

    rel = f"Certificates/{module}.v"
    (coq.proj / rel).write_text(text)
    thms = coq_audit.theorems_of(cert, module, compind_coq_text(cert))
    return coqp.check_file(coq.proj, rel, 600, theorems=thms)


def small_rank_spec(name: str) -> str:
    """A spec of one rank certificate that takes well under a second: MLP (2, 2, 1), t^2."""
    return (
        f'name = "{name}"\n[network]\nfamily = "mlp"\nwidths = [2, 2, 1]\nactivation = "t^2"\n'
        'bias = false\n[parameters]\nseed = 0\n[[certificate]]\nkind = "rank"\n'
    )


def fake_coqc(tmp_path: Path, body: str) -> str:
    """A PATH whose coqc answers --version as a fake Coq and otherwise runs the shell `body`."""
    fake = tmp_path / "fake-bin"
    fake.mkdir()
    (fake / "coqc").write_text(
        '#!/bin/sh\nif [ "$1" = "--version" ]; then echo "The Coq Proof Assistant, version '
        f'0.0-fake"; exit 0; fi\n{body}\n'
    )
    (fake / "coqc").chmod(0o755)
    return f"{fake}:/usr/bin:/bin"


def coqc_reusing(lib: Path, bindir: Path, log: Path | None = None) -> str:
    """A PATH whose `coqc`, asked to compile a library file NNCert/....v, copies its .vo from
    `lib` (the root, holding NNCert/, of a library certify compiled from byte-identical
    sources: its cache key covers them) instead of compiling it again, appending the file to
    `log` (one line per compile: $OCAMLRUNPARAM or "unset", then its arguments, the file
    last); on anything else (a
    certificate, an audit driver, --version) it runs the real coqc. For tests of what runs
    around the library's compile: the compile itself is certify's (`certify demo`, which the
    set-up and .ci/run run on a fresh machine, and the session's `coq_project` on a cold
    cache), and what the wrapper sees of every other caller is its arguments."""
    bindir.mkdir()
    real = shutil.which("coqc")
    note = f'echo "${{OCAMLRUNPARAM-unset}} $*" >> "{log}"; ' if log is not None else ""
    (bindir / "coqc").write_text(
        "#!/bin/sh\n"
        "for f; do :; done\n"  # the last argument: the file to compile
        f'case "$f" in NNCert/*.v) {note}exec cp "{lib}/${{f%.v}}.vo" "${{f%.v}}.vo";; esac\n'
        f'exec {real} "$@"\n'
    )
    (bindir / "coqc").chmod(0o755)
    return f"{bindir}:{os.environ['PATH']}"


def compiled_files(log: Path) -> list[str]:
    """The library files a `coqc_reusing` wrapper was asked to compile, in order."""
    return [line.split()[-1] for line in log.read_text().splitlines()]


# ---------------------------------------------------------------- bundles, built once
# The four certificates of SMALL_SPECS: two MLP rank certificates (one defective: KTB's
# (3, 2, 1) with t^2) and Figure 1's ResNet implicit and orbit certificates (so the bundle has
# a figure, rank certificates with Coq assumptions and certificates without). `certify check`
# tests that run coqc run it on this bundle; one test checks the whole demo.
SMALL_SPECS = ("ktb-2-2-1", "ktb-3-2-1", "resnet-figure-1")


def shared_dir(tmp_path_factory: pytest.TempPathFactory, name: str, build) -> Path:
    """`build(dir)` once per session even under pytest-xdist (the filelock pattern of the
    xdist documentation): the workers share the parent of their base temp directories; the
    first to take the lock builds `<shared>/<name>`, the others wait and reuse it. A build that
    failed is not cached: the next worker retries it (and reports its own failure)."""
    from filelock import FileLock

    base = tmp_path_factory.getbasetemp()
    root = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    target, done = root / f"shared-{name}", root / f"shared-{name}.done"
    with FileLock(str(root / f"shared-{name}.lock")):
        if not done.exists():
            shutil.rmtree(target, ignore_errors=True)
            target.mkdir()
            build(target)
            done.write_text("ok\n")
    return target


DEMO_ENV = "NN_CERTIFY_TEST_DEMO"


@pytest.fixture(scope="session")
def demo_bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`certify demo` (checker and coqc; no Lean toolchain here), once per session.
    Read-only: a test that edits it copies it first.

    With $NN_CERTIFY_TEST_DEMO set (`.ci/run` sets it to the `demo-out/` that the README's
    set-up line 1 has just written with the same `certify demo --out` command), that bundle
    is used instead of building the demo a second time; it must be a complete bundle (a
    missing manifest is an error, not a silent rebuild). Unset, the demo is built here."""
    if shutil.which("coqc") is None:
        pytest.skip("coqc not installed")
    given = os.environ.get(DEMO_ENV)
    if given:
        out = Path(given).resolve()
        assert (out / "manifest.json").is_file(), f"${DEMO_ENV}={given}: no manifest.json"
        return out

    def build(d: Path) -> None:
        r = run_cli("demo", "--out", str(d / "bundle"))
        assert r.returncode == 0, r.stdout + r.stderr

    return shared_dir(tmp_path_factory, "demo", build) / "bundle"


@pytest.fixture(scope="session")
def small_bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`certify run` of SMALL_SPECS with the checker and coqc, once per session.
    Read-only: a test that edits it copies it first."""
    if shutil.which("coqc") is None:
        pytest.skip("coqc not installed")
    from certify.cli import example_specs

    examples = example_specs()[0].parent

    def build(d: Path) -> None:
        specs = (str(examples / f"{n}.toml") for n in SMALL_SPECS)
        r = run_cli("run", *specs, "--out", str(d / "bundle"))
        assert r.returncode == 0, r.stdout + r.stderr

    return shared_dir(tmp_path_factory, "small", build) / "bundle"


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
    import sys
    import sysconfig
    import venv

    root = Path(__file__).resolve().parent.parent
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}

    def build(tmp: Path) -> None:
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

    env_dir = shared_dir(tmp_path_factory, "wheel", build) / "venv"
    work = tmp_path_factory.mktemp("elsewhere")  # this worker's own: tests write into it
    py = env_dir / "bin" / "python"
    return InstalledWheel(env_dir, py, env_dir / "bin" / "certify", work, env)
