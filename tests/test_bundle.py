"""End to end: `certify demo` writes a complete bundle whose verdicts are real, and
`certify check` re-verifies it and catches tampering with any part of it."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from certify.provers import coq as coqp
from certify.provers import lean as leanp
from tests.conftest import run_cli

EXPECTED_RANKS = {
    "ktb-2-2-1": (3, 3),
    "ktb-3-2-1": (5, 5),
    "cubic-2-3-1-bias": (10, 10),
    "cubic-3-2-1-bias": (11, 11),
    "deep-2-3-2-1": (8, 8),
    "wide-4-10-5-1": (111, 111),
    "mlp-ident-width-one-rank": (3, 3),
    "mlp-ident-z2z-rank": (2, 2),
    "resnet-1-2-quadratic": (4, 4),
    "resnet-2-2-cubic": (12, 12),
    "resnet-orbit-quartic-rank": (4, 4),
    "resnet-orbit-even-quartic-rank": (4, 4),
    "resnet-width2-depth2-orbit-rank": (12, 12),
    "resnet-cubic-plus-square-rank": (4, 4),
    "resnet-cubic-plus-square-critical-at": (4, 4),
    "resnet-critical-dead-layer-at": (3, 3),
    "resnet-critical-dead-layer-generic": (4, 4),
    "resnet-critical-quadratic-locus-at": (3, 3),
    "resnet-critical-quadratic-locus-generic": (4, 4),
    "resnet-critical-locus-certified-at": (3, 3),
    "resnet-critical-locus-certified-generic": (4, 4),
    "relu-1-1-1": (3, 3),
    "relu-2-2-1": (7, 7),
    "relu-2-3-1": (10, 10),
    "relu-2-3-1-given-batch": (9, 10),
    "relu-2-1-2-1-regions": (7, 7),
}


@pytest.fixture
def demo(demo_bundle: Path) -> Path:
    """The whole demo (tests/conftest.py, built once per session)."""
    return demo_bundle


@pytest.fixture
def small(small_bundle: Path) -> Path:
    """Four certificates with coqc verdicts (tests/conftest.py SMALL_SPECS): the bundle
    that the tamper tests of `certify check` copy and edit."""
    return small_bundle


def test_demo_bundle_certifies_the_example_suite_with_checker_and_coq(demo: Path):
    m = json.loads((demo / "manifest.json").read_text())
    assert m["schema"] == "nn-certify-manifest/1"
    assert set(m["tool"]) == {"nn-certify", "python-flint", "sympy", "coqc", "lean"}
    atlas = {n for s in m["specs"] for n in s.get("instances", [])}  # tests/test_atlas.py
    assert len(atlas) == 18 + 8
    got = {
        e["name"]: (e["result"]["rank_lower"], e["result"]["rank_upper_at_point"])
        for e in m["certificates"]
        if e["kind"] == "rank" and e["name"] not in atlas
    }
    assert got == EXPECTED_RANKS
    others = {e["name"]: e["result"] for e in m["certificates"] if e["kind"] != "rank"}
    assert others["compind-z2z"]["status"] == "dependent"
    assert others["compind-search"]["least_degree"] == 3
    assert others["compind-bivariate-bias"]["status"] == "independent"
    assert others["prop21-z3-z-1"]["delta2"] == "6"
    assert others["newman-slater-cubes"]["newman_slater_range"] is True
    assert others["mlp-ident-width-one"]["theorem"] == "width one (Prop. 3.3)"
    assert others["mlp-ident-z2z"]["theorem"] == "none"
    assert others["resnet-orbit-quartic"]["orbit_size"] == 4
    assert others["resnet-orbit-even-quartic"]["orbit_size"] == 4
    assert others["resnet-width2-depth2-orbit"]["orbit_size"] == 16
    assert others["resnet-orbit-cube-complex"]["orbit_size"] == 9
    assert others["resnet-orbit-cube-complex"]["field"] == "complex"
    assert others["resnet-figure-1-orbit"]["orbit_size"] == 4
    assert others["resnet-figure-1"]["variables"] == ["w1", "w2"]
    assert others["resnet-critical-dead-layer"]["critical"] is True
    assert others["resnet-cubic-plus-square-critical"]["critical"] is False
    assert others["resnet-cubic-plus-square-orbit"]["orbit_size"] == 1  # the trivial group
    assert others["resnet-orbit-trivial-cube"]["orbit_size"] == 1
    assert others["resnet-critical-quadratic-locus"]["critical"] is True
    assert others["resnet-critical-locus-certified"]["critical_locus"]["value_at_theta"] == "0"
    assert set(m["figures"]) == {"resnet-quadratic.png", "dimensions.png"}
    assert others["relu-equiv-permutation"]["symmetry"] == "permutation-scaling"
    assert others["relu-equiv-hidden"]["symmetry"] == "hidden"
    assert others["relu-equiv-differ"]["equivalent"] is False
    assert others["tanh-1-3-1-orbit"]["orbit_size"] == 48  # tanh-type (issue 6)
    assert others["tanh-inequivalent"]["equivalent"] is False
    assert others["affsym-logistic"]["order"] == 2
    for e in m["certificates"]:
        assert e["verdicts"]["checker"] == "passed"
        assert e["verdicts"]["coq"] == "passed", e["messages"]
        reals = e["kind"] == "affsym"  # theorems over the reals (coq_audit.REALS_FULL)
        assert all(coqp.allowed_assumption(a, reals) for a in e["coq_assumptions"])
        if reals:  # its identities rest on the axioms of Coq's reals, and it says so
            assert "ClassicalDedekindReals.sig_forall_dec" in e["coq_assumptions"]
        assert (demo / e["file"]).is_file()
        assert (demo / e["coq_file"]).is_file() and (demo / e["lean_file"]).is_file()
        if e["kind"] == "rank":
            assert set(e["result"]) >= {
                "params", "symmetry_dim", "expected_dim", "rank_lower", "rank_upper_at_point"
            }  # fmt: skip
            # issue 15: every rank certificate (MLP, ResNet, ReLU) ends with the theorem in
            # mathematical terms, derived from the kernel's check, and coqc passed it
            coq_text = (demo / e["coq_file"]).read_text()
            assert re.search(r"Theorem rank_lower :\s[^.]*<= \\rank \(\w+_jacobian inst", coq_text)
            assert "rank_lower_check p_prime" in coq_text
    assert (demo / "report.md").read_text().count("| passed |") >= 19


def test_lean_verdict_is_never_passed_without_a_lean_toolchain(demo: Path):
    m = json.loads((demo / "manifest.json").read_text())
    if leanp.lake_path() is None:
        assert all(e["verdicts"]["lean"] == "not-run" for e in m["certificates"])
        assert m["tool"]["lean"] is None


def test_bundle_is_self_contained_lake_and_coq_projects(demo: Path):
    for f in ("lakefile.toml", "lean-toolchain", "lake-manifest.json", "NNCert.lean",
              "Certificates.lean", "Audit.lean"):  # fmt: skip
        assert (demo / "lean" / f).is_file(), f
    assert (demo / "lean" / "lean-toolchain").read_text().strip() == "leanprover/lean4:v4.36.0"
    for f in ("kernel/Lists", "kernel/Arith", "kernel/Net", "kernel/Rank", "meaning/CheckerSound"):
        assert (demo / "coq" / "NNCert" / f"{f}.v").is_file()
    audit = (demo / "lean" / "Audit.lean").read_text()
    assert audit.count("#print axioms") >= len(EXPECTED_RANKS)


def test_certify_check_accepts_the_untouched_bundle(demo: Path):
    r = run_cli("check", str(demo))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "bundle verified" in r.stdout


def _copy(bundle: Path, tmp_path: Path) -> Path:
    dst = tmp_path / "b"
    shutil.copytree(bundle, dst)
    return dst


def test_certify_check_with_coqc_accepts_the_untouched_small_bundle(small: Path):
    m = json.loads((small / "manifest.json").read_text())
    assert sorted(e["name"] for e in m["certificates"]) == [
        "ktb-2-2-1", "ktb-3-2-1", "resnet-figure-1", "resnet-figure-1-orbit"
    ]  # fmt: skip
    assert all(e["verdicts"]["coq"] == "passed" for e in m["certificates"])
    assert any(e["coq_assumptions"] for e in m["certificates"])
    assert set(m["figures"]) >= {"resnet-quadratic.png"}
    r = run_cli("check", str(small), "--no-lean")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "bundle verified" in r.stdout


def test_certify_check_rejects_a_weakened_coq_library(small: Path, tmp_path: Path):
    b = _copy(small, tmp_path)
    rank = b / "coq" / "NNCert" / "kernel" / "RankCore.v"
    weak = rank.read_text().replace("Nat.eqb (length labels) r &&", "")
    assert weak != rank.read_text()
    rank.write_text(weak)
    r = run_cli("check", str(b), "--no-coq", "--no-lean")  # found without running coqc
    assert r.returncode == 1
    assert "differs from the shipped library" in r.stdout


def test_certify_check_rejects_an_edited_certificate(small: Path, tmp_path: Path):
    b = _copy(small, tmp_path)
    f = b / "certificates" / "ktb-3-2-1.json"
    cert = json.loads(f.read_text())
    cert["result"]["rank_lower"] = 6
    f.write_text(json.dumps(cert, sort_keys=True, separators=(",", ":")) + "\n")
    r = run_cli("check", str(b), "--no-coq", "--no-lean")
    assert r.returncode == 1
    assert "does not match the manifest" in r.stdout


def test_certify_check_rejects_an_edited_rendered_file(small: Path, tmp_path: Path):
    b = _copy(small, tmp_path)
    f = b / "coq" / "Certificates" / "Rank_ktb_3_2_1.v"
    f.write_text(
        f.read_text().replace(
            "rank_lower_check : check_rank_lower inst lower 5",
            "rank_lower_check : check_rank_lower inst lower 6",
        )
    )
    r = run_cli("check", str(b), "--no-coq", "--no-lean")  # found without running coqc
    assert r.returncode == 1
    assert "differs from the re-rendered file" in r.stdout


def test_certify_check_on_a_non_bundle_is_an_error(tmp_path: Path):
    r = run_cli("check", str(tmp_path))
    assert r.returncode != 0
    assert "not an nn-certify bundle" in r.stderr


SPEC = """name = "det"
[network]
family = "mlp"
widths = [3, 2, 2]
activation = "t^3/2 - t"
bias = true
[parameters]
seed = 7
[[certificate]]
kind = "rank"
"""


def test_same_spec_gives_byte_identical_certificates_and_rendered_files(tmp_path: Path):
    spec = tmp_path / "s.toml"
    spec.write_text(SPEC)
    outs = []
    for i in range(2):
        out = tmp_path / f"o{i}"
        r = run_cli("run", str(spec), "--out", str(out), "--no-coq", "--no-lean")
        assert r.returncode == 0, r.stderr
        outs.append(out)
    files = sorted(
        str(p.relative_to(outs[0]))
        for p in outs[0].rglob("*")
        if p.is_file() and p.parts[-2] != "logs"
    )
    assert any(f.endswith(".json") and f.startswith("certificates") for f in files)
    for f in files:
        assert (outs[0] / f).read_bytes() == (outs[1] / f).read_bytes(), f


def test_rendered_lean_files_pass_the_static_lint_and_read_back_to_valid_certificates(demo):
    import re as _re

    from certify.checker.kernel.rank import check_rank_lower, check_rank_upper
    from tests.test_lean_library import FORBIDDEN, read_certificate

    m = json.loads((demo / "manifest.json").read_text())
    for e in m["certificates"]:
        text = (demo / e["lean_file"]).read_text()
        for pat, why in FORBIDDEN:
            assert not _re.search(pat, text, _re.M), f"{e['lean_file']}: {why}"
        theorems = _re.findall(r"^theorem (\w+) : (.*)$", text, _re.M)
        assert theorems and all(t[1].endswith(":= by decide +kernel") for t in theorems)
        if e["kind"] != "rank" or "ResNetInstance" in text or "ReluInstance" in text:
            continue  # other families: read back by their own tests (test_lean_*.py)
        cert = read_certificate(text)
        assert cert["rank_lower"] == e["result"]["rank_lower"]
        assert check_rank_lower(cert["inst"], cert["lower"], cert["rank_lower"])
        if cert["upper"] is not None:
            assert cert["bound"] == e["result"]["rank_upper_at_point"]
            assert check_rank_upper(cert["inst"], cert["upper"], cert["bound"])


def _rewrite_certificate(b: Path, name: str, edit) -> None:
    """Edit a certificate and keep the bundle self-consistent (hash, manifest, rendering)."""
    from certify import certificate

    f = b / "certificates" / f"{name}.json"
    cert = json.loads(f.read_text())
    edit(cert)
    f.write_bytes(certificate.dump(cert))
    mf = b / "manifest.json"
    m = json.loads(mf.read_text())
    for e in m["certificates"]:
        if e["name"] == name:
            e.update(sha256=certificate.sha256(cert), claim=cert["claim"], result=cert["result"])
    mf.write_text(json.dumps(m, indent=1, sort_keys=True) + "\n")


def test_certify_check_rejects_a_consistently_rewritten_false_claim(small: Path, tmp_path: Path):
    b = _copy(small, tmp_path)

    def edit(cert):
        cert["claim"]["text"] = "The rank at theta is exactly 6 = #params: identifiable."
        cert["result"]["expected_dim"] = 6
        cert["result"]["symmetry_dim"] = 0

    _rewrite_certificate(b, "ktb-2-2-1", edit)
    r = run_cli("check", str(b), "--no-coq", "--no-lean")
    assert r.returncode == 1
    assert "claim does not match" in r.stdout and "result =" in r.stdout


def test_certify_check_runs_provers_on_faithful_files_not_on_redirected_ones(
    small: Path, tmp_path: Path
):
    b = _copy(small, tmp_path)
    v = b / "coq" / "Certificates" / "Rank_ktb_2_2_1.v"
    shutil.copyfile(v, v.with_name("Faithful.v"))
    v.write_text("Lemma rank_lower_check : True. exact I. Qed.\n")
    mf = b / "manifest.json"
    m = json.loads(mf.read_text())
    for e in m["certificates"]:
        if e["name"] == "ktb-2-2-1":
            e["coq_file"] = "coq/Certificates/Faithful.v"
    mf.write_text(json.dumps(m, indent=1, sort_keys=True) + "\n")
    r = run_cli("check", str(b), "--no-lean")
    assert r.returncode == 1
    assert "manifest coq_file" in r.stdout and "differs from the re-rendered file" in r.stdout


def test_certify_check_rejects_unlisted_certificates_and_edited_audit(small: Path, tmp_path: Path):
    b = _copy(small, tmp_path)
    shutil.copyfile(b / "certificates" / "ktb-2-2-1.json", b / "certificates" / "extra.json")
    audit = b / "lean" / "Audit.lean"
    audit.write_text(audit.read_text().replace("#print axioms", "-- #print axioms", 1))
    r = run_cli("check", str(b), "--no-coq", "--no-lean")
    assert r.returncode == 1
    assert "not listed in the manifest" in r.stdout and "Audit.lean differs" in r.stdout


def test_certify_check_rejects_a_manifest_without_certificates(small: Path, tmp_path: Path):
    b = _copy(small, tmp_path)
    for f in (b / "certificates").glob("*.json"):
        f.unlink()
    mf = b / "manifest.json"
    m = json.loads(mf.read_text())
    m["certificates"] = []
    mf.write_text(json.dumps(m))
    r = run_cli("check", str(b), "--no-coq", "--no-lean")
    assert r.returncode == 1 and "lists no certificates" in r.stdout


def test_names_that_collide_as_prover_modules_are_refused(tmp_path: Path):
    for name in ("k-1", "k_1"):
        (tmp_path / f"{name}.toml").write_text(SPEC.replace('"det"', f'"{name}"'))
    r = run_cli("run", str(tmp_path / "k-1.toml"), str(tmp_path / "k_1.toml"), "--out",
                str(tmp_path / "o"), "--no-coq", "--no-lean")  # fmt: skip
    assert r.returncode != 0 and "same prover module" in r.stderr
    assert not (tmp_path / "o").exists()


def _run_with_path(tmp_path: Path, path: str, out: Path):
    import os
    import subprocess
    import sys

    spec = tmp_path / "s.toml"
    spec.write_text(SPEC)
    env = dict(os.environ, PATH=path)
    return subprocess.run(
        [sys.executable, "-m", "certify.cli", "run", str(spec), "--out", str(out)],
        capture_output=True,
        text=True,
        env=env,
    )


def test_a_failing_prover_gives_a_failed_verdict_with_its_message_and_exit_1(tmp_path: Path):
    fake = tmp_path / "bin"
    fake.mkdir()
    coqc = fake / "coqc"
    coqc.write_text(
        "#!/bin/sh\necho 'File \"x.v\", line 3, characters 0-5:\nError: boom'\nexit 1\n"
    )
    coqc.chmod(0o755)
    out = tmp_path / "o"
    r = _run_with_path(tmp_path, f"{fake}:/usr/bin:/bin", out)
    assert r.returncode == 1, r.stdout + r.stderr
    m = json.loads((out / "manifest.json").read_text())
    (e,) = m["certificates"]
    assert e["verdicts"]["coq"] == "failed"
    assert "boom" in e["messages"]["coq"]


def test_missing_provers_give_not_run_never_passed(tmp_path: Path):
    empty = tmp_path / "nothing"
    empty.mkdir()
    out = tmp_path / "o"
    r = _run_with_path(tmp_path, str(empty), out)
    assert r.returncode == 0, r.stdout + r.stderr
    m = json.loads((out / "manifest.json").read_text())
    (e,) = m["certificates"]
    assert e["verdicts"] == {"checker": "passed", "coq": "not-run", "lean": "not-run"}
    assert m["tool"]["coqc"] is None and m["tool"]["lean"] is None


def _forge_manifest(bundle: Path, tmp_path: Path, edit) -> Path:
    """A consistent forgery: the manifest edited, report.md and the referee files rewritten
    from it with the tool's own functions, and the file inventory updated to match."""
    from certify import certificate, table
    from certify.bundle import file_inventory, report_md, write_results
    from certify.referee import referee_files

    b = _copy(bundle, tmp_path)
    m = json.loads((b / "manifest.json").read_text())
    edit(m)
    certs = {e["name"]: certificate.load((b / e["file"]).read_bytes()) for e in m["certificates"]}
    results = table.rows(m, certs)
    write_results(b, results, {})
    (b / "report.md").write_text(report_md(m, results))
    for rel, text in referee_files(m).items():
        (b / rel).write_text(text)
    m["files"] = file_inventory(b)
    (b / "manifest.json").write_text(json.dumps(m, indent=1, sort_keys=True) + "\n")
    return b


