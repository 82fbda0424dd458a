"""ReLU networks (issue 5): the certified rank is the exact rank of the batch Jacobian, computed
independently (exact finite differences with the activation pattern forced, flint over Q) and
never above D - H; the pinned small cases; equivalence, permutation-scaling and hidden-symmetry
certificates; tampering rejected by the checker and by coqc; bad specs named."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from pathlib import Path

import pytest
from flint import fmpq, fmpq_mat
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from certify import certificate
from certify.checker import check_certificate
from certify.errors import SpecError
from certify.families import generate_certificate
from certify.provers import coq as coqp
from certify.spec import parse_rat_str, parse_spec
from tests.conftest import run_cli


def spec_of(widths, params=None, other=None, certs=None, name="r"):
    data = {"name": name, "network": {"family": "relu", "widths": widths}}
    if params is not None:
        data["parameters"] = params
    if other is not None:
        data["other"] = other
    if certs is not None:
        data["certificate"] = certs
    return parse_spec(data, "<test>")


def make(widths, params=None, other=None, certs=None) -> dict:
    spec = spec_of(widths, params, other, certs)
    return generate_certificate(spec, spec.certificates[0])


# ---------------------------------------------------------------- an independent exact rank
def plain_eval(widths, theta, z, forced=None, strict=True):
    """F_theta(z) and the pattern, by a plain loop over Fractions; with `forced`, ReLU applies
    that pattern instead of the signs (then F is affine in every single parameter)."""
    h, pos, pats = list(z), 0, []
    for ell, (prev, d) in enumerate(zip(widths, widths[1:])):
        pre = []
        for _ in range(d):
            pre.append(sum(theta[pos + j] * h[j] for j in range(prev)) + theta[pos + prev])
            pos += prev + 1
        if ell == len(widths) - 2:
            return pre, pats
        if forced is None and strict:
            assert all(a != 0 for a in pre)  # the batch lies on no bent hyperplane
        pat = [a > 0 for a in pre] if forced is None else forced[ell]
        pats.append(pat)
        h = [a if on else Fraction(0) for a, on in zip(pre, pat)]
    raise AssertionError


def exact_batch_rank(cert: dict) -> int:
    """Rank over Q of the batch Jacobian: with the pattern of z forced, F(z) is affine in each
    parameter, so F(theta + e_c) - F(theta) is exactly the partial derivative."""
    widths = cert["instance"]["network"]["widths"]
    theta = [parse_rat_str(t) for t in cert["instance"]["theta"]]
    batch = [[parse_rat_str(c) for c in z] for z in cert["witness"]["lower"]["batch"]]
    rows = []
    for z in batch:
        base, pats = plain_eval(widths, theta, z)
        cols = []
        for c in range(len(theta)):
            moved = list(theta)
            moved[c] += 1
            cols.append([a - b for a, b in zip(plain_eval(widths, moved, z, pats)[0], base)])
        rows.extend([col[k] for col in cols] for k in range(widths[-1]))
    q = [[fmpq(v.numerator, v.denominator) for v in r] for r in rows]
    return fmpq_mat(q).rank()


# ---------------------------------------------------------------- rank
@pytest.mark.parametrize(
    "widths, rank", [([1, 1, 1], 3), ([2, 2, 1], 7), ([2, 2, 2], 10), ([2, 3, 1], 10)]
)
def test_the_small_cases_of_math_md_reach_d_minus_h(widths, rank):
    cert = make(widths, {"seed": 1})
    r = cert["result"]
    assert r["rank_lower"] == r["rank_upper_at_point"] == r["rank_at_point"] == rank
    assert r["expected_dim"] == r["params"] - r["symmetry_dim"] == rank
    assert exact_batch_rank(cert) == rank
    assert check_certificate(cert) == []
    assert r["batch_size"] == len(cert["witness"]["lower"]["batch"])
    assert 1 <= r["activation_patterns"] <= r["batch_size"]
    assert r["grillo_montufar"] == (min(widths[:-1]) >= 2)
    assert ("Grillo-Montufar" in cert["claim"]["text"]) and (
        ("functional dimension of the architecture is D - H" in cert["claim"]["text"])
        == r["grillo_montufar"]
    )


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.integers(1, 3), min_size=2, max_size=4),
    st.integers(0, 10**6),
    st.integers(1, 6),
)
def test_certified_relu_rank_is_the_exact_batch_rank_and_never_above_d_minus_h(widths, seed, rng):
    cert = make(widths, {"seed": seed, "range": rng})
    r = cert["result"]
    assert r["rank_lower"] == exact_batch_rank(cert)
    assert r["rank_lower"] <= r["params"] - r["symmetry_dim"]
    assert r["rank_lower"] <= r["rank_upper_at_point"] <= r["params"] - r["symmetry_dim"]
    if widths[0] == 1:  # the cover batch: exact at theta from both sides
        assert r["batch_covers_pieces"] or "cover" not in cert["witness"]
    if r["batch_covers_pieces"]:
        assert r["functional_dimension_at_point"] == r["rank_lower"] == r["rank_upper_at_point"]
    assert check_certificate(cert) == []


def test_a_width_one_network_short_of_d_minus_h_at_theta_says_so():
    # (1, 1, 1, 1) with a2 = b2 = 1 > 0: the second neuron is always active, so
    # F = a3 (relu(a1 x + b1) + 1) + b3 has three parameters' worth of functions: rank 3 < 4.
    params = {"weights": [[[1]], [[1]], [[2]]], "biases": [[1], [1], [0]]}
    cert = make([1, 1, 1, 1], params)
    r = cert["result"]
    assert r["rank_lower"] == exact_batch_rank(cert) == 3 and r["expected_dim"] == 4
    # the batch holds two points of every piece and an exact nullspace bounds it from above:
    assert r["rank_at_point"] == r["functional_dimension_at_point"] == 3
    assert r["batch_covers_pieces"] and r["upper_kind"] == "nullspace"
    assert "below D - H = 4" in cert["claim"]["text"]
    assert "functional dimension at theta is exactly 3" in cert["claim"]["text"]
    assert cert["generator"]["attempts"][0]["rank"] == 3
    assert check_certificate(cert) == []


def test_the_seeded_search_over_theta_is_reported():
    cert = make([1, 1, 1, 1], {"seed": 3}, certs=[{"kind": "rank", "attempts": 6}])
    attempts = cert["generator"]["attempts"]
    assert 1 <= len(attempts) <= 6
    assert all({"attempt", "theta", "rank", "candidates", "batch_size", "patterns"} <= set(a)
               for a in attempts)  # fmt: skip
    assert cert["result"]["rank_lower"] == max(a["rank"] for a in attempts)
    assert check_certificate(cert) == []


def test_a_given_batch_is_used_as_given():
    batch = [[0, 0], [1, 0], [0, 2], [-2, 0], [0, -1], [2, 1], [1, 2], ["1/2", -2]]
    params = {"weights": [[[1, 2], [-3, 1], [2, -1]], [[1, -2, 3]]],
              "biases": [[1, -1, "1/2"], [1]]}  # fmt: skip
    cert = make([2, 3, 1], params, certs=[{"kind": "rank", "batch": batch}])
    assert cert["witness"]["lower"]["batch"] == [[str(Fraction(c)) for c in z] for z in batch]
    assert cert["result"]["rank_lower"] == exact_batch_rank(cert)
    assert cert["generator"]["batch"] == "given"
    assert check_certificate(cert) == []


def test_same_spec_gives_byte_identical_certificates_and_renderings():
    from certify.bundle import render_certificate

    a = make([2, 3, 1], {"seed": 4})
    b = make([2, 3, 1], {"seed": 4})
    assert certificate.dump(a) == certificate.dump(b)
    ra, rb = render_certificate(a), render_certificate(b)
    assert (ra.coq_text, ra.lean_text) == (rb.coq_text, rb.lean_text)


def _on_hyperplane(cert: dict) -> list[str]:
    """A point on the first hidden neuron's hyperplane w.x + b = 0 (integer weights)."""
    theta = [parse_rat_str(t) for t in cert["instance"]["theta"]]
    n0 = cert["instance"]["network"]["widths"][0]
    w, b = theta[:n0], theta[n0]
    j = next(i for i, v in enumerate(w) if v != 0)
    z = [Fraction(0)] * n0
    z[j] = -b / w[j]
    return [str(v) for v in z]


