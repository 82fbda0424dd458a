"""The harness table: which Coq definition plays each public function of the Python kernel
twins, the Coq records of the Python dataclasses, and the functions left out (with why).

Every top-level `def` of a kernel module is run against the Coq definition that the
declaration table tests/twins.toml names, unless EXCLUDED gives a reason; the Coq signature
(read from the .v source by coqsig.py) types the random inputs and prints the literals.
"""

from __future__ import annotations

import ast
import inspect
import tomllib
from pathlib import Path
from types import ModuleType

from certify.checker.kernel import arith as AR
from certify.checker.kernel import compind as KC
from certify.checker.kernel import lists as LS
from certify.checker.kernel import net as NT
from certify.checker.kernel import rank as K
from certify.checker.kernel import rank_core as RC
from certify.checker.kernel import relu as KL
from certify.checker.kernel import resnet as KR
from certify.checker.kernel import tanh as KT

# module label (the module's name under certify/checker/kernel) -> (Python module, the Coq
# files whose definitions it twins): one Python module per Coq/Lean module
MODULES: dict[str, tuple[ModuleType, tuple[str, ...]]] = {
    "lists": (LS, ("Lists", "Rank")),  # is_unit_row sits in Rank.v (on residues) in Coq
    "arith": (AR, ("Arith",)),
    "rank_core": (RC, ("RankCore", "ZArith")),
    "net": (NT, ("Net",)),
    "rank": (K, ("Rank",)),
    "resnet": (KR, ("ResNet",)),
    "compind": (KC, ("Compind",)),
    "relu": (KL, ("ReLU",)),
    "tanh": (KT, ("Tanh",)),
}

TWINS = Path(__file__).resolve().parents[1] / "twins.toml"  # the declaration table


def twins() -> dict[str, list[list]]:
    """module label -> rows [python, coq, coq_file, lean, lean_file, arity, coq_ar, lean_ar]."""
    return {label: v["defs"] for label, v in tomllib.loads(TWINS.read_text()).items()}


# Python parameters the Coq twin does not take: Coq drops a section variable that a
# definition does not use, so with_bias has no `ar` in Coq (Python keeps it, as every other
# function of the section takes it first).
PY_ONLY_ARGS = {"net.with_bias": ("ar",)}

# Python functions with no computable Coq twin, and why. (Empty: every kernel function has
# one. A function added here must say why Coq cannot run it, e.g. a Prop-only twin.)
EXCLUDED: dict[str, str] = {}

# Coq record -> Python dataclass (same fields, same order: test_conformance checks it).
RECORDS = {
    "rank_instance": K.RankInstance,
    "lower_witness": K.LowerWitness,
    "upper_witness": K.UpperWitness,
    "resnet_instance": KR.ResNetInstance,
    "compind_instance": KC.CompindInstance,
    "indep_witness": KC.IndepWitness,
    "relu_instance": KL.ReluInstance,
    "relu_lower_witness": KL.ReluLowerWitness,
    "aff_sym": KT.AffSym,
    "tanh_instance": KT.TanhInstance,
}


def module_functions(mod: ModuleType) -> list[str]:
    """Every top-level `def` of the module's source, in file order."""
    tree = ast.parse(Path(inspect.getfile(mod)).read_text())
    return [n.name for n in tree.body if isinstance(n, ast.FunctionDef)]


def table() -> list[tuple[str, str, str]]:
    """(module label, Python name, Coq name) of every function the harness runs: the rows of
    the declaration table tests/twins.toml, less the exclusions."""
    return [
        (label, row[0], row[1])
        for label, rows in twins().items()
        for row in rows
        if f"{label}.{row[0]}" not in EXCLUDED
    ]
