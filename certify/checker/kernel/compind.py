"""Python twin of lean/NNCert/Compind.lean and coq/NNCert/kernel/Compind.v: composition
independence of sigma(p_1), ..., sigma(p_k) (and the constant 1 with biases).

Multivariate polynomials are lists of terms ((num, den), exponents), exponents a list of
naturals of length nvars; the activation sigma is a coefficient list (constant term first).
Same conventions as the kernel package (kernel/__init__.py): rationals unnormalised with
den > 0; mod-p values in [0, p).
"""

from __future__ import annotations

from dataclasses import dataclass

from certify.checker.kernel.arith import (
    ARITH_Q,
    Arith,
    Rat,
    arith_mod,
    ints_mod,
    nonzero_q,
    nth_q,
    p_ok,
    qeq,
    qneg,
    rats_inv_ok,
    rats_mod,
    rats_pos,
)
from certify.checker.kernel.lists import nth, rows_len, zlist_eq
from certify.checker.kernel.rank import check_inverse

Term = tuple[Rat, list[int]]


def pow_ar(ar: Arith, x, e: int):
    """x^e by e multiplications (e is small: a polynomial degree)."""
    acc = ar.one
    for _ in range(e):
        acc = ar.mul(x, acc)
    return acc


def mono_eval(ar: Arith, es: list[int], xs: list) -> object:
    """prod_k xs[k]^es[k] over the shorter length."""
    acc = ar.one
    for e, x in reversed(list(zip(es, xs))):
        acc = ar.mul(pow_ar(ar, x, e), acc)
    return acc


def poly_eval(ar: Arith, cs: list, ess: list[list[int]], xs: list) -> object:
    """sum_t cs[t] * x^ess[t] over the shorter of cs and ess."""
    acc = ar.zero
    for c, es in reversed(list(zip(cs, ess))):
        acc = ar.add(ar.mul(c, mono_eval(ar, es, xs)), acc)
    return acc


def horner(ar: Arith, cs: list, a):
    """sigma(a) for sigma = sum cs[k] t^k."""
    s = ar.zero
    for c in reversed(cs):
        s = ar.add(c, ar.mul(a, s))
    return s


def term_coeffs(p: list[Term]) -> list[Rat]:
    return [t[0] for t in p]


def term_exps(p: list[Term]) -> list[list[int]]:
    return [t[1] for t in p]


def exps_ok(nvars: int, p: list[Term]) -> bool:
    """Every exponent vector has nvars entries (naturals) and every denominator is positive."""
    return (
        rows_len(nvars, term_exps(p))
        and all(e >= 0 for es in term_exps(p) for e in es)
        and (rats_pos(term_coeffs(p)))
    )


def polys_ok(nvars: int, ps: list[list[Term]]) -> bool:
    return all(exps_ok(nvars, p) for p in ps)


def polys_inv_ok(p: int, ps: list[list[Term]], invs: list[list[int]]) -> bool:
    return len(ps) == len(invs) and all(rats_inv_ok(p, term_coeffs(q), i) for q, i in zip(ps, invs))


def family_row_mod(
    p: int, sigma_m: list[int], cs_m: list[int], ess: list[list[int]], points: list[list[int]]
) -> list[int]:
    """[sigma(q(v_j)) mod p for every point v_j], q with coefficients cs_m mod p."""
    ar = arith_mod(p)
    return [horner(ar, sigma_m, poly_eval(ar, cs_m, ess, ints_mod(p, v))) for v in points]


def ones_row(n: int) -> list[int]:
    return [1] * n


def family_matrix_mod(
    p: int,
    bias: bool,
    sigma_m: list[int],
    ps: list[list[Term]],
    invs: list[list[int]],
    points: list[list[int]],
) -> list[list[int]]:
    """M[i][j] = sigma(p_i(v_j)) mod p; with biases the constant function 1 comes first."""
    rows = [
        family_row_mod(p, sigma_m, rats_mod(p, term_coeffs(q), i), term_exps(q), points)
        for q, i in zip(ps, invs)
    ]
    return [ones_row(len(points)), *rows] if bias else rows


