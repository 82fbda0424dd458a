"""The one registry of (family, kind): every line resolves, every certificate names its
family in the envelope, and the checker rejects an envelope whose family, kind or field set
is not the registry's."""

from __future__ import annotations

import copy
import inspect

import pytest

from certify.checker import check_certificate, registry
from certify.checker.ir import SCHEMA
from certify.cli import example_specs
from certify.families import generate_certificates
from certify.spec import load_specs


@pytest.fixture(scope="module")
def demo_certs() -> list[dict]:
    out = []
    for spec in (s for path in example_specs() for s in load_specs(path)):
        for req in spec.certificates:
            out += generate_certificates(spec, req)
    return out


@pytest.mark.parametrize("entry", registry.KINDS, ids=lambda k: f"{k.family}-{k.kind}")
def test_every_registry_line_names_a_generator_a_checker_and_a_renderer(entry):
    for path, params in ((entry.check_path, 1), (entry.generate_path, 2), (entry.render_path, 2)):
        fn = registry.resolve(path)
        assert callable(fn), path
        assert len(inspect.signature(fn).parameters) == params, path
    if entry.options:
        assert len(inspect.signature(registry.resolve(entry.options_path)).parameters) == 4


def test_a_kinds_own_fields_reach_the_request_options_through_its_registry_line():
    from certify.spec import parse_spec

    spec = parse_spec(
        {"name": "o", "network": {"family": "resnet", "width": 1, "depth": 2,
                                  "activation": "t^2"},
         "certificate": [{"kind": "orbit", "field": "complex"},
                         {"kind": "implicit", "equation": "c0", "bias": False}]},
        "<test>",
    )  # fmt: skip
    orbit, implicit = spec.certificates
    assert orbit.options == {"field": "complex"}
    assert implicit.options == {"equation": "c0", "bias": False}


def test_the_registry_has_one_line_per_family_and_kind():
    keys = [(k.family, k.kind) for k in registry.KINDS]
    assert len(keys) == len(set(keys))


def test_every_demo_certificate_names_its_family_and_every_registry_line_is_exercised(
    demo_certs,
):
    seen = set()
    for cert in demo_certs:
        assert cert["schema"] == SCHEMA
        assert registry.lookup(cert["family"], cert["kind"]) is not None
        net = cert["instance"].get("network")
        if net is not None:
            assert net["family"] == cert["family"]
        seen.add((cert["family"], cert["kind"]))
    assert seen == set(registry.BY_KEY)


def _tampers(cert: dict) -> list[tuple[str, dict]]:
    out = []
    other = next(f for f in registry.FAMILIES if f != cert["family"])
    for label, change in (
        ("family", lambda c: c.__setitem__("family", other)),
        ("family", lambda c: c.__setitem__("family", "cnn")),
        ("family", lambda c: c.pop("family")),
        ("kind", lambda c: c.__setitem__("kind", "rank" if c["kind"] != "rank" else "orbit")),
        ("certificate", lambda c: c.__setitem__("note", "accepted")),
        ("schema", lambda c: c.__setitem__("schema", "nn-certify/1")),
    ):
        c = copy.deepcopy(cert)
        change(c)
        out.append((label, c))
    return out


def test_the_checker_rejects_a_wrong_family_kind_or_field_set_naming_the_field(demo_certs):
    by_key = {}
    for cert in demo_certs:
        by_key.setdefault((cert["family"], cert["kind"]), cert)
    for cert in by_key.values():
        assert check_certificate(cert) == []
        for label, bad in _tampers(cert):
            if registry.lookup(bad.get("family"), bad.get("kind")) is not None and label in (
                "kind",
            ):
                # an existing (family, kind): rejected by that kind's checker instead
                assert check_certificate(bad), (cert["name"], label)
                continue
            problems = check_certificate(bad)
            assert problems, (cert["name"], label)
            assert any(label in p or "instance.network" in p for p in problems), problems


@pytest.mark.parametrize("entry", registry.KINDS, ids=lambda k: f"{k.family}-{k.kind}")
def test_every_registry_line_names_its_summary_and_cross_check_functions(entry):
    assert entry.summary, "every kind describes its result in one line"
    assert len(inspect.signature(registry.resolve(entry.summary_path)).parameters) == 1
    if entry.cross_check:
        assert len(inspect.signature(registry.resolve(entry.cross_check_path)).parameters) == 2


def test_every_demo_certificate_gets_its_kinds_summary_line(demo_certs):
    from certify.summary import summary_line

    for c in demo_certs:
        line = summary_line(c)
        assert isinstance(line, str) and line and "does not know" not in line, c["name"]


def test_a_kind_the_registry_does_not_know_gets_a_line_not_a_key_error():
    from certify.summary import summary_line

    line = summary_line({"family": "mlp", "kind": "no-such-kind", "result": {}})
    assert line == "mlp/no-such-kind: a kind this nn-certify does not know"


HUBS = (
    "summary.py",
    "checker/__init__.py",
    "families/__init__.py",
    "referee.py",
    "table.py",
    "dimension_figure.py",
    "spec.py",
    "bundle.py",
    "torch_import.py",
)


@pytest.mark.parametrize("hub", HUBS)
def test_a_hub_names_no_family_or_kind_it_reads_from_the_registry(hub):
    import ast
    from pathlib import Path

    tree = ast.parse((Path(__file__).resolve().parents[1] / "certify" / hub).read_text())
    docstrings = {
        id(n.body[0].value)
        for n in ast.walk(tree)
        if isinstance(n, ast.Module | ast.FunctionDef | ast.ClassDef)
        and n.body
        and isinstance(n.body[0], ast.Expr)
        and isinstance(n.body[0].value, ast.Constant)
    }
    names = {k.kind for k in registry.KINDS} | set(registry.FAMILIES)
    literal = {
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docstrings
    }
    assert not literal & names, f"{hub} names {sorted(literal & names)}"


@pytest.mark.parametrize("family", registry.NETWORK_FAMILIES)
def test_every_network_family_has_the_spec_interface_the_parser_calls(family):
    parse = registry.resolve(registry.family_path(family, "spec", "parse_network"))
    check = registry.resolve(registry.family_path(family, "spec", "check_requests"))
    assert list(inspect.signature(parse).parameters)[1:] == ["net", "src"]
    assert len(inspect.signature(check).parameters) == 6


@pytest.mark.parametrize("family", registry.FAMILIES)
def test_every_family_has_a_describe_module_for_the_hubs(family):
    entry = next(k for k in registry.KINDS if k.family == family)
    for what in ("architecture", "shape", "activation", "bias"):
        assert len(inspect.signature(registry.resolve(entry.describe_path(what))).parameters) == 1


def test_the_kinds_with_dimension_columns_are_the_rank_kinds(demo_certs):
    for c in demo_certs:
        entry = registry.lookup(c["family"], c["kind"])
        assert entry.dimensions == (c["kind"] == "rank"), c["name"]
        if entry.dimensions:
            assert {"expected_dim", "rank_lower", "rank_upper_at_point"} <= set(c["result"])
