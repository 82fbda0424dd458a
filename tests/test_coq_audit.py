"""The coqc-only path is pinned and audited (issue 22, item 3): `coq/build.sh` checks
SHA256SUMS, compiles, and runs the audit driver Audit.v through audit.awk; certify's
check_file runs the same driver and awk program. Each tamper below must be rejected by both,
with a message; the untampered bundle passes both. Every test runs coqc."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from certify import certificate
from certify.bundle import Options, render_certificate
from certify.provers import coq as coqp
from certify.provers import coq_audit
from certify.provers.common import run
from certify.resources import resource_dir
from certify.verify import check_bundle
from tests.conftest import coqc_reusing, run_cli

pytestmark = pytest.mark.skipif(coqp.coqc_path() is None, reason="coqc not installed")

MOD = "Rank_ktb_2_2_1"
REL = f"Certificates/{MOD}.v"
FIRST_PROOF = "Proof. vm_cast_no_check (eq_refl true). Qed."
LOWER_CHECK = "Lemma rank_lower_check"


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("audit") / "b"
    spec = Path(__file__).resolve().parents[1] / "certify" / "examples" / "ktb-2-2-1.toml"
    r = run_cli("run", str(spec), "--no-lean", "--out", str(out))
    assert r.returncode == 0, r.stdout + r.stderr
    return out


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Path:
    scratch = tmp_path_factory.mktemp("lib")
    got = coqp.prepare_library(resource_dir("coq"), scratch, coqp.default_cache_base(), 1800)
    assert got.verdict.status == "passed", got.verdict.message
    assert got.root is not None
    return got.root


def faithful(bundle: Path) -> tuple[str, list[coq_audit.Theorem]]:
    cert = certificate.load((bundle / "certificates" / "ktb-2-2-1.json").read_bytes())
    it = render_certificate(cert)
    return it.coq_text, coq_audit.theorems_of(it.cert, it.module, it.coq_text)


def _lower_check_uses(text: str, decl: str, proof: str) -> str:
    """Declare `decl` before rank_lower_check and prove rank_lower_check by `proof`."""
    i = text.index(LOWER_CHECK)
    j = text.index(FIRST_PROOF, i)
    return text[:i] + decl + "\n" + text[i:j] + proof + text[j + len(FIRST_PROOF) :]


def _rank_lower_is(text: str, replacement: str) -> str:
    """Replace the theorem rank_lower (statement and proof) by `replacement`, and drop
    rank_lower_generic: a tamper's notation stays in force to the end of the file (so that the
    theorems derived from rank_lower still compile), and the generic theorem's proof would not
    typecheck under it; the driver's statement of rank_lower, stated first, rejects the file."""
    out = re.sub(r"Theorem rank_lower :.*?Qed\.", lambda _: replacement, text, count=1, flags=re.S)
    return re.sub(
        r"Theorem rank_lower_generic :.*?Qed\.\n\(\* audited: rank_lower_generic \*\)\n",
        "",
        out,
        count=1,
        flags=re.S,
    )


def _generic_is(text: str, replacement: str) -> str:
    """Replace the theorem rank_lower_generic (statement and proof) by `replacement`."""
    out = re.sub(
        r"Theorem rank_lower_generic :.*?Qed\.", lambda _: replacement, text, count=1, flags=re.S
    )
    assert out != text
    return out


def _differential_is(text: str, replacement: str) -> str:
    """Replace the theorem differential_rank_lower (statement and proof) by `replacement`."""
    out = re.sub(
        r"Theorem differential_rank_lower :.*?Qed\.", lambda _: replacement, text, count=1,
        flags=re.S,
    )  # fmt: skip
    assert out != text
    return out


