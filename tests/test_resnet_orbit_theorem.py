"""A real orbit certificate of a polynomial ResNet ends in the Coq theorem orbit_in_fiber
(NNCert/meaning/resnet/OrbitMeaning.v): every listed parameter vector gives the outputs of theta
over Q at every point of the principal lattice of degree D = prod deg sigma, and the listed
vectors are pairwise distinct. The kernel's check_resnet_orbit is compared with sympy's
expansion of F on random networks; forged orbits are rejected by the Python checker and by
coqc; a file that redefines the check passes coqc alone but fails the audit."""

from __future__ import annotations

import copy
import random
from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from certify import certificate
from certify.checker import check_certificate
from certify.checker.check.rank import decode_instance
from certify.checker.kernel import resnet as KR
from certify.families import generate_certificate
from certify.families.resnet.render_orbit import render_files
from certify.provers import coq as coqp
from certify.provers import coq_audit
from certify.spec import parse_spec
from tests.test_resnet import sympy_resnet

needs_coqc = pytest.mark.skipif(coqp.coqc_path() is None, reason="coqc not installed")
# activations with a real flip sigma(2 t0 - y) = sigma(y) (t0 = 1, 0, 1/2)
SYMMETRIC = ("(t-1)^4 + (t-1)^2", "t^2", "t^2 - t")


def orbit_cert(width: int, depth: int, act: str, seed: int) -> dict:
    data = {
        "name": "orb",
        "network": {"family": "resnet", "width": width, "depth": depth, "activation": act},
        "parameters": {"seed": seed},
        "certificate": [{"kind": "orbit", "name": "orb"}],
    }
    spec = parse_spec(data, "<test>")
    return generate_certificate(spec, spec.certificates[0])


def sympy_map(cert: dict, th: list[Fraction]) -> list[sympy.Expr]:
    """F_th(x) expanded by sympy (tests/test_resnet.py's evaluator): the independent
    reference."""
    xs = sympy.symbols(f"x0:{cert['instance']['network']['width']}")
    ths = [sympy.Rational(t.numerator, t.denominator) for t in th]
    return [sympy.expand(e) for e in sympy_resnet(cert["instance"]["network"], ths, xs)]


def as_pairs(v: list[str]) -> list[tuple[int, int]]:
    return [(Fraction(s).numerator, Fraction(s).denominator) for s in v]


@settings(max_examples=12, deadline=None)
@given(
    width=st.integers(1, 2),
    act=st.sampled_from(SYMMETRIC),
    seed=st.integers(0, 10**6),
    which=st.integers(0, 10**6),
)
def test_the_kernel_accepts_an_orbit_exactly_when_sympy_finds_one_map_and_distinct_points(
    width, act, seed, which
):
    if width == 2 and act == SYMMETRIC[0]:
        act = "t^2"  # keep sympy's expansion small: degree 4 in two variables
    cert = orbit_cert(width, 2, act, seed)
    assert check_certificate(cert) == []
    inst = decode_instance(cert)
    orbit = [as_pairs(e) for e in cert["result"]["orbit"]]
    theta = [Fraction(a, b) for a, b in inst.theta]
    want = sympy_map(cert, theta)
    assert all(sympy_map(cert, [Fraction(a, b) for a, b in e]) == want for e in orbit)
    assert KR.check_resnet_orbit(inst, orbit)
    rng = random.Random(which)
    moved = copy.deepcopy(orbit)
    k, j = rng.randrange(len(moved)), rng.randrange(len(moved[0]))
    moved[k][j] = (moved[k][j][0] + moved[k][j][1], moved[k][j][1])  # one entry + 1
    same_map = sympy_map(cert, [Fraction(a, b) for a, b in moved[k]]) == want
    distinct = len({tuple(Fraction(a, b) for a, b in e) for e in moved}) == len(moved)
    assert KR.check_resnet_orbit(inst, moved) is (same_map and distinct)
    if len(orbit) > 1:
        assert not KR.check_resnet_orbit(inst, [*orbit, orbit[0]])  # a repeated point


EXAMPLES = {  # (width, depth, activation, seed) -> ends in the theorem
    "quartic": ((1, 2, "(t-1)^4 + (t-1)^2", 0), True),
    "width-two": ((2, 2, "(t-1)^4 + (t-1)^2", 4), True),
    "trivial-group": ((1, 2, "t^3", 0), False),
}


