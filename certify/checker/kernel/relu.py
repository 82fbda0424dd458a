"""Python twin of lean/NNCert/ReLU.lean and coq/NNCert/kernel/ReLU.v: ReLU networks (math.md §3).

F = A_L o ReLU o ... o ReLU o A_1 with A_l(x) = W_l x + b_l, widths (n_0, ..., n_L); theta is
flat as for an MLP with biases: layer by layer, neuron by neuron, incoming weights then bias.

Three checks, each recomputing from the instance what the claim is about:
- rank lower bound: every hidden pre-activation on the batch is recomputed exactly over Q and
  must be nonzero (so the activation pattern is constant near theta and F is a polynomial in
  theta there); the rows of the Jacobian minor are rebuilt mod p by reverse mode with that
  pattern fixed, and the minor must have the given inverse;
- rank upper bound on the batch: integer vectors orthogonal to the exact gradient (reverse
  mode over Q, pattern fixed) of every output at every batch point, independent by a minor
  mod p;
- one-dimensional input, cover of the line: the sorted batch holds two points of every linear
  piece of F_theta (sign constancy between points as for equivalence), so the batch
  Jacobian's row space holds the gradient at every input off the breakpoints;
- one-dimensional input: F_theta = F_theta2 on the whole line, from exact values at sorted
  points between which every hidden pre-activation of both networks keeps its sign (so both
  functions are affine on every piece and on the two rays); a point where they differ; a
  permutation and positive scaling of the hidden neurons mapping theta to theta2.
Same conventions as the kernel package (kernel/__init__.py): rationals are (num, den) pairs
with den > 0, never normalised.
"""

from __future__ import annotations

from dataclasses import dataclass

from certify.checker.kernel.arith import (
    ARITH_Q,
    Arith,
    Rat,
    acts_inv_ok,
    acts_mod,
    acts_pos,
    arith_mod,
    nth_q,
    p_ok,
    qadd,
    qeq_all,
    qmul,
    rats_inv_ok,
    rats_mod,
    rats_pos,
    unit_vec,
    zeros,
)
from certify.checker.kernel.lists import (
    A,
    all_lt,
    all_pos,
    drop_n,
    nodup_nat,
    nth_row,
    range_nat,
    rows_len,
    take_n,
)
from certify.checker.kernel.net import (
    back_rows,
    first_width,
    last_width,
    layer_vals,
    n_params,
    scale_each,
)
from certify.checker.kernel.rank import UpperWitness
from certify.checker.kernel.rank_core import check_rank_core, independent_mod


@dataclass(frozen=True)
class ReluInstance:
    """A ReLU network with widths (n_0, ..., n_L) at the rational point theta."""

    widths: list[int]
    theta: list[Rat]


@dataclass(frozen=True)
class ReluLowerWitness:
    """Rank lower bound: prime, batch of rational inputs, inverses mod p of the denominators
    of theta and of the batch, the minor's rows (point, output) and columns (the kernel
    recomputes the minor and decides its nonsingularity itself)."""

    p: int
    batch: list[list[Rat]]
    theta_inv: list[int]
    batch_inv: list[list[int]]
    rows: list[tuple[int, int]]
    cols: list[int]


# ---------------------------------------------------------------- exact evaluation over Q
def relu_q(a: Rat) -> Rat:
    """max(a, 0) for a rational with positive denominator."""
    return a if a[0] > 0 else (0, 1)


def relu_vec_q(hs: list[Rat]) -> list[Rat]:
    return [relu_q(h) for h in hs]


def relu_forward(
    prev: int, rest: list[int], th: list[Rat], h: list[Rat]
) -> tuple[list[Rat], list[list[Rat]]]:
    """(F(x), the pre-activations of every hidden layer) exactly over Q, through the layers
    of widths `rest` after a layer of width `prev`; the last layer is affine."""
    pres: list[list[Rat]] = []
    while rest:
        d, rest = rest[0], rest[1:]
        pre = layer_vals(ARITH_Q, prev + 1, d, th, [*h, (1, 1)])
        if not rest:
            return pre, pres
        pres.append(pre)
        h = relu_vec_q(pre)
        th = drop_n(d * (prev + 1), th)
        prev = d
    return h, pres


def relu_eval(widths: list[int], th: list[Rat], x: list[Rat]) -> tuple[list[Rat], list[list[Rat]]]:
    """(F_theta(x), hidden pre-activations) exactly over Q."""
    if not widths:
        return [], []
    return relu_forward(widths[0], widths[1:], th, x)


