"""Independent checker for composition-independence certificates (kinds compind, prop21,
newman-slater): decode into kernel data, run the twins in kernel/compind.py, and rebuild
the result and claim from what was checked."""

from __future__ import annotations

from typing import Any

from certify.checker.claims.compind import compind_claim, compind_result
from certify.checker.ir import (
    MAX_EXPONENT,
    MLP,
    VAR_RE,
    Malformed,
    as_dict,
    as_ints,
    as_list,
    as_matrix,
    as_nats,
    as_rat,
    exact_keys,
    mismatch,
    network_json,
    same,
)
from certify.checker.kernel import compind as KC

KINDS = ("compind", "prop21", "newman-slater", "mlp-identifiable")
INSTANCE_KEYS = {"variables", "polynomials", "polynomials_text", "origin", "bias", "activation",
                 "generic_degree", "search", "power"}  # fmt: skip


MLP_NETWORK_KEYS = ("family", "widths", "activations", "activations_text", "bias")


def decode_polys(inst: dict[str, Any]) -> tuple[int, list[list[KC.Term]]]:
    """Variables must be distinct names (they appear in the claim text); each polynomial's
    exponent vectors distinct (the kernel sums repeated terms, the text would not)."""
    variables = as_list(inst["variables"], "instance.variables")
    if (
        not variables
        or not all(isinstance(v, str) and VAR_RE.match(v) for v in variables)
        or len(set(variables)) != len(variables)
    ):
        raise Malformed("instance.variables: expected distinct variable names (not z)")
    nvars = len(variables)
    polys = []
    for i, q in enumerate(as_list(inst["polynomials"], "instance.polynomials")):
        terms: list[KC.Term] = []
        for j, t in enumerate(as_list(q, f"instance.polynomials[{i}]")):
            where = f"instance.polynomials[{i}][{j}]"
            t = as_list(t, where)
            if len(t) != 2:
                raise Malformed(f"{where}: expected [coefficient, exponents]")
            c, es = as_rat(t[0], where), as_nats(t[1], where)
            if len(es) != nvars:
                raise Malformed(f"{where}: expected {nvars} exponents (one per variable)")
            if c[0] == 0 or (terms and not es < terms[-1][1]):
                # one spelling per polynomial, as the generator writes it (and as the critical
                # locus, checker/check/critical.py): no zero term, exponent vectors strictly
                # decreasing; reordered terms would be the same polynomial spelled otherwise
                raise Malformed(f"{where}: expected nonzero terms, exponents strictly decreasing")
            terms.append((c, es))
        if any(e > MAX_EXPONENT for _, es in terms for e in es):
            raise Malformed(f"instance.polynomials[{i}]: exponent above {MAX_EXPONENT}")
        polys.append(terms)
    return nvars, polys


def decode_sigma(xs: Any, where: str) -> list[KC.Rat]:
    """An activation's coefficient list, constant term first, of its exact degree: a trailing
    zero would make the degree the claims state larger than it is (one spelling per sigma)."""
    out = [as_rat(c, f"{where}[{i}]") for i, c in enumerate(as_list(xs, where))]
    if not out or out[-1][0] == 0:
        raise Malformed(f"{where}: expected coefficients whose last (the degree's) is nonzero")
    return out


FACT_KEYS = {
    "independent": ("sigma", "k", "prime", "polys_inv", "sigma_inv", "points", "inverse"),
    "dependent": ("sigma", "lambda"),
    "dependent_all": ("lo", "degree", "lambda"),
    "prop21": ("sigma", "delta2", "delta3"),
    "prop33": ("sigma",),
    "mlp": ("widths", "sigma", "theta", "rmin"),
}


def check_fact(f: dict[str, Any], nvars: int, polys: list, bias: bool, where: str) -> bool:
    kind = f.get("kind")
    if kind not in FACT_KEYS:
        raise Malformed(f"{where}.kind: expected one of {list(FACT_KEYS)}, got {kind!r}")
    exact_keys(f, where, ("kind", *FACT_KEYS[kind]))
    if kind == "independent":
        inst = KC.CompindInstance(nvars, polys, decode_sigma(f["sigma"], f"{where}.sigma"), bias)
        w = KC.IndepWitness(
            f["prime"] if type(f["prime"]) is int else -1,
            as_matrix(f["polys_inv"], "polys_inv"),
            as_ints(f["sigma_inv"], "sigma_inv"),
            as_matrix(f["points"], "points"),
            as_matrix(f["inverse"], "inverse"),
        )
        k = f["k"]
        return type(k) is int and k >= 0 and KC.check_independent(inst, w, k)
    if kind == "dependent":
        inst = KC.CompindInstance(nvars, polys, decode_sigma(f["sigma"], f"{where}.sigma"), bias)
        return KC.check_dependent(inst, as_ints(f["lambda"], "lambda"))
    if kind == "dependent_all":
        inst = KC.CompindInstance(nvars, polys, [], bias)
        lo, d = f["lo"], f["degree"]
        if type(lo) is not int or type(d) is not int or lo < 0 or d < 0:
            return False
        return KC.check_dependent_all(inst, as_ints(f["lambda"], "lambda"), lo, d)
    if kind == "prop21":
        return KC.check_prop21(
            decode_sigma(f["sigma"], f"{where}.sigma"),
            as_rat(f["delta2"], "d2"),
            as_rat(f["delta3"], "d3"),
        )
    if kind == "prop33":
        return KC.check_prop33(decode_sigma(f["sigma"], f"{where}.sigma"))
    if kind == "mlp":
        rmin = f["rmin"]
        if type(rmin) is not int or rmin < 0:
            return False
        return KC.check_mlp_hypotheses(
            as_nats(f["widths"], "widths"), decode_sigma(f["sigma"], f"{where}.sigma"),
            as_ints(f["theta"], "theta"), rmin,
        )  # fmt: skip
    raise AssertionError(kind)  # every kind of FACT_KEYS is handled above


