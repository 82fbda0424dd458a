"""The network data of the tanh certificates (trusted): the DAG network type, its JSON codec
and the classes of interchangeable hidden nodes. The generators (certify/families/tanh/dag.py,
certify/families/tanh/witness.py, certify/families/tanh/spec.py) import them from here;
nothing here comes from them (tests/test_import_contract.py).

Nodes are numbered topologically: inputs 0..n_in-1, hidden nodes next (every edge goes from a
smaller to a larger number), outputs last."""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from certify.checker.ir import parse_rat_str, rat_str


@dataclass(frozen=True)
class TanhNet:
    """A DAG network: `adj[q][p]` = 1 iff there is an edge p -> q, `weights[q][p]` its weight
    (0 without an edge), `biases[q]` (0 for inputs). `widths` when it came from a layered MLP;
    `labels` maps each node number to the spec's node number (identity for layered nets)."""

    activation: str
    n_in: int
    n_hidden: int
    n_out: int
    adj: tuple[tuple[int, ...], ...]
    weights: tuple[tuple[Fraction, ...], ...]
    biases: tuple[Fraction, ...]
    widths: tuple[int, ...] | None = None
    labels: tuple[int, ...] | None = None
    source: str | None = None  # where the parameters came from (e.g. from-torch), if recorded

    family = "tanh"

    @property
    def size(self) -> int:
        return self.n_in + self.n_hidden + self.n_out

    def hidden(self) -> range:
        return range(self.n_in, self.n_in + self.n_hidden)

    def preds(self, q: int) -> tuple[int, ...]:
        return tuple(p for p in range(self.size) if self.adj[q][p])

    def succs(self, p: int) -> tuple[int, ...]:
        return tuple(q for q in range(self.size) if self.adj[q][p])

    def edges(self) -> list[tuple[int, int, Fraction]]:
        """(source, target, weight), sorted by target then source."""
        n = self.size
        return [(p, q, self.weights[q][p]) for q in range(n) for p in range(n) if self.adj[q][p]]

    @property
    def bias(self) -> bool:  # the rank machinery's attribute; tanh networks always have biases
        return True


def classes(net: TanhNet) -> list[list[int]]:
    """Interchangeable hidden nodes: same predecessors and same successors; classes listed by
    their smallest node, which is a topological order of the classes."""
    groups: dict[tuple[tuple[int, ...], tuple[int, ...]], list[int]] = {}
    for v in net.hidden():
        groups.setdefault((net.preds(v), net.succs(v)), []).append(v)
    return sorted(groups.values(), key=lambda c: c[0])


# Where the parameters came from, repeated (quoted) in every claim about the network: one
# token of a file-name grammar (letters, digits and _ . , : / + = @ -, no spaces, no quotes,
# no brackets), so no sentence can be written into a claim through it (issue 22).
SOURCE_RE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.,:/+=@-]{0,299}$")
SOURCE_GRAMMAR = (
    "null or one token of at most 300 characters: a letter, digit or _ first, then letters, "
    "digits and _ . , : / + = @ - (no spaces, quotes or brackets)"
)


def network_json(net: TanhNet) -> dict[str, Any]:
    """The architecture of `net` as certificate JSON (instance.network)."""
    return {
        "family": "tanh",
        "activation": net.activation,
        "inputs": net.n_in,
        "hidden": net.n_hidden,
        "outputs": net.n_out,
        "widths": list(net.widths) if net.widths is not None else None,
        "labels": list(net.labels) if net.labels is not None else None,
        "source": net.source,
    }


def params_json(net: TanhNet) -> dict[str, Any]:
    """The weights and biases of `net` as certificate JSON (rationals as strings)."""
    return {
        "edges": [[p, q, rat_str(w)] for p, q, w in net.edges()],
        "biases": [rat_str(b) for b in net.biases[net.n_in :]],
    }


def from_json(network: dict[str, Any], params: dict[str, Any]) -> TanhNet:
    """Inverse of network_json + params_json (certificate reader; no renumbering)."""
    n_in, h, n_out = int(network["inputs"]), int(network["hidden"]), int(network["outputs"])
    n = n_in + h + n_out
    adj = [[0] * n for _ in range(n)]
    wt = [[Fraction(0)] * n for _ in range(n)]
    for p, q, w in params["edges"]:
        adj[q][p] = 1
        wt[q][p] = parse_rat_str(w)
    biases = [Fraction(0)] * n_in + [parse_rat_str(b) for b in params["biases"]]
    widths = network.get("widths")
    labels = network.get("labels")
    return TanhNet(
        network["activation"],
        n_in,
        h,
        n_out,
        tuple(map(tuple, adj)),
        tuple(map(tuple, wt)),
        tuple(biases),
        tuple(widths) if widths is not None else None,
        tuple(labels) if labels is not None else None,
        network.get("source"),
    )
