"""An MLP certificate's network in one line (referee) and in the results table."""

from __future__ import annotations

from typing import Any

from certify.families.describe import (
    activation_column,
    bias_column,
    network,
    sigma_text,
    widths_text,
)


def architecture(cert: dict[str, Any]) -> str:
    net = network(cert) or {}
    bias = "with biases" if net.get("bias") else "no biases"
    return f"MLP {widths_text(net.get('widths') or [])}, {sigma_text(net)}, {bias}"


def shape(cert: dict[str, Any]) -> str:
    return widths_text((network(cert) or {}).get("widths") or [])


def activation(cert: dict[str, Any]) -> str:
    net = network(cert) or {}
    return activation_column(net, str(net.get("activation") or ""))


def bias(cert: dict[str, Any]) -> Any:
    return bias_column(network(cert) or {}, "")
