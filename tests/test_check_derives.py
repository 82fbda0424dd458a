"""`certify check` derives the bundle, it never trusts it (issue 22 item 2).

Every forgery of issue 22's "certify check trusts the manifest's inventory" is made here on a
copy of one small bundle, by a careful forger: after the edit, everything that can be
computed from the certificates on disk and the manifest is recomputed (renders, sha256,
results, report, README, the inventory, logs/written.json), so that only a check that
re-derives the bundle from its specs (and walks it without following links) can tell. Each
must make the `certify check` CLI exit 1 naming the problem; the untouched bundle and one
whose CITATION.cff the user filled in must pass."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
from collections.abc import Callable
from pathlib import Path

import pytest

from certify import certificate, table
from certify.bundle import (
    WRITTEN,
    render_certificate,
    report_md,
    write_sources,
    written_record,
)
from certify.cli import example_specs
from certify.provers import coq as coqp
from certify.referee import architecture, referee_files
from tests.conftest import run_cli

# Two fast specs: an MLP rank certificate with Coq assumptions, and Figure 1's ResNet
# (an implicit certificate with a figure, and an orbit certificate).
SPECS = ("ktb-2-2-1", "resnet-figure-1")
NO_PROVERS = ("--no-coq", "--no-lean")


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`certify run` of SPECS with the checker and coqc (no Lean here), once per module.
    Read-only: every test copies it."""
    if coqp.coqc_path() is None:
        pytest.skip("coqc not installed")
    examples = example_specs()[0].parent
    out = tmp_path_factory.mktemp("derive") / "bundle"
    r = run_cli("run", *(str(examples / f"{n}.toml") for n in SPECS), "--out", str(out))
    assert r.returncode == 0, r.stdout + r.stderr
    return out


def _manifest(b: Path) -> dict:
    return json.loads((b / "manifest.json").read_text())


def _save(b: Path, m: dict) -> None:
    (b / "manifest.json").write_text(json.dumps(m, indent=1, sort_keys=True) + "\n")


def _relist(b: Path, extra: dict[str, str | None] | None = None) -> None:
    """The inventory rewritten to what is on disk (regular files hashed, logs without a
    hash; `extra`: entries for what cannot be hashed, a FIFO or a link), then
    logs/written.json rewritten to match (when its files can be read)."""
    m = _manifest(b)
    files: dict[str, str | None] = {}
    for d, _, names in os.walk(b):
        for name in names:
            p = Path(d) / name
            rel = p.relative_to(b).as_posix()
            if rel == "manifest.json":
                continue
            if not stat.S_ISREG(os.lstat(p).st_mode):
                continue
            files[rel] = (
                None if rel.startswith("logs/") else hashlib.sha256(p.read_bytes()).hexdigest()
            )
    files |= extra or {}
    files[WRITTEN] = None
    m["files"] = files
    _save(b, m)
    logs = [r for r, h in files.items() if h is None and r != WRITTEN]
    if all(stat.S_ISREG(os.lstat(b / r).st_mode) for r in logs if (b / r).exists()):
        (b / WRITTEN).write_bytes(written_record(b, files))


def _reseal(b: Path, m: dict | None = None) -> None:
    """After an edit of certificates or of the manifest `m`: re-render every certificate,
    recompute its manifest entry's sha256, claim, result, architecture and file names, the
    results, report.md, README.md and docs/citations.md, then the inventory (_relist)."""
    m = m if m is not None else _manifest(b)
    items, certs = [], {}
    for e in m["certificates"]:
        f = b / "certificates" / f"{e['name']}.json"
        if not f.is_file() or f.is_symlink():
            continue
        cert = certificate.load(f.read_bytes())
        f.write_bytes(certificate.dump(cert))
        it = render_certificate(cert)
        items.append(it)
        certs[e["name"]] = cert
        e.update(
            sha256=it.sha, claim=cert["claim"], result=cert["result"],
            architecture=architecture(cert), coq_file=f"coq/Certificates/{it.module}.v",
            lean_file=f"lean/Certificates/{it.module}.lean",
        )  # fmt: skip
    write_sources(b, items)
    rows = table.rows(m, certs) if len(certs) == len(m["certificates"]) else None
    if rows is not None:
        (b / "results.csv").write_text(table.csv_text(rows))
        (b / "results.json").write_text(table.json_text(rows))
    (b / "report.md").write_text(report_md(m, rows))
    for rel, text in referee_files(m).items():
        (b / rel).write_text(text)
    _save(b, m)
    _relist(b)