RANK_TAMPERS = {
    "a duplicated column": lambda c: c["witness"]["lower"]["cols"].__setitem__(
        1, c["witness"]["lower"]["cols"][0]
    ),
    "a batch point moved onto a bent hyperplane": lambda c: c["witness"]["lower"][
        "batch"
    ].__setitem__(0, _on_hyperplane(c)),
    "the claimed rank": lambda c: c["witness"]["lower"].__setitem__(
        "rank", c["witness"]["lower"]["rank"] + 1
    ),
    "a prime not below 2^31": lambda c: c["witness"]["lower"].__setitem__("prime", 2**31),
    "a column index out of range": lambda c: c["witness"]["lower"]["cols"].__setitem__(
        0, len(c["instance"]["theta"])
    ),
    "a row label": lambda c: c["witness"]["lower"]["rows"].__setitem__(
        0, [c["witness"]["lower"]["rows"][1][0], 0]
    ),
    "a batch denominator inverse": lambda c: c["witness"]["lower"]["batch_inv"][0].__setitem__(
        0, 2
    ),
    "a scaling tangent": lambda c: c["witness"]["upper"]["tangents"][0].__setitem__(
        0, c["witness"]["upper"]["tangents"][0][0] + 1
    ),
    "the upper bound": lambda c: c["witness"]["upper"].__setitem__("bound", 1),
    # the kernel's dot product skips a tangent's zero entries (dot_nz): one made nonzero
    "a zero entry of a scaling tangent": lambda c: c["witness"]["upper"]["tangents"][0].__setitem__(
        c["witness"]["upper"]["tangents"][0].index(0), 1
    ),
}


