"""Signatures of the computable Coq definitions of coq/NNCert, read from the sources.

A type is a tuple: ("nat",), ("Z",), ("int",), ("bool",), ("Type",), ("var", "A"),
("list", t), ("option", t), ("tuple", (t1, ..., tn)) for t1 * ... * tn, ("arith", t),
("rec", name). `Section ... Context {A : Type} (ar : arith A).` parameters are prepended to
every definition of the section, as Coq does when the section closes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
COQ_DIR = ROOT / "coq" / "NNCert"
# The files with computable kernel definitions (the *Sound.v files and TanhSym.v are proofs
# over Z, Q or R: nothing there is evaluated by a certificate).
COQ_FILES = ("Lists", "Arith", "Net", "RankCore", "Rank", "ResNet", "Compind", "ReLU", "Tanh")

Type = tuple


@dataclass(frozen=True)
class Param:
    name: str
    type: Type
    implicit: bool


@dataclass(frozen=True)
class CoqDef:
    name: str
    file: str
    params: tuple[Param, ...]
    ret: Type

    @property
    def explicit(self) -> list[Param]:
        return [p for p in self.params if not p.implicit]


@dataclass(frozen=True)
class CoqRecord:
    name: str
    ctor: str
    fields: tuple[tuple[str, Type], ...]


def strip_comments(text: str) -> str:
    out, depth, i = [], 0, 0
    while i < len(text):
        if text.startswith("(*", i):
            depth, i = depth + 1, i + 2
        elif depth and text.startswith("*)", i):
            depth, i = depth - 1, i + 2
        else:
            if not depth:
                out.append(text[i])
            i += 1
    return "".join(out)


def _tokens(s: str) -> list[str]:
    return re.findall(r"[\w.']+|->|[()*]", s)


def parse_type(s: str) -> Type:
    toks = _tokens(s)
    t, rest = _product(toks)
    assert not rest, (s, rest)
    return t


def _product(toks: list[str]) -> tuple[Type, list[str]]:
    t, toks = _app(toks)
    parts = [t]
    while toks and toks[0] == "*":
        t, toks = _app(toks[1:])
        parts.append(t)
    if toks and toks[0] == "->":
        rhs, toks = _product(toks[1:])
        return ("fun", tuple(parts), rhs), toks
    return (parts[0] if len(parts) == 1 else ("tuple", tuple(parts))), toks


def _app(toks: list[str]) -> tuple[Type, list[str]]:
    if toks[0] in ("list", "option", "arith"):
        arg, rest = _atom(toks[1:])
        return (toks[0], arg), rest
    return _atom(toks)


def _atom(toks: list[str]) -> tuple[Type, list[str]]:
    if toks[0] == "(":
        t, rest = _product(toks[1:])
        assert rest and rest[0] == ")", toks
        return t, rest[1:]
    name = toks[0]
    if name in ("nat", "Z", "int", "bool", "Type"):
        return (name,), toks[1:]
    if len(name) == 1 and name.isupper():
        return ("var", name), toks[1:]
    return ("rec", name), toks[1:]


def _group(s: str, i: int) -> int:
    """Index just past the balanced group opening at s[i]."""
    depth = 0
    for j in range(i, len(s)):
        if s[j] in "({":
            depth += 1
        elif s[j] in ")}":
            depth -= 1
            if depth == 0:
                return j + 1
    raise ValueError(s[i:])


def _binders(group: str, implicit: bool) -> list[Param]:
    inner = group[1:-1].strip()
    if inner.startswith("struct "):
        return []
    names, _, ty = inner.partition(":")
    return [Param(n, parse_type(ty), implicit) for n in names.split()]


def _end(text: str, i: int) -> int:
    """End of the sentence starting before i: the first '.' followed by white space."""
    m = re.compile(r"\.(\s|$)").search(text, i)
    return m.end() if m else len(text)


HEADER = re.compile(r"^(Definition|Fixpoint)\s+([\w']+)", re.M)


def read_file(stem: str) -> tuple[list[CoqDef], list[CoqRecord]]:
    text = strip_comments((COQ_DIR / "kernel" / f"{stem}.v").read_text())
    defs: list[CoqDef] = []
    section_uses: dict[str, set[str]] = {}
    sections: list[tuple[int, int, list[Param]]] = []
    for m in re.finditer(
        r"^Section (\w+)\.\s*Context (.*?)\.\s*$(.*?)^End \1\.", text, re.M | re.S
    ):
        ctx = m.group(2)
        params: list[Param] = []
        i = 0
        while i < len(ctx):
            if ctx[i] in "({":
                j = _group(ctx, i)
                params += _binders(ctx[i:j], ctx[i] == "{")
                i = j
            else:
                i += 1
        sections.append((m.start(3), m.end(3), params))
    for m in HEADER.finditer(text):
        i = m.end()
        params: list[Param] = []
        while True:
            while text[i].isspace():
                i += 1
            if text[i] not in "({":
                break
            j = _group(text, i)
            params += _binders(text[i:j], text[i] == "{")
            i = j
        if text[i] != ":" or text.startswith(":=", i):
            continue
        ret = text[i + 1 : text.index(":=", i)]
        body = text[m.start() : _end(text, i)]
        ctx = [p for lo, hi, ps in sections if lo <= m.start() < hi for p in ps]
        if ctx:  # Coq keeps only the section variables a definition uses, transitively
            used = set(re.findall(r"[\w']+", body))
            used |= {v for d in defs if d.name in used for v in section_uses.get(d.name, ())}
            ctx = [p for p in ctx if p.name in used]
            section_uses[m.group(2)] = {p.name for p in ctx}
        defs.append(CoqDef(m.group(2), stem, tuple(ctx + params), parse_type(ret)))
    records = []
    for m in re.finditer(
        r"^Record (\w+)(?: \(\w+ : Type\))? :=\s*(\w+)?\s*\{(.*?)\}\.", text, re.M | re.S
    ):
        fields = []
        for f in m.group(3).split(";"):
            fname, _, fty = f.partition(":")
            fields.append((fname.strip(), parse_type(fty)))
        records.append(CoqRecord(m.group(1), m.group(2) or f"Build_{m.group(1)}", tuple(fields)))
    return defs, records


def library() -> tuple[dict[str, CoqDef], dict[str, CoqRecord]]:
    defs: dict[str, CoqDef] = {}
    records: dict[str, CoqRecord] = {}
    for stem in COQ_FILES:
        ds, rs = read_file(stem)
        for d in ds:
            assert d.name not in defs, f"{d.name} defined twice ({defs[d.name].file}, {stem})"
            defs[d.name] = d
        records.update({r.name: r for r in rs})
    # Coq standard library functions that a Python twin plays.
    defs["Z.abs"] = CoqDef("Z.abs", "ZArith", (Param("x", ("Z",), False),), ("Z",))
    defs["Z.max"] = CoqDef(
        "Z.max", "ZArith", (Param("a", ("Z",), False), Param("b", ("Z",), False)), ("Z",)
    )
    return defs, records
