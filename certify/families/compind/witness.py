"""Composition-independence witnesses (generator: untrusted).

For sigma(p_1), ..., sigma(p_k) (after the constant 1 with biases): integer points v_j and
the inverse mod p of M[i][j] = f_i(v_j) (independent), or an exact integer relation
(dependent), or, for every sigma of degree <= d at once, a relation among the powers p_i^j
(generic dependence). Kinds compind, prop21 and newman-slater share this module.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from certify import __version__
from certify.algebra.modp import integer_nullspace, inverse_mod, nmod, previous_prime, residue
from certify.algebra.poly import Poly, compose, power
from certify.checker.claims.compind import compind_claim, compind_result
from certify.checker.ir import envelope, format_univariate, rat_str
from certify.checker.kernel import compind as KC
from certify.errors import CertifyError
from certify.families.compind.spec import CompindSpec
from certify.families.polynomial.mlp_model import primitive
from certify.request import CertRequest, Spec

POINT_RANGE = 50
GENERIC_RANGE = 9


def _poly(ci: CompindSpec, i: int) -> Poly:
    return dict(ci.polys[i])


def generic_sigma(d: int, origin: bool, tag: str) -> tuple[Fraction, ...]:
    """A deterministic integer activation of degree d with all coefficients nonzero
    (a_0 = 0 for origin-passing)."""
    rng = random.Random(f"nn-certify/sigma/{tag}/{d}")
    cs = []
    for _ in range(d + 1):
        v = 0
        while v == 0:
            v = rng.randint(-GENERIC_RANGE, GENERIC_RANGE)
        cs.append(Fraction(v))
    if origin:
        cs[0] = Fraction(0)
    return tuple(cs)


def _eval_mod(terms: tuple[tuple[tuple[int, ...], Fraction], ...], x: list[int], p: int) -> int:
    acc = 0
    for exps, c in terms:
        r = residue(c, p)
        assert r is not None
        m = r
        for xi, e in zip(x, exps, strict=True):
            m = m * pow(xi % p, e, p) % p
        acc = (acc + m) % p
    return acc


def _sigma_mod(sigma: tuple[Fraction, ...], a: int, p: int) -> int:
    s = 0
    for c in reversed(sigma):
        r = residue(c, p)
        assert r is not None
        s = (s * a + r) % p
    return s


def _unlucky(ci: CompindSpec, sigma: tuple[Fraction, ...], p: int) -> bool:
    coeffs = [c for q in ci.polys for _, c in q] + list(sigma)
    return any(residue(c, p) is None for c in coeffs)


def independence(
    ci: CompindSpec, sigma: tuple[Fraction, ...], p0: int, tag: str, tries: int
) -> dict[str, Any] | None:
    """Points and the inverse of M mod p, or None when no nonsingular M turned up."""
    n, k = len(ci.variables), len(ci.polys) + (1 if ci.bias else 0)
    p = p0
    for t in range(tries):
        while _unlucky(ci, sigma, p):
            p = previous_prime(p)
        rng = random.Random(f"nn-certify/points/{tag}/{t}")
        pts = [[rng.randint(-POINT_RANGE, POINT_RANGE) for _ in range(n)] for _ in range(k)]
        rows = [[_sigma_mod(sigma, _eval_mod(q, v, p), p) for v in pts] for q in ci.polys]
        if ci.bias:
            rows = [[1] * k, *rows]
        M = nmod(rows, p, k)
        if M.rank() == k:
            inv = [[int(v) for v in r] for r in M.inv().tolist()]
            return {
                "kind": "independent",
                "sigma": [rat_str(c) for c in sigma],
                "k": k,
                "prime": p,
                "polys_inv": [[inverse_mod(c.denominator, p) for _, c in q] for q in ci.polys],
                "sigma_inv": [inverse_mod(c.denominator, p) for c in sigma],
                "points": pts,
                "inverse": inv,
            }
        p = previous_prime(p)
    return None


def _left_kernel(vectors: list[Poly]) -> list[list[int]]:
    """Integer vectors lam with sum_i lam_i vectors[i] = 0 (exact)."""
    monos = sorted({m for v in vectors for m in v})
    rows = [[v.get(m, Fraction(0)) for v in vectors] for m in monos]
    return [primitive([Fraction(x) for x in b]) for b in integer_nullspace(rows, len(vectors))]


def dependence(ci: CompindSpec, sigma: tuple[Fraction, ...]) -> dict[str, Any] | None:
    """An exact relation sum lam_i f_i = 0 for this sigma (None: independent)."""
    n = len(ci.variables)
    funcs = [compose(list(sigma), _poly(ci, i), n) for i in range(len(ci.polys))]
    if ci.bias:
        funcs = [{(0,) * n: Fraction(1)}, *funcs]
    kern = _left_kernel(funcs)
    if not kern:
        return None
    return {"kind": "dependent", "sigma": [rat_str(c) for c in sigma], "lambda": kern[0]}


def dependence_all(ci: CompindSpec, d: int) -> dict[str, Any] | None:
    """lam with sum_i lam_i p_i^j = 0 for every j in lo..d: dependence for every sigma."""
    if ci.bias:
        return None
    n = len(ci.variables)
    lo = 1 if ci.origin else 0
    stacked: list[Poly] = []
    for i in range(len(ci.polys)):
        v: Poly = {}
        for j in range(lo, d + 1):
            for m, c in power(_poly(ci, i), j, n).items():
                v[(j, *m)] = c
        stacked.append(v)
    kern = _left_kernel(stacked)
    if not kern:
        return None
    return {"kind": "dependent_all", "lo": lo, "degree": d, "lambda": kern[0]}


SIGMA_TRIES = 4


def generic_independence(
    ci: CompindSpec, d: int, req: CertRequest, tag: str
) -> dict[str, Any] | None:
    """An independence witness for one of a few tool-chosen sigma of degree d (one success
    proves independence for generic sigma of degree d)."""
    for t in range(SIGMA_TRIES):
        sigma = generic_sigma(d, ci.origin, tag if t == 0 else f"{tag}/retry{t}")
        fact = independence(ci, sigma, req.prime, f"{tag}/{d}/{t}", max(req.attempts, 3))
        if fact is not None:
            return fact
    return None


def _decide(ci: CompindSpec, sigma: tuple[Fraction, ...], req: CertRequest, tag: str) -> dict:
    fact = independence(ci, sigma, req.prime, tag, max(req.attempts, 3))
    if fact is not None:
        return fact
    dep = dependence(ci, sigma)
    if dep is None:
        raise CertifyError(
            f"{req.name}: no independence witness after {max(req.attempts, 3)} point sets and "
            f"no exact relation either; raise 'attempts'"
        )
    return dep


def generate(spec: Spec, req: CertRequest) -> dict[str, Any]:
    ci = req.options["compind"]
    assert ci is not None
    facts: list[dict[str, Any]] = []
    notes: list[dict[str, Any]] = []
    tag = f"{spec.name}/{req.name}"
    if req.kind == "prop21":
        facts.append(prop21_fact(ci, req))
    elif ci.search:
        for d in range(1, ci.max_degree + 1):
            fact = generic_independence(ci, d, req, tag)
            if fact is not None:
                facts.append(fact)
                break
            dep = dependence_all(ci, d)
            if dep is not None:
                facts.append(dep)
            else:
                notes.append({"degree": d, "status": "no certificate"})
        else:
            raise CertifyError(
                f"{req.name}: no independence witness up to degree {ci.max_degree}; "
                f"raise max_degree"
            )
    elif ci.generic_degree is not None:
        d = ci.generic_degree
        fact = generic_independence(ci, d, req, tag)
        if fact is None:
            fact = dependence_all(ci, d) or _decide(ci, generic_sigma(d, ci.origin, tag), req, tag)
        facts.append(fact)
    else:
        assert ci.sigma is not None
        facts.append(_decide(ci, ci.sigma, req, tag))
    result = compind_result(req.kind, ci, facts, notes)
    return envelope(
        "compind",
        req.kind,
        req.name,
        instance_json(ci),
        {"facts": facts},
        result,
        compind_claim(req.kind, ci, result, facts),
        generator={"tool": "nn-certify", "version": __version__, "prime": req.prime},
    )


def prop21_fact(ci: CompindSpec, req: CertRequest) -> dict[str, Any]:
    assert ci.sigma is not None
    sigma = [(c.numerator, c.denominator) for c in ci.sigma]
    text = format_univariate(list(ci.sigma), "z")
    if ci.origin:
        if not KC.check_prop33(sigma):
            raise CertifyError(
                f"{req.name}: Prop. 3.3 needs deg sigma >= 2, sigma(0) = 0 and "
                f"a_r * a_(r-1) != 0; sigma = {text} does not satisfy it"
            )
        return {"kind": "prop33", "sigma": [rat_str(c) for c in ci.sigma]}
    d2 = Fraction(*KC.delta2(sigma))
    d3 = Fraction(*KC.delta3(sigma))
    if len(sigma) - 1 < 3 or d2 == 0 or d3 == 0:
        raise CertifyError(
            f"{req.name}: Prop. 2.1 needs deg sigma >= 3 and a_r * Delta_2 * Delta_3 != 0; "
            f"sigma = {text} has degree {len(sigma) - 1}, Delta_2 = {d2}, Delta_3 = {d3}"
        )
    return {
        "kind": "prop21",
        "sigma": [rat_str(c) for c in ci.sigma],
        "delta2": rat_str(d2),
        "delta3": rat_str(d3),
    }


def instance_json(ci: CompindSpec) -> dict[str, Any]:
    return {
        "variables": list(ci.variables),
        "polynomials": [[[rat_str(c), list(e)] for e, c in q] for q in ci.polys],
        "polynomials_text": list(ci.polys_text),
        "origin": ci.origin,
        "bias": ci.bias,
        "activation": None
        if ci.sigma is None or ci.power is not None
        else [rat_str(c) for c in ci.sigma],
        "generic_degree": ci.generic_degree,
        "search": ci.search,
        "power": ci.power,
    }
