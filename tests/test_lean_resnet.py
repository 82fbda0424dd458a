"""Static lint and parity tests of lean/NNCert/ResNet.lean and of the templates
templates/lean/rank_resnet.lean.j2 and templates/lean/orbit_resnet.lean.j2.

No Lean toolchain is available where these run, so they check what can be checked without one
(as tests/test_lean_library.py does for the rank library, whose helpers are reused here):
(a) no forbidden token, no layout hazard; (b) explicit structural recursion on a parameter that
a `match` takes apart, and no unused variable (`lake build --wfail`); (c) the name-by-name,
order-by-order and field-by-field correspondence with the Python twin
certify/checker/kernel_resnet.py; (d) the template, rendered with a small certificate built with
the Python twin, reads back literal by literal to data that the twin accepts, and rejects once
tampered (the rank template and the orbit template alike).
"""

from __future__ import annotations

import ast
import itertools
import random
import re
from pathlib import Path
from typing import Any

import jinja2
import pytest
from flint import nmod_mat

from certify.checker import kernel as K
from certify.checker import kernel_resnet as R
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
    unused_names,
)

RESNET = LEAN_DIR / "NNCert" / "ResNet.lean"
TEMPLATE = TEMPLATE_DIR / "rank_resnet.lean.j2"
ORBIT_TEMPLATE = TEMPLATE_DIR / "orbit_resnet.lean.j2"
TWIN = ROOT / "certify" / "checker" / "kernel_resnet.py"
COMPIND = LEAN_DIR / "NNCert" / "Compind.lean"

# Lean-only defs of ResNet.lean, with the reason they have no Python twin.
LEAN_ONLY = {
    "flipParamsFrom": "structural index helper: `flip_params` enumerates `th` with `enumerate`",
}

SIGNATURES = [
    "def checkRankLowerResnet (inst : ResNetInstance) (w : LowerWitness) (r : Nat) : Bool :=",
    "def checkRankUpperResnet (inst : ResNetInstance) (w : UpperWitness) (u : Nat) : Bool :=",
    "def checkOrbitGenerator (inst : ResNetInstance) (layer neuron : Nat) (t0 : Int × Int)",
    "    (th2 : List (Int × Int)) : Bool :=",
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
    """(kind, name) of the public functions and dataclasses of kernel_resnet.py, in order."""
    out = []
    for node in ast.parse(TWIN.read_text()).body:
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
            out.append(("def", node.name))
        elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            out.append(("structure", node.name))
    return out


def lean_type_of(annotation: ast.expr, field: str) -> str:
    """The Lean type a Python field annotation stands for (`Rat` as a pair)."""
    if isinstance(annotation, ast.Name):
        names = {
            "int": "Nat" if field in NAT_FIELDS else "Int",
            "bool": "Bool",
            "Rat": "(Int × Int)",
        }
        return names[annotation.id]
    assert isinstance(annotation, ast.Subscript) and ast.unparse(annotation.value) == "list"
    inner = lean_type_of(annotation.slice, field)
    return f"List {inner}" if " " not in inner or inner.startswith("(") else f"List ({inner})"


def twin_dataclasses() -> dict[str, dict[str, str]]:
    out = {}
    for node in ast.parse(TWIN.read_text()).body:
        if isinstance(node, ast.ClassDef):
            out[node.name] = {
                camel(s.target.id): lean_type_of(s.annotation, s.target.id)
                for s in node.body
                if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)
            }
    return out


# ---------------------------------------------------------------- (a) tokens and layout
@pytest.mark.parametrize("path", [RESNET, TEMPLATE, ORBIT_TEMPLATE], ids=lambda p: p.name)
def test_the_resnet_library_and_template_contain_no_forbidden_token(path: Path):
    hits = [
        f"{path.name}:{n}: {why}: {line.strip()}"
        for n, line in enumerate(path.read_text().splitlines(), 1)
        for pattern, why in FORBIDDEN
        if re.search(pattern, line)
    ]
    assert not hits, "\n".join(hits)


@pytest.mark.parametrize("path", [RESNET, TEMPLATE, ORBIT_TEMPLATE], ids=lambda p: p.name)
def test_the_resnet_library_and_template_have_no_layout_hazard(path: Path):
    assert not _layout_problems(path.read_text())


