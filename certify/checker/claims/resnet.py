"""Results and claims of the ResNet kinds implicit and critical (trusted; shared by the
generator and the checker).

Implicit equations of scalar polynomial ResNets (math.md §2, Figure 1): the data of a
certificate that P(c_0, ..., c_D) = 0 on the image of theta -> (c_0, ..., c_D), where
F_theta(x) = sum_k c_k x^k. Critical points: the diagnostics of math.md §2 at theta and the
sentence a critical-point certificate supports."""

from __future__ import annotations

from fractions import Fraction
from math import comb
from typing import Any

from certify.checker.claims.mlp import UNISOLVENT
from certify.checker.facts.resnet_orbit import (
    MAX_LISTED,
    MAX_LISTED_COMPLEX,
    complex_orbit,
    layer_symmetry,
    orbit_size,
    rational_critical_points,
    real_orbit,
    symmetries,
)
from certify.checker.ir import ResNet, format_polynomial, rat_str
from certify.checker.kernel import net as KN
from certify.checker.kernel import resnet as KR

Term = tuple[tuple[int, int], list[int]]


def coefficient_names(degree: int) -> tuple[str, ...]:
    """c0, ..., c_degree: the coefficients of F(x) = sum_k c_k x^k."""
    return tuple(f"c{k}" for k in range(degree + 1))


def parameter_names(rn: ResNet) -> list[str]:
    """w1, b1 (, v1), w2, b2, ...: the parameters of a width-1 ResNet in layout order."""
    out = []
    for ell in range(1, rn.depth + 1):
        out += [f"w{ell}", f"b{ell}"] + ([f"v{ell}"] if rn.outer else [])
    return out


def free_mask(rn: ResNet, bias: bool) -> list[bool]:
    """Which parameters are variables (biases are fixed at 0 when bias is False)."""
    return [bias or not name.startswith("b") for name in parameter_names(rn)]


MAX_EQUATION_DEGREE = 32  # bounds the kernel's work (exponents are unary in Coq)


def canonical_terms(terms: list[Term]) -> list[Term]:
    """Like terms combined, zero terms dropped, lowest form, sorted (highest exponents first):
    the only form a certificate may carry, so that the claim text is the checked polynomial."""
    acc: dict[tuple[int, ...], Fraction] = {}
    for (a, b), e in terms:
        acc[tuple(e)] = acc.get(tuple(e), Fraction(0)) + Fraction(a, b)
    return [
        ((c.numerator, c.denominator), list(e))
        for e, c in sorted(acc.items(), key=lambda kv: tuple(-x for x in kv[0]))
        if c != 0
    ]


def equation_text(terms: list[Term], degree: int) -> str:
    poly = {tuple(e): Fraction(a, b) for (a, b), e in terms}
    return format_polynomial(poly, coefficient_names(degree))


def implicit_result(rn: ResNet, terms: list[Term], free: list[bool]) -> dict[str, Any]:
    D = rn.degree_bound()
    names = parameter_names(rn)
    return {
        "equation": equation_text(terms, D),
        "degree": D,
        "variables": [n for n, f in zip(names, free) if f],
        "fixed_at_zero": [n for n, f in zip(names, free) if not f],
    }


def implicit_claim(rn: ResNet, result: dict[str, Any]) -> dict[str, Any]:
    layer = "x + v sigma(w x + b)" if rn.outer else "x + sigma(w x + b)"
    acts = "; ".join(
        "sigma = " + " + ".join(f"{rat_str(c)} t^{k}" for k, c in enumerate(a) if c != 0)
        for a in rn.activations
    )
    fixed = result["fixed_at_zero"]
    text = (
        f"Proved in Coq (theorem image_in_hypersurface): for the scalar ResNet of depth "
        f"{rn.depth} with layers {layer} ({acts}), parameters {', '.join(result['variables'])}"
        + (f" and {', '.join(fixed)} fixed at 0" if fixed else "")
        + f", at every rational value of the parameters the coefficients of F(x) = c0 + c1 x + "
        f"... + c{result['degree']} x^{result['degree']} satisfy {result['equation']} = 0, so "
        "the image of the parametrisation lies in this hypersurface. Kernel-checked: it is an "
        "identity of polynomials in the parameters (so it holds over R and C too; Coq states "
        "it over Q)."
    )
    coeffs = coefficient_sentence(result)
    if coeffs:
        text += f" At the given theta: {coeffs}"
    return {"text": text, "cites": ["math.md §2 (Figure 1)"]}


