"""Values for the conformance harness, directed by the Coq types of coqsig.py: random
generation inside each definition's contract, tampering, and printing as Coq literals.

Contracts the generator keeps (the kernels document them; outside them the two sides may
legitimately differ, e.g. Coq's 63-bit `int` wraps where Python's int does not):
- a parameter named like a modulus (p, q, lw_p, ...) is the case's prime (or, for `qs`, a
  list of moduli); every `int` is a residue in [0, p);
- `nat` and list sizes are small, so every evaluation is quick on both sides.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from typing import Any

from certify.checker.kernel import resnet as KR
from certify.checker.kernel.arith import (
    ARITH_Q as kernel_ARITH_Q,
)
from certify.checker.kernel.arith import (
    ARITH_Z as kernel_ARITH_Z,
)
from certify.checker.kernel.arith import (
    arith_mod as kernel_arith_mod,
)

PRIMES = (7, 11, 101, 2147483647)
MODULI = (7, 11, 13, 101, 2147483629, 2147483647)
MODULUS_NAMES = {"p", "q", "lw_p", "uw_p", "rl_p", "iw_p"}
SIZES = {"nat": 3, "list": 3}


class NotRepresentable(Exception):
    """A Python value that has no literal of the Coq type (e.g. a negative `nat`)."""


@dataclass(frozen=True)
class ArithV:
    """An arithmetic argument: its Coq term, its carrier type and the Python twin."""

    coq: str
    carrier: tuple
    py: Any


def arith_mod(p: int, py: Any = None) -> ArithV:
    return ArithV(f"(arith_mod (Uint63.of_Z {p}))", ("int",), py or kernel_arith_mod(p))


ARITH_Q = ArithV("arith_q", ("tuple", (("Z",), ("Z",))), kernel_ARITH_Q)
ARITH_Z = ArithV("arith_z", ("Z",), kernel_ARITH_Z)


def arith_cyc(g: int, py: Any = None) -> ArithV:
    return ArithV(f"(arith_cyc {g})", ("list", ARITH_Q.carrier), py or KR.arith_cyc(g))


def arith_terms(nv: int, py: Any = None) -> ArithV:
    term = ("tuple", (ARITH_Q.carrier, ("list", ("nat",))))
    return ArithV(f"(arith_terms {nv})", ("list", term), py or KR.arith_terms(nv))


@dataclass
class Ctx:
    rng: random.Random
    p: int
    vars: dict[str, tuple]  # type variable -> carrier type
    records: dict[str, Any]  # Coq record name -> coqsig.CoqRecord
    classes: dict[str, type]  # Coq record name -> Python dataclass


def subst(t: tuple, env: dict[str, tuple]) -> tuple:
    if t[0] == "var":
        return env.get(t[1], ("Z",))
    if t[0] in ("list", "option", "arith"):
        return (t[0], subst(t[1], env))
    if t[0] == "tuple":
        return ("tuple", tuple(subst(x, env) for x in t[1]))
    return t


# ---------------------------------------------------------------- generation
def gen(t: tuple, ctx: Ctx, name: str = "") -> Any:
    rng = ctx.rng
    kind = t[0]
    if name in MODULUS_NAMES and kind in ("Z", "int"):
        return ctx.p
    if name == "qs" and t == ("list", ("Z",)):
        qs = rng.sample(MODULI, rng.randint(0, 3))
        return qs + [qs[0] * 2] if qs and rng.random() < 0.3 else qs
    if kind == "nat":
        return rng.randint(0, SIZES["nat"])
    if kind == "Z":
        return rng.randint(-6, 6)
    if kind == "int":
        return rng.randrange(ctx.p) if rng.random() < 0.8 else rng.choice([0, 1, ctx.p - 1])
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "tuple":
        if t == ARITH_Q.carrier:  # a rational: positive denominator, now and then not
            den = rng.choice([1, 1, 2, 3]) if rng.random() < 0.85 else rng.choice([0, -1])
            return (0 if rng.random() < 0.2 else rng.randint(-4, 4), den)
        return tuple(gen(x, ctx) for x in t[1])
    if kind == "list":
        return [gen(t[1], ctx) for _ in range(rng.randint(0, SIZES["list"]))]
    if kind == "option":
        return None if rng.random() < 0.3 else gen(t[1], ctx)
    if kind == "rec":
        rec = ctx.records[t[1]]
        cls = ctx.classes[t[1]]
        return cls(*(gen(ft, ctx, fname) for fname, ft in rec.fields))
    raise NotImplementedError(t)


def tamper(t: tuple, v: Any, ctx: Ctx) -> Any:
    """v with one leaf changed (a number moved by one, a flag flipped, a list shortened or
    grown by a copy of an entry), staying inside the type."""
    rng = ctx.rng
    kind = t[0]
    if kind == "nat":
        return v + 1 if v == 0 or rng.random() < 0.5 else v - 1
    if kind == "Z":
        return v + rng.choice([-1, 1])
    if kind == "int":
        return (v + 1) % ctx.p
    if kind == "bool":
        return not v
    if kind == "arith":
        return v
    if kind == "tuple":
        i = rng.randrange(len(t[1]))
        return tuple(tamper(x, y, ctx) if j == i else y for j, (x, y) in enumerate(zip(t[1], v)))
    if kind == "option":
        return None if v is not None else v
    if kind == "list":
        v = list(v)
        if not v:
            return v
        r = rng.random()
        if r < 0.15:
            return v[:-1]
        if r < 0.25:
            return [*v, v[-1]]
        i = rng.randrange(len(v))
        v[i] = tamper(t[1], v[i], ctx)
        return v
    if kind == "rec":
        rec = ctx.records[t[1]]
        fields = [getattr(v, f.name) for f in dataclasses.fields(v)]
        i = rng.randrange(len(fields))
        fields[i] = tamper(rec.fields[i][1], fields[i], ctx)
        return type(v)(*fields)
    return v


# ---------------------------------------------------------------- printing
def coq_type(t: tuple) -> str:
    kind = t[0]
    if kind in ("nat", "Z", "int", "bool"):
        return kind
    if kind in ("list", "option", "arith"):
        return f"({kind} {coq_type(t[1])})"
    if kind == "tuple":
        return "(" + " * ".join(coq_type(x) for x in t[1]) + ")"
    if kind == "rec":
        return t[1]
    raise NotImplementedError(t)


def lit(t: tuple, v: Any, ctx: Ctx) -> str:
    kind = t[0]
    if kind == "bool":
        if not isinstance(v, bool):
            raise NotRepresentable(v)
        return "true" if v else "false"
    if kind in ("nat", "Z", "int"):
        if isinstance(v, bool) or not isinstance(v, int):
            raise NotRepresentable(v)
        if kind == "nat" and v < 0 or kind == "int" and not 0 <= v < 2**62:
            raise NotRepresentable(v)
        scope = {"nat": "nat", "Z": "Z", "int": "uint63"}[kind]
        return f"({v})%{scope}" if v < 0 else f"{v}%{scope}"
    if kind == "tuple":
        if not isinstance(v, tuple | list) or len(v) != len(t[1]):
            raise NotRepresentable(v)
        return "(" + ", ".join(lit(x, y, ctx) for x, y in zip(t[1], v)) + ")"
    if kind == "list":
        if not isinstance(v, list | tuple):
            raise NotRepresentable(v)
        return "[" + "; ".join(lit(t[1], x, ctx) for x in v) + "]"
    if kind == "option":
        return "None" if v is None else f"(Some {lit(t[1], v, ctx)})"
    if kind == "arith":
        if not isinstance(v, ArithV) or v.carrier != t[1]:
            raise NotRepresentable(v)
        return v.coq
    if kind == "rec":
        rec = ctx.records[t[1]]
        if not dataclasses.is_dataclass(v):
            raise NotRepresentable(v)
        vals = [getattr(v, f.name) for f in dataclasses.fields(v)]
        if len(vals) != len(rec.fields):
            raise NotRepresentable(v)
        return (
            f"({rec.ctor} "
            + " ".join(lit(ft, x, ctx) for (_, ft), x in zip(rec.fields, vals))
            + ")"
        )
    raise NotImplementedError(t)


def to_python(v: Any) -> Any:
    """The value a Python twin takes: arithmetic arguments become their Python records."""
    return v.py if isinstance(v, ArithV) else v
