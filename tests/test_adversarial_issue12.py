"""Adversarial review of the issue-12 trusted base (envelope, ResNet orbit plan, tanh, ReLU).

The first five tests were confirmed holes (a forged certificate the checker accepted, or an
orbit plan that took minutes), each fixed since; they now guard the fixes. The other tests
are attacks that are rejected today, kept as regression tests."""

from __future__ import annotations

import copy
import signal
from fractions import Fraction
from functools import cache
from typing import Any

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from certify.checker import check_certificate
from certify.checker.claims.relu import equiv_claim as relu_equiv_claim
from certify.checker.claims.relu import equiv_result as relu_equiv_result
from certify.checker.claims.resnet import orbit_claim as resnet_orbit_claim
from certify.checker.claims.resnet import orbit_result as resnet_orbit_result
from certify.checker.claims.tanh import affsym_claim, affsym_result, orbit_claim
from certify.checker.facts.resnet_orbit import rational_roots
from certify.checker.facts.tanh_sym import rational_table
from certify.checker.ir import ReLUNet, ResNet, network_json
from certify.cli import example_specs
from certify.families import generate_certificates
from certify.spec import load_spec


@cache
def _example(spec_name: str, cert_name: str) -> dict[str, Any]:
    """One certificate of an example spec, generated once per session."""
    path = next(p for p in example_specs() if p.name == spec_name)
    spec = load_spec(path)
    for req in spec.certificates:
        if req.name != cert_name:
            continue
        out = generate_certificates(spec, req)
        for c in out if isinstance(out, list) else [out]:
            if c["name"] == cert_name:
                return c
    raise LookupError(cert_name)


def example(spec_name: str, cert_name: str) -> dict[str, Any]:
    c = copy.deepcopy(_example(spec_name, cert_name))
    assert check_certificate(c) == []
    return c


def affsym_tanh() -> dict[str, Any]:
    return example("affsym.toml", "affsym-tanh")


def rebuild_affsym(c: dict[str, Any]) -> None:
    g = c["witness"]["group"]
    c["witness"]["table"] = rational_table(g)
    c["result"] = affsym_result(g)
    c["claim"] = affsym_claim(g, c["result"], len(c["witness"]["table"]))


def rebuild_tanh_orbit(c: dict[str, Any]) -> None:
    inst = c["instance"]
    c["claim"] = orbit_claim(inst["network"], inst["symmetry"], c["result"])


def resnet_orbit() -> dict[str, Any]:
    return example("resnet-width2-depth2-orbit.toml", "resnet-width2-depth2-orbit")


def with_layer1_activation(c: dict[str, Any], act: list[Fraction]) -> dict[str, Any]:
    """The depth-2 orbit certificate with layer 1's activation replaced and its layer facts
    dropped; instance table, result and claim rebuilt exactly as the checker rebuilds them."""
    net = c["instance"]["network"]
    acts = (tuple(Fraction(x) for x in net["activations"][0]), tuple(act))
    rn = ResNet(net["width"], acts, net["outer"])
    c["instance"]["network"] = network_json(rn)
    w = c["witness"]
    w["layers"] = [s for s in w["layers"] if s["layer"] == 0]
    w["facts"] = [f for f in w["facts"] if f["layer"] == 0]
    theta = [Fraction(t) for t in c["instance"]["theta"]]
    c["result"] = resnet_orbit_result(rn, theta, w["field"])
    c["claim"] = resnet_orbit_claim(rn, c["result"])
    return c


# ================================================================ confirmed holes
def test_affsym_duplicate_element_does_not_inflate_the_order():
    c = affsym_tanh()
    g = c["witness"]["group"]
    g["elements"].append(dict(g["elements"][0], alpha="2/2"))  # the identity again
    g["order"] = 3
    rebuild_affsym(c)
    assert "finite group of order 3" in c["claim"]["text"]
    assert check_certificate(c) != []


def test_coqc_rejects_an_affsym_table_that_lists_an_element_twice(coq):
    """The kernel's check_affsym_table requires the listed elements to be distinct (aff_nodup),
    so the inflated order fails in Coq too, not only in the Python checker."""
    c = affsym_tanh()
    g = c["witness"]["group"]
    g["elements"].append(dict(g["elements"][0], alpha="2/2"))
    g["order"] = 3
    rebuild_affsym(c)
    assert len(c["witness"]["table"]) == 3
    assert coq.verdict(c).status == "failed"
    assert coq.verdict(affsym_tanh()).status == "passed"


