"""A ResNet certificate's network in one line (referee) and in the results table."""

from __future__ import annotations

from typing import Any

from certify.families.describe import activation_column, bias_column, network, sigma_text


def architecture(cert: dict[str, Any]) -> str:
    net = network(cert) or {}
    block = "x + V sigma(Wx + b)" if net.get("outer") else "x + sigma(Wx + b)"
    return f"ResNet width {net.get('width')}, depth {net.get('depth')} ({block}), {sigma_text(net)}"


def shape(cert: dict[str, Any]) -> str:
    net = network(cert) or {}
    return f"width {net.get('width')}, depth {net.get('depth')}"


def activation(cert: dict[str, Any]) -> str:
    net = network(cert) or {}
    return activation_column(net, str(net.get("activation") or ""))


def bias(cert: dict[str, Any]) -> Any:
    return bias_column(network(cert) or {}, "")
