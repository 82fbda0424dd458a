"""Activations in the restricted grammar and their affine symmetry groups (kind affsym)."""

from __future__ import annotations

import copy
from fractions import Fraction
from functools import cache

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from certify.checker import check_certificate
from certify.checker.facts.tanh_expr import ActivationError, X, activation, parse_expression
from certify.checker.facts.tanh_sym import Element, prove
from certify.errors import SpecError
from certify.families import generate_certificate
from certify.families.tanh.activations import grammar_text
from certify.families.tanh.affsym import compute_group
from certify.spec import parse_spec


@cache
def group(name: str) -> dict:
    return compute_group(activation(name))


def elements(name: str) -> set[tuple[str, ...]]:
    return {(r["alpha"], r["beta"], r["gamma"], r["delta"]) for r in group(name)["elements"]}


def affsym_cert(act: str) -> dict:
    spec = parse_spec(
        {"name": "a", "certificate": [{"kind": "affsym", "activation": act}]}, "<test>"
    )
    return generate_certificate(spec, spec.certificates[0])


# ---------------------------------------------------------------- the grammar
@pytest.mark.parametrize(
    "text, expected",
    [
        ("tanh(x)", sp.tanh(X)),
        ("1/(1 + exp(-t))", 1 / (1 + sp.exp(-X))),
        ("2*x^3 - x/3 + 1", 2 * X**3 - X / 3 + 1),
        ("arctan(x) * erf(x)", sp.atan(X) * sp.erf(X)),
        ("x^(-2) + (x + 1)^2", X**-2 + (X + 1) ** 2),
        ("-(-x)", X),
    ],
)
def test_the_parser_builds_the_expression_node_by_node(text, expected):
    assert parse_expression(text) == expected


@pytest.mark.parametrize(
    "text, why",
    [
        ("foo(x)", "unknown function 'foo'"),
        ("sin(x)", "unknown function 'sin'"),
        ("1.5*x", "non-rational constant"),
        ("pi*x", "non-rational constant 'pi'"),
        ("exp(1)^x", "exponents are integers"),
        ("x + ", "unexpected end"),
        ("x $ 2", "unexpected character"),
        ("__import__('os')", "unexpected character"),
        ("__import__(x)", "unknown function '__import__'"),
        ("y", "unknown name 'y'"),
        ("x^100", "larger than 64"),
        ("1/0", "division by the constant zero"),
        ("3", "nonconstant"),
    ],
)
def test_bad_activation_text_is_rejected_with_the_reason(text, why):
    with pytest.raises(ActivationError, match=why):
        activation(text)


@st.composite
def expressions(draw, depth: int = 0) -> str:
    if depth > 2 or draw(st.booleans()):
        return draw(st.sampled_from(["x", "t", "2", "3", "(1/2)", "(-5/3)"]))
    kind = draw(st.sampled_from(["+", "-", "*", "/", "^", "f"]))
    a = draw(expressions(depth + 1))
    if kind == "f":
        return f"{draw(st.sampled_from(['exp', 'tanh', 'arctan', 'erf']))}({a})"
    if kind == "^":
        return f"({a})^{draw(st.integers(0, 3))}"
    b = draw(expressions(depth + 1))
    if kind == "/" and b in ("2", "3"):
        return f"({a})/{b}"
    if kind == "/":
        return f"({a})*{b}"
    return f"({a}) {kind} ({b})"


@settings(max_examples=200, deadline=None)
@given(expressions())
def test_printing_in_the_grammar_and_parsing_back_gives_the_same_expression(text):
    e = parse_expression(text)
    back = parse_expression(grammar_text(e), allow_pi=True)  # arctan(1) = pi/4 needs pi
    # equal as expressions; sympy may distribute a number over a sum when rebuilding
    assert back == e or sp.expand(back - e) == 0


# ---------------------------------------------------------------- the groups
@pytest.mark.parametrize(
    "name, expected",
    [
        ("tanh", {("1", "0", "1", "0"), ("(-1)", "0", "(-1)", "0")}),
        ("logistic", {("1", "0", "1", "0"), ("(-1)", "0", "(-1)", "1")}),
        ("arctan", {("1", "0", "1", "0"), ("(-1)", "0", "(-1)", "0")}),
        ("softsign", {("1", "0", "1", "0"), ("(-1)", "0", "(-1)", "0")}),
        ("erf", {("1", "0", "1", "0"), ("(-1)", "0", "(-1)", "0")}),
        ("x*tanh(x)", {("1", "0", "1", "0"), ("(-1)", "0", "1", "0")}),
        ("t^3 + t^2", {("1", "0", "1", "0"), ("(-1)", "(-2/3)", "(-1)", "(4/27)")}),
    ],
)
def test_the_finite_groups_of_the_named_activations(name, expected):
    g = group(name)
    assert g["type"] == "finite" and g["order"] == 2
    assert elements(name) == expected
    assert all(r["proof"] != "unproved" for r in g["elements"])