def _pmul(p: list[Fraction], q: list[Fraction]) -> list[Fraction]:
    out = [Fraction(0)] * (len(p) + len(q) - 1)
    for i, a in enumerate(p):
        for j, b in enumerate(q):
            out[i + j] += a * b
    return out


def scalar_coefficients(rn: ResNet, theta: list[Fraction]) -> list[Fraction]:
    """[c_0, ..., c_D] with F_theta(x) = sum_k c_k x^k for a width-1 ResNet, D = prod deg
    sigma_l: h <- h + sigma_l(w_l h + b_l) (times v_l when outer), in exact univariate
    polynomial arithmetic over Q (own code; the kernels recompute it with their term lists)."""
    h = [Fraction(0), Fraction(1)]
    step = 3 if rn.outer else 2
    for ell, sigma in enumerate(rn.activations):
        w, b = theta[step * ell], theta[step * ell + 1]
        pre = [c * w for c in h]
        pre[0] += b
        v: list[Fraction] = [Fraction(0)]
        for c in reversed(sigma):  # Horner: v <- v * pre + c
            v = _pmul(v, pre)
            v[0] += c
        if rn.outer:
            v = [c * theta[step * ell + 2] for c in v]
        h = [a + b for a, b in zip(h + [Fraction(0)] * len(v), v + [Fraction(0)] * len(h))]
    D = rn.degree_bound()
    if any(c != 0 for c in h[D + 1 :]):
        raise ValueError("F_theta has degree above the bound prod deg sigma_l")
    return (h + [Fraction(0)] * (D + 1))[: D + 1]


def univariate_text(cs: list[Fraction], var: str = "x") -> str:
    """c_0 + c_1 x + ... as canonical text (highest degree first; parses back)."""
    return format_polynomial({(k,): c for k, c in enumerate(cs) if c != 0}, (var,))


def coefficient_fields(rn: ResNet, theta: list[Fraction]) -> dict[str, Any]:
    """The result fields of the coefficients of F_theta (width one only; else none)."""
    if rn.width != 1:
        return {}
    return {"F_coefficients": [rat_str(c) for c in scalar_coefficients(rn, theta)]}


def coefficient_sentence(result: dict[str, Any]) -> str:
    """The claim's sentence on the coefficients of F_theta ('' unless width one): what
    ScalarMeaning.v's theorem, stated in the Coq file as f_coefficients, proves."""
    cs = result.get("F_coefficients")
    if cs is None:
        return ""
    text = univariate_text([Fraction(c) for c in cs])
    names = ", ".join(coefficient_names(len(cs) - 1))
    return (
        f"Proved in Coq (theorem f_coefficients): F_theta(x) = {text} at every rational x "
        f"(the coefficients ({names}) = ({', '.join(cs)}); the kernel recomputes F_theta "
        "from theta and checks that F_theta minus this polynomial is zero)."
    )


def instance_of(rn: ResNet, theta: list[Fraction]) -> KR.ResNetInstance:
    return KR.ResNetInstance(
        rn.width,
        [[(c.numerator, c.denominator) for c in a] for a in rn.activations],
        rn.outer,
        [(t.numerator, t.denominator) for t in theta],
    )


PYTHON_ONLY = "Python-computed, not kernel-checked"


