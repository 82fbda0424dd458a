"""Static lint and parity tests of lean/NNCert/Compind.lean and
templates/lean/compind/compind.lean.j2.

No Lean toolchain is available where these run, so they check what can be checked without one
(as tests/test_lean_library.py does for the rank library, whose helpers are reused here):
(a) no forbidden token; (b) explicit structural recursion on a parameter that a `match` takes
apart; (c) the name-by-name, order-by-order and field-by-field correspondence with the Python
twin certify/checker/kernel/compind.py; (d) the template, rendered with small hand-made facts,
reads back literal by literal to data that the Python twin accepts, and rejects once tampered.
"""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jinja2
import pytest
from flint import nmod_mat

from certify.checker.kernel import compind as C
from certify.checker.kernel.arith import ARITH_Q, Rat, ints_q, rats_mod
from certify.checker.kernel.lists import lattice
from certify.checker.kernel.net import dot
from certify.render import literals as L
from tests.test_lean_library import (
    FORBIDDEN,
    JINJA,
    LEAN_DIR,
    LIBRARY,
    MODULES,
    ROOT,
    TEMPLATE_DIR,
    _documented,
    _layout_problems,
    calls,
    camel,
    identifiers,
    lean_defs,
    lean_structure_types,
    lean_structures,
    library_defs,
    recursion_problems,
    twin_dataclasses,
)

COMPIND = LEAN_DIR / "NNCert" / "Compind.lean"
TEMPLATE = TEMPLATE_DIR / "compind/compind.lean.j2"
TWIN = ROOT / "certify" / "checker" / "kernel" / "compind.py"

# Lean definitions without a Python function of the same name: (the def they serve, why).
LEAN_ONLY = {
    "familyRowsMod": (
        "familyMatrixMod",
        "the comprehension over zip(ps, invs) in family_matrix_mod; the row of ones is put in "
        "front once, so the recursion over the polynomials needs its own function",
    ),
    "dependentFrom": (
        "checkDependentAll",
        "the all(...) over range(lo, d + 1) in check_dependent_all, as structural recursion "
        "on the count d + 1 - lo",
    ),
    "anyZeroColFrom": (
        "anyZeroCol",
        "the any(...) over range(ncols) in any_zero_col, as structural recursion on the "
        "number of columns left",
    ),
    "hiddenOkFrom": (
        "hiddenOk",
        "the loop over zip(Ws, Ws[1:]) in hidden_ok, carrying the previous matrix so that the "
        "recursion is on one list",
    ),
}
# Python functions defined after their first user; Lean needs a def before its use, so the
# Lean twin sits directly before that user: name -> (first user, why).
MOVED = {
    "qint": (
        "scaledCompositions",
        "scaled_compositions (and relation_poly) call qint, defined after check_dependent_all in "
        "Python",
    ),
    "qmul3": ("delta2", "delta2 and delta3 call qmul3, defined after delta3 in Python"),
}
# Private Python helpers and the existing library def that plays their part in Lean (none
# since the dependence check expands coefficients: `_dot_q` went with `relation_at`).
PRIVATE: dict[str, str] = {}

SIGNATURES = [
    "def checkIndependent (inst : CompindInstance) (w : IndepWitness) (k : Nat) : Bool :=",
    "def checkDependent (inst : CompindInstance) (lam : List Int) : Bool :=",
    "def checkDependentAll (inst : CompindInstance) (lam : List Int) (lo d : Nat) : Bool :=",
    "def checkProp21 (sigma : List (Int × Int)) (d2 d3 : Int × Int) : Bool :=",
    "def checkProp33 (sigma : List (Int × Int)) : Bool :=",
]
FIELD_TYPES = {
    "CompindInstance": {
        "nvars": "Nat",
        "polys": "List (List ((Int × Int) × List Nat))",
        "sigma": "List (Int × Int)",
        "bias": "Bool",
    },
    "IndepWitness": {
        "p": "Int",
        "polysInv": "List (List Int)",
        "sigmaInv": "List Int",
        "points": "List (List Int)",
        "inv": "List (List Int)",
    },
}
NAT_FIELDS = {"nvars"}  # Python `int` fields that are counts, hence `Nat` in Lean

P = 2147483647  # prime, below 2^31


# ---------------------------------------------------------------- readers
def compind_defs() -> list[Any]:
    return lean_defs(COMPIND)


