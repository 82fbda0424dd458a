"""Fields written as Coq `nat` literals are bounded before rendering (issue 22: a nat is unary
in Coq, so a forged 10^9 would make coqc exhaust the machine's memory): the checker rejects a
value above MAX_NAT naming the field before any kind's checker runs, and the renderer refuses
to write such a literal at all. NAT_FIELDS (certify/checker/check/nats.py) is compared with what the
renderers actually write as nat, for every integer of every example certificate."""

from __future__ import annotations

import copy
import json
from functools import cache
from typing import Any

import pytest

from certify.bundle import render_certificate
from certify.checker import check_certificate, registry
from certify.checker.check.nats import NAT_FIELDS, values_at
from certify.checker.ir import MAX_NAT
from certify.errors import RenderError
from certify.render.env import nat_literals
from tests.test_exact_keys import example_groups

HUGE = 10**9 + 7
NAT_MESSAGE = "the bound on a value written as a Coq nat"


def int_leaves(x: Any, path: tuple = ()) -> list[tuple]:
    if type(x) is int:
        return [path]
    items = x.items() if isinstance(x, dict) else enumerate(x) if isinstance(x, list) else ()
    return [p for k, v in items for p in int_leaves(v, (*path, k))]


def general(path: tuple) -> str:
    """instance.network.widths[] for ("instance", "network", "widths", 1)."""
    return "".join("[]" if isinstance(k, int) else f".{k}" for k in path).lstrip(".")


def concrete(path: tuple) -> str:
    return "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in path).lstrip(".")


def forged(cert: dict[str, Any], path: tuple, value: int) -> dict[str, Any]:
    """The certificate as read from its file (no shared sublists) with one value replaced."""
    out = json.loads(json.dumps(cert))
    x = out
    for k in path[:-1]:
        x = x[k]
    x[path[-1]] = value
    return out


@cache
def samples() -> list[tuple[dict[str, Any], tuple]]:
    """(certificate, path) for every integer field of the example certificates, once per
    (family, kind, field with list indices generalised)."""
    seen: set[tuple[str, str, str]] = set()
    out = []
    for group in example_groups():
        for c in group:
            for sec in ("instance", "witness", "result"):
                for p in int_leaves(c[sec], (sec,)):
                    key = (c["family"], c["kind"], general(p))
                    if key not in seen:
                        seen.add(key)
                        out.append((c, p))
    return out


def test_every_field_the_renderers_write_as_a_nat_is_bounded_by_the_checker_naming_it():
    rendered_as_nat: set[tuple[str, str, str]] = set()
    for c, p in samples():
        bad = forged(c, p, HUGE)
        try:
            render_certificate(bad)
            continue  # rendered: HUGE is not in a nat literal (Z data, or not rendered)
        except RenderError as e:
            if "nat literal" not in str(e):
                continue
        except Exception:  # noqa: BLE001 - refused by the renderer's own decoding
            continue
        rendered_as_nat.add((c["family"], c["kind"], general(p)))
        problems = check_certificate(bad)
        assert problems and problems[0].startswith(f"{concrete(p)}: {HUGE} is above"), (
            c["name"],
            concrete(p),
            problems[:1],
        )
        assert NAT_MESSAGE in problems[0]
    # the comparison found the nat fields of every kind that has some
    kinds = {(f, k) for f, k, _ in rendered_as_nat}
    assert kinds >= {key for key, paths in NAT_FIELDS.items() if paths} - {
        ("compind", "prop21"),  # its instance is empty: no polynomial, no count reaches a file
        # its only nats are the widths: a forged width no longer matches theta's length, so
        # the decoder refuses it before any file is written (check_certificate bounds it too)
        ("mlp", "equiv"),
    }, kinds


