"""sympy for the tanh checkers (trusted as docs/trust-model.md says), loaded without
python-flint: sympy picks flint as its ground types when it is installed, and the checker
trusts no flint. The choice is made when sympy is first imported; in a process where a
generator already imported it (certify run), the checker gets that process's sympy."""

from __future__ import annotations

import importlib
import os
import sys

if "sympy" not in sys.modules:
    _before = os.environ.get("SYMPY_GROUND_TYPES")
    os.environ["SYMPY_GROUND_TYPES"] = "python"
    try:
        importlib.import_module("sympy")
    finally:
        if _before is None:
            del os.environ["SYMPY_GROUND_TYPES"]
        else:
            os.environ["SYMPY_GROUND_TYPES"] = _before

import sympy as sp  # noqa: E402

__all__ = ["sp"]