AXIOM = "Axiom cheat : False."
TAMPERS = {
    # an axiom and a false theorem appended (the audit sees no named theorem use it: the
    # source check rejects the declaration)
    "append": lambda t: t + f"\n{AXIOM}\nTheorem false_thm : 1 = 0.\nProof. destruct cheat. Qed.\n",
    "axiom": lambda t: _lower_check_uses(t, AXIOM, "Proof. destruct cheat. Qed."),
    "primint63": lambda t: _lower_check_uses(
        t,
        "Module PrimInt63.\nAxiom cheat : False.\nEnd PrimInt63.",
        "Proof. destruct PrimInt63.cheat. Qed.",
    ),  # fmt: skip
    "uint63": lambda t: _lower_check_uses(
        t,
        "Module Uint63.\nAxiom add_spec : False.\nEnd Uint63.",
        "Proof. destruct Uint63.add_spec. Qed.",
    ),  # fmt: skip
    "guard": lambda t: _lower_check_uses(
        t,
        "Unset Guard Checking.\nFixpoint loop (n : nat) : False := loop n.\nSet Guard Checking.",
        "Proof. destruct (loop 0%nat). Qed.",
    ),  # fmt: skip
    "bypass_check": lambda t: _lower_check_uses(
        t,
        "#[bypass_check(guard)] Fixpoint loop (n : nat) : False := loop n.",
        "Proof. destruct (loop 0%nat). Qed.",
    ),  # fmt: skip
    "positivity": lambda t: _lower_check_uses(
        t,
        "Unset Positivity Checking.\nInductive bad := C : (bad -> False) -> bad.\n"
        "Set Positivity Checking.\n"
        "Definition unbad (b : bad) : False := match b with C g => g b end.",
        "Proof. destruct (unbad (C unbad)). Qed.",
    ),  # fmt: skip
    "no_marker": lambda t: re.sub(
        r"^\(\* audited: .*\n",
        "",
        _lower_check_uses(t, AXIOM, "Proof. destruct cheat. Qed."),
        flags=re.M,
    ),  # fmt: skip
    "shadow_mlp_jacobian": lambda t: _rank_lower_is(
        t,
        "Definition mlp_jacobian (i : rank_instance) (s : list (list Z)) : 'M[rat]_3 := 1%:M.\n"
        "Theorem rank_lower : (3 <= \\rank (mlp_jacobian inst (lw_samples lower)))%N.\n"
        "Proof. rewrite mxrank1. reflexivity. Qed.",
    ),  # fmt: skip
    "shadow_rank": lambda t: _rank_lower_is(
        t,
        'Notation "\\rank A" := (3%N) (at level 10, A at level 8) : nat_scope.\n'
        "Theorem rank_lower : (3 <= \\rank (mlp_jacobian inst (lw_samples lower)))%N.\n"
        "Proof. reflexivity. Qed.",
    ),  # fmt: skip
    "shadow_le": lambda t: _rank_lower_is(
        t,
        'Notation "m <= n" := (m = m) : nat_scope.\n'
        "Theorem rank_lower : (3 <= \\rank (mlp_jacobian inst (lw_samples lower)))%N.\n"
        "Proof. reflexivity. Qed.",
    ),  # fmt: skip
    # the generic step weakened to a statement that says nothing (issue 24 item 2)
    "weak_generic": lambda t: _generic_is(
        t,
        "Theorem rank_lower_generic : forall v : list rat, exists N : nat, True.\n"
        "Proof. intros v. exists 0%nat. exact I. Qed.",
    ),  # fmt: skip
    # ... or kept in form, with a \rank that never drops below r
    "shadow_rank_generic": lambda t: _generic_is(
        t,
        "Section Tamper.\n"
        'Local Notation "\\rank A" := (5%N) (at level 10, A at level 8) : nat_scope.\n'
        "Theorem rank_lower_generic :\n"
        "  forall v : list rat, exists N : nat, forall ts : seq rat, uniq ts ->\n"
        "    all (fun t => (\\rank (mlp_jacobian_at inst\n"
        "                   (on_line (List.map q_of (theta inst)) v t)\n"
        "                   (lw_samples lower)) < 3)%N) ts -> (size ts <= N)%N.\n"
        "Proof. intros v. exists 0%nat. intros [| t ts] _ H; [reflexivity| discriminate H]. Qed.\n"
        "End Tamper.",
    ),  # fmt: skip
    # the differential's rank weakened, or kept in form with a rank_ge that holds for anything
    "weak_differential": lambda t: _differential_is(
        t, "Theorem differential_rank_lower : True.\nProof. exact I. Qed."
    ),
    "weak_differential_generic": lambda t: re.sub(
        r"Theorem differential_rank_lower_generic :.*?Qed\.",
        lambda _: "Theorem differential_rank_lower_generic : True.\nProof. exact I. Qed.",
        t,
        count=1,
        flags=re.S,
    ),  # fmt: skip
    "shadow_rank_ge": lambda t: _differential_is(
        t,
        "Definition rank_ge (D : list rat -> list Z -> nat -> rat) (r : nat) : Prop := True.\n"
        "Theorem differential_rank_lower : rank_ge (mlp_dir_deriv inst) 3%nat.\n"
        "Proof. exact I. Qed.",
    ),  # fmt: skip
}
# Tampers whose effect reaches an audited theorem: the audit alone (no source check) rejects.
AUDIT_CATCHES = set(TAMPERS) - {"append"}
# Tampers that no grep of the source notices: only the driver's statements reject them.
SHADOW = {
    "shadow_mlp_jacobian",
    "shadow_rank",
    "shadow_le",
    "weak_generic",
    "shadow_rank_generic",
    "weak_differential",
    "weak_differential_generic",
    "shadow_rank_ge",
}