@pytest.mark.parametrize("key", sorted(NAT_FIELDS), ids="/".join)
def test_a_huge_value_in_a_nat_field_is_rejected_before_the_kinds_checker_runs(key, monkeypatch):
    certs = [c for g in example_groups() for c in g if (c["family"], c["kind"]) == key]
    assert certs, key
    called: list[str] = []
    real = registry.resolve
    monkeypatch.setattr(registry, "resolve", lambda path: called.append(path) or real(path))
    tried = 0
    for pattern in NAT_FIELDS[key]:
        if "#" in pattern:  # a length: test_a_huge_count_of_variables_is_rejected
            continue
        for c in certs:
            hit = next((w for w, v in values_at(c, pattern) if type(v) is int), None)
            if hit is None:
                continue
            path = next(p for p in int_leaves(c) if concrete(p) == hit)
            for value in (MAX_NAT + 1, 10**500):
                called.clear()
                problems = check_certificate(forged(c, path, value))
                assert problems and problems[0].startswith(f"{hit}: "), (hit, problems[:1])
                assert NAT_MESSAGE in problems[0]
                assert called == []  # the kind's checker never ran
            assert not any(NAT_MESSAGE in p for p in check_certificate(forged(c, path, MAX_NAT)))
            tried += 1
            break
    # tanh affsym has no nat field; the prop21 examples have none (an empty instance)
    assert tried or key in (("tanh", "affsym"), ("compind", "prop21")), key


def test_a_huge_count_of_variables_is_rejected_naming_it():
    c = next(c for g in example_groups() for c in g if c["kind"] == "newman-slater")
    bad = copy.deepcopy(c)
    bad["instance"]["variables"] = [f"x{i}" for i in range(MAX_NAT + 1)]
    problems = check_certificate(bad)
    assert problems and problems[0].startswith("instance.variables (its length): "), problems
    assert NAT_MESSAGE in problems[0]


def test_the_renderer_refuses_a_nat_literal_above_the_bound():
    c = next(c for g in example_groups() for c in g if (c["family"], c["kind"]) == ("mlp", "rank"))
    rank = c["witness"]["lower"]["rank"]
    assert f"{rank}%nat" in render_certificate(c).coq_text
    with pytest.raises(RenderError, match=f"a Coq nat literal {HUGE} is above {MAX_NAT}"):
        render_certificate(forged(c, ("witness", "lower", "rank"), HUGE))


def test_nat_literals_reads_every_number_of_a_nat_literal():
    text = "f 12%nat ([1; 2; (3, 4)])%nat inst_7 (* 5%nat *) (-3) 99 ([8])%nat"
    assert nat_literals(text) == [12, 1, 2, 3, 4, 5, 8]


def test_a_critical_locus_with_a_huge_power_or_exponent_is_rejected_before_the_kernel():
    """The kernels expand lam * P^k and products of the terms: k and the exponents are bounded
    (MAX_LOCUS_POWER, MAX_EXPONENT) before any polynomial arithmetic."""
    from certify.checker.check.critical import MAX_LOCUS_POWER
    from certify.checker.ir import MAX_EXPONENT

    c = next(c for g in example_groups() for c in g if "locus" in c["witness"])
    bad = forged(c, ("witness", "locus", "power"), MAX_LOCUS_POWER + 1)
    problems = check_certificate(bad)
    assert problems and f"witness.locus.power: expected 1 <= k <= {MAX_LOCUS_POWER}" in problems[0]
    bad = forged(c, ("witness", "locus", "polynomial", 0, 1, 0), MAX_EXPONENT + 1)
    problems = check_certificate(bad)
    assert problems and f"exponent above {MAX_EXPONENT}" in problems[0], problems


@pytest.mark.parametrize("kind", ["orbit", "equiv"])
def test_a_forged_tanh_node_count_is_refused_by_checker_and_renderer_before_allocating(kind):
    """inputs = 10^9 leaves the bias count consistent (hidden + outputs): the decoder that
    checker and renderer share bounds the counts before building lists of that size (the
    renderer ran out of memory on it)."""
    from certify.checker.ir import Malformed

    c = next(c for g in example_groups() for c in g if (c["family"], c["kind"]) == ("tanh", kind))
    bad = forged(c, ("instance", "network", "inputs"), HUGE)
    assert check_certificate(bad)[0].startswith(f"instance.network.inputs: {HUGE} is above")
    with pytest.raises(Malformed, match="node counts are positive and at most"):
        render_certificate(bad)