def _edit_cert(name: str, edit: Callable[[dict], None]) -> Callable[[Path], None]:
    def forge(b: Path) -> None:
        f = b / "certificates" / f"{name}.json"
        cert = json.loads(f.read_text())
        edit(cert)
        f.write_bytes(certificate.dump(cert))
        _reseal(b)

    return forge


def _edit_manifest(edit: Callable[[dict], None]) -> Callable[[Path], None]:
    def forge(b: Path) -> None:
        m = _manifest(b)
        edit(m)
        _reseal(b, m)

    return forge


def _entry(m: dict, name: str) -> dict:
    return next(e for e in m["certificates"] if e["name"] == name)


# ---------------------------------------------------------------- the forgeries


def extra_listed_coq_file(b: Path) -> None:
    (b / "coq" / "Certificates" / "Extra.v").write_text(
        "Axiom cheat : False.\nTheorem rank_upper_false : False. Proof. exact cheat. Qed.\n"
    )
    _relist(b)


def lookalike_readme(b: Path) -> None:
    shutil.copyfile(b / "README.md", b / "READM\u0415.md")  # a Cyrillic Е
    _relist(b)


def fifo(b: Path) -> None:
    os.mkfifo(b / "logs" / "lean.log")
    _relist(b, {"logs/lean.log": None})


def symlink_to_etc(b: Path) -> None:
    (b / "docs" / "etc").symlink_to("/etc")
    _relist(b, {"docs/etc": None})


def _move_out(b: Path, how: str) -> None:
    f = b / "certificates" / "ktb-2-2-1.json"
    outside = b.parent / "x.json"
    shutil.move(f, outside)
    m = _manifest(b)
    if how == "symlink":
        f.symlink_to(outside)
    else:
        _entry(m, "ktb-2-2-1")["file"] = "../x.json" if how == "relative" else str(outside)
    _save(b, m)
    _relist(b, {"certificates/ktb-2-2-1.json": _entry(m, "ktb-2-2-1")["sha256"]})


def spec_rewritten(b: Path) -> None:
    s = b / "specs" / "ktb-2-2-1.toml"
    text = s.read_text()
    assert "widths = [2, 2, 1]" in text
    s.write_text(text.replace("widths = [2, 2, 1]", "widths = [2, 3, 1]"))
    _relist(b)


def spec_removed(b: Path) -> None:
    (b / "specs" / "ktb-2-2-1.toml").unlink()
    _relist(b)


def spec_removed_with_its_entry(b: Path) -> None:
    (b / "specs" / "ktb-2-2-1.toml").unlink()
    m = _manifest(b)
    m["specs"] = [s for s in m["specs"] if s["name"] != "ktb-2-2-1"]
    _reseal(b, m)


def figure_forged(b: Path) -> None:
    fig = b / "figures" / "resnet-quadratic.png"
    fig.write_bytes(fig.read_bytes()[:-16] + b"\0" * 16)
    m = _manifest(b)
    m["figures"]["resnet-quadratic.png"] = hashlib.sha256(fig.read_bytes()).hexdigest()
    _reseal(b, m)


def figure_removed(b: Path) -> None:
    (b / "figures" / "resnet-quadratic.png").unlink()
    m = _manifest(b)
    del m["figures"]["resnet-quadratic.png"]
    _reseal(b, m)


def tool_version_forged(m: dict) -> None:
    m["tool"]["coqc"] = "8.20.0"


def lean_version_forged(m: dict) -> None:
    m["tool"]["lean"] = "4.9.0"


