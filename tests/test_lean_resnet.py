"""Static lint and parity tests of lean/NNCert/ResNet.lean and of the templates
templates/lean/resnet/rank.lean.j2, templates/lean/resnet/orbit.lean.j2,
templates/lean/resnet/implicit.lean.j2 and templates/lean/resnet/critical.lean.j2.

No Lean toolchain is available where these run, so they check what can be checked without one
(as tests/test_lean_library.py does for the rank library, whose helpers are reused here):
(a) no forbidden token, no layout hazard; (b) explicit structural recursion on a parameter that
a `match` takes apart, and no unused variable (`lake build --wfail`); (c) the name-by-name,
order-by-order and field-by-field correspondence with the Python twin
certify/checker/kernel/resnet.py; (d) the template, rendered with a small certificate built with
the Python twin, reads back literal by literal to data that the twin accepts, and rejects once
tampered (the rank template and the orbit template alike, over Q and over Q[z]/(z^g - 1));
(e) what the orbit, roots-of-unity, implicit-equation and diagnostics checks of the twin mean,
on instances with a known answer; (h) the orbit, implicit and critical templates read back and
checked like the rank template. That the twin computes what the kernel computes is
tests/test_conformance.py (Coq, vm_compute).
"""

from __future__ import annotations

import ast
import itertools
import random
import re
from fractions import Fraction
from math import comb
from pathlib import Path
from typing import Any

import jinja2
import pytest
from flint import nmod_mat

from certify.checker.kernel import resnet as R
from certify.checker.kernel.arith import (
    ARITH_Q,
    acts_mod,
    ints_q,
    rats_mod,
    rats_pos,
    unit_vec,
    zeros,
)
from certify.checker.kernel.lists import lattice
from certify.checker.kernel.net import degree_bound
from certify.checker.kernel.rank import LowerWitness, UpperWitness
from certify.render import literals as L
from tests.test_lean_library import (
    EXAMPLE_META,
    FORBIDDEN,
    JINJA,
    LEAN_DIR,
    LIBRARY,
    MODULES,
    ROOT,
    TEMPLATE_DIR,
    _documented,
    _layout_problems,
    _theorem,
    calls,
    camel,
    identifiers,
    lean_defs,
    lean_structure_types,
    lean_structures,
    library_defs,
    read_literal,
    read_structure,
    recursion_problems,
    snake,
    template_at,
    twin_dataclasses,
    unused_names,
)

RESNET = LEAN_DIR / "NNCert" / "ResNet.lean"
TEMPLATE = TEMPLATE_DIR / "resnet/rank.lean.j2"
ORBIT_TEMPLATE = TEMPLATE_DIR / "resnet/orbit.lean.j2"
IMPLICIT_TEMPLATE = TEMPLATE_DIR / "resnet/implicit.lean.j2"
CRITICAL_TEMPLATE = TEMPLATE_DIR / "resnet/critical.lean.j2"
TWIN = ROOT / "certify" / "checker" / "kernel" / "resnet.py"
COMPIND = LEAN_DIR / "NNCert" / "Compind.lean"

# Lean-only defs of ResNet.lean: (the def they serve, why they have no Python twin).
LEAN_ONLY = {
    "flipParamsFrom": (
        "flipParams",
        "structural index helper: `flip_params` enumerates `th` with `enumerate`",
    ),
    "layerSymmetricAt": (
        "layerSymmetric",
        "the loop over range_from(0, len(cs)) in layer_symmetric, as structural recursion on "
        "the list of points",
    ),
    "rootParamsFrom": (
        "rootParams",
        "structural index helper: `root_params` enumerates `th` with `enumerate`",
    ),
    "paramTermsFrom": (
        "paramTerms",
        "structural index helper: `param_terms` enumerates `free` with `enumerate`",
    ),
    "coeffsXFrom": (
        "coeffsX",
        "the comprehension over range(degree + 1) in coeffs_x, as structural recursion on the "
        "count",
    ),
    "zeroRowsIn": (
        "zeroRowsFrom",
        "the inner loop (over the neurons) of the comprehension in zero_rows",
    ),
    "zeroRowsFrom": (
        "zeroRows",
        "the outer loop (over the layers) of the comprehension in zero_rows",
    ),
    "rowsZeroFrom": ("layerDead", "the all(...) over range(n) in layer_dead"),
    "deadLayersFrom": (
        "deadLayers",
        "the comprehension over range(len(inst.acts)) in dead_layers",
    ),
    "eqPairs": (
        "checkDiagnostics",
        "the list comparison rows == zero_rows(inst) in check_diagnostics, as structural "
        "recursion (no DecidableEq instance of List on the kernel path; the list of naturals "
        "is compared with Compind's expsEq)",
    ),
    "decAt": (
        "polyDeriv",
        "the nested dec_at of poly_deriv (a slice), as structural recursion on the exponents",
    ),
    "removeAt": (
        "expandRow",
        "the slice [*row[:j], *row[j + 1:]] of det_terms, as structural recursion on the row",
    ),
    "expandRow": (
        "detTerms",
        "the loop over reversed(range(len(r))) in det_terms, as structural recursion on the "
        "first row (each entry's term put in front of the sum of the later ones)",
    ),
    "multiplesOk": (
        "checkCriticalLocus",
        "the multiples_ok all(...) over zip(ms, cofs) in check_critical_locus, with its length "
        "check, as structural recursion on the minors",
    ),
}

SIGNATURES = [
    "def checkRankLowerResnet (inst : ResNetInstance) (w : LowerWitness) (r : Nat) : Bool :=",
    "def checkRankUpperResnet (inst : ResNetInstance) (w : UpperWitness) (u : Nat) : Bool :=",
    "def checkOrbitGenerator (inst : ResNetInstance) (layer neuron : Nat) (t0 : Int × Int)",
    "    (th2 : List (Int × Int)) : Bool :=",
    "def checkLayerSymmetry (inst : ResNetInstance) (layer g : Nat) (t0 : Int × Int) : Bool :=",
    "def checkRootGenerator (inst : ResNetInstance) (layer neuron g : Nat) (t0 : Int × Int)",
    "    (th2 : List (List (Int × Int))) : Bool :=",
    "def checkImplicit (inst : ResNetInstance) (free : List Bool) (degree : Nat)",
    "    (eq : List ((Int × Int) × List Nat)) : Bool :=",
    "def checkDiagnostics (inst : ResNetInstance) (rows : List (Nat × Nat)) (dead : List Nat) : "
    "Bool :=",
]
FIELD_TYPES = {
    "ResNetInstance": {
        "width": "Nat",
        "acts": "List (List (Int × Int))",
        "outer": "Bool",
        "theta": "List (Int × Int)",
    }
}
NAT_FIELDS = {"width"}  # Python `int` fields that are counts, hence `Nat` in Lean

P = 2147483647  # prime, below 2^31
SQUARE = [(0, 1), (0, 1), (1, 1)]  # sigma(t) = t^2


# ---------------------------------------------------------------- readers
def resnet_defs() -> list[Any]:
    return lean_defs(RESNET)


def lean_declarations(path: Path) -> list[str]:
    """Names of the top-level defs and structures, in file order."""
    return re.findall(r"^(?:def|structure) ([\w']+)", path.read_text(), re.M)


def twin_declarations() -> list[tuple[str, str]]:
    """(kind, name) of the public functions and dataclasses of kernel/resnet.py, in order."""
    out = []
    for node in ast.parse(TWIN.read_text()).body:
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
            out.append(("def", node.name))
        elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            out.append(("structure", node.name))
    return out


# ------------------------- (a) file header (tokens and layout: test_lean_library.py)
def test_the_resnet_file_names_its_python_twin_and_fills_the_nncert_namespace():
    text = RESNET.read_text()
    assert text.startswith("/-\n")
    head = text[: text.index("-/")]
    assert "certify/checker/kernel/resnet.py" in head and "(NNCert/ResNet)" in head
    assert "namespace NNCert\n" in text and text.rstrip().endswith("end NNCert")
    assert not re.search(r"^module\b", text, re.M)


def test_the_library_root_imports_resnet_last():
    imports = re.findall(r"^import (\S+)$", (LEAN_DIR / "NNCert.lean").read_text(), re.M)
    resnet = [f"NNCert.{m}" for m in MODULES] + ["NNCert.Compind", "NNCert.ResNet"]
    assert imports[: len(resnet)] == resnet  # later families (ReLU) follow


