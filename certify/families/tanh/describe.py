"""A tanh-type certificate's network (a layered MLP or a DAG; every one has biases), or for
an affine-symmetry certificate its activation, in one line (referee) and in the results
table."""

from __future__ import annotations

from typing import Any

from certify.families.describe import activation_column, bias_column, network, widths_text


def _edges(cert: dict[str, Any]) -> int:
    return len(((cert.get("instance") or {}).get("parameters") or {}).get("edges", []))


def architecture(cert: dict[str, Any]) -> str:
    net = network(cert)
    if net is None:
        return f"activation {(cert.get('instance') or {}).get('activation')}"
    act = net.get("activation")
    if net.get("widths"):
        return f"{act} MLP {widths_text(net['widths'])}, with biases"
    return (
        f"{act} DAG: {net.get('inputs')} inputs, {net.get('hidden')} hidden, "
        f"{net.get('outputs')} output(s), {_edges(cert)} edges, with biases"
    )


def shape(cert: dict[str, Any]) -> str:
    net = network(cert)
    if net is None:
        return ""
    if net.get("widths"):
        return widths_text(net["widths"])
    return (
        f"{net.get('inputs')} inputs, {net.get('hidden')} hidden, {net.get('outputs')} "
        f"outputs, {_edges(cert)} edges"
    )


def activation(cert: dict[str, Any]) -> str:
    net = network(cert)
    if net is None:
        act = (cert.get("instance") or {}).get("activation")
        return "" if act is None else str(act)
    return activation_column(net, str(net.get("activation") or ""))


def bias(cert: dict[str, Any]) -> Any:
    net = network(cert)
    return "" if net is None else bias_column(net, True)