def check(cert: dict[str, Any]) -> list[str]:
    """Problems found in a composition-independence certificate (envelope already validated
    by certify.checker.check_certificate; malformed fields raise Malformed or KeyError)."""
    kind = cert["kind"]
    if kind == "mlp-identifiable":
        return _check_mlp(cert)
    inst = exact_keys(cert["instance"], "instance", INSTANCE_KEYS)
    facts = as_list(exact_keys(cert["witness"], "witness", ("facts",))["facts"], "witness.facts")
    if not facts:
        return ["witness.facts: expected at least one fact"]
    nvars, polys = decode_polys(inst) if kind != "prop21" else (0, [])
    bias = inst["bias"]
    if not isinstance(bias, bool):
        raise Malformed("instance.bias: expected true or false")
    if inst["activation"] is not None:
        decode_sigma(inst["activation"], "instance.activation")
    for i, f in enumerate(facts):
        f = as_dict(f, f"witness.facts[{i}]")
        if kind == "prop21" and f.get("kind") not in ("prop21", "prop33"):
            return [f"witness.facts[{i}]: kind prop21 takes prop21/prop33 facts"]
        if kind != "prop21" and f.get("kind") in ("prop21", "prop33"):
            return [f"witness.facts[{i}]: a {f.get('kind')} fact in a {kind} certificate"]
        if not check_fact(f, nvars, polys, bias, f"witness.facts[{i}]"):
            return [f"witness.facts[{i}] ({f.get('kind')}): rejected by the kernel twin"]
    problems = consistency(kind, inst, facts)
    res = cert.get("result")
    notes = [
        {"degree": e["degree"], "status": e["status"]}
        for e in (res or {}).get("degrees", [])
        if isinstance(e, dict) and e.get("status") == "no certificate"
    ]
    expect = compind_result(kind, inst, facts, notes)
    problems += mismatch(res, expect, "result", "result disagrees with the checked facts")
    claim = compind_claim(kind, inst, expect, facts)
    if not same(cert.get("claim"), claim):
        problems.append("claim does not match the text rebuilt from the checked facts")
    return problems


def consistency(kind: str, inst: dict[str, Any], facts: list[dict[str, Any]]) -> list[str]:
    """The facts are about the instance as declared (activation, power, degree, search)."""
    from fractions import Fraction

    from certify.checker.ir import format_polynomial

    out = []
    if kind == "prop21":
        if len(facts) != 1:
            return ["prop21: expected exactly one fact"]
        empty = {
            "variables": [],
            "polynomials": [],
            "polynomials_text": [],
            "generic_degree": None,
            "search": False,
            "power": None,
            "bias": False,
        }
        if any(not same(inst.get(k), v) for k, v in empty.items()):
            out.append("prop21: the instance is an activation alone (no polynomials, variables, "
                       "generic degree, search, power or bias)")  # fmt: skip
        f = facts[0]
        if f.get("sigma") != inst.get("activation"):
            out.append("prop21: the fact is not about the declared activation")
        if (f["kind"] == "prop33") != bool(inst.get("origin")):
            out.append("prop21: origin = true takes a prop33 fact, otherwise a prop21 fact")
        return out
    polys = [
        {tuple(e): Fraction(c) for c, e in q} for q in inst["polynomials"]
    ]  # already validated by decode_polys
    texts = [format_polynomial(q, tuple(inst["variables"])) for q in polys]
    if inst.get("polynomials_text") != texts:
        out.append("instance.polynomials_text disagrees with the coefficients")
    sig = [f.get("sigma") for f in facts if f["kind"] != "dependent_all"]
    if inst.get("activation") is not None:
        if len(facts) != 1 or sig != [inst["activation"]]:
            out.append("facts are not about the declared activation")
    if inst.get("power") is not None:
        zr = ["0"] * inst["power"] + ["1"]
        if kind != "newman-slater" or len(facts) != 1 or sig != [zr]:
            out.append("facts are not about sigma = z^power")
    if inst.get("generic_degree") is not None:
        f = facts[-1]
        d = f["degree"] if f["kind"] == "dependent_all" else len(f["sigma"]) - 1
        if len(facts) != 1 or d != inst["generic_degree"]:
            out.append("facts are not about the declared generic degree")
    if inst.get("search"):
        degs = [f["degree"] if f["kind"] == "dependent_all" else len(f["sigma"]) - 1 for f in facts]
        if (
            degs != sorted(set(degs))
            or any(f["kind"] != "dependent_all" for f in facts[:-1])
            or facts[-1]["kind"] != "independent"
        ):
            out.append(
                "search facts must be dependent_all facts of increasing degree, then one "
                "independence fact"
            )
    if inst.get("origin"):
        if any(not all(any(e) for _, e in q) for q in inst["polynomials"]):
            out.append("origin = true but a polynomial has a constant term (p_i(0) != 0)")
        for f in facts:
            if "sigma" in f and f["sigma"] and Fraction(f["sigma"][0]) != 0:
                out.append("origin = true but a fact's sigma(0) != 0")
            if f["kind"] == "dependent_all" and f["lo"] != 1:
                out.append("origin = true: dependence for every sigma uses j = 1..d")
    elif any(f["kind"] == "dependent_all" and f["lo"] != 0 for f in facts):
        out.append("origin = false: dependence for every sigma needs j = 0..d")
    return out


