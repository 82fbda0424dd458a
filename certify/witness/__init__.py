"""Certificate generators, one module per certificate family (untrusted oracles)."""

from __future__ import annotations

from typing import Any

from certify.spec import CertRequest, Spec


def generate_certificates(spec: Spec, req: CertRequest) -> list[dict[str, Any]]:
    """All certificates one request yields (mlp-identifiable attaches a rank certificate)."""
    if req.kind == "mlp-identifiable":
        from certify.witness import mlp_ident

        return mlp_ident.generate(spec, req)
    if req.kind == "critical":
        from certify.witness import critical

        return critical.generate(spec, req)
    return [generate_certificate(spec, req)]


def generate_certificate(spec: Spec, req: CertRequest) -> dict[str, Any]:
    if getattr(spec.network, "family", None) == "relu":  # kinds rank and equiv of ReLU nets
        from certify.witness import relu

        return relu.generate(spec, req)
    if req.kind == "rank":
        from certify.witness import rank

        return rank.generate(spec, req)
    if req.kind in ("affsym", "equiv") or (
        req.kind == "orbit"
        and spec.network is not None
        and spec.network.__class__.__name__ == "TanhNet"
    ):
        from certify.witness import tanh

        return {"affsym": tanh.generate_affsym, "orbit": tanh.generate_orbit,
                "equiv": tanh.generate_equiv}[req.kind](spec, req)  # fmt: skip
    if req.kind == "orbit":
        from certify.witness import orbit

        return orbit.generate(spec, req)
    if req.kind == "implicit":
        from certify.witness import implicit

        return implicit.generate(spec, req)
    if req.kind in ("compind", "prop21", "newman-slater"):
        from certify.witness import compind

        return compind.generate(spec, req)
    raise ValueError(f"unknown certificate kind {req.kind!r}")