def test_the_resnet_file_names_its_python_twin_and_fills_the_nncert_namespace():
    text = RESNET.read_text()
    assert text.startswith("/-\n")
    head = text[: text.index("-/")]
    assert "certify/checker/kernel_resnet.py" in head and "(NNCert/ResNet)" in head
    assert "namespace NNCert\n" in text and text.rstrip().endswith("end NNCert")
    assert not re.search(r"^module\b", text, re.M)


def test_the_library_root_imports_resnet_last():
    imports = re.findall(r"^import (\S+)$", (LEAN_DIR / "NNCert.lean").read_text(), re.M)
    assert imports[:-1] == [f"NNCert.{m}" for m in MODULES] + ["NNCert.Compind", "NNCert.ResNet"]
    assert imports[-1] == "NNCert.Tanh"  # tests/test_lean_tanh.py


def test_resnet_imports_every_library_module_whose_defs_it_uses():
    imports = re.findall(r"^import NNCert\.(\w+)$", RESNET.read_text(), re.M)
    used = set().union(*(identifiers(d.body) for d in resnet_defs()))
    used |= identifiers(RESNET.read_text())  # structure names in signatures
    needed = {d.path.stem for d in library_defs() if d.name in used}
    needed |= {p.stem for p in LIBRARY for s in lean_structures(p) if s in used}
    assert needed == {"Lists", "Arith", "Net", "Rank"}
    assert set(imports) == needed and imports == [m for m in MODULES if m in needed]


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
        "vecAdd", "resnetDual", "jacMinorResnet", "tangentVanishesResnet", "tangentsVanishResnet",
        "flipParamsFrom", "qeqAll", "sameFunction",
    }  # fmt: skip
    assert {d.name for d in resnet_defs() if d.termination} == recursive
    [dual] = [d for d in resnet_defs() if d.name == "resnetDual"]
    assert dual.termination == ["termination_by structural acts"]  # the Python loop over acts
    assert "cond outer" in dual.body


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


def test_the_lean_only_helper_sits_just_before_its_only_caller():
    order = lean_declarations(RESNET)
    assert order.index("flipParamsFrom") + 1 == order.index("flipParams")
    users = [d.name for d in resnet_defs() if calls(d.body, "flipParamsFrom")]
    assert users == ["flipParamsFrom", "flipParams"]


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
    assert lean_structure_types(RESNET) == twin_dataclasses() == FIELD_TYPES
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
def lean_vec_add(ar: K.Arith, a: list, b: list) -> list:
    if a and b:
        return [ar.add(a[0], b[0]), *lean_vec_add(ar, a[1:], b[1:])]
    return []


def lean_resnet_dual(ar, n, outer, acts, th, dth, h, dh):
    if not acts:
        return (h, dh)
    cs, rest = acts[0], acts[1:]
    pre, dpre = K.layer_dual(ar, n + 1, n, th, dth, [*h, ar.one], [*dh, ar.zero])
    v, dv = K.act_dual(ar, cs, pre, dpre)
    th1, dth1 = K.drop_n(n * (n + 1), th), K.drop_n(n * (n + 1), dth)
    if outer:
        u, du = K.layer_dual(ar, n, n, th1, dth1, v, dv)
        return lean_resnet_dual(
            ar, n, outer, rest, K.drop_n(n * n, th1), K.drop_n(n * n, dth1),
            lean_vec_add(ar, h, u), lean_vec_add(ar, dh, du),
        )  # fmt: skip
    return lean_resnet_dual(
        ar, n, outer, rest, th1, dth1, lean_vec_add(ar, h, v), lean_vec_add(ar, dh, dv)
    )


def test_the_lean_resnet_dual_agrees_with_the_python_twin_on_edge_cases():
    rng = random.Random(3)
    ar = K.arith_mod(P)
    for _ in range(400):
        n = rng.randrange(3)
        outer = rng.random() < 0.5
        acts = [[rng.randrange(-2, 3) % P for _ in range(rng.randrange(4))]
                for _ in range(rng.randrange(3))]  # fmt: skip
        size = len(acts) * R.layer_size(n, outer) + rng.choice((0, 0, -1, 1, -3))
        th = [rng.randrange(-3, 4) % P for _ in range(max(size, 0))]
        dth = [rng.randrange(-3, 4) % P for _ in range(max(size + rng.choice((0, 0, -2)), 0))]
        h = [rng.randrange(-3, 4) % P for _ in range(n + rng.choice((0, 0, -1, 1)) if n else 0)]
        dh = [rng.randrange(-3, 4) % P for _ in range(len(h) + rng.choice((0, 0, -1)) if h else 0)]
        want = R.resnet_dual(ar, n, outer, acts, th, dth, h, dh)
        assert lean_resnet_dual(ar, n, outer, acts, th, dth, h, dh) == want
        assert lean_vec_add(ar, h, dh) == R.vec_add(ar, h, dh)


