"""The production path of the rank checks: the algorithm of the kernel twins (kernel/rank.py,
kernel/resnet.py, kernel/relu.py, kernel/rank_core.py), vectorised with numpy.

Every residue lies in [0, p) with p < 2^31, so a product of two is below 2^62 and the sum
a*y + (p - b)*x of the elimination step below 2^63: int64 arithmetic is exact. Matrix
products split one factor into 16-bit halves so that no int64 sum overflows (`matmul_mod`).

What is vectorised, and what is not:
- `nonsingular_np` is `rank_core.nonsingular_mod` step for step (same pivot rule: the first
  row with a nonzero first entry; the other rows keep their order; fraction-free update);
- the Jacobian rows mod p of the MLP and ResNet families are the reverse passes of
  `kernel.net_back` / `kernel_resnet.resnet_back`, batched over sample points;
- the ReLU checks' exact parts (the zero test, the patterns, the rows mod p, the tangents'
  exact orthogonality) run relu_fast's integer-scaled, batched forms of the twin's functions;
- the shape guards, the other exact rational arithmetic (denominator inverses, the MLP's
  rational tangent checks) and the integer bounds run the twin's own functions.
Tests compare every function here with its twin on many random instances.
"""

from __future__ import annotations

import numpy as np

from certify.checker.fast import relu as RF
from certify.checker.kernel import arith, lists, net
from certify.checker.kernel import rank as K
from certify.checker.kernel import rank_core as RC
from certify.checker.kernel import relu as KL
from certify.checker.kernel import resnet as KR

Mat = np.ndarray


def as_mod(rows: list[list[int]], p: int, ncols: int) -> Mat:
    """An int64 matrix of residues (rows of Python ints, any size)."""
    if not rows:
        return np.zeros((0, ncols), dtype=np.int64)
    return np.array([[x % p for x in row] for row in rows], dtype=np.int64).reshape(-1, ncols)


def matmul_mod(A: Mat, B: Mat, p: int) -> Mat:
    """A @ B mod p exactly, for residue matrices (A's entries split as hi * 2^16 + lo)."""
    lo = A & 0xFFFF
    hi = A >> 16
    out = np.zeros((A.shape[0], B.shape[1]), dtype=np.int64)
    step = 1 << 15  # k * 2^16 * 2^31 < 2^63 for k <= 2^15
    for k0 in range(0, A.shape[1], step):
        Bk = B[k0 : k0 + step]
        h = (hi[:, k0 : k0 + step] @ Bk) % p
        lw = (lo[:, k0 : k0 + step] @ Bk) % p
        out = (out + ((h << 16) % p) + lw) % p
    return out


def is_prime_31(p: int) -> bool:
    """Deterministic Miller-Rabin for p < 3 215 031 751 (bases 2, 3, 5, 7; Jaeschke 1993):
    the checker's primality test of the moduli Coq checks with prime_ok by trial division
    (every modulus is below P_BOUND = 2^31). False for anything else (not an int, too big)."""
    if isinstance(p, bool) or not isinstance(p, int) or p >= 3_215_031_751:
        return False
    if p < 2:
        return False
    for q in (2, 3, 5, 7):
        if p % q == 0:
            return p == q
    d, s = p - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for a in (2, 3, 5, 7):
        x = pow(a, d, p)
        if x in (1, p - 1):
            continue
        for _ in range(s - 1):
            x = x * x % p
            if x == p - 1:
                break
        else:
            return False
    return True


def matmul_mod_blas(A: Mat, B: Mat, p: int) -> Mat:
    """A @ B mod p exactly through float64 BLAS: both factors split into 16-bit halves
    (hi < 2^15, lo < 2^16), so each of the three float products sums k terms below 2^32 and is
    exact in a double for inner dimensions k < 2^20; the halves are recombined mod p in int64."""
    if A.shape[1] >= 1 << 20:
        raise ValueError("matmul_mod_blas: inner dimension too large for exact doubles")
    ah, al = (A >> 16).astype(np.float64), (A & 0xFFFF).astype(np.float64)
    bh, bl = (B >> 16).astype(np.float64), (B & 0xFFFF).astype(np.float64)
    hh = (ah @ bh).astype(np.int64) % p
    hl = (ah @ bl + al @ bh).astype(np.int64) % p
    ll = (al @ bl).astype(np.int64) % p
    return (hh * ((1 << 32) % p) % p + hl * (1 << 16) % p + ll) % p