def quadratic_locus(sigma: tuple[Fraction, ...], theta: list[Fraction]) -> Fraction:
    """w1 w2 (4a (b2 w1 - b1 w2) + (4ac - b^2) w1 w2 + 2b (w1 - w2)) for sigma = a t^2 + b t + c
    (a != 0) in both layers of the scalar two-layer ResNet x + sigma(w x + b): the gcd of the
    4x4 minors of the Jacobian of theta -> (c_0, ..., c_4), and the cofactors vanish only where
    w1 w2 = 0, so theta is critical iff this is 0 (derived with sympy; pinned by
    tests/test_resnet_critical.py). For sigma = a t^2 it is 4a w1 w2 (b2 w1 - b1 w2), math.md §2."""
    c, b, a = sigma
    w1, b1, w2, b2 = theta
    inner = 4 * a * (b2 * w1 - b1 * w2) + (4 * a * c - b * b) * w1 * w2 + 2 * b * (w1 - w2)
    return w1 * w2 * inner


def python_diagnostics(rn: ResNet, theta: list[Fraction]) -> dict[str, Any] | None:
    """The diagnostics of math.md §2 the kernels do not recompute (scalar, two layers, no V):
    w1 w2 (for deg sigma >= 3, rank < 4 forces w1 w2 = 0: necessary, not sufficient), and
    where both layers carry the same quadratic sigma the value of its critical locus: the
    formula w1_w2_(b2_w1-b1_w2) of math.md §2 when sigma = a t^2, else `quadratic_locus`."""
    if not (rn.width == 1 and rn.depth == 2 and not rn.outer):
        return None
    w1, b1, w2, b2 = theta
    out: dict[str, Any] = {"checked_by": PYTHON_ONLY, "w1_w2": rat_str(w1 * w2)}
    s1, s2 = rn.activations
    if s1 == s2 and len(s1) - 1 == 2:
        if s1[0] == 0 and s1[1] == 0:
            out["w1_w2_(b2_w1-b1_w2)"] = rat_str(w1 * w2 * (b2 * w1 - b1 * w2))
        else:
            out["critical_locus"] = "w1 w2 (4a (b2 w1 - b1 w2) + (4ac - b^2) w1 w2 + 2b (w1 - w2))"
            out["critical_locus_value"] = rat_str(quadratic_locus(s1, theta))
    return out


def diagnostics(rn: ResNet, theta: list[Fraction]) -> dict[str, Any]:
    """The conditions of math.md §2 that hold at theta: zero rows and dead layers (recomputed
    by the kernels), and under `python_computed` those only the Python checker recomputes."""
    inst = instance_of(rn, theta)
    out: dict[str, Any] = {
        "zero_rows": [list(rc) for rc in KR.zero_rows(inst)],
        "dead_layers": KR.dead_layers(inst),
    }
    py = python_diagnostics(rn, theta)
    if py is not None:
        out["python_computed"] = py
    return out


def locus_result(
    rn: ResNet,
    theta: list[Fraction],
    terms: list[Term],
    g: int,
    power: int,
    scale: int,
    minors: int,
) -> dict[str, Any]:
    """The result fields of a critical-locus certificate: P as text in the parameter names,
    its value at theta, and the data of the checked identities (g, the number of minors, k,
    lam)."""
    poly = {tuple(e): Fraction(a, b) for (a, b), e in terms}
    value = sum((c * _mono(theta, e) for e, c in poly.items()), Fraction(0))
    return {
        "equation": format_polynomial(poly, tuple(parameter_names(rn))),
        "value_at_theta": rat_str(value),
        "minor_size": g,
        "minors": minors,
        "power": power,
        "scale": scale,
    }


def _mono(theta: list[Fraction], es: tuple[int, ...]) -> Fraction:
    out = Fraction(1)
    for t, e in zip(theta, es):
        out *= t**e
    return out


def locus_sentence(loc: dict[str, Any]) -> str:
    """What the critical-locus identities prove, and what stays cited."""
    g, k, lam = loc["minor_size"], loc["power"], loc["scale"]
    return (
        f"Critical locus (kernel-checked identities): the kernel recomputes from the network "
        f"the Jacobian J of theta -> (c_0, ..., c_D) as polynomials in the parameters and all "
        f"{loc['minors']} of its {g}x{g} minors M_i (cofactor expansion), and checks "
        f"M_i = Q_i P for every i and sum_i c_i M_i = {lam} P^{k} for the shipped Q_i, c_i and "
        f"P = {loc['equation']} (nonzero), and P(theta) = {loc['value_at_theta']}. Hence (by "
        f"hand: a domain of characteristic 0) at every real or complex theta all {g}x{g} "
        f"minors vanish iff P(theta) = 0, and some minor is a nonzero polynomial. Cited, not "
        f"kernel-checked: rank J < {g} iff all {g}x{g} minors vanish, and rank J = rank of "
        f"d(theta -> F_theta) (the c_k are coordinates on polynomials of degree <= D); with "
        f"these, the generic rank is {g} and theta is critical iff P(theta) = 0."
    )