def test_resnet_imports_every_library_module_whose_defs_it_uses():
    imports = re.findall(r"^import NNCert\.(\w+)$", RESNET.read_text(), re.M)
    used = set().union(*(identifiers(d.body) for d in resnet_defs()))
    in_text = identifiers(RESNET.read_text())  # structure names in signatures
    modules = [*LIBRARY, COMPIND]
    needed = {d.path.stem for p in modules for d in lean_defs(p) if d.name in used}
    needed |= {p.stem for p in modules for s in lean_structures(p) if s in in_text}
    assert needed == {"Lists", "Arith", "Net", "RankCore", "Rank", "Compind"}
    order = [*MODULES, "Compind"]  # the order of NNCert.lean
    assert set(imports) == needed and imports == [m for m in order if m in needed]
    compind_used = {d.name for d in lean_defs(COMPIND) if d.name in used}
    assert compind_used == {
        "polyEval", "termCoeffs", "termExps", "expsOk", "polyMulT", "normalize", "zeroExps",
        "constTerm", "allZeroTerms", "expsEq", "powAr", "termsScale", "polysOk", "horner",
    }  # fmt: skip


# ---------------------------------------------------------------- (b) recursion and warnings
@pytest.mark.parametrize("d", resnet_defs(), ids=lambda d: d.name)
def test_every_recursive_resnet_def_recurses_structurally_on_a_matched_parameter(d):
    assert not recursion_problems(d), f"{d.name}: {recursion_problems(d)}"


@pytest.mark.parametrize("d", resnet_defs(), ids=lambda d: d.name)
def test_no_resnet_def_leaves_a_variable_unused(d):
    assert not unused_names(d), f"{d.name}: {unused_names(d)}"


def test_the_recursion_lint_sees_the_recursive_resnet_defs():
    recursive = {d.name for d in resnet_defs() if calls(d.body, d.name)}
    assert recursive == {
        "vecAdd", "resnetDual", "resnetBack", "resnetRowsFrom", "flipParamsFrom",
        "sameLayer", "cycAdd", "cycScale", "cycMulAcc", "cycsOk", "cycEqAll", "cycConsts",
        "cycInts", "layerSymmetricAt", "rootParamsFrom", "sameLayerCyc",
        "unitExps", "paramTermsFrom", "coeffX", "coeffsXFrom", "zeroRowsIn",
        "zeroRowsFrom", "rowsZeroFrom", "deadLayersFrom", "eqPairs", "prodDens",
        "clearDens", "zpolyAdd", "taylorInt", "offFrom", "negCoeffTerms",
        "decAt", "polyDeriv", "removeAt", "expandRow", "detTerms", "subsets", "multiplesOk",
        "distinctQ",
    }  # fmt: skip
    assert {d.name for d in resnet_defs() if d.termination} == recursive
    [dual] = [d for d in resnet_defs() if d.name == "resnetDual"]
    assert dual.termination == ["termination_by structural acts"]  # the Python loop over acts
    assert "cond outer" in dual.body
    [back] = [d for d in resnet_defs() if d.name == "resnetBack"]
    assert back.termination == ["termination_by structural acts"]  # one layer per activation


# ---------------------------------------------------------------- (c) twin names and order
def test_every_public_function_of_the_python_twin_has_a_camel_case_lean_def_and_back():
    python = {camel(name) for kind, name in twin_declarations() if kind == "def"}
    lean = {d.name for d in resnet_defs()}
    assert lean - python == set(LEAN_ONLY), f"Lean-only defs: {sorted(lean - python)}"
    assert python <= lean
    assert not set(LEAN_ONLY) & python, "a listed Lean-only def now has a Python twin"


def test_resnet_declarations_come_in_the_python_order():
    python = [camel(n) if k == "def" else n for k, n in twin_declarations()]
    assert [n for n in lean_declarations(RESNET) if n not in LEAN_ONLY] == python


def test_every_lean_only_helper_sits_just_before_its_only_caller_and_says_so():
    order = lean_declarations(RESNET)
    text = RESNET.read_text()
    for helper, (user, _why) in LEAN_ONLY.items():
        assert order.index(helper) + 1 == order.index(user), helper
        users = [d.name for d in resnet_defs() if calls(d.body, helper)]
        assert users == [helper, user], (helper, users)
        doc = text[: text.index(f"def {helper} ")].rsplit("/--", 1)[1]
        assert "Lean-only helper" in doc and f"`{user}`" in doc, helper
        assert f"`{helper}`" in text[: text.index("-/")], f"{helper} not named in the header"


def test_every_resnet_def_uses_only_declarations_above_it():
    order = lean_declarations(RESNET)
    for d in resnet_defs():
        later = {n for n in identifiers(d.body) if n in order and n != d.name}
        later = {n for n in later if order.index(n) > order.index(d.name)}
        assert not later, f"{d.name} uses {sorted(later)} before their definition"


def test_resnet_names_do_not_clash_with_the_rest_of_the_library():
    others = {d.name for d in library_defs()} | {d.name for d in lean_defs(COMPIND)}
    assert not {d.name for d in resnet_defs()} & others
    structures = {s for path in [*LIBRARY, COMPIND] for s in lean_structures(path)}
    assert not set(lean_structures(RESNET)) & structures


def test_the_resnet_structure_matches_the_python_dataclass_field_for_field():
    assert lean_structure_types(RESNET) == twin_dataclasses(TWIN, NAT_FIELDS) == FIELD_TYPES
    assert {n: list(f) for n, f in FIELD_TYPES.items()} == lean_structures(RESNET)


def test_the_checkers_have_the_agreed_signatures():
    lines = RESNET.read_text().splitlines()
    assert not [s for s in SIGNATURES if s not in lines]


def test_every_resnet_def_and_structure_has_a_docstring():
    lines = RESNET.read_text().splitlines()
    undocumented = [d.name for d in resnet_defs() if not d.documented]
    undocumented += [
        line
        for i, line in enumerate(lines)
        if line.startswith("structure ") and not _documented(lines, i)
    ]
    assert not undocumented


# A Python transcription, clause by clause, of the Lean `resnetDual` (structural recursion on
# acts, `cond outer`); it must agree with the loop of the twin on every edge case (ragged or
# short parameter lists, wrong input widths, no layers, n = 0).


# ---------------------------------------------------------------- (d) the template
def full_rank_cols(rows: list[list[int]], r: int) -> list[int]:
    """The first r columns (in lexicographic order of the r-subsets) on which the rows mod P
    have a nonsingular minor."""
    return next(
        list(c)
        for c in itertools.combinations(range(len(rows[0])), r)
        if nmod_mat([[row[j] for j in c] for row in rows], P).rank() == r
    )


def small_certificate() -> tuple[R.ResNetInstance, LowerWitness]:
    """n = 1, depth 2, sigma = t^2, theta = (w1, b1, w2, b2) = (1, 1/2, 2, -1/3), no outer
    matrices: F(x) = h + (2h - 1/3)^2 with h = x + (x + 1/2)^2; the 4 x 4 Jacobian minor on the
    samples 0, 1, 2, -1 is nonsingular mod P, so the rank is 4 (all parameters)."""
    theta = [(1, 1), (1, 2), (2, 1), (-1, 3)]
    inst = R.ResNetInstance(1, [SQUARE, SQUARE], False, theta)
    theta_inv = [pow(d, -1, P) for _, d in theta]
    acts_inv = [[1, 1, 1], [1, 1, 1]]
    samples = [[0], [1], [2], [-1]]
    rows = [(s, 0) for s in range(4)]
    J = R.resnet_rows_mod(
        P, 1, False, acts_mod(P, inst.acts, acts_inv), rats_mod(P, theta, theta_inv),
        samples, rows,
    )  # fmt: skip
    assert nmod_mat(J, P).rank() == 4
    return inst, LowerWitness(P, samples, theta_inv, acts_inv, rows, [0, 1, 2, 3])


