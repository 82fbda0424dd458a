"""Affine symmetry groups of activations (math.md §4): all (α, β, γ, δ), α ≠ 0, γ ≠ 0, with
ρ(αx + β) = γρ(x) + δ for every real x.

Candidates come from necessary conditions, each candidate is then proved as an exact identity
with sympy (a lower trust level than the kernels: the claim and manifest say so):

* polynomial ρ: coefficient matching, a polynomial system in (α, β, γ, δ) solved exactly;
  solutions with α free are continuous families (t^r: (λ, 0, λ^r, 0));
* relu: the kink of ρ(αx + β) sits at −β/α and must be the kink 0 of γρ + δ, so β = 0 and
  δ = 0; α < 0 would make ρ(αx) vanish on x > 0 where γρ(x) does not, so α > 0 and γ = α:
  the family (λ, 0, λ, 0), λ > 0;
* finite distinct limits L₊ ≠ L₋ at ±∞ and bounded ρ' (tanh-type): letting x → ±∞ forces
  γ = sign(α), δ = 0 (α > 0) or δ = L₊ + L₋ (α < 0); sup|ρ'| is invariant under
  x ↦ αx + β, so |α|·sup|ρ'| = |γ|·sup|ρ'| and |α| = 1; α = 1 makes β a period, hence β = 0
  (no nonconstant periodic function has limits); α = −1 needs ρ(β/2) = (L₊ + L₋)/2 (put
  x = β/2), a unique point when ρ is strictly monotone. This case is complete;
* periodic ρ with least period P: x ↦ αx + β maps the period lattice of ρ(α· + β) to P/|α|,
  so |α| = 1; β is searched in [0, P) and the translation by P generates the rest;
* other real-analytic, non-polynomial ρ: if |α| ≠ 1 the map x ↦ αx + β has a fixed point
  x*, and differentiating n times at x* gives αⁿ = γ for every n with ρ⁽ⁿ⁾(x*) ≠ 0, infinitely
  many n for a non-polynomial analytic ρ: so α = ±1. β is then a root of the γ-, δ-free
  condition αρ''(αx₀ + β)ρ'(x₀) = ρ''(x₀)ρ'(αx₀ + β), isolated numerically in a window at
  several x₀ (the claim names the window: this search is not a proof of completeness).

γ and δ follow from (α, β): γ = αρ'(αx₀ + β)/ρ'(x₀) and δ = ρ(β) − γρ(0).
"""

from __future__ import annotations

from typing import Any

import mpmath
import sympy as sp

from certify.checker.facts.tanh_expr import Activation, ActivationError, X
from certify.checker.facts.tanh_sym import LAM, Element, identity_residual, prove
from certify.families.tanh.activations import defined_on_reals, grammar_text

BETA_WINDOW = 20  # |beta| searched numerically in the analytic, non-tanh-type case
GRID = 801
DPS = 40
MAX_DEN = 10**6  # denominators of identified roots (every identified root is then proved)


def value_text(v: sp.Expr) -> str:
    """Exact value as grammar text (rationals, pi, the family parameter l)."""
    return grammar_text(sp.nsimplify(v) if v.is_Float else v, "x")


def _limit(e: sp.Expr, at: Any) -> sp.Expr | None:
    try:
        v = sp.limit(e, X, at)
    except (NotImplementedError, ValueError, TypeError):
        return None
    return v if v.is_finite else None


def _strictly_monotone(e: sp.Expr) -> bool:
    """ρ' > 0 on x > 0 and on x < 0 (sympy decides the sign), or sympy's monotonicity test."""
    try:
        if sp.is_strictly_increasing(e, sp.S.Reals, X) or sp.is_strictly_decreasing(
            e, sp.S.Reals, X
        ):
            return True
    except (NotImplementedError, ValueError, TypeError):
        pass
    p = sp.Symbol("p", positive=True)
    d = sp.diff(e, X)
    signs = [sp.simplify(d.subs(X, v)) for v in (p, -p)]
    return all(s.is_positive for s in signs) or all(s.is_negative for s in signs)


