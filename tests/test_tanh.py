"""Tanh-type DAG networks: orbit and equivalence certificates (generator, checker twin, coqc),
the group action against the network function, canonical forms, bad specs and tampering."""

from __future__ import annotations

import copy
import itertools
import json
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import mpmath
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from certify import certificate
from certify.checker import check_certificate
from certify.checker.check.tanh import to_instance
from certify.checker.facts import tanh_net as N
from certify.checker.kernel import tanh as KT
from certify.errors import CertifyError, SpecError
from certify.families import generate_certificate
from certify.families.tanh import dag as D
from certify.families.tanh.render import render_prover
from certify.spec import load_spec, parse_spec
from tests.conftest import run_cli

EX = Path(__file__).resolve().parents[1] / "certify" / "examples"
TANH = (Fraction(-1), Fraction(0), Fraction(-1), Fraction(0))
LOGISTIC = (Fraction(-1), Fraction(0), Fraction(-1), Fraction(1))
RHO = {"tanh": mpmath.tanh, "logistic": lambda z: 1 / (1 + mpmath.exp(-z))}
SYM = {"tanh": TANH, "logistic": LOGISTIC}


def spec_certs(path: str) -> list[dict[str, Any]]:
    spec = load_spec(EX / path)
    return [generate_certificate(spec, r) for r in spec.certificates]


@cache
def _cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    out["orbit131"] = spec_certs("tanh-1-3-1-orbit.toml")[0]
    out["orbit-logistic"] = spec_certs("logistic-2-3-1-orbit.toml")[0]
    out["equiv-yes"], out["equiv-no"] = spec_certs("tanh-equiv.toml")
    out["dag-orbit"], out["dag-equiv"] = spec_certs("tanh-dag-skip.toml")
    aff = parse_spec(
        {
            "name": "a",
            "certificate": [
                {"kind": "affsym", "name": "t", "activation": "tanh"},
                {"kind": "affsym", "name": "c", "activation": "t^3 + t^2"},
            ],
        },
        "<test>",
    )
    out["affsym-tanh"], out["affsym-t3t2"] = (
        generate_certificate(aff, r) for r in aff.certificates
    )
    return out


def cert_of(case: str) -> dict[str, Any]:
    """A fresh copy of a certificate built once per session from the shipped examples."""
    return copy.deepcopy(_cases()[case])


def layered_spec(widths, act="tanh", **params) -> Any:
    data = {
        "name": "n",
        "network": {"family": "tanh", "activation": act, "widths": widths},
        "parameters": params or {"seed": 0},
        "certificate": [{"kind": "orbit"}],
    }
    return parse_spec(data, "<test>")


def num(x: Fraction) -> mpmath.mpf:
    return mpmath.mpf(x.numerator) / x.denominator


# ---------------------------------------------------------------- the examples
def test_the_1_3_1_tanh_orbit_has_48_elements_and_is_accepted():
    c = cert_of("orbit131")
    assert c["result"] == {"group_order": 48, "orbit_size": 48, "free": True, "hidden": 3,
                           "classes": [3]}  # fmt: skip
    assert check_certificate(c) == []


def test_the_logistic_flip_adds_the_outgoing_weight_to_the_next_bias():
    c = cert_of("orbit-logistic")
    assert c["result"]["orbit_size"] == 48
    flip = c["witness"]["actions"][0]  # flips the first hidden node (node 2)
    assert flip["flips"][2] == 1
    # node 2's outgoing weight 1 becomes -1 and the output bias 1 becomes 1 + 1 = 2
    assert [2, 5, "-1"] in flip["image"]["edges"]
    assert flip["image"]["biases"][-1] == "2"
    assert check_certificate(c) == []


def test_equivalent_networks_get_an_explicit_group_element_and_inequivalent_ones_do_not():
    yes, no = cert_of("equiv-yes"), cert_of("equiv-no")
    assert yes["result"]["equivalent"] and "element" in yes["witness"]
    assert not no["result"]["equivalent"] and "first" in no["witness"]
    assert yes["result"]["sussmann"] and no["result"]["theorem_applies"]
    assert "different functions" in no["claim"]["text"]
    assert check_certificate(yes) == [] and check_certificate(no) == []