def outer_certificate() -> tuple[R.ResNetInstance, LowerWitness, UpperWitness]:
    """n = 1, depth 2, sigma = t^2 with outer matrices: theta = (W1, b1, V1, W2, b2, V2) =
    (1, 1/2, 1, 2, -1/3, 1). Each layer V (W x + b)^2 keeps its value along (W, b, V) ->
    (c W, c b, V / c^2), so (2, 1, -4, 0, 0, 0) and (0, 0, 0, 6, -1, -6) are kernel vectors of
    the differential: rank 4 = 6 - 2, attained on the samples 0, 1, 2, -1."""
    theta = [(1, 1), (1, 2), (1, 1), (2, 1), (-1, 3), (1, 1)]
    inst = R.ResNetInstance(1, [SQUARE, SQUARE], True, theta)
    theta_inv = [pow(d, -1, P) for _, d in theta]
    acts_inv = [[1, 1, 1], [1, 1, 1]]
    samples = [[0], [1], [2], [-1]]
    rows = [(s, 0) for s in range(4)]
    thm = rats_mod(P, theta, theta_inv)
    am = acts_mod(P, inst.acts, acts_inv)
    cols = full_rank_cols(R.resnet_rows_mod(P, 1, True, am, thm, samples, rows), 4)
    lower = LowerWitness(P, samples, theta_inv, acts_inv, rows, cols)
    tangents = [[2, 1, -4, 0, 0, 0], [0, 0, 0, 6, -1, -6]]
    upper = UpperWitness(P, tangents, [0, 3], [])
    return inst, lower, upper


def render_resnet(meta: dict[str, str], inst: R.ResNetInstance, lower: LowerWitness, r: int,
                  upper: UpperWitness | None = None, bound: int = 0) -> str:  # fmt: skip
    """The template rendered with every value a ready-made Lean literal (`L.lean`)."""
    values: dict[str, Any] = {
        "width": inst.width, "acts": inst.acts, "outer": inst.outer, "theta": inst.theta,
        "p": lower.p, "samples": lower.samples, "theta_inv": lower.theta_inv,
        "acts_inv": lower.acts_inv, "rows": lower.rows, "cols": lower.cols,
    }  # fmt: skip
    context: dict[str, Any] = {k: L.lean(v) for k, v in values.items()}
    context["rank_lower"] = str(r)
    context["upper"] = None
    if upper is not None:
        context["upper"] = {
            "p": L.lean(upper.p),
            "tangents": L.lean(upper.tangents),
            "cols": L.lean(upper.cols),
            "moduli": L.lean(upper.moduli),
            "bound": str(bound),
        }
    return template_at(TEMPLATE).render(**meta, **context)


def read_resnet(text: str) -> dict[str, Any]:
    """Every literal of a rendered ResNet rank file, read back as kernel_resnet data."""
    kind, inst = read_structure(text, "inst")
    assert kind == "ResNetInstance"
    kind, lower = read_structure(text, "lower")
    assert kind == "LowerWitness"
    out: dict[str, Any] = {
        "inst": R.ResNetInstance(**inst),
        "lower": LowerWitness(**{snake(k): v for k, v in lower.items()}),
        "rank_lower": int(_theorem(text, "rank_lower_check", "checkRankLowerResnet", "lower")),
        "upper": None,
    }
    if re.search(r"^def upper\b", text, re.M):
        kind, upper = read_structure(text, "upper")
        assert kind == "UpperWitness"
        out["upper"] = UpperWitness(**upper)
        out["bound"] = int(_theorem(text, "rank_upper_check", "checkRankUpperResnet", "upper"))
    return out


META = {**EXAMPLE_META, "module": "Certificates.ResNet_small", "name": "small",
        "claim": "A width-1, depth-2 ResNet with sigma = t^2 has Jacobian rank 4."}  # fmt: skip


def swap(text: str, anchor: str, old: str, new: str) -> str:
    """`text` with the first `old` after the unique `anchor` replaced by `new`."""
    assert text.count(anchor) == 1, anchor
    i = text.index(old, text.index(anchor))
    return text[:i] + new + text[i + len(old) :]


def test_the_small_certificate_renders_reads_back_and_passes_the_python_twin():
    inst, lower = small_certificate()
    text = render_resnet(META, inst, lower, 4)
    cert = read_resnet(text)
    assert cert["inst"] == inst and cert["lower"] == lower and cert["upper"] is None
    assert cert["rank_lower"] == 4
    assert R.check_rank_lower_resnet(cert["inst"], cert["lower"], cert["rank_lower"]) is True
    assert text.startswith("import NNCert\n\n/-!\n")
    assert "namespace Certificates.ResNet_small\n" in text
    assert text.endswith("\nend Certificates.ResNet_small\n")
    assert "def inst : NNCert.ResNetInstance :=\n  { width :=\n      1,\n    acts :=\n" in text
    assert "    outer :=\n      false,\n    theta :=\n" in text
    assert "rank_upper_check" not in text and "def upper" not in text
    assert not _layout_problems(text)
    assert not [line for line in text.splitlines() for pat, _ in FORBIDDEN if re.search(pat, line)]


def test_the_rendered_file_differs_from_the_rank_template_only_where_it_should():
    inst, lower = small_certificate()
    text = render_resnet(META, inst, lower, 4)
    rank = JINJA.get_template("mlp/rank.lean.j2").render(
        **META, widths="[1, 1]", acts=L.lean(inst.acts), bias="false", theta=L.lean(inst.theta),
        p=L.lean(lower.p), samples=L.lean(lower.samples), theta_inv=L.lean(lower.theta_inv),
        acts_inv=L.lean(lower.acts_inv), rows=L.lean(lower.rows), cols=L.lean(lower.cols),
        rank_lower="4", upper=None,
    )  # fmt: skip
    start = rank.index("def lower :")
    assert text[text.index("def lower :") :].replace("checkRankLowerResnet", "checkRankLower") == (
        rank[start:].replace("f_theta", "F_theta")
    )


@pytest.mark.parametrize(
    "what,anchor,old,new",
    [
        ("a column", "def lower :", "[0, 1, 2, 3]", "[0, 1, 2, 2]"),
        ("a row label", "def lower :", "[(0, 0), (1, 0)", "[(0, 0), (0, 0)"),
        # No inverse is shipped: a changed sample or parameter that keeps the minor nonsingular
        # is a true certificate of another instance, so the tampering must break the claim.
        ("a duplicated sample", "def lower :", "[[0], [1], [2], [-1]]", "[[0], [1], [2], [2]]"),
        ("the outer flag", "def inst :", "false", "true"),
        ("the width", "def inst :", "width :=\n      1", "width :=\n      2"),
        ("a parameter's denominator", "def inst :", "(2, 1)", "(2, 0)"),
        ("the claimed rank", "theorem rank_lower_check :", "lower 4 =", "lower 5 ="),
        ("the prime", "def lower :", f"{P},", "2147483648,"),
    ],
)
def test_a_tampered_small_certificate_fails_the_python_twin(what, anchor, old, new):
    inst, lower = small_certificate()
    text = swap(render_resnet(META, inst, lower, 4), anchor, old, new)
    cert = read_resnet(text)
    assert (cert["inst"], cert["lower"], cert["rank_lower"]) != (inst, lower, 4), what
    assert R.check_rank_lower_resnet(cert["inst"], cert["lower"], cert["rank_lower"]) is False


def test_the_outer_certificate_with_an_upper_witness_reads_back_and_passes_the_python_twin():
    inst, lower, upper = outer_certificate()
    meta = {**META, "module": "Certificates.ResNet_outer", "name": "outer"}
    text = render_resnet(meta, inst, lower, 4, upper, 4)
    cert = read_resnet(text)
    assert cert["inst"] == inst and cert["lower"] == lower and cert["upper"] == upper
    assert R.check_rank_lower_resnet(cert["inst"], cert["lower"], cert["rank_lower"]) is True
    assert R.check_rank_upper_resnet(cert["inst"], cert["upper"], cert["bound"]) is True
    assert not R.check_rank_lower_resnet(cert["inst"], cert["lower"], 5)
    assert not R.check_rank_upper_resnet(cert["inst"], cert["upper"], 3)
    bad = UpperWitness(P, [[2, 1, -4, 0, 0, 0], [0, 0, 0, 6, -1, -5]], upper.cols, [])
    assert not R.check_rank_upper_resnet(inst, bad, 4)  # not a kernel vector
    same = UpperWitness(P, upper.tangents, [0, 0], [])
    assert not R.check_rank_upper_resnet(inst, same, 4)  # a singular minor
    assert "    moduli :=\n      [] }\n" in text
    assert not _layout_problems(text)


