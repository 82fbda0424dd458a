"""Sweeps: a [sweep] table expands into deterministic, named instances, each certified as a
spec without a sweep; bad sweeps give named-field errors (exit 2, no bundle)."""

from __future__ import annotations

import json
from math import prod
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import certify.families  # noqa: F401  (import order: certify.spec needs the families first)
from certify.errors import SpecError
from certify.spec import parse_spec, parse_specs
from tests.conftest import run_cli

BASE = {"name": "sw", "network": {"family": "mlp"}, "certificate": [{"kind": "rank"}]}


def sweep_spec(**sweep) -> dict:
    return {**BASE, "network": dict(BASE["network"]), "sweep": sweep}


widths_st = st.lists(st.integers(1, 3), min_size=2, max_size=4)
acts_st = st.sampled_from(["t^2", "t^3", "t^2 + t", "2*t^3 - t"])


@settings(max_examples=25, deadline=None)
@given(
    widths=st.lists(widths_st, min_size=1, max_size=3, unique_by=tuple),
    acts=st.lists(acts_st, min_size=1, max_size=2, unique=True),
    bias=st.lists(st.booleans(), min_size=1, max_size=2, unique=True),
    seeds=st.lists(st.integers(0, 50), min_size=1, max_size=2, unique=True),
)
def test_a_sweep_expands_to_the_product_of_its_lists_each_instance_as_its_own_spec(
    widths, acts, bias, seeds
):
    data = sweep_spec(widths=widths, activation=acts, bias=bias, seed=seeds)
    specs = parse_specs(data, "<t>")
    assert len(specs) == prod(map(len, (widths, acts, bias, seeds)))
    names = [s.name for s in specs]
    assert len(set(names)) == len(names)
    assert names == [s.name for s in parse_specs(json.loads(json.dumps(data)), "<t>")]
    i = 0
    for w in widths:
        for a in acts:
            for b in bias:
                for s in seeds:
                    alone = {
                        "name": names[i],
                        "network": {"family": "mlp", "widths": w, "activation": a, "bias": b},
                        "parameters": {"seed": s},
                        "certificate": [{"kind": "rank"}],
                    }
                    got = specs[i]
                    assert got.sweep == "sw"
                    assert (got.network, got.theta, got.certificates) == (
                        (ref := parse_spec(alone, "<t>")).network,
                        ref.theta,
                        ref.certificates,
                    )
                    i += 1


def test_instance_names_are_the_spec_name_and_one_part_per_swept_key():
    specs = parse_specs(sweep_spec(widths=[[3, 2, 1]], activation=["t^2"], bias=[False],
                                   seed=[0]), "<t>")  # fmt: skip
    assert [s.name for s in specs] == ["sw-w3x2x1-t2-nobias-s0"]
    assert specs[0].certificates[0].name == "sw-w3x2x1-t2-nobias-s0"


def test_the_key_order_of_the_sweep_table_does_not_change_names_or_order():
    a = parse_specs(sweep_spec(seed=[0, 1], widths=[[2, 2, 1], [2, 3, 1]],
                               activation=["t^2"]), "<t>")  # fmt: skip
    b = parse_specs(sweep_spec(activation=["t^2"], widths=[[2, 2, 1], [2, 3, 1]],
                               seed=[0, 1]), "<t>")  # fmt: skip
    assert [s.name for s in a] == [s.name for s in b]
    assert a[0].name == "sw-w2x2x1-t2-s0" and a[1].name == "sw-w2x2x1-t2-s1"


def test_named_certificates_of_a_sweep_are_prefixed_with_the_instance_name():
    data = sweep_spec(widths=[[2, 2, 1], [2, 3, 1]], activation=["t^2"])
    data["certificate"] = [{"kind": "rank", "name": "r"}, {"kind": "rank", "name": "q"}]
    specs = parse_specs(data, "<t>")
    assert [c.name for c in specs[1].certificates] == ["sw-w2x3x1-t2-r", "sw-w2x3x1-t2-q"]


def test_resnet_and_relu_families_sweep_their_own_fields():
    res = parse_specs({"name": "rn", "network": {"family": "resnet", "activation": "t^2"},
                       "sweep": {"width": [1, 2], "depth": [1, 2]}}, "<t>")  # fmt: skip
    assert [s.name for s in res] == ["rn-w1-d1", "rn-w1-d2", "rn-w2-d1", "rn-w2-d2"]
    assert [(s.network.width, s.network.depth) for s in res] == [(1, 1), (1, 2), (2, 1), (2, 2)]
    relu_data = {"name": "re", "network": {"family": "relu"},
                 "sweep": {"widths": [[2, 2, 1], [2, 3, 1]], "seed": [1]}}  # fmt: skip
    relu = parse_specs(relu_data, "<t>")
    assert [s.network.widths for s in relu] == [(2, 2, 1), (2, 3, 1)]


