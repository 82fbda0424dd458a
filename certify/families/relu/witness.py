"""Certificates for ReLU networks (generator: untrusted; math.md §3).

kind rank: a batch Z with no pre-activation zero, a nonsingular minor mod p of the batch
Jacobian (lower bound) and the H scaling tangents in its kernel (upper bound), after a seeded,
bounded, reported search over theta and batches.
kind equiv (input width 1): breakpoints of both networks and exact values there; then a
permutation-and-scaling group element, or none (a hidden symmetry), or a differing input."""

from __future__ import annotations

import hashlib
import random
from fractions import Fraction
from typing import Any

import numpy as np

from certify import __version__
from certify.algebra.modp import inverse_mod, maximal_minor, nmod, residue
from certify.checker.claims.relu import equiv_claim, equiv_result, rank_claim, rank_result
from certify.checker.facts.relu_net import count_patterns, regions_spanned
from certify.checker.ir import envelope, network_json, rat_str
from certify.errors import CertifyError
from certify.families.polynomial.witness_rank import independent_minor
from certify.families.relu import model as M
from certify.families.relu.spec import ReLUNet
from certify.request import CertRequest, Spec
from certify.spec_values import random_theta

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


LINE_PATIENCE = 12  # region design: stop after this many rounds in a row add no rank
MAX_LINES = 64
MAX_REGION_POINTS = 4096


def _round_candidates(
    net: ReLUNet,
    theta: tuple[Fraction, ...],
    rng: random.Random,
    first: bool,
    n_box: int,
    tag: str,
    breakpoints: Any,
) -> list[tuple[Fraction, ...]]:
    """The candidates of one round of the region design: the first round, random integer
    points of the sampling box; every later one, the simplest rational point of every piece
    of a random line x0 + t d (integer x0 in the box, integer direction d), the pieces cut at
    the exact breakpoints of F on the line (`breakpoints`: the reference or the vectorised
    one, which agree)."""
    if first:
        return _candidates(net, n_box, tag, 1)
    n0 = net.widths[0]
    x0 = [Fraction(rng.randint(-SAMPLE_RANGE, SAMPLE_RANGE)) for _ in range(n0)]
    d = [Fraction(0)] * n0
    while all(c == 0 for c in d):
        d = [Fraction(rng.randint(-3, 3)) for _ in range(n0)]
    lw = (1, *net.widths[1:])
    ts = M.line_points(breakpoints(lw, M.line_network(net.widths, theta, x0, d)))
    return [tuple(a + t * c for a, c in zip(x0, d)) for t in ts]


