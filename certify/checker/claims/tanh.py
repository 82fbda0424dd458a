"""Claim texts and result fields of the tanh certificates (affsym, orbit, equiv), shared by the
generator and the checker, which rebuilds them from what it checked and compares exactly."""

from __future__ import annotations

from typing import Any

VB = "Vlacic-Boelcskei, arXiv:2006.11727 (affine symmetries of tanh-type activations)"
SUSSMANN = "Sussmann 1992 (one hidden layer, tanh: irreducible nets with the same map)"
FEFFERMAN = "Fefferman 1994 (deep tanh nets under genericity conditions)"
SYM_LIB = (
    "coq/NNCert/meaning/tanh/TanhSym.v: invariance of the network function under one flip at a "
    "DAG node "
    "(and sequences of flips, at the unflipped nodes) and under permuting one hidden layer"
)
# What the claims say rests on the (unformalised) argument in certify/families/tanh/dag.py.
SAME_FUNCTION = (
    "realises the same function: proved in Coq over the reals (coq/NNCert/meaning/tanh/TanhSym.v, "
    "any "
    "activation with the symmetry) for one flip at any DAG node and for permuting the neurons "
    "of one hidden layer; the simultaneous flip formula the kernels check and the relabelling "
    "of interchangeable DAG nodes rest on the argument in certify/families/tanh/dag.py "
    "(not formalised)"
)
# Activations for which the converse ("same function => related by the group") is a theorem
# the claim may cite. One hidden layer (Sussmann): tanh, and the logistic, an affine image of
# tanh (sigma(x) = (1 + tanh(x/2))/2) that maps irreducible nets to irreducible nets. Deep nets
# (Fefferman): tanh only; the logistic's conversion moves the next layer's biases, so the
# conditions checked on the logistic parameters are not Fefferman's.
CONVERSE = ("tanh", "logistic")
CONVERSE_DEEP = ("tanh",)
# The flip of the group in those theorems (tanh odd; sigma(-x) = 1 - sigma(x)): a certificate
# citing them must act by exactly this flip, else "not related" says nothing about functions.
CONVERSE_SYMMETRY = {"tanh": ["-1", "0", "-1", "0"], "logistic": ["-1", "0", "-1", "1"]}
# The checkers re-prove the identities with sympy (certify/checker/facts/tanh_sym.py).
SYMPY = (
    "lower trust level than the kernels; re-proved by the checker, "
    "certify/checker/facts/tanh_sym.py"
)


def theorem_applies(activation: str, sussmann: bool | None, fefferman: bool | None) -> bool:
    """Whether a cited theorem gives "same function => related by the group" here."""
    return bool(sussmann and activation in CONVERSE) or bool(
        fefferman and activation in CONVERSE_DEEP
    )


def _coq_proved(group: dict[str, Any]) -> list[bool]:
    """Which elements Coq proves over the reals (affsym_coq: the renderer writes exactly
    these theorems, so the claim and the Coq file agree)."""
    from certify.checker.facts.affsym_coq import element_theorems

    return [t is not None for t in element_theorems(group)]


def affsym_result(group: dict[str, Any]) -> dict[str, Any]:
    rows = group["elements"]
    coq = _coq_proved(group)
    proved = sum(r["proof"] != "unproved" for r in rows)
    if sum(coq) == 0:
        how = "sympy (not kernel-checked)"
    elif sum(coq) == proved:
        how = "Coq, over the reals; re-proved by sympy"
    else:
        how = "Coq, over the reals, for some; sympy for the others"
    return {
        "type": group["type"],
        "order": group["order"],
        "complete": group["complete"],
        "elements": len(rows),
        "proved": proved,
        "families": sum(r["family"] is not None for r in rows),
        # the identities Coq proves over the reals (coq/NNCert/meaning/tanh/AffsymMeaning.v); the
        # checker
        # re-proves every one with sympy (design.md §4)
        "coq_identities": sum(coq),
        "identity_proofs": how,
        "completeness": "generator's search (not checked)",
    }


def coq_odd_hypothesis(act: str) -> bool:
    """Whether the activation's Coq theorems rest on its cited oddness (affsym_coq)."""
    from certify.checker.facts.affsym_coq import coq_function

    fn = coq_function(act)
    return fn is not None and fn[0] == "odd"