def nonsingular_blocked(M: Mat, p: int, block: int = 64, rows: int = 2048) -> bool:
    """det M != 0 mod a prime p, by blocked LU with row pivoting: per block of `block`
    columns, the panel is eliminated step by step (pivot normalised, multipliers stored), the
    block row of U by forward substitution, and the trailing matrix updated by one product
    L21 @ U12 (matmul_mod_blas, in chunks of `rows` rows). Each pivot is found among the rows
    still to be eliminated: M is nonsingular iff every column has one."""
    M = np.array(M, dtype=np.int64) % p
    r = M.shape[0]
    for i0 in range(0, r, block):
        i1 = min(i0 + block, r)
        for i in range(i0, i1):
            nz = np.flatnonzero(M[i:, i])
            if nz.size == 0:
                return False
            j = i + int(nz[0])
            if j != i:
                M[[i, j]] = M[[j, i]]
            lam = M[i + 1 :, i] * pow(int(M[i, i]), p - 2, p) % p
            M[i + 1 :, i + 1 : i1] = (
                M[i + 1 :, i + 1 : i1] - lam[:, None] * M[i, i + 1 : i1] % p
            ) % p
            M[i + 1 :, i] = lam
        for i in range(i0, i1 - 1):  # U12 = L11^-1 A12
            M[i + 1 : i1, i1:] = (M[i + 1 : i1, i1:] - M[i + 1 : i1, i : i + 1] * M[i, i1:] % p) % p
        if i1 < r:
            U12 = M[i0:i1, i1:]
            for c0 in range(i1, r, rows):
                c1 = min(c0 + rows, r)
                M[c0:c1, i1:] = (M[c0:c1, i1:] - matmul_mod_blas(M[c0:c1, i0:i1], U12, p)) % p
    return True


def nonsingular_np(M: Mat, p: int) -> bool:
    """rank_core.nonsingular_mod(p, len(M), M) for a square residue matrix, vectorised.

    Fraction-free steps as in the twin. For a prime p (the usual case) the answer is
    det M != 0 mod p whatever the row order, so the pivot row is swapped to the top instead
    of being deleted; for any other modulus the twin's own order is kept step for step
    (first row with a nonzero lead, the others in order), since only that order is what the
    kernels decide."""
    M = np.array(M, dtype=np.int64) % p
    if M.ndim != 2 or M.shape[0] != M.shape[1]:
        return False
    prime = is_prime_31(p)
    if prime and M.shape[0] > 128:
        return rank_blocked(M, p) == M.shape[0]
    while M.shape[0] > 0:
        nz = np.flatnonzero(M[:, 0])
        if nz.size == 0:
            return False
        i = int(nz[0])
        if prime:  # any order decides det != 0: move the pivot up instead of deleting it
            if i:
                M[[0, i]] = M[[i, 0]]
            piv, rest = M[0], M[1:]
        else:
            piv, rest = M[i], np.delete(M, i, axis=0)
        M = (piv[0] * rest[:, 1:] + (p - rest[:, :1]) * piv[1:]) % p
    return True


def check_minor_np(p: int, n: int, r: int, rows: Mat, cols: list[int]) -> bool:
    """rank_core.check_minor with the rows as an int64 residue matrix of n columns."""
    return (
        rows.shape[0] == r
        and len(cols) == r
        and lists.all_lt(n, cols)
        and nonsingular_np(rows[:, cols] if r else rows[:, :0], p)
    )


def independent_np(p: int, n: int, ts: list[list[int]], cols: list[int]) -> bool:
    """rank_core.independent_mod, vectorised."""
    return (
        arith.p_ok(p)
        and lists.rows_len(n, ts)
        and check_minor_np(p, n, len(ts), as_mod(ts, p, n), cols)
    )


