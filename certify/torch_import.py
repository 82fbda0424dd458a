"""`certify from-torch model.pt`: a spec (TOML) for an nn.Sequential of Linear layers
alternating with one activation, with the float weights converted to exact rationals.

Which family a Sequential becomes is the families' say, not this module's: every network
family's spec module may list `TORCH_ACTIVATIONS` (torch activation class name -> the
[network] fields it sets beyond family and widths) and `TORCH_SOURCE` (whether its network
records the conversion in a `source` field). Today:

* Linear and Tanh/Sigmoid: family tanh (activation tanh or logistic; default certificate kind
  orbit); the conversion is recorded in the network's `source` (which every claim about the
  network repeats, quoted), one token `from-torch:<file name>:exact` or
  `from-torch:<file name>:rounded-<n>-places` (the grammar tanh_net.SOURCE_RE, no spaces:
  no sentence enters a claim through it), and in a TOML comment in words.
* Linear and ReLU: family relu (default certificate kind rank). It has no `source` field,
  and none is added to its trusted network table: the conversion is recorded in a TOML
  comment at the top of the spec, which no claim repeats.

The optional extra `nn-certify[torch]` provides torch; only `load_modules` needs it. The rest
works on plain descriptions of the modules (named by their torch classes), so it is tested
without torch:

    ("Linear", weight rows, bias)   ("ReLU",)   ("Tanh",)   ("Sigmoid",)

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

import importlib
import json
import math
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

from certify.checker import registry
from certify.errors import CertifyError, InputError

LINEAR = "Linear"
MAX_PRECISION = 30


def _spec_module(family: str) -> Any:
    return importlib.import_module(registry.family_path(family, "spec", "").partition(":")[0])


@cache
def activations() -> dict[str, tuple[str, dict[str, str]]]:
    """torch activation class name -> (family, the [network] fields it sets beyond family and
    widths), from every network family's TORCH_ACTIVATIONS, in registry order."""
    out: dict[str, tuple[str, dict[str, str]]] = {}
    for family in registry.NETWORK_FAMILIES:
        for name, fields in getattr(_spec_module(family), "TORCH_ACTIVATIONS", {}).items():
            out[name] = (family, dict(fields))
    return out


def _records_source(family: str) -> bool:
    """Whether the family's network records the conversion in a `source` field."""
    return bool(getattr(_spec_module(family), "TORCH_SOURCE", False))


def _supported() -> str:
    names = [LINEAR, *activations()]
    return f"{', '.join(names[:-1])} or {names[-1]}"


def _family(act: str) -> str:
    return activations()[act][0]


def to_rational(x: float, precision: int | None, where: str = "weight") -> Fraction:
    """The exact value of a finite float, or its rounding to `precision` decimal places."""
    if isinstance(x, bool) or not isinstance(x, float | int) or not math.isfinite(x):
        raise InputError(f"{where} = {x!r}: not a finite number (expected a finite float)")
    if precision is None:
        return Fraction(x)
    scale = 10**precision
    return Fraction(round(Fraction(x) * scale), scale)  # round() on a Fraction: half to even


def describe(module: Any) -> tuple[Any, ...]:
    """A torch module as a plain description, by its class name: ("Linear", weight rows, bias)
    or (activation class name,) for an activation some family lists."""
    kind = type(module).__name__
    if kind == LINEAR:
        w = module.weight.detach().double().tolist()
        b = module.bias.detach().double().tolist() if module.bias is not None else [0.0] * len(w)
        return (LINEAR, w, b)
    if kind in activations():
        return (kind,)
    raise InputError(f"module {kind} is not supported ({_supported()} only)")


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
    if not isinstance(m, tuple) or not m or (m[0] != LINEAR and m[0] not in activations()):
        got = m[0] if isinstance(m, tuple) and m else m
        raise InputError(f"module {i} ({got!r}): not supported; expected {_supported()}")
    return str(m[0])


def _structure(mods: list[tuple[Any, ...]]) -> str:
    """The one activation module name of Linear, act, Linear, ..., Linear (or InputError)."""
    kinds = [_kind(m, i) for i, m in enumerate(mods)]
    if not kinds:
        raise InputError("an empty Sequential; expected Linear, activation, ..., Linear")
    first_act = None
    for i, k in enumerate(kinds):
        if i % 2 == 0 and k != LINEAR:
            where = "first" if i == 0 else f"after the activation module {i - 1}"
            raise InputError(f"module {i} ({k}): expected a Linear {where}")
        if i % 2 == 1 and k == LINEAR:
            acts = list(activations())
            raise InputError(
                f"module {i} (Linear): two Linear layers in a row (modules {i - 1} and {i}); "
                f"expected an activation ({', '.join(acts[:-1])} or {acts[-1]}) between them"
            )
        if i % 2 == 1 and first_act is None:
            first_act = (i, k)
        elif i % 2 == 1 and first_act is not None and _family(k) != _family(first_act[1]):
            j, a = first_act
            raise InputError(
                f"module {i} ({k}): mixed activations (module {j} is {a}); "
                f"expected {a}, one activation for all hidden layers"
            )
        elif i % 2 == 1 and first_act is not None and k != first_act[1]:
            same = [a for a, (f, _) in activations().items() if f == _family(k)]
            raise InputError(
                f"module {i} ({k}): one activation for all hidden layers "
                f"({' or '.join(same)}); module {first_act[0]} is {first_act[1]}"
            )
    if kinds[-1] != LINEAR:
        raise InputError(
            f"module {len(kinds) - 1} ({kinds[-1]}): an activation after the last Linear; "
            "expected the Sequential to end with a Linear (the output layer has no activation)"
        )
    if first_act is None:
        raise InputError("expected Linear, activation, Linear, ..., Linear (at least 3 modules)")
    return first_act[1]


def layered(mods: list[tuple[Any, ...]], precision: int | None) -> dict[str, Any]:
    """family, its [network] fields, widths, weights, biases (rational strings) of
    Linear/act/.../Linear."""
    act = _structure(mods)
    widths: list[int] = []
    Ws, bs = [], []
    for i in range(0, len(mods), 2):
        m = mods[i]
        if len(m) != 3:
            raise InputError(f"module {i} (Linear): expected ('Linear', weight rows, bias)")
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
    family, fields = activations()[act]
    return {
        "family": family,
        "fields": fields,
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
    records = _records_source(net["family"])
    if not records:
        lines += [
            f"# (Family {net['family']} has no network.source field: this comment records the "
            "conversion;",
            "# no claim repeats it.)",
        ]
    lines += [
        f"name = {json.dumps(name)}",
        "",
        "[network]",
        f"family = {json.dumps(net['family'])}",
    ]
    lines += [f"{key} = {json.dumps(value)}" for key, value in net["fields"].items()]
    lines.append(f"widths = {json.dumps(net['widths'])}")
    if records:
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
