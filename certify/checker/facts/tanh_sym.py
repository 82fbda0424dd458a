"""Affine symmetries of activations (trusted, sympy): the symbolic proof that
ρ(αx + β) = γρ(x) + δ holds identically, the rational table the kernels check, and the
checker's own checks of a listed group (certificates of kind affsym) and of the flip that
orbit and equiv certificates use.

The generator (certify/families/tanh/affsym.py) finds the candidates (limits, derivatives,
periodicity, an mpmath search) and calls `prove` from here;
the checker does not re-run that search. It
re-proves every listed identity with `prove` and checks that the listing is consistent (order,
type, table); that the list is complete is the generator's and the claim says so. Trusting
these proofs means trusting sympy (expand, simplify, rewrite), a lower trust level than the
kernels (docs/trust-model.md)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from certify.checker.facts.tanh_expr import (
    Activation,
    ActivationError,
    X,
    activation,
    parse_expression,
)
from certify.checker.facts.tanh_sympy import sp
from certify.checker.ir import Malformed, as_list, exact_keys, rat_str
from certify.checker.kernel import tanh as KT

LAM = sp.Symbol("l", real=True)  # the parameter of a continuous family
# The ranges of a family's parameter l the generator writes (and the prover understands:
# "l > 0" becomes the assumption of a positive symbol; the others are proved for every real l).
FAMILY_CONDITIONS = ("l != 0", "l > 0", "l real")
GROUP_KEYS = {"activation", "expression", "type", "elements", "order", "complete",
              "necessary_conditions"}  # fmt: skip
ROW_KEYS = {"alpha", "beta", "gamma", "delta", "family", "proof"}
FIELDS = ("alpha", "beta", "gamma", "delta")
MAX_ROWS = 64  # rows of a listed group (pairwise distinctness is checked, quadratically)


def rational_spelling(v: sp.Rational) -> str:
    """The one spelling of a rational group entry (the generator's grammar_text): "n" for
    n >= 0, "(-n)", "(p/q)", "(-p/q)"."""
    if v.q == 1:
        return str(v.p) if v.p >= 0 else f"(-{-v.p})"
    return f"({v.p}/{v.q})" if v.p > 0 else f"(-{-v.p}/{v.q})"


def same_element(a: list[sp.Expr], b: list[sp.Expr]) -> bool:
    """The four entries agree (structurally, else their difference simplifies to 0)."""
    return all(x == y or _zero(x - y) for x, y in zip(a, b, strict=True))


@dataclass(frozen=True)
class Element:
    """One group element (or family, when `lam` occurs in it) with its proof method."""

    alpha: sp.Expr
    beta: sp.Expr
    gamma: sp.Expr
    delta: sp.Expr
    condition: str = ""  # for families: the range of the parameter l


def identity_residual(expr: sp.Expr, e: Element) -> sp.Expr:
    """ρ(αx + β) − γρ(x) − δ, which the proof shows to be 0."""
    return expr.subs(X, e.alpha * X + e.beta) - e.gamma * expr - e.delta


def prove(expr: sp.Expr, e: Element, piecewise: bool) -> str | None:
    """The method that proved ρ(αx + β) = γρ(x) + δ identically, or None.

    Piecewise activations (|x|, max) are proved on x > 0, x < 0 and x = 0 separately with a
    positive symbol p; a family's condition "l > 0" is used as the symbol's assumption."""
    lam_pos = sp.Symbol("l", positive=True)
    e2 = e
    if e.condition == "l > 0":
        e2 = Element(*(c.subs(LAM, lam_pos) for c in (e.alpha, e.beta, e.gamma, e.delta)))
    r = identity_residual(expr, e2)
    if piecewise:
        p = sp.Symbol("p", positive=True)
        cases = [sp.simplify(r.subs(X, v)) for v in (p, -p, sp.Integer(0))]
        return "sympy simplify on x > 0, x < 0, x = 0" if all(c == 0 for c in cases) else None
    if sp.expand(r) == 0:
        return "sympy expand"
    if sp.simplify(r) == 0:
        return "sympy simplify"
    if sp.simplify(sp.expand(r.rewrite(sp.exp))) == 0:
        return "sympy simplify after rewrite(exp)"
    return None


def rational_table(group: dict[str, Any]) -> list[list[str]]:
    """The proved elements whose four entries are rationals (the kernels' part of the table)."""
    out = []
    for r in group["elements"]:
        if r["family"] is not None or r["proof"] == "unproved":
            continue
        try:
            vals = [Fraction(r[k].replace("(", "").replace(")", "")) for k in FIELDS]
        except ValueError:
            continue
        out.append([rat_str(v) for v in vals])
    return out


def named_activation(name: Any, where: str) -> Activation:
    """The activation a certificate names, in the normalised form the generator writes."""
    try:
        act = activation(name)
    except ActivationError as e:
        raise Malformed(f"{where}: {e}") from None
    if act.name != name:
        raise Malformed(f"{where}: not in normal form (expected {act.name!r})")
    return act


def _value(text: Any, where: str) -> sp.Expr:
    if not isinstance(text, str):
        raise Malformed(f"{where}: expected an expression string")
    try:
        v = parse_expression(text, {"l": LAM, "x": X}, allow_pi=True)
    except ActivationError as e:
        raise Malformed(f"{where}: {e}") from None
    if v.has(X):
        raise Malformed(f"{where}: entries do not depend on x")
    return v


def _zero(v: sp.Expr) -> bool:
    return bool(sp.simplify(v) == 0)


def check_group(group: dict[str, Any], act: Activation) -> list[str]:
    """The listed group of `act`, checked with code of its own: every element re-proved (its
    proof status reproduced), proved elements with α, γ ≠ 0, families exactly the rows in l with
    a known range, and type, order and completeness flag consistent with the rows. Not checked
    (the generator's search, not re-run): that no symmetry is missing (`complete`), the
    classification of the group (`type` beyond these consistency conditions) and the
    recorded necessary conditions."""
    exact_keys(group, "witness.group", GROUP_KEYS)
    problems = []
    if group["activation"] != act.name:
        problems.append("witness.group.activation: not the instance's activation")
    expr = group["expression"]
    if act.piecewise or act.name == "sin":
        if expr is not None:
            problems.append("witness.group.expression: null for an activation outside the grammar")
    elif not isinstance(expr, str):
        raise Malformed("witness.group.expression: the activation in the grammar")
    else:
        try:
            e = parse_expression(expr)
        except ActivationError as err:
            raise Malformed(f"witness.group.expression: {err}") from None
        if e != act.expr and not _zero(e - act.expr):
            problems.append("witness.group.expression: not the activation's expression")
    if group["type"] not in ("finite", "family", "infinite"):
        raise Malformed("witness.group.type: finite, family or infinite")
    if not isinstance(group["complete"], bool):
        raise Malformed("witness.group.complete: a boolean")
    notes = as_list(group["necessary_conditions"], "witness.group.necessary_conditions")
    if not all(isinstance(n, str) for n in notes):
        raise Malformed("witness.group.necessary_conditions: strings")
    rows = as_list(group["elements"], "witness.group.elements")
    if len(rows) > MAX_ROWS:
        raise Malformed(f"witness.group.elements: at most {MAX_ROWS} rows")
    proved = families = 0
    proved_vals: list[list[sp.Expr]] = []
    for i, r in enumerate(rows):
        where = f"witness.group.elements[{i}]"
        r = exact_keys(r, where, ROW_KEYS)
        vals = [_value(r[k], f"{where}.{k}") for k in FIELDS]
        for k, v in zip(FIELDS, vals, strict=True):
            # one spelling per rational (issue 22: "1*1" hid a second identity from the table)
            if v.is_Rational and r[k] != rational_spelling(v):
                problems.append(f"{where}.{k}: the rational {v} must be spelled "
                                f"{rational_spelling(v)!r}")  # fmt: skip
        cond = r["family"]
        if cond is not None and cond not in FAMILY_CONDITIONS:
            raise Malformed(f"{where}.family: null or one of {list(FAMILY_CONDITIONS)}")
        if (cond is not None) != any(v.has(LAM) for v in vals):
            problems.append(f"{where}: a family exactly when the entries depend on l")
        if not isinstance(r["proof"], str):
            raise Malformed(f"{where}.proof: a string")
        method = prove(act.expr, Element(*vals, condition=cond or ""), act.piecewise)
        if (method or "unproved") != r["proof"]:
            problems.append(f"{where}: proof status {r['proof']!r} not reproduced "
                            f"({method or 'unproved'})")  # fmt: skip
        if method is not None:
            if any(same_element(vals, o) for o in proved_vals):
                problems.append(f"{where}: the same element as an earlier proved row")
            proved_vals.append(vals)
            proved += 1
            families += cond is not None
            if _zero(vals[0]) or _zero(vals[2]):
                problems.append(f"{where}: alpha = 0 or gamma = 0")
    kind = group["type"]
    if kind == "finite" and (families or group["order"] != proved):
        problems.append("witness.group: a finite group lists no family and has order the "
                        "number of proved, pairwise distinct elements")  # fmt: skip
    if kind != "finite" and group["order"] is not None:
        problems.append("witness.group.order: null unless the group is finite")
    if kind == "family" and not families:
        problems.append("witness.group.type: family, but no proved family is listed")
    if group["complete"] and proved < len(rows):
        problems.append("witness.group.complete: an unproved candidate leaves it incomplete")
    return problems


def check_flip(act: Activation, s: KT.AffSym) -> list[str]:
    """The flip of orbit and equiv certificates: an involution other than the identity (own
    rational arithmetic, the kernels' composition), and ρ(αx + β) = γρ(x) + δ proved by
    `prove` (sympy)."""
    ident = KT.AffSym((1, 1), (0, 1), (1, 1), (0, 1))
    problems = []
    if not KT.aff_ok(s) or KT.aff_eq(s, ident) or not KT.aff_eq(KT.aff_compose(s, s), ident):
        problems.append("instance.symmetry: not an involution other than the identity")
    vals = [sp.Rational(*getattr(s, k)) for k in FIELDS]
    if prove(act.expr, Element(*vals), act.piecewise) is None:
        problems.append(f"instance.symmetry: not proved a symmetry of {act.name} (sympy)")
    return problems
