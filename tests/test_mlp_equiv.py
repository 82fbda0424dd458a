"""Kind equiv of family mlp: two parameter points of one polynomial MLP give the same map (both
networks agree on the unisolvent lattice of degree D = prod deg sigma) or differ at a given
integer input. The verdict is compared with sympy's expansion of both polynomial maps on
random networks; forged certificates are rejected by the Python checker and by coqc."""

from __future__ import annotations

import copy
import random
import tomllib
from fractions import Fraction
from pathlib import Path

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from certify import certificate
from certify.checker import check_certificate
from certify.checker.kernel import rank as K
from certify.errors import SpecError
from certify.families import generate_certificate
from certify.families.mlp.render_equiv import render_files
from certify.provers import coq as coqp
from certify.provers import coq_audit
from certify.spec import parse_spec

EXAMPLE = Path(__file__).resolve().parents[1] / "certify" / "examples" / "mlp-equiv-quadratic.toml"
ACTIVATIONS = {"t^2": [0, 0, 1], "t^3": [0, 0, 0, 1], "t^2 + t": [0, 1, 1],
               "2*t^3 - t + 1": [1, -1, 0, 2]}  # fmt: skip
needs_coqc = pytest.mark.skipif(coqp.coqc_path() is None, reason="coqc not installed")


def spec_data(widths, act, bias, weights, biases, other_w, other_b) -> dict:
    params = {"weights": weights, **({"biases": biases} if bias else {})}
    req = {
        "kind": "equiv",
        "name": "eq",
        "weights": other_w,
        **({"biases": other_b} if bias else {}),
    }
    return {"name": "eq", "network": {"family": "mlp", "widths": widths, "activation": act,
            "bias": bias}, "parameters": params, "certificate": [req]}  # fmt: skip


def certify_pair(data: dict) -> dict:
    spec = parse_spec(copy.deepcopy(data), "<test>")
    return generate_certificate(spec, spec.certificates[0])


def sympy_map(widths, cs, bias, weights, biases) -> list[sympy.Expr]:
    """f(x) expanded by sympy: the independent reference of the property test."""
    xs = sympy.symbols(f"x0:{widths[0]}")
    h = list(xs)
    t = sympy.Symbol("t")
    sigma = sum(sympy.Rational(c) * t**k for k, c in enumerate(cs))
    for ell, W in enumerate(weights):
        pre = [
            sum(sympy.Rational(str(w)) * v for w, v in zip(row, h, strict=True))
            + (sympy.Rational(str(biases[ell][i])) if bias else 0)
            for i, row in enumerate(W)
        ]
        h = pre if ell == len(weights) - 1 else [sigma.subs(t, a) for a in pre]
    return [sympy.expand(e) for e in h]


def symmetric_image(widths, cs, bias, weights, biases, rng: random.Random):
    """theta2 = g.theta: permute every hidden layer; for a monomial t^d also rescale each
    hidden neuron (incoming weights and bias times lam, outgoing weights times lam^-d)."""
    W = [[[Fraction(str(w)) for w in row] for row in M] for M in weights]
    B = [[Fraction(str(b)) for b in v] for v in biases] if bias else None
    d = len(cs) - 1
    monomial = all(c == 0 for c in cs[:-1])
    for ell in range(len(widths) - 2):
        n = widths[ell + 1]
        perm = list(range(n))
        rng.shuffle(perm)
        lam = [rng.choice([1, -1, 2, Fraction(1, 2), -3]) if monomial else 1 for _ in range(n)]
        W[ell] = [[w * lam[k] for w in W[ell][perm[k]]] for k in range(n)]
        if B is not None:
            B[ell] = [B[ell][perm[k]] * lam[k] for k in range(n)]
        W[ell + 1] = [
            [row[perm[k]] / Fraction(lam[k]) ** d for k in range(n)] for row in W[ell + 1]
        ]
    text = [[[str(w) for w in row] for row in M] for M in W]
    return text, ([[str(b) for b in v] for v in B] if B is not None else None)