@given(
    st.lists(st.tuples(st.integers(-50, 50), st.integers(1, 30)), max_size=12),
    st.lists(st.integers(-3, 3), max_size=12),
)
def test_the_kernel_dot_skipping_zero_tangent_entries_is_the_rational_dot(g, t):
    from certify.checker.kernel.arith import ARITH_Q, ints_q
    from certify.checker.kernel.net import dot
    from certify.checker.kernel.relu import dot_nz

    n, d = dot_nz(g, t)
    full = dot(ARITH_Q, g, ints_q(t))
    assert d > 0 and Fraction(n, d) == Fraction(full[0], full[1])
    assert Fraction(n, d) == sum((Fraction(a, b) * y for (a, b), y in zip(g, t)), Fraction(0))


@pytest.mark.parametrize("what", RANK_TAMPERS)
def test_a_tampered_relu_rank_certificate_is_rejected_by_the_checker_and_coqc(what, coq):
    cert = make([2, 2, 1], {"seed": 2})
    bad = copy.deepcopy(cert)
    RANK_TAMPERS[what](bad)
    assert check_certificate(bad), what
    assert coq.verdict(bad).status == "failed", what


def test_the_untampered_relu_rank_certificate_passes_coqc(coq):
    cert = make([2, 2, 1], {"seed": 2})
    v = coq.verdict(cert)
    assert v.status == "passed", v.message
    assert all(coqp.allowed_assumption(a) for a in v.assumptions)


def test_a_false_claim_or_result_is_rejected_by_the_checker():
    cert = make([2, 2, 1], {"seed": 2})
    for edit in (
        lambda c: c["claim"].__setitem__("text", c["claim"]["text"].replace(">= 7", ">= 8")),
        lambda c: c["result"].__setitem__("rank_lower", 9),
        lambda c: c["result"].__setitem__("activation_patterns", 99),
        lambda c: c["result"].__setitem__("grillo_montufar", False),
        lambda c: c["claim"].__setitem__("cites", []),
    ):
        bad = copy.deepcopy(cert)
        edit(bad)
        assert check_certificate(bad)


# ---------------------------------------------------------------- equivalence
PERM_PARAMS = {"weights": [[[1], [-2]], [[3, 1]]], "biases": [[1, 3], [2]]}
PERM_OTHER = {"weights": [[[-4], [2]], [["1/2", "3/2"]]], "biases": [[6, 2], [2]]}
HIDDEN_PARAMS = {"weights": [[[1]], [[1]], [[1]]], "biases": [[0], [1], [0]]}
HIDDEN_OTHER = {"weights": [[[1]], [[1]], [[1]]], "biases": [[0], [2], [-1]]}
EQUIV = [{"kind": "equiv"}]


