"""The independent checker: pure Python ints, twin of the Lean and Coq kernel libraries.

`check_certificate` validates the envelope (schema, family, kind, name, the exact set of
top-level fields) and dispatches through the one registry (certify/checker/registry.py)."""

from __future__ import annotations

from typing import Any

from certify.checker import registry
from certify.checker.check.nats import nat_problems
from certify.checker.ir import NAME_RE, SCHEMA, Malformed, family_of

ENVELOPE = {"schema", "family", "kind", "name", "instance", "witness", "result", "claim",
            "generator"}  # fmt: skip
# The kinds whose certificates are not about a network table (instance.network absent).
NO_NETWORK = {(k.family, k.kind) for k in registry.KINDS if not k.network}


def cross_check(certs: list[dict[str, Any]]) -> dict[str, list[str]]:
    """Problems between certificates of one bundle (attached certificates), by name: each
    certificate whose registry line has a `cross_check` is checked by it against the bundle's
    certificates by name (a repeated name, which the bundle rejects anyway: the last)."""
    by_name = {c.get("name"): c for c in certs}
    out: dict[str, list[str]] = {}
    for c in certs:
        line = registry.lookup(c.get("family"), c.get("kind"))
        if line is None or not line.cross_check:
            continue
        probs = registry.resolve(line.cross_check_path)(c, by_name)
        if probs:
            out[c["name"]] = out.get(c["name"], []) + probs
    return out


def envelope_problems(cert: Any) -> list[str]:
    """What is wrong with the envelope of a certificate (empty: it can be dispatched)."""
    if not isinstance(cert, dict):
        return ["certificate: expected a JSON object"]
    if cert.get("schema") != SCHEMA:
        return [f"schema: expected {SCHEMA!r}"]
    name = cert.get("name")
    if not isinstance(name, str) or not NAME_RE.match(name):
        return [f"name: expected letters, digits, '_', '-', '.', got {name!r}"]
    if set(cert) != ENVELOPE:
        return [f"certificate: expected exactly the fields {sorted(ENVELOPE)}, got {sorted(cert)}"]
    family, kind = cert["family"], cert["kind"]
    if registry.lookup(family, kind) is None:
        if family not in registry.FAMILIES:
            return [f"family: expected one of {list(registry.FAMILIES)}, got {family!r}"]
        return [f"kind: family {family!r} has kinds {registry.kinds_of(family)}, got {kind!r}"]
    inst = cert["instance"]
    net = inst.get("network") if isinstance(inst, dict) else None
    if (family, kind) in NO_NETWORK:
        if net is not None:
            return [f"instance.network: a {family} {kind} certificate has no network"]
    elif not isinstance(net, dict) or net.get("family") != family:
        got = net.get("family") if isinstance(net, dict) else net
        return [f"instance.network.family: expected {family!r} (the certificate's family), "
                f"got {got!r}"]  # fmt: skip
    return []


def check_certificate(cert: dict[str, Any]) -> list[str]:
    """Problems found in a certificate (an empty list means it is accepted).

    Validates the envelope once, bounds the fields written as Coq nats (checker/check/nats.py),
    dispatches on (family, kind), and turns any malformed field into a reported problem
    rather than an exception."""
    problems = envelope_problems(cert)
    if problems:
        return problems
    entry = registry.lookup(cert["family"], cert["kind"])
    assert entry is not None
    problems = nat_problems(cert)  # before any kind's checker: values a prover writes unary
    if problems:
        return problems
    try:
        return registry.resolve(entry.check_path)(cert)
    except (
        KeyError,
        TypeError,
        AttributeError,
        ValueError,
        ZeroDivisionError,
        RecursionError,
        IndexError,
        OverflowError,
        Malformed,
    ) as e:
        return [f"malformed {cert['kind']} certificate: {type(e).__name__}: {e}"]
    except MemoryError:  # a field asks for more memory than the machine has: named, not a crash
        return [f"malformed {cert['kind']} certificate: MemoryError: its sizes exceed memory"]


__all__ = ["check_certificate", "cross_check", "envelope_problems", "family_of"]
