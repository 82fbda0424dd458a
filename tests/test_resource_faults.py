"""Issue 22, item 5: resource faults on bad input are named errors, not tracebacks or
exhausted memory: a 5 000-digit TOML integer, a shortened theta, huge rationals, IndexError /
OverflowError / MemoryError in a checker, and hashing that streams instead of reading whole
files."""

from __future__ import annotations

import copy
import hashlib
from pathlib import Path

import pytest

from certify import verify
from certify.checker import check_certificate
from certify.families import generate_certificate
from certify.spec import parse_spec
from tests.conftest import make_cert, run_cli


def test_a_5000_digit_toml_integer_is_a_spec_error_with_exit_2(tmp_path: Path):
    spec = tmp_path / "big.toml"
    spec.write_text(
        'name = "a"\n[network]\nfamily = "mlp"\nwidths = [1, 1]\nactivation = "t^2"\n'
        f'[parameters]\nseed = {"9" * 5000}\n[[certificate]]\nkind = "rank"\n'
    )
    r = run_cli("run", str(spec), "--out", str(tmp_path / "o"), "--no-coq", "--no-lean")
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr and "at most 4300 digits" in r.stderr


def test_a_rational_of_5000_digits_is_refused_by_spec_and_checker():
    from certify.errors import SpecError

    with pytest.raises(SpecError, match="at most 1000 digits"):
        make_cert([1, 1], weights=[[["1" * 5000]]])
    c = make_cert([1, 1], weights=[[[1]]])
    c["instance"]["theta"][0] = "1" * 5000
    problems = check_certificate(c)
    assert problems and "at most 1000 digits" in problems[0]


def implicit_cert() -> dict:
    data = {
        "name": "fig1",
        "network": {"family": "resnet", "width": 1, "depth": 2, "activation": "t^2"},
        "parameters": {"weights": [[[1]], [[1]]], "biases": [[0], [0]]},
        "certificate": [
            {
                "kind": "implicit",
                "name": "fig1",
                "equation": "c3^3 - 4*c2*c3*c4 + 8*c4^2",
                "bias": False,
            }
        ],
    }
    spec = parse_spec(data, "<test>")
    c = generate_certificate(spec, spec.certificates[0])
    assert check_certificate(c) == []
    return c


def test_an_implicit_certificate_with_a_shortened_theta_is_a_named_error():
    c = implicit_cert()
    c["instance"]["theta"] = c["instance"]["theta"][:1]
    problems = check_certificate(c)
    assert problems and "instance.theta: expected" in problems[0], problems


@pytest.mark.parametrize("cut", [1, 2])
def test_a_rank_certificate_with_a_shortened_theta_is_a_named_error(cut):
    c = make_cert([2, 2, 1])
    c["instance"]["theta"] = c["instance"]["theta"][:-cut]
    problems = check_certificate(c)
    assert problems and "instance.theta: expected" in problems[0], problems


@pytest.mark.parametrize("exc", [IndexError, OverflowError, MemoryError])
def test_index_overflow_and_memory_errors_in_a_checker_are_reported_not_raised(exc, monkeypatch):
    from certify.checker.check import rank

    def boom(cert):
        raise exc("from bad input")

    monkeypatch.setattr(rank, "check", boom)
    problems = check_certificate(copy.deepcopy(make_cert([2, 1])))
    assert len(problems) == 1 and exc.__name__ in problems[0]


def test_bundle_hashing_streams_the_file(tmp_path: Path, monkeypatch):
    f = tmp_path / "big.bin"
    f.write_bytes(b"x" * (3 * verify.HASH_CHUNK + 5))
    expect = hashlib.sha256(f.read_bytes()).hexdigest()

    def no_whole_reads(self):
        raise AssertionError("read whole")

    monkeypatch.setattr(Path, "read_bytes", no_whole_reads)
    assert verify._sha(f) == expect


def test_a_file_of_another_size_is_not_read_to_compare_it(tmp_path: Path, monkeypatch):
    f = tmp_path / "report.md"
    f.write_bytes(b"y" * 10_000)
    monkeypatch.setattr(Path, "read_bytes", lambda self: pytest.fail("read"))
    assert verify._holds(f, "short") is False


def test_a_resnet_rank_spec_just_under_the_parameter_cap_is_refused_before_allocation():
    from certify.errors import SpecError

    net = {"family": "resnet", "width": 64, "depth": 12, "activation": "t^2", "outer": True}
    data = {"name": "big", "network": net, "parameters": {"seed": 0}}
    with pytest.raises(SpecError, match=r"fits in 4 GiB \(estimate 8 x D\^2 bytes for D = 99072"):
        parse_spec(data, "<test>")


def test_the_cli_names_the_memory_refusal_with_exit_2(tmp_path: Path):
    spec = tmp_path / "big.toml"
    spec.write_text(
        'name = "big"\n[network]\nfamily = "mlp"\nwidths = [300, 100, 1]\nactivation = "t^2"\n'
        '[[certificate]]\nkind = "rank"\n'
    )
    r = run_cli("run", str(spec), "--out", str(tmp_path / "o"), "--no-coq", "--no-lean")
    assert r.returncode == 2 and "rank computation fits in 4 GiB" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr


def test_a_4000_digit_integer_in_a_witness_is_a_named_error():
    c = make_cert([2, 2, 1])
    c["witness"]["lower"]["prime"] = 10**3999
    problems = check_certificate(c)
    assert problems and "at most 1000 digits" in problems[0], problems