@dataclass(frozen=True)
class CompindInstance:
    """sigma(p_1), ..., sigma(p_k) (after the constant 1 when bias) in Q[x_1..x_nvars]."""

    nvars: int
    polys: list[list[Term]]
    sigma: list[Rat]
    bias: bool


@dataclass(frozen=True)
class IndepWitness:
    p: int
    polys_inv: list[list[int]]
    sigma_inv: list[int]
    points: list[list[int]]
    inv: list[list[int]]


def family_size(inst: CompindInstance) -> int:
    return len(inst.polys) + (1 if inst.bias else 0)


def check_independent(inst: CompindInstance, w: IndepWitness, k: int) -> bool:
    """The k functions are linearly independent over Q: M * inv = I (mod p) for the matrix
    M[i][j] = f_i(v_j) recomputed from the instance (a relation c^T M = 0 would follow)."""
    return (
        k == family_size(inst)
        and polys_ok(inst.nvars, inst.polys)
        and p_ok(w.p)
        and polys_inv_ok(w.p, inst.polys, w.polys_inv)
        and rats_inv_ok(w.p, inst.sigma, w.sigma_inv)
        and len(w.points) == k
        and rows_len(inst.nvars, w.points)
        and check_inverse(
            w.p,
            k,
            family_matrix_mod(
                w.p,
                inst.bias,
                rats_mod(w.p, inst.sigma, w.sigma_inv),
                inst.polys,
                w.polys_inv,
                w.points,
            ),
            w.inv,
        )
    )


def exps_add(a: list[int], b: list[int]) -> list[int]:
    """Exponent vectors add entrywise (to the shorter length)."""
    return [x + y for x, y in zip(a, b)]


def exps_eq(a: list[int], b: list[int]) -> bool:
    return len(a) == len(b) and all(x == y for x, y in zip(a, b))


def term_mul(s: Term, t: Term) -> Term:
    return (ARITH_Q.mul(s[0], t[0]), exps_add(s[1], t[1]))


def terms_scale(t: Term, q: list[Term]) -> list[Term]:
    """t * q, term by term."""
    return [term_mul(t, u) for u in q]


def poly_mul_t(p: list[Term], q: list[Term]) -> list[Term]:
    """p * q as the list of all pairwise term products (not yet normalised)."""
    out: list[Term] = []
    for t in p:
        out.extend(terms_scale(t, q))
    return out


def add_term(t: Term, acc: list[Term]) -> list[Term]:
    """Add the term t into acc: to the term with the same exponents, or at the end."""
    for i, u in enumerate(acc):
        if exps_eq(u[1], t[1]):
            return [*acc[:i], (ARITH_Q.add(u[0], t[0]), u[1]), *acc[i + 1 :]]
    return [*acc, t]


def normalize(ts: list[Term]) -> list[Term]:
    """Like terms combined (one term per exponent vector); folds from the right.

    The value of the Coq/Lean definition, the right fold of `add_term` (each term added into
    the accumulated list: to the term with the same exponents, else at the end), computed
    with an index from exponent vector to position instead of `add_term`'s linear search:
    the same additions (qadd, unnormalised) in the same order, so the same list, in time
    linear in len(ts) instead of quadratic (tests/test_kernel_compind_normalize.py compares
    it with the fold)."""
    acc: list[Term] = []
    where: dict[tuple[int, ...], int] = {}
    for t in reversed(ts):
        key = tuple(t[1])
        i = where.get(key)
        if i is None:
            where[key] = len(acc)
            acc.append(t)
        else:
            u = acc[i]
            acc[i] = (ARITH_Q.add(u[0], t[0]), u[1])
    return acc


def zero_exps(n: int) -> list[int]:
    return [0] * n


def const_term(c: Rat, nvars: int) -> Term:
    return (c, zero_exps(nvars))


def compose_t(nvars: int, sigma: list[Rat], p: list[Term]) -> list[Term]:
    """The coefficients of sigma(p), by Horner with like terms combined at every step."""
    acc: list[Term] = []
    for c in reversed(sigma):
        acc = normalize([const_term(c, nvars), *poly_mul_t(p, acc)])
    return acc