def critical_claim(rn: ResNet, result: dict[str, Any]) -> dict[str, Any]:
    layer = "x + V sigma(W x + b)" if rn.outer else "x + sigma(W x + b)"
    net = f"the ResNet of width {rn.width} and depth {rn.depth} with layers {layer}"
    d = result["diagnostics"]
    diag = (
        f"Diagnostics at theta (kernel-checked): zero rows of W {d['zero_rows'] or 'none'}, "
        f"dead layers {d['dead_layers'] or 'none'}."
    )
    py = d.get("python_computed")
    if py is not None:
        diag += f" {PYTHON_ONLY}: w1 w2 = {py['w1_w2']}"
        if all(len(a) - 1 >= 3 for a in rn.activations):
            diag += " (math.md §2: for deg sigma >= 3 a critical point has w1 w2 = 0)"
        if "w1_w2_(b2_w1-b1_w2)" in py:
            diag += (
                f"; w1 w2 (b2 w1 - b1 w2) = {py['w1_w2_(b2_w1-b1_w2)']}, whose zero set is the "
                "critical locus for sigma = a t^2 (math.md §2)"
            )
        elif "critical_locus" in py:
            diag += (
                f"; {py['critical_locus']} = {py['critical_locus_value']} for sigma = "
                "a t^2 + b t + c, whose zero set is the critical locus (the gcd of the 4x4 "
                "minors of the Jacobian, derived with sympy)"
            )
        diag += "."
    if result["critical"]:
        text = (
            f"Kernel-checked: theta is a critical point of the parametrisation of {net}: the "
            f"rank of the Jacobian of theta -> F_theta at theta is at most "
            f"{result['rank_upper_at_theta']} (a rank at this point, not the functional "
            f"dimension; an exact integer kernel basis, certificate "
            f"{result['at_certificate']}), while at another point the rank is at least "
            f"{result['generic_rank_lower']} (certificate {result['generic_certificate']}), so "
            f"the generic rank (the functional dimension, >= {result['generic_rank_lower']}) "
            f"exceeds the rank at theta."
        )
    else:
        text = (
            f"Kernel-checked: theta is not a critical point of the parametrisation of {net}: "
            f"the rank of the Jacobian at theta is at least {result['rank_lower_at_theta']} "
            f"(certificate {result['at_certificate']}), which equals min(#params, dim of the "
            f"output space) = {result['rank_bound']}, an upper bound at every point."
        )
    coeffs = coefficient_sentence(result)
    if result.get("critical_locus") is not None:
        coeffs = (coeffs + " " if coeffs else "") + locus_sentence(result["critical_locus"])
    return {
        "text": f"{text} {diag}" + (f" {coeffs}" if coeffs else ""),
        "cites": ["math.md §2 (polynomial ResNets)"],
    }


def summary_orbit(r: dict[str, Any]) -> str:
    """One line of what a ResNet orbit certificate established."""
    return (
        f"{r['field']} orbit of size {r['orbit_size']} in the fiber ({r['generators']} generators)"
    )


def summary_critical(r: dict[str, Any]) -> str:
    """One line of what a ResNet critical-point certificate established."""
    if r["critical"]:
        return (
            f"critical: rank <= {r['rank_upper_at_theta']} at theta < "
            f"{r['generic_rank_lower']} generically"
        )
    return f"not critical: rank {r['rank_lower_at_theta']} at theta = {r['rank_bound']}"


def summary_implicit(r: dict[str, Any]) -> str:
    """One line of what a ResNet implicit-equation certificate established."""
    return f"{r['equation']} = 0 on the image (degree {r['degree']})"