def test_tanh_type_groups_are_complete_and_x_tanh_x_is_not_claimed_complete():
    for name in ("tanh", "logistic", "arctan", "softsign", "erf"):
        assert group(name)["complete"], name
    assert not group("x*tanh(x)")["complete"]


def test_monomials_and_relu_give_continuous_families():
    [t3] = group("t^3")["elements"]
    assert (t3["alpha"], t3["beta"], t3["gamma"], t3["delta"], t3["family"]) == (
        "l", "0", "l^3", "0", "l != 0")  # fmt: skip
    [relu] = group("relu")["elements"]
    assert (relu["alpha"], relu["gamma"], relu["family"]) == ("l", "l", "l > 0")
    assert group("t^3")["type"] == group("relu")["type"] == "family"


def test_sin_has_an_infinite_group_given_by_proved_generators():
    g = group("sin")
    assert g["type"] == "infinite" and g["order"] is None
    assert ("1", "(2*pi)", "1", "0") in elements("sin")
    assert ("1", "pi", "(-1)", "0") in elements("sin")
    assert ("(-1)", "pi", "1", "0") in elements("sin")


def test_a_generic_polynomial_has_only_the_identity():
    assert elements("t^3 + t^2 + t/2 + 1/5") == {("1", "0", "1", "0")} or all(
        r["proof"] != "unproved" for r in group("t^3 + t^2 + t/2 + 1/5")["elements"]
    )
    assert elements("t^4 + t") == {("1", "0", "1", "0")}


def test_exp_has_the_translation_family():
    [fam] = [r for r in group("exp(x)")["elements"] if r["family"]]
    assert (fam["alpha"], fam["beta"], fam["gamma"]) == ("1", "l", "exp(l)")


def test_a_false_element_is_not_proved():
    act = activation("tanh")
    assert prove(act.expr, Element(*map(sp.Integer, (-1, 0, -1, 1))), False) is None
    assert prove(act.expr, Element(*map(sp.Integer, (2, 0, 2, 0))), False) is None


@settings(max_examples=5, deadline=None)
@given(
    st.fractions(min_value=-3, max_value=3, max_denominator=3).filter(lambda v: v != 0),
    st.fractions(min_value=-3, max_value=3, max_denominator=3).filter(lambda v: v != 0),
    st.fractions(min_value=-2, max_value=2, max_denominator=2),
    st.fractions(min_value=-2, max_value=2, max_denominator=2),
)
def test_an_affine_image_of_tanh_has_the_conjugated_flip(p, q, r, s):
    # rho(x) = p tanh(q x + r) + s: rho(-x - 2r/q) = -rho(x) + 2s
    text = f"({p})*tanh(({q})*x + ({r})) + ({s})"
    g = compute_group(activation(text))
    flip = tuple(str(v) for v in (Fraction(-1), -2 * r / q, Fraction(-1), 2 * s))
    got = {
        tuple(
            str(Fraction(v.replace("(", "").replace(")", "")))
            for v in (e["alpha"], e["beta"], e["gamma"], e["delta"])
        )  # fmt: skip
        for e in g["elements"]
    }
    assert g["order"] == 2 and g["complete"] and flip in got


# ---------------------------------------------------------------- certificates
@pytest.mark.parametrize("act", ["tanh", "logistic", "t^3", "sin", "relu", "t^3 + t^2"])
def test_affsym_certificates_are_accepted_by_the_checker(act):
    assert check_certificate(affsym_cert(act)) == []


TAMPER = {
    "delta of the flip": lambda c: c["witness"]["group"]["elements"][1].__setitem__("delta", "1"),
    "proof status": lambda c: c["witness"]["group"]["elements"][1].__setitem__("proof", "sympy X"),
    "dropped element": lambda c: c["witness"]["group"]["elements"].pop(),
    "table entry": lambda c: c["witness"]["table"][1].__setitem__(3, "1"),
    "closed flag": lambda c: c["witness"].__setitem__("closed", False),
    "order in result": lambda c: c["result"].__setitem__("order", 4),
    "claim text": lambda c: c["claim"].__setitem__("text", c["claim"]["text"] + " Also ReLU."),
    "completeness": lambda c: c["witness"]["group"].__setitem__("complete", False),
}


