"""Cases of the conformance harness: for every function of the table, random inputs (from
its Coq signature), inputs captured while the Python checkers accept small example
certificates (so the accepting branches are reached), and those captured inputs tampered
(so are the rejecting ones near them). Each case becomes one lemma
`<Coq expression> = <value the Python twin computed>`, closed by vm_compute.
"""

from __future__ import annotations

import dataclasses
import functools
import random
import sys
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from certify.checker.fast import rank as fast
from certify.checker.kernel import rank as K
from certify.checker.kernel import relu as KL
from certify.checker.kernel import resnet as KR
from certify.checker.kernel import tanh as KT
from tests.conformance import values as V
from tests.conformance.coqsig import CoqDef, Param, library
from tests.conformance.table import MODULES, PY_ONLY_ARGS, RECORDS, table

SEED = 20260412
N_RANDOM = 12  # random cases per function
N_CAPTURED = 3  # captured cases per function (smallest first, both verdicts when a checker)
N_TAMPERED = 3  # tampered copies of captured cases per function
MAX_LITERAL = 6000  # characters: keeps every lemma quick to elaborate and to compute

# Small example specs whose certificates drive every family's checkers to accept.
EXAMPLES = (
    "cubic-2-3-1-bias", "deep-2-3-2-1", "ktb-2-2-1", "logistic-2-3-1-orbit", "mlp-equiv-quadratic",
    "mlp-identifiable-width-one", "mlp-identifiable-z2z", "newman-slater-cubes",
    "prop21-z3-z-1", "compind-bivariate-bias", "compind-z2z", "compind-search",
    "relu-1-1-1", "relu-2-2-1", "relu-equiv-differ", "relu-equiv-hidden",
    "relu-equiv-permutation", "resnet-1-2-quadratic", "resnet-critical-dead-layer",
    "resnet-figure-1", "resnet-orbit-cube-complex", "resnet-orbit-even-quartic",
    "resnet-orbit-trivial-cube", "resnet-critical-quadratic-locus",
    "resnet-width2-depth2-orbit", "tanh-1-3-1-orbit", "tanh-dag-skip", "tanh-equiv",
)  # fmt: skip

FAST_TWINS = {
    "check_rank_lower": (K, "check_rank_lower"),
    "check_rank_upper": (K, "check_rank_upper"),
    "check_rank_lower_resnet": (KR, "check_rank_lower_resnet"),
    "check_rank_upper_resnet": (KR, "check_rank_upper_resnet"),
    "check_relu_rank_lower": (KL, "check_relu_rank_lower"),
    "check_relu_rank_upper": (KL, "check_relu_rank_upper"),
}
Q1, Q0, QM = (1, 1), (0, 1), (-1, 1)
AFFSYM_TABLES = (  # (table, closed): tanh's {id, -id}; the logistic's flip with its shift
    ([KT.AffSym(Q1, Q0, Q1, Q0), KT.AffSym(QM, Q0, QM, Q0)], True),
    ([KT.AffSym(Q1, Q0, Q1, Q0), KT.AffSym(QM, Q0, QM, Q1)], True),
    ([KT.AffSym(QM, Q0, QM, Q1)], True),  # no identity
    ([KT.AffSym(Q1, Q0, Q1, Q0), KT.AffSym(QM, Q1, QM, Q0)], True),  # not closed
    ([KT.AffSym(QM, Q0, QM, Q0), KT.AffSym((2, 1), Q0, Q1, Q0)], False),
)


def locus_calls() -> None:
    """An accepted check_critical_locus call small enough for a literal: sigma = t^2 in both
    layers (the critical-locus generator is slow, so no example spec asks for it)."""
    from fractions import Fraction

    from certify.families.resnet.locus import locus_value, locus_witness
    from certify.spec import ResNet

    sigma = (Fraction(0), Fraction(0), Fraction(1))
    w = locus_witness(ResNet(1, (sigma, sigma), False))
    assert w is not None
    theta = [Fraction(0), Fraction(1), Fraction(1), Fraction(2)]
    v = locus_value(w["polynomial"], theta)
    inst = KR.ResNetInstance(
        1, [[(0, 1), (0, 1), (1, 1)]] * 2, False, [(0, 1), (1, 1), (1, 1), (2, 1)]
    )
    args = (w["g"], w["polynomial"], w["power"], w["scale"], w["cofactors"], w["bezout"])
    assert KR.check_critical_locus(inst, *args, (v.numerator, v.denominator))


