"""Activations given symbolically (generator side): the grammar, its parser and the named
activations live in the trusted tree (certify/checker/facts/tanh_expr.py), which the checkers use to
read certificates; here are what only the generators need: whether an expression is defined on
all of R, and printing an expression back in the grammar."""

from __future__ import annotations

import sympy as sp

from certify.checker.facts.tanh_expr import ActivationError, X


def defined_on_reals(e: sp.Expr) -> bool:
    """Every denominator of `e` (base of a negative power) has no real zero, so `e` is defined
    (and, for grammar expressions, real-analytic) on all of R."""
    for p in e.atoms(sp.Pow):
        if p.exp.is_negative:
            base = p.base
            if not base.has(X):
                continue
            zeros = sp.solveset(base, X, sp.S.Reals)
            if zeros != sp.S.EmptySet:
                return False
    return True


def grammar_text(e: sp.Expr, var: str = "x") -> str:
    """`e` printed in the grammar above (plus the constant pi and the symbol names), so that
    `parse_expression` reads it back to the same expression; used to store group elements."""
    if e.is_Integer:
        return str(int(e)) if e >= 0 else f"(-{-int(e)})"
    if e.is_Rational:
        return f"({e.p}/{e.q})" if e.p > 0 else f"(-{-e.p}/{e.q})"
    if e is sp.pi:
        return "pi"
    if e is sp.E:
        return "exp(1)"
    if e.is_Symbol:
        return var if e == X else str(e)
    if isinstance(e, sp.Add):
        return "(" + " + ".join(grammar_text(a, var) for a in sp.Add.make_args(e)) + ")"
    if isinstance(e, sp.Mul):
        return "(" + "*".join(grammar_text(a, var) for a in sp.Mul.make_args(e)) + ")"
    if isinstance(e, sp.Pow) and e.exp.is_Integer:
        n = int(e.exp)
        return f"{grammar_text(e.base, var)}^{n if n >= 0 else f'({n})'}"
    if isinstance(e, sp.Pow) and e.exp == sp.Rational(1, 2):
        raise ActivationError(f"square roots are outside the grammar: {e}")
    names = {sp.exp: "exp", sp.tanh: "tanh", sp.atan: "arctan", sp.erf: "erf"}
    for f, n in names.items():
        if isinstance(e, f):
            return f"{n}({grammar_text(e.args[0], var)})"
    raise ActivationError(f"cannot print {e} in the grammar")