# ---------------------------------------------------------------- (d) the template
def minor_inverse(M: list[list[int]]) -> list[list[int]]:
    V = nmod_mat(M, P).inv()
    return [[int(V[i, j]) for j in range(V.ncols())] for i in range(V.nrows())]


def small_certificate() -> tuple[R.ResNetInstance, K.LowerWitness]:
    """n = 1, depth 2, sigma = t^2, theta = (w1, b1, w2, b2) = (1, 1/2, 2, -1/3), no outer
    matrices: F(x) = h + (2h - 1/3)^2 with h = x + (x + 1/2)^2; the 4 x 4 Jacobian minor on the
    samples 0, 1, 2, -1 is invertible mod P, so the rank is 4 (all parameters)."""
    theta = [(1, 1), (1, 2), (2, 1), (-1, 3)]
    inst = R.ResNetInstance(1, [SQUARE, SQUARE], False, theta)
    theta_inv = [pow(d, -1, P) for _, d in theta]
    acts_inv = [[1, 1, 1], [1, 1, 1]]
    samples = [[0], [1], [2], [-1]]
    rows = [(s, 0) for s in range(4)]
    cols = [0, 1, 2, 3]
    M = R.jac_minor_resnet(
        P, 1, False, K.acts_mod(P, inst.acts, acts_inv), K.rats_mod(P, theta, theta_inv),
        samples, rows, cols,
    )  # fmt: skip
    return inst, K.LowerWitness(P, samples, theta_inv, acts_inv, rows, cols, minor_inverse(M))


def outer_certificate() -> tuple[R.ResNetInstance, K.LowerWitness, K.UpperWitness]:
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
    thm = K.rats_mod(P, theta, theta_inv)
    am = K.acts_mod(P, inst.acts, acts_inv)
    full = R.jac_minor_resnet(P, 1, True, am, thm, samples, rows, list(range(6)))
    cols = next(
        list(c)
        for c in itertools.combinations(range(6), 4)
        if nmod_mat([[row[j] for j in c] for row in full], P).rank() == 4
    )
    M = R.jac_minor_resnet(P, 1, True, am, thm, samples, rows, cols)
    lower = K.LowerWitness(P, samples, theta_inv, acts_inv, rows, cols, minor_inverse(M))
    tangents = [[2, 1, -4, 0, 0, 0], [0, 0, 0, 6, -1, -6]]
    upper = K.UpperWitness(P, tangents, [0, 3], minor_inverse([[2, 0], [0, 6]]))
    return inst, lower, upper


def render_resnet(meta: dict[str, str], inst: R.ResNetInstance, lower: K.LowerWitness, r: int,
                  upper: K.UpperWitness | None = None, bound: int = 0) -> str:  # fmt: skip
    """The template rendered with every value a ready-made Lean literal (`L.lean`)."""
    values: dict[str, Any] = {
        "width": inst.width, "acts": inst.acts, "outer": inst.outer, "theta": inst.theta,
        "p": lower.p, "samples": lower.samples, "theta_inv": lower.theta_inv,
        "acts_inv": lower.acts_inv, "rows": lower.rows, "cols": lower.cols, "inv": lower.inv,
    }  # fmt: skip
    context: dict[str, Any] = {k: L.lean(v) for k, v in values.items()}
    context["rank_lower"] = str(r)
    context["upper"] = None
    if upper is not None:
        context["upper"] = {
            "p": L.lean(upper.p),
            "tangents": L.lean(upper.tangents),
            "cols": L.lean(upper.cols),
            "inv": L.lean(upper.inv),
            "bound": str(bound),
        }
    return JINJA.get_template(TEMPLATE.name).render(**meta, **context)


