"""Python twin of lean/NNCert/Tanh.lean and coq/NNCert/kernel/Tanh.v: the data checks of the tanh
certificates (math.md §4). Same conventions as the kernel package (kernel/__init__.py):
plain ints, rationals as unnormalised (num, den) pairs, every loop a walk along one list
(structural recursion in Lean and Coq).

What the kernels check here is data only; that a checked group element preserves the network
function is the library theorem of coq/NNCert/meaning/tanh/TanhSym.v (proved once over the reals
for any ρ
with the symmetry hypothesis ρ(αz + β) = γρ(z) + δ).

A network (TanhInstance) is dense over its N nodes, numbered inputs, hidden, outputs:
adj[q][p] = 1 iff there is an edge p -> q (then p < q), weights[q][p] its weight, biases[q].
A group element is (flips, perm): flip the nodes with flips[v] by sym, then relabel v as perm[v].
"""

from __future__ import annotations

from dataclasses import dataclass

from certify.checker.kernel.arith import (
    Rat,
    nonzero_q,
    nth_q,
    qadd,
    qeq,
    qeq_all,
    qmul,
    qneg,
    rats_pos,
)
from certify.checker.kernel.compind import column
from certify.checker.kernel.lists import (
    all_lt,
    mem_nat,
    nodup_nat,
    nth,
    nth_nat,
    nth_row,
    range_nat,
    zlist_eq,
)
from certify.checker.kernel.net import first_width, last_width


@dataclass(frozen=True)
class AffSym:
    """An affine symmetry (α, β, γ, δ) of the activation: ρ(αz + β) = γρ(z) + δ."""

    alpha: Rat
    beta: Rat
    gamma: Rat
    delta: Rat


@dataclass(frozen=True)
class TanhInstance:
    """A DAG network with `n_in` inputs and `n_out` outputs (the hidden nodes in between)."""

    n_in: int
    n_out: int
    adj: list[list[int]]
    weights: list[list[Rat]]
    biases: list[Rat]


# ---------------------------------------------------------------- rationals
def rat_lt(a: Rat, b: Rat) -> bool:
    """a < b as rationals (denominators positive)."""
    return a[0] * b[1] < b[0] * a[1]


def rat_div(a: Rat, b: Rat) -> Rat:
    """a / b with a positive denominator when a's is positive (b's numerator nonzero)."""
    if b[0] < 0:
        return (-(a[0] * b[1]), -(a[1] * b[0]))
    return (a[0] * b[1], a[1] * b[0])


def rat_pos_den(a: Rat) -> bool:
    return a[1] > 0


# ---------------------------------------------------------------- affine symmetries
def aff_ok(s: AffSym) -> bool:
    """Positive denominators, α ≠ 0 and γ ≠ 0."""
    return (
        rat_pos_den(s.alpha)
        and rat_pos_den(s.beta)
        and rat_pos_den(s.gamma)
        and rat_pos_den(s.delta)
        and nonzero_q(s.alpha)
        and nonzero_q(s.gamma)
    )


def aff_compose(g: AffSym, h: AffSym) -> AffSym:
    """g ∘ h: ρ(α_g(α_h x + β_h) + β_g) = γ_g γ_h ρ(x) + γ_g δ_h + δ_g."""
    return AffSym(
        qmul(g.alpha, h.alpha),
        qadd(qmul(g.alpha, h.beta), g.beta),
        qmul(g.gamma, h.gamma),
        qadd(qmul(g.gamma, h.delta), g.delta),
    )


def aff_eq(g: AffSym, h: AffSym) -> bool:
    return (
        qeq(g.alpha, h.alpha)
        and qeq(g.beta, h.beta)
        and qeq(g.gamma, h.gamma)
        and qeq(g.delta, h.delta)
    )


def aff_mem(g: AffSym, table: list[AffSym]) -> bool:
    return any(aff_eq(g, h) for h in table)


def all_aff_ok(table: list[AffSym]) -> bool:
    return all(aff_ok(g) for g in table)


def aff_nodup(table: list[AffSym]) -> bool:
    """No element of the table equals a later one (so its length is the number of elements)."""
    return all(not aff_mem(g, table[i + 1 :]) for i, g in enumerate(table))