BAD_SWEEPS = {
    "not a table": ({**BASE, "sweep": [1]}, "sweep", "a [sweep] table"),
    "empty list": (sweep_spec(widths=[]), "sweep.widths", "non-empty list"),
    "not a list": (sweep_spec(widths=[2, 2, 1], activation="t^2"), "sweep.activation",
                   "non-empty list"),
    "bad width value": (sweep_spec(widths=[[2, 2, 1], [2, 0, 1]], activation=["t^2"]),
                        "sweep.widths[1][1]", ">= 1"),
    "bad activation value": (sweep_spec(widths=[[2, 2, 1]], activation=["t^2", "t + y"]),
                             "sweep.activation[1]", "polynomial in t"),
    "bad bias value": (sweep_spec(widths=[[2, 2, 1]], activation=["t^2"], bias=["yes"]),
                       "sweep.bias[0]", "true or false"),
    "bad seed value": (sweep_spec(widths=[[2, 2, 1]], activation=["t^2"], seed=[-1]),
                       "sweep.seed[0]", ">= 0"),
    "also in network": ({**BASE, "network": {"family": "mlp", "activation": "t^2"},
                         "sweep": {"activation": ["t^3"], "widths": [[2, 2, 1]]}},
                        "sweep.activation", "not also set"),
    "explicit weights": ({**sweep_spec(widths=[[1, 1, 1]], activation=["t^2"]),
                          "parameters": {"weights": [[[1]], [[1]]]}}, "parameters.weights",
                         "a seed"),
    "same names": (sweep_spec(widths=[[2, 2, 1]], activation=["t^2", "t ^ 2"]), "sweep",
                   "distinct instance names"),
    "too long names": ({**sweep_spec(widths=[[2] * 30 + [1]], activation=["t^2"]),
                        "name": "n" * 40}, "sweep", "at most 64"),
    "too many instances": (sweep_spec(widths=[[2, 2, 1]], activation=["t^2"],
                                      seed=list(range(200)), range=list(range(1, 200))),
                           "sweep", "at most 10000 instances"),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(BAD_SWEEPS))
def test_a_bad_sweep_is_a_spec_error_naming_the_field(case):
    data, fld, expected = BAD_SWEEPS[case]
    with pytest.raises(SpecError) as e:
        parse_specs(data, "<t>")
    assert e.value.field == fld, str(e.value)
    assert expected in e.value.expected, str(e.value)


def test_parse_spec_refuses_a_sweep_and_names_the_function_that_expands_it():
    with pytest.raises(SpecError) as e:
        parse_spec(sweep_spec(widths=[[2, 2, 1]]), "<t>")
    assert e.value.field == "sweep" and "parse_specs" in e.value.expected


SWEEP_TOML = """name = "ew"
[network]
family = "mlp"
bias = false
[sweep]
widths = [[2, 2, 1], [3, 3, 1]]
activation = ["t^2", "t^3"]
[[certificate]]
kind = "rank"
"""


def test_certify_run_certifies_every_instance_and_check_verifies_the_sweep(tmp_path: Path):
    spec = tmp_path / "ew.toml"
    spec.write_text(SWEEP_TOML)
    out = tmp_path / "b"
    r = run_cli("run", str(spec), "--out", str(out), "--no-lean")
    assert r.returncode == 0, r.stderr
    m = json.loads((out / "manifest.json").read_text())
    names = ["ew-w2x2x1-t2", "ew-w2x2x1-t3", "ew-w3x3x1-t2", "ew-w3x3x1-t3"]
    assert [e["name"] for e in m["certificates"]] == names
    assert m["specs"] == [{"name": "ew", "file": "ew.toml", "bundled": "specs/ew.toml",
                           "instances": names}]  # fmt: skip
    assert (out / "specs" / "ew.toml").read_text() == SWEEP_TOML
    assert all(e["verdicts"]["coq"] in ("passed", "not-run") for e in m["certificates"])
    r = run_cli("check", str(out), "--no-lean", "--no-coq")
    assert r.returncode == 0, r.stdout + r.stderr


def test_a_bad_sweep_on_the_command_line_exits_2_naming_the_value_and_writes_nothing(
    tmp_path: Path,
):
    spec = tmp_path / "ew.toml"
    spec.write_text(SWEEP_TOML.replace("[3, 3, 1]", "[3, 0, 1]"))
    out = tmp_path / "b"
    r = run_cli("run", str(spec), "--out", str(out))
    assert r.returncode == 2
    assert "sweep.widths[1][1]" in r.stderr and "Traceback" not in r.stderr
    assert not out.exists()


def test_sweep_tables_give_the_union_of_their_products_and_errors_name_the_table():
    tables = [{"widths": [[3, 2, 1]], "activation": ["t^2"]},
              {"widths": [[2, 2, 1], [2, 3, 1]], "activation": ["t^3"]}]  # fmt: skip
    data = {**BASE, "sweep": tables}
    assert [s.name for s in parse_specs(data, "<t>")] == [
        "sw-w3x2x1-t2", "sw-w2x2x1-t3", "sw-w2x3x1-t3",
    ]  # fmt: skip
    data["sweep"][1]["widths"][0] = [2, 0, 1]
    with pytest.raises(SpecError) as e:
        parse_specs(data, "<t>")
    assert e.value.field == "sweep[1].widths[0][1]"
    data["sweep"][1] = {"widths": [[3, 2, 1]], "activation": ["t^2"]}
    with pytest.raises(SpecError) as e:
        parse_specs(data, "<t>")
    assert e.value.field == "sweep[1]" and "distinct instance names" in e.value.expected
