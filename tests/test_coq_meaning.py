"""Every rank certificate's Coq file ends with what the lower bound means (issue 15): a theorem
`r <= \\rank` of the Jacobian over Q, the Jacobian defined in NNCert/RankMeaning.v by derivatives
of the network evaluated over {poly rat}; coqc proves it with no assumptions at all, and a
tampered witness makes the check behind it fail in coqc."""

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
from certify.families import generate_certificate
from certify.provers import coq as coqp
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


def last_assumptions(output: str) -> str:
    """The last Print Assumptions answer of a coqc run (the file's last command)."""
    blocks = re.split(r"(?m)^(?=Axioms:|Closed under the global context)", output)
    return blocks[-1].strip()


def only_meaning(text: str) -> str:
    """The instance and witness definitions and the meaning part, without the kernel's fast
    lemmas: a failure is then the meaning check's own."""
    head = text[: text.index("|}.", text.index("Definition lower")) + 3]
    meaning = text[text.index("From NNCert Require Import Jacobian RankMeaning.") :]
    return head + "\n" + meaning.split("\n(* What the upper bound means")[0]


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
    ends = ("Print Assumptions rank_lower.", "Print Assumptions rank_upper.")
    assert text.rstrip().endswith(ends)
    out = coqc(coq.proj, f"Meaning_{key.replace('-', '_')}", text)
    assert out.returncode == 0, out.stdout + out.stderr
    assert last_assumptions(out.stdout) == CLOSED


def test_the_library_theorems_assume_nothing(coq):
    names = ["mlp_rank_lower_meaning", "resnet_rank_lower_meaning", "relu_rank_lower_meaning"]
    text = "From NNCert Require Import RankMeaning.\n" + "".join(
        f"Print Assumptions {n}.\n" for n in names
    )
    out = coqc(coq.proj, "MeaningLibrary", text)
    assert out.returncode == 0, out.stderr
    assert out.stdout.count(CLOSED) == 3


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
def test_a_tampered_witness_fails_the_meaning_check_in_coqc(key, tamper, certs, coq):
    cert = certs[key]
    name = f"MeaningT_{key}_{re.sub(r'[^a-z]', '_', tamper)}"
    if key not in HONEST:  # the same file untampered passes: the test can fail
        ok = coqc(coq.proj, name + "_ok", only_meaning(render_certificate(cert).coq_text))
        HONEST[key] = ok.returncode == 0
    assert HONEST[key]
    bad = copy.deepcopy(cert)
    TAMPERS[tamper](bad)
    out = coqc(coq.proj, name, only_meaning(render_certificate(bad).coq_text))
    assert out.returncode != 0
    assert re.search(r"check_\w*_meaning inst lower \d+%?\w* = true", out.stdout + out.stderr)


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
    out = coqc(coq.proj, "MeaningRandom", text)
    assert out.returncode == 0, out.stdout + out.stderr
    assert last_assumptions(out.stdout) == CLOSED


def test_a_certificate_too_large_for_the_z_check_says_so_instead(coq):
    assert coqp.meaning_fits(8, 14)
    assert not coqp.meaning_fits(122, 122)
    cert = make_cert([3, 8, 8, 2], "t^3 + t", True, 3)
    assert not coqp.meaning_fits(cert["witness"]["lower"]["rank"], cert["result"]["params"])
    text = render_certificate(cert).coq_text
    assert "Theorem rank_lower" not in text
    assert "is not\n   rendered for this size" in text