def compose_all_mem(g: AffSym, hs: list[AffSym], table: list[AffSym]) -> bool:
    """g ∘ h lies in the table for every h of hs."""
    return all(aff_mem(aff_compose(g, h), table) for h in hs)


def table_closed(gs: list[AffSym], table: list[AffSym]) -> bool:
    """g ∘ h lies in the table for every g of gs and h of the table."""
    return all(compose_all_mem(g, table, table) for g in gs)


def check_affsym_table(table: list[AffSym], closed: bool) -> bool:
    """Every element well formed and listed once; when `closed`, the identity is listed and
    the table is closed under composition: a finite subset of the group of affine maps closed
    under composition is a subgroup, so the table is a group."""
    ident = AffSym((1, 1), (0, 1), (1, 1), (0, 1))
    if not (all_aff_ok(table) and aff_nodup(table)):
        return False
    if not closed:
        return True
    return aff_mem(ident, table) and table_closed(table, table)


# ---------------------------------------------------------------- well-formed networks
def row_ok(q: int, n_in: int, n_src: int, arow: list[int], wrow: list[Rat], p: int) -> bool:
    """Row q from column p on: entries 0/1, an edge p -> q only when n_in <= q and p < q and p
    is an input or hidden node (p < n_src), a zero weight without an edge, positive dens.
    (A loop here, structural recursion on arow in Lean and Coq: rows reach MAX_NODES.)"""
    if len(arow) != len(wrow):
        return False
    for a, w in zip(arow, wrow):
        ok_a = a == 0 or (a == 1 and n_in <= q and p < q and p < n_src)
        ok_w = rat_pos_den(w) and (a == 1 or w[0] == 0)
        if not (ok_a and ok_w):
            return False
        p += 1
    return True


def rows_ok(
    q: int, n_in: int, n_src: int, size: int, adj: list[list[int]], ws: list[list[Rat]]
) -> bool:
    """Every row from q on has `size` entries and passes row_ok (a loop, as row_ok)."""
    if len(adj) != len(ws):
        return False
    for arow, wrow in zip(adj, ws):
        if not (len(arow) == size and len(wrow) == size and row_ok(q, n_in, n_src, arow, wrow, 0)):
            return False
        q += 1
    return True


def well_formed(inst: TanhInstance) -> bool:
    """N nodes (N = len(biases)), N x N adjacency and weights, a topologically numbered DAG
    whose edges leave inputs or hidden nodes and enter hidden or output nodes."""
    size = len(inst.biases)
    return (
        inst.n_in + inst.n_out <= size
        and len(inst.adj) == size
        and rats_pos(inst.biases)
        and rows_ok(0, inst.n_in, size - inst.n_out, size, inst.adj, inst.weights)
    )


# ---------------------------------------------------------------- permutations
def fixes_io(v: int, n_in: int, n_hid_end: int, perm: list[int], flips: list[bool]) -> bool:
    """From node v on: inputs (v < n_in) and outputs (v >= n_hid_end) are fixed by perm and
    not flipped; lengths equal."""
    if not perm and not flips:
        return True
    if not perm or not flips:
        return False
    inner = n_in <= v < n_hid_end
    return (inner or (perm[0] == v and not flips[0])) and fixes_io(
        v + 1, n_in, n_hid_end, perm[1:], flips[1:]
    )


def class_stable(perm: list[int], c: list[int], vs: list[int]) -> bool:
    """perm maps every node of vs into the class c."""
    return all(mem_nat(nth_nat(perm, v), c) for v in vs)


def perm_in_classes(perm: list[int], cs: list[list[int]]) -> bool:
    """perm maps every class of cs into itself (so, being injective, onto itself)."""
    return all(class_stable(perm, c, c) for c in cs)


def element_ok(inst: TanhInstance, cs: list[list[int]], flips: list[bool], perm: list[int]) -> bool:
    """(flips, perm) is a group element: perm a permutation of the N nodes fixing inputs and
    outputs and mapping every class of cs onto itself, flips only on hidden nodes. (That cs
    are the classes of inst, check_classes, is the caller's to check.)"""
    size = len(inst.biases)
    return (
        len(perm) == size
        and all_lt(size, perm)
        and nodup_nat(perm)
        and fixes_io(0, inst.n_in, size - inst.n_out, perm, flips)
        and perm_in_classes(perm, cs)
    )


