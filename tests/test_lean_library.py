"""Static lint of the Lean checker library (lean/) and the Lean templates (templates/lean/).

No Lean toolchain is available where these run, so they check what can be checked without
one: no forbidden token (lean-guide.md B1/B3), explicit structural recursion on a parameter
that a `match` takes apart, the name-by-name and order-by-order correspondence with the
Python twins certify/checker/kernel/{lists,arith,net,rank_core,rank}.py, and that the literals
of the example certificate, read back from the Lean text,
make the Python twin accept it.
"""

from __future__ import annotations

import ast
import json
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
import pytest

from certify.checker.kernel.arith import acts_mod, rats_mod
from certify.checker.kernel.rank import (
    LowerWitness,
    RankInstance,
    UpperWitness,
    check_rank_lower,
    check_rank_upper,
    mlp_rows_mod,
)
from certify.checker.kernel.rank_core import check_rank_core

ROOT = Path(__file__).resolve().parents[1]
LEAN_DIR = ROOT / "lean"
TEMPLATE_DIR = ROOT / "templates" / "lean"
CHECKER = ROOT / "certify" / "checker"
KERNEL_DIR = CHECKER / "kernel"
EXAMPLE = LEAN_DIR / "Certificates" / "Example.lean"
# The import order of the library: Lists, Arith, Net, RankCore, Rank.
MODULES = ("Lists", "Arith", "Net", "RankCore", "Rank")
LIBRARY = [LEAN_DIR / "NNCert" / f"{m}.lean" for m in MODULES]
# The Python twin of each library module (the file its header must name): one Python module
# per Lean module under certify/checker/kernel/.
TWIN_FILES = {
    "Lists": KERNEL_DIR / "lists.py",
    "Arith": KERNEL_DIR / "arith.py",
    "Net": KERNEL_DIR / "net.py",
    "RankCore": KERNEL_DIR / "rank_core.py",
    "Rank": KERNEL_DIR / "rank.py",
}

# Lean definitions without a Python function of the same name, and why.
LEAN_ONLY = {
    "allZero": "helper of isUnitRow: the Python checks the entries after index k inside one "
    "all(...) over enumerate(row); structural recursion needs that tail check as its own "
    "function (lean-guide B3.2)",
    "nthD": "the one structural list lookup (with a default) that nth, nthNat, nthRow and nthQ "
    "instantiate at their types' defaults; in Python and Coq each twin is its own function",
}
# Python module-level constants whose Lean twin is a def.
PYTHON_CONSTANTS = {"ARITH_Q": "arithQ", "ARITH_Z": "arithZ"}

# (pattern, why it is forbidden); lean-guide.md B1.4, B3.4, A2.6, A5.
FORBIDDEN = [
    (r"\bsorry\b", "sorry"),
    (r"\badmit\b", "admit"),
    (r"\bnative_decide\b", "native_decide"),
    (r"\+native\b", "decide +native"),
    (r"ofReduceBool|trustCompiler", "compiler-trusting axiom"),
    (r"\baxiom\b", "axiom"),
    (r"\bpartial\b", "partial def"),
    (r"\bopaque\b", "opaque"),
    (r"\bunsafe\b", "unsafe"),
    (r"\bimplemented_by\b", "implemented_by"),
    (r"\bextern\b", "extern"),
    (r"\bArray\b", "Array"),
    (r"\bFin\b", "Fin"),
    (r"\bRat\b", "Rat"),
    (r"\bFloat\b", "Float"),
    (r"\bString\b", "String"),
    (r"\bInt\.div\b", "Int.div (removed; use Int.ediv)"),
    (r"\bInt\.mod\b", "Int.mod (removed; use Int.emod)"),
    (r"^module\b", "module header"),
    (r"\bdecreasing_by\b", "well-founded recursion"),
    (r"termination_by(?! structural)", "termination_by without structural"),
    (r"\bif\s+[\w']+\s*:", "dependent if (dite)"),
]

JINJA = jinja2.Environment(
    loader=jinja2.FileSystemLoader(str(TEMPLATE_DIR)),
    undefined=jinja2.StrictUndefined,
    autoescape=False,
    trim_blocks=True,
    lstrip_blocks=True,
    keep_trailing_newline=True,
)

EXAMPLE_META = {
    "module": "Certificates.Example",
    "name": "example",
    "sha256": "none (hand-written example, not generated from a certificate JSON)",
    "claim": (
        "Hand-written example. For the network x ↦ w2 σ(w1 x) with σ(t) = t + t² (widths "
        "[1, 1, 1], no biases) at θ = (w1, w2) = (2, 3), the Jacobian of "
        "θ ↦ (f_θ(1), f_θ(2)) has rank 2."
    ),
}


