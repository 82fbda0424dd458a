"""Bad specs give a clear error naming the file and the field, exit code 2, and no bundle."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from certify.algebra.poly import parse_univariate
from certify.errors import PolynomialSyntaxError
from tests.conftest import run_cli, small_rank_spec

GOOD = small_rank_spec("ok")

BAD_SPECS = {
    "toml syntax": ("name = ", "<file>", "valid TOML"),
    "missing name": (GOOD.replace('name = "ok"\n', ""), "name", "missing"),
    "bad name": (GOOD.replace('"ok"', '"a b/c"'), "name", "letters"),
    "unknown family": (GOOD.replace('"mlp"', '"cnn"'), "network.family", "one of"),
    "widths too short": (GOOD.replace("[2, 2, 1]", "[2]"), "network.widths", "list of 2"),
    "zero width": (GOOD.replace("[2, 2, 1]", "[2, 0, 1]"), "network.widths[1]", ">= 1"),
    "non-integer width": (GOOD.replace("[2, 2, 1]", "[2, 2.5, 1]"), "network.widths[1]",
                          "an integer"),
    "unparsable activation": (GOOD.replace('"t^2"', '"t^^2"'), "network.activation",
                              "polynomial in t"),
    "eval attempt": (GOOD.replace('"t^2"', '"__import__(1)"'), "network.activation",
                     "unknown name"),
    "constant activation": (GOOD.replace('"t^2"', '"3"'), "network.activation", "nonconstant"),
    "activation count": (GOOD.replace('"t^2"', '["t^2", "t^3"]'), "network.activation",
                         "one activation per hidden layer"),
    "bias not bool": (GOOD.replace("bias = false", 'bias = "yes"'), "network.bias", "true or"),
    "wrong matrix shape": (GOOD.replace("seed = 0", "weights = [[[1, 2]], [[1, 2]]]"),
                           "parameters.weights[0]", "2 x 2"),
    "float weight": (GOOD.replace("seed = 0", "weights = [[[1, 2], [1, 0.5]], [[1, 2]]]"),
                     "parameters.weights[0][1][1]", "no floats"),
    "zero denominator": (GOOD.replace("seed = 0", 'weights = [[[1, 2], [1, "1/0"]], [[1, 2]]]'),
                         "parameters.weights[0][1][1]", "nonzero denominator"),
    "unknown kind": (GOOD.replace('kind = "rank"', 'kind = "magic"'), "certificate[0].kind",
                     "one of"),
    "composite prime": (GOOD.replace('kind = "rank"', 'kind = "rank"\nprime = 91'),
                        "certificate[0].prime", "a prime"),
    "prime too large": (GOOD.replace('kind = "rank"', 'kind = "rank"\nprime = 4294967311'),
                        "certificate[0].prime", "<="),
    "unknown field": (GOOD + "colour = 1\n", "certificate[0].colour", "one of"),
    "negative seed": (GOOD.replace("seed = 0", "seed = -1"), "parameters.seed", ">= 0"),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(BAD_SPECS))
def test_bad_spec_fails_with_exit_2_naming_file_and_field_and_writes_no_bundle(
    case: str, tmp_path: Path
):
    text, fld, expected = BAD_SPECS[case]
    spec = tmp_path / "bad.toml"
    spec.write_text(text)
    out = tmp_path / "out"
    r = run_cli("run", str(spec), "--out", str(out), "--no-lean")
    assert r.returncode == 2, r.stdout + r.stderr
    assert str(spec) in r.stderr
    assert f"'{fld}'" in r.stderr
    assert expected in r.stderr
    assert not out.exists()
    assert not list(tmp_path.glob(".out.partial-*"))


def test_json_specs_are_accepted_and_json_errors_are_named(tmp_path: Path):
    good = {
        "name": "j",
        "network": {"family": "mlp", "widths": [1, 1, 1], "activation": "t^2"},
        "certificate": [{"kind": "rank"}],
    }
    spec = tmp_path / "s.json"
    spec.write_text(json.dumps(good))
    r = run_cli("run", str(spec), "--out", str(tmp_path / "o"), "--no-lean", "--no-coq")
    assert r.returncode == 0, r.stderr
    spec.write_text("{not json")
    r = run_cli("run", str(spec), "--out", str(tmp_path / "o2"))
    assert r.returncode == 2 and "valid JSON" in r.stderr


def test_missing_spec_file_is_a_clear_error(tmp_path: Path):
    r = run_cli("run", str(tmp_path / "nope.toml"), "--out", str(tmp_path / "o"))
    assert r.returncode == 2 and "readable spec file" in r.stderr


def test_output_directory_that_is_not_a_bundle_is_not_overwritten(tmp_path: Path):
    spec = tmp_path / "s.toml"
    spec.write_text(GOOD)
    out = tmp_path / "precious"
    out.mkdir()
    (out / "thesis.tex").write_text("keep me")
    r = run_cli("run", str(spec), "--out", str(out), "--no-lean", "--no-coq")
    assert r.returncode == 2 and "not an unchanged nn-certify bundle" in r.stderr
    assert (out / "thesis.tex").read_text() == "keep me"


@pytest.mark.parametrize(
    "text", ["", "t^", "2**t", "t/(t+1)", "1.2.3", "t^-1", "t t", "(t", "t)", "lambda"]
)
def test_polynomial_parser_rejects_malformed_input(text: str):
    with pytest.raises(PolynomialSyntaxError):
        parse_univariate(text)


@pytest.mark.parametrize(
    "text, coeffs",
    [
        ("t^2", [0, 0, 1]),
        ("(t-1)^4 + (t-1)^2", [2, -6, 7, -4, 1]),
        ("3*t**3 - t/2 + 1/3", ["1/3", "-1/2", 0, 3]),
        ("-t + 0.5", ["1/2", -1]),
        ("2*(t+1)*(t-1)", [-2, 0, 2]),
    ],
)
def test_polynomial_parser_reads_rational_polynomials_exactly(text, coeffs):
    from fractions import Fraction

    assert parse_univariate(text) == [Fraction(c) for c in coeffs]


def test_a_relu_spec_may_ask_for_more_theta_attempts_than_the_search_default():
    """The cap on `attempts` (1000) lies above the ReLU search's default of 128, so a user can
    widen the search as well as narrow it."""
    from certify.spec import parse_spec

    spec = parse_spec(
        {
            "name": "r",
            "network": {"family": "relu", "widths": [1, 2, 1]},
            "parameters": {"seed": 1},
            "certificate": [{"kind": "rank", "attempts": 500}],
        }
    )
    assert spec.certificates[0].attempts == 500
    assert spec.certificates[0].attempts_given


# ---------------------------------------------- which kinds a network's family may ask for
# One small network per family with a network (the registry's NETWORK_FAMILIES), and a
# minimal [[certificate]] table per kind; the rule: a kind of the network's family, or a
# kind about no network (an activation or polynomials), which goes with any network.
NETWORKS = {
    "mlp": {"family": "mlp", "widths": [1, 2, 1], "activation": "t^2"},
    "resnet": {"family": "resnet", "width": 1, "depth": 1, "activation": "t^2 + t"},
    "relu": {"family": "relu", "widths": [1, 2, 1]},
    "tanh": {"family": "tanh", "activation": "tanh", "widths": [1, 2, 1]},
}
TABLES = {
    "affsym": {"activation": "tanh"},
    "compind": {"polynomials": ["x", "x^2"], "search": True},
    "prop21": {"activation": "z^3 + z + 1"},
    "newman-slater": {"variables": ["x", "y"], "polynomials": ["x + y", "x - y"], "power": 2},
    "implicit": {"equation": "c0"},
}
# what a kind needs beyond its table, per family (relu equiv: the second parameter vector;
# tanh equiv: the second network's weights and biases; mlp equiv: the second point's weights)
EXTRA = {
    ("relu", "equiv"): ({"other": {"seed": 1}}, {}),
    ("tanh", "equiv"): ({}, {"weights": [[[1], [2]], [[1, 2]]], "biases": [[0, 1], [0]]}),
    ("mlp", "equiv"): ({}, {"weights": [[[1], [2]], [[1, 2]]]}),
}


def _kind_cases():
    from certify.checker import registry

    assert set(NETWORKS) == set(registry.NETWORK_FAMILIES)
    for family in registry.NETWORK_FAMILIES:
        for kind in dict.fromkeys(k.kind for k in registry.KINDS):
            yield family, kind


@pytest.mark.parametrize(("family", "kind"), list(_kind_cases()))
def test_a_network_asks_for_its_familys_kinds_and_kinds_about_no_network(family, kind):
    from certify.checker import registry
    from certify.errors import SpecError
    from certify.spec import parse_spec

    top, table = EXTRA.get((family, kind), ({}, {}))
    data = {"name": "k", "network": NETWORKS[family], **top,
            "certificate": [{"kind": kind, **TABLES.get(kind, {}), **table}]}  # fmt: skip
    allowed = registry.lookup(family, kind) is not None or registry.network_free(kind)
    if allowed:
        spec = parse_spec(data, "<t>")
        assert [r.kind for r in spec.certificates] == [kind]
    else:
        with pytest.raises(SpecError) as e:
            parse_spec(data, "<t>")
        assert e.value.field == "network.family"
        assert f"family {family} has " in str(e.value)
        for other in registry.NETWORK_FAMILIES:
            if registry.lookup(other, kind):
                assert other in str(e.value)


@pytest.mark.parametrize("kind", ["rank", "orbit", "equiv", "critical"])
def test_a_kind_about_a_network_without_a_network_table_names_the_table(kind):
    from certify.errors import SpecError
    from certify.spec import parse_spec

    with pytest.raises(SpecError) as e:
        parse_spec({"name": "k", "certificate": [{"kind": kind}]}, "<t>")
    assert e.value.field == "network" and f"certificate kind {kind} needs one" in str(e.value)


@pytest.mark.parametrize("family", ["mlp", "resnet", "tanh", None])
def test_an_other_table_is_refused_unless_the_family_reads_it(family):
    from certify.errors import SpecError
    from certify.spec import parse_spec

    data = {"name": "k", "other": {"seed": 1}, "certificate": [{"kind": "affsym",
            "activation": "tanh"}]}  # fmt: skip
    if family is not None:
        data["network"] = NETWORKS[family]
    with pytest.raises(SpecError) as e:
        parse_spec(data, "<t>")
    assert e.value.field == "other" and "family relu" in str(e.value)


def test_a_field_of_another_familys_kind_names_that_family():
    from certify.errors import SpecError
    from certify.spec import parse_spec

    data = {"name": "k", "network": NETWORKS["mlp"], "certificate": [{"kind": "rank",
            "batch": [[1]]}]}  # fmt: skip
    with pytest.raises(SpecError) as e:
        parse_spec(data, "<t>")
    assert e.value.field == "network.family" and "relu" in str(e.value) and "batch" in str(e.value)