def test_a_permutation_with_scaling_is_found_and_given_as_the_group_element(coq):
    cert = make([1, 2, 1], PERM_PARAMS, PERM_OTHER, EQUIV)
    r = cert["result"]
    assert r["equivalent"] and r["symmetry"] == "permutation-scaling"
    assert r["group_element"] == {"perms": [[1, 0]], "scales": [["2", "2"]]}
    assert check_certificate(cert) == []
    assert coq.verdict(cert).status == "passed"


def test_a_width_one_layer_gives_a_hidden_symmetry(coq):
    cert = make([1, 1, 1, 1], HIDDEN_PARAMS, HIDDEN_OTHER, EQUIV)
    r = cert["result"]
    assert r["equivalent"] and r["symmetry"] == "hidden" and r["group_element"] is None
    assert r["width_one_hidden_layer"] is True
    assert "hidden symmetry" in cert["claim"]["text"]
    assert check_certificate(cert) == []
    assert coq.verdict(cert).status == "passed"


def test_inequivalent_networks_get_an_input_where_they_differ(coq):
    other = {"weights": [[[1], [-2]], [[3, 1]]], "biases": [[1, "7/2"], [2]]}
    cert = make([1, 2, 1], PERM_PARAMS, other, EQUIV)
    assert cert["result"]["equivalent"] is False and cert["witness"]["kind"] == "differ"
    assert check_certificate(cert) == []
    assert coq.verdict(cert).status == "passed"
    # the file ends in what the check means over Q (ReLUEquivMeaning.v), not in "= true"
    from certify.families.relu.render import render_files

    text = render_files(cert, certificate.sha256(cert))[2]
    last = [ln for ln in text.splitlines() if ln.startswith(("Lemma ", "Theorem "))][-1]
    assert last.startswith("Theorem differ_at_x : relu_fun inst (ri_theta inst) x <>"), last
    assert "Proved in Coq (theorem differ_at_x" in cert["claim"]["text"]
    # an x where the two agree (they differ only in the bias of a neuron that x = 10 turns
    # off: -2 * 10 + 3 < 0 and -2 * 10 + 7/2 < 0): rejected by the checker and by coqc
    bad = copy.deepcopy(cert)
    bad["witness"]["x"] = bad["result"]["x"] = "10"
    bad["claim"]["text"] = bad["claim"]["text"].replace(f"x = {cert['result']['x']}", "x = 10")
    assert check_certificate(bad)
    assert coq.verdict(bad).status == "failed"


def plain_f(widths, theta, x):
    return plain_eval(widths, theta, [x], strict=False)[0]


def permuted_copy(widths: list[int], seed: int, perms: list, scales: list) -> dict:
    """The spec's `other` for g.theta, theta the seed's point and g the permutations `perms`
    and positive scalings `scales` (rational texts) of the hidden layers."""
    from certify.checker.kernel import relu as KR

    spec = spec_of(widths, {"seed": seed})
    th = [(t.numerator, t.denominator) for t in spec.theta]
    scs = [[(Fraction(s).numerator, Fraction(s).denominator) for s in layer] for layer in scales]
    g_theta = KR.apply_sym(1, widths[1:], perms, scs, [0], [(1, 1)], th)
    other: dict = {"weights": [], "biases": []}
    pos = 0
    for prev, d in zip(widths, widths[1:]):
        W, b = [], []
        for _ in range(d):
            # canonical rational texts (the spec refuses "4/1" since issue 22)
            W.append([str(Fraction(a, c)) for a, c in g_theta[pos : pos + prev]])
            b.append(str(Fraction(*g_theta[pos + prev])))
            pos += prev + 1
        other["weights"].append(W)
        other["biases"].append(b)
    return other


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.integers(1, 3), min_size=1, max_size=3),
    st.integers(0, 10**6),
    st.permutations(range(3)),
    st.lists(st.sampled_from(["1", "2", "1/3", "5/2"]), min_size=3, max_size=3),
)
def test_every_permuted_and_scaled_copy_is_certified_equivalent(hidden, seed, perm, scales):
    """g.theta for a random g is equivalent and the group element found maps theta to it."""
    widths = [1, *hidden, 1]
    perms = [[p for p in perm if p < w] for w in hidden]
    other = permuted_copy(widths, seed, perms, [scales[:w] for w in hidden])
    cert = make(widths, {"seed": seed}, other, EQUIV)
    assert cert["result"]["equivalent"] is True
    assert cert["result"]["symmetry"] == "permutation-scaling"
    assert check_certificate(cert) == []


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(1, 2), min_size=1, max_size=2), st.integers(0, 10**6),
       st.integers(0, 10**6))  # fmt: skip