def read_resnet(text: str) -> dict[str, Any]:
    """Every literal of a rendered ResNet rank file, read back as kernel_resnet data."""
    kind, inst = read_structure(text, "inst")
    assert kind == "ResNetInstance"
    kind, lower = read_structure(text, "lower")
    assert kind == "LowerWitness"
    out: dict[str, Any] = {
        "inst": R.ResNetInstance(**inst),
        "lower": K.LowerWitness(**{snake(k): v for k, v in lower.items()}),
        "rank_lower": int(_theorem(text, "rank_lower_check", "checkRankLowerResnet", "lower")),
        "upper": None,
    }
    if re.search(r"^def upper\b", text, re.M):
        kind, upper = read_structure(text, "upper")
        assert kind == "UpperWitness"
        out["upper"] = K.UpperWitness(**upper)
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
    rank = JINJA.get_template("rank.lean.j2").render(
        **META, widths="[1, 1]", acts=L.lean(inst.acts), bias="false", theta=L.lean(inst.theta),
        p=L.lean(lower.p), samples=L.lean(lower.samples), theta_inv=L.lean(lower.theta_inv),
        acts_inv=L.lean(lower.acts_inv), rows=L.lean(lower.rows), cols=L.lean(lower.cols),
        inv=L.lean(lower.inv), rank_lower="4", upper=None,
    )  # fmt: skip
    start = rank.index("def lower :")
    assert text[text.index("def lower :") :].replace("checkRankLowerResnet", "checkRankLower") == (
        rank[start:].replace("f_theta", "F_theta")
    )


