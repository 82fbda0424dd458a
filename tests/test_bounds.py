"""`certify bounds` with per-layer degrees (issue 13 item 6) and the field of the Prop. 2.1 claim.

Hand computations (math.md §1: Thm 2.3 k^2(m+2)-1, Thm 2.5 (k/2)(3km+4k-m), Thm 3.4 k^2(m+1),
Thm 3.5 (k/2)(3km+k-m+1), ceilings; m_1 = 1, m_(l+1) = r_l m_l):

Widths 2,3,3,1, --r 32,714 (hidden widths 3, 3):
  layer 1, m = 1, r = 32.  k = 3: 9*3-1 = 26, 1.5*(9+12-1) = 30, 9*2 = 18, 1.5*(9+3-1+1) = 18,
    all met.  k = 6: 36*3-1 = 107, 3*(18+24-1) = 123, 36*2 = 72, 3*(18+6-1+1) = 72, none met.
  layer 2, m = 32, r = 714.  k = 3: 9*34-1 = 305, 1.5*(288+12-32) = 402, 9*33 = 297,
    1.5*(288+3-32+1) = 390, all met.  k = 6: 36*34-1 = 1223, 3*(576+24-32) = 1704,
    36*33 = 1188, 3*(576+6-32+1) = 1653, none met.  -> exit 1 (Thm 3.5, k = 2 d_l missed).
Widths 1,2,2,1, --r 40,440 (hidden widths 2, 2):
  layer 1, m = 1, r = 40.  k = 2: 4*3-1 = 11, 1*(6+8-1) = 13, 4*2 = 8, 1*(6+2-1+1) = 8, all met.
    k = 4: 16*3-1 = 47, 2*(12+16-1) = 54, 16*2 = 32, 2*(12+4-1+1) = 32: 2.3/2.5 not met,
    3.4/3.5 met.
  layer 2, m = 40, r = 440.  k = 2: 4*42-1 = 167, 1*(240+8-40) = 208, 4*41 = 164,
    1*(240+2-40+1) = 203, all met.  k = 4: 16*42-1 = 671, 2*(480+16-40) = 912, 16*41 = 656,
    2*(480+4-40+1) = 890, none met -> exit 1.
  With --r 40,890 layer 2 meets Thms 2.3, 3.4 and (exactly) 3.5 but not 2.5 (912) -> exit 0.
"""

from __future__ import annotations

import pytest

from certify.bounds import layer_recursion, layer_table
from certify.checker import check_certificate
from certify.families import generate_certificates
from certify.spec import load_spec
from tests.conftest import run_cli


def _flat(rows):
    return [
        (row["layer"], row["m"], name, cond["k"], [(v, ok) for _, _, v, ok in cond["bounds"]])
        for row in rows
        for name, cond in row["conditions"].items()
    ]


def test_layer_table_for_2_3_3_1_with_degrees_32_714():
    rows = layer_table([2, 3, 3, 1], [32, 714])
    assert _flat(rows) == [
        (1, 1, "independence", 3, [(26, True), (30, True), (18, True), (18, True)]),
        (1, 1, "identifiability", 6, [(107, False), (123, False), (72, False), (72, False)]),
        (2, 32, "independence", 3, [(305, True), (402, True), (297, True), (390, True)]),
        (2, 32, "identifiability", 6, [(1223, False), (1704, False), (1188, False), (1653, False)]),
    ]  # fmt: skip
    assert [(r["thm35"], r["ok"]) for r in rows] == [(72, False), (1653, False)]


def test_layer_table_for_1_2_2_1_mixed_verdicts():
    flat = _flat(layer_table([1, 2, 2, 1], [40, 440]))
    assert flat == [
        (1, 1, "independence", 2, [(11, True), (13, True), (8, True), (8, True)]),
        (1, 1, "identifiability", 4, [(47, False), (54, False), (32, True), (32, True)]),
        (2, 40, "independence", 2, [(167, True), (208, True), (164, True), (203, True)]),
        (2, 40, "identifiability", 4, [(671, False), (912, False), (656, False), (890, False)]),
    ]  # fmt: skip
    rows = layer_table([1, 2, 2, 1], [40, 890])
    assert [ok for *_, ok in rows[1]["conditions"]["identifiability"]["bounds"]] == [
        True, False, True, True
    ]  # fmt: skip
    assert [r["ok"] for r in rows] == [True, True]


def test_single_degree_recursion_is_the_per_layer_table_with_equal_degrees():
    assert layer_recursion([2, 3, 3, 1], 8) == [
        {"layer": 1, "width": 3, "k": 6, "m": 1, "thm35": 72, "ok": False},
        {"layer": 2, "width": 3, "k": 6, "m": 8, "thm35": 3 * (144 + 6 - 8 + 1), "ok": False},
    ]
    with pytest.raises(ValueError, match="expected 2 degrees"):
        layer_table([2, 3, 3, 1], [8])


