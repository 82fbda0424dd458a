"""Spec parsing for family "resnet" (constant-width polynomial ResNets): the network table, its
parameters, and the equation of kind implicit. Every error is a SpecError naming file, field
and expectation. The family interface certify/spec.py calls: `parse_network` and
`check_requests`."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from certify.checker.claims.resnet import coefficient_names
from certify.checker.ir import ResNet
from certify.errors import SpecError
from certify.request import CertRequest
from certify.spec_values import (
    bool_field,
    check_params,
    int_field,
    parameters_table,
    poly_text_cap,
    polynomial_activation,
    random_theta,
    rational_field,
    required,
)

MAX_RESNET_DEGREE = (
    4_096  # degree of F (product of the activation degrees): orbit/critical/implicit
)


def parse_network(
    data: dict[str, Any], net: dict[str, Any], src: str
) -> tuple[ResNet, int | None, tuple[Fraction, ...], int]:
    for k in net:
        if k not in {"family", "width", "depth", "activation", "outer"}:
            raise SpecError(
                src, f"network.{k}", "family, width, depth, activation or outer", "unknown"
            )
    n = int_field(
        required(net, "width", src, "network.", "the width n"), src, "network.width", 1, 64
    )
    L = int_field(
        required(net, "depth", src, "network.", "the depth L"), src, "network.depth", 1, 32
    )
    act = required(net, "activation", src, "network.", "a polynomial string or one per layer")
    if isinstance(act, list):
        if len(act) != L:
            raise SpecError(src, "network.activation", f"one activation per layer ({L})", act)
        acts = tuple(
            polynomial_activation(a, src, f"network.activation[{i}]") for i, a in enumerate(act)
        )
    else:
        acts = tuple(polynomial_activation(act, src, "network.activation") for _ in range(L))
    outer = net.get("outer", False)
    if not isinstance(outer, bool):
        raise SpecError(src, "network.outer", "true or false (x + V sigma(W x + b))", outer)
    rn = ResNet(n, acts, outer)
    check_params(rn.n_params, src, "network.depth")
    params = parameters_table(data, src, ("seed", "range", "weights", "biases", "outer_weights"))
    prange = int_field(params.get("range", 5), src, "parameters.range", 1, 10**6)
    if "weights" not in params:
        seed = int_field(params.get("seed", 0), src, "parameters.seed", 0)
        return rn, seed, random_theta(rn, seed, prange), prange
    if "seed" in params:
        raise SpecError(src, "parameters", "either seed or explicit weights, not both")
    Ws, bs = params["weights"], params.get("biases")
    Vs = params.get("outer_weights")
    if not isinstance(Ws, list) or len(Ws) != L:
        raise SpecError(src, "parameters.weights", f"a list of {L} square {n} x {n} matrices", Ws)
    if not isinstance(bs, list) or len(bs) != L:
        raise SpecError(src, "parameters.biases", f"a list of {L} vectors of length {n}", bs)
    if outer and (not isinstance(Vs, list) or len(Vs) != L):
        raise SpecError(src, "parameters.outer_weights", f"a list of {L} {n} x {n} matrices", Vs)
    if not outer and Vs is not None:
        raise SpecError(src, "parameters.outer_weights", "only with network.outer = true")
    theta: list[Fraction] = []
    for ell in range(L):
        fld = f"parameters.weights[{ell}]"
        W, b = Ws[ell], bs[ell]
        if not isinstance(W, list) or len(W) != n:
            raise SpecError(src, fld, f"a square {n} x {n} matrix", W)
        if not isinstance(b, list) or len(b) != n:
            raise SpecError(src, f"parameters.biases[{ell}]", f"a vector of length {n}", b)
        for i, row in enumerate(W):
            if not isinstance(row, list) or len(row) != n:
                raise SpecError(src, f"{fld}[{i}]", f"a row of {n} numbers (W is square)", row)
            theta.extend(rational_field(v, src, f"{fld}[{i}][{j}]") for j, v in enumerate(row))
            theta.append(rational_field(b[i], src, f"parameters.biases[{ell}][{i}]"))
        if outer:
            V = Vs[ell]  # type: ignore[index]
            vf = f"parameters.outer_weights[{ell}]"
            if not isinstance(V, list) or len(V) != n:
                raise SpecError(src, vf, f"a square {n} x {n} matrix", V)
            for i, row in enumerate(V):
                if not isinstance(row, list) or len(row) != n:
                    raise SpecError(src, f"{vf}[{i}]", f"a row of {n} numbers", row)
                theta.extend(rational_field(v, src, f"{vf}[{i}][{j}]") for j, v in enumerate(row))
    return rn, None, tuple(theta), prange


def orbit_options(c: dict[str, Any], kind: str, src: str, where: str) -> dict[str, Any]:
    """Kind orbit: `field`, the real group {+1, -1} or the complex one (mu_g per neuron)."""
    field = c.get("field", "real")
    if field not in ("real", "complex"):
        raise SpecError(src, f"{where}.field", "'real' or 'complex'", field)
    return {"field": field}


def critical_options(c: dict[str, Any], kind: str, src: str, where: str) -> dict[str, Any]:
    """Kind critical: `locus` (default false): also certify the critical locus P = 0 (scalar
    ResNets; sympy and flint search for the Bezout identity, see resnet/locus.py)."""
    return {"locus": bool_field(c, "locus", False, src, where)}


def implicit_options(c: dict[str, Any], kind: str, src: str, where: str) -> dict[str, Any]:
    """Kind implicit: the `equation` in c0, c1, ... and `bias` (false: every bias is 0)."""
    equation = required(c, "equation", src, f"{where}.", "a polynomial in c0, c1, ...")
    if not isinstance(equation, str):
        raise SpecError(src, f"{where}.equation", "a polynomial string in c0, c1, ...", equation)
    return {"equation": equation, "bias": bool_field(c, "bias", True, src, where)}


def check_requests(
    data: dict[str, Any],
    rn: ResNet,
    theta: tuple[Fraction, ...],
    certs_raw: list[Any],
    certs: list[CertRequest],
    src: str,
) -> tuple[list[CertRequest], None]:
    """The requests on a ResNet: orbit needs activations of degree >= 2; orbit, critical and
    implicit expand F symbolically, so the degree of F is capped; implicit needs a scalar
    ResNet and an equation in its coefficients."""
    for i, req in enumerate(certs):
        if req.kind == "orbit" and any(len(a) - 1 < 2 for a in rn.activations):
            raise SpecError(src, "network.activation", "activations of degree >= 2 (orbit)")
        if req.kind in ("orbit", "critical", "implicit") and rn.degree_bound() > MAX_RESNET_DEGREE:
            raise SpecError(
                src, "network.activation",
                f"activation degrees whose product (the degree of F) is at most "
                f"{MAX_RESNET_DEGREE} (certificate kind {req.kind})", rn.degree_bound(),
            )  # fmt: skip
        if req.kind == "implicit":
            check_implicit(rn, req, src, i)
    return certs, None


def check_implicit(rn: ResNet, req: Any, src: str, i: int) -> None:
    """Kind implicit: a scalar ResNet and an equation that parses in c0, ..., c_D."""
    from certify.algebra.poly import parse_polynomial

    where = f"certificate[{i}]"
    if rn.width != 1:
        raise SpecError(
            src, "network.width", "1 (certificate kind implicit: scalar ResNets)", rn.width
        )
    names = coefficient_names(rn.degree_bound())
    poly_text_cap(req.options["equation"], src, f"{where}.equation")
    try:
        parse_polynomial(req.options["equation"], names)
    except ValueError as e:
        raise SpecError(
            src,
            f"{where}.equation",
            f"a polynomial in {', '.join(names)} ({e})",
            req.options["equation"],
        ) from None
