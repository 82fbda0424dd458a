"""Which demo certificates end in a theorem of mathematics (issue 24): every demo certificate
ends in a theorem whose statement the audit driver states itself (coq_audit.statements: the
meaning theorems of rank, equiv, orbit, compind, Prop. 2.1/3.3, affsym certificates and the
coefficients of a scalar ResNet), except those listed here, which still end in
`check ... = true` only. The lists can only shrink: a certificate that gains a pinned theorem
must leave them, and none may join them."""

from __future__ import annotations

import json
from pathlib import Path

from certify import certificate
from certify.checker import registry
from certify.provers import coq_audit

# The demo certificates whose Coq file ends in a kernel check only (6 of 92 on 2026-12-07),
# by kind: what each would need is in issue 24 and docs/trust-model.md.
CHECK_ONLY = {
    # tanh-type orbits and equivalences
    "logistic-2-3-1-orbit", "tanh-1-3-1-orbit",
    "tanh-dag-skip-orbit", "tanh-dag-skip-equiv", "tanh-equivalent", "tanh-inequivalent",
}  # fmt: skip

# The demo certificates whose only pinned theorem is f_coefficients (F_theta(x) = sum_k c_k x^k
# over Q, ScalarMeaning.v): the sentence of the claim that states F_theta is proved, while the
# claim's first statement (a critical point, a trivial or complex group) still ends in a
# kernel check. The list can only shrink too.
COEFFICIENTS_ONLY = {
    "resnet-critical-dead-layer", "resnet-critical-locus-certified",
    "resnet-critical-quadratic-locus", "resnet-cubic-plus-square-critical",
    "resnet-cubic-plus-square-orbit", "resnet-orbit-cube-complex", "resnet-orbit-trivial-cube",
}  # fmt: skip


def _pinned(bundle: Path) -> dict[str, set[str]]:
    """Demo certificate name -> the audited theorems of its file that have a pinned statement."""
    m = json.loads((bundle / "manifest.json").read_text())
    out = {}
    for e in m["certificates"]:
        cert = certificate.load((bundle / e["file"]).read_bytes())
        text = (bundle / e["coq_file"]).read_text()
        thms = coq_audit.theorems_of(cert, Path(e["coq_file"]).stem, text)
        out[e["name"]] = {t.name for t in thms if t.statement}
    return out


def test_every_demo_certificate_ends_in_a_pinned_theorem_or_is_listed_as_check_only(
    demo_bundle: Path,
):
    pinned = _pinned(demo_bundle)
    listed = CHECK_ONLY | COEFFICIENTS_ONLY
    assert listed <= set(pinned), listed - set(pinned)  # no stale name
    assert {n for n, p in pinned.items() if not p} == CHECK_ONLY
    assert {n for n, p in pinned.items() if p == {"f_coefficients"}} == COEFFICIENTS_ONLY
    # every registry line reaches the demo, and the kinds with no pinned theorem at all are
    # exactly those whose every demo certificate is listed
    m = json.loads((demo_bundle / "manifest.json").read_text())
    by_kind: dict[tuple[str, str], set[bool]] = {}
    for e in m["certificates"]:
        by_kind.setdefault((e["family"], e["kind"]), set()).add(bool(pinned[e["name"]]))
    assert set(by_kind) == set(registry.BY_KEY)
    without = {k for k, v in by_kind.items() if v == {False}}
    assert without == {("tanh", "orbit"), ("tanh", "equiv")}


def test_every_scalar_resnet_certificate_proves_its_coefficients(demo_bundle: Path):
    """Every demo certificate with F_coefficients (width-one ResNet orbits, critical points,
    implicit equations) ends in f_coefficients, derived from its kernel check by one exact,
    stated by the audit driver, and its claim says so."""
    m = json.loads((demo_bundle / "manifest.json").read_text())
    seen = 0
    for e in m["certificates"]:
        cert = certificate.load((demo_bundle / e["file"]).read_bytes())
        if cert["result"].get("F_coefficients") is None:
            continue
        text = (demo_bundle / e["coq_file"]).read_text()
        assert "exact (scalar_coeffs_meaning inst f_coeffs coefficients)" in text, e["name"]
        thms = coq_audit.theorems_of(cert, Path(e["coq_file"]).stem, text)
        stmt = {t.name: t.statement for t in thms}["f_coefficients"]
        assert stmt and stmt.endswith(".scalar_coeffs Certificates.{}.inst Certificates.{}.f_coeffs"
                                      .format(*[Path(e["coq_file"]).stem] * 2))  # fmt: skip
        assert "Proved in Coq (theorem f_coefficients)" in cert["claim"]["text"]
        seen += 1
    assert seen >= 10


def test_every_demo_mlp_and_resnet_rank_certificate_proves_the_generic_step(demo_bundle: Path):
    """Issue 24 item 2: each MLP / ResNet rank certificate's file proves rank_lower_generic
    (rank >= r at all but finitely many points of every line through theta) and
    differential_rank_lower (the differential at theta has rank >= r), derived from its kernel
    check, and the audit driver states both theorems itself."""
    m = json.loads((demo_bundle / "manifest.json").read_text())
    seen = 0
    for e in m["certificates"]:
        if e["kind"] != "rank" or e["family"] not in ("mlp", "resnet"):
            continue
        cert = certificate.load((demo_bundle / e["file"]).read_bytes())
        text = (demo_bundle / e["coq_file"]).read_text()
        r = cert["result"]["rank_lower"]
        assert "(* audited: rank_lower_generic *)" in text, e["name"]
        assert f"_rank_lower_on_lines inst lower {r}%nat rank_lower_check p_prime" in text
        thms = coq_audit.theorems_of(cert, Path(e["coq_file"]).stem, text)
        stmt = {t.name: t.statement for t in thms}["rank_lower_generic"]
        assert stmt and f"{e['family']}_jacobian_at" in stmt and f") {r})" in stmt
        assert "rank_lower_generic" in cert["claim"]["text"]
        # ... and the differential at theta has rank >= r (Differential.v)
        assert "(* audited: differential_rank_lower *)" in text, e["name"]
        assert f"_differential_rank_lower inst lower {r}%nat rank_lower_check p_prime" in text
        diff = {t.name: t.statement for t in thms}["differential_rank_lower"]
        assert diff == (
            f"NNCert.meaning.Differential.rank_ge (NNCert.meaning.Differential.{e['family']}"
            f"_dir_deriv Certificates.{Path(e['coq_file']).stem}.inst) {r}"
        )
        assert "differential_rank_lower" in cert["claim"]["text"]
        assert f"_differential_rank_lower_on_lines inst lower {r}%nat rank_lower_check" in text
        gen = {t.name: t.statement for t in thms}["differential_rank_lower_generic"]
        assert gen.startswith("NNCert.meaning.Differential.rank_ge_on_lines ") and gen.endswith(
            f".inst)) {r}"
        )
        seen += 1
    assert seen >= 30
