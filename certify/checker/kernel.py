"""Python twin of the kernel libraries (lean/NNCert/*.lean, coq/NNCert/*.v).

Each function here mirrors the Lean definition `NNCert.<camelCase>` and the Coq definition
`<snake_case>` of the same name, clause by clause; the Lean and Coq versions recurse
structurally where these use loops. Only Python ints (and tuples/lists of them) are used:
no flint, no sympy, no Fraction, so this checker is independent of the generator.

Conventions shared by the three implementations:
- a rational is a pair (num, den) with den > 0, never normalised;
- values mod p lie in [0, p); 1 < p < 2^31 (so Coq's 63-bit products never overflow);
- a network is (widths, acts, bias, theta) with theta flat: layer by layer, neuron by
  neuron, incoming weights then the bias (spec.MLP documents the layout).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

A = TypeVar("A")
Rat = tuple[int, int]
P_BOUND = 2**31


# ---------------------------------------------------------------- lists (NNCert/Lists)
def nth(xs: list[int], j: int) -> int:
    """Entry j of xs, 0 past the end (Lean `nth`, Coq `nth_z`)."""
    return xs[j] if 0 <= j < len(xs) else 0


def nth_row(rows: list[list[int]], i: int) -> list[int]:
    """Row i, [] past the end."""
    return rows[i] if 0 <= i < len(rows) else []


def take_n(n: int, xs: list[A]) -> list[A]:
    return xs[:n]


def drop_n(n: int, xs: list[A]) -> list[A]:
    return xs[n:]


def all_lt(k: int, xs: list[int]) -> bool:
    """Every entry is below k (and a natural number, as the Lean/Coq type Nat forces)."""
    return all(0 <= x < k for x in xs)


def rows_len(m: int, rows: list[list[A]]) -> bool:
    """Every row has length m."""
    return all(len(r) == m for r in rows)


def all_pos(xs: list[int]) -> bool:
    return all(x > 0 for x in xs)


def range_from(start: int, count: int) -> list[int]:
    """[start, start+1, ..., start+count-1]."""
    return [start + i for i in range(count)]


def prepend_each(v: int, pts: list[list[int]]) -> list[list[int]]:
    return [[v, *pt] for pt in pts]


def cons_all(vals: list[int], pts: list[list[int]]) -> list[list[int]]:
    out: list[list[int]] = []
    for v in vals:
        out.extend(prepend_each(v, pts))
    return out


def grid(dim: int, deg: int) -> list[list[int]]:
    """All points of {0..deg}^dim."""
    pts: list[list[int]] = [[]]
    for _ in range(dim):
        pts = cons_all(range_from(0, deg + 1), pts)
    return pts


def sum_z(xs: list[int]) -> int:
    return sum(xs)


def lattice(dim: int, deg: int) -> list[list[int]]:
    """The principal lattice {x in {0..deg}^dim : x_1 + ... + x_dim <= deg}: unisolvent for
    polynomials of total degree <= deg (one vanishing at all these points is zero)."""
    return [x for x in grid(dim, deg) if sum_z(x) <= deg]


def is_unit_row(k: int, row: list[int]) -> bool:
    """row = e_k: 1 at index k, 0 elsewhere, and k < len(row)."""
    return k < len(row) and all(x == (1 if j == k else 0) for j, x in enumerate(row))


# ---------------------------------------------------------------- arithmetic (NNCert/Arith)
@dataclass(frozen=True)
class Arith(Generic[A]):
    """The operations network evaluation needs (Lean `Arith`, Coq section variables)."""

    add: Callable[[A, A], A]
    mul: Callable[[A, A], A]
    zero: A
    one: A


def arith_mod(p: int) -> Arith[int]:
    """Z/p with representatives in [0, p)."""
    return Arith(lambda a, b: (a + b) % p, lambda a, b: (a * b) % p, 0, 1)


def qadd(a: Rat, b: Rat) -> Rat:
    return (a[0] * b[1] + b[0] * a[1], a[1] * b[1])


def qmul(a: Rat, b: Rat) -> Rat:
    return (a[0] * b[0], a[1] * b[1])


ARITH_Q: Arith[Rat] = Arith(qadd, qmul, (0, 1), (1, 1))


def p_ok(p: int) -> bool:
    return 1 < p < P_BOUND


def rat_inv_ok(p: int, r: Rat, inv: int) -> bool:
    """den > 0 and den * inv = 1 (mod p): then num/den reduces to num * inv mod p."""
    return r[1] > 0 and ((r[1] % p) * (inv % p)) % p == 1


def rat_mod(p: int, r: Rat, inv: int) -> int:
    return ((r[0] % p) * (inv % p)) % p


def rats_inv_ok(p: int, rs: list[Rat], invs: list[int]) -> bool:
    return len(rs) == len(invs) and all(rat_inv_ok(p, r, i) for r, i in zip(rs, invs))


def rats_mod(p: int, rs: list[Rat], invs: list[int]) -> list[int]:
    return [rat_mod(p, r, i) for r, i in zip(rs, invs)]


def acts_inv_ok(p: int, acts: list[list[Rat]], invs: list[list[int]]) -> bool:
    return len(acts) == len(invs) and all(rats_inv_ok(p, a, i) for a, i in zip(acts, invs))


def acts_mod(p: int, acts: list[list[Rat]], invs: list[list[int]]) -> list[list[int]]:
    return [rats_mod(p, a, i) for a, i in zip(acts, invs)]


def rats_pos(rs: list[Rat]) -> bool:
    return all(r[1] > 0 for r in rs)


def acts_pos(acts: list[list[Rat]]) -> bool:
    return all(rats_pos(a) for a in acts)


def ints_mod(p: int, xs: list[int]) -> list[int]:
    return [x % p for x in xs]


def ints_q(xs: list[int]) -> list[Rat]:
    return [(x, 1) for x in xs]


def all_zero_q(xs: list[Rat]) -> bool:
    return all(x[0] == 0 for x in xs)


def zeros(ar: Arith[A], n: int) -> list[A]:
    return [ar.zero] * n


def unit_vec(ar: Arith[A], n: int, c: int) -> list[A]:
    """e_c of length n (all zero when c >= n)."""
    return [ar.one if j == c else ar.zero for j in range(n)]


# ---------------------------------------------------------------- networks (NNCert/Net)
def dot(ar: Arith[A], ws: list[A], xs: list[A]) -> A:
    """Sum of ws[i] * xs[i] over the shorter length."""
    acc = ar.zero
    for w, x in reversed(list(zip(ws, xs))):
        acc = ar.add(ar.mul(w, x), acc)
    return acc


def horner_dual(ar: Arith[A], cs: list[A], a: A, da: A) -> tuple[A, A]:
    """(sigma(a), sigma'(a) * da) for sigma = sum cs[k] t^k: Horner on a + da*eps."""
    s, ds = ar.zero, ar.zero
    for c in reversed(cs):
        s, ds = ar.add(c, ar.mul(a, s)), ar.add(ar.mul(a, ds), ar.mul(da, s))
    return s, ds


def act_dual(ar: Arith[A], cs: list[A], hs: list[A], dhs: list[A]) -> tuple[list[A], list[A]]:
    vs: list[A] = []
    dvs: list[A] = []
    for h, dh in zip(hs, dhs):
        v, dv = horner_dual(ar, cs, h, dh)
        vs.append(v)
        dvs.append(dv)
    return vs, dvs


def layer_dual(
    ar: Arith[A], rowlen: int, nrows: int, th: list[A], dth: list[A], hb: list[A], dhb: list[A]
) -> tuple[list[A], list[A]]:
    """Pre-activations of nrows neurons (and their tangents); each consumes rowlen params."""
    pre: list[A] = []
    dpre: list[A] = []
    for _ in range(nrows):
        w, dw = take_n(rowlen, th), take_n(rowlen, dth)
        pre.append(dot(ar, w, hb))
        dpre.append(ar.add(dot(ar, dw, hb), dot(ar, w, dhb)))
        th, dth = drop_n(rowlen, th), drop_n(rowlen, dth)
    return pre, dpre


def with_bias(ar: Arith[A], bias: bool, h: list[A], v: A) -> list[A]:
    """h, followed by the constant v when the network has biases."""
    return [*h, v] if bias else h


def net_dual(
    ar: Arith[A],
    bias: bool,
    prev: int,
    rest: list[int],
    acts: list[list[A]],
    th: list[A],
    dth: list[A],
    h: list[A],
    dh: list[A],
) -> tuple[list[A], list[A]]:
    """Forward mode through the layers of widths `rest` (the previous width is `prev`)."""
    while rest:
        d, rest = rest[0], rest[1:]
        rowlen = prev + (1 if bias else 0)
        pre, dpre = layer_dual(
            ar, rowlen, d, th, dth, with_bias(ar, bias, h, ar.one), with_bias(ar, bias, dh, ar.zero)
        )
        if not rest:
            return pre, dpre
        cs = acts[0] if acts else []
        h, dh = act_dual(ar, cs, pre, dpre)
        acts = acts[1:]
        th, dth = drop_n(d * rowlen, th), drop_n(d * rowlen, dth)
        prev = d
    return h, dh


def net_eval(
    ar: Arith[A],
    widths: list[int],
    acts: list[list[A]],
    bias: bool,
    th: list[A],
    dth: list[A],
    x: list[A],
    dx: list[A],
) -> tuple[list[A], list[A]]:
    """(f_theta(x), d/dt f_{theta + t*dth}(x + t*dx) at t = 0)."""
    if not widths:
        return [], []
    return net_dual(ar, bias, widths[0], widths[1:], acts, th, dth, x, dx)


# ---------------------------------------------------------------- shapes (NNCert/Net)
def n_params_from(prev: int, rest: list[int], b: int) -> int:
    total = 0
    for d in rest:
        total += d * (prev + b)
        prev = d
    return total


def n_params(widths: list[int], bias: bool) -> int:
    if not widths:
        return 0
    return n_params_from(widths[0], widths[1:], 1 if bias else 0)


def last_width(widths: list[int]) -> int:
    return widths[-1] if widths else 0


def first_width(widths: list[int]) -> int:
    return widths[0] if widths else 0


def degree_bound(acts: list[list[Rat]]) -> int:
    """Product of (length - 1) of the activations' coefficient lists: >= deg of f in x."""
    d = 1
    for cs in acts:
        d *= max(len(cs) - 1, 0)  # natural-number subtraction, as in Lean and Coq
    return d


def acts_nonconst(acts: list[list[Rat]]) -> bool:
    return all(len(cs) >= 2 for cs in acts)


def shape_ok(
    widths: list[int], acts: list[list[Rat]], bias: bool, th: list[Rat], samples: list[list[int]]
) -> bool:
    return (
        len(widths) >= 2
        and all_pos(widths)
        and len(acts) + 2 == len(widths)
        and acts_nonconst(acts)
        and len(th) == n_params(widths, bias)
        and rows_len(first_width(widths), samples)
    )


# ---------------------------------------------------------------- rank (NNCert/Rank)
def jac_entry_mod(
    p: int,
    widths: list[int],
    acts_m: list[list[int]],
    bias: bool,
    th_m: list[int],
    samples: list[list[int]],
    row: tuple[int, int],
    c: int,
) -> int:
    """d f_theta(x_s)[k] / d theta_c mod p, for row = (s, k): one forward-mode pass."""
    ar = arith_mod(p)
    x = ints_mod(p, nth_row(samples, row[0]))
    out = net_eval(ar, widths, acts_m, bias, th_m, unit_vec(ar, len(th_m), c), x, zeros(ar, len(x)))
    return nth(out[1], row[1])


def jac_minor(
    p: int,
    widths: list[int],
    acts_m: list[list[int]],
    bias: bool,
    th_m: list[int],
    samples: list[list[int]],
    rows: list[tuple[int, int]],
    cols: list[int],
) -> list[list[int]]:
    """The minor J[rows, cols] mod p of the Jacobian of theta -> (f_theta(x_s))_s."""
    return [
        [jac_entry_mod(p, widths, acts_m, bias, th_m, samples, r, c) for c in cols] for r in rows
    ]


def add_scaled_mod(p: int, z: int, r: list[int], acc: list[int]) -> list[int]:
    """z * r + acc mod p, to the shorter length."""
    return [(z * x + y) % p for x, y in zip(r, acc)]


def combo_mod(p: int, m: int, zs: list[int], rows: list[list[int]]) -> list[int]:
    """sum_k zs[k] * rows[k] mod p, a row of length m."""
    acc = [0] * m
    for z, r in reversed(list(zip(zs, rows))):
        acc = add_scaled_mod(p, z, r, acc)
    return acc


def identity_rows(p: int, r: int, M: list[list[int]], V: list[list[int]], i: int) -> bool:
    """Row i+j of M times V is e_{i+j} mod p, for every row of M."""
    for row in M:
        if not is_unit_row(i, combo_mod(p, r, row, V)):
            return False
        i += 1
    return True


def reduce_rows(p: int, M: list[list[int]]) -> list[list[int]]:
    return [ints_mod(p, row) for row in M]


def check_inverse(p: int, r: int, M: list[list[int]], V: list[list[int]]) -> bool:
    """M and V are r x r and M * V = I (mod p); then det M is a unit mod p."""
    return (
        len(M) == r
        and rows_len(r, M)
        and len(V) == r
        and rows_len(r, V)
        and identity_rows(p, r, reduce_rows(p, M), reduce_rows(p, V), 0)
    )


def rows_in_range(m: int, dout: int, rows: list[tuple[int, int]]) -> bool:
    """Every label (s, k) has s < m and k < dout (naturals, as Nat forces in Lean/Coq)."""
    return all(0 <= s < m and 0 <= k < dout for s, k in rows)


@dataclass(frozen=True)
class RankInstance:
    """What the claim is about: the network and its parameter point (kernel data)."""

    widths: list[int]
    acts: list[list[Rat]]
    bias: bool
    theta: list[Rat]


@dataclass(frozen=True)
class LowerWitness:
    p: int
    samples: list[list[int]]
    theta_inv: list[int]
    acts_inv: list[list[int]]
    rows: list[tuple[int, int]]
    cols: list[int]
    inv: list[list[int]]


@dataclass(frozen=True)
class UpperWitness:
    p: int
    tangents: list[list[int]]
    cols: list[int]
    inv: list[list[int]]


def check_rank_lower(inst: RankInstance, w: LowerWitness, r: int) -> bool:
    """rank of the Jacobian of theta -> (f_theta(x_s))_s at theta is >= r (over Q)."""
    return (
        shape_ok(inst.widths, inst.acts, inst.bias, inst.theta, w.samples)
        and p_ok(w.p)
        and rats_inv_ok(w.p, inst.theta, w.theta_inv)
        and acts_inv_ok(w.p, inst.acts, w.acts_inv)
        and len(w.rows) == r
        and len(w.cols) == r
        and rows_in_range(len(w.samples), last_width(inst.widths), w.rows)
        and all_lt(len(inst.theta), w.cols)
        and check_inverse(
            w.p,
            r,
            jac_minor(
                w.p,
                inst.widths,
                acts_mod(w.p, inst.acts, w.acts_inv),
                inst.bias,
                rats_mod(w.p, inst.theta, w.theta_inv),
                w.samples,
                w.rows,
                w.cols,
            ),
            w.inv,
        )
    )


def tangent_vanishes(inst: RankInstance, pts: list[list[int]], t: list[int]) -> bool:
    """d/ds f_{theta + s t}(x) = 0 exactly (over Q) at every x in pts."""
    d0 = first_width(inst.widths)
    for x in pts:
        out = net_eval(
            ARITH_Q, inst.widths, inst.acts, inst.bias, inst.theta, ints_q(t), ints_q(x),
            zeros(ARITH_Q, d0),
        )  # fmt: skip
        if not all_zero_q(out[1]):
            return False
    return True


def tangents_vanish(inst: RankInstance, pts: list[list[int]], ts: list[list[int]]) -> bool:
    return all(tangent_vanishes(inst, pts, t) for t in ts)


def col_minor(M: list[list[int]], cols: list[int]) -> list[list[int]]:
    return [[nth(row, c) for c in cols] for row in M]


def check_rank_upper(inst: RankInstance, w: UpperWitness, u: int) -> bool:
    """The s tangents are independent kernel vectors of d(theta -> f_theta) at theta,
    so its rank at theta is <= u = #params - s."""
    n = len(inst.theta)
    s = len(w.tangents)
    return (
        shape_ok(inst.widths, inst.acts, inst.bias, inst.theta, [])
        and rats_pos(inst.theta)
        and acts_pos(inst.acts)
        and p_ok(w.p)
        and u + s == n
        and rows_len(n, w.tangents)
        and tangents_vanish(
            inst, lattice(first_width(inst.widths), degree_bound(inst.acts)), w.tangents
        )
        and len(w.cols) == s
        and all_lt(n, w.cols)
        and check_inverse(w.p, s, col_minor(w.tangents, w.cols), w.inv)
    )
