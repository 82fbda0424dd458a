"""Python twin of lean/NNCert/ResNet.lean and coq/NNCert/kernel/ResNet.v: constant-width ResNets
x -> x + sigma_l(W_l x + b_l) (or x + V_l sigma_l(W_l x + b_l) when `outer`), evaluated in
forward mode, and the rank checks on them (math.md §2).

Parameter layout per layer: W_l row by row with each row's bias after it (as an MLP layer
with biases), then V_l row by row when `outer`. Same conventions as the kernel package
(kernel/__init__.py).
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
    all_zero_q,
    arith_mod,
    ints_mod,
    ints_q,
    nonzero_q,
    nth_q,
    p_ok,
    qeq,
    qeq_all,
    qmul,
    qneg,
    rats_inv_ok,
    rats_mod,
    rats_pos,
    unit_vec,
    zeros,
)
from certify.checker.kernel.compind import (
    Term,
    all_zero_terms,
    const_term,
    exps_ok,
    horner,
    normalize,
    poly_eval,
    poly_mul_t,
    polys_ok,
    pow_ar,
    term_coeffs,
    term_exps,
    terms_scale,
)
from certify.checker.kernel.lists import (
    A,
    drop_n,
    lattice,
    nth_nat,
    nth_row,
    range_from,
    range_nat,
    rows_len,
    take_n,
)
from certify.checker.kernel.net import (
    act_dual,
    act_vd,
    acts_nonconst,
    back_rows,
    degree_bound,
    dot,
    hadamard,
    horner_dual,
    layer_dual,
    layer_vals,
    scale_each,
)
from certify.checker.kernel.rank import (
    LowerWitness,
    UpperWitness,
    abs_nums,
    acts_int,
    const_list,
    nums,
    rats_int,
)
from certify.checker.kernel.rank_core import (
    check_rank_core,
    independent_mod,
    kill_bound,
    kills_mod,
    moduli_ok,
    prod_z,
    reduce_mod,
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


def resnet_back(
    ar: Arith[A], n: int, outer: bool, acts: list[list[A]], th: list[A], h: list[A], k: int
) -> tuple[list[A], list[A]]:
    """(d F_k / d theta for the layers `acts`, d F_k / d h) by reverse mode, for the layers
    h <- h + sigma(W h + b) (times V when outer) applied to h: one pass per row."""
    if not acts:
        return [], unit_vec(ar, n, k)
    cs, rest = acts[0], acts[1:]
    hb = [*h, ar.one]
    v, dv = act_vd(ar, cs, layer_vals(ar, n + 1, n, th, hb))
    thv = drop_n(n * (n + 1), th)
    out = layer_vals(ar, n, n, thv, v) if outer else v
    grest, gh = resnet_back(
        ar, n, outer, rest, drop_n(layer_size(n, outer), th), vec_add(ar, h, out), k
    )
    gv = take_n(n, back_rows(ar, n, gh, thv, zeros(ar, n))) if outer else gh
    gpre = hadamard(ar, dv, gv)
    gw = scale_each(ar, gpre, hb)
    gthis = gw + scale_each(ar, gh, v) if outer else gw
    gin = vec_add(ar, gh, take_n(n, back_rows(ar, n + 1, gpre, th, zeros(ar, n + 1))))
    return gthis + grest, gin


def resnet_row(
    ar: Arith[A], n: int, outer: bool, acts: list[list[A]], th: list[A], x: list[A], k: int
) -> list[A]:
    """The Jacobian row d F_theta(x)[k] / d theta, one reverse pass."""
    return resnet_back(ar, n, outer, acts, th, x, k)[0]


def resnet_rows_mod(
    p: int,
    n: int,
    outer: bool,
    acts_m: list[list[int]],
    th_m: list[int],
    samples: list[list[int]],
    labels: list[tuple[int, int]],
) -> list[list[int]]:
    """The Jacobian rows mod p for the labels (s, k)."""
    ar = arith_mod(p)
    return [
        resnet_row(ar, n, outer, acts_m, th_m, ints_mod(p, nth_row(samples, s)), k)
        for s, k in labels
    ]


def check_rank_lower_resnet(inst: ResNetInstance, w: LowerWitness, r: int) -> bool:
    """rank of the Jacobian of theta -> (F_theta(x_s))_s at theta is >= r (over Q)."""
    return (
        resnet_shape_ok(inst, w.samples)
        and p_ok(w.p)
        and rats_inv_ok(w.p, inst.theta, w.theta_inv)
        and acts_inv_ok(w.p, inst.acts, w.acts_inv)
        and check_rank_core(
            w.p,
            len(inst.theta),
            len(w.samples),
            inst.width,
            w.rows,
            resnet_rows_mod(
                w.p,
                inst.width,
                inst.outer,
                acts_mod(w.p, inst.acts, w.acts_inv),
                rats_mod(w.p, inst.theta, w.theta_inv),
                w.samples,
                w.rows,
            ),
            w.cols,
            r,
        )
    )


def resnet_rows_from(
    ar: Arith[A],
    inst: ResNetInstance,
    th: list[A],
    acts: list[list[A]],
    x: list[A],
    k: int,
    count: int,
) -> list[list[A]]:
    """The Jacobian rows d F(x)[j] / d theta for j = k, ..., k + count - 1."""
    return [resnet_row(ar, inst.width, inst.outer, acts, th, x, k + j) for j in range(count)]


def resnet_kills_mod(
    inst: ResNetInstance, pts: list[list[int]], ts: list[list[int]], q: int
) -> bool:
    """Every tangent is orthogonal mod q to the integer Jacobian rows at every point."""
    ar = arith_mod(q)
    th = ints_mod(q, nums(inst.theta))
    acts = [ints_mod(q, nums(a)) for a in inst.acts]
    tq = reduce_mod(q, ts)
    for x in pts:
        if not kills_mod(
            q, resnet_rows_from(ar, inst, th, acts, ints_mod(q, x), 0, inst.width), tq
        ):
            return False
    return True


def resnet_kills_q(inst: ResNetInstance, pts: list[list[int]], ts: list[list[int]]) -> bool:
    """Every tangent is orthogonal, exactly over Q, to the Jacobian rows at every point."""
    for x in pts:
        for row in resnet_rows_from(ARITH_Q, inst, inst.theta, inst.acts, ints_q(x), 0, inst.width):
            for t in ts:
                if dot(ARITH_Q, row, ints_q(t))[0] != 0:
                    return False
    return True


def resnet_bound(inst: ResNetInstance, xmax: int, ts: list[list[int]]) -> int:
    """A bound on |row . t| at every point with entries in [0, xmax] (as mlp_bound)."""
    rows = resnet_rows_from(
        ARITH_Z, inst, abs_nums(inst.theta), [abs_nums(a) for a in inst.acts],
        const_list(inst.width, xmax), 0, inst.width,
    )  # fmt: skip
    return kill_bound(rows, ts)


def resnet_tangents_kill(inst: ResNetInstance, ts: list[list[int]], qs: list[int]) -> bool:
    """Every tangent annihilates the differential of theta -> F_theta on the unisolvent
    lattice of degree prod deg sigma_l (as mlp_tangents_kill)."""
    D = degree_bound(inst.acts)
    pts = lattice(inst.width, D)
    if not qs:
        return resnet_kills_q(inst, pts, ts)
    return (
        rats_int(inst.theta)
        and acts_int(inst.acts)
        and moduli_ok(qs)
        and resnet_bound(inst, D, ts) < prod_z(qs)
        and all(resnet_kills_mod(inst, pts, ts, q) for q in qs)
    )


def check_rank_upper_resnet(inst: ResNetInstance, w: UpperWitness, u: int) -> bool:
    """The tangents are independent kernel vectors of d(theta -> F_theta) at theta (verified
    on the unisolvent lattice of degree prod deg sigma_l), so its rank there is <= u."""
    n = len(inst.theta)
    s = len(w.tangents)
    return (
        resnet_shape_ok(inst, [])
        and rats_pos(inst.theta)
        and acts_pos(inst.acts)
        and u + s == n
        and rows_len(n, w.tangents)
        and resnet_tangents_kill(inst, w.tangents, w.moduli)
        and independent_mod(w.p, n, w.tangents, w.cols)
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


def act_at(acts: list[list[Rat]], layer: int) -> list[Rat]:
    """The activation of `layer` (empty past the last layer)."""
    return acts[layer] if layer < len(acts) else []


def layer_params(n: int, outer: bool, layer: int, th: list[A]) -> list[A]:
    """The parameters of one layer (W with biases, then V when outer)."""
    size = layer_size(n, outer)
    return take_n(size, drop_n(layer * size, th))


def same_layer(inst: ResNetInstance, layer: int, th2: list[Rat], pts: list[list[int]]) -> bool:
    """The maps h -> h + sigma(W h + b) (times V when outer) of `layer` under theta and th2
    agree exactly at every h in pts."""
    n, cs = inst.width, [act_at(inst.acts, layer)]
    a_th = layer_params(n, inst.outer, layer, inst.theta)
    b_th = layer_params(n, inst.outer, layer, th2)
    z, zx = zeros(ARITH_Q, len(a_th)), zeros(ARITH_Q, n)
    for x in pts:
        a = resnet_dual(ARITH_Q, n, inst.outer, cs, a_th, z, ints_q(x), zx)
        b = resnet_dual(ARITH_Q, n, inst.outer, cs, b_th, z, ints_q(x), zx)
        if not qeq_all(a[0], b[0]):
            return False
    return True


def check_orbit_generator(
    inst: ResNetInstance, layer: int, neuron: int, t0: Rat, th2: list[Rat]
) -> bool:
    """th2 is the flip of `neuron` in `layer` at t0 applied to theta, and the layer's map is
    unchanged: equal on the unisolvent lattice of degree deg sigma_layer, hence everywhere; the
    other layers are untouched, so F_theta2 = F_theta."""
    return (
        resnet_shape_ok(inst, [])
        and rats_pos(inst.theta)
        and acts_pos(inst.acts)
        and t0[1] > 0
        and layer < len(inst.acts)
        and neuron < inst.width
        and rats_pos(th2)
        and qeq_all(th2, flip_params(inst.width, inst.outer, layer, neuron, t0, inst.theta))
        and same_layer(inst, layer, th2, lattice(inst.width, len(act_at(inst.acts, layer)) - 1))
    )


def resnet_value_q(inst: ResNetInstance, th: list[Rat], x: list[int]) -> list[Rat]:
    """F_th(x) exactly over Q (unnormalised pairs): the ResNet of `inst` at the parameters th
    and the integer input x (resnet_dual's value; its tangent, taken along (th, x) itself so
    that every list has its full length, is discarded)."""
    xq = ints_q(x)
    return resnet_dual(ARITH_Q, inst.width, inst.outer, inst.acts, th, th, xq, xq)[0]


def orbit_shape_ok(inst: ResNetInstance, orbit: list[list[Rat]]) -> bool:
    """The instance is well formed, every listed vector has one entry per parameter, and
    every denominator (of theta, the listed vectors and the activations) is positive."""
    return (
        resnet_shape_ok(inst, [])
        and rats_pos(inst.theta)
        and acts_pos(inst.acts)
        and all(len(th) == len(inst.theta) and rats_pos(th) for th in orbit)
    )


def distinct_q(xs: list[list[Rat]]) -> bool:
    """No two entries of xs are equal as lists of rationals (qeq_all)."""
    return all(not qeq_all(a, b) for i, a in enumerate(xs) for b in xs[i + 1 :])


def check_resnet_orbit(inst: ResNetInstance, orbit: list[list[Rat]]) -> bool:
    """Every listed parameter vector th gives the map F_theta and no two are equal: F_th and
    F_theta agree exactly at every point of the principal lattice {x in N^n : |x| <= D},
    D = degree_bound(acts) >= the total degree of every output, which is unisolvent for total
    degree <= D (F_theta(x) computed once per point)."""

    def agree(x: list[int]) -> bool:
        v = resnet_value_q(inst, inst.theta, x)
        return all(qeq_all(v, resnet_value_q(inst, th, x)) for th in orbit)

    return (
        orbit_shape_ok(inst, orbit)
        and all(agree(x) for x in lattice(inst.width, degree_bound(inst.acts)))
        and distinct_q(orbit)
    )


# ------------------------------------- roots of unity: the ring Q[z]/(z^g - 1), math.md §2
# An element is its g coefficients (rationals) on 1, z, ..., z^(g-1). Every zeta in mu_g is a
# root of z^g - 1, so an identity in this ring holds for every complex g-th root of unity.
def cyc_add(a: list[Rat], b: list[Rat]) -> list[Rat]:
    """Coefficientwise sum."""
    return [ARITH_Q.add(x, y) for x, y in zip(a, b)]


def cyc_scale(c: Rat, b: list[Rat]) -> list[Rat]:
    """The rational multiple c * b."""
    return [ARITH_Q.mul(c, y) for y in b]


def cyc_rot(b: list[Rat]) -> list[Rat]:
    """z * b: the coefficient of z^(g-1) wraps round to 1 because z^g = 1."""
    return b[-1:] + b[:-1]


def cyc_mul_acc(a: list[Rat], b: list[Rat], acc: list[Rat]) -> list[Rat]:
    """acc + a * b (b is multiplied by z once per coefficient of a)."""
    for c in a:
        acc = cyc_add(acc, cyc_scale(c, b))
        b = cyc_rot(b)
    return acc


def cyc_mul(a: list[Rat], b: list[Rat]) -> list[Rat]:
    """The product in Q[z]/(z^g - 1), g = len(b)."""
    return cyc_mul_acc(a, b, zeros(ARITH_Q, len(b)))


def cyc_const(g: int, r: Rat) -> list[Rat]:
    """The rational r as an element of Q[z]/(z^g - 1)."""
    return [r, *zeros(ARITH_Q, g - 1)] if g > 0 else []


def arith_cyc(g: int) -> Arith[list[Rat]]:
    """Q[z]/(z^g - 1)."""
    return Arith(cyc_add, cyc_mul, zeros(ARITH_Q, g), cyc_const(g, (1, 1)))


def cyc_z(g: int) -> list[Rat]:
    """The class of z: a formal g-th root of unity."""
    return cyc_rot(cyc_const(g, (1, 1)))


def cycs_ok(g: int, xs: list[list[Rat]]) -> bool:
    """Every element has g coefficients with positive denominators."""
    return all(len(x) == g and rats_pos(x) for x in xs)


def cyc_eq_all(a: list[list[Rat]], b: list[list[Rat]]) -> bool:
    """Equal lengths and equal elements, coefficient by coefficient."""
    return len(a) == len(b) and all(qeq_all(x, y) for x, y in zip(a, b))


def cyc_consts(g: int, xs: list[Rat]) -> list[list[Rat]]:
    return [cyc_const(g, x) for x in xs]


def cyc_ints(g: int, xs: list[int]) -> list[list[Rat]]:
    return [cyc_const(g, (x, 1)) for x in xs]


def qsub(a: Rat, b: Rat) -> Rat:
    """a - b."""
    return ARITH_Q.add(a, (-b[0], b[1]))


def layer_symmetric(g: int, cs: list[Rat], t0: Rat) -> bool:
    """sigma(t0 + z (y - t0)) = sigma(y) in Q[z]/(z^g - 1) at y = 0, 1, ..., len(cs) - 1: both
    sides are polynomials in y of degree < len(cs), so (Vandermonde) they are equal as
    polynomials, and sigma(t0 + zeta (y - t0)) = sigma(y) for all complex y and zeta in mu_g."""
    ar = arith_cyc(g)
    for y in range_from(0, len(cs)):
        a = cyc_add(cyc_const(g, t0), cyc_mul(cyc_z(g), cyc_const(g, qsub((y, 1), t0))))
        lhs = horner_dual(ar, cyc_consts(g, cs), a, ar.zero)[0]
        rhs = horner_dual(ARITH_Q, cs, (y, 1), ARITH_Q.zero)[0]
        if not qeq_all(lhs, cyc_const(g, rhs)):
            return False
    return True


def check_layer_symmetry(inst: ResNetInstance, layer: int, g: int, t0: Rat) -> bool:
    """Every neuron of `layer` may be acted on by mu_g at t0 (w -> zeta w,
    b -> zeta (b - t0) + t0) without changing its output function, for every weight and bias:
    the activation satisfies the identity of `layer_symmetric` (2 <= g <= deg sigma + 1: g = 1
    says nothing, and larger g cannot divide an exponent)."""
    return (
        resnet_shape_ok(inst, [])
        and acts_pos(inst.acts)
        and t0[1] > 0
        and g >= 2
        and g <= len(act_at(inst.acts, layer))
        and layer < len(inst.acts)
        and layer_symmetric(g, act_at(inst.acts, layer), t0)
    )


def root_param(
    n: int, outer: bool, layer: int, neuron: int, g: int, t0: Rat, k: int, v: Rat
) -> list[Rat]:
    """Entry k of the parameters acted on by z at one neuron: w -> z w, b -> z (b - t0) + t0
    for neuron `neuron` of layer `layer`; every other entry is the constant v."""
    size = layer_size(n, outer)
    rem = k - layer * size
    if k // size != layer or rem >= n * (n + 1) or rem // (n + 1) != neuron:
        return cyc_const(g, v)
    if rem % (n + 1) < n:
        return cyc_mul(cyc_z(g), cyc_const(g, v))
    return cyc_add(cyc_mul(cyc_z(g), cyc_const(g, qsub(v, t0))), cyc_const(g, t0))


def root_params(
    n: int, outer: bool, layer: int, neuron: int, g: int, t0: Rat, th: list[Rat]
) -> list[list[Rat]]:
    return [root_param(n, outer, layer, neuron, g, t0, k, v) for k, v in enumerate(th)]


def same_layer_cyc(
    inst: ResNetInstance, g: int, layer: int, th2: list[list[Rat]], pts: list[list[int]]
) -> bool:
    """As `same_layer`, with th2 over Q[z]/(z^g - 1)."""
    n, ar = inst.width, arith_cyc(g)
    cs = [cyc_consts(g, act_at(inst.acts, layer))]
    a_th = cyc_consts(g, layer_params(n, inst.outer, layer, inst.theta))
    b_th = layer_params(n, inst.outer, layer, th2)
    z, zx = zeros(ar, len(a_th)), zeros(ar, n)
    for x in pts:
        a = resnet_dual(ar, n, inst.outer, cs, a_th, z, cyc_ints(g, x), zx)
        b = resnet_dual(ar, n, inst.outer, cs, b_th, z, cyc_ints(g, x), zx)
        if not cyc_eq_all(a[0], b[0]):
            return False
    return True


def check_root_generator(
    inst: ResNetInstance, layer: int, neuron: int, g: int, t0: Rat, th2: list[list[Rat]]
) -> bool:
    """th2 (over Q[z]/(z^g - 1)) is theta acted on by z at one neuron, and the layer's map is
    unchanged (unisolvent lattice of degree deg sigma_layer), so F_theta2 = F_theta in that
    ring, hence for every complex zeta in mu_g substituted for z."""
    return (
        resnet_shape_ok(inst, [])
        and rats_pos(inst.theta)
        and acts_pos(inst.acts)
        and t0[1] > 0
        and g >= 2
        and g <= len(act_at(inst.acts, layer))
        and layer < len(inst.acts)
        and neuron < inst.width
        and cycs_ok(g, th2)
        and cyc_eq_all(th2, root_params(inst.width, inst.outer, layer, neuron, g, t0, inst.theta))
        and same_layer_cyc(
            inst, g, layer, th2, lattice(inst.width, len(act_at(inst.acts, layer)) - 1)
        )
    )


# ------------------------------------- implicit equations of scalar ResNets (Figure 1, §2)
# F(x) = sum_k c_k(theta) x^k for width 1; the c_k are polynomials in the parameters. An
# equation P(c_0, ..., c_D) = 0 holds on the whole image iff P(c(theta)) is the zero polynomial.
def arith_terms(nvars: int) -> Arith[list[Term]]:
    """Polynomials in nvars variables as term lists, like terms combined after each step."""
    return Arith(
        lambda a, b: normalize([*a, *b]),
        lambda a, b: normalize(poly_mul_t(a, b)),
        [],
        [const_term((1, 1), nvars)],
    )


def unit_exps(nvars: int, k: int) -> list[int]:
    """The exponent vector of the variable k."""
    return [1 if j == k else 0 for j in range(nvars)]


def var_terms(nvars: int, k: int) -> list[Term]:
    """The variable k as a polynomial."""
    return [((1, 1), unit_exps(nvars, k))]


def param_terms(nvars: int, free: list[bool]) -> list[list[Term]]:
    """Parameter k is the variable k where free, else the constant 0."""
    return [var_terms(nvars, k) if f else [] for k, f in enumerate(free)]


def scalar_map_terms(inst: ResNetInstance, free: list[bool]) -> list[Term]:
    """F(x) of a width-1 ResNet as a polynomial in the parameters (variables 0 .. P-1, fixed
    at 0 where not free) and x (variable P)."""
    nv = len(free) + 1
    ar = arith_terms(nv)
    acts = [[[const_term(c, nv)] for c in cs] for cs in inst.acts]
    th = param_terms(nv, free)
    h = resnet_dual(
        ar, 1, inst.outer, acts, th, zeros(ar, len(th)), [var_terms(nv, len(free))], [[]]
    )
    return h[0][0] if h[0] else []


def coeff_x(ts: list[Term], x: int, k: int) -> list[Term]:
    """The coefficient of x^k (x the variable with index x) as a polynomial in the others."""
    return [(c, [*take_n(x, es), 0]) for c, es in ts if nth_nat(es, x) == k]


def coeffs_x(ts: list[Term], x: int, degree: int) -> list[list[Term]]:
    """c_0, ..., c_degree."""
    return [coeff_x(ts, x, k) for k in range(degree + 1)]


def check_implicit(inst: ResNetInstance, free: list[bool], degree: int, eq: list[Term]) -> bool:
    """eq(c_0, ..., c_degree) is the zero polynomial in the free parameters, where
    F(x) = sum_k c_k x^k (exactly: F - sum_k c_k x^k, like terms combined, has only zero
    coefficients, so no term of F of degree above `degree` in x can hide): every point of the
    image of theta -> (c_0, ..., c_degree) (parameters fixed at 0 where not free) satisfies
    eq = 0."""
    P = len(free)
    nv = P + 1
    ar = arith_terms(nv)
    ts = scalar_map_terms(inst, free)
    cs = coeffs_x(ts, P, degree)
    value = poly_eval(ar, [[const_term(c, nv)] for c in term_coeffs(eq)], term_exps(eq), cs)
    expansion = horner(ar, cs, var_terms(nv, P))
    return (
        inst.width == 1
        and len(inst.acts) >= 1
        and acts_nonconst(inst.acts)
        and acts_pos(inst.acts)
        and P == resnet_params(1, inst.acts, inst.outer)
        and exps_ok(degree + 1, eq)
        and rats_pos(term_coeffs(eq))
        and not all_zero_terms(normalize(eq))
        and all_zero_terms(normalize([*ts, *terms_scale(const_term((-1, 1), nv), expansion)]))
        and all_zero_terms(normalize(value))
    )


# ---------------------------------------------- diagnostics of critical points (math.md §2)
def row_is_zero(n: int, outer: bool, th: list[Rat], layer: int, i: int) -> bool:
    """Row i of W_layer is zero: neuron i of the layer is constant."""
    return all_zero_q(take_n(n, drop_n(i * (n + 1), layer_params(n, outer, layer, th))))


def zero_rows(inst: ResNetInstance) -> list[tuple[int, int]]:
    """(layer, neuron) for every zero row of a weight matrix W_layer."""
    n, th = inst.width, inst.theta
    return [
        (ell, i)
        for ell in range(len(inst.acts))
        for i in range(n)
        if row_is_zero(n, inst.outer, th, ell, i)
    ]


def layer_dead(inst: ResNetInstance, layer: int) -> bool:
    """The layer adds a constant (W_layer = 0) or nothing (V_layer = 0 when outer)."""
    n, th = inst.width, inst.theta
    v = drop_n(n * (n + 1), layer_params(n, inst.outer, layer, th))
    return all(row_is_zero(n, inst.outer, th, layer, i) for i in range(n)) or (
        inst.outer and all_zero_q(v)
    )


def dead_layers(inst: ResNetInstance) -> list[int]:
    """Every dead layer."""
    return [ell for ell in range(len(inst.acts)) if layer_dead(inst, ell)]


def check_diagnostics(inst: ResNetInstance, rows: list[tuple[int, int]], dead: list[int]) -> bool:
    """rows and dead are exactly the zero rows and the dead layers of theta."""
    return (
        resnet_shape_ok(inst, [])
        and rats_pos(inst.theta)
        and rows == zero_rows(inst)
        and dead == dead_layers(inst)
    )


# ------------------------------------------- trivial groups: orbits of size 1 (math.md §2)
# If tau(s) = sigma(s + t0) is a polynomial in s^g with g >= 2 and d = deg sigma, then g | d and
# the coefficient of s^(d-1), a_(d-1) + d a_d t0, vanishes: t0 = -a_(d-1) / (d a_d) is forced.
# So the group of a layer is trivial iff at that t0, tau has a term s^k with k odd (real: no
# zeta = -1) or, for every g = 2, ..., d, a term s^k with g not dividing k (complex: no mu_g).
# The support of tau is computed in integers (no growth of unreduced denominators).
def forced_t0(cs: list[Rat]) -> Rat:
    """-a_(d-1) / (d a_d) for sigma = sum_k cs[k] t^k of degree d = len(cs) - 1 >= 1 (the
    denominator made positive; (0, 1) when len(cs) < 2; a_d != 0 is checked by the caller)."""
    d = len(cs) - 1
    if d < 1:
        return (0, 1)
    p1, q1 = cs[d - 1]
    p2, q2 = cs[d]
    if p2 < 0:
        return (p1 * q2, -(q1 * d * p2))
    return (-(p1 * q2), q1 * d * p2)


def prod_dens(cs: list[Rat]) -> int:
    """The product of the denominators."""
    out = 1
    for c in cs:
        out *= c[1]
    return out


def clear_dens(pre: int, cs: list[Rat]) -> list[int]:
    """M * cs[j] as integers, M = pre * prod_dens(cs): entry j is num_j * pre * (the product
    of the denominators other than den_j; those before j are folded into pre)."""
    out = []
    for j, (n, m) in enumerate(cs):
        out.append(n * pre * prod_dens(cs[j + 1 :]))
        pre *= m
    return out


def zpoly_add(a: list[int], b: list[int]) -> list[int]:
    """The sum of two integer coefficient lists (the longer one's tail kept)."""
    n = max(len(a), len(b))
    return [(a[k] if k < len(a) else 0) + (b[k] if k < len(b) else 0) for k in range(n)]


def times_u_plus(p: int, ps: list[int]) -> list[int]:
    """(u + p) * P for the integer polynomial P = ps in u."""
    return zpoly_add([p * x for x in ps], [0, *ps])


def taylor_int(p: int, q: int, cs: list[int]) -> list[int]:
    """W(u) = q^(L-1) sigma((u + p) / q) for sigma = cs (integers, L = len(cs)), by
    W(a :: rest) = a q^(len rest) + (u + p) W(rest): an integer polynomial whose coefficient of
    u^k is q^(L-1-k) tau_k, tau(s) = sigma(s + p/q); so (q != 0) it has the support of tau."""
    w: list[int] = []
    for k in range(len(cs) - 1, -1, -1):
        w = zpoly_add([cs[k] * pow_ar(ARITH_Z, q, len(cs) - 1 - k)], times_u_plus(p, w))
    return w


def off_from(g: int, k: int, ws: list[int]) -> bool:
    """Some ws[i] != 0 whose exponent k + i is not a multiple of g."""
    return any(w != 0 and (k + i) % g != 0 for i, w in enumerate(ws))


def layer_trivial(cplx: bool, cs: list[Rat]) -> bool:
    """The group of a layer with activation cs is trivial: sigma has degree d = len(cs) - 1 >= 1
    (a_d != 0), and at t0 = forced_t0(cs) the translate tau has a term s^k with k odd (real) or,
    for every g = 2, ..., d, with g not dividing k (complex); by the note above no other t0 can
    carry a symmetry."""
    d = len(cs) - 1
    t0 = forced_t0(cs)
    ws = taylor_int(t0[0], t0[1], clear_dens(1, cs))
    orders = range_nat(2, d - 1) if cplx else [2]
    return d >= 1 and nonzero_q(nth_q(cs, d)) and all(off_from(g, 0, ws) for g in orders)


def check_trivial_orbit(inst: ResNetInstance, cplx: bool, orbit: list[list[Rat]]) -> bool:
    """The group of every layer is trivial (`layer_trivial`, over R or over C), so the group
    acting on theta per neuron is trivial: its orbit is {theta}, and `orbit` lists exactly that
    one element."""
    return (
        resnet_shape_ok(inst, [])
        and rats_pos(inst.theta)
        and acts_pos(inst.acts)
        and all(layer_trivial(cplx, cs) for cs in inst.acts)
        and len(orbit) == 1
        and rats_pos(orbit[0])
        and qeq_all(orbit[0], inst.theta)
    )


# ------------------------------------------ the coefficients of F_theta at width one (§2)
def theta_map_terms(inst: ResNetInstance) -> list[Term]:
    """F_theta(x) of a width-1 ResNet at the rational point theta, as a polynomial in x (the
    only variable, index 0): the forward pass over polynomials with the parameters constant."""
    ar = arith_terms(1)
    acts = [[[const_term(c, 1)] for c in cs] for cs in inst.acts]
    th = [[const_term(t, 1)] for t in inst.theta]
    h = resnet_dual(ar, 1, inst.outer, acts, th, zeros(ar, len(th)), [var_terms(1, 0)], [[]])
    return h[0][0] if h[0] else []


def neg_coeff_terms(k: int, cs: list[Rat]) -> list[Term]:
    """-sum_j cs[j] x^(k + j) as terms over the one variable x."""
    return [(qneg(c), [k + j]) for j, c in enumerate(cs)]


def check_scalar_coeffs(inst: ResNetInstance, cs: list[Rat]) -> bool:
    """cs = [c_0, ..., c_D] are the coefficients of F_theta(x) = sum_k c_k x^k for the width-1
    ResNet at theta, D = prod deg sigma_l: F_theta - sum_k c_k x^k, like terms combined, has
    only zero coefficients (an identity of polynomials, so no term of F_theta of degree above
    D can hide)."""
    return (
        inst.width == 1
        and resnet_shape_ok(inst, [])
        and rats_pos(inst.theta)
        and acts_pos(inst.acts)
        and rats_pos(cs)
        and len(cs) == degree_bound(inst.acts) + 1
        and all_zero_terms(normalize([*theta_map_terms(inst), *neg_coeff_terms(0, cs)]))
    )


# ------------------------------------ the critical locus of a scalar ResNet as a certificate
# J(theta) = (d c_k / d theta_j), the Jacobian of theta -> (c_0, ..., c_D) where
# F_theta(x) = sum_k c_k(theta) x^k (width 1), as a matrix of polynomials in theta computed from
# the network. Its rank is the rank of d(theta -> F_theta) (the c_k are coordinates on the
# polynomials of degree <= D). With g = min(D + 1, #params), rank J(theta) < g iff every g x g
# minor M_i(theta) vanishes. The certificate ships P, cofactors Q_i and coefficients c_i with
# M_i = Q_i P and sum_i c_i M_i = lam P^k (lam != 0): then, at every theta in a field of
# characteristic 0, all M_i(theta) = 0 iff P(theta) = 0.
def poly_deriv(p: list[Term], j: int) -> list[Term]:
    """The formal partial derivative d p / d x_j (terms in the order of p, not normalised)."""

    def dec_at(es: list[int]) -> list[int]:  # Coq/Lean-only helper dec_at
        return [*es[:j], es[j] - 1, *es[j + 1 :]] if j < len(es) else es

    return [(qmul((nth_nat(es, j), 1), c), dec_at(es)) for c, es in p if nth_nat(es, j) > 0]


def jacobian_terms(inst: ResNetInstance) -> list[list[list[Term]]]:
    """Row k, column j: d c_k / d theta_j as a polynomial in the n = #params parameters, where
    F_theta(x) = sum_k c_k x^k (k = 0 .. D, D = prod deg sigma_l) is `scalar_map_terms` with
    every parameter free and the exponent of x dropped."""
    n = len(inst.theta)
    D = degree_bound(inst.acts)
    cs = coeffs_x(scalar_map_terms(inst, [True] * n), n, D)
    cs = [[(c, take_n(n, es)) for c, es in ts] for ts in cs]
    return [[normalize(poly_deriv(c, j)) for j in range(n)] for c in cs]


def det_terms(nv: int, n: int, m: list[list[list[Term]]]) -> list[Term]:
    """The determinant of the n x n polynomial matrix m (nv variables) by cofactor expansion
    along the first row: sum_j (-1)^j m[0][j] det(m without row 0 and column j)."""
    if n == 0:
        return [const_term((1, 1), nv)]
    if not m:
        return []
    r, rest = m[0], m[1:]
    acc: list[Term] = []
    for j in reversed(range(len(r))):  # Lean-only helpers expandRow, removeAt (Coq: go)
        sign = (1, 1) if j % 2 == 0 else (-1, 1)
        sub = det_terms(nv, n - 1, [[*row[:j], *row[j + 1 :]] for row in rest])
        acc = normalize([*terms_scale(const_term(sign, nv), poly_mul_t(r[j], sub)), *acc])
    return acc


def subsets(k: int, xs: list[int]) -> list[list[int]]:
    """The k-element sublists of xs, in lexicographic order of positions."""
    if k == 0:
        return [[]]
    if not xs:
        return []
    return [[xs[0], *s] for s in subsets(k - 1, xs[1:])] + subsets(k, xs[1:])


def submatrix(
    rows: list[int], cols: list[int], m: list[list[list[Term]]]
) -> list[list[list[Term]]]:
    """The entries of m in the given rows and columns ([] past the end)."""

    def entry(i: int, j: int) -> list[Term]:
        row = m[i] if i < len(m) else []
        return row[j] if j < len(row) else []

    return [[entry(i, j) for j in cols] for i in rows]


def all_minors(nv: int, g: int, m: list[list[list[Term]]]) -> list[list[Term]]:
    """Every g x g minor of m: row subsets outer, column subsets inner, both lexicographic."""
    nc = len(m[0]) if m else 0
    return [
        det_terms(nv, g, submatrix(rs, cs, m))
        for rs in subsets(g, list(range(len(m))))
        for cs in subsets(g, list(range(nc)))
    ]


def check_critical_locus(
    inst: ResNetInstance,
    g: int,
    p: list[Term],
    k: int,
    lam: int,
    cofs: list[list[Term]],
    bez: list[list[Term]],
    value: Rat,
) -> bool:
    """Width 1, g = min(D + 1, n) (n = #params, D = prod deg sigma_l), P != 0, and for the
    list M_1, ..., M_N of ALL g x g minors of the Jacobian J of theta -> (c_0, ..., c_D)
    (recomputed here from the network): M_i = cofs_i * P for every i, and
    sum_i bez_i M_i = lam P^k with lam != 0, k >= 1 (exact polynomial identities over Q in
    the n parameters); finally P(theta) = value at the instance's theta.
    Consequences (not proved by the kernel): at any point of a field of characteristic 0,
    all M_i vanish iff P does (=> by the Bezout identity, <= by the cofactors), so rank J < g
    there iff P = 0; and P != 0 makes lam P^k != 0, so some M_i != 0 and the generic rank is
    g, the largest possible: theta is critical iff P(theta) = 0."""
    n = len(inst.theta)
    D = degree_bound(inst.acts)
    if not (
        inst.width == 1
        and resnet_shape_ok(inst, [])
        and rats_pos(inst.theta)
        and acts_pos(inst.acts)
        and g == min(D + 1, n)
        and k >= 1
        and lam != 0
        and exps_ok(n, p)
        and polys_ok(n, cofs)
        and polys_ok(n, bez)
        and value[1] > 0
        and not all_zero_terms(normalize(p))
    ):
        return False
    ms = all_minors(n, g, jacobian_terms(inst))
    neg = const_term((-1, 1), n)
    multiples_ok = len(ms) == len(cofs) and all(  # Coq/Lean-only helper multiples_ok
        all_zero_terms(normalize([*m, *terms_scale(neg, poly_mul_t(q, p))]))
        for m, q in zip(ms, cofs)
    )
    # Coq-only helper sum_prods; Lean: List.foldr (++) over List.zipWith
    lhs = [t for c, m in zip(bez, ms) for t in normalize(poly_mul_t(c, m))]
    rhs = terms_scale(const_term((-lam, 1), n), pow_ar(arith_terms(n), p, k))
    return (
        len(bez) == len(ms)
        and multiples_ok
        and all_zero_terms(normalize([*lhs, *rhs]))
        and qeq(poly_eval(ARITH_Q, term_coeffs(p), term_exps(p), inst.theta), value)
    )