def all_nonzero_q(xs: list[Rat]) -> bool:
    return all(x[0] != 0 for x in xs)


def pres_nonzero(pres: list[list[Rat]]) -> bool:
    """No hidden pre-activation is zero: x lies on no bent hyperplane of the network."""
    return all(all_nonzero_q(pre) for pre in pres)


def pattern_of(pres: list[list[Rat]]) -> list[list[bool]]:
    """The activation pattern: which hidden neurons are active (pre-activation > 0)."""
    return [[a[0] > 0 for a in pre] for pre in pres]


def batch_nonzero(widths: list[int], th: list[Rat], batch: list[list[Rat]]) -> bool:
    return all(pres_nonzero(relu_eval(widths, th, x)[1]) for x in batch)


def relu_shape_ok(widths: list[int], th: list[Rat], batch: list[list[Rat]]) -> bool:
    """At least one layer, positive widths, D = sum n_l (n_(l-1) + 1) parameters with positive
    denominators, batch points of the input width with positive denominators."""
    return (
        len(widths) >= 2
        and all_pos(widths)
        and len(th) == n_params(widths, True)
        and rats_pos(th)
        and rows_len(first_width(widths), batch)
        and acts_pos(batch)
    )


# ---------------------------------------------------------------- rank
def batch_patterns(
    widths: list[int], th: list[Rat], batch: list[list[Rat]]
) -> list[list[list[bool]]]:
    """The activation pattern of every batch point, computed once, exactly over Q."""
    return [pattern_of(relu_eval(widths, th, x)[1]) for x in batch]


def mask_vals(ar: Arith[A], pat: list[bool], xs: list[A]) -> list[A]:
    """ReLU with a fixed pattern on plain values: x where active, 0 elsewhere."""
    return [x if b else ar.zero for b, x in zip(pat, xs)]


def back_layer(
    ar: Arith[A], prev: int, hb: list[A], g: list[A], th: list[A]
) -> tuple[list[A], list[A]]:
    """(gradient of a layer's parameters, gradient of its input h) from the gradient g of its
    pre-activations W h + b."""
    return scale_each(ar, g, hb), take_n(prev, back_rows(ar, prev + 1, g, th, zeros(ar, prev + 1)))


def relu_back(
    ar: Arith[A],
    prev: int,
    rest: list[int],
    pats: list[list[bool]],
    th: list[A],
    h: list[A],
    k: int,
) -> tuple[list[A], list[A]]:
    """(dF_k/dtheta for the layers of widths `rest`, dF_k/dh) by reverse mode with the
    activation pattern `pats` fixed: the gradient of output k at theta whenever `pats` is the
    pattern of the input and no pre-activation is zero."""
    if not rest:
        return [], []
    d, rest2 = rest[0], rest[1:]
    hb = [*h, ar.one]
    if not rest2:
        return back_layer(ar, prev, hb, unit_vec(ar, d, k), th)
    pat = nth_row(pats, 0)
    grest, gh = relu_back(
        ar, d, rest2, drop_n(1, pats), drop_n(d * (prev + 1), th),
        mask_vals(ar, pat, layer_vals(ar, prev + 1, d, th, hb)), k,
    )  # fmt: skip
    gthis, gin = back_layer(ar, prev, hb, mask_vals(ar, pat, gh), th)
    return gthis + grest, gin


def relu_rows_mod(
    p: int,
    widths: list[int],
    pats_all: list[list[list[bool]]],
    th_m: list[int],
    batch_m: list[list[int]],
    rows: list[tuple[int, int]],
) -> list[list[int]]:
    """The rows of the batch Jacobian of theta -> (F_theta(z_s))_s mod p for the labels
    (s, k): the gradient of F_k at z_s by one reverse-mode pass with the pattern of z_s
    fixed."""
    ar = arith_mod(p)
    out = []
    for s, k in rows:
        g = relu_back(
            ar, first_width(widths), drop_n(1, widths), nth_row(pats_all, s), th_m,
            nth_row(batch_m, s), k,
        )[0]  # fmt: skip
        out.append(g)
    return out


def check_relu_rank_lower(inst: ReluInstance, w: ReluLowerWitness, r: int) -> bool:
    """rank over Q of the Jacobian of theta -> (F_theta(z))_(z in batch) at theta is >= r."""
    return (
        relu_shape_ok(inst.widths, inst.theta, w.batch)
        and p_ok(w.p)
        and rats_inv_ok(w.p, inst.theta, w.theta_inv)
        and acts_inv_ok(w.p, w.batch, w.batch_inv)
        and batch_nonzero(inst.widths, inst.theta, w.batch)
        and check_rank_core(
            w.p,
            len(inst.theta),
            len(w.batch),
            last_width(inst.widths),
            w.rows,
            relu_rows_mod(
                w.p,
                inst.widths,
                batch_patterns(inst.widths, inst.theta, w.batch),
                rats_mod(w.p, inst.theta, w.theta_inv),
                acts_mod(w.p, w.batch, w.batch_inv),
                w.rows,
            ),
            w.cols,
            r,
        )
    )