def scaled_compositions(
    nvars: int, sigma: list[Rat], ps: list[list[Term]], lams: list[int]
) -> list[Term]:
    """sum_i lams[i] * sigma(ps[i]) as a list of terms (to the shorter of ps and lams)."""
    out: list[Term] = []
    for q, lam in zip(ps, lams):
        out.extend(terms_scale(const_term(qint(lam), nvars), compose_t(nvars, sigma, q)))
    return out


def relation_poly(inst: CompindInstance, lam: list[int]) -> list[Term]:
    """The coefficients of sum_i lam_i f_i (f_0 = 1 first when bias), like terms combined."""
    if inst.bias:
        if not lam:
            return []
        head = [const_term(qint(lam[0]), inst.nvars)]
        return normalize([*head, *scaled_compositions(inst.nvars, inst.sigma, inst.polys, lam[1:])])
    return normalize(scaled_compositions(inst.nvars, inst.sigma, inst.polys, lam))


def all_zero_terms(ts: list[Term]) -> bool:
    return all(t[0][0] == 0 for t in ts)


def nonzero_int(lam: list[int]) -> bool:
    return any(v != 0 for v in lam)


def check_dependent(inst: CompindInstance, lam: list[int]) -> bool:
    """lam != 0 and sum_i lam_i f_i = 0 identically: every coefficient of the expanded
    relation is zero (exact rational arithmetic, like terms combined)."""
    return (
        len(lam) == family_size(inst)
        and nonzero_int(lam)
        and polys_ok(inst.nvars, inst.polys)
        and rats_pos(inst.sigma)
        and all_zero_terms(relation_poly(inst, lam))
    )


def unit_sigma(j: int) -> list[Rat]:
    """The coefficient list of z^j."""
    return [(0, 1)] * j + [(1, 1)]


def check_dependent_all(inst: CompindInstance, lam: list[int], lo: int, d: int) -> bool:
    """sum_i lam_i p_i^j = 0 identically for every j in lo..d, so the relation holds for
    every sigma = sum_{j=lo}^{d} a_j z^j (generic dependence in degree d). Without biases;
    lo = 1 for origin-passing activations."""
    return (
        not inst.bias
        and lo <= d
        and polys_ok(inst.nvars, inst.polys)
        and len(lam) == len(inst.polys)
        and nonzero_int(lam)
        and all(
            check_dependent(CompindInstance(inst.nvars, inst.polys, unit_sigma(j), False), lam)
            for j in range(lo, d + 1)
        )
    )


def qint(c: int) -> Rat:
    return (c, 1)


def nsub(a: int, b: int) -> int:
    """Natural-number subtraction (truncated at 0), as Nat.sub in Lean and Coq."""
    return max(a - b, 0)


def delta2(sigma: list[Rat]) -> Rat:
    """Delta_2 = 2 r a_r a_(r-2) - (r-1) a_(r-1)^2 (Prop. 2.1), r = len(sigma) - 1."""
    r = nsub(len(sigma), 1)
    ar, ar1, ar2 = nth_q(sigma, r), nth_q(sigma, nsub(r, 1)), nth_q(sigma, nsub(r, 2))
    t1 = qmul3(qint(2 * r), ar, ar2)
    t2 = qmul3(qint(nsub(r, 1)), ar1, ar1)
    return ARITH_Q.add(t1, qneg(t2))


def delta3(sigma: list[Rat]) -> Rat:
    """Delta_3 = 3 r^2 a_r^2 a_(r-3) - 3 r (r-2) a_r a_(r-1) a_(r-2) + (r-1)(r-2) a_(r-1)^3."""
    r = nsub(len(sigma), 1)
    ar, ar1 = nth_q(sigma, r), nth_q(sigma, nsub(r, 1))
    ar2, ar3 = nth_q(sigma, nsub(r, 2)), nth_q(sigma, nsub(r, 3))
    t1 = qmul3(qint(3 * r * r), ARITH_Q.mul(ar, ar), ar3)
    t2 = qmul3(qint(3 * r * nsub(r, 2)), ARITH_Q.mul(ar, ar1), ar2)
    t3 = qmul3(qint(nsub(r, 1) * nsub(r, 2)), ARITH_Q.mul(ar1, ar1), ar1)
    return ARITH_Q.add(ARITH_Q.add(t1, qneg(t2)), t3)


