"""Every rank certificate's Coq file ends with what the lower bound means (issue 15): a theorem
`r <= \\rank` of the Jacobian over Q, the Jacobian defined in NNCert/meaning/RankMeaning.v by
derivatives
of the network evaluated over {poly rat}. coqc derives it from the kernel's own check
(rank_lower_check) by the library theorems of NNCert/meaning/RankSound.v, assuming nothing but the
specification axioms of Coq's primitive integers; a tampered witness fails that check, and a
composite modulus fails p_prime."""

from __future__ import annotations

import copy
import re
import subprocess
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from certify.bundle import render_certificate
from certify.families import generate_certificate, generate_certificates
from certify.provers import coq as coqp
from certify.provers import coq_audit
from certify.spec import parse_spec
from tests.conftest import make_cert

CLOSED = "Closed under the global context"
FIXTURE = HealthCheck.function_scoped_fixture
EXAMPLES = Path(__file__).resolve().parents[1] / "certify" / "examples"
# The statement each family's file ends with; R is the certified lower bound.
STATEMENTS = {
    "mlp": r"Theorem rank_lower : \(R <= \\rank \(mlp_jacobian inst \(lw_samples lower\)\)\)%N\.",
    "resnet": r"Theorem rank_lower :\s+\(R <= \\rank "
    r"\(resnet_jacobian inst \(lw_samples lower\)\)\)%N\.",
    "relu": r"Theorem rank_lower :\s+relu_batch_generic inst \(rl_batch lower\) /\\\s+"
    r"\(R <= \\rank \(relu_jacobian inst \(rl_batch lower\)\)\)%N\.",
}


def example_cert(name: str) -> dict[str, Any]:
    spec = parse_spec(tomllib.loads((EXAMPLES / f"{name}.toml").read_text()), name)
    return generate_certificate(spec, spec.certificates[0])


def family(cert: dict[str, Any]) -> str:
    return cert["instance"]["network"]["family"]