def dot_nz(g: list[Rat], t: list[int]) -> Rat:
    """g . t over the unnormalised pairs, the entries where t is 0 skipped: the same rational
    as dot(ARITH_Q, g, ints_q(t)) with far smaller pairs (a sum multiplies the denominators
    of every term it adds; a scaling tangent is nonzero on one neuron's weights only)."""
    acc: Rat = (0, 1)
    for x, y in reversed(list(zip(g, t))):
        if y != 0:
            acc = qadd(qmul(x, (y, 1)), acc)
    return acc


def grad_kills(g: list[Rat], ts: list[list[int]]) -> bool:
    """Every tangent t is orthogonal to the exact gradient g: g . t = 0 over Q."""
    return all(dot_nz(g, t)[0] == 0 for t in ts)


def outputs_kill(
    inst: ReluInstance,
    pats: list[list[bool]],
    x: list[Rat],
    ts: list[list[int]],
    k: int,
    count: int,
) -> bool:
    """grad_kills for the exact gradients (reverse mode over Q, pattern fixed) of the outputs
    k, k + 1, ..., k + count - 1 at x."""
    w = inst.widths
    for j in range(count):
        g = relu_back(ARITH_Q, first_width(w), drop_n(1, w), pats, inst.theta, x, k + j)[0]
        if not grad_kills(g, ts):
            return False
    return True


def tangents_vanish_relu(inst: ReluInstance, batch: list[list[Rat]], ts: list[list[int]]) -> bool:
    """d/ds F_{theta + s t}(z) = 0 exactly (over Q, pattern of z fixed) for every tangent t
    and every z in batch: each tangent lies in the kernel of the batch Jacobian."""
    for x in batch:
        pats = pattern_of(relu_eval(inst.widths, inst.theta, x)[1])
        if not outputs_kill(inst, pats, x, ts, 0, last_width(inst.widths)):
            return False
    return True


def check_relu_rank_upper(
    inst: ReluInstance, batch: list[list[Rat]], w: UpperWitness, u: int
) -> bool:
    """The s tangents are independent vectors in the kernel of the batch Jacobian at theta
    (exactly, every pre-activation on the batch nonzero), so its rank is <= u = D - s. The
    rows are exact rational gradients, so the witness carries no moduli."""
    n = len(inst.theta)
    s = len(w.tangents)
    return (
        relu_shape_ok(inst.widths, inst.theta, batch)
        and batch_nonzero(inst.widths, inst.theta, batch)
        and u + s == n
        and rows_len(n, w.tangents)
        and not w.moduli
        and tangents_vanish_relu(inst, batch, w.tangents)
        and independent_mod(w.p, n, w.tangents, w.cols)
    )


# ---------------------------------------------------------------- equivalence (n_0 = 1)
def qle(a: Rat, b: Rat) -> bool:
    """a <= b for rationals with positive denominators."""
    return a[0] * b[1] <= b[0] * a[1]


def side_ok(mode: int, u: Rat, v: Rat) -> bool:
    """An affine function with values u at a and v at b > a keeps its sign on [a, b]
    (mode 0), on the ray (-inf, b] (mode 1), or on the ray [a, +inf) (mode 2)."""
    z: Rat = (0, 1)
    if mode == 0:
        return (qle(z, u) and qle(z, v)) or (qle(u, z) and qle(v, z))
    if mode == 1:
        return (qle(z, v) and qle(v, u)) or (qle(u, v) and qle(v, z))
    return (qle(z, u) and qle(u, v)) or (qle(v, u) and qle(u, z))


def layer_side_ok(mode: int, us: list[Rat], vs: list[Rat]) -> bool:
    """side_ok for every neuron of a layer (false on a length mismatch)."""
    return len(us) == len(vs) and all(side_ok(mode, u, v) for u, v in zip(us, vs))


def pres_side_ok(mode: int, pus: list[list[Rat]], pvs: list[list[Rat]]) -> bool:
    """layer_side_ok for every hidden layer (false on a length mismatch)."""
    return len(pus) == len(pvs) and all(layer_side_ok(mode, us, vs) for us, vs in zip(pus, pvs))


