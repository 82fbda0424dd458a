"""Static lint and parity tests of lean/NNCert/ReLU.lean and of the templates
templates/lean/relu/rank.lean.j2 and templates/lean/relu/equiv.lean.j2.

No Lean toolchain is available where these run, so (as tests/test_lean_resnet.py does for the
ResNet library) they check: (a) no forbidden token, no layout hazard; (b) explicit structural
recursion on a parameter that a `match` takes apart, no unused variable (`--wfail`); (c) the
name-by-name, order-by-order and field-by-field correspondence with the Python twin
certify/checker/kernel/relu.py (its values: tests/test_conformance.py, against Coq); (d) the
templates, rendered by the real renderer from generated certificates, read back literal by
literal to data that the twin accepts, and are rejected once tampered.
"""

from __future__ import annotations

import ast
import re
from typing import Any

import jinja2
import pytest

from certify import certificate
from certify.checker.kernel import relu as R
from certify.checker.kernel.rank import UpperWitness
from certify.families import generate_certificate
from certify.families.relu import render as render_relu
from certify.spec import parse_spec
from tests.test_lean_library import (
    FORBIDDEN,
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
    read_literal,
    read_structure,
    recursion_problems,
    snake,
    template_at,
    twin_dataclasses,
    unused_names,
)

RELU = LEAN_DIR / "NNCert" / "ReLU.lean"
RANK_TEMPLATE = TEMPLATE_DIR / "relu/rank.lean.j2"
EQUIV_TEMPLATE = TEMPLATE_DIR / "relu/equiv.lean.j2"
TWIN = ROOT / "certify" / "checker" / "kernel" / "relu.py"
OTHER_FAMILIES = [LEAN_DIR / "NNCert" / f"{m}.lean" for m in ("Compind", "ResNet")]

FIELD_TYPES = {
    "ReluInstance": {"widths": "List Nat", "theta": "List (Int × Int)"},
    "ReluLowerWitness": {
        "p": "Int",
        "batch": "List (List (Int × Int))",
        "thetaInv": "List Int",
        "batchInv": "List (List Int)",
        "rows": "List (Nat × Nat)",
        "cols": "List Nat",
    },
}
NAT_FIELDS = {"widths", "cols"}  # Python `int` fields that are counts or indices, `Nat` in Lean


def relu_defs() -> list[Any]:
    return lean_defs(RELU)


def lean_declarations() -> list[str]:
    return re.findall(r"^(?:def|structure) ([\w']+)", RELU.read_text(), re.M)


def twin_declarations() -> list[tuple[str, str]]:
    out = []
    for node in ast.parse(TWIN.read_text()).body:
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
            out.append(("def", node.name))
        elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            out.append(("structure", node.name))
    return out


# ------------------------- (a) file header (tokens and layout: test_lean_library.py)
def test_the_relu_file_names_its_python_twin_and_fills_the_nncert_namespace():
    text = RELU.read_text()
    head = text[: text.index("-/")]
    assert text.startswith("/-\n")
    assert "certify/checker/kernel/relu.py" in head and "(NNCert/ReLU)" in head
    assert "namespace NNCert\n" in text and text.rstrip().endswith("end NNCert")
    assert not re.search(r"^module\b", text, re.M)


def test_the_library_root_imports_relu_after_resnet():
    imports = re.findall(r"^import (\S+)$", (LEAN_DIR / "NNCert.lean").read_text(), re.M)
    assert imports.index("NNCert.ReLU") == imports.index("NNCert.ResNet") + 1


def test_relu_imports_every_library_module_whose_defs_it_uses():
    imports = re.findall(r"^import NNCert\.(\w+)$", RELU.read_text(), re.M)
    used = set().union(*(identifiers(d.body) for d in relu_defs())) | identifiers(RELU.read_text())
    sources = [*LIBRARY, *OTHER_FAMILIES]
    needed = {p.stem for p in sources for d in lean_defs(p) if d.name in used}
    needed |= {p.stem for p in sources for s in lean_structures(p) if s in used}
    assert needed == {"Lists", "Arith", "Net", "RankCore", "Rank"}
    assert imports == [*MODULES]


# ---------------------------------------------------------------- (b) recursion and warnings
@pytest.mark.parametrize("d", relu_defs(), ids=lambda d: d.name)
def test_every_recursive_relu_def_recurses_structurally_on_a_matched_parameter(d):
    assert not recursion_problems(d), f"{d.name}: {recursion_problems(d)}"


