"""Claim texts and derived result fields of rank certificates.

Shared by the generator (which writes them) and the checker (which rebuilds them from the
checked numbers and compares exactly), so no sentence in a certificate, manifest, report or
rendered file can say more than what was checked or cited."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from certify.checker import kernel_compind as KC
from certify.checker import networks as M
from certify.checker.claims_common import LOWER_CITE, coq_rank_lower, coq_rank_upper
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
    lsc = f"the generic rank is >= rank_lower = {r} (lower semicontinuity)"
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


# ------------------------------------------------------------------ composition independence
PROP21 = "Kohn-Marchetti-Massarenti-Mella, Prop. 2.1"
# The field of the Prop. 2.1/3.3 claims. math.md §1 states both without naming a field (sigma is
# in Q[t] there, and the kernel checks the hypothesis in exact rational arithmetic); Q is the
# weakest reading: the statement over R, over C, or over any field of characteristic 0 implies
# it for rational p, q (independence over a bigger field implies it over Q).
FIELD = (
    "Field: Q, the field of sigma's coefficients, as checked; the cited statement as recorded "
    "in math.md §1 does not name its field; its version over R or C implies this one."
)
PROP33 = "Kohn-Marchetti-Massarenti-Mella, Prop. 3.3"
ZARISKI = "math.md §5 / design.md §6: dependence is Zariski-closed in sigma's coefficients"
NEWMAN_SLATER = "Newman-Slater (1979)"


def _sigma_text(sigma: list[str]) -> str:
    from fractions import Fraction

    from certify.checker.ir import format_univariate

    return format_univariate([Fraction(c) for c in sigma], "z")


def compind_result(
    kind: str, ci: Any, facts: list[dict[str, Any]], notes: list[dict[str, Any]]
) -> dict[str, Any]:
    """Result fields derived from the facts (ci: a CompindSpec or the instance JSON)."""
    inst = ci if isinstance(ci, dict) else _instance_view(ci)
    if kind == "prop21":
        (f,) = facts
        if f["kind"] == "prop33":
            return {
                "proposition": "3.3",
                "degree": len(f["sigma"]) - 1,
                "delta2": None,
                "delta3": None,
            }
        return {
            "proposition": "2.1",
            "degree": len(f["sigma"]) - 1,
            "delta2": f["delta2"],
            "delta3": f["delta3"],
        }
    k = len(inst["polynomials"]) + (1 if inst["bias"] else 0)
    last = facts[-1]
    out: dict[str, Any] = {"k": k}
    if last["kind"] == "independent":
        out.update(status="independent", degree=len(last["sigma"]) - 1)
    elif last["kind"] == "dependent":
        out.update(status="dependent", degree=len(last["sigma"]) - 1)
    else:
        out.update(status="dependent-for-every-sigma", degree=last["degree"])
    # "generic" only where the statement is about generic sigma: an independence witness for
    # a tool-chosen sigma (Zariski openness) or a relation valid for every sigma. A relation
    # for one tool-chosen sigma says nothing about generic sigma.
    out["generic"] = (
        inst["activation"] is None and inst["power"] is None and last["kind"] != "dependent"
    )
    if inst["search"]:
        degrees = {n["degree"]: n["status"] for n in notes}
        for f in facts:
            d = f["degree"] if f["kind"] == "dependent_all" else len(f["sigma"]) - 1
            degrees[d] = (
                "independent for generic sigma"
                if f["kind"] == "independent"
                else "dependent for every sigma"
            )
        # The least degree is certified only when every smaller degree is certified dependent
        # for every sigma; otherwise the gaps are listed and no least degree is claimed.
        below = range(1, out["degree"])
        proven = all(degrees.get(d) == "dependent for every sigma" for d in below)
        out["least_degree"] = out["degree"] if last["kind"] == "independent" and proven else None
        out["degrees"] = [{"degree": d, "status": degrees[d]} for d in sorted(degrees)]
    if kind == "newman-slater":
        r = inst["power"]
        k0 = len(inst["polynomials"])
        out["power"] = r
        out["pairwise_nonproportional"] = pairwise_nonproportional(inst["polynomials"])
        out["newman_slater_range"] = (
            r > k0 * (k0 - 2) and out["pairwise_nonproportional"] and not inst["bias"]
        )
    return out


def pairwise_nonproportional(polys: Any) -> bool:
    """No p_i is a rational multiple of p_j (i != j); polys as term lists or CompindSpec."""

    def as_dict(q: Any) -> dict[tuple[int, ...], Fraction]:
        if isinstance(q, dict):
            return q
        out: dict[tuple[int, ...], Fraction] = {}
        for t in q:
            if isinstance(t[0], tuple):  # CompindSpec: (exponents, coefficient)
                out[t[0]] = Fraction(t[1])
            else:  # JSON: [coefficient, exponents]
                out[tuple(t[1])] = Fraction(t[0])
        return {e: c for e, c in out.items() if c}

    ds = [as_dict(q) for q in polys]
    for i in range(len(ds)):
        for j in range(i):
            a, b = ds[i], ds[j]
            if a.keys() == b.keys() and a:
                e0 = next(iter(a))
                ratio = a[e0] / b[e0]
                if all(a[e] == ratio * b[e] for e in a):
                    return False
    return True


def _instance_view(ci: Any) -> dict[str, Any]:
    from certify.checker.ir import format_univariate

    return {
        "polynomials": ci.polys,
        "bias": ci.bias,
        "activation": None
        if ci.sigma is None or ci.power is not None
        else format_univariate(list(ci.sigma), "z"),
        "power": ci.power,
        "search": ci.search,
        "origin": ci.origin,
        "polynomials_text": list(ci.polys_text),
    }


# Where the Prop. 2.1 / 3.3 facts are stated mathematically (the hypotheses over Q)
MEANING_Q = (
    "theorem hypotheses_* of the Coq file, from coq/NNCert/CompindMeaning.v, with Delta_2 and "
    "Delta_3 written out from sigma's coefficients"
)


def _relation(i: int) -> str:
    """Where a dependence fact is stated mathematically (DependenceMeaning.v)."""
    return (
        f"theorem relation_{i} of the Coq file, from coq/NNCert/DependenceMeaning.v, the "
        f"relation evaluated by its own polynomial evaluation over Q"
    )


def compind_claim(
    kind: str, ci: Any, result: dict[str, Any], facts: list[dict[str, Any]]
) -> dict[str, Any]:
    inst = ci if isinstance(ci, dict) else _instance_view(ci)
    if kind == "prop21":
        f = facts[0]
        s = _sigma_text(f["sigma"])
        if f["kind"] == "prop33":
            text = (
                f"Kernel-checked, and proved in Coq over Q ({MEANING_Q}): sigma = {s} has degree "
                f"r = {result['degree']} >= 2, sigma(0) = 0 and a_r * a_(r-1) != 0. Cited, not "
                f"kernel-checked: by "
                f"{PROP33}, sigma(p), sigma(q) are linearly independent over Q for all "
                f"distinct nonconstant p, q in Q[x_1, ..., x_n] with p(0) = q(0) = 0. {FIELD}"
            )
            return {"text": text, "cites": [PROP33]}
        text = (
            f"Kernel-checked, and proved in Coq over Q ({MEANING_Q}): sigma = {s} has degree "
            f"r = {result['degree']} >= 3, Delta_2 = {f['delta2']}, Delta_3 = {f['delta3']} and "
            f"a_r * Delta_2 * Delta_3 != 0. "
            f"Cited, not kernel-checked: by {PROP21}, sigma(p), sigma(q) are linearly "
            f"independent over Q for all distinct nonconstant polynomials p, q in "
            f"Q[x_1, ..., x_n]. {FIELD}"
        )
        return {"text": text, "cites": [PROP21]}
    polys = ", ".join(f"sigma({t})" for t in inst.get("polynomials_text", [])) or "sigma(p_i)"
    fam = ("1, " if inst["bias"] else "") + polys
    parts: list[str] = []
    cites: list[str] = []
    for i, f in enumerate(facts):
        if f["kind"] == "independent":
            s = _sigma_text(f["sigma"])
            parts.append(
                f"Kernel-checked: for sigma = {s}, the {result['k']} functions {fam} are "
                f"linearly independent over Q (M * W = I mod {f['prime']} for "
                f"M[i][j] = f_i(v_j) at integer points v_j)."
            )
            if result["generic"]:
                parts.append(
                    f"Since dependence is a Zariski-closed condition on the coefficients of "
                    f"sigma, they are independent for generic sigma of degree "
                    f"{len(f['sigma']) - 1}{' with sigma(0) = 0' if inst.get('origin') else ''}."
                )
                cites.append(ZARISKI)
        elif f["kind"] == "dependent":
            s = _sigma_text(f["sigma"])
            parts.append(
                f"Kernel-checked, and proved in Coq over Q ({_relation(i)}): for sigma = {s}, "
                f"sum lambda_i f_i = 0 identically with lambda = {f['lambda']} (exact "
                f"coefficient expansion; in Coq, at every point of Q^n): {fam} are linearly "
                f"dependent."
            )
        else:
            lo = f["lo"]
            parts.append(
                f"Kernel-checked, and proved in Coq over Q ({_relation(i)}): "
                f"sum_i lambda_i p_i^j = 0 for j = {lo}..{f['degree']} with "
                f"lambda = {f['lambda']}, so {fam} are dependent for every sigma of degree "
                f"<= {f['degree']}{' with sigma(0) = 0' if lo == 1 else ''} (in Coq: every "
                f"sigma with rational coefficients, at every point of Q^n)."
            )
    if result.get("least_degree") is not None:
        parts.append(
            f"Hence the least degree of sigma for which they are independent for generic "
            f"sigma is {result['least_degree']}."
        )
    elif "degrees" in result:
        gaps = [d["degree"] for d in result["degrees"] if d["status"] == "no certificate"]
        parts.append(f"No least degree is claimed: degrees {gaps} have no certificate either way.")
    if kind == "newman-slater":
        k = len(inst["polynomials"])
        if result["newman_slater_range"]:
            parts.append(
                f"Power r = {result['power']}, k = {k}; r > k(k-2) = {k * (k - 2)}, the p_i are "
                f"pairwise nonproportional and there is no constant term in the family: this "
                f"instance is inside the range of {NEWMAN_SLATER} (checked exactly by the "
                f"checker); the kernel checked the instance itself."
            )
            cites.append(NEWMAN_SLATER)
        else:
            failing = []
            if not result["power"] > k * (k - 2):
                failing.append(f"r > k(k-2) = {k * (k - 2)} fails (r = {result['power']})")
            if not result["pairwise_nonproportional"]:
                failing.append("the p_i are not pairwise nonproportional")
            if inst["bias"]:
                failing.append("the family has the constant term 1 (bias = true)")
            parts.append(
                f"Power r = {result['power']}, k = {k}: this instance is outside the range of "
                f"{NEWMAN_SLATER}, which does not apply, so it is not cited (hypothesis: "
                f"{'; '.join(failing)}; checked exactly by the checker); only the kernel-checked "
                f"instance above is claimed."
            )
    return {"text": " ".join(parts), "cites": cites}


# ------------------------------------------------------------------ MLP identifiability
COR41 = "Kohn-Marchetti-Massarenti-Mella, Corollary 4.1"
THM35 = "Kohn-Marchetti-Massarenti-Mella, Thm 3.5 (8 d1^2; the paper's text prints 7 d1^2)"
EXAMPLES = "Kohn-Marchetti-Massarenti-Mella, Ex. 3.6 / 3.7"


def mlp_result(
    instance: dict[str, Any], theorem: str, rank_name: str, rank_lower: int
) -> dict[str, Any]:
    widths = instance["network"]["widths"]
    return {
        "not_subnetwork": True,
        "degree": len(instance["network"]["activations"][0]) - 1,
        "max_hidden_width": max(widths[1:-1]),
        "theorem": theorem,
        "rank_certificate": rank_name,
        "rank_lower": rank_lower,
    }


def mlp_claim(
    instance: dict[str, Any], result: dict[str, Any], facts: list[dict[str, Any]]
) -> dict[str, Any]:
    widths = instance["network"]["widths"]
    s = _sigma_text(facts[0]["sigma"])
    parts = [
        f"Kernel-checked: the bias-free MLP with widths {widths}, activation sigma = {s} and "
        f"the given integer weights has no inactive and no redundant hidden neuron (it is not "
        f"a subnetwork), sigma(0) = 0 and deg sigma = {result['degree']} >= "
        f"{facts[0]['rmin']}."
    ]
    th = result["theorem"]
    cites = [COR41] if th != "none" else []
    if th.startswith("width one"):
        parts.append(
            f"Kernel-checked, and proved in Coq over Q ({MEANING_Q}): a_r * a_(r-1) != 0. "
            "Cited, not kernel-checked: with all hidden "
            f"widths 1 this gives identifiability up to hidden-neuron permutations ({PROP33})."
        )
        cites.append(PROP33)
    elif th.startswith("shallow"):
        parts.append(
            f"Cited, not kernel-checked: for sigma in the open set of {THM35} (generic sigma "
            f"of degree r >= 8 d1^2), a shallow network that is not a subnetwork is "
            f"identifiable up to hidden-neuron permutations; that this concrete sigma lies in "
            f"the open set is not checked."
        )
        cites.append(THM35)
    elif th.startswith("explicit family"):
        parts.append(
            f"Checked by the checker (exact polynomial arithmetic), not the kernel: sigma is "
            f"the {th}; cited: such sigma make the network identifiable up to hidden-neuron "
            f"permutations ({COR41}, {EXAMPLES})."
        )
        cites.append(EXAMPLES)
    else:
        parts.append(
            "No published result known to the tool applies to this sigma and architecture: "
            "only the facts above are certified, identifiability is not claimed."
        )
    parts.append(
        f"Attached: rank certificate {result['rank_certificate']} (rank >= "
        f"{result['rank_lower']} at this point; the attachment is cross-checked within the "
        f"bundle by certify run and certify check)."
    )
    return {"text": " ".join(parts), "cites": cites}


def _power(cs: list[Fraction], e: int) -> list[Fraction]:
    """The coefficients of p^e for p with coefficients cs (constant term first)."""
    acc = [Fraction(1)]
    for _ in range(e):
        prod = [Fraction(0)] * (len(acc) + len(cs) - 1)
        for i, a in enumerate(acc):
            for j, c in enumerate(cs):
                prod[i + j] += a * c
        acc = prod
    while len(acc) > 1 and acc[-1] == 0:
        acc.pop()
    return acc


def identifiability_plan(widths: list[int], sigma: list[Fraction]) -> tuple[str, int, str | None]:
    """(published result that applies, degree the kernel must check, explicit family)."""
    r = len(sigma) - 1
    D = max(widths[1:-1])
    pairs = [(c.numerator, c.denominator) for c in sigma]
    if all(w == 1 for w in widths[1:-1]) and KC.check_prop33(pairs):
        return "width one (Prop. 3.3)", 2, None
    # The explicit families come before the shallow case: they hold for the concrete sigma,
    # while Thm 3.5 holds for sigma in an open set (generic sigma).
    fam = explicit_family(sigma, 2 * D)
    if fam == "Ex. 3.7":
        return f"explicit family ({fam}, k = 2D = {2 * D})", 4 * D * D - 1, fam
    if fam == "Ex. 3.6":
        return f"explicit family ({fam}, k = 2D = {2 * D})", r, fam
    if len(widths) == 3 and r >= 8 * widths[1] ** 2:
        return "shallow (Thm 3.5, r >= 8 d1^2)", 8 * widths[1] ** 2, None
    return "none", 1, None


def explicit_family(sigma: list[Fraction], k: int) -> str | None:
    """Ex. 3.6: (z^2 + z)^(k(k-2)+1); Ex. 3.7: (z + 1)^r - 1 with r >= k^2 - 1."""
    ex36 = _power([Fraction(0), Fraction(1), Fraction(1)], k * (k - 2) + 1)
    if sigma == ex36:
        return "Ex. 3.6"
    r = len(sigma) - 1
    ex37 = _power([Fraction(1), Fraction(1)], r)
    ex37[0] -= 1
    if sigma == ex37 and r >= k * k - 1:
        return "Ex. 3.7"
    return None


def summary_mlp_identifiable(r: dict[str, Any]) -> str:
    """One line of what an mlp-identifiable certificate established."""
    return (
        f"not a subnetwork; applicable result: {r['theorem']}; rank >= {r['rank_lower']} "
        f"({r['rank_certificate']})"
    )


def summary_prop21(r: dict[str, Any]) -> str:
    """One line of what a Prop. 2.1 / 3.3 certificate established."""
    return f"Prop. {r['proposition']} hypothesis holds (degree {r['degree']})"


def summary_compind(r: dict[str, Any]) -> str:
    """One line of what a composition-independence (or Newman-Slater) certificate
    established."""
    line = f"{r['status']} (k = {r['k']}, degree {r['degree']}"
    line += ", generic sigma)" if r.get("generic") else ")"
    if r.get("least_degree") is not None:
        line += f", least degree {r['least_degree']}"
    return line