def eval_points(
    widths: list[int], th: list[Rat], pts: list[Rat]
) -> list[tuple[list[Rat], list[list[Rat]]]]:
    """relu_eval at every point of pts (one-dimensional input)."""
    return [relu_eval(widths, th, [t]) for t in pts]


def pairs_ok(evs: list[tuple[list[Rat], list[list[Rat]]]]) -> bool:
    """Between consecutive points every hidden pre-activation keeps its sign (mode 0)."""
    return all(pres_side_ok(0, a[1], b[1]) for a, b in zip(evs, evs[1:]))


def first_pair_ok(evs: list[tuple[list[Rat], list[list[Rat]]]]) -> bool:
    """The signs are constant on the ray left of the second point (mode 1)."""
    return len(evs) >= 2 and pres_side_ok(1, evs[0][1], evs[1][1])


def last_pair_ok(evs: list[tuple[list[Rat], list[list[Rat]]]]) -> bool:
    """The signs are constant on the ray right of the second-to-last point (mode 2)."""
    return len(evs) >= 2 and pres_side_ok(2, evs[-2][1], evs[-1][1])


def pieces_ok(evs: list[tuple[list[Rat], list[list[Rat]]]]) -> bool:
    """By induction over the layers, every pre-activation (hence F) is affine on each piece
    between consecutive points and on the two outer rays."""
    return first_pair_ok(evs) and pairs_ok(evs) and last_pair_ok(evs)


def same_outputs(
    a: list[tuple[list[Rat], list[list[Rat]]]], b: list[tuple[list[Rat], list[list[Rat]]]]
) -> bool:
    """Equal outputs at every point (false on a length mismatch)."""
    return len(a) == len(b) and all(qeq_all(x[0], y[0]) for x, y in zip(a, b))


def strictly_increasing(pts: list[Rat]) -> bool:
    return all(qle(a, b) and not qle(b, a) for a, b in zip(pts, pts[1:]))


def check_relu_equiv(inst: ReluInstance, th2: list[Rat], pts: list[Rat]) -> bool:
    """F_theta = F_theta2 on all of R (input width 1): both are affine on every piece cut
    by the sorted points and on the outer rays, and they agree at every point, so they agree
    on each piece (two points, or a point and the slope on a ray, fix an affine function)."""
    if not (
        relu_shape_ok(inst.widths, inst.theta, [])
        and relu_shape_ok(inst.widths, th2, [])
        and first_width(inst.widths) == 1
        and rats_pos(pts)
        and strictly_increasing(pts)
    ):
        return False  # before evaluating: a forged width must not cost time
    ev1 = eval_points(inst.widths, inst.theta, pts)
    ev2 = eval_points(inst.widths, th2, pts)
    return pieces_ok(ev1) and pieces_ok(ev2) and same_outputs(ev1, ev2)


def cover_points(batch: list[list[Rat]], cuts: list[Rat], second: bool) -> list[Rat]:
    """The line a_1, b_1, c_1, a_2, b_2, c_2, ..., a_k, b_k from the batch (a_1, b_1, ...,
    a_k, b_k) of one-dimensional points (their first coordinates) and the cuts c_j placed
    after every second batch point while cuts remain."""
    out: list[Rat] = []
    for x in batch:
        out.append(nth_q(x, 0))
        if second and cuts:
            out.append(cuts[0])
            cuts = cuts[1:]
        second = not second
    return out


def check_relu_cover(inst: ReluInstance, batch: list[list[Rat]], cuts: list[Rat]) -> bool:
    """Input width 1: the batch holds two points of every linear piece. On the sorted line
    a_1 < b_1 < c_1 < a_2 < ... < a_k < b_k every hidden pre-activation keeps its sign between
    consecutive points and on the two outer rays (pieces_ok, as for equivalence) and none
    vanishes at a batch point; so every input off the breakpoints has the activation pattern
    of some pair a_j != b_j: (-inf, c_1) that of (a_1, b_1), (c_j, c_(j+1)) that of
    (a_(j+1), b_(j+1)), (c_(k-1), +inf) that of (a_k, b_k)."""
    if not (
        relu_shape_ok(inst.widths, inst.theta, batch)
        and first_width(inst.widths) == 1
        and rats_pos(cuts)
        and len(batch) == 2 * len(cuts) + 2
        and batch_nonzero(inst.widths, inst.theta, batch)
    ):
        return False
    pts = cover_points(batch, cuts, False)
    return strictly_increasing(pts) and pieces_ok(eval_points(inst.widths, inst.theta, pts))


