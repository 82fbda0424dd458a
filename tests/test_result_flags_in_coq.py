"""Boolean flags of a result are checked statements or are not rendered at all (issue 22, the
mutation campaign's unresolved coqc accepts): tanh orbit `result.free` and tanh equiv
`result.sussmann` / `result.fefferman` are rendered into the Coq and Lean lemmas whether true
or false, so a flipped flag fails coqc as it fails the checker; the prop21 instance's pinned
`bias` (with the other family fields) reaches no prover file."""

from __future__ import annotations

import copy
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from certify.checker import check_certificate
from certify.families import generate_certificate
from certify.families.compind.render import render_prover as render_compind
from certify.families.tanh.render import render_prover, theorem_names
from certify.spec import load_spec, parse_spec

EX = Path(__file__).resolve().parents[1] / "certify" / "examples"


def _tanh(widths: list[int], net: tuple[Any, Any], other: tuple[Any, Any] | None = None) -> dict:
    """The orbit certificate of the network (weights, biases), or with `other` the equiv one."""
    req: dict[str, Any] = {"kind": "orbit"}
    if other is not None:
        req = {"kind": "equiv", "weights": other[0], "biases": other[1]}
    spec = parse_spec(
        {
            "name": "n",
            "network": {"family": "tanh", "activation": "tanh", "widths": widths},
            "parameters": {"weights": net[0], "biases": net[1]},
            "certificate": [req],
        },
        "<test>",
    )
    return generate_certificate(spec, spec.certificates[0])


TWINS = ([[[1], [1]], [[2, 2]]], [[1, 1], [0]])  # two identical neurons: not free, not generic
DEEP = ([[[1], [2]], [[1, 3], [2, -1]], [[2, 3]]], [[1, -2], [2, 3], [0]])  # generic
DEEP_TWINS = ([[[1], [1]], [[1, 2], [1, 2]], [[2, 3]]], [[1, 1], [1, 1], [0]])


@cache
def _cases() -> dict[str, dict[str, Any]]:
    spec = load_spec(EX / "tanh-equiv.toml")
    out = {
        "free orbit": generate_certificate(*_first(EX / "tanh-1-3-1-orbit.toml")),
        "non-free orbit": _tanh([1, 2, 1], TWINS),
        "sussmann equiv": generate_certificate(spec, spec.certificates[0]),
        "non-sussmann equiv": _tanh([1, 2, 1], TWINS, TWINS),
        "fefferman equiv": _tanh([1, 2, 2, 1], DEEP, DEEP),
        "non-fefferman equiv": _tanh([1, 2, 2, 1], DEEP_TWINS, DEEP_TWINS),
        "prop21": generate_certificate(*_first(EX / "prop21-z3-z-1.toml")),
    }
    for name, c in out.items():
        assert check_certificate(c) == [], name
    return out


def _first(path: Path) -> tuple[Any, Any]:
    spec = load_spec(path)
    return spec, spec.certificates[0]


def case(name: str) -> dict[str, Any]:
    return copy.deepcopy(_cases()[name])


# (case, result flag, its value in the case, the lemma that states it)
FLAGS = [
    ("free orbit", "free", True, "orbit_check"),
    ("non-free orbit", "free", False, "not_free"),
    ("sussmann equiv", "sussmann", True, "sussmann_1"),
    ("non-sussmann equiv", "sussmann", False, "not_sussmann"),
    ("fefferman equiv", "fefferman", True, "fefferman_1"),
    ("non-fefferman equiv", "fefferman", False, "not_fefferman"),
]
IDS = [f"{c}: {f} = {v}" for c, f, v, _ in FLAGS]


@pytest.mark.parametrize("name,flag,value,lemma", FLAGS, ids=IDS)
def test_the_cases_carry_the_flag_and_its_lemma_states_it(name, flag, value, lemma):
    c = case(name)
    assert c["result"][flag] is value
    assert lemma in theorem_names(c)
    coq = render_prover(c, "0" * 64, "coq")
    lean = render_prover(c, "0" * 64, "lean")
    if lemma.startswith("not_"):  # a false flag: the conjunction of the checks is false
        fn = {"free": "check_free", "sussmann": "check_sussmann", "fefferman": "check_fefferman"}
        coq_line = next(x for x in coq.splitlines() if x.startswith(f"Lemma {lemma} :"))
        lean_line = next(x for x in lean.splitlines() if x.startswith(f"theorem {lemma} :"))
        assert coq_line.startswith(f"Lemma {lemma} : negb (") and coq_line.endswith(") = true.")
        assert f"({fn[flag]} " in coq_line
        assert lean_line.startswith(f"theorem {lemma} : (NNCert.")
        assert lean_line.endswith(") = false := by decide +kernel")


@pytest.mark.parametrize("name,flag,value,lemma", FLAGS, ids=IDS)
def test_coqc_proves_the_flag_as_the_certificate_states_it(coq, name, flag, value, lemma):
    v = coq.verdict(case(name))
    assert v.status == "passed", v.message


@pytest.mark.parametrize("name,flag,value,lemma", FLAGS, ids=IDS)
def test_a_flipped_flag_is_rejected_by_the_checker_and_fails_coqc(coq, name, flag, value, lemma):
    c = case(name)
    c["result"][flag] = not value
    problems = check_certificate(c)
    assert problems and f"result.{flag}" in problems[0], problems
    v = coq.verdict(c)
    assert v.status == "failed", v.message


def test_a_genericity_flag_of_the_other_architecture_is_not_rendered_but_refused():
    from certify.errors import RenderError

    c = case("sussmann equiv")
    c["result"]["fefferman"] = True  # a one-hidden-layer network has no Fefferman flag
    assert check_certificate(c)
    with pytest.raises(RenderError, match="result.fefferman: expected null"):
        render_prover(c, "0" * 64, "coq")
    c = case("sussmann equiv")
    c["result"]["sussmann"] = None
    with pytest.raises(RenderError, match="result.sussmann: expected true or false"):
        render_prover(c, "0" * 64, "coq")


def test_the_prop21_instance_fields_are_pinned_and_reach_no_prover_file():
    c = case("prop21")
    base_coq = render_compind(c, "0" * 64, "coq")
    base_lean = render_compind(c, "0" * 64, "lean")
    assert "Definition bias" not in base_coq and "def bias" not in base_lean
    assert "Definition polys" not in base_coq and "def nvars" not in base_lean
    c["instance"]["bias"] = True
    problems = check_certificate(c)
    assert (
        problems
        and "no polynomials, variables, generic degree, search, power or bias" in (problems[0])
    )
    # the flipped flag is in no statement: the rendered files are the base's, byte for byte
    assert render_compind(c, "0" * 64, "coq") == base_coq
    assert render_compind(c, "0" * 64, "lean") == base_lean