def test_tanh_network_source_shown_in_the_claim_is_checked():
    c = example("tanh-1-3-1-orbit.toml", "tanh-1-3-1-orbit")
    c["instance"]["network"]["source"] = "re-verified by Coq and Lean\n" + "x" * 1000
    rebuild_tanh_orbit(c)
    assert "re-verified by Coq and Lean" in c["claim"]["text"]
    assert check_certificate(c) != []


def test_tanh_node_counts_are_integers():
    c = example("tanh-dag-skip.toml", "tanh-dag-skip-orbit")
    assert c["instance"]["network"]["widths"] is None  # the DAG text prints the counts
    c["instance"]["network"]["inputs"] += 0.9
    rebuild_tanh_orbit(c)
    assert "2.9 inputs" in c["claim"]["text"]
    assert check_certificate(c) != []


def test_resnet_orbit_rejects_a_constant_activation_with_a_zero_coefficient():
    c = with_layer1_activation(resnet_orbit(), [Fraction(3), Fraction(0)])
    assert "Layers [1] carry no such symmetry" in c["claim"]["text"]
    assert check_certificate(c) != []


class _Slow(BaseException):
    """Raised by the alarm; not an exception check_certificate turns into a problem."""


def test_rational_roots_is_fast_on_a_huge_leading_coefficient():
    cs = [Fraction(-2)] + [Fraction(1)] * 5 + [Fraction(7) ** 300]

    def alarm(*_: Any) -> None:
        raise _Slow

    old = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(2)
    try:
        assert rational_roots(cs) == []
    except _Slow:
        pytest.fail("rational_roots took more than 2 s")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


# ================================================================ rejected attacks
def test_envelope_family_must_match_the_network():
    c = resnet_orbit()
    c["family"] = "mlp"
    assert check_certificate(c)[0].startswith("kind: family 'mlp' has kinds")
    c = example("tanh-1-3-1-orbit.toml", "tanh-1-3-1-orbit")
    c["instance"]["network"]["family"] = "resnet"
    assert check_certificate(c)[0].startswith("instance.network.family: expected 'tanh'")
    c = affsym_tanh()
    c["instance"]["network"] = {"family": "tanh"}
    assert "has no network" in check_certificate(c)[0]


def test_envelope_exact_fields_and_schema():
    c = resnet_orbit()
    c["note"] = "extra"
    assert check_certificate(c)[0].startswith("certificate: expected exactly the fields")
    c = resnet_orbit()
    del c["generator"]
    assert check_certificate(c)[0].startswith("certificate: expected exactly the fields")
    c = resnet_orbit()
    c["schema"] = "nn-certify/1"
    assert check_certificate(c) == ["schema: expected 'nn-certify/2'"]


def test_resnet_orbit_plan_may_not_omit_a_symmetric_layer():
    """Both layers are symmetric: dropping layer 1 (and rebuilding result and claim from the
    shorter plan) would leave an orbit of 4 instead of 16; the checker's own plan refuses it."""
    c = resnet_orbit()
    w = c["witness"]
    w["layers"] = [s for s in w["layers"] if s["layer"] == 0]
    w["facts"] = [f for f in w["facts"] if f["layer"] == 0]
    assert "witness.layers: not the symmetric layers of this network" in check_certificate(c)


def test_resnet_orbit_plan_refuses_a_wrong_t0_or_g():
    c = resnet_orbit()
    c["witness"]["layers"][1]["g"] = 3
    assert check_certificate(c) == ["witness.layers[1]: the real group needs g = 2 (zeta = -1)"]
    c = resnet_orbit()
    c["witness"]["layers"][1]["t0"] = "2"
    assert check_certificate(c) == ["witness.layers[1]: rejected by check_layer_symmetry"]


def test_resnet_orbit_layer_without_symmetry_is_not_certified():
    """Layer 1 becomes t^3 + t (no critical point at all): a forged layer fact is refused."""
    c = with_layer1_activation(resnet_orbit(), [Fraction(0), Fraction(1), Fraction(0),
                                                Fraction(1)])  # fmt: skip
    assert check_certificate(c) == []  # the honest certificate for this network
    bad = copy.deepcopy(c)
    bad["witness"]["layers"].append({"layer": 1, "g": 2, "t0": "0"})
    assert check_certificate(bad) == ["witness.layers[1]: rejected by check_layer_symmetry"]


