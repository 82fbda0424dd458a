"""Spec parsing for family "mlp" (fully connected polynomial networks): the network table,
its parameters, the setting of kind mlp-identifiable and the second parameter point of kind
equiv (the [[certificate]] table's `weights` and `biases`, as in [parameters]). Every error
is a SpecError naming file, field and expectation. The family interface certify/spec.py
calls (every family's spec module has it): `parse_network` and `check_requests`."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

from certify.checker.check.mlp_equiv import lattice_within
from certify.checker.claims.mlp import MAX_EQUIV_POINTS, degree_bound, lattice_size
from certify.checker.ir import MLP
from certify.errors import SpecError
from certify.request import CertRequest
from certify.spec_values import (
    check_params,
    explicit_theta,
    int_field,
    parameters_table,
    polynomial_activation,
    random_theta,
    required,
)

MAX_WIDTH = 10_000
MAX_LAYERS = 64
NET_FIELDS = {"family", "widths", "activation", "bias"}


def parse_network(
    data: dict[str, Any], net: dict[str, Any], src: str
) -> tuple[MLP, int | None, tuple[Fraction, ...], int]:
    """The [network] table (widths, one activation or one per hidden layer, bias) and the
    [parameters] table (a seed and a range, or explicit weights and biases): the network,
    the seed (None for explicit weights), the point theta, the range."""
    for k in net:
        if k not in NET_FIELDS:
            raise SpecError(src, f"network.{k}", "family, widths, activation or bias", "unknown")
    widths = required(net, "widths", src, "network.", "a list of at least two positive integers")
    if not isinstance(widths, list) or len(widths) < 2 or len(widths) > MAX_LAYERS + 1:
        raise SpecError(
            src, "network.widths", f"a list of 2 to {MAX_LAYERS + 1} positive integers", widths
        )
    widths_t = tuple(
        int_field(w, src, f"network.widths[{i}]", 1, MAX_WIDTH) for i, w in enumerate(widths)
    )
    n_hidden = len(widths_t) - 2
    act = required(net, "activation", src, "network.", "a polynomial string or a list of them")
    if isinstance(act, list):
        if len(act) != n_hidden:
            raise SpecError(
                src,
                "network.activation",
                f"one activation per hidden layer ({n_hidden} for widths {list(widths_t)})",
                act,
            )
        acts = tuple(
            polynomial_activation(a, src, f"network.activation[{i}]") for i, a in enumerate(act)
        )
    else:
        one = polynomial_activation(act, src, "network.activation")
        acts = tuple(one for _ in range(n_hidden))
    bias = net.get("bias", False)
    if not isinstance(bias, bool):
        raise SpecError(src, "network.bias", "true or false", bias)
    mlp = MLP(widths_t, acts, bias)
    check_params(mlp.n_params, src, "network.widths")

    params = parameters_table(data, src, ("seed", "range", "weights", "biases"))
    prange = int_field(params.get("range", 5), src, "parameters.range", 1, 10**6)
    if "weights" in params:
        if "seed" in params:
            raise SpecError(src, "parameters", "either seed or explicit weights, not both")
        return mlp, None, explicit_theta(params, mlp, src), prange
    seed = int_field(params.get("seed", 0), src, "parameters.seed", 0)
    if "biases" in params:
        raise SpecError(src, "parameters.biases", "only together with parameters.weights")
    return mlp, seed, random_theta(mlp, seed, prange), prange


def check_requests(
    data: dict[str, Any],
    net: MLP,
    theta: tuple[Fraction, ...],
    certs_raw: list[Any],
    certs: list[CertRequest],
    src: str,
) -> tuple[list[CertRequest], None]:
    """The requests on an MLP: kind mlp-identifiable needs its setting; kind equiv gets its
    second parameter point (options["other"])."""
    out = []
    for i, req in enumerate(certs):
        if req.kind == "mlp-identifiable":
            check_identifiable_network(net, theta, src, i)
        if req.kind == "equiv":
            other = parse_other(certs_raw[i], net, src, f"certificate[{i}]")
            req = dataclasses.replace(req, options={**req.options, "other": other})
        out.append(req)
    return out, None


def parse_other(c: dict[str, Any], net: MLP, src: str, where: str) -> tuple[Fraction, ...]:
    """Kind equiv: the second parameter point, from the request's `weights` (and `biases`
    when the network has them), in the format of [parameters]; the lattice the kernel walks
    (C(n0 + D, n0) points, D the product of the activations' degrees) must stay within
    MAX_EQUIV_POINTS."""
    if "weights" not in c:
        raise SpecError(src, f"{where}.weights", "the second parameter point's weights (missing)")
    d = degree_bound(net)
    if not lattice_within(net.widths[0], d, MAX_EQUIV_POINTS):
        size = lattice_size(net.widths[0], d) if d < 10**6 else "too many"
        raise SpecError(
            src,
            "network.widths",
            f"kind equiv ({where}) compares the two networks on the lattice of "
            f"C(n0 + D, n0) points, D = {d} the product of the activations' degrees; "
            f"at most {MAX_EQUIV_POINTS} (here {size}): a smaller input width or lower degrees",
        )
    return explicit_theta(c, net, src, where)


def check_identifiable_network(
    mlp: MLP | None, theta: tuple[Fraction, ...], src: str, i: int
) -> None:
    """Kind mlp-identifiable: a bias-free MLP with one activation, sigma(0) = 0, integer
    weights (the setting of math.md §1, §4)."""
    assert mlp is not None
    if not isinstance(mlp, MLP):
        raise SpecError(src, "network.family", "mlp (certificate kind mlp-identifiable)")
    if mlp.bias:
        raise SpecError(src, "network.bias", f"false (certificate[{i}] is mlp-identifiable)")
    if len(mlp.widths) < 3:
        raise SpecError(src, "network.widths", "at least one hidden layer (mlp-identifiable)")
    if len(set(mlp.activations)) != 1:
        raise SpecError(src, "network.activation", "one activation for every hidden layer")
    if mlp.activations[0][0] != 0:
        raise SpecError(src, "network.activation", "sigma(0) = 0 (mlp-identifiable)")
    if any(t.denominator != 1 for t in theta):
        raise SpecError(src, "parameters.weights", "integer weights (mlp-identifiable)")