def test_a_dag_with_skip_connections_is_renumbered_topologically_with_its_classes():
    c = cert_of("dag-orbit")
    assert c["instance"]["network"]["labels"] == [0, 1, 3, 4, 2, 5]
    assert c["witness"]["classes"] == [[2, 3], [4]]
    assert c["result"]["group_order"] == 2**3 * 2
    assert check_certificate(c) == []
    assert check_certificate(cert_of("dag-equiv")) == []


# ---------------------------------------------------------------- property: group action
@st.composite
def layered_nets(draw):
    widths = [draw(st.integers(1, 2))] + draw(st.lists(st.integers(1, 3), min_size=1,
                                                        max_size=2)) + [1]  # fmt: skip
    act = draw(st.sampled_from(["tanh", "logistic"]))
    vals = st.fractions(min_value=-3, max_value=3, max_denominator=3)
    Ws = [[[draw(vals) for _ in range(widths[i])] for _ in range(widths[i + 1])]
          for i in range(len(widths) - 1)]  # fmt: skip
    bs = [[draw(vals) for _ in range(widths[i + 1])] for i in range(len(widths) - 1)]
    return D.layered(act, widths, Ws, bs)


@st.composite
def elements(draw, net: D.TanhNet):
    flips = [False] * net.size
    for v in net.hidden():
        flips[v] = draw(st.booleans())
    perm = list(range(net.size))
    for c in D.classes(net):
        for v, w in zip(c, draw(st.permutations(c)), strict=True):
            perm[v] = w
    return D.GroupElement(tuple(flips), tuple(perm))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_group_element_keeps_the_function_and_the_kernel_twin_accepts_its_image(data):
    net = data.draw(layered_nets())
    el = data.draw(elements(net))
    g = SYM[net.activation]
    img = D.apply(net, g, el)
    s = KT.AffSym(*[(v.numerator, v.denominator) for v in g])
    cs = D.classes(net)
    assert KT.check_apply(s, to_instance(net), cs, list(el.flips), list(el.perm), to_instance(img))
    mpmath.mp.dps = 30
    rho = RHO[net.activation]
    for x in itertools.product((mpmath.mpf(-1) / 2, mpmath.mpf(1)), repeat=net.n_in):
        a = D.evaluate(net, rho, list(x), num)
        b = D.evaluate(img, rho, list(x), num)
        assert all(abs(u - v) < mpmath.mpf(10) ** -25 for u, v in zip(a, b, strict=True))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_canonical_form_is_an_orbit_invariant_where_the_action_is_free(data):
    net = data.draw(layered_nets())
    g = SYM[net.activation]
    el = data.draw(elements(net))
    c1, e1 = D.canonical(net, g)
    c2, _ = D.canonical(D.apply(net, g, el), g)
    assert (D.apply(net, g, e1).weights, D.apply(net, g, e1).biases) == (c1.weights, c1.biases)
    if D.free(net, g) is None:
        assert (c1.weights, c1.biases) == (c2.weights, c2.biases)
        s = KT.AffSym(*[(v.numerator, v.denominator) for v in g])
        assert KT.check_canonical(s, True, to_instance(c1), D.classes(net))


@settings(max_examples=25, deadline=None)
@given(net=layered_nets())
def test_a_free_action_has_an_orbit_of_exactly_the_group_order(net):
    from certify.families.tanh.witness import enumerate_orbit

    g = SYM[net.activation]
    size = enumerate_orbit(net, g)
    order = D.group_order(net, 2)
    assert order % size == 0
    if D.free(net, g) is None:
        assert size == order


def test_a_non_free_action_is_reported_with_the_enumerated_orbit_size():
    # two identical neurons: swapping them fixes the parameters, so the orbit halves
    spec = layered_spec([1, 2, 1], weights=[[[1], [1]], [[2, 2]]], biases=[[1, 1], [0]])
    c = generate_certificate(spec, spec.certificates[0])
    assert c["result"]["free"] is False and c["result"]["group_order"] == 8
    assert c["result"]["orbit_size"] == 4
    assert "not free" in c["claim"]["text"] and check_certificate(c) == []
    # equal incoming weights but different outgoing ones: the freeness test (a sufficient
    # condition on incoming weights and biases) fails, yet the enumerated orbit is full
    spec = layered_spec([1, 2, 1], weights=[[[1], [1]], [[2, 3]]], biases=[[1, 1], [0]])
    c = generate_certificate(spec, spec.certificates[0])
    assert c["result"]["free"] is False and c["result"]["orbit_size"] == 8


