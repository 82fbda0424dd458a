"""A tanh-type certificate's network (a layered MLP or a DAG; every one has biases), or for
an affine-symmetry certificate its activation, in one line (referee) and in the results
table."""

from __future__ import annotations

from typing import Any

from certify.families.describe import activation_column, bias_column, network, widths_text


def _dag(cert: dict[str, Any], net: dict[str, Any], outputs: str) -> str:
    """A DAG's node and edge counts (`outputs`: the word for its output nodes)."""
    edges = len(((cert.get("instance") or {}).get("parameters") or {}).get("edges", []))
    return (
        f"{net.get('inputs')} inputs, {net.get('hidden')} hidden, {net.get('outputs')} "
        f"{outputs}, {edges} edges"
    )


def architecture(cert: dict[str, Any]) -> str:
    net = network(cert)
    if net is None:
        return f"activation {(cert.get('instance') or {}).get('activation')}"
    act = net.get("activation")
    if net.get("widths"):
        return f"{act} MLP {widths_text(net['widths'])}, with biases"
    return f"{act} DAG: {_dag(cert, net, 'output(s)')}, with biases"


def shape(cert: dict[str, Any]) -> str:
    net = network(cert)
    if net is None:
        return ""
    return widths_text(net["widths"]) if net.get("widths") else _dag(cert, net, "outputs")


def activation(cert: dict[str, Any]) -> str:
    net = network(cert)
    if net is None:
        act = (cert.get("instance") or {}).get("activation")
        return "" if act is None else str(act)
    return activation_column(net, str(net.get("activation") or ""))


def bias(cert: dict[str, Any]) -> Any:
    net = network(cert)
    return "" if net is None else bias_column(net, True)
