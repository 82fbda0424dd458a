"""Static lint and parity tests of lean/NNCert/Tanh.lean, coq/NNCert/kernel/Tanh.v and the template
templates/lean/tanh/tanh.lean.j2 against the Python twin certify/checker/kernel/tanh.py.

No Lean toolchain is available here, so (as tests/test_lean_resnet.py does) these check:
(a) no forbidden token, no layout hazard; (b) explicit structural recursion on a parameter a
`match` takes apart, no unused variable; (c) name-by-name, order-by-order and field-by-field
correspondence with the Python twin, and the same order in the Coq twin; (d) rendered Lean files
read back literal by literal to data the twin accepts, and that it rejects once tampered.
"""

from __future__ import annotations

import ast
import re
from typing import Any

import pytest

from certify.checker.kernel import tanh as KT
from certify.families.tanh import render as RT
from certify.render import literals as L
from tests.test_lean_library import (
    LEAN_DIR,
    ROOT,
    TEMPLATE_DIR,
    _documented,
    calls,
    camel,
    identifiers,
    lean_defs,
    lean_structure_types,
    lean_structures,
    read_literal,
    recursion_problems,
    unused_names,
)
from tests.test_tanh import cert_of

TANH = LEAN_DIR / "NNCert" / "Tanh.lean"
COQ = ROOT / "coq" / "NNCert" / "kernel" / "Tanh.v"
TEMPLATE = TEMPLATE_DIR / "tanh/tanh.lean.j2"
TWIN = ROOT / "certify" / "checker" / "kernel" / "tanh.py"
FIELD_TYPES = {
    "AffSym": {
        "alpha": "Int × Int",
        "beta": "Int × Int",
        "gamma": "Int × Int",
        "delta": "Int × Int",
    },
    "TanhInstance": {
        "nIn": "Nat",
        "nOut": "Nat",
        "adj": "List (List Int)",
        "weights": "List (List (Int × Int))",
        "biases": "List (Int × Int)",
    },
}


def tanh_defs() -> list[Any]:
    return lean_defs(TANH)


def twin_declarations() -> list[str]:
    """Public functions and dataclasses of kernel/tanh.py, in file order (Lean spelling)."""
    out = []
    for node in ast.parse(TWIN.read_text()).body:
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
            out.append(camel(node.name))
        elif isinstance(node, ast.ClassDef):
            out.append(node.name)
    return out


def lean_declarations() -> list[str]:
    return re.findall(r"^(?:def|structure) ([\w']+)", TANH.read_text(), re.M)


def coq_declarations() -> list[str]:
    return re.findall(r"^(?:Fixpoint|Definition|Record) ([\w']+)", COQ.read_text(), re.M)


# ------------------------- (a) file header (tokens and layout: test_lean_library.py)
def test_the_tanh_file_names_its_twins_and_fills_the_nncert_namespace():
    text = TANH.read_text()
    head = text[: text.index("-/")]
    assert "certify/checker/kernel/tanh.py" in head and "(NNCert/Tanh)" in head
    assert "coq/NNCert/kernel/Tanh.v" in head and "TanhSym.v" in head
    assert "namespace NNCert\n" in text and text.rstrip().endswith("end NNCert")
    assert not re.search(r"^module\b", text, re.M)


# ---------------------------------------------------------------- (b) recursion and warnings
@pytest.mark.parametrize("d", tanh_defs(), ids=lambda d: d.name)
def test_every_recursive_tanh_def_recurses_structurally_on_a_matched_parameter(d):
    assert not recursion_problems(d), f"{d.name}: {recursion_problems(d)}"


@pytest.mark.parametrize("d", tanh_defs(), ids=lambda d: d.name)
def test_no_tanh_def_leaves_a_variable_unused(d):
    assert not unused_names(d), f"{d.name}: {unused_names(d)}"


def test_the_recursion_lint_sees_the_recursive_tanh_defs():
    recursive = {d.name for d in tanh_defs() if calls(d.body, d.name)}
    assert {"rowMaps", "mapsFrom", "rowOk", "rowsOk", "keyLt", "canonicalClass"} <= recursive
    assert {d.name for d in tanh_defs() if d.termination} == recursive


def test_every_tanh_def_and_structure_has_a_docstring():
    lines = TANH.read_text().splitlines()
    assert not [d.name for d in tanh_defs() if not d.documented]
    assert all(
        _documented(lines, i) for i, line in enumerate(lines) if line.startswith("structure ")
    )


# ---------------------------------------------------------------- (c) twin names and order
def test_the_lean_declarations_are_the_python_twin_in_the_same_order():
    assert lean_declarations() == twin_declarations()


def test_the_coq_declarations_are_the_python_twin_in_the_same_order():
    coq = [camel(n) for n in coq_declarations()]
    python = [camel(re.sub(r"(?<!^)([A-Z])", r"_\1", n).lower()) for n in twin_declarations()]
    assert coq == python


