"""The shared IR of certificates (trusted): the envelope, the rational codec, the JSON
decoders and the networks that certificates describe.

Generators build certificates with `envelope`; the checker, the renderers and the claims read
them with the decoders below, which raise `Malformed` naming the field and what was expected.
This module imports nothing from the generators (tests/test_import_contract.py)."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

SCHEMA = "nn-certify/2"  # /2: the envelope names the family
NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_.-]{0,63}$")
# Variables of a compind polynomial; not "z": that names the activation's variable.
VAR_RE = re.compile(r"^[A-Za-y][A-Za-z0-9_]{0,15}$")
# The one rational text of specs and certificates (canonical_rat): "num" or "num/den", an
# optional '-', digits without leading zeros, a denominator > 1 coprime to num, no "-0".
RAT_RE = re.compile(r"^(-?)(0|[1-9][0-9]*)(?:/([1-9][0-9]*))?$")
MAX_RAT_DIGITS = 1_000  # decimal digits of a numerator or a denominator
MAX_EXPONENT = 1000  # of a polynomial text (spec parser) and of a decoded monomial (checker)
# Every certificate integer that a prover file writes as a Coq `nat` (unary: 10^9 would
# exhaust coqc's memory) is at most this; above every legitimate one (MAX_PARAMS = 10^5)
MAX_NAT = 2**20

Rat = tuple[int, int]


class Malformed(ValueError):
    """The certificate does not have the expected shape."""


class RationalSyntaxError(ValueError):
    """A text that is not a canonical rational (canonical_rat): `expected` says what is
    expected, `got` what was found (shortened)."""

    def __init__(self, expected: str, got: object) -> None:
        super().__init__(f"expected {expected}, got {got!r}")
        self.expected = expected
        self.got = got


# ---------------------------------------------------------------- the envelope
def envelope(
    family: str,
    kind: str,
    name: str,
    instance: dict[str, Any],
    witness: dict[str, Any],
    result: dict[str, Any],
    claim: dict[str, Any],
    **extra: Any,
) -> dict[str, Any]:
    """A certificate: schema, family, kind and name, then what it is about (instance), the
    data the kernels check (witness), what the checked witness gives (result) and the
    sentence it supports (claim); `extra` holds kind-specific top-level fields."""
    return {
        "schema": SCHEMA,
        "family": family,
        "kind": kind,
        "name": name,
        "instance": instance,
        "witness": witness,
        "result": result,
        "claim": claim,
        **extra,
    }


# ---------------------------------------------------------------- the rational codec
def rat_str(x: Fraction | int) -> str:
    """Rationals as "num/den" strings, integers as "n" (design.md §7: no floats)."""
    x = Fraction(x)
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


CANONICAL_RAT = (
    'a canonical rational "num" or "num/den": an optional "-", digits without leading zeros, '
    "a denominator > 1 coprime to num, no spaces, no -0"
)


def canonical_rat(s: Any) -> Fraction:
    """The one rational parser of specs and certificates: the image of rat_str, exactly.

    Accepts "num" | "num/den" where num = -?(0 | [1-9][0-9]*), den = [1-9][0-9]* with
    den > 1 and gcd(num, den) = 1, and not "-0"; at most MAX_RAT_DIGITS digits each (checked
    before any conversion). So each rational has one spelling: "6/2", "01", "-0", "3/1",
    "+1", " 1" are refused. RationalSyntaxError (a ValueError) otherwise."""
    if not isinstance(s, str):
        raise RationalSyntaxError(CANONICAL_RAT, s)
    shown = s if len(s) <= 40 else s[:40] + "…"
    digits = f"a rational of at most {MAX_RAT_DIGITS} digits per part"
    if len(s) > 2 * MAX_RAT_DIGITS + 2:
        raise RationalSyntaxError(digits, shown)
    m = RAT_RE.match(s)
    if not m and s.partition("/")[2].strip() in ("0", "-0"):
        raise RationalSyntaxError("a rational with a nonzero denominator", shown)
    if not m:
        raise RationalSyntaxError(CANONICAL_RAT, shown)
    sign, num_s, den_s = m.groups()
    if len(num_s) > MAX_RAT_DIGITS or len(den_s or "") > MAX_RAT_DIGITS:
        raise RationalSyntaxError(digits, shown)
    num, den = int(sign + num_s), int(den_s or 1)
    if sign and num == 0:
        raise RationalSyntaxError(CANONICAL_RAT + ' (write "0")', shown)
    if den_s is not None and (den == 1 or math.gcd(num, den) != 1):
        hint = f' (write "{rat_str(Fraction(num, den))}")'
        raise RationalSyntaxError(CANONICAL_RAT + hint, shown)
    return Fraction(num, den)


def parse_rat_str(s: str) -> Fraction:
    """The inverse of rat_str (canonical_rat: RationalSyntaxError, a ValueError, otherwise)."""
    return canonical_rat(s)


# ---------------------------------------------------------------- the JSON decoders
def as_list(x: Any, where: str) -> list[Any]:
    if not isinstance(x, list):
        raise Malformed(f"{where}: expected a list, got {type(x).__name__}")
    return x


def as_dict(x: Any, where: str) -> dict[str, Any]:
    if not isinstance(x, dict):
        raise Malformed(f"{where}: expected an object, got {type(x).__name__}")
    return x


def as_int(x: Any, where: str) -> int:
    """An integer of at most MAX_RAT_DIGITS decimal digits (a larger one is refused before it
    can become a huge prover literal)."""
    if isinstance(x, bool) or not isinstance(x, int):
        raise Malformed(f"{where}: expected an integer, got {x!r}")
    if x.bit_length() > MAX_RAT_DIGITS * 3322 // 1000:
        raise Malformed(f"{where}: expected an integer of at most {MAX_RAT_DIGITS} digits")
    return x


def as_ints(xs: Any, where: str) -> list[int]:
    return [as_int(x, f"{where}[{i}]") for i, x in enumerate(as_list(xs, where))]


def as_nats(xs: Any, where: str) -> list[int]:
    out = as_ints(xs, where)
    if any(x < 0 for x in out):
        raise Malformed(f"{where}: expected natural numbers")
    return out


def as_matrix(xs: Any, where: str) -> list[list[int]]:
    return [as_ints(r, f"{where}[{i}]") for i, r in enumerate(as_list(xs, where))]


def as_rat(s: Any, where: str) -> Rat:
    """A canonical rational text (canonical_rat) -> (num, den), den > 0, gcd 1."""
    try:
        q = canonical_rat(s)
    except RationalSyntaxError as e:
        raise Malformed(f"{where}: {e}") from None
    return (q.numerator, q.denominator)


def as_fraction(s: Any, where: str) -> Fraction:
    a, b = as_rat(s, where)
    return Fraction(a, b)


def same(a: Any, b: Any) -> bool:
    """Equality that does not identify 3 with 3.0 or True with 1."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def _shown(x: Any, limit: int = 40) -> str:
    """repr(x), shortened: certificate data quoted in a problem message."""
    r = repr(x)
    return r if len(r) <= limit else r[: limit - 1] + "…"


