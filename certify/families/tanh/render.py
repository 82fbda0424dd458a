"""Render tanh certificates (affsym, orbit, equiv) for Coq and Lean; read every literal back.

One template per prover (templates/coq/tanh/tanh.v.j2, templates/lean/tanh/tanh.lean.j2): a list of
literal definitions (records of the kernel library, lists) and a list of lemmas, each closed by
one kernel computation of a checker of NNCert/Tanh."""

from __future__ import annotations

from typing import Any

from certify.checker.check import tanh as CT
from certify.checker.facts.affsym_coq import element_theorems
from certify.checker.kernel import tanh as KT
from certify.errors import RenderError
from certify.render import literals as L
from certify.render.env import prover_files, render

PREFIX = {"affsym": "Affsym_", "orbit": "TanhOrbit_", "equiv": "Equiv_"}
COQ_INST = {"n_in": "ti_n_in", "n_out": "ti_n_out", "adj": "ti_adj", "weights": "ti_weights",
            "biases": "ti_biases"}  # fmt: skip
LEAN_INST = {"n_in": "nIn", "n_out": "nOut", "adj": "adj", "weights": "weights",
             "biases": "biases"}  # fmt: skip
SYM_FIELDS = ("alpha", "beta", "gamma", "delta")


def module_name(kind: str, cert_name: str) -> str:
    return L.module_ident(PREFIX[kind], cert_name)


def _norm(v: Any) -> Any:
    return [_norm(x) for x in v] if isinstance(v, (list, tuple)) else v


class _Doc:
    """Definitions and lemmas of one rendered file, with what each literal must read back as."""

    def __init__(self, coq: bool) -> None:
        self.coq = coq
        self.defs: list[dict[str, Any]] = []
        self.lemmas: list[dict[str, str]] = []
        # theorems over the reals, each with its own proof (Coq only; affsym_coq.py)
        self.theorems: list[dict[str, str]] = []
        self.expect: list[tuple[str, str, Any]] = []  # (definition, field or "", value)

    def lit(self, v: Any, nat: bool = False) -> str:
        if self.coq:
            return L.coq(v, nat=nat)
        return L.lean(v)

    def record(self, name: str, typ: str, fields: dict[str, tuple[Any, bool]]) -> None:
        self.defs.append(
            {
                "name": name,
                "type": typ,
                "fields": [
                    {"name": f, "value": self.lit(v, nat)} for f, (v, nat) in fields.items()
                ],
                "value": None,
            }
        )
        for f, (v, _) in fields.items():
            self.expect.append((name, f, v))

    def plain(self, name: str, typ: str, v: Any, nat: bool = False) -> None:
        self.defs.append({"name": name, "type": typ, "fields": None, "value": self.lit(v, nat)})
        self.expect.append((name, "", v))

    def sym(self, name: str, s: KT.AffSym) -> None:
        self.record(
            name,
            "aff_sym" if self.coq else "NNCert.AffSym",
            {f: (getattr(s, f), False) for f in SYM_FIELDS},
        )

    def inst(self, name: str, k: KT.TanhInstance) -> None:
        names = COQ_INST if self.coq else LEAN_INST
        vals = {"n_in": (k.n_in, True), "n_out": (k.n_out, True), "adj": (k.adj, False),
                "weights": (k.weights, False), "biases": (k.biases, False)}  # fmt: skip
        self.record(
            name,
            "tanh_instance" if self.coq else "NNCert.TanhInstance",
            {names[f]: v for f, v in vals.items()},
        )

    def element(self, suffix: str, flips: list[bool], perm: list[int]) -> None:
        self.plain(f"flips{suffix}", "list bool" if self.coq else "List Bool", flips)
        self.plain(f"perm{suffix}", "list nat" if self.coq else "List Nat", perm, nat=True)

    def lemma(self, name: str, coq_fn: str, lean_fn: str, args: list[str], what: str) -> None:
        fn = coq_fn if self.coq else f"NNCert.{lean_fn}"
        self.lemmas.append(
            {"name": name, "statement": f"{fn} {' '.join(args)} = true", "what": what}
        )

    def fails(
        self, name: str, coq_fn: str, lean_fn: str, arg_lists: list[list[str]], what: str
    ) -> None:
        """The conjunction of the checker calls is false: a flag false in the result is a
        checked statement too. Coq: `negb (andb a b) = true` (the template closes every lemma
        by `eq_refl true`); Lean: `(a && b) = false` (`&&` is core Lean 4's notation for
        `and`, `infixl:35 " && " => and` in src/Init/Notation.lean of leanprover/lean4, looked
        up there; closed by `decide +kernel` like the others)."""
        if self.coq:
            calls = [f"({coq_fn} {' '.join(a)})" for a in arg_lists]
            conj = calls[0]
            for c in calls[1:]:
                conj = f"(andb {conj} {c})"
            statement = f"negb {conj} = true"
        else:
            calls = [f"NNCert.{lean_fn} {' '.join(a)}" for a in arg_lists]
            statement = f"({' && '.join(calls)}) = false"
        self.lemmas.append({"name": name, "statement": statement, "what": what})


