"""Independent checker for rank certificates: decode the JSON into kernel data, then run
the twin of the kernel checkers (kernel.py) and cross-check the reported result."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from certify.checker import fast
from certify.checker import kernel as K
from certify.checker import kernel_resnet as KR
from certify.claims import rank_claim, rank_result, trivial_upper, upper_summary
from certify.models.mlp import activation_texts, quadratic_tangents, scaling_tangents
from certify.spec import MLP, ResNet


class Malformed(ValueError):
    """The certificate does not have the expected shape."""


RAT_RE = re.compile(r"^(-?[0-9]+)(?:/([0-9]+))?$")


def _list(x: Any, where: str) -> list[Any]:
    if not isinstance(x, list):
        raise Malformed(f"{where}: expected a list, got {type(x).__name__}")
    return x


def _dict(x: Any, where: str) -> dict[str, Any]:
    if not isinstance(x, dict):
        raise Malformed(f"{where}: expected an object, got {type(x).__name__}")
    return x


def _int(x: Any, where: str) -> int:
    if isinstance(x, bool) or not isinstance(x, int):
        raise Malformed(f"{where}: expected an integer, got {x!r}")
    return x


def _ints(xs: Any, where: str) -> list[int]:
    return [_int(x, f"{where}[{i}]") for i, x in enumerate(_list(xs, where))]


def _nats(xs: Any, where: str) -> list[int]:
    out = _ints(xs, where)
    if any(x < 0 for x in out):
        raise Malformed(f"{where}: expected natural numbers")
    return out


def _matrix(xs: Any, where: str) -> list[list[int]]:
    return [_ints(r, f"{where}[{i}]") for i, r in enumerate(_list(xs, where))]


def _rat(s: Any, where: str) -> K.Rat:
    """ "num/den" or "num" -> (num, den), as written (no normalisation, den > 0 required)."""
    m = RAT_RE.match(s) if isinstance(s, str) else None
    if not m:
        raise Malformed(f'{where}: expected a rational string "num/den", got {s!r}')
    q = (int(m.group(1)), int(m.group(2)) if m.group(2) else 1)
    if q[1] <= 0:
        raise Malformed(f"{where}: denominator must be positive: {s!r}")
    return q


def decode_instance(cert: dict[str, Any]) -> K.RankInstance | KR.ResNetInstance:
    inst = _dict(cert["instance"], "instance")
    net = _dict(inst["network"], "instance.network")
    if net.get("family") == "resnet":
        width = _int(net["width"], "instance.network.width")
        acts = [
            [
                _rat(c, f"instance.network.activations[{i}][{j}]")
                for j, c in enumerate(_list(a, "a"))
            ]
            for i, a in enumerate(_list(net["activations"], "instance.network.activations"))
        ]
        if width < 0 or net.get("depth") != len(acts) or not isinstance(net["outer"], bool):
            raise Malformed("instance.network: width, depth, outer inconsistent")
        theta = [_rat(t, f"instance.theta[{i}]") for i, t in enumerate(_list(inst["theta"], "t"))]
        return KR.ResNetInstance(width, acts, net["outer"], theta)
    if net.get("family") != "mlp":
        raise Malformed("instance.network.family: expected 'mlp' or 'resnet'")
    widths = _nats(net["widths"], "instance.network.widths")
    acts = [
        [_rat(c, f"instance.network.activations[{i}][{j}]") for j, c in enumerate(_list(a, "a"))]
        for i, a in enumerate(_list(net["activations"], "instance.network.activations"))
    ]
    bias = net["bias"]
    if not isinstance(bias, bool):
        raise Malformed("instance.network.bias: expected true or false")
    theta = [_rat(t, f"instance.theta[{i}]") for i, t in enumerate(_list(inst["theta"], "th"))]
    return K.RankInstance(widths, acts, bias, theta)


LOWER_KEYS = {"rank", "prime", "samples", "theta_inv", "acts_inv", "rows", "cols"}
UPPER_KEYS = {"kind", "bound", "grid", "prime", "tangents", "cols", "moduli"}


def decode_lower(w: dict[str, Any]) -> tuple[K.LowerWitness, int]:
    w = _dict(w, "witness.lower")
    rows = _matrix(w["rows"], "witness.lower.rows")
    if not all(len(r) == 2 and min(r) >= 0 for r in rows):
        raise Malformed("witness.lower.rows: expected [sample, output] pairs of naturals")
    cols = _nats(w["cols"], "witness.lower.cols")
    lw = K.LowerWitness(
        p=_int(w["prime"], "witness.lower.prime"),
        samples=_matrix(w["samples"], "witness.lower.samples"),
        theta_inv=_ints(w["theta_inv"], "witness.lower.theta_inv"),
        acts_inv=_matrix(w["acts_inv"], "witness.lower.acts_inv"),
        rows=[(r[0], r[1]) for r in rows],
        cols=cols,
    )
    if set(w) != LOWER_KEYS:
        raise Malformed(f"witness.lower: expected exactly the keys {sorted(LOWER_KEYS)}")
    return lw, _int(w["rank"], "witness.lower.rank")


def decode_upper(w: dict[str, Any]) -> tuple[K.UpperWitness, int]:
    w = _dict(w, "witness.upper")
    cols = _nats(w["cols"], "witness.upper.cols")
    uw = K.UpperWitness(
        p=_int(w["prime"], "witness.upper.prime"),
        tangents=_matrix(w["tangents"], "witness.upper.tangents"),
        cols=cols,
        moduli=_ints(w["moduli"], "witness.upper.moduli"),
    )
    if set(w) != UPPER_KEYS:
        raise Malformed(f"witness.upper: expected exactly the keys {sorted(UPPER_KEYS)}")
    bound = _int(w["bound"], "witness.upper.bound")
    if bound < 0:
        raise Malformed("witness.upper.bound: expected a natural number")
    return uw, bound


def network_of(inst: K.RankInstance | KR.ResNetInstance) -> MLP | ResNet:
    """The spec-level network of a decoded instance (for claim texts and derived fields)."""
    acts = tuple(tuple(Fraction(a, b) for a, b in cs) for cs in inst.acts)
    if isinstance(inst, KR.ResNetInstance):
        return ResNet(inst.width, acts, inst.outer)
    return MLP(tuple(inst.widths), acts, inst.bias)


def network_problems(cert: dict[str, Any], inst: K.RankInstance | KR.ResNetInstance) -> list[str]:
    """The instance's network table must be exactly the canonical one of the decoded network
    (no stray keys, activation texts that match the coefficients)."""
    from certify.spec import network_json

    if not _same(cert["instance"]["network"], network_json(network_of(inst))):
        return ["instance.network is not the canonical table of its network"]
    return []


def lower_ok(inst: K.RankInstance | KR.ResNetInstance, w: K.LowerWitness, r: int) -> bool:
    """The kernel twins' lower-bound check, on the vectorised path (checker/fast.py)."""
    if isinstance(inst, KR.ResNetInstance):
        return fast.check_rank_lower_resnet(inst, w, r)
    return fast.check_rank_lower(inst, w, r)


