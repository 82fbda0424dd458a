"""Rank checks of polynomial MLPs (coq/NNCert/kernel/Rank.v, lean/NNCert/Rank.lean): the lower
bound (a minor of the Jacobian mod p, nonsingular by RankCore's elimination) and the upper
bound (integer tangents orthogonal to every row, independent mod p). See
certify/checker/kernel/__init__.py for the conventions.
"""

from __future__ import annotations

from dataclasses import dataclass

from certify.checker.kernel.arith import (
    ARITH_Q,
    ARITH_Z,
    Arith,
    Rat,
    acts_inv_ok,
    acts_mod,
    acts_pos,
    arith_mod,
    ints_mod,
    ints_q,
    p_ok,
    qeq_all,
    rats_inv_ok,
    rats_mod,
    rats_pos,
)
from certify.checker.kernel.lists import A, is_unit_row, lattice, nth_row, rows_len
from certify.checker.kernel.net import (
    degree_bound,
    dot,
    first_width,
    last_width,
    net_eval,
    net_row,
    shape_ok,
)
from certify.checker.kernel.rank_core import (
    abs_z,
    check_rank_core,
    independent_mod,
    kill_bound,
    kills_mod,
    moduli_ok,
    prod_z,
    reduce_mod,
)


# ---------------------------------------------------------------- rank (NNCert/Rank)
# The inverse-product check M * V = I (mod p): composition-independence witnesses (the
# rank certificates of every family decide nonsingularity by elimination, rank_core.py).
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


def mlp_rows_mod(
    p: int,
    widths: list[int],
    acts_m: list[list[int]],
    bias: bool,
    th_m: list[int],
    samples: list[list[int]],
    labels: list[tuple[int, int]],
) -> list[list[int]]:
    """The Jacobian rows d f_theta(x_s)[k] / d theta mod p for the labels (s, k), each by one
    reverse pass from the instance reduced mod p."""
    ar = arith_mod(p)
    return [
        net_row(ar, widths, acts_m, bias, th_m, ints_mod(p, nth_row(samples, s)), k)
        for s, k in labels
    ]


@dataclass(frozen=True)
class RankInstance:
    """What the claim is about: the network and its parameter point (kernel data)."""

    widths: list[int]
    acts: list[list[Rat]]
    bias: bool
    theta: list[Rat]


@dataclass(frozen=True)
class LowerWitness:
    """A prime, integer samples, inverses mod p of the denominators of theta and of the
    activation coefficients, and the rows (sample, output) and columns of a minor of the
    Jacobian that the kernel recomputes and eliminates itself (no inverse is shipped)."""

    p: int
    samples: list[list[int]]
    theta_inv: list[int]
    acts_inv: list[list[int]]
    rows: list[tuple[int, int]]
    cols: list[int]


@dataclass(frozen=True)
class UpperWitness:
    """Integer tangents (kernel vectors of the differential at theta), the columns of a minor
    showing them independent mod p, and the moduli of the exactness check (empty: exact
    rational arithmetic)."""

    p: int
    tangents: list[list[int]]
    cols: list[int]
    moduli: list[int]


def check_rank_lower(inst: RankInstance, w: LowerWitness, r: int) -> bool:
    """rank of the Jacobian of theta -> (f_theta(x_s))_s at theta is >= r (over Q)."""
    return (
        shape_ok(inst.widths, inst.acts, inst.bias, inst.theta, w.samples)
        and p_ok(w.p)
        and rats_inv_ok(w.p, inst.theta, w.theta_inv)
        and acts_inv_ok(w.p, inst.acts, w.acts_inv)
        and check_rank_core(
            w.p,
            len(inst.theta),
            len(w.samples),
            last_width(inst.widths),
            w.rows,
            mlp_rows_mod(
                w.p,
                inst.widths,
                acts_mod(w.p, inst.acts, w.acts_inv),
                inst.bias,
                rats_mod(w.p, inst.theta, w.theta_inv),
                w.samples,
                w.rows,
            ),
            w.cols,
            r,
        )
    )


def rats_int(rs: list[Rat]) -> bool:
    """Every rational has denominator 1."""
    return all(r[1] == 1 for r in rs)


def acts_int(acts: list[list[Rat]]) -> bool:
    return all(rats_int(a) for a in acts)


def nums(rs: list[Rat]) -> list[int]:
    """The numerators."""
    return [r[0] for r in rs]


def abs_nums(rs: list[Rat]) -> list[int]:
    """|numerator| of every rational."""
    return [abs_z(r[0]) for r in rs]


def const_list(n: int, v: int) -> list[int]:
    """[v] * n."""
    return [v] * n


def rows_from(
    ar: Arith[A],
    inst: RankInstance,
    th: list[A],
    acts: list[list[A]],
    x: list[A],
    k: int,
    count: int,
) -> list[list[A]]:
    """The Jacobian rows d f(x)[j] / d theta for j = k, k + 1, ..., k + count - 1."""
    return [net_row(ar, inst.widths, acts, inst.bias, th, x, k + j) for j in range(count)]


def out_rows(
    ar: Arith[A], inst: RankInstance, th: list[A], acts: list[list[A]], x: list[A]
) -> list[list[A]]:
    """All d_out Jacobian rows at x."""
    return rows_from(ar, inst, th, acts, x, 0, last_width(inst.widths))


