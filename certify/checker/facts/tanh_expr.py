"""The activation grammar of the tanh certificates (trusted; shared by the spec reader and the
checkers, which read the activation and the group elements of a certificate with it).

Activations given symbolically: named ones (tanh, logistic, arctan, softsign, erf, x*tanh(x),
relu, sin, t^r) and user expressions in a restricted grammar, read by our own recursive-descent
parser. User text is never `eval`ed or `sympify`ed: the sympy expression is built node by node
from the parse tree, so only the constructs of the grammar can reach sympy.

Grammar (whitespace ignored; the variable is `x` or `t`):

    expr   := term (("+" | "-") term)*
    term   := unary (("*" | "/") unary)*
    unary  := ("+" | "-") unary | power
    power  := atom ("^" exponent)?              exponent: an integer, optionally signed or
    atom   := INTEGER | VAR | FUNC "(" expr ")" | "(" expr ")"      parenthesised
    FUNC   := exp | tanh | arctan | erf

Rational constants are written as quotients of integers ("3/2"); decimal points and named
constants (pi, e) are rejected as non-rational.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from certify.checker.facts.tanh_sympy import sp

X = sp.Symbol("x", real=True)

FUNCTIONS = {"exp": sp.exp, "tanh": sp.tanh, "arctan": sp.atan, "erf": sp.erf}
VARIABLES = ("x", "t")
NAMED = {
    "tanh": "tanh(x)",
    "logistic": "1/(1 + exp(-x))",
    "sigmoid": "1/(1 + exp(-x))",
    "arctan": "arctan(x)",
    "erf": "erf(x)",
    "xtanh": "x*tanh(x)",
}
# Named activations outside the grammar (|x|, max, sin): built directly, not parsed.
SPECIAL = {"softsign", "relu", "sin"}
MAX_EXPONENT = 64  # also the bound on every power and polynomial degree after nesting
MAX_LENGTH = 400
MAX_DEPTH = 40  # nested parentheses, function calls and signs


class ActivationError(ValueError):
    """The text is not a known activation or not in the grammar (the message says why)."""


_TOKEN = re.compile(r"\s*(?:(\d+\.\d*|\.\d+)|(\d+)|([A-Za-z_][A-Za-z_0-9]*)|(.))")


def tokenize(text: str) -> list[tuple[str, str]]:
    """(kind, text) tokens: num, name, op; decimals are rejected here (non-rational)."""
    out: list[tuple[str, str]] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        assert m is not None
        pos = m.end()
        dec, num, name, op = m.groups()
        if dec is not None:
            raise ActivationError(
                f"non-rational constant {dec!r}: write rationals as quotients, e.g. 3/2"
            )
        if num is not None:
            out.append(("num", num))
        elif name is not None:
            out.append(("name", name))
        elif op is not None and not op.isspace():
            if op not in "+-*/^()":
                raise ActivationError(f"unexpected character {op!r}")
            out.append(("op", op))
    return out


class _Parser:
    def __init__(
        self, tokens: list[tuple[str, str]], variables: dict[str, sp.Symbol], allow_pi: bool
    ) -> None:
        self.toks = tokens
        self.i = 0
        self.variables = variables
        self.allow_pi = allow_pi
        self.depth = 0

    def enter(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise ActivationError(f"expression nested more than {MAX_DEPTH} levels deep")

    def peek(self) -> tuple[str, str] | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self) -> tuple[str, str]:
        t = self.peek()
        if t is None:
            raise ActivationError("unexpected end of expression")
        self.i += 1
        return t

    def expect(self, op: str) -> None:
        t = self.take()
        if t != ("op", op):
            raise ActivationError(f"expected {op!r}, found {t[1]!r}")

    def expr(self) -> sp.Expr:
        e = self.term()
        while self.peek() in (("op", "+"), ("op", "-")):
            op = self.take()[1]
            r = self.term()
            e = e + r if op == "+" else e - r
        return e

    def term(self) -> sp.Expr:
        e = self.unary()
        while self.peek() in (("op", "*"), ("op", "/")):
            op = self.take()[1]
            r = self.unary()
            if op == "/" and r == 0:
                raise ActivationError("division by the constant zero")
            e = e * r if op == "*" else e / r
        return e

    def unary(self) -> sp.Expr:
        if self.peek() in (("op", "-"), ("op", "+")):
            neg = self.take()[1] == "-"
            self.enter()
            e = self.unary()
            self.depth -= 1
            return -e if neg else e
        return self.power()

    def exponent(self) -> int:
        sign = 1
        paren = self.peek() == ("op", "(")
        if paren:
            self.take()
        if self.peek() in (("op", "-"), ("op", "+")):
            sign = -1 if self.take()[1] == "-" else 1
        kind, text = self.take()
        if kind != "num":
            raise ActivationError(f"exponents are integers, found {text!r}")
        if paren:
            self.expect(")")
        n = sign * int(text)
        if abs(n) > MAX_EXPONENT:
            raise ActivationError(f"exponent {n} is larger than {MAX_EXPONENT} in absolute value")
        return n

    def power(self) -> sp.Expr:
        base = self.atom()
        if self.peek() == ("op", "^"):
            self.take()
            n = self.exponent()
            if n < 0 and base == 0:
                raise ActivationError("negative power of the constant zero")
            return base**n
        return base

    def atom(self) -> sp.Expr:
        kind, text = self.take()
        if kind == "num":
            return sp.Integer(int(text))
        if kind == "name":
            if text in self.variables:
                return self.variables[text]
            if text == "pi" and self.allow_pi:
                return sp.pi
            if self.peek() == ("op", "("):
                if text not in FUNCTIONS:
                    raise ActivationError(
                        f"unknown function {text!r} (allowed: {', '.join(FUNCTIONS)})"
                    )
                self.take()
                self.enter()
                arg = self.expr()
                self.expect(")")
                self.depth -= 1
                return FUNCTIONS[text](arg)
            if text in ("pi", "e", "E", "I", "oo", "inf", "nan"):
                raise ActivationError(f"non-rational constant {text!r}")
            raise ActivationError(f"unknown name {text!r} (variables: {', '.join(self.variables)})")
        if text == "(":
            self.enter()
            e = self.expr()
            self.expect(")")
            self.depth -= 1
            return e
        raise ActivationError(f"unexpected {text!r}")


def parse_expression(
    text: str, variables: dict[str, sp.Symbol] | None = None, allow_pi: bool = False
) -> sp.Expr:
    """The sympy expression of `text` in the restricted grammar (variable X by default).

    `variables` and `allow_pi` serve the certificate reader only (family parameters, and the
    constant pi in the group elements of periodic activations); spec text never gets them."""
    if len(text) > MAX_LENGTH:
        raise ActivationError(f"expression longer than {MAX_LENGTH} characters")
    toks = tokenize(text)
    if not toks:
        raise ActivationError("empty expression")
    p = _Parser(toks, variables if variables is not None else dict.fromkeys(VARIABLES, X), allow_pi)
    try:
        e = p.expr()
    except RecursionError:
        raise ActivationError("expression nested too deeply") from None
    if p.peek() is not None:
        raise ActivationError(f"unexpected {p.peek()[1]!r} after the expression")  # type: ignore[index]
    check_degree(e)
    return e


def check_degree(e: sp.Expr) -> None:
    """Every integer power, and the total degree of a polynomial, at most MAX_EXPONENT after
    nesting and multiplying out ((x^64)^64 is x^4096; x^64 * x^64 is x^128)."""
    for p in e.atoms(sp.Pow):
        if p.exp.is_Integer and abs(int(p.exp)) > MAX_EXPONENT:
            raise ActivationError(f"a power of degree {p.exp} (at most {MAX_EXPONENT})")
    syms = sorted(e.free_symbols, key=str)
    if syms and e.is_polynomial(*syms):
        deg = sp.Poly(e, *syms).total_degree()
        if deg > MAX_EXPONENT:
            raise ActivationError(f"a polynomial of degree {deg} (at most {MAX_EXPONENT})")


@dataclass(frozen=True)
class Activation:
    """A parsed activation: its name (the spec's text, normalised), its sympy expression in X,
    and whether it is piecewise (relu, softsign: not analytic at 0)."""

    name: str
    expr: sp.Expr
    piecewise: bool


def activation(text: str) -> Activation:
    """The activation a spec names: a named activation or an expression of the grammar."""
    if not isinstance(text, str):
        raise ActivationError("an activation name or expression (a string)")
    key = text.strip()
    low = key.lower()
    if low == "softsign":
        return Activation("softsign", X / (1 + sp.Abs(X)), True)
    if low == "relu":
        return Activation("relu", sp.Max(0, X), True)
    if low == "sin":
        return Activation("sin", sp.sin(X), False)
    if low in NAMED:
        return Activation(
            "logistic" if low == "sigmoid" else low, parse_expression(NAMED[low]), False
        )
    e = parse_expression(key)
    if not e.has(X):
        raise ActivationError("a nonconstant expression in x")
    return Activation(" ".join(key.split()), e, False)
