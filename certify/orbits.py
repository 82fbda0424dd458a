"""Root-of-unity symmetries of polynomial ResNets (math.md §2), in exact rational arithmetic.

tau(s) = sigma(s + t0) for a rational critical point t0 of sigma; g = gcd{k >= 1 : tau_k != 0}.
Per neuron, w -> zeta w and b -> zeta (b - t0) + t0 fixes F for zeta in mu_g; the real members
are {+1, -1} when g is even. Shared by the generator and the checker (plain Fractions)."""

from __future__ import annotations

from fractions import Fraction
from math import comb, gcd
from typing import Any

from certify.checker import kernel_resnet as KR
from certify.spec import ResNet, rat_str

MAX_LISTED = 4096


def taylor_shift(sigma: list[Fraction], t0: Fraction) -> list[Fraction]:
    """Coefficients of tau(s) = sigma(s + t0)."""
    d = len(sigma) - 1
    return [
        sum(sigma[j] * comb(j, k) * t0 ** (j - k) for j in range(k, d + 1)) for k in range(d + 1)
    ]


def exponent_gcd(tau: list[Fraction]) -> int:
    g = 0
    for k in range(1, len(tau)):
        if tau[k] != 0:
            g = gcd(g, k)
    return g


def rational_critical_points(sigma: list[Fraction]) -> list[Fraction]:
    """Rational roots of sigma' (by sympy), sorted."""
    import sympy as sp

    t = sp.Symbol("t")
    d = sum(
        sp.Rational(c.numerator, c.denominator) * k * t ** (k - 1) for k, c in enumerate(sigma) if k
    )
    roots = sp.Poly(d, t).ground_roots() if d != 0 else {}
    return sorted(Fraction(int(r.p), int(r.q)) for r in roots if r.is_rational)


def layer_symmetry(sigma: list[Fraction]) -> dict[str, Any]:
    """The best real symmetry of one layer: t0 with even g if any (else the largest g)."""
    best: dict[str, Any] = {"t0": None, "g": 1}
    for t0 in rational_critical_points(sigma):
        g = exponent_gcd(taylor_shift(sigma, t0))
        if (g % 2 == 0, g) > (best["g"] % 2 == 0, best["g"]):
            best = {"t0": t0, "g": g}
    return best


def flip(
    rn: ResNet, theta: list[Fraction], layer: int, neuron: int, t0: Fraction
) -> list[Fraction]:
    pairs = [(t.numerator, t.denominator) for t in theta]
    out = KR.flip_params(rn.width, rn.outer, layer, neuron, (t0.numerator, t0.denominator), pairs)
    return [Fraction(a, b) for a, b in out]


def orbit(
    rn: ResNet, theta: list[Fraction], gens: list[tuple[int, int, Fraction]]
) -> list[list[Fraction]]:
    """All parameter vectors reached by products of the generators (flips commute)."""
    seen = {tuple(theta)}
    frontier = [list(theta)]
    while frontier:
        nxt = []
        for th in frontier:
            for layer, neuron, t0 in gens:
                th2 = flip(rn, th, layer, neuron, t0)
                if tuple(th2) not in seen:
                    seen.add(tuple(th2))
                    nxt.append(th2)
        frontier = nxt
        if len(seen) > MAX_LISTED:
            break
    return sorted((list(t) for t in seen), key=lambda v: [(x.numerator, x.denominator) for x in v])


def orbit_result(rn: ResNet, theta: list[Fraction], facts: list[dict[str, Any]]) -> dict[str, Any]:
    layers = [layer_symmetry(list(a)) for a in rn.activations]
    gens = [(f["layer"], f["neuron"], Fraction(f["t0"])) for f in facts]
    elems = orbit(rn, theta, gens)
    listed = len(elems) <= MAX_LISTED
    return {
        "layers": [
            {
                "t0": None if s["t0"] is None else rat_str(s["t0"]),
                "g": s["g"],
                "real_group": "{+1,-1}" if s["g"] % 2 == 0 and s["t0"] is not None else "trivial",
            }
            for s in layers
        ],
        "generators": len(facts),
        "orbit_size": len(elems) if listed else None,
        "orbit": [[rat_str(x) for x in e] for e in elems] if listed else None,
    }


def orbit_claim(rn: ResNet, result: dict[str, Any]) -> dict[str, Any]:
    layer = "x + V sigma(W x + b)" if rn.outer else "x + sigma(W x + b)"
    size = result["orbit_size"]
    gs = ", ".join(
        f"g = {s['g']}" + (f" at t0 = {s['t0']}" if s["t0"] is not None else "")
        for s in result["layers"]
    )
    count = str(size) if size is not None else f"more than {MAX_LISTED}"
    parts = [
        f"Kernel-checked: for the ResNet of width {rn.width} and depth {rn.depth} with layers "
        f"{layer}, each of the {result['generators']} generators (a real root of unity -1 acting "
        f"on one neuron: w -> -w, b -> 2 t0 - b) maps theta to parameters realising the same "
        f"function (exactly, on a unisolvent lattice), so the group they generate lies in the "
        f"fiber of theta: an orbit of {count} parameter vectors ({gs}).",
        "Cited, not kernel-checked: for activations of degree >= 3 whose translate has no "
        "linear term, the generic fiber equals this orbit (math.md §2); with a rank "
        "certificate of full rank at theta the fiber is locally finite there.",
    ]
    if any(s["g"] >= 3 for s in result["layers"]):
        parts.append(
            "Over C the group is larger (mu_g per neuron for g >= 3); complex orbit "
            "certificates are not produced by this version."
        )
    return {"text": " ".join(parts), "cites": ["math.md §2 (polynomial ResNets)"]}