def test_two_random_networks_are_certified_different_at_a_point_where_they_differ(hidden, s1, s2):
    widths = [1, *hidden, 1]
    cert = make(widths, {"seed": s1}, {"seed": s2}, EQUIV)
    r = cert["result"]
    spec = spec_of(widths, {"seed": s1}, {"seed": s2}, EQUIV)
    if not r["equivalent"]:
        x = parse_rat_str(r["x"])
        assert plain_f(widths, spec.theta, x) != plain_f(widths, spec.other, x)
    else:  # then they agree at many points
        for k in range(-30, 31):
            x = Fraction(k, 3)
            assert plain_f(widths, spec.theta, x) == plain_f(widths, spec.other, x)
    assert check_certificate(cert) == []


EQUIV_TAMPERS = {
    "a breakpoint dropped": ("perm", lambda c: c["witness"]["points"].pop(1)),
    "the other network": ("perm", lambda c: c["instance"]["other"].__setitem__(6, "3")),
    "a scaling made negative": (
        "perm", lambda c: c["witness"]["scales"][0].__setitem__(0, "-2")),
    "a wrong permutation": ("perm", lambda c: c["witness"].__setitem__("perms", [[0, 1]])),
    "the differing point": ("differ", lambda c: c["witness"].__setitem__("x", "100")),
    "points out of order": ("hidden", lambda c: c["witness"]["points"].reverse()),
}  # fmt: skip


@pytest.mark.parametrize("what", EQUIV_TAMPERS)
def test_a_tampered_equivalence_certificate_is_rejected_by_the_checker_and_coqc(what, coq):
    which, edit = EQUIV_TAMPERS[what]
    if which == "perm":
        cert = make([1, 2, 1], PERM_PARAMS, PERM_OTHER, EQUIV)
    elif which == "hidden":
        cert = make([1, 1, 1, 1], HIDDEN_PARAMS, HIDDEN_OTHER, EQUIV)
    else:
        other = {"weights": [[[1], [-2]], [[3, 1]]], "biases": [[1, "7/2"], [2]]}
        cert = make([1, 2, 1], PERM_PARAMS, other, EQUIV)
    bad = copy.deepcopy(cert)
    edit(bad)
    assert check_certificate(bad), what
    assert coq.verdict(bad).status == "failed", what


