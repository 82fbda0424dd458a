"""Identifiability instances of bias-free polynomial MLPs (math.md §1, §4): the kernel checks
that the network is not a subnetwork and the hypothesis on sigma that it can check; the
tool names the published result that then gives identifiability up to hidden-neuron
permutations, and attaches a rank certificate at the same point."""

from __future__ import annotations

from typing import Any

from certify import __version__
from certify.checker.claims.compind import identifiability_plan, mlp_claim, mlp_result
from certify.checker.ir import envelope, network_json, rat_str
from certify.checker.kernel import compind as KC
from certify.errors import CertifyError
from certify.families.polynomial import witness_rank as rank_witness
from certify.request import CertRequest, Spec


def why_subnetwork(widths: list[int], th: list[int]) -> str:
    Ws = KC.split_layers(widths[0], widths[1:], th)
    for j, (W1, W2) in enumerate(zip(Ws, Ws[1:]), start=1):
        for i, row in enumerate(W1):
            if KC.is_zero_row(row):
                return f"neuron {i} of hidden layer {j} is inactive (zero incoming weights)"
            if KC.is_zero_row(KC.column(W2, i)):
                return f"neuron {i} of hidden layer {j} is inactive (zero outgoing weights)"
            if KC.row_in(row, W1[i + 1 :]):
                return f"neuron {i} of hidden layer {j} is redundant (repeated incoming row)"
    return "malformed network"


def generate(spec: Spec, req: CertRequest) -> list[dict[str, Any]]:
    mlp = spec.network
    assert mlp is not None
    widths = list(mlp.widths)
    th = [int(t) for t in spec.theta]
    sigma = list(mlp.activations[0])
    if not KC.check_not_subnetwork(widths, th):
        raise CertifyError(
            f"{req.name}: the network is a subnetwork ({why_subnetwork(widths, th)}), so no "
            f"identifiability statement up to permutations can hold; nothing to certify"
        )
    theorem, rmin, _family = identifiability_plan(widths, sigma)
    facts: list[dict[str, Any]] = []
    if theorem.startswith("width one"):
        facts.append({"kind": "prop33", "sigma": [rat_str(c) for c in sigma]})
    facts.insert(
        0,
        {
            "kind": "mlp",
            "widths": widths,
            "sigma": [rat_str(c) for c in sigma],
            "theta": th,
            "rmin": rmin,
        },
    )
    rank_req = CertRequest(
        "rank", f"{req.name}-rank", req.prime, req.upper, req.max_grid, req.attempts
    )
    rank_cert = rank_witness.generate(spec, rank_req)
    if [rat_str(t) for t in spec.theta] != rank_cert["instance"]["theta"]:
        # the rank generator may reseed theta; the attached witness must be at this point
        rank_req = CertRequest(
            "rank", rank_req.name, req.prime, req.upper, req.max_grid, 1, attempts_given=True
        )
        rank_cert = rank_witness.generate(spec, rank_req)
    instance = {"network": network_json(mlp), "theta": [str(t) for t in th]}
    result = mlp_result(instance, theorem, rank_cert["name"], rank_cert["result"]["rank_lower"])
    cert = envelope(
        "mlp",
        "mlp-identifiable",
        req.name,
        instance,
        {"facts": facts},
        result,
        mlp_claim(instance, result, facts),
        generator={"tool": "nn-certify", "version": __version__},
    )
    return [cert, rank_cert]
