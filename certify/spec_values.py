"""The value parsers every family's spec uses: integers, rationals, explicit parameter lists,
seeded parameter points and the parameter cap. Every error names the file and the field
(SpecError, exit code 2)."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from certify.algebra.poly import parse_univariate
from certify.checker.ir import MAX_RAT_DIGITS, MLP, RationalSyntaxError, canonical_rat
from certify.errors import PolynomialSyntaxError, SpecError

MAX_DIGITS = MAX_RAT_DIGITS  # decimal digits of a numerator or a denominator
MAX_POLY_CHARS = 4_000  # characters of a polynomial text (activation, polynomial, equation)
MAX_PARAMS = 100_000  # parameters of one network (MLP, ResNet, ReLU)


def int_field(v: Any, src: str, fld: str, lo: int | None = None, hi: int | None = None) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise SpecError(src, fld, "an integer", v)
    if lo is not None and v < lo:
        raise SpecError(src, fld, f"an integer >= {lo}", v)
    if hi is not None and v > hi:
        raise SpecError(src, fld, f"an integer <= {hi}", v)
    return v


def rational_field(v: Any, src: str, fld: str) -> Fraction:
    """An integer, or a rational string in the one canonical spelling the checker reads too
    (certify.checker.ir.canonical_rat: "-3", "7/2"; not "6/2", "01", "-0", " 1/2")."""
    if isinstance(v, bool):
        raise SpecError(src, fld, 'an integer or a rational string "p/q"', v)
    if isinstance(v, int):
        if v.bit_length() > MAX_DIGITS * 3322 // 1000:  # about MAX_DIGITS decimal digits
            raise SpecError(src, fld, f"an integer of at most {MAX_DIGITS} digits", "a larger one")
        return Fraction(v)
    if isinstance(v, str):
        try:
            return canonical_rat(v)
        except RationalSyntaxError as e:
            raise SpecError(src, fld, e.expected, e.got) from None
    raise SpecError(src, fld, 'an integer or a rational string "p/q" (no floats)', v)


def parameters_table(data: dict[str, Any], src: str, allowed: tuple[str, ...]) -> dict[str, Any]:
    """The spec's [parameters] table (default: seed = 0), holding only the allowed fields."""
    params = data.get("parameters", {"seed": 0})
    if not isinstance(params, dict):
        raise SpecError(src, "parameters", "a [parameters] table", params)
    for k in params:
        if k not in allowed:
            expected = ", ".join(allowed[:-1]) + f" or {allowed[-1]}"
            raise SpecError(src, f"parameters.{k}", expected, "unknown")
    return params


def check_params(n: int, src: str, fld: str) -> None:
    """A network with more than MAX_PARAMS parameters is refused before theta is built."""
    if n > MAX_PARAMS:
        raise SpecError(src, fld, f"a network of at most {MAX_PARAMS} parameters", n)


MAX_RANK_BYTES = 2**32  # memory estimate of one rank computation (check_rank_memory)


def rank_memory_estimate(n_params: int) -> int:
    """Bytes of the Jacobian a rank witness is found in: a minor of size up to D = n_params
    (the rank is at most D) needs at least D rows of D residues, 8 bytes each: 8 D^2."""
    return 8 * n_params * n_params


def check_rank_memory(n_params: int, src: str, fld: str) -> None:
    """A rank request whose estimate exceeds MAX_RANK_BYTES is refused before anything is
    allocated (issue 22: a ResNet just under MAX_PARAMS died with MemoryError at 5.8 GB)."""
    need = rank_memory_estimate(n_params)
    if need > MAX_RANK_BYTES:
        raise SpecError(
            src, fld,
            f"a network whose rank computation fits in {MAX_RANK_BYTES // 2**30} GiB "
            f"(estimate 8 x D^2 bytes for D = {n_params} parameters: {need / 2**30:.1f} GiB)",
        )  # fmt: skip


def explicit_theta(
    params: dict[str, Any], mlp: MLP, src: str, where: str = "parameters"
) -> tuple[Fraction, ...]:
    """The flat parameter point (layer by layer, neuron by neuron: its weights, then its bias)
    of the tables `weights` and `biases` of `params`; errors name `<where>.weights...`."""
    weights = params["weights"]
    L = mlp.depth
    if not isinstance(weights, list) or len(weights) != L:
        raise SpecError(src, f"{where}.weights", f"a list of {L} weight matrices", weights)
    biases = params.get("biases")
    if mlp.bias:
        if not isinstance(biases, list) or len(biases) != L:
            raise SpecError(src, f"{where}.biases", f"a list of {L} bias vectors", biases)
    elif biases is not None:
        raise SpecError(src, f"{where}.biases", "no biases, since network.bias = false")
    theta: list[Fraction] = []
    for ell in range(L):
        rows, cols = mlp.widths[ell + 1], mlp.widths[ell]
        W = weights[ell]
        fld = f"{where}.weights[{ell}]"
        if not isinstance(W, list) or len(W) != rows:
            raise SpecError(src, fld, f"a {rows} x {cols} matrix (list of {rows} rows)", W)
        if mlp.bias:
            b = biases[ell]  # type: ignore[index]
            if not isinstance(b, list) or len(b) != rows:
                raise SpecError(src, f"{where}.biases[{ell}]", f"a list of {rows} numbers", b)
        for i, row in enumerate(W):
            if not isinstance(row, list) or len(row) != cols:
                raise SpecError(src, f"{fld}[{i}]", f"a row of {cols} numbers", row)
            theta.extend(rational_field(v, src, f"{fld}[{i}][{j}]") for j, v in enumerate(row))
            if mlp.bias:
                theta.append(rational_field(b[i], src, f"{where}.biases[{ell}][{i}]"))
    return tuple(theta)


def random_theta(mlp: MLP, seed: int, prange: int) -> tuple[Fraction, ...]:
    """Deterministic random integer point: nonzero entries in [-prange, prange]."""
    rng = random.Random(f"nn-certify/theta/{seed}")
    out = []
    for _ in range(mlp.n_params):
        v = 0
        while v == 0:
            v = rng.randint(-prange, prange)
        out.append(Fraction(v))
    return tuple(out)


def required(d: dict[str, Any], key: str, src: str, where: str, expected: str) -> Any:
    if key not in d:
        raise SpecError(src, f"{where}{key}", expected + " (missing)")
    return d[key]


def poly_text_cap(v: str, src: str, fld: str) -> None:
    if len(v) > MAX_POLY_CHARS:
        raise SpecError(
            src, fld, f"a polynomial text of at most {MAX_POLY_CHARS} characters", f"{len(v)}"
        )


def polynomial_activation(v: Any, src: str, fld: str) -> tuple[Fraction, ...]:
    if not isinstance(v, str):
        raise SpecError(src, fld, 'a polynomial in t as a string, e.g. "t^2"', v)
    poly_text_cap(v, src, fld)
    try:
        coeffs = parse_univariate(v, "t")
    except PolynomialSyntaxError as e:
        raise SpecError(src, fld, f"a polynomial in t ({e})", v) from None
    if len(coeffs) < 2:
        raise SpecError(src, fld, "a nonconstant polynomial in t (degree >= 1)", v)
    return tuple(coeffs)


def bool_field(c: dict[str, Any], key: str, default: bool, src: str, where: str) -> bool:
    v = c.get(key, default)
    if not isinstance(v, bool):
        raise SpecError(src, f"{where}.{key}", "true or false", v)
    return v
