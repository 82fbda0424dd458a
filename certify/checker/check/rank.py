"""Independent checker for rank certificates: decode the JSON into kernel data, then run
the twin of the kernel checkers (kernel/rank.py, kernel/resnet.py) and cross-check the
reported result."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from certify.checker.claims.rank import rank_claim, rank_result, trivial_upper, upper_summary
from certify.checker.facts.networks import activation_texts, quadratic_tangents, scaling_tangents
from certify.checker.fast import rank as fast
from certify.checker.fast.rank import is_prime_31
from certify.checker.ir import (
    MLP,
    Malformed,
    ResNet,
    as_dict,
    as_int,
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
from certify.checker.kernel import resnet as KR
from certify.checker.kernel.arith import Rat, p_ok
from certify.checker.kernel.net import first_width
from certify.checker.kernel.net import shape_ok as kernel_shape_ok
from certify.checker.kernel.rank import LowerWitness, RankInstance, UpperWitness


def _canonical_acts(acts: list[list[Rat]]) -> None:
    """Activations are coefficient lists of their exact degree >= 1 (a last coefficient 0
    would make the degree, and a constant activation, look larger than it is)."""
    for i, cs in enumerate(acts):
        if len(cs) < 2 or cs[-1][0] == 0:
            raise Malformed(
                f"instance.network.activations[{i}]: a nonconstant polynomial whose last "
                "coefficient (its degree's) is nonzero"
            )


def decode_instance(cert: dict[str, Any]) -> RankInstance | KR.ResNetInstance:
    """The kernel instance; theta must have one entry per parameter (a shorter one would index
    past its end later: issue 22)."""
    out = _decode_instance(cert)
    want = network_of(out).n_params
    if len(out.theta) != want:
        raise Malformed(f"instance.theta: expected {want} entries (one per parameter), "
                        f"got {len(out.theta)}")  # fmt: skip
    return out


def _decode_instance(cert: dict[str, Any]) -> RankInstance | KR.ResNetInstance:
    inst = exact_keys(cert["instance"], "instance", INSTANCE_KEYS)  # every MLP/ResNet kind
    net = as_dict(inst["network"], "instance.network")
    if net.get("family") == "resnet":
        width = as_int(net["width"], "instance.network.width")
        acts = [
            [
                as_rat(c, f"instance.network.activations[{i}][{j}]")
                for j, c in enumerate(as_list(a, "a"))
            ]
            for i, a in enumerate(as_list(net["activations"], "instance.network.activations"))
        ]
        _canonical_acts(acts)
        if width < 0 or net.get("depth") != len(acts) or not isinstance(net["outer"], bool):
            raise Malformed("instance.network: width, depth, outer inconsistent")
        theta = [
            as_rat(t, f"instance.theta[{i}]") for i, t in enumerate(as_list(inst["theta"], "t"))
        ]
        return KR.ResNetInstance(width, acts, net["outer"], theta)
    if net.get("family") != "mlp":
        raise Malformed("instance.network.family: expected 'mlp' or 'resnet'")
    widths = as_nats(net["widths"], "instance.network.widths")
    acts = [
        [
            as_rat(c, f"instance.network.activations[{i}][{j}]")
            for j, c in enumerate(as_list(a, "a"))
        ]
        for i, a in enumerate(as_list(net["activations"], "instance.network.activations"))
    ]
    _canonical_acts(acts)
    bias = net["bias"]
    if not isinstance(bias, bool):
        raise Malformed("instance.network.bias: expected true or false")
    theta = [as_rat(t, f"instance.theta[{i}]") for i, t in enumerate(as_list(inst["theta"], "th"))]
    return RankInstance(widths, acts, bias, theta)


INSTANCE_KEYS = {"network", "theta"}
WITNESS_KEYS = {"lower", "upper", "generic"}
LOWER_KEYS = {"rank", "prime", "samples", "theta_inv", "acts_inv", "rows", "cols"}
UPPER_KEYS = {"kind", "bound", "grid", "prime", "tangents", "cols", "moduli"}


def decode_lower(w: dict[str, Any]) -> tuple[LowerWitness, int]:
    w = as_dict(w, "witness.lower")
    rows = as_matrix(w["rows"], "witness.lower.rows")
    if not all(len(r) == 2 and min(r) >= 0 for r in rows):
        raise Malformed("witness.lower.rows: expected [sample, output] pairs of naturals")
    cols = as_nats(w["cols"], "witness.lower.cols")
    lw = LowerWitness(
        p=as_int(w["prime"], "witness.lower.prime"),
        samples=as_matrix(w["samples"], "witness.lower.samples"),
        theta_inv=as_ints(w["theta_inv"], "witness.lower.theta_inv"),
        acts_inv=as_matrix(w["acts_inv"], "witness.lower.acts_inv"),
        rows=[(r[0], r[1]) for r in rows],
        cols=cols,
    )
    exact_keys(w, "witness.lower", LOWER_KEYS)
    return lw, as_int(w["rank"], "witness.lower.rank")


def decode_upper(w: dict[str, Any]) -> tuple[UpperWitness, int]:
    w = as_dict(w, "witness.upper")
    cols = as_nats(w["cols"], "witness.upper.cols")
    uw = UpperWitness(
        p=as_int(w["prime"], "witness.upper.prime"),
        tangents=as_matrix(w["tangents"], "witness.upper.tangents"),
        cols=cols,
        moduli=as_ints(w["moduli"], "witness.upper.moduli"),
    )
    exact_keys(w, "witness.upper", UPPER_KEYS)
    bound = as_int(w["bound"], "witness.upper.bound")
    if bound < 0:
        raise Malformed("witness.upper.bound: expected a natural number")
    return uw, bound


GENERIC_KEYS = {"prime", "points", "ranks"}


def check_generic(
    inst: RankInstance | KR.ResNetInstance, w: Any
) -> tuple[dict[str, Any] | None, list[str]]:
    """The generic-rank evidence (witness.generic): a prime q, points {theta, samples} of
    residues and the recorded rank at each; the checker recomputes every rank (the Jacobian
    at the point, vectorised as the kernel twins', rank by elimination mod q) and returns
    {"prime", "points", "rank": the largest} for rank_result, or the problems found."""
    if w is None:
        return None, []
    w = exact_keys(w, "witness.generic", GENERIC_KEYS)
    q = as_int(w["prime"], "witness.generic.prime")
    pts = as_list(w["points"], "witness.generic.points")
    ranks = as_nats(w["ranks"], "witness.generic.ranks")
    if not (p_ok(q) and fast.is_prime_31(q)):
        return None, ["witness.generic.prime: expected a prime below 2^31"]
    if not pts or len(ranks) != len(pts):
        return None, ["witness.generic: expected one rank per point, at least one point"]
    if any(b % q == 0 for cs in inst.acts for _, b in cs):
        return None, ["witness.generic.prime divides a denominator of an activation"]
    n = len(inst.theta)
    d0 = inst.width if isinstance(inst, KR.ResNetInstance) else first_width(inst.widths)
    got = []
    for i, pt in enumerate(pts):
        pt = exact_keys(pt, f"witness.generic.points[{i}]", ("theta", "samples"))
        th = as_ints(pt["theta"], f"witness.generic.points[{i}].theta")
        xs = as_matrix(pt["samples"], f"witness.generic.points[{i}].samples")
        if len(th) != n or not xs or any(len(x) != d0 for x in xs):
            return None, [f"witness.generic.points[{i}]: theta or samples of the wrong shape"]
        got.append(fast.jacobian_rank_mod(inst, q, th, xs))
    if got != ranks:
        return None, [f"witness.generic.ranks = {ranks} but the checker recomputes {got}"]
    return {"prime": q, "points": len(pts), "rank": max(got)}, []


def network_of(inst: RankInstance | KR.ResNetInstance) -> MLP | ResNet:
    """The spec-level network of a decoded instance (for claim texts and derived fields)."""
    acts = tuple(tuple(Fraction(a, b) for a, b in cs) for cs in inst.acts)
    if isinstance(inst, KR.ResNetInstance):
        return ResNet(inst.width, acts, inst.outer)
    return MLP(tuple(inst.widths), acts, inst.bias)


def network_problems(cert: dict[str, Any], inst: RankInstance | KR.ResNetInstance) -> list[str]:
    """The instance's network table must be exactly the canonical one of the decoded network
    (no stray keys, activation texts that match the coefficients)."""
    return mismatch(
        cert["instance"]["network"], network_json(network_of(inst)), "instance.network",
        "instance.network is not the canonical table of its network",
    )  # fmt: skip


def lower_ok(inst: RankInstance | KR.ResNetInstance, w: LowerWitness, r: int) -> bool:
    """The kernel twins' lower-bound check, on the vectorised path (checker/fast/rank.py)."""
    if isinstance(inst, KR.ResNetInstance):
        return fast.check_rank_lower_resnet(inst, w, r)
    return fast.check_rank_lower(inst, w, r)


def upper_ok(inst: RankInstance | KR.ResNetInstance, w: UpperWitness, u: int) -> bool:
    """The kernel twins' upper-bound check, on the vectorised path (checker/fast/rank.py)."""
    if isinstance(inst, KR.ResNetInstance):
        return fast.check_rank_upper_resnet(inst, w, u)
    return fast.check_rank_upper(inst, w, u)


def shape_ok(inst: RankInstance | KR.ResNetInstance) -> bool:
    if isinstance(inst, KR.ResNetInstance):
        return KR.resnet_shape_ok(inst, [])
    return kernel_shape_ok(inst.widths, inst.acts, inst.bias, inst.theta, [])


def check(cert: dict[str, Any]) -> list[str]:
    """Problems found in a rank certificate whose envelope (schema, name) was validated by
    certify.checker.check_certificate; malformed fields raise Malformed or KeyError."""
    exact_keys(cert["witness"], "witness", ("lower",), WITNESS_KEYS)
    inst = decode_instance(cert)
    if network_problems(cert, inst):  # no stray key in instance.network (issue 22)
        return network_problems(cert, inst)
    lw, r = decode_lower(cert["witness"]["lower"])
    up = cert["witness"].get("upper")
    if not is_prime_31(lw.p) or (up is not None and not is_prime_31(as_dict(up, "u").get("prime"))):
        # what Coq's prime_ok checks (trial division, ElimSound.v); the claim says "the prime p"
        return ["witness.lower.prime / witness.upper.prime: not a prime (below 2^31)"]
    upper = decode_upper(up) if up is not None else None
    problems = []
    if not lower_ok(inst, lw, r):
        return [f"lower bound: check_rank_lower rejects the witness for rank {r}"]
    u_checked: int | None = None
    if upper is not None:
        uw, u = upper
        if not upper_ok(inst, uw, u):
            return [f"upper bound: check_rank_upper rejects the witness for bound {u}"]
        u_checked = u
    elif r == len(inst.theta) or r == trivial_upper(network_of(inst)):
        u_checked = r
    # Everything the certificate *says* is rebuilt from what was checked.
    try:
        mlp = network_of(inst)
        if not shape_ok(inst):
            raise ValueError("malformed network")
    except (ValueError, ZeroDivisionError) as e:
        return [f"instance: {e}"]
    summary = None
    if upper is not None:
        kind = up.get("kind")
        if kind not in ("scaling", "symmetry", "nullspace"):
            problems.append(
                f"witness.upper.kind: expected scaling, symmetry or nullspace, got {kind!r}"
            )
        else:
            summary = upper_summary(kind, u_checked, mlp)  # type: ignore[arg-type]
            for k in ("kind", "bound", "grid"):
                what = f"witness.upper.{k} disagrees with the checked witness"
                problems += mismatch(up.get(k), summary[k], f"witness.upper.{k}", what)
            theta = [Fraction(a, b) for a, b in inst.theta]
            if kind == "scaling" and upper[0].tangents != scaling_tangents(mlp, theta):
                problems.append("witness.upper: kind 'scaling' but not the scaling tangents")
            if kind == "symmetry" and upper[0].tangents != scaling_tangents(
                mlp, theta
            ) + quadratic_tangents(mlp, theta):
                problems.append("witness.upper: kind 'symmetry' but not the symmetry tangents")
    generic, gprobs = check_generic(inst, cert["witness"].get("generic"))
    if gprobs:
        return gprobs
    expect = rank_result(mlp, r, u_checked, None if up is None else up.get("kind"), generic)
    res = cert.get("result")
    if not same(res, expect):  # the repr names a stray key
        problems.append(f"result = {res!r} but the checked witness gives {expect!r}")
    claim = rank_claim(mlp, expect, summary, lw.p)
    if not same(cert.get("claim"), claim):
        problems.append("claim does not match the text rebuilt from the checked witness")
    texts = activation_texts(mlp)
    if not same(cert["instance"]["network"].get("activations_text"), texts):
        problems.append("instance.network.activations_text disagrees with the coefficients")
    return problems
