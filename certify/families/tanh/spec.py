"""Spec parsing for family "tanh" (DAG networks with a tanh-type activation) and the kinds
affsym, orbit and equiv on them. Every error is a SpecError naming file, field, expectation.

    [network]                          [network]
    family = "tanh"                    family = "tanh"
    activation = "tanh"                activation = "logistic"
    widths = [1, 3, 1]                 inputs = 2
                                       hidden = 3
    [parameters]                       outputs = 1
    weights = [W_1, W_2]               edges = [[0, 2], [1, 2], [2, 3], [0, 5], ...]
    biases = [b_1, b_2]                [parameters]
    # or seed = 0                      weights = [one per edge]    biases = [hidden, outputs]

Spec node numbers of a DAG: inputs 0..n_in-1, hidden n_in..n_in+H-1 (in any order: they are
renumbered topologically), outputs last. A [[certificate]] of kind equiv carries the second
network's `weights` and `biases` in the same format (same architecture).
"""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction
from functools import cache
from typing import Any

from certify.checker.facts.tanh_expr import ActivationError, activation
from certify.checker.facts.tanh_net import SOURCE_GRAMMAR, SOURCE_RE, TanhNet
from certify.errors import SpecError
from certify.families.tanh.dag import find_cycle, from_edges, layered
from certify.spec_values import (
    int_field,
    parameters_table,
    rational_field,
)

MAX_NODES = 512
NET_FIELDS = {"family", "activation", "widths", "inputs", "hidden", "outputs", "edges", "source"}
# certify from-torch (certify/torch_import.py): the torch activation modules whose Sequential of
# Linear layers is a network of this family, each with the [network] fields it sets beyond
# family and widths; the conversion is also recorded in `source` (one token of SOURCE_GRAMMAR,
# which every claim about the network repeats).
TORCH_ACTIVATIONS: dict[str, dict[str, str]] = {
    "Tanh": {"activation": "tanh"},
    "Sigmoid": {"activation": "logistic"},
}
TORCH_SOURCE = True


@cache
def rho_group(name: str) -> dict[str, Any]:
    """The affine symmetry group of a (validated) activation, computed once per name."""
    from certify.families.tanh.affsym import compute_group

    return compute_group(activation(name))


def parse_activation(v: Any, src: str, fld: str) -> str:
    """A validated activation text (named or in the restricted grammar)."""
    if not isinstance(v, str):
        raise SpecError(src, fld, "an activation name (tanh, logistic, ...) or expression", v)
    try:
        act = activation(v)
        from certify.families.tanh.affsym import affine

        if affine(act.expr):
            raise ActivationError("a nonlinear expression (an affine one has a 2-parameter group)")
        return act.name
    except ActivationError as e:
        raise SpecError(
            src, fld, f"a known activation or an expression in the grammar ({e})", v
        ) from None


def parse_network(
    data: dict[str, Any], net: dict[str, Any], src: str
) -> tuple[TanhNet, None, tuple[Fraction, ...], int]:
    """The network of a [network] table of family tanh (its parameters live in the network:
    no seed, theta or range of the common shape)."""
    return tanh_network(data, net, src), None, (), 5


def tanh_network(data: dict[str, Any], net: dict[str, Any], src: str) -> TanhNet:
    """The network of a [network] table of family tanh (and its [parameters])."""
    source = net.get("source")
    if source is not None and (not isinstance(source, str) or not SOURCE_RE.match(source)):
        got = source[:40] + "…" if isinstance(source, str) and len(source) > 40 else source
        raise SpecError(src, "network.source", SOURCE_GRAMMAR.removeprefix("null or "), got)
    out = _parse_network(data, net, src)
    return dataclasses.replace(out, source=source) if source is not None else out


