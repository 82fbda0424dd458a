"""Structured cases for the Coq conformance harness (moved from test_rank_core.py): full-size
r x r matrices for the elimination core (random ones hardly ever are square) and whole
MLP/ResNet Jacobian rows at the largest prime, which the typed random inputs of cases.py
rarely build."""

from __future__ import annotations

import random

from certify.checker.kernel import rank_core as RC
from certify.checker.kernel import resnet as KR
from certify.checker.kernel.arith import arith_mod, ints_mod
from certify.checker.kernel.net import net_row
from tests.test_rank_core import PRIMES, _matrix, _random_mlp


def _coq_list(v) -> str:
    if isinstance(v, (list, tuple)):
        return "[" + "; ".join(_coq_list(x) for x in v) + "]"
    return f"({v})"


def conformance_cases(count: int) -> list[str]:
    """Lemmas `<expression> = <value computed by the Python twin>`, one per random case."""
    rng = random.Random(20261201)
    lemmas: list[str] = []
    for i in range(count):
        kind = i % 4
        if kind == 0:  # the elimination core
            p, r = rng.choice(PRIMES[1:]), rng.randint(0, 6)
            M = _matrix(rng, r, p, rng.random() < 0.5)
            val = RC.nonsingular_mod(p, r, M)
            expr = (f"nonsingular_mod (Uint63.of_Z {p}) {r} "
                    f"(map (ints_mod {p}) {_coq_list(M)}%Z)")  # fmt: skip
            lemmas.append(f"Lemma c{i} : {expr} = {str(val).lower()}.")
        elif kind == 1:  # MLP rows mod p by reverse mode
            p = rng.choice([101, 2147483647])
            widths, acts, bias, theta = _random_mlp(rng)
            x = [rng.randint(-9, 9) for _ in range(widths[0])]
            k = rng.randrange(widths[-1])
            val = net_row(arith_mod(p), widths, [ints_mod(p, a) for a in acts], bias,
                            ints_mod(p, theta), ints_mod(p, x), k)  # fmt: skip
            expr = (f"map Uint63.to_Z (net_row (arith_mod (Uint63.of_Z {p})) "
                    f"{_coq_list(widths)}%nat (map (ints_mod {p}) {_coq_list(acts)}%Z) "
                    f"{str(bias).lower()} (ints_mod {p} {_coq_list(theta)}%Z) "
                    f"(ints_mod {p} {_coq_list(x)}%Z) {k})")  # fmt: skip
            lemmas.append(f"Lemma c{i} : {expr} = {_coq_list(val)}%Z.")
        elif kind == 2:  # ResNet rows mod p by reverse mode
            p = rng.choice([101, 2147483647])
            w, depth, outer = rng.randint(1, 3), rng.randint(1, 2), rng.random() < 0.5
            acts = [[rng.randint(-3, 3) for _ in range(rng.randint(2, 4))] for _ in range(depth)]
            th = [rng.randint(-3, 3) for _ in range(depth * KR.layer_size(w, outer))]
            x = [rng.randint(-9, 9) for _ in range(w)]
            k = rng.randrange(w)
            val = KR.resnet_row(arith_mod(p), w, outer, [ints_mod(p, a) for a in acts],
                                ints_mod(p, th), ints_mod(p, x), k)  # fmt: skip
            expr = (
                f"map Uint63.to_Z (resnet_row (arith_mod (Uint63.of_Z {p})) {w}%nat "
                f"{str(outer).lower()} (map (ints_mod {p}) {_coq_list(acts)}%Z) "
                f"(ints_mod {p} {_coq_list(th)}%Z) (ints_mod {p} {_coq_list(x)}%Z) {k})"
            )
            lemmas.append(f"Lemma c{i} : {expr} = {_coq_list(val)}%Z.")
        else:  # exactness from residues and the integer bound rows
            qs = rng.sample([7, 11, 13, 2147483647, 2147483629], rng.randint(1, 3))
            if rng.random() < 0.3:
                qs.append(qs[0] * 2)
            bounds = [[rng.randint(0, 50) for _ in range(4)] for _ in range(2)]
            ts = [[rng.randint(-9, 9) for _ in range(4)] for _ in range(3)]
            val = (RC.moduli_ok(qs), RC.kill_bound(bounds, ts), RC.prod_z(qs))
            expr = (f"(moduli_ok {_coq_list(qs)}%Z, kill_bound {_coq_list(bounds)}%Z "
                    f"{_coq_list(ts)}%Z, prod_z {_coq_list(qs)}%Z)")  # fmt: skip
            lemmas.append(f"Lemma c{i} : {expr} = ({str(val[0]).lower()}, {val[1]}, {val[2]})%Z.")
    return lemmas
