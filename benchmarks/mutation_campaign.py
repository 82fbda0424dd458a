"""Mutation campaign: seeded random semantic mutations of certificates of every kind, checked by
the Python checker and (a sample) by coqc, counting false accepts (0 expected).

    python benchmarks/mutation_campaign.py --seed 0 --checker 10000 --coq 300 [--kinds ...]
        [--json out.json] [--workers 2]

Exit status 1 on any false accept (checker or coqc), 0 otherwise.

Base certificates
-----------------
One small request per kind of certify/checker/registry.py KINDS, generated from the embedded
example specs (BASES below; a request's certificates are one *group*: an mlp-identifiable or
critical certificate and the rank certificates it attaches). Every kind of KINDS must have a
base (the script refuses otherwise). Each base is accepted by the checker and cross-check, and
its rendered Coq file compiles and passes the audit, before any mutation is counted.

Mutations (each one *semantic*: the mutant's canonical JSON differs from the base's)
-----------------------------------------------------------------------------------
One node of one certificate is picked (a top-level section uniformly, then a node of it
uniformly) and one applicable operator applied:

- a number (a JSON integer, or a string that spells an integer or a rational such as the
  network's "-5" or "1/2"): +1, -1, x2, negate, replace by 0 (a string stays a string);
- a boolean: flipped; null: replaced by 0 or by [];
- a list: two distinct entries swapped, an entry dropped, an entry duplicated;
- a dict: a key deleted, a key added ("extra": 0);
- any other string: a character changed, appended or deleted (or replaced by "").

An operator that leaves the canonical JSON unchanged (swapping equal entries, 0 x 2) is
redrawn. Mutations are drawn with random.Random(f"{seed}:{kind}:{i}"), so a run is
reproducible and a kind's mutations do not depend on which other kinds run.

Classification of one mutant (checker part)
-------------------------------------------
A mutant of certificate c in group G is *rejected* when check_certificate(mutant) reports a
problem or cross_check(G with c replaced) does. An accepted mutant is not yet a false accept:

1. *accepted, claim unchanged*: its claim-bearing part -- family, kind, instance, result,
   claim -- is the base's. The statement it makes is then the base's true statement; what
   changed is witness data (which the checker re-verified: another valid witness), provenance
   (generator.*) or the certificate's name (an identifier; the attachments that cite it are
   cross-checked). Counted as accepted-and-true.
2. *accepted, claim changed*: re-derived independently of the checker by an oracle of the kind
   (ORACLES below); accepted-and-true only if the oracle proves the mutated statement true:
   - rank certificates of polynomial MLPs and ResNets (instance.theta changed): the exact
     rank over Q of the Jacobian of theta -> (coefficients of f_theta) at the mutated theta,
     computed with sympy from the network's own definition (not the kernel); true iff
     rank_lower <= rank <= rank_upper_at_point, rank_at_point (if set) = rank, and every
     other result field equals the base's or the oracle's value. The generic-rank fields
     (functional_dimension, defect, ...) describe the architecture, so they must be the
     base's;
   - ReLU rank certificates (instance.theta changed): lower = the exact rank of the parameter
     gradients at 120 rational inputs (40 on a half-unit grid, 80 random) off the
     breakpoints (activation pattern fixed), upper = D - rank of the positive-scaling
     tangents; true iff they prove rank_lower <= rank <= rank_upper_at_point and pin
     rank_at_point;
   - ResNet implicit certificates (theta changed): F_theta's coefficients recomputed with
     sympy must be the claimed ones (the hypersurface is about the parametrisation);
   - compind kinds: a polynomial with its terms reordered (the same polynomial; the checker
     now requires one spelling, so such a mutant is rejected before this oracle); origin set
     to true (sigma(0) = 0 and every p_i(0) = 0 checked here) or to false (a hypothesis
     dropped);
   - the claim text may differ only in the integers that are the changed rank values;
   - any other changed claim-bearing part: no oracle, counted as a *false accept* (the
     conservative rule: an unexplained accepted change of what a certificate says).
   The oracles are first run on the bases and must reproduce their values (selftest_oracles).
   An accepted "add-key" mutation of instance or witness (an unknown key, read by nothing)
   is its own class, *accepted-stray-key*: the statement is unchanged, so it is not a false
   accept, but issue 22 asks for exact key sets, so they are listed (and --strict-keys
   counts them as false accepts).
3. A mutant the checker crashes on (an exception escaping check_certificate) is counted as
   a crash and makes the run fail too.

Classification (coqc part)
--------------------------
The coqc sample is drawn (seeded, round robin over the kinds) from the checker-rejected
mutants that change the claim-bearing part and whose rendered Coq text, without comments and
with the certificate hash blanked, differs from the base's (mutants the renderer refuses, and
"coq-blind" ones whose Coq text is the base's -- e.g. the claim text, which the Coq file only
quotes in a comment -- are left out and counted). Rendering is the tests' `coq` fixture's
(MLP/ResNet rank certificates by certify.families.polynomial.render_rank, the others by
certify.bundle.render_certificate); each mutant is one .v file compiled and audited by
certify.provers.coq.check_file (theorems from coq_audit.theorems_of) against the NNCert
library compiled once (cached), `--workers` files at a time. (No batching of several mutants
per coqc process: each rendered file is a module with fixed theorem names and its own audit
driver, so one process per file.) The bases are compiled first and must pass.

A mutant coqc accepts is "accepted-true" when the checker-part rules show its statement true
or, for MLP/ResNet rank certificates (their Coq theorems state witness.lower.rank <= the rank
over Q at the instance's network and theta), when the exact rank is >= that witness rank; a
false accept when an oracle shows it false; "unresolved" otherwise. False accepts and
unresolved mutants both make the run exit 1 (not shown true is not counted as true).
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy

from certify import certificate
from certify.checker import check_certificate, cross_check
from certify.checker.registry import KINDS

# (family, kind) -> (example file, the name of its request or None): the example each registry
# line names (Kind.example), small bases.
BASES: dict[tuple[str, str], tuple[str, str | None]] = {
    (k.family, k.kind): k.example_request for k in KINDS
}
CLAIM_BEARING = ("family", "kind", "instance", "result", "claim")
Path_ = tuple[str | int, ...]


@dataclass
class Base:
    """One base certificate: its group (the request's certificates) and its index in it."""

    key: tuple[str, str]
    group: list[dict[str, Any]]
    index: int

    @property
    def cert(self) -> dict[str, Any]:
        return self.group[self.index]


def load_bases(kinds: list[tuple[str, str]]) -> dict[tuple[str, str], list[Base]]:
    """The base certificates of each kind: every certificate of kind `key` in the requests
    BASES names (an attached rank certificate is a base of its own kind too)."""
    from certify.cli import example_specs
    from certify.families import generate_certificates
    from certify.spec import load_specs

    paths = {p.name: p for p in example_specs()}
    out: dict[tuple[str, str], list[Base]] = {k: [] for k in kinds}
    for key in kinds:
        stem, name = BASES[key]
        spec = load_specs(paths[stem])[0]
        (req,) = [r for r in spec.certificates if name is None or r.name == name][:1]
        group = generate_certificates(spec, req)
        problems = [p for c in group for p in check_certificate(c)] + [
            p for ps in cross_check(group).values() for p in ps
        ]
        if problems:
            raise SystemExit(f"base {stem} is not accepted: {problems}")
        for i, c in enumerate(group):
            if (c["family"], c["kind"]) == key:
                out[key].append(Base(key, group, i))
        if not out[key]:
            raise SystemExit(f"base {stem} has no {key} certificate")
    return out


# ---------------------------------------------------------------- mutations
_RAT = re.compile(r"^-?(0|[1-9][0-9]*)(/[1-9][0-9]*)?$")


def nodes(x: Any, path: Path_ = ()) -> list[Path_]:
    """Every node below x (x itself excluded), as paths."""
    out: list[Path_] = []
    items = x.items() if isinstance(x, dict) else enumerate(x) if isinstance(x, list) else ()
    for k, v in items:
        out.append((*path, k))
        out += nodes(v, (*path, k))
    return out


def get(x: Any, path: Path_) -> Any:
    for k in path:
        x = x[k]
    return x


def _fmt(q: Fraction) -> str:
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


NUMBER_OPS: dict[str, Callable[[Fraction], Fraction]] = {
    "+1": lambda q: q + 1,
    "-1": lambda q: q - 1,
    "x2": lambda q: q * 2,
    "negate": lambda q: -q,
    "zero": lambda q: Fraction(0),
}


def operators(v: Any) -> list[str]:
    """The operators applicable to a node's value."""
    if isinstance(v, bool):
        return ["flip"]
    if isinstance(v, int) or (isinstance(v, str) and _RAT.match(v)):
        return list(NUMBER_OPS)
    if v is None:
        return ["null->0", "null->[]"]
    if isinstance(v, str):
        return ["char-change", "char-append", "char-delete", "empty"]
    if isinstance(v, list):
        return ["swap", "drop", "duplicate"] if v else ["append-0"]
    if isinstance(v, dict):
        return ["delete-key", "add-key"] if v else ["add-key"]
    return []


def apply_op(v: Any, op: str, rng: random.Random) -> tuple[Any, str]:
    """The mutated value and a description of the change (None of `v` is modified)."""
    if op == "flip":
        return (not v), op
    if op in NUMBER_OPS:
        q = NUMBER_OPS[op](Fraction(v))
        if isinstance(v, int):
            return int(q), op
        return _fmt(q), op
    if op == "null->0":
        return 0, op
    if op == "null->[]":
        return [], op
    if op == "append-0":
        return [0], op
    if op.startswith("char") or op == "empty":
        if op == "empty" or not v:
            return ("x" if not v else ""), "empty" if v else "char-append"
        i = rng.randrange(len(v))
        c = rng.choice("abcxyzXYZ019 ()-+*/^.,;:=")
        if op == "char-change":
            return v[:i] + c + v[i + 1 :], op
        if op == "char-append":
            return v + c, op
        return v[:i] + v[i + 1 :], op
    if op == "swap":
        if len(v) < 2:
            return v[1:], "drop"
        i, j = rng.sample(range(len(v)), 2)
        w = list(v)
        w[i], w[j] = w[j], w[i]
        return w, f"swap[{i},{j}]"
    if op == "drop":
        i = rng.randrange(len(v))
        return v[:i] + v[i + 1 :], f"drop[{i}]"
    if op == "duplicate":
        i = rng.randrange(len(v))
        return v[: i + 1] + [copy.deepcopy(v[i])] + v[i + 1 :], f"duplicate[{i}]"
    if op == "delete-key":
        k = rng.choice(sorted(v))
        return {a: b for a, b in v.items() if a != k}, f"delete-key[{k}]"
    if op == "add-key":
        return {**v, "extra": 0}, "add-key[extra]"
    raise ValueError(op)


@dataclass
class Mutant:
    key: tuple[str, str]
    base: Base
    path: Path_
    op: str
    cert: dict[str, Any]

    @property
    def where(self) -> str:
        return "/".join(str(p) for p in self.path) or "<root>"


def mutate(base: Base, rng: random.Random) -> Mutant:
    """One semantic mutation of base.cert (redrawn until the canonical JSON changes)."""
    orig = certificate.canonical_bytes(base.cert)
    cert = base.cert
    sections = sorted(cert)
    for _ in range(1000):
        sec = rng.choice(sections)
        paths = [(sec,), *nodes(cert[sec], (sec,))]
        path = rng.choice(paths)
        value = get(cert, path)
        ops = operators(value)
        if not ops:
            continue
        new, desc = apply_op(value, rng.choice(ops), rng)
        bad = copy.deepcopy(cert)
        parent = get(bad, path[:-1])
        parent[path[-1]] = new
        if certificate.canonical_bytes(bad) != orig:
            return Mutant(base.key, base, path, desc, bad)
    raise RuntimeError(f"no semantic mutation of {cert['name']} found")


# ---------------------------------------------------------------- classification
REJECTED, TRUE_WITNESS, TRUE_ORACLE, STRAY_KEY, FALSE_ACCEPT, CRASH = (
    "rejected", "accepted-claim-unchanged", "accepted-oracle-true", "accepted-stray-key",
    "false-accept", "crash",
)  # fmt: skip
CLASSES = (REJECTED, TRUE_WITNESS, TRUE_ORACLE, STRAY_KEY, FALSE_ACCEPT, CRASH)
Checker = Callable[[dict[str, Any]], list[str]]


def claim_part(cert: dict[str, Any]) -> dict[str, Any]:
    """What a certificate says: family, kind, instance, result and claim (missing keys None)."""
    return {k: cert.get(k) for k in CLAIM_BEARING} if isinstance(cert, dict) else {}


def checker_rejects(m: Mutant, checker: Checker) -> bool:
    if checker(m.cert):
        return True
    if checker is not check_certificate:
        return False
    group = [m.cert if j == m.base.index else c for j, c in enumerate(m.base.group)]
    return bool(cross_check(group))


def classify(m: Mutant, checker: Checker = check_certificate) -> tuple[str, str]:
    """(class, why) of one mutant by the rules of the module docstring."""
    try:
        if checker_rejects(m, checker):
            return REJECTED, ""
    except Exception as e:  # noqa: BLE001 - a crash is a finding, reported and counted
        return CRASH, f"{type(e).__name__}: {e}"
    if m.op.startswith("add-key") and m.path[0] in ("instance", "witness"):
        return STRAY_KEY, f"an unknown key added to {m.where} is accepted (and read by nothing)"
    if claim_part(m.cert) == claim_part(m.base.cert):
        return TRUE_WITNESS, "claim-bearing part unchanged"
    oracle = ORACLES.get(m.key)
    verdict = oracle(m.base.cert, m.cert) if oracle else None
    if verdict is None:
        return FALSE_ACCEPT, "claim-bearing part changed, no oracle re-derives it"
    ok, why = verdict
    return (TRUE_ORACLE, why) if ok else (FALSE_ACCEPT, why)


# ---------------------------------------------------------------- oracles (independent of
# the checker: the networks are rebuilt here with sympy from their documented definitions)
Verdict = tuple[bool, str] | None
Oracle = Callable[[dict[str, Any], dict[str, Any]], Verdict]


def _poly1(coeffs: list[str], t: Any) -> Any:
    """sigma(t) = sum_k c_k t^k for the coefficient list [c0, c1, ...] (rational strings)."""
    return sum(sympy.Rational(c) * t**k for k, c in enumerate(coeffs))


def network_outputs(net: dict[str, Any], theta: list[Any]) -> tuple[list[Any], list[Any]]:
    """(outputs, input symbols) of an MLP or ResNet at parameters `theta` (numbers or
    symbols), from the layouts documented in certify/checker/ir.py: MLP layer by layer, neuron
    by neuron, its incoming weights then its bias; the output layer linear. ResNet layers
    x + sigma_l(W_l x + b_l) (x + V_l sigma_l(...) when outer): W_l row by row, each row's bias
    after it, then V_l row by row."""
    it = iter(theta)
    if net["family"] == "mlp":
        widths = net["widths"]
        xs = list(sympy.symbols(f"x0:{widths[0]}"))
        h = xs
        for ell in range(1, len(widths)):
            pre = []
            for _ in range(widths[ell]):
                v = sum(next(it) * hj for hj in h)
                pre.append(v + next(it) if net["bias"] else v)
            last = ell == len(widths) - 1
            h = pre if last else [_poly1(net["activations"][ell - 1], v) for v in pre]
    else:
        n = net["width"]
        xs = list(sympy.symbols(f"x0:{n}"))
        h = xs
        for act in net["activations"]:
            pre = []
            for _ in range(n):
                pre.append(sum(next(it) * hj for hj in h) + next(it))
            s = [_poly1(act, v) for v in pre]
            if net.get("outer"):
                s = [sum(next(it) * sj for sj in s) for _ in range(n)]
            h = [hi + si for hi, si in zip(h, s)]
    if next(it, None) is not None:
        raise ValueError("theta longer than the network's parameters")
    return h, xs


def exact_rank(net: dict[str, Any], theta: list[str]) -> int:
    """The rank over Q of d(theta -> f_theta) at theta: the Jacobian of every coefficient of
    every output polynomial with respect to the parameters, at the rational point theta."""
    syms = list(sympy.symbols(f"p0:{len(theta)}"))
    outs, xs = network_outputs(net, syms)
    coeffs = [c for o in outs for c in sympy.Poly(sympy.expand(o), *xs).coeffs()]
    jac = sympy.Matrix(coeffs).jacobian(syms)
    return jac.subs({s: sympy.Rational(v) for s, v in zip(syms, theta)}).rank()


def _diff(a: Any, b: Any, path: str = "") -> list[str]:
    """Paths where two JSON values differ."""
    if isinstance(a, dict) and isinstance(b, dict):
        return [
            p for k in sorted(set(a) | set(b)) for p in _diff(a.get(k), b.get(k), f"{path}/{k}")
        ]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [p for i, (x, y) in enumerate(zip(a, b)) for p in _diff(x, y, f"{path}/{i}")]
    return [] if a == b and type(a) is type(b) else [path or "/"]


_TOKEN = re.compile(r"\d+|\D")


def text_differs_only_in(base: str, new: str, pairs: set[tuple[str, str]]) -> bool:
    """`new` is `base` with some integer tokens replaced, each (old, new) pair in `pairs`."""
    a, b = _TOKEN.findall(base), _TOKEN.findall(new)
    return len(a) == len(b) and all(x == y or (x, y) in pairs for x, y in zip(a, b))


RANK_AT_THETA = ("rank_lower", "rank_upper_at_point", "rank_at_point")


def rank_oracle(base: dict[str, Any], new: dict[str, Any]) -> Verdict:
    """Only instance.theta, the three rank-at-theta results and the numbers in the claim text
    that are those results changed: true iff rank_lower <= exact rank <= rank_upper_at_point
    and rank_at_point (when given) is the exact rank."""
    diffs = _diff(claim_part(base), claim_part(new))
    allowed = ("/instance/theta/", *(f"/result/{k}" for k in RANK_AT_THETA), "/claim/text")
    if not diffs or any(not d.startswith(allowed) for d in diffs):
        return None
    if len(new["instance"]["theta"]) != len(base["instance"]["theta"]):
        return None
    r0, r1 = base["result"], new["result"]
    pairs = {(str(r0[k]), str(r1[k])) for k in RANK_AT_THETA if r0.get(k) != r1.get(k)}
    if not text_differs_only_in(base["claim"]["text"], new["claim"]["text"], pairs):
        return False, "the claim text changed beyond the rank values"
    r = exact_rank(new["instance"]["network"], new["instance"]["theta"])
    lo, up, at = r1.get("rank_lower"), r1.get("rank_upper_at_point"), r1.get("rank_at_point")
    ok = lo <= r and (up is None or r <= up) and (at is None or at == r)
    return ok, f"exact rank {r} at the mutated theta; claimed lower {lo}, upper {up}, at {at}"


def implicit_oracle(base: dict[str, Any], new: dict[str, Any]) -> Verdict:
    """Only instance.theta (and the F coefficients it determines, and the claim text's numbers)
    changed: true iff F_theta recomputed with sympy from the ResNet definition has the claimed
    coefficients (the hypersurface equation is about the parametrisation, not theta)."""
    diffs = _diff(claim_part(base), claim_part(new))
    allowed = ("/instance/theta/", "/result/F_coefficients/", "/claim/text")
    if not diffs or any(not d.startswith(allowed) for d in diffs):
        return None
    net = new["instance"]["network"]
    if net["width"] != 1:
        return None
    outs, xs = network_outputs(net, [sympy.Rational(v) for v in new["instance"]["theta"]])
    got = sympy.Poly(sympy.expand(outs[0]), xs[0]).all_coeffs()[::-1]
    claimed = [sympy.Rational(c) for c in new["result"]["F_coefficients"]]
    got += [0] * (len(claimed) - len(got))
    if new["claim"]["text"] != base["claim"]["text"] and got != [
        sympy.Rational(c) for c in base["result"]["F_coefficients"]
    ]:
        return None  # F changed and the claim text with it: not re-derived here
    ok = got == claimed
    return ok, f"F_theta coefficients {got} at the mutated theta; claimed {claimed}"


def _poly_value(terms: list[Any]) -> dict[tuple[int, ...], Fraction]:
    """A compind polynomial ([[coefficient, exponents], ...]) as a monomial -> coefficient map."""
    out: dict[tuple[int, ...], Fraction] = {}
    for c, e in terms:
        out[tuple(e)] = out.get(tuple(e), Fraction(0)) + Fraction(c)
    return {k: v for k, v in out.items() if v}


def compind_oracle(base: dict[str, Any], new: dict[str, Any]) -> Verdict:
    """Two changes re-derived: (a) a polynomial rewritten with its terms in another order (the
    same polynomials: the same claim); (b) instance.origin set to true, which adds the
    hypotheses sigma(0) = 0 and p_i(0) = 0: true iff both hold, checked here on the data;
    origin set to false drops hypotheses (a weaker, still true statement)."""
    diffs = _diff(claim_part(base), claim_part(new))
    if not diffs:
        return None
    if all(d.startswith("/instance/polynomials/") for d in diffs):
        b, n = base["instance"]["polynomials"], new["instance"]["polynomials"]
        ok = len(b) == len(n) and all(_poly_value(x) == _poly_value(y) for x, y in zip(b, n))
        return (True, "the same polynomials, terms reordered") if ok else None
    if diffs == ["/instance/origin"]:
        inst = new["instance"]
        if not inst["origin"]:
            return True, "origin = false: a hypothesis dropped"
        act = inst.get("activation")
        sig0 = act is None or Fraction(act[0]) == 0
        p0 = all(
            _poly_value(p).get(tuple([0] * len(inst["variables"])), 0) == 0
            for p in inst["polynomials"]
        )
        return sig0 and p0, f"origin = true: sigma(0) = 0 {sig0}, every p_i(0) = 0 {p0}"
    return None


def relu_rank_bounds(
    widths: list[int], theta: list[str], rng: random.Random, points: int = 120
) -> tuple[int, int]:
    """(lower, upper) on the functional dimension at theta of the ReLU network F(x) =
    W_L relu(... relu(W_1 x + b_1) ...) + b_L (certify/checker/ir.py's layout: neuron by
    neuron, incoming weights then bias): lower = the exact rank over Q of the parameter
    gradients of F at `points` random rational inputs off the breakpoints (plus the
    unit-spaced ones below), each computed with its activation pattern fixed; upper = D minus
    the rank of the positive-scaling tangents (w_in(v), b_v, -w_out(v)) of the hidden
    neurons, which annihilate every gradient."""
    syms = list(sympy.symbols(f"p0:{len(theta)}"))
    vals = [sympy.Rational(v) for v in theta]
    sub = dict(zip(syms, vals))
    rows = []
    for k in range(points):
        x = [sympy.Rational(rng.randint(-400, 400), rng.randint(1, 9)) for _ in range(widths[0])]
        if k < 40:
            x = [sympy.Rational(k - 20, 2)] * widths[0]
        it, itv = iter(syms), iter(vals)
        h, hv = list(x), list(x)
        dead = False
        for ell in range(1, len(widths)):
            pre, prev = [], []
            for _ in range(widths[ell]):
                e = sum(next(it) * a for a in h) + next(it)
                ev = sum(next(itv) * a for a in hv) + next(itv)
                pre.append(e)
                prev.append(ev)
            if ell == len(widths) - 1:
                h = pre
                break
            if any(v == 0 for v in prev):
                dead = True  # on a breakpoint: skipped
                break
            h = [e if v > 0 else sympy.Integer(0) for e, v in zip(pre, prev)]
            hv = [v if v > 0 else sympy.Integer(0) for v in prev]
        if dead:
            continue
        for out in h:
            rows.append([sympy.diff(out, s_).subs(sub) for s_ in syms])
    lower = sympy.Matrix(rows).rank() if rows else 0
    tangents = []
    pos = 0
    for ell in range(1, len(widths) - 1):
        width_in = widths[ell - 1] + 1
        nxt = pos + widths[ell] * width_in  # start of layer ell + 1
        for i in range(widths[ell]):
            t = [sympy.Integer(0)] * len(theta)
            for j in range(width_in):
                t[pos + i * width_in + j] = vals[pos + i * width_in + j]
            for o in range(widths[ell + 1]):
                q = nxt + o * (widths[ell] + 1) + i
                t[q] = -vals[q]
            tangents.append(t)
        pos = nxt
    upper = len(theta) - (sympy.Matrix(tangents).rank() if tangents else 0)
    return lower, upper


RELU_AT_THETA = (*RANK_AT_THETA, "functional_dimension_at_point")


def relu_rank_oracle(base: dict[str, Any], new: dict[str, Any]) -> Verdict:
    """Only instance.theta, the rank-at-theta results and their numbers in the claim text
    changed: true iff the independent bounds (relu_rank_bounds) prove rank_lower <= rank
    <= rank_upper_at_point and, when rank_at_point is given, pin the rank to it."""
    diffs = _diff(claim_part(base), claim_part(new))
    allowed = ("/instance/theta/", *(f"/result/{k}" for k in RELU_AT_THETA), "/claim/text")
    if not diffs or any(not d.startswith(allowed) for d in diffs):
        return None
    r0, r1 = base["result"], new["result"]
    pairs = {(str(r0[k]), str(r1[k])) for k in RELU_AT_THETA if r0.get(k) != r1.get(k)}
    if not text_differs_only_in(base["claim"]["text"], new["claim"]["text"], pairs):
        return False, "the claim text changed beyond the rank values"
    widths = new["instance"]["network"]["widths"]
    lo, up = relu_rank_bounds(widths, new["instance"]["theta"], random.Random(0))
    c_lo, c_up, c_at = r1.get("rank_lower"), r1.get("rank_upper_at_point"), r1.get("rank_at_point")
    ok = c_lo <= lo and (c_up is None or up <= c_up) and (c_at is None or lo == up == c_at)
    return (
        ok,
        f"independent bounds {lo} <= rank <= {up}; claimed lower {c_lo}, upper {c_up}, at {c_at}",
    )


ORACLES: dict[tuple[str, str], Oracle] = {
    ("relu", "rank"): relu_rank_oracle,
    ("mlp", "rank"): rank_oracle,
    ("resnet", "rank"): rank_oracle,
    ("resnet", "implicit"): implicit_oracle,
    ("compind", "compind"): compind_oracle,
    ("compind", "prop21"): compind_oracle,
    ("compind", "newman-slater"): compind_oracle,
}


def run_checker(
    bases: dict[tuple[str, str], list[Base]],
    n: int,
    seed: int,
    checker: Checker = check_certificate,
) -> tuple[dict[str, dict[str, int]], list[dict[str, Any]], list[Mutant]]:
    kinds = sorted(bases)
    per = {k: n // len(kinds) + (1 if i < n % len(kinds) else 0) for i, k in enumerate(kinds)}
    counts: dict[str, dict[str, int]] = {}
    findings: list[dict[str, Any]] = []
    rejected: list[Mutant] = []
    for k in kinds:
        name = f"{k[0]}/{k[1]}"
        c = counts.setdefault(name, {"mutations": 0, **dict.fromkeys(CLASSES, 0)})
        for i in range(per[k]):
            rng = random.Random(f"{seed}:{name}:{i}")
            b = bases[k][i % len(bases[k])]
            m = mutate(b, rng)
            cls, why = classify(m, checker)
            c["mutations"] += 1
            c[cls] += 1
            if cls != REJECTED:
                findings.append(
                    {
                        "kind": name,
                        "certificate": b.cert["name"],
                        "path": m.where,
                        "op": m.op,
                        "class": cls,
                        "why": why,
                    }
                )
            if cls == REJECTED:
                rejected.append(m)
    return counts, findings, rejected


# ---------------------------------------------------------------- coqc
def render(cert: dict[str, Any]) -> tuple[str, str, list[Any]]:
    """(module, Coq text, theorems to audit) as the tests' `coq` fixture renders: MLP/ResNet
    rank certificates by certify.families.polynomial.render_rank, the others by the bundle's
    renderer (its registry line)."""
    from certify.bundle import render_certificate
    from certify.families.polynomial.render_rank import module_name, render_coq
    from certify.provers import coq_audit

    net = cert.get("instance", {}).get("network") or {}
    if cert.get("kind") == "rank" and net.get("family") != "relu":
        mod, text = module_name(cert["name"]), render_coq(cert, certificate.sha256(cert))
    else:
        r = render_certificate(cert)
        mod, text = r.module, r.coq_text
    return mod, text, coq_audit.theorems_of(cert, mod, text)


def strip_comments(text: str) -> str:
    """Coq text without (nested) comments and with whitespace runs collapsed."""
    out, depth, i = [], 0, 0
    while i < len(text):
        two = text[i : i + 2]
        if two == "(*":
            depth, i = depth + 1, i + 2
        elif two == "*)" and depth:
            depth, i = depth - 1, i + 2
        else:
            if not depth:
                out.append(text[i])
            i += 1
    return " ".join("".join(out).split())


def _normal(cert: dict[str, Any], text: str) -> str:
    """What coqc sees of a rendered file: no comments, the certificate's hash blanked."""
    return strip_comments(text.replace(certificate.sha256(cert), "<sha>"))


def coq_candidates(rejected: list[Mutant]) -> tuple[list[Mutant], dict[str, int]]:
    """The checker-rejected mutants that change what the certificate says (the claim-bearing
    part) and whose rendered Coq text differs from the base's: the coqc sample is drawn from
    these. Also counts, per reason, the rejected mutants left out."""
    out, skipped = [], {"claim unchanged": 0, "coq-blind (same Coq text)": 0, "renderer refused": 0}
    base_text: dict[str, str] = {}
    for m in rejected:
        if claim_part(m.cert) == claim_part(m.base.cert):
            skipped["claim unchanged"] += 1
            continue
        name = m.base.cert["name"]
        if name not in base_text:
            base_text[name] = _normal(m.base.cert, render(m.base.cert)[1])
        try:
            text = _normal(m.cert, render(m.cert)[1])
        except Exception:  # noqa: BLE001 - the renderer refusing a mutant is a rejection
            skipped["renderer refused"] += 1
            continue
        if text == base_text[name]:
            skipped["coq-blind (same Coq text)"] += 1
            continue
        out.append(m)
    return out, skipped


def sample_round_robin(ms: list[Mutant], n: int, seed: int) -> list[Mutant]:
    """Up to n mutants, taking one of each kind in turn (seeded shuffle within a kind)."""
    by: dict[tuple[str, str], list[Mutant]] = {}
    for m in ms:
        by.setdefault(m.key, []).append(m)
    for k, v in by.items():
        random.Random(f"{seed}:coq:{k}").shuffle(v)
    out: list[Mutant] = []
    while len(out) < n and any(by.values()):
        for k in sorted(by):
            if by[k] and len(out) < n:
                out.append(by[k].pop())
    return out


UNRESOLVED = "unresolved"


def coq_truth(m: Mutant) -> tuple[str, str]:
    """The class of a mutant coqc accepted: "accepted-true" when the checker-part rules
    (claim unchanged, stray key, an oracle) show its statement true, or -- for MLP/ResNet rank
    certificates, whose Coq theorems state witness.lower.rank <= the rank over Q at the
    instance's network and theta -- when the exact rank (exact_rank) is >= that witness rank;
    FALSE_ACCEPT when an oracle shows it false; UNRESOLVED otherwise (reported, and failing
    the run: not shown to be true)."""
    cls, why = classify(m, lambda _c: [])
    if cls in (TRUE_WITNESS, TRUE_ORACLE, STRAY_KEY):
        return "accepted-true", why
    if m.key in (("mlp", "rank"), ("resnet", "rank")) and m.cert["witness"].get("upper") is None:
        inst = m.cert["instance"]
        r = exact_rank(inst["network"], inst["theta"])
        w = m.cert["witness"]["lower"]["rank"]
        return ("accepted-true" if w <= r else FALSE_ACCEPT), f"Coq states {w} <= rank = {r}"
    if cls == FALSE_ACCEPT and "no oracle" not in why:
        return FALSE_ACCEPT, why
    return UNRESOLVED, why


def run_coq(
    sample: list[Mutant], bases: list[Base], workers: int, timeout: float
) -> list[dict[str, Any]]:
    """Compile and audit every sampled mutant (one .v each, `workers` coqc at a time) against
    the NNCert library compiled once (cached), after the certificates they mutate pass;
    returns one record per mutant."""
    import shutil
    import tempfile
    from concurrent.futures import ThreadPoolExecutor
    from pathlib import Path

    from certify.provers import coq as coqp
    from certify.provers import coq_audit
    from certify.resources import resource_dir

    if coqp.coqc_path() is None:
        raise SystemExit("coqc not found on PATH")
    work = Path(tempfile.mkdtemp(prefix="nn-certify-mutation-"))
    try:
        lib = coqp.prepare_library(
            resource_dir("coq"), work / "lib", coqp.default_cache_base(), 1200
        )
        if lib.verdict.status != "passed" or lib.root is None:
            raise SystemExit(f"NNCert library: {lib.verdict.message}")
        (work / "proj" / "Certificates").mkdir(parents=True)

        def one(item: tuple[str, dict[str, Any]]) -> Any:
            tag, cert = item
            mod, text, _ = render(cert)
            mod = f"{mod}_{tag}"  # a fresh module (file) name per compile
            rel = f"Certificates/{mod}.v"
            thms = coq_audit.theorems_of(cert, mod, text)
            (work / "proj" / rel).write_text(text)
            return coqp.check_file(work / "proj", rel, timeout, lib.root, thms)

        # Only the bases the sample mutates need coqc's acceptance first (a mutant of a base
        # that coqc rejects would be rejected for nothing the mutation did).
        sampled = {id(m.base) for m in sample}
        used = [b for b in bases if id(b) in sampled]
        with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
            base_v = list(pool.map(one, [(f"base{i}", b.cert) for i, b in enumerate(used)]))
            bad = [
                (b.cert["name"], v.message) for b, v in zip(used, base_v) if v.status != "passed"
            ]
            if bad:
                raise SystemExit(f"base certificates rejected by coqc: {bad}")
            verdicts = list(pool.map(one, [(f"m{i}", m.cert) for i, m in enumerate(sample)]))
        out = []
        for m, v in zip(sample, verdicts):
            rec = {"kind": f"{m.key[0]}/{m.key[1]}", "certificate": m.base.cert["name"],
                   "path": m.where, "op": m.op, "coqc": v.status,
                   "seconds": round(v.seconds or 0.0, 2), "class": "rejected"}  # fmt: skip
            if v.status == "passed":
                rec["class"], rec["why"] = coq_truth(m)
            out.append(rec)
        return out
    finally:
        shutil.rmtree(work, ignore_errors=True)


# ---------------------------------------------------------------- driver
def selftest_oracles(bases: dict[tuple[str, str], list[Base]]) -> list[str]:
    """The oracles' network conventions reproduce every base's own rank-at-theta values and
    F coefficients (else their verdicts on mutants would mean nothing)."""
    out = []
    for key, bs in bases.items():
        for b in bs:
            c, r = b.cert, b.cert["result"]
            if key in (("mlp", "rank"), ("resnet", "rank")):
                got = exact_rank(c["instance"]["network"], c["instance"]["theta"])
                if got != r["rank_at_point"]:
                    out.append(
                        f"{c['name']}: exact rank {got} != rank_at_point {r['rank_at_point']}"
                    )
            elif key == ("relu", "rank"):
                widths = c["instance"]["network"]["widths"]
                lo, up = relu_rank_bounds(widths, c["instance"]["theta"], random.Random(0))
                if not lo == up == r["rank_at_point"]:
                    out.append(f"{c['name']}: relu bounds {lo}, {up} != {r['rank_at_point']}")
            elif key == ("resnet", "implicit"):
                v = implicit_oracle(
                    c, {**c, "instance": {**c["instance"], "theta": [*c["instance"]["theta"]]}}
                )
                if v is not None:
                    out.append(f"{c['name']}: implicit oracle on the base gave {v}")
    return out


def campaign(
    seed: int,
    n_checker: int,
    n_coq: int,
    kinds: list[tuple[str, str]] | None = None,
    workers: int = 2,
    timeout: float = 300,
    checker: Checker = check_certificate,
) -> dict[str, Any]:
    """Run the campaign; the report (counts per kind, findings, coqc records, seconds)."""
    t0 = time.perf_counter()
    all_kinds = sorted({(k.family, k.kind) for k in KINDS})
    missing = [k for k in all_kinds if k not in BASES]
    if missing:
        raise SystemExit(f"no base certificate for kinds {missing}")
    bases = load_bases(kinds or all_kinds)
    problems = selftest_oracles(bases)
    if problems:
        raise SystemExit(f"oracle self-test failed: {problems}")
    counts, findings, rejected = run_checker(bases, n_checker, seed, checker)
    t1 = time.perf_counter()
    report: dict[str, Any] = {"seed": seed, "checker": counts, "findings": findings,
                              "checker_seconds": round(t1 - t0, 2)}  # fmt: skip
    if n_coq:
        cands, skipped = coq_candidates(rejected)
        sample = sample_round_robin(cands, n_coq, seed)
        unique = [b for bs in bases.values() for b in bs]
        recs = run_coq(sample, unique, workers, timeout)
        report["coq"] = {"candidates": len(cands), "left_out": skipped, "records": recs,
                         "seconds": round(time.perf_counter() - t1, 2)}  # fmt: skip
    return report


def false_accepts(report: dict[str, Any], strict_keys: bool = False) -> int:
    bad = (FALSE_ACCEPT, CRASH, *((STRAY_KEY,) if strict_keys else ()))
    n = sum(c[k] for c in report["checker"].values() for k in bad)
    recs = report.get("coq", {}).get("records", [])
    return n + sum(1 for r in recs if r["class"] in (FALSE_ACCEPT, UNRESOLVED))


def print_report(report: dict[str, Any]) -> None:
    cols = ("mutations", REJECTED, TRUE_WITNESS, TRUE_ORACLE, STRAY_KEY, FALSE_ACCEPT, CRASH)
    short = (
        "mutations",
        "rejected",
        "true:claim-same",
        "true:oracle",
        "stray-key",
        "FALSE",
        "crash",
    )
    print(f"{'kind':24s}" + "".join(f"{h:>16s}" for h in short))
    tot = dict.fromkeys(cols, 0)
    for kind, c in sorted(report["checker"].items()):
        print(f"{kind:24s}" + "".join(f"{c[k]:>16d}" for k in cols))
        for k in cols:
            tot[k] += c[k]
    print(f"{'total':24s}" + "".join(f"{tot[k]:>16d}" for k in cols))
    for f in report["findings"]:
        if f["class"] in (FALSE_ACCEPT, CRASH):
            print(f"FALSE ACCEPT {f['kind']} {f['certificate']} {f['path']} {f['op']}: {f['why']}")
    strays = sorted({(f["kind"], f["path"]) for f in report["findings"] if f["class"] == STRAY_KEY})
    if strays:
        print(
            "unknown keys accepted (claim unchanged; issue 22 asks for exact key sets): "
            + ", ".join(f"{k}:{p}" for k, p in strays)
        )
    print(f"checker part: {report['checker_seconds']} s")
    if "coq" in report:
        cq = report["coq"]
        recs = cq["records"]
        per: dict[str, dict[str, int]] = {}
        for r in recs:
            d = per.setdefault(
                r["kind"],
                {"compiled": 0, "rejected": 0, "accepted-true": 0, FALSE_ACCEPT: 0, UNRESOLVED: 0},
            )
            d["compiled"] += 1
            d[r["class"]] += 1
        print(
            f"coqc: {len(recs)} mutants compiled (of {cq['candidates']} candidates; left out: "
            f"{cq['left_out']}), {cq['seconds']} s"
        )
        print(
            f"{'kind':24s}{'compiled':>10s}{'rejected':>10s}{'true':>10s}{'FALSE':>10s}"
            f"{'unresolved':>12s}"
        )
        for kind, d in sorted(per.items()):
            print(
                f"{kind:24s}{d['compiled']:>10d}{d['rejected']:>10d}{d['accepted-true']:>10d}"
                f"{d[FALSE_ACCEPT]:>10d}{d[UNRESOLVED]:>12d}"
            )
        for r in recs:
            if r["class"] != "rejected":
                print(f"coqc {r['class']}: {r['kind']} {r['path']} {r['op']}: {r.get('why')}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--checker", type=int, default=10000, help="checker mutations (all kinds)")
    ap.add_argument("--coq", type=int, default=300, help="coqc mutations")
    ap.add_argument("--kinds", nargs="*", help="family/kind, e.g. mlp/rank (default: all)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=300, help="coqc seconds per file")
    ap.add_argument(
        "--strict-keys",
        action="store_true",
        help="count accepted unknown instance/witness keys as false accepts",
    )
    ap.add_argument("--json", help="write the report here")
    a = ap.parse_args(argv)
    kinds = [tuple(k.split("/", 1)) for k in a.kinds] if a.kinds else None
    report = campaign(a.seed, a.checker, a.coq, kinds, a.workers, a.timeout)  # type: ignore[arg-type]
    print_report(report)
    n = false_accepts(report, a.strict_keys)
    report["false_accepts"] = n
    if a.json:
        with open(a.json, "w") as f:
            json.dump(report, f, indent=1, sort_keys=True)
    print(f"false accepts: {n}")
    return 1 if n else 0


if __name__ == "__main__":
    sys.exit(main())