def _elem(r: dict[str, Any]) -> str:
    t = f"({r['alpha']}, {r['beta']}, {r['gamma']}, {r['delta']})"
    return t + (f" for {r['family']}" if r["family"] else "")


def affsym_claim(group: dict[str, Any], result: dict[str, Any], table: int) -> dict[str, Any]:
    act = group["activation"]
    rows = group["elements"]
    what = {
        "finite": f"the finite group of order {result['order']}",
        "family": "continuous families",
        "infinite": "generators of an infinite group",
    }[group["type"]]
    coq = _coq_proved(group)
    in_coq = [_elem(r) for r, c in zip(rows, coq) if c]
    only_sympy = [_elem(r) for r, c in zip(rows, coq) if not c and r["proof"] != "unproved"]
    identity = f"rho(alpha x + beta) = gamma rho(x) + delta for every real x, rho = {act}"
    parts = []
    if in_coq:
        parts.append(
            f"Proved in Coq over the real numbers (theorems affsym_element_* of the Coq file, "
            f"from coq/NNCert/meaning/tanh/AffsymMeaning.v and Coq's standard library): each of "
            f"{', '.join(in_coq)} satisfies {identity}."
        )
        if coq_odd_hypothesis(act):
            parts.append(
                f"{act} has no definition in Coq's standard library: Coq proves these for "
                f"every odd function rho (every function, for the identity); that {act} is "
                "odd is cited, not proved."
            )
    if only_sympy:
        parts.append(f"Proved by sympy ({SYMPY}): each of {', '.join(only_sympy)} satisfies "
                     f"{identity}.")  # fmt: skip
    elif in_coq:
        parts.append(
            "The checker re-proves every identity with sympy (certify/checker/facts/tanh_sym.py)."
        )
    if group["complete"]:
        parts.append(
            f"Computed by the generator and not checked (the checker does not re-run its "
            f"search): that the list is complete, so that these are {what}, argued from the "
            "necessary conditions recorded in the certificate (limits, derivatives, "
            "periodicity)."
        )
    else:
        parts.append(
            f"Listed by the generator as {what}. Completeness is not proved: candidates were "
            "searched as recorded in the certificate (the search is not re-run by the checker)."
        )
    unproved = [_elem(r) for r in rows if r["proof"] == "unproved"]
    if unproved:
        parts.append(f"Unproved candidates, neither claimed nor excluded: {', '.join(unproved)}.")
    if table:
        closed = group["type"] == "finite" and group["complete"]
        parts.append(
            f"Kernel-checked: the {table} rational element(s) are well formed (alpha, gamma != 0)"
            + (" and form a group (identity present, closed under composition)." if closed else ".")
        )
    return {"text": " ".join(parts), "cites": [VB]}


def orbit_result(
    group_order: int, orbit_size: int | None, free: bool, hidden: int, class_sizes: list[int]
) -> dict[str, Any]:
    return {
        "group_order": group_order,
        "orbit_size": orbit_size,
        "free": free,
        "hidden": hidden,
        "classes": class_sizes,
    }


def _net_text(net: dict[str, Any]) -> str:
    # The source is data, not a sentence: one token of tanh_net.SOURCE_RE (the checker
    # refuses anything else), shown quoted.
    src = f" (parameters from source `{net['source']}`)" if net.get("source") else ""
    if net.get("widths"):
        return f"the layered {net['activation']} network with widths {net['widths']}{src}"
    return (
        f"the {net['activation']} DAG network with {net['inputs']} inputs, {net['hidden']} hidden "
        f"and {net['outputs']} output nodes{src}"
    )


def _flip_text(net: dict[str, Any], sym: list[str] | None) -> list[str]:
    if not sym:
        return []
    return [
        f"Proved by sympy ({SYMPY}): ({', '.join(sym)}) is an affine symmetry of "
        f"rho = {net['activation']}, rho(alpha x + beta) = gamma rho(x) + delta. Checked in "
        "rational arithmetic by the checker, not by the kernels: it is an involution other "
        "than the identity."
    ]