def lean_declarations(path: Path) -> list[str]:
    """Names of the top-level defs and structures, in file order."""
    return re.findall(r"^(?:def|structure) ([\w']+)", path.read_text(), re.M)


def twin_declarations() -> list[tuple[str, str]]:
    """(kind, name) of the public functions and dataclasses of kernel/compind.py, in order."""
    out = []
    for node in ast.parse(TWIN.read_text()).body:
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
            out.append(("def", node.name))
        elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            out.append(("structure", node.name))
    return out


def twin_functions() -> dict[str, ast.FunctionDef]:
    tree = ast.parse(TWIN.read_text())
    return {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}


# ------------------------- (a) file header (tokens and layout: test_lean_library.py)
def test_the_compind_file_names_its_python_twin_and_fills_the_nncert_namespace():
    text = COMPIND.read_text()
    assert text.startswith("/-\n")
    head = text[: text.index("-/")]
    assert "certify/checker/kernel/compind.py" in head and "(NNCert/Compind)" in head
    assert "namespace NNCert\n" in text and text.rstrip().endswith("end NNCert")
    assert not re.search(r"^module\b", text, re.M)


def test_the_library_root_imports_compind_after_the_kernel_modules():
    imports = re.findall(r"^import (\S+)$", (LEAN_DIR / "NNCert.lean").read_text(), re.M)
    families = [f"NNCert.{m}" for m in MODULES] + ["NNCert.Compind", "NNCert.ResNet"]
    assert imports[: len(families)] == families  # later families (ReLU) follow


def test_compind_imports_every_library_module_whose_defs_it_uses():
    imports = re.findall(r"^import NNCert\.(\w+)$", COMPIND.read_text(), re.M)
    used = set().union(*(identifiers(d.body) for d in compind_defs()))
    needed = {d.path.stem for d in library_defs() if d.name in used}
    assert needed == {"Lists", "Arith", "Net", "Rank"}
    assert set(imports) == needed and imports == [m for m in MODULES if m in needed]


# ---------------------------------------------------------------- (b) structural recursion
@pytest.mark.parametrize("d", compind_defs(), ids=lambda d: d.name)
def test_every_recursive_compind_def_recurses_structurally_on_a_matched_parameter(d):
    assert not recursion_problems(d), f"{d.name}: {recursion_problems(d)}"


def test_the_recursion_lint_sees_the_recursive_compind_defs():
    recursive = {d.name for d in compind_defs() if calls(d.body, d.name)}
    assert len(recursive) >= 18
    assert {"powAr", "monoEval", "polyEval", "horner", "dependentFrom"} <= recursive
    assert {
        "expsAdd", "expsEq", "termsScale", "polyMulT", "addTerm", "normalize", "zeroExps",
        "composeT", "scaledCompositions", "allZeroTerms",
    } <= recursive  # fmt: skip
    with_clause = {d.name for d in compind_defs() if d.termination}
    assert with_clause == recursive


# ---------------------------------------------------------------- (c) twin names and order
def test_every_public_function_of_the_python_twin_has_a_camel_case_lean_def():
    lean = {d.name for d in compind_defs()}
    missing = [name for kind, name in twin_declarations() if kind == "def"]
    missing = [name for name in missing if camel(name) not in lean]
    assert not missing, f"no Lean def for {missing}"


def test_every_compind_lean_def_has_a_python_twin_or_a_listed_reason():
    python = {camel(name) for kind, name in twin_declarations() if kind == "def"}
    lean = {d.name for d in compind_defs()}
    assert lean - python == set(LEAN_ONLY), f"Lean-only defs: {sorted(lean - python)}"
    assert not set(LEAN_ONLY) & python, "a listed Lean-only def now has a Python twin"


def test_compind_declarations_come_in_the_python_order_apart_from_the_listed_moves():
    skip = set(LEAN_ONLY) | set(MOVED)
    lean = [n for n in lean_declarations(COMPIND) if n not in skip]
    python = [camel(n) if k == "def" else n for k, n in twin_declarations()]
    assert lean == [n for n in python if n not in MOVED]