def test_the_resnet_template_refuses_a_missing_variable():
    with pytest.raises(jinja2.UndefinedError):
        template_at(TEMPLATE).render(module="M", width="1")


# ---------------------------------------------------------------- (e) orbits
# Python transcriptions, clause by clause, of the Lean orbit defs, with Lean's `Nat`
# arithmetic: truncated subtraction, `k / 0 = 0`, `k % 0 = k`. Every Bool of a `&&` chain is
# computed (Lean's `&&` is a total function; the order only matters for the Python twin).
def random_instance(rng: random.Random, acts_pool: list) -> R.ResNetInstance:
    """A small, often well formed, sometimes broken ResNet instance."""
    n = rng.choice((0, 1, 1, 2, 2))
    outer = rng.random() < 0.3
    acts = [rng.choice(acts_pool) for _ in range(rng.choice((0, 1, 1, 2, 2)))]
    size = len(acts) * R.layer_size(n, outer) + rng.choice((0, 0, 0, 0, 1, -1))
    theta = [(rng.randrange(-2, 3), rng.choice((1, 1, 2, 3))) for _ in range(max(size, 0))]
    if theta and rng.random() < 0.15:
        i = rng.randrange(len(theta))
        theta[i] = (theta[i][0], rng.choice((0, -1)))  # a denominator that is not positive
    return R.ResNetInstance(n, acts, outer, theta)


ACTS_POOL = [
    [(0, 1), (0, 1), (1, 1)],  # t^2
    [(1, 1), (0, 1), (1, 2)],  # 1 + t^2 / 2
    [(0, 1), (1, 1)],  # t
    [(1, 1)],  # constant: rejected
    [(0, 1), (0, 1), (0, 1), (1, 1)],  # t^3
    [(-1, 1), (3, 1), (-3, 1), (1, 1)],  # (t - 1)^3
    [(0, 1), (1, 1), (0, 1), (1, 1)],  # t + t^3, odd
    [(0, 1), (0, 1), (1, 1), (0, 1), (1, 1)],  # t^2 + t^4, even
    [(1, 1), (0, 1), (0, 1), (0, 1), (2, -1)],  # negative denominator
]


def test_same_layer_compares_only_its_own_layer():
    """Changing the parameters of another layer leaves `same_layer` true; the check of the
    flip itself (`qeq_all`) is what ties th2 to theta everywhere else."""
    inst = R.ResNetInstance(1, [SQUARE, SQUARE], False, [(2, 1), (1, 1), (3, 1), (-1, 1)])
    other = [(2, 1), (1, 1), (5, 1), (7, 1)]  # layer 1 changed
    pts = lattice(1, 2)
    assert R.same_layer(inst, 0, other, pts)
    assert not R.same_layer(inst, 1, other, pts)
    th2 = R.flip_params(1, False, 0, 0, (0, 1), inst.theta)
    assert R.check_orbit_generator(inst, 0, 0, (0, 1), th2) is True
    tampered = [*th2[:2], (5, 1), (7, 1)]
    assert R.same_layer(inst, 0, tampered, pts)
    assert R.check_orbit_generator(inst, 0, 0, (0, 1), tampered) is False
    assert R.check_orbit_generator(inst, 0, 0, (0, 1), tampered) is False


def sigma_even() -> list[tuple[int, int]]:
    """sigma(t) = t^4 + t^2, even, so -1 is a root of unity at t0 = 0."""
    return [(0, 1), (0, 1), (1, 1), (0, 1), (1, 1)]


def orbit_instance() -> R.ResNetInstance:
    theta = [(2, 1), (1, 1), (3, 1), (-1, 1)]
    return R.ResNetInstance(1, [sigma_even(), sigma_even()], False, theta)


def test_only_the_flipped_layers_activation_needs_the_symmetry():
    """Layer 0 is even, layer 1 is odd: flipping in layer 0 at 0 keeps F, in layer 1 it does
    not (checked on the lattice of degree deg sigma_layer only)."""
    cube_plus = [(0, 1), (1, 1), (0, 1), (1, 1)]
    inst = R.ResNetInstance(1, [SQUARE, cube_plus], False, [(2, 1), (1, 1), (3, 1), (-1, 2)])
    for layer, want in [(0, True), (1, False)]:
        th2 = R.flip_params(1, False, layer, 0, (0, 1), inst.theta)
        assert R.check_orbit_generator(inst, layer, 0, (0, 1), th2) is want
        assert R.check_orbit_generator(inst, layer, 0, (0, 1), th2) is want


# ---------------------------------------------------------------- (f) roots of unity
# Python transcriptions of the Lean defs over Q[z]/(z^g - 1) (structural recursion on the
# first list; `cycRot` through `List.reverse`, as the Lean def).


def frac(r: tuple[int, int]) -> Fraction:
    return Fraction(r[0], r[1])


def fracs(xs: list) -> list[Fraction]:
    return [frac(x) for x in xs]


def random_rats(rng: random.Random, k: int) -> list[tuple[int, int]]:
    return [(rng.randrange(-4, 5), rng.randrange(1, 4)) for _ in range(k)]


def test_the_product_is_the_product_modulo_z_to_the_g_minus_1():
    rng = random.Random(18)
    for _ in range(500):
        g = rng.randrange(1, 6)
        a, b = random_rats(rng, rng.randrange(2 * g + 1)), random_rats(rng, g)
        want = [Fraction(0)] * g
        for i, x in enumerate(fracs(a)):
            for j, y in enumerate(fracs(b)):
                want[(i + j) % g] += x * y
        assert fracs(R.cyc_mul(a, b)) == want
        c = random_rats(rng, g)
        ab_c, a_bc = R.cyc_mul(R.cyc_mul(a[:g], b), c), R.cyc_mul(a[:g], R.cyc_mul(b, c))
        assert fracs(ab_c) == fracs(a_bc)
        assert fracs(R.cyc_mul(b, c)) == fracs(R.cyc_mul(c, b))
        assert fracs(R.cyc_mul(R.cyc_const(g, (1, 1)), b)) == fracs(b)
        z_to_g = R.cyc_const(g, (1, 1))
        for _k in range(g):
            z_to_g = R.cyc_mul(R.cyc_z(g), z_to_g)
        assert fracs(z_to_g) == fracs(R.cyc_const(g, (1, 1)))  # z^g = 1


def taylor_at(cs: list[tuple[int, int]], t0: tuple[int, int]) -> list[Fraction]:
    """d_k with sigma(t0 + s) = sum_k d_k s^k."""
    c, t = fracs(cs), frac(t0)
    return [sum(c[m] * comb(m, k) * t ** (m - k) for m in range(k, len(c))) for k in range(len(c))]


def test_layer_symmetric_holds_iff_sigma_of_t0_plus_s_is_a_polynomial_in_s_to_the_g():
    """sigma(t0 + z s) = sigma(t0 + s) in Q[z]/(z^g - 1) for all s iff d_k (z^k - 1) = 0 for
    every k, i.e. d_k = 0 unless g divides k; the Lean transcription and the twin agree."""
    rng = random.Random(19)
    seen = {True: 0, False: 0}
    for _ in range(600):
        g = rng.randrange(1, 5)
        t0 = (rng.randrange(-2, 3), rng.randrange(1, 3))
        # sigma(t) = sum_j e_j (t - t0)^j with e_j = 0 for most j not divisible by g
        deg = rng.randrange(1, 6)
        e = [Fraction(rng.randrange(-2, 3)) if j % g == 0 or rng.random() < 0.15 else Fraction(0)
             for j in range(deg + 1)]  # fmt: skip
        poly = [Fraction(0)] * (deg + 1)
        for j, ej in enumerate(e):
            for m in range(j + 1):
                poly[m] += ej * comb(j, m) * (-frac(t0)) ** (j - m)
        cs = [(x.numerator, x.denominator) for x in poly]
        want = all(d == 0 for k, d in enumerate(taylor_at(cs, t0)) if k % g)
        assert R.layer_symmetric(g, cs, t0) is want, (g, cs, t0)
        assert R.layer_symmetric(g, cs, t0) is want
        seen[want] += 1
    assert min(seen.values()) > 50
    assert R.layer_symmetric(3, [(0, 1), (0, 1), (0, 1), (1, 1)], (0, 1))  # t^3 under mu_3
    assert not R.layer_symmetric(3, [(0, 1), (0, 1), (1, 1)], (0, 1))  # t^2 is not
    assert R.layer_symmetric(1, [(5, 1), (-7, 2), (1, 3)], (2, 5))  # mu_1 = {1}


