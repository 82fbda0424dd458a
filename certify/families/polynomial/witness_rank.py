"""Rank witnesses for polynomial MLPs (generator: untrusted, python-flint).

Lower bound: the rows and columns of a nonsingular minor of the sample Jacobian mod p (the
kernels recompute the minor and eliminate it themselves; no inverse is shipped).
Upper bound at theta: exact integer kernel vectors of d(theta -> f_theta), verified on a
unisolvent lattice: the scaling tangents for monomial activations without bias, or, when the
lower bound falls short of that (defective cases), an integer basis of the kernel; for an
integral instance, the moduli of the kernels' exactness-from-residues check.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Any

from flint import fmpq, fmpq_mat

from certify import __version__
from certify.algebra.modp import (
    integer_nullspace,
    inverse_mod,
    maximal_minor,
    nmod,
    previous_prime,
    residue,
    rows_for_columns,
)
from certify.checker.claims.rank import rank_claim, rank_result, trivial_upper, upper_summary
from certify.checker.ir import MLP, ResNet, envelope, network_json, rat_str
from certify.checker.kernel import resnet as KR
from certify.checker.kernel.arith import P_BOUND, Rat
from certify.checker.kernel.lists import lattice
from certify.checker.kernel.rank import RankInstance, acts_int, mlp_bound, rats_int
from certify.checker.kernel.rank_core import prod_z
from certify.families.polynomial import mlp_model as M
from certify.families.polynomial import resnet_model as R
from certify.request import CertRequest, Spec
from certify.spec_values import random_theta

SAMPLE_RANGE = 20


@dataclass
class LowerResult:
    prime: int
    theta: tuple[Fraction, ...]
    theta_origin: str
    samples: list[list[int]]
    rows: list[tuple[int, int]]
    cols: list[int]

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
    rows = _model(mlp).jacobian_modp(mlp, th, acts, samples, p)  # type: ignore[arg-type]
    dout = mlp.widths[-1]
    labels = [(s, k) for s in range(len(samples)) for k in range(dout)]
    RC = symmetry_minor(mlp, theta, rows, p)
    R, C = RC if RC is not None else maximal_minor(rows, p, mlp.n_params)
    return LowerResult(p, theta, origin, samples, [labels[i] for i in R], C)


def symmetry_minor(
    mlp: MLP, theta: tuple[Fraction, ...], rows: Any, p: int
) -> tuple[list[int], list[int]] | None:
    """One elimination instead of two for architectures with known symmetry tangents T (the
    scalings, and the orthogonal symmetry of a quadratic last layer), which lie in the kernel
    of the Jacobian at every theta, so rank J <= n - |T|. If T[:, C_T] is nonsingular, the
    complement C of C_T meets the kernel only in 0, so when J[:, C] has full column rank its
    row pivots R give a maximal minor J[R, C] of size n - |T|. None: fall back to the two
    eliminations of maximal_minor."""
    T = M.scaling_tangents(mlp, theta) + M.quadratic_tangents(mlp, theta)
    if not T:
        return None
    CT = independent_minor(T, p)
    if CT is None:
        return None
    taken = set(CT)
    C = [j for j in range(mlp.n_params) if j not in taken]
    R = rows_for_columns(rows, p, C)
    return (R, C) if len(R) == len(C) else None


def grid_jacobian(mlp: MLP, theta: tuple[Fraction, ...]) -> list[list[Fraction]]:
    """Exact Jacobian on the unisolvent lattice {x in N^d0: |x| <= D}: its kernel is
    ker d(theta -> f)(theta)."""
    acts = [list(a) for a in mlp.activations]
    th: list[Any] = list(theta)
    if all(t.denominator == 1 for t in theta) and all(c.denominator == 1 for a in acts for c in a):
        th = [int(t) for t in theta]
        acts = [[int(c) for c in a] for a in acts]  # type: ignore[misc]
    rows: list[list[Fraction]] = []
    for x in lattice(mlp.widths[0], mlp.degree_bound()):
        rows.extend(_model(mlp).jacobian_rows(mlp, th, acts, x))  # type: ignore[arg-type]
    return rows


def independent_minor(tangents: list[list[int]], p: int) -> list[int] | None:
    """Columns C with tangents[:, C] nonsingular mod p (None: dependent mod p)."""
    if not tangents:
        return []
    R, C = maximal_minor(tangents, p, len(tangents[0]))
    return C if len(R) == len(tangents) else None


def _frac_pairs(xs: Any) -> list[Rat]:
    return [(Fraction(x).numerator, Fraction(x).denominator) for x in xs]


def exactness_moduli(mlp: MLP, theta: tuple[Fraction, ...], tangents: list[list[int]]) -> list[int]:
    """Pairwise coprime moduli (primes below 2^31, from the top) whose product exceeds the
    kernels' bound on |row . t| over the lattice, for an integral instance; [] otherwise (the
    kernels then check the tangents in exact rational arithmetic)."""
    acts = [_frac_pairs(a) for a in mlp.activations]
    th = _frac_pairs(theta)
    if not (rats_int(th) and acts_int(acts)):
        return []
    D = mlp.degree_bound()
    if isinstance(mlp, ResNet):
        bound = KR.resnet_bound(KR.ResNetInstance(mlp.width, acts, mlp.outer, th), D, tangents)
    else:
        bound = mlp_bound(RankInstance(list(mlp.widths), acts, mlp.bias, th), D, tangents)
    qs = [P_BOUND - 1]
    while prod_z(qs) <= bound:
        qs.append(previous_prime(qs[-1]))
    return qs


def upper_bound(
    mlp: MLP, theta: tuple[Fraction, ...], r: int, p: int, req: CertRequest
) -> dict[str, Any] | None:
    """Independent integer kernel vectors of the differential at theta (scaling tangents when
    they pin the rank, else an exact integer kernel basis on the unisolvent lattice), their
    independence columns mod p and the exactness moduli; None when none are found."""
    n = mlp.n_params
    sym = M.symmetry_dim(mlp)
    grid_size = comb(mlp.widths[0] + mlp.degree_bound(), mlp.degree_bound())
    if grid_size > req.max_grid:
        return None  # the kernels check every tangent at every lattice point: bound the cost
    tangents: list[list[int]] | None = None
    tkind = ""
    if sym and r == n - sym:
        tangents, tkind = M.scaling_tangents(mlp, theta), "scaling"
    quad = M.quadratic_tangents(mlp, theta) if tangents is None else []
    if quad and r == n - sym - len(quad):
        tangents, tkind = M.scaling_tangents(mlp, theta) + quad, "symmetry"
    if tangents is None:
        basis = integer_nullspace(grid_jacobian(mlp, theta), n)
        tangents, tkind = [M.primitive([Fraction(v) for v in b]) for b in basis], "nullspace"
    if not tangents:
        return None
    tcols = independent_minor(tangents, p)
    if tcols is None:
        return None
    u = n - len(tangents)
    return {
        **upper_summary(tkind, u, mlp),
        "prime": p,
        "tangents": tangents,
        "cols": tcols,
        "moduli": exactness_moduli(mlp, theta, tangents),
    }


# Random points mod p behind the target, as in Kileel-Trager-Bruna's recipe (one point). A
# rank over GF(q) below the generic rank over GF(q) needs every nonzero minor of that size to
# vanish at the point: by Schwartz-Zippel at most deg/q for one minor, deg <= r * max entry
# degree, ~1e-5 at r = 1e4 and q ~ 2^31. A second point (the former default) halved a
# probability already that small at the cost of one more recipe in the generator and one more
# elimination in the checker (measured at 2 520 parameters: the two points' evidence was 7.5 of
# 12.6 s of generation and 5.6 of 8.3 s of checking; docs/performance.md has 10^4).
GENERIC_POINTS = 1
DEFAULT_ATTEMPTS = 24  # theta attempts when the spec does not set `attempts`
WIDEN_EVERY = 8  # the range of reseeded weights doubles after this many attempts


def generic_target(mlp: MLP | ResNet, q: int, n_samples: int) -> dict[str, Any]:
    """The generic rank mod q, the target of the search (evidence, not a certificate): the
    rank over GF(q) of the sample Jacobian at GENERIC_POINTS random points (theta and
    samples random residues), as in Kileel-Trager-Bruna's recipe. The seed is derived from
    the architecture alone (its canonical network table), so the points are deterministic.
    The activations' denominators must be units mod q. Returns witness.generic plus the
    largest rank under "rank". q must be prime (modp.nmod refuses a composite modulus)."""
    tag = hashlib.sha256(repr(sorted(network_json(mlp).items())).encode()).hexdigest()[:32]
    rng = random.Random(f"nn-certify/generic/{tag}")
    acts = [[residue(c, q) for c in a] for a in mlp.activations]
    d0 = mlp.width if isinstance(mlp, ResNet) else mlp.widths[0]
    points, ranks = [], []
    for _ in range(GENERIC_POINTS):
        th = [rng.randrange(q) for _ in range(mlp.n_params)]
        xs = [[rng.randrange(q) for _ in range(d0)] for _ in range(n_samples)]
        J = _model(mlp).jacobian_modp(mlp, th, acts, xs, q)
        points.append({"theta": th, "samples": xs})
        ranks.append(nmod(J, q, mlp.n_params).rank())
    return {"prime": q, "points": points, "ranks": ranks, "rank": max(ranks)}


def weight_matrices(net: MLP | ResNet, theta: tuple[Fraction, ...]) -> list[list[list[Fraction]]]:
    """The weight matrices of theta without the biases (MLP: W_1..W_L, d_l x d_(l-1);
    ResNet: per layer W (n x n) and V (n x n) when outer)."""
    out: list[list[list[Fraction]]] = []
    if isinstance(net, ResNet):
        n = net.width
        size = n * (n + 1) + (n * n if net.outer else 0)
        for ell in range(net.depth):
            lay = theta[ell * size : (ell + 1) * size]
            out.append([list(lay[i * (n + 1) : i * (n + 1) + n]) for i in range(n)])
            if net.outer:
                V = lay[n * (n + 1) :]
                out.append([list(V[i * n : (i + 1) * n]) for i in range(n)])
        return out
    for ell in range(net.depth):
        d, prev = net.widths[ell + 1], net.widths[ell]
        out.append([[theta[M.param_index(net, ell, i, j)] for j in range(prev)] for i in range(d)])
    return out


def deficient_weight(net: MLP | ResNet, theta: tuple[Fraction, ...]) -> str | None:
    """Why theta is special (a weight matrix of rank below min of its sizes, which the
    widths allow: the generic rank is then often not reached), or None."""
    for i, W in enumerate(weight_matrices(net, theta)):
        rows, cols = len(W), len(W[0]) if W else 0
        if rows == 0 or cols == 0:
            continue
        rk = fmpq_mat(rows, cols, [fmpq(x.numerator, x.denominator) for r in W for x in r]).rank()
        if rk < min(rows, cols):
            return f"weight matrix {i + 1} has rank {rk} < {min(rows, cols)}"
    return None


def target_prime(mlp: MLP | ResNet, p: int) -> int:
    """The largest prime <= p that divides no denominator of an activation coefficient."""
    while any(c.denominator % p == 0 for a in mlp.activations for c in a):
        p = previous_prime(p)
    return p


def generate(spec: Spec, req: CertRequest) -> dict[str, Any]:
    """Build the rank certificate for one request of a spec.

    The target is the generic rank mod p at random points (generic_target; evidence, not a
    certificate). Attempts (the spec's theta, then deterministic reseeds; a theta with a
    rank-deficient weight matrix is rejected up front; the range of the weights doubles every
    WIDEN_EVERY attempts; the prime steps down each attempt) stop only when the certified
    lower bound reaches the target or the attempts run out: a rank pinned at a special theta
    is not the generic rank. With a theta given by hand (no seed) every attempt keeps it."""
    mlp = spec.network
    n = mlp.n_params
    n_samples = -(-n // mlp.widths[-1]) + 3
    generic = generic_target(mlp, target_prime(mlp, req.prime), n_samples)
    target = generic["rank"]
    given = req.attempts_given or spec.seed is None
    tries = req.attempts if given else max(req.attempts, DEFAULT_ATTEMPTS)
    attempts: list[dict[str, Any]] = []
    best: LowerResult | None = None
    p = req.prime
    for k in range(tries):
        if k > 0:
            p = previous_prime(p)
        if k == 0 or spec.seed is None:
            theta, origin = spec.theta, "spec"
        else:
            prange = spec.param_range * 2 ** (k // WIDEN_EVERY)
            theta = random_theta(mlp, spec.seed * 1000 + k, prange)
            origin = f"reseeded({spec.seed * 1000 + k})"
            if prange != spec.param_range:
                origin = f"reseeded({spec.seed * 1000 + k}, range {prange})"
        entry: dict[str, Any] = {"attempt": k, "prime": p, "theta": origin, "rank": None}
        attempts.append(entry)
        special = deficient_weight(mlp, theta) if spec.seed is not None else None
        if special is not None and k + 1 < tries:
            entry["rejected"] = special
            continue
        samples = _samples(mlp, n_samples, f"{spec.name}/{req.name}/{k}")
        res = lower_bound(mlp, theta, p, samples, origin)
        entry["rank"] = None if res is None else res.rank
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
    u: int | None = None
    if r >= trivial_upper(mlp):
        u = r  # pinned without kernel vectors: rank <= min(#params, output dim)
    elif req.upper:
        upper = upper_bound(mlp, theta, r, lower.prime, req)
        u = None if upper is None else upper["bound"]
    p = lower.prime
    witness_lower = {
        "rank": r,
        "prime": p,
        "samples": lower.samples,
        "theta_inv": [inverse_mod(t.denominator, p) for t in theta],
        "acts_inv": [[inverse_mod(c.denominator, p) for c in a] for a in mlp.activations],
        "rows": [list(rc) for rc in lower.rows],
        "cols": lower.cols,
    }
    witness_generic = {k: generic[k] for k in ("prime", "points", "ranks")}
    summary = {"prime": generic["prime"], "points": len(generic["points"]), "rank": target}
    result = rank_result(mlp, r, u, None if upper is None else upper["kind"], summary)
    return envelope(
        mlp.family,
        "rank",
        req.name,
        {
            "network": network_json(mlp),
            "theta": [rat_str(t) for t in theta],
        },
        {"lower": witness_lower, "upper": upper, "generic": witness_generic},
        result,
        rank_claim(mlp, result, None if upper is None else upper_summary(upper["kind"], u, mlp), p),
        generator={
            "tool": "nn-certify",
            "version": __version__,
            "seed": spec.seed,
            "prime": p,
            "theta_origin": lower.theta_origin,
            "attempts": attempts,
            "search": {
                "target": target,
                "target_kind": "generic rank mod p at random points (evidence)",
                "best": r,
                "target_reached": r >= target,
                "attempts": len(attempts),
            },
        },
    )


def _model(net: MLP | ResNet) -> Any:
    """The generator's semantics of the network (backprop Jacobians): MLP or ResNet."""
    return R if isinstance(net, ResNet) else M