def test_every_moved_def_sits_directly_before_the_first_python_function_that_calls_it():
    order = lean_declarations(COMPIND)
    funcs = twin_functions()
    python_order = [n for k, n in twin_declarations() if k == "def"]
    for moved, (user, _why) in MOVED.items():
        callers = [
            name
            for name in python_order
            if any(
                isinstance(c, ast.Call)
                and isinstance(c.func, ast.Name)
                and camel(c.func.id) == moved
                for c in ast.walk(funcs[name])
            )
        ]
        assert callers and camel(callers[0]) == user
        assert python_order.index(callers[0]) < [camel(n) for n in python_order].index(moved)
        assert order.index(moved) + 1 == order.index(user)


def test_every_compind_def_uses_only_declarations_above_it():
    order = lean_declarations(COMPIND)
    for d in compind_defs():
        later = {n for n in identifiers(d.body) if n in order and n != d.name}
        later = {n for n in later if order.index(n) > order.index(d.name)}
        assert not later, f"{d.name} uses {sorted(later)} before their definition"


def test_compind_names_do_not_clash_with_the_kernel_library():
    assert not {d.name for d in compind_defs()} & {d.name for d in library_defs()}
    assert not set(lean_structures(COMPIND)) & {
        s for path in LIBRARY for s in lean_structures(path)
    }


def test_the_compind_structures_match_the_python_dataclasses_field_for_field():
    assert lean_structure_types(COMPIND) == twin_dataclasses(TWIN, NAT_FIELDS) == FIELD_TYPES
    assert {n: list(f) for n, f in FIELD_TYPES.items()} == lean_structures(COMPIND)


def test_the_checkers_have_the_agreed_signatures():
    text = COMPIND.read_text()
    missing = [s for s in SIGNATURES if s not in text.splitlines()]
    assert not missing


def test_every_compind_def_and_structure_has_a_docstring():
    lines = COMPIND.read_text().splitlines()
    undocumented = [d.name for d in compind_defs() if not d.documented]
    undocumented += [
        line
        for i, line in enumerate(lines)
        if line.startswith("structure ") and not _documented(lines, i)
    ]
    assert not undocumented


def test_the_lean_only_helpers_are_used_by_the_def_they_serve_and_say_so():
    defs = {d.name: d for d in compind_defs()}
    text = COMPIND.read_text()
    for helper, (user, _why) in LEAN_ONLY.items():
        assert calls(defs[user].body, helper), f"{user} does not call {helper}"
        doc = text[: text.index(f"def {helper} ")].rsplit("/--", 1)[1]
        assert "Lean-only helper" in doc and f"`{user}`" in doc


def test_every_private_python_helper_is_played_by_a_library_def_that_compind_calls():
    used = set().union(*(identifiers(d.body) for d in compind_defs()))
    private = [n for n in twin_functions() if n.startswith("_")]
    assert sorted(private) == sorted(PRIVATE)
    library = {d.name for d in library_defs()}
    assert all(PRIVATE[n] in library and PRIVATE[n] in used for n in private)


# Python transcriptions of the Lean clauses that restructure a Python loop; they must agree
# with the twin on every edge case (ragged lists, lo > d + 1, lo = 0).


def max_total_degree(ps) -> int:
    """Largest total degree of any term (test helper: sizes the comparison lattice)."""
    return max((sum(t[1]) for q in ps for t in q), default=0)


# Python transcriptions, clause by clause, of the Lean defs of the coefficient expansion
# (structural recursion on the first list, folds from the right); they must agree with the
# loops of the twin on every edge case (ragged exponent vectors, empty sigma, empty or short
# lam, lam longer than the polynomials, zero coefficients, repeated exponent vectors).


def random_terms(rng: random.Random, nvars: int, n: int, ragged: bool = False) -> list[C.Term]:
    """n terms with small exponents (often repeated), coefficients with zeros and
    denominators; ragged: exponent vectors of any length up to nvars + 1."""
    out = []
    for _ in range(n):
        length = rng.randrange(nvars + 2) if ragged else nvars
        exps = [rng.randrange(3) for _ in range(length)]
        out.append(((rng.choice((-2, -1, 0, 0, 1, 3)), rng.choice((1, 1, 2, 3))), exps))
    return out


def exact_relation_at(inst: C.CompindInstance, lam: list[int], x: list[int]) -> Rat:
    """sum_i lam_i f_i(x) by evaluation (what the expansion must mean)."""
    xq = ints_q(x)
    ar = ARITH_Q
    vals = [
        C.horner(ar, inst.sigma, C.poly_eval(ar, C.term_coeffs(q), C.term_exps(q), xq))
        for q in inst.polys
    ]
    return dot(ar, ints_q(lam), [ar.one, *vals] if inst.bias else vals)