def _work(lib: Path, text: str) -> Path:
    work = Path(tempfile.mkdtemp(prefix="nncert-audit-test-"))
    (work / "Certificates").mkdir()
    (work / REL).write_text(text)
    return work


def test_the_faithful_certificate_passes_the_audit(bundle: Path, lib: Path) -> None:
    text, thms = faithful(bundle)
    work = _work(lib, text)
    v = coqp.check_file(work, REL, 600, lib, thms)
    shutil.rmtree(work)
    assert v.status == "passed", v.message
    assert v.assumptions and all(coqp.allowed_assumption(a) for a in v.assumptions)
    assert "Uint63.add_spec" in v.assumptions


@pytest.mark.parametrize("tamper", sorted(TAMPERS))
def test_a_tampered_certificate_compiles_but_certify_rejects_it(
    bundle: Path, lib: Path, tamper: str
) -> None:
    text, thms = faithful(bundle)
    bad = TAMPERS[tamper](text)
    work = _work(lib, bad)
    try:
        r = run([coqp.coqc_path() or "coqc", *coqp._flags(lib), REL], work, 600)
        assert r.returncode == 0, r.output  # the tamper is a valid Coq file
        v = coqp.check_file(work, REL, 600, lib, thms)
        assert v.status == "failed" and v.message, v
        if tamper in AUDIT_CATCHES:  # the audit itself, not only the source check
            # (a shadowing passes the source check, so check_file's verdict is the audit's)
            a = v if tamper in SHADOW else coqp.audit(work, thms, 600, lib)[0]
            assert a.status == "failed" and a.message, a
            if tamper in SHADOW:
                assert "not the expected statement" in a.message
            else:
                assert "not an allowed assumption" in a.message
            assert NAMED.get(tamper, "") in a.message, (tamper, a.message)
    finally:
        shutil.rmtree(work)


# What the audit's message names for a tamper that declares or smuggles an assumption.
NAMED = {
    "primint63": "Rank_ktb_2_2_1.PrimInt63.cheat : False",
    "uint63": "Rank_ktb_2_2_1.Uint63.add_spec : False",
    "guard": "loop is assumed to be guarded",
    "positivity": "bad is assumed to be positive",
}


