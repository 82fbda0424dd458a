"""Composition-independence certificates: generation, the checker, tampering, bad input."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from certify.bounds import thm23, thm25, thm34, thm35
from certify.checker import check_certificate
from certify.families import generate_certificate
from certify.provers import coq as coqp
from certify.spec import parse_spec
from tests.conftest import run_cli


def make(cert: dict) -> dict:
    spec = parse_spec({"name": "c", "certificate": [cert]}, "<test>")
    return generate_certificate(spec, spec.certificates[0])


Z2Z = {"kind": "compind", "polynomials": ["x", "2*x", "3*x"], "activation": "z^2 + z"}


def test_paper_negative_example_is_certified_dependent_with_the_known_relation():
    cert = make(Z2Z)
    assert cert["result"]["status"] == "dependent"
    lam = cert["witness"]["facts"][0]["lambda"]
    assert lam in ([3, -3, 1], [-3, 3, -1])
    assert check_certificate(cert) == []


def test_generic_quadratic_origin_passing_is_dependent_for_every_sigma():
    c = {"kind": "compind", "polynomials": ["x", "2*x", "3*x"], "generic_degree": 2, "origin": True}
    cert = make(c)
    assert cert["result"]["status"] == "dependent-for-every-sigma"
    assert check_certificate(cert) == []


def test_search_finds_the_least_degree_and_certifies_the_smaller_ones_dependent():
    cert = make(
        {"kind": "compind", "polynomials": ["x", "2*x", "3*x"], "search": True, "origin": True}
    )
    res = cert["result"]
    assert res["least_degree"] == 3
    assert [d["status"] for d in res["degrees"]] == [
        "dependent for every sigma",
        "dependent for every sigma",
        "independent for generic sigma",
    ]
    assert check_certificate(cert) == []


def test_multivariate_family_with_bias_is_independent():
    cert = make(
        {
            "kind": "compind",
            "variables": ["x", "y"],
            "bias": True,
            "polynomials": ["x^2 + y", "x*y - y^2", "x + y^3"],
            "activation": "z^3 + z",
        }
    )
    assert cert["result"] == {"k": 4, "status": "independent", "degree": 3, "generic": False}
    assert check_certificate(cert) == []


def test_prop21_reports_the_papers_deltas_for_z3_plus_z_plus_1():
    cert = make({"kind": "prop21", "activation": "z^3 + z + 1"})
    assert (cert["result"]["delta2"], cert["result"]["delta3"]) == ("6", "27")
    assert "Prop. 2.1" in cert["claim"]["text"]
    assert check_certificate(cert) == []


def test_newman_slater_claim_says_whether_r_exceeds_k_times_k_minus_2():
    cert = make({"kind": "newman-slater", "polynomials": ["x + 1", "x - 1", "2*x + 3"], "power": 4})
    assert cert["result"]["newman_slater_range"] is True
    assert cert["result"]["status"] == "independent"
    assert check_certificate(cert) == []


TAMPERS = {
    "inverse entry": lambda f: f["inverse"][0].__setitem__(0, f["inverse"][0][0] + 1),
    "prime": lambda f: f.__setitem__("prime", 2147483629),
    "point": lambda f: f["points"][0].__setitem__(0, f["points"][0][0] + 1),
    "sigma coefficient": lambda f: f["sigma"].__setitem__(1, "5"),
    "family size": lambda f: f.__setitem__("k", f["k"] + 1),
}


@pytest.fixture(scope="module")
def independent():
    return make(
        {
            "kind": "compind",
            "variables": ["x", "y"],
            "polynomials": ["x^2 + y", "x*y - y^2", "x + y^3"],
            "activation": "z^3 + z",
        }
    )


@pytest.mark.parametrize("what", sorted(TAMPERS))
def test_tampered_independence_witness_is_rejected_by_the_checker(what, independent):
    bad = copy.deepcopy(independent)
    TAMPERS[what](bad["witness"]["facts"][0])
    assert check_certificate(bad)


def test_tampered_relation_and_claims_are_rejected_by_the_checker():
    cert = make(Z2Z)
    bad = copy.deepcopy(cert)
    bad["witness"]["facts"][0]["lambda"][2] *= 2
    assert check_certificate(bad)
    bad = copy.deepcopy(cert)
    bad["result"]["status"] = "independent"
    assert check_certificate(bad)
    bad = copy.deepcopy(cert)
    bad["instance"]["polynomials"][2][0][0] = "4"
    assert check_certificate(bad)
    p21 = make({"kind": "prop21", "activation": "z^3 + z + 1"})
    bad = copy.deepcopy(p21)
    bad["witness"]["facts"][0]["delta3"] = "26"
    assert check_certificate(bad)


BAD = {
    "constant polynomial": ({"polynomials": ["x", "3"]}, "polynomials[1]", "nonconstant"),
    "duplicate polynomial": ({"polynomials": ["x", "x + 0"]}, "polynomials[1]", "distinct"),
    "degree-0 activation": ({"activation": "5"}, "activation", "degree >= 1"),
    "k = 1": ({"polynomials": ["x"]}, "polynomials", "at least two"),
    "unparsable polynomial": (
        {"polynomials": ["x +* 1", "x"]},
        "polynomials[0]",
        "a polynomial in x",
    ),
    "unknown variable": ({"polynomials": ["x", "y"]}, "polynomials[1]", "unknown name"),
    "origin with constant term": (
        {"origin": True, "polynomials": ["x + 1", "x^2"]},
        "polynomials[0]",
        "p(0) = 0",
    ),
    "no activation": ({"activation": None}, "activation", "an activation, a generic_degree"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_compind_input_names_the_field_and_exits_2(case, tmp_path: Path):
    change, fld, expected = BAD[case]
    cert = {**Z2Z, **change}
    cert = {k: v for k, v in cert.items() if v is not None}
    lines = ['name = "bad"', "[[certificate]]"]
    for k, v in cert.items():
        val = (
            "[" + ", ".join(f'"{x}"' for x in v) + "]"
            if isinstance(v, list)
            else ("true" if v is True else f'"{v}"')
        )
        lines.append(f"{k} = {val}")
    spec = tmp_path / "bad.toml"
    spec.write_text("\n".join(lines) + "\n")
    r = run_cli("run", str(spec), "--out", str(tmp_path / "o"), "--no-lean", "--no-coq")
    assert r.returncode == 2, r.stdout + r.stderr
    assert f"certificate[0].{fld}'" in r.stderr and expected in r.stderr
    assert not (tmp_path / "o").exists()


@given(st.integers(1, 12), st.integers(1, 12))
@settings(max_examples=50, deadline=None)
def test_degree_bounds_follow_the_stated_formulas(k, m):
    assert thm23(k, m) == k * k * (m + 2) - 1
    assert 2 * thm25(k, m) in (k * (3 * k * m + 4 * k - m), k * (3 * k * m + 4 * k - m) + 1)
    assert thm34(k, m) == k * k * (m + 1)
    assert 2 * thm35(k, m) in (k * (3 * k * m + k - m + 1), k * (3 * k * m + k - m + 1) + 1)


def test_bounds_command_prints_the_papers_values_for_k2_m1():
    r = run_cli("bounds", "--k", "2", "--m", "1")
    assert r.returncode == 0
    assert [int(line.split(">=")[-1]) for line in r.stdout.splitlines()[1:5]] == [11, 13, 8, 8]


def _all_facts_certificate() -> list[dict]:
    return [
        make(Z2Z),
        make({"kind": "compind", "polynomials": ["x", "2*x", "3*x"], "search": True,
              "origin": True}),
        make({"kind": "compind", "variables": ["x", "y"], "bias": True,
              "polynomials": ["x^2 + y", "x*y - y^2", "x + y^3/2"], "activation": "z^3 - z/3"}),
        make({"kind": "prop21", "activation": "z^3 + z + 1"}),
        make({"kind": "prop21", "activation": "z^2 + z", "origin": True}),
    ]  # fmt: skip


def test_every_fact_kind_passes_coqc_with_only_primitive_assumptions(coq):
    """Only Coq's primitive integers, and (for the independence theorem, which reads the
    kernel's residues as numbers, like the rank theorems) their Uint63 specifications."""
    for cert in _all_facts_certificate():
        v = coq.verdict(cert)
        assert v.status == "passed", (cert["name"], v.message)
        assert all(coqp.allowed_assumption(a) for a in v.assumptions), v.assumptions
        kinds = {f["kind"] for f in cert["witness"]["facts"]}
        if "independent" not in kinds:
            assert all(a.startswith("PrimInt63.") for a in v.assumptions), v.assumptions