def exact_keys(
    x: Any, where: str, required: Iterable[str], optional: Iterable[str] = ()
) -> dict[str, Any]:
    """x as an object whose keys are all of `required` and some of `optional`, nothing else:
    a stray key or a missing one is a Malformed naming it (issue 22: exact key sets)."""
    d = as_dict(x, where)
    req, opt = set(required), set(optional)
    allowed = sorted(req | opt)
    for k in d:
        if k not in req and k not in opt:
            raise Malformed(f"{where}: unexpected key {_shown(k)} (expected the keys {allowed})")
    for k in sorted(req):
        if k not in d:
            raise Malformed(f"{where}: missing key {k!r}")
    return d


def difference(got: Any, want: Any, where: str) -> str | None:
    """Where the JSON value `got` first differs from `want` (None when same(got, want)): a
    stray key or a missing one is named first, then the first differing entry."""
    if isinstance(got, dict) and isinstance(want, dict):
        for k in got:
            if k not in want:
                return f"{where}: unexpected key {_shown(k)}"
        for k in want:
            if k not in got:
                return f"{where}: missing key {k!r}"
        for k in want:
            d = difference(got[k], want[k], f"{where}.{k}")
            if d is not None:
                return d
        return None
    if isinstance(got, list) and isinstance(want, list):
        if len(got) != len(want):
            return f"{where}: {len(got)} entries, expected {len(want)}"
        for i, (a, b) in enumerate(zip(got, want)):
            d = difference(a, b, f"{where}[{i}]")
            if d is not None:
                return d
        return None
    return None if same(got, want) else f"{where}: {_shown(got)}, expected {_shown(want)}"


def mismatch(got: Any, want: Any, where: str, what: str) -> list[str]:
    """[] when same(got, want); else one problem: `what`, then where they first differ."""
    d = difference(got, want, where)
    return [] if d is None else [f"{what} ({d})"]


def family_of(cert: Any) -> Any:
    """The family a certificate names: its envelope field, else its instance's network."""
    if not isinstance(cert, dict):
        return None
    if "family" in cert:
        return cert["family"]
    inst = cert.get("instance")
    net = inst.get("network") if isinstance(inst, dict) else None
    return net.get("family") if isinstance(net, dict) else None


# ---------------------------------------------------------------- polynomial texts
def format_univariate(coeffs: list[Fraction], var: str = "t") -> str:
    """Canonical text of a univariate polynomial, highest degree first (parses back)."""
    parts: list[str] = []
    for i in range(len(coeffs) - 1, -1, -1):
        c = coeffs[i]
        if c == 0:
            continue
        mag = abs(c)
        mon = "" if i == 0 else (var if i == 1 else f"{var}^{i}")
        coef = str(mag) if (mag != 1 or i == 0) else ""
        body = coef + ("*" if coef and mon else "") + mon
        sign = "-" if c < 0 else "+"
        parts.append(("-" if sign == "-" else "") + body if not parts else f" {sign} {body}")
    return "".join(parts) if parts else "0"


