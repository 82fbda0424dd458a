"""Claim texts and derived result fields of rank certificates.

Shared by the generator (which writes them) and the checker (which rebuilds them from the
checked numbers and compares exactly), so no sentence in a certificate, manifest, report or
rendered file can say more than what was checked or cited."""

from __future__ import annotations

from typing import Any

from certify.models import mlp as M
from certify.spec import MLP

LOWER_CITE = "design.md §6: rank lower bound by a nonsingular minor mod p"
USEVICH = "Usevich et al., arXiv:2506.17093, Lemma 4"
KTB = "Kileel-Trager-Bruna, expected dimension of polynomial networks"


def rank_result(mlp: MLP, r: int, u: int | None) -> dict[str, Any]:
    return {
        "params": mlp.n_params,
        "symmetry_dim": M.symmetry_dim(mlp),
        "expected_dim": M.expected_dim(mlp),
        "rank_lower": r,
        "rank_upper_at_point": u,
        "rank_at_point": r if u == r else None,
    }


def upper_summary(kind: str, bound: int, mlp: MLP) -> dict[str, Any]:
    return {
        "kind": kind,
        "bound": bound,
        "grid": {"dim": mlp.widths[0], "degree": mlp.degree_bound()},
    }


def rank_claim(
    mlp: MLP, result: dict[str, Any], upper: dict[str, Any] | None, p: int
) -> dict[str, Any]:
    n, r, u = result["params"], result["rank_lower"], result["rank_upper_at_point"]
    acts = "; ".join(M.activation_texts(mlp))
    parts = [
        f"Kernel-checked: for the MLP with widths {list(mlp.widths)}, "
        f"{'with' if mlp.bias else 'without'} biases, activations [{acts}] (one per hidden "
        f"layer), the Jacobian of theta -> (f_theta(x_s))_s at the given integer samples x_s "
        f"and rational point theta has a nonsingular {r}x{r} minor mod {p}, so "
        f"rank d(theta -> f_theta)(theta) >= {r}; by lower semicontinuity the generic rank "
        f"(functional dimension) of the architecture is >= {r} (#params {n})."
    ]
    cites = [LOWER_CITE]
    if upper is not None:
        what = (
            "the tangents of the per-neuron scaling symmetry"
            if upper["kind"] == "scaling"
            else "an integer basis of the kernel (exact nullspace)"
        )
        g = upper["grid"]
        parts.append(
            f"Kernel-checked: {n - upper['bound']} independent integer vectors ({what}) "
            f"annihilate d(theta -> f_theta)(theta), verified exactly on the unisolvent lattice "
            f"{{x in N^{g['dim']} : |x| <= {g['degree']}}}; so the rank at theta is <= "
            f"{upper['bound']}."
        )
    elif u == n:
        parts.append(f"The rank at theta is trivially <= #params = {n}.")
    if u is not None and u == r:
        parts.append(f"Hence the rank of the parametrisation at theta is exactly {r}.")
    sym = result["symmetry_dim"]
    if sym:
        parts.append(
            f"Cited, not kernel-checked: the per-neuron scaling group of dimension {sym} "
            f"acts at every point ({USEVICH}), so the generic rank is <= {n - sym}."
        )
        cites.append(USEVICH)
    if M.is_ktb(mlp):
        parts.append(f"Kileel-Trager-Bruna expected dimension: {result['expected_dim']}.")
        cites.append(KTB)
    else:
        parts.append(
            f"Expected dimension min(#params - {sym}, dim of the output space) = "
            f"{result['expected_dim']}."
        )
    if r < result["expected_dim"]:
        parts.append(
            f"The certified rank {r} is below the expected dimension {result['expected_dim']}."
        )
    return {"text": " ".join(parts), "cites": cites}
