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

from dataclasses import dataclass

from certify.checker.base import (
    ARITH_Q as ARITH_Q,
)
from certify.checker.base import (
    ARITH_Z as ARITH_Z,
)
from certify.checker.base import (
    P_BOUND as P_BOUND,
)
from certify.checker.base import (
    A as A,
)
from certify.checker.base import (
    Arith as Arith,
)
from certify.checker.base import (
    Rat as Rat,
)
from certify.checker.base import (
    acts_inv_ok as acts_inv_ok,
)
from certify.checker.base import (
    acts_mod as acts_mod,
)
from certify.checker.base import (
    acts_pos as acts_pos,
)
from certify.checker.base import (
    all_lt as all_lt,
)
from certify.checker.base import (
    all_pos as all_pos,
)
from certify.checker.base import (
    all_zero_q as all_zero_q,
)
from certify.checker.base import (
    arith_mod as arith_mod,
)
from certify.checker.base import (
    cons_all as cons_all,
)
from certify.checker.base import (
    drop_n as drop_n,
)
from certify.checker.base import (
    grid as grid,
)
from certify.checker.base import (
    ints_mod as ints_mod,
)
from certify.checker.base import (
    ints_q as ints_q,
)
from certify.checker.base import (
    is_unit_row as is_unit_row,
)
from certify.checker.base import (
    lattice as lattice,
)
from certify.checker.base import (
    mem_nat as mem_nat,
)
from certify.checker.base import (
    nodup_nat as nodup_nat,
)
from certify.checker.base import (
    nonzero_q as nonzero_q,
)
from certify.checker.base import (  # re-exported (X as X): the lists and the arithmetic
    nth as nth,
)
from certify.checker.base import (
    nth_nat as nth_nat,
)
from certify.checker.base import (
    nth_q as nth_q,
)
from certify.checker.base import (
    nth_row as nth_row,
)
from certify.checker.base import (
    p_ok as p_ok,
)
from certify.checker.base import (
    prepend_each as prepend_each,
)
from certify.checker.base import (
    qadd as qadd,
)
from certify.checker.base import (
    qeq as qeq,
)
from certify.checker.base import (
    qeq_all as qeq_all,
)
from certify.checker.base import (
    qmul as qmul,
)
from certify.checker.base import (
    qneg as qneg,
)
from certify.checker.base import (
    range_from as range_from,
)
from certify.checker.base import (
    range_nat as range_nat,
)
from certify.checker.base import (
    rat_inv_ok as rat_inv_ok,
)
from certify.checker.base import (
    rat_mod as rat_mod,
)
from certify.checker.base import (
    rats_inv_ok as rats_inv_ok,
)
from certify.checker.base import (
    rats_mod as rats_mod,
)
from certify.checker.base import (
    rats_pos as rats_pos,
)
from certify.checker.base import (
    rows_len as rows_len,
)
from certify.checker.base import (
    sum_z as sum_z,
)
from certify.checker.base import (
    take_n as take_n,
)
from certify.checker.base import (
    unit_vec as unit_vec,
)
from certify.checker.base import (
    zeros as zeros,
)
from certify.checker.base import (
    zlist_eq as zlist_eq,
)
from certify.checker.rank_core import (
    abs_z,
    check_rank_core,
    independent_mod,
    kill_bound,
    kills_mod,
    moduli_ok,
    prod_z,
    reduce_mod,
)


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


# ---------------------------------------------------------------- reverse mode (NNCert/Net)
def layer_vals(ar: Arith[A], rowlen: int, nrows: int, th: list[A], hb: list[A]) -> list[A]:
    """The values w_i . hb of nrows neurons, neuron i with the weights th[i*rowlen:(i+1)*rowlen]
    (hb = h ++ [1] when the layer has biases)."""
    out: list[A] = []
    for _ in range(nrows):
        out.append(dot(ar, take_n(rowlen, th), hb))
        th = drop_n(rowlen, th)
    return out


def add_scaled_row(ar: Arith[A], z: A, r: list[A], acc: list[A]) -> list[A]:
    """z * r + acc entrywise, to the shorter length."""
    return [ar.add(ar.mul(z, x), y) for x, y in zip(r, acc)]


def back_rows(ar: Arith[A], rowlen: int, g: list[A], th: list[A], acc: list[A]) -> list[A]:
    """acc + sum_i g[i] * (row i of th), rows of rowlen parameters: W^T g (with the bias
    column last when the layer has biases)."""
    for gi in g:
        acc = add_scaled_row(ar, gi, take_n(rowlen, th), acc)
        th = drop_n(rowlen, th)
    return acc


def scale_each(ar: Arith[A], g: list[A], hb: list[A]) -> list[A]:
    """g[i] * hb for every neuron i, flat: the gradient of one layer's weights (and biases)
    when g is the gradient of its pre-activations and hb its input (h ++ [1] with biases)."""
    out: list[A] = []
    for gi in g:
        out.extend(ar.mul(gi, v) for v in hb)
    return out


def hadamard(ar: Arith[A], xs: list[A], ys: list[A]) -> list[A]:
    """xs[i] * ys[i] entrywise, to the shorter length."""
    return [ar.mul(x, y) for x, y in zip(xs, ys)]


def act_vd(ar: Arith[A], cs: list[A], hs: list[A]) -> tuple[list[A], list[A]]:
    """(sigma(h), sigma'(h)) for every h in hs: Horner on the dual number h + 1*eps."""
    return act_dual(ar, cs, hs, [ar.one for _ in hs])


def net_back(
    ar: Arith[A],
    bias: bool,
    prev: int,
    rest: list[int],
    acts: list[list[A]],
    th: list[A],
    h: list[A],
    k: int,
) -> tuple[list[A], list[A]]:
    """(d f_k / d theta for the layers of widths `rest`, d f_k / d h) by reverse mode: the
    input h of width `prev`, one forward value per layer, the gradient pulled back through
    sigma' and W^T. A whole Jacobian row costs one pass, O(#params)."""
    if not rest:
        return [], []
    d, rest2 = rest[0], rest[1:]
    rowlen = prev + (1 if bias else 0)
    hb = with_bias(ar, bias, h, ar.one)
    if not rest2:
        g = unit_vec(ar, d, k)
    else:
        v, dv = act_vd(ar, acts[0] if acts else [], layer_vals(ar, rowlen, d, th, hb))
        grest, gh = net_back(ar, bias, d, rest2, acts[1:], drop_n(d * rowlen, th), v, k)
        g = hadamard(ar, dv, gh)
    gthis = scale_each(ar, g, hb)
    gin = take_n(prev, back_rows(ar, rowlen, g, th, zeros(ar, rowlen)))
    return (gthis if not rest2 else gthis + grest), gin


def net_row(
    ar: Arith[A],
    widths: list[int],
    acts: list[list[A]],
    bias: bool,
    th: list[A],
    x: list[A],
    k: int,
) -> list[A]:
    """The Jacobian row d f_theta(x)[k] / d theta (length #params), one reverse pass."""
    if not widths:
        return []
    return net_back(ar, bias, widths[0], widths[1:], acts, th, x, k)[0]


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
