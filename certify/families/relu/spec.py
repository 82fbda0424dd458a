"""Spec parsing for ReLU networks (family "relu", math.md §3): widths, parameters, the second
parameter vector of kind equiv (`[other]`), and given batches of kind rank.

Every error names the file, the field and what was expected (SpecError, exit code 2). The
family interface certify/spec.py calls: `parse_network`, `check_requests`, `TOP_FIELDS`."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from certify.checker.ir import ReLUNet as ReLUNet
from certify.errors import SpecError
from certify.spec_values import (
    check_params,
    explicit_theta,
    int_field,
    random_theta,
    rational_field,
)

MAX_RELU_WIDTH = 1024
MAX_RELU_LAYERS = 16
MAX_BATCH = 4096  # points of a given batch (checked before they are parsed)
# Top-level tables of a spec beyond name/network/parameters/certificate that this family reads
# (certify/spec.py refuses them for the other families).
TOP_FIELDS = ("other",)
# certify from-torch (certify/torch_import.py): the torch activation modules whose Sequential of
# Linear layers is a network of this family, each with the [network] fields it sets beyond
# family and widths. Family relu has no `source` field: the conversion is recorded in a TOML
# comment only, which no claim repeats.
TORCH_ACTIVATIONS: dict[str, dict[str, str]] = {"ReLU": {}}
TORCH_SOURCE = False


def _widths(net: dict[str, Any], src: str) -> tuple[int, ...]:
    widths = net.get("widths")
    if not isinstance(widths, list) or not 2 <= len(widths) <= MAX_RELU_LAYERS + 1:
        raise SpecError(
            src,
            "network.widths",
            f"a list of 2 to {MAX_RELU_LAYERS + 1} positive integer widths (n0, ..., nL)",
            widths,
        )
    out = []
    for i, w in enumerate(widths):
        fld = f"network.widths[{i}]"
        if isinstance(w, bool) or not isinstance(w, int):
            raise SpecError(src, fld, "an integer width", w)
        if w < 1:
            raise SpecError(src, fld, "a positive width (a layer of width 0 has no neurons)", w)
        if w > MAX_RELU_WIDTH:
            raise SpecError(src, fld, f"a width <= {MAX_RELU_WIDTH}", w)
        out.append(w)
    return tuple(out)


def _theta(
    table: Any, net: ReLUNet, src: str, where: str, seed_tag: str
) -> tuple[int | None, tuple[Fraction, ...], int]:
    """(seed, theta, range) of a [parameters] or [other] table."""

    if not isinstance(table, dict):
        raise SpecError(src, where, f"a [{where}] table", table)
    for k in table:
        if k not in {"seed", "range", "weights", "biases"}:
            raise SpecError(src, f"{where}.{k}", "seed, range, weights or biases", "unknown")
    prange = int_field(table.get("range", 5), src, f"{where}.range", 1, 10**6)
    if "weights" not in table:
        if "biases" in table:
            raise SpecError(src, f"{where}.biases", f"only together with {where}.weights")
        seed = int_field(table.get("seed", 0), src, f"{where}.seed", 0)
        return seed, random_theta(net, seed if seed_tag == "" else seed + 10**9, prange), prange
    if "seed" in table:
        raise SpecError(src, where, "either seed or explicit weights and biases, not both")
    if "biases" not in table:
        raise SpecError(src, f"{where}.biases", "one bias vector per layer (missing)")
    try:
        theta = explicit_theta(table, net, src)  # type: ignore[arg-type]
    except SpecError as e:
        raise SpecError(src, e.field.replace("parameters", where, 1), e.expected, e.got) from None
    return None, theta, prange


def parse_network(
    data: dict[str, Any], net: dict[str, Any], src: str
) -> tuple[ReLUNet, int | None, tuple[Fraction, ...], int]:
    """The [network] and [parameters] tables of a ReLU spec."""
    for k in net:
        if k not in {"family", "widths"}:
            raise SpecError(src, f"network.{k}", "family or widths (family relu)", "unknown")
    relu = ReLUNet(_widths(net, src))

    check_params(relu.n_params, src, "network.widths")
    seed, theta, prange = _theta(data.get("parameters", {"seed": 0}), relu, src, "parameters", "")
    return relu, seed, theta, prange


def parse_batch(v: Any, src: str, fld: str) -> tuple[tuple[Fraction, ...], ...]:
    """A batch: a non-empty list of points, each a list of integers or "p/q" strings."""

    if not isinstance(v, list) or not v:
        raise SpecError(src, fld, "a non-empty list of input points [[x1, ...], ...]", v)
    if len(v) > MAX_BATCH:
        raise SpecError(src, fld, f"at most {MAX_BATCH} input points", len(v))
    out = []
    for j, z in enumerate(v):
        if not isinstance(z, list) or not z:
            raise SpecError(src, f"{fld}[{j}]", "an input point: a list of numbers", z)
        if len(z) > MAX_RELU_WIDTH:
            raise SpecError(
                src, f"{fld}[{j}]", f"a point of at most {MAX_RELU_WIDTH} numbers", len(z)
            )
        out.append(tuple(rational_field(c, src, f"{fld}[{j}][{i}]") for i, c in enumerate(z)))
    return tuple(out)


def check_requests(
    data: dict[str, Any],
    net: ReLUNet,
    theta: tuple[Fraction, ...],
    certs_raw: list[Any],
    certs: list[Any],
    src: str,
) -> tuple[list[Any], tuple[Fraction, ...] | None]:
    """Validate the certificate requests of a ReLU spec against the network; return them and
    the second parameter vector (kind equiv: the [other] table) or None."""
    from certify.families.relu.model import forward

    kinds = {req.kind for req in certs}
    for i, req in enumerate(certs):
        if req.kind == "equiv" and req.options.get("batch") is not None:
            raise SpecError(src, f"certificate[{i}].batch", "no batch (kind equiv)")
        for k in ("upper", "max_grid"):
            if isinstance(certs_raw[i], dict) and k in certs_raw[i]:
                raise SpecError(src, f"certificate[{i}].{k}", "not a field of family relu")
        if req.options.get("batch") is None:
            continue
        for j, z in enumerate(req.options.get("batch")):
            fld = f"certificate[{i}].batch[{j}]"
            if len(z) != net.widths[0]:
                raise SpecError(src, fld, f"a point of the input width {net.widths[0]}", len(z))
            _, pres = forward(net.widths, theta, z)
            for ell, pre in enumerate(pres):
                for k, a in enumerate(pre):
                    if a == 0:
                        raise SpecError(
                            src,
                            fld,
                            f"a point on no bent hyperplane (the pre-activation of hidden neuron "
                            f"{k} of layer {ell + 1} is 0 there)",
                            [str(c) for c in z],
                        )
    if "equiv" in kinds:
        if net.widths[0] != 1:
            raise SpecError(src, "network.widths[0]", "1 (kind equiv: one-dimensional input)")
        if "other" not in data:
            raise SpecError(src, "other", "an [other] table: the second parameter vector")
        _, other, _ = _theta(data["other"], net, src, "other", "other")
        return certs, other
    if "other" in data:
        raise SpecError(src, "other", "only with a certificate of kind equiv")
    return certs, None


def batch_options(c: dict[str, Any], kind: str, src: str, where: str) -> dict[str, Any]:
    """Kinds rank and equiv of a ReLU network: a given `batch` of points, if any."""
    if "batch" not in c:
        return {}
    return {"batch": parse_batch(c["batch"], src, f"{where}.batch")}
