"""The trusted base (IR, checker, kernel twins, claims) imports nothing from the untrusted
generators: a fresh interpreter that imports the checker and checks a certificate of every
kind of every demo example must not have loaded any generator module, nor python-flint; sympy
only for the tanh family (the checker trusts CPython ints and numpy int64, and sympy for the
tanh family's affine-symmetry identities)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

from certify import certificate
from certify.cli import example_specs
from certify.families import generate_certificates
from certify.spec import load_specs

ROOT = Path(__file__).resolve().parents[1]
TRUSTED = ROOT / "certify" / "checker"
# Modules of the untrusted side (prefixes), and libraries the checker must not trust.
FORBIDDEN = (
    "certify.families",
    "certify.models",
    "certify.algebra",
    "certify.render",
    "certify.provers",
    "certify.families.tanh.affsym",
    "certify.families.tanh.activations",
    "certify.implicit",
    "certify.spec",
    "certify.families.relu.spec",
    "certify.families.tanh.spec",
    "certify.bundle",
    "certify.families",
    "flint",
)
# sympy (and mpmath beneath it) is trusted by the tanh checkers alone, which re-prove affine
# symmetry identities with it (certify/checker/facts/tanh_sympy.py; docs/trust-model.md
# "Trust levels").
SYMPY_USERS = {"certify/checker/facts/tanh_sympy.py"}
# The only certify modules outside certify/checker the trusted base may load: the canonical
# JSON codec and the error types.
ALLOWED_OUTSIDE = {"certify", "certify.certificate", "certify.errors"}

PROBE = """
import json, sys
from pathlib import Path
from certify import certificate
from certify.checker import check_certificate, cross_check
certs = [certificate.load(p.read_bytes()) for p in sorted(Path(sys.argv[1]).glob("*.json"))]
certs.sort(key=lambda c: c["family"] == "tanh")  # the families without sympy first
problems = {c["name"]: check_certificate(c) for c in certs if c["family"] != "tanh"}
before_tanh = sorted(m for m in sys.modules if m.split(".")[0] in ("sympy", "mpmath"))
problems.update({c["name"]: check_certificate(c) for c in certs if c["family"] == "tanh"})
cross = cross_check(certs)
loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("certify", "flint", "sympy",
                "mpmath"))
print(json.dumps({"problems": problems, "cross": cross, "loaded": loaded,
                  "before_tanh": before_tanh}))
