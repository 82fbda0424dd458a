"""Newman-Slater (p_1, ..., p_k pairwise nonproportional, r > k(k-2): p_1^r, ..., p_k^r
independent) is cited only inside its hypotheses (issue 21, item 3, the pass over every claim
template). Outside, the claim says the theorem does not apply, names each failing hypothesis
and cites nothing for it; the certificates pass the Python checker and coqc."""

from __future__ import annotations

import copy

import pytest

from certify.checker import check_certificate
from certify.checker.claims.compind import NEWMAN_SLATER
from certify.families import generate_certificate
from certify.spec import parse_spec

LINES = ["x + y", "x - y", "2*x + 3*y"]


def make(polys: list[str], power: int, bias: bool = False) -> dict:
    req = {"kind": "newman-slater", "variables": ["x", "y"], "polynomials": polys,
           "power": power, "bias": bias}  # fmt: skip
    spec = parse_spec({"name": "ns", "certificate": [req]}, "<test>")
    return generate_certificate(spec, spec.certificates[0])


def test_inside_the_range_the_theorem_is_cited(coq):
    cert = make(LINES, 4)
    assert cert["result"]["newman_slater_range"] is True
    assert "inside the range of Newman-Slater (1979)" in cert["claim"]["text"]
    assert NEWMAN_SLATER in cert["claim"]["cites"]
    assert check_certificate(cert) == []
    assert coq.verdict(cert).status == "passed"


@pytest.mark.parametrize(
    "polys, power, bias, failing",
    [
        (LINES, 3, False, "r > k(k-2) = 3 fails (r = 3)"),
        (["x", "-x", "x + y"], 4, False, "the p_i are not pairwise nonproportional"),
        (LINES, 4, True, "the family has the constant term 1 (bias = true)"),
    ],
)
def test_outside_the_range_the_claim_names_the_failing_hypothesis_and_cites_nothing_for_it(
    polys, power, bias, failing, coq
):
    cert = make(polys, power, bias)
    assert cert["result"]["newman_slater_range"] is False
    text = cert["claim"]["text"]
    assert "outside the range of Newman-Slater (1979), which does not apply" in text
    assert f"(hypothesis: {failing};" in text
    assert NEWMAN_SLATER not in cert["claim"]["cites"]
    assert check_certificate(cert) == []
    assert coq.verdict(cert).status == "passed"


def test_a_claim_citing_newman_slater_outside_its_range_is_rejected_by_the_checker():
    cert = make(LINES, 3)
    bad = copy.deepcopy(cert)
    bad["claim"]["cites"] = [*bad["claim"]["cites"], NEWMAN_SLATER]
    assert check_certificate(bad)