@pytest.mark.parametrize("what", TAMPER)
def test_the_checker_rejects_a_tampered_affsym_certificate(what):
    c = copy.deepcopy(affsym_cert("tanh"))
    TAMPER[what](c)
    assert check_certificate(c), what


def test_an_element_outside_the_grammar_is_malformed_not_executed():
    c = copy.deepcopy(affsym_cert("tanh"))
    c["witness"]["group"]["elements"][1]["beta"] = "__import__('os').system('true')"
    assert check_certificate(c)


def test_an_affsym_request_with_a_bad_activation_is_a_spec_error():
    for bad, why in (("foo(x)", "unknown function"), ("1.5*x", "non-rational"), (3, "name")):
        with pytest.raises(SpecError, match=why):
            parse_spec({"name": "a", "certificate": [{"kind": "affsym", "activation": bad}]}, "<t>")
    with pytest.raises(SpecError, match="activation"):
        parse_spec({"name": "a", "certificate": [{"kind": "affsym"}]}, "<t>")


# ---------------------------------------------------------------- review 6 (F3, F4, F5)
def test_an_unproved_candidate_makes_the_group_incomplete():
    # arctan(exp(-x)) = pi/2 - arctan(exp(x)) is a true symmetry sympy does not prove
    g = group("arctan(exp(x))")
    assert ("(-1)", "0", "(-1)", "((1/2)*pi)") in elements("arctan(exp(x))")
    assert not g["complete"] and g["order"] == 1
    c = affsym_cert("arctan(exp(x))")
    assert check_certificate(c) == [] and not c["result"]["complete"]
    assert "Completeness is not proved" in c["claim"]["text"]
    assert (
        "Unproved candidates, neither claimed nor excluded: ((-1), 0, (-1), ((1/2)*pi))"
        in (c["claim"]["text"])
    )


def test_a_midpoint_outside_the_old_denominator_limit_is_identified():
    # (-1, 2/1001, -1, 0) is an identity; _identify used to stop at denominators 1000
    g = group("arctan(x - 1/1001) + erf(x - 1/1001)")
    assert ("(-1)", "(2/1001)", "(-1)", "0") in elements("arctan(x - 1/1001) + erf(x - 1/1001)")
    assert g["complete"] and g["order"] == 2


def test_a_missed_midpoint_makes_the_group_incomplete(monkeypatch):
    import certify.families.tanh.affsym as A

    monkeypatch.setattr(A, "_midpoint", lambda e, m: None)
    g = A.compute_group(activation("tanh"))
    assert not g["complete"] and any("undetermined" in n for n in g["necessary_conditions"])


def test_only_proved_rows_give_the_networks_symmetry():
    from certify.families.tanh.spec import rho_aff

    assert rho_aff("arctan(exp(x))") == (None, 1)
    assert rho_aff("tanh")[1] == 2 and rho_aff("tanh")[0] is not None
    data = {
        "name": "n",
        "network": {"family": "tanh", "activation": "arctan(exp(x))", "widths": [1, 2, 1]},
        "parameters": {"weights": [[[1], [2]], [[1, 3]]], "biases": [[1, 2], [0]]},
        "certificate": [{"kind": "orbit"}],
    }
    spec = parse_spec(data, "<test>")
    c = generate_certificate(spec, spec.certificates[0])
    assert c["instance"]["symmetry"] is None and c["instance"]["rho_order"] == 1
    assert check_certificate(c) == []


@pytest.mark.parametrize(
    "text, family",
    [
        ("x^2", ("l", "0", "l^2", "0")),
        ("(x+1)^2", ("l", "((-1) + l)", "l^2", "0")),
        ("x^2 + 1", ("l", "0", "l^2", "((-1)*(1 + l)*((-1) + l))")),
    ],
)
def test_quadratics_have_their_family_and_not_an_empty_group(text, family):
    g = group(text)
    assert g["type"] == "family" and g["complete"]
    assert family in elements(text)
    assert all(r["proof"] != "unproved" for r in g["elements"])
    assert check_certificate(affsym_cert(text)) == []


