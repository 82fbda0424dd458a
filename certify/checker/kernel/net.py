"""Polynomial MLPs of the kernel twins (coq/NNCert/kernel/Net.v, lean/NNCert/Net.lean): evaluation
over any `Arith`, forward-mode duals, the reverse pass that gives one Jacobian row, and the
shape of a parameter vector. See certify/checker/kernel/__init__.py for the conventions.
"""

from __future__ import annotations

from certify.checker.kernel.arith import Arith, Rat, unit_vec, zeros
from certify.checker.kernel.lists import A, all_pos, drop_n, rows_len, take_n


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