# ---------------------------------------------------------------- readers
def lean_sources() -> list[Path]:
    return sorted(p for p in LEAN_DIR.rglob("*.lean") if ".lake" not in p.parts)


def template_at(path: Path) -> jinja2.Template:
    """The jinja2 template at a path under templates/lean (<family>/<kind>.lean.j2)."""
    return JINJA.get_template(path.relative_to(TEMPLATE_DIR).as_posix())


def template_sources() -> list[Path]:
    """Every Lean template: templates/lean/<family>/<kind>.lean.j2 and the bundle's own."""
    return sorted(TEMPLATE_DIR.rglob("*.j2"))


def test_the_lints_read_a_lean_template_of_every_family_of_the_registry():
    from certify.checker import registry

    families = {p.parent.name for p in template_sources()}
    assert set(registry.FAMILIES) <= families, families


def camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(w[:1].upper() + w[1:] for w in rest)


def snake(name: str) -> str:
    return re.sub(r"[A-Z]", lambda m: "_" + m.group(0).lower(), name)


@dataclass
class LeanDef:
    name: str
    path: Path
    explicit: list[str]  # explicit parameter names, in order
    params: list[str]  # all parameter names
    body: str  # everything after the signature's `:=`, termination clause excluded
    termination: list[str]
    documented: bool


def _documented(lines: list[str], i: int) -> bool:
    """The declaration on line i is directly preceded by a `/-- ... -/` docstring."""
    if i == 0 or not lines[i - 1].rstrip().endswith("-/"):
        return False
    for j in range(i - 1, -1, -1):
        if lines[j].startswith("/--"):
            return True
        if not lines[j].strip() or re.match(r"(def|structure|theorem) ", lines[j]):
            return False
    return False


def lean_defs(path: Path) -> list[LeanDef]:
    lines = path.read_text().splitlines()
    out: list[LeanDef] = []
    for i, line in enumerate(lines):
        m = re.match(r"def ([\w']+)", line)
        if not m:
            continue
        block = [line]
        j = i + 1
        while (
            j < len(lines)
            and lines[j].strip()
            and (lines[j][0].isspace() or lines[j].startswith("termination_by"))
        ):
            block.append(lines[j])
            j += 1
        termination = [b for b in block if b.startswith("termination_by")]
        text = "\n".join(b for b in block if not b.startswith("termination_by"))
        header, _, body = text.partition(":=")
        binders = re.findall(r"([({])\s*([\w' ]+?)\s*:(?!=)", header)
        explicit = [n for kind, names in binders if kind == "(" for n in names.split()]
        params = [n for _, names in binders for n in names.split()]
        out.append(
            LeanDef(m.group(1), path, explicit, params, body, termination, _documented(lines, i))
        )
    return out


def library_defs() -> list[LeanDef]:
    return [d for path in LIBRARY for d in lean_defs(path)]


def lean_structures(path: Path) -> dict[str, list[str]]:
    """structure name -> field names in order."""
    out: dict[str, list[str]] = {}
    lines = path.read_text().splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"structure (\w+)\b.* where$", line)
        if not m:
            continue
        fields = []
        for field_line in lines[i + 1 :]:
            f = re.match(r"  (\w+) : ", field_line)
            if not f:
                break
            fields.append(f.group(1))
        out[m.group(1)] = fields
    return out


def lean_structure_types(path: Path) -> dict[str, dict[str, str]]:
    """structure -> field -> Lean type, as written in the file (shared by the twin tests)."""
    out: dict[str, dict[str, str]] = {}
    lines = path.read_text().splitlines()
    for name, fields in lean_structures(path).items():
        start = next(i for i, line in enumerate(lines) if line.startswith(f"structure {name} "))
        out[name] = {}
        for line in lines[start + 1 : start + 1 + len(fields)]:
            field, _, ty = line.strip().partition(" : ")
            out[name][field] = ty
    return out


def lean_type_of(annotation: ast.expr, field: str, nat_fields: set[str]) -> str:
    """The Lean type a Python twin's field annotation stands for: `int` is `Nat` for the listed
    count/index fields and `Int` otherwise, `Rat` a pair, `Term` a term, `tuple[int, int]` a
    pair of naturals (labels), `list[...]` a `List`."""
    if isinstance(annotation, ast.Name):
        names = {
            "int": "Nat" if field in nat_fields else "Int",
            "bool": "Bool",
            "Rat": "(Int × Int)",
            "Term": "((Int × Int) × List Nat)",
        }
        return names[annotation.id]
    assert isinstance(annotation, ast.Subscript)
    head = ast.unparse(annotation.value)
    if head == "tuple":
        elts = annotation.slice.elts  # type: ignore[attr-defined]
        assert [ast.unparse(e) for e in elts] == ["int", "int"]
        return "(Nat × Nat)"
    assert head == "list"
    inner = lean_type_of(annotation.slice, field, nat_fields)
    return f"List {inner}" if " " not in inner or inner.startswith("(") else f"List ({inner})"