@pytest.mark.parametrize(
    "what,anchor,old,new",
    [
        ("an entry of the inverse", "def lower :", "inv :=\n      [[", "inv :=\n      [[1"),
        ("a sample", "def lower :", "[[0], [1], [2], [-1]]", "[[0], [1], [2], [-2]]"),
        ("the outer flag", "def inst :", "false", "true"),
        ("the width", "def inst :", "width :=\n      1", "width :=\n      2"),
        ("a parameter", "def inst :", "(2, 1)", "(3, 1)"),
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
    bad = K.UpperWitness(P, [[2, 1, -4, 0, 0, 0], [0, 0, 0, 6, -1, -5]], upper.cols, upper.inv)
    assert not R.check_rank_upper_resnet(inst, bad, 4)  # not a kernel vector
    assert not _layout_problems(text)


def test_the_resnet_template_refuses_a_missing_variable():
    with pytest.raises(jinja2.UndefinedError):
        JINJA.get_template(TEMPLATE.name).render(module="M", width="1")


# ---------------------------------------------------------------- (e) orbits
# Python transcriptions, clause by clause, of the Lean orbit defs, with Lean's `Nat`
# arithmetic: truncated subtraction, `k / 0 = 0`, `k % 0 = k`. Every Bool of a `&&` chain is
# computed (Lean's `&&` is a total function; the order only matters for the Python twin).
def nat_sub(a: int, b: int) -> int:
    return max(a - b, 0)


def nat_div(a: int, b: int) -> int:
    return 0 if b == 0 else a // b


def nat_mod(a: int, b: int) -> int:
    return a if b == 0 else a % b


def lean_flip_param(n, outer, layer, neuron, t0, k, v):
    size = R.layer_size(n, outer)
    rem = nat_sub(k, layer * size)
    tests = [nat_div(k, size) == layer, rem < n * (n + 1), nat_div(rem, n + 1) == neuron]
    if all(tests):
        if nat_mod(rem, n + 1) < n:
            return (-v[0], v[1])
        return K.qadd(K.qmul((2, 1), t0), (-v[0], v[1]))
    return v


def lean_flip_params_from(n, outer, layer, neuron, t0, k, th):
    if not th:
        return []
    v, rest = th[0], th[1:]
    return [
        lean_flip_param(n, outer, layer, neuron, t0, k, v),
        *lean_flip_params_from(n, outer, layer, neuron, t0, k + 1, rest),
    ]


def lean_flip_params(n, outer, layer, neuron, t0, th):
    return lean_flip_params_from(n, outer, layer, neuron, t0, 0, th)


def lean_qeq_all(a, b):
    if not a and not b:
        return True
    if a and b:
        x, y = a[0], b[0]
        return (x[0] * y[1] == y[0] * x[1]) and lean_qeq_all(a[1:], b[1:])
    return False


def lean_same_function(inst, th2, pts):
    if not pts:
        return True
    x, rest = pts[0], pts[1:]
    z = K.zeros(K.ARITH_Q, len(inst.theta))
    zn = K.zeros(K.ARITH_Q, inst.width)
    a = lean_resnet_dual(K.ARITH_Q, inst.width, inst.outer, inst.acts, inst.theta, z,
                         K.ints_q(x), zn)  # fmt: skip
    b = lean_resnet_dual(K.ARITH_Q, inst.width, inst.outer, inst.acts, th2, z, K.ints_q(x), zn)
    return lean_qeq_all(a[0], b[0]) and lean_same_function(inst, th2, rest)


def lean_check_orbit_generator(inst, layer, neuron, t0, th2):
    return (
        R.resnet_shape_ok(inst, [])
        and K.rats_pos(inst.theta)
        and K.acts_pos(inst.acts)
        and t0[1] > 0
        and layer < len(inst.acts)
        and neuron < inst.width
        and K.rats_pos(th2)
        and lean_qeq_all(th2, lean_flip_params(inst.width, inst.outer, layer, neuron, t0,
                                               inst.theta))
        and lean_same_function(inst, th2, K.lattice(inst.width, K.degree_bound(inst.acts)))
    )  # fmt: skip


def test_the_lean_flip_param_agrees_with_the_python_twin_on_all_small_naturals():
    v, t0 = (5, 3), (-2, 7)
    for n, outer in itertools.product(range(1, 4), (False, True)):
        size = R.layer_size(n, outer)
        for layer, neuron, k in itertools.product(range(4), range(n + 3), range(5 * size + 3)):
            want = R.flip_param(n, outer, layer, neuron, t0, k, v)
            assert lean_flip_param(n, outer, layer, neuron, t0, k, v) == want, (n, layer, k)


def test_the_lean_flip_param_agrees_with_the_python_twin_on_random_naturals():
    rng = random.Random(7)
    for _ in range(20000):
        n = rng.choice((1, 1, 2, 3, rng.randrange(1, 50), rng.randrange(1, 10**6)))
        outer = rng.random() < 0.5
        size = R.layer_size(n, outer)
        layer = rng.choice((0, 1, rng.randrange(10), rng.randrange(10**9), 10**30))
        neuron = rng.choice((0, n - 1, n, n + 1, rng.randrange(n + 2), 10**20))
        k = rng.choice((
            0, layer * size, layer * size - 1, layer * size + size, layer * size + n * (n + 1),
            layer * size + neuron * (n + 1) + rng.randrange(n + 2), rng.randrange(10**40),
            rng.randrange((layer + 2) * size),
        ))  # fmt: skip
        k = max(k, 0)
        t0 = (rng.randrange(-9, 10), rng.randrange(1, 9))
        v = (rng.randrange(-9, 10), rng.randrange(1, 9))
        want = R.flip_param(n, outer, layer, neuron, t0, k, v)
        assert lean_flip_param(n, outer, layer, neuron, t0, k, v) == want, (n, outer, layer, k)


def test_width_zero_is_the_documented_difference_of_flip_param():
    """Python divides by `layer_size(0, _) = 0`; Lean's `k / 0 = 0` returns `v` unchanged.
    Unreachable from `checkOrbitGenerator`, which requires `width ≥ 1` first."""
    for outer, layer, neuron, k in itertools.product((False, True), range(3), range(3), range(4)):
        with pytest.raises(ZeroDivisionError):
            R.flip_param(0, outer, layer, neuron, (1, 1), k, (2, 3))
        assert lean_flip_param(0, outer, layer, neuron, (1, 1), k, (2, 3)) == (2, 3)
    inst = R.ResNetInstance(0, [SQUARE], False, [])
    assert R.check_orbit_generator(inst, 0, 0, (1, 1), []) is False
    assert lean_check_orbit_generator(inst, 0, 0, (1, 1), []) is False
    text = RESNET.read_text()
    end = text.index("def flipParam (")
    doc = text[text.rindex("/--", 0, end) : end]
    assert "ZeroDivisionError" in doc and "width ≥ 1" in doc and "k / 0 = 0" in doc


def test_the_lean_flip_params_qeq_all_and_helper_agree_with_the_python_twin():
    rng = random.Random(11)
    for _ in range(2000):
        n = rng.randrange(1, 4)
        outer = rng.random() < 0.5
        layer, neuron = rng.randrange(4), rng.randrange(n + 2)
        t0 = (rng.randrange(-5, 6), rng.randrange(1, 5))
        th = [(rng.randrange(-5, 6), rng.randrange(1, 5)) for _ in range(rng.randrange(30))]
        want = R.flip_params(n, outer, layer, neuron, t0, th)
        assert lean_flip_params(n, outer, layer, neuron, t0, th) == want
        k = rng.randrange(40)
        assert lean_flip_params_from(n, outer, layer, neuron, t0, k, th) == [
            R.flip_param(n, outer, layer, neuron, t0, k + i, v) for i, v in enumerate(th)
        ]
        other = [(a * 2, b * 2) for a, b in want]
        if th and rng.random() < 0.5:
            i = rng.randrange(len(other))
            other[i] = (other[i][0] + 1, other[i][1])
        for a, b in [(want, other), (want, want[:-1]), (want[:-1], want), ([], []), ([], th)]:
            assert lean_qeq_all(a, b) == R.qeq_all(a, b)


def sigma_even() -> list[tuple[int, int]]:
    """sigma(t) = t^4 + t^2, even, so -1 is a root of unity at t0 = 0."""
    return [(0, 1), (0, 1), (1, 1), (0, 1), (1, 1)]


def orbit_instance() -> R.ResNetInstance:
    theta = [(2, 1), (1, 1), (3, 1), (-1, 1)]
    return R.ResNetInstance(1, [sigma_even(), sigma_even()], False, theta)


def test_the_lean_check_orbit_generator_agrees_with_the_python_twin():
    rng = random.Random(5)
    bad = 0
    for _ in range(150):
        n = rng.randrange(3)
        outer = rng.random() < 0.3
        acts = [rng.choice((SQUARE, [(1, 1), (0, 1), (1, 2)], [(0, 1), (1, 1)], [(1, 1)]))
                for _ in range(rng.randrange(3))]  # fmt: skip
        size = len(acts) * R.layer_size(n, outer) + rng.choice((0, 0, 0, 1, -1))
        theta = [(rng.randrange(-2, 3), rng.choice((1, 1, 2, -1))) for _ in range(max(size, 0))]
        inst = R.ResNetInstance(n, acts, outer, theta)
        layer, neuron = rng.randrange(3), rng.randrange(3)
        t0 = (rng.choice((0, 0, 1)), rng.choice((1, 1, 2, 0)))
        th2 = R.flip_params(n, outer, layer, neuron, t0, theta) if n else list(theta)
        if th2 and rng.random() < 0.3:
            th2[0] = (th2[0][0] + 1, th2[0][1])
        want = R.check_orbit_generator(inst, layer, neuron, t0, th2)
        assert lean_check_orbit_generator(inst, layer, neuron, t0, th2) == want
        bad += not want
    inst = orbit_instance()
    th2 = R.flip_params(1, False, 0, 0, (0, 1), inst.theta)
    assert lean_check_orbit_generator(inst, 0, 0, (0, 1), th2) is True
    assert R.check_orbit_generator(inst, 0, 0, (0, 1), th2) is True
    assert bad > 0
    for n, outer, depth in itertools.product((1, 2), (False, True), (1, 2)):  # sigma even at 0
        size = depth * R.layer_size(n, outer)
        theta = [(rng.randrange(-2, 3), rng.randrange(1, 3)) for _ in range(size)]
        inst = R.ResNetInstance(n, [SQUARE] * depth, outer, theta)
        layer, neuron = rng.randrange(depth), rng.randrange(n)
        th2 = R.flip_params(n, outer, layer, neuron, (0, 1), inst.theta)
        assert R.check_orbit_generator(inst, layer, neuron, (0, 1), th2) is True
        assert lean_check_orbit_generator(inst, layer, neuron, (0, 1), th2) is True


def render_orbit(meta: dict[str, str], inst: R.ResNetInstance,
                 gens: list[tuple[int, int, tuple[int, int], list]]) -> str:  # fmt: skip
    """The orbit template rendered with every value a ready-made Lean literal (`L.lean`)."""
    context: dict[str, Any] = {
        "width": L.lean(inst.width), "acts": L.lean(inst.acts), "outer": L.lean(inst.outer),
        "theta": L.lean(inst.theta),
        "gens": [
            {"index": i, "layer": L.lean(layer), "neuron": L.lean(neuron), "t0": L.lean(t0),
             "theta": L.lean(th)}
            for i, (layer, neuron, t0, th) in enumerate(gens)
        ],
    }  # fmt: skip
    return JINJA.get_template(ORBIT_TEMPLATE.name).render(**meta, **context)


def read_orbit(text: str) -> tuple[R.ResNetInstance, list[tuple[int, int, Any, Any]]]:
    """The instance and every generator (layer, neuron, t0, theta) of a rendered orbit file."""
    kind, inst = read_structure(text, "inst")
    assert kind == "ResNetInstance"
    t0s = dict(re.findall(r"^def t0_(\d+) : Int × Int :=\n  (.*)$", text, re.M))
    thetas = dict(re.findall(r"^def theta_(\d+) : List \(Int × Int\) :=\n  (.*?)\n\n", text,
                             re.M | re.S))  # fmt: skip
    theorems = re.findall(
        r"^set_option maxRecDepth 100000 in\nset_option maxHeartbeats 0 in\n"
        r"theorem gen_(\d+) : NNCert\.checkOrbitGenerator inst (\d+) (\d+) t0_(\d+) theta_(\d+)"
        r" = true := by decide \+kernel$",
        text,
        re.M,
    )
    assert len(theorems) == len(t0s) == len(thetas) == text.count("\ntheorem ")
    gens = []
    for i, layer, neuron, j, k in theorems:
        assert i == j == k
        gens.append((int(layer), int(neuron), read_literal(t0s[i]), read_literal(thetas[i])))
    return R.ResNetInstance(**inst), gens


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
    text = render_orbit(ORBIT_META, inst, [(0, 0, (0, 1), th2)])
    back, gens = read_orbit(text)
    assert back == inst and gens == [(0, 0, (0, 1), th2)]
    assert R.check_orbit_generator(back, *gens[0]) is True
    assert lean_check_orbit_generator(back, *gens[0]) is True
    assert text.startswith("import NNCert\n\n/-!\n")
    assert "namespace Certificates.ResNetOrbit_even\n" in text
    assert text.endswith("\nend Certificates.ResNetOrbit_even\n")
    assert "def t0_0 : Int × Int :=\n  (0, 1)\n" in text
    assert "def theta_0 : List (Int × Int) :=\n  [(-2, 1), (-1, 1), (3, 1), (-1, 1)]\n" in text
    assert (
        "theorem gen_0 : NNCert.checkOrbitGenerator inst 0 0 t0_0 theta_0 = true := by decide "
        "+kernel\n" in text
    )
    assert not _layout_problems(text)
    assert not [line for line in text.splitlines() for pat, _ in FORBIDDEN if re.search(pat, line)]
    rank = render_resnet(META, inst, small_certificate()[1], 4)
    start = "/-- The instance:"
    assert text[text.index(start) :].split("\n\n")[0] == rank[rank.index(start) :].split("\n\n")[0]


def test_two_generators_render_in_order():
    inst = orbit_instance()
    gens = [(layer, 0, (0, 1), R.flip_params(1, False, layer, 0, (0, 1), inst.theta))
            for layer in (0, 1)]  # fmt: skip
    text = render_orbit(ORBIT_META, inst, gens)
    back, read = read_orbit(text)
    assert back == inst and read == gens
    assert all(R.check_orbit_generator(back, *g) for g in read)
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
    back, gens = read_orbit(text)
    assert (back, gens) != (inst, [(0, 0, (0, 1), th2)]), what
    assert R.check_orbit_generator(back, *gens[0]) is False
    assert lean_check_orbit_generator(back, *gens[0]) is False


def test_a_consistent_flip_at_the_wrong_point_fails_on_the_lattice():
    """th2 is the flip at t0 = 1, so the flip checks pass; sigma is not even about 1, so only
    `sameFunction` rejects it."""
    inst = orbit_instance()
    th2 = R.flip_params(1, False, 0, 0, (1, 1), inst.theta)
    assert R.qeq_all(th2, R.flip_params(1, False, 0, 0, (1, 1), inst.theta))
    assert not R.same_function(inst, th2, K.lattice(1, K.degree_bound(inst.acts)))
    assert R.check_orbit_generator(inst, 0, 0, (1, 1), th2) is False
    assert lean_check_orbit_generator(inst, 0, 0, (1, 1), th2) is False


def test_the_orbit_template_refuses_a_missing_variable():
    with pytest.raises(jinja2.UndefinedError):
        JINJA.get_template(ORBIT_TEMPLATE.name).render(module="M", width="1")
    with pytest.raises(jinja2.UndefinedError):
        render = JINJA.get_template(ORBIT_TEMPLATE.name).render
        render(**ORBIT_META, width="1", acts="[]", outer="false", theta="[]",
               gens=[{"index": 0, "layer": "0", "neuron": "0", "t0": "(0, 1)"}])  # fmt: skip