def _element_text(row: dict[str, Any]) -> str:
    t = f"(alpha, beta, gamma, delta) = ({row['alpha']}, {row['beta']}, {row['gamma']}, "
    return t + f"{row['delta']})" + (f" for {row['family']}" if row["family"] else "")


def _nat(d: _Doc, n: int) -> str:
    return f"{n}%nat" if d.coq else str(n)


def _int(d: _Doc, n: int) -> str:
    return f"({n})" if d.coq and n < 0 else str(n)


def build(cert: dict[str, Any], coq: bool) -> _Doc:
    d = _Doc(coq)
    kind = cert["kind"]
    if kind == "affsym":
        w = cert["witness"]
        table = [KT.AffSym(*[CT._rat(v, "table") for v in row]) for row in w["table"]]
        for i, s in enumerate(table):
            d.sym(f"elem_{i}", s)
        sep = "; " if coq else ", "
        d.defs.append(
            {
                "name": "table",
                "type": "list aff_sym" if coq else "List NNCert.AffSym",
                "fields": None,
                "value": "[" + sep.join(f"elem_{i}" for i in range(len(table))) + "]",
            }
        )
        closed = "true" if w["closed"] else "false"
        d.lemma("affsym_table", "check_affsym_table", "checkAffsymTable", ["table", closed],
                "the rational elements are well formed (and a group when closed)")  # fmt: skip
        group = w["group"]
        for i, (row, thm) in enumerate(zip(group["elements"], element_theorems(group))):
            if thm is not None:
                d.theorems.append({
                    "name": f"affsym_element_{i}",
                    "statement": thm.statement,
                    "proof": thm.proof,
                    "what": f"element {i}: {_element_text(row)}",
                })  # fmt: skip
        return d
    inst = cert["instance"]
    net = CT.decode_net(inst["network"], inst["parameters"], "instance.parameters")
    s, flip = CT.decode_sym(inst)
    fl = "true" if flip else "false"
    d.sym("sym", s)
    d.inst("inst", CT.to_instance(net))
    w = cert["witness"]
    if kind == "orbit":
        d.plain("cs", "list (list nat)" if coq else "List (List Nat)", w["classes"], nat=True)
        canon = CT.to_instance(CT.decode_net(inst["network"], w["canonical"], "canonical"))
        d.inst("canon", canon)
        flips, perm = CT.decode_element(w["to_canonical"], net.size, "to_canonical")
        d.element("", flips, perm)
        r = cert["result"]
        free = _flag(r, "free")
        d.lemma("orbit_check", "check_orbit", "checkOrbit",
                ["sym", fl, "inst", "cs", "flips", "perm", "canon",
                 "true" if free else "false", _int(d, r["group_order"])],
                "classes, canonical representative, group order (and freeness)")  # fmt: skip
        if not free:  # the claim: the kernels' sufficient condition for freeness fails
            what = "the sufficient condition for a free action fails (result.free = false)"
            d.fails("not_free", "check_free", "checkFree", [["sym", fl, "inst", "cs"]], what)
        for i, a in enumerate(w["actions"]):
            f2, p2 = CT.decode_element(a, net.size, "action", ("image",))
            img = CT.to_instance(CT.decode_net(inst["network"], a["image"], "image"))
            d.element(f"_{i}", f2, p2)
            d.inst(f"image_{i}", img)
            d.lemma(f"action_{i}", "check_apply", "checkApply",
                    ["sym", "inst", "cs", f"flips_{i}", f"perm_{i}", f"image_{i}"],
                    f"group element {i} maps the parameters to image_{i}")  # fmt: skip
        _layered(d, net, ["inst"])
        return d
    other = CT.decode_net(inst["network"], inst["other"], "instance.other")
    d.inst("inst2", CT.to_instance(other))
    r = cert["result"]
    if "element" in w:
        flips, perm = CT.decode_element(w["element"], net.size, "element")
        d.element("", flips, perm)
        from certify.checker.facts.tanh_net import classes

        cs = classes(net)
    else:
        cs = w["classes"]
        parts = []
        for k, key in ((1, "first"), (2, "second")):
            f, p = CT.decode_element(w[key]["element"], net.size, key)
            c = CT.to_instance(CT.decode_net(inst["network"], w[key]["canonical"], key))
            d.element(str(k), f, p)
            d.inst(f"canon{k}", c)
            parts += [f"flips{k}", f"perm{k}", f"canon{k}"]
        args = ["sym", fl, "inst", "inst2", "cs", *parts]
    d.plain("cs", "list (list nat)" if coq else "List (List Nat)", cs, nat=True)
    d.lemma("classes_check", "check_classes", "checkClasses", ["inst", "cs"],
            "cs are the maximal classes of interchangeable hidden nodes of the first network "
            "(the second has the same graph)")  # fmt: skip
    if "element" in w:
        d.lemma("equiv_check", "check_equivalent", "checkEquivalent",
                ["sym", "inst", "inst2", "cs", "flips", "perm"],
                "the same graph, cs its classes (check_classes), and the group element maps the "
                "first network onto the second")  # fmt: skip
    else:
        d.lemma("inequiv_check", "check_inequivalent", "checkInequivalent", args,
                "the same graph, cs its classes (check_classes); both reach different canonical "
                "forms")  # fmt: skip
    _layered(d, net, ["inst", "inst2"])
    # The genericity flags of the result, true or false, are checked statements: Sussmann's
    # conditions for one hidden layer, the Fefferman-type ones for deeper layered networks
    # (as the checker decides which applies); null exactly where neither is the condition.
    one_layer = net.widths is not None and len(net.widths) == 3
    which = {"sussmann": one_layer, "fefferman": net.widths is not None and not one_layer}
    for key, applies in which.items():
        if not applies:
            if r[key] is not None:
                raise RenderError(f"result.{key}: expected null for this architecture")
            continue
        coq_fn, lean_fn = ("check_sussmann", "checkSussmann") if key == "sussmann" else (
            "check_fefferman", "checkFefferman")  # fmt: skip
        what = ("Sussmann's irreducibility conditions" if key == "sussmann"
                else "Fefferman-type genericity conditions")  # fmt: skip
        pre = ["sym"] if key == "sussmann" else []
        if _flag(r, key):
            for k, name in ((1, "inst"), (2, "inst2")):
                d.lemma(f"{key}_{k}", coq_fn, lean_fn, [*pre, name, "cs"], what)
        else:
            d.fails(f"not_{key}", coq_fn, lean_fn,
                    [[*pre, "inst", "cs"], [*pre, "inst2", "cs"]],
                    f"{what} fail for at least one network (result.{key} = false)")  # fmt: skip
    return d


