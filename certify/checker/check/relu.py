"""Independent checker for ReLU certificates (kinds rank and equiv of family relu): decode
the JSON into kernel data, run the twin of the kernel checkers (kernel/relu.py), then rebuild
every derived field and the claim text from what was checked."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from certify.checker.facts.relu_net import (
    SearchExhausted,
    count_patterns,
    find_symmetry,
    regions_spanned,
    scaling_tangents,
)
from certify.checker.fast import rank as fast
from certify.checker.fast.rank import is_prime_31
from certify.checker.ir import (
    Malformed,
    ReLUNet,
    as_dict,
    as_int,
    as_list,
    as_matrix,
    as_nats,
    as_rat,
    exact_keys,
    mismatch,
    same,
)
from certify.checker.kernel import relu as KR
from certify.checker.kernel.arith import Rat
from certify.checker.kernel.rank import UpperWitness


def decode_instance(cert: dict[str, Any]) -> KR.ReluInstance:
    keys = ("network", "theta", "other") if cert.get("kind") == "equiv" else ("network", "theta")
    inst = exact_keys(cert["instance"], "instance", keys)
    net = exact_keys(inst["network"], "instance.network", ("family", "widths"))
    if net.get("family") != "relu":
        raise Malformed("instance.network: expected {family: relu, widths}")
    widths = as_nats(net["widths"], "instance.network.widths")
    theta = [as_rat(t, f"instance.theta[{i}]") for i, t in enumerate(as_list(inst["theta"], "th"))]
    return KR.ReluInstance(widths, theta)


def decode_other(cert: dict[str, Any]) -> list[Rat]:
    return [
        as_rat(t, f"instance.other[{i}]")
        for i, t in enumerate(as_list(cert["instance"]["other"], "o"))
    ]


def _rats(xs: Any, where: str) -> list[Rat]:
    return [as_rat(x, f"{where}[{i}]") for i, x in enumerate(as_list(xs, where))]


def decode_lower(w: Any) -> tuple[KR.ReluLowerWitness, int]:
    w = exact_keys(w, "witness.lower", LOWER_KEYS)
    rows = as_matrix(w["rows"], "witness.lower.rows")
    if not all(len(r) == 2 and min(r) >= 0 for r in rows):
        raise Malformed("witness.lower.rows: expected [point, output] pairs of naturals")
    batch = [_rats(z, f"witness.lower.batch[{i}]") for i, z in enumerate(as_list(w["batch"], "b"))]
    lw = KR.ReluLowerWitness(
        p=as_int(w["prime"], "witness.lower.prime"),
        batch=batch,
        theta_inv=[as_int(x, "witness.lower.theta_inv") for x in as_list(w["theta_inv"], "ti")],
        batch_inv=as_matrix(w["batch_inv"], "witness.lower.batch_inv"),
        rows=[(r[0], r[1]) for r in rows],
        cols=as_nats(w["cols"], "witness.lower.cols"),
    )
    return lw, as_int(w["rank"], "witness.lower.rank")


LOWER_KEYS = ("rank", "prime", "batch", "theta_inv", "batch_inv", "rows", "cols")
UPPER_KEYS = ("kind", "bound", "prime", "tangents", "cols")


def decode_upper(w: Any) -> tuple[UpperWitness, int]:
    w = exact_keys(w, "witness.upper", UPPER_KEYS)
    uw = UpperWitness(
        p=as_int(w["prime"], "witness.upper.prime"),
        tangents=as_matrix(w["tangents"], "witness.upper.tangents"),
        cols=as_nats(w["cols"], "witness.upper.cols"),
        moduli=[],  # exact rational gradients: the ReLU upper check takes no moduli
    )
    bound = as_int(w["bound"], "witness.upper.bound")
    if bound < 0 or w.get("kind") not in ("scaling", "nullspace"):
        raise Malformed("witness.upper: expected kind 'scaling' or 'nullspace' and a natural bound")
    return uw, bound


def decode_cover(w: Any) -> list[Rat] | None:
    """The cuts of a one-dimensional cover witness (None: no cover claimed)."""
    if w is None:
        return None
    w = exact_keys(w, "witness.cover", ("cuts",))
    return _rats(w["cuts"], "witness.cover.cuts")


def network_of(inst: KR.ReluInstance) -> Any:
    if len(inst.widths) < 2 or min(inst.widths) < 1:
        raise Malformed("instance.network.widths: at least two positive widths")
    return ReLUNet(tuple(inst.widths))


def fractions(xs: list[Rat]) -> list[Fraction]:
    return [Fraction(a, b) for a, b in xs]


def check(cert: dict[str, Any]) -> list[str]:
    if cert.get("kind") == "rank":
        return check_rank(cert)
    if cert.get("kind") == "equiv":
        return check_equiv(cert)
    return [f"kind {cert.get('kind')!r}: family relu has kinds rank and equiv"]


def check_rank(cert: dict[str, Any]) -> list[str]:
    from certify.checker.claims.relu import rank_claim, rank_result

    inst = decode_instance(cert)
    exact_keys(cert["witness"], "witness", ("lower", "upper"), ("cover",))
    lw, r = decode_lower(cert["witness"]["lower"])
    up = cert["witness"].get("upper")
    if not is_prime_31(lw.p) or (up is not None and not is_prime_31(as_dict(up, "u").get("prime"))):
        # what Coq's prime_ok checks (trial division, ElimSound.v)
        return ["witness.lower.prime / witness.upper.prime: not a prime (below 2^31)"]
    cuts = decode_cover(cert["witness"].get("cover"))
    if not fast.check_relu_rank_lower(inst, lw, r):
        return [f"lower bound: check_relu_rank_lower rejects the witness for rank {r}"]
    net = network_of(inst)
    u: int | None = None
    kind: str | None = None
    problems = []
    if up is not None:
        uw, u = decode_upper(up)
        if not fast.check_relu_rank_upper(inst, lw.batch, uw, u):
            return [f"upper bound: check_relu_rank_upper rejects the witness for bound {u}"]
        if uw.p != lw.p:
            problems.append("witness.upper.prime differs from witness.lower.prime")
        if up["kind"] == "scaling" and uw.tangents != scaling_tangents(
            net.widths, fractions(inst.theta)
        ):
            problems.append("witness.upper: kind 'scaling' but not the scaling tangents")
        kind = up["kind"]
    elif net.n_hidden == 0:
        u = net.n_params
    if cuts is not None and not KR.check_relu_cover(inst, lw.batch, cuts):
        return ["witness.cover: check_relu_cover rejects it (the batch misses a linear piece)"]
    batch = [fractions(z) for z in lw.batch]
    th = fractions(inst.theta)
    pats = count_patterns(net.widths, th, batch)
    spanned = regions_spanned(net.widths, th, batch)
    expect = rank_result(net, r, u, len(batch), pats, cuts is not None, kind, spanned)
    problems += mismatch(cert.get("result"), expect, "result",
                         "result disagrees with the checked witness")  # fmt: skip
    if not same(cert.get("claim"), rank_claim(net, expect, lw.p)):
        problems.append("claim does not match the text rebuilt from the checked witness")
    return problems


def check_equiv(cert: dict[str, Any]) -> list[str]:
    from certify.checker.claims.relu import equiv_claim, equiv_result

    inst = decode_instance(cert)
    th2 = decode_other(cert)
    net = network_of(inst)
    w = as_dict(cert["witness"], "witness")
    problems: list[str] = []
    search = None
    if w.get("kind") == "differ":
        exact_keys(w, "witness", ("kind", "x"))  # a differ witness
        if not KR.check_relu_differ(inst, th2, as_rat(w["x"], "witness.x")):
            return ["witness.x: check_relu_differ rejects it (the functions agree there)"]
    elif w.get("kind") == "equivalent":
        keys = ("kind", "points") + (("perms", "scales") if "perms" in w or "scales" in w else ())
        exact_keys(w, "witness", keys)
        pts = _rats(w["points"], "witness.points")
        if not KR.check_relu_equiv(inst, th2, pts):
            return ["witness.points: check_relu_equiv rejects them"]
        if "perms" in w:
            perms = [as_nats(pm, "witness.perms") for pm in as_list(w["perms"], "witness.perms")]
            scales = [_rats(sc, "witness.scales") for sc in as_list(w["scales"], "witness.scales")]
            if not KR.check_relu_symmetry(inst, th2, perms, scales):
                return ["witness.perms/scales: check_relu_symmetry rejects the group element"]
            search = "found"
        else:
            # The claim "no group element" is the checker's own exhaustive exact search.
            try:
                found = find_symmetry(net.widths, fractions(inst.theta), fractions(th2))
                search = "none" if found is None else "found"
            except SearchExhausted:
                search = "undecided"
            if search == "found":
                problems.append(
                    "witness: a permutation-scaling group element exists but is not given"
                )
    else:
        raise Malformed("witness.kind: expected 'differ' or 'equivalent'")
    expect = equiv_result(net, w, search)
    problems += mismatch(cert.get("result"), expect, "result",
                         "result disagrees with the checked witness")  # fmt: skip
    if not same(cert.get("claim"), equiv_claim(net, expect)):
        problems.append("claim does not match the text rebuilt from the checked witness")
    return problems