def checker_message_free_text(m: dict) -> None:
    _entry(m, "ktb-2-2-1")["messages"]["checker"] = ["Reviewed and approved by the referees."]


def coq_message_free_text(m: dict) -> None:
    _entry(m, "ktb-2-2-1")["messages"]["coq"] = "Kernel-checked: the network is identifiable."


def not_run_message_free_text(m: dict) -> None:
    _entry(m, "ktb-2-2-1")["messages"]["lean"] = "Kernel-checked elsewhere: passed."


def lean_passed_never_ran(m: dict) -> None:
    for e in m["certificates"]:
        e["verdicts"]["lean"] = "passed"
        e["messages"]["lean"] = ""


def seed(c: dict) -> None:
    c["generator"]["seed"] = 7


def theta_origin(c: dict) -> None:
    c["generator"]["theta_origin"] = "search"


def stray_network_key(c: dict) -> None:
    c["instance"]["network"]["note"] = "identifiable"


# (id, forge, check flags, a text the FAIL lines must contain)
FORGERIES: list[tuple[str, Callable[[Path], None], tuple[str, ...], str]] = [
    ("extra-listed-Extra.v", extra_listed_coq_file, ("--no-lean",),
     "coq/Certificates/Extra.v: not a file this bundle derives"),
    ("look-alike-README", lookalike_readme, NO_PROVERS, "READM\\u0415.md"),
    ("fifo", fifo, NO_PROVERS, "logs/lean.log: a FIFO"),
    ("symlink-to-etc", symlink_to_etc, NO_PROVERS, 'docs/etc: a symlink to "/etc"'),
    ("certificate-at-../x.json", lambda b: _move_out(b, "relative"), NO_PROVERS,
     "ktb-2-2-1: manifest file is \"../x.json\""),
    ("certificate-at-an-absolute-path", lambda b: _move_out(b, "absolute"), NO_PROVERS,
     "ktb-2-2-1: manifest file is \"/"),
    ("certificate-a-symlink", lambda b: _move_out(b, "symlink"), NO_PROVERS,
     "certificates/ktb-2-2-1.json: a symlink"),
    ("spec-rewritten-to-another-network", spec_rewritten, NO_PROVERS,
     "ktb-2-2-1: certificates/ktb-2-2-1.json differs from the certificate its bundled spec"),
    ("spec-removed", spec_removed, NO_PROVERS, "specs/ktb-2-2-1.toml: missing"),
    ("spec-removed-with-its-entry", spec_removed_with_its_entry, NO_PROVERS,
     "ktb-2-2-1: the bundled specs generate no certificate of this name"),
    ("figure-forged", figure_forged, NO_PROVERS,
     "figures/resnet-quadratic.png: the manifest's sha256 differs from the redrawn"),
    ("figure-removed", figure_removed, NO_PROVERS,
     "figures/resnet-quadratic.png: missing (the certificates call for it)"),
    ("tool-version-forged", _edit_manifest(tool_version_forged), NO_PROVERS,
     'manifest.tool coqc = "8.20.0", this machine has'),
    ("lean-version-forged", _edit_manifest(lean_version_forged), NO_PROVERS,
     'manifest.tool lean = "4.9.0"'),
    ("checker-message-free-text", _edit_manifest(checker_message_free_text), NO_PROVERS,
     "ktb-2-2-1: manifest messages.checker is"),
    ("coq-message-free-text", _edit_manifest(coq_message_free_text), ("--no-lean",),
     "ktb-2-2-1: manifest coq message"),
    ("coq-message-free-text-not-rerun", _edit_manifest(coq_message_free_text), NO_PROVERS,
     "ktb-2-2-1: stored coq verdict is 'passed' with the message"),
    ("not-run-message-free-text", _edit_manifest(not_run_message_free_text), NO_PROVERS,
     "not a reason nn-certify gives"),
    ("stored-lean-passed-never-ran", _edit_manifest(lean_passed_never_ran), ("--no-coq",),
     "a verdict for a prover that never ran"),
    ("generator.seed-edited", _edit_cert("ktb-2-2-1", seed), NO_PROVERS,
     "ktb-2-2-1: certificates/ktb-2-2-1.json differs from the certificate its bundled spec"),
    ("generator.theta_origin-edited", _edit_cert("ktb-2-2-1", theta_origin), NO_PROVERS,
     "ktb-2-2-1: certificates/ktb-2-2-1.json differs from the certificate its bundled spec"),
    ("stray-key-in-instance.network", _edit_cert("resnet-figure-1", stray_network_key),
     NO_PROVERS, "resnet-figure-1: certificates/resnet-figure-1.json differs from the"),
]  # fmt: skip


