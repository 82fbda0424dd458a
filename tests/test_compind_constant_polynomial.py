"""A constant polynomial in a composition-independence spec (issue 21, item 3) is refused with a
message that points to `bias = true`, which puts the constant 1 in the family; the spec so
rewritten is certified, and its certificate passes the Python checker and coqc."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from certify.checker import check_certificate
from certify.families import generate_certificate
from certify.spec import parse_spec
from tests.conftest import run_cli

POLYS = ["x^2 + y", "x*y - y^2", "x + y^3/2"]


def spec_data(polys: list[str], kind: str = "compind", **extra) -> dict:
    req = {"kind": kind, "variables": ["x", "y"], "polynomials": polys, **extra}
    if kind == "compind":
        req.setdefault("activation", "z^3 - 2*z + 1")
    return {"name": "c", "certificate": [req]}


@pytest.mark.parametrize("const", ["1", "-3/2", "0*x + 2"])
@pytest.mark.parametrize("kind, extra", [("compind", {}), ("newman-slater", {"power": 3})])
def test_a_constant_polynomial_is_refused_with_a_pointer_to_bias_true(
    tmp_path: Path, const, kind, extra
):
    spec = tmp_path / "c.json"
    spec.write_text(json.dumps(spec_data([*POLYS, const], kind, **extra)))
    r = run_cli("run", str(spec), "--out", str(tmp_path / "out"), "--no-coq", "--no-lean")
    assert r.returncode == 2
    assert "Traceback" not in r.stderr
    assert "field 'certificate[0].polynomials[3]'" in r.stderr
    assert "a nonconstant polynomial" in r.stderr
    assert "set bias = true" in r.stderr


def test_the_family_with_bias_true_instead_is_certified_and_passes_checker_and_coqc(coq):
    spec = parse_spec(spec_data(POLYS, bias=True), "<test>")
    cert = generate_certificate(spec, spec.certificates[0])
    assert cert["result"]["k"] == 4
    assert "the 4 functions 1, sigma(" in cert["claim"]["text"]
    assert check_certificate(cert) == []
    assert coq.verdict(cert).status == "passed"