def extra_calls(seen: dict[str, dict[str, tuple]]) -> None:
    """Calls no example makes: affine-symmetry tables (the affsym example is slow to
    generate) and the Fefferman genericity check on the tanh networks the examples check."""
    for tab, closed in AFFSYM_TABLES:
        KT.check_affsym_table(tab, closed)
        for g in tab:
            KT.compose_all_mem(g, tab, tab)
    locus_calls()
    for inst, cs in list(seen.get("tanh.check_classes", {}).values()):
        KT.check_fefferman(inst, cs)
        KT.check_fefferman(
            dataclasses.replace(inst, biases=[(-b[0], b[1]) for b in inst.biases]), cs
        )


HEAD = (
    "From Coq Require Import ZArith List Bool Uint63.\n"
    "From NNCert Require Import Lists Arith Net RankCore Rank ResNet Compind ReLU Tanh.\n"
    "Import ListNotations.\nOpen Scope Z_scope.\n"
)


@dataclass(frozen=True)
class Case:
    lemma: str
    py_name: str
    origin: str  # random | captured | tampered
    result: Any


# ---------------------------------------------------------------- capture
def _arith_registry() -> dict[int, V.ArithV]:
    return {id(V.ARITH_Q.py): V.ARITH_Q, id(V.ARITH_Z.py): V.ARITH_Z}


def capture() -> dict[str, list[tuple]]:
    """Python twin function key "module.name" -> the argument tuples it was called with while
    the checkers accepted the example certificates (arith records replaced by ArithV)."""
    from certify.checker import check_certificate
    from certify.families import generate_certificates
    from certify.spec import load_spec

    registry = _arith_registry()
    seen: dict[str, dict[str, tuple]] = {}
    fn_key: dict[Any, str] = {}
    for label, (mod, _) in MODULES.items():
        for _label, name, _coq in [t for t in table() if t[0] == label]:
            fn_key[getattr(mod, name)] = f"{label}.{name}"
    makers = {"arith_mod": V.arith_mod, "arith_cyc": V.arith_cyc, "arith_terms": V.arith_terms}

    def wrap(fn: Any, key: str) -> Any:
        @functools.wraps(fn)
        def inner(*args: Any) -> Any:
            out = fn(*args)
            name = key.split(".")[1]
            if name in makers:
                registry[id(out)] = makers[name](args[0], out)
            conv = []
            for a in args:
                if hasattr(a, "add") and hasattr(a, "mul") and hasattr(a, "zero"):
                    if id(a) not in registry:
                        return out
                    conv.append(registry[id(a)])
                else:
                    conv.append(a)
            bucket = seen.setdefault(key, {})
            if len(bucket) < 60:
                bucket.setdefault(repr(conv), tuple(conv))
            return out

        return inner

    patched: list[tuple[types.ModuleType, str, Any]] = []
    mods = [m for m, _ in MODULES.values()]
    for mod in mods:
        for name, val in list(vars(mod).items()):
            if isinstance(val, types.FunctionType) and val in fn_key:
                patched.append((mod, name, val))
                setattr(mod, name, wrap(val, fn_key[val]))
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20000))  # every wrapped call adds a frame
    # The rank checkers run on the vectorised path (checker/fast/rank.py); make each also run
    # its kernel twin, which must agree, so the twin's functions see the same inputs.
    for name, twin in FAST_TWINS.items():
        fast_fn = getattr(fast, name)

        def both(*args: Any, _f: Any = fast_fn, _t: tuple = twin) -> bool:
            out = _f(*args)
            assert getattr(_t[0], _t[1])(*args) == out, _t
            return out

        patched.append((fast, name, fast_fn))
        setattr(fast, name, both)
    try:
        root = Path(__file__).resolve().parents[2] / "certify" / "examples"
        for ex in EXAMPLES:
            spec = load_spec(root / f"{ex}.toml")
            for req in spec.certificates:
                for cert in generate_certificates(spec, req):
                    probs = check_certificate(cert)
                    assert probs == [], (ex, probs)
        extra_calls(seen)
    finally:
        sys.setrecursionlimit(limit)
        for mod, name, val in patched:
            setattr(mod, name, val)
    # ARITH_Q / ARITH_Z objects kept their identity; arith_mod results were registered live.
    return {k: list(v.values()) for k, v in seen.items()}


# ---------------------------------------------------------------- cases
def _ctx(rng: random.Random, records: dict) -> V.Ctx:
    return V.Ctx(rng, rng.choice(V.PRIMES), {}, records, RECORDS)