def _bump(row: list, j: int, by: int = 1) -> None:
    row[j] += by


COQ_TAMPERS = {
    "independence inverse": (2, lambda fs: _bump(fs[-1]["inverse"][1], 0)),
    "independence point": (2, lambda fs: _bump(fs[-1]["points"][0], 1)),
    "relation": (0, lambda fs: _bump(fs[0]["lambda"], 2, fs[0]["lambda"][2])),
    "relation for every sigma": (1, lambda fs: _bump(fs[0]["lambda"], 0)),
    "delta3": (3, lambda fs: fs[0].__setitem__("delta3", "26")),
    "prop33 sigma": (4, lambda fs: fs[0]["sigma"].__setitem__(0, "1")),
}


@pytest.mark.parametrize("what", sorted(COQ_TAMPERS))
def test_tampered_compind_facts_are_rejected_by_checker_and_coqc(what, coq):
    which, tamper = COQ_TAMPERS[what]
    bad = copy.deepcopy(_all_facts_certificate()[which])
    tamper(bad["witness"]["facts"])
    assert check_certificate(bad)
    assert coq.verdict(bad).status == "failed"


def _net_spec(widths, activation, weights, tmp_path: Path, bias: bool = False) -> Path:
    act = (
        "[" + ", ".join(f'"{a}"' for a in activation) + "]"
        if isinstance(activation, list)
        else f'"{activation}"'
    )
    text = (
        f'name = "m"\n[network]\nfamily = "mlp"\nwidths = {widths}\nactivation = {act}\n'
        f"bias = {'true' if bias else 'false'}\n[parameters]\nweights = {weights}\n"
        + ("biases = [[0], [0]]\n" if bias else "")
        + '[[certificate]]\nkind = "mlp-identifiable"\n'
    )
    p = tmp_path / "m.toml"
    p.write_text(text)
    return p