def test_the_expansion_means_the_relation_and_decides_it_like_the_unisolvent_lattice():
    """relation_poly evaluates to sum_i lam_i f_i at every point, has one term per exponent
    vector, and is all zero exactly when the relation vanishes on the principal lattice of
    degree deg sigma * max deg p_i (the check the expansion replaced)."""
    rng = random.Random(2)
    zero_seen = nonzero_seen = 0
    for _ in range(200):
        nvars = rng.randrange(1, 3)
        ps = [random_terms(rng, nvars, rng.randrange(1, 3)) for _ in range(rng.randrange(1, 4))]
        if rng.random() < 0.4:  # a dependent family: a scaled copy of the first polynomial
            c = rng.choice((2, -1, 3))
            ps.append([((c * t[0][0], t[0][1]), t[1]) for t in ps[0]])
        sigma = [(rng.randrange(-2, 3), rng.choice((1, 2))) for _ in range(rng.randrange(1, 4))]
        bias = rng.random() < 0.5
        inst = C.CompindInstance(nvars, ps, sigma, bias)
        lam = [rng.randrange(-3, 4) for _ in range(C.family_size(inst))]
        terms = C.relation_poly(inst, lam)
        exps = [tuple(t[1]) for t in terms]
        assert len(set(exps)) == len(exps)
        d = C.nsub(len(sigma), 1) * max_total_degree(ps)
        points = lattice(nvars, d)
        for x in points[:12]:
            value = C.poly_eval(ARITH_Q, C.term_coeffs(terms), C.term_exps(terms), ints_q(x))
            want = exact_relation_at(inst, lam, x)
            assert value[0] * want[1] == want[0] * value[1]
        on_lattice = all(exact_relation_at(inst, lam, x)[0] == 0 for x in points)
        assert C.all_zero_terms(terms) == on_lattice
        zero_seen += on_lattice
        nonzero_seen += not on_lattice
    assert zero_seen and nonzero_seen
    # the demo relation: 3 sigma(x) - 3 sigma(2x) + sigma(3x) = 0 for sigma of degree <= 2 only
    polys = [[((1, 1), [1])], [((2, 1), [1])], [((3, 1), [1])]]
    square = C.CompindInstance(1, polys, [(0, 1), (1, 1), (1, 1)], False)
    cubic = C.CompindInstance(1, polys, [(0, 1), (1, 1), (1, 1), (1, 1)], False)
    assert C.check_dependent(square, [3, -3, 1])
    # (the right folds leave the exponent vectors in this order; only z^3 survives: 3 - 24 + 27)
    want = [((0, 1), [0]), ((0, 1), [2]), ((6, 1), [3]), ((0, 1), [1])]
    assert C.relation_poly(cubic, [3, -3, 1]) == want
    assert not C.check_dependent(cubic, [3, -3, 1])


# ---------------------------------------------------------------- (d) the template
def independent_witness(
    inst: C.CompindInstance,
    polys_inv: list[list[int]],
    sigma_inv: list[int],
    points: list[list[int]],
) -> C.IndepWitness:
    """The witness with `inv` the inverse mod P of the recomputed matrix (python-flint)."""
    sigma_m = rats_mod(P, inst.sigma, sigma_inv)
    M = C.family_matrix_mod(P, inst.bias, sigma_m, inst.polys, polys_inv, points)
    V = nmod_mat(M, P).inv()
    inv = [[int(V[i, j]) for j in range(V.ncols())] for i in range(V.nrows())]
    return C.IndepWitness(P, polys_inv, sigma_inv, points, inv)


def fact_context(index: int, kind: str, **values: Any) -> dict[str, Any]:
    """A template fact: `index` an int, every other value a ready-made Lean literal."""
    out: dict[str, Any] = {"index": index, "kind": kind}
    for key, v in values.items():
        out[key] = L.lean(v)
    return out