def _parse_network(data: dict[str, Any], net: dict[str, Any], src: str) -> TanhNet:
    for k in net:
        if k not in NET_FIELDS:
            raise SpecError(src, f"network.{k}", f"one of {sorted(NET_FIELDS)}", "unknown")
    if "activation" not in net:
        raise SpecError(src, "network.activation", "an activation name or expression (missing)")
    act = parse_activation(net["activation"], src, "network.activation")
    params = parameters_table(data, src, ("seed", "range", "weights", "biases"))
    if "widths" in net:
        for k in ("inputs", "hidden", "outputs", "edges"):
            if k in net:
                raise SpecError(src, f"network.{k}", "not together with network.widths")
        widths = net["widths"]
        if not isinstance(widths, list) or len(widths) < 3:
            raise SpecError(
                src, "network.widths", "a list of at least three positive integers", widths
            )
        ws = [int_field(w, src, f"network.widths[{i}]", 1, MAX_NODES) for i, w in enumerate(widths)]
        if sum(ws) > MAX_NODES:
            raise SpecError(src, "network.widths", f"at most {MAX_NODES} nodes in all", widths)
        return layered_params(act, ws, params, src, "parameters")
    for k in ("inputs", "hidden", "outputs", "edges"):
        if k not in net:
            raise SpecError(src, f"network.{k}", "network.widths, or inputs/hidden/outputs/edges")
    n_in = int_field(net["inputs"], src, "network.inputs", 1, MAX_NODES)
    h = int_field(net["hidden"], src, "network.hidden", 1, MAX_NODES)
    n_out = int_field(net["outputs"], src, "network.outputs", 1, MAX_NODES)
    n = n_in + h + n_out
    if n > MAX_NODES:
        raise SpecError(src, "network", f"at most {MAX_NODES} nodes in all", n)
    raw = net["edges"]
    if not isinstance(raw, list) or not raw:
        raise SpecError(src, "network.edges", "a non-empty list of [source, target] pairs", raw)
    edges: list[tuple[int, int]] = []
    for i, e in enumerate(raw):
        fld = f"network.edges[{i}]"
        if not isinstance(e, list) or len(e) != 2:
            raise SpecError(src, fld, "a pair [source, target] of node numbers", e)
        p = int_field(e[0], src, f"{fld}[0]", 0, n - 1)
        q = int_field(e[1], src, f"{fld}[1]", 0, n - 1)
        if p >= n_in + h:
            raise SpecError(src, fld, f"a source that is an input or hidden node (< {n_in + h})", e)
        if q < n_in:
            raise SpecError(src, fld, f"a target that is a hidden or output node (>= {n_in})", e)
        if (p, q) in edges:
            raise SpecError(src, fld, "no repeated edge", e)
        edges.append((p, q))
    bad = find_cycle(n, edges)
    if bad is not None:
        p, q = edges[bad]
        raise SpecError(
            src, f"network.edges[{bad}]", f"an acyclic graph (edge {p} -> {q} closes a cycle)"
        )
    for v in range(n_in, n_in + h):
        if not any(q == v for _, q in edges) or not any(p == v for p, _ in edges):
            raise SpecError(
                src, "network.edges", f"hidden node {v} with an incoming and an outgoing edge"
            )
    for v in range(n_in + h, n):
        if not any(q == v for _, q in edges):
            raise SpecError(src, "network.edges", f"output node {v} with an incoming edge")
    return dag_params(act, n_in, h, n_out, edges, params, src, "parameters")


def _seeded(params: dict[str, Any], src: str, where: str, count: int) -> list[Fraction]:
    if "biases" in params:
        raise SpecError(src, f"{where}.biases", f"only together with {where}.weights")
    seed = int_field(params.get("seed", 0), src, f"{where}.seed", 0, 2**63)
    prange = int_field(params.get("range", 5), src, f"{where}.range", 1, 10**6)
    rng = random.Random(f"nn-certify/tanh/{seed}")
    out = []
    for _ in range(count):
        v = 0
        while v == 0:
            v = rng.randint(-prange, prange)
        out.append(Fraction(v))
    return out


def layered_params(
    act: str, ws: list[int], params: dict[str, Any], src: str, where: str
) -> TanhNet:
    L = len(ws) - 1
    if "weights" not in params:
        vals = _seeded(params, src, where, sum(ws[i + 1] * (ws[i] + 1) for i in range(L)))
        Ws, bs, k = [], [], 0
        for ell in range(L):
            W = []
            for _ in range(ws[ell + 1]):
                W.append(vals[k : k + ws[ell]])
                k += ws[ell]
            Ws.append(W)
            bs.append(vals[k : k + ws[ell + 1]])
            k += ws[ell + 1]
        return layered(act, ws, Ws, bs)
    if "seed" in params or "range" in params:
        raise SpecError(src, where, "either seed/range or explicit weights, not both")
    Wr, br = params["weights"], params.get("biases")
    if not isinstance(Wr, list) or len(Wr) != L:
        raise SpecError(src, f"{where}.weights", f"a list of {L} weight matrices", Wr)
    if not isinstance(br, list) or len(br) != L:
        raise SpecError(src, f"{where}.biases", f"a list of {L} bias vectors", br)
    Ws, bs = [], []
    for ell in range(L):
        rows, cols = ws[ell + 1], ws[ell]
        fld = f"{where}.weights[{ell}]"
        W = Wr[ell]
        if not isinstance(W, list) or len(W) != rows:
            raise SpecError(src, fld, f"a {rows} x {cols} matrix (list of {rows} rows)", W)
        mat = []
        for i, row in enumerate(W):
            if not isinstance(row, list) or len(row) != cols:
                raise SpecError(src, f"{fld}[{i}]", f"a row of {cols} numbers", row)
            mat.append([rational_field(v, src, f"{fld}[{i}][{j}]") for j, v in enumerate(row)])
        b = br[ell]
        if not isinstance(b, list) or len(b) != rows:
            raise SpecError(src, f"{where}.biases[{ell}]", f"a list of {rows} numbers", b)
        bs.append([rational_field(v, src, f"{where}.biases[{ell}][{i}]") for i, v in enumerate(b)])
        Ws.append(mat)
    return layered(act, ws, Ws, bs)


