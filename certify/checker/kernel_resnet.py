"""Python twin of lean/NNCert/ResNet.lean and coq/NNCert/ResNet.v: constant-width ResNets
x -> x + sigma_l(W_l x + b_l) (or x + V_l sigma_l(W_l x + b_l) when `outer`), evaluated in
forward mode, and the rank checks on them (math.md §2).

Parameter layout per layer: W_l row by row with each row's bias after it (as an MLP layer
with biases), then V_l row by row when `outer`. Same conventions as kernel.py.
"""

from __future__ import annotations

from dataclasses import dataclass

from certify.checker.kernel import (
    ARITH_Q,
    A,
    Arith,
    LowerWitness,
    Rat,
    UpperWitness,
    act_dual,
    acts_inv_ok,
    acts_mod,
    acts_nonconst,
    acts_pos,
    all_lt,
    all_zero_q,
    arith_mod,
    check_inverse,
    col_minor,
    degree_bound,
    drop_n,
    ints_mod,
    ints_q,
    lattice,
    layer_dual,
    nth,
    nth_row,
    p_ok,
    rats_inv_ok,
    rats_mod,
    rats_pos,
    rows_in_range,
    rows_len,
    unit_vec,
    zeros,
)


@dataclass(frozen=True)
class ResNetInstance:
    """A width-n ResNet with one activation per layer (depth = len(acts)) at theta."""

    width: int
    acts: list[list[Rat]]
    outer: bool
    theta: list[Rat]


def layer_size(n: int, outer: bool) -> int:
    """Parameters of one layer: W and b (n(n + 1)), plus V (n^2) when outer."""
    return n * (n + 1) + (n * n if outer else 0)


def resnet_params(n: int, acts: list[list[Rat]], outer: bool) -> int:
    return len(acts) * layer_size(n, outer)


def vec_add(ar: Arith[A], a: list[A], b: list[A]) -> list[A]:
    return [ar.add(x, y) for x, y in zip(a, b)]


def resnet_dual(
    ar: Arith[A],
    n: int,
    outer: bool,
    acts: list[list[A]],
    th: list[A],
    dth: list[A],
    h: list[A],
    dh: list[A],
) -> tuple[list[A], list[A]]:
    """(F(x), dF) through every layer: h <- h + sigma(W h + b) (times V when outer)."""
    for cs in acts:
        pre, dpre = layer_dual(ar, n + 1, n, th, dth, [*h, ar.one], [*dh, ar.zero])
        v, dv = act_dual(ar, cs, pre, dpre)
        th, dth = drop_n(n * (n + 1), th), drop_n(n * (n + 1), dth)
        if outer:
            v, dv = layer_dual(ar, n, n, th, dth, v, dv)
            th, dth = drop_n(n * n, th), drop_n(n * n, dth)
        h, dh = vec_add(ar, h, v), vec_add(ar, dh, dv)
    return h, dh


def resnet_shape_ok(inst: ResNetInstance, samples: list[list[int]]) -> bool:
    return (
        inst.width >= 1
        and len(inst.acts) >= 1
        and acts_nonconst(inst.acts)
        and len(inst.theta) == resnet_params(inst.width, inst.acts, inst.outer)
        and rows_len(inst.width, samples)
    )


def jac_entry_resnet(
    p: int,
    n: int,
    outer: bool,
    acts_m: list[list[int]],
    th_m: list[int],
    samples: list[list[int]],
    row: tuple[int, int],
    c: int,
) -> int:
    """d F_theta(x_s)[k] / d theta_c mod p for row = (s, k): one forward-mode pass."""
    ar = arith_mod(p)
    x = ints_mod(p, nth_row(samples, row[0]))
    out = resnet_dual(ar, n, outer, acts_m, th_m, unit_vec(ar, len(th_m), c), x, zeros(ar, len(x)))
    return nth(out[1], row[1])


def jac_minor_resnet(
    p: int,
    n: int,
    outer: bool,
    acts_m: list[list[int]],
    th_m: list[int],
    samples: list[list[int]],
    rows: list[tuple[int, int]],
    cols: list[int],
) -> list[list[int]]:
    return [
        [jac_entry_resnet(p, n, outer, acts_m, th_m, samples, r, c) for c in cols] for r in rows
    ]


def check_rank_lower_resnet(inst: ResNetInstance, w: LowerWitness, r: int) -> bool:
    """rank of the Jacobian of theta -> (F_theta(x_s))_s at theta is >= r (over Q)."""
    return (
        resnet_shape_ok(inst, w.samples)
        and p_ok(w.p)
        and rats_inv_ok(w.p, inst.theta, w.theta_inv)
        and acts_inv_ok(w.p, inst.acts, w.acts_inv)
        and len(w.rows) == r
        and len(w.cols) == r
        and rows_in_range(len(w.samples), inst.width, w.rows)
        and all_lt(len(inst.theta), w.cols)
        and check_inverse(
            w.p,
            r,
            jac_minor_resnet(
                w.p,
                inst.width,
                inst.outer,
                acts_mod(w.p, inst.acts, w.acts_inv),
                rats_mod(w.p, inst.theta, w.theta_inv),
                w.samples,
                w.rows,
                w.cols,
            ),
            w.inv,
        )
    )