def test_different_canonical_forms_prove_nothing_without_a_free_action():
    data = {
        "name": "n",
        "network": {"family": "tanh", "activation": "tanh", "widths": [1, 2, 1]},
        "parameters": {"weights": [[[1], [1]], [[2, 3]]], "biases": [[1, 1], [0]]},
        "certificate": [
            {"kind": "equiv", "weights": [[[1], [1]], [[2, 4]]], "biases": [[1, 1], [0]]}
        ],  # fmt: skip
    }
    spec = parse_spec(data, "<test>")
    with pytest.raises(CertifyError, match="does not act freely"):
        generate_certificate(spec, spec.certificates[0])


# ---------------------------------------------------------------- determinism
def test_the_same_spec_gives_byte_identical_certificates_and_rendered_files():
    a = spec_certs("tanh-equiv.toml")
    b = spec_certs("tanh-equiv.toml")
    assert [certificate.dump(c) for c in a] == [certificate.dump(c) for c in b]
    for c in a:
        sha = certificate.sha256(c)
        assert render_prover(c, sha, "coq") == render_prover(copy.deepcopy(c), sha, "coq")


# ---------------------------------------------------------------- tampering (checker)
def _edge(c: dict[str, Any], where: str) -> None:
    part = c
    for k in where.split("."):
        part = part[k]
    e = part["edges"][0]
    e[2] = str(Fraction(e[2]) + 1)


TAMPER = {
    "orbit: canonical weight": ("orbit131", lambda c: _edge(c, "witness.canonical")),
    "orbit: action image": (
        "orbit-logistic",
        lambda c: c["witness"]["actions"][0]["image"]["biases"].__setitem__(-1, "1"),
    ),
    "orbit: wrong index in perm": (
        "orbit131",
        lambda c: c["witness"]["to_canonical"]["perm"].reverse(),
    ),  # fmt: skip
    "orbit: flip an input": (
        "orbit131",
        lambda c: c["witness"]["to_canonical"]["flips"].__setitem__(0, 1),
    ),  # fmt: skip
    "orbit: group order": ("orbit131", lambda c: c["result"].__setitem__("group_order", 24)),
    "orbit: claim text": (
        "orbit131",
        lambda c: c["claim"].__setitem__("text", c["claim"]["text"][:-1]),
    ),  # fmt: skip
    "orbit: classes": ("dag-orbit", lambda c: c["witness"].__setitem__("classes", [[2], [3], [4]])),
    "orbit: symmetry": (
        "orbit131",
        lambda c: c["instance"].__setitem__("symmetry", ["-1", "0", "-1", "1"]),
    ),  # fmt: skip
    "equiv: element": ("equiv-yes", lambda c: c["witness"]["element"]["flips"].__setitem__(1, 1)),
    "equiv: second network": ("equiv-yes", lambda c: _edge(c, "instance.other")),
    "equiv: canonical forms": (
        "equiv-no",
        lambda c: c["witness"]["second"].__setitem__(
            "canonical", c["witness"]["first"]["canonical"]
        ),
    ),  # fmt: skip
    "equiv: result": ("equiv-no", lambda c: c["result"].__setitem__("equivalent", True)),
    "equiv: sussmann claimed": ("dag-equiv", lambda c: c["result"].__setitem__("sussmann", True)),
}


@pytest.mark.parametrize("what", TAMPER)
def test_the_checker_rejects_a_tampered_tanh_certificate(what: str):
    case, change = TAMPER[what]
    c = cert_of(case)
    change(c)
    assert check_certificate(c), what


def test_a_malformed_tanh_certificate_is_a_reported_problem_not_a_crash():
    c = cert_of("orbit131")
    c["witness"]["to_canonical"]["perm"] = "0,1"
    assert check_certificate(c)
    c = cert_of("equiv-yes")
    c["instance"]["other"]["edges"][0] = [0, 99, "1"]
    assert check_certificate(c)