def dag_params(
    act: str,
    n_in: int,
    h: int,
    n_out: int,
    edges: list[tuple[int, int]],
    params: dict[str, Any],
    src: str,
    where: str,
) -> TanhNet:
    if "weights" not in params:
        vals = _seeded(params, src, where, len(edges) + h + n_out)
        ws, bs = vals[: len(edges)], vals[len(edges) :]
    else:
        if "seed" in params or "range" in params:
            raise SpecError(src, where, "either seed/range or explicit weights, not both")
        wr, br = params["weights"], params.get("biases")
        if not isinstance(wr, list) or len(wr) != len(edges):
            raise SpecError(src, f"{where}.weights", f"one weight per edge ({len(edges)})", wr)
        if not isinstance(br, list) or len(br) != h + n_out:
            raise SpecError(
                src, f"{where}.biases", f"one bias per hidden and output node ({h + n_out})", br
            )
        ws = [rational_field(v, src, f"{where}.weights[{i}]") for i, v in enumerate(wr)]
        bs = [rational_field(v, src, f"{where}.biases[{i}]") for i, v in enumerate(br)]
    return from_edges(
        act, n_in, h, n_out, [(p, q, w) for (p, q), w in zip(edges, ws, strict=True)], bs
    )


def parse_other(
    c: dict[str, Any], net: TanhNet, raw_net: dict[str, Any], src: str, where: str
) -> TanhNet:
    """The second network of an equiv request: same architecture, its own weights/biases."""
    params = {k: c[k] for k in ("weights", "biases") if k in c}
    if "weights" not in params:
        raise SpecError(src, f"{where}.weights", "the second network's weights (missing)")
    if net.widths is not None:
        other = layered_params(net.activation, list(net.widths), params, src, where)
        return dataclasses.replace(other, source=net.source)
    edges = [(int(e[0]), int(e[1])) for e in raw_net["edges"]]
    other = dag_params(net.activation, net.n_in, net.n_hidden, net.n_out, edges, params, src, where)
    return dataclasses.replace(other, source=net.source)


def check_group_usable(act: str, src: str, fld: str) -> None:
    """Orbit and equiv need a finite group {1} or {1, g} with rational g = (-1, β, γ, δ)."""
    g = rho_group(act)
    if g["type"] != "finite" or g["order"] not in (1, 2):
        raise SpecError(
            src,
            fld,
            "an activation whose affine symmetry group is finite of order 1 or 2 "
            f"(the group of {act} is {g['type']})",
            act,
        )
    for row in g["elements"]:
        if row["proof"] == "unproved":
            continue  # not used (rho_aff)
        for k in ("alpha", "beta", "gamma", "delta"):
            try:
                Fraction(row[k].replace("(", "").replace(")", ""))
            except ValueError:
                raise SpecError(src, fld, "an activation with rational symmetries", act) from None


def _frac(text: str) -> Fraction:
    return Fraction(text.replace("(", "").replace(")", ""))


def rho_aff(act: str) -> tuple[tuple[Fraction, Fraction, Fraction, Fraction] | None, int]:
    """(the non-identity symmetry g of ρ as rationals, or None; the order of ρ's group)."""
    g = rho_group(act)
    for row in g["elements"]:
        if row["proof"] == "unproved" or row["family"] is not None:
            continue  # only proved elements act (review 6, F4)
        el = tuple(_frac(row[k]) for k in ("alpha", "beta", "gamma", "delta"))
        if el != (1, 0, 1, 0):
            return el, g["order"]  # type: ignore[return-value]
    return None, g["order"]


def check_requests(
    data: dict[str, Any],
    net: TanhNet,
    theta: tuple[Fraction, ...],
    raw: list[Any],
    certs: list[Any],
    src: str,
) -> tuple[list[Any], None]:
    """Validate the requests on a tanh network; equiv requests get their second network."""
    out = []
    for i, req in enumerate(certs):
        where = f"certificate[{i}]"
        if req.kind in ("orbit", "equiv"):
            check_group_usable(net.activation, src, "network.activation")
        if req.kind == "equiv":
            other = parse_other(raw[i], net, data["network"], src, where)
            req = dataclasses.replace(req, options={**req.options, "other": other})
        out.append(req)
    return out, None


def affsym_options(c: dict[str, Any], kind: str, src: str, where: str) -> dict[str, Any]:
    """Kind affsym: the `activation` whose affine symmetry group is certified."""
    if "activation" not in c:
        raise SpecError(src, f"{where}.activation", "an activation name or expression (missing)")
    return {"activation": parse_activation(c["activation"], src, f"{where}.activation")}
