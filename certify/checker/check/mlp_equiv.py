"""Independent checker for equivalence certificates of polynomial MLPs (family mlp, kind
equiv): decode both parameter points, bound the lattice the kernel will walk, run the kernel
twin (check_mlp_same or check_mlp_differ of kernel/rank.py), then rebuild the result and
the claim from the instance and compare them exactly (claims/mlp.py states the mathematics).

Certificate data: instance {network, theta, other} (other: the second parameter point, in
theta's order); witness {"kind": "same"} or {"kind": "differ", "x": [integers]}."""

from __future__ import annotations

from typing import Any

from certify.checker.check.rank import decode_instance, network_of, network_problems
from certify.checker.claims.mlp import MAX_EQUIV_POINTS, equiv_claim, equiv_result
from certify.checker.ir import (
    Malformed,
    as_dict,
    as_ints,
    as_list,
    as_rat,
    exact_keys,
    mismatch,
    same,
)
from certify.checker.kernel import rank as K
from certify.checker.kernel.arith import Rat
from certify.checker.kernel.net import degree_bound, first_width

INSTANCE_KEYS = ("network", "theta", "other")


def lattice_within(n0: int, degree: int, limit: int) -> bool:
    """C(n0 + degree, n0) <= limit, decided without computing a huge binomial: the running
    product C(degree + i, i) grows with i, so the loop stops as soon as it exceeds limit."""
    c = 1
    for i in range(1, n0 + 1):
        c = c * (degree + i) // i
        if c > limit:
            return False
    return True


def decode(cert: dict[str, Any]) -> tuple[K.RankInstance, list[Rat]]:
    """The kernel instance (an MLP and theta) and the second parameter point."""
    inst = exact_keys(cert["instance"], "instance", INSTANCE_KEYS)
    view = {**cert, "instance": {k: inst[k] for k in ("network", "theta")}}
    decoded = decode_instance(view)
    if not isinstance(decoded, K.RankInstance):
        raise Malformed("instance.network: kind equiv of family mlp needs an MLP")
    other = [
        as_rat(t, f"instance.other[{i}]")
        for i, t in enumerate(as_list(inst["other"], "instance.other"))
    ]
    if len(other) != len(decoded.theta):
        raise Malformed(
            f"instance.other: expected {len(decoded.theta)} entries (one per parameter), "
            f"got {len(other)}"
        )
    return decoded, other


def check(cert: dict[str, Any]) -> list[str]:
    inst, other = decode(cert)
    problems = network_problems(cert, inst)
    if problems:
        return problems
    w = as_dict(cert["witness"], "witness")
    if w.get("kind") == "same":
        exact_keys(w, "witness", ("kind",))
        if not lattice_within(first_width(inst.widths), degree_bound(inst.acts), MAX_EQUIV_POINTS):
            return [
                f"instance.network: the lattice of kind equiv has more than {MAX_EQUIV_POINTS} "
                "points (input width and activation degrees too large)"
            ]
        if not K.check_mlp_same(inst, other):
            return ["witness: check_mlp_same rejects it (the maps differ on the lattice)"]
        witness: dict[str, Any] = {"kind": "same"}
    elif w.get("kind") == "differ":
        exact_keys(w, "witness", ("kind", "x"))
        x = as_ints(w["x"], "witness.x")
        if not K.check_mlp_differ(inst, other, x):
            return ["witness.x: check_mlp_differ rejects it (the maps agree there)"]
        witness = {"kind": "differ", "x": x}
    else:
        raise Malformed("witness.kind: expected 'same' or 'differ'")
    net = network_of(inst)
    expect = equiv_result(net, witness)  # type: ignore[arg-type]
    bad = mismatch(
        cert.get("result"), expect, "result", "result disagrees with the checked witness"
    )
    if bad:
        return bad
    if not same(cert.get("claim"), equiv_claim(net, expect)):  # type: ignore[arg-type]
        return ["claim does not match the text rebuilt from the checked witness"]
    return []