def _mlp_certs(widths, activation, weights):
    data = {
        "name": "m",
        "network": {"family": "mlp", "widths": widths, "activation": activation},
        "parameters": {"weights": weights},
        "certificate": [{"kind": "mlp-identifiable"}],
    }
    from certify.families import generate_certificates

    spec = parse_spec(data, "<test>")
    return generate_certificates(spec, spec.certificates[0])


def test_a_subnetwork_is_refused_with_the_offending_neuron_named(tmp_path: Path):
    spec = _net_spec([1, 3, 1], "t^2 + t", [[[1], [2], [2]], [[3, -3, 1]]], tmp_path)
    r = run_cli("run", str(spec), "--out", str(tmp_path / "o"), "--no-coq", "--no-lean")
    assert r.returncode == 1
    assert "neuron 1 of hidden layer 1 is redundant" in r.stderr
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize(
    "widths, activation, weights, bias, field",
    [
        ([1, 1, 1], "t^2 + t", "[[[1]], [[2]]]", True, "network.bias"),
        ([1, 1, 1, 1], ["t^2", "t^3"], "[[[1]], [[2]], [[1]]]", False, "network.activation"),
        ([1, 1, 1], "t^2 + 1", "[[[1]], [[2]]]", False, "network.activation"),
        ([1, 1, 1], "t^2 + t", '[[["1/2"]], [[2]]]', False, "parameters.weights"),
    ],
)
def test_mlp_identifiable_rejects_settings_outside_the_theorems(
    widths, activation, weights, bias, field, tmp_path: Path
):
    spec = _net_spec(widths, activation, weights, tmp_path, bias)
    r = run_cli("run", str(spec), "--out", str(tmp_path / "o"), "--no-coq", "--no-lean")
    assert r.returncode == 2, r.stderr
    assert f"'{field}'" in r.stderr


def test_width_one_network_cites_prop33_and_attaches_a_consistent_rank_certificate(coq):
    from certify.checker import cross_check

    cert, rank = _mlp_certs([2, 1, 1], "t^3 + t^2", [[[2, -3]], [[5]]])
    assert cert["result"]["theorem"] == "width one (Prop. 3.3)"
    assert [f["kind"] for f in cert["witness"]["facts"]] == ["mlp", "prop33"]
    assert check_certificate(cert) == [] and check_certificate(rank) == []
    assert cross_check([cert, rank]) == {}
    assert coq.verdict(cert).status == "passed"
    other = copy.deepcopy(rank)
    other["result"]["rank_lower"] = 1
    assert cross_check([cert, other])
    assert cross_check([cert])