def _design_batch(
    regions: list[list[tuple[Fraction, ...]]],
    R: list[int],
    C: list[int],
    n0: int,
    dout: int,
    counts: dict[str, int],
) -> tuple[list[tuple[Fraction, ...]], list[tuple[int, int]], list[int], dict]:
    """The batch of a region design: the regions (in order) holding a row of the minor's
    rows R, each with its n0 + 1 points, the minor's labels (point, output) in that batch, its
    columns C, and the design's counts."""
    per = (n0 + 1) * dout  # rows of a region
    kept = sorted({i // per for i in R})
    new_index = {g: n for n, g in enumerate(kept)}
    points = [z for g in kept for z in regions[g]]
    labels = [(new_index[i // per] * (n0 + 1) + (i % per) // dout, i % dout) for i in R]
    info = {**counts, "batch_size": len(points), "patterns": len(kept)}
    return points, labels, C, info


def region_design_reference(
    net: ReLUNet, theta: tuple[Fraction, ...], p: int, tag: str
) -> tuple[list[tuple[Fraction, ...]], list[tuple[int, int]], list[int], dict]:
    """Input width n0 >= 2: a region-aware batch, and the rows and columns of a maximal
    nonsingular minor mod p of its Jacobian.

    Candidates come in rounds, seeded by `tag` (the instance and the spec's seed, never a
    name): first random integer points of the sampling box, then random lines x0 + t d
    (integer x0 in the box, integer direction d). On a line F is a network of input width 1,
    whose breakpoints are exact rationals (breakpoints()), so a line meets every activation
    region it crosses, however narrow, at the simplest rational of each piece. Every new
    region met gets n0 + 1 affinely independent points (region_simplex). Rounds are added
    until the rank mod p of the batch Jacobian reaches D - H (the scaling bound) or
    LINE_PATIENCE rounds in a row do not raise it; then the regions holding a row of a maximal
    nonsingular minor are kept, each with all its n0 + 1 points."""
    D, target = net.n_params, net.n_params - net.n_hidden
    n0, dout = net.widths[0], net.widths[-1]
    th_m = [residue(t, p) for t in theta]
    if any(t is None for t in th_m):
        raise CertifyError(f"the prime {p} divides a denominator of theta")
    rng = random.Random(f"nn-certify/relu-lines/{tag}")
    seen: set = set()
    regions: list[list[tuple[Fraction, ...]]] = []
    rows: list[list[int]] = []
    rank, idle, lines, tried = 0, 0, 0, 0
    n_box = 2 * -(-target // ((n0 + 1) * dout)) + 8
    while lines < MAX_LINES and idle < LINE_PATIENCE and rank < target:
        first = not regions and lines == 0
        cands = _round_candidates(net, theta, rng, first, n_box, tag, M.breakpoints)
        lines += 1
        before = len(rows)
        for x in cands:
            tried += 1
            _, pres = M.forward(net.widths, theta, x)
            if any(a == 0 for pre in pres for a in pre) or M.pattern(pres) in seen:
                continue
            seen.add(M.pattern(pres))
            simplex = M.region_simplex(net.widths, theta, x)
            if simplex is None or (len(regions) + 1) * (n0 + 1) > MAX_REGION_POINTS:
                continue
            zms = [[residue(c, p) for c in z] for z in simplex]
            if any(c is None for zm in zms for c in zm):
                continue
            regions.append(simplex)
            rows.extend(r for zm in zms for r in M.jacobian_rows_modp(
                net.widths, th_m, zm, M.pattern(pres), p))  # type: ignore[arg-type]  # fmt: skip
        grown = nmod(rows, p, len(rows[0])).rank() if len(rows) > before else rank
        idle = 0 if grown > rank else idle + 1
        rank = grown
    # Regions of integer points first, then by denominator (a maximal minor takes the first
    # independent rows): the kernels' unnormalised rationals grow with the denominators.
    per = (n0 + 1) * dout  # rows of a region
    order = sorted(range(len(regions)), key=lambda g: max(c.denominator for z in regions[g]
                                                          for c in z))  # fmt: skip
    regions = [regions[g] for g in order]
    rows = [rows[g * per + j] for g in order for j in range(per)]
    R, C = maximal_minor(rows, p, D) if rows else ([], [])
    counts = {"candidates": tried, "rounds": lines, "regions_met": len(seen)}
    return _design_batch(regions, R, C, n0, dout, counts)


def region_design(
    net: ReLUNet, theta: tuple[Fraction, ...], p: int, tag: str
) -> tuple[list[tuple[Fraction, ...]], list[tuple[int, int]], list[int], dict]:
    """region_design_reference, vectorised, with the same candidates, decisions and output.

    Patterns and the zero test of every round's candidates come from one integer forward pass
    (fast.hidden_signs); a new region's simplex is decided on its forced affine maps
    (fast.region_simplex); its n0 + 1 points' Jacobian rows mod p come from one vectorised
    pass with the pattern fixed (fast.pattern_rows_mod); the rank after each round is kept by
    an incremental echelon basis (fast.Echelon) instead of a new elimination of every row; the
    final maximal minor takes, as maximal_minor does, the first independent rows in the sorted
    order (the greedy row basis), stopping once they reach the rank, then the pivot columns of
    those rows."""
    from certify.families.relu import fast as FR

    D, target = net.n_params, net.n_params - net.n_hidden
    n0, dout = net.widths[0], net.widths[-1]
    th_m = [residue(t, p) for t in theta]
    if any(t is None for t in th_m):
        raise CertifyError(f"the prime {p} divides a denominator of theta")
    ils = FR.int_layers(net.widths, theta)
    rng = random.Random(f"nn-certify/relu-lines/{tag}")
    seen: set = set()
    regions: list[list[tuple[Fraction, ...]]] = []
    region_pats: list[tuple[tuple[bool, ...], ...]] = []
    ech = FR.Echelon(p, D)
    rank, idle, lines, tried = 0, 0, 0, 0
    n_box = 2 * -(-target // ((n0 + 1) * dout)) + 8
    while lines < MAX_LINES and idle < LINE_PATIENCE and rank < target:
        first = not regions and lines == 0
        cands = _round_candidates(net, theta, rng, first, n_box, tag, FR.breakpoints)
        lines += 1
        X, q = FR.scaled_points(cands)
        signs = FR.hidden_signs(ils, X, q)
        new_rows = []
        for x, sg in zip(cands, signs):
            tried += 1
            if not sg.all():  # a hidden pre-activation vanishes (signs are -1, 0, 1)
                continue
            pat = sg > 0
            key = pat.tobytes()
            if key in seen:
                continue
            seen.add(key)
            simplex = FR.region_simplex(ils, net.widths, theta, x, pat)
            if (len(regions) + 1) * (n0 + 1) > MAX_REGION_POINTS:
                continue
            zms = [[residue(c, p) for c in z] for z in simplex]
            if any(c is None for zm in zms for c in zm):
                continue
            regions.append(simplex)
            region_pats.append(FR.split_pattern(net.widths, pat))
            new_rows.append(FR.pattern_rows_mod(net.widths, th_m, region_pats[-1], zms, p))  # type: ignore[arg-type]
        grown = rank
        if new_rows:
            ech.add(np.vstack(new_rows), probe=True)
            grown = ech.rank
        idle = 0 if grown > rank else idle + 1
        rank = grown
    per = (n0 + 1) * dout  # rows of a region
    order = sorted(range(len(regions)), key=lambda g: max(c.denominator for z in regions[g]
                                                          for c in z))  # fmt: skip
    final = FR.Echelon(p, D)
    R: list[int] = []
    kept_rows = []
    chunk = 1  # regions per block: doubling, so few eliminations and little excess work
    n = 0
    while n < len(order) and final.rank < rank:
        blocks = []
        for g in order[n : n + chunk]:
            zms = [[residue(c, p) for c in z] for z in regions[g]]
            blocks.append(FR.pattern_rows_mod(net.widths, th_m, region_pats[g], zms, p))  # type: ignore[arg-type]
        block = np.vstack(blocks)
        indep = final.add(block, probe=True)
        R.extend(n * per + i for i in indep)
        kept_rows.append(block[indep])
        n += chunk
        chunk *= 2
    if R and len(R) < D:
        C = FR.pivot_columns(np.vstack(kept_rows), p)
    else:
        C = list(range(D)) if R else []
    regions = [regions[g] for g in order]
    counts = {"candidates": tried, "rounds": lines, "regions_met": len(seen)}
    return _design_batch(regions, R, C, n0, dout, counts)


def generate(spec: Spec, req: CertRequest) -> dict[str, Any]:
    net = spec.network
    assert isinstance(net, ReLUNet)
    if req.kind == "equiv":
        return generate_equiv(spec, req)
    return generate_rank(spec, req)


# Default theta attempts (the search stops at D - H): outside the Grillo-Montufar setting D - H
# may hold on a small open set only (benchmarks/bench_relu_search.py measures how many attempts
# typical architectures need); in it, D - H holds on a dense open set.
SEARCH_ATTEMPTS = 128
# One-dimensional input: an attempt is cheap (exact breakpoints, two points per piece), and
# (1, 4, 4, 1) needed up to 540 attempts to reach D - H at seeds 0-9 (128 reached it at 7 of 10).
ONE_D_ATTEMPTS = 1000
GM_ATTEMPTS = 8


def instance_tag(net: ReLUNet, theta: tuple[Fraction, ...], seed: int | None, k: int) -> str:
    """The seed of a random batch: the instance (widths, theta), the spec's seed and the attempt
    number; never the spec's or the certificate's name."""
    data = repr((net.widths, [str(t) for t in theta], seed, k)).encode()
    return hashlib.sha256(data).hexdigest()[:32]


def centred_theta(
    net: ReLUNet, seed: int, prange: int, start: tuple[Fraction, ...] | None = None
) -> tuple[Fraction, ...]:
    """Random integer weights (as random_theta, or `start`), then, layer by layer, each hidden
    neuron's bias chosen so that its kink passes through the image of a random integer input whose
    layer input is not all zero: every hidden neuron then bends inside the sampled region
    (uniform random biases often leave a neuron of a width-one chain bending nowhere)."""
    rng = random.Random(f"nn-certify/relu-centred/{seed}")
    theta = list(random_theta(net, seed, prange) if start is None else start)  # type: ignore[arg-type]
    n0, pos = net.widths[0], 0
    for ell in range(len(net.widths) - 2):
        prev, d = net.widths[ell], net.widths[ell + 1]
        for i in range(d):
            base = pos + i * (prev + 1)
            for _ in range(16):
                x = [Fraction(rng.randint(-SAMPLE_RANGE, SAMPLE_RANGE)) for _ in range(n0)]
                hs = [x, *(M.relu_vec(pre) for pre in M.forward(net.widths, theta, x)[1])]
                h = hs[ell]
                if any(v != 0 for v in h):
                    theta[base + prev] = -sum(
                        (theta[base + j] * h[j] for j in range(prev)), start=Fraction(0)
                    )
                    break
        pos += d * (prev + 1)
    return tuple(theta)


def _crossing_level(ts: list[Fraction], vals: list[Fraction], rays: tuple[Fraction, Fraction],
                    ) -> Fraction:  # fmt: skip
    """A level y crossed the most often by the piecewise-linear function with values vals at the
    sorted points ts, affine between them, and slopes rays[0], rays[1] on the two outer rays."""
    levels = sorted(set(vals))
    cands = [levels[0] - 1, levels[-1] + 1]
    cands += [M.simplest_between(a, b) for a, b in zip(levels, levels[1:])]

    def crossings(y: Fraction) -> int:
        n = sum(1 for a, b in zip(vals, vals[1:]) if (a - y) * (b - y) < 0)
        n += (vals[0] - y) * -rays[0] > 0  # the left ray reaches y
        n += (vals[-1] - y) * rays[1] < 0  # the right ray reaches y
        return n

    return max(cands, key=lambda y: (crossings(y), -abs(y)))


def crossing_theta(
    net: ReLUNet, seed: int, prange: int, start: tuple[Fraction, ...] | None = None
) -> tuple[Fraction, ...]:
    """Centred theta (centred_theta), then, for the hidden layers after the first, layer by
    layer, each neuron's bias chosen so that on a random line x0 + t d (t in R; the input
    itself when n0 = 1) its pre-activation crosses zero as often as a bias can make it: the
    pre-activation is piecewise linear in t with the exact breakpoints of the earlier layers
    (breakpoints()), so the level crossed most often is found exactly. More crossings give
    more kinks, and a rank deficit of deep narrow networks is a shortage of kinks."""
    rng = random.Random(f"nn-certify/relu-crossing/{seed}")
    theta = list(centred_theta(net, seed, prange, start))
    n0, ws = net.widths[0], net.widths
    if n0 == 1:
        x0, d = [Fraction(0)], [Fraction(1)]
    else:
        x0 = [Fraction(rng.randint(-SAMPLE_RANGE, SAMPLE_RANGE)) for _ in range(n0)]
        d = [Fraction(0)] * n0
        while all(c == 0 for c in d):
            d = [Fraction(rng.randint(-3, 3)) for _ in range(n0)]
    pos = ws[1] * (n0 + 1)
    for ell in range(1, len(ws) - 2):  # hidden layer ell + 1 (1-based), fed by hidden layer ell
        prev, width = ws[ell], ws[ell + 1]
        sub = (1, *ws[1 : ell + 2])
        line = M.line_network(ws[: ell + 2], theta[: pos + width * (prev + 1)], x0, d)
        bps = M.breakpoints(sub, line)
        ts = [bps[0] - 1, *bps, bps[-1] + 1] if bps else [Fraction(0), Fraction(1)]
        outs = [M.forward(sub, line, [t])[0] for t in ts]
        for i in range(width):
            b_at = pos + i * (prev + 1) + prev
            vals = [o[i] - theta[b_at] for o in outs]
            rays = (
                (vals[1] - vals[0]) / (ts[1] - ts[0]),
                (vals[-1] - vals[-2]) / (ts[-1] - ts[-2]),
            )
            theta[b_at] = -_crossing_level(ts, vals, rays)
        pos += width * (prev + 1)
    return tuple(theta)


def mutated_theta(
    net: ReLUNet, theta: tuple[Fraction, ...], seed: int, prange: int
) -> tuple[Fraction, ...]:
    """A random local move from theta (the latest theta whose rank equals the best so far: a
    hill climb on the rank, moving sideways along plateaus; the rank is lower semicontinuous in
    theta): one to three coordinates redrawn as nonzero integers in
    [-prange, prange], then every hidden neuron's bias re-centred as in centred_theta with
    probability 1/2 (its kink moved through the image of a random integer input)."""
    rng = random.Random(f"nn-certify/relu-mutate/{seed}")
    out = list(theta)
    for _ in range(rng.randint(1, 3)):
        c = rng.randrange(len(out))
        v = 0
        while v == 0:
            v = rng.randint(-prange, prange)
        out[c] = Fraction(v)
    if rng.random() < 0.5:
        centred = centred_theta(net, seed, prange, tuple(out))
        out = list(centred)
    return tuple(out)


def cover_design(
    net: ReLUNet, theta: tuple[Fraction, ...], p: int
) -> tuple[list[tuple[Fraction, ...]], list[tuple[int, int]], list[int], dict, list] | None:
    """Input width 1: the batch of two points in every linear piece (models.relu.cover_batch),
    every point kept (the kernel checks the cover), the rows and columns of a maximal
    nonsingular minor mod p of its Jacobian."""
    found = M.cover_batch(net.widths, theta)
    if found is None:
        return None
    pts, cuts = found
    th_m = [residue(t, p) for t in theta]
    if any(t is None for t in th_m) or any(residue(x, p) is None for x in pts + cuts):
        return None
    rows: list[list[int]] = []
    for x in pts:
        pres = M.forward(net.widths, theta, [x])[1]
        rows.extend(M.jacobian_rows_modp(net.widths, th_m, [residue(x, p)], M.pattern(pres), p))  # type: ignore[list-item, arg-type]
    R, C = maximal_minor(rows, p, net.n_params)
    dout = net.widths[-1]
    labels = [(i // dout, i % dout) for i in R]
    batch = [(x,) for x in pts]
    pats = {M.pattern(M.forward(net.widths, theta, z)[1]) for z in batch}
    info = {"candidates": len(pts), "batch_size": len(batch), "patterns": len(pats),
            "batch": "cover"}  # fmt: skip
    return batch, labels, C, info, cuts


def generate_rank(spec: Spec, req: CertRequest) -> dict[str, Any]:
    net = spec.network
    assert isinstance(net, ReLUNet)
    D, H = net.n_params, net.n_hidden
    target = D - H
    p = req.prime
    attempts: list[dict[str, Any]] = []
    best = None
    current: tuple[tuple[Fraction, ...], int] | None = None
    tries = req.attempts
    if not req.attempts_given:
        tries = SEARCH_ATTEMPTS if not net.grillo_montufar() else GM_ATTEMPTS
        if net.widths[0] == 1:
            tries = ONE_D_ATTEMPTS
        if spec.seed is None:  # a theta given by hand stays: only the batch's lines change
            tries = min(tries, GM_ATTEMPTS)
    if req.options.get("batch") is not None and spec.seed is None:
        tries = 1
    for k in range(tries):
        if k == 0 or spec.seed is None:
            theta, origin = spec.theta, "spec"
        else:
            sd = spec.seed * 1000 + k
            if k % 2 == 1:
                assert current is not None
                theta = mutated_theta(net, current[0], sd, spec.param_range)
                origin = f"mutated({sd}, attempt {current[1]})"
            elif k % 6 == 2:
                theta, origin = centred_theta(net, sd, spec.param_range), f"centred({sd})"
            elif k % 6 == 4:
                theta, origin = crossing_theta(net, sd, spec.param_range), f"crossing({sd})"
            else:
                theta = random_theta(net, sd, spec.param_range)  # type: ignore[arg-type]
                origin = f"reseeded({sd})"
        cov = None
        if req.options.get("batch") is None and net.widths[0] == 1:
            cov = cover_design(net, theta, p)
        if cov is not None:
            batch, labels, cols, info, cuts = cov
        elif req.options.get("batch") is None and net.widths[0] >= 2:
            tag = instance_tag(net, theta, spec.seed, k)
            batch, labels, cols, info = region_design(net, theta, p, tag)
            info, cuts = {**info, "batch": "regions"}, None
        else:
            tag = instance_tag(net, theta, spec.seed, k)
            batch, labels, cols, info = design_batch(net, theta, p, tag, req.options.get("batch"))
            info = {**info, "batch": "given" if req.options.get("batch") is not None else "random"}
            cuts = None
        attempts.append({"attempt": k, "theta": origin, "rank": len(cols), **info})
        if best is None or len(cols) > len(best[2]):
            best = (theta, origin, cols, batch, labels, info, cuts)
        if len(cols) >= len(best[2]):
            current = (theta, k)  # the hill climb also moves sideways, along a rank plateau
        if len(cols) >= target:
            break
        if spec.seed is None and cov is not None:
            break  # a theta given by hand is the only theta, and the cover batch is exact
    assert best is not None
    theta, origin, cols, batch, labels, info, cuts = best
    r = len(cols)
    tangents = M.scaling_tangents(net.widths, theta)
    kind = "scaling"
    if (cuts is not None or info["batch"] == "regions") and (r < D - len(tangents) or not tangents):
        rows_q = [g for z in batch for g in M.jacobian_rows_exact(net.widths, theta, z)]
        null = M.exact_nullspace(rows_q, D)
        if len(null) > len(tangents):
            tangents, kind = null, "nullspace"
    upper = None
    if tangents:
        tcols = independent_minor(tangents, p)
        if tcols is not None:
            upper = {"kind": kind, "bound": D - len(tangents), "prime": p,
                     "tangents": tangents, "cols": tcols}  # fmt: skip
    u = D if not tangents else (None if upper is None else upper["bound"])
    pats = count_patterns(net.widths, theta, batch)
    cover = None if cuts is None else [rat_str(c) for c in cuts]
    spanned = regions_spanned(net.widths, theta, batch)
    result = rank_result(net, r, u, len(batch), pats, cover is not None, kind, spanned)
    lower = {
        "rank": r,
        "prime": p,
        "batch": [[rat_str(c) for c in z] for z in batch],
        "theta_inv": [inverse_mod(t.denominator, p) for t in theta],
        "batch_inv": [[inverse_mod(c.denominator, p) for c in z] for z in batch],
        "rows": [list(rc) for rc in labels],
        "cols": cols,
    }
    witness: dict[str, Any] = {"lower": lower, "upper": upper}
    if cover is not None:
        witness["cover"] = {"cuts": cover}
    best_rank = max(a["rank"] for a in attempts)
    return envelope(
        "relu",
        "rank",
        req.name,
        {"network": network_json(net), "theta": [rat_str(t) for t in theta]},  # type: ignore[arg-type]
        witness,
        result,
        rank_claim(net, result, p),
        generator={
            "tool": "nn-certify",
            "version": __version__,
            "seed": spec.seed,
            "prime": p,
            "theta_origin": origin,
            "batch": info["batch"],
            "attempts": attempts,
            "search": {
                "attempts": len(attempts),
                "max_rank": best_rank,
                "bound": "D - H" if best_rank == target else f"below D - H = {target}",
            },
        },
    )


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
    return envelope(
        "relu",
        "equiv",
        req.name,
        {
            "network": network_json(net),  # type: ignore[arg-type]
            "theta": [rat_str(t) for t in th1],
            "other": [rat_str(t) for t in th2],
        },
        witness,
        result,
        equiv_claim(net, result),
        generator={"tool": "nn-certify", "version": __version__, "breakpoints": len(bps)},
    )
