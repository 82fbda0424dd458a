"""Rank witnesses for polynomial MLPs (generator: untrusted, python-flint).

Lower bound: a nonsingular minor of the sample Jacobian mod p and its inverse.
Upper bound at theta: exact integer kernel vectors of d(theta -> f_theta), verified on a
unisolvent lattice: the scaling tangents for monomial activations without bias, or, when the
lower bound falls short of that (defective cases), an integer basis of the kernel.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Any

from certify import __version__
from certify.algebra.modp import (
    integer_nullspace,
    inverse_mod,
    maximal_minor,
    previous_prime,
    residue,
    submatrix,
    to_int_rows,
)
from certify.certificate import SCHEMA
from certify.checker import kernel as K
from certify.claims import rank_claim, rank_result, upper_summary
from certify.models import mlp as M
from certify.spec import MLP, CertRequest, Spec, network_json, random_theta, rat_str

SAMPLE_RANGE = 20


@dataclass
class LowerResult:
    prime: int
    theta: tuple[Fraction, ...]
    theta_origin: str
    samples: list[list[int]]
    rows: list[tuple[int, int]]
    cols: list[int]
    inverse: list[list[int]]

    @property
    def rank(self) -> int:
        return len(self.cols)


def _samples(mlp: MLP, count: int, tag: str) -> list[list[int]]:
    rng = random.Random(f"nn-certify/samples/{tag}")
    return [
        [rng.randint(-SAMPLE_RANGE, SAMPLE_RANGE) for _ in range(mlp.widths[0])]
        for _ in range(count)
    ]


def lower_bound(
    mlp: MLP, theta: tuple[Fraction, ...], p: int, samples: list[list[int]], origin: str
) -> LowerResult | None:
    """Maximal nonsingular minor of the sample Jacobian mod p (None: unlucky prime)."""
    th = [residue(t, p) for t in theta]
    acts = [[residue(c, p) for c in a] for a in mlp.activations]
    if any(v is None for v in th) or any(v is None for a in acts for v in a):
        return None
    rows = M.jacobian_modp(mlp, th, acts, samples, p)  # type: ignore[arg-type]
    dout = mlp.widths[-1]
    labels = [(s, k) for s in range(len(samples)) for k in range(dout)]
    R, C = maximal_minor(rows, p, mlp.n_params)
    inv = to_int_rows(submatrix(rows, R, C, p).inv()) if R else []
    return LowerResult(p, theta, origin, samples, [labels[i] for i in R], C, inv)


def grid_jacobian(mlp: MLP, theta: tuple[Fraction, ...]) -> list[list[Fraction]]:
    """Exact Jacobian on the unisolvent lattice {x in N^d0: |x| <= D}: its kernel is
    ker d(theta -> f)(theta)."""
    acts = [list(a) for a in mlp.activations]
    th: list[Any] = list(theta)
    if all(t.denominator == 1 for t in theta) and all(c.denominator == 1 for a in acts for c in a):
        th = [int(t) for t in theta]
        acts = [[int(c) for c in a] for a in acts]  # type: ignore[misc]
    rows: list[list[Fraction]] = []
    for x in K.lattice(mlp.widths[0], mlp.degree_bound()):
        rows.extend(M.jacobian_rows(mlp, th, acts, x))  # type: ignore[arg-type]
    return rows


def independent_minor(
    tangents: list[list[int]], p: int
) -> tuple[list[int], list[list[int]]] | None:
    """Columns C with tangents[:, C] nonsingular mod p, and its inverse."""
    if not tangents:
        return [], []
    R, C = maximal_minor(tangents, p, len(tangents[0]))
    if len(R) < len(tangents):
        return None
    return C, to_int_rows(submatrix(tangents, list(range(len(tangents))), C, p).inv())


def generate(spec: Spec, req: CertRequest) -> dict[str, Any]:
    """Build the rank certificate for one request of a spec."""
    mlp = spec.network
    n = mlp.n_params
    sym = M.symmetry_dim(mlp)
    edim = M.expected_dim(mlp)
    target = min(n, edim)
    n_samples = -(-n // mlp.widths[-1]) + 3
    attempts: list[dict[str, Any]] = []
    best: LowerResult | None = None
    p = req.prime
    for k in range(req.attempts):
        if k > 0:
            p = previous_prime(p)
        if k == 0 or spec.seed is None:
            theta, origin = spec.theta, "spec"
        else:
            theta = random_theta(mlp, spec.seed * 1000 + k, spec.param_range)
            origin = f"reseeded({spec.seed * 1000 + k})"
        samples = _samples(mlp, n_samples, f"{spec.name}/{req.name}/{k}")
        res = lower_bound(mlp, theta, p, samples, origin)
        attempts.append(
            {"attempt": k, "prime": p, "theta": origin, "rank": None if res is None else res.rank}
        )
        if res is not None and (best is None or res.rank > best.rank):
            best = res
        if best is not None and best.rank >= target:
            break
    if best is None:
        raise RuntimeError("every prime tried divides a denominator of the instance")
    lower = best
    r = lower.rank
    theta = lower.theta

    upper: dict[str, Any] | None = None
    u: int | None = n if r == n else None
    if r < n and req.upper:
        tangents: list[list[int]] | None = None
        tkind = ""
        if sym and r == n - sym:
            tangents, tkind = M.scaling_tangents(mlp, theta), "scaling"
        grid_size = comb(mlp.widths[0] + mlp.degree_bound(), mlp.degree_bound())
        if tangents is None and grid_size <= req.max_grid:
            basis = integer_nullspace(grid_jacobian(mlp, theta), n)
            tangents, tkind = [M.primitive([Fraction(v) for v in b]) for b in basis], "nullspace"
        if tangents:
            minor = independent_minor(tangents, lower.prime)
            if minor is not None:
                tcols, tinv = minor
                u = n - len(tangents)
                upper = {
                    **upper_summary(tkind, u, mlp),
                    "prime": lower.prime,
                    "tangents": tangents,
                    "cols": tcols,
                    "inverse": tinv,
                }
    p = lower.prime
    witness_lower = {
        "rank": r,
        "prime": p,
        "samples": lower.samples,
        "theta_inv": [inverse_mod(t.denominator, p) for t in theta],
        "acts_inv": [[inverse_mod(c.denominator, p) for c in a] for a in mlp.activations],
        "rows": [list(rc) for rc in lower.rows],
        "cols": lower.cols,
        "inverse": lower.inverse,
    }
    result = rank_result(mlp, r, u)
    return {
        "schema": SCHEMA,
        "kind": "rank",
        "name": req.name,
        "claim": rank_claim(
            mlp, result, None if upper is None else upper_summary(upper["kind"], u, mlp), p
        ),
        "instance": {
            "network": network_json(mlp),
            "theta": [rat_str(t) for t in theta],
        },
        "witness": {"lower": witness_lower, "upper": upper},
        "result": result,
        "generator": {
            "tool": "nn-certify",
            "version": __version__,
            "seed": spec.seed,
            "prime": p,
            "theta_origin": lower.theta_origin,
            "attempts": attempts,
        },
    }
