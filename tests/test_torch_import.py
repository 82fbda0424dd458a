"""certify from-torch: float weights to exact rationals, the spec it writes, bad models. The
conversion works on plain module descriptions and is tested without torch; the torch loader
itself is exercised only where torch is installed (the optional extra is not in CI)."""

from __future__ import annotations

import importlib.util
import tomllib
from copy import deepcopy
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from certify.checker import check_certificate, registry
from certify.errors import CertifyError
from certify.families import generate_certificate, generate_certificates
from certify.spec import load_spec, parse_spec
from certify.torch_import import MAX_PRECISION, activations, spec_text, to_rational
from tests.conftest import run_cli

HAS_TORCH = importlib.util.find_spec("torch") is not None
MODS = [
    ("Linear", [[0.5, -1.25], [0.1, 2.0], [-3.0, 0.75]], [0.25, -0.5, 1.0]),
    ("Tanh",),
    ("Linear", [[1.5, -0.5, 0.125]], [0.0]),
]


@pytest.mark.parametrize("act", sorted(activations()))
def test_every_activation_a_family_lists_becomes_a_spec_of_that_family_with_its_fields(act):
    """The families own the torch mapping (their spec module's TORCH_ACTIVATIONS): the spec
    from-torch writes parses as a network of that family, with the fields the family lists,
    and a `source` exactly where the family says it records one (TORCH_SOURCE)."""
    family, fields = activations()[act]
    assert family in registry.NETWORK_FAMILIES
    data = tomllib.loads(spec_text([MODS[0], (act,), MODS[2]], "t", "m.pt", None))
    records_source = registry.resolve(registry.family_path(family, "spec", "TORCH_SOURCE"))
    assert data["network"]["family"] == family and data["network"]["widths"] == [2, 3, 1]
    assert {k: data["network"][k] for k in fields} == fields
    assert ("source" in data["network"]) == records_source
    assert parse_spec(data, "<torch>").network.family == family
    assert [c["kind"] for c in data["certificate"]] == [registry.default_kind(family)]


def test_the_torch_mapping_is_read_from_the_families_not_written_in_from_torch():
    assert activations() == {
        "ReLU": ("relu", {}),
        "Tanh": ("tanh", {"activation": "tanh"}),
        "Sigmoid": ("tanh", {"activation": "logistic"}),
    }


@given(st.floats(allow_nan=False, allow_infinity=False, width=32))
def test_a_float_converts_to_its_exact_binary_value(x):
    assert to_rational(x, None) == Fraction(x) and float(to_rational(x, None)) == x


def test_decimal_precision_rounds_half_to_even_and_is_exact_otherwise():
    assert to_rational(0.1, None) == Fraction(3602879701896397, 2**55)
    assert to_rational(0.1, 3) == Fraction(1, 10)
    assert to_rational(2.675, 2) == Fraction(267, 100)  # 2.675 is 2.67499999... as a float
    assert to_rational(-0.125, 2) == Fraction(-12, 100)


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), "1"])
def test_a_non_finite_weight_is_refused(bad):
    with pytest.raises(CertifyError, match="not a finite number"):
        to_rational(bad, None)


def test_the_spec_records_the_conversion_and_certifies_the_exact_network():
    text = spec_text(MODS, "torch-m", "model.pt", None)
    spec = parse_spec(tomllib.loads(text), "<torch>")
    net = spec.network
    assert net.widths == (2, 3, 1) and net.activation == "tanh"
    assert [c.kind for c in spec.certificates] == ["orbit"]  # the tanh default is unchanged
    assert net.weights[2][0] == Fraction(1, 2) and net.weights[3][0] == Fraction(0.1)
    cert = generate_certificate(spec, spec.certificates[0])
    assert "(parameters from source `from-torch:model.pt:exact`)" in cert["claim"]["text"]
    assert "# Conversion: from-torch model.pt: float32/64 weights converted exactly" in text
    assert cert["result"]["orbit_size"] == 48 and check_certificate(cert) == []


def test_sigmoid_becomes_the_logistic_and_precision_is_stated():
    mods = [MODS[0], ("Sigmoid",), MODS[2]]
    text = spec_text(mods, "torch-s", "m.pt", 2)
    spec = parse_spec(tomllib.loads(text), "<torch>")
    assert spec.network.activation == "logistic"
    assert spec.network.weights[3][0] == Fraction(1, 10)
    assert spec.network.source == "from-torch:m.pt:rounded-2-places"
    assert "# Conversion: from-torch m.pt: weights rounded to 2 decimal places." in text


