"""Spec checks of family "mlp" beyond the network table (parsed in certify/spec.py with the
common fields): the setting of kind mlp-identifiable."""

from __future__ import annotations

from fractions import Fraction

from certify.checker.ir import MLP
from certify.errors import SpecError


def check_identifiable_network(
    mlp: MLP | None, theta: tuple[Fraction, ...], src: str, i: int
) -> None:
    """Kind mlp-identifiable: a bias-free MLP with one activation, sigma(0) = 0, integer
    weights (the setting of math.md §1, §4)."""
    assert mlp is not None
    if not isinstance(mlp, MLP):
        raise SpecError(src, "network.family", "mlp (certificate kind mlp-identifiable)")
    if mlp.bias:
        raise SpecError(src, "network.bias", f"false (certificate[{i}] is mlp-identifiable)")
    if len(mlp.widths) < 3:
        raise SpecError(src, "network.widths", "at least one hidden layer (mlp-identifiable)")
    if len(set(mlp.activations)) != 1:
        raise SpecError(src, "network.activation", "one activation for every hidden layer")
    if mlp.activations[0][0] != 0:
        raise SpecError(src, "network.activation", "sigma(0) = 0 (mlp-identifiable)")
    if any(t.denominator != 1 for t in theta):
        raise SpecError(src, "parameters.weights", "integer weights (mlp-identifiable)")