# ------------------------------------------------------------------ orbits (math.md §2)
def orbit_result(rn: ResNet, theta: list[Fraction], field: str) -> dict[str, Any]:
    syms = symmetries(rn, field)
    layers = []
    for a in rn.activations:
        s = layer_symmetry(list(a))
        real = s["t0"] is not None and s["g"] % 2 == 0
        cplx = s["t0"] is not None and s["g"] >= 2
        layers.append(
            {
                "t0": None if s["t0"] is None else rat_str(s["t0"]),
                "g": s["g"],
                "group": ("{+1,-1}" if real else "trivial")
                if field == "real"
                else (f"mu_{s['g']}" if cplx else "trivial"),
            }
        )
    size = orbit_size(rn, theta, syms)
    listed: Any = None
    if not syms:  # the trivial group: the orbit is {theta}, in both fields a real vector
        listed = [[rat_str(x) for x in theta]]
    elif field == "real" and size <= MAX_LISTED:
        listed = [[rat_str(x) for x in e] for e in real_orbit(rn, theta, syms)]
    elif field == "complex" and syms and size <= MAX_LISTED_COMPLEX:
        listed = complex_orbit(rn, theta, syms)
    return {
        "field": field,
        "layers": layers,
        "generators": sum(rn.width for _ in syms),
        "orbit_size": size,
        "orbit": listed,
        **coefficient_fields(rn, theta),
    }


FIBER_THEOREM_DEGREE = 3  # math.md §2: the fiber theorem needs deg sigma >= 3


def fiber_theorem_failures(rn: ResNet) -> list[str]:
    """The hypotheses of math.md §2's fiber theorem ("degree >= 3 and no linear term after
    translating the input: the generic fiber equals the orbit") that fail here, one phrase per
    layer and hypothesis, as read here: deg sigma_l >= 3, and a rational critical point t0 of
    sigma_l (so sigma_l(s + t0) has no linear term). Empty when the theorem applies.

    Degree 2 is outside it for a reason, not by caution: for sigma = t^2, width 1, depth 2 and
    theta = (4, 3, -5, 2) the real fiber has 8 points against an orbit of 4 (math.md §2: degree
    2 genuinely fails; pinned with sympy by tests/test_orbit_claim_hypotheses.py)."""
    out = []
    for ell, a in enumerate(rn.activations):
        d = len(a) - 1
        if d < FIBER_THEOREM_DEGREE:
            out.append(f"layer {ell}: deg sigma = {d} < {FIBER_THEOREM_DEGREE}")
        elif not rational_critical_points(list(a)):
            out.append(f"layer {ell}: sigma has no rational critical point")
    return out


def cited_hypotheses(rn: ResNet) -> bool:
    """The hypotheses of math.md §2's fiber theorem as read here: every activation has degree
    >= 3 and a rational critical point t0 (so sigma(s + t0) has no linear term)."""
    return not fiber_theorem_failures(rn)


def not_applicable(rn: ResNet, claimed: str) -> str:
    """The sentence of a claim whose instance is outside the fiber theorem: which hypothesis
    fails in which layer, and that only `claimed` is claimed."""
    failures = fiber_theorem_failures(rn)
    text = (
        "The fiber theorem of math.md §2 (the generic fiber equals the orbit) does not apply, "
        "so it is not cited: its hypotheses, every activation of degree >= 3 with a rational "
        f"critical point, fail here ({'; '.join(failures)}; computed by the checker, not "
        f"kernel-checked); only {claimed} is claimed."
    )
    if any(len(a) - 1 == 2 for a in rn.activations):
        text += (
            " For degree 2 the real fiber can be larger than the orbit (math.md §2: extra real "
            "fiber points beyond the sign flips)."
        )
    return text