def test_the_root_action_at_z_equal_to_minus_1_is_the_flip():
    """For g = 2, evaluating the coefficients (a, b) of a + b z at z = -1 gives the flip."""
    rng = random.Random(22)
    for _ in range(500):
        n, outer = rng.randrange(1, 4), rng.random() < 0.5
        layer, neuron = rng.randrange(3), rng.randrange(n + 1)
        t0 = (rng.randrange(-5, 6), rng.randrange(1, 5))
        th = random_rats(rng, rng.randrange(3 * R.layer_size(n, outer)))
        roots = R.root_params(n, outer, layer, neuron, 2, t0, th)
        flips = R.flip_params(n, outer, layer, neuron, t0, th)
        assert [frac(a) - frac(b) for a, b in roots] == fracs(flips)
        assert [frac(a) + frac(b) for a, b in roots] == fracs(th)  # z = 1: unchanged


CUBE = [(0, 1), (0, 1), (0, 1), (1, 1)]  # t^3: symmetric under mu_3 at 0
CUBE_AT_1 = [(-1, 1), (3, 1), (-3, 1), (1, 1)]  # (t - 1)^3: symmetric under mu_3 at 1


def root_instance() -> R.ResNetInstance:
    """Width 1, depth 2: layer 0 is t^3, layer 1 is (t - 1)^3."""
    return R.ResNetInstance(1, [CUBE, CUBE_AT_1], False, [(2, 1), (1, 1), (3, 1), (-1, 2)])


def test_the_root_generator_for_g_2_decides_as_the_orbit_generator():
    """Q[z]/(z^2 - 1) = Q x Q (z = 1, z = -1): at z = 1 nothing moves, at z = -1 it is the flip."""
    rng = random.Random(24)
    agree = {True: 0, False: 0}
    pool = [SQUARE, sigma_even(), CUBE, [(0, 1), (1, 1), (0, 1), (1, 1)], [(1, 1), (0, 1), (1, 2)]]
    for _ in range(200):
        inst = random_instance(rng, pool)
        if not inst.width:
            continue
        layer, neuron = rng.randrange(3), rng.randrange(3)
        t0 = (rng.choice((0, 0, 0, 1)), rng.choice((1, 1, 2)))
        flips = R.flip_params(inst.width, inst.outer, layer, neuron, t0, inst.theta)
        roots = R.root_params(inst.width, inst.outer, layer, neuron, 2, t0, inst.theta)
        want = R.check_orbit_generator(inst, layer, neuron, t0, flips)
        assert R.check_root_generator(inst, layer, neuron, 2, t0, roots) is want
        assert R.check_root_generator(inst, layer, neuron, 2, t0, roots) is want
        agree[want] += 1
    assert min(agree.values()) > 5


# ---------------------------------------------------------------- (g) implicit equations
# Python transcriptions of the Lean defs of the implicit-equation section; the polynomial
# arithmetic is that of NNCert.Compind (whose Lean transcriptions tests/test_lean_compind.py
# checks), so its Python twin stands in for it here.


def random_terms(rng: random.Random, nvars: int, count: int, emax: int = 2) -> list:
    return [
        (
            (rng.randrange(-3, 4), rng.randrange(1, 3)),
            [rng.randrange(emax + 1) for _ in range(nvars)],
        )
        for _ in range(count)
    ]


def eval_terms(ts: list, values: list[Fraction]) -> Fraction:
    out = Fraction(0)
    for c, es in ts:
        term = frac(c)
        for v, e in zip(values, es, strict=True):
            term *= v**e
        out += term
    return out


def scalar_instance(rng: random.Random) -> tuple[R.ResNetInstance, list[bool]]:
    """A width-1 ResNet (depth 1 or 2, activations of degree <= 2) and a random mask."""
    acts = [rng.choice((SQUARE, [(1, 1), (-1, 2), (1, 1)], [(0, 1), (2, 1)], [(1, 3), (1, 1)]))
            for _ in range(rng.choice((1, 1, 2)))]  # fmt: skip
    outer = rng.random() < 0.3
    P = R.resnet_params(1, acts, outer)
    theta = random_rats(rng, P)
    return R.ResNetInstance(1, acts, outer, theta), [rng.random() < 0.7 for _ in range(P)]


def test_the_scalar_map_is_f_theta_as_a_polynomial_in_the_parameters_and_x():
    rng = random.Random(32)
    for _ in range(60):
        inst, free = scalar_instance(rng)
        ts = R.scalar_map_terms(inst, free)
        assert R.scalar_map_terms(inst, free) == ts
        for _ in range(3):
            theta = [(rng.randrange(-3, 4), rng.randrange(1, 3)) if f else (0, 1) for f in free]
            x = rng.randrange(-3, 4)
            h = R.resnet_dual(ARITH_Q, 1, inst.outer, inst.acts, theta,
                              zeros(ARITH_Q, len(theta)), [(x, 1)], [(0, 1)])  # fmt: skip
            assert eval_terms(ts, [*fracs(theta), Fraction(x)]) == frac(h[0][0])
        cs = R.coeffs_x(ts, len(free), degree_bound(inst.acts))
        assert sum(len(c) for c in cs) == len(ts)  # no term of degree above D in x
        assert all(es[len(free)] == 0 for c in cs for _, es in c)


def square_equation() -> list:
    """(c1 - 1)^2 - 4 c0 c2 = 0 on F(x) = x + (w x + b)^2 = b^2 + (1 + 2 w b) x + w^2 x^2."""
    return [((1, 1), [0, 2, 0]), ((-2, 1), [0, 1, 0]), ((1, 1), [0, 0, 0]), ((-4, 1), [1, 0, 1])]


# ---------------------------------------------------------------- (h) orbit and implicit files
def render_orbit(meta: dict[str, str], inst: R.ResNetInstance, gens: list[tuple],
                 syms: list[tuple] | None = None, complex_: bool = False,
                 orbit: list | None = None, coeffs: list | None = None,
                 listed: list | None = None) -> str:  # fmt: skip
    """The orbit template rendered with every value a ready-made Lean literal (`L.lean`). A
    generator is `(layer, neuron, t0, theta)` over Q and `(layer, neuron, g, t0, theta)` over
    Q[z]/(z^g - 1) (the arguments of the checker after `inst`); a symmetry is `(layer, g, t0)`;
    `orbit` (the trivial group's orbit), `coeffs` (F_theta's coefficients) and `listed` (a
    real orbit checked by checkResnetOrbit) are optional."""
    rows = [g if complex_ else (g[0], g[1], 2, *g[2:]) for g in gens]
    context: dict[str, Any] = {
        "width": L.lean(inst.width), "acts": L.lean(inst.acts), "outer": L.lean(inst.outer),
        "theta": L.lean(inst.theta), "complex": complex_, "trivial": orbit is not None,
        "theorem": listed is not None, "cplx": L.lean(complex_),
        "orbit": L.lean(orbit) if orbit is not None else (
            None if listed is None else L.lean(listed)),
        "coeffs": None if coeffs is None else L.lean(coeffs),
        "syms": [
            {"index": j, "layer": L.lean(layer), "g": L.lean(g), "t0": L.lean(t0)}
            for j, (layer, g, t0) in enumerate(syms or [])
        ],
        "gens": [
            {"index": i, "layer": L.lean(layer), "neuron": L.lean(neuron), "g": L.lean(g),
             "t0": L.lean(t0), "theta": L.lean(th)}
            for i, (layer, neuron, g, t0, th) in enumerate(rows)
        ],
    }  # fmt: skip
    return template_at(ORBIT_TEMPLATE).render(**meta, **context)


THEOREM = r"^set_option maxRecDepth 100000 in\nset_option maxHeartbeats 0 in\ntheorem "
KERNEL = r" = true := by decide \+kernel$"