@pytest.mark.parametrize(
    "mods, why",
    [
        ([MODS[0]], "at least 3 modules"),
        ([MODS[0], ("softmax",), MODS[2]], "Linear, ReLU, Tanh or Sigmoid"),
        ([MODS[0], ("Tanh",), MODS[0], ("Sigmoid",), MODS[2]], "one activation"),
        ([MODS[0], ("Tanh",), ("Linear", [[1.0, 2.0]], [0.0])], "does not chain"),
    ],
)
def test_a_model_of_another_shape_is_refused_with_the_reason(mods, why):
    with pytest.raises(CertifyError, match=why):
        spec_text(mods, "t", "m.pt", None)


@pytest.mark.skipif(HAS_TORCH, reason="torch is installed")
def test_without_torch_the_command_names_the_optional_extra(tmp_path):
    (tmp_path / "m.pt").write_bytes(b"not a model")
    r = run_cli("from-torch", str(tmp_path / "m.pt"), "--out", str(tmp_path / "s.toml"))
    assert r.returncode == 1 and "nn-certify[torch]" in r.stderr
    assert not (tmp_path / "s.toml").exists()


@pytest.mark.skipif(not HAS_TORCH, reason="torch not installed (optional extra)")
def test_a_saved_torch_sequential_becomes_a_spec_that_certifies(tmp_path):  # pragma: no cover
    import torch

    model = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.Tanh(), torch.nn.Linear(3, 1))
    torch.save(model, tmp_path / "m.pt")
    r = run_cli("from-torch", str(tmp_path / "m.pt"), "--out", str(tmp_path / "s.toml"))
    assert r.returncode == 0, r.stderr
    spec = parse_spec(tomllib.loads((tmp_path / "s.toml").read_text()), "<t>")
    w = model[0].weight.detach().double().tolist()
    assert spec.network.weights[2][0] == Fraction(w[0][0])
    assert check_certificate(generate_certificate(spec, spec.certificates[0])) == []


# ---------------------------------------------------------------- review 6 (F8)
@pytest.mark.parametrize("x", [1.0, -3.5, 12345.678, 1e300, -1e-300, 0.1])
def test_the_largest_precision_rounds_weights_of_any_magnitude(x):
    # Decimal's default 28-digit context raised InvalidOperation for |x| >= 1 at 30 places
    q = to_rational(x, MAX_PRECISION)
    scaled = Fraction(x) * 10**MAX_PRECISION
    assert q * 10**MAX_PRECISION == round(scaled) and abs(q - Fraction(x)) <= Fraction(1, 10**30)


def test_the_pickle_risk_of_torch_load_is_documented():
    import certify.torch_import as T

    assert "arbitrary code" in run_cli("from-torch", "--help").stdout.replace("\n", " ")
    assert "ReLU" in run_cli("from-torch", "--help").stdout
    assert "trust" in (T.__doc__ or "") and "trusted" in (T.load_modules.__doc__ or "")


# ---------------------------------------------------------------- ReLU (issue 13, item 8)
RELU_121 = [
    ("Linear", [[0.75], [-1.5]], [0.5, 0.1]),
    ("ReLU",),
    ("Linear", [[1.25, -0.3]], [0.0]),
]
RELU_231 = [
    ("Linear", [[0.5, -1.25], [0.1, 2.0], [-3.0, 0.75]], [0.25, -0.5, 1.0]),
    ("ReLU",),
    ("Linear", [[1.5, -0.5, 0.125]], [0.2]),
]
finite = st.floats(allow_nan=False, allow_infinity=False)


def _theta_of(mods):
    """The floats of Linear/ReLU/.../Linear in the spec's order: per neuron, weights then bias."""
    out = []
    for m in mods[0::2]:
        for row, b in zip(m[1], m[2], strict=True):
            out += [*row, b]
    return out


def _relu_spec(mods, tmp_path, precision=None, source="model.pt"):
    path = tmp_path / "relu.toml"
    path.write_text(spec_text(mods, "torch-relu", source, precision))
    return load_spec(path)