# ---------------------------------------------------------------- the action
def bias_shift(s: AffSym, wrow: list[Rat], flips: list[bool]) -> Rat:
    """Σ over flipped predecessors p of w_pq δ/γ (the logistic's shift of the next bias)."""
    acc: Rat = (0, 1)
    for w, f in zip(wrow, flips):
        if f:
            acc = qadd(acc, rat_div(qmul(w, s.delta), s.gamma))
    return acc


def new_weight(s: AffSym, fq: bool, fp: bool, w: Rat) -> Rat:
    """The weight of p -> q after the flips: w/γ when p is flipped, then times α when q is."""
    w1 = rat_div(w, s.gamma) if fp else w
    return qmul(s.alpha, w1) if fq else w1


def new_bias(s: AffSym, fq: bool, b: Rat, shift: Rat) -> Rat:
    """b − shift, then α(b − shift) + β when q is flipped."""
    b1 = qadd(b, qneg(shift))
    return qadd(qmul(s.alpha, b1), s.beta) if fq else b1


def row_maps(
    s: AffSym,
    fq: bool,
    arow: list[int],
    wrow: list[Rat],
    flips: list[bool],
    perm: list[int],
    arow2: list[int],
    wrow2: list[Rat],
) -> bool:
    """For every p: adj2[πq][πp] = adj[q][p] and W2[πq][πp] = new_weight (rows of q and πq)."""
    for a, w, fp, pp in zip(arow, wrow, flips, perm):
        if nth(arow2, pp) != a or not qeq(nth_q(wrow2, pp), new_weight(s, fq, fp, w)):
            return False
    return len(arow) == len(flips) and len(wrow) == len(flips) and len(perm) == len(flips)


def maps_from(
    s: AffSym,
    flips: list[bool],
    perm: list[int],
    inst2: TanhInstance,
    adj: list[list[int]],
    ws: list[list[Rat]],
    bs: list[Rat],
    fl: list[bool],
    pm: list[int],
) -> bool:
    """Rows q, walked together with their bias, flip and image: the row and bias of πq in
    inst2 are the transformed row and bias of q in inst."""
    for arow, wrow, b, fq, pq in zip(adj, ws, bs, fl, pm):
        shift = bias_shift(s, wrow, flips)
        if not row_maps(
            s, fq, arow, wrow, flips, perm, nth_row(inst2.adj, pq), nth_row(inst2.weights, pq)
        ):
            return False
        if not qeq(nth_q(inst2.biases, pq), new_bias(s, fq, b, shift)):
            return False
    return len(adj) == len(bs) and len(ws) == len(bs) and len(fl) == len(bs) and len(pm) == len(bs)


def check_apply(
    s: AffSym,
    inst: TanhInstance,
    cs: list[list[int]],
    flips: list[bool],
    perm: list[int],
    inst2: TanhInstance,
) -> bool:
    """inst2 is (flips, perm)·inst, exactly: both well formed, same inputs/outputs, the element
    is a group element for the classes cs, and every row, weight and bias of inst2 is the
    transformed one."""
    return (
        aff_ok(s)
        and well_formed(inst)
        and well_formed(inst2)
        and inst.n_in == inst2.n_in
        and inst.n_out == inst2.n_out
        and len(inst.biases) == len(inst2.biases)
        and element_ok(inst, cs, flips, perm)
        and maps_from(s, flips, perm, inst2, inst.adj, inst.weights, inst.biases, flips, perm)
    )


# ---------------------------------------------------------------- classes, freeness, canonical form
def same_nbhd(inst: TanhInstance, u: int, v: int) -> bool:
    """Hidden nodes u, v have the same predecessors (rows) and successors (columns)."""
    return zlist_eq(nth_row(inst.adj, u), nth_row(inst.adj, v)) and zlist_eq(
        column(inst.adj, u), column(inst.adj, v)
    )


def increasing_nats(xs: list[int]) -> bool:
    return all(a < b for a, b in zip(xs, xs[1:]))


def all_same_nbhd(inst: TanhInstance, u: int, vs: list[int]) -> bool:
    return all(same_nbhd(inst, u, v) for v in vs)