# ---------------------------------------------------------------- coqc
@pytest.mark.parametrize("case", ["orbit131", "orbit-logistic", "equiv-yes", "equiv-no",
                                  "dag-orbit", "affsym-tanh"])  # fmt: skip
def test_coqc_accepts_the_tanh_certificates(coq, case: str):
    v = coq.verdict(cert_of(case))
    assert v.status == "passed", v.message


COQ_TAMPER = {
    "canonical weight": ("orbit131", lambda c: _edge(c, "witness.canonical")),
    "group order": ("orbit131", lambda c: c["result"].__setitem__("group_order", 24)),
    "equivalence element": (
        "equiv-yes",
        lambda c: c["witness"]["element"]["flips"].__setitem__(1, 1),
    ),  # fmt: skip
    "equal canonical forms": (
        "equiv-no",
        lambda c: c["witness"]["second"].__setitem__(
            "canonical", c["witness"]["first"]["canonical"]
        ),
    ),  # fmt: skip
    "affsym table": ("affsym-t3t2", lambda c: c["witness"]["table"].pop()),
}


@pytest.mark.parametrize("what", COQ_TAMPER)
def test_coqc_rejects_a_tampered_tanh_certificate(coq, what: str):
    case, change = COQ_TAMPER[what]
    c = cert_of(case)
    change(c)
    v = coq.verdict(c)
    assert v.status == "failed", what


# ---------------------------------------------------------------- bad specs
BAD = {
    "cyclic DAG": (
        {"inputs": 1, "hidden": 2, "outputs": 1, "edges": [[0, 1], [1, 2], [2, 1], [2, 3]]},
        "network.edges[2]",
        "closes a cycle",
    ),
    "unknown function": (
        {"widths": [1, 2, 1], "activation": "foo(x)"},
        "network.activation",
        "unknown function 'foo'",
    ),  # fmt: skip
    "non-rational constant": (
        {"widths": [1, 2, 1], "activation": "tanh(x)*1.5"},
        "network.activation",
        "non-rational",
    ),  # fmt: skip
    "pi": (
        {"widths": [1, 2, 1], "activation": "tanh(pi*x)"},
        "network.activation",
        "non-rational",
    ),  # fmt: skip
    "group too big": (
        {"widths": [1, 2, 1], "activation": "t^3"},
        "network.activation",
        "finite of order 1 or 2",
    ),  # fmt: skip
    "edge into an input": (
        {"inputs": 1, "hidden": 1, "outputs": 1, "edges": [[1, 0], [1, 2]]},
        "network.edges[0]",
        "target",
    ),  # fmt: skip
    "dangling hidden node": (
        {"inputs": 1, "hidden": 2, "outputs": 1, "edges": [[0, 1], [1, 3], [0, 2]]},
        "network.edges",
        "hidden node 2",
    ),  # fmt: skip
}


@pytest.mark.parametrize("what", BAD)
def test_a_bad_tanh_spec_names_the_field_and_what_was_expected(what: str, tmp_path):
    net, field, expected = BAD[what]
    data = {"name": "bad", "network": {"family": "tanh", "activation": "tanh", **net},
            "certificate": [{"kind": "orbit"}]}  # fmt: skip
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(data))
    with pytest.raises(SpecError) as e:
        load_spec(p)
    assert field in str(e.value) and expected in str(e.value) and str(p) in str(e.value)
    r = run_cli("run", str(p), "--out", str(tmp_path / "out"), "--no-coq", "--no-lean")
    assert r.returncode == 2 and not (tmp_path / "out").exists()


def test_an_equiv_request_with_the_wrong_shape_is_a_spec_error():
    data = {
        "name": "bad",
        "network": {"family": "tanh", "activation": "tanh", "widths": [1, 2, 1]},
        "parameters": {"seed": 1},
        "certificate": [{"kind": "equiv", "weights": [[[1]], [[1, 2]]], "biases": [[0, 0], [0]]}],
    }
    with pytest.raises(SpecError, match=r"certificate\[0\].weights\[0\]"):
        parse_spec(data, "<test>")


