"""Caps on every spec field that drives an allocation, and more kinds of bad input: each gives
exit 2, names the file and the field, says what was expected, and writes nothing (no bundle,
no partial directory). Together with tests/test_spec_errors.py and tests/test_cli_gates.py
these are the bad-input kinds listed in docs/architecture.md ("Caps")."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_cli
from tests.test_spec_errors import GOOD


def rank_extra(line: str) -> str:
    return GOOD.replace('kind = "rank"', 'kind = "rank"\n' + line)


def resnet(width: int = 1, depth: int = 2, act: str = "t^2", cert: str = 'kind = "rank"') -> str:
    return (f'name = "r"\n[network]\nfamily = "resnet"\nwidth = {width}\ndepth = {depth}\n'
            f'activation = "{act}"\n[parameters]\nseed = 1\n[[certificate]]\n{cert}\n')  # fmt: skip


def relu(widths: str = "[1, 2, 1]", cert: str = 'kind = "rank"') -> str:
    return (f'name = "r"\n[network]\nfamily = "relu"\nwidths = {widths}\n[parameters]\n'
            f"seed = 1\n[[certificate]]\n{cert}\n")  # fmt: skip


def compind(body: str, kind: str = "compind") -> str:
    return f'name = "c"\n[[certificate]]\nkind = "{kind}"\n{body}\n'


def tanh(net: str, cert: str = 'kind = "orbit"') -> str:
    return (f'name = "t"\n[network]\nfamily = "tanh"\n{net}\n[parameters]\nseed = 1\n'
            f"[[certificate]]\n{cert}\n")  # fmt: skip


POLYS = "polynomials = [" + ", ".join(f'"{i}*x"' for i in range(1, 66)) + "]"
VARS = "variables = [" + ", ".join(f'"v{i}"' for i in range(17)) + ']\npolynomials = ["v1", "v2"]'
BIG = "9" * 1001
LONG = "+".join(["t"] * 2001)
CERTS = "".join(f'[[certificate]]\nkind = "rank"\nname = "n{i}"\n' for i in range(257))

# kind -> (spec text, field named, words of the expectation)
CASES = {
    "MLP over the parameter cap": (GOOD.replace("[2, 2, 1]", "[10000, 10000, 10000, 1]"),
                                   "network.widths", "at most 100000 parameters"),
    "ResNet over the parameter cap": (resnet(64, 32), "network.depth",
                                      "at most 100000 parameters"),
    "ReLU over the parameter cap": (relu("[1024, 1024, 1024]"), "network.widths",
                                    "at most 100000 parameters"),
    "numerator with too many digits": (
        GOOD.replace("seed = 0", f'weights = [[[1, 2], [1, "{BIG}"]], [[1, 2]]]'),
        "parameters.weights[0][1][1]", "at most 1000 digits"),
    "denominator with too many digits": (
        GOOD.replace("seed = 0", f'weights = [[[1, 2], [1, "1/{BIG}"]], [[1, 2]]]'),
        "parameters.weights[0][1][1]", "at most 1000 digits"),
    "activation text too long": (GOOD.replace('"t^2"', f'"{LONG}"'), "network.activation",
                                 "at most 4000 characters"),
    "activation power over the parser cap": (GOOD.replace('"t^2"', '"t^100000000"'),
                                             "network.activation", "larger than 1000"),
    "MLP widths list too long": (GOOD.replace("[2, 2, 1]", "[" + ", ".join(["1"] * 66) + "]"),
                                 "network.widths", "a list of 2 to 65"),
    "MLP width over the cap": (GOOD.replace("[2, 2, 1]", "[2, 10001, 1]"), "network.widths[1]",
                               "<= 10000"),
    "MLP max_grid over the cap": (rank_extra("max_grid = 100000000000"),
                                  "certificate[0].max_grid", "<= 1000000"),
    "MLP attempts over the cap": (rank_extra("attempts = 100000000"), "certificate[0].attempts",
                                  "<= 1000"),
    "ReLU attempts over the cap": (relu(cert='kind = "rank"\nattempts = 1001'),
                                   "certificate[0].attempts", "<= 1000"),
    "prime below 3": (rank_extra("prime = 2"), "certificate[0].prime", ">= 3"),
    "parameter range over the cap": (GOOD.replace("seed = 0", "seed = 0\nrange = 1000000000"),
                                     "parameters.range", "<= 1000000"),
    "too many certificates": (GOOD.replace('[[certificate]]\nkind = "rank"\n', CERTS),
                              "certificate", "at most 256"),
    "bad certificate name": (rank_extra('name = "a b"'), "certificate[0].name", "letters"),
    "spec name too long": (GOOD.replace('"ok"', '"' + "a" * 65 + '"'), "name", "max 64"),
    "ResNet width over the cap": (resnet(width=100000), "network.width", "<= 64"),
    "ResNet depth over the cap": (resnet(depth=100000), "network.depth", "<= 32"),
    "ResNet degree over the cap (orbit)": (resnet(2, 32, "t^1000", 'kind = "orbit"'),
                                           "network.activation", "at most 4096"),
    "ResNet degree over the cap (implicit)": (
        resnet(1, 32, "t^1000", 'kind = "implicit"\nequation = "c2"'),
        "network.activation", "at most 4096"),
    "ResNet degree over the cap (critical)": (resnet(1, 3, "t^20", 'kind = "critical"'),
                                              "network.activation", "at most 4096"),
    "implicit equation too long": (
        resnet(cert='kind = "implicit"\nequation = "' + "+".join(["c2"] * 2001) + '"'),
        "certificate[0].equation", "at most 4000 characters"),
    "implicit equation power over the cap": (
        resnet(cert='kind = "implicit"\nequation = "c3^100000"'),
        "certificate[0].equation", "larger than 1000"),
    "orbit field unknown": (resnet(cert='kind = "orbit"\nfield = "p-adic"'),
                            "certificate[0].field", "real"),
    "ReLU width over the cap": (relu("[1, 1025, 1]"), "network.widths[1]", "<= 1024"),
    "ReLU too many layers": (relu("[" + ", ".join(["1"] * 18) + "]"), "network.widths",
                             "a list of 2 to 17"),
    "ReLU batch too long": (relu(cert='kind = "rank"\nbatch = [' + ", ".join(["[1]"] * 4097)
                                 + "]"), "certificate[0].batch", "at most 4096 input points"),
    "ReLU batch point too long": (relu(cert='kind = "rank"\nbatch = [[' + ", ".join(["1"] * 1025)
                                       + "]]"), "certificate[0].batch[0]", "at most 1024"),
    "ReLU batch float": (relu(cert='kind = "rank"\nbatch = [[0.5]]'),
                         "certificate[0].batch[0][0]", "no floats"),
    "compind too many polynomials": (compind(POLYS + '\nactivation = "z^2 + z"'),
                                     "certificate[0].polynomials", "at most 64 polynomials"),
    "compind too many variables": (compind(VARS + '\nactivation = "z^2 + z"'),
                                   "certificate[0].variables", "at most 16 variables"),
    "compind polynomial too long": (
        compind('polynomials = ["' + "+".join(["x"] * 2001) + '", "x"]\nactivation = "z^2"'),
        "certificate[0].polynomials[0]", "at most 4000 characters"),
    "compind polynomial power over the cap": (
        compind('polynomials = ["x^100000", "x"]\nactivation = "z^2 + z"'),
        "certificate[0].polynomials[0]", "larger than 1000"),
    "compind activation too long": (
        compind('polynomials = ["x", "2*x"]\nactivation = "' + "+".join(["z^2"] * 1001) + '"'),
        "certificate[0].activation", "at most 4000 characters"),
    "compind generic_degree over the cap": (compind('polynomials = ["x", "2*x"]\n'
                                                    "generic_degree = 100000"),
                                            "certificate[0].generic_degree", "<= 64"),
    "compind max_degree over the cap": (compind('polynomials = ["x", "2*x"]\nsearch = true\n'
                                                "max_degree = 100000"),
                                        "certificate[0].max_degree", "<= 64"),
    "newman-slater power over the cap": (compind('polynomials = ["x", "2*x+1"]\npower = 1000',
                                                 "newman-slater"),
                                         "certificate[0].power", "<= 200"),
    "prop21 activation power over the cap": (compind('activation = "z^100000 + z"', "prop21"),
                                             "certificate[0].activation", "larger than 1000"),
    "tanh nodes over the cap": (tanh('activation = "tanh"\nwidths = [100, 400, 100]'),
                                "network.widths", "at most 512 nodes"),
    "tanh DAG inputs over the cap": (tanh('activation = "tanh"\ninputs = 100000\nhidden = 1\n'
                                          "outputs = 1\nedges = [[0, 1]]"),
                                     "network.inputs", "<= 512"),
    "tanh DAG repeated edge": (tanh('activation = "tanh"\ninputs = 1\nhidden = 2\noutputs = 1\n'
                                    "edges = [[0, 1], [0, 1]]"),
                               "network.edges[1]", "no repeated edge"),
    "tanh activation power over the cap": (tanh('activation = "tanh(x)^65"\nwidths = [1, 2, 1]'),
                                           "network.activation", "larger than 64"),
    "tanh activation nested too deep": (tanh('activation = "' + "tanh(" * 41 + "x" + ")" * 41
                                             + '"\nwidths = [1, 2, 1]'),
                                        "network.activation", "nested more than 40"),
    "tanh activation too long": (tanh('activation = "' + "+".join(["tanh(x)"] * 60)
                                      + '"\nwidths = [1, 2, 1]'),
                                 "network.activation", "longer than 400"),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(CASES))
def test_capped_or_malformed_field_is_exit_2_naming_the_field_and_nothing_written(
    case: str, tmp_path: Path
):
    text, fld, expected = CASES[case]
    spec = tmp_path / "bad.toml"
    spec.write_text(text)
    out = tmp_path / "out"
    r = run_cli("run", str(spec), "--out", str(out), "--no-lean", "--no-coq")
    assert r.returncode == 2, r.stdout + r.stderr[-2000:]
    assert "Traceback" not in r.stderr
    assert str(spec) in r.stderr
    assert f"field '{fld}'" in r.stderr, r.stderr[-600:]
    assert expected in r.stderr, r.stderr[-600:]
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.toml"]


@pytest.mark.parametrize("digits, fld", [(1001, "parameters.weights[0][0][0]"), (5000, "<file>")])
def test_json_spec_with_a_huge_integer_is_a_named_error(tmp_path: Path, digits: int, fld: str):
    spec = tmp_path / "s.json"
    spec.write_text(
        '{"name": "j", "network": {"family": "mlp", "widths": [1, 1, 1], "activation": "t^2"}, '
        f'"parameters": {{"weights": [[[{"9" * digits}]], [[1]]]}}}}'
    )
    r = run_cli("run", str(spec), "--out", str(tmp_path / "o"), "--no-lean", "--no-coq")
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr[-1500:]
    assert f"field '{fld}'" in r.stderr
    assert not (tmp_path / "o").exists()


def test_check_does_not_read_an_oversized_manifest_or_certificate(tmp_path: Path, monkeypatch):
    from certify import verify
    from certify.bundle import Options
    from certify.errors import BundleError
    from tests.test_bundle import SPEC

    spec = tmp_path / "s.toml"
    spec.write_text(SPEC)
    out = tmp_path / "o"
    assert run_cli("run", str(spec), "--out", str(out), "--no-coq", "--no-lean").returncode == 0
    opts = Options(run_coq=False, run_lean=False)
    monkeypatch.setattr(verify, "MAX_JSON_BYTES", 10)
    with pytest.raises(BundleError, match="larger than 10 bytes"):
        verify.check_bundle(out, opts)
    cert = out / "certificates" / "det.json"
    assert (out / "manifest.json").stat().st_size > cert.stat().st_size
    monkeypatch.setattr(verify, "MAX_JSON_BYTES", (out / "manifest.json").stat().st_size)
    cert.write_bytes(cert.read_bytes() + b" " * (out / "manifest.json").stat().st_size)
    problems, _ = verify.check_bundle(out, opts)
    assert any("certificates/det.json larger than" in p for p in problems), problems