def _identify(v: mpmath.mpf, allow_pi: bool) -> sp.Expr | None:
    """An exact value for a numerically found root: the best rational approximation with
    denominator at most MAX_DEN (continued fractions) when it agrees to DPS/2 digits, or such a
    rational multiple of pi (periodic activations). Every identified value is then checked
    exactly by its caller."""
    from fractions import Fraction

    tol = mpmath.mpf(10) ** (-DPS // 2)
    for basis in (sp.Integer(1), sp.pi) if allow_pi else (sp.Integer(1),):
        scaled = v / mpmath.mpf(sp.N(basis, DPS + 10))
        q = Fraction(mpmath.nstr(scaled, DPS, min_fixed=-mpmath.inf, max_fixed=mpmath.inf))
        q = q.limit_denominator(MAX_DEN)
        if abs(mpmath.mpf(q.numerator) / q.denominator - scaled) < tol:
            return sp.Rational(q.numerator, q.denominator) * basis
    return None


def _beta_roots(expr: sp.Expr, alpha: int, lo: float, hi: float) -> tuple[list[sp.Expr], bool]:
    """Exact β in [lo, hi) (identified) solving the γ-, δ-free condition at x₀ = 1/3, 1, 5/7;
    the flag says whether the condition vanished for every β sampled (a family in β)."""
    b = sp.Symbol("b", real=True)
    d1, d2 = sp.diff(expr, X), sp.diff(expr, X, 2)
    mpmath.mp.dps = DPS
    conds = []
    for x0 in (sp.Rational(1, 3), sp.Integer(1), sp.Rational(5, 7)):
        c = alpha * d2.subs(X, alpha * x0 + b) * d1.subs(X, x0) - d2.subs(X, x0) * d1.subs(
            X, alpha * x0 + b
        )
        conds.append(sp.lambdify(b, c, "mpmath"))
    step = (mpmath.mpf(hi) - lo) / (GRID - 1)
    pts = [mpmath.mpf(lo) + i * step for i in range(GRID)]
    vals = [conds[0](p) for p in pts]
    tiny = mpmath.mpf(10) ** (-DPS + 10)
    if all(abs(v) < tiny for v in vals):
        return [], True
    found: list[mpmath.mpf] = []
    for i in range(GRID - 1):
        a, c = vals[i], vals[i + 1]
        cand = None
        if abs(a) < tiny:
            cand = pts[i]
        elif a * c < 0:
            try:
                cand = mpmath.findroot(conds[0], (pts[i], pts[i + 1]), solver="anderson")
            except (ValueError, ZeroDivisionError):
                cand = None
        elif 0 < i and abs(a) < abs(vals[i - 1]) and abs(a) < abs(c):
            try:  # a double root (touching zero) shows as a local minimum of |condition|
                cand = mpmath.findroot(conds[0], pts[i])
            except (ValueError, ZeroDivisionError):
                cand = None
        if cand is not None and lo - step <= cand < hi:
            if all(abs(f(cand)) < mpmath.mpf(10) ** (-DPS // 2) for f in conds):
                if all(abs(cand - f) > step / 4 for f in found):
                    found.append(cand)
    out = []
    for v in found:
        exact = _identify(v, allow_pi=True)
        if exact is not None and lo <= exact < hi and exact not in out:
            out.append(exact)
    return out, False


def _gamma_delta(expr: sp.Expr, alpha: int, beta: sp.Expr) -> tuple[sp.Expr, sp.Expr] | None:
    d1 = sp.diff(expr, X)
    for x0 in (sp.Integer(0), sp.Integer(1), sp.Rational(1, 2)):
        den = sp.simplify(d1.subs(X, x0))
        if den != 0:
            gamma = sp.simplify(alpha * d1.subs(X, alpha * x0 + beta) / den)
            delta = sp.simplify(expr.subs(X, beta) - gamma * expr.subs(X, 0))
            if gamma == 0:
                return None
            return gamma, delta
    return None


def _polynomial(expr: sp.Expr) -> tuple[list[Element], list[str], bool]:
    """Families solved with a as the parameter (b, g, d as functions of a), then the isolated
    solutions of the full system; a solution of the full system with a free symbol that no
    family covers makes the list incomplete rather than being dropped."""
    a, b, g, d = sp.symbols("a b g d", real=True)
    poly = sp.Poly(sp.expand(expr.subs(X, a * X + b) - g * expr - d), X)
    eqs = [c for c in poly.all_coeffs() if c != 0]
    out: list[Element] = []
    families: list[list[sp.Expr]] = []
    complete = True
    for s in sp.solve(eqs, [b, g, d], dict=True):
        vals = [a] + [s.get(v, v) for v in (b, g, d)]
        if set().union(*(v.free_symbols for v in vals)) - {a}:
            complete = False
            continue
        families.append(vals)
        out.append(Element(*(v.subs(a, LAM) for v in vals), condition="l != 0"))

    def covered(vals: list[sp.Expr]) -> bool:
        return any(
            all(sp.simplify(f.subs(a, vals[0]) - v) == 0 for f, v in zip(fam, vals, strict=True))
            for fam in families
        )

    for s in sp.solve(eqs, [b, g, d, a], dict=True):
        vals = [s.get(v, v) for v in (a, b, g, d)]
        if vals[0] == 0 or vals[2] == 0:
            continue  # a = 0 or g = 0: not an affine symmetry
        if set().union(*(v.free_symbols for v in vals)):
            if not covered(vals):
                complete = False
            continue
        if not all(v.is_real for v in vals) or covered(vals):
            continue
        out.append(Element(*vals))
    notes = [
        "polynomial activation: rho(a x + b) - g rho(x) - d = 0 as a polynomial in x; its "
        f"{len(eqs)} coefficient equations solved exactly (sympy solve), first for b, g, d with "
        "a as the parameter of a continuous family, then for a, b, g, d; real solutions with "
        "a, g != 0 kept"
    ]
    if not complete:
        notes.append("a solution with a free parameter is not a listed family (incomplete)")
    return out, notes, complete


def affine(expr: sp.Expr) -> bool:
    """ρ a polynomial of degree at most 1 (its symmetries form a two-parameter family)."""
    return bool(expr.is_polynomial(X)) and sp.Poly(expr, X).degree() <= 1


def compute_group(act: Activation) -> dict[str, Any]:
    """The affine symmetry group of `act`: elements (finite part, or generators) and families,
    each with its proof, the necessary conditions used, and whether the list is complete."""
    e = act.expr
    if not e.has(X) or sp.simplify(sp.diff(e, X)) == 0:
        raise ActivationError("a nonconstant activation")
    notes: list[str] = []
    elements: list[Element] = []
    kind = "finite"
    complete = True
    if act.name == "relu":
        notes.append(
            "relu: the kink of rho(a x + b) at -b/a must be the kink 0 of g rho + d, so b = 0 "
            "and d = 0; a < 0 would make rho(a x) vanish for x > 0, where g rho(x) does not; so "
            "a > 0 and g = a"
        )
        elements.append(Element(LAM, sp.Integer(0), LAM, sp.Integer(0), condition="l > 0"))
        kind = "family"
    elif affine(e):
        raise ActivationError("a nonlinear activation (an affine one has a two-parameter group)")
    elif e.is_polynomial(X):
        elements, notes, complete = _polynomial(e)
        if any(el.condition for el in elements):
            kind = "family"
    else:
        if not act.piecewise and not defined_on_reals(e):
            raise ActivationError("an activation defined on all of R (a denominator vanishes)")
        period = None
        if act.name == "sin" or e.has(sp.sin):
            period = sp.periodicity(e, X)
        lp, lm = _limit(e, sp.oo), _limit(e, -sp.oo)
        dp, dm = _limit(sp.diff(e, X), sp.oo), _limit(sp.diff(e, X), -sp.oo)
        if lp is not None and lm is not None and sp.simplify(lp - lm) != 0 and dp == 0 == dm:
            mono = _strictly_monotone(e)
            notes.append(
                f"finite distinct limits L+ = {lp}, L- = {lm} and rho' -> 0 at +-oo (bounded): "
                "x -> +-oo forces g = sign(a), d = 0 (a > 0) or d = L+ + L- (a < 0); sup|rho'| "
                "is invariant under x -> a x + b, so |a| = |g| = 1; a = 1 makes b a period, so "
                "b = 0; a = -1 needs rho(b/2) = (L+ + L-)/2"
                + (", a unique point since rho is strictly monotone" if mono else "")
            )
            elements.append(Element(*map(sp.Integer, (1, 0, 1, 0))))
            m = sp.simplify((lp + lm) / 2)
            c = _midpoint(e, m)
            complete = mono
            if not mono:
                notes.append("rho not shown strictly monotone: other b may exist (incomplete)")
            if c is None:
                complete = False
                notes.append(
                    "the point c with rho(c) = (L+ + L-)/2 was not found exactly, so the a = -1 "
                    "symmetry (-1, 2c, -1, L+ + L-) is undetermined (incomplete)"
                )
            else:
                flip = Element(sp.Integer(-1), 2 * c, sp.Integer(-1), sp.simplify(lp + lm))
                at = _refuted(e, flip)  # numerically nonzero: not a symmetry, no proof attempted
                if at is not None:
                    notes.append(
                        f"the only a = -1 candidate ({value_text(flip.beta)} for b) is not an "
                        f"identity: the residual at x = {at} is nonzero (sympy evalf, {DPS} "
                        "digits)"
                    )
                else:
                    elements.append(flip)
        elif period is not None:
            kind = "infinite"
            notes.append(
                f"periodic with least period {period}: the period of rho(a x + b) is "
                f"{period}/|a|, so |a| = 1; b searched in [0, {period}); the translation by the "
                "period generates the rest"
            )
            elements.append(Element(sp.Integer(1), period, sp.Integer(1), sp.Integer(0)))
            elements += _search(e, float(period), 0.0, notes)
            complete = False
            notes.append("b located numerically on a grid in [0, P): not a completeness proof")
        elif act.piecewise:
            raise ActivationError("a piecewise activation of a known kind (relu, softsign)")
        else:
            notes.append(
                "real-analytic and not a polynomial: if |a| != 1, x -> a x + b has a fixed "
                "point x*, and a^n = g for every n with rho^(n)(x*) != 0 (infinitely many), "
                "impossible; so a = +-1"
            )
            found = _search(e, BETA_WINDOW, -BETA_WINDOW, notes)
            elements += found
            complete = False
            notes.append(
                f"b located numerically in [-{BETA_WINDOW}, {BETA_WINDOW}): symmetries with "
                "larger |b| are not excluded (incomplete)"
            )
            if any(el.condition for el in found):
                kind = "family"
    return _table(act, elements, kind, complete, notes)


def _refuted(e: sp.Expr, el: Element) -> str | None:
    """A rational point where ρ(αx + β) − γρ(x) − δ is visibly nonzero (sympy's evalf at DPS
    digits, with its error control), or None."""
    r = identity_residual(e, el)
    for x0 in (sp.Rational(1, 3), sp.Integer(1), sp.Rational(-5, 7), sp.Integer(2)):
        try:
            v = sp.N(r.subs(X, x0), DPS, maxn=200)
        except (ValueError, TypeError, ArithmeticError):
            continue
        if v.is_number and v.is_real and abs(v) > sp.Rational(1, 10**10):
            return str(x0)
    return None


def _midpoint(e: sp.Expr, m: sp.Expr) -> sp.Expr | None:
    """The point c with ρ(c) = m (unique for strictly monotone ρ), exactly: a root sympy's
    solve finds, or a numerically located root identified as a small rational (or rational
    multiple of pi); either way checked exactly by simplify before it is used."""
    cands: list[sp.Expr] = [sp.Integer(0)]
    try:
        cands += [c for c in sp.solve(e - m, X) if c.is_real]
    except (NotImplementedError, ValueError, TypeError):
        pass
    mpmath.mp.dps = DPS
    f = sp.lambdify(X, e - m, "mpmath")
    for start in (0, 1, -1, 3, -3):
        try:
            root = mpmath.findroot(f, start)
        except (ValueError, ZeroDivisionError, TypeError):
            continue
        exact = _identify(root, allow_pi=True)
        if exact is not None:
            cands.append(exact)
    for c in cands:
        if sp.simplify(e.subs(X, c) - m) == 0:
            return c
    return None


def _search(e: sp.Expr, hi: float, lo: float, notes: list[str]) -> list[Element]:
    out: list[Element] = []
    for alpha in (1, -1):
        roots, fam = _beta_roots(e, alpha, lo, hi)
        if fam:
            gd = _gamma_delta(e, alpha, LAM)
            if gd is not None:
                cond = "l real"
                out.append(Element(sp.Integer(alpha), LAM, gd[0], gd[1], condition=cond))
                notes.append(f"a = {alpha}: the condition holds for every b (a family in b)")
            continue
        for beta in roots:
            gd = _gamma_delta(e, alpha, beta)
            if gd is not None:
                out.append(Element(sp.Integer(alpha), beta, *gd))
    return out


def _table(
    act: Activation, elements: list[Element], kind: str, complete: bool, notes: list[str]
) -> dict[str, Any]:
    rows = []
    for el in elements:
        method = prove(act.expr, el, act.piecewise)
        rows.append(
            {
                "alpha": value_text(el.alpha),
                "beta": value_text(el.beta),
                "gamma": value_text(el.gamma),
                "delta": value_text(el.delta),
                "family": el.condition or None,
                "proof": method if method is not None else "unproved",
            }
        )
    proved = [r for r in rows if r["proof"] != "unproved"]
    order = len(proved) if kind == "finite" else None
    if len(proved) < len(rows):
        # an unproved candidate may be a true symmetry: the list is not shown complete
        complete = False
        notes = [*notes, "some candidates are unproved: the list is not shown complete"]
    return {
        "activation": act.name,
        "expression": grammar_text(act.expr) if not act.piecewise and act.name != "sin" else None,
        "type": kind,
        "elements": rows,
        "order": order,
        "complete": complete,
        "necessary_conditions": notes,
    }