def test_rank_is_not_a_kind_of_the_tanh_family():
    data = {"name": "bad", "network": {"family": "tanh", "activation": "tanh", "widths": [1, 2, 1]},
            "certificate": [{"kind": "rank"}]}  # fmt: skip
    with pytest.raises(SpecError, match="'network.family'.*family tanh has affsym, orbit or equiv"):
        parse_spec(data, "<test>")


def test_seeded_parameters_are_reproducible_and_nonzero():
    a, b = layered_spec([2, 3, 1], seed=4), layered_spec([2, 3, 1], seed=4)
    assert a.network == b.network
    assert all(w != 0 for _, _, w in a.network.edges())
    c = layered_spec([2, 3, 1], seed=5).network
    assert c != a.network


def test_fefferman_conditions_on_a_deep_logistic_net_do_not_invoke_the_tanh_theorem():
    from certify.checker.claims.tanh import theorem_applies

    assert theorem_applies("tanh", None, True) and theorem_applies("logistic", True, None)
    assert not theorem_applies("logistic", None, True)
    assert not theorem_applies("arctan", True, None)


# ---------------------------------------------------------------- review 6 (F1, F2)
def _spec_certs_of(data: dict[str, Any]) -> list[dict[str, Any]]:
    spec = parse_spec(data, "<test>")
    return [generate_certificate(spec, r) for r in spec.certificates]


@cache
def _two_chains() -> tuple[dict[str, Any], dict[str, Any]]:
    """Review 6, e1: two parallel chains 0->1->3->5 and 0->2->4->5 (every class a single node,
    so the group is the flips only; swapping the chains is a graph automorphism outside it)."""
    data = {
        "name": "e1",
        "network": {"family": "tanh", "activation": "tanh", "inputs": 1, "hidden": 4,
                    "outputs": 1, "edges": [[0, 1], [1, 3], [3, 5], [0, 2], [2, 4], [4, 5]]},
        "parameters": {"weights": [1, 2, 1, 3, 1, 2], "biases": [1, 2, 1, 3, 0]},
        "certificate": [
            {"kind": "equiv", "name": "e1-ineq", "weights": [1, 2, 1, 3, 1, 5],
             "biases": [1, 2, 1, 3, 0]},
            {"kind": "orbit", "name": "e1-orbit"},
        ],
    }  # fmt: skip
    equiv, orbit = _spec_certs_of(data)
    return equiv, orbit


SWAP = [0, 2, 1, 4, 3, 5]


def _chain_swap_equiv() -> dict[str, Any]:
    """e1: the same network twice, the second reached by the chain swap: a false
    "different canonical forms" claim unless the element must stay inside the classes."""
    c = copy.deepcopy(_two_chains()[0])
    inst = c["instance"]
    net = N.from_json(inst["network"], inst["parameters"])
    img = D.apply(net, TANH, D.GroupElement((False,) * 6, tuple(SWAP)))
    inst["other"] = copy.deepcopy(inst["parameters"])
    c["witness"]["first"] = {"element": {"flips": [0] * 6, "perm": list(range(6))},
                             "canonical": copy.deepcopy(inst["parameters"])}  # fmt: skip
    c["witness"]["second"] = {"element": {"flips": [0] * 6, "perm": SWAP},
                              "canonical": N.params_json(img)}  # fmt: skip
    return c


def _chain_swap_orbit() -> dict[str, Any]:
    """e1: an orbit certificate whose representative is the chain-swapped network."""
    c = copy.deepcopy(_two_chains()[1])
    inst = c["instance"]
    net = N.from_json(inst["network"], inst["parameters"])
    img = D.apply(net, TANH, D.GroupElement((False,) * 6, tuple(SWAP)))
    c["witness"]["canonical"] = N.params_json(img)
    c["witness"]["to_canonical"] = {"flips": [0] * 6, "perm": SWAP}
    return c


