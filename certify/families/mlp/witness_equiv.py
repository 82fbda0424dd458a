"""Equivalence certificates of polynomial MLPs (kind equiv of family mlp): do the parameter
points theta and theta2 (the request's `weights` and `biases`) give the same map?

The generator evaluates both networks exactly (Fractions, its own evaluator in
families/polynomial/mlp_model.py, not the kernel's dual numbers) at the points of the
principal lattice {x in N^n0 : |x| <= D}, D the product of the activations' degrees, in the
kernel's order. The first point where they differ is a `differ` witness; if there is none,
the witness is `same` and the kernel re-walks the whole lattice (unisolvent for total degree
<= D: claims/mlp.py)."""

from __future__ import annotations

from typing import Any

from certify import __version__
from certify.checker.claims.mlp import degree_bound, equiv_claim, equiv_result
from certify.checker.ir import MLP, envelope, network_json, rat_str
from certify.checker.kernel.lists import lattice
from certify.families.polynomial.mlp_model import evaluate
from certify.request import CertRequest, Spec


def first_difference(mlp: MLP, theta: Any, other: Any) -> list[int] | None:
    """The first lattice point (in the kernel's order) where f_theta and f_other differ."""
    for x in lattice(mlp.widths[0], degree_bound(mlp)):
        if evaluate(mlp, theta, x) != evaluate(mlp, other, x):
            return x
    return None


def generate(spec: Spec, req: CertRequest) -> dict[str, Any]:
    mlp = spec.network
    assert isinstance(mlp, MLP)
    other = req.options["other"]
    x = first_difference(mlp, spec.theta, other)
    witness: dict[str, Any] = {"kind": "same"} if x is None else {"kind": "differ", "x": x}
    result = equiv_result(mlp, witness)
    return envelope(
        "mlp",
        "equiv",
        req.name,
        {
            "network": network_json(mlp),
            "theta": [rat_str(t) for t in spec.theta],
            "other": [rat_str(t) for t in other],
        },
        witness,
        result,
        equiv_claim(mlp, result),
        generator={"tool": "nn-certify", "version": __version__},
    )