def twin_dataclasses(twin: Path, nat_fields: set[str]) -> dict[str, dict[str, str]]:
    """Every dataclass of a Python twin module as {Lean field name: Lean type}."""
    out = {}
    for node in ast.parse(twin.read_text()).body:
        if isinstance(node, ast.ClassDef):
            out[node.name] = {
                camel(s.target.id): lean_type_of(s.annotation, s.target.id, nat_fields)
                for s in node.body
                if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)
            }
    return out


def identifiers(body: str) -> set[str]:
    """Identifiers occurring in a Lean body (shared by the twin tests)."""
    return set(re.findall(r"(?<![\w.'])([A-Za-z][\w']*)", body))


def calls(body: str, name: str) -> list[list[str]]:
    """The argument lists of the calls of `name` in `body` (atoms and parenthesised groups)."""
    found = []
    for m in re.finditer(rf"(?<![\w.']){re.escape(name)}(?![\w'])", body):
        args: list[str] = []
        pos = m.end()
        while True:
            ws = re.match(r"\s*", body[pos:])
            pos += ws.end() if ws else 0
            if pos < len(body) and body[pos] == "(":
                depth, end = 0, pos
                for end in range(pos, len(body)):
                    depth += {"(": 1, ")": -1}.get(body[end], 0)
                    if depth == 0:
                        break
                args.append(body[pos : end + 1])
                pos = end + 1
                continue
            tok = re.match(r"[\w'.]+", body[pos:])
            if not tok or tok.group(0) in ("with", "then", "else", "fun", "match"):
                break
            args.append(tok.group(0))
            pos += tok.end()
        found.append(args)
    return found