def _checks(spec):
    certs = [c for req in spec.certificates for c in generate_certificates(spec, req)]
    assert certs and all(check_certificate(c) == [] for c in certs)
    return certs


@given(st.lists(finite, min_size=7, max_size=7))
def test_a_relu_spec_holds_the_exact_binary_values_of_the_floats(xs):
    w1, w2, b1, b2, v1, v2, c = xs
    mods = [("Linear", [[w1], [w2]], [b1, b2]), ("ReLU",), ("Linear", [[v1, v2]], [c])]
    spec = parse_spec(tomllib.loads(spec_text(mods, "t", "m.pt", None)), "<torch>")
    assert spec.network.family == "relu" and spec.network.widths == (1, 2, 1)
    assert spec.theta == tuple(Fraction(x) for x in _theta_of(mods))


def test_a_1_2_1_relu_net_becomes_a_spec_whose_rank_certificate_checks(tmp_path):
    spec = _relu_spec(RELU_121, tmp_path)
    assert spec.network.widths == (1, 2, 1)
    assert spec.theta == tuple(Fraction(x) for x in _theta_of(RELU_121))
    assert [c.kind for c in spec.certificates] == ["rank"]
    (cert,) = _checks(spec)
    assert cert["family"] == "relu" and cert["kind"] == "rank"
    assert cert["result"]["rank_lower"] == 5  # D - H = 7 - 2


def test_a_2_3_1_relu_net_becomes_a_spec_whose_rank_certificate_checks(tmp_path):
    spec = _relu_spec(RELU_231, tmp_path)
    assert spec.network.widths == (2, 3, 1)
    assert spec.theta[1] == Fraction(-1.25) and spec.theta[3] == Fraction(0.1)
    (cert,) = _checks(spec)
    assert cert["result"]["rank_lower"] == 10  # D - H = 13 - 3


def test_a_deeper_relu_net_with_several_relu_layers_certifies(tmp_path):
    mods = [RELU_121[0], ("ReLU",), ("Linear", [[1.0, -0.5], [0.25, 2.0]], [0.1, -0.2])]
    mods += [("ReLU",), RELU_121[2]]
    spec = _relu_spec(mods, tmp_path)
    assert spec.network.widths == (1, 2, 2, 1)
    _checks(spec)


def test_relu_precision_rounds_each_weight_and_the_comment_says_so(tmp_path):
    text = spec_text(RELU_231, "t", "m.pt", 1)
    assert "# Conversion: from-torch m.pt: weights rounded to 1 decimal places." in text
    spec = _relu_spec(RELU_231, tmp_path, precision=1)
    rounded = [round(Fraction(x) * 10) / Fraction(10) for x in _theta_of(RELU_231)]
    assert spec.theta == tuple(rounded) and spec.theta[1] == Fraction(-12, 10)  # half to even
    _checks(spec)


def test_the_relu_conversion_is_a_comment_and_the_network_table_has_no_source():
    text = spec_text(RELU_121, "t", "model.pt", None)
    assert text.startswith("# Generated by certify from-torch.")
    assert "# Conversion: from-torch model.pt: float32/64 weights converted exactly" in text
    data = tomllib.loads(text)
    assert data["network"] == {"family": "relu", "widths": [1, 2, 1]}
    assert set(data) == {"name", "network", "parameters", "certificate"}


def test_a_file_name_with_a_newline_cannot_add_fields_through_the_comment(tmp_path):
    spec = _relu_spec(RELU_121, tmp_path, source='m\n[other]\nseed = 1\n"\x7f.pt')
    text = (tmp_path / "relu.toml").read_text()
    assert spec.other is None and set(tomllib.loads(text)) == {
        "name", "network", "parameters", "certificate"
    }  # fmt: skip
    assert "\\u000a[other]" in text


@pytest.mark.parametrize("mods", [RELU_121, RELU_231, MODS])
def test_the_same_model_gives_a_byte_identical_spec(mods):
    copy = deepcopy(mods)  # an equal model, not the same objects
    assert spec_text(mods, "t", "m.pt", None) == spec_text(copy, "t", "m.pt", None)
    assert spec_text(mods, "t", "m.pt", 3) == spec_text(copy, "t", "m.pt", 3)


L0, L2 = RELU_231[0], RELU_231[2]