def _env_random(d: CoqDef, ctx: V.Ctx) -> tuple[dict[str, tuple], dict[str, V.ArithV]]:
    """A carrier for every type variable: an arithmetic for the `arith A` parameters."""
    env: dict[str, tuple] = {}
    ars: dict[str, V.ArithV] = {}
    for p in d.params:
        if p.type[0] == "arith" and p.type[1][0] == "var":
            ar = ctx.rng.choice([V.arith_mod(ctx.p), V.ARITH_Q, V.ARITH_Z])
            env[p.type[1][1]] = ar.carrier
            ars[p.name] = ar
    for p in d.params:
        if p.implicit and p.name not in env:
            env[p.name] = V.ARITH_Q.carrier if p.name == "B" else ("Z",)
    return env, ars


def _expr(coq: str, d: CoqDef, args: list[Any], env: dict, ctx: V.Ctx, omit=()) -> str:
    parts = []
    for p, a in zip(d.explicit, args):
        if p.name in omit:
            continue
        t = V.subst(p.type, env)
        parts.append(a.coq if t[0] == "arith" else f"({V.lit(t, a, ctx)} : {V.coq_type(t)})")
    return f"({coq} {' '.join(parts)})" if parts else coq


def _lemma(lemma: str, coq: str, d: CoqDef, fn: Any, args: list[Any], env: dict, ctx: V.Ctx,
           obs: list[Any] | None = None, omit=()) -> tuple[str, Any] | None:  # fmt: skip
    """`Lemma ... : expr = value.`, or None when the Python twin raises (outside its
    contract) or a value has no Coq literal."""
    ret = V.subst(d.ret, env)
    try:
        result = fn(*[V.to_python(a) for a in args])
        expr = _expr(coq, d, args, env, ctx, omit)
        if ret[0] == "arith":  # a record of operations: compare what it computes
            x, y = obs
            result = (result.add(x, y), result.mul(x, y), result.zero, result.one)
            a = V.coq_type(ret[1])
            xs, ys = V.lit(ret[1], x, ctx), V.lit(ret[1], y, ctx)
            expr = (f"(let ar := {expr} in (add ar ({xs} : {a}) ({ys} : {a}), "
                    f"mul ar ({xs} : {a}) ({ys} : {a}), zero ar, one ar))")  # fmt: skip
            ret = ("tuple", (ret[1],) * 4)
        value = V.lit(ret, result, ctx)
    except V.NotRepresentable:
        return None
    except (ArithmeticError, IndexError, ValueError, RecursionError):
        return None
    text = f"Lemma {lemma} : {expr} = ({value} : {V.coq_type(ret)}).\n"
    if len(text) > MAX_LITERAL:
        return None
    return text, result


def build(
    captured: dict[str, list[tuple]] | None = None, only: set[str] | None = None
) -> dict[str, list[tuple[Case, str]]]:
    """module label -> [(case, lemma text)], deterministic for the seed (`only`: the
    functions "module.name" to build, default all)."""
    defs, records = library()
    captured = captured or {}
    out: dict[str, list[tuple[Case, str]]] = {label: [] for label in MODULES}
    for label, name, coq in table():
        if only is None or f"{label}.{name}" in only:
            out[label].extend(_cases_for(label, name, defs[coq], records, captured))
    return out