def read_orbit(text: str) -> tuple[R.ResNetInstance, list[tuple], list[tuple]]:
    """The instance, every symmetry (layer, g, t0) and every generator (the arguments of its
    checker after `inst`) of a rendered orbit file."""
    kind, inst = read_structure(text, "inst")
    assert kind == "ResNetInstance"
    sym_t0s = dict(re.findall(r"^def sym_t0_(\d+) : Int × Int :=\n  (.*)$", text, re.M))
    t0s = dict(re.findall(r"^def t0_(\d+) : Int × Int :=\n  (.*)$", text, re.M))
    thetas = dict(re.findall(
        r"^def theta_(\d+) : List (?:\(Int × Int\)|\(List \(Int × Int\)\)) :=\n  (.*?)\n\n",
        text, re.M | re.S,
    ))  # fmt: skip
    sym_thms = re.findall(
        THEOREM + r"sym_(\d+) : NNCert\.checkLayerSymmetry inst (\d+) (\d+) sym_t0_(\d+)" + KERNEL,
        text, re.M,
    )  # fmt: skip
    real = re.findall(
        THEOREM + r"gen_(\d+) : NNCert\.checkOrbitGenerator inst (\d+) (\d+) t0_(\d+) theta_(\d+)"
        + KERNEL, text, re.M,
    )  # fmt: skip
    cyc = re.findall(
        THEOREM + r"gen_(\d+) : NNCert\.checkRootGenerator inst (\d+) (\d+) (\d+) t0_(\d+) "
        r"theta_(\d+)" + KERNEL, text, re.M,
    )  # fmt: skip
    assert not (real and cyc), "a file is over Q or over Q[z]/(z^g - 1), not both"
    assert len(sym_thms) == len(sym_t0s)
    assert len(real) + len(cyc) == len(t0s) == len(thetas)
    listed = re.findall(THEOREM + r"orbit_check : NNCert\.checkResnetOrbit inst orbit" + KERNEL,
                        text, re.M)  # fmt: skip
    assert len(sym_thms) + len(real) + len(cyc) + len(listed) == text.count("\ntheorem ")
    syms = []
    for j, layer, g, k in sym_thms:
        assert j == k
        syms.append((int(layer), int(g), read_literal(sym_t0s[j])))
    gens: list[tuple] = []
    for i, layer, neuron, j, k in real:
        assert i == j == k
        gens.append((int(layer), int(neuron), read_literal(t0s[i]), read_literal(thetas[i])))
    for i, layer, neuron, g, j, k in cyc:
        assert i == j == k
        th = read_literal(thetas[i])
        gens.append((int(layer), int(neuron), int(g), read_literal(t0s[i]), th))
    return R.ResNetInstance(**inst), syms, gens


def lean_explicit_arity(name: str) -> int:
    [d] = [d for d in resnet_defs() if d.name == name]
    return len(d.explicit)


def assert_theorems_call_the_library_with_its_arity(text: str) -> None:
    """Every `theorem … : NNCert.f a1 … ak = true` passes f exactly its explicit arguments."""
    found = re.findall(r"^theorem \w+ : NNCert\.(\w+) ((?:[\w.]+ )*[\w.]+) = true", text, re.M)
    assert found and len(found) == text.count("\ntheorem ")
    for name, args in found:
        assert len(args.split()) == lean_explicit_arity(name), (name, args)


ORBIT_META = {
    **EXAMPLE_META,
    "module": "Certificates.ResNetOrbit_even",
    "name": "even",
    "claim": "Flipping the neuron of layer 0 at t0 = 0 keeps F_theta unchanged.",
}


def test_the_orbit_certificate_renders_reads_back_and_passes_the_python_twin():
    inst = orbit_instance()
    th2 = R.flip_params(1, False, 0, 0, (0, 1), inst.theta)
    assert th2 == [(-2, 1), (-1, 1), (3, 1), (-1, 1)]
    text = render_orbit(ORBIT_META, inst, [(0, 0, (0, 1), th2)], [(0, 2, (0, 1))])
    back, syms, gens = read_orbit(text)
    assert back == inst and syms == [(0, 2, (0, 1))] and gens == [(0, 0, (0, 1), th2)]
    assert R.check_orbit_generator(back, *gens[0]) is True
    assert R.check_orbit_generator(back, *gens[0]) is True
    assert R.check_layer_symmetry(back, *syms[0]) is True
    assert R.check_layer_symmetry(back, *syms[0]) is True
    assert text.startswith("import NNCert\n\n/-!\n")
    assert "namespace Certificates.ResNetOrbit_even\n" in text
    assert text.endswith("\nend Certificates.ResNetOrbit_even\n")
    assert "def t0_0 : Int × Int :=\n  (0, 1)\n" in text
    assert "def sym_t0_0 : Int × Int :=\n  (0, 1)\n" in text
    assert "def theta_0 : List (Int × Int) :=\n  [(-2, 1), (-1, 1), (3, 1), (-1, 1)]\n" in text
    assert (
        "theorem gen_0 : NNCert.checkOrbitGenerator inst 0 0 t0_0 theta_0 = true := by decide "
        "+kernel\n" in text
    )
    assert (
        "theorem sym_0 : NNCert.checkLayerSymmetry inst 0 2 sym_t0_0 = true := by decide "
        "+kernel\n" in text
    )
    assert_theorems_call_the_library_with_its_arity(text)
    assert not _layout_problems(text)
    assert not [line for line in text.splitlines() for pat, _ in FORBIDDEN if re.search(pat, line)]
    rank = render_resnet(META, inst, small_certificate()[1], 4)
    start = "/-- The instance:"
    assert text[text.index(start) :].split("\n\n")[0] == rank[rank.index(start) :].split("\n\n")[0]


def test_two_generators_render_in_order():
    inst = orbit_instance()
    gens = [(layer, 0, (0, 1), R.flip_params(1, False, layer, 0, (0, 1), inst.theta))
            for layer in (0, 1)]  # fmt: skip
    syms = [(layer, 2, (0, 1)) for layer in (0, 1)]
    text = render_orbit(ORBIT_META, inst, gens, syms)
    back, read_syms, read = read_orbit(text)
    assert back == inst and read == gens and read_syms == syms
    assert all(R.check_orbit_generator(back, *g) for g in read)
    assert all(R.check_layer_symmetry(back, *s) for s in read_syms)
    assert text.index("theorem sym_1") < text.index("def t0_0")
    assert text.index("theorem gen_0") < text.index("def t0_1") < text.index("theorem gen_1")


@pytest.mark.parametrize(
    "what,anchor,old,new",
    [
        ("an entry of the flipped vector", "def theta_0 :", "(-2, 1)", "(2, 1)"),
        ("the flipped bias", "def theta_0 :", "(-1, 1), (3, 1)", "(1, 1), (3, 1)"),
        ("t0", "def t0_0 :", "(0, 1)", "(1, 1)"),
        ("t0's denominator", "def t0_0 :", "(0, 1)", "(0, 0)"),
        ("the layer", "theorem gen_0 :", "inst 0 0", "inst 1 0"),
        ("the neuron", "theorem gen_0 :", "inst 0 0", "inst 0 1"),
        ("a parameter", "def inst :", "(3, 1)", "(4, 1)"),
        ("an activation (now odd terms)", "def inst :", "[[(0, 1), (0, 1)", "[[(0, 1), (1, 1)"),
    ],
)
def test_a_tampered_orbit_certificate_fails_the_python_twin(what, anchor, old, new):
    inst = orbit_instance()
    th2 = R.flip_params(1, False, 0, 0, (0, 1), inst.theta)
    text = swap(render_orbit(ORBIT_META, inst, [(0, 0, (0, 1), th2)]), anchor, old, new)
    back, _, gens = read_orbit(text)
    assert (back, gens) != (inst, [(0, 0, (0, 1), th2)]), what
    assert R.check_orbit_generator(back, *gens[0]) is False
    assert R.check_orbit_generator(back, *gens[0]) is False


