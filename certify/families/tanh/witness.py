"""Generators of the tanh certificates: affsym (the activation's affine symmetry group), orbit
(group order, orbit size, canonical representative, the action of group elements) and equiv
(an explicit group element, or different canonical forms) on DAG networks (math.md §4)."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

from certify import __version__
from certify.certificate import SCHEMA
from certify.checker.claims.tanh import (
    affsym_claim,
    affsym_result,
    equiv_claim,
    equiv_result,
    orbit_claim,
    orbit_result,
    theorem_applies,
)
from certify.checker.facts import tanh_net as N
from certify.checker.facts.tanh_orbit import MAX_ENUMERATE
from certify.checker.facts.tanh_sym import rational_table
from certify.checker.ir import rat_str
from certify.errors import CertifyError
from certify.families.tanh import dag as D
from certify.families.tanh.spec import rho_aff, rho_group
from certify.request import CertRequest, Spec


def _envelope(req: CertRequest, kind: str, claim: dict[str, Any], inst: dict[str, Any],
              witness: dict[str, Any], result: dict[str, Any]) -> dict[str, Any]:  # fmt: skip
    return {
        "schema": SCHEMA,
        "family": "tanh",
        "kind": kind,
        "name": req.name,
        "claim": claim,
        "instance": inst,
        "witness": witness,
        "result": result,
        "generator": {"tool": "nn-certify", "version": __version__},
    }


def generate_affsym(spec: Spec, req: CertRequest) -> dict[str, Any]:
    group = rho_group(req.options["activation"])
    table = rational_table(group)
    closed = group["type"] == "finite" and group["complete"]
    result = affsym_result(group)
    return _envelope(
        req,
        "affsym",
        affsym_claim(group, result, len(table)),
        {"activation": req.options["activation"]},
        {"group": group, "table": table, "closed": closed},
        result,
    )


def sym_json(act: str) -> tuple[list[str] | None, int]:
    g, order = rho_aff(act)
    return ([rat_str(v) for v in g] if g is not None else None), order


def element_json(el: D.GroupElement) -> dict[str, Any]:
    return {"flips": [int(f) for f in el.flips], "perm": list(el.perm)}


def enumerate_orbit(net: N.TanhNet, g: D.Aff | None) -> int:
    """|orbit| by listing every group element's image (small groups only)."""
    cs = N.classes(net)
    hidden = list(net.hidden())
    seen = set()
    flip_sets = (
        itertools.product((False, True), repeat=len(hidden)) if g else [(False,) * len(hidden)]
    )
    perms = list(itertools.product(*(itertools.permutations(c) for c in cs)))
    for fs in flip_sets:
        flips = [False] * net.size
        for v, f in zip(hidden, fs, strict=True):
            flips[v] = f
        for choice in perms:
            perm = list(range(net.size))
            for c, img in zip(cs, choice, strict=True):
                for v, w in zip(c, img, strict=True):
                    perm[v] = w
            el = D.GroupElement(tuple(flips), tuple(perm))
            img_net = D.apply(net, g or (1, 0, 1, 0), el)  # type: ignore[arg-type]
            seen.add((img_net.adj, img_net.weights, img_net.biases))
    return len(seen)


def orbit_data(net: N.TanhNet) -> tuple[dict[str, Any], dict[str, Any]]:
    """(witness, result) of an orbit certificate."""
    g, order = rho_aff(net.activation)
    cs = N.classes(net)
    canon, to_canon = D.canonical(net, g)
    free = D.free(net, g) is None
    gorder = D.group_order(net, order)
    if free:
        size: int | None = gorder
    elif gorder <= MAX_ENUMERATE:
        size = enumerate_orbit(net, g)
    else:
        size = None
    actions = []
    first = cs[0][0]
    if g is not None:
        flips = tuple(v == first for v in range(net.size))
        el = D.GroupElement(flips, tuple(range(net.size)))
        actions.append(el)
    big = next((c for c in cs if len(c) >= 2), None)
    if big is not None:
        perm = list(range(net.size))
        perm[big[0]], perm[big[1]] = big[1], big[0]
        actions.append(D.GroupElement((False,) * net.size, tuple(perm)))
    ident = g or (Fraction(1), Fraction(0), Fraction(1), Fraction(0))
    witness = {
        "classes": cs,
        "canonical": N.params_json(canon),
        "to_canonical": element_json(to_canon),
        "actions": [
            {**element_json(a), "image": N.params_json(D.apply(net, ident, a))} for a in actions
        ],
    }
    return witness, orbit_result(gorder, size, free, net.n_hidden, [len(c) for c in cs])


