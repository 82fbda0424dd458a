"""certify from-torch: float weights to exact rationals, the spec it writes, bad models. The
conversion works on plain module descriptions and is tested without torch; the torch loader
itself is exercised only where torch is installed (the optional extra is not in CI)."""

from __future__ import annotations

import importlib.util
import tomllib
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from certify.checker import check_certificate
from certify.errors import CertifyError
from certify.families import generate_certificate
from certify.spec import parse_spec
from certify.torch_import import MAX_PRECISION, spec_text, to_rational
from tests.conftest import run_cli

HAS_TORCH = importlib.util.find_spec("torch") is not None
MODS = [
    ("linear", [[0.5, -1.25], [0.1, 2.0], [-3.0, 0.75]], [0.25, -0.5, 1.0]),
    ("tanh",),
    ("linear", [[1.5, -0.5, 0.125]], [0.0]),
]


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
    assert net.weights[2][0] == Fraction(1, 2) and net.weights[3][0] == Fraction(0.1)
    cert = generate_certificate(spec, spec.certificates[0])
    assert "from-torch model.pt: float32/64 weights converted exactly" in cert["claim"]["text"]
    assert cert["result"]["orbit_size"] == 48 and check_certificate(cert) == []


def test_sigmoid_becomes_the_logistic_and_precision_is_stated():
    mods = [MODS[0], ("sigmoid",), MODS[2]]
    text = spec_text(mods, "torch-s", "m.pt", 2)
    spec = parse_spec(tomllib.loads(text), "<torch>")
    assert spec.network.activation == "logistic"
    assert spec.network.weights[3][0] == Fraction(1, 10)
    assert "rounded to 2 decimal places" in spec.network.source


@pytest.mark.parametrize(
    "mods, why",
    [
        ([MODS[0], MODS[2]], "at least 3 modules"),
        ([MODS[0], ("relu",), MODS[2]], "Tanh or Sigmoid"),
        ([MODS[0], ("tanh",), MODS[0], ("sigmoid",), MODS[2]], "one activation"),
        ([MODS[0], ("tanh",), ("linear", [[1.0, 2.0]], [0.0])], "does not chain"),
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
    assert "trust" in (T.__doc__ or "") and "trusted" in (T.load_modules.__doc__ or "")