def _check(b: Path, *flags: str):
    r = run_cli("check", str(b), "--jobs", "1", *flags)
    fails = [line for line in r.stdout.splitlines() if line.startswith("FAIL: ")]
    return r, fails


@pytest.mark.parametrize(
    "forge, flags, needle", [f[1:] for f in FORGERIES], ids=[f[0] for f in FORGERIES]
)
def test_a_forged_bundle_fails_check_naming_the_problem(
    bundle: Path, tmp_path: Path, forge, flags, needle
):
    b = tmp_path / "bundle"
    shutil.copytree(bundle, b, symlinks=True)
    forge(b)
    r, fails = _check(b, *flags)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "Traceback" not in r.stderr
    assert any(needle in line for line in fails), "\n".join(fails) or r.stdout + r.stderr


def test_the_untouched_bundle_and_a_filled_in_citation_pass(bundle: Path, tmp_path: Path):
    r, fails = _check(bundle, "--no-lean")
    assert r.returncode == 0 and not fails, r.stdout + r.stderr
    assert "coq passed (re-verified here)" in r.stdout
    assert 'verdict "not-run" (stored, not re-verified)' in r.stdout
    b = tmp_path / "bundle"
    shutil.copytree(bundle, b, symlinks=True)
    cff = b / "CITATION.cff"
    filled = (
        cff.read_text()
        .replace("<family name>", "Noether")
        .replace("<given names>", "Emmy")
        .replace("<YYYY-MM-DD>", "2026-01-31")
        .replace("# Template: fill in the authors, title and date before publishing this bundle.\n",
                 "")
    )  # fmt: skip
    assert filled != cff.read_text()
    cff.write_text(filled)
    r, fails = _check(b, *NO_PROVERS)
    assert r.returncode == 0 and not fails, r.stdout + r.stderr
    assert "CITATION.cff: user-editable, not compared" in r.stdout


def test_the_forgery_list_covers_issue_22s_bullet():
    """Every forgery the issue names has an entry above."""
    ids = " ".join(f[0] for f in FORGERIES)
    for named in ("Extra.v", "look-alike", "fifo", "symlink-to-etc", "../x.json", "absolute",
                  "certificate-a-symlink", "spec-rewritten", "spec-removed", "figure-forged",
                  "figure-removed", "tool-version", "message-free-text", "lean-passed",
                  "seed", "theta_origin"):  # fmt: skip
        assert named in ids, named


def test_a_bundle_from_an_api_dict_carries_its_spec_and_checks(tmp_path: Path):
    from certify import api

    spec = {"name": "api-k", "network": {"family": "mlp", "widths": [2, 2, 1],
                                         "activation": "t^2", "bias": False}}  # fmt: skip
    outs = []
    for i in range(2):
        out = tmp_path / f"b{i}"
        api.run(spec, out, coq=False, lean=False, jobs=1)
        outs.append(out)
    kept = (outs[0] / "specs" / "api-k.json").read_bytes()
    assert json.loads(kept) == spec
    assert kept == (outs[1] / "specs" / "api-k.json").read_bytes()  # deterministic
    m = _manifest(outs[0])
    assert m["specs"] == [{"name": "api-k", "file": "api-k.json", "bundled": "specs/api-k.json"}]
    res = api.check(outs[0], coq=False, lean=False)
    assert res.verified, res.problems