def format_polynomial(poly: dict[tuple[int, ...], Fraction], variables: tuple[str, ...]) -> str:
    """Canonical text of a multivariate polynomial (graded lex, highest first; parses back)."""
    if not poly:
        return "0"
    parts: list[str] = []
    for exps in sorted(poly, key=lambda e: (sum(e), e), reverse=True):
        c = poly[exps]
        mon = "*".join(
            v if e == 1 else f"{v}^{e}" for v, e in zip(variables, exps, strict=True) if e
        )
        mag = abs(c)
        coef = str(mag) if (mag != 1 or not mon) else ""
        body = coef + ("*" if coef and mon else "") + mon
        if not parts:
            parts.append(("-" if c < 0 else "") + body)
        else:
            parts.append(f" {'-' if c < 0 else '+'} {body}")
    return "".join(parts)


# ---------------------------------------------------------------- the networks
def degree_product(activations: tuple[tuple[Fraction, ...], ...]) -> int:
    """Product of the degrees of the coefficient lists (constant term first)."""
    d = 1
    for a in activations:
        d *= len(a) - 1
    return d


@dataclass(frozen=True)
class MLP:
    """A polynomial MLP: widths (d0..dL), one activation per hidden layer, biases or not.

    Parameter layout (flat vector theta): layer by layer; within a layer, neuron by neuron;
    for each neuron its incoming weights W[i, 0..d_{l-1}-1], then its bias if `bias`.
    """

    widths: tuple[int, ...]
    activations: tuple[tuple[Fraction, ...], ...]
    bias: bool

    family = "mlp"

    @property
    def depth(self) -> int:
        return len(self.widths) - 1

    @property
    def n_params(self) -> int:
        b = 1 if self.bias else 0
        return sum(self.widths[i + 1] * (self.widths[i] + b) for i in range(self.depth))

    @property
    def hidden(self) -> tuple[int, ...]:
        return self.widths[1:-1]

    def degree_bound(self) -> int:
        """Product of the activations' degrees: bounds the output's degree in x."""
        return degree_product(self.activations)


@dataclass(frozen=True)
class ResNet:
    """A constant-width polynomial ResNet: F = f_L o ... o f_1 with
    f_l(x) = x + sigma_l(W_l x + b_l), or x + V_l sigma_l(W_l x + b_l) when `outer`.

    Parameter layout per layer: W_l row by row, each row's bias after it, then V_l row by
    row when `outer` (math.md §2)."""

    width: int
    activations: tuple[tuple[Fraction, ...], ...]
    outer: bool

    family = "resnet"
    bias = True  # every layer has a bias

    @property
    def depth(self) -> int:
        return len(self.activations)

    @property
    def widths(self) -> tuple[int, int]:
        """(input width, output width), as the rank machinery reads them."""
        return (self.width, self.width)

    @property
    def n_params(self) -> int:
        n = self.width
        return self.depth * (n * (n + 1) + (n * n if self.outer else 0))

    def degree_bound(self) -> int:
        """Product of the activations' degrees: bounds the degree of F in x."""
        return degree_product(self.activations)


@dataclass(frozen=True)
class ReLUNet:
    """F = A_L o ReLU o ... o ReLU o A_1, A_l(x) = W_l x + b_l, widths (n_0, ..., n_L).

    Parameter layout (flat theta): layer by layer, neuron by neuron, the incoming weights
    W_l[i, 0..n_(l-1)-1] then the bias b_l[i] (as an MLP with biases)."""

    widths: tuple[int, ...]

    family = "relu"
    bias = True

    @property
    def depth(self) -> int:
        return len(self.widths) - 1

    @property
    def n_params(self) -> int:
        """D = sum_l n_l (n_(l-1) + 1)."""
        return sum(self.widths[i + 1] * (self.widths[i] + 1) for i in range(self.depth))

    @property
    def hidden(self) -> tuple[int, ...]:
        return self.widths[1:-1]

    @property
    def n_hidden(self) -> int:
        """H = n_1 + ... + n_(L-1): the dimension of the positive scaling group."""
        return sum(self.hidden)

    def grillo_montufar(self) -> bool:
        """Input and hidden widths >= 2: the setting where the functional dimension is D - H."""
        return all(w >= 2 for w in self.widths[:-1])


def network_json(net: MLP | ResNet | ReLUNet) -> dict[str, Any]:
    """The normalised network as canonical JSON data (rationals as strings)."""
    if isinstance(net, ReLUNet):
        return {"family": "relu", "widths": list(net.widths)}
    if isinstance(net, ResNet):
        return {
            "family": "resnet",
            "width": net.width,
            "depth": net.depth,
            "outer": net.outer,
            "activations": [[rat_str(c) for c in a] for a in net.activations],
            "activations_text": [format_univariate(list(a)) for a in net.activations],
        }
    return {
        "family": "mlp",
        "widths": list(net.widths),
        "activations": [[rat_str(c) for c in a] for a in net.activations],
        "activations_text": [format_univariate(list(a)) for a in net.activations],
        "bias": net.bias,
    }
