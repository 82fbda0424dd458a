"""Claim texts and derived result fields of rank certificates.

Shared by the generator (which writes them) and the checker (which rebuilds them from the
checked numbers and compares exactly), so no sentence in a certificate, manifest, report or
rendered file can say more than what was checked or cited."""

from __future__ import annotations

from typing import Any

from certify.checker.claims.common import (
    LOWER_CITE,
    coq_rank_generic,
    coq_rank_lower,
    coq_rank_upper,
)
from certify.checker.facts import networks as M
from certify.checker.ir import MLP, ResNet

USEVICH = "Usevich et al., arXiv:2506.17093, Lemma 4"
KTB = "Kileel-Trager-Bruna, expected dimension of polynomial networks"


AH = "Alexander-Hirschowitz, J. Algebraic Geom. 4 (1995)"


def generic_source(generic: dict[str, Any]) -> str:
    """What generic_rank_mod_p is: evidence at random points mod a prime, not a certificate."""
    k = generic["points"]
    where = "1 random point" if k == 1 else f"{k} random points"
    which = "the rank" if k == 1 else "the largest rank"
    special = "the point is" if k == 1 else "the points are"
    return (
        f"evidence, not a certificate: {which} over GF({generic['prime']}) of the sample "
        f"Jacobian at {where} (theta and samples random residues; recorded in "
        f"witness.generic and recomputed by the checker, not by the kernel or Coq); a lower "
        f"bound on the generic rank, equal to it unless {special} special"
    )


