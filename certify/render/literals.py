"""Exact literal printers for Lean and Coq, and a reader that parses them back.

Every rendered literal is read back from the rendered file and compared with the
certificate data before a prover runs (design.md §5): a printer bug cannot change the
statement silently.
"""

from __future__ import annotations

import re
from typing import Any

from certify.checker.ir import NAME_RE
from certify.errors import RenderError

Lit = Any  # int | bool | tuple | list of those


def module_ident(prefix: str, cert_name: str) -> str:
    """The Lean/Coq module of a certificate: prefix + the name with [^A-Za-z0-9] -> _.

    Names are validated first: nothing outside [A-Za-z0-9_.-] ever reaches a prover file."""
    if not isinstance(cert_name, str) or not NAME_RE.match(cert_name):
        raise RenderError(f"certificate name {cert_name!r} is not a valid name")
    return prefix + re.sub(r"[^A-Za-z0-9]", "_", cert_name)


def _check_int(x: Any) -> int:
    if isinstance(x, bool) or not isinstance(x, int):
        raise RenderError(f"cannot render {x!r} exactly as an integer literal")
    return x


def lean(x: Lit) -> str:
    """Lean 4 syntax: [a, b], (a, b), -3, true."""
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, int):
        return str(x)
    if isinstance(x, tuple):
        return "(" + ", ".join(lean(v) for v in x) + ")"
    if isinstance(x, list):
        return "[" + ", ".join(lean(v) for v in x) + "]"
    raise RenderError(f"cannot render {x!r} as a Lean literal")


def coq(x: Lit, nat: bool = False) -> str:
    """Coq syntax under Z_scope: [a; b], (a, b), (-3); `nat=True` appends %nat once."""
    body = _coq(x)
    return f"({body})%nat" if nat else body


def coq_uint63(x: Lit) -> str:
    """Primitive 63-bit integer literals (residues): [a; b]%uint63, entries in [0, 2^63)."""

    def check(v: Lit) -> None:
        if isinstance(v, list):
            for u in v:
                check(u)
        elif not (isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 2**63):
            raise RenderError(f"cannot render {v!r} exactly as a Coq uint63 literal")

    check(x)
    return f"({_coq(x)})%uint63"


def _coq(x: Lit) -> str:
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, int):
        return f"({x})" if x < 0 else str(_check_int(x))
    if isinstance(x, tuple):
        return "(" + ", ".join(_coq(v) for v in x) + ")"
    if isinstance(x, list):
        return "[" + "; ".join(_coq(v) for v in x) + "]"
    raise RenderError(f"cannot render {x!r} as a Coq literal")


_TOK = re.compile(r"\s*(-?\d+|true|false|\[|\]|\(|\)|,|;|%nat|%uint63|%N\b)")


class _Reader:
    def __init__(self, text: str, pos: int) -> None:
        self.text = text
        self.pos = pos

    def peek(self) -> str:
        m = _TOK.match(self.text, self.pos)
        if not m:
            raise RenderError(f"unreadable literal near {self.text[self.pos : self.pos + 40]!r}")
        return m.group(1)

    def take(self) -> str:
        m = _TOK.match(self.text, self.pos)
        if not m:
            raise RenderError(f"unreadable literal near {self.text[self.pos : self.pos + 40]!r}")
        self.pos = m.end()
        return m.group(1)

    def value(self) -> Lit:
        tok = self.take()
        if tok == "[":
            items: list[Lit] = []
            if self.peek() == "]":
                self.take()
                return items
            while True:
                items.append(self.value())
                sep = self.take()
                if sep == "]":
                    return items
                if sep not in (",", ";"):
                    raise RenderError(f"bad list separator {sep!r}")
        if tok == "(":
            first = self.value()
            if self.peek() == ")":
                self.take()
                self._suffix()
                return first
            items = [first]
            while self.take() == ",":
                items.append(self.value())
                if self.peek() == ")":
                    self.take()
                    break
            self._suffix()
            return tuple(items)
        if tok in ("true", "false"):
            return tok == "true"
        if tok.lstrip("-").isdigit():
            return int(tok)
        raise RenderError(f"unexpected {tok!r} in literal")

    def _suffix(self) -> None:
        m = _TOK.match(self.text, self.pos)
        if m and m.group(1) in ("%nat", "%uint63", "%N"):
            self.pos = m.end()


def read_field(text: str, field: str, start: int = 0) -> Lit:
    """The literal after the first `field :=` at or after `start` in a rendered file."""
    m = re.compile(rf"(?<![A-Za-z0-9_.']){re.escape(field)}\s*(?::[^=]*)?:=").search(text, start)
    if not m:
        raise RenderError(f"field {field!r} not found in the rendered file")
    return _Reader(text, m.end()).value()


def coq_coded(x: Lit, decoder: str, scope: str) -> str:
    """A Coq literal read through a decoder function: `decoder (x)%scope`, e.g.
    `gap_cols 0 ([1; 0; 2])%nat` or `labels_of_N ([(0, 0)])%N` (read back by read_coded)."""
    if scope not in ("nat", "N"):
        raise RenderError(f"no Coq literal scope {scope!r}")
    return f"{decoder} ({_coq(x)})%{scope}"


def read_coded(text: str, field: str, start: int, decoder: str) -> Lit:
    """The literal after `field := decoder` (see coq_coded) at or after `start`; a field
    without the decoder is an error (the renderer wrote it, so it must be there)."""
    m = re.compile(
        rf"(?<![A-Za-z0-9_.']){re.escape(field)}\s*(?::[^=]*)?:=\s*{re.escape(decoder)}(?=[\s(\[])"
    ).search(text, start)
    if not m:
        raise RenderError(f"field {field!r} := {decoder} ... not found in the rendered file")
    return _Reader(text, m.end()).value()


def block_start(text: str, header: str) -> int:
    """Offset of a definition header such as 'def inst' or 'Definition lower'."""
    i = text.find(header)
    if i < 0:
        raise RenderError(f"{header!r} not found in the rendered file")
    return i


def comment_safe(text: str) -> str:
    """Text safe inside a Coq or Lean comment."""
    # Coq comments and Lean block comments nest, and a '"' opens a string inside a Coq
    # comment: neutralise every opener, closer and quote.
    for a, b in (("(*", "( *"), ("*)", "* )"), ("/-", "/ -"), ("-/", "- /"), ('"', "'")):
        text = text.replace(a, b)
    return text
