"""The certificate fields that prover files write as Coq `nat` literals, bounded before any
kind's checker runs (issue 22: a nat is unary in Coq, so a forged 10^9 in one of them would
make coqc exhaust the machine's memory).

NAT_FIELDS lists, per (family, kind), the paths of those fields in the certificate JSON:
dotted keys, `[]` for every entry of a list, `#` for the length of a list (a count the
renderer derives from it). certify.checker.check_certificate rejects any integer above
ir.MAX_NAT at one of them with a problem naming the field. The list is kept complete by
tests/test_nat_bounds.py, which forges every integer of every example certificate and
compares with what the renderers write as nat (certify/render/env.py refuses a nat literal
above MAX_NAT too, as a second line)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from certify.checker.ir import MAX_NAT

_RANK = ("witness.lower.rank", "witness.lower.rows[][]", "witness.lower.cols[]",
         "witness.upper.bound", "witness.upper.cols[]")  # fmt: skip
_TANH = ("instance.network.inputs", "instance.network.hidden", "instance.network.outputs",
         "instance.network.widths[]")  # fmt: skip
_COMPIND = ("instance.variables#", "instance.polynomials[][][1][]", "witness.facts[].k",
            "witness.facts[].lo", "witness.facts[].degree", "witness.facts[].rmin",
            "witness.facts[].widths[]")  # fmt: skip
_LOCUS = ("witness.locus.g", "witness.locus.power", "witness.locus.polynomial[][1][]",
          "witness.locus.cofactors[][][1][]", "witness.locus.bezout[][][1][]")  # fmt: skip

NAT_FIELDS: dict[tuple[str, str], tuple[str, ...]] = {
    ("mlp", "rank"): ("instance.network.widths[]", *_RANK, "result.functional_dimension"),
    ("mlp", "mlp-identifiable"): ("instance.network.widths[]", *_COMPIND),
    ("resnet", "rank"): ("instance.network.width", *_RANK),
    ("resnet", "orbit"): ("instance.network.width", "witness.layers[].layer",
                          "witness.layers[].g", "witness.facts[].layer",
                          "witness.facts[].neuron", "witness.facts[].g"),
    ("resnet", "critical"): ("instance.network.width", "witness.zero_rows[][]",
                             "witness.dead_layers[]", *_LOCUS),
    ("resnet", "implicit"): ("instance.network.width", "witness.degree",
                             "witness.equation[][1][]"),
    ("mlp", "equiv"): ("instance.network.widths[]",),
    ("relu", "rank"): ("instance.network.widths[]", *_RANK),
    ("relu", "equiv"): ("instance.network.widths[]", "witness.perms[][]"),
    ("tanh", "affsym"): (),
    ("tanh", "orbit"): (*_TANH, "witness.classes[][]", "witness.to_canonical.perm[]",
                        "witness.actions[].perm[]"),
    ("tanh", "equiv"): (*_TANH, "witness.classes[][]", "witness.element.perm[]",
                        "witness.first.element.perm[]", "witness.second.element.perm[]"),
    ("compind", "compind"): _COMPIND,
    ("compind", "prop21"): _COMPIND,
    ("compind", "newman-slater"): _COMPIND,
}  # fmt: skip

_STEP = re.compile(r"\[\]|#|\[(\d+)\]|\.?([A-Za-z_][A-Za-z0-9_]*)")


def _steps(pattern: str) -> list[str | int]:
    out: list[str | int] = []
    for m in _STEP.finditer(pattern):
        if m.group(0) in ("[]", "#"):
            out.append(m.group(0))
        elif m.group(1) is not None:
            out.append(int(m.group(1)))
        else:
            out.append(m.group(2))
    return out


def values_at(x: Any, pattern: str) -> Iterator[tuple[str, Any]]:
    """(concrete path, value) of every value of x that `pattern` names (absent keys and values
    of another type are skipped: the kind's checker reports those)."""

    def walk(v: Any, steps: list[str | int], where: str) -> Iterator[tuple[str, Any]]:
        if not steps:
            yield where, v
            return
        s, rest = steps[0], steps[1:]
        if s == "[]" and isinstance(v, list):
            for i, u in enumerate(v):
                yield from walk(u, rest, f"{where}[{i}]")
        elif s == "#" and isinstance(v, list):
            yield from walk(len(v), rest, f"{where} (its length)")
        elif isinstance(s, int) and isinstance(v, list) and s < len(v):
            yield from walk(v[s], rest, f"{where}[{s}]")
        elif isinstance(s, str) and s not in ("[]", "#") and isinstance(v, dict) and s in v:
            yield from walk(v[s], rest, f"{where}.{s}" if where else s)

    yield from walk(x, _steps(pattern), "")


def nat_problems(cert: dict[str, Any]) -> list[str]:
    """The first field of the certificate's kind rendered as a Coq nat whose integer is above
    MAX_NAT, as a problem naming it (empty: every such field is within the bound)."""
    for pattern in NAT_FIELDS.get((cert.get("family"), cert.get("kind")), ()):  # type: ignore[arg-type]
        for where, v in values_at(cert, pattern):
            if isinstance(v, int) and not isinstance(v, bool) and v > MAX_NAT:
                digits = int(v.bit_length() * 0.30103) + 1
                shown = str(v) if v.bit_length() < 64 else f"an integer of about {digits} digits"
                return [
                    f"{where}: {shown} is above {MAX_NAT}, the bound on a value written as a "
                    "Coq nat (a unary numeral: the prover would exhaust its memory)"
                ]
    return []
