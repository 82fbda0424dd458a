"""Certificates for ReLU networks (generator: untrusted; math.md §3).

kind rank: a batch Z with no pre-activation zero, a nonsingular minor mod p of the batch
Jacobian (lower bound) and the H scaling tangents in its kernel (upper bound), after a seeded,
bounded, reported search over theta and batches.
kind equiv (input width 1): breakpoints of both networks and exact values there; then a
permutation-and-scaling group element, or none (a hidden symmetry), or a differing input."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from certify import __version__
from certify.algebra.modp import inverse_mod, maximal_minor, residue
from certify.certificate import SCHEMA
from certify.claims_relu import equiv_claim, equiv_result, rank_claim, rank_result
from certify.errors import CertifyError
from certify.models import relu as M
from certify.spec import CertRequest, Spec, network_json, random_theta, rat_str
from certify.spec_relu import ReLUNet
from certify.witness.rank import independent_minor

SAMPLE_RANGE = 12
ROUNDS = 4  # batch design rounds per attempt: integer points, then halves, quarters, eighths


def _candidates(net: ReLUNet, count: int, tag: str, den: int) -> list[tuple[Fraction, ...]]:
    rng = random.Random(f"nn-certify/relu-batch/{tag}")
    span = SAMPLE_RANGE * den
    return [
        tuple(Fraction(rng.randint(-span, span), den) for _ in range(net.widths[0]))
        for _ in range(count)
    ]


def design_batch(
    net: ReLUNet, theta: tuple[Fraction, ...], p: int, tag: str, given: tuple | None
) -> tuple[list[tuple[Fraction, ...]], list[tuple[int, int]], list[int], list[list[int]], dict]:
    """A batch, and the rows (point, output) and columns of a nonsingular minor mod p.

    Without a given batch: seeded random candidates (integers, then finer rationals), those on
    a bent hyperplane dropped; the rows of a maximal nonsingular minor mod p pick the points
    kept. Reports the candidates tried and the distinct activation patterns of the batch."""
    D, target = net.n_params, net.n_params - net.n_hidden
    th_m = [residue(t, p) for t in theta]
    if any(t is None for t in th_m):
        raise CertifyError(f"the prime {p} divides a denominator of theta")
    per_round = -(-target // net.widths[-1]) * 2 + 8
    points: list[tuple[Fraction, ...]] = []
    rows: list[list[int]] = []
    tried = 0
    rounds = [list(given)] if given is not None else []
    if given is None:
        rounds = [_candidates(net, per_round, f"{tag}/{r}", 2**r) for r in range(ROUNDS)]
    R: list[int] = []
    C: list[int] = []
    for cands in rounds:
        for z in cands:
            tried += 1
            _, pres = M.forward(net.widths, theta, z)
            if any(a == 0 for pre in pres for a in pre):
                continue
            zm = [residue(c, p) for c in z]
            if any(c is None for c in zm):
                continue
            points.append(z)
            rows.extend(M.jacobian_rows_modp(net.widths, th_m, zm, M.pattern(pres), p))  # type: ignore[arg-type]
        R, C = maximal_minor(rows, p, D) if rows else ([], [])
        if len(R) >= target:
            break
    dout = net.widths[-1]
    used = sorted({i // dout for i in R})
    if given is not None:
        used = list(range(len(points)))
    index = {s: n for n, s in enumerate(used)}
    batch = [points[s] for s in used]
    labels = [(index[i // dout], i % dout) for i in R]
    pats = {M.pattern(M.forward(net.widths, theta, z)[1]) for z in batch}
    info = {"candidates": tried, "batch_size": len(batch), "patterns": len(pats)}
    return batch, labels, C, info


def generate(spec: Spec, req: CertRequest) -> dict[str, Any]:
    net = spec.network
    assert isinstance(net, ReLUNet)
    if req.kind == "equiv":
        return generate_equiv(spec, req)
    return generate_rank(spec, req)


def generate_rank(spec: Spec, req: CertRequest) -> dict[str, Any]:
    net = spec.network
    assert isinstance(net, ReLUNet)
    D, H = net.n_params, net.n_hidden
    target = D - H
    p = req.prime
    attempts: list[dict[str, Any]] = []
    best = None
    tries = 1 if req.batch is not None and spec.seed is None else req.attempts
    for k in range(tries):
        if k == 0 or spec.seed is None:
            theta, origin = spec.theta, "spec"
        else:
            theta = random_theta(net, spec.seed * 1000 + k, spec.param_range)  # type: ignore[arg-type]
            origin = f"reseeded({spec.seed * 1000 + k})"
        res = design_batch(net, theta, p, f"{spec.name}/{req.name}/{k}", req.batch)
        batch, labels, cols, info = res
        attempts.append({"attempt": k, "theta": origin, "rank": len(cols), **info})
        if best is None or len(cols) > len(best[2]):
            best = (theta, origin, cols, batch, labels, info)
        if len(cols) >= target:
            break
    assert best is not None
    theta, origin, cols, batch, labels, info = best
    r = len(cols)
    tangents = M.scaling_tangents(net.widths, theta)
    upper = None
    if tangents:
        tcols = independent_minor(tangents, p)
        if tcols is not None:
            upper = {"kind": "scaling", "bound": D - len(tangents), "prime": p,
                     "tangents": tangents, "cols": tcols}  # fmt: skip
    u = D if not tangents else (None if upper is None else upper["bound"])
    pats = len({M.pattern(M.forward(net.widths, theta, z)[1]) for z in batch})
    result = rank_result(net, r, u, len(batch), pats)
    lower = {
        "rank": r,
        "prime": p,
        "batch": [[rat_str(c) for c in z] for z in batch],
        "theta_inv": [inverse_mod(t.denominator, p) for t in theta],
        "batch_inv": [[inverse_mod(c.denominator, p) for c in z] for z in batch],
        "rows": [list(rc) for rc in labels],
        "cols": cols,
    }
    return {
        "schema": SCHEMA,
        "kind": "rank",
        "name": req.name,
        "claim": rank_claim(net, result, p),
        "instance": {"network": network_json(net), "theta": [rat_str(t) for t in theta]},  # type: ignore[arg-type]
        "witness": {"lower": lower, "upper": upper},
        "result": result,
        "generator": {
            "tool": "nn-certify",
            "version": __version__,
            "seed": spec.seed,
            "prime": p,
            "theta_origin": origin,
            "batch": "given" if req.batch is not None else "designed",
            "attempts": attempts,
        },
    }


def generate_equiv(spec: Spec, req: CertRequest) -> dict[str, Any]:
    net = spec.network
    assert isinstance(net, ReLUNet) and spec.other is not None
    th1, th2 = list(spec.theta), list(spec.other)
    bps = sorted(set(M.breakpoints(net.widths, th1)) | set(M.breakpoints(net.widths, th2)))
    pts = M.equiv_points(bps)
    differ = next(
        (
            x
            for x in pts
            if M.forward(net.widths, th1, [x])[0] != M.forward(net.widths, th2, [x])[0]
        ),
        None,
    )
    witness: dict[str, Any]
    if differ is not None:
        witness = {"kind": "differ", "x": rat_str(differ)}
        search = None
    else:
        witness = {"kind": "equivalent", "points": [rat_str(x) for x in pts]}
        try:
            found = M.find_symmetry(net.widths, th1, th2)
            search = "found" if found is not None else "none"
        except M.SearchExhausted:
            found, search = None, "undecided"
        if found is not None:
            perms, scales = found
            witness["perms"] = perms
            witness["scales"] = [[rat_str(s) for s in sc] for sc in scales]
    result = equiv_result(net, witness, search)
    return {
        "schema": SCHEMA,
        "kind": "equiv",
        "name": req.name,
        "claim": equiv_claim(net, result),
        "instance": {
            "network": network_json(net),  # type: ignore[arg-type]
            "theta": [rat_str(t) for t in th1],
            "other": [rat_str(t) for t in th2],
        },
        "witness": witness,
        "result": result,
        "generator": {"tool": "nn-certify", "version": __version__, "breakpoints": len(bps)},
    }