@pytest.mark.parametrize("d", relu_defs(), ids=lambda d: d.name)
def test_no_relu_def_leaves_a_variable_unused(d):
    assert not unused_names(d), f"{d.name}: {unused_names(d)}"


def test_the_recursion_lint_sees_the_recursive_relu_defs():
    recursive = {d.name for d in relu_defs() if calls(d.body, d.name)}
    assert recursive == {
        "reluVecQ", "reluForward", "allNonzeroQ", "presNonzero", "batchNonzero",
        "maskVals", "reluBack", "reluRowsMod", "dotNz", "gradKills", "outputsKill",
        "tangentsVanishRelu",
        "layerSideOk", "presSideOk", "pairsOk", "lastPairOk", "sameOutputs",
        "strictlyIncreasing", "onesQ", "allPosQ", "permsOk",
        "gatherRow", "symLayer", "applySym", "coverPoints",
    }  # fmt: skip
    assert {d.name for d in relu_defs() if d.termination} == recursive


# ---------------------------------------------------------------- (c) twin names and order
def test_every_public_function_of_the_python_twin_has_a_camel_case_lean_def_and_back():
    python = {camel(name) for kind, name in twin_declarations() if kind == "def"}
    assert {d.name for d in relu_defs()} == python


def test_relu_declarations_come_in_the_python_order():
    python = [camel(n) if k == "def" else n for k, n in twin_declarations()]
    assert lean_declarations() == python


def test_every_relu_def_uses_only_declarations_above_it():
    order = lean_declarations()
    for d in relu_defs():
        later = {n for n in identifiers(d.body) if n in order and n != d.name}
        assert not {n for n in later if order.index(n) > order.index(d.name)}, d.name


def test_relu_names_do_not_clash_with_the_rest_of_the_library():
    others = {d.name for p in [*LIBRARY, *OTHER_FAMILIES] for d in lean_defs(p)}
    assert not {d.name for d in relu_defs()} & others
    structures = {s for p in [*LIBRARY, *OTHER_FAMILIES] for s in lean_structures(p)}
    assert not set(lean_structures(RELU)) & structures


def test_the_relu_structures_match_the_python_dataclasses_field_for_field():
    assert lean_structure_types(RELU) == twin_dataclasses(TWIN, NAT_FIELDS) == FIELD_TYPES


def test_every_relu_def_and_structure_has_a_docstring():
    lines = RELU.read_text().splitlines()
    undocumented = [d.name for d in relu_defs() if not d.documented]
    undocumented += [ln for i, ln in enumerate(lines)
                     if ln.startswith("structure ") and not _documented(lines, i)]  # fmt: skip
    assert not undocumented


# Python transcriptions, clause by clause, of the Lean defs whose shape differs from the loops
# of the twin (structural recursion, `cond rest'.isEmpty`, `nthRow _ 0`, `dropN 1`).


# ---------------------------------------------------------------- (d) the templates
def generated(widths, params, other=None, certs=None) -> dict:
    data: dict[str, Any] = {"name": "lean-relu", "network": {"family": "relu", "widths": widths},
                            "parameters": params}  # fmt: skip
    if other is not None:
        data["other"] = other
    if certs is not None:
        data["certificate"] = certs
    spec = parse_spec(data, "<test>")
    return generate_certificate(spec, spec.certificates[0])


def lean_text(cert: dict) -> str:
    return render_relu.render_prover(cert, certificate.sha256(cert), "lean")


def read_rank(text: str) -> dict[str, Any]:
    kind, inst = read_structure(text, "inst")
    assert kind == "ReluInstance"
    kind, lower = read_structure(text, "lower")
    assert kind == "ReluLowerWitness"
    out: dict[str, Any] = {
        "inst": R.ReluInstance(**inst),
        "lower": R.ReluLowerWitness(**{snake(k): v for k, v in lower.items()}),
        "upper": None,
    }
    rows = [tuple(r) for r in out["lower"].rows]
    out["lower"] = R.ReluLowerWitness(**{**out["lower"].__dict__, "rows": rows})
    m = re.search(r"^theorem rank_lower_check : NNCert\.checkReluRankLower inst lower (\d+) = "
                  r"true := by decide \+kernel$", text, re.M)  # fmt: skip
    assert m
    out["rank"] = int(m.group(1))
    if re.search(r"^def upper\b", text, re.M):
        kind, upper = read_structure(text, "upper")
        assert kind == "UpperWitness"
        out["upper"] = UpperWitness(**upper)
        m = re.search(r"^theorem rank_upper_check : NNCert\.checkReluRankUpper inst lower\.batch "
                      r"upper (\d+) = true := by decide \+kernel$", text, re.M)  # fmt: skip
        assert m
        out["bound"] = int(m.group(1))
    return out


