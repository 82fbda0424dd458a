"""The declaration table tests/twins.toml agrees with the three sources it describes: every
public function of each Python kernel module in file order with its arity (ast/inspect), its
Coq definition in the named .v file with its explicit binder count (regex over the
Definition/Fixpoint headers, tests/conformance/coqsig.py), and its Lean def in the named
.lean file with its explicit binder count, in the table's order (regex, the readers of
tests/test_lean_library.py)."""

from __future__ import annotations

import copy
import inspect

from tests.conformance.coqsig import library
from tests.conformance.table import MODULES, PY_ONLY_ARGS, module_functions, twins
from tests.test_lean_compind import MOVED
from tests.test_lean_library import LEAN_DIR, lean_defs

# Lean defs placed before their first use rather than in Python order (Lean, like Coq, needs a
# definition before its use; test_lean_compind.MOVED says where each goes and why).
LEAN_MOVED = {f"compind.{name}" for name in MOVED}


def problems(table: dict[str, list[list]]) -> list[str]:
    """What in the table disagrees with the Python, Coq and Lean sources."""
    coq, _ = library()
    lean: dict[str, dict[str, int]] = {}  # Lean file -> def name -> explicit arity
    order: dict[str, list[str]] = {}
    for path in sorted((LEAN_DIR / "NNCert").glob("*.lean")):
        ds = lean_defs(path)
        lean[path.stem] = {d.name: len(d.explicit) for d in ds}
        order[path.stem] = [d.name for d in ds]
    out: list[str] = []
    if set(table) != set(MODULES):
        out.append(f"modules {sorted(table)} != {sorted(MODULES)}")
    for label, rows in table.items():
        mod = MODULES[label][0]
        if [r[0] for r in rows] != module_functions(mod):
            out.append(f"{label}: the rows are not the module's functions in file order")
        last: dict[str, int] = {}
        for py, cq, cq_file, ln, ln_file, arity, cq_ar, ln_ar in rows:
            where = f"{label}.{py}"
            fn = getattr(mod, py, None)
            if fn is None or len(inspect.signature(fn).parameters) != arity:
                out.append(f"{where}: Python arity is not {arity}")
            d = coq.get(cq)
            if d is None or d.file != cq_file or len(d.explicit) != cq_ar:
                out.append(f"{where}: no Coq {cq} in {cq_file}.v with {cq_ar} explicit binders")
            if lean.get(ln_file, {}).get(ln) != ln_ar:
                out.append(f"{where}: no Lean {ln} in {ln_file}.lean with {ln_ar} explicit binders")
            elif where in LEAN_MOVED:
                pass
            elif order[ln_file].index(ln) < last.get(ln_file, -1):
                out.append(f"{where}: Lean {ln} comes before a def of an earlier row")
            else:
                last[ln_file] = order[ln_file].index(ln)
            if ln_ar != arity or cq_ar + len(PY_ONLY_ARGS.get(where, ())) != arity:
                out.append(f"{where}: arities {arity} (Python), {cq_ar} (Coq), {ln_ar} (Lean)")
    return out


def test_the_declaration_table_matches_the_python_coq_and_lean_sources():
    assert problems(twins()) == []


def test_the_table_has_a_row_for_each_of_the_318_kernel_functions():
    assert sum(len(rows) for rows in twins().values()) == sum(
        len(module_functions(mod)) for mod, _ in MODULES.values()
    )


def test_the_table_check_reports_a_renamed_moved_reordered_or_retyped_declaration():
    table = twins()
    cases = {
        "a Coq name": lambda t: t["net"][0].__setitem__(1, "dot_q"),
        "a Lean file": lambda t: t["tanh"][0].__setitem__(4, "ReLU"),
        "an arity": lambda t: t["lists"][1].__setitem__(5, 3),
        "a Lean arity": lambda t: t["relu"][2].__setitem__(7, 9),
        "the order": lambda t: t["rank_core"].reverse(),
        "a missing row": lambda t: t["compind"].pop(),
    }
    for what, change in cases.items():
        t = copy.deepcopy(table)
        change(t)
        assert problems(t), f"{what} changed, but the check saw nothing"
