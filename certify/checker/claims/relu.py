"""Claim texts and result fields of ReLU certificates (math.md §3).

Shared by the generator (which writes them) and the checker (which rebuilds them from what it
checked and compares exactly), so no sentence can say more than what was checked or cited."""

from __future__ import annotations

from typing import Any

from certify.checker.claims.common import LOWER_CITE, coq_rank_lower, coq_rank_upper

SCALING = "math.md §3: positive scaling of a hidden neuron preserves F (ReLU(lam a) = lam ReLU(a))"
GRILLO_MONTUFAR = "Grillo-Montufar, arXiv:2605.03601 (functional dimension D - H)"
WIDTH_ONE = "math.md §3: width-one layers break identifiability"
WIDTH_ONE_CHAIN = (
    "nn-certify: ReLU chains of width-one hidden layers have functional dimension <= "
    "n0 + 2 nL + 1 (proof sketch: certify/checker/claims/relu.py, width_one_bound)"
)


def width_one_bound(net: Any) -> int | None:
    """n0 + 2 nL + 1 for widths (n0, 1, ..., 1, nL) with at least two hidden layers, all of
    width 1: an upper bound on the functional dimension of the architecture (the rank of the
    batch Jacobian at every theta and batch); None for any other architecture.

    Proof sketch. Write u = w . x + b for the first layer's pre-activation (w in R^n0) and
    kappa(s) = min(max(s, 0), 1). Every hidden output h_l is phi_l(u) with phi_l continuous,
    monotone, piecewise linear, of one of the forms: constant; alpha + beta ReLU(+-(s - s1))
    (a ramp); alpha + beta kappa((s - s1) / (s2 - s1)) (a clamp: plateau, slope, plateau).
    phi_1 = ReLU. If phi_l has one of these forms, so has a phi_l + c (any a, c), and then
    ReLU(a phi_l + c) = max(psi, 0) for psi monotone: psi on the half-line {psi > 0} and 0 on
    its complement. Cutting a ramp or a clamp at level 0 leaves a ramp, a clamp, psi itself or
    0 (a ramp whose plateau is above 0 and whose slope runs down becomes a clamp). Hence, with
    L - 1 >= 2 hidden layers, F_theta(x) = c + v kappa(w' . x + b') or
    c + v ReLU(w' . x + b') or c, with c, v in R^nL, w' in R^n0, b' in R: a family of
    dimension n0 + 2 nL + 1. On the open dense set of theta where the branch taken at every
    layer (the signs of finitely many rational functions of theta) is locally constant, the
    map theta -> (c, v, w', b') is rational and F_theta(z) = Psi(c, v, w', b')(z) with Psi
    smooth in its arguments at z off the kinks, so the batch Jacobian factors through
    R^(n0 + 2 nL + 1). At the other theta the rank of a batch Jacobian (no pre-activation zero
    on the batch, so F_theta(z) is polynomial in theta near theta) is at most its rank at
    nearby theta (lower semicontinuity), which is bounded as above. The bound is attained:
    at a clamp the derivatives in c, v, w', b' are e_j, kappa e_j, v x_i 1_mid, v 1_mid, which
    are linearly independent functions of x (kappa is 1 on a half-space where 1_mid is 0).

    So the functional dimension of (n0, 1, ..., 1, nL) with L - 1 >= 2 hidden layers is
    n0 + 2 nL + 1, while D - H = n0 + 2 nL + L - 2: equal for L = 3, and D - H is not
    attainable for L >= 4 (three or more width-one hidden layers; (1, 1, 1, 1, 1): 4 < 5).
    One hidden layer (L = 2) gives n0 + 2 nL = D - H. Not kernel-checked; measured with float
    Jacobians over random theta and batches by tests/test_relu_width_one_chains.py."""
    ws = tuple(net.widths)
    if len(ws) < 4 or any(w != 1 for w in ws[1:-1]):
        return None
    return ws[0] + 2 * ws[-1] + 1