@pytest.mark.parametrize("text", ["x", "2*x + 1"])
def test_an_affine_activation_is_a_spec_error(text):
    with pytest.raises(SpecError, match="nonlinear"):
        parse_spec({"name": "a", "certificate": [{"kind": "affsym", "activation": text}]}, "<t>")
    with pytest.raises(ActivationError, match="nonlinear"):
        compute_group(activation(text))


# ---------------------------------------------------------------- review 6 (F8)
@pytest.mark.parametrize("text", ["(x^64)^64", "((x^64)^64)^64", "x^64*x^64", "(t^2)^40"])
def test_the_degree_is_bounded_after_nesting(text):
    with pytest.raises(ActivationError, match="degree"):
        activation(text)


@pytest.mark.parametrize(
    "text", ["(" * 199 + "x" + ")" * 199, "-" * 300 + "x", "exp(" * 60 + "x" + ")" * 60]
)
def test_deep_nesting_is_a_named_spec_error_not_a_recursion_error(text, tmp_path):
    import json

    from certify.spec import load_spec

    p = tmp_path / "deep.json"
    p.write_text(json.dumps({"name": "d", "certificate": [{"kind": "affsym", "activation": text}]}))
    with pytest.raises(SpecError, match="nested") as e:
        load_spec(p)
    assert "certificate[0].activation" in str(e.value)


# ---------------------------------------------------------------- issue 12: no recomputation
def _rebuild(c: dict) -> None:
    from certify.checker.claims.tanh import affsym_claim, affsym_result

    g = c["witness"]["group"]
    c["witness"]["closed"] = g["type"] == "finite" and g["complete"]
    c["result"] = affsym_result(g)
    c["claim"] = affsym_claim(g, c["result"], len(c["witness"]["table"]))


def _row(c: dict, i: int) -> dict:
    return c["witness"]["group"]["elements"][i]


# Consistent forgeries of the listed group (result, claim and closed flag rebuilt): the checker
# does not recompute the group, so each is caught by a check of its own (tanh_sym.check_group).
FORGED = {
    "expression of another activation": (
        "tanh", lambda c: c["witness"]["group"].__setitem__("expression", "arctan(x)"),
        "not the activation's expression"),
    "group of another activation": (
        "tanh", lambda c: c["witness"]["group"].__setitem__("activation", "arctan"),
        "not the instance's activation"),
    "relu family widened to l != 0": (
        "relu", lambda c: _row(c, 0).__setitem__("family", "l != 0"), "not reproduced"),
    "family range outside the prover's": (
        "relu", lambda c: _row(c, 0).__setitem__("family", "l > 0 or l < 0"), "family: null"),
    "finite group of the wrong order": (
        "tanh", lambda c: c["witness"]["group"].__setitem__("order", 3), "finite group"),
    "finite group with a family": (
        "relu", lambda c: c["witness"]["group"].__setitem__("type", "finite"), "finite group"),
    "a family that does not depend on l": (
        "tanh", lambda c: _row(c, 1).__setitem__("family", "l real"), "depend on l"),
    "complete with an unproved candidate": (
        "arctan(exp(x))", lambda c: c["witness"]["group"].__setitem__("complete", True),
        "unproved candidate"),
}  # fmt: skip


@pytest.mark.parametrize("what", FORGED)
def test_the_checker_rejects_a_consistent_forgery_of_the_group(what):
    act, change, why = FORGED[what]
    c = copy.deepcopy(affsym_cert(act))
    change(c)
    _rebuild(c)
    problems = check_certificate(c)
    assert any(why in p for p in problems), (what, problems)


def test_completeness_is_stated_as_the_generators_not_checked():
    """What the checker cannot verify without re-running the generator's search (that no
    symmetry is missing) is the claim's to say: a certificate claiming completeness for
    x*tanh(x), which the generator does not prove, is accepted, and its claim says the
    completeness is the generator's and not checked."""
    c = copy.deepcopy(affsym_cert("x*tanh(x)"))
    assert "Completeness is not proved" in c["claim"]["text"]
    c["witness"]["group"]["complete"] = True
    _rebuild(c)
    assert check_certificate(c) == []
    text = c["claim"]["text"]
    assert "Computed by the generator and not checked" in text
    assert "does not re-run its search" in text
    assert c["result"]["completeness"] == "generator's search (not checked)"
    tanh = affsym_cert("tanh")["claim"]["text"]
    assert (
        "Computed by the generator and not checked" in tanh
        and "The checker re-proves every identity with sympy" in tanh
    )