def _flag(result: dict[str, Any], key: str) -> bool:
    v = result.get(key)
    if not isinstance(v, bool):
        raise RenderError(f"result.{key}: expected true or false")
    return v


def _layered(d: _Doc, net: Any, names: list[str]) -> None:
    """The layered graph of instance.network.widths, which the claim names, for each network."""
    if net.widths is None:
        return
    d.plain("widths", "list nat" if d.coq else "List Nat", list(net.widths), nat=True)
    for k, name in enumerate(names, 1):
        d.lemma(f"layered_{k}", "check_layered", "checkLayered", ["widths", name],
                "the edges are those of the layered network of the widths")  # fmt: skip


def render_prover(cert: dict[str, Any], sha: str, prover: str) -> str:
    coq = prover == "coq"
    d = build(cert, coq)
    module = module_name(cert["kind"], cert["name"])
    ctx = {
        "name": L.comment_safe(cert["name"]),
        "kind": cert["kind"],
        "sha256": sha,
        "claim": L.comment_safe(cert["claim"]["text"]),
        "defs": d.defs,
        "lemmas": d.lemmas,
        "theorems": d.theorems if coq else [],  # Lean states the kernel checks only
        "theorems_in_coq": len(d.theorems),
    }
    if coq:
        text = render("coq/tanh/tanh.v.j2", **ctx)
    else:
        text = render("lean/tanh/tanh.lean.j2", module=f"Certificates.{module}", **ctx)
    for dname, field, val in d.expect:
        start = L.block_start(text, f"Definition {dname} " if coq else f"def {dname} ")
        got = L.read_field(text, field, start) if field else L.read_field(text, dname, start)
        if _norm(got) != _norm(val):
            raise RenderError(f"literal {dname}.{field} does not read back as rendered")
    for lem in d.lemmas:
        if lem["statement"] not in text:
            raise RenderError(f"rendered file lacks the statement {lem['statement']!r}")
    return text


def theorem_names(cert: dict[str, Any]) -> list[str]:
    """The Lean theorems (the kernel checks; the identities over the reals are Coq's only)."""
    return [lem["name"] for lem in build(cert, False).lemmas]


def render_files(cert: dict[str, Any], sha: str) -> tuple[str, list[str], str, str]:
    """(module name, theorem names, Coq text, Lean text): the registry's renderer entry."""
    return prover_files(
        module_name(cert["kind"], cert["name"]), theorem_names(cert), cert, sha, render_prover
    )
