"""`certify from-torch model.pt`: a spec (TOML) for an nn.Sequential of Linear layers
alternating with one activation, with the float weights converted to exact rationals.

* Linear and Tanh/Sigmoid: a spec of family "tanh" (default certificate kind orbit); the
  conversion is recorded in the network's `source` (which every claim about the network
  repeats, quoted), one token `from-torch:<file name>:exact` or
  `from-torch:<file name>:rounded-<n>-places` (the grammar tanh_net.SOURCE_RE, no spaces:
  no sentence enters a claim through it), and in a TOML comment in words.
* Linear and ReLU: a spec of family "relu" (default certificate kind rank). Family relu has
  no `source` field, and none is added to its trusted network table: the conversion is
  recorded in a TOML comment at the top of the spec, which no claim repeats.

The optional extra `nn-certify[torch]` provides torch; only `load_modules` needs it. The rest
works on plain descriptions of the modules, so it is tested without torch:

    ("linear", weight rows, bias)   ("relu",)   ("tanh",)   ("sigmoid",)

The Sequential must read Linear, act, Linear, ..., act, Linear: one activation for every
hidden layer, none after the last Linear. Anything else is an InputError (exit 2) naming the
module (its index in the Sequential) and what was expected there.

Conversion: `precision = None` takes each float's exact binary value (a float is a dyadic
rational, so nothing is lost: the certificate is about exactly the network torch evaluates,
up to torch's own float arithmetic); `precision = n` rounds each weight to n decimal places
(half to even, exactly, at any magnitude) and the spec says so.

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

from certify.checker import registry
from certify.errors import CertifyError, InputError

ACTIVATIONS = {"tanh": "tanh", "sigmoid": "logistic"}  # family tanh: module -> activation
FAMILY = {"relu": "relu", "tanh": "tanh", "sigmoid": "tanh"}  # activation module -> family
NAMES = {"linear": "Linear", "relu": "ReLU", "tanh": "Tanh", "sigmoid": "Sigmoid"}
MAX_PRECISION = 30


def to_rational(x: float, precision: int | None, where: str = "weight") -> Fraction:
    """The exact value of a finite float, or its rounding to `precision` decimal places."""
    if isinstance(x, bool) or not isinstance(x, float | int) or not math.isfinite(x):
        raise InputError(f"{where} = {x!r}: not a finite number (expected a finite float)")
    if precision is None:
        return Fraction(x)
    scale = 10**precision
    return Fraction(round(Fraction(x) * scale), scale)  # round() on a Fraction: half to even


def describe(module: Any) -> tuple[Any, ...]:
    """A torch module as a plain description (class name based: Linear, ReLU, Tanh, Sigmoid)."""
    kind = type(module).__name__
    if kind == "Linear":
        w = module.weight.detach().double().tolist()
        b = module.bias.detach().double().tolist() if module.bias is not None else [0.0] * len(w)
        return ("linear", w, b)
    if kind in ("ReLU", "Tanh", "Sigmoid"):
        return (kind.lower(),)
    raise InputError(f"module {kind} is not supported (Linear, ReLU, Tanh, Sigmoid only)")


def load_modules(path: Path) -> list[tuple[Any, ...]]:
    """The modules of an nn.Sequential saved with torch.save(model) (needs torch). Unpickling
    runs code named in the file: trusted files only (module docstring)."""
    try:
        import torch
    except ImportError:
        raise CertifyError(  # not bad input: a missing optional dependency (exit 1)
            "from-torch needs torch: pip install 'nn-certify[torch]' (an optional extra)"
        ) from None
    try:
        model = torch.load(str(path), map_location="cpu", weights_only=False)
    except Exception as e:  # torch raises many kinds; the message names the file
        raise InputError(f"{path}: cannot load with torch.load: {e}") from None
    if not isinstance(model, torch.nn.Sequential):
        raise InputError(f"{path}: expected an nn.Sequential, found {type(model).__name__}")
    out = []
    for i, m in enumerate(model):
        try:
            out.append(describe(m))
        except InputError as e:
            raise InputError(f"{path}: module {i}: {e}") from None
        except Exception as e:  # a module named Linear without float weights (quantized, ...)
            raise InputError(
                f"{path}: module {i} ({type(m).__name__}): cannot read its weights as floats "
                f"({type(e).__name__}: {e})"
            ) from None
    return out


def _kind(m: Any, i: int) -> str:
    if not isinstance(m, tuple) or not m or m[0] not in NAMES:
        got = m[0] if isinstance(m, tuple) and m else m
        raise InputError(
            f"module {i} ({got!r}): not supported; expected Linear, ReLU, Tanh or Sigmoid"
        )
    return str(m[0])


def _structure(mods: list[tuple[Any, ...]]) -> str:
    """The one activation module name of Linear, act, Linear, ..., Linear (or InputError)."""
    kinds = [_kind(m, i) for i, m in enumerate(mods)]
    if not kinds:
        raise InputError("an empty Sequential; expected Linear, activation, ..., Linear")
    first_act = None
    for i, k in enumerate(kinds):
        if i % 2 == 0 and k != "linear":
            where = "first" if i == 0 else f"after the activation module {i - 1}"
            raise InputError(f"module {i} ({NAMES[k]}): expected a Linear {where}")
        if i % 2 == 1 and k == "linear":
            raise InputError(
                f"module {i} (Linear): two Linear layers in a row (modules {i - 1} and {i}); "
                "expected an activation (ReLU, Tanh or Sigmoid) between them"
            )
        if i % 2 == 1 and first_act is None:
            first_act = (i, k)
        elif i % 2 == 1 and first_act is not None and FAMILY[k] != FAMILY[first_act[1]]:
            j, a = first_act
            raise InputError(
                f"module {i} ({NAMES[k]}): mixed activations (module {j} is {NAMES[a]}); "
                f"expected {NAMES[a]}, one activation for all hidden layers"
            )
        elif i % 2 == 1 and first_act is not None and k != first_act[1]:
            raise InputError(
                f"module {i} ({NAMES[k]}): one activation for all hidden layers (Tanh or "
                f"Sigmoid); module {first_act[0]} is {NAMES[first_act[1]]}"
            )
    if kinds[-1] != "linear":
        raise InputError(
            f"module {len(kinds) - 1} ({NAMES[kinds[-1]]}): an activation after the last Linear; "
            "expected the Sequential to end with a Linear (the output layer has no activation)"
        )
    if first_act is None:
        raise InputError("expected Linear, activation, Linear, ..., Linear (at least 3 modules)")
    return first_act[1]


def layered(mods: list[tuple[Any, ...]], precision: int | None) -> dict[str, Any]:
    """family, activation, widths, weights, biases (rational strings) of Linear/act/.../Linear."""
    act = _structure(mods)
    widths: list[int] = []
    Ws, bs = [], []
    for i in range(0, len(mods), 2):
        m = mods[i]
        if len(m) != 3:
            raise InputError(f"module {i} (Linear): expected ('linear', weight rows, bias)")
        _, W, b = m
        if not isinstance(W, list) or not W or not all(isinstance(r, list) and r for r in W):
            raise InputError(f"module {i} (Linear): expected a non-empty list of weight rows")
        cols = widths[-1] if widths else len(W[0])
        for r, row in enumerate(W):
            if len(row) != cols:
                prev = "the previous Linear's outputs" if widths else "row 0"
                raise InputError(
                    f"module {i} (Linear): weight row {r} has {len(row)} entries, expected "
                    f"{cols} ({prev}); the shape does not chain"
                )
        if not isinstance(b, list) or len(b) != len(W):
            got = len(b) if isinstance(b, list) else type(b).__name__
            raise InputError(
                f"module {i} (Linear): bias of {got} entries, expected {len(W)} (one per row)"
            )
        if not widths:
            widths.append(cols)
        at = f"module {i} (Linear):"
        Ws.append([_row(row, precision, f"{at} weight[{r}]") for r, row in enumerate(W)])
        bs.append(_row(b, precision, f"{at} bias"))
        widths.append(len(W))
    return {
        "family": FAMILY[act],
        "activation": ACTIVATIONS.get(act),
        "widths": widths,
        "weights": Ws,
        "biases": bs,
    }


def _row(xs: list[Any], precision: int | None, where: str) -> list[str]:
    return [_s(to_rational(x, precision, f"{where}[{c}]")) for c, x in enumerate(xs)]


def _s(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def _ascii(text: str) -> str:
    """Printable ASCII (anything else escaped as \\uXXXX): safe in a TOML string or comment."""
    return "".join(c if " " <= c <= "~" else f"\\u{ord(c):04x}" for c in text)


def check_precision(precision: int | None) -> None:
    """--precision must be None (exact) or 0..MAX_PRECISION decimal places (InputError)."""
    if precision is not None and not 0 <= precision <= MAX_PRECISION:
        raise InputError(
            f"--precision: expected 0 to {MAX_PRECISION} decimal places, got {precision}"
        )


def source_token(file_name: str, precision: int | None) -> str:
    """The `source` of a converted tanh network: `from-torch:<name>:exact` or
    `from-torch:<name>:rounded-<n>-places`, the file name's characters outside the token
    grammar (certify.checker.facts.tanh_net.SOURCE_RE) replaced by "_" and its length capped."""
    name = "".join(c if c.isascii() and (c.isalnum() or c in "_.+=@-") else "_" for c in file_name)
    how = "exact" if precision is None else f"rounded-{precision}-places"
    return f"from-torch:{name[:200] or '_'}:{how}"


def spec_text(mods: list[tuple[Any, ...]], name: str, source: str, precision: int | None) -> str:
    """The spec as TOML (arrays written as JSON, which TOML reads alike for these values)."""
    check_precision(precision)
    net = layered(mods, precision)
    how = (
        "float32/64 weights converted exactly to rationals"
        if precision is None
        else f"weights rounded to {precision} decimal places"
    )
    src = f"from-torch {_ascii(source)}: {how}"
    lines = ["# Generated by certify from-torch. Parameters are exact rationals."]
    lines.append(f"# Conversion: {src}.")
    if net["family"] == "relu":
        lines += [
            "# (Family relu has no network.source field: this comment records the conversion;",
            "# no claim repeats it.)",
        ]
    lines += [
        f"name = {json.dumps(name)}",
        "",
        "[network]",
        f"family = {json.dumps(net['family'])}",
    ]
    if net["family"] == "tanh":
        lines.append(f"activation = {json.dumps(net['activation'])}")
    lines.append(f"widths = {json.dumps(net['widths'])}")
    if net["family"] == "tanh":
        lines.append(f"source = {json.dumps(source_token(source, precision))}")
    lines += [
        "",
        "[parameters]",
        f"weights = {json.dumps(net['weights'])}",
        f"biases = {json.dumps(net['biases'])}",
        "",
        "[[certificate]]",
        f"kind = {json.dumps(registry.default_kind(net['family']))}",
        "",
    ]
    return "\n".join(lines)
