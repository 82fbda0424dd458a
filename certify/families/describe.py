"""How a certificate's network reads in one line: the helpers every family's `describe`
module shares (the registry's `Kind.describe` names the module; referee.architecture and
the results table read it)."""

from __future__ import annotations

from typing import Any


def described(cert: dict[str, Any], what: str, default: Any = "") -> Any:
    """`what` (architecture, shape, activation or bias) of the certificate, written by its
    family's describe module through its registry line; `default` for a (family, kind) the
    registry does not know."""
    from certify.checker import registry

    entry = registry.lookup(cert.get("family"), cert.get("kind"))
    return default if entry is None else registry.resolve(entry.describe_path(what))(cert)


def network(cert: dict[str, Any]) -> dict[str, Any] | None:
    """The certificate's network table, or None for the kinds about no network."""
    net = (cert.get("instance") or {}).get("network")
    return net if isinstance(net, dict) else None


def widths_text(ws: list[Any]) -> str:
    return "-".join(str(w) for w in ws)


def sigma_text(net: dict[str, Any]) -> str:
    """`sigma = ...` when every layer has the same activation, else the list per layer."""
    texts = net.get("activations_text") or []
    if texts and all(t == texts[0] for t in texts):
        return f"sigma = {texts[0]}"
    return "sigma per layer: " + ", ".join(texts)


def activation_column(net: dict[str, Any], default: str) -> str:
    """The results table's activation cell: the one activation, or the layers' joined by
    `; `, or `default` where the network has no activation texts."""
    texts = net.get("activations_text")
    if texts:
        return texts[0] if all(t == texts[0] for t in texts) else "; ".join(texts)
    return default


def bias_column(net: dict[str, Any], default: Any) -> Any:
    """The results table's bias cell: the network's flag, else `default`."""
    return bool(net["bias"]) if "bias" in net else default
