"""Certificate generators, one module per certificate family (untrusted oracles), reached
through the one registry (certify/checker/registry.py)."""

from __future__ import annotations

from typing import Any

from certify.checker import registry
from certify.errors import CertifyError
from certify.request import CertRequest, Spec


def request_family(spec: Spec, req: CertRequest) -> str:
    """The family a request belongs to: that of the registry line of its kind that is about
    no network (an activation or polynomials), else its network's."""
    free = registry.network_free(req.kind)
    return free.family if free is not None else str(getattr(spec.network, "family", None))


def generate_certificates(spec: Spec, req: CertRequest) -> list[dict[str, Any]]:
    """All certificates one request yields (mlp-identifiable and critical attach rank
    certificates of their own)."""
    family = request_family(spec, req)
    entry = registry.lookup(family, req.kind)
    if entry is None:
        raise CertifyError(f"{req.name}: family {family!r} has no certificate kind {req.kind!r}")
    out = registry.resolve(entry.generate_path)(spec, req)
    return list(out) if entry.many else [out]


def generate_certificate(spec: Spec, req: CertRequest) -> dict[str, Any]:
    """The certificate one request asks for (the first of generate_certificates)."""
    return generate_certificates(spec, req)[0]
