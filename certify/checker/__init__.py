"""The independent checker: pure Python ints, twin of the Lean and Coq kernel libraries."""

from __future__ import annotations

from typing import Any

COMPIND_KINDS = ("compind", "prop21", "newman-slater", "mlp-identifiable")


def cross_check(certs: list[dict[str, Any]]) -> dict[str, list[str]]:
    """Problems between certificates of one bundle (attached certificates), by name."""
    from certify.checker import compind, critical

    out = compind.cross_check(certs)
    for name, probs in critical.cross_check(certs).items():
        out[name] = out.get(name, []) + probs
    return out


def check_certificate(cert: dict[str, Any]) -> list[str]:
    """Problems found in a certificate (an empty list means it is accepted).

    Validates the envelope (schema, name) once, dispatches on the kind, and turns any
    malformed field into a reported problem rather than an exception."""
    from certify.certificate import SCHEMA
    from certify.checker import compind, critical, implicit, orbit, rank, tanh
    from certify.checker.ir import Malformed
    from certify.spec import NAME_RE

    if not isinstance(cert, dict):
        return ["certificate: expected a JSON object"]
    if cert.get("schema") != SCHEMA:
        return [f"schema: expected {SCHEMA!r}"]
    name = cert.get("name")
    if not isinstance(name, str) or not NAME_RE.match(name):
        return [f"name: expected letters, digits, '_', '-', '.', got {name!r}"]
    kind = cert.get("kind")
    family = None
    if isinstance(cert.get("instance"), dict) and isinstance(cert["instance"].get("network"), dict):
        family = cert["instance"]["network"].get("family")
    checks = {
        "rank": rank.check,
        "orbit": tanh.check_orbit if family == "tanh" else orbit.check,
        "critical": critical.check,
        "implicit": implicit.check,
        "affsym": tanh.check_affsym,
        "equiv": tanh.check_equiv,
        **dict.fromkeys(COMPIND_KINDS, compind.check),
    }
    check = checks.get(kind)  # type: ignore[arg-type]
    if _family(cert) == "relu":  # kind names are shared between families
        from certify.checker import relu

        check = relu.check
    if check is None:
        return [f"unknown certificate kind {kind!r}"]
    try:
        return check(cert)
    except (
        KeyError,
        TypeError,
        AttributeError,
        ValueError,
        ZeroDivisionError,
        RecursionError,
        Malformed,
    ) as e:
        return [f"malformed {kind} certificate: {type(e).__name__}: {e}"]


def _family(cert: dict[str, Any]) -> Any:
    inst = cert.get("instance")
    net = inst.get("network") if isinstance(inst, dict) else None
    return net.get("family") if isinstance(net, dict) else None