def test_claiming_a_hidden_symmetry_when_a_group_element_exists_is_rejected():
    cert = make([1, 2, 1], PERM_PARAMS, PERM_OTHER, EQUIV)
    bad = copy.deepcopy(cert)
    for k in ("perms", "scales"):
        del bad["witness"][k]
    bad["result"].update(symmetry="hidden", group_element=None)
    problems = check_certificate(bad)
    assert any("group element exists" in p for p in problems)


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    "data, field",
    [
        ({"network": {"family": "relu", "widths": [2, 0, 1]}}, "network.widths[1]"),
        ({"network": {"family": "relu", "widths": [2, 1.5, 1]}}, "network.widths[1]"),
        ({"network": {"family": "relu", "widths": [2, "3", 1]}}, "network.widths[1]"),
        ({"network": {"family": "relu", "widths": [2]}}, "network.widths"),
        ({"network": {"family": "relu", "widths": [2, 2, 1], "activation": "t"}},
         "network.activation"),
        ({"network": {"family": "relu", "widths": [1, 1, 1]},
          "parameters": {"weights": [[[1, 2]], [[1]]], "biases": [[0], [0]]}},
         "parameters.weights[0][0]"),
        ({"network": {"family": "relu", "widths": [1, 1, 1]},
          "parameters": {"weights": [[[1]], [[1]]]}}, "parameters.biases"),
        ({"network": {"family": "relu", "widths": [1, 2, 1]},
          "parameters": {"weights": [[[1], [1]], [[1, 1]]], "biases": [[-1, 2], [0]]},
          "certificate": [{"kind": "rank", "batch": [[2], [1]]}]}, "certificate[0].batch[1]"),
        ({"network": {"family": "relu", "widths": [2, 2, 1]},
          "certificate": [{"kind": "rank", "batch": [[1]]}]}, "certificate[0].batch[0]"),
        ({"network": {"family": "relu", "widths": [2, 2, 1]},
          "certificate": [{"kind": "equiv"}], "other": {"seed": 1}}, "network.widths[0]"),
        ({"network": {"family": "relu", "widths": [1, 2, 1]},
          "certificate": [{"kind": "equiv"}]}, "other"),
        ({"network": {"family": "relu", "widths": [1, 2, 1]},
          "certificate": [{"kind": "equiv"}],
          "other": {"weights": [[[1], [1]], [[1]]], "biases": [[0, 0], [0]]}},
         "other.weights[1][0]"),
        ({"network": {"family": "relu", "widths": [1, 2, 1]},
          "certificate": [{"kind": "orbit"}]}, "network.family"),
        ({"network": {"family": "relu", "widths": [1, 2, 1]},
          "certificate": [{"kind": "implicit", "equation": "c0"}]}, "network.family"),
        ({"network": {"family": "mlp", "widths": [1, 2, 1], "activation": "t^2"},
          "certificate": [{"kind": "rank", "batch": [[1]]}]}, "network.family"),
        ({"network": {"family": "mlp", "widths": [1, 2, 1], "activation": "t^2"},
          "certificate": [{"kind": "equiv"}]}, "certificate[0].weights"),  # mlp's own equiv
        ({"network": {"family": "mlp", "widths": [1, 2, 1], "activation": "t^2"},
          "other": {"seed": 1}}, "other"),
        ({"network": {"family": "relu", "widths": [1, 2, 1]}, "other": {"seed": 1}}, "other"),
    ],
)  # fmt: skip
def test_bad_relu_specs_name_the_field(data, field):
    with pytest.raises(SpecError) as e:
        parse_spec({"name": "bad", **data}, "bad.toml")
    assert e.value.field == field, str(e.value)
    assert "bad.toml" in str(e.value)


def test_a_batch_point_on_a_hyperplane_exits_2_without_a_bundle(tmp_path: Path):
    spec = tmp_path / "r.json"
    spec.write_text(json.dumps({
        "name": "r", "network": {"family": "relu", "widths": [1, 2, 1]},
        "parameters": {"weights": [[[1], [1]], [[1, 1]]], "biases": [[-1, 2], [0]]},
        "certificate": [{"kind": "rank", "batch": [[1]]}],
    }))  # fmt: skip
    out = tmp_path / "o"
    r = run_cli("run", str(spec), "--out", str(out), "--no-coq", "--no-lean")
    assert r.returncode == 2, r.stdout + r.stderr
    assert "'certificate[0].batch[0]'" in r.stderr and "hyperplane" in r.stderr
    assert not out.exists()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.integers(1, 3), min_size=1, max_size=2),
    st.integers(0, 10**6),
    st.integers(0, 10**6),
    st.booleans(),
)
def test_the_equivalence_kernel_accepts_only_equal_functions(hidden, seed, pick, perturb):
    """Soundness of check_relu_equiv beyond generated witnesses: random point sets (a random
    part of the true kinks plus random points) for theta against itself or a perturbed copy;
    whenever the kernel twin accepts, the two functions agree at many other points."""
    import random as _random

    from certify.checker.kernel import relu as KR
    from certify.families.relu.model import breakpoints

    widths = [1, *hidden, 1]
    spec = spec_of(widths, {"seed": seed})
    th1 = list(spec.theta)
    rng = _random.Random(pick)
    th2 = list(th1)
    if perturb:
        i = rng.randrange(len(th2))
        th2[i] += rng.choice((-1, 1))
    kinks = breakpoints(widths, th1) + breakpoints(widths, th2)
    pts = {k for k in kinks if rng.random() < 0.8}
    pts |= {Fraction(rng.randrange(-40, 41), rng.randrange(1, 5)) for _ in range(rng.randrange(4))}
    pts = sorted(pts)
    q = [(t.numerator, t.denominator) for t in th1]
    q2 = [(t.numerator, t.denominator) for t in th2]
    accepted = KR.check_relu_equiv(KR.ReluInstance(widths, q), q2, [(t.numerator, t.denominator)
                                                                     for t in pts])  # fmt: skip
    if accepted:
        for k in range(-60, 61):
            x = Fraction(k, 4)
            assert plain_f(widths, th1, x) == plain_f(widths, th2, x)