def class_ok(inst: TanhInstance, c: list[int]) -> bool:
    """A nonempty class, increasing, every member interchangeable with the first."""
    return len(c) != 0 and increasing_nats(c) and all_same_nbhd(inst, nth_nat(c, 0), c)


def classes_ok(inst: TanhInstance, cs: list[list[int]]) -> bool:
    return all(class_ok(inst, c) for c in cs)


def head_apart(inst: TanhInstance, v: int, ds: list[list[int]]) -> bool:
    """v is not interchangeable with the first member of any class of ds."""
    return all(not same_nbhd(inst, v, nth_nat(d, 0)) for d in ds)


def heads_distinct(inst: TanhInstance, cs: list[list[int]]) -> bool:
    """The first members of different classes are not interchangeable (classes are maximal)."""
    return all(head_apart(inst, nth_nat(c, 0), cs[k + 1 :]) for k, c in enumerate(cs))


def flatten(cs: list[list[int]]) -> list[int]:
    return [v for c in cs for v in c]


def all_mem(xs: list[int], ys: list[int]) -> bool:
    return all(mem_nat(x, ys) for x in xs)


def is_perm_of(xs: list[int], ys: list[int]) -> bool:
    """xs and ys have the same length and no repetition in xs, and every x lies in ys."""
    return len(xs) == len(ys) and nodup_nat(xs) and all_mem(xs, ys)


def check_classes(inst: TanhInstance, cs: list[list[int]]) -> bool:
    """cs partitions the hidden nodes into the maximal classes of interchangeable nodes."""
    size = len(inst.biases)
    hidden = range_nat(inst.n_in, size - inst.n_in - inst.n_out)
    return (
        well_formed(inst)
        and is_perm_of(flatten(cs), hidden)
        and classes_ok(inst, cs)
        and heads_distinct(inst, cs)
    )


def factorial(n: int) -> int:
    out = 1
    for k in range(1, n + 1):
        out *= k
    return out


def group_order_from(cs: list[list[int]]) -> int:
    out = 1
    for c in cs:
        out *= factorial(len(c))
    return out


def group_order(order: int, hidden: int, cs: list[list[int]]) -> int:
    """|G_rho|^H · Π |C|!."""
    return order**hidden * group_order_from(cs)


def node_key(inst: TanhInstance, v: int) -> list[Rat]:
    """Incoming weights of v (all N nodes), then its bias."""
    return nth_row(inst.weights, v) + [nth_q(inst.biases, v)]


def flipped_key(s: AffSym, inst: TanhInstance, v: int) -> list[Rat]:
    """The key of v after flipping v alone: (αw, αb + β)."""
    return [qmul(s.alpha, w) for w in nth_row(inst.weights, v)] + [
        qadd(qmul(s.alpha, nth_q(inst.biases, v)), s.beta)
    ]


def key_lt(a: list[Rat], b: list[Rat]) -> bool:
    """a < b lexicographically (on the common length)."""
    for x, y in zip(a, b):
        if rat_lt(x, y):
            return True
        if not qeq(x, y):
            return False
    return False


def pair_free(s: AffSym, flip: bool, inst: TanhInstance, u: int, vs: list[int]) -> bool:
    """No v of vs has the key of u, or (with flips) the flipped key equal to u's key."""
    return all(
        not qeq_all(node_key(inst, u), node_key(inst, v))
        and not (flip and qeq_all(node_key(inst, u), flipped_key(s, inst, v)))
        for v in vs
    )


def free_class(s: AffSym, flip: bool, inst: TanhInstance, c: list[int]) -> bool:
    """No member fixed by its flip; no two members with keys equal up to the flip."""
    return all(
        not (flip and qeq_all(flipped_key(s, inst, u), node_key(inst, u)))
        and pair_free(s, flip, inst, u, c[k + 1 :])
        for k, u in enumerate(c)
    )


def check_free(s: AffSym, flip: bool, inst: TanhInstance, cs: list[list[int]]) -> bool:
    """The group acts freely at inst (induction over the classes in topological order: a
    stabilising element fixes the predecessors, then each class), so the orbit has |G|
    elements."""
    return all(free_class(s, flip, inst, c) for c in cs)