def test_every_tanh_def_uses_only_declarations_above_it():
    order = lean_declarations()
    for d in tanh_defs():
        later = {n for n in identifiers(d.body) if n in order and n != d.name}
        assert not {n for n in later if order.index(n) > order.index(d.name)}, d.name


def test_the_tanh_structures_match_the_python_dataclasses_field_for_field():
    assert lean_structure_types(TANH) == FIELD_TYPES
    assert lean_structures(TANH) == {n: list(f) for n, f in FIELD_TYPES.items()}
    for cls in (KT.AffSym, KT.TanhInstance):
        assert [camel(f) for f in cls.__dataclass_fields__] == list(FIELD_TYPES[cls.__name__])


def test_the_tanh_names_do_not_clash_with_other_library_files():
    others = {
        d.name for p in (LEAN_DIR / "NNCert").glob("*.lean") if p != TANH for d in lean_defs(p)
    }
    assert not {d.name for d in tanh_defs()} & others


# ---------------------------------------------------------------- (d) rendered files
def read_def(text: str, name: str) -> Any:
    """A plain literal def, or a structure def as a dict of its fields."""
    m = re.search(rf"^def {name} : [^\n]*:=\n  (.*?)(?=\n\n|\n/--|\Z)", text, re.M | re.S)
    assert m, name
    body = m.group(1).strip()
    if body.startswith("{"):
        fields = re.findall(r"(\w+) := (.*?)(?=,\n\s+\w+ :=|\s*\}$)", body, re.S)
        return {f: lit(v) for f, v in fields}
    if body.startswith("[elem_") or body == "[]":
        return [read_def(text, e.strip()) for e in body[1:-1].split(",") if e.strip()]
    return lit(body)


def lit(src: str) -> Any:
    """Integers, lists, pairs via the test reader; lists of booleans via the renderer's."""
    if "true" in src or "false" in src:
        return L._Reader(src, 0).value()
    return read_literal(src)


def to_python(v: Any) -> Any:
    if isinstance(v, dict) and "alpha" in v:
        return KT.AffSym(*(tuple(v[k]) for k in ("alpha", "beta", "gamma", "delta")))
    if isinstance(v, dict):
        conv = lambda rows: [[tuple(x) for x in r] for r in rows]  # noqa: E731
        return KT.TanhInstance(
            v["nIn"], v["nOut"], v["adj"], conv(v["weights"]), [tuple(b) for b in v["biases"]]
        )
    if isinstance(v, list) and v and isinstance(v[0], KT.AffSym | dict):
        return [to_python(x) for x in v]
    return v


def run_theorems(text: str) -> dict[str, bool]:
    """Evaluate every theorem's statement with the Python twin (names snake_cased)."""
    out = {}
    for name, fn, args in re.findall(r"^theorem (\w+) : NNCert\.(\w+) (.*?) = true", text, re.M):
        f = getattr(KT, re.sub(r"([A-Z])", lambda m: "_" + m.group(1).lower(), fn))
        vals = []
        for a in args.split():
            if a in ("true", "false"):
                vals.append(a == "true")
            elif re.fullmatch(r"-?\d+", a):
                vals.append(int(a))
            else:
                vals.append(to_python(read_def(text, a)))
        out[name] = f(*vals)
    return out


CASES = ["orbit131", "orbit-logistic", "equiv-yes", "equiv-no", "affsym-tanh", "affsym-t3t2"]


@pytest.mark.parametrize("case", CASES)
def test_the_rendered_lean_file_reads_back_to_data_the_twin_accepts(case: str):
    cert = cert_of(case)
    text = RT.render_prover(cert, "0" * 64, "lean")
    results = run_theorems(text)
    assert results and all(results.values()), results
    assert set(results) == set(RT.theorem_names(cert))


def test_a_tampered_rendered_lean_file_is_rejected_by_the_twin():
    text = RT.render_prover(cert_of("orbit131"), "0" * 64, "lean")
    m = re.search(
        r"def canon : NNCert.TanhInstance :=.*?biases := \[\(0, 1\), \((-?\d+)", text, re.S
    )
    assert m
    bad = text[: m.start(1)] + str(int(m.group(1)) + 1) + text[m.end(1) :]
    assert not all(run_theorems(bad).values())


SYM = LEAN_DIR / "NNCert" / "TanhSym.lean"


@pytest.mark.parametrize("d", lean_defs(SYM), ids=lambda d: d.name)
def test_the_lean_symmetry_theorems_file_recurses_structurally_and_uses_its_variables(d):
    assert not recursion_problems(d) and not unused_names(d)


def test_the_uncompiled_lean_symmetry_theorems_stay_out_of_the_default_build():
    # written without a compiler: NNCert.lean must not import it (see the file's header)
    root = (LEAN_DIR / "NNCert.lean").read_text()
    assert "NNCert.TanhSym" not in root
    text = SYM.read_text()
    assert "structure AffineSymmetric" in text and "theorem flip_one" in text
    assert "theorem permute" in text and "lake build NNCert.TanhSym" in text