def rank_result(
    net: Any,
    r: int,
    u: int | None,
    batch_size: int,
    patterns: int,
    cover: bool = False,
    upper_kind: str | None = None,
    spanned: bool = False,
) -> dict[str, Any]:
    """The result fields of a rank certificate; `spanned`: the batch points of every
    activation pattern met hold n0 + 1 affinely independent points (checked by the Python
    checker)."""
    D, H = net.n_params, net.n_hidden
    exact = u is not None and u == r
    chain = width_one_bound(net)
    pinned = r == D - H or r == chain
    return {
        "params": D,
        "symmetry_dim": H,
        "expected_dim": D - H,
        "rank_lower": r,
        "rank_upper_at_point": u,
        "rank_at_point": r if exact else None,
        "upper_kind": upper_kind if u is not None and u < D else None,
        "batch_covers_pieces": cover,
        "functional_dimension_at_point": r if exact and (cover or pinned) else None,
        "architecture_functional_dimension": r if pinned else None,
        "width_one_bound": chain,
        "batch_size": batch_size,
        "activation_patterns": patterns,
        "regions_spanned": spanned,
        "grillo_montufar": net.grillo_montufar(),
    }


def rank_claim(net: Any, result: dict[str, Any], p: int) -> dict[str, Any]:
    D, H, r = result["params"], result["symmetry_dim"], result["rank_lower"]
    u = result["rank_upper_at_point"]
    cover = result["batch_covers_pieces"]
    parts = [
        f"Kernel-checked: for the ReLU network with widths {list(net.widths)} at the given "
        f"rational point theta, no hidden pre-activation vanishes at the "
        f"{result['batch_size']} batch points ({result['activation_patterns']} distinct "
        f"activation patterns; recomputed exactly), and the Jacobian of theta -> "
        f"(F_theta(z))_z on the batch, with that activation pattern fixed, has a nonsingular "
        f"{r}x{r} minor mod {p}; so the rank of the parametrisation at theta (its functional "
        f"dimension there) is >= {r}, and >= {r} on a neighbourhood of theta (D = {D} "
        f"parameters).",
        coq_rank_lower(
            r, "that batch Jacobian (and that no batch point lies on a bent hyperplane)"
        ),
    ]
    cites = [LOWER_CITE]
    if cover:
        parts.append(
            "Kernel-checked: the input is one-dimensional and the batch holds two points of "
            "every linear piece of F_theta: on the sorted line of the batch points and the cuts "
            "between consecutive pairs, every hidden pre-activation keeps its sign between "
            "consecutive points and on the two outer rays, so every input off the breakpoints "
            "has the activation pattern of two distinct batch points. For a fixed pattern the "
            "gradient of theta -> F_theta(x) is affine in x, so the row space of the batch "
            "Jacobian contains the gradient at every input off the breakpoints: its rank is "
            "the functional dimension at theta (the supremum, over finite batches of such "
            "inputs, of the rank of the batch Jacobian)."
        )
    n0 = net.widths[0]
    regions = result["regions_spanned"] and not cover
    if regions:
        parts.append(
            f"Checked by the Python checker (exact over Q), not by the kernel: each of the "
            f"{result['activation_patterns']} activation patterns of the batch is held by "
            f"{n0 + 1} affinely independent batch points. The inputs with a given pattern and "
            f"no vanishing hidden pre-activation form an open convex polyhedron (with the "
            f"pattern fixed every hidden pre-activation is affine in x) on which the gradient "
            f"of theta -> F_theta(x) is affine in x, so the row space of the batch Jacobian "
            f"contains the gradient at every input of these "
            f"{result['activation_patterns']} activation regions."
        )
    if u is not None and u < D and result["upper_kind"] == "nullspace":
        parts.append(
            f"Kernel-checked: {D - u} independent integer vectors annihilate the batch Jacobian "
            f"exactly (exact gradients over Q at every batch point), so its rank is <= {u}."
        )
        parts.append(coq_rank_upper(u, "the batch Jacobian", False))
    elif H and u is not None and u < D:
        parts.append(
            f"Kernel-checked: {H} independent integer vectors annihilate the batch Jacobian "
            f"exactly (exact gradients over Q at every batch point), so its rank is <= {u} = "
            f"D - H; checked by the Python checker: they are the positive-scaling tangents "
            f"(w_in(v), b_v, -w_out(v)) of the {H} hidden neurons."
            + (
                ""
                if cover
                else " Cited, not kernel-checked: the scaling symmetry acts at every point and "
                "input, so the functional dimension at theta is <= D - H for every batch."
            )
        )
        parts.append(coq_rank_upper(u, "the batch Jacobian", False))
        if not cover:
            cites.append(SCALING)
    elif u == D:
        parts.append(f"The rank is trivially <= D = {D} (no hidden neurons).")
    if u is not None and u == r:
        if cover:
            parts.append(f"Hence the functional dimension at theta is exactly {r}.")
        elif r == D - H:
            parts.append(
                f"Hence the batch Jacobian has rank exactly {r} and the functional dimension at "
                f"theta is exactly {r} = D - H."
            )
        elif r == result["width_one_bound"]:
            parts.append(
                f"Hence the batch Jacobian has rank exactly {r} and the functional dimension at "
                f"theta is exactly {r}, the bound for width-one hidden layers (below)."
            )
        elif regions:
            parts.append(
                f"Hence the gradients at all inputs of these {result['activation_patterns']} "
                f"activation regions span exactly {r} dimensions; regions the batch does not "
                f"meet may add more (the functional dimension at theta is only bounded below: "
                f">= {r})."
            )
        else:
            parts.append(
                f"Hence this batch Jacobian has rank exactly {r}; a larger batch may have a "
                f"larger rank (the functional dimension at theta is only bounded below)."
            )
    if r == D - H and H:
        parts.append(
            f"Cited, not kernel-checked: the scaling symmetry bounds the rank by D - H at every "
            f"theta, so the functional dimension of the architecture (its maximum over theta) "
            f"is exactly D - H = {r}."
        )
        if SCALING not in cites:
            cites.append(SCALING)
    if result["grillo_montufar"]:
        parts.append(
            f"Cited, not kernel-checked: for input and hidden widths >= 2 the functional "
            f"dimension of the architecture is D - H = {D - H} ({GRILLO_MONTUFAR})"
            + ("; this instance attains it." if r == D - H else ".")
        )
        cites.append(GRILLO_MONTUFAR)
    elif cover:
        parts.append(
            "An input or hidden width is 1: outside the setting of Grillo-Montufar; no theorem "
            "is cited for the value at theta."
        )
    else:
        parts.append(
            "An input or hidden width is 1: outside the setting of Grillo-Montufar; the "
            f"certified rank {r} is the rank at this theta and batch (a seeded, bounded search "
            "over theta and batches, if the generator ran one, is recorded in the generator "
            "section, which is not checked)."
        )
    chain = result["width_one_bound"]
    if chain is not None and chain < D - H:
        n0, nL = net.widths[0], net.widths[-1]
        parts.append(
            f"Argued, not kernel-checked ({WIDTH_ONE_CHAIN}): every one of the "
            f"{len(net.widths) - 2} hidden layers has width 1, so F_theta(x) is c + v "
            f"kappa(w . x + b) with kappa(s) = min(max(s, 0), 1) (plateau, slope, plateau), "
            f"c + v ReLU(w . x + b) or a constant (c, v in R^{nL}, w in R^{n0}, b in R): each "
            f"hidden output is a monotone function of the first pre-activation with at most "
            f"two kinks, and ReLU cuts such a function at one level. So the functional "
            f"dimension of the architecture is at most n0 + 2 nL + 1 = {chain} < D - H = "
            f"{D - H} at every theta: D - H is not attainable."
            + (
                f" With the certified rank {r} >= {chain}, the functional dimension of the "
                f"architecture is exactly {chain}."
                if r == chain
                else ""
            )
        )
        cites.append(WIDTH_ONE_CHAIN)
        if r < chain:
            parts.append(
                f"The certified rank {r} is below that bound {chain}; the seeded search over "
                "theta, if the generator ran one, is recorded in the generator section (not "
                "checked)."
            )
    elif r < D - H:
        parts.append(
            f"The certified rank {r} is below D - H = {D - H}; the seeded search over theta, "
            "if the generator ran one, is recorded in the generator section (not checked)."
        )
    return {"text": " ".join(parts), "cites": cites}


