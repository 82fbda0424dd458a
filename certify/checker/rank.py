"""Independent checker for rank certificates: decode the JSON into kernel data, then run
the twin of the kernel checkers (kernel.py) and cross-check the reported result."""

from __future__ import annotations

from typing import Any

from certify.checker import kernel as K


class Malformed(ValueError):
    """The certificate does not have the expected shape."""


def _int(x: Any, where: str) -> int:
    if isinstance(x, bool) or not isinstance(x, int):
        raise Malformed(f"{where}: expected an integer, got {x!r}")
    return x


def _ints(xs: Any, where: str) -> list[int]:
    if not isinstance(xs, list):
        raise Malformed(f"{where}: expected a list of integers")
    return [_int(x, f"{where}[{i}]") for i, x in enumerate(xs)]


def _matrix(xs: Any, where: str) -> list[list[int]]:
    if not isinstance(xs, list):
        raise Malformed(f"{where}: expected a list of rows")
    return [_ints(r, f"{where}[{i}]") for i, r in enumerate(xs)]


def _rat(s: Any, where: str) -> K.Rat:
    """ "num/den" or "num" -> (num, den), as written (no normalisation, den > 0 required)."""
    if not isinstance(s, str):
        raise Malformed(f"{where}: expected a rational string, got {s!r}")
    num, _, den = s.partition("/")
    try:
        q = (int(num), int(den) if den else 1)
    except ValueError:
        raise Malformed(f"{where}: not a rational: {s!r}") from None
    if q[1] <= 0:
        raise Malformed(f"{where}: denominator must be positive: {s!r}")
    return q


def decode_instance(cert: dict[str, Any]) -> K.RankInstance:
    inst = cert["instance"]
    net = inst["network"]
    if net.get("family") != "mlp":
        raise Malformed("instance.network.family: expected 'mlp'")
    widths = _ints(net["widths"], "instance.network.widths")
    acts = [
        [_rat(c, f"instance.network.activations[{i}][{j}]") for j, c in enumerate(a)]
        for i, a in enumerate(net["activations"])
    ]
    bias = net["bias"]
    if not isinstance(bias, bool):
        raise Malformed("instance.network.bias: expected true or false")
    theta = [_rat(t, f"instance.theta[{i}]") for i, t in enumerate(inst["theta"])]
    return K.RankInstance(widths, acts, bias, theta)


def decode_lower(w: dict[str, Any]) -> tuple[K.LowerWitness, int]:
    rows = _matrix(w["rows"], "witness.lower.rows")
    if not all(len(r) == 2 and min(r) >= 0 for r in rows):
        raise Malformed("witness.lower.rows: expected [sample, output] pairs of naturals")
    cols = _ints(w["cols"], "witness.lower.cols")
    if any(c < 0 for c in cols):
        raise Malformed("witness.lower.cols: expected naturals")
    lw = K.LowerWitness(
        p=_int(w["prime"], "witness.lower.prime"),
        samples=_matrix(w["samples"], "witness.lower.samples"),
        theta_inv=_ints(w["theta_inv"], "witness.lower.theta_inv"),
        acts_inv=_matrix(w["acts_inv"], "witness.lower.acts_inv"),
        rows=[(r[0], r[1]) for r in rows],
        cols=cols,
        inv=_matrix(w["inverse"], "witness.lower.inverse"),
    )
    return lw, _int(w["rank"], "witness.lower.rank")


def decode_upper(w: dict[str, Any]) -> tuple[K.UpperWitness, int]:
    cols = _ints(w["cols"], "witness.upper.cols")
    if any(c < 0 for c in cols):
        raise Malformed("witness.upper.cols: expected naturals")
    uw = K.UpperWitness(
        p=_int(w["prime"], "witness.upper.prime"),
        tangents=_matrix(w["tangents"], "witness.upper.tangents"),
        cols=cols,
        inv=_matrix(w["inverse"], "witness.upper.inverse"),
    )
    return uw, _int(w["bound"], "witness.upper.bound")


def check(cert: dict[str, Any]) -> list[str]:
    """Problems found (empty list: the certificate is accepted)."""
    try:
        inst = decode_instance(cert)
        lw, r = decode_lower(cert["witness"]["lower"])
        up = cert["witness"].get("upper")
        upper = decode_upper(up) if up is not None else None
        res = cert["result"]
    except (KeyError, TypeError, Malformed) as e:
        return [f"malformed rank certificate: {e}"]
    problems = []
    if not K.check_rank_lower(inst, lw, r):
        problems.append(f"lower bound: check_rank_lower rejects the witness for rank {r}")
    u_checked: int | None = None
    if upper is not None:
        uw, u = upper
        if not K.check_rank_upper(inst, uw, u):
            problems.append(f"upper bound: check_rank_upper rejects the witness for bound {u}")
        u_checked = u
    elif r == len(inst.theta):
        u_checked = r
    n = len(inst.theta)
    expect = {
        "params": n,
        "rank_lower": r,
        "rank_upper_at_point": u_checked,
        "rank_at_point": r if u_checked == r else None,
    }
    for k, v in expect.items():
        if res.get(k) != v:
            problems.append(f"result.{k} = {res.get(k)!r} but the witness shows {v!r}")
    return problems