def qmul3(a: Rat, b: Rat, c: Rat) -> Rat:
    return ARITH_Q.mul(a, ARITH_Q.mul(b, c))


def check_prop21(sigma: list[Rat], d2: Rat, d3: Rat) -> bool:
    """deg sigma = r >= 3, a_r * Delta_2 * Delta_3 != 0, and Delta_2 = d2, Delta_3 = d3."""
    r = nsub(len(sigma), 1)
    return (
        rats_pos(sigma)
        and rats_pos([d2, d3])
        and r >= 3
        and nonzero_q(nth_q(sigma, r))
        and qeq(delta2(sigma), d2)
        and qeq(delta3(sigma), d3)
        and nonzero_q(d2)
        and nonzero_q(d3)
    )


def check_prop33(sigma: list[Rat]) -> bool:
    """Origin-passing case: deg sigma = r >= 2, sigma(0) = 0 and a_r * a_(r-1) != 0."""
    r = nsub(len(sigma), 1)
    return (
        rats_pos(sigma)
        and r >= 2
        and not nonzero_q(nth_q(sigma, 0))
        and nonzero_q(nth_q(sigma, r))
        and nonzero_q(nth_q(sigma, nsub(r, 1)))
    )


# ---------------------------------------------------------------- MLP identifiability (§4)
def chunk_rows(ncols: int, nrows: int, th: list[int]) -> list[list[int]]:
    """nrows rows of ncols entries each, read from the front of th."""
    out = []
    for _ in range(nrows):
        out.append(th[:ncols])
        th = th[ncols:]
    return out


def split_layers(prev: int, rest: list[int], th: list[int]) -> list[list[list[int]]]:
    """The weight matrices (lists of rows) of a bias-free MLP, layer by layer."""
    out = []
    for d in rest:
        out.append(chunk_rows(prev, d, th))
        th = th[d * prev :]
        prev = d
    return out


def is_zero_row(row: list[int]) -> bool:
    return all(x == 0 for x in row)


def any_zero_row(W: list[list[int]]) -> bool:
    return any(is_zero_row(r) for r in W)


def column(W: list[list[int]], j: int) -> list[int]:
    return [nth(r, j) for r in W]


def any_zero_col(W: list[list[int]], ncols: int) -> bool:
    return any(is_zero_row(column(W, j)) for j in range(ncols))


def row_in(row: list[int], W: list[list[int]]) -> bool:
    return any(zlist_eq(r, row) for r in W)


def any_dup_row(W: list[list[int]]) -> bool:
    return any(row_in(W[i], W[i + 1 :]) for i in range(len(W)))


def hidden_ok(Ws: list[list[list[int]]]) -> bool:
    """Every hidden layer's neurons are active (nonzero incoming row, nonzero outgoing column)
    and not redundant (no two equal incoming rows)."""
    return all(
        not any_zero_row(W1) and not any_dup_row(W1) and not any_zero_col(W2, len(W1))
        for W1, W2 in zip(Ws, Ws[1:])
    )


def check_not_subnetwork(widths: list[int], th: list[int]) -> bool:
    """The bias-free MLP with integer weights th has at least one hidden layer, the right
    shape, and no inactive or redundant hidden neuron (math.md §1, 'subnetwork')."""
    from certify.checker.kernel.lists import all_pos
    from certify.checker.kernel.net import n_params

    return (
        len(widths) >= 3
        and all_pos(widths)
        and len(th) == n_params(widths, False)
        and hidden_ok(split_layers(widths[0], widths[1:], th))
    )


def check_mlp_hypotheses(widths: list[int], sigma: list[Rat], th: list[int], rmin: int) -> bool:
    """Not a subnetwork, sigma(0) = 0, deg sigma >= rmin with a nonzero leading coefficient."""
    r = nsub(len(sigma), 1)
    return (
        check_not_subnetwork(widths, th)
        and rats_pos(sigma)
        and not nonzero_q(nth_q(sigma, 0))
        and nonzero_q(nth_q(sigma, r))
        and r >= rmin
    )