def test_tampered_identifiability_facts_are_rejected_by_checker_and_coqc(coq):
    cert, _ = _mlp_certs([1, 3, 1], "t^2 + t", [[[1], [2], [3]], [[3, -3, 1]]])
    assert cert["result"]["theorem"] == "none"
    dup = copy.deepcopy(cert)
    dup["witness"]["facts"][0]["theta"][2] = 2  # neuron 2 now repeats neuron 1
    assert check_certificate(dup)
    assert coq.verdict(dup).status == "failed"
    claim = copy.deepcopy(cert)
    claim["result"]["theorem"] = "shallow (Thm 3.5, r >= 8 d1^2)"
    assert check_certificate(claim)
    rmin = copy.deepcopy(cert)
    rmin["witness"]["facts"][0]["rmin"] = 3
    assert check_certificate(rmin)
    assert coq.verdict(rmin).status == "failed"


def _resign(cert: dict) -> dict:
    """Rebuild result and claim from the (edited) facts, as a forger would."""
    from certify.checker.claims.compind import compind_claim, compind_result

    res = compind_result(cert["kind"], cert["instance"], cert["witness"]["facts"], [])
    cert["result"] = res
    cert["claim"] = compind_claim(cert["kind"], cert["instance"], res, cert["witness"]["facts"])
    return cert


def test_variable_names_that_are_expressions_are_rejected():
    cert = make({"kind": "compind", "variables": ["x", "y"], "polynomials": ["x", "y"],
                 "activation": "z^2"})  # fmt: skip
    for bad_vars in (["x", "2*x"], ["x", "x"], ["x", "(x+1)"]):
        bad = copy.deepcopy(cert)
        bad["instance"]["variables"] = bad_vars
        assert check_certificate(_resign(bad))


def test_repeated_exponent_vectors_are_rejected():
    cert = make({"kind": "compind", "polynomials": ["x", "2*x"], "activation": "z"})
    bad = copy.deepcopy(cert)
    bad["instance"]["polynomials"][1] = [["1", [2]], ["2", [1]], ["-1", [2]]]
    assert check_certificate(_resign(bad))


def test_search_claims_a_least_degree_only_when_every_smaller_degree_is_certified():
    cert = make({"kind": "compind", "polynomials": ["x", "x^2"], "search": True})
    assert cert["result"]["least_degree"] == 1
    forged = make({"kind": "compind", "polynomials": ["x", "x^2"], "generic_degree": 3})
    fake = copy.deepcopy(cert)
    fake["witness"]["facts"] = forged["witness"]["facts"]
    fake = _resign(fake)
    assert fake["result"]["least_degree"] is None  # a gap at degrees 1 and 2
    two = copy.deepcopy(cert)
    two["witness"]["facts"] = cert["witness"]["facts"] + forged["witness"]["facts"]
    assert check_certificate(_resign(two))


def test_a_relation_for_one_tool_chosen_sigma_is_not_reported_as_generic():
    from certify.checker.claims.compind import compind_result

    cert = make(Z2Z)
    inst = dict(cert["instance"], activation=None, generic_degree=2)
    assert compind_result("compind", inst, cert["witness"]["facts"], [])["generic"] is False


def test_newman_slater_range_needs_pairwise_nonproportional_polynomials():
    cert = make({"kind": "newman-slater", "polynomials": ["x", "-x", "x + 1"], "power": 4})
    assert cert["result"]["pairwise_nonproportional"] is False
    assert cert["result"]["newman_slater_range"] is False
    assert "outside the range" in cert["claim"]["text"]


def test_prop21_instance_must_match_its_fact():
    cert = make({"kind": "prop21", "activation": "z^3 + z + 1"})
    bad = copy.deepcopy(cert)
    bad["instance"]["activation"] = ["0", "0", "0", "1"]
    assert check_certificate(bad)
    bad = copy.deepcopy(cert)
    bad["instance"]["origin"] = True
    assert check_certificate(bad)


def test_explicit_family_beats_the_hedged_shallow_claim():
    cert, _ = _mlp_certs([1, 2, 1], "(t+1)^32 - 1", [[[1], [2]], [[1, 1]]])
    assert cert["result"]["theorem"].startswith("explicit family (Ex. 3.7")