def demo_family() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """p = x, 2x, 3x without biases: independent under z^3 + z + 1, dependent under z^2 + z
    (3 σ(x) - 3 σ(2x) + σ(3x) = 0, for every σ of degree 1..2), the Prop. 2.1/3.3 checks, and
    the MLP hypotheses for x -> (x, 2x) -> σ(x) + σ(2x) (widths [1, 2, 1])."""
    polys = [[((1, 1), [1])], [((2, 1), [1])], [((3, 1), [1])]]
    cubic = [(1, 1), (1, 1), (0, 1), (1, 1)]
    square = [(0, 1), (1, 1), (1, 1)]
    inst = C.CompindInstance(1, polys, cubic, False)
    w = independent_witness(inst, [[1], [1], [1]], [1, 1, 1, 1], [[0], [1], [2]])
    facts = [
        fact_context(0, "independent", sigma=cubic, k=3, p=w.p, polys_inv=w.polys_inv,
                     sigma_inv=w.sigma_inv, points=w.points, inv=w.inv),
        fact_context(1, "dependent", sigma=square, lam=[3, -3, 1]),
        fact_context(2, "dependent_all", lam=[3, -3, 1], lo=1, degree=2),
        fact_context(3, "prop21", sigma=cubic, d2=(6, 1), d3=(27, 1)),
        fact_context(4, "prop33", sigma=square),
        fact_context(5, "mlp", widths=[1, 2, 1], sigma=square, theta=[1, 2, 1, 1], rmin=2),
    ]  # fmt: skip
    meta = {
        "module": "Certificates.Compind_demo",
        "name": "demo",
        "sha256": "none (hand-made test facts)",
        "claim": "sigma(x), sigma(2x), sigma(3x): independent or dependent by sigma.",
        "nvars": L.lean(1),
        "polys": L.lean(polys),
        "bias": L.lean(False),
    }
    return meta, facts


def bias_family() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """p = x/2 + y, x y - 3 with biases and rational coefficients: 1, σ(p_1), σ(p_2) are
    independent under σ = -z + z^2/3 and dependent under the constant σ = 5 (5·1 - σ(p_1) = 0)."""
    polys = [[((1, 2), [1, 0]), ((1, 1), [0, 1])], [((1, 1), [1, 1]), ((-3, 1), [0, 0])]]
    sigma = [(0, 1), (-1, 1), (1, 3)]
    inst = C.CompindInstance(2, polys, sigma, True)
    w = independent_witness(
        inst, [[pow(2, -1, P), 1], [1, 1]], [1, 1, pow(3, -1, P)], [[0, 0], [-1, 2], [3, 1]]
    )
    facts = [
        fact_context(7, "independent", sigma=sigma, k=3, p=w.p, polys_inv=w.polys_inv,
                     sigma_inv=w.sigma_inv, points=w.points, inv=w.inv),
        fact_context(8, "dependent", sigma=[(5, 1)], lam=[5, -1, 0]),
        fact_context(10, "prop33", sigma=sigma),
    ]  # fmt: skip
    meta = {
        "module": "Certificates.Compind_bias",
        "name": "bias",
        "sha256": "none (hand-made test facts)",
        "claim": "1, sigma(x/2 + y), sigma(xy - 3).",
        "nvars": L.lean(2),
        "polys": L.lean(polys),
        "bias": L.lean(True),
    }
    return meta, facts


FAMILIES = {"demo": demo_family, "bias": bias_family}


def render(meta: dict[str, Any], facts: list[dict[str, Any]]) -> str:
    return JINJA.get_template("compind/compind.lean.j2").render(**meta, facts=facts)


THEOREM = re.compile(
    r"^set_option maxRecDepth 100000 in\nset_option maxHeartbeats 0 in\n"
    r"theorem fact_(\d+) : NNCert\.(\w+) (.*) = true := by decide \+kernel$",
    re.M,
)
ARGUMENTS = {
    "checkIndependent": ("independent", r"inst_{i} wit_{i} (\d+)"),
    "checkDependent": ("dependent", r"inst_{i} lam_{i}"),
    "checkDependentAll": ("dependent_all", r"inst_{i} lam_{i} (\d+) (\d+)"),
    "checkProp21": ("prop21", r"sigma_{i} d2_{i} d3_{i}"),
    "checkProp33": ("prop33", r"sigma_{i}"),
    "checkMlpHypotheses": ("mlp", r"widths_{i} sigma_{i} theta_{i} (\d+)"),
}
WITNESS_FIELDS = {"p": "p", "polysInv": "polys_inv", "sigmaInv": "sigma_inv", "points": "points",
                  "inv": "inv"}  # fmt: skip


def literal(text: str, name: str) -> Any:
    """The literal of `def name : T := literal` (one literal per `:=`)."""
    return L.read_field(text, name, L.block_start(text, f"def {name} :"))