def trivial_claim(rn: ResNet, result: dict[str, Any]) -> dict[str, Any]:
    """The claim of an orbit certificate for the trivial group: the orbit is {theta}."""
    layer = "x + V sigma(W x + b)" if rn.outer else "x + sigma(W x + b)"
    real = result["field"] == "real"
    which = (
        "an odd k (so sigma(2 t0 - y) != sigma(y): no flip zeta = -1)"
        if real
        else "k not divisible by g, for every g = 2, ..., deg sigma (so no mu_g)"
    )
    parts = [
        f"Kernel-checked: for the ResNet of width {rn.width} and depth {rn.depth} with layers "
        f"{layer}, the {'real ' if real else ''}root-of-unity group of every layer is trivial: "
        f"a symmetry at any t0 forces t0 = -a_(d-1) / (d a_d) (d = deg sigma), and there the "
        f"translate sigma(s + t0) has a term s^k with {which}. Hence the group acting on "
        f"theta is trivial and the orbit of theta is {{theta}} (size 1); the kernel checks "
        f"that the orbit listed is exactly theta.",
    ]
    coeffs = coefficient_sentence(result)
    if coeffs:
        parts.append(coeffs)
    where = "real fiber" if real else "complex fiber"
    if rn.outer:
        parts.append(
            "With the outer matrices V the fiber is larger (permuting neurons with the columns "
            "of V, and rescaling for monomial activations, also fix F); only that theta lies in "
            "its fiber is claimed."
        )
    elif cited_hypotheses(rn):
        parts.append(
            "Cited, not kernel-checked: for activations of degree >= 3 whose translate "
            "sigma(s + t0) at a critical point t0 has no linear term, the generic fiber equals "
            f"the orbit of this group (math.md §2); here the group is trivial, so for generic "
            f"theta the {where} is {{theta}} (the hypotheses, degree >= 3 and a rational "
            "critical point of every sigma, are computed by the checker, not kernel-checked); "
            "with a rank certificate of full rank at theta the fiber is locally finite there."
        )
    else:
        parts.append(not_applicable(rn, "that theta lies in its fiber"))
    if real and any(s["g"] >= 3 for s in result["layers"]):
        parts.append('Over C the group is larger (mu_g per neuron); see field = "complex".')
    return {"text": " ".join(parts), "cites": ["math.md §2 (polynomial ResNets)"]}


# The kernel evaluates theta and every orbit element at every lattice point; more evaluations
# than this would not be a quick check (as MAX_EQUIV_POINTS for an MLP's kind equiv).
MAX_ORBIT_EVALUATIONS = 5000


def orbit_degree(rn: ResNet) -> int:
    """D = prod of the activations' degrees: the kernel's degree_bound, >= the total degree of
    every output of F (a layer x + sigma(W x + b) has degree max(1, deg sigma))."""
    return KN.degree_bound([list(cs) for cs in rn.activations])  # type: ignore[arg-type]


def orbit_points(rn: ResNet) -> int:
    """The number of points of the principal lattice {x in N^n : |x| <= D}, D = orbit_degree."""
    return comb(rn.width + orbit_degree(rn), rn.width)


def orbit_theorem(rn: ResNet, result: dict[str, Any]) -> bool:
    """Whether a real orbit certificate ends in the theorem orbit_in_fiber (Coq,
    NNCert/meaning/resnet/OrbitMeaning.v) and its kernel check check_resnet_orbit: a
    non-trivial real orbit whose lattice evaluations (orbit size x lattice points) are at most
    MAX_ORBIT_EVALUATIONS."""
    if result.get("field") != "real" or not result.get("generators"):
        return False
    return int(result["orbit_size"]) * orbit_points(rn) <= MAX_ORBIT_EVALUATIONS


def orbit_theorem_sentence(rn: ResNet, result: dict[str, Any]) -> str:
    """What the Coq theorem at the end of a real orbit certificate proves, or why there is
    none."""
    if result.get("field") != "real" or not result.get("generators"):
        return ""
    d, points = orbit_degree(rn), orbit_points(rn)
    if not orbit_theorem(rn, result):
        return (
            f"The listed orbit is not re-evaluated by the kernel ({result['orbit_size']} points "
            f"x {points} lattice points > {MAX_ORBIT_EVALUATIONS}): the Coq file ends in the "
            "generator checks."
        )
    return (
        "Proved in Coq (theorem orbit_in_fiber, from the kernel's check_resnet_orbit by "
        "NNCert/meaning/resnet/OrbitMeaning.v): each of the "
        f"{result['orbit_size']} listed parameter vectors gives the same outputs over Q as "
        f"theta at every point of the principal lattice {{x in N^{rn.width} : |x| <= {d}}} "
        f"({points} points; D = {d} bounds the degree of F), the networks evaluated by the "
        "forward evaluator of NNCert/meaning/Jacobian.v, and the listed vectors are pairwise "
        f"distinct. That the lattice is unisolvent for degree <= D ({UNISOLVENT}), so that "
        "they give the same F everywhere, is cited. Lean checks the computation only."
    )


