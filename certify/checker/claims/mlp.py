"""Claim texts and result fields of family mlp's kind equiv: do two parameter points theta and
theta2 of one polynomial MLP give the same map x -> f(x)?

Shared by the generator (which writes them) and the checker (which rebuilds them from what it
checked and compares exactly), so no sentence can say more than what was checked or cited.

The mathematics (math.md §1, design.md §6). Every output of a polynomial MLP is a polynomial
in x of total degree at most D = prod_l deg sigma_l (an affine layer keeps the degree, an
activation of degree d multiplies it by d). The principal lattice
{x in N^n0 : x_1 + ... + x_n0 <= D} is unisolvent for polynomials of total degree <= D: one
that vanishes at all its C(n0 + D, n0) points is zero. So f_theta = f_theta2 as polynomial
maps (hence on all of R^n0 and C^n0) iff they agree at every lattice point, and a point where
they differ shows that they are different maps."""

from __future__ import annotations

from math import comb
from typing import Any

from certify.checker.facts.networks import activation_texts
from certify.checker.ir import MLP
from certify.checker.kernel.net import degree_bound as kernel_degree_bound

UNISOLVENT = "design.md §6: the principal lattice is unisolvent for total degree <= D"
# The kernel evaluates both networks at every lattice point; more would not be a quick check.
MAX_EQUIV_POINTS = 5000
COQ_SAME = (
    "Proved in Coq (theorem same_on_lattice, from the kernel's check by "
    "NNCert/meaning/EquivMeaning.v): at every point of that lattice the outputs over Q are "
    "equal, both networks evaluated by the forward evaluator of NNCert/meaning/Jacobian.v; "
    "the unisolvence of the lattice is cited. Lean checks the computation only."
)
COQ_DIFFER = (
    "Proved in Coq (theorem differ_at_x, from the kernel's check by "
    "NNCert/meaning/EquivMeaning.v): the outputs over Q at x differ, both networks evaluated "
    "by the forward evaluator of NNCert/meaning/Jacobian.v. Lean checks the computation only."
)


def degree_bound(mlp: MLP) -> int:
    """D = prod of the activations' degrees (1 without hidden layers): the kernel's
    degree_bound of the network's activations (canonical: last coefficient nonzero)."""
    return kernel_degree_bound([list(cs) for cs in mlp.activations])  # type: ignore[arg-type]


def lattice_size(n0: int, degree: int) -> int:
    """The number of points of the principal lattice {x in N^n0 : |x| <= degree}."""
    return comb(n0 + degree, n0)


def network_text(mlp: MLP) -> str:
    acts = "; ".join(activation_texts(mlp))
    return (
        f"the polynomial MLP with widths {list(mlp.widths)}, "
        f"{'with' if mlp.bias else 'without'} biases, activations [{acts}] (one per hidden layer)"
    )


def equiv_result(mlp: MLP, witness: dict[str, Any]) -> dict[str, Any]:
    """What the checked witness gives: equivalent (and the lattice it was decided on), or an
    input x where the two maps differ."""
    d = degree_bound(mlp)
    if witness["kind"] == "differ":
        return {"equivalent": False, "x": witness["x"], "degree_bound": d, "lattice_points": None}
    return {
        "equivalent": True,
        "x": None,
        "degree_bound": d,
        "lattice_points": lattice_size(mlp.widths[0], d),
    }


def equiv_claim(mlp: MLP, result: dict[str, Any]) -> dict[str, Any]:
    net = network_text(mlp)
    if not result["equivalent"]:
        return {
            "text": (
                f"Kernel-checked: for {net}, f_theta(x) != f_theta2(x) at the integer input "
                f"x = {result['x']} (exact rational arithmetic): the two parameter points "
                f"realise different maps. {COQ_DIFFER}"
            ),
            "cites": [],
        }
    d, m = result["degree_bound"], result["lattice_points"]
    return {
        "text": (
            f"Kernel-checked: for {net}, f_theta(x) = f_theta2(x) exactly at all {m} points of "
            f"the principal lattice {{x in N^{mlp.widths[0]} : |x| <= {d}}}, and every output "
            f"of either network is a polynomial in x of total degree <= {d} (the product of the "
            f"activations' degrees). That lattice is unisolvent for total degree <= {d} "
            f"(cited), so f_theta = f_theta2 as polynomial maps: the two parameter points "
            f"realise the same function on all of R^{mlp.widths[0]}. {COQ_SAME}"
        ),
        "cites": [UNISOLVENT],
    }


def summary_equiv(r: dict[str, Any]) -> str:
    """One line of what a polynomial-MLP equivalence certificate established."""
    if not r["equivalent"]:
        return f"not equivalent (they differ at x = {r['x']})"
    points, degree = r["lattice_points"], r["degree_bound"]
    return f"equivalent (they agree on the {points}-point lattice of degree {degree})"
