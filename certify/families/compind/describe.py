"""A composition-independence certificate (polynomials and an activation, no network) in one
line (referee) and in the results table."""

from __future__ import annotations

from fractions import Fraction
from typing import Any


def architecture(cert: dict[str, Any]) -> str:
    inst = cert.get("instance") or {}
    polys = inst.get("polynomials_text") or []
    var = ", ".join(inst.get("variables") or [])
    if inst.get("activation") is not None:
        from certify.checker.ir import format_univariate

        try:
            coeffs = [Fraction(str(c)) for c in inst["activation"]]
            sig = "sigma = " + format_univariate(coeffs, "z")
        except Exception:  # a format the printer does not know: say so, do not guess
            sig = "sigma given by coefficients"
    elif inst.get("search"):
        sig = "sigma searched by degree"
    elif inst.get("generic_degree") is not None:
        sig = f"generic sigma of degree {inst['generic_degree']}"
    else:
        sig = "sigma = z^" + str(inst.get("power"))
    if not polys:
        return sig + (", origin-passing" if inst.get("origin") else "")
    return (
        f"{len(polys)} polynomials in {var or 'x'}, {sig}"
        + (", origin-passing" if inst.get("origin") else "")
        + (", with the constant 1" if inst.get("bias") else "")
    )


def shape(cert: dict[str, Any]) -> str:
    return ""


def activation(cert: dict[str, Any]) -> str:
    act = (cert.get("instance") or {}).get("activation")
    return "" if act is None else str(act)


def bias(cert: dict[str, Any]) -> Any:
    return ""
