"""Estimated cost of the Lean kernel checking a rank certificate by `decide +kernel`.

The same model as the COST MODEL section of lean/NNCert/RankCore.lean (keep them in step). It
is an estimate, not a measurement: no Lean toolchain was available when it was written. The
Lean kernel has no VM; it evaluates `decide (check ... = true)` by `whnf`, one reduction step
per unfolding, `match` on a list cell or a `Bool`, projection, or primitive `Nat` operation on
literals (GMP-accelerated: `Nat.add/sub/mul/div/mod/gcd/beq/ble`; `Int` is not accelerated and
reduces by `match` onto `Nat`), with `whnf` results cached per expression.

Model, with r the minor size (= the number of row labels), n the number of parameters, s the
number of tangents, L the lattice size (the batch size for ReLU), d the output width and m the
number of moduli (m = 0: exact rational rows):

    steps = C_ELIM (r^3 + s^3) / 3                 elimination entries (sum of k^2)
          + C_MINOR (r^2 + s^2) n / 2              reading the minors (nth on a row of length n)
          + C_ROW r n                              the r Jacobian rows (one reverse pass each)
          + L d (C_ROW n + C_DOT s n) P            the upper bound on the lattice
          + [m >= 1] d (C_ROW n + C_DOT s n)       the bound pass (absolute values, kill_bound)

with P = m passes when m >= 1 and P = EXACT_Q_PASSES when m = 0. The upper-bound terms vanish
when s = 0 (the kernel is lazy: a row that no tangent is dotted with is never computed).
seconds = steps / KERNEL_STEPS_PER_SECOND.

Calibration (docs/performance.md, the Lean kernel cost model): kim-em/hex-dev
`SPEC/matrix-tactics.md` reports a list-based, structural rank check of a 40 x 40 matrix (about
40^3 multiply-adds by our count) in 0.57-0.90 s, a 32 x 32 determinant check in 1.55 s, i.e.
roughly 10-50 us per list multiply-add; the constants below put an elimination entry at 20 us.
Not modelled: memory (the whnf cache grows with the step count), elaboration of the literals
(linear in their size), Lake and file overheads.
"""

from __future__ import annotations

KERNEL_STEPS_PER_SECOND = 1.0e6  # kernel reduction steps per second (estimate)
C_ELIM = 20.0  # steps per elimination entry: (a*y + (p - b)*x) % p on Nat, two-list match
C_MINOR = 3.0  # steps per row cell walked by nthNat while reading a minor
C_ROW = 120.0  # steps per (row, parameter) of a reverse pass mod p (Int through arithMod)
C_DOT = 25.0  # steps per term of dotMod (one tangent entry times one row entry, mod q)
EXACT_Q_PASSES = 4.0  # an exact rational pass (unnormalised pairs) costs this many mod-q passes

DEFAULT_LEAN_MAX_SECONDS = 600  # above this estimate the Lean verdict is not-run


def _check_counts(**counts: int) -> None:
    for name, value in counts.items():
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ValueError(f"{name} must be a natural number, got {value!r}")


def lean_rank_steps(r: int, n: int, lattice: int, dout: int, tangents: int, moduli: int) -> float:
    """Estimated kernel reduction steps of one rank certificate: the lower bound (an r x r
    minor of r reverse-mode rows of n parameters) and, when `tangents` > 0, the upper bound
    (`tangents` tangents killing the `dout` rows at each of `lattice` points, exactly when
    `moduli` = 0, else modulo each of `moduli` moduli plus one bound pass)."""
    _check_counts(r=r, n=n, lattice=lattice, dout=dout, tangents=tangents, moduli=moduli)
    s = tangents
    steps = C_ELIM * (r**3 + s**3) / 3 + C_MINOR * (r**2 + s**2) * n / 2 + C_ROW * r * n
    if s > 0:
        per_point = dout * (C_ROW * n + C_DOT * s * n)
        passes = float(moduli) if moduli else EXACT_Q_PASSES
        steps += lattice * per_point * passes
        if moduli:
            steps += per_point  # the bound pass over arithZ
    return steps


def lean_rank_cost(r: int, n: int, lattice: int, dout: int, tangents: int, moduli: int) -> float:
    """Estimated seconds for the Lean kernel to check one rank certificate (`lean_rank_steps`
    at KERNEL_STEPS_PER_SECOND). Compare with DEFAULT_LEAN_MAX_SECONDS (or a user limit)."""
    return lean_rank_steps(r, n, lattice, dout, tangents, moduli) / KERNEL_STEPS_PER_SECOND