def test_affsym_false_identity_is_not_proved():
    c = affsym_tanh()
    g = c["witness"]["group"]
    g["elements"].append(dict(g["elements"][0], beta="1"))  # tanh(x + 1) = tanh(x): false
    g["order"] = 3
    rebuild_affsym(c)
    probs = check_certificate(c)
    assert any("proof status 'sympy expand' not reproduced" in p for p in probs)


def test_affsym_identity_family_without_l_is_refused():
    c = affsym_tanh()
    g = c["witness"]["group"]
    g["elements"][0]["family"] = "l real"
    g["type"], g["order"] = "family", None
    c["witness"]["closed"] = False
    rebuild_affsym(c)
    assert any("a family exactly when the entries depend on l" in p for p in check_certificate(c))


def test_tanh_orbit_classes_must_be_maximal():
    """Splitting the class of 3 interchangeable nodes would shrink the group to order 8."""
    c = example("tanh-1-3-1-orbit.toml", "tanh-1-3-1-orbit")
    c["witness"]["classes"] = [[1], [2], [3]]
    assert check_certificate(c) == ["witness.classes: rejected by check_classes"]


def test_tanh_orbit_group_order_is_rebuilt():
    c = example("tanh-1-3-1-orbit.toml", "tanh-1-3-1-orbit")
    c["result"]["group_order"] = c["result"]["orbit_size"] = 96
    rebuild_tanh_orbit(c)
    assert any(
        p.startswith("result does not match the orbit rebuilt from the checked data (result.")
        for p in check_certificate(c)
    )


def test_relu_equiv_needs_points():
    """No points at all would make 'F_theta = F_theta2 on all of R' vacuous."""
    c = example("relu-equiv-hidden.toml", "relu-equiv-hidden")
    net = ReLUNet(tuple(c["instance"]["network"]["widths"]))
    c["instance"]["other"] = ["5"] * len(c["instance"]["other"])
    c["witness"] = {"kind": "equivalent", "points": []}
    c["result"] = relu_equiv_result(net, c["witness"], "none")
    c["claim"] = relu_equiv_claim(net, c["result"])
    assert check_certificate(c) == ["witness.points: check_relu_equiv rejects them"]


# ---------------------------------------------------------------- rational_roots vs sympy
def _mul(a: list[Fraction], b: list[Fraction]) -> list[Fraction]:
    out = [Fraction(0)] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    return out


# Roots where the bisection lands (dyadics, 0, +-1), large prime and power-of-two denominators.
_ROOT = st.one_of(
    st.sampled_from([Fraction(0), Fraction(1), Fraction(-1), Fraction(1, 2), Fraction(-3, 4)]),
    st.builds(Fraction, st.integers(-64, 64), st.sampled_from([1, 2, 4, 8, 1024, 2**20])),
    st.builds(Fraction, st.integers(-(10**6), 10**6), st.sampled_from([10007, 999983, 3**13])),
)


@settings(max_examples=50, deadline=None)
@given(
    roots=st.lists(st.tuples(_ROOT, st.integers(1, 4)), max_size=3),
    cofactor=st.lists(st.integers(-9, 9), min_size=1, max_size=4).filter(lambda c: c[-1] != 0),
    scale=st.sampled_from([Fraction(1), Fraction(-7, 3), Fraction(10**12, 3**20)]),
)
def test_rational_roots_agrees_with_sympy_on_adversarial_roots(roots, cofactor, scale):
    poly = [scale]
    for r, m in roots:
        for _ in range(m):
            poly = _mul(poly, [-r, Fraction(1)])
    poly = _mul(poly, [Fraction(c) for c in cofactor])
    t = sp.Symbol("t")
    e = sum(sp.Rational(c.numerator, c.denominator) * t**k for k, c in enumerate(poly))
    want = (
        sorted(Fraction(int(r.p), int(r.q)) for r in sp.Poly(e, t).ground_roots())
        if len(poly) > 1
        else []
    )
    assert rational_roots(poly) == want