def test_cli_per_layer_output_and_exit_1_when_a_layer_misses_thm35():
    r = run_cli("bounds", "--k", "2", "--m", "1", "--widths", "2,3,3,1", "--r", "32,714")
    assert r.returncode == 1, r.stdout + r.stderr
    out = r.stdout
    assert "layer 1: width d = 3, m = 1, r = 32" in out
    assert "layer 2: width d = 3, m = 32, r = 714" in out
    assert "Thm 2.5  degree <= m                      r >= 402: met" in out
    assert "Thm 3.5  origin-passing, degree <= m      r >= 1653: NOT met" in out
    assert "-> layer 2: Thm 3.5, k = 6, m = 32: r >= 1653 NOT met" in out
    assert "NOT met at layer 1, 2" in out
    assert r.stderr == ""


def test_cli_exit_0_when_every_layer_meets_thm35_and_single_r_means_every_layer():
    r = run_cli("bounds", "--k", "2", "--m", "1", "--widths", "1,2,2,1", "--r", "40,890")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "met at every hidden layer" in r.stdout
    # one degree for all layers: 450 at layer 1 and layer 2 sees m = 450
    r = run_cli("bounds", "--k", "2", "--m", "1", "--widths", "1,2,2,1", "--r", "450")
    assert "layer 2: width d = 2, m = 450, r = 450" in r.stdout
    assert r.returncode == 1  # Thm 3.5, k = 4, m = 450: 2*(5400+4-450+1) = 9910 > 450


def test_cli_single_r_without_widths_marks_the_table():
    r = run_cli("bounds", "--k", "2", "--m", "1", "--r", "9")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()[1:5]
    assert [line.rsplit(" ", 2)[-2:] for line in lines] == [
        ["NOT", "met"], ["NOT", "met"], ["9", "met"], ["9", "met"]
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--widths", "2,3,3,1", "--r", "1,2,3"], "--r has 3 degrees but --widths 2,3,3,1 has 2"),
        (["--widths", "2,3,3,1", "--r", "5,"], "--r expects one positive integer"),
        (["--widths", "2,3,1", "--r", "x"], "--r expects one positive integer"),
        (["--widths", "2,3,1", "--r", "3.5"], "--r expects one positive integer"),
        (["--widths", "2,3,1", "--r=-3"], "--r expects one positive integer"),
        (["--widths", "2,3,3,1", "--r", "32,0"], "--r expects one positive integer"),
        (["--widths", "2,3,1", "--r", "0"], "--r expects one positive integer"),
        (["--widths", "2,3,1", "--r", "²"], "--r expects one positive integer"),
        (["--r", "32,714"], "--r 32,714 gives per-layer degrees: it needs --widths"),
        (["--widths", "2,3,1"], "--widths needs --r"),
        (["--widths", "2,a,1", "--r", "3"], "--widths expects integers"),
        (["--widths", "2,1", "--r", "3"], "--widths needs >= 3 positive widths"),
        (["--widths", "2,0,1", "--r", "3"], "--widths needs >= 3 positive widths"),
    ],
)
def test_cli_bad_input_names_the_flag_exit_2_no_traceback(args, expected):
    r = run_cli("bounds", "--k", "2", "--m", "1", *args)
    assert r.returncode == 2, r.stdout + r.stderr
    assert expected in r.stderr
    assert r.stderr.startswith("certify: error: ")
    assert "Traceback" not in r.stderr
    assert r.stdout == ""


def test_help_documents_the_bounds_exit_codes():
    r = run_cli("bounds", "--help")
    assert r.returncode == 0
    assert "exit codes of certify bounds" in r.stdout and "32,714" in r.stdout


def test_prop21_claim_names_the_field_and_the_checker_rebuilds_it():
    from certify.cli import example_specs

    path = next(p for p in example_specs() if p.name == "prop21-z3-z-1.toml")
    spec = load_spec(path)
    certs = [c for req in spec.certificates for c in generate_certificates(spec, req)]
    assert len(certs) == 1
    cert = certs[0]
    text = cert["claim"]["text"]
    want = "independent over Q for all distinct nonconstant polynomials p, q in Q[x_1, ..., x_n]"
    assert want in text
    assert "Field: Q, the field of sigma's coefficients, as checked" in text
    assert check_certificate(cert) == []
    # the checker rebuilds the claim: a claim without the field is rejected
    cert["claim"]["text"] = text.replace(" over Q", "")
    assert check_certificate(cert) != []