def equiv_result(net: Any, witness: dict[str, Any], search: str | None) -> dict[str, Any]:
    if witness["kind"] == "differ":
        return {"equivalent": False, "x": witness["x"], "symmetry": None, "group_element": None}
    g = None
    if "perms" in witness:
        g = {"perms": witness["perms"], "scales": witness["scales"]}
    kind = {"found": "permutation-scaling", "none": "hidden", "undecided": "undecided"}[
        search or ""
    ]
    return {
        "equivalent": True,
        "pieces": len(witness["points"]) + 1,
        "symmetry": kind,
        "group_element": g,
        "width_one_hidden_layer": any(w == 1 for w in net.widths[1:-1]),
    }


def equiv_claim(net: Any, result: dict[str, Any]) -> dict[str, Any]:
    net_text = f"the ReLU network with widths {list(net.widths)} (one-dimensional input)"
    if not result["equivalent"]:
        return {
            "text": (
                f"Kernel-checked: for {net_text}, F_theta(x) != F_theta2(x) at x = {result['x']} "
                f"(exact rational arithmetic): the two parameter vectors realise different "
                f"functions. Proved in Coq (theorem differ_at_x, from the kernel's check by "
                f"NNCert/meaning/relu/ReLUEquivMeaning.v): the outputs over Q at x differ, both "
                f"networks evaluated with ReLU(q) = if 0 < q then q else 0. Lean checks the "
                f"computation only."
            ),
            "cites": [],
        }
    m = result["pieces"] - 1
    parts = [
        f"Kernel-checked: for {net_text}, F_theta = F_theta2 on all of R: at {m} sorted points "
        f"every hidden pre-activation of both networks keeps its sign between consecutive "
        f"points and on the two outer rays, so both functions are affine on each of the "
        f"{m + 1} pieces, and they agree at every point (exact rational arithmetic). Proved "
        f"in Coq (theorem same_function, from the kernel's check by "
        f"NNCert/meaning/relu/ReLUPiecesMeaning.v): F_theta(x) = F_theta2(x) at every input x "
        f"of every ordered field (MathComp's realFieldType, e.g. Q or the real numbers), both "
        f"networks evaluated with ReLU(q) = if 0 < q then q else 0 (on each piece each network "
        f"interpolates its values at the ends). Lean checks the computation only."
    ]
    cites: list[str] = []
    if result["symmetry"] == "permutation-scaling":
        parts.append(
            "Kernel-checked: theta2 = g.theta for the permutations and positive scalings of the "
            "hidden neurons listed in the result (group_element); such a g preserves F for every "
            "input."
        )
        cites.append(SCALING)
    elif result["symmetry"] == "hidden":
        parts.append(
            "Checked by the Python checker (an exhaustive exact search), not by the kernel: no "
            "permutation with positive scaling of the hidden neurons maps theta to theta2, so "
            "this equivalence is a hidden symmetry, outside the permutation-scaling group."
        )
        if result["width_one_hidden_layer"]:
            parts.append("The architecture has a width-one hidden layer (math.md §3).")
            cites.append(WIDTH_ONE)
    else:
        parts.append(
            "Whether a permutation with positive scaling maps theta to theta2 is not claimed: "
            "the search was not exhaustive (a hidden neuron with zero incoming weights and bias "
            "leaves its scaling free, or the node bound was reached)."
        )
    return {"text": " ".join(parts), "cites": cites}


def summary_equiv(r: dict[str, Any]) -> str:
    """One line of what a ReLU equivalence certificate established."""
    if not r["equivalent"]:
        return f"not equivalent (they differ at x = {r['x']})"
    return f"equivalent on R ({r['pieces']} pieces); symmetry: {r['symmetry']}"
