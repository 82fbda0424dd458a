"""Exact key sets and one spelling per value (issue 22, item 1): every object of a
certificate's instance, witness and result has exactly the keys its kind defines, for every
kind of the registry; a stray key is rejected with a message naming it. Polynomials and
activations of the composition-independence kinds have one spelling (nonzero terms,
exponents strictly decreasing; a nonzero leading coefficient), which the generator writes."""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

import pytest

from certify.checker import check_certificate, cross_check
from certify.checker.claims.compind import compind_claim, compind_result
from certify.checker.ir import Malformed, difference, exact_keys
from certify.checker.registry import KINDS
from certify.cli import example_specs
from certify.families import generate_certificates
from certify.spec import load_specs

STRAY = "zz_stray"


@cache
def example_groups() -> list[list[dict[str, Any]]]:
    """The certificates of every embedded example, one list per request (its group)."""
    return [
        generate_certificates(spec, req)
        for path in example_specs()
        for spec in load_specs(path)
        for req in spec.certificates
    ]


def objects(x: Any, path: tuple = ()) -> list[tuple]:
    """The paths of x and of every object below it."""
    out = [path] if isinstance(x, dict) else []
    items = x.items() if isinstance(x, dict) else enumerate(x) if isinstance(x, list) else ()
    for k, v in items:
        out += objects(v, (*path, k))
    return out


def at(x: Any, path: tuple) -> Any:
    for k in path:
        x = x[k]
    return x


def problems_of(group: list[dict[str, Any]], i: int, cert: dict[str, Any]) -> list[str]:
    g = [*group[:i], cert, *group[i + 1 :]]
    return check_certificate(cert) + [p for ps in cross_check(g).values() for p in ps]


KEYS = [f"{k.family}/{k.kind}" for k in KINDS]


@pytest.mark.parametrize("key", KEYS)
def test_a_stray_key_in_any_object_of_instance_witness_or_result_is_rejected_naming_it(key):
    family, kind = key.split("/")
    tried = 0
    for group in example_groups():
        for i, c in enumerate(group):
            if (c["family"], c["kind"]) != (family, kind):
                continue
            assert problems_of(group, i, c) == [], c["name"]
            for section in ("instance", "witness", "result"):
                for path in objects(c[section], (section,)):
                    bad = copy.deepcopy(c)
                    at(bad, path)[STRAY] = 0
                    problems = problems_of(group, i, bad)
                    where = ".".join(map(str, path))
                    assert problems, f"{c['name']}: a stray key in {where} is accepted"
                    assert any(STRAY in p for p in problems), (where, problems)
                    tried += 1
    assert tried > 0, f"no example certificate of kind {key}"


def test_exact_keys_names_the_stray_and_the_missing_key():
    assert exact_keys({"a": 1, "b": 2}, "w", ("a",), ("b",)) == {"a": 1, "b": 2}
    with pytest.raises(Malformed, match=r"^w: unexpected key 'c' \(expected the keys \['a'\]\)"):
        exact_keys({"a": 1, "c": 2}, "w", ("a",))
    with pytest.raises(Malformed, match=r"^w: missing key 'a'$"):
        exact_keys({}, "w", ("a",))
    with pytest.raises(Malformed, match="w: expected an object"):
        exact_keys([], "w", ())


def test_difference_names_where_two_json_values_first_differ():
    assert difference({"a": [1, {"b": 2}]}, {"a": [1, {"b": 2}]}, "r") is None
    assert difference({"a": 1, "x": 0}, {"a": 1}, "r") == "r: unexpected key 'x'"
    assert difference({}, {"a": 1}, "r") == "r: missing key 'a'"
    assert difference({"a": [1, {"b": 2}]}, {"a": [1, {"b": 3}]}, "r") == "r.a[1].b: 2, expected 3"
    assert difference([1], [1, 2], "r") == "r: 1 entries, expected 2"
    assert difference(True, 1, "r") == "r: True, expected 1"  # not identified, as in `same`


# ---------------------------------------------------------------- one spelling
def compind_certs(kind: str | None = None) -> list[dict[str, Any]]:
    out = [
        c
        for g in example_groups()
        for c in g
        if c["family"] == "compind" and kind in (None, c["kind"])
    ]
    assert out
    return copy.deepcopy(out)


def test_the_generator_writes_every_polynomial_in_its_one_spelling():
    for c in compind_certs():
        for q in c["instance"]["polynomials"]:
            exps = [e for _, e in q]
            assert all(coef != "0" for coef, _ in q), c["name"]
            assert all(a > b for a, b in zip(exps, exps[1:])), (c["name"], exps)


def _swap_first_terms(c: dict[str, Any]) -> None:
    """The same polynomial with its first two terms swapped (and its witness data kept
    aligned: the inverses of the denominators follow the terms)."""
    i = next(i for i, q in enumerate(c["instance"]["polynomials"]) if len(q) >= 2)
    q = c["instance"]["polynomials"][i]
    q[0], q[1] = q[1], q[0]
    for f in c["witness"]["facts"]:
        if "polys_inv" in f:
            inv = f["polys_inv"][i]
            inv[0], inv[1] = inv[1], inv[0]


RESPELLINGS = {
    "reordered terms": _swap_first_terms,
    "a zero term": lambda c: c["instance"]["polynomials"][0].append(
        ["0", [0] * len(c["instance"]["variables"])]
    ),
    "an exponent vector with an extra entry": lambda c: [
        t[1].append(0) for t in c["instance"]["polynomials"][0]
    ],
}


@pytest.mark.parametrize("how", RESPELLINGS)
def test_a_newman_slater_polynomial_spelled_another_way_is_rejected(how: str):
    c = compind_certs("newman-slater")[0]
    RESPELLINGS[how](c)
    problems = check_certificate(c)
    assert problems and "instance.polynomials[" in problems[0], problems
    assert (
        "expected nonzero terms, exponents strictly decreasing" in problems[0]
        or "exponents (one per variable)" in problems[0]
    ), problems


@pytest.mark.parametrize("kind", ["compind", "newman-slater"])
def test_every_compind_polynomial_with_reordered_terms_is_rejected(kind: str):
    for c in compind_certs(kind):
        if any(len(q) >= 2 for q in c["instance"]["polynomials"]):
            _swap_first_terms(c)
            problems = check_certificate(c)
            assert problems and "exponents strictly decreasing" in problems[0], problems


def _trailing_zero(c: dict[str, Any]) -> list[str]:
    """sigma spelled with a zero leading coefficient everywhere, result and claim rebuilt
    (they would then state a degree one too high)."""
    if c["instance"]["activation"] is not None:
        c["instance"]["activation"].append("0")
    for f in c["witness"]["facts"]:
        if "sigma" in f:
            f["sigma"].append("0")
        if "sigma_inv" in f:
            f["sigma_inv"].append(1)
    c["result"] = compind_result(c["kind"], c["instance"], c["witness"]["facts"], [])
    c["claim"] = compind_claim(c["kind"], c["instance"], c["result"], c["witness"]["facts"])
    return check_certificate(c)


def test_an_activation_with_a_trailing_zero_coefficient_is_rejected_even_when_consistent():
    c = next(c for c in compind_certs("compind") if c["instance"]["activation"])
    problems = _trailing_zero(c)
    assert problems and "instance.activation: expected coefficients whose last" in problems[0]
    # a search certificate declares no activation: its facts' own sigma are checked
    c = next(c for c in compind_certs("compind") if c["instance"]["search"])
    problems = _trailing_zero(c)
    assert problems and "].sigma: expected coefficients whose last" in problems[0], problems