@st.composite
def instances(draw):
    widths = [draw(st.integers(1, 2))]
    widths += [draw(st.integers(1, 3)) for _ in range(draw(st.integers(1, 2)))]
    widths.append(draw(st.integers(1, 2)))
    act = draw(st.sampled_from(sorted(ACTIVATIONS)))
    if len(widths) > 3 and act in ("t^3", "2*t^3 - t + 1"):
        act = "t^2"  # keep the lattice small: degree <= 4
    bias = draw(st.booleans())
    ints = st.integers(-3, 3)
    weights = [[[draw(ints) for _ in range(widths[i])] for _ in range(widths[i + 1])]
               for i in range(len(widths) - 1)]  # fmt: skip
    biases = [[draw(ints) for _ in range(widths[i + 1])] for i in range(len(widths) - 1)]
    mode = draw(st.sampled_from(["symmetry", "perturb"]))
    seed = draw(st.integers(0, 10**6))
    return widths, act, bias, weights, biases, mode, seed


@settings(max_examples=40, deadline=None)
@given(instances())
def test_the_verdict_is_sympys_equality_of_the_two_polynomial_maps(inst):
    widths, act, bias, weights, biases, mode, seed = inst
    cs = ACTIVATIONS[act]
    rng = random.Random(seed)
    if mode == "symmetry":
        ow, ob = symmetric_image(widths, cs, bias, weights, biases, rng)
    else:
        ow = copy.deepcopy(weights)
        ell = rng.randrange(len(ow))
        i, j = rng.randrange(len(ow[ell])), rng.randrange(len(ow[ell][0]))
        ow[ell][i][j] += 1
        ob = biases
    cert = certify_pair(spec_data(widths, act, bias, weights, biases, ow, ob))
    truth = sympy_map(widths, cs, bias, weights, biases) == sympy_map(widths, cs, bias, ow, ob)
    assert cert["result"]["equivalent"] is truth
    if mode == "symmetry":
        assert truth
    assert check_certificate(cert) == []
    if not truth:  # the differing input really differs, by sympy
        x = cert["witness"]["x"]
        xs = sympy.symbols(f"x0:{widths[0]}")
        at = dict(zip(xs, x, strict=True))
        f1 = [e.subs(at) for e in sympy_map(widths, cs, bias, weights, biases)]
        assert f1 != [e.subs(at) for e in sympy_map(widths, cs, bias, ow, ob)]


def example_certs() -> list[dict]:
    spec = parse_spec(tomllib.loads(EXAMPLE.read_text()), str(EXAMPLE))
    return [generate_certificate(spec, req) for req in spec.certificates]


def test_the_example_has_one_equivalent_and_one_differing_pair_both_checked():
    same, differ = example_certs()
    assert same["witness"] == {"kind": "same"} and same["result"]["lattice_points"] == 6
    assert differ["witness"] == {"kind": "differ", "x": [0, 1]}
    assert check_certificate(same) == [] and check_certificate(differ) == []
    assert "f_theta = f_theta2 as polynomial maps" in same["claim"]["text"]
    assert same["claim"]["cites"] and not differ["claim"]["cites"]


def forgeries() -> list[tuple[str, dict]]:
    """(label, forged certificate): each keeps the envelope and the rebuilt claim consistent
    with its witness, so only the kernel's check can reject it."""
    same, differ = example_certs()
    out = []
    bad = copy.deepcopy(same)
    bad["instance"]["other"][0] = "5"  # theta2 no longer a symmetric image
    out.append(("other-changed", bad))
    bad = copy.deepcopy(differ)
    bad["witness"]["x"] = bad["result"]["x"] = [0, 0]  # both maps vanish at 0
    bad["claim"]["text"] = bad["claim"]["text"].replace("x = [0, 1]", "x = [0, 0]")
    out.append(("x-where-they-agree", bad))
    bad = copy.deepcopy(differ)
    bad["witness"] = {"kind": "same"}
    bad["result"], bad["claim"] = same["result"], same["claim"]
    out.append(("same-for-a-differing-pair", bad))
    return out


@pytest.mark.parametrize("label", [f[0] for f in forgeries()])
def test_the_checker_rejects_a_forged_equivalence(label):
    cert = dict(forgeries())[label]
    assert check_certificate(cert)


@needs_coqc
def test_coqc_passes_both_example_certificates(coq):
    for cert in example_certs():
        assert coq.verdict(cert).status == "passed", cert["name"]