def canonical_class(s: AffSym, flip: bool, inst: TanhInstance, c: list[int]) -> bool:
    """Members sign-normalised (flipped key strictly smaller) and keys strictly decreasing."""
    return all(
        (not flip or key_lt(flipped_key(s, inst, u), node_key(inst, u)))
        and (k + 1 >= len(c) or key_lt(node_key(inst, c[k + 1]), node_key(inst, u)))
        for k, u in enumerate(c)
    )


def check_canonical(s: AffSym, flip: bool, inst: TanhInstance, cs: list[list[int]]) -> bool:
    """inst is in canonical form: then it is the only canonical network of its orbit."""
    return all(canonical_class(s, flip, inst, c) for c in cs)


def rows_key_eq(a: list[list[Rat]], b: list[list[Rat]]) -> bool:
    return len(a) == len(b) and all(qeq_all(r1, r2) for r1, r2 in zip(a, b))


def adj_eq(a: list[list[int]], b: list[list[int]]) -> bool:
    return len(a) == len(b) and all(zlist_eq(x, y) for x, y in zip(a, b))


def same_instance(a: TanhInstance, b: TanhInstance) -> bool:
    """Equal as networks: same node counts and adjacency, weights and biases equal rationals."""
    return (
        a.n_in == b.n_in
        and a.n_out == b.n_out
        and adj_eq(a.adj, b.adj)
        and rows_key_eq(a.weights, b.weights)
        and qeq_all(a.biases, b.biases)
    )


def same_graph(a: TanhInstance, b: TanhInstance) -> bool:
    """The same nodes and the same edges (weights and biases may differ)."""
    return a.n_in == b.n_in and a.n_out == b.n_out and adj_eq(a.adj, b.adj)


# ---------------------------------------------------------------- genericity conditions
def has_edge_from(v: int, adj: list[list[int]]) -> bool:
    return any(nth(arow, v) == 1 for arow in adj)


def outs_nonzero(v: int, adj: list[list[int]], ws: list[list[Rat]]) -> bool:
    """Every edge out of v has a nonzero weight (rows walked together)."""
    return len(adj) == len(ws) and all(
        nth(arow, v) != 1 or nth_q(wrow, v)[0] != 0 for arow, wrow in zip(adj, ws)
    )


def any_nonzero(ws: list[Rat]) -> bool:
    return any(w[0] != 0 for w in ws)


def hidden_generic(inst: TanhInstance, vs: list[int]) -> bool:
    """Every v of vs has an outgoing edge, no zero outgoing weight, a nonzero incoming one."""
    return all(
        has_edge_from(v, inst.adj)
        and outs_nonzero(v, inst.adj, inst.weights)
        and any_nonzero(nth_row(inst.weights, v))
        for v in vs
    )


def check_sussmann(s: AffSym, inst: TanhInstance, cs: list[list[int]]) -> bool:
    """Sussmann's irreducibility (one hidden layer): no zero outgoing weight, no zero incoming
    weight vector, no i != j with (w_i, b_i) = ±(w_j, b_j) (the flip of ρ = tanh)."""
    hidden = range_nat(inst.n_in, len(inst.biases) - inst.n_in - inst.n_out)
    return hidden_generic(inst, hidden) and check_free(s, True, inst, cs)


def abs_q(a: Rat) -> Rat:
    return (abs(a[0]), a[1])


def abs_apart(inst: TanhInstance, b: Rat, vs: list[int]) -> bool:
    """|b| differs from |b_v| for every v of vs."""
    return all(not qeq(abs_q(b), abs_q(nth_q(inst.biases, v))) for v in vs)


def biases_distinct(inst: TanhInstance, c: list[int]) -> bool:
    """Nonzero biases with pairwise distinct absolute values in the class."""
    return all(
        nth_q(inst.biases, u)[0] != 0 and abs_apart(inst, nth_q(inst.biases, u), c[k + 1 :])
        for k, u in enumerate(c)
    )


def row_edges_nonzero(arow: list[int], wrow: list[Rat]) -> bool:
    return all(a == 0 or w[0] != 0 for a, w in zip(arow, wrow))


def edges_nonzero_rows(adj: list[list[int]], ws: list[list[Rat]]) -> bool:
    return all(row_edges_nonzero(a, w) for a, w in zip(adj, ws))


