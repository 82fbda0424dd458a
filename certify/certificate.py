"""Certificate IR: canonical JSON (design.md §7) and its sha256 identity."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from certify.checker.ir import SCHEMA as SCHEMA


def _no_floats(x: Any, path: str = "$") -> None:
    if isinstance(x, float):
        raise ValueError(f"float at {path}: certificates hold exact data only")
    if isinstance(x, dict):
        for k, v in x.items():
            _no_floats(v, f"{path}.{k}")
    elif isinstance(x, list):
        for i, v in enumerate(x):
            _no_floats(v, f"{path}[{i}]")


def canonical_bytes(cert: dict[str, Any]) -> bytes:
    """Sorted keys, no insignificant whitespace, ASCII only, no floats."""
    _no_floats(cert)
    return json.dumps(cert, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def sha256(cert: dict[str, Any]) -> str:
    return hashlib.sha256(canonical_bytes(cert)).hexdigest()


def dump(cert: dict[str, Any]) -> bytes:
    """The certificate file's bytes: canonical JSON and a newline."""
    return canonical_bytes(cert) + b"\n"


def load(data: bytes) -> dict[str, Any]:
    cert = json.loads(data.decode("utf-8"))
    if not isinstance(cert, dict) or cert.get("schema") != SCHEMA:
        raise ValueError(f"not an {SCHEMA} certificate")
    return cert