@needs_coqc
@pytest.mark.parametrize("label", [f[0] for f in forgeries()])
def test_coqc_rejects_a_forged_equivalence(label, coq):
    cert = dict(forgeries())[label]
    module, _, text, _ = render_files(cert, certificate.sha256(cert))
    rel = f"Certificates/{module}_{label.replace('-', '_')}.v"
    (coq.proj / rel).write_text(text)
    assert coqp.check_file(coq.proj, rel, 600).status == "failed"


@needs_coqc
def test_a_local_redefinition_of_the_check_fails_the_audit(coq):
    """A forged 'same' for the differing pair, with the check redefined in the file as
    `true` and the meaning theorem (which no longer follows) dropped: coqc alone accepts the
    file; the audit, which states both with the library's definitions in absolute names,
    does not."""
    cert = dict(forgeries())["same-for-a-differing-pair"]
    module, _, text, _ = render_files(cert, certificate.sha256(cert))
    thms = coq_audit.theorems_of(cert, f"{module}_redefined", text)  # in absolute names
    forged = text.replace(
        "Lemma same_check",
        "Definition check_mlp_same (i : rank_instance) (o : list (Z * Z)) : bool := true.\n"
        "Lemma same_check",
    )
    forged = forged[: forged.index("(* What it means")] + "(* audited: same_check *)\n"
    rel = f"Certificates/{module}_redefined.v"
    (coq.proj / rel).write_text(forged)
    alone = coqp.check_file(coq.proj, rel, 600)
    assert alone.status == "passed", alone.message  # coqc alone accepts it
    audited = coqp.check_file(coq.proj, rel, 600, theorems=thms)
    assert audited.status == "failed" and "not the expected statement" in audited.message


def test_a_request_without_weights_or_with_a_huge_lattice_is_a_spec_error_naming_the_field():
    data = spec_data([2, 2, 1], "t^2", False, [[[1, 2], [3, 4]], [[1, 1]]], None, None, None)
    del data["certificate"][0]["weights"]
    with pytest.raises(SpecError, match=r"certificate\[0\]\.weights") as e:
        parse_spec(data, "<t>")
    assert e.value.exit_code == 2
    data = spec_data([2, 2, 1], "t^2", False, [[[1, 2], [3, 4]], [[1, 1]]], None,
                     [[[1, 2], [3, 4]], [[1, 1]]], [[0, 0], [0]])  # fmt: skip
    data["certificate"][0]["biases"] = [[0, 0], [0]]
    with pytest.raises(SpecError, match=r"certificate\[0\]\.biases"):
        parse_spec(data, "<t>")
    wide = [[[1] * 9] * 2, [[1, 1]]]
    data = spec_data([9, 2, 1], "t^8", False, wide, None, wide, None)
    with pytest.raises(SpecError, match=r"network\.widths.*at most 5000"):
        parse_spec(data, "<t>")


def test_the_python_twin_decides_a_scaling_symmetry_and_a_change():
    inst = K.RankInstance([1, 2, 1], [[(0, 1), (0, 1), (1, 1)]], False,
                          [(1, 1), (2, 1), (3, 1), (4, 1)])  # fmt: skip
    assert K.check_mlp_same(inst, [(-1, 1), (2, 1), (3, 1), (4, 1)])  # sign flip, t^2 even
    assert K.check_mlp_same(inst, [(2, 1), (1, 1), (4, 1), (3, 1)])  # the neurons swapped
    assert not K.check_mlp_same(inst, [(2, 1), (2, 1), (3, 1), (4, 1)])
    assert K.check_mlp_differ(inst, [(2, 1), (2, 1), (3, 1), (4, 1)], [1])
    assert not K.check_mlp_differ(inst, [(2, 1), (2, 1), (3, 1), (4, 1)], [0])
    assert not K.check_mlp_same(inst, [(-1, 0), (2, 1), (3, 1), (4, 1)])  # a zero denominator


@needs_coqc
def test_both_example_files_end_in_the_theorem_of_what_the_check_means():
    for cert in example_certs():
        text = render_files(cert, certificate.sha256(cert))[2]
        last = [ln for ln in text.splitlines() if ln.startswith(("Lemma ", "Theorem "))][-1]
        assert last.startswith(("Theorem same_on_lattice", "Theorem differ_at_x")), last
        assert "= true" not in last
        assert "Proved in Coq (theorem " in cert["claim"]["text"]
