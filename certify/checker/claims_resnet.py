"""Results and claims of the ResNet kinds implicit and critical (trusted; shared by the
generator and the checker).

Implicit equations of scalar polynomial ResNets (math.md §2, Figure 1): the data of a
certificate that P(c_0, ..., c_D) = 0 on the image of theta -> (c_0, ..., c_D), where
F_theta(x) = sum_k c_k x^k. Critical points: the diagnostics of math.md §2 at theta and the
sentence a critical-point certificate supports."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from certify.checker import kernel_resnet as KR
from certify.checker.ir import ResNet, format_polynomial, rat_str

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
        f"Kernel-checked polynomial identity: for the scalar ResNet of depth {rn.depth} with "
        f"layers {layer} ({acts}), parameters {', '.join(result['variables'])}"
        + (f" and {', '.join(fixed)} fixed at 0" if fixed else "")
        + f", the coefficients of F(x) = c0 + c1 x + ... + c{result['degree']} "
        f"x^{result['degree']} satisfy {result['equation']} = 0 identically in the parameters, "
        f"so the image of the parametrisation lies in this hypersurface."
    )
    return {"text": text, "cites": ["math.md §2 (Figure 1)"]}


def instance_of(rn: ResNet, theta: list[Fraction]) -> KR.ResNetInstance:
    return KR.ResNetInstance(
        rn.width,
        [[(c.numerator, c.denominator) for c in a] for a in rn.activations],
        rn.outer,
        [(t.numerator, t.denominator) for t in theta],
    )


def diagnostics(rn: ResNet, theta: list[Fraction]) -> dict[str, Any]:
    """The conditions of math.md §2 that hold at theta."""
    inst = instance_of(rn, theta)
    out: dict[str, Any] = {
        "zero_rows": [list(rc) for rc in KR.zero_rows(inst)],
        "dead_layers": KR.dead_layers(inst),
    }
    if rn.width == 1 and rn.depth == 2 and not rn.outer:
        w1, b1, w2, b2 = theta
        out["w1_w2"] = rat_str(w1 * w2)
        if all(len(a) - 1 == 2 for a in rn.activations):
            out["w1_w2_(b2_w1-b1_w2)"] = rat_str(w1 * w2 * (b2 * w1 - b1 * w2))
    return out


def critical_claim(rn: ResNet, result: dict[str, Any]) -> dict[str, Any]:
    layer = "x + V sigma(W x + b)" if rn.outer else "x + sigma(W x + b)"
    net = f"the ResNet of width {rn.width} and depth {rn.depth} with layers {layer}"
    d = result["diagnostics"]
    diag = (
        f"Diagnostics at theta (kernel-checked): zero rows of W {d['zero_rows'] or 'none'}, "
        f"dead layers {d['dead_layers'] or 'none'}."
    )
    if result["critical"]:
        text = (
            f"Kernel-checked: theta is a critical point of the parametrisation of {net}: the "
            f"rank of d(theta -> F_theta) at theta is at most {result['rank_upper_at_theta']} "
            f"(an exact integer kernel basis, certificate {result['at_certificate']}), while at "
            f"another point it is at least {result['generic_rank_lower']} (certificate "
            f"{result['generic_certificate']}), so the generic rank exceeds the rank at theta."
        )
    else:
        text = (
            f"Kernel-checked: theta is not a critical point of the parametrisation of {net}: "
            f"the rank at theta is at least {result['rank_lower_at_theta']} (certificate "
            f"{result['at_certificate']}), which equals min(#params, dim of the output space) "
            f"= {result['rank_bound']}, an upper bound at every point."
        )
    return {"text": f"{text} {diag}", "cites": ["math.md §2 (polynomial ResNets)"]}
