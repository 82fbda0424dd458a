"""Claim texts and derived result fields of composition-independence certificates (compind,
prop21, newman-slater) and of MLP identifiability (trusted; shared by the generator and the
checker, which rebuilds them from the checked numbers and compares exactly)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from certify.checker.kernel import compind as KC

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
    "theorem hypotheses_* of the Coq file, from coq/NNCert/meaning/compind/CompindMeaning.v, with "
    "Delta_2 and "
    "Delta_3 written out from sigma's coefficients"
)


def _relation(i: int) -> str:
    """Where a dependence fact is stated mathematically (DependenceMeaning.v)."""
    return (
        f"theorem relation_{i} of the Coq file, from "
        "coq/NNCert/meaning/compind/DependenceMeaning.v, the "
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
                f"Kernel-checked, and proved in Coq over Q (theorem independent_{i} of the Coq "
                f"file, from coq/NNCert/meaning/compind/IndependenceMeaning.v, the functions "
                f"evaluated over Q): for sigma = {s}, the {result['k']} functions {fam} are "
                f"linearly independent over Q (M * W = I mod {f['prime']} for "
                f"M[i][j] = f_i(v_j) at integer points v_j, so M is invertible over Q)."
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
        f"Kernel-checked: the bias-free MLP with widths {widths}, activation sigma = {s} in "
        f"every hidden layer and the given integer weights has no inactive and no redundant "
        f"hidden neuron (it is not a subnetwork), sigma(0) = 0 and deg sigma = "
        f"{result['degree']} >= {facts[0]['rmin']}. Proved in Coq (theorem mlp_hypotheses_0 "
        f"of the Coq file, from coq/NNCert/meaning/compind/IdentifiabilityMeaning.v): for "
        f"these widths, weights and sigma, every hidden neuron has a nonzero incoming row, a "
        f"row distinct from the others of its layer and a nonzero outgoing weight, and over Q "
        f"sigma(0) = 0 and deg sigma >= {facts[0]['rmin']} with a nonzero leading coefficient "
        f"(that the network has no biases and one activation is the kernel lemma fact_0)."
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