def _check_mlp(cert: dict[str, Any]) -> list[str]:
    """mlp-identifiable: the kernel facts, then the plan (which result applies) rebuilt."""
    from fractions import Fraction

    from certify.checker.claims.compind import identifiability_plan, mlp_claim, mlp_result

    inst = exact_keys(cert["instance"], "instance", ("network", "theta"))
    net = exact_keys(inst["network"], "instance.network", MLP_NETWORK_KEYS)
    widths = as_nats(net["widths"], "instance.network.widths")
    acts = as_list(net["activations"], "instance.network.activations")
    theta = [int(as_rat(t, "instance.theta")[0]) for t in as_list(inst["theta"], "instance.theta")]
    if net.get("bias") is not False or not acts or any(a != acts[0] for a in acts):
        return ["instance.network: expected no biases and one activation for all layers"]
    if any(as_rat(t, "theta")[1] != 1 for t in inst["theta"]):
        return ["instance.theta: expected integer weights"]
    sig0 = tuple(Fraction(*as_rat(c, "instance.network.activations[0]")) for c in acts[0])
    canon = network_json(MLP(tuple(widths), (sig0,) * len(acts), False))
    bad = mismatch(net, canon, "instance.network", "instance.network is not the canonical table "
                   "of its network")  # fmt: skip
    if bad:  # no stray key, activation texts that match the coefficients
        return bad
    facts = as_list(exact_keys(cert["witness"], "witness", ("facts",))["facts"], "witness.facts")
    if not facts or as_dict(facts[0], "witness.facts[0]").get("kind") != "mlp":
        return ["witness.facts[0]: expected the kind 'mlp' fact"]
    mf = facts[0]
    if mf["widths"] != widths or mf["sigma"] != acts[0] or mf["theta"] != theta:
        return ["witness.facts[0]: not about the instance's network"]
    for i, f in enumerate(facts):
        if not check_fact(as_dict(f, f"witness.facts[{i}]"), 0, [], False, f"witness.facts[{i}]"):
            return [f"witness.facts[{i}] ({f.get('kind')}): rejected by the kernel twin"]
    sigma = [Fraction(c) for c in acts[0]]
    theorem, rmin, _ = identifiability_plan(widths, sigma)
    problems = []
    if mf["rmin"] != rmin:
        problems.append(f"witness.facts[0].rmin = {mf['rmin']}, the plan needs {rmin}")
    want_kinds = ["mlp"] + (["prop33"] if theorem.startswith("width one") else [])
    if [f["kind"] for f in facts] != want_kinds or any(f["sigma"] != acts[0] for f in facts[1:]):
        problems.append(f"witness.facts: expected facts {want_kinds} about the activation")
    res = cert.get("result") or {}
    expect = mlp_result(inst, theorem, res.get("rank_certificate"), res.get("rank_lower"))
    bad = mismatch(res, expect, "result", "result disagrees with the checked facts")
    problems += bad
    if not bad and not same(cert.get("claim"), mlp_claim(inst, expect, facts)):
        problems.append("claim does not match the text rebuilt from the checked facts")
    return problems


def cross_check(c: dict[str, Any], by_name: dict[Any, dict[str, Any]]) -> list[str]:
    """An mlp-identifiable certificate's attached rank certificate (by_name: the bundle's
    certificates) must be present, about the same network and point, and certify the rank
    it reports."""
    res = c.get("result") or {}
    rc = by_name.get(res.get("rank_certificate"))
    if rc is None or rc.get("kind") != "rank":
        return [f"attached rank certificate {res.get('rank_certificate')!r} missing"]
    probs = []
    if rc["instance"]["network"] != c["instance"]["network"] or rc["instance"]["theta"] != [
        str(t) for t in c["instance"]["theta"]
    ]:
        probs.append("attached rank certificate is about another network or point")
    if rc["result"].get("rank_lower") != res.get("rank_lower"):
        probs.append("rank_lower differs from the attached rank certificate's")
    return probs