def orbit_claim(rn: ResNet, result: dict[str, Any]) -> dict[str, Any]:
    if result["generators"] == 0:
        return trivial_claim(rn, result)
    layer = "x + V sigma(W x + b)" if rn.outer else "x + sigma(W x + b)"
    size = result["orbit_size"]
    cert = [i for i, s in enumerate(result["layers"]) if s["group"] != "trivial"]
    groups = ", ".join(f"layer {i}: {result['layers'][i]['group']} at t0 = "
                       f"{result['layers'][i]['t0']}" for i in cert)  # fmt: skip
    if result["field"] == "real":
        ident = (
            "sigma(2 t0 - y) = sigma(y) identically, so flipping any neuron of that layer "
            "(w -> -w, b -> 2 t0 - b) leaves its output function unchanged whatever its weights"
        )
        where = "real fiber"
    else:
        ident = (
            "sigma(t0 + zeta (y - t0)) = sigma(y) identically for every zeta in mu_g (an identity "
            "in Q[z]/(z^g - 1)), so w -> zeta w, b -> zeta (b - t0) + t0 on any neuron of that "
            "layer leaves its output function unchanged whatever its weights"
        )
        where = "complex fiber"
    trivial = [i for i, s in enumerate(result["layers"]) if s["group"] == "trivial"]
    parts = [
        f"Kernel-checked: for the ResNet of width {rn.width} and depth {rn.depth} with layers "
        f"{layer}, in each certified layer ({groups}) the activation satisfies {ident}. Hence "
        f"the product of these groups over all {result['generators']} neurons maps theta into "
        f"its {where}: an orbit of {size} parameter vectors. Each of the "
        f"{result['generators']} generators is also checked at theta: the moved parameters are "
        f"computed exactly and the layer's map is unchanged on a unisolvent lattice.",
    ]
    if trivial:
        parts.append(
            f"Layers {trivial} carry no such symmetry (no rational critical point t0 with "
            + ("an even translate" if result["field"] == "real" else "exponent gcd g >= 2")
            + "; computed, not kernel-checked)."
        )
    if rn.outer:
        parts.append(
            "With the outer matrices V the fiber is larger than this orbit (permuting neurons "
            "with the columns of V, and rescaling for monomial activations, also fix F); only "
            "the inclusion is claimed."
        )
    elif cited_hypotheses(rn):
        parts.append(
            "Cited, not kernel-checked: for activations of degree >= 3 whose translate has no "
            "linear term, the generic fiber equals the orbit of this group (math.md §2); the "
            "hypotheses, degree >= 3 and a rational critical point of every sigma, are computed "
            "by the checker, not kernel-checked; with a rank certificate of full rank at theta "
            "the fiber is locally finite there."
        )
    else:
        parts.append(not_applicable(rn, f"the inclusion of this orbit in the {where}"))
    coeffs = coefficient_sentence(result)
    if coeffs:
        parts.append(coeffs + " Every element of the orbit has this F.")
    if result["field"] == "real" and any(s["g"] >= 3 for s in result["layers"]):
        parts.append('Over C the group is larger (mu_g per neuron); see field = "complex".')
    theorem = orbit_theorem_sentence(rn, result)
    cites = ["math.md §2 (polynomial ResNets)"]
    if theorem:
        parts.append(theorem)
        if orbit_theorem(rn, result):
            cites.append(UNISOLVENT)
    return {"text": " ".join(parts), "cites": cites}