def read_compind(text: str) -> dict[str, Any]:
    """Every literal of a rendered compind file, read back by name, as kernel_compind data."""
    module = re.search(r"^namespace (\S+)$", text, re.M)
    assert module and text.rstrip().endswith(f"end {module.group(1)}")
    mod = module.group(1)
    nvars, polys, bias = literal(text, "nvars"), literal(text, "polys"), literal(text, "bias")
    facts = []
    for m in THEOREM.finditer(text):
        i, check, args = m.group(1), m.group(2), m.group(3)
        kind, shape = ARGUMENTS[check]
        numbers = re.fullmatch(shape.replace("{i}", i), args)
        assert numbers, f"fact_{i}: unexpected arguments {args!r}"
        fact: dict[str, Any] = {"index": int(i), "kind": kind, "sigma": literal(text, f"sigma_{i}")}
        if kind in ("independent", "dependent", "dependent_all"):
            inst_line = (
                f"def inst_{i} : NNCert.CompindInstance := {{ nvars := {mod}.nvars, "
                f"polys := {mod}.polys, sigma := sigma_{i}, bias := {mod}.bias }}"
            )
            assert inst_line in text.splitlines(), f"inst_{i} is not the instance of the family"
            fact["inst"] = C.CompindInstance(nvars, polys, fact["sigma"], bias)
        if kind == "independent":
            start = L.block_start(text, f"def wit_{i} : NNCert.IndepWitness :=")
            fields = {py: L.read_field(text, lean, start) for lean, py in WITNESS_FIELDS.items()}
            fact["wit"] = C.IndepWitness(**fields)
            fact["k"] = int(numbers.group(1))
        if kind in ("dependent", "dependent_all"):
            fact["lam"] = literal(text, f"lam_{i}")
        if kind == "dependent_all":
            fact["lo"], fact["degree"] = int(numbers.group(1)), int(numbers.group(2))
        if kind == "prop21":
            fact["d2"], fact["d3"] = literal(text, f"d2_{i}"), literal(text, f"d3_{i}")
        if kind == "mlp":
            fact["widths"], fact["theta"] = (
                literal(text, f"widths_{i}"),
                literal(text, f"theta_{i}"),
            )
            fact["rmin"] = int(numbers.group(1))
        facts.append(fact)
    return {"module": mod, "nvars": nvars, "polys": polys, "bias": bias, "facts": facts}


def verdict(fact: dict[str, Any]) -> bool:
    """What the Python twin says of one fact read back from a rendered file."""
    kind = fact["kind"]
    if kind == "independent":
        return C.check_independent(fact["inst"], fact["wit"], fact["k"])
    if kind == "dependent":
        return C.check_dependent(fact["inst"], fact["lam"])
    if kind == "dependent_all":
        return C.check_dependent_all(fact["inst"], fact["lam"], fact["lo"], fact["degree"])
    if kind == "prop21":
        return C.check_prop21(fact["sigma"], fact["d2"], fact["d3"])
    if kind == "mlp":
        return C.check_mlp_hypotheses(fact["widths"], fact["sigma"], fact["theta"], fact["rmin"])
    assert kind == "prop33"
    return C.check_prop33(fact["sigma"])


def verdicts(text: str) -> dict[int, bool]:
    return {f["index"]: verdict(f) for f in read_compind(text)["facts"]}


@pytest.mark.parametrize("family", FAMILIES)
def test_every_fact_read_back_from_the_rendered_file_passes_the_python_twin(family: str):
    meta, facts = FAMILIES[family]()
    text = render(meta, facts)
    assert verdicts(text) == {f["index"]: True for f in facts}


@pytest.mark.parametrize("family", FAMILIES)
def test_every_literal_reads_back_as_it_was_rendered(family: str):
    meta, facts = FAMILIES[family]()
    cert = read_compind(render(meta, facts))
    assert cert["module"] == meta["module"]
    for key in ("nvars", "polys", "bias"):
        assert L.lean(cert[key]) == meta[key]
    assert [(f["index"], f["kind"]) for f in cert["facts"]] == [
        (f["index"], f["kind"]) for f in facts
    ]
    for got, want in zip(cert["facts"], facts, strict=True):
        assert L.lean(got["sigma"]) == want.get("sigma", "[]")
        for key in ("lam", "d2", "d3", "lo", "degree", "k", "widths", "theta", "rmin"):
            if key in want:
                assert L.lean(got[key]) == want[key]
        if "wit" in got:
            for py in WITNESS_FIELDS.values():
                assert L.lean(getattr(got["wit"], py)) == want[py]