def test_one_joint_audit_passes_the_faithful_certificate_and_names_each_tampered_one(
    bundle: Path, lib: Path
) -> None:
    """audit_all audits many certificates with one Print Assumptions over the tuple of all
    their theorems; when that fails, each is audited alone, so the faithful one still passes
    and the verdict of each tampered one (an axiom, a false Uint63 spec, a shadowed rank)
    says what is wrong. One joint audit over all four modules: each tamper is its own module,
    so none can hide another's verdict."""
    text, thms = faithful(bundle)
    work = _work(lib, text)
    cert = certificate.load((bundle / "certificates" / "ktb-2-2-1.json").read_bytes())
    try:
        compiled = {"good": (coqp.compile_file(work, REL, 600, lib), thms)}
        assert compiled["good"][0].status == "passed"
        for tamper in ("axiom", "uint63", "shadow_rank"):
            bad_mod = f"Rank_ktb_2_2_1_tampered_{tamper}"
            bad_rel = f"Certificates/{bad_mod}.v"
            (work / bad_rel).write_text(TAMPERS[tamper](text))
            r = run([coqp.coqc_path() or "coqc", *coqp._flags(lib), bad_rel], work, 600)
            assert r.returncode == 0, r.output  # valid Coq: only the audit can reject it
            bad_thms = coq_audit.theorems_of(cert, bad_mod, text)
            compiled[tamper] = (coqp.Verdict(coqp.PASSED, "", r.seconds), bad_thms)
        joint = coqp.audit_all(work, compiled, 600, lib)
        assert joint["good"].status == "passed", joint["good"].message
        assert "Uint63.add_spec" in joint["good"].assumptions
        for tamper in ("axiom", "uint63", "shadow_rank"):
            assert joint[tamper].status == "failed" and joint[tamper].assumptions == []
            why = "not the expected statement" if tamper in SHADOW else "not an allowed assumption"
            assert why in joint[tamper].message, (tamper, joint[tamper].message)
        alone = coqp.audit_all(work, {"good": compiled["good"]}, 600, lib)
        assert alone["good"].status == "passed"
    finally:
        shutil.rmtree(work)


def test_the_driver_prints_the_assumptions_of_one_tuple_of_every_theorem(bundle: Path) -> None:
    _, thms = faithful(bundle)
    drv = coq_audit.driver_text(thms)
    assert drv.count("Print Assumptions") == 2
    assert f"Definition {coq_audit.AUDITED} := (" in drv
    assert all(f"  {t.full}" in drv for t in thms)
    assert "Print Assumptions" in coq_audit.driver_text([])  # the allowed list only:
    assert coq_audit.AUDITED not in coq_audit.driver_text([])  # audit.awk fails it


def _sums(coq: Path) -> None:
    """Re-hash every file SHA256SUMS lists (a tamperer who also rewrites the list)."""
    lines = []
    for line in (coq / "SHA256SUMS").read_text().splitlines():
        rel = line.split("  ", 1)[1]
        lines.append(f"{hashlib.sha256((coq / rel).read_bytes()).hexdigest()}  {rel}")
    (coq / "SHA256SUMS").write_text("\n".join(lines) + "\n")


def _build(coq: Path, **env: str) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, **env}
    return subprocess.run(
        ["sh", "build.sh"], cwd=coq, capture_output=True, text=True, check=False, env=full
    )


def test_build_sh_refuses_a_memory_limit_that_is_not_a_number(bundle: Path) -> None:
    r = _build(bundle / "coq", NN_CERTIFY_COQC_MEMORY_GIB="lots")
    assert r.returncode != 0
    assert "NN_CERTIFY_COQC_MEMORY_GIB=lots: expected a number of GiB" in r.stderr
    assert "coqc " not in r.stderr


def test_build_sh_runs_coqc_under_the_memory_limit(bundle: Path, tmp_path: Path) -> None:
    """Under a 0.05 GiB address-space limit coqc cannot even load: the build fails at its
    first coqc (the limit reaches the compiler), and nothing is left half-audited."""
    coq = tmp_path / "coq"
    shutil.copytree(bundle / "coq", coq)
    r = _build(coq, NN_CERTIFY_COQC_MEMORY_GIB="0.05")
    assert r.returncode != 0
    assert "failed (above)" in r.stderr and "assume only primitive integers" not in r.stderr


