"""Feed-forward networks as DAGs with a tanh-type activation (math.md §4): weights on edges,
biases on nodes, skip connections allowed; the layered MLP is the common case.

Nodes are numbered topologically: inputs 0..n_in-1, hidden nodes next (every edge goes from a
smaller to a larger number), outputs last. Hidden nodes apply ρ to their pre-activation
Σ_p w_pq h_p + b_q; outputs are affine (no activation). The group acting on parameters
(generator's side; the kernels have their own twin in certify/checker/kernel/tanh.py):

* per hidden node, an affine symmetry g = (α, β, γ, δ) of ρ, ρ(αz + β) = γρ(z) + δ: incoming
  weights and bias (w, b) ↦ (αw, αb + β), outgoing weights w ↦ w/γ, and each successor's bias
  minus wδ/γ (the logistic's "bias shift of the next layer");
* permutations of interchangeable hidden nodes: same predecessors and same successors.

The argument the claims cite (not formalised; coq/NNCert/meaning/tanh/TanhSym.v proves one flip at
a DAG
node, sequences of flips at the unflipped nodes, and permutations of one hidden layer):

1. Simultaneous flips. By ρ(αz + β) = γρ(z) + δ, a flipped node k outputs γh_k + δ; dividing
   the weights leaving k by γ and shifting each successor's bias by -w δ/γ undoes this, so
   every other node keeps its value (TanhSym.flip_dag_keeps_other_nodes). Flipping a set S
   of hidden nodes one at a time: each flip at k rescales only row k, bias k and column k and
   shifts the biases of k's successors, so the rescalings at distinct nodes commute and the
   shifts add up; the result is the formula of `apply` (w_pq divided by γ when p ∈ S, times α
   when q ∈ S; bias b_q shifted by -Σ_{p ∈ S} w_pq δ/γ, then mapped to αb + β when q ∈ S), and
   the function is unchanged.
2. Relabelling. If u and v have the same predecessors and the same successors, swapping their
   labels (rows and columns) is a graph automorphism that fixes inputs and outputs; evaluating
   in topological order, every node computes the same value under the new names, so the
   outputs are unchanged. Permutations inside classes are products of such swaps.
3. Freeness (check_free) and canonical forms. Walk the classes in topological order. A group
   element fixing the parameters fixes the predecessors of a class (induction), so it acts on
   the class's keys (incoming row, bias) by flips and a permutation only; distinct keys, none
   fixed by its flip and none equal to another's flipped key, force the identity on the class:
   the stabiliser is trivial and the orbit has |G| elements. A canonical network (every node's
   flipped key below its key, keys strictly decreasing in each class) is the only one in its
   orbit: if g maps one to the other, by the same induction g is trivial before a class, so on
   the class it can only flip (an involution on keys when α = -1) and permute keys; a flip
   would turn a key into its smaller flipped key, and the strict decreasing order leaves only
   the identity permutation.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from certify.checker.facts.tanh_net import TanhNet, classes

Aff = tuple[Fraction, Fraction, Fraction, Fraction]


def layered(
    activation: str, widths: list[int], Ws: list[list[list[Fraction]]], bs: list[list[Fraction]]
) -> TanhNet:
    """The DAG of a layered MLP with full connections between consecutive layers."""
    offs = [0]
    for w in widths:
        offs.append(offs[-1] + w)
    n = offs[-1]
    adj = [[0] * n for _ in range(n)]
    wt = [[Fraction(0)] * n for _ in range(n)]
    bias = [Fraction(0)] * n
    for ell in range(len(widths) - 1):
        for i in range(widths[ell + 1]):
            q = offs[ell + 1] + i
            bias[q] = bs[ell][i]
            for j in range(widths[ell]):
                p = offs[ell] + j
                adj[q][p] = 1
                wt[q][p] = Ws[ell][i][j]
    return TanhNet(
        activation,
        widths[0],
        n - widths[0] - widths[-1],
        widths[-1],
        tuple(map(tuple, adj)),
        tuple(map(tuple, wt)),
        tuple(bias),
        tuple(widths),
        tuple(range(n)),
    )


def find_cycle(n: int, edges: list[tuple[int, int]]) -> int | None:
    """Index of an edge that lies on a directed cycle, or None when the graph is acyclic."""
    succ: dict[int, list[tuple[int, int]]] = {v: [] for v in range(n)}
    for i, (p, q) in enumerate(edges):
        succ[p].append((q, i))
    colour = [0] * n  # 0 new, 1 on the stack, 2 done
    for root in range(n):
        if colour[root]:
            continue
        stack = [(root, iter(succ[root]))]
        colour[root] = 1
        while stack:
            v, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                colour[v] = 2
                stack.pop()
                continue
            q, i = nxt
            if colour[q] == 1:
                return i
            if colour[q] == 0:
                colour[q] = 1
                stack.append((q, iter(succ[q])))
    return None


def topological_hidden(n_in: int, n_hidden: int, edges: list[tuple[int, int]]) -> list[int]:
    """Hidden nodes (spec numbers) in a topological order, smallest number first among the
    ready ones (Kahn), so the renumbering is deterministic."""
    hidden = list(range(n_in, n_in + n_hidden))
    indeg = dict.fromkeys(hidden, 0)
    for p, q in edges:
        if p in indeg and q in indeg:
            indeg[q] += 1
    order: list[int] = []
    ready = sorted(v for v in hidden if indeg[v] == 0)
    while ready:
        v = ready.pop(0)
        order.append(v)
        for p, q in edges:
            if p == v and q in indeg:
                indeg[q] -= 1
                if indeg[q] == 0:
                    ready.append(q)
                    ready.sort()
    return order


def from_edges(
    activation: str,
    n_in: int,
    n_hidden: int,
    n_out: int,
    edges: list[tuple[int, int, Fraction]],
    biases: list[Fraction],
) -> TanhNet:
    """The network of an acyclic edge list (spec numbering: inputs, hidden, outputs), with
    hidden nodes renumbered topologically; `biases` lists hidden then output nodes."""
    n = n_in + n_hidden + n_out
    order = topological_hidden(n_in, n_hidden, [(p, q) for p, q, _ in edges])
    new = list(range(n))
    for k, v in enumerate(order):
        new[v] = n_in + k
    labels = [0] * n
    for old, nw in enumerate(new):
        labels[nw] = old
    adj = [[0] * n for _ in range(n)]
    wt = [[Fraction(0)] * n for _ in range(n)]
    bias = [Fraction(0)] * n
    for p, q, w in edges:
        adj[new[q]][new[p]] = 1
        wt[new[q]][new[p]] = w
    for k, b in enumerate(biases):
        bias[new[n_in + k]] = b
    return TanhNet(
        activation,
        n_in,
        n_hidden,
        n_out,
        tuple(map(tuple, adj)),
        tuple(map(tuple, wt)),
        tuple(bias),
        None,
        tuple(labels),
    )


# ---------------------------------------------------------------- the group action
@dataclass(frozen=True)
class GroupElement:
    """Flip the hidden nodes with `flips[v]` by the activation's symmetry g, then relabel node
    v as `perm[v]` (inputs and outputs fixed)."""

    flips: tuple[bool, ...]
    perm: tuple[int, ...]


def identity(net: TanhNet) -> GroupElement:
    return GroupElement((False,) * net.size, tuple(range(net.size)))


def apply(net: TanhNet, g: Aff, el: GroupElement) -> TanhNet:
    """The network el·net: the flip formula of the module docstring at every flipped node,
    then the relabelling. It computes the same function as `net` (points 1 and 2 of the
    module docstring; the single flip and one-layer permutations are proved in TanhSym.v)."""
    alpha, beta, gamma, delta = g
    n = net.size
    f = el.flips
    w2 = [[Fraction(0)] * n for _ in range(n)]
    a2 = [[0] * n for _ in range(n)]
    b2 = [Fraction(0)] * n
    pi = el.perm
    for q in range(n):
        shift = sum(
            (net.weights[q][p] * delta / gamma for p in range(n) if net.adj[q][p] and f[p]),
            Fraction(0),
        )
        bt = net.biases[q] - shift
        b2[pi[q]] = alpha * bt + beta if f[q] else bt
        for p in range(n):
            w = net.weights[q][p] / gamma if f[p] else net.weights[q][p]
            w2[pi[q]][pi[p]] = alpha * w if f[q] else w
            a2[pi[q]][pi[p]] = net.adj[q][p]
    return TanhNet(
        net.activation,
        net.n_in,
        net.n_hidden,
        net.n_out,
        tuple(map(tuple, a2)),
        tuple(map(tuple, w2)),
        tuple(b2),
        net.widths,
        net.labels,
        net.source,
    )


def compose(g2: GroupElement, g1: GroupElement) -> GroupElement:
    """g2 ∘ g1 (apply g1 first): flips s1 ⊕ s2∘π1, relabelling π2∘π1 (flips at different
    nodes commute and each is an involution)."""
    n = len(g1.perm)
    flips = tuple(g1.flips[v] ^ g2.flips[g1.perm[v]] for v in range(n))
    return GroupElement(flips, tuple(g2.perm[g1.perm[v]] for v in range(n)))


def inverse(g: GroupElement) -> GroupElement:
    n = len(g.perm)
    inv = [0] * n
    for v, w in enumerate(g.perm):
        inv[w] = v
    return GroupElement(tuple(g.flips[inv[w]] for w in range(n)), tuple(inv))


def key(net: TanhNet, v: int) -> tuple[Fraction, ...]:
    """The incoming weights (all nodes, 0 without an edge) and then the bias of node v."""
    return (*net.weights[v], net.biases[v])


def flipped_key(net: TanhNet, g: Aff, v: int) -> tuple[Fraction, ...]:
    alpha, beta = g[0], g[1]
    return (*(alpha * w for w in net.weights[v]), alpha * net.biases[v] + beta)


def group_order(net: TanhNet, rho_order: int) -> int:
    """|G| = |G_rho|^H · Π |C|! over the classes C of interchangeable hidden nodes."""
    return rho_order**net.n_hidden * math.prod(math.factorial(len(c)) for c in classes(net))


def free(net: TanhNet, g: Aff | None) -> str | None:
    """None when the group acts freely at `net` (so the orbit has |G| elements), else the
    reason: a hidden node fixed by its flip, or two interchangeable nodes u, v with
    (w_u, b_u) ∈ {(w_v, b_v), g·(w_v, b_v)}. (Sussmann's irreducibility conditions on these.)"""
    for c in classes(net):
        for v in c:
            if g is not None and flipped_key(net, g, v) == key(net, v):
                return f"the flip of hidden node {v} fixes its incoming weights and bias"
        for u, v in itertools.combinations(c, 2):
            if key(net, u) == key(net, v) or (
                g is not None and key(net, u) == flipped_key(net, g, v)
            ):
                return f"interchangeable hidden nodes {u} and {v} have (w, b) equal up to the flip"
    return None


def canonical(net: TanhNet, g: Aff | None) -> tuple[TanhNet, GroupElement]:
    """(canonical representative, group element mapping net to it): class by class in
    topological order, flip each node whose flipped key is lexicographically larger, then sort
    the class by key, largest first. Orbit-invariant when the action is free."""
    cur = net
    total = identity(net)
    for c in classes(net):
        if g is not None:
            flips = tuple(v in c and flipped_key(cur, g, v) > key(cur, v) for v in range(net.size))
            el = GroupElement(flips, tuple(range(net.size)))
            cur = apply(cur, g, el)
            total = compose(el, total)
        order = sorted(c, key=lambda v: key(cur, v), reverse=True)
        perm = list(range(net.size))
        for target, v in zip(c, order, strict=True):
            perm[v] = target
        el = GroupElement((False,) * net.size, tuple(perm))
        cur = apply(cur, g or (Fraction(1), Fraction(0), Fraction(1), Fraction(0)), el)
        total = compose(el, total)
    return cur, total


def evaluate(net: TanhNet, rho: Any, x: list[Any], num: Any) -> list[Any]:
    """f(x) with a numeric ρ; `num` converts a Fraction to the number type of ρ (tests use
    mpmath at high precision)."""
    n = net.size
    h: list[Any] = list(x) + [0] * (n - net.n_in)
    for q in range(net.n_in, n):
        z = sum(
            (num(net.weights[q][p]) * h[p] for p in range(q) if net.adj[q][p]), num(net.biases[q])
        )
        h[q] = rho(z) if q < net.n_in + net.n_hidden else z
    return h[n - net.n_out :]