def swap(text: str, anchor: str, old: str, new: str) -> str:
    """`text` with the first `old` after the unique `anchor` replaced by `new`."""
    assert text.count(anchor) == 1, anchor
    i = text.index(old, text.index(anchor))
    return text[:i] + new + text[i + len(old) :]


def first_inverse_entry(text: str, i: int) -> str:
    start = L.block_start(text, f"def wit_{i} :")
    return str(L.read_field(text, "inv", start)[0][0])


# (family, what is tampered, tamper, facts that must now fail; every other fact still passes)
TAMPERS: list[tuple[str, str, Callable[[str], str], set[int]]] = [
    ("demo", "an entry of the inverse",
     lambda t: swap(t, "def wit_0 :", "inv :=\n      [[" + first_inverse_entry(t, 0),
                    "inv :=\n      [[" + str(int(first_inverse_entry(t, 0)) + 1)), {0}),
    ("demo", "a sample point",
     lambda t: swap(t, "def wit_0 :", "[[0], [1], [2]]", "[[0], [1], [3]]"), {0}),
    ("demo", "the number of functions k",
     lambda t: swap(t, "theorem fact_0 :", "wit_0 3 =", "wit_0 2 ="), {0}),
    ("demo", "the relation lam", lambda t: swap(t, "def lam_1 :", "[3, -3, 1]", "[3, -3, 2]"), {1}),
    ("demo", "sigma of a dependence (cubic: the z^3 coefficient 3 - 24 + 27 is not zero)",
     lambda t: swap(t, "def sigma_1 :", "[(0, 1), (1, 1), (1, 1)]",
                    "[(0, 1), (1, 1), (1, 1), (1, 1)]"), {1}),
    ("demo", "the top degree of dependent_all",
     lambda t: swap(t, "theorem fact_2 :", "lam_2 1 2 =", "lam_2 1 3 ="), {2}),
    ("demo", "the lowest degree of dependent_all (z^0 = 1)",
     lambda t: swap(t, "theorem fact_2 :", "lam_2 1 2 =", "lam_2 0 2 ="), {2}),
    ("demo", "Delta_2", lambda t: swap(t, "def d2_3 :", "(6, 1)", "(7, 1)"), {3}),
    ("demo", "Delta_3", lambda t: swap(t, "def d3_3 :", "(27, 1)", "(27, 2)"), {3}),
    ("demo", "sigma(0) of Prop. 3.3",
     lambda t: swap(t, "def sigma_4 :", "[(0, 1), (1, 1), (1, 1)]", "[(1, 1), (1, 1), (1, 1)]"),
     {4}),
    ("demo", "a shared polynomial",
     lambda t: swap(t, "def polys :", "[((3, 1), [1])]", "[((4, 1), [1])]"), {0, 1, 2}),
    ("demo", "the shared bias flag", lambda t: swap(t, "def bias :", "false", "true"), {0, 1, 2}),
    ("demo", "a hidden neuron duplicated (a subnetwork)",
     lambda t: swap(t, "def theta_5 :", "[1, 2, 1, 1]", "[1, 1, 1, 1]"), {5}),
    ("demo", "a hidden neuron switched off (a subnetwork)",
     lambda t: swap(t, "def theta_5 :", "[1, 2, 1, 1]", "[1, 2, 0, 1]"), {5}),
    ("demo", "the minimal degree of sigma",
     lambda t: swap(t, "theorem fact_5 :", "theta_5 2 =", "theta_5 3 ="), {5}),
    ("demo", "the widths (weights no longer fit)",
     lambda t: swap(t, "def widths_5 :", "[1, 2, 1]", "[1, 3, 1]"), {5}),
    ("bias", "an inverse of a denominator of a polynomial",
     lambda t: swap(t, "def wit_7 :", f"[[{pow(2, -1, P)}, 1]", "[[2, 1]"), {7}),
    ("bias", "the inverse of a denominator of sigma",
     lambda t: swap(t, "def wit_7 :", f", {pow(3, -1, P)}]", ", 3]"), {7}),
    ("bias", "the prime", lambda t: swap(t, "def wit_7 :", f"{P},", "2147483648,"), {7}),
    ("bias", "the shared number of variables", lambda t: swap(t, "def nvars :", "2", "3"), {7, 8}),
    ("bias", "the relation of the constant sigma",
     lambda t: swap(t, "def lam_8 :", "[5, -1, 0]", "[5, -1, 1]"), {8}),
    ("bias", "a denominator of sigma",
     lambda t: swap(t, "def sigma_10 :", "(1, 3)", "(1, 0)"), {10}),
]  # fmt: skip