def all_edges_nonzero(inst: TanhInstance) -> bool:
    return edges_nonzero_rows(inst.adj, inst.weights)


def all_biases_distinct(inst: TanhInstance, cs: list[list[int]]) -> bool:
    return all(biases_distinct(inst, c) for c in cs)


def check_fefferman(inst: TanhInstance, cs: list[list[int]]) -> bool:
    """Fefferman-type genericity (deep nets): every edge weight nonzero, and in every class
    (layer) nonzero biases with distinct absolute values."""
    return all_edges_nonzero(inst) and all_biases_distinct(inst, cs)


def band_row(lo: int, hi: int, ps: list[int]) -> list[int]:
    """1 at the columns p of ps with lo <= p < hi, else 0."""
    return [1 if lo <= p < hi else 0 for p in ps]


def repeat_row(k: int, row: list[int]) -> list[list[int]]:
    """k copies of row."""
    return [row for _ in range(k)]


def layers_adj(lo: int, pw: int, size: int, widths: list[int]) -> list[list[int]]:
    """The adjacency rows of the layers of `widths`, the previous layer being the pw nodes from
    lo: every node of a layer has an edge from every node of the previous layer, no other."""
    out: list[list[int]] = []
    for w in widths:
        out += repeat_row(w, band_row(lo, lo + pw, range_nat(0, size)))
        lo, pw = lo + pw, w
    return out


def widths_sum(widths: list[int]) -> int:
    return sum(widths)


def check_layered(widths: list[int], inst: TanhInstance) -> bool:
    """inst is the fully connected layered MLP of `widths` (at least one hidden layer): the
    widths add up to N, the first is n_in, the last n_out, and the edges are exactly those
    between consecutive layers."""
    size = len(inst.biases)
    return (
        2 < len(widths)
        and widths_sum(widths) == size
        and first_width(widths) == inst.n_in
        and last_width(widths) == inst.n_out
        and adj_eq(inst.adj, layers_adj(0, 0, size, widths))
    )


# ---------------------------------------------------------------- certificate checks
def check_orbit(
    s: AffSym,
    flip: bool,
    inst: TanhInstance,
    cs: list[list[int]],
    flips: list[bool],
    perm: list[int],
    canon: TanhInstance,
    free: bool,
    order: int,
) -> bool:
    """Orbit: the classes, a representative reached by a group element, the group order; when
    `free`, freeness and the representative's canonical form (unique in a free orbit)."""
    hidden = len(inst.biases) - inst.n_in - inst.n_out
    return (
        check_classes(inst, cs)
        and check_apply(s, inst, cs, flips, perm, canon)
        and order == group_order(2 if flip else 1, hidden, cs)
        and (not free or (check_free(s, flip, inst, cs) and check_canonical(s, flip, canon, cs)))
    )


def check_equivalent(
    s: AffSym,
    inst1: TanhInstance,
    inst2: TanhInstance,
    cs: list[list[int]],
    flips: list[bool],
    perm: list[int],
) -> bool:
    """The same graph, cs its classes, and a group element maps inst1 exactly onto inst2."""
    return (
        check_classes(inst1, cs)
        and same_graph(inst1, inst2)
        and check_apply(s, inst1, cs, flips, perm, inst2)
    )


def check_inequivalent(
    s: AffSym,
    flip: bool,
    inst1: TanhInstance,
    inst2: TanhInstance,
    cs: list[list[int]],
    flips1: list[bool],
    perm1: list[int],
    canon1: TanhInstance,
    flips2: list[bool],
    perm2: list[int],
    canon2: TanhInstance,
) -> bool:
    """The same graph with classes cs; both networks reach canonical forms by checked group
    elements, and the forms differ."""
    return (
        check_classes(inst1, cs)
        and check_classes(inst2, cs)
        and same_graph(inst1, inst2)
        and check_classes(canon1, cs)
        and check_classes(canon2, cs)
        and check_apply(s, inst1, cs, flips1, perm1, canon1)
        and check_apply(s, inst2, cs, flips2, perm2, canon2)
        and check_canonical(s, flip, canon1, cs)
        and check_canonical(s, flip, canon2, cs)
        and not same_instance(canon1, canon2)
    )