def test_certify_check_rejects_forged_coq_assumptions(small: Path, tmp_path: Path):
    def edit(m):
        e = next(e for e in m["certificates"] if e["coq_assumptions"])
        e["coq_assumptions"] = []  # "closed under the global context": a stronger claim

    r = run_cli("check", str(_forge_manifest(small, tmp_path, edit)), "--no-lean")
    assert r.returncode == 1
    assert "assumptions" in r.stdout + r.stderr


def test_certify_check_rejects_a_forged_generator_version(small: Path, tmp_path: Path):
    def edit(m):
        m["tool"]["nn-certify"] = "9.9.9"

    r = run_cli("check", str(_forge_manifest(small, tmp_path, edit)), "--no-coq", "--no-lean")
    assert r.returncode == 1
    assert "nn-certify" in r.stdout + r.stderr


def test_a_forged_lean_passed_verdict_is_rejected_and_fails_under_require(
    small: Path, tmp_path: Path
):
    def edit(m):
        for e in m["certificates"]:
            e["verdicts"]["lean"] = "passed"

    b = _forge_manifest(small, tmp_path, edit)
    # The manifest's tool list says lean was not installed: a stored `passed` for a prover
    # that never ran is a forgery (exit 1), not merely unverifiable (issue 22 item 2).
    r = run_cli("check", str(b), "--no-coq")
    assert r.returncode == 1 and "a verdict for a prover that never ran" in r.stdout
    assert 'verdict "passed" (stored, not re-verified)' in r.stdout
    r = run_cli("check", str(b), "--no-coq", "--require", "lean")
    assert r.returncode != 0, r.stdout + r.stderr


def test_a_tampered_coq_file_is_not_reported_as_coq_passed(small: Path, tmp_path: Path):
    b = _copy(small, tmp_path)
    v = next((b / "coq" / "Certificates").glob("Rank_*.v"))
    v.write_text(v.read_text() + "\n(* edited *)\n")
    r = run_cli("check", str(b), "--no-lean")
    assert r.returncode == 1
    assert "re-rendered file only" in r.stdout + r.stderr


@pytest.mark.parametrize("how", ["deleted", "replaced"])
def test_certify_check_rejects_a_deleted_or_replaced_figure(small: Path, tmp_path: Path, how):
    b = _copy(small, tmp_path)
    fig = b / "figures" / "resnet-quadratic.png"
    if how == "deleted":
        fig.unlink()
    else:
        fig.write_bytes(fig.read_bytes()[:-16] + b"\0" * 16)
    r = run_cli("check", str(b), "--no-coq", "--no-lean")
    assert r.returncode == 1
    assert "figures/resnet-quadratic.png" in r.stdout + r.stderr