def generate_orbit(spec: Spec, req: CertRequest) -> dict[str, Any]:
    net = spec.network
    if not isinstance(net, N.TanhNet):
        raise CertifyError(f"{req.name}: kind orbit on family tanh needs a tanh network")
    sym, order = sym_json(net.activation)
    witness, result = orbit_data(net)
    inst = {
        "network": N.network_json(net),
        "parameters": N.params_json(net),
        "symmetry": sym,
        "rho_order": order,
    }
    return _envelope(req, "orbit", orbit_claim(inst["network"], sym, result), inst, witness, result)


def genericity(net: N.TanhNet, other: N.TanhNet) -> tuple[bool | None, bool | None, bool]:
    """(Sussmann holds for both, Fefferman-type holds for both, a cited theorem applies);
    None where the condition is not the one for this architecture."""
    from certify.checker.check.tanh import to_instance
    from certify.checker.kernel import tanh as KT

    g, _ = rho_aff(net.activation)
    cs = N.classes(net)
    s = KT.AffSym(*[(v.numerator, v.denominator) for v in (g or (1, 0, 1, 0))])  # type: ignore[arg-type]
    one_layer = net.widths is not None and len(net.widths) == 3
    layered = net.widths is not None
    sus = fef = None
    if one_layer:
        sus = all(KT.check_sussmann(s, to_instance(n), cs) for n in (net, other))
    elif layered:
        fef = all(KT.check_fefferman(to_instance(n), cs) for n in (net, other))
    applies = theorem_applies(net.activation, sus, fef)
    return sus, fef, applies


def equiv_data(net: N.TanhNet, other: N.TanhNet) -> tuple[dict[str, Any], dict[str, Any]]:
    g, _ = rho_aff(net.activation)
    ident = g or (Fraction(1), Fraction(0), Fraction(1), Fraction(0))
    c1, e1 = D.canonical(net, g)
    c2, e2 = D.canonical(other, g)
    same = (c1.adj, c1.weights, c1.biases) == (c2.adj, c2.weights, c2.biases)
    free = D.free(net, g) is None and D.free(other, g) is None
    sus, fef, applies = genericity(net, other)
    if same:
        el = D.compose(D.inverse(e2), e1)
        img = D.apply(net, ident, el)
        if (img.adj, img.weights, img.biases) != (other.adj, other.weights, other.biases):
            raise CertifyError("internal: the composed group element does not map net 1 to net 2")
        witness: dict[str, Any] = {"element": element_json(el)}
    else:
        if not free or net.adj != other.adj:
            raise CertifyError(
                "the networks have different canonical forms but the group does not act freely "
                "on them (or their graphs differ), so different canonical forms prove nothing: "
                f"{D.free(net, g) or D.free(other, g) or 'different edge sets'}"
            )
        witness = {
            "classes": N.classes(net),
            "first": {"element": element_json(e1), "canonical": N.params_json(c1)},
            "second": {"element": element_json(e2), "canonical": N.params_json(c2)},
        }
    return witness, equiv_result(same, sus, fef, applies)


def generate_equiv(spec: Spec, req: CertRequest) -> dict[str, Any]:
    net, other = spec.network, req.options["other"]
    if not isinstance(net, N.TanhNet) or not isinstance(other, N.TanhNet):
        raise CertifyError(f"{req.name}: kind equiv needs two tanh networks")
    sym, order = sym_json(net.activation)
    witness, result = equiv_data(net, other)
    inst = {
        "network": N.network_json(net),
        "parameters": N.params_json(net),
        "other": N.params_json(other),
        "symmetry": sym,
        "rho_order": order,
    }
    claim = equiv_claim(inst["network"], sym, result)
    return _envelope(req, "equiv", claim, inst, witness, result)
