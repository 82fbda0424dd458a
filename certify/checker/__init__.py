"""The independent checker: pure Python ints, twin of the Lean and Coq kernel libraries."""

from __future__ import annotations

from typing import Any


def check_certificate(cert: dict[str, Any]) -> list[str]:
    """Problems found in a certificate (an empty list means it is accepted)."""
    kind = cert.get("kind")
    if kind == "rank":
        from certify.checker import rank

        return rank.check(cert)
    if kind in ("compind", "prop21", "newman-slater", "mlp-identifiable"):
        from certify.checker import compind

        return compind.check(cert)
    return [f"unknown certificate kind {kind!r}"]
