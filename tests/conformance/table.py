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

from certify.checker import base as B
from certify.checker import kernel as K
from certify.checker import kernel_compind as KC
from certify.checker import kernel_relu as KL
from certify.checker import kernel_resnet as KR
from certify.checker import kernel_tanh as KT
from certify.checker import rank_core as RC

# module label -> (Python module, the Coq files whose definitions it twins)
MODULES: dict[str, tuple[ModuleType, tuple[str, ...]]] = {
    "base": (B, ("Lists", "Arith", "Rank")),  # is_unit_row sits in Rank.v (on residues)
    "rank_core": (RC, ("RankCore", "ZArith")),
    "kernel": (K, ("Net", "Rank")),
    "kernel_resnet": (KR, ("ResNet",)),
    "kernel_compind": (KC, ("Compind",)),
    "kernel_relu": (KL, ("ReLU",)),
    "kernel_tanh": (KT, ("Tanh",)),
}

TWINS = Path(__file__).resolve().parents[1] / "twins.toml"  # the declaration table


def twins() -> dict[str, list[list]]:
    """module label -> rows [python, coq, coq_file, lean, lean_file, arity, coq_ar, lean_ar]."""
    return {label: v["defs"] for label, v in tomllib.loads(TWINS.read_text()).items()}


# Python parameters the Coq twin does not take: Coq drops a section variable that a
# definition does not use, so with_bias has no `ar` in Coq (Python keeps it, as every other
# function of the section takes it first).
PY_ONLY_ARGS = {"kernel.with_bias": ("ar",)}

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