def _zero_edge_left_out() -> dict[str, Any]:
    """Review 6, e2: widths [2, 1, 1], the first network with a zero-weight edge 0 -> 2 and the
    second without it: the same function, certified "different functions" unless the two
    networks must have the same graph."""
    data = {
        "name": "e2",
        "network": {"family": "tanh", "activation": "tanh", "widths": [2, 1, 1]},
        "parameters": {"weights": [[[0, 1]], [[1]]], "biases": [[1], [0]]},
        "certificate": [
            {"kind": "equiv", "name": "e2-ineq", "weights": [[[1, 1]], [[1]]], "biases": [[1], [0]]}
        ],  # fmt: skip
    }
    c = _spec_certs_of(data)[0]
    p1 = c["instance"]["parameters"]
    other = {"edges": [e for e in p1["edges"] if e[:2] != [0, 2]], "biases": list(p1["biases"])}
    c["instance"]["other"] = other
    ident = {"flips": [0] * 4, "perm": [0, 1, 2, 3]}
    c["witness"]["first"] = {"element": ident, "canonical": copy.deepcopy(p1)}
    c["witness"]["second"] = {"element": copy.deepcopy(ident), "canonical": copy.deepcopy(other)}
    return c


def _false_widths() -> dict[str, Any]:
    """Review 6, e2b: the e1 certificate with widths [1, 2, 2, 1] claimed for the two-chain DAG
    (Fefferman's conditions and theorem cited for a network that is not layered)."""
    from certify.checker.claims.tanh import equiv_claim

    c = copy.deepcopy(_two_chains()[0])  # a genuine inequivalence: only the widths are false
    c["instance"]["network"]["widths"] = [1, 2, 2, 1]
    c["result"] = {"equivalent": False, "sussmann": None, "fefferman": True,
                   "theorem_applies": True}  # fmt: skip
    c["claim"] = equiv_claim(c["instance"]["network"], c["instance"]["symmetry"], c["result"])
    return c


REVIEW6 = {
    "F1 equiv: chain swap outside the classes": _chain_swap_equiv,
    "F1 orbit: chain swap outside the classes": _chain_swap_orbit,
    "F2: zero-weight edge left out of the second network": _zero_edge_left_out,
    "F2: widths not the graph of the edges": _false_widths,
}


def test_the_review6_reproducers_start_from_accepted_certificates():
    equiv, orbit = _two_chains()
    assert not check_certificate(copy.deepcopy(equiv)) and not check_certificate(orbit)


@pytest.mark.parametrize("what", REVIEW6)
def test_the_checker_rejects_the_review6_false_claims(what: str):
    assert check_certificate(REVIEW6[what]()), what


@pytest.mark.parametrize("what", REVIEW6)
def test_coqc_rejects_the_review6_false_claims(coq, what: str):
    v = coq.verdict(REVIEW6[what]())
    assert v.status == "failed", what


def test_the_kernel_twin_rejects_a_graph_automorphism_outside_the_classes():
    c = _two_chains()[1]
    inst = c["instance"]
    net = N.from_json(inst["network"], inst["parameters"])
    img = D.apply(net, TANH, D.GroupElement((False,) * 6, tuple(SWAP)))
    s = KT.AffSym((-1, 1), (0, 1), (-1, 1), (0, 1))
    k, ki = to_instance(net), to_instance(img)
    assert KT.check_apply(s, k, [[1, 2], [3, 4]], [False] * 6, SWAP, ki)  # were they a class
    assert not KT.check_apply(s, k, D.classes(net), [False] * 6, SWAP, ki)
    assert not KT.check_equivalent(s, k, ki, D.classes(net), [False] * 6, SWAP)


def test_check_layered_accepts_exactly_the_layered_graph():
    spec = layered_spec([2, 3, 1])
    k = to_instance(spec.network)
    assert KT.check_layered([2, 3, 1], k)
    assert not KT.check_layered([2, 1, 3], k) and not KT.check_layered([5, 1], k)
    adj = [list(r) for r in k.adj]
    adj[5][2] = 0  # drop the edge 2 -> 5 (hidden to output)
    assert not KT.check_layered([2, 3, 1], KT.TanhInstance(k.n_in, k.n_out, adj, k.weights,
                                                            k.biases))  # fmt: skip


# ---------------------------------------------------------------- review 6 (F6, F7)
def test_a_failed_sufficient_test_does_not_say_not_free():
    # widths [1, 1, 1], W1 = 0, b1 = 0: the flip fixes the incoming key, yet it changes the
    # outgoing weight, so the orbit has |G| = 2 elements and the action is free
    spec = layered_spec([1, 1, 1], weights=[[[0]], [[1]]], biases=[[0], [0]])
    c = generate_certificate(spec, spec.certificates[0])
    r = c["result"]
    assert r["free"] is False and r["orbit_size"] == r["group_order"] == 2
    assert "not free" not in c["claim"]["text"]
    assert "so the action is free" in c["claim"]["text"]
    assert check_certificate(c) == []