def upper_ok(inst: K.RankInstance | KR.ResNetInstance, w: K.UpperWitness, u: int) -> bool:
    """The kernel twins' upper-bound check, on the vectorised path (checker/fast.py)."""
    if isinstance(inst, KR.ResNetInstance):
        return fast.check_rank_upper_resnet(inst, w, u)
    return fast.check_rank_upper(inst, w, u)


def shape_ok(inst: K.RankInstance | KR.ResNetInstance) -> bool:
    if isinstance(inst, KR.ResNetInstance):
        return KR.resnet_shape_ok(inst, [])
    return K.shape_ok(inst.widths, inst.acts, inst.bias, inst.theta, [])


def _same(a: Any, b: Any) -> bool:
    """Equality that does not identify 3 with 3.0 or True with 1."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b


def check(cert: dict[str, Any]) -> list[str]:
    """Problems found in a rank certificate whose envelope (schema, name) was validated by
    certify.checker.check_certificate; malformed fields raise Malformed or KeyError."""
    inst = decode_instance(cert)
    lw, r = decode_lower(cert["witness"]["lower"])
    up = cert["witness"].get("upper")
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
                if not _same(up.get(k), summary[k]):
                    problems.append(f"witness.upper.{k} disagrees with the checked witness")
            theta = [Fraction(a, b) for a, b in inst.theta]
            if kind == "scaling" and upper[0].tangents != scaling_tangents(mlp, theta):
                problems.append("witness.upper: kind 'scaling' but not the scaling tangents")
            if kind == "symmetry" and upper[0].tangents != scaling_tangents(
                mlp, theta
            ) + quadratic_tangents(mlp, theta):
                problems.append("witness.upper: kind 'symmetry' but not the symmetry tangents")
    expect = rank_result(mlp, r, u_checked)
    res = cert.get("result")
    if not _same(res, expect):
        problems.append(f"result = {res!r} but the checked witness gives {expect!r}")
    claim = rank_claim(mlp, expect, summary, lw.p)
    if not _same(cert.get("claim"), claim):
        problems.append("claim does not match the text rebuilt from the checked witness")
    texts = activation_texts(mlp)
    if not _same(cert["instance"]["network"].get("activations_text"), texts):
        problems.append("instance.network.activations_text disagrees with the coefficients")
    return problems
