"""Claim sentences shared by every family's rank certificates (MLP, ResNet, ReLU)."""

from __future__ import annotations

from typing import Any

LOWER_CITE = "design.md §6: rank lower bound by a nonsingular minor mod p"


def coq_rank_lower(r: int, jacobian: str) -> str:
    """What the Coq file's theorem rank_lower says and rests on (NNCert/meaning/RankSound.v): it is
    derived from the kernel's own check, so the step from a nonsingular minor mod p to the
    rank over Q is proved there, not cited; Lean checks the same computation and cites it."""
    return (
        "Proved in Coq (theorem rank_lower, from the kernel's check by "
        "NNCert/meaning/RankSound.v): "
        f"{r} <= the rank over Q of {jacobian}, each entry defined as the derivative at t = 0 "
        f"of the network evaluated at theta + t e_j over Q[t] (NNCert/meaning/RankMeaning.v); the "
        f"proof shows that the kernel's reverse mode mod p computes these derivatives and that "
        f"a minor nonsingular mod the prime p has a nonzero rational determinant, and assumes "
        f"only the specification axioms of Coq's primitive 63-bit integers. In Lean that step "
        f"is cited ({LOWER_CITE}), and that p is prime is checked in Coq only (p_prime)."
    )


def coq_rank_generic(r: int) -> str:
    """What the Coq file's theorem rank_lower_generic says (NNCert/meaning/GenericRank.v, MLP
    and ResNet): the generic step from the rank at theta, proved along every line through theta,
    and the two steps that stay cited."""
    return (
        "Proved in Coq (theorem rank_lower_generic, from the same check by "
        "NNCert/meaning/GenericRank.v): for every rational direction v, the same Jacobian at "
        f"theta + t v has rank >= {r} over Q at all but finitely many rational t (along the line "
        "the nonsingular minor's determinant is a polynomial in t, nonzero at t = 0): lower "
        f"semicontinuity along every line through theta (hence, not stated in Coq, the generic "
        f"rank of that Jacobian is >= {r}). Proved in Coq (theorem differential_rank_lower, "
        "NNCert/meaning/Differential.v): the differential of theta -> f_theta at theta has rank "
        f">= {r}, i.e. {r} directions (unit vectors) have directional derivatives that are "
        "linearly independent functions of the input over Q; and (theorem "
        "differential_rank_lower_generic) the same at all but finitely many points of every "
        "line through theta. Cited, not proved: that the differential's generic rank is the "
        "functional dimension (the dimension of the image). Lean states none of these steps."
    )


def coq_rank_upper(u: int, jacobian: str, lattice: bool) -> str:
    """What the Coq file's theorem rank_upper says (NNCert/meaning/UpperSound.v, UpperSoundReLU.v),
    derived from the kernel's upper-bound check; for MLPs and ResNets the Jacobian is the one
    on the lattice, whose unisolvence (so that this bounds the rank at theta on all inputs)
    stays cited."""
    text = (
        f"Proved in Coq (theorem rank_upper, from the kernel's check): the rank over Q of "
        f"{jacobian} is <= {u}"
    )
    if lattice:
        return text + " (that the lattice is unisolvent is cited, design.md §6)."
    return text + "."


def summary_rank(r: dict[str, Any]) -> str:
    """One line of what a rank certificate established (every family's rank kind): the
    certified bounds, the paper's expected dimension, and the generic rank mod p when the
    search fell short of it."""
    up = r["rank_upper_at_point"]
    line = (
        f"rank >= {r['rank_lower']}"
        + (f", <= {up} at theta" if up is not None else "")
        + f" (#params {r['params']}, expected {r['expected_dim']}"
    )
    if r.get("dim_after_symmetries") is not None:
        line += f", {r['dim_after_symmetries']} after symmetries"
    line += ")"
    if r.get("functional_dimension") is not None and r.get("defect") is not None:
        line += f"; functional dimension {r['functional_dimension']}, defect {r['defect']}"
    g = r.get("generic_rank_mod_p")
    if g is not None and not r.get("target_reached"):
        line += (
            f"; TARGET NOT REACHED: generic rank mod p {g}, best {r['rank_lower']}"
            " (a special theta: the spec's own, or the search fell short)"
        )
    return line