@pytest.mark.parametrize("family,what,tamper,failing", TAMPERS, ids=[t[1] for t in TAMPERS])
def test_a_tampered_literal_makes_the_python_twin_reject_exactly_the_facts_using_it(
    family: str, what: str, tamper: Callable[[str], str], failing: set[int]
):
    meta, facts = FAMILIES[family]()
    text = render(meta, facts)
    bad = tamper(text)
    assert bad != text
    assert verdicts(bad) == {f["index"]: f["index"] not in failing for f in facts}, what


@pytest.mark.parametrize("family", FAMILIES)
def test_the_rendered_file_has_the_shape_a_renderer_reads(family: str):
    meta, facts = FAMILIES[family]()
    text = render(meta, facts)
    mod = meta["module"]
    assert text.startswith("import NNCert\n\n/-!\n")
    assert f"\nnamespace {mod}\n" in text and text.endswith(f"\nend {mod}\n")
    assert f"def nvars : Nat := {meta['nvars']}\n" in text
    assert f"def polys : List (List ((Int × Int) × List Nat)) :=\n  {meta['polys']}\n" in text
    assert f"def bias : Bool := {meta['bias']}\n" in text
    theorems = THEOREM.findall(text)
    assert [int(i) for i, _, _ in theorems] == [f["index"] for f in facts]
    assert len(re.findall(r"^theorem ", text, re.M)) == len(facts)
    assert text.count("by decide +kernel") == len(facts)
    assert text.count("set_option maxRecDepth 100000 in\nset_option maxHeartbeats 0 in\n") == len(
        facts
    )
    # one literal per `:=`: every `name :=` of a def or witness field is followed by a literal,
    # except the instance fields, which name defs
    for m in re.finditer(r"([\w']+)\s*(?::[^=\n]*)?:=\s*(\S+)", text):
        name, value = m.group(1), m.group(2)
        if value.startswith(("Certificates.", "sigma_", "by")) or name == "inst":
            continue
        assert re.match(r"[\[(\-\d]|true|false|\{", value), (name, value)
    for pattern, why in FORBIDDEN:
        assert not re.search(pattern, text, re.M), why
    assert not _layout_problems(text)


def test_the_instance_names_the_namespace_defs_in_full():
    meta, facts = demo_family()
    text = render(meta, facts)
    insts = [line for line in text.splitlines() if line.startswith("def inst_")]
    assert len(insts) == 3
    for line in insts:
        for field in ("nvars", "polys", "bias"):
            assert re.search(rf"[{{,] {field} := Certificates\.Compind_demo\.{field}[ ,]", line)


def test_the_template_keeps_a_multi_line_literal_inside_its_def():
    meta, facts = demo_family()
    polys = L.lean([[((1, 1), [1])], [((2, 1), [1])], [((3, 1), [1])]])
    meta = {**meta, "polys": polys.replace("], [", "],\n [")}
    inv = facts[0]["inv"]
    facts[0] = {**facts[0], "inv": inv.replace("], [", "],\n [")}
    text = render(meta, facts)
    assert "def polys : List (List ((Int × Int) × List Nat)) :=\n  [[((1, 1), [1])],\n   [(" in text
    assert "    inv :=\n      [[" in text and "],\n       [" in text
    assert verdicts(text) == {f["index"]: True for f in facts}


def test_the_compind_template_refuses_a_missing_variable_or_an_unknown_fact_kind():
    meta, facts = demo_family()
    with pytest.raises(jinja2.UndefinedError):
        render({k: v for k, v in meta.items() if k != "bias"}, facts)
    with pytest.raises(jinja2.UndefinedError):
        render(meta, [{k: v for k, v in facts[3].items() if k != "d3"}])
    with pytest.raises(jinja2.UndefinedError):
        render(meta, [{"index": 0, "kind": "rank", "sigma": "[]"}])