"""


def _forbidden(mod: str) -> bool:
    return any(mod == f or mod.startswith(f + ".") for f in FORBIDDEN)


def test_checking_every_demo_certificate_loads_no_generator_module(tmp_path):
    count = 0
    for spec in (s for path in example_specs() for s in load_specs(path)):
        for req in spec.certificates:
            for cert in generate_certificates(spec, req):
                (tmp_path / f"{count:03d}.json").write_bytes(certificate.dump(cert))
                count += 1
    assert count >= 30
    r = subprocess.run(
        [sys.executable, "-c", PROBE, str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
        check=False,
    )
    assert r.returncode == 0, r.stderr[-3000:]
    out = json.loads(r.stdout)
    rejected = {k: v for k, v in out["problems"].items() if v}
    assert not rejected, rejected  # the probe really checked every certificate
    bad = sorted({m if m.startswith("certify") else m.split(".")[0] for m in out["loaded"]
                  if _forbidden(m)})  # fmt: skip
    assert not bad, f"the checker loaded generator modules or untrusted libraries: {bad}"
    assert not out["before_tanh"], "sympy was loaded by a checker other than the tanh family's"
    assert not out["cross"], out["cross"]
    outside = [
        m for m in out["loaded"] if m.startswith("certify") and not m.startswith("certify.checker")
    ]
    assert set(outside) <= ALLOWED_OUTSIDE, sorted(set(outside) - ALLOWED_OUTSIDE)


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module)
            out.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


def test_no_trusted_source_file_names_a_generator_module_even_in_a_function():
    """Function-level imports run only on some paths; the source must not name them at all."""
    offenders = {
        str(p.relative_to(ROOT)): sorted(m for m in _imports(p) if _forbidden(m))
        for p in sorted(TRUSTED.rglob("*.py"))
    }
    offenders = {k: v for k, v in offenders.items() if v}
    assert not offenders, offenders
    for p in sorted(TRUSTED.rglob("*.py")):
        outside = {
            m
            for m in _imports(p)
            if m.startswith("certify") and not m.startswith("certify.checker")
        }
        assert {m.rsplit(".", 1)[0] if m not in ALLOWED_OUTSIDE else m for m in outside} <= (
            ALLOWED_OUTSIDE
        ), (p, outside)


def test_the_contract_sees_a_generator_module_loaded_by_a_fresh_interpreter():
    """The check can fail: a generator module, once imported, shows in sys.modules."""
    mod = "certify.families.polynomial.mlp_model"
    code = f"import sys, json, {mod}; print(json.dumps(sorted(sys.modules)))"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert any(_forbidden(m) for m in json.loads(r.stdout))


def test_only_the_tanh_sympy_module_of_the_trusted_base_imports_sympy_or_mpmath():
    users = {
        str(p.relative_to(ROOT))
        for p in sorted(TRUSTED.rglob("*.py"))
        if any(m.split(".")[0] in ("sympy", "mpmath") for m in _imports(p))
    }
    assert users == SYMPY_USERS


def _runtime_imports(path: Path) -> set[str]:
    """Like `_imports`, but without the `if TYPE_CHECKING:` blocks, which never run."""
    tree = ast.parse(path.read_text())

    def typing_only(node: ast.AST) -> bool:
        test = getattr(node, "test", None)
        return isinstance(node, ast.If) and (
            (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
            or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")
        )

    out: set[str] = set()
    todo: list[ast.AST] = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module)
            out.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        if typing_only(node):
            todo.extend(node.orelse)
        else:
            todo.extend(ast.iter_child_nodes(node))
    return out


def _certify_modules() -> dict[str, Path]:
    paths = {}
    for p in sorted((ROOT / "certify").rglob("*.py")):
        parts = p.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        paths[name] = p
    return paths


def _module_graph() -> dict[str, set[str]]:
    """certify's modules and the certify modules each names in any import statement that
    runs, function-level ones included. Importing `a.b.c` runs the packages `a.b` and `a`
    first, so a dependency brings its enclosing packages along (except the importer's own)."""
    paths = _certify_modules()
    graph = {}
    for name, p in paths.items():
        deps = set()
        for m in _runtime_imports(p):
            while m and m not in paths:
                m = m.rpartition(".")[0]
            while m:
                if m != name and not name.startswith(m + ".") and m in paths:
                    deps.add(m)
                m = m.rpartition(".")[0]
        graph[name] = deps
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in graph:
        if v not in index:
            visit(v)
    return out


def test_no_import_cycle_between_certify_modules_even_through_function_level_imports():
    assert _cycles(_module_graph()) == []


def test_the_cycle_finder_sees_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_every_certify_module_imports_first_in_a_fresh_interpreter():
    """Each module is importable on its own (a cycle shows as an ImportError only when the
    cycle is entered at one of its modules, so every module is tried as the first import)."""
    names = sorted(_certify_modules())
    code = (
        "import importlib, sys\n"
        f"names = {names!r}\n"
        "bad = []\n"
        "for n in names:\n"
        "    for m in [m for m in sys.modules if m == 'certify' or m.startswith('certify.')]:\n"
        "        del sys.modules[m]\n"
        "    try:\n"
        "        importlib.import_module(n)\n"
        "    except Exception as e:\n"
        "        bad.append(f'{n}: {type(e).__name__}: {e}')\n"
        "print('\\n'.join(bad))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "", r.stdout


# ------------------------------------------------------------ package knots (issue 26, item 2)
FAMILIES_DIR = ROOT / "certify" / "families"


def _family_packages() -> list[str]:
    return sorted(p.name for p in FAMILIES_DIR.iterdir() if (p / "__init__.py").is_file())


def test_no_family_module_imports_the_spec_parser():
    """certify.spec calls the families' parsers; the families read the request types from
    certify.request (below both), so no family module imports certify.spec, even lazily."""
    offenders = {
        str(p.relative_to(ROOT)): sorted(
            m for m in _imports(p) if m.split(".")[:2] == ["certify", "spec"]
        )
        for p in sorted(FAMILIES_DIR.rglob("*.py"))
    }
    assert not {k: v for k, v in offenders.items() if v}


def test_the_request_types_import_no_other_certify_module():
    assert not {m for m in _imports(ROOT / "certify" / "request.py") if m.startswith("certify")}


def _cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """A cycle of the directed graph `edges` (as the path that closes it), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def walk(p: str, path: list[str]) -> list[str] | None:
        state[p] = 1
        for q in sorted(edges.get(p, ())):
            if state.get(q) == 1:
                return [*path, p, q]
            if q not in state and (found := walk(q, [*path, p])):
                return found
        state[p] = 2
        return None

    for p in sorted(edges):
        if p not in state and (found := walk(p, [])):
            return found
    return None


def test_the_family_packages_import_each_other_without_a_cycle():
    """The graph `A -> B` (a module of certify/families/A imports one of B) is acyclic: what
    MLPs and ResNets share lives in certify/families/polynomial, which both import."""
    packages = _family_packages()
    assert {"mlp", "resnet", "polynomial"} <= set(packages)
    edges: dict[str, set[str]] = {p: set() for p in packages}
    for pkg in packages:
        for path in (FAMILIES_DIR / pkg).rglob("*.py"):
            for m in _imports(path):
                parts = m.split(".")
                if parts[:2] == ["certify", "families"] and len(parts) > 2:
                    if parts[2] in edges and parts[2] != pkg:
                        edges[pkg].add(parts[2])
    assert _cycle(edges) is None, " -> ".join(_cycle(edges) or [])
    assert "polynomial" in edges["mlp"] and "polynomial" in edges["resnet"], edges


def test_the_cycle_check_sees_a_cycle():
    """The check above can fail: it finds the cycle of a graph that has one."""
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


# ------------------------------------------------------------ the layers of the trusted base
# certify/checker/<layer>/ and what each layer may import (issue 26, item 3): the kernel twins
# only each other; the vectorised paths the kernel; the Python-only facts the kernel, the fast
# paths and the IR; the claims those too; the checks everything. ir.py and registry.py import
# no checker module; the package's __init__ dispatches through the registry.
LAYERS: dict[str, set[str]] = {
    "kernel": {"kernel"},
    "fast": {"kernel", "fast"},
    "facts": {"kernel", "fast", "facts", "ir"},
    "claims": {"kernel", "fast", "facts", "claims", "ir"},
    "check": {"kernel", "fast", "facts", "claims", "check", "ir"},
    "ir": {"ir"},
    "registry": {"registry"},
    "checker": {"registry", "ir", "check"},
}
# Libraries outside the standard library that a layer may import (sympy: SYMPY_USERS above).
LAYER_LIBRARIES: dict[str, set[str]] = {
    "kernel": set(),
    "fast": {"numpy"},
    "facts": {"numpy", "sympy"},
    "claims": set(),
    "check": {"numpy"},
    "ir": set(),
    "registry": set(),
    "checker": set(),
}


def _layer(module: str) -> str:
    """certify.checker.<layer>[.<module>] -> layer; certify.checker -> "checker"."""
    parts = module.split(".")
    return parts[2] if len(parts) > 2 else "checker"


def layer_violations(graph: dict[str, set[str]]) -> list[str]:
    """Every import of the trusted base that crosses its layers the wrong way, or that leaves
    a module outside every layer."""
    out = []
    for mod, deps in sorted(graph.items()):
        if not mod.startswith("certify.checker"):
            continue
        if _layer(mod) not in LAYERS:
            out.append(f"{mod}: in no layer of {sorted(LAYERS)}")
            continue
        allowed = LAYERS[_layer(mod)]
        for dep in sorted(deps):
            if dep.startswith("certify.checker") and _layer(dep) not in allowed:
                out.append(f"{mod} -> {dep}: layer {_layer(mod)} may import only {sorted(allowed)}")
    return out


def test_the_trusted_base_imports_only_down_its_layers():
    assert layer_violations(_module_graph()) == []


def test_the_layer_check_sees_an_import_up_the_layers_and_a_module_outside_them():
    graph = {
        "certify.checker.kernel.rank": {"certify.checker.claims.rank"},
        "certify.checker.claims.rank": {"certify.checker.kernel.rank"},
        "certify.checker.loose": set(),
    }
    found = layer_violations(graph)
    assert len(found) == 2
    assert found[0].startswith("certify.checker.kernel.rank -> certify.checker.claims.rank")
    assert found[1].startswith("certify.checker.loose: in no layer")


def test_each_layer_imports_only_its_libraries():
    """The kernel twins use Python ints alone (no numpy, no sympy): they are what Coq and Lean
    mirror; numpy enters at the fast layer, sympy at the facts layer (tanh_sympy.py only)."""
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    bad = {}
    for p in sorted(TRUSTED.rglob("*.py")):
        rel = p.relative_to(ROOT).with_suffix("").parts
        layer = _layer(".".join(rel[:-1] if rel[-1] == "__init__" else rel))
        libs = {m.split(".")[0] for m in _runtime_imports(p)} - stdlib - {"certify"}
        if extra := libs - LAYER_LIBRARIES[layer]:
            bad[str(p.relative_to(ROOT))] = sorted(extra)
    assert not bad, bad


def test_every_kernel_twin_module_is_one_coq_and_lean_module():
    """One Python module per Coq/Lean kernel module: kernel/<name>.py twins NNCert/<Name>.v
    and NNCert/<Name>.lean (ReLU, ResNet and RankCore spelled as the libraries spell them)."""
    spelled = {"resnet": "ResNet", "relu": "ReLU", "rank_core": "RankCore"}
    for p in sorted((TRUSTED / "kernel").glob("*.py")):
        if p.stem == "__init__":
            continue
        name = spelled.get(p.stem, p.stem.capitalize())
        assert (ROOT / "coq" / "NNCert" / "kernel" / f"{name}.v").is_file(), p
        assert (ROOT / "lean" / "NNCert" / f"{name}.lean").is_file(), p