@pytest.mark.parametrize("tamper", sorted(TAMPERS))
def test_build_sh_rejects_a_tampered_certificate_by_its_hash(
    bundle: Path, tmp_path: Path, tamper: str
) -> None:
    coq = tmp_path / "coq"
    shutil.copytree(bundle / "coq", coq)
    (coq / REL).write_text(TAMPERS[tamper]((coq / REL).read_text()))
    r = _build(coq)
    assert r.returncode != 0
    assert "differ from SHA256SUMS" in r.stderr and REL in r.stderr
    assert "coqc " not in r.stderr  # rejected before compiling anything


@pytest.mark.parametrize("tamper", sorted(set(TAMPERS) - SHADOW))
def test_build_sh_rejects_a_rehashed_tamper_before_compiling(
    bundle: Path, tmp_path: Path, tamper: str
) -> None:
    coq = tmp_path / "coq"
    shutil.copytree(bundle / "coq", coq)
    (coq / REL).write_text(TAMPERS[tamper]((coq / REL).read_text()))
    _sums(coq)
    r = _build(coq)
    assert r.returncode != 0
    assert "turn a kernel check off" in r.stderr or "declare an assumption" in r.stderr
    assert "coqc " not in r.stderr


def test_build_sh_rejects_an_edited_library(bundle: Path, tmp_path: Path) -> None:
    coq = tmp_path / "coq"
    shutil.copytree(bundle / "coq", coq)
    lists = coq / "NNCert" / "kernel" / "Lists.v"
    text = lists.read_text()
    assert "Fixpoint lattice" in text
    lists.write_text(
        text.replace(
            "Fixpoint lattice",
            "Definition lattice_empty : list (list Z) := [].\nFixpoint lattice",
            1,
        )
    )
    r = _build(coq)
    assert r.returncode != 0 and "NNCert/kernel/Lists.v" in r.stderr and "SHA256SUMS" in r.stderr


def test_certify_check_rejects_an_edited_library(bundle: Path, tmp_path: Path) -> None:
    b = tmp_path / "b"
    shutil.copytree(bundle, b)
    lists = b / "coq" / "NNCert" / "kernel" / "Lists.v"
    lists.write_text(lists.read_text() + "\n(* edited *)\n")
    problems, _ = check_bundle(b, Options(run_coq=False, run_lean=False))
    assert any("Lists.v" in p for p in problems)


def test_build_sh_rejects_a_rehashed_shadowing(bundle: Path, lib: Path, tmp_path: Path) -> None:
    """build.sh end to end but for recompiling the library (its .vo files come from certify's
    compile of the same sources, as if build.sh had just compiled them; build.sh compiling
    the library and passing a faithful bundle: tests/test_cache.py, which runs the bundle's
    `make`): with rank_lower stated through a local `<=` (and SHA256SUMS rewritten) the
    certificate compiles and Audit.v does not typecheck."""
    path = coqc_reusing(lib, tmp_path / "bin")
    faithful = tmp_path / "faithful"
    shutil.copytree(bundle / "coq", faithful)
    for v in (faithful / "NNCert").rglob("*.v"):  # the sources lib was compiled from
        assert v.read_bytes() == (resource_dir("coq") / v.relative_to(faithful)).read_bytes()
    ok = _build(faithful, PATH=path)  # the same build passes the untouched bundle
    assert ok.returncode == 0 and "assume only primitive integers" in ok.stderr, ok.stderr
    coq = tmp_path / "coq"
    shutil.copytree(bundle / "coq", coq)
    (coq / REL).write_text(TAMPERS["shadow_le"]((coq / REL).read_text()))
    _sums(coq)
    r = _build(coq, PATH=path)
    assert r.returncode != 0
    assert f"coqc {REL}" in r.stderr and "coqc Audit.v" in r.stderr
    assert "Audit.v failed" in r.stderr and "proves another statement" in r.stderr


def test_every_named_assumption_belongs_to_a_tamper_the_audit_catches():
    assert set(NAMED) <= AUDIT_CATCHES - SHADOW
