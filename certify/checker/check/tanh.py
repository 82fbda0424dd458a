"""Independent checker of the tanh certificates: decode the instance, run the kernel twin
(certify/checker/kernel/tanh.py) on every kernel fact, re-prove every affine symmetry with
sympy (certify/checker/facts/tanh_sym.py), count non-free orbits with its own enumeration
(certify/checker/facts/tanh_orbit.py), and rebuild result and claim from what was checked.

It imports nothing from the generators: it does not re-run the search for the affine symmetry
group (certify/families/tanh/affsym.py); what that search alone establishes (completeness of
the list) the claim states as computed by the generator, not checked."""

from __future__ import annotations

from typing import Any

from certify.checker.facts import tanh_net as N
from certify.checker.ir import (
    MAX_NAT,
    Malformed,
    as_dict,
    as_int,
    as_list,
    difference,
    exact_keys,
    mismatch,
    parse_rat_str,
    same,
)
from certify.checker.kernel import tanh as KT

Rat = tuple[int, int]


def _rat(v: Any, where: str) -> Rat:
    if not isinstance(v, str):
        raise Malformed(f"{where}: expected a rational string")
    try:
        f = parse_rat_str(v)
    except ValueError as e:
        raise Malformed(f"{where}: {e}") from None
    return (f.numerator, f.denominator)


def to_instance(net: N.TanhNet) -> KT.TanhInstance:
    return KT.TanhInstance(
        net.n_in,
        net.n_out,
        [list(r) for r in net.adj],
        [[(w.numerator, w.denominator) for w in r] for r in net.weights],
        [(b.numerator, b.denominator) for b in net.biases],
    )


def decode_net(network: dict[str, Any], params: dict[str, Any], where: str) -> N.TanhNet:
    network, params = as_dict(network, "instance.network"), as_dict(params, where)
    counts = [as_int(network[k], f"instance.network.{k}") for k in ("inputs", "hidden", "outputs")]
    n = sum(counts)
    if min(counts) < 1 or max(counts) > MAX_NAT:
        # positive, and bounded before any list of n entries is built (the renderers decode
        # with this function too: a forged count of 10^9 would exhaust their memory)
        raise Malformed(f"instance.network: node counts are positive and at most {MAX_NAT}")
    if len(as_list(params["biases"], f"{where}.biases")) != n - counts[0]:
        # before any list of n entries is built (a forged count of 10^9 would exhaust memory)
        raise Malformed(f"{where}.biases: one per hidden and output node")
    source = network.get("source")
    if source is not None and (not isinstance(source, str) or not N.SOURCE_RE.match(source)):
        raise Malformed(f"instance.network.source: {N.SOURCE_GRAMMAR}")
    labels = network.get("labels")
    fixed = [*range(counts[0]), *range(n - counts[2], n)]  # inputs and outputs keep their number
    if labels is not None and not (
        isinstance(labels, list)
        and all(isinstance(x, int) and not isinstance(x, bool) for x in labels)
        and sorted(labels) == list(range(n))
        and all(labels[i] == i for i in fixed)
    ):
        raise Malformed(
            "instance.network.labels: null or a renumbering of the hidden nodes (a permutation "
            "of the node numbers that fixes every input and output)"
        )
    widths = network.get("widths")
    if widths is not None and not (
        isinstance(widths, list)
        and all(isinstance(x, int) and not isinstance(x, bool) and x >= 1 for x in widths)
    ):
        raise Malformed("instance.network.widths: null or a list of positive integers")
    for k, e in enumerate(as_list(params["edges"], f"{where}.edges")):
        if not isinstance(e, list) or len(e) != 3 or not all(isinstance(x, int) for x in e[:2]):
            raise Malformed(f"{where}.edges[{k}]: expected [source, target, weight]")
        if not (0 <= e[0] < n and 0 <= e[1] < n):
            raise Malformed(f"{where}.edges[{k}]: node out of range")
        _rat(e[2], f"{where}.edges[{k}]")
    if len(as_list(params["biases"], f"{where}.biases")) != n - counts[0]:
        raise Malformed(f"{where}.biases: one per hidden and output node")
    for k, b in enumerate(params["biases"]):
        _rat(b, f"{where}.biases[{k}]")
    exact_keys(params, where, ("edges", "biases"))
    net = N.from_json(network, params)
    d = difference(network, N.network_json(net), "instance.network")
    if d is not None:  # no stray key, no 2.9 read as 2
        raise Malformed(f"instance.network: not the canonical table of its network ({d})")
    d = difference(params, N.params_json(net), where)
    if d is not None:  # each edge once (a repeat would keep one weight)
        raise Malformed(f"{where}: not the canonical edges and biases of its network ({d})")
    return net


ORBIT_INSTANCE = ("network", "parameters", "symmetry", "rho_order")