def test_a_consistent_flip_at_the_wrong_point_fails_on_the_lattice():
    """th2 is the flip at t0 = 1, so the flip checks pass; sigma is not even about 1, so only
    `sameLayer` (on the lattice of degree deg sigma_0) rejects it."""
    inst = orbit_instance()
    th2 = R.flip_params(1, False, 0, 0, (1, 1), inst.theta)
    assert R.qeq_all(th2, R.flip_params(1, False, 0, 0, (1, 1), inst.theta))
    pts = lattice(1, len(R.act_at(inst.acts, 0)) - 1)
    assert pts == [[0], [1], [2], [3], [4]]
    assert not R.same_layer(inst, 0, th2, pts)
    assert R.check_orbit_generator(inst, 0, 0, (1, 1), th2) is False
    assert R.check_orbit_generator(inst, 0, 0, (1, 1), th2) is False


ROOT_META = {
    **EXAMPLE_META,
    "module": "Certificates.ResNetOrbit_cube",
    "name": "cube",
    "claim": "Acting by mu_3 on the neuron of layer 0 at t0 = 0 keeps F_theta unchanged.",
}


def root_certificate() -> tuple[R.ResNetInstance, list[tuple], list[tuple]]:
    inst = root_instance()
    syms = [(0, 3, (0, 1)), (1, 3, (1, 1))]
    gens = [(0, 0, 3, (0, 1), R.root_params(1, False, 0, 0, 3, (0, 1), inst.theta)),
            (1, 0, 3, (1, 1), R.root_params(1, False, 1, 0, 3, (1, 1), inst.theta))]  # fmt: skip
    return inst, syms, gens


def test_the_root_certificate_renders_reads_back_and_passes_the_python_twin():
    inst, syms, gens = root_certificate()
    text = render_orbit(ROOT_META, inst, gens, syms, complex_=True)
    back, read_syms, read = read_orbit(text)
    assert back == inst and read_syms == syms and read == gens
    for s in read_syms:
        assert R.check_layer_symmetry(back, *s) is True
        assert R.check_layer_symmetry(back, *s) is True
    for g in read:
        assert R.check_root_generator(back, *g) is True
        assert R.check_root_generator(back, *g) is True
    assert "def theta_0 : List (List (Int × Int)) :=\n  [[(2, 1), (0, 1), (0, 1)], " not in text
    assert "def theta_0 : List (List (Int × Int)) :=\n  [[(0, 1), (2, 1), (0, 1)], " in text
    assert (
        "theorem gen_1 : NNCert.checkRootGenerator inst 1 0 3 t0_1 theta_1 = true := by decide "
        "+kernel\n" in text
    )
    assert "checkOrbitGenerator inst" not in text
    assert_theorems_call_the_library_with_its_arity(text)
    assert not _layout_problems(text)
    assert not [line for line in text.splitlines() for pat, _ in FORBIDDEN if re.search(pat, line)]


@pytest.mark.parametrize(
    "what,anchor,old,new",
    [
        ("a coefficient of the acted-on weight", "def theta_0 :", "[(0, 1), (2, 1)",
         "[(1, 1), (2, 1)"),
        ("the order g of a generator", "theorem gen_0 :", "inst 0 0 3", "inst 0 0 2"),
        ("the layer of a generator", "theorem gen_0 :", "inst 0 0 3", "inst 1 0 3"),
        ("t0 of a generator", "def t0_0 :", "(0, 1)", "(1, 1)"),
        ("a parameter", "def inst :", "(-1, 2)", "(-1, 3)"),
        ("the activation of layer 0", "def inst :", "[[(0, 1), (0, 1), (0, 1)",
         "[[(0, 1), (0, 1), (1, 1)"),
    ],
)  # fmt: skip
def test_a_tampered_root_certificate_fails_the_python_twin(what, anchor, old, new):
    inst, syms, gens = root_certificate()
    text = swap(render_orbit(ROOT_META, inst, gens, syms, complex_=True), anchor, old, new)
    back, _, read = read_orbit(text)
    assert (back, read) != (inst, gens), what
    assert R.check_root_generator(back, *read[0]) is False
    assert R.check_root_generator(back, *read[0]) is False


@pytest.mark.parametrize(
    "what,old,new",
    [("the order g", "inst 1 3 sym_t0_1", "inst 1 2 sym_t0_1"),
     ("the layer", "inst 1 3 sym_t0_1", "inst 0 3 sym_t0_1")],
)  # fmt: skip
def test_a_tampered_symmetry_fails_the_python_twin(what, old, new):
    inst, syms, gens = root_certificate()
    text = swap(render_orbit(ROOT_META, inst, gens, syms, complex_=True), "theorem sym_1 :", old,
                new)  # fmt: skip
    _, read_syms, _ = read_orbit(text)
    assert read_syms[1] != syms[1], what
    assert R.check_layer_symmetry(inst, *read_syms[1]) is False
    assert R.check_layer_symmetry(inst, *read_syms[1]) is False


def test_the_trivial_orbit_and_coefficient_theorems_render_read_back_and_pass_the_twin():
    cube = [(0, 1), (0, 1), (0, 1), (1, 1)]
    inst = R.ResNetInstance(1, [cube, cube], False, [(1, 1), (1, 1), (2, 1), (-1, 1)])
    ps = R.coeffs_x(R.theta_map_terms(inst), 0, degree_bound(inst.acts))
    coeffs = [p[0][0] if p else (0, 1) for p in ps]
    text = render_orbit(ORBIT_META, inst, [], [], orbit=[inst.theta], coeffs=coeffs)
    [orbit] = re.findall(r"^def orbit : List \(List \(Int × Int\)\) :=\n  (.*)$", text, re.M)
    [cs] = re.findall(r"^def f_coeffs : List \(Int × Int\) :=\n  (.*)$", text, re.M)
    assert re.search(THEOREM + r"trivial_orbit : NNCert\.checkTrivialOrbit inst false orbit"
                     + KERNEL, text, re.M)  # fmt: skip
    assert re.search(THEOREM + r"coefficients : NNCert\.checkScalarCoeffs inst f_coeffs" + KERNEL,
                     text, re.M)  # fmt: skip
    assert R.check_trivial_orbit(inst, False, read_literal(orbit)) is True
    assert R.check_scalar_coeffs(inst, read_literal(cs)) is True
    assert R.check_trivial_orbit(inst, True, read_literal(orbit)) is False  # mu_3 over C
    assert_theorems_call_the_library_with_its_arity(text)
    assert not _layout_problems(text)


def test_a_listed_real_orbit_renders_reads_back_and_passes_the_python_twin():
    """The orbit {theta, flip(theta)} under checkResnetOrbit: the file reads back, the theorem
    passes the library function its arity, and the twin accepts the orbit it reads and
    rejects it with a point repeated."""
    inst = orbit_instance()
    th2 = R.flip_params(1, False, 0, 0, (0, 1), inst.theta)
    orbit = [list(inst.theta), th2]
    text = render_orbit(ORBIT_META, inst, [(0, 0, (0, 1), th2)], [(0, 2, (0, 1))], listed=orbit)
    back, _, _ = read_orbit(text)
    (lit,) = re.findall(r"^def orbit : List \(List \(Int × Int\)\) :=\n  (.*)$", text, re.M)
    assert read_literal(lit) == orbit
    assert (
        "theorem orbit_check : NNCert.checkResnetOrbit inst orbit = true := by decide "
        "+kernel\n" in text
    )
    assert R.check_resnet_orbit(back, read_literal(lit)) is True
    assert R.check_resnet_orbit(back, [*orbit, orbit[0]]) is False
    assert_theorems_call_the_library_with_its_arity(text)
    assert not _layout_problems(text)


def test_the_orbit_template_refuses_a_missing_variable():
    with pytest.raises(jinja2.UndefinedError):
        template_at(ORBIT_TEMPLATE).render(module="M", width="1")
    render = template_at(ORBIT_TEMPLATE).render
    base = {**ORBIT_META, "width": "1", "acts": "[]", "outer": "false", "theta": "[]"}
    with pytest.raises(jinja2.UndefinedError):
        render(**base, complex=False, syms=[],
               gens=[{"index": 0, "layer": "0", "neuron": "0", "t0": "(0, 1)"}])  # fmt: skip
    with pytest.raises(jinja2.UndefinedError):
        gen = {"index": 0, "layer": "0", "neuron": "0", "t0": "(0, 1)", "theta": "[]"}
        render(**base, complex=True, syms=[], gens=[gen])  # no `g`
    with pytest.raises(jinja2.UndefinedError):
        render(**base, complex=False, syms=[{"index": 0, "layer": "0", "t0": "(0, 1)"}], gens=[])
    with pytest.raises(jinja2.UndefinedError):
        render(**base, syms=[], gens=[])  # `complex` is required