@pytest.mark.parametrize(
    "mods, why",
    [
        (
            [
                L0,
                ("ReLU",),
                ("Linear", [[1.0, 1.0, 1.0]], [0.0]),
                ("Tanh",),
                ("Linear", [[1.0]], [0.0]),
            ],
            r"module 3 \(Tanh\): mixed activations \(module 1 is ReLU\); expected ReLU",
        ),
        (
            [MODS[0], ("Tanh",), ("Linear", [[1.0, 1.0, 1.0]], [0.0]), ("ReLU",), MODS[2]],
            r"module 3 \(ReLU\): mixed activations \(module 1 is Tanh\); expected Tanh",
        ),
        (
            [L0, ("ReLU",), L2, ("ReLU",)],
            r"module 3 \(ReLU\): an activation after the last Linear; expected the Sequential "
            "to end with a Linear",
        ),
        (
            [L0, ("Linear", [[1.0, 2.0, 3.0]], [0.0]), L2],
            r"module 1 \(Linear\): two Linear layers in a row \(modules 0 and 1\); expected an "
            "activation",
        ),
        ([("ReLU",), L0, ("ReLU",), L2], r"module 0 \(ReLU\): expected a Linear first"),
        ([L0, ("ReLU",), ("ReLU",), L2], r"module 2 \(ReLU\): expected a Linear after"),
        ([L0, ("dropout",), L2], r"module 1 \('dropout'\): not supported; expected Linear, ReLU"),
        ([L0, "ReLU", L2], r"module 1 \(.ReLU.\): not supported"),
        (
            [L0, ("ReLU",), ("Linear", [[1.0, 2.0]], [0.0])],
            r"module 2 \(Linear\): weight row 0 has 2 entries, expected 3 \(the previous "
            r"Linear's outputs\)",
        ),
        (
            [
                ("Linear", [[1.0, 2.0], [3.0]], [0.0, 0.0]),
                ("ReLU",),
                ("Linear", [[1.0, 1.0]], [0.0]),
            ],
            r"module 0 \(Linear\): weight row 1 has 1 entries, expected 2",
        ),
        (
            [L0, ("ReLU",), ("Linear", [[1.0, 2.0, 3.0]], [0.0, 1.0])],
            r"module 2 \(Linear\): bias of 2 entries, expected 1 \(one per row\)",
        ),
        ([("Linear", [], []), ("ReLU",), L2], r"module 0 \(Linear\): expected a non-empty list"),
        ([], "an empty Sequential"),
    ],
)
def test_a_relu_model_of_another_shape_is_refused_naming_the_module(mods, why):
    with pytest.raises(CertifyError, match=why):
        spec_text(mods, "t", "m.pt", None)


@pytest.mark.parametrize(
    "mods, why",
    [
        (
            [("Linear", [[0.5, float("nan")], [1.0, 1.0]], [0.0, 0.0]), ("ReLU",), RELU_121[2]],
            r"module 0 \(Linear\): weight\[0\]\[1\] = nan: not a finite number",
        ),
        (
            [L0, ("ReLU",), ("Linear", [[1.0, 2.0, 3.0]], [float("-inf")])],
            r"module 2 \(Linear\): bias\[0\] = -inf: not a finite number",
        ),
        (
            [L0, ("ReLU",), ("Linear", [[1.0, "2", 3.0]], [0.0])],
            r"module 2 \(Linear\): weight\[0\]\[1\] = '2': not a finite number",
        ),
    ],
)
def test_a_non_finite_weight_of_a_relu_model_is_refused_naming_the_layer(mods, why):
    with pytest.raises(CertifyError, match=why):
        spec_text(mods, "t", "m.pt", None)


@pytest.mark.skipif(not HAS_TORCH, reason="torch not installed (optional extra)")
def test_a_saved_torch_relu_sequential_becomes_a_rank_spec_that_certifies(
    tmp_path,
):  # pragma: no cover
    import torch

    model = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.ReLU(), torch.nn.Linear(3, 1))
    torch.save(model, tmp_path / "m.pt")
    r = run_cli("from-torch", str(tmp_path / "m.pt"), "--out", str(tmp_path / "s.toml"))
    assert r.returncode == 0, r.stderr
    spec = load_spec(tmp_path / "s.toml")
    w = model[0].weight.detach().double().tolist()
    assert spec.network.family == "relu" and spec.theta[0] == Fraction(w[0][0])
    _checks(spec)