def decode_sym(inst: dict[str, Any]) -> tuple[KT.AffSym, bool]:
    sym = inst["symmetry"]
    order = inst["rho_order"]
    if order not in (1, 2) or (order == 2) != (sym is not None):
        raise Malformed("instance.rho_order: 1 (no symmetry) or 2 (with instance.symmetry)")
    if sym is None:
        return KT.AffSym((1, 1), (0, 1), (1, 1), (0, 1)), False
    vals = [_rat(v, "instance.symmetry") for v in as_list(sym, "instance.symmetry")]
    if len(vals) != 4:
        raise Malformed("instance.symmetry: four rationals (alpha, beta, gamma, delta)")
    return KT.AffSym(*vals), True


def decode_element(
    e: Any, size: int, where: str, extra: tuple[str, ...] = ()
) -> tuple[list[bool], list[int]]:
    e = exact_keys(e, where, ("flips", "perm", *extra))
    flips = as_list(e["flips"], f"{where}.flips")
    perm = as_list(e["perm"], f"{where}.perm")
    if not all(f in (0, 1) and isinstance(f, int) for f in flips):
        raise Malformed(f"{where}.flips: 0/1 per node")
    if not all(isinstance(p, int) and not isinstance(p, bool) and p >= 0 for p in perm):
        raise Malformed(f"{where}.perm: naturals")
    return [bool(f) for f in flips], perm


def _sym_problems(inst: dict[str, Any], net: N.TanhNet, s: KT.AffSym, flip: bool) -> list[str]:
    """The flip the group uses (no recomputation of the activation's group): re-proved a
    symmetry of the activation and an involution (tanh_sym.check_flip); for the activations
    of the cited converse theorems, the flip of those theorems' group."""
    from certify.checker.claims.tanh import CONVERSE_SYMMETRY
    from certify.checker.facts.tanh_sym import check_flip, named_activation

    act = named_activation(net.activation, "instance.network.activation")
    problems = check_flip(act, s) if flip else []
    want = CONVERSE_SYMMETRY.get(act.name)
    if want is not None and inst["symmetry"] != want:
        problems.append(f"instance.symmetry: not the flip ({', '.join(want)}) of {act.name}")
    return problems


def _layered_problems(net: N.TanhNet, kis: list[KT.TanhInstance]) -> list[str]:
    """instance.network.widths, when given, must be the graph of every network's edge list
    (check_layered): the claims name the layered network and cite one-layer or deep theorems
    on the strength of it."""
    if net.widths is None:
        return []
    if all(KT.check_layered(list(net.widths), k) for k in kis):
        return []
    return ["instance.network.widths: not the layered graph of the edge lists (check_layered)"]


def _classes(v: Any) -> list[list[int]]:
    cs = as_list(v, "witness.classes")
    for c in cs:
        if not isinstance(c, list) or not all(isinstance(x, int) and x >= 0 for x in c):
            raise Malformed("witness.classes: lists of node numbers")
    return cs


# ---------------------------------------------------------------- affsym
def check_affsym(cert: dict[str, Any]) -> list[str]:
    """The listed group re-checked by tanh_sym.check_group (every identity re-proved; the
    completeness of the list is the generator's, not re-run), its rational part by the kernel
    twin, result and claim rebuilt."""
    from certify.checker.claims.tanh import affsym_claim, affsym_result
    from certify.checker.facts.tanh_sym import check_group, named_activation, rational_table

    act = named_activation(exact_keys(cert["instance"], "instance", ("activation",))["activation"],
                           "instance.activation")  # fmt: skip
    w = exact_keys(cert["witness"], "witness", ("group", "table", "closed"))
    group = as_dict(w["group"], "witness.group")
    problems = check_group(group, act)
    table = [[_rat(v, "witness.table") for v in as_list(row, "witness.table")]
             for row in as_list(w["table"], "witness.table")]  # fmt: skip
    if any(len(row) != 4 for row in table):
        raise Malformed("witness.table: rows of four rationals")
    kt = [KT.AffSym(*row) for row in table]
    closed = group["type"] == "finite" and group["complete"]
    if w["closed"] != closed:
        problems.append("witness.closed: must say whether the table is a complete finite group")
    if not KT.check_affsym_table(kt, bool(w["closed"])):
        problems.append("witness.table: rejected by check_affsym_table")
    if w["table"] != rational_table(group):
        problems.append("witness.table: not the rational, proved elements of the group")
    result = affsym_result(group)
    bad = mismatch(cert.get("result"), result, "result", "result does not match the checked group")
    problems += bad
    if not bad and not same(cert.get("claim"), affsym_claim(group, result, len(table))):
        problems.append("claim does not match the text rebuilt from the checked group")
    return problems


