"""Exact semantics of polynomial MLPs for the generator (untrusted side).

The Jacobian rows are computed by reverse mode (backpropagation), a different algorithm
from the forward-mode dual numbers of the checker and the kernels, so the two sides do not
share a bug. Arithmetic is either exact (Python int / Fraction) or mod p.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from certify.checker.facts.networks import (
    activation_texts as activation_texts,
)
from certify.checker.facts.networks import (
    expected_dim as expected_dim,
)
from certify.checker.facts.networks import (
    is_ktb as is_ktb,
)
from certify.checker.facts.networks import (
    is_monomial as is_monomial,
)
from certify.checker.facts.networks import (
    output_degrees as output_degrees,
)
from certify.checker.facts.networks import (
    output_space_dim as output_space_dim,
)
from certify.checker.facts.networks import (
    param_index as param_index,
)
from certify.checker.facts.networks import (
    primitive as primitive,
)
from certify.checker.facts.networks import (
    quadratic_tangents as quadratic_tangents,
)
from certify.checker.facts.networks import (
    scaling_tangents as scaling_tangents,
)
from certify.checker.facts.networks import (
    symmetry_dim as symmetry_dim,
)
from certify.checker.facts.networks import (
    symmetry_neurons as symmetry_neurons,
)
from certify.checker.ir import MLP

Num = int | Fraction


def layers(mlp: MLP, theta: Sequence[Num]) -> list[tuple[list[list[Num]], list[Num]]]:
    """Split the flat parameter vector into (W, b) per layer (b = zeros without biases)."""
    out = []
    pos = 0
    for ell in range(mlp.depth):
        rows, cols = mlp.widths[ell + 1], mlp.widths[ell]
        W: list[list[Num]] = []
        b: list[Num] = []
        for _ in range(rows):
            W.append(list(theta[pos : pos + cols]))
            pos += cols
            if mlp.bias:
                b.append(theta[pos])
                pos += 1
            else:
                b.append(0)
        out.append((W, b))
    assert pos == len(theta)
    return out


def _poly(cs: Sequence[Num], a: Num, p: int | None) -> tuple[Num, Num]:
    """(sigma(a), sigma'(a)) by Horner, exact or mod p."""
    s: Num = 0
    ds: Num = 0
    for c in reversed(cs):
        ds = ds * a + s
        s = s * a + c
        if p is not None:
            s %= p
            ds %= p
    return s, ds


def jacobian_rows(
    mlp: MLP | Any,
    theta: Sequence[Num],
    acts: Sequence[Sequence[Num]],
    x: Sequence[Num],
    p: int | None = None,
) -> list[list[Num]]:
    """The d_out rows d f_theta(x)[k] / d theta, by backpropagation (exact or mod p).

    `theta` and `acts` must already be residues when p is given.
    """
    Ls = layers(mlp, theta)
    hs: list[list[Num]] = [list(x)]
    derivs: list[list[Num]] = []
    h = list(x)
    for ell, (W, b) in enumerate(Ls):
        pre = [sum((w * v for w, v in zip(row, h)), start=bi) for row, bi in zip(W, b)]
        if p is not None:
            pre = [v % p for v in pre]
        if ell == mlp.depth - 1:
            break
        vals = [_poly(acts[ell], a, p) for a in pre]
        h = [v for v, _ in vals]
        derivs.append([d for _, d in vals])
        hs.append(h)
    n = len(theta)
    rows = []
    for k in range(mlp.widths[-1]):
        g: list[Num] = [0] * n
        delta: list[Num] = [1 if i == k else 0 for i in range(mlp.widths[-1])]
        for ell in range(mlp.depth - 1, -1, -1):
            W, _ = Ls[ell]
            hin = hs[ell]
            for i, di in enumerate(delta):
                if di == 0:
                    continue
                base = param_index(mlp, ell, i, 0)
                for j, v in enumerate(hin):
                    g[base + j] = di * v if p is None else (di * v) % p
                if mlp.bias:
                    g[base + len(hin)] = di
            if ell == 0:
                break
            back = [sum(W[i][j] * delta[i] for i in range(len(delta))) for j in range(len(hin))]
            delta = [bj * dj for bj, dj in zip(back, derivs[ell - 1])]
            if p is not None:
                delta = [v % p for v in delta]
        rows.append(g)
    return rows


def evaluate(mlp: MLP, theta: Sequence[Num], x: Sequence[Num]) -> list[Num]:
    """f_theta(x), exactly."""
    h = list(x)
    for ell, (W, b) in enumerate(layers(mlp, theta)):
        pre = [sum((w * v for w, v in zip(row, h)), start=bi) for row, bi in zip(W, b)]
        if ell == mlp.depth - 1:
            return pre
        h = [_poly(mlp.activations[ell], a, None)[0] for a in pre]
    return h


def _mulmod(A: Any, B: Any, p: int) -> Any:
    """A @ B mod p for int64 residue matrices (p < 2^31): B is split into 16-bit halves so
    every int64 partial sum stays below 2^63 for inner dimensions up to 2^15."""
    import numpy as np

    out = np.zeros((A.shape[0], B.shape[1]), dtype=np.int64)
    for k0 in range(0, A.shape[1], 1 << 15):
        a, b = A[:, k0 : k0 + (1 << 15)], B[k0 : k0 + (1 << 15)]
        out = (out + ((a @ (b >> 16)) % p << 16) % p + (a @ (b & 0xFFFF)) % p) % p
    return out


def jacobian_modp(
    mlp: MLP | Any,
    theta: Sequence[int],
    acts: Sequence[Sequence[int]],
    samples: Sequence[Sequence[int]],
    p: int,
) -> Any:
    """All rows d f_theta(x_s)[k] / d theta mod p (row s * d_out + k) as an int64 numpy
    array, by backpropagation batched over the samples: one forward pass for all samples,
    one backward pass per output coordinate (the generator's own numpy code, independent of
    the checker's)."""
    import numpy as np

    m, b = len(samples), 1 if mlp.bias else 0
    th = np.array([int(t) % p for t in theta], dtype=np.int64)
    Ws, pos = [], 0
    for prev, d in zip(mlp.widths, mlp.widths[1:]):
        Ws.append(th[pos : pos + d * (prev + b)].reshape(d, prev + b))
        pos += d * (prev + b)
    H = np.array(samples, dtype=np.int64).reshape(m, mlp.widths[0]) % p
    inputs, derivs = [], []
    for ell, W in enumerate(Ws):
        HB = np.hstack([H, np.ones((m, 1), dtype=np.int64)]) if b else H
        inputs.append(HB)
        if ell == mlp.depth - 1:
            break
        pre = _mulmod(HB, np.ascontiguousarray(W.T), p)
        val, der = np.zeros_like(pre), np.zeros_like(pre)
        for c in reversed(list(acts[ell])):
            val, der = (int(c) % p + pre * val) % p, (pre * der + val) % p
        H = val
        derivs.append(der)
    dout, n = mlp.widths[-1], len(theta)
    J = np.empty((m * dout, n), dtype=np.int64)
    for k in range(dout):
        delta = np.zeros((m, dout), dtype=np.int64)
        delta[:, k] = 1
        col = n
        for ell in range(mlp.depth - 1, -1, -1):
            HB = inputs[ell]
            width = delta.shape[1] * HB.shape[1]
            J[k::dout, col - width : col] = ((delta[:, :, None] * HB[:, None, :]) % p).reshape(
                m, width
            )
            col -= width
            if ell:
                prev = mlp.widths[ell]
                back = _mulmod(delta, np.ascontiguousarray(Ws[ell][:, :prev]), p)
                delta = (back * derivs[ell - 1]) % p
    return J