# The plain evaluators of Jacobian.v (what RankMeaning.v differentiates) against the kernel's
# own network semantics (Net.net_eval, ResNet.resnet_dual, ReLU.relu_eval and batch_patterns)
# at every sample of the demo certificates, exactly over Q, decided by coqc.
AGREE = {
    "mlp": "forallb (fun x => qeq_all (mlp_value arith_q (widths inst) (acts inst) (bias inst) "
    "(theta inst) (ints_q x)) (fst (net_eval arith_q (widths inst) (acts inst) (bias inst) "
    "(theta inst) (zeros arith_q (length (theta inst))) (ints_q x) "
    "(zeros arith_q (length x))))) (lw_samples lower)",
    "resnet": "forallb (fun x => qeq_all (resnet_forward arith_q (rn_width inst) (rn_outer inst) "
    "(rn_acts inst) (rn_theta inst) (ints_q x)) (fst (resnet_dual arith_q (rn_width inst) "
    "(rn_outer inst) (rn_acts inst) (rn_theta inst) (zeros arith_q (length (rn_theta inst))) "
    "(ints_q x) (zeros arith_q (length x))))) (lw_samples lower)",
    "relu": "forallb (fun z => qeq_all (relu_masked arith_q (first_width (ri_widths inst)) "
    "(tl (ri_widths inst)) (relu_pattern_q (ri_widths inst) (ri_theta inst) z) (ri_theta inst) "
    "z) (fst (relu_eval (ri_widths inst) (ri_theta inst) z)) && "
    "pats_eqb (relu_pattern_q (ri_widths inst) (ri_theta inst) z) "
    "(nth 0 (batch_patterns (ri_widths inst) (ri_theta inst) [z]) [])) (rl_batch lower)",
}
PATS_EQB = """
Definition pats_eqb (a b : list (list bool)) : bool :=
  list_eqb (list_eqb Bool.eqb) a b.
"""


@pytest.mark.parametrize("key", ["mlp", "mlp-rational", "resnet", "relu"])
def test_the_evaluators_differentiated_are_the_kernel_s_networks(key, certs, coq):
    text = render_certificate(certs[key]).coq_text
    head = text[: text.index("|}.", text.index("Definition lower")) + 3]
    fam = family(certs[key])
    lemma = f"Lemma agree : {AGREE[fam]} = true.\nProof. vm_cast_no_check (eq_refl true). Qed.\n"
    extra = "From NNCert Require Import Jacobian.\nLocal Open Scope bool_scope.\n" + (
        "Fixpoint list_eqb {A} (e : A -> A -> bool) (a b : list A) : bool :=\n"
        "  match a, b with [], [] => true | x :: a', y :: b' => e x y && list_eqb e a' b'\n"
        "  | _, _ => false end.\n" + PATS_EQB
        if fam == "relu"
        else ""
    )
    out = coqc(coq.proj, f"Agree_{key.replace('-', '_')}", head + "\n" + extra + lemma)
    assert out.returncode == 0, out.stdout + out.stderr


def only_upper_meaning(text: str) -> str:
    """The definitions and the upper-bound meaning part only (no kernel lemmas)."""
    head = text[: text.index("|}.", text.index("Definition upper")) + 3]
    imports = (
        "From NNCert Require Import Jacobian RankMeaning.\n"
        'Set Warnings "-notation-overridden,-ambiguous-paths".\n'
        "From mathcomp Require Import ssrbool ssrnat ssralg matrix mxalgebra rat.\n"
    )
    lower_defs = head.replace(
        head[head.index("Lemma rank_lower_check") : head.index("(* Upper")], ""
    )
    return lower_defs + "\n" + imports + text[text.index("Lemma rank_upper_meaning_check") :]


def test_an_mlp_upper_bound_ends_with_its_mathematical_theorem_and_rejects_a_bad_tangent(
    certs, coq
):
    cert = certs["mlp"]
    text = render_certificate(cert).coq_text
    assert "Theorem rank_upper :" in text and "mlp_dir_deriv inst x v k = 0%R" in text
    out = coqc(coq.proj, "MeaningUpper", text)
    assert out.returncode == 0, out.stdout + out.stderr
    assert last_assumptions(out.stdout) == CLOSED
    bad = copy.deepcopy(cert)
    t = bad["witness"]["upper"]["tangents"][0]
    j = next(i for i, v in enumerate(t) if v != 0)
    t[j] += 1
    out = coqc(coq.proj, "MeaningUpperBad", only_upper_meaning(render_certificate(bad).coq_text))
    assert out.returncode != 0
    assert "check_rank_upper_meaning inst upper" in out.stdout + out.stderr