def kills_np(q: int, rows: Mat, tq: Mat) -> bool:
    """rank_core.kills_mod: rows @ tq^T = 0 mod q."""
    if rows.shape[0] == 0 or tq.shape[0] == 0:
        return True
    return not matmul_mod(rows, np.ascontiguousarray(tq.T), q).any()


# ---------------------------------------------------------------- batched reverse mode
def horner_vd(cs: list[int], X: Mat, p: int) -> tuple[Mat, Mat]:
    """(sigma(X), sigma'(X)) mod p entrywise (Horner on dual numbers, as act_vd)."""
    s = np.zeros_like(X)
    ds = np.zeros_like(X)
    for c in reversed(cs):
        s, ds = (c + X * s) % p, (X * ds + s) % p
    return s, ds


def outer_flat(G: Mat, HB: Mat, p: int) -> Mat:
    """Per row: g[i] * hb for every neuron i, flat (scale_each)."""
    return ((G[:, :, None] * HB[:, None, :]) % p).reshape(G.shape[0], -1)


def mlp_rows_np(
    p: int, widths: list[int], acts_m: list[list[int]], bias: bool, th_m: list[int], X: Mat, k: int
) -> Mat:
    """kernel.net_row(arith_mod(p), ...) of output k at every row of X, batched."""
    m = X.shape[0]
    th = np.array(th_m, dtype=np.int64)
    b = 1 if bias else 0
    Ws: list[Mat] = []
    pos = 0
    for prev, d in zip(widths, widths[1:]):
        Ws.append(th[pos : pos + d * (prev + b)].reshape(d, prev + b))
        pos += d * (prev + b)
    H = X % p
    HBs: list[Mat] = []
    DVs: list[Mat] = []
    for ell, W in enumerate(Ws):
        HB = np.hstack([H, np.ones((m, 1), dtype=np.int64)]) if bias else H
        HBs.append(HB)
        if ell == len(Ws) - 1:
            break
        pre = matmul_mod(HB, np.ascontiguousarray(W.T), p)
        H, dv = horner_vd(acts_m[ell] if ell < len(acts_m) else [], pre, p)
        DVs.append(dv)
    G = np.zeros((m, widths[-1]), dtype=np.int64)
    if k < widths[-1]:
        G[:, k] = 1
    blocks: list[Mat] = []
    for ell in range(len(Ws) - 1, -1, -1):
        blocks.append(outer_flat(G, HBs[ell], p))
        if ell == 0:
            break
        prev = widths[ell]
        G = (matmul_mod(G, np.ascontiguousarray(Ws[ell][:, :prev]), p) * DVs[ell - 1]) % p
    return np.hstack(blocks[::-1]) if blocks else np.zeros((m, 0), dtype=np.int64)


def resnet_rows_np(
    p: int, n: int, outer: bool, acts_m: list[list[int]], th_m: list[int], X: Mat, k: int
) -> Mat:
    """kernel_resnet.resnet_row(arith_mod(p), ...) of output k at every row of X, batched."""
    m = X.shape[0]
    th = np.array(th_m, dtype=np.int64)
    size = KR.layer_size(n, outer)
    H = X % p
    saved = []
    for ell, cs in enumerate(acts_m):
        lay = th[ell * size : (ell + 1) * size]
        W = lay[: n * (n + 1)].reshape(n, n + 1)
        V = lay[n * (n + 1) :].reshape(n, n) if outer else None
        HB = np.hstack([H, np.ones((m, 1), dtype=np.int64)])
        v, dv = horner_vd(cs, matmul_mod(HB, np.ascontiguousarray(W.T), p), p)
        out = matmul_mod(v, np.ascontiguousarray(V.T), p) if V is not None else v
        saved.append((W, V, HB, v, dv))
        H = (H + out) % p
    G = np.zeros((m, n), dtype=np.int64)
    if k < n:
        G[:, k] = 1
    blocks: list[Mat] = []
    for W, V, HB, v, dv in reversed(saved):
        gv = matmul_mod(G, V, p) if V is not None else G
        gpre = (dv * gv) % p
        blk = outer_flat(gpre, HB, p)
        if V is not None:
            blk = np.hstack([blk, outer_flat(G, v, p)])
        blocks.append(blk)
        G = (G + matmul_mod(gpre, np.ascontiguousarray(W[:, :n]), p)) % p
    return np.hstack(blocks[::-1]) if blocks else np.zeros((m, 0), dtype=np.int64)


