"""A ReLU certificate's network in one line (referee) and in the results table: every
ReLU network of nn-certify has biases."""

from __future__ import annotations

from typing import Any

from certify.families.describe import activation_column, bias_column, network, widths_text


def architecture(cert: dict[str, Any]) -> str:
    return f"ReLU MLP {widths_text((network(cert) or {}).get('widths') or [])}, with biases"


def shape(cert: dict[str, Any]) -> str:
    return widths_text((network(cert) or {}).get("widths") or [])


def activation(cert: dict[str, Any]) -> str:
    return activation_column(network(cert) or {}, "relu")


def bias(cert: dict[str, Any]) -> Any:
    return bias_column(network(cert) or {}, True)