def _cases_for(label: str, name: str, d: CoqDef, records: dict, captured: dict) -> list:
    """The cases of one function: random, captured, tampered, and for a checker more of
    either until both verdicts occur."""
    coq = d.name
    fn = getattr(MODULES[label][0], name)
    omit = PY_ONLY_ARGS.get(f"{label}.{name}", ())
    if omit:  # generate the Python-only arithmetic too (it fixes the carrier)
        extra = (Param("A", ("Type",), True), Param("ar", ("arith", ("var", "A")), False))
        d = dataclasses.replace(d, params=extra + tuple(p for p in d.params if p.name != "A"))
    rng = random.Random(f"{SEED}:{label}.{name}")
    texts: set[str] = set()
    made: list[tuple[Case, str]] = []

    def add(origin: str, args: list[Any], env: dict, ctx: V.Ctx) -> None:
        obs = None
        if V.subst(d.ret, env)[0] == "arith":
            carrier = V.subst(d.ret, env)[1]
            obs = [V.gen(carrier, ctx), V.gen(carrier, ctx)]
        lemma = f"c_{coq.replace('.', '_')}_{len(made)}"
        got = _lemma(lemma, coq, d, fn, args, env, ctx, obs, omit)
        if got is None:
            return
        text, result = got
        body = text.split(":", 1)[1]
        if body in texts:
            return
        texts.add(body)
        made.append((Case(lemma, name, origin, result), text))

    for _ in range(N_RANDOM * 3):
        if sum(c.origin == "random" for c, _ in made) >= N_RANDOM:
            break
        ctx = _ctx(rng, records)
        env, ars = _env_random(d, ctx)
        args = [ars[p.name] if p.name in ars else V.gen(V.subst(p.type, env), ctx, p.name)
                for p in d.explicit]  # fmt: skip
        if rng.random() < 0.3:  # equal arguments of equal types: equality tests say yes
            same = [i for i, p in enumerate(d.explicit) for q in d.explicit[:i]
                    if q.type == p.type and p.type[0] != "arith"]  # fmt: skip
            if same:
                i = rng.choice(same)
                j = next(k for k, q in enumerate(d.explicit) if q.type == d.explicit[i].type)
                args[i] = args[j]
        add("random", args, env, ctx)

    samples = _captured_for(d, captured.get(f"{label}.{name}", []), fn, records)
    for args, env, ctx in samples[:N_CAPTURED]:
        add("captured", list(args), env, ctx)
    for args, env, ctx in samples[:N_TAMPERED]:
        i = rng.randrange(len(args)) if args else 0
        if args:
            t = V.subst(d.explicit[i].type, env)
            args = [V.tamper(t, a, ctx) if j == i else a for j, a in enumerate(args)]
            add("tampered", args, env, ctx)
    if d.ret == ("bool",):  # a checker: try harder to reach the verdict not yet seen
        for k in range(40):
            if len({c.result for c, _ in made}) > 1:
                break
            if samples and k % 2 == 0:
                args, env, ctx = samples[k // 2 % len(samples)]
                args = list(args)
                i = rng.randrange(len(args))
                args[i] = V.tamper(V.subst(d.explicit[i].type, env), args[i], ctx)
                origin = "tampered"
            else:
                ctx = _ctx(rng, records)
                env, ars = _env_random(d, ctx)
                args = [ars[p.name] if p.name in ars else V.gen(V.subst(p.type, env), ctx,
                        p.name) for p in d.explicit]  # fmt: skip
                origin = "random"
            before = {c.result for c, _ in made}
            n = len(made)
            add(origin, args, env, ctx)
            if len(made) > n and made[-1][0].result in before:
                made.pop()
    return made


def _captured_for(d: CoqDef, samples: list[tuple], fn: Any, records: dict) -> list[tuple]:
    """The captured argument tuples usable for d (typed, the carrier known), smallest first;
    for a checker, alternating accepted and rejected ones."""
    usable = []
    for args in samples:
        env: dict[str, tuple] = {}
        ok = True
        for p, a in zip(d.explicit, args):
            if p.type[0] == "arith" and p.type[1][0] == "var":
                if not isinstance(a, V.ArithV):
                    ok = False
                    break
                env[p.type[1][1]] = a.carrier
        if not ok or any(p.implicit and p.name not in env for p in d.params):
            continue
        mods = [a.coq for a in args if isinstance(a, V.ArithV)]
        p = next((int(m.split()[-1].rstrip(")")) for m in mods if "arith_mod" in m), None)
        if p is None:
            p = next((a for q, a in zip(d.explicit, args) if q.name in V.MODULUS_NAMES), 101)
        ctx = V.Ctx(random.Random(repr(args)), p if isinstance(p, int) and p > 1 else 101, env,
                    records, RECORDS)  # fmt: skip
        usable.append((len(repr(args)), args, env, ctx))
    usable.sort(key=lambda u: u[0])
    picked = [(a, e, c) for _, a, e, c in usable]
    if d.ret == ("bool",):
        yes = [u for u in picked if _safe(fn, u[0]) is True]
        no = [u for u in picked if _safe(fn, u[0]) is False]
        picked = [u for pair in zip(yes, no) for u in pair] + yes[len(no) :] + no[len(yes) :]
    return picked


def _safe(fn: Any, args: tuple) -> Any:
    try:
        return fn(*[V.to_python(a) for a in args])
    except Exception:
        return None


def render(cases: list[tuple[Case, str]]) -> str:
    return HEAD + "".join(f"{text}Proof. vm_compute. reflexivity. Qed.\n" for _, text in cases)