IMPLICIT_META = {
    **EXAMPLE_META,
    "module": "Certificates.Implicit_square",
    "name": "square",
    "claim": "F(x) = x + (w x + b)^2 satisfies (c1 - 1)^2 = 4 c0 c2.",
}


def render_implicit(meta: dict[str, str], inst: R.ResNetInstance, free: list[bool],
                    degree: int, eq: list) -> str:  # fmt: skip
    context = {
        "width": L.lean(inst.width), "acts": L.lean(inst.acts), "outer": L.lean(inst.outer),
        "theta": L.lean(inst.theta), "free": L.lean(free), "degree": str(degree),
        "eqn": L.lean(eq), "coeffs": L.lean(scalar_coeffs(inst)),
    }  # fmt: skip
    return template_at(IMPLICIT_TEMPLATE).render(**meta, **context)


def scalar_coeffs(inst: R.ResNetInstance) -> list:
    """F_theta's coefficients c_0, ..., c_D by the Python twin (constant term lists)."""
    ps = R.coeffs_x(R.theta_map_terms(inst), 0, degree_bound(inst.acts))
    return [R.normalize(p)[0][0] if R.normalize(p) else (0, 1) for p in ps]


def read_implicit(text: str) -> tuple[R.ResNetInstance, list[bool], int, list]:
    kind, inst = read_structure(text, "inst")
    assert kind == "ResNetInstance"
    [free] = re.findall(r"^def free : List Bool :=\n  (.*)$", text, re.M)
    [degree] = re.findall(r"^def degree : Nat :=\n  (\d+)$", text, re.M)
    [eq] = re.findall(r"^def eqn : List \(\(Int × Int\) × List Nat\) :=\n  (.*?)\n\n", text,
                      re.M | re.S)  # fmt: skip
    assert re.search(
        THEOREM + r"implicit_check : NNCert\.checkImplicit inst free degree eqn" + KERNEL, text,
        re.M,
    )  # fmt: skip
    [cs] = re.findall(r"^def f_coeffs : List \(Int × Int\) :=\n  (.*)$", text, re.M)
    assert re.search(THEOREM + r"coefficients : NNCert\.checkScalarCoeffs inst f_coeffs" + KERNEL,
                     text, re.M)  # fmt: skip
    assert R.check_scalar_coeffs(R.ResNetInstance(**inst), read_literal(cs)) is True
    assert text.count("\ntheorem ") == 2
    flags = ast.literal_eval(free.replace("true", "True").replace("false", "False"))
    assert isinstance(flags, list) and all(isinstance(f, bool) for f in flags)
    return R.ResNetInstance(**inst), flags, int(degree), read_literal(eq)


def test_the_implicit_certificate_renders_reads_back_and_passes_the_python_twin():
    inst = R.ResNetInstance(1, [SQUARE], False, [(2, 1), (1, 3)])
    text = render_implicit(IMPLICIT_META, inst, [True, True], 2, square_equation())
    back, free, degree, eq = read_implicit(text)
    assert (back, free, degree) == (inst, [True, True], 2)
    assert [(tuple(c), list(es)) for c, es in eq] == square_equation()
    assert R.check_implicit(back, free, degree, eq) is True
    assert R.check_implicit(back, free, degree, eq) is True
    assert_theorems_call_the_library_with_its_arity(text)
    assert not _layout_problems(text)
    assert not [line for line in text.splitlines() for pat, _ in FORBIDDEN if re.search(pat, line)]
    bad = swap(text, "def eqn :", "((-4, 1), [1, 0, 1])", "((-3, 1), [1, 0, 1])")
    back, free, degree, eq = read_implicit(bad)
    assert R.check_implicit(back, free, degree, eq) is False
    assert R.check_implicit(back, free, degree, eq) is False


# ---------------------------------------------------------------- (i) diagnostics


def sparse_instance(rng: random.Random) -> R.ResNetInstance:
    """Like `random_instance`, with many zero parameters (so zero rows and dead layers)."""
    inst = random_instance(rng, ACTS_POOL)
    theta = [(0, d) if rng.random() < 0.6 else (a, d) for a, d in inst.theta]
    return R.ResNetInstance(inst.width, inst.acts, inst.outer, theta)


def test_the_diagnostics_mean_constant_neurons_and_layers_that_add_a_constant_or_nothing():
    """A zero row makes the neuron's output sigma(b_i) constant in x; a dead layer adds a
    constant vector (or nothing): its directional derivative in x vanishes everywhere."""
    rng = random.Random(42)
    checked = 0
    for _ in range(300):
        inst = sparse_instance(rng)
        if not (R.resnet_shape_ok(inst, []) and rats_pos(inst.theta) and inst.width):
            continue
        n = inst.width
        for layer in R.dead_layers(inst):
            checked += 1
            th = R.layer_params(n, inst.outer, layer, inst.theta)
            cs = [R.act_at(inst.acts, layer)]
            z = zeros(ARITH_Q, len(th))
            for x in lattice(n, 2):
                for j in range(n):  # d/dx_j of the layer's increment is 0
                    dx = unit_vec(ARITH_Q, n, j)
                    out = R.resnet_dual(ARITH_Q, n, inst.outer, cs, th, z, ints_q(x), dx)
                    assert [frac(a) for a in out[1]] == fracs(dx), (inst, layer)
    assert checked > 20


CRITICAL_META = {**EXAMPLE_META, "module": "Certificates.Critical_dead", "name": "dead",
                 "claim": "Layer 1 of the ResNet is dead at theta."}  # fmt: skip


def render_critical(meta: dict[str, str], inst: R.ResNetInstance, rows: list, dead: list) -> str:
    context = {
        "width": L.lean(inst.width), "acts": L.lean(inst.acts), "outer": L.lean(inst.outer),
        "theta": L.lean(inst.theta), "rows": L.lean(rows), "dead": L.lean(dead),
        "attached": "at_theta, generic", "coeffs": None, "locus": None,
    }  # fmt: skip
    return template_at(CRITICAL_TEMPLATE).render(**meta, **context)


def read_critical(text: str) -> tuple[R.ResNetInstance, list, list]:
    kind, inst = read_structure(text, "inst")
    assert kind == "ResNetInstance"
    [rows] = re.findall(r"^def zeroRows : List \(Nat × Nat\) :=\n  (.*)$", text, re.M)
    [dead] = re.findall(r"^def deadLayers : List Nat :=\n  (.*)$", text, re.M)
    assert re.search(
        THEOREM + r"diagnostics_check : NNCert\.checkDiagnostics inst zeroRows deadLayers" + KERNEL,
        text,
        re.M,
    )
    assert text.count("\ntheorem ") == 1
    return R.ResNetInstance(**inst), read_literal(rows), read_literal(dead)


def test_the_critical_certificate_renders_reads_back_and_passes_the_python_twin():
    theta = [(2, 1), (1, 1), (0, 1), (3, 1), (0, 1), (0, 1)]  # layer 1: W = 0 (dead)
    inst = R.ResNetInstance(1, [SQUARE, SQUARE, SQUARE], False, theta)
    rows, dead = R.zero_rows(inst), R.dead_layers(inst)
    assert (rows, dead) == ([(1, 0), (2, 0)], [1, 2])
    text = render_critical(CRITICAL_META, inst, rows, dead)
    back, read_rows, read_dead = read_critical(text)
    assert (back, read_rows, read_dead) == (inst, rows, dead)
    assert R.check_diagnostics(back, read_rows, read_dead) is True
    assert R.check_diagnostics(back, read_rows, read_dead) is True
    assert_theorems_call_the_library_with_its_arity(text)
    assert not _layout_problems(text)
    assert not [line for line in text.splitlines() for pat, _ in FORBIDDEN if re.search(pat, line)]
    for old, new in [("[1, 2]", "[1]"), ("[(1, 0), (2, 0)]", "[(1, 0)]")]:
        _, r, d = read_critical(swap(text, "def zeroRows :", old, new) if "(" in old
                                else swap(text, "def deadLayers :", old, new))  # fmt: skip
        assert R.check_diagnostics(inst, r, d) is False
        assert R.check_diagnostics(inst, r, d) is False