def mlp_kills_mod(inst: RankInstance, pts: list[list[int]], ts: list[list[int]], q: int) -> bool:
    """Every tangent is orthogonal mod q to the integer Jacobian rows at every point."""
    ar = arith_mod(q)
    th = ints_mod(q, nums(inst.theta))
    acts = [ints_mod(q, nums(a)) for a in inst.acts]
    tq = reduce_mod(q, ts)
    for x in pts:
        if not kills_mod(q, out_rows(ar, inst, th, acts, ints_mod(q, x)), tq):
            return False
    return True


def mlp_kills_q(inst: RankInstance, pts: list[list[int]], ts: list[list[int]]) -> bool:
    """Every tangent is orthogonal, exactly over Q, to the Jacobian rows at every point."""
    for x in pts:
        for row in out_rows(ARITH_Q, inst, inst.theta, inst.acts, ints_q(x)):
            for t in ts:
                if dot(ARITH_Q, row, ints_q(t))[0] != 0:
                    return False
    return True


def mlp_bound(inst: RankInstance, xmax: int, ts: list[list[int]]) -> int:
    """A bound on |row . t| over every point with entries in [0, xmax], every output row and
    tangent: the rows evaluated on |theta|, |coefficients| and x = (xmax, ..., xmax) bound
    every row entry (they are sums of products of those, each monotone in them)."""
    rows = out_rows(
        ARITH_Z,
        inst,
        abs_nums(inst.theta),
        [abs_nums(a) for a in inst.acts],
        const_list(first_width(inst.widths), xmax),
    )
    return kill_bound(rows, ts)


def mlp_tangents_kill(inst: RankInstance, ts: list[list[int]], qs: list[int]) -> bool:
    """Every tangent t satisfies d/ds f_{theta + s t}(x) = 0 exactly at every x of the
    lattice {x in N^d0 : |x| <= D} (unisolvent for the degree D of f in x), so t is in the
    kernel of the differential at theta. With no moduli: exact rational rows; otherwise
    the instance is integral, every row . t is 0 mod every modulus, and |row . t| is below
    their product (moduli_ok, mlp_bound), hence 0."""
    D = degree_bound(inst.acts)
    pts = lattice(first_width(inst.widths), D)
    if not qs:
        return mlp_kills_q(inst, pts, ts)
    return (
        rats_int(inst.theta)
        and acts_int(inst.acts)
        and moduli_ok(qs)
        and mlp_bound(inst, D, ts) < prod_z(qs)
        and all(mlp_kills_mod(inst, pts, ts, q) for q in qs)
    )


def check_rank_upper(inst: RankInstance, w: UpperWitness, u: int) -> bool:
    """The s tangents are independent kernel vectors of d(theta -> f_theta) at theta,
    so its rank at theta is <= u = #params - s."""
    n = len(inst.theta)
    s = len(w.tangents)
    return (
        shape_ok(inst.widths, inst.acts, inst.bias, inst.theta, [])
        and rats_pos(inst.theta)
        and acts_pos(inst.acts)
        and u + s == n
        and rows_len(n, w.tangents)
        and mlp_tangents_kill(inst, w.tangents, w.moduli)
        and independent_mod(w.p, n, w.tangents, w.cols)
    )


# ---------------------------------------------------------------- equivalence (NNCert/Rank)
# Kind equiv of family mlp: do two parameter points of one polynomial MLP give the same map?
def mlp_value_q(inst: RankInstance, th: list[Rat], x: list[int]) -> list[Rat]:
    """f_th(x) exactly over Q (unnormalised pairs): the network of `inst` at the parameters
    `th` and the integer input `x` (net_eval's value; its tangent, taken along (th, x) itself
    so that every list has its full length, is discarded)."""
    xq = ints_q(x)
    return net_eval(ARITH_Q, inst.widths, inst.acts, inst.bias, th, th, xq, xq)[0]


def equiv_shape_ok(inst: RankInstance, other: list[Rat]) -> bool:
    """The instance is well formed, `other` has one entry per parameter, and every
    denominator (of theta, other and the activations) is positive."""
    return (
        shape_ok(inst.widths, inst.acts, inst.bias, inst.theta, [])
        and len(other) == len(inst.theta)
        and rats_pos(inst.theta)
        and rats_pos(other)
        and acts_pos(inst.acts)
    )


def check_mlp_same(inst: RankInstance, other: list[Rat]) -> bool:
    """f_theta = f_other as polynomial maps Q^n0 -> Q^nL: each output is a polynomial of total
    degree <= D = degree_bound(acts) (an affine layer keeps the degree, an activation of
    degree d multiplies it by d), and the two agree exactly at every point of the principal
    lattice {x in N^n0 : |x| <= D}, which is unisolvent for total degree <= D: their
    difference vanishes there, so it is zero."""
    n0, deg = first_width(inst.widths), degree_bound(inst.acts)
    return equiv_shape_ok(inst, other) and all(
        qeq_all(mlp_value_q(inst, inst.theta, x), mlp_value_q(inst, other, x))
        for x in lattice(n0, deg)
    )


def check_mlp_differ(inst: RankInstance, other: list[Rat], x: list[int]) -> bool:
    """f_theta(x) != f_other(x) at the integer input x (exactly over Q): the two parameter
    points give different maps."""
    return (
        equiv_shape_ok(inst, other)
        and len(x) == first_width(inst.widths)
        and not qeq_all(mlp_value_q(inst, inst.theta, x), mlp_value_q(inst, other, x))
    )