def label_rows(rows_at, samples: list[list[int]], labels: list[tuple[int, int]], n: int, p: int):
    """The rows for the labels (s, k), in label order: rows_at(X, k) batched per output k."""
    out = np.zeros((len(labels), n), dtype=np.int64)
    d0 = len(samples[0]) if samples else 0
    for k in sorted({k for _, k in labels}):
        idx = [i for i, (_, kk) in enumerate(labels) if kk == k]
        X = as_mod([lists.nth_row(samples, labels[i][0]) for i in idx], p, d0)
        out[idx] = rows_at(X, k)
    return out


# ---------------------------------------------------------------- the checks
def check_rank_lower(inst: K.RankInstance, w: K.LowerWitness, r: int) -> bool:
    """kernel.check_rank_lower, vectorised."""
    p, n = w.p, len(inst.theta)
    if not (
        net.shape_ok(inst.widths, inst.acts, inst.bias, inst.theta, w.samples)
        and arith.p_ok(p)
        and arith.rats_inv_ok(p, inst.theta, w.theta_inv)
        and arith.acts_inv_ok(p, inst.acts, w.acts_inv)
        and len(w.rows) == r
        and RC.rows_in_range(len(w.samples), net.last_width(inst.widths), w.rows)
    ):
        return False
    acts_m = arith.acts_mod(p, inst.acts, w.acts_inv)
    th_m = arith.rats_mod(p, inst.theta, w.theta_inv)
    rows = label_rows(
        lambda X, k: mlp_rows_np(p, inst.widths, acts_m, inst.bias, th_m, X, k),
        w.samples, w.rows, n, p,
    )  # fmt: skip
    return check_minor_np(p, n, r, rows, w.cols)


def check_rank_lower_resnet(inst: KR.ResNetInstance, w: K.LowerWitness, r: int) -> bool:
    """kernel_resnet.check_rank_lower_resnet, vectorised."""
    p, n = w.p, len(inst.theta)
    if not (
        KR.resnet_shape_ok(inst, w.samples)
        and arith.p_ok(p)
        and arith.rats_inv_ok(p, inst.theta, w.theta_inv)
        and arith.acts_inv_ok(p, inst.acts, w.acts_inv)
        and len(w.rows) == r
        and RC.rows_in_range(len(w.samples), inst.width, w.rows)
    ):
        return False
    acts_m = arith.acts_mod(p, inst.acts, w.acts_inv)
    th_m = arith.rats_mod(p, inst.theta, w.theta_inv)
    rows = label_rows(
        lambda X, k: resnet_rows_np(p, inst.width, inst.outer, acts_m, th_m, X, k),
        w.samples, w.rows, n, p,
    )  # fmt: skip
    return check_minor_np(p, n, r, rows, w.cols)