def check_relu_differ(inst: ReluInstance, th2: list[Rat], x: Rat) -> bool:
    """F_theta(x) != F_theta2(x), exactly."""
    return (
        relu_shape_ok(inst.widths, inst.theta, [])
        and relu_shape_ok(inst.widths, th2, [])
        and first_width(inst.widths) == 1
        and x[1] > 0
        and not qeq_all(
            relu_eval(inst.widths, inst.theta, [x])[0], relu_eval(inst.widths, th2, [x])[0]
        )
    )


# ---------------------------------------------------------------- symmetries
def ones_q(n: int) -> list[Rat]:
    return [(1, 1)] * n


def is_perm(n: int, xs: list[int]) -> bool:
    """xs is a permutation of 0 .. n-1."""
    return len(xs) == n and all_lt(n, xs) and nodup_nat(xs)


def all_pos_q(xs: list[Rat]) -> bool:
    """Every rational is positive (numerator and denominator > 0)."""
    return all(x[0] > 0 and x[1] > 0 for x in xs)


def perms_ok(ws: list[int], perms: list[list[int]], scales: list[list[Rat]]) -> bool:
    """perms[l] is a permutation of the ws[l] neurons and scales[l] are ws[l] positive
    rationals, for every hidden layer l (ws: the widths after the input)."""
    return all(
        is_perm(w, pm) and len(sc) == w and all_pos_q(sc) for w, pm, sc in zip(ws, perms, scales)
    )


def qinv_pos(a: Rat) -> Rat:
    """1/a for a positive rational."""
    return (a[1], a[0])


def gather_row(row: list[Rat], perm_prev: list[int], scale_prev: list[Rat], lam: Rat) -> list[Rat]:
    """The new incoming weights of a neuron: lam * row[perm_prev[j]] / scale_prev[j]."""
    return [qmul(lam, qmul(nth_q(row, j), qinv_pos(s))) for j, s in zip(perm_prev, scale_prev)]


def sym_layer(
    rowlen: int,
    th: list[Rat],
    perm_prev: list[int],
    scale_prev: list[Rat],
    perm: list[int],
    scale: list[Rat],
) -> list[Rat]:
    """One layer of g.theta: new neuron k is old neuron perm[k] scaled by scale[k] (incoming
    weights and bias), its inputs reordered by perm_prev and divided by scale_prev."""
    out: list[Rat] = []
    for k, lam in zip(perm, scale):
        row = take_n(rowlen, drop_n(k * rowlen, th))
        out.extend(gather_row(row, perm_prev, scale_prev, lam))
        out.append(qmul(lam, nth_q(row, rowlen - 1)))
    return out


def apply_sym(
    prev: int,
    rest: list[int],
    perms: list[list[int]],
    scales: list[list[Rat]],
    perm_prev: list[int],
    scale_prev: list[Rat],
    th: list[Rat],
) -> list[Rat]:
    """g.theta through the layers of widths `rest`; the output layer keeps its neurons."""
    out: list[Rat] = []
    while rest:
        d, rest = rest[0], rest[1:]
        if rest:  # a hidden layer: its permutation and scaling come from the witness
            perm = nth_row(perms, 0)
            scale = nth_row(scales, 0)
        else:  # the output layer keeps its neurons
            perm, scale = range_nat(0, d), ones_q(d)
        out.extend(sym_layer(prev + 1, take_n(d * (prev + 1), th), perm_prev, scale_prev, perm,
                             scale))  # fmt: skip
        th = drop_n(d * (prev + 1), th)
        perms, scales = drop_n(1, perms), drop_n(1, scales)
        perm_prev, scale_prev, prev = perm, scale, d
    return out


def check_relu_symmetry(
    inst: ReluInstance, th2: list[Rat], perms: list[list[int]], scales: list[list[Rat]]
) -> bool:
    """theta2 = g.theta for the permutations `perms` and positive scalings `scales` of the
    hidden layers; such a g preserves F since ReLU(lam a) = lam ReLU(a) for lam > 0."""
    w = inst.widths
    return (
        relu_shape_ok(w, inst.theta, [])
        and relu_shape_ok(w, th2, [])
        and len(perms) + 2 == len(w)
        and len(scales) + 2 == len(w)
        and perms_ok(drop_n(1, w), perms, scales)
        and qeq_all(
            apply_sym(first_width(w), drop_n(1, w), perms, scales, range_nat(0, first_width(w)),
                      ones_q(first_width(w)), inst.theta),
            th2,
        )
    )  # fmt: skip
