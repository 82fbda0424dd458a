"""A piecewise ReLU equivalence certificate (input width 1) ends in the Coq theorem
same_function (NNCert/meaning/relu/ReLUPiecesMeaning.v): the two networks give the same outputs
at every input of every ordered field (realFieldType), derived from the kernel's
check_relu_equiv (sorted points, every hidden pre-activation of both networks keeping its weak
sign on each piece, equal outputs at the points). coqc proves it for the group-element and the
hidden-symmetry examples and for random permuted and scaled copies; the audit driver states
it, so a file that redefines the statement passes coqc alone and fails the audit; tampered
witnesses stay rejected (tests/test_relu.py)."""

from __future__ import annotations

import pytest

from certify.bundle import render_certificate
from certify.checker import check_certificate
from certify.provers import coq_audit
from tests.test_relu import (
    EQUIV,
    HIDDEN_OTHER,
    HIDDEN_PARAMS,
    PERM_OTHER,
    PERM_PARAMS,
    make,
    permuted_copy,
)

THEOREM = "Theorem same_function : same_on_line inst (ri_theta inst) other."
PROOF = "Proof. exact (relu_pieces_meaning inst other points equiv_check). Qed."


def ends_in_the_theorem(cert: dict) -> str:
    text = render_certificate(cert).coq_text
    assert THEOREM in text and PROOF in text
    thms = {t.name: t.statement for t in coq_audit.theorems_of(cert, "M", text)}
    assert thms["same_function"] == (
        "NNCert.meaning.relu.ReLUPiecesMeaning.same_on_line Certificates.M.inst "
        "(NNCert.kernel.ReLU.ri_theta Certificates.M.inst) Certificates.M.other"
    )
    assert "Proved in Coq (theorem same_function" in cert["claim"]["text"]
    return text


def test_the_group_element_and_the_hidden_symmetry_end_in_same_function(coq):
    for cert in (make([1, 2, 1], PERM_PARAMS, PERM_OTHER, EQUIV),
                 make([1, 1, 1, 1], HIDDEN_PARAMS, HIDDEN_OTHER, EQUIV)):  # fmt: skip
        assert cert["result"]["equivalent"] and check_certificate(cert) == []
        ends_in_the_theorem(cert)
        got = coq.verdict(cert)
        assert got.status == "passed", got.message


@pytest.mark.parametrize("hidden,seed", [([2], 3), ([3], 11), ([2, 2], 5)])
def test_a_permuted_and_scaled_copy_ends_in_same_function_which_coqc_proves(hidden, seed, coq):
    widths = [1, *hidden, 1]
    hid = widths[1:-1]  # each hidden layer reversed, every neuron scaled by 2
    other = permuted_copy(widths, seed, [list(reversed(range(w))) for w in hid],
                          [["2"] * w for w in hid])  # fmt: skip
    cert = make(widths, {"seed": seed}, other, EQUIV)
    assert cert["result"]["equivalent"] is True and check_certificate(cert) == []
    ends_in_the_theorem(cert)
    got = coq.verdict(cert)
    assert got.status == "passed", got.message


def test_a_local_redefinition_of_the_statement_fails_the_audit(coq):
    cert = make([1, 2, 1], PERM_PARAMS, PERM_OTHER, EQUIV)
    rendered = render_certificate(cert)
    module = f"{rendered.module}_weak"
    text = rendered.coq_text
    thms = coq_audit.theorems_of(cert, module, text)
    text = text.replace(
        THEOREM,
        "Definition same_on_line (i : relu_instance) (a b : list (Z * Z)) : Prop := True.\n"
        + THEOREM,
    ).replace(PROOF, "Proof. exact I. Qed.")
    audited = coq.audit_alone_rejects(module, text, thms)
    assert "not the expected statement" in audited.message, audited.message