def test_a_non_free_orbit_says_so_and_an_uncomputed_one_says_not_established():
    from certify.checker.claims.tanh import orbit_claim, orbit_result

    net = {"activation": "tanh", "widths": [1, 2, 1]}
    sym = ["-1", "0", "-1", "0"]
    text = orbit_claim(net, sym, orbit_result(8, 4, False, 2, [2]))["text"]
    assert "The action is not free" in text and "fewer than the group order" in text
    text = orbit_claim(net, sym, orbit_result(8, None, False, 2, [2]))["text"]
    assert "Freeness is not established" in text and "not free" not in text


def test_the_claims_say_what_rests_on_the_unformalised_argument():
    for case in ("orbit131", "equiv-yes", "equiv-no"):
        text = cert_of(case)["claim"]["text"]
        assert "certify/families/tanh/dag.py" in text and "not formalised" in text, case
        assert "library theorem over any activation" not in text
    assert "not formalised" in D.__doc__ and "Relabelling" in D.__doc__


# ---------------------------------------------------------------- review 6 (F8)
def test_a_network_near_the_node_limit_is_checked_without_recursion_error():
    from certify.families.tanh.spec import MAX_NODES

    spec = layered_spec([1, 500, 1])
    assert spec.network.size <= MAX_NODES
    c = generate_certificate(spec, spec.certificates[0])
    assert check_certificate(c) == []
    k = to_instance(spec.network)
    assert KT.well_formed(k) and KT.rows_ok(0, k.n_in, k.n_in + 500, k.n_in + 501, k.adj,
                                            k.weights)  # fmt: skip


def test_the_rendered_equiv_files_check_the_classes_they_use():
    from certify.families.tanh.render import theorem_names

    for case in ("equiv-yes", "equiv-no", "dag-equiv"):
        names = theorem_names(cert_of(case))
        assert "classes_check" in names, case
    assert "equiv_check" in theorem_names(cert_of("equiv-yes"))
    text = render_prover(cert_of("equiv-yes"), "0" * 64, "coq")
    assert "check_classes inst cs = true" in text and "check_equivalent sym inst inst2 cs" in text
    assert "check_layered widths inst2 = true" in text


# ---------------------------------------------------------------- issue 12: no generator code
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_checkers_own_orbit_count_agrees_with_the_generators(data):
    from certify.checker.facts.tanh_orbit import orbit_size
    from certify.families.tanh.witness import enumerate_orbit

    net = data.draw(layered_nets())
    u, v = net.n_in, net.n_in + 1
    if data.draw(st.booleans()) and net.adj[u] == net.adj[v]:  # a repeated neuron: not free
        ws = tuple(net.weights[u] if q == v else r for q, r in enumerate(net.weights))
        bs = tuple(net.biases[u] if q == v else b for q, b in enumerate(net.biases))
        net = D.TanhNet(net.activation, net.n_in, net.n_hidden, net.n_out, net.adj, ws, bs)
    g = SYM[net.activation]
    s = KT.AffSym(*[(v.numerator, v.denominator) for v in g])
    cs = D.classes(net)
    assert orbit_size(s, True, to_instance(net), cs) == enumerate_orbit(net, g)
    assert orbit_size(s, False, to_instance(net), cs) == enumerate_orbit(net, None)


def _rebuild_orbit_claim(c: dict[str, Any]) -> None:
    from certify.checker.claims.tanh import orbit_claim

    c["claim"] = orbit_claim(c["instance"]["network"], c["instance"]["symmetry"], c["result"])


def _rebuild_equiv_claim(c: dict[str, Any]) -> None:
    from certify.checker.claims.tanh import equiv_claim

    c["claim"] = equiv_claim(c["instance"]["network"], c["instance"]["symmetry"], c["result"])


def _no_flip(c: dict[str, Any]) -> None:
    c["instance"]["symmetry"], c["instance"]["rho_order"] = None, 1