def _kills_all(
    rows_at, pts: list[list[int]], ts: list[list[int]], dout: int, n: int, q: int
) -> bool:
    if not ts or not pts:
        return True
    X = as_mod(pts, q, len(pts[0]))
    tq = as_mod(ts, q, n)
    chunk = max(1, 2_000_000 // max(n, 1))
    for k in range(dout):
        for c0 in range(0, X.shape[0], chunk):
            if not kills_np(q, rows_at(X[c0 : c0 + chunk], k, q), tq):
                return False
    return True


def _tangents_kill_mod(theta, acts, bound, d0: int, dout: int, rows_at, ts, qs) -> bool:
    """The modular path of `*_tangents_kill` that every polynomial family shares: an integral
    instance, pairwise coprime moduli whose product exceeds the family's bound (bound(D)),
    and every tangent orthogonal mod every q to the rows (rows_at) at every lattice point."""
    D = net.degree_bound(acts)
    if not (
        K.rats_int(theta) and K.acts_int(acts) and RC.moduli_ok(qs) and bound(D) < RC.prod_z(qs)
    ):
        return False
    pts = lists.lattice(d0, D)
    return all(_kills_all(rows_at, pts, ts, dout, len(theta), q) for q in qs)


def mlp_tangents_kill(inst: K.RankInstance, ts: list[list[int]], qs: list[int]) -> bool:
    """kernel.mlp_tangents_kill, the modular path vectorised (the exact path is the twin's)."""
    if not qs:
        return K.mlp_tangents_kill(inst, ts, qs)

    def rows_at(X: Mat, k: int, q: int) -> Mat:
        acts = [arith.ints_mod(q, K.nums(a)) for a in inst.acts]
        return mlp_rows_np(
            q, inst.widths, acts, inst.bias, arith.ints_mod(q, K.nums(inst.theta)), X, k
        )

    return _tangents_kill_mod(
        inst.theta, inst.acts, lambda D: K.mlp_bound(inst, D, ts),
        net.first_width(inst.widths), net.last_width(inst.widths), rows_at, ts, qs,
    )  # fmt: skip


def resnet_tangents_kill(inst: KR.ResNetInstance, ts: list[list[int]], qs: list[int]) -> bool:
    """kernel_resnet.resnet_tangents_kill, the modular path vectorised."""
    if not qs:
        return KR.resnet_tangents_kill(inst, ts, qs)

    def rows_at(X: Mat, k: int, q: int) -> Mat:
        acts = [arith.ints_mod(q, K.nums(a)) for a in inst.acts]
        th = arith.ints_mod(q, K.nums(inst.theta))
        return resnet_rows_np(q, inst.width, inst.outer, acts, th, X, k)

    return _tangents_kill_mod(
        inst.theta, inst.acts, lambda D: KR.resnet_bound(inst, D, ts),
        inst.width, inst.width, rows_at, ts, qs,
    )  # fmt: skip


def check_rank_upper(inst: K.RankInstance, w: K.UpperWitness, u: int) -> bool:
    """kernel.check_rank_upper, vectorised."""
    n, s = len(inst.theta), len(w.tangents)
    return (
        net.shape_ok(inst.widths, inst.acts, inst.bias, inst.theta, [])
        and arith.rats_pos(inst.theta)
        and arith.acts_pos(inst.acts)
        and u + s == n
        and lists.rows_len(n, w.tangents)
        and mlp_tangents_kill(inst, w.tangents, w.moduli)
        and independent_np(w.p, n, w.tangents, w.cols)
    )


def check_rank_upper_resnet(inst: KR.ResNetInstance, w: K.UpperWitness, u: int) -> bool:
    """kernel_resnet.check_rank_upper_resnet, vectorised."""
    n, s = len(inst.theta), len(w.tangents)
    return (
        KR.resnet_shape_ok(inst, [])
        and arith.rats_pos(inst.theta)
        and arith.acts_pos(inst.acts)
        and u + s == n
        and lists.rows_len(n, w.tangents)
        and resnet_tangents_kill(inst, w.tangents, w.moduli)
        and independent_np(w.p, n, w.tangents, w.cols)
    )


def check_relu_rank_lower(inst: KL.ReluInstance, w: KL.ReluLowerWitness, r: int) -> bool:
    """kernel_relu.check_relu_rank_lower: exact patterns and the zero test in integers and the
    rows mod p batched (relu_fast), numpy elimination."""
    p, n = w.p, len(inst.theta)
    if not (
        KL.relu_shape_ok(inst.widths, inst.theta, w.batch)
        and arith.p_ok(p)
        and arith.rats_inv_ok(p, inst.theta, w.theta_inv)
        and arith.acts_inv_ok(p, w.batch, w.batch_inv)
        and RF.batch_nonzero(inst.widths, inst.theta, w.batch)
        and len(w.rows) == r
        and RC.rows_in_range(len(w.batch), net.last_width(inst.widths), w.rows)
    ):
        return False
    rows = RF.relu_rows_mod(
        p, inst.widths, RF.batch_patterns(inst.widths, inst.theta, w.batch),
        arith.rats_mod(p, inst.theta, w.theta_inv), arith.acts_mod(p, w.batch, w.batch_inv), w.rows,
    )  # fmt: skip
    return check_minor_np(p, n, r, rows, w.cols)


def check_relu_rank_upper(
    inst: KL.ReluInstance, batch: list[list[arith.Rat]], w: K.UpperWitness, u: int
) -> bool:
    """kernel_relu.check_relu_rank_upper: the zero test and the exact orthogonality of the
    tangents in integers on the whole batch (relu_fast), the independence minor by numpy."""
    n, s = len(inst.theta), len(w.tangents)
    return (
        KL.relu_shape_ok(inst.widths, inst.theta, batch)
        and RF.batch_nonzero(inst.widths, inst.theta, batch)
        and u + s == n
        and lists.rows_len(n, w.tangents)
        and not w.moduli
        and RF.tangents_vanish(inst.widths, inst.theta, batch, w.tangents)
        and independent_np(w.p, n, w.tangents, w.cols)
    )


# ---------------------------------------------------------------- the generic-rank evidence
def rank_mod_np(M: Mat, p: int) -> int:
    """The rank of a residue matrix over GF(p), p prime, by Gaussian elimination (row
    swaps; each pivot row normalised by its inverse, products below 2^62)."""
    M = np.array(M, dtype=np.int64) % p
    if M.ndim != 2:
        return 0
    r = 0
    for c in range(M.shape[1]):
        if r == M.shape[0]:
            break
        nz = np.flatnonzero(M[r:, c])
        if nz.size == 0:
            continue
        i = r + int(nz[0])
        if i != r:
            M[[r, i]] = M[[i, r]]
        M[r] = M[r] * pow(int(M[r, c]), p - 2, p) % p
        lam = M[r + 1 :, c].copy()
        M[r + 1 :] = (M[r + 1 :] - lam[:, None] * M[r] % p) % p
        r += 1
    return r


def jacobian_rank_mod(
    inst: K.RankInstance | KR.ResNetInstance, p: int, theta: list[int], samples: list[list[int]]
) -> int:
    """The rank over GF(p) of the Jacobian of theta -> (f_theta(x_s))_s at the residue point
    theta (the instance's network; its theta is not used) and the residue samples x_s, every
    output of every sample one row. The activations' denominators must be units mod p."""
    acts_m = [[a * pow(b, -1, p) % p for a, b in cs] for cs in inst.acts]
    th = [t % p for t in theta]
    if isinstance(inst, KR.ResNetInstance):
        d0 = dout = inst.width

        def rows_at(X: Mat, k: int) -> Mat:
            return resnet_rows_np(p, inst.width, inst.outer, acts_m, th, X, k)
    else:
        d0, dout = net.first_width(inst.widths), net.last_width(inst.widths)

        def rows_at(X: Mat, k: int) -> Mat:
            return mlp_rows_np(p, inst.widths, acts_m, inst.bias, th, X, k)

    X = as_mod(samples, p, d0)
    return rank_blocked(np.vstack([rows_at(X, k) for k in range(dout)]), p)


# ---------------------------------------------------------------- blocked elimination (float BLAS)
PANEL = 64  # panel width: 64 * (2^16 - 1) * (2^31 - 2) < 2^53, so every split product is exact


def _residue_lift(p: int) -> float:
    """A multiple of p at least 2^48 (> the largest reduced product p * 2^16 + p)."""
    return float(p * -(-(1 << 48) // p))


def _reduce(t: Mat, p: int) -> Mat:
    """t mod p in place, for a float64 matrix of nonnegative integers below 2^53: q =
    floor(t / p) computed in floating point is off by at most one, so t - q * p (exact: an
    integer of at most 2^53 in magnitude) lies in [-p, 2p) and one correction each side
    lands it in [0, p). (np.fmod is exact too, but about 50x slower on these values.)"""
    q = np.floor(t * (1.0 / p))
    q *= p
    t -= q
    t[t < 0] += p
    t[t >= p] -= p
    return t


def sub_matmul_mod(C: Mat, A: Mat, B: Mat, p: int) -> Mat:
    """(C - A @ B) mod p exactly, for float64 residue matrices C (r x N) and B (k x N) and an
    int64 residue matrix A (r x k) with k <= PANEL, p < 2^31. A = 2^16 * hi + lo
    (hi < 2^15, lo < 2^16); each float product hi @ B, lo @ B sums k <= 64 integers below
    2^47, so every partial sum is an integer below 2^53 and BLAS computes it exactly in
    any order. The halves are reduced (`_reduce`, exact), recombined below 2^48,
    and C - A @ B is lifted by a multiple of p to a nonnegative value below 2^50 before the
    last reduction: every intermediate is an integer below 2^53."""
    if A.shape[1] > PANEL:
        raise ValueError("sub_matmul_mod: inner dimension above PANEL")
    if A.shape[1] == 0:
        return C.copy()
    t = (A >> 16).astype(np.float64) @ B
    _reduce(t, p)
    t *= 65536.0
    lo = (A & 0xFFFF).astype(np.float64) @ B
    _reduce(lo, p)
    t += lo
    np.subtract(C, t, out=t)
    t += _residue_lift(p)
    _reduce(t, p)
    return t


def rank_blocked(M: Mat, p: int, rows: int = 4096) -> int:
    """The rank of a residue matrix over GF(p), p prime below 2^31: right-looking blocked
    Gaussian elimination (the same row operations as `rank_mod_np`, applied late).

    Per panel of PANEL columns: its entries in the rows not yet pivots are eliminated in
    int64, column by column (pivot: the first remaining row with a nonzero entry, swapped
    up; a column without one is skipped; multipliers lam = a / pivot stored in L). The same
    swaps are applied to the trailing columns; the k new pivot rows are then finished by
    forward substitution, U_i = A_i - L[i, :i] @ U[:i], and every row below by one product,
    A_rest - L_rest @ U (sub_matmul_mod, in chunks of `rows` rows). These are the updates
    of unblocked elimination, grouped, so the pivots and hence the rank are the same. The
    rank is the number of pivots."""
    M = np.array(M, dtype=np.int64)
    if M.ndim != 2:
        return 0
    m, n = M.shape
    F = (M % p).astype(np.float64)
    r = 0
    for c0 in range(0, n, PANEL):
        if r == m:
            break
        c1 = min(c0 + PANEL, n)
        P = F[r:, c0:c1].astype(np.int64)
        L = np.zeros((m - r, c1 - c0), dtype=np.int64)
        k = 0
        for j in range(c1 - c0):
            if r + k == m:
                break
            nz = np.flatnonzero(P[k:, j])
            if nz.size == 0:
                continue
            i = k + int(nz[0])
            if i != k:
                P[[k, i]] = P[[i, k]]
                L[[k, i]] = L[[i, k]]
                F[[r + k, r + i], c1:] = F[[r + i, r + k], c1:]
            lam = P[k + 1 :, j] * pow(int(P[k, j]), p - 2, p) % p
            P[k + 1 :, j + 1 :] = (P[k + 1 :, j + 1 :] - lam[:, None] * P[k, j + 1 :] % p) % p
            L[k + 1 :, k] = lam
            k += 1
        if k and c1 < n:
            U = F[r : r + k, c1:]
            for i in range(1, k):
                U[i : i + 1] = sub_matmul_mod(U[i : i + 1], L[i : i + 1, :i], U[:i], p)
            for a in range(r + k, m, rows):
                b = min(a + rows, m)
                F[a:b, c1:] = sub_matmul_mod(F[a:b, c1:], L[a - r : b - r, :k], U, p)
        r += k
    return r
