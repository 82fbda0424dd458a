"""Shared fixtures: specs from dicts, certificates, a compiled Coq library, a coqc runner."""

from __future__ import annotations

import shutil
import subprocess
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


def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    import sys

    return subprocess.run(
        [sys.executable, "-m", "certify.cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        check=False,
    )
