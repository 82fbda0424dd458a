"""Exact semantics of constant-width polynomial ResNets for the generator (untrusted).

Jacobian rows by reverse mode (backpropagation through x + sigma(W x + b) [times V]),
exact or mod p; a different algorithm from the kernels' forward mode."""

from __future__ import annotations

from collections.abc import Sequence

from certify.checker.ir import ResNet
from certify.families.polynomial.mlp_model import Num, _poly


def _layer_params(rn: ResNet, theta: Sequence[Num], ell: int) -> tuple[list, list, list | None]:
    n = rn.width
    size = n * (n + 1) + (n * n if rn.outer else 0)
    base = ell * size
    W = [list(theta[base + i * (n + 1) : base + i * (n + 1) + n]) for i in range(n)]
    b = [theta[base + i * (n + 1) + n] for i in range(n)]
    V = None
    if rn.outer:
        vb = base + n * (n + 1)
        V = [list(theta[vb + i * n : vb + (i + 1) * n]) for i in range(n)]
    return W, b, V


def jacobian_rows(
    rn: ResNet,
    theta: Sequence[Num],
    acts: Sequence[Sequence[Num]],
    x: Sequence[Num],
    p: int | None = None,
) -> list[list[Num]]:
    """The n rows d F_theta(x)[k] / d theta by backpropagation (exact or mod p)."""
    n = rn.width

    def red(v: Num) -> Num:
        return v % p if p is not None else v

    h = list(x)
    tape = []
    for ell in range(rn.depth):
        W, b, V = _layer_params(rn, theta, ell)
        pre = [red(sum((w * v for w, v in zip(row, h)), start=bi)) for row, bi in zip(W, b)]
        vals = [_poly(acts[ell], a, p) for a in pre]
        s = [v for v, _ in vals]
        ds = [d for _, d in vals]
        out = s if V is None else [red(sum(vr * sv for vr, sv in zip(row, s))) for row in V]
        tape.append((list(h), W, V, s, ds))
        h = [red(a + c) for a, c in zip(h, out)]
    size = n * (n + 1) + (n * n if rn.outer else 0)
    rows = []
    for k in range(n):
        g: list[Num] = [0] * rn.n_params
        gh: list[Num] = [1 if i == k else 0 for i in range(n)]  # dF_k / d h_L
        for ell in range(rn.depth - 1, -1, -1):
            hin, W, V, s, ds = tape[ell]
            base = ell * size
            if V is not None:
                vb = base + n * (n + 1)
                for i in range(n):
                    for j in range(n):
                        g[vb + i * n + j] = red(gh[i] * s[j])
                gs = [red(sum(V[i][j] * gh[i] for i in range(n))) for j in range(n)]
            else:
                gs = gh
            gpre = [red(a * d) for a, d in zip(gs, ds)]
            for i in range(n):
                for j in range(n):
                    g[base + i * (n + 1) + j] = red(gpre[i] * hin[j])
                g[base + i * (n + 1) + n] = gpre[i]
            gh = [red(gh[j] + sum(W[i][j] * gpre[i] for i in range(n))) for j in range(n)]
        rows.append(g)
    return rows


def jacobian_modp(
    rn: ResNet,
    theta: Sequence[int],
    acts: Sequence[Sequence[int]],
    samples: Sequence[Sequence[int]],
    p: int,
) -> list[list[int]]:
    """All rows d F_theta(x_s)[k] / d theta mod p (row s * width + k), per sample."""
    out: list[list[int]] = []
    for x in samples:
        out.extend(jacobian_rows(rn, theta, acts, [v % p for v in x], p))  # type: ignore[arg-type]
    return out
