"""MLP-identifiability facts end in a theorem (issue 24): `mlp_hypotheses widths sigma theta
rmin` of coq/NNCert/meaning/compind/IdentifiabilityMeaning.v (every hidden neuron has a nonzero
incoming row, the rows of a layer are distinct, every hidden neuron has a nonzero outgoing
weight; sigma(0) = 0 and deg sigma >= rmin over Q), derived from the kernel's
check_mlp_hypotheses by one `exact`. Every test here runs coqc or the checker."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path

import pytest

from certify.checker import check_certificate
from certify.families import generate_certificate
from certify.provers import coq as coqp
from certify.provers import coq_audit
from certify.provers.coq_library import qualified
from certify.spec import parse_spec
from tests.conftest import compile_compind_text as compile_text
from tests.conftest import compind_coq_text as coq_text

needs_coqc = pytest.mark.skipif(coqp.coqc_path() is None, reason="coqc not installed")
EXAMPLES = Path(__file__).resolve().parents[1] / "certify" / "examples"


def example(name: str) -> dict:
    spec = parse_spec(tomllib.loads((EXAMPLES / f"{name}.toml").read_text()), name)
    return generate_certificate(spec, spec.certificates[0])


@needs_coqc
@pytest.mark.parametrize("name", ["mlp-identifiable-z2z", "mlp-identifiable-width-one"])
def test_an_identifiability_certificate_proves_the_theorem_s_hypotheses(name, coq):
    c = example(name)
    text = coq_text(c)
    rmin = c["witness"]["facts"][0]["rmin"]
    assert (
        f"Theorem mlp_hypotheses_0 :\n  mlp_hypotheses inst_widths inst_sigma inst_theta "
        f"{rmin}%nat." in text
    )
    assert "(* audited: mlp_hypotheses_0 *)" in text
    assert "theorem mlp_hypotheses_0 of the Coq file" in c["claim"]["text"]
    stated = coq_audit.statements(c, "Certificates.M")
    assert stated["mlp_hypotheses_0"] == (
        f"{qualified('IdentifiabilityMeaning.mlp_hypotheses')} Certificates.M.inst_widths "
        f"Certificates.M.inst_sigma Certificates.M.inst_theta {rmin}%nat"
    )
    v = coq.verdict(c)
    assert v.status == "passed", v.message


# Weights of the (1, 3, 1) network [1; 2; 3 | 3; -3; 1] made bad: two equal hidden rows, or a
# hidden neuron without an outgoing weight.
BAD_THETA = {"duplicate row": [1, 1, 3, 3, -3, 1], "zero outgoing weight": [1, 2, 3, 3, 0, 1]}


def _coq_list(xs: list[int]) -> str:
    return "[" + "; ".join(f"({x})" if x < 0 else str(x) for x in xs) + "]"


@needs_coqc
@pytest.mark.parametrize("bad", sorted(BAD_THETA))
def test_a_redundant_or_inactive_neuron_is_rejected_by_the_checker_and_by_coqc(bad, coq):
    c = example("mlp-identifiable-z2z")
    theta = [int(t) for t in c["instance"]["theta"]]
    assert theta == [1, 2, 3, 3, -3, 1]
    tampered = copy.deepcopy(c)
    tampered["instance"]["theta"] = [str(t) for t in BAD_THETA[bad]]
    assert check_certificate(tampered) != []
    text = coq_text(c)
    old, new = _coq_list(theta), _coq_list(BAD_THETA[bad])
    assert text.count(old) == 2  # inst_theta and the witness copy theta_0
    v = compile_text(coq, c, text.replace(old, new), "Ident_tampered")
    assert v.status == "failed"


@needs_coqc
def test_the_statement_has_teeth_a_network_with_equal_rows_is_refuted_in_coq(coq):
    """`mlp_hypotheses` is not vacuous: Coq refutes it for the same network with its first two
    hidden rows equal."""
    c = example("mlp-identifiable-z2z")
    rmin = c["witness"]["facts"][0]["rmin"]
    text = coq_text(c) + (
        f"\nLemma teeth : ~ mlp_hypotheses inst_widths inst_sigma"
        f" ({_coq_list([1, 1, 3, 3, -3, 1])})%Z {rmin}%nat.\n"
        "Proof.\n  intros (_ & _ & _ & H & _).\n"
        "  destruct (H 0%nat) as (_ & Hd & _); [vm_compute; auto |].\n"
        "  apply (Hd 0%nat 1%nat); [auto | vm_compute; auto | vm_compute; reflexivity].\nQed.\n"
    )
    v = compile_text(coq, c, text, "Ident_teeth")
    assert v.status == "passed", v.message


@needs_coqc
def test_a_file_that_redefines_the_statement_fails_the_audit(coq):
    c = example("mlp-identifiable-z2z")
    rmin = c["witness"]["facts"][0]["rmin"]
    text = coq_text(c)
    start = text.index("Theorem mlp_hypotheses_0 :")
    end = text.index("Qed.", start) + len("Qed.")
    forged = (
        "Definition mlp_hypotheses (w : list nat) (s : list (Z * Z)) (t : list Z) (r : nat)"
        " : Prop := True.\nTheorem mlp_hypotheses_0 : mlp_hypotheses inst_widths inst_sigma "
        f"inst_theta {rmin}%nat.\nProof. exact I. Qed."
    )
    v = compile_text(coq, c, text[:start] + forged + text[end:], "Ident_fake")
    assert v.status == "failed" and "not the expected statement" in v.message, v.message