# ---------------------------------------------------------------- orbit
def check_orbit(cert: dict[str, Any]) -> list[str]:
    from certify.checker.claims.tanh import orbit_claim, orbit_result
    from certify.checker.facts.tanh_orbit import MAX_ENUMERATE, orbit_size

    inst = exact_keys(cert["instance"], "instance", ORBIT_INSTANCE)
    net = decode_net(inst["network"], inst["parameters"], "instance.parameters")
    s, flip = decode_sym(inst)
    problems = _sym_problems(inst, net, s, flip)
    ki = to_instance(net)
    problems += _layered_problems(net, [ki])
    w = exact_keys(cert["witness"], "witness", ("classes", "canonical", "to_canonical", "actions"))
    cs = _classes(w["classes"])
    if not KT.check_classes(ki, cs):
        return ["witness.classes: rejected by check_classes"]
    canon = to_instance(decode_net(inst["network"], w["canonical"], "witness.canonical"))
    flips, perm = decode_element(w["to_canonical"], net.size, "witness.to_canonical")
    free = KT.check_free(s, flip, ki, cs)
    gorder = KT.group_order(2 if flip else 1, net.n_hidden, cs)
    if not KT.check_orbit(s, flip, ki, cs, flips, perm, canon, free, gorder):
        problems.append("witness: rejected by check_orbit")
    for i, a in enumerate(as_list(w["actions"], "witness.actions")):
        f2, p2 = decode_element(a, net.size, f"witness.actions[{i}]", ("image",))
        img = to_instance(decode_net(inst["network"], a["image"], f"witness.actions[{i}].image"))
        if not KT.check_apply(s, ki, cs, f2, p2, img):
            problems.append(f"witness.actions[{i}]: rejected by check_apply")
    if free:
        size: int | None = gorder
    elif gorder <= MAX_ENUMERATE:
        size = orbit_size(s, flip, ki, cs)
    else:
        size = None
    result = orbit_result(gorder, size, free, net.n_hidden, [len(c) for c in cs])
    what = "result does not match the orbit rebuilt from the checked data"
    bad = mismatch(cert.get("result"), result, "result", what)
    problems += bad
    if not bad and not same(
        cert.get("claim"), orbit_claim(inst["network"], inst["symmetry"], result)
    ):
        problems.append("claim does not match the text rebuilt from the checked data")
    return problems


# ---------------------------------------------------------------- equiv
def check_equiv(cert: dict[str, Any]) -> list[str]:
    from certify.checker.claims.tanh import equiv_claim, equiv_result, theorem_applies

    inst = exact_keys(cert["instance"], "instance", (*ORBIT_INSTANCE, "other"))
    net = decode_net(inst["network"], inst["parameters"], "instance.parameters")
    other = decode_net(inst["network"], inst["other"], "instance.other")
    s, flip = decode_sym(inst)
    problems = _sym_problems(inst, net, s, flip)
    k1, k2 = to_instance(net), to_instance(other)
    layered = _layered_problems(net, [k1, k2])
    problems += layered
    w = as_dict(cert["witness"], "witness")
    equivalent = "element" in w
    exact_keys(w, "witness", ("element",) if equivalent else ("classes", "first", "second"))
    cs = N.classes(net)
    if equivalent:
        flips, perm = decode_element(w["element"], net.size, "witness.element")
        if not KT.check_equivalent(s, k1, k2, cs, flips, perm):
            problems.append("witness.element: rejected by check_equivalent")
    else:
        cs = _classes(w["classes"])
        parts = []
        for key in ("first", "second"):
            part = exact_keys(w[key], f"witness.{key}", ("element", "canonical"))
            c = to_instance(decode_net(inst["network"], part["canonical"], f"witness.{key}"))
            flips, perm = decode_element(part["element"], net.size, f"witness.{key}.element")
            parts.append((flips, perm, c))
        (f1, p1, c1), (f2, p2, c2) = parts
        if not KT.check_inequivalent(s, flip, k1, k2, cs, f1, p1, c1, f2, p2, c2):
            problems.append("witness: rejected by check_inequivalent")
    one_layer = net.widths is not None and len(net.widths) == 3
    sus = fef = None
    if layered:
        pass  # the genericity conditions presuppose the layered graph
    elif one_layer:
        sus = KT.check_classes(k1, cs) and all(KT.check_sussmann(s, k, cs) for k in (k1, k2))
    elif net.widths is not None:
        fef = KT.check_classes(k1, cs) and all(KT.check_fefferman(k, cs) for k in (k1, k2))
    applies = theorem_applies(net.activation, sus, fef)
    result = equiv_result(equivalent, sus, fef, applies)
    bad = mismatch(cert.get("result"), result, "result", "result does not match what was checked")
    problems += bad
    if not bad and not same(
        cert.get("claim"), equiv_claim(inst["network"], inst["symmetry"], result)
    ):
        problems.append("claim does not match the text rebuilt from the checked data")
    return problems