def top_literal(text: str, name: str) -> Any:
    m = re.search(rf"^def {name} : [^\n]*:=\n  (.*?)\n\n", text, re.M | re.S)
    assert m, name
    return read_literal(m.group(1))


def test_a_generated_rank_certificate_renders_for_lean_reads_back_and_passes_the_twin():
    cert = generated([2, 3, 1], {"seed": 3})
    text = lean_text(cert)
    back = read_rank(text)
    assert R.check_relu_rank_lower(back["inst"], back["lower"], back["rank"]) is True
    assert R.check_relu_rank_upper(back["inst"], back["lower"].batch, back["upper"], back["bound"])
    assert back["rank"] == back["bound"] == 10
    assert text.startswith("import NNCert\n\n/-!\n")
    assert not _layout_problems(text)
    assert not [ln for ln in text.splitlines() for pat, _ in FORBIDDEN if re.search(pat, ln)]


# No inverse is shipped: another prime, or a changed parameter that keeps the minor
# nonsingular, is a true certificate of its own instance, so each tampering breaks the claim.
@pytest.mark.parametrize(
    "what,old,new",
    [
        ("an extra parameter", "theta :=\n      [(", "theta :=\n      [(17, 1), ("),
        ("the claimed rank", "inst lower 10 =", "inst lower 11 ="),
        ("an unusable prime", "p :=\n      2147483647", "p :=\n      2147483648"),
        ("a duplicated column", "cols :=\n      [0, 1,", "cols :=\n      [0, 0,"),
        ("a duplicated row label", "rows :=\n      [(0, 0), (1", "rows :=\n      [(0, 0), (0"),
    ],
)
def test_a_tampered_lean_rank_file_fails_the_python_twin(what, old, new):
    cert = generated([2, 3, 1], {"seed": 3})
    text = lean_text(cert)
    assert old in text, what
    bad = text.replace(old, new, 1)
    back = read_rank(bad)
    assert R.check_relu_rank_lower(back["inst"], back["lower"], back["rank"]) is False, what


EQUIV = [{"kind": "equiv"}]
PERM = ({"weights": [[[1], [-2]], [[3, 1]]], "biases": [[1, 3], [2]]},
        {"weights": [[[-4], [2]], [["1/2", "3/2"]]], "biases": [[6, 2], [2]]})  # fmt: skip


def test_a_generated_equivalence_certificate_renders_for_lean_reads_back_and_passes_the_twin():
    cert = generated([1, 2, 1], *PERM, EQUIV)
    text = lean_text(cert)
    _, inst = read_structure(text, "inst")
    inst = R.ReluInstance(**inst)
    other, points = top_literal(text, "other"), top_literal(text, "points")
    perms, scales = top_literal(text, "perms"), top_literal(text, "scales")
    assert R.check_relu_equiv(inst, other, points) is True
    assert R.check_relu_symmetry(inst, other, perms, scales) is True
    assert "theorem symmetry_check : NNCert.checkReluSymmetry inst other perms scales" in text
    assert not R.check_relu_symmetry(inst, other, perms, [[(2, 1), (-2, 1)]])
    assert not R.check_relu_equiv(inst, other, points[:1] + points[2:])
    assert not _layout_problems(text)


def test_a_differing_pair_renders_its_point_for_lean():
    other = {"weights": [[[1], [-2]], [[3, 1]]], "biases": [[1, "7/2"], [2]]}
    cert = generated([1, 2, 1], PERM[0], other, EQUIV)
    text = lean_text(cert)
    _, inst = read_structure(text, "inst")
    x = read_literal(re.search(r"^def x : Int × Int :=\n  (.*)$", text, re.M).group(1))
    assert R.check_relu_differ(R.ReluInstance(**inst), top_literal(text, "other"), x) is True
    assert "theorem differ_check : NNCert.checkReluDiffer inst other x = true" in text
    assert "equiv_check" not in text


def test_the_relu_templates_refuse_a_missing_variable():
    for t in (RANK_TEMPLATE, EQUIV_TEMPLATE):
        with pytest.raises(jinja2.UndefinedError):
            template_at(t).render(module="M", widths="[1, 1]")