def rank_result(
    mlp: MLP,
    r: int,
    u: int | None,
    upper_kind: str | None = None,
    generic: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The result fields of a rank certificate, all derived from the checked numbers: r the
    kernel-checked lower bound, u the kernel-checked (or trivial) upper bound at theta,
    upper_kind the kind of the vectors behind u (None: no upper witness) and generic the
    checker-recomputed mod-p rank at random points ({"prime", "points", "rank"}: the
    generator's target; None: not recorded).

    expected_dim is the formula of the paper that defines it (Kileel-Trager-Bruna for
    bias-free monomial MLPs) or the naive bound; dim_after_symmetries the count after the
    known continuous symmetries; defect = expected_dim - functional_dimension when the latter
    is pinned."""
    fd, why = functional_dimension(mlp, r, u, upper_kind)
    edim = M.expected_dim(mlp)
    out: dict[str, Any] = {
        "params": mlp.n_params,
        "symmetry_dim": M.symmetry_dim(mlp),
        "expected_dim": edim,
        "expected_dim_source": M.expected_dim_source(mlp),
        "dim_after_symmetries": M.dim_after_symmetries(mlp),
        "dim_after_symmetries_source": M.dim_after_symmetries_source(mlp),
        "generic_rank_mod_p": None if generic is None else generic["rank"],
        "generic_rank_mod_p_source": None if generic is None else generic_source(generic),
        "target_reached": None if generic is None else r >= generic["rank"],
        "rank_lower": r,
        "rank_upper_at_point": u,
        "rank_at_point": r if u == r else None,
        "functional_dimension": fd,
        "functional_dimension_reason": why,
        "defect": None if fd is None else edim - fd,
        "defect_reason": None
        if fd is not None
        else "not computed: the functional dimension is not pinned by this certificate",
    }
    return out


def functional_dimension(
    mlp: MLP, r: int, u: int | None, upper_kind: str | None
) -> tuple[int | None, str | None]:
    """(generic rank, reason) when the certificate pins it, else (None, None).

    The generic rank (functional dimension) is >= r by lower semicontinuity. It is <= r when
    r reaches min(#params, dim of the output space), which bounds the rank everywhere; or when
    the upper bound u = r at theta comes from symmetry tangents (kinds scaling, symmetry):
    those are polynomial in theta, lie in the kernel of the differential at every point (the
    flows fix f_theta) and are independent at theta, hence at generic points; or when r =
    #params - dim of the per-neuron scaling group, whose tangents are independent and in the
    kernel at generic points (Usevich et al., Lemma 4); or, for a bias-free shallow network
    (d, k, 1) with sigma = c t^r, when r is the Alexander-Hirschowitz dimension of the
    secant variety (cited). An exact nullspace at theta (kind
    nullspace) bounds the rank at theta only, and pins nothing."""
    lsc = (
        f"the generic rank is >= rank_lower = {r} (lower semicontinuity: proved in Coq for the "
        f"sample Jacobian and for the differential along every line through theta, "
        f"rank_lower_generic and differential_rank_lower_generic; the identification with the "
        f"functional dimension is cited)"
    )
    if r >= trivial_upper(mlp):
        what = "#params" if r == mlp.n_params else "the dimension of the output polynomial space"
        return r, f"{lsc} and <= {r} = {what}, a bound on the rank at every point"
    if u == r and upper_kind in ("scaling", "symmetry"):
        group = {
            "scaling": "the per-neuron scalings",
            "symmetry": "the per-neuron scalings and the orthogonal group of the quadratic last "
            "hidden layer",
        }[upper_kind]
        return r, (
            f"{lsc} and <= rank_upper_at_point = {r}: the checked kernel vectors are the "
            f"tangents of {group}, which fix f_theta at every point; polynomial in theta and "
            f"independent at theta, they are independent at generic points"
        )
    s = M.symmetry_dim(mlp)
    if s and r == mlp.n_params - s:
        return r, (
            f"{lsc} and <= #params - {s}: the per-neuron scaling group of dimension {s} acts "
            f"with generic orbits of that dimension ({USEVICH})"
        )
    if M.alexander_hirschowitz(mlp) == r:
        return r, (
            f"{lsc} and <= {r}: the image is the affine cone over a secant variety of a "
            f"Veronese variety, of dimension {r} by the Alexander-Hirschowitz theorem ({AH}; "
            f"cited, not checked)"
        )
    return None, None


def trivial_upper(mlp: MLP) -> int:
    """min(#params, dimension of the space the outputs live in): the rank of the
    parametrisation is at most this everywhere (ResNets: #params)."""
    if isinstance(mlp, ResNet):
        return mlp.n_params
    return min(mlp.n_params, M.output_space_dim(mlp))


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
    if isinstance(mlp, ResNet):
        layer = "x + V sigma(W x + b)" if mlp.outer else "x + sigma(W x + b)"
        net = (
            f"the ResNet of width {mlp.width} and depth {mlp.depth} with layers {layer}, "
            f"activations [{acts}] (one per layer)"
        )
    else:
        net = (
            f"the MLP with widths {list(mlp.widths)}, "
            f"{'with' if mlp.bias else 'without'} biases, activations [{acts}] (one per hidden "
            f"layer)"
        )
    parts = [
        f"Kernel-checked: for {net}, the Jacobian of theta -> (f_theta(x_s))_s at the given "
        f"integer samples x_s and rational point theta has a nonsingular {r}x{r} minor mod {p}, so "
        f"rank d(theta -> f_theta)(theta) >= {r}; by lower semicontinuity the generic rank "
        f"(functional dimension) of the architecture is >= {r} (#params {n}).",
        coq_rank_lower(r, "that Jacobian"),
        coq_rank_generic(r),
    ]
    cites = [LOWER_CITE]
    if upper is not None:
        what = {
            "scaling": "the tangents of the per-neuron scaling symmetry",
            "symmetry": "the tangents of the per-neuron scalings and of the orthogonal symmetry "
            "of the quadratic last hidden layer",
        }.get(upper["kind"], "an integer basis of the kernel (exact nullspace)")
        g = upper["grid"]
        parts.append(
            f"Kernel-checked: {n - upper['bound']} independent integer vectors ({what}) "
            f"annihilate d(theta -> f_theta)(theta), verified exactly on the unisolvent lattice "
            f"{{x in N^{g['dim']} : |x| <= {g['degree']}}}; so the rank at theta is <= "
            f"{upper['bound']}."
        )
        parts.append(
            coq_rank_upper(upper["bound"], "the Jacobian at the points of that lattice", True)
        )
    elif u == n:
        parts.append(f"The rank at theta is trivially <= #params = {n}.")
    elif u is not None and u == trivial_upper(mlp):
        parts.append(
            f"The rank at theta is trivially <= {u}, the dimension of the space of output "
            f"polynomials (every f_theta lies in it)."
        )
    if u is not None and u == r:
        parts.append(
            f"Hence the rank of the Jacobian at theta is exactly {r} (a rank at this point, "
            f"not the functional dimension)."
        )
    sym = result["symmetry_dim"]
    if sym:
        parts.append(
            f"Cited, not kernel-checked: the per-neuron scaling group of dimension {sym} "
            f"acts at every point ({USEVICH}), so the generic rank is <= {n - sym}."
        )
        cites.append(USEVICH)
    parts.append(f"Expected dimension {result['expected_dim']}: {result['expected_dim_source']}.")
    if M.is_ktb(mlp):
        cites.append(KTB)
    parts.append(
        f"Dimension after the known continuous symmetries {result['dim_after_symmetries']}: "
        f"{result['dim_after_symmetries_source']}."
    )
    g = result.get("generic_rank_mod_p")
    if g is not None:
        parts.append(
            f"Generic rank mod p {g}, the target of the generator's search: "
            f"{result['generic_rank_mod_p_source']}."
        )
        if not result["target_reached"]:
            parts.append(
                f"Target not reached: the certified rank {r} is below the generic rank mod p "
                f"{g}, so this theta is a special point: the spec's own theta, or one where "
                "every attempt of the generator's search fell short (generator.search "
                "records which)."
            )
    fd = result["functional_dimension"]
    if fd is not None:
        parts.append(
            f"Functional dimension of the architecture: {fd} "
            f"({result['functional_dimension_reason']})."
        )
        if AH in result["functional_dimension_reason"]:
            cites.append(AH)
        parts.append(f"Defect (expected dimension - functional dimension): {result['defect']}.")
    elif r < result["expected_dim"]:
        parts.append(
            f"The certified rank {r} is below the expected dimension {result['expected_dim']}; "
            f"the functional dimension is not pinned, so no defect is claimed."
        )
    return {"text": " ".join(parts), "cites": cites}