# Consistent forgeries (claim rebuilt to match): the checker no longer recomputes the
# activation's group, so each is caught by a check of its own.
FORGED = {
    "orbit: a flip that is not a symmetry of the activation": (
        "orbit131",
        lambda c: c["instance"]["network"].__setitem__("activation", "tanh(x) + x^2"),
        _rebuild_orbit_claim,
        "not proved a symmetry",
    ),
    "orbit: the identity as the flip": (
        "orbit131",
        lambda c: c["instance"].__setitem__("symmetry", ["1", "0", "1", "0"]),
        _rebuild_orbit_claim,
        "not an involution",
    ),
    "equiv: tanh without its flip, citing Sussmann": (
        "equiv-no",
        _no_flip,
        _rebuild_equiv_claim,
        "not the flip (-1, 0, -1, 0) of tanh",
    ),
    "equiv: logistic with the tanh flip": (
        "equiv-no",
        lambda c: c["instance"]["network"].__setitem__("activation", "logistic"),
        _rebuild_equiv_claim,
        "not proved a symmetry of logistic",
    ),
    "orbit: an activation not in normal form": (
        "orbit131",
        lambda c: c["instance"]["network"].__setitem__("activation", " tanh"),
        _rebuild_orbit_claim,
        "not in normal form",
    ),
}


@pytest.mark.parametrize("what", FORGED)
def test_the_checker_rejects_a_consistent_forgery_of_the_flip(what: str):
    case, change, rebuild, why = FORGED[what]
    c = cert_of(case)
    change(c)
    rebuild(c)
    problems = check_certificate(c)
    assert any(why in p for p in problems), (what, problems)


def test_a_true_flip_of_another_activation_is_accepted_and_the_claim_says_sympy():
    c = cert_of("orbit131")
    c["instance"]["network"]["activation"] = "arctan"  # also odd: the same flip acts
    _rebuild_orbit_claim(c)
    assert check_certificate(c) == []
    assert "Proved by sympy" in c["claim"]["text"] and "of rho = arctan" in c["claim"]["text"]


def test_checking_the_tanh_certificates_loads_no_generator_module_nor_flint(tmp_path):
    """The tanh part of tests/test_import_contract.py: a fresh interpreter checks every tanh,
    logistic and affsym demo certificate with the tanh checkers alone; sympy (and mpmath, which
    sympy loads) are trusted by these checkers, python-flint is not."""
    import subprocess
    import sys

    paths = [*sorted(EX.glob("tanh-*.toml")), EX / "affsym.toml", EX / "logistic-2-3-1-orbit.toml"]
    n = 0
    for p in paths:
        spec = load_spec(p)
        for req in spec.certificates:
            (tmp_path / f"{n:03d}.json").write_bytes(
                certificate.dump(generate_certificate(spec, req))
            )
            n += 1
    probe = (
        "import json, sys\nfrom pathlib import Path\nfrom certify import certificate\n"
        "from certify.checker.check import tanh as T\n"
        "fn = {'affsym': T.check_affsym, 'orbit': T.check_orbit, 'equiv': T.check_equiv}\n"
        "bad = {}\n"
        "for p in sorted(Path(sys.argv[1]).glob('*.json')):\n"
        "    c = certificate.load(p.read_bytes())\n"
        "    bad[p.name] = fn[c['kind']](c)\n"
        "mods = sorted(m for m in sys.modules if m.split('.')[0] in ('certify', 'flint'))\n"
        "print(json.dumps({'bad': {k: v for k, v in bad.items() if v}, 'n': len(bad),\n"
        "                  'loaded': mods}))\n"
    )
    root = Path(__file__).resolve().parents[1]
    r = subprocess.run([sys.executable, "-c", probe, str(tmp_path)], capture_output=True,
                       text=True, cwd=root, timeout=300, check=False)  # fmt: skip
    assert r.returncode == 0, r.stderr[-3000:]
    out = json.loads(r.stdout)
    assert out["n"] == n >= 15 and not out["bad"], out["bad"]
    outside = [m for m in out["loaded"] if not m.startswith("certify.checker")]
    assert set(outside) <= {"certify", "certify.certificate", "certify.errors"}, outside