def orbit_claim(
    net: dict[str, Any], sym: list[str] | None, result: dict[str, Any]
) -> dict[str, Any]:
    g = f"the flip by ({', '.join(sym)}) per hidden node and " if sym else ""
    parts = [
        f"Kernel-checked: for {_net_text(net)}, the group generated by {g}permutations of "
        f"interchangeable hidden nodes (classes of sizes {result['classes']}) has order "
        f"{result['group_order']}; the listed group elements map the parameters to the listed "
        "networks exactly.",
        *_flip_text(net, sym),
    ]
    size = result["orbit_size"]
    if result["free"]:
        parts.append(
            f"Kernel-checked: the sufficient condition for a free action holds at these "
            f"parameters, so the orbit has {size} elements, and the listed representative is "
            "its unique canonical form (sign-normalised, sorted; both by the argument in "
            "certify/families/tanh/dag.py)."
        )
    elif size is None:
        parts.append(
            "Freeness is not established at these parameters (the kernels' sufficient condition "
            "fails); the orbit size is not computed."
        )
    elif size == result["group_order"]:
        parts.append(
            "The kernels' sufficient condition for a free action fails at these parameters, "
            f"but the orbit has {size} elements (enumerated by the checker's own code, "
            "certify/checker/facts/tanh_orbit.py, not the kernels), the group order, so the action "
            "is free."
        )
    else:
        parts.append(
            f"The action is not free at these parameters: the orbit has {size} elements "
            "(enumerated by the checker's own code, certify/checker/facts/tanh_orbit.py, not the "
            "kernels), fewer than the group order."
        )
    parts.append(f"Every element {SAME_FUNCTION}.")
    return {"text": " ".join(parts), "cites": [VB, SYM_LIB]}


def equiv_result(equivalent: bool, sussmann: bool | None, fefferman: bool | None,
                 applies: bool) -> dict[str, Any]:  # fmt: skip
    return {
        "equivalent": equivalent,
        "sussmann": sussmann,
        "fefferman": fefferman,
        "theorem_applies": applies,
    }


def equiv_claim(
    net: dict[str, Any], sym: list[str] | None, result: dict[str, Any]
) -> dict[str, Any]:
    cites = [VB, SYM_LIB]
    if result["equivalent"]:
        parts = [
            f"Kernel-checked: for {_net_text(net)}, an explicit group element maps the first "
            "parameters exactly onto the second. Each group element "
            f"{SAME_FUNCTION}; so both networks realise the same function."
        ]
    else:
        parts = [
            f"Kernel-checked: for {_net_text(net)}, the two parameter sets have different "
            "canonical forms (each reached by a checked group element; canonical forms are "
            "unique in an orbit by the argument in certify/families/tanh/dag.py, not "
            "formalised), so "
            "no element of the group relates them."
        ]
    parts += _flip_text(net, sym)
    if result["sussmann"]:
        parts.append("Kernel-checked: Sussmann's irreducibility conditions hold for both.")
        cites.append(SUSSMANN)
    if result["fefferman"]:
        parts.append("Kernel-checked: Fefferman-type genericity conditions hold for both.")
        cites.append(FEFFERMAN)
    if result["theorem_applies"]:
        parts.append(
            "By the cited theorem, the two networks realise the same function if and only if "
            "they are related by the group: they realise "
            + ("the same function." if result["equivalent"] else "different functions.")
        )
    elif not result["equivalent"]:
        parts.append(
            "No cited theorem applies to these networks, so different functions are not claimed."
        )
    return {"text": " ".join(parts), "cites": cites}


def summary_affsym(r: dict[str, Any]) -> str:
    """One line of what an affine-symmetry-group certificate established."""
    size = f"order {r['order']}" if r["order"] is not None else r["type"]
    done = "complete" if r["complete"] else "completeness not proved"
    coq = f", {r['coq_identities']} in Coq" if r.get("coq_identities") else ""
    return f"affine symmetry group: {size}, {r['proved']}/{r['elements']} proved{coq} ({done})"


def summary_orbit(r: dict[str, Any]) -> str:
    """One line of what a tanh-type orbit certificate established."""
    size = r["orbit_size"] if r["orbit_size"] is not None else "not computed"
    free = r["free"] or r["orbit_size"] == r["group_order"]
    return f"group order {r['group_order']}, orbit size {size}" + (" (free action)" if free else "")


def summary_equiv(r: dict[str, Any]) -> str:
    """One line of what a tanh-type equivalence certificate established."""
    word = "equivalent (explicit group element)" if r["equivalent"] else "not related by the group"
    return word + (", same function iff related (cited theorem)" if r["theorem_applies"] else "")
