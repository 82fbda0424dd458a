"""`certify from-torch model.pt`: a spec (TOML) for an nn.Sequential of Linear and Tanh/Sigmoid
layers, with the float weights converted to exact rationals and the conversion recorded in the
network's `source` (which every claim about the network repeats).

The optional extra `nn-certify[torch]` provides torch; only `load_modules` needs it. The rest
works on plain descriptions of the modules, so it is tested without torch:

    ("linear", weight rows, bias)   ("tanh",)   ("sigmoid",)

Conversion: `precision = None` takes each float's exact binary value (a float is a dyadic
rational, so nothing is lost: the certificate is about exactly the network torch evaluates,
up to torch's own float arithmetic); `precision = n` rounds each weight to n decimal places
(half to even, exactly, at any magnitude) and the claim says so.

Security: torch.save(model) pickles the module, and loading it (torch.load with
weights_only=False, needed for a whole nn.Sequential) runs whatever code the pickle names.
Run from-torch only on model files you trust, as you would run the code that wrote them.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path
from typing import Any

from certify.errors import CertifyError

ACTIVATIONS = {"tanh": "tanh", "sigmoid": "logistic"}
MAX_PRECISION = 30


def to_rational(x: float, precision: int | None) -> Fraction:
    """The exact value of a finite float, or its rounding to `precision` decimal places."""
    if not isinstance(x, float | int) or not math.isfinite(x):
        raise CertifyError(f"weight {x!r} is not a finite number")
    if precision is None:
        return Fraction(x)
    scale = 10**precision
    return Fraction(round(Fraction(x) * scale), scale)  # round() on a Fraction: half to even


def describe(module: Any) -> tuple[Any, ...]:
    """A torch module as a plain description (class name based: Linear, Tanh, Sigmoid)."""
    kind = type(module).__name__
    if kind == "Linear":
        w = module.weight.detach().double().tolist()
        b = module.bias.detach().double().tolist() if module.bias is not None else [0.0] * len(w)
        return ("linear", w, b)
    if kind in ("Tanh", "Sigmoid"):
        return (kind.lower(),)
    raise CertifyError(f"module {kind} is not supported (Linear, Tanh, Sigmoid only)")


def load_modules(path: Path) -> list[tuple[Any, ...]]:
    """The modules of an nn.Sequential saved with torch.save(model) (needs torch). Unpickling
    runs code named in the file: trusted files only (module docstring)."""
    try:
        import torch
    except ImportError:
        raise CertifyError(
            "from-torch needs torch: pip install 'nn-certify[torch]' (an optional extra)"
        ) from None
    try:
        model = torch.load(str(path), map_location="cpu", weights_only=False)
    except Exception as e:  # torch raises many kinds; the message names the file
        raise CertifyError(f"{path}: cannot load with torch.load: {e}") from None
    if not isinstance(model, torch.nn.Sequential):
        raise CertifyError(f"{path}: expected an nn.Sequential, found {type(model).__name__}")
    return [describe(m) for m in model]


def layered(mods: list[tuple[Any, ...]], precision: int | None) -> dict[str, Any]:
    """activation, widths, weights, biases (rational strings) of Linear/act/.../Linear."""
    if len(mods) < 3 or len(mods) % 2 == 0:
        raise CertifyError("expected Linear, activation, Linear, ..., Linear (at least 3 modules)")
    acts = {m[0] for m in mods[1::2]}
    if not all(m[0] == "linear" for m in mods[0::2]) or not acts <= set(ACTIVATIONS):
        raise CertifyError("expected Linear modules alternating with Tanh or Sigmoid")
    if len(acts) != 1:
        raise CertifyError("one activation for all hidden layers (Tanh or Sigmoid)")
    widths = [len(mods[0][1][0])] if mods[0][1] else []
    Ws, bs = [], []
    for ell, (_, W, b) in enumerate(mods[0::2]):
        if not W or any(len(row) != widths[-1] for row in W) or len(b) != len(W):
            raise CertifyError(f"Linear layer {ell}: shape does not chain with the previous one")
        Ws.append([[_s(to_rational(x, precision)) for x in row] for row in W])
        bs.append([_s(to_rational(x, precision)) for x in b])
        widths.append(len(W))
    return {"activation": ACTIVATIONS[acts.pop()], "widths": widths, "weights": Ws, "biases": bs}


def _s(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def spec_text(mods: list[tuple[Any, ...]], name: str, source: str, precision: int | None) -> str:
    """The spec as TOML (arrays written as JSON, which TOML reads alike for these values)."""
    if precision is not None and not 0 <= precision <= MAX_PRECISION:
        raise CertifyError(f"--precision: between 0 and {MAX_PRECISION} decimal places")
    net = layered(mods, precision)
    how = (
        "float32/64 weights converted exactly to rationals"
        if precision is None
        else f"weights rounded to {precision} decimal places"
    )
    src = f"from-torch {source}: {how}"
    lines = [
        "# Generated by certify from-torch. Parameters are exact rationals.",
        f"name = {json.dumps(name)}",
        "",
        "[network]",
        'family = "tanh"',
        f"activation = {json.dumps(net['activation'])}",
        f"widths = {json.dumps(net['widths'])}",
        f"source = {json.dumps(src)}",
        "",
        "[parameters]",
        f"weights = {json.dumps(net['weights'])}",
        f"biases = {json.dumps(net['biases'])}",
        "",
        "[[certificate]]",
        'kind = "orbit"',
        "",
    ]
    return "\n".join(lines)