def test_a_false_equivalence_claim_or_result_is_rejected_by_the_checker():
    cert = make([1, 1, 1, 1], HIDDEN_PARAMS, HIDDEN_OTHER, EQUIV)
    for edit in (
        lambda c: c["claim"].__setitem__("text", c["claim"]["text"].replace("hidden", "a")),
        lambda c: c["result"].__setitem__("symmetry", "permutation-scaling"),
        lambda c: c["result"].__setitem__("pieces", 99),
        lambda c: c["result"].__setitem__("equivalent", False),
    ):
        bad = copy.deepcopy(cert)
        edit(bad)
        assert check_certificate(bad)


# ---------------------------------------------------------------- one-dimensional input: cover
README_1111 = {"weights": [[[1]], [[1]], [[2]]], "biases": [[1], [1], [0]]}


def test_the_cover_certificate_passes_coqc_and_a_moved_cut_is_rejected_by_both(coq):
    cert = make([1, 1, 1, 1], {"weights": [[[1]], [[-1]], [[1]]], "biases": [[0], [2], [1]]})
    assert cert["result"]["batch_covers_pieces"]
    assert check_certificate(cert) == []
    assert coq.verdict(cert).status == "passed"
    cuts = cert["witness"]["cover"]["cuts"]
    batch = cert["witness"]["lower"]["batch"]
    assert len(cuts) >= 1 and len(batch) == 2 * len(cuts) + 2
    bad = copy.deepcopy(cert)
    # the cut halfway between b_1 and a_2 instead of at the breakpoint: a sign change
    # inside [b_1, c_1] or [c_1, a_2]
    mid = (parse_rat_str(batch[1][0]) + parse_rat_str(batch[2][0])) / 2
    assert mid != parse_rat_str(cuts[0])
    bad["witness"]["cover"]["cuts"][0] = str(mid)
    assert check_certificate(bad) != []
    assert coq.verdict(bad).status == "failed"


def test_a_batch_missing_a_piece_fails_the_cover_kernel():
    from certify.checker.kernel import relu as KR

    params = {"weights": [[[1], [1]], [[1, -1]]], "biases": [[0, -1], [0]]}
    cert = make([1, 2, 1], params)
    inst = KR.ReluInstance([1, 2, 1], [(f.numerator, f.denominator) for f in
                                       map(parse_rat_str, cert["instance"]["theta"])])  # fmt: skip
    batch = [[(f.numerator, f.denominator)] for f in
             (parse_rat_str(z[0]) for z in cert["witness"]["lower"]["batch"])]  # fmt: skip
    cuts = [
        (f.numerator, f.denominator) for f in map(parse_rat_str, cert["witness"]["cover"]["cuts"])
    ]
    assert len(batch) == 6 and KR.check_relu_cover(inst, batch, cuts)
    assert not KR.check_relu_cover(inst, batch[:2] + batch[4:], cuts[:1])  # piece (0, 1) missing
    assert not KR.check_relu_cover(inst, batch[2:], cuts[1:])  # the left ray's piece missing
    assert not KR.check_relu_cover(inst, batch, cuts[:1])  # a cut short


