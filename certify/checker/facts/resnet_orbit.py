"""Root-of-unity symmetries of polynomial ResNets (math.md §2), in exact rational arithmetic
(facts: Python only; the orbit result and claim built from them are in claims/resnet.py).

tau(s) = sigma(s + t0) for a rational critical point t0 of sigma; g = gcd{k >= 1 : tau_k != 0}.
Per neuron, w -> zeta w and b -> zeta (b - t0) + t0 fixes F for zeta in mu_g; the real members
are {+1, -1} when g is even.

Trusted: shared by the generator and the checker (plain Fractions, no computer algebra;
rational_roots is tested against sympy in tests/test_resnet_symmetry.py)."""

from __future__ import annotations

from fractions import Fraction
from math import comb, gcd, lcm
from typing import Any

from certify.checker.ir import ResNet, rat_str
from certify.checker.kernel import resnet as KR

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


def _primitive_int(cs: list[Fraction]) -> list[int]:
    """The integer polynomial with coprime coefficients on the ray of cs (cs != 0)."""
    den = lcm(*(c.denominator for c in cs))
    ints = [int(c * den) for c in cs]
    g = 0
    for x in ints:
        g = gcd(g, x)
    return [x // g for x in ints]


def _eval(p: list[Fraction], x: Fraction) -> Fraction:
    acc = Fraction(0)
    for c in reversed(p):
        acc = acc * x + c
    return acc


def _rem(a: list[Fraction], b: list[Fraction]) -> list[Fraction]:
    """The remainder of a by b (b with a nonzero leading coefficient), trimmed."""
    a = list(a)
    while len(a) >= len(b) and a:
        q = a[-1] / b[-1]
        shift = len(a) - len(b)
        for i, c in enumerate(b):
            a[shift + i] -= q * c
        a.pop()
        while a and a[-1] == 0:
            a.pop()
    return a


def _sturm(p: list[Fraction]) -> list[list[Fraction]]:
    seq = [p, [k * c for k, c in enumerate(p)][1:]]
    while len(seq[-1]) > 1:
        r = _rem(seq[-2], seq[-1])
        if not r:
            break
        seq.append([-c for c in r])
    return seq


def _sign_changes(seq: list[list[Fraction]], x: Fraction) -> int:
    signs = [v for v in (_eval(q, x) for q in seq) if v != 0]
    return sum(1 for a, b in zip(signs, signs[1:]) if (a > 0) != (b > 0))


def rational_roots(cs: list[Fraction]) -> list[Fraction]:
    """The rational roots of the polynomial sum_k cs[k] t^k (cs not all 0), sorted, exact.

    Own code, no computer algebra. Let P = a_n t^n + ... + a_0 be the primitive integer
    polynomial of cs with the factor t^m removed (so a_0 != 0). A root p/q in lowest terms has
    q | a_n (Gauss), so s = a_n t maps the rational roots of P onto the integer roots of the
    monic integer polynomial Q(s) = a_n^(n-1) P(s / a_n). Sturm's theorem on the square-free
    part S of Q counts its real roots in an interval (lo, hi] with non-root endpoints exactly;
    bisection over integer endpoints from the Cauchy bound isolates each root in an interval
    holding one root, whose sign changes then narrow it to (lo, lo + 1]: the root is an
    integer iff it is lo + 1."""
    p = list(cs)
    while p and p[-1] == 0:
        p.pop()
    if not p:
        raise ValueError("the zero polynomial has every number as a root")
    out: set[Fraction] = set()
    while p[0] == 0:
        out.add(Fraction(0))
        p = p[1:]
    if len(p) == 1:
        return sorted(out)
    a = _primitive_int(p)
    n, lead = len(a) - 1, a[-1]
    Q = [Fraction(a[i] * lead ** (n - 1 - i)) for i in range(n)] + [Fraction(1)]
    g, h = Q, [k * c for k, c in enumerate(Q)][1:]
    while h:
        g, h = h, _rem(g, h)
    S = Q if len(g) == 1 else _quotient(Q, g)
    S_int = _primitive_int(S)  # the same roots, in integer arithmetic at integer points
    seq = _sturm(S)
    bound = _root_bound(S_int)
    stack = [(-bound, bound)]
    while stack:
        lo, hi = stack.pop()
        count = _sign_changes(seq, Fraction(lo)) - _sign_changes(seq, Fraction(hi))
        if count == 0:
            continue
        if count == 1 or hi - lo == 1:
            root = _integer_root(S_int, lo, hi)
            if root is not None:
                out.add(Fraction(root, lead))
            continue
        mid = _non_root_inside(S_int, lo, hi, out, lead)
        if mid is not None:
            stack += [(lo, mid), (mid, hi)]
        elif _eval_int(S_int, hi) == 0:
            out.add(Fraction(hi, lead))
    return sorted(out)


def _root_bound(p: list[int]) -> int:
    """An integer B with |z| < B for every complex root z of p (Fujiwara's bound
    2 max_k |a_(n-k) / a_n|^(1/k), rounded up, plus one): far tighter than Cauchy's when the
    coefficients are large, which keeps the bisection short."""
    n, lead = len(p) - 1, abs(p[-1])
    best = 0
    for k in range(1, n + 1):
        c = abs(p[n - k])
        if c:
            best = max(best, _kth_root_ceil(-(-c // lead), k))  # ceil((c / lead)^(1/k))
    return 2 * best + 1


def _kth_root_ceil(x: int, k: int) -> int:
    """The least integer r >= 0 with r^k >= x (for x >= 0)."""
    lo, hi = 0, 1 << (x.bit_length() // k + 1)
    while lo < hi:
        mid = (lo + hi) // 2
        if mid**k >= x:
            hi = mid
        else:
            lo = mid + 1
    return lo


def _non_root_inside(S: list[int], lo: int, hi: int, out: set[Fraction], lead: int) -> int | None:
    """An integer strictly between lo and hi, near the middle, that is not a root of S (roots
    met on the way are recorded in `out` as root / lead); None when every one is a root. At
    most deg S + 1 evaluations."""
    c = (lo + hi) // 2
    for d in range(hi - lo):
        for m in (c + d, c - d) if d else (c,):
            if lo < m < hi:
                if _eval_int(S, m) != 0:
                    return m
                out.add(Fraction(m, lead))
    return None


def _eval_int(p: list[int], x: int) -> int:
    acc = 0
    for c in reversed(p):
        acc = acc * x + c
    return acc


def _integer_root(S: list[int], lo: int, hi: int) -> int | None:
    """The integer root of S in (lo, hi] when that interval holds exactly one real root of S
    (or hi = lo + 1): bisection on the sign of S, one evaluation a step; S(lo) != 0."""
    if _eval_int(S, hi) == 0:
        return hi
    s_lo = _eval_int(S, lo) > 0
    while hi - lo > 1:
        mid = (lo + hi) // 2
        v = _eval_int(S, mid)
        if v == 0:
            return mid
        if (v > 0) == s_lo:
            lo = mid
        else:
            hi = mid
    return None


def _quotient(a: list[Fraction], b: list[Fraction]) -> list[Fraction]:
    """a / b for b dividing a exactly."""
    a = list(a)
    q = [Fraction(0)] * (len(a) - len(b) + 1)
    while len(a) >= len(b):
        c = a[-1] / b[-1]
        shift = len(a) - len(b)
        q[shift] = c
        for i, x in enumerate(b):
            a[shift + i] -= c * x
        a.pop()
    return q


def rational_critical_points(sigma: list[Fraction]) -> list[Fraction]:
    """Rational roots of sigma' (none when sigma is constant), sorted."""
    d = [k * c for k, c in enumerate(sigma)][1:]
    if not any(d):
        return []
    return rational_roots(d)


def layer_symmetry(sigma: list[Fraction]) -> dict[str, Any]:
    """The best real symmetry of one layer: t0 with even g if any (else the largest g)."""
    best: dict[str, Any] = {"t0": None, "g": 1}
    for t0 in rational_critical_points(sigma):
        g = exponent_gcd(taylor_shift(sigma, t0))
        if (g % 2 == 0, g) > (best["g"] % 2 == 0, best["g"]):
            best = {"t0": t0, "g": g}
    return best


def nontrivial(rn: ResNet, theta: list[Fraction], layer: int, neuron: int, t0: Fraction) -> bool:
    """The action w -> zeta w, b -> zeta (b - t0) + t0 moves this neuron's parameters (for
    zeta != 1) unless w = 0 and b = t0."""
    n = rn.width
    size = n * (n + 1) + (n * n if rn.outer else 0)
    start = layer * size + neuron * (n + 1)
    w, b = theta[start : start + n], theta[start + n]
    return any(x != 0 for x in w) or b != t0


def flip(
    rn: ResNet, theta: list[Fraction], layer: int, neuron: int, t0: Fraction
) -> list[Fraction]:
    pairs = [(t.numerator, t.denominator) for t in theta]
    out = KR.flip_params(rn.width, rn.outer, layer, neuron, (t0.numerator, t0.denominator), pairs)
    return [Fraction(a, b) for a, b in out]


def cyc_str(c: list[tuple[int, int]]) -> list[str]:
    return [rat_str(Fraction(a, b)) for a, b in c]


def root_action(
    rn: ResNet, theta: list[Fraction], layer: int, neuron: int, g: int, t0: Fraction
) -> list[list[str]]:
    """theta acted on by z (a formal g-th root of unity) at one neuron, coefficientwise."""
    pairs = [(t.numerator, t.denominator) for t in theta]
    t = (t0.numerator, t0.denominator)
    return [cyc_str(c) for c in KR.root_params(rn.width, rn.outer, layer, neuron, g, t, pairs)]


def symmetries(rn: ResNet, field: str) -> list[dict[str, Any]]:
    """The layer facts to certify: (layer, g, t0) with g = 2 (the real flip, when the
    translate is even) or g = the exponent gcd (complex, when it is >= 2)."""
    out = []
    for ell, a in enumerate(rn.activations):
        s = layer_symmetry(list(a))
        if s["t0"] is None:
            continue
        if field == "real" and s["g"] % 2 == 0:
            out.append({"layer": ell, "g": 2, "t0": s["t0"]})
        elif field == "complex" and s["g"] >= 2:
            out.append({"layer": ell, "g": s["g"], "t0": s["t0"]})
    return out


def orbit_size(rn: ResNet, theta: list[Fraction], syms: list[dict[str, Any]]) -> int:
    """prod over certified layers and moved neurons of g: the actions on different neurons
    are independent and z^k moves a neuron's (w, b - t0) != 0 to g distinct places."""
    size = 1
    for s in syms:
        for i in range(rn.width):
            if nontrivial(rn, theta, s["layer"], i, s["t0"]):
                size *= s["g"]
    return size


def real_orbit(
    rn: ResNet, theta: list[Fraction], syms: list[dict[str, Any]]
) -> list[list[Fraction]]:
    """Every product of flips applied to theta (flips of different neurons commute)."""
    elems = [list(theta)]
    for s in syms:
        for i in range(rn.width):
            if nontrivial(rn, theta, s["layer"], i, s["t0"]):
                elems += [flip(rn, e, s["layer"], i, s["t0"]) for e in elems]
    return sorted(elems, key=lambda v: [(x.numerator, x.denominator) for x in v])


def complex_orbit(
    rn: ResNet, theta: list[Fraction], syms: list[dict[str, Any]]
) -> list[list[list[str]]]:
    """Every element of prod mu_g acting on theta, as coefficient lists over 1, zeta, ...,
    zeta^(G-1), zeta = exp(2 pi i / G), G the lcm of the certified orders."""
    G = lcm(*(s["g"] for s in syms))
    elems: list[list[list[Fraction]]] = [[[x] + [Fraction(0)] * (G - 1) for x in theta]]
    n = rn.width
    size = n * (n + 1) + (n * n if rn.outer else 0)
    for s in syms:
        g, t0, ell = s["g"], s["t0"], s["layer"]
        for i in range(n):
            if not nontrivial(rn, theta, ell, i, t0):
                continue
            start = ell * size + i * (n + 1)
            out = []
            for e in elems:
                for k in range(g):
                    pw = k * (G // g)  # zeta_g = zeta_G^(G/g) when g divides G
                    e2 = [list(c) for c in e]
                    for j in range(start, start + n + 1):
                        v = theta[j] if j < start + n else theta[j] - t0
                        c = [Fraction(0)] * G
                        c[pw % G] += v
                        if j == start + n:
                            c[0] += t0
                        e2[j] = c
                    out.append(e2)
            elems = out
    return sorted(
        [[[rat_str(x) for x in c] for c in e] for e in elems],
        key=lambda v: [[(Fraction(x).numerator, Fraction(x).denominator) for x in c] for c in v],
    )


MAX_LISTED_COMPLEX = 729