def split_top(text: str) -> list[str]:
    """`text` split at the commas outside parentheses and brackets."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += {"(": 1, "[": 1, ")": -1, "]": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    return [*parts, text[start:]]


def strict_subterms(body: str, index: int) -> set[str]:
    """Variables that a match pattern, in discriminant position `index`, binds to a strict
    sub-term of that discriminant: the tail in `_ :: xs'`, the predecessor in `n' + 1`."""
    names: set[str] = set()
    for pattern in re.findall(r"^\s*\|(.*?)=>", body, re.M):
        parts = split_top(pattern)
        if index < len(parts):
            names.update(re.findall(r"::\s*([\w']+)\s*$", parts[index]))
            names.update(re.findall(r"^\s*([\w']+)\s*\+\s*\d+\s*$", parts[index]))
    return names


def read_literal(src: str) -> Any:
    """A Lean literal of the certificate files: integers, true/false, [..], (a, b)."""
    src = src.strip()
    if src in ("true", "false"):
        return src == "true"
    if not re.fullmatch(r"[\s\d\-\[\](),]+", src):
        raise ValueError(f"not a simple Lean literal: {src[:60]!r}")
    return ast.literal_eval(src)


def read_structure(text: str, name: str) -> tuple[str, dict[str, Any]]:
    """(type, {field: value}) of `def name : NNCert.Type := { field := literal, ... }`."""
    m = re.search(rf"^def {name} : NNCert\.(\w+) :=\n  \{{(.*?)\}}$", text, re.M | re.S)
    assert m, f"def {name} not found"
    parts = re.split(r"(?:^|,)\s*([A-Za-z]\w*) :=\n", m.group(2))
    assert parts[0].strip() == "", parts[0]
    return m.group(1), {parts[i]: read_literal(parts[i + 1]) for i in range(1, len(parts), 2)}


def read_certificate(text: str) -> dict[str, Any]:
    kind, inst = read_structure(text, "inst")
    assert kind == "RankInstance"
    kind, lower = read_structure(text, "lower")
    assert kind == "LowerWitness"
    out: dict[str, Any] = {
        "inst": RankInstance(**inst),
        "lower": LowerWitness(**{snake(k): v for k, v in lower.items()}),
        "rank_lower": int(_theorem(text, "rank_lower_check", "checkRankLower", "lower")),
        "upper": None,
    }
    if re.search(r"^def upper\b", text, re.M):
        kind, upper = read_structure(text, "upper")
        assert kind == "UpperWitness"
        out["upper"] = UpperWitness(**upper)
        out["bound"] = int(_theorem(text, "rank_upper_check", "checkRankUpper", "upper"))
    return out


def _theorem(text: str, thm: str, check: str, witness: str) -> str:
    m = re.search(
        rf"^set_option maxRecDepth 100000 in\nset_option maxHeartbeats 0 in\n"
        rf"theorem {thm} : NNCert\.{check} inst {witness} (\d+) = true := by decide \+kernel$",
        text,
        re.M,
    )
    assert m, f"theorem {thm} not found in the expected form"
    return m.group(1)


def lean_literal(x: Any) -> str:
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, int):
        return str(x)
    if isinstance(x, tuple):
        return "(" + ", ".join(lean_literal(v) for v in x) + ")"
    if isinstance(x, list):
        return "[" + ", ".join(lean_literal(v) for v in x) + "]"
    raise TypeError(x)


def render_rank(meta: dict[str, str], inst: RankInstance, lower: LowerWitness, r: int,
                upper: UpperWitness | None = None, bound: int = 0) -> str:  # fmt: skip
    values: dict[str, Any] = {
        "widths": inst.widths, "acts": inst.acts, "bias": inst.bias, "theta": inst.theta,
        "p": lower.p, "samples": lower.samples, "theta_inv": lower.theta_inv,
        "acts_inv": lower.acts_inv, "rows": lower.rows, "cols": lower.cols,
    }  # fmt: skip
    context: dict[str, Any] = {k: lean_literal(v) for k, v in values.items()}
    context["rank_lower"] = str(r)
    context["upper"] = None
    if upper is not None:
        context["upper"] = {
            "p": lean_literal(upper.p),
            "tangents": lean_literal(upper.tangents),
            "cols": lean_literal(upper.cols),
            "moduli": lean_literal(upper.moduli),
            "bound": str(bound),
        }
    return JINJA.get_template("mlp/rank.lean.j2").render(**meta, **context)


def _twin_order(path: Path, module: str) -> list[tuple[str, str, int]]:
    """(Lean name, Lean module, line) of every public function and listed constant of one
    Python twin file, the twin of the Lean module `module`."""
    source = path.read_text()
    out = []
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
            name = camel(node.name)
        elif isinstance(node, ast.AnnAssign | ast.Assign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = [t.id for t in targets if isinstance(t, ast.Name) and t.id in PYTHON_CONSTANTS]
            if not names:
                continue
            name = PYTHON_CONSTANTS[names[0]]
        else:
            continue
        out.append((name, module, node.lineno))
    return out


def kernel_order() -> list[tuple[str, str]]:
    """(Lean name, Lean module) of every public kernel function and constant, in the library's
    order: module by module (MODULES), within a module in file order."""
    return [(name, mod) for mod in MODULES for name, _, _ in _twin_order(TWIN_FILES[mod], mod)]


def kernel_dataclasses() -> dict[str, list[str]]:
    out = {}
    for path in TWIN_FILES.values():
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                out[node.name] = [
                    camel(s.target.id)
                    for s in node.body
                    if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)
                ]
    return out


# ---------------------------------------------------------------- project files
def test_the_lake_project_pins_lean_v4_36_0_and_builds_both_libraries_by_default():
    assert (LEAN_DIR / "lean-toolchain").read_text() == "leanprover/lean4:v4.36.0\n"
    config = tomllib.loads((LEAN_DIR / "lakefile.toml").read_text())
    assert config["name"] == "nncert"
    assert config["defaultTargets"] == ["NNCert", "Certificates"]
    libs = {lib["name"]: lib for lib in config["lean_lib"]}
    assert set(libs) == {"NNCert", "Certificates"}
    assert libs["Certificates"]["globs"] == ["Certificates.+"]
    assert config["leanOptions"] == {"autoImplicit": False}
    manifest = json.loads((LEAN_DIR / "lake-manifest.json").read_text())
    assert manifest == {
        "version": "1.2.0",
        "packagesDir": ".lake/packages",
        "packages": [],
        "name": "nncert",
        "lakeDir": ".lake",
        "fixedToolchain": False,
    }
    assert (LEAN_DIR / ".gitignore").read_text() == "/.lake\n"


def test_the_library_root_imports_every_module_in_section_order():
    imports = re.findall(r"^import (\S+)$", (LEAN_DIR / "NNCert.lean").read_text(), re.M)
    # the kernel's modules, then the certificate families with their own twins
    # (Compind: certify/checker/kernel/compind.py, covered by tests/test_lean_compind.py;
    # ResNet: certify/checker/kernel/resnet.py, covered by tests/test_lean_resnet.py).
    # ReLU: certify/checker/kernel/relu.py, covered by tests/test_lean_relu.py; Tanh:
    # certify/checker/kernel/tanh.py, covered by tests/test_lean_tanh.py.
    assert imports == [f"NNCert.{m}" for m in (*MODULES, "Compind", "ResNet", "ReLU", "Tanh")]


@pytest.mark.parametrize("path", LIBRARY, ids=lambda p: p.name)
def test_every_library_file_names_its_python_twin_at_the_top(path: Path):
    text = path.read_text()
    assert text.startswith("/-\n")
    head = text[: text.index("-/")]
    assert str(TWIN_FILES[path.stem].relative_to(ROOT)) in head
    assert f"(NNCert/{path.stem})" in head
    assert "namespace NNCert\n" in text and text.rstrip().endswith("end NNCert")


# ---------------------------------------------------------------- (a) forbidden tokens
@pytest.mark.parametrize(
    "path", lean_sources() + template_sources(), ids=lambda p: str(p.relative_to(ROOT))
)
def test_no_lean_source_or_template_contains_a_forbidden_token(path: Path):
    hits = []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        for pattern, why in FORBIDDEN:
            if re.search(pattern, line):
                hits.append(f"{path.name}:{n}: {why}: {line.strip()}")
    assert not hits, "\n".join(hits)


def test_the_forbidden_token_list_catches_what_it_should():
    bad = [
        "theorem t : x = y := by native_decide",
        "partial def f := 1",
        "def f (x : Array Int) := x",
        "def f (i : Fin 3) := i",
        "#eval Int.mod 3 2",
        "module",
        "termination_by xs.length",
        "  if h : i < n then a else b",
        "theorem t : P := by decide +native",
    ]
    for line in bad:
        assert any(re.search(p, line) for p, _ in FORBIDDEN), line
    ok = ["#print axioms Certificates.X.rank_lower_check", "(a % p) -- Int.emod", "ratsMod"]
    for line in ok:
        assert not any(re.search(p, line) for p, _ in FORBIDDEN), line


# ---------------------------------------------------------------- (b) structural recursion
def test_the_def_reader_finds_every_library_def():
    defs = library_defs()
    assert len(defs) == len({d.name for d in defs}) > 50
    assert all(d.body.strip() for d in defs)


def recursion_problems(d: LeanDef) -> list[str]:
    """Why `d` is not plainly structural: a recursive def must name its decreasing parameter
    with `termination_by structural x`, take `x` apart in its first `match`, and pass, in the
    position of `x`, a strict sub-term bound by that match to every recursive call."""
    recursive = calls(d.body, d.name)
    if not recursive:
        return [f"not recursive but has {d.termination}"] if d.termination else []
    if len(d.termination) != 1:
        return ["expected exactly one termination_by structural line"]
    m = re.fullmatch(r"termination_by structural ([\w']+)", d.termination[0])
    if not m or m.group(1) not in d.explicit:
        return [f"{d.termination[0]!r} does not name an explicit parameter"]
    arg = m.group(1)
    first_match = re.search(r"\bmatch (.*?) with\b", d.body)
    discriminants = [x.strip() for x in first_match.group(1).split(",")] if first_match else []
    if arg not in discriminants:
        return [f"the first match does not take {arg} apart"]
    index = d.explicit.index(arg)
    smaller = strict_subterms(d.body, discriminants.index(arg)) - {"_"}
    return [
        f"recursive call {args} does not pass a strict sub-term of {arg}"
        for args in recursive
        if len(args) <= index or args[index] not in smaller
    ]


@pytest.mark.parametrize("d", library_defs(), ids=lambda d: d.name)
def test_every_recursive_lean_def_recurses_structurally_on_a_matched_parameter(d: LeanDef):
    assert not recursion_problems(d), f"{d.name}: {recursion_problems(d)}"


BAD_RECURSION = {
    "no clause": "def f (xs : List Int) : Nat :=\n  match xs with\n  | [] => 0\n"
    "  | _ :: xs' => f xs'",
    "whole argument": "def f (xs : List Int) : Nat :=\n  match xs with\n  | [] => 0\n"
    "  | _ :: xs' => f xs\ntermination_by structural xs",
    "tail function": "def f (xs : List Int) : Nat :=\n  match xs with\n  | [] => 0\n"
    "  | _ => f xs.tail\ntermination_by structural xs",
    "other argument": "def f (xs ys : List Int) : Nat :=\n  match xs, ys with\n"
    "  | _ :: xs', _ :: ys' => f ys' xs'\n  | _, _ => 0\ntermination_by structural xs",
    "not matched": "def f (n : Nat) : Nat :=\n  cond (Nat.beq n 0) 0 (f (n - 1))\n"
    "termination_by structural n",
}


@pytest.mark.parametrize("why", BAD_RECURSION)
def test_the_recursion_lint_rejects_a_def_that_is_not_plainly_structural(why: str, tmp_path: Path):
    path = tmp_path / "Bad.lean"
    path.write_text(BAD_RECURSION[why] + "\n")
    [d] = lean_defs(path)
    assert recursion_problems(d)


# ---------------------------------------------------------------- warnings (--wfail)
def _used(name: str, text: str) -> bool:
    return re.search(rf"(?<![\w.']){re.escape(name)}(?![\w'])", text) is not None


def _scope(lines: list[str], i: int, first: str, strict: bool) -> str:
    """`first` plus the lines after line i that are indented deeper than it (`strict`) or at
    least as deep (not `strict`): the scope of a match alternative or a `let` on line i."""
    indent = len(lines[i]) - len(lines[i].lstrip())
    out = [first]
    for line in lines[i + 1 :]:
        depth = len(line) - len(line.lstrip())
        if line.strip() and (depth <= indent if strict else depth < indent):
            break
        out.append(line)
    return "\n".join(out)


def unused_names(d: LeanDef) -> list[str]:
    """Names the unusedVariables linter would report (a warning, so an error under
    `lake build --wfail`): explicit parameters, `let` names and match-pattern variables that
    never occur in their scope. A leading `_` silences the linter, as in Lean."""
    out = [f"parameter {p}" for p in d.explicit if not p.startswith("_") and not _used(p, d.body)]
    lines = d.body.splitlines()
    for i, line in enumerate(lines):
        if m := re.match(r"\s*let ([\w']+)\s*:=", line):
            name = m.group(1)
            if not name.startswith("_") and not _used(name, _scope(lines, i, "", False)):
                out.append(f"let {name}")
        if m := re.match(r"\s*\|(.*?)=>(.*)$", line):
            rhs = _scope(lines, i, m.group(2), True)
            for v in re.findall(r"(?<![\w.'])([A-Za-z][\w']*)", m.group(1)):
                if v not in ("true", "false", "none", "some") and not _used(v, rhs):
                    out.append(f"pattern variable {v} in |{m.group(1)}=>")
    return out


def all_library_defs() -> list[LeanDef]:
    return [d for path in sorted((LEAN_DIR / "NNCert").glob("*.lean")) for d in lean_defs(path)]


@pytest.mark.parametrize("d", all_library_defs(), ids=lambda d: d.name)
def test_no_library_def_leaves_a_variable_unused_which_wfail_would_make_an_error(d: LeanDef):
    assert not unused_names(d), f"{d.name}: {unused_names(d)}"


UNUSED = {  # (what Lean warns about, the same def with the warning silenced or fixed)
    "parameter": (
        "def f (xs : List Int) (k : Nat) : Nat :=\n  xs.length",
        "def f (xs : List Int) (_k : Nat) : Nat :=\n  xs.length",
    ),
    "let": (
        "def f (xs : List Int) : Nat :=\n  let n := xs.length\n  let m := 2\n  n + 1",
        "def f (xs : List Int) : Nat :=\n  let n := xs.length\n  let m := 2\n  n + m",
    ),
    "pattern variable": (
        "def f (xs : List Int) : Nat :=\n  match xs with\n  | [] => 0\n"
        "  | x :: xs' => f xs' + 1\ntermination_by structural xs",
        "def f (xs : List Int) : Nat :=\n  match xs with\n  | [] => 0\n"
        "  | _x :: xs' => f xs' + 1\ntermination_by structural xs",
    ),
    "nested pattern variable": (
        "def f (xs : List Int) : Int :=\n  match xs with\n  | [] => 0\n  | x :: xs' =>\n"
        "    match f xs', x with\n    | s, t => s\ntermination_by structural xs",
        "def f (xs : List Int) : Int :=\n  match xs with\n  | [] => 0\n  | x :: xs' =>\n"
        "    match f xs', x with\n    | s, t => s + t\ntermination_by structural xs",
    ),
}


@pytest.mark.parametrize("why", UNUSED)
def test_the_unused_variable_lint_catches_what_lean_would_warn_about(why: str, tmp_path: Path):
    path = tmp_path / "Bad.lean"
    for source, warns in zip(UNUSED[why], (True, False), strict=True):
        path.write_text(source + "\n")
        [d] = lean_defs(path)
        assert bool(unused_names(d)) is warns, source


def _layout_problems(text: str) -> list[str]:
    """Layout a build trips over: a line opening with `&&`/`||` (the operator must end the
    previous line), tabs, unbalanced (nesting) block comments, the `-[` token of
    `Int.negSucc` notation glued to a literal."""
    out = [
        f"line {n}: {line.strip()[:40]}"
        for n, line in enumerate(text.splitlines(), 1)
        if line.lstrip().startswith(("&&", "||")) or "\t" in line
    ]
    depth, i = 0, 0
    while i < len(text):
        if text.startswith("/-", i):
            depth, i = depth + 1, i + 2
        elif text.startswith("-/", i):
            depth, i = depth - 1, i + 2
            if depth < 0:
                out.append(f"stray -/ at offset {i}")
        elif depth == 0 and text.startswith("--", i):
            end = text.find("\n", i)
            i = len(text) if end < 0 else end
        else:
            i += 1
    if depth:
        out.append(f"{depth} unclosed block comment(s)")
    if "-[" in re.sub(r"/-.*?-/|--[^\n]*", "", text, flags=re.S):
        out.append("a '-[' token")
    return out


@pytest.mark.parametrize(
    "path", [*lean_sources(), *template_sources()], ids=lambda p: str(p.relative_to(ROOT))
)
def test_no_lean_source_or_template_has_a_layout_hazard(path: Path):
    assert not _layout_problems(path.read_text())


def test_the_layout_lint_catches_what_it_should():
    assert _layout_problems("def f : Bool :=\n  true\n  && false\n")
    assert _layout_problems("/- a /- b -/\ndef x := 1\n")
    assert _layout_problems("/-- doc -/ -/\n")
    assert _layout_problems("def xs : List Int := [1, -[2+1]]\n")
    assert not _layout_problems("/- a /- b -/ c -/\n-- x -/\ndef xs : List Int := [-1, 2]\n")


# ---------------------------------------------------------------- (c) twin names
def test_every_public_kernel_function_has_a_lean_def_of_its_camel_case_name_in_its_module():
    where = {d.name: d.path.stem for d in library_defs()}
    missing = [(name, module) for name, module in kernel_order() if where.get(name) != module]
    assert not missing, f"no Lean def (or in the wrong module): {missing}"


def test_every_lean_def_has_a_kernel_twin_or_a_listed_reason():
    python = {name for name, _ in kernel_order()}
    lean = {d.name for d in library_defs()}
    assert lean - python == set(LEAN_ONLY), f"Lean-only defs: {sorted(lean - python)}"
    assert not set(LEAN_ONLY) & python, "a listed Lean-only def now has a Python twin"


def test_lean_defs_come_in_the_same_order_as_their_python_twins():
    lean = [d.name for d in library_defs() if d.name not in LEAN_ONLY]
    assert lean == [name for name, _ in kernel_order()]


def test_every_kernel_dataclass_is_a_lean_structure_with_the_same_fields_in_order():
    structures: dict[str, list[str]] = {}
    for path in LIBRARY:
        structures.update(lean_structures(path))
    assert structures == kernel_dataclasses()


def test_every_lean_def_and_structure_has_a_docstring():
    undocumented = [d.name for d in library_defs() if not d.documented]
    for path in LIBRARY:
        lines = path.read_text().splitlines()
        undocumented += [
            line
            for i, line in enumerate(lines)
            if line.startswith("structure ") and not _documented(lines, i)
        ]
    assert not undocumented


def test_the_lean_only_helpers_are_used_by_the_def_they_serve():
    users = {"allZero": ["isUnitRow"], "nthD": ["nth", "nthNat", "nthRow", "nthQ"]}
    assert set(users) == set(LEAN_ONLY)
    bodies = {d.name: d.body for d in library_defs()}
    for helper, served in users.items():
        assert all(calls(bodies[user], helper) for user in served), helper


# ---------------------------------------------------------------- (d) the example certificate
def test_the_example_certificate_reads_back_and_passes_the_python_twin():
    cert = read_certificate(EXAMPLE.read_text())
    assert cert["rank_lower"] == 2 and cert["upper"] is None
    assert check_rank_lower(cert["inst"], cert["lower"], cert["rank_lower"]) is True


def test_the_example_rows_are_the_recomputed_jacobian_rows_and_their_minor_is_nonsingular():
    cert = read_certificate(EXAMPLE.read_text())
    inst, w = cert["inst"], cert["lower"]
    rows = mlp_rows_mod(
        w.p,
        inst.widths,
        acts_mod(w.p, inst.acts, w.acts_inv),
        inst.bias,
        rats_mod(w.p, inst.theta, w.theta_inv),
        w.samples,
        w.rows,
    )
    assert rows == [[15, 6], [54, 20]]  # d/dw1, d/dw2 of 3 (2x + 4x^2) at x = 1, 2
    assert (15 * 20 - 6 * 54) % w.p != 0
    assert check_rank_core(w.p, 2, 2, 1, w.rows, rows, w.cols, 2)


def test_a_corrupted_example_fails_the_python_twin():
    cert = read_certificate(EXAMPLE.read_text())
    inst, w = cert["inst"], cert["lower"]
    for bad in ({"cols": [0, 0]}, {"rows": [(0, 0), (0, 0)]}, {"rows": [(0, 0), (2, 0)]},
                {"cols": [0, 2]}, {"p": 2147483648}):  # fmt: skip
        assert not check_rank_lower(inst, LowerWitness(**{**w.__dict__, **bad}), 2), bad
    assert not check_rank_lower(inst, w, 3)
    square = RankInstance(inst.widths, [[(0, 1), (0, 1), (1, 1)]], inst.bias, inst.theta)
    assert not check_rank_lower(square, w, 2)  # sigma = t^2: f = w2 w1^2 x^2 has rank 1


def test_the_example_is_exactly_what_the_rank_template_renders_for_its_literals():
    text = EXAMPLE.read_text()
    cert = read_certificate(text)
    assert render_rank(EXAMPLE_META, cert["inst"], cert["lower"], cert["rank_lower"]) == text


# ---------------------------------------------------------------- templates
def _square_instance() -> tuple[RankInstance, LowerWitness, UpperWitness]:
    """sigma = t^2, theta = (2, 3): f = w2 w1^2 x^2, rank 1, kernel vector (w1, -2 w2) ~ (1, -3)."""
    p = 2147483647
    inst = RankInstance([1, 1, 1], [[(0, 1), (0, 1), (1, 1)]], False, [(2, 1), (3, 1)])
    lower = LowerWitness(p, [[1], [2]], [1, 1], [[1, 1, 1]], [(0, 0)], [0])
    upper = UpperWitness(p, [[1, -3]], [0], [])
    return inst, lower, upper


def test_the_rank_template_with_an_upper_witness_reads_back_and_passes_the_python_twin():
    inst, lower, upper = _square_instance()
    meta = {**EXAMPLE_META, "module": "Certificates.Rank_square", "name": "square"}
    text = render_rank(meta, inst, lower, 1, upper, 1)
    cert = read_certificate(text)
    assert cert["inst"] == inst and cert["lower"] == lower and cert["upper"] == upper
    assert check_rank_lower(cert["inst"], cert["lower"], cert["rank_lower"]) is True
    assert check_rank_upper(cert["inst"], cert["upper"], cert["bound"]) is True
    assert "    moduli :=\n      [] }\n" in text
    residues = UpperWitness(upper.p, upper.tangents, upper.cols, [2147483629, 2147483587])
    back = read_certificate(render_rank(meta, inst, lower, 1, residues, 1))
    assert back["upper"] == residues and check_rank_upper(inst, back["upper"], 1) is True
    assert text.startswith("import NNCert\n\n/-!\n")
    assert "namespace Certificates.Rank_square\n" in text
    assert text.endswith("\nend Certificates.Rank_square\n")
    assert not _layout_problems(text)


def test_a_hostile_claim_cannot_close_or_open_a_comment_in_the_rendered_module_doc():

    from certify.render import literals as L

    inst, lower, _ = _square_instance()
    for claim in ("a -/ b", "/-! x", "-/-/", "/-/", "x /- y -/ z -/", "-- /-"):
        meta = {**EXAMPLE_META, "claim": L.comment_safe(claim), "name": L.comment_safe(claim)}
        text = render_rank(meta, inst, lower, 1)
        assert not _layout_problems(text), claim
        assert read_certificate(text)["lower"] == lower


def test_the_rank_template_keeps_a_multi_line_literal_inside_its_field():
    inst, lower, _ = _square_instance()
    context = {
        **EXAMPLE_META,
        **{k: lean_literal(v) for k, v in lower.__dict__.items()},
        **{k: lean_literal(v) for k, v in inst.__dict__.items()},
        "samples": "[[1],\n [2]]",
        "rank_lower": "1",
        "upper": None,
    }
    text = JINJA.get_template("mlp/rank.lean.j2").render(**context)
    assert "    samples :=\n      [[1],\n       [2]],\n" in text
    assert read_certificate(text)["lower"] == lower


def test_the_rank_template_refuses_a_missing_variable():
    inst, lower, _ = _square_instance()
    with pytest.raises(jinja2.UndefinedError):
        JINJA.get_template("mlp/rank.lean.j2").render(module="M", widths="[1, 1]")


def test_the_audit_template_imports_every_module_then_prints_every_theorems_axioms():
    modules = ["Certificates.Rank_a", "Certificates.Rank_b"]
    theorems = [f"{m}.rank_lower_check" for m in modules] + ["Certificates.Rank_b.rank_upper_check"]
    text = JINJA.get_template("audit.lean.j2").render(modules=modules, theorems=theorems)
    lines = [line for line in text.splitlines() if line and not line.startswith("--")]
    assert lines == [f"import {m}" for m in modules] + [f"#print axioms {t}" for t in theorems]
    assert text.startswith("import ")


def test_the_aggregator_template_imports_every_module_and_nothing_else():
    modules = ["Certificates.Rank_a", "Certificates.Rank_b"]
    text = JINJA.get_template("aggregator.lean.j2").render(modules=modules)
    lines = [line for line in text.splitlines() if line and not line.startswith("--")]
    assert lines == [f"import {m}" for m in modules]
    assert text.startswith("import ")