def sympy_batch_rank(widths, theta, batch) -> int:
    """Rank over Q of the batch Jacobian by symbolic differentiation (sympy), with the
    activation pattern of each point at theta fixed: independent of the tool's code."""
    import sympy as sp

    n = len(theta)
    th = sp.symbols(f"t0:{n}")
    sub = {th[i]: sp.Rational(theta[i].numerator, theta[i].denominator) for i in range(n)}
    rows = []
    for z in batch:
        hs = [sp.Rational(c.numerator, c.denominator) for c in z]
        hv, pos = list(hs), 0
        for ell, (prev, d) in enumerate(zip(widths, widths[1:])):
            pre, val = [], []
            for _ in range(d):
                pre.append(sum(th[pos + j] * hs[j] for j in range(prev)) + th[pos + prev])
                val.append(sum(theta[pos + j] * hv[j] for j in range(prev)) + theta[pos + prev])
                pos += prev + 1
            if ell == len(widths) - 2:
                break
            assert all(v != 0 for v in val)
            hs = [a if v > 0 else 0 for a, v in zip(pre, val)]
            hv = [v if v > 0 else 0 for v in val]
        rows.extend([sp.diff(out, t).subs(sub) for t in th] for out in pre)
    return sp.Matrix(rows).rank()


# (widths, D - H, the certified functional dimension at the certificate's theta with default
# settings and seed 1). Computed independently by sympy on the certificate's batch and on that
# batch with 30 extra random points (the rank does not grow). (1,1,1,1,1): a chain of width
# one computes plateau-ramp-plateau functions (two levels, two kinks), so 4 < D - H = 5.
PINNED = [
    ([1, 1, 1], 3, 3), ([1, 2, 1], 5, 5), ([1, 3, 1], 7, 7), ([1, 4, 1], 9, 9),
    ([1, 1, 1, 1], 4, 4), ([1, 2, 2, 1], 9, 9), ([1, 1, 2, 1], 6, 6), ([1, 2, 1, 1], 6, 6),
    ([1, 3, 2], 11, 11), ([1, 2, 3, 1], 12, 12), ([2, 1, 1], 4, 4), ([2, 1, 2, 1], 7, 7),
    ([3, 1, 1], 5, 5), ([2, 2, 1, 1], 8, 8), ([1, 1, 1, 1, 1], 5, 4),
]  # fmt: skip


@pytest.mark.parametrize("widths, dh, fd", PINNED)
def test_pinned_functional_dimensions_at_theta_match_sympy(widths, dh, fd):
    import random

    from certify.families.relu.model import forward

    cert = make(widths, {"seed": 1})
    r = cert["result"]
    assert (r["expected_dim"], r["rank_lower"], r["rank_upper_at_point"]) == (dh, fd, fd)
    theta = [parse_rat_str(t) for t in cert["instance"]["theta"]]
    batch = [[parse_rat_str(c) for c in z] for z in cert["witness"]["lower"]["batch"]]
    assert sympy_batch_rank(widths, theta, batch) == fd
    rng = random.Random(0)
    extra = [[Fraction(rng.randint(-400, 400), rng.randint(1, 9)) for _ in range(widths[0])]
             for _ in range(30)]  # fmt: skip
    extra = [z for z in extra if all(a != 0 for pre in forward(widths, theta, z)[1] for a in pre)]
    assert sympy_batch_rank(widths, theta, batch + extra) == fd
    if widths[0] == 1:
        assert r["batch_covers_pieces"] and r["functional_dimension_at_point"] == fd
        assert "functional dimension at theta is exactly" in cert["claim"]["text"]
        assert "Grillo-Montufar, arXiv" not in " ".join(cert["claim"]["cites"])
    search = cert["generator"]["search"]
    assert search["max_rank"] == fd and len(cert["generator"]["attempts"]) == search["attempts"]
    assert search["bound"] == ("D - H" if fd == dh else f"below D - H = {dh}")
    assert check_certificate(cert) == []


def test_the_batch_does_not_depend_on_the_spec_name():
    a = make([1, 2, 1], {"seed": 4})
    spec = spec_of([1, 2, 1], {"seed": 4}, name="another-name")
    b = generate_certificate(spec, spec.certificates[0])
    assert a["witness"] == b["witness"] and a["result"] == b["result"]
    a = make([2, 1, 2, 1], {"seed": 4})
    spec = spec_of([2, 1, 2, 1], {"seed": 4}, name="another-name")
    b = generate_certificate(spec, spec.certificates[0])
    assert a["witness"] == b["witness"]
