"""An installed wheel (not the checkout) finds its templates, examples and prover libraries:
from an unrelated directory it resolves them inside its own venv, runs `certify demo` over
the whole example suite (checker), and certifies one example of every family with coqc
against the Coq library it carries. The wheel is built and installed once per session
(tests/conftest.py `installed_wheel`)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

# One example spec per family (mlp, resnet, relu, compind, tanh) for the coqc run.
ONE_PER_FAMILY = ("ktb-2-2-1", "resnet-figure-1", "relu-1-1-1", "compind-z2z",
                  "logistic-2-3-1-orbit")  # fmt: skip


def _run(wheel, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(args), capture_output=True, text=True, cwd=cwd, env=wheel.env)


@pytest.mark.slow
def test_the_installed_package_resolves_its_resources_inside_its_own_venv(installed_wheel):
    w = installed_wheel
    where = _run(
        w, str(w.python), "-c", "import certify, certify.resources as R, certify.cli as C;"
        "print(certify.__file__); print(R.resource_dir('templates'));"
        "print(R.resource_dir('coq')); print(R.resource_dir('lean'));"
        "print(C.example_specs()[0])", cwd=w.work,
    )  # fmt: skip
    assert where.returncode == 0, where.stderr
    lines = where.stdout.split()
    assert len(lines) == 5 and all(str(w.env_dir) in line for line in lines), where.stdout


@pytest.mark.slow
def test_the_installed_package_runs_the_whole_demo_from_an_unrelated_directory(installed_wheel):
    w = installed_wheel
    r = _run(w, str(w.certify), "demo", "--out", "demo", "--no-coq", "--no-lean", cwd=w.work)
    assert r.returncode == 0, r.stdout + r.stderr
    m = json.loads((w.work / "demo" / "manifest.json").read_text())
    specs = sorted(p.name for p in (w.work / "demo" / "specs").iterdir())
    assert len(m["certificates"]) > 40 and len(specs) >= 30
    assert all(e["verdicts"]["checker"] == "passed" for e in m["certificates"])


@pytest.mark.slow
def test_the_installed_package_certifies_one_example_per_family_with_coqc(installed_wheel):
    w = installed_wheel
    examples = Path(
        _run(w, str(w.python), "-c", "import certify.cli as C; print(C.example_specs()[0])",
             cwd=w.work).stdout.strip()
    ).parent  # fmt: skip
    assert str(w.env_dir) in str(examples)
    specs = [str(examples / f"{n}.toml") for n in ONE_PER_FAMILY]
    r = _run(w, str(w.certify), "run", *specs, "--out", "out", "--no-lean", cwd=w.work)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "coq=failed" not in r.stdout
    m = json.loads((w.work / "out" / "manifest.json").read_text())
    assert {e["family"] for e in m["certificates"]} == {"mlp", "resnet", "relu", "compind",
                                                        "tanh"}  # fmt: skip
    assert all(e["verdicts"]["coq"] == "passed" for e in m["certificates"]), m["certificates"]
