"""A restricted polynomial parser of our own grammar (never eval, never sympify a raw string).

Grammar (whitespace ignored)::

    expr    := ["+" | "-"] term (("+" | "-") term)*
    term    := factor (("*" | "/") factor)*      -- "/" only by a nonzero constant
    factor  := atom ["^" natural]                -- "**" is accepted for "^"
    atom    := natural ["/" natural] | decimal | variable | "(" expr ")"

Polynomials are dicts {exponent tuple: Fraction} with no zero coefficients.
"""

from __future__ import annotations

import re
from fractions import Fraction

from certify.checker.ir import MAX_EXPONENT
from certify.errors import PolynomialSyntaxError

Poly = dict[tuple[int, ...], Fraction]

_TOKEN = re.compile(r"\s*(?:(\d+\.\d+|\d+)|([A-Za-z_][A-Za-z_0-9]*)|(\*\*|[-+*/^()]))")
MAX_LENGTH = 10_000


def _tokenize(text: str) -> list[str]:
    if len(text) > MAX_LENGTH:
        raise PolynomialSyntaxError(f"polynomial longer than {MAX_LENGTH} characters")
    tokens: list[str] = []
    pos = 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise PolynomialSyntaxError(f"unexpected character {text[pos:].strip()[:1]!r}")
        tok = m.group(1) or m.group(2) or m.group(3)
        tokens.append("^" if tok == "**" else tok)
        pos = m.end()
    return tokens


def _add(p: Poly, q: Poly, sign: int = 1) -> Poly:
    r = dict(p)
    for k, v in q.items():
        r[k] = r.get(k, Fraction(0)) + sign * v
        if r[k] == 0:
            del r[k]
    return r


def _mul(p: Poly, q: Poly) -> Poly:
    r: Poly = {}
    for k1, v1 in p.items():
        for k2, v2 in q.items():
            k = tuple(a + b for a, b in zip(k1, k2, strict=True))
            r[k] = r.get(k, Fraction(0)) + v1 * v2
            if r[k] == 0:
                del r[k]
    return r


class _Parser:
    def __init__(self, tokens: list[str], variables: tuple[str, ...]) -> None:
        self.toks = tokens
        self.i = 0
        self.vars = variables
        self.zero_exp = (0,) * len(variables)

    def peek(self) -> str | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self) -> str:
        tok = self.peek()
        if tok is None:
            raise PolynomialSyntaxError("unexpected end of polynomial")
        self.i += 1
        return tok

    def const(self, c: Fraction) -> Poly:
        return {self.zero_exp: c} if c != 0 else {}

    def expr(self) -> Poly:
        sign = 1
        if self.peek() in ("+", "-"):
            sign = -1 if self.take() == "-" else 1
        acc = _mul(self.const(Fraction(sign)), self.term())
        while self.peek() in ("+", "-"):
            s = 1 if self.take() == "+" else -1
            acc = _add(acc, self.term(), s)
        return acc

    def term(self) -> Poly:
        acc = self.factor()
        while self.peek() in ("*", "/"):
            if self.take() == "*":
                acc = _mul(acc, self.factor())
            else:
                d = self.factor()
                if any(k != self.zero_exp for k in d) or not d:
                    raise PolynomialSyntaxError("division only by a nonzero constant")
                acc = _mul(acc, self.const(1 / d[self.zero_exp]))
        return acc

    def factor(self) -> Poly:
        base = self.atom()
        if self.peek() == "^":
            self.take()
            tok = self.take()
            if not tok.isdigit():
                raise PolynomialSyntaxError(f"exponent must be a natural number, got {tok!r}")
            e = int(tok)
            if e > MAX_EXPONENT:
                raise PolynomialSyntaxError(f"exponent {e} larger than {MAX_EXPONENT}")
            r = self.const(Fraction(1))
            for _ in range(e):
                r = _mul(r, base)
            return r
        return base

    def atom(self) -> Poly:
        tok = self.take()
        if tok == "(":
            inner = self.expr()
            if self.take() != ")":
                raise PolynomialSyntaxError("missing ')'")
            return inner
        if tok[0].isdigit():
            return self.const(Fraction(tok))
        if tok in self.vars:
            e = [0] * len(self.vars)
            e[self.vars.index(tok)] = 1
            return {tuple(e): Fraction(1)}
        if tok[0].isalpha() or tok[0] == "_":
            names = ", ".join(self.vars)
            raise PolynomialSyntaxError(f"unknown name {tok!r} (variables: {names})")
        raise PolynomialSyntaxError(f"unexpected {tok!r}")


def parse_polynomial(text: str, variables: tuple[str, ...]) -> Poly:
    """Parse `text` as a polynomial with rational coefficients in `variables`."""
    if not isinstance(text, str) or not text.strip():
        raise PolynomialSyntaxError("empty polynomial")
    parser = _Parser(_tokenize(text), variables)
    result = parser.expr()
    if parser.peek() is not None:
        raise PolynomialSyntaxError(f"unexpected {parser.peek()!r} after the polynomial")
    return result


def parse_univariate(text: str, var: str = "t") -> list[Fraction]:
    """Coefficient list (constant term first, no trailing zeros) of a polynomial in `var`."""
    poly = parse_polynomial(text, (var,))
    if not poly:
        return []
    deg = max(k[0] for k in poly)
    return [poly.get((i,), Fraction(0)) for i in range(deg + 1)]


def poly_add(p: Poly, q: Poly, sign: int = 1) -> Poly:
    return _add(p, q, sign)


def poly_mul(p: Poly, q: Poly) -> Poly:
    return _mul(p, q)


def compose(sigma: list[Fraction], p: Poly, nvars: int) -> Poly:
    """sigma(p) by Horner, exactly."""
    acc: Poly = {}
    one = (0,) * nvars
    for c in reversed(sigma):
        acc = _mul(acc, p)
        if c:
            acc = _add(acc, {one: Fraction(c)})
    return acc


def power(p: Poly, j: int, nvars: int) -> Poly:
    acc: Poly = {(0,) * nvars: Fraction(1)}
    for _ in range(j):
        acc = _mul(acc, p)
    return acc