def tangent_vanishes_resnet(inst: ResNetInstance, pts: list[list[int]], t: list[int]) -> bool:
    """d/ds F_{theta + s t}(x) = 0 exactly (over Q) at every x in pts."""
    for x in pts:
        out = resnet_dual(
            ARITH_Q, inst.width, inst.outer, inst.acts, inst.theta, ints_q(t), ints_q(x),
            zeros(ARITH_Q, inst.width),
        )  # fmt: skip
        if not all_zero_q(out[1]):
            return False
    return True


def tangents_vanish_resnet(inst: ResNetInstance, pts: list[list[int]], ts: list[list[int]]) -> bool:
    return all(tangent_vanishes_resnet(inst, pts, t) for t in ts)


def check_rank_upper_resnet(inst: ResNetInstance, w: UpperWitness, u: int) -> bool:
    """The tangents are independent kernel vectors of d(theta -> F_theta) at theta (verified
    on the unisolvent lattice of degree prod deg sigma_l), so its rank there is <= u."""
    n = len(inst.theta)
    s = len(w.tangents)
    return (
        resnet_shape_ok(inst, [])
        and rats_pos(inst.theta)
        and acts_pos(inst.acts)
        and p_ok(w.p)
        and u + s == n
        and rows_len(n, w.tangents)
        and tangents_vanish_resnet(inst, lattice(inst.width, degree_bound(inst.acts)), w.tangents)
        and len(w.cols) == s
        and all_lt(n, w.cols)
        and check_inverse(w.p, s, col_minor(w.tangents, w.cols), w.inv)
    )


# ---------------------------------------------------------------- orbits (math.md §2)
def flip_param(n: int, outer: bool, layer: int, neuron: int, t0: Rat, k: int, v: Rat) -> Rat:
    """Entry k of the flipped parameter vector: neuron `neuron` of layer `layer` maps
    w -> -w and b -> 2 t0 - b (the real root of unity -1 acting at t0); others unchanged."""
    size = layer_size(n, outer)
    rem = k - layer * size
    if k // size != layer or rem >= n * (n + 1) or rem // (n + 1) != neuron:
        return v
    if rem % (n + 1) < n:
        return (-v[0], v[1])
    return ARITH_Q.add(ARITH_Q.mul((2, 1), t0), (-v[0], v[1]))


def flip_params(n: int, outer: bool, layer: int, neuron: int, t0: Rat, th: list[Rat]) -> list[Rat]:
    return [flip_param(n, outer, layer, neuron, t0, k, v) for k, v in enumerate(th)]


def qeq_all(a: list[Rat], b: list[Rat]) -> bool:
    """Equal lengths and a[i] = b[i] as rationals."""
    return len(a) == len(b) and all(x[0] * y[1] == y[0] * x[1] for x, y in zip(a, b))


def same_function(inst: ResNetInstance, th2: list[Rat], pts: list[list[int]]) -> bool:
    """F_theta(x) = F_theta2(x) exactly at every x in pts."""
    n, z = inst.width, zeros(ARITH_Q, len(inst.theta))
    for x in pts:
        a = resnet_dual(
            ARITH_Q, n, inst.outer, inst.acts, inst.theta, z, ints_q(x), zeros(ARITH_Q, n)
        )
        b = resnet_dual(ARITH_Q, n, inst.outer, inst.acts, th2, z, ints_q(x), zeros(ARITH_Q, n))
        if not qeq_all(a[0], b[0]):
            return False
    return True


def check_orbit_generator(
    inst: ResNetInstance, layer: int, neuron: int, t0: Rat, th2: list[Rat]
) -> bool:
    """th2 is the flip of `neuron` in `layer` at t0 applied to theta, and realises the same
    function: F_theta2 = F_theta on the unisolvent lattice of degree prod deg sigma_l, hence
    everywhere. (A single generator; the group they generate then lies in the fiber.)"""
    return (
        resnet_shape_ok(inst, [])
        and rats_pos(inst.theta)
        and acts_pos(inst.acts)
        and t0[1] > 0
        and layer < len(inst.acts)
        and neuron < inst.width
        and rats_pos(th2)
        and qeq_all(th2, flip_params(inst.width, inst.outer, layer, neuron, t0, inst.theta))
        and same_function(inst, th2, lattice(inst.width, degree_bound(inst.acts)))
    )