@pytest.mark.parametrize("label", sorted(EXAMPLES))
def test_a_real_orbit_with_generators_ends_in_the_theorem_and_says_so(label):
    args, theorem = EXAMPLES[label]
    cert = orbit_cert(*args)
    text = render_files(cert, certificate.sha256(cert))[2]
    # the last declarations are the theorems: orbit_in_fiber, then (width one) f_coefficients
    decls = [ln for ln in text.splitlines() if ln.startswith(("Lemma ", "Theorem "))]
    last = [ln for ln in decls if not ln.startswith("Theorem f_coefficients")][-1]
    said = "Proved in Coq (theorem orbit_in_fiber" in cert["claim"]["text"]
    assert said is theorem and last.startswith("Theorem orbit_in_fiber") is theorem, last
    assert decls[-1].startswith("Theorem f_coefficients") is (args[0] == 1)


def forgeries() -> list[tuple[str, dict]]:
    """(label, forged certificate): the listed orbit changed, everything the checker rebuilds
    from it left as it was, so that only the orbit check can reject the rendered file."""
    cert = orbit_cert(1, 2, "(t-1)^4 + (t-1)^2", 0)
    out = []
    bad = copy.deepcopy(cert)
    bad["result"]["orbit"][1][0] = str(Fraction(bad["result"]["orbit"][1][0]) + 1)
    out.append(("a-point-off-the-fiber", bad))
    bad = copy.deepcopy(cert)
    bad["result"]["orbit"][1] = list(bad["result"]["orbit"][0])
    out.append(("a-point-listed-twice", bad))
    return out


@pytest.mark.parametrize("label", [f[0] for f in forgeries()])
def test_the_checker_rejects_a_forged_orbit(label):
    assert check_certificate(dict(forgeries())[label])


@needs_coqc
@pytest.mark.parametrize("label", [f[0] for f in forgeries()])
def test_coqc_rejects_a_forged_orbit(label, coq):
    cert = dict(forgeries())[label]
    module, _, text, _ = render_files(cert, certificate.sha256(cert))
    assert "Theorem orbit_in_fiber" in text
    rel = f"Certificates/{module}_{label.replace('-', '_')}.v"
    (coq.proj / rel).write_text(text)
    got = coqp.check_file(coq.proj, rel, 600)
    assert got.status == "failed" and "check_resnet_orbit inst orbit = true" in got.message


@needs_coqc
def test_coqc_proves_the_theorem_of_a_width_two_orbit_with_only_primitive_assumptions(coq):
    cert = orbit_cert(2, 2, "(t-1)^4 + (t-1)^2", 4)
    assert cert["result"]["orbit_size"] == 16
    got = coq.verdict(cert)
    assert got.status == "passed", got.message


@needs_coqc
def test_a_local_redefinition_of_the_check_fails_the_audit(coq):
    """A point off the fiber, the check redefined in the file as `true` and the theorem (which
    no longer follows) dropped: coqc alone accepts the file; the audit, which states both with
    the library's definitions in absolute names, does not."""
    cert = dict(forgeries())["a-point-off-the-fiber"]
    module, _, text, _ = render_files(cert, certificate.sha256(cert))
    thms = coq_audit.theorems_of(cert, f"{module}_redefined", text)
    forged = text.replace(
        "Lemma orbit_check",
        "Definition check_resnet_orbit (i : resnet_instance) (o : list (list (Z * Z))) : bool"
        " := true.\nLemma orbit_check",
    )
    start = forged.index("(* What it means (NNCert/meaning/resnet/OrbitMeaning.v)")
    end = forged.index("Qed.", forged.index("Theorem orbit_in_fiber")) + len("Qed.")
    forged = forged[:start] + forged[end:]
    forged = forged.replace("(* audited: orbit_in_fiber *)\n", "")
    rel = f"Certificates/{module}_redefined.v"
    (coq.proj / rel).write_text(forged)
    alone = coqp.check_file(coq.proj, rel, 600)
    assert alone.status == "passed", alone.message  # coqc alone accepts it
    audited = coqp.check_file(coq.proj, rel, 600, theorems=thms)
    assert audited.status == "failed", audited.message
    assert "not the expected statement" in audited.message or "missing" in audited.message