def coqc(proj: Path, name: str, text: str) -> subprocess.CompletedProcess[str]:
    (proj / "Certificates" / f"{name}.v").write_text(text)
    return subprocess.run(
        ["coqc", "-q", "-R", "NNCert", "NNCert", "-R", "Certificates", "Certificates",
         f"Certificates/{name}.v"],
        cwd=proj, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip


def audited(proj: Path, name: str, cert: dict[str, Any], text: str) -> coqp.Verdict:
    """coqc the certificate text as module `name`, then certify's audit (coq_audit's driver
    and awk program) of the theorems it marks audited and of its meaning theorems that it
    contains (a text cut before the upper bound has no rank_upper)."""
    rel = f"Certificates/{name}.v"
    (proj / rel).write_text(text)
    thms = [t for t in coq_audit.theorems_of(cert, name, text) if f"audited: {t.name} " in text]
    return coqp.check_file(proj, rel, 600, theorems=thms)


def only_primitives(v: coqp.Verdict) -> bool:
    """The audit found nothing but primitive integers and their specs."""
    return all(coqp.allowed_assumption(n) for n in v.assumptions)


def upto_lower_meaning(text: str) -> str:
    """The file up to the lower bound's theorem (the upper bound's parts left out)."""
    return text.split("\n(* What the upper bound means")[0]


@pytest.fixture(scope="module")
def certs() -> dict[str, dict[str, Any]]:
    return {
        "mlp": example_cert("deep-2-3-2-1"),
        "mlp-rational": example_cert("cubic-3-2-1-bias"),
        "resnet": example_cert("resnet-2-2-cubic"),
        "relu": example_cert("relu-2-3-1"),
    }


@pytest.mark.parametrize("key", ["mlp", "mlp-rational", "resnet", "relu"])
def test_each_family_s_certificate_ends_with_the_mathematical_theorem_closed(key, certs, coq):
    cert = certs[key]
    text = render_certificate(cert).coq_text
    r = cert["witness"]["lower"]["rank"]
    stmt = STATEMENTS[family(cert)].replace("R", str(r), 1)
    assert re.search(stmt, text), stmt
    ends = ("(* audited: rank_lower *)", "(* audited: rank_upper *)",
            "(* audited: rank_lower_generic *)",  # MLP, ResNet: the generic step (GenericRank.v)
            "(* audited: differential_rank_lower *)",  # ... and the differential (Differential.v)
            "(* audited: differential_rank_lower_generic *)",  # ... along every line
            # an MLP with a functional dimension: its theorems, derived from those two
            "(* audited: functional_dimension_le_rank *)",
            "(* audited: functional_dimension_ge_rank_upper *)")  # fmt: skip
    assert text.rstrip().endswith(ends)
    assert "rank_lower_check p_prime" in text  # derived from the kernel's own check
    if family(cert) in ("mlp", "resnet"):  # and the generic step, from the same check
        assert f"{family(cert)}_rank_lower_on_lines inst lower {r}%nat rank_lower_check" in text
        assert f"{family(cert)}_differential_rank_lower inst lower {r}%nat rank_lower_check" in text
    v = audited(coq.proj, f"Meaning_{key.replace('-', '_')}", cert, text)
    assert v.status == coqp.PASSED, v.message
    assert only_primitives(v)


def test_the_library_theorems_assume_only_the_specs_of_primitive_integers(coq):
    sound = ["mlp_rank_lower_sound", "resnet_rank_lower_sound", "relu_rank_lower_sound"]
    algebra = ["mlp_backprop", "resnet_backprop", "relu_backprop", "net_row_rel"]
    text = "From NNCert Require Import Backprop BackpropResNet ReverseModeRel ElimSound "
    text += "RankSound.\n"
    text += "".join(f"Print Assumptions {n}.\n" for n in sound + algebra)
    out = coqc(coq.proj, "MeaningLibrary", text)
    assert out.returncode == 0, out.stderr
    answers = re.split(r"(?m)^(?=Axioms:|Closed under the global context)", out.stdout)[1:]
    assert len(answers) == len(sound + algebra)
    for name, answer in zip(sound, answers, strict=False):
        names = coqp.parse_assumptions(answer)
        assert names and all(coqp.allowed_assumption(n) for n in names), (name, answer)
        assert any(n.startswith("Uint63.") for n in names), (name, answer)
    # that reverse mode computes derivatives is pure algebra: no axiom at all
    assert all(a.strip() == CLOSED for a in answers[len(sound) :]), answers


def test_the_uint63_specs_are_exactly_the_axioms_of_coq_s_uint63(coq):
    where = subprocess.run(["coqc", "-where"], capture_output=True, text=True, check=True)
    src = Path(where.stdout.strip()) / "theories" / "Numbers" / "Cyclic" / "Int63" / "Uint63.v"
    names = re.findall(r"(?m)^Axiom\s+(\w+)", src.read_text())
    assert {"Uint63." + n for n in names} == coqp.UINT63_SPECS


def _duplicate_column(c: dict) -> None:
    cols = c["witness"]["lower"]["cols"]
    cols[1] = cols[0]


def _duplicate_row_label(c: dict) -> None:
    rows = c["witness"]["lower"]["rows"]
    rows[1] = list(rows[0])


def _claim_higher_rank(c: dict) -> None:
    c["witness"]["lower"]["rank"] += 1
    c["result"]["rank_lower"] += 1


def _column_out_of_range(c: dict) -> None:
    c["witness"]["lower"]["cols"][0] = c["result"]["params"]


HONEST: dict[str, bool] = {}
TAMPERS: dict[str, Callable[[dict], None]] = {
    "duplicated column": _duplicate_column,
    "duplicated row label": _duplicate_row_label,
    "claimed rank": _claim_higher_rank,
    "column out of range": _column_out_of_range,
}


@settings(
    max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(key=st.sampled_from(["mlp", "resnet", "relu"]), tamper=st.sampled_from(sorted(TAMPERS)))
def test_a_tampered_witness_fails_the_check_the_theorem_is_derived_from(key, tamper, certs, coq):
    cert = certs[key]
    name = f"MeaningT_{key}_{re.sub(r'[^a-z]', '_', tamper)}"
    if key not in HONEST:  # the same file untampered passes: the test can fail
        ok = coqc(coq.proj, name + "_ok", upto_lower_meaning(render_certificate(cert).coq_text))
        HONEST[key] = ok.returncode == 0
    assert HONEST[key]
    bad = copy.deepcopy(cert)
    TAMPERS[tamper](bad)
    out = coqc(coq.proj, name, upto_lower_meaning(render_certificate(bad).coq_text))
    assert out.returncode != 0
    assert re.search(r"check_\w*rank_lower\w* inst lower \d+%?\w* = true", out.stdout + out.stderr)


def test_a_composite_modulus_passes_the_kernel_check_but_not_p_prime(certs, coq):
    cert = copy.deepcopy(certs["mlp"])  # integer theta and activations: every inverse is 1
    lower = cert["witness"]["lower"]
    assert set(lower["theta_inv"]) == {1} and {v for a in lower["acts_inv"] for v in a} == {1}
    lower["prime"] = 1000003 * 2003  # below 2^31, odd, no small factor
    out = coqc(coq.proj, "MeaningComposite", upto_lower_meaning(render_certificate(cert).coq_text))
    assert out.returncode != 0
    err = out.stdout + out.stderr
    error = err.split("Error")[-1]
    assert "prime_ok (lw_p lower) = true" in err and "rank_lower_check" not in error


@settings(max_examples=1, deadline=None, suppress_health_check=[FIXTURE])
@given(
    ns=st.lists(
        st.one_of(
            st.integers(-5, 2**31 + 5),
            st.integers(0, 46340).map(lambda k: k * k),  # squares, the edge of trial division
            st.sampled_from([561, 1105, 1729, 2465, 2821, 6601, 8911, 2147483647, 2147483646]),
        ),
        min_size=40,
        max_size=40,
    )
)
def test_prime_ok_agrees_with_sympy_on_many_integers(ns, coq):
    import sympy

    zs = "; ".join(f"({n})%Z" for n in ns)
    want = "; ".join("true" if sympy.isprime(n) else "false" for n in ns)
    text = (
        "From Coq Require Import ZArith List.\nImport ListNotations.\n"
        "From NNCert Require Import ElimSound.\n"
        f"Lemma agree : List.map prime_ok [{zs}] = [{want}].\n"
        "Proof. vm_cast_no_check (eq_refl true). Qed.\n"
    ).replace("vm_cast_no_check (eq_refl true)", "vm_compute; reflexivity")
    out = coqc(coq.proj, "PrimeOk", text)
    assert out.returncode == 0, out.stdout + out.stderr


@settings(
    max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    widths=st.sampled_from([[2, 2, 1], [3, 2, 1], [2, 3, 1], [1, 2, 2]]),
    activation=st.sampled_from(["t^2", "t^3 + t", "t^3 - t^2/2 + 2*t + 1"]),
    bias=st.booleans(),
    seed=st.integers(0, 50),
)
def test_random_mlp_certificates_prove_the_mathematical_theorem(
    widths, activation, bias, seed, coq
):
    cert = make_cert(widths, activation, bias, seed)
    text = render_certificate(cert).coq_text
    assert "Theorem rank_lower" in text
    v = audited(coq.proj, "MeaningRandom", cert, text)
    assert v.status == coqp.PASSED, v.message
    assert only_primitives(v)


def test_a_large_certificate_gets_the_theorem_too(coq):
    # 122 parameters, rank 122: the old second check was capped at 3 r^2 n + 2 r^3 <= 10^5
    cert = make_cert([3, 8, 8, 2], "t^3 + t", True, 3)
    assert cert["witness"]["lower"]["rank"] >= 100
    text = upto_lower_meaning(render_certificate(cert).coq_text)
    assert "Theorem rank_lower" in text
    v = audited(coq.proj, "MeaningLarge", cert, text)
    assert v.status == coqp.PASSED, v.message
    assert only_primitives(v)


UPPER_STATEMENTS = {
    "mlp": r"Theorem rank_upper :\s+\(\\rank \(mlp_jacobian inst\s+\(lattice \(first_width "
    r"\(widths inst\)\) \(degree_bound \(acts inst\)\)\)\) <= U\)%N\.",
    "resnet": r"Theorem rank_upper :\s+\(\\rank \(resnet_jacobian inst\s+\(lattice "
    r"\(rn_width inst\) \(degree_bound \(rn_acts inst\)\)\)\) <= U\)%N\.",
    "relu": r"Theorem rank_upper : \(\\rank \(relu_jacobian inst \(rl_batch lower\)\) <= U\)%N\.",
}


@pytest.fixture(scope="module")
def upper_certs() -> dict[str, dict[str, Any]]:
    resnet = parse_spec(
        tomllib.loads((EXAMPLES / "resnet-critical-dead-layer.toml").read_text()), "dead"
    )
    at = next(
        c
        for req in resnet.certificates
        for c in generate_certificates(resnet, req)
        if c["name"].endswith("-at")
    )
    return {"mlp": example_cert("deep-2-3-2-1"), "resnet": at, "relu": example_cert("relu-2-3-1")}


@pytest.mark.parametrize("key", ["mlp", "resnet", "relu"])
def test_an_upper_bound_ends_with_its_theorem_and_a_bad_tangent_fails_its_check(
    key, upper_certs, coq
):
    cert = upper_certs[key]
    upper = cert["witness"]["upper"]
    text = render_certificate(cert).coq_text
    stmt = UPPER_STATEMENTS[key].replace("U", str(upper["bound"]), 1)
    assert re.search(stmt, text), stmt
    assert re.search(r"rank_upper_check\s+upper_p_prime\)", text)
    assert text.rstrip().endswith("(* audited: rank_upper *)")
    v = audited(coq.proj, f"MeaningUpper_{key}", cert, text)
    assert v.status == coqp.PASSED, v.message
    assert only_primitives(v)
    bad = copy.deepcopy(cert)
    t = bad["witness"]["upper"]["tangents"][0]
    j = next(i for i, v in enumerate(t) if v != 0)
    t[j] += 1
    out = coqc(coq.proj, f"MeaningUpperBad_{key}", render_certificate(bad).coq_text)
    assert out.returncode != 0
    assert re.search(r"check_\w*rank_upper\w* inst .*upper \d+ = true", out.stdout + out.stderr)


def test_the_exact_rational_path_of_an_mlp_upper_bound_proves_the_same_theorem(upper_certs, coq):
    cert = copy.deepcopy(upper_certs["mlp"])
    assert cert["witness"]["upper"]["moduli"]  # the shipped witness checks residues
    cert["witness"]["upper"]["moduli"] = []  # the kernel then checks exact rational rows
    v = audited(coq.proj, "MeaningUpperExact", cert, render_certificate(cert).coq_text)
    assert v.status == coqp.PASSED, v.message
    assert only_primitives(v)


def test_the_assumption_audit_reads_axioms_whose_type_is_on_the_next_lines():
    out = (
        "Axioms:\nUint63.sub_spec\n  : forall x y : PrimInt63.int,\n    Uint63.to_Z x = 0\n"
        "PrimInt63.add : PrimInt63.int -> PrimInt63.int -> PrimInt63.int\n"
        "Classical.classic\n  : forall P : Prop, P \\/ ~ P\n"
    )
    names = coqp.parse_assumptions(out)
    assert names == ["Classical.classic", "PrimInt63.add", "Uint63.sub_spec"]
    assert [n for n in names if not coqp.allowed_assumption(n)] == ["Classical.classic"]


def test_a_certificate_assuming_an_axiom_of_its_own_fails_the_audit(coq):
    text = (
        "Axiom cheat : forall P : Prop, P.\nLemma l : 1 = 2.\nProof. apply cheat. Qed.\n"
        "(* audited: l *)\n"
    )
    (coq.proj / "Certificates" / "Cheat.v").write_text(text)
    v = coqp.check_file(coq.proj, "Certificates/Cheat.v", 120)
    assert v.status == coqp.FAILED and "cheat" in v.message
