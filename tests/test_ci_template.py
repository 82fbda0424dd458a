"""`certify ci-template`: the templates follow the bundle they are written for (its sdist; Coq
always; Lean only when the bundle ran it or --require lean), the workflow parses as YAML and
runs exactly `commands(plan)`, the shell script runs the same commands (executed here with fake
apt-get, curl, coqc, lake and python3, so each install step is seen to run or to be skipped),
a bundle without an sdist needs --pip, and no existing file is overwritten without --force.
tests/test_ci_gate.py runs the generated script for real on a real bundle."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from certify.ci_template import SCRIPT, WORKFLOW, commands, plan
from tests.test_cli_gates import cli

yaml = pytest.importorskip("yaml")  # PyYAML: in the test extra
SDIST = {"file": "tool/nn_certify-0.1.0.tar.gz", "sha256": "0" * 64}
APT = ("apt-get install -y coq libcoq-mathcomp-ssreflect libcoq-mathcomp-algebra python3-venv "
       "python3-pip curl")  # fmt: skip


def _lean(status: str, message: str) -> dict:
    return {"name": "c", "verdicts": {"checker": "passed", "coq": "passed", "lean": status},
            "messages": {"checker": [], "coq": "", "lean": message}}  # fmt: skip


NO_LEAN = _lean("not-run", "disabled (--no-lean)")
LEAN_PASSED = _lean("passed", "")
LAKE_MISSING = _lean("not-run", "lake not found on PATH")
OVER_BUDGET = _lean(
    "not-run",
    "estimated Lean kernel cost 900 s exceeds the limit 600 s (--lean-max-seconds; model in "
    "certify/lean_cost.py)",
)


def _bundle(repo: Path, rel: str = "bundle", sdist: dict | None = SDIST, entries=(NO_LEAN,)):
    """A stand-in for a bundle at repo/rel: the manifest keys ci-template reads."""
    b = repo / rel
    (b / "lean").mkdir(parents=True)
    (b / "lean" / "lean-toolchain").write_text("leanprover/lean4:v4.36.0\n")
    m = {"schema": "nn-certify-manifest/1", "tool_sdist": sdist, "certificates": list(entries)}
    (b / "manifest.json").write_text(json.dumps(m))
    return m


def test_the_workflow_installs_the_bundled_sdist_and_requires_coq_only(tmp_path: Path):
    m = _bundle(tmp_path, "paper/bundle")
    r = cli("ci-template", "--out", str(tmp_path), "--bundle", "paper/bundle")
    assert r.returncode == 0, r.stderr
    assert "CI installs paper/bundle/tool/nn_certify-0.1.0.tar.gz and requires coq" in r.stdout
    wf = yaml.safe_load((tmp_path / WORKFLOW).read_text())
    job = wf["jobs"]["verify"]
    assert job["env"]["BUNDLE"] == "paper/bundle"
    assert job["env"]["NN_CERTIFY_PIP"] == "paper/bundle/tool/nn_certify-0.1.0.tar.gz"
    assert job["runs-on"].startswith("ubuntu")
    steps = job["steps"]
    assert steps[0] == {"uses": "actions/checkout@v4"}
    runs = [s["run"] for s in steps[1:]]
    assert runs == commands(plan(m, "paper/bundle", None, frozenset()))
    assert not any("elan" in c for c in runs)
    assert runs[-1] == '.nn-certify-venv/bin/certify check "$BUNDLE" --no-lean --require coq'


@pytest.mark.parametrize(
    "entries, require, lean, required, note",
    [
        ((LEAN_PASSED,), (), True, "coq,lean", False),
        ((LAKE_MISSING,), (), True, "coq,lean", False),  # asked for Lean, not found
        ((NO_LEAN,), ("--require", "lean"), True, "coq,lean", False),
        ((LEAN_PASSED, OVER_BUDGET), (), True, "coq", True),  # requiring Lean could not pass
        ((LEAN_PASSED, OVER_BUDGET), ("--require", "lean"), True, "coq,lean", False),
        ((NO_LEAN,), ("--require", "coq"), False, "coq", False),
    ],
    ids=["lean-ran", "lean-asked-not-found", "require-lean", "over-budget", "over-budget-forced",
         "no-lean"],
)  # fmt: skip
def test_lean_follows_the_bundle_or_require(tmp_path, entries, require, lean, required, note):
    _bundle(tmp_path, entries=entries)
    r = cli("ci-template", "--out", str(tmp_path), *require)
    assert r.returncode == 0, r.stderr
    assert r.stdout.endswith(f"requires {required}\n") != note
    assert ("over the Lean cost limit" in r.stdout) == note
    runs = [s["run"] for s in yaml.safe_load((tmp_path / WORKFLOW).read_text())["jobs"]["verify"]
            ["steps"][1:]]  # fmt: skip
    assert any("elan-init.sh" in c and "lean/lean-toolchain" in c for c in runs) == lean
    assert runs[-1].endswith(f'certify check "$BUNDLE" --require {required}') == lean
    assert runs[-1].endswith(f'"$BUNDLE" --no-lean --require {required}') == (not lean)


def test_a_bundle_without_an_sdist_needs_pip(tmp_path: Path):
    _bundle(tmp_path, sdist=None)
    r = cli("ci-template", "--out", str(tmp_path))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "carries no sdist" in r.stderr and "--pip SPEC" in r.stderr
    assert not (tmp_path / WORKFLOW).exists() and not (tmp_path / SCRIPT).exists()
    spec = "git+https://example.org/nn-certify@v0.1.0"
    r = cli("ci-template", "--out", str(tmp_path), "--pip", spec)
    assert r.returncode == 0, r.stderr
    wf = yaml.safe_load((tmp_path / WORKFLOW).read_text())
    assert wf["jobs"]["verify"]["env"]["NN_CERTIFY_PIP"] == spec
    assert f': "${{NN_CERTIFY_PIP:={spec}}}"' in (tmp_path / SCRIPT).read_text()


def test_a_missing_bundle_is_named(tmp_path: Path):
    r = cli("ci-template", "--out", str(tmp_path), "--bundle", "nowhere")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "--bundle nowhere" in r.stderr and "no manifest.json" in r.stderr
    assert not (tmp_path / SCRIPT).exists()


def _fake(bin_dir: Path, name: str, body: str) -> None:
    (bin_dir / name).write_text("#!/bin/sh\n" + body + "\n")
    (bin_dir / name).chmod(0o755)


def _run_script(tmp_path: Path, tools: tuple[str, ...]) -> list[str]:
    """Run the generated ci/verify.sh with fake tools (`tools`: fake coqc / lake present)
    and return the log of what ran."""
    log = tmp_path / "log"
    fake = tmp_path / "bin"
    fake.mkdir()
    _fake(fake, "apt-get", f'echo "apt-get $*" >> {log}')
    _fake(fake, "curl", f"echo 'echo \"elan-init $*\" >> {log}'")
    for t in tools:
        _fake(fake, t, "exit 0")
    _fake(
        fake,
        "python3",
        f"""echo "python3 $*" >> {log}
mkdir -p "$3/bin"
printf '#!/bin/sh\\necho "pip $*" >> {log}\\n' > "$3/bin/pip"
printf '#!/bin/sh\\necho "certify $*" >> {log}\\n' > "$3/bin/certify"
chmod +x "$3/bin/pip" "$3/bin/certify\"""",
    )
    # `sh`, `cat`, `id`, `mkdir` and friends from a directory of links, so that no real coqc
    # or lake on this machine is found
    sysbin = tmp_path / "sysbin"
    sysbin.mkdir()
    for t in ("sh", "cat", "id", "mkdir", "printf", "chmod"):
        real = next(Path(d) / t for d in ("/usr/bin", "/bin") if (Path(d) / t).exists())
        (sysbin / t).symlink_to(real)
    env = {"PATH": f"{fake}:{sysbin}", "HOME": str(tmp_path / "home"), "SUDO": ""}
    r = subprocess.run([str(sysbin / "sh"), str(tmp_path / SCRIPT)], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=60)  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
    return log.read_text().splitlines()


@pytest.mark.parametrize("tools", [(), ("coqc",), ("coqc", "lake")], ids=["none", "coqc", "both"])
def test_the_script_runs_the_same_commands_and_skips_what_is_installed(tmp_path: Path, tools):
    m = _bundle(tmp_path, entries=(LEAN_PASSED,))
    assert cli("ci-template", "--out", str(tmp_path)).returncode == 0
    script = (tmp_path / SCRIPT).read_text()
    assert script.startswith("#!/bin/sh\n") and "set -eu" in script
    cmds = commands(plan(m, "bundle", None, frozenset()))
    assert script.rstrip("\n").splitlines()[-len(cmds) :] == cmds
    assert os.access(tmp_path / SCRIPT, os.X_OK)
    want = []
    if "coqc" not in tools:
        want += ["apt-get update", APT]
    if "lake" not in tools:
        want += ["elan-init -y --default-toolchain leanprover/lean4:v4.36.0"]
    want += [
        "python3 -m venv .nn-certify-venv",
        "pip install bundle/tool/nn_certify-0.1.0.tar.gz",
        "certify check bundle --require coq,lean",
    ]
    assert _run_script(tmp_path, tools) == want


def test_existing_files_are_not_overwritten_without_force(tmp_path: Path):
    _bundle(tmp_path)
    (tmp_path / "ci").mkdir()
    (tmp_path / SCRIPT).write_text("mine")
    r = cli("ci-template", "--out", str(tmp_path))
    assert r.returncode == 2
    assert "already exists; refusing to overwrite" in r.stderr and SCRIPT in r.stderr
    assert (tmp_path / SCRIPT).read_text() == "mine"
    assert not (tmp_path / WORKFLOW).exists()
    r = cli("ci-template", "--out", str(tmp_path), "--force")
    assert r.returncode == 0, r.stderr
    assert (tmp_path / SCRIPT).read_text() != "mine"


BAD_VALUES = [
    ("--bundle", "a'b"),
    ("--bundle", ""),
    ("--pip", "x$(rm -rf /)"),
    ("--bundle", "a\nb"),
]


@pytest.mark.parametrize("flag, value", BAD_VALUES)
def test_a_value_that_would_break_the_quoting_is_refused(tmp_path: Path, flag: str, value: str):
    r = cli("ci-template", "--out", str(tmp_path / "o"), flag, value)
    assert r.returncode == 2 and flag in r.stderr
    assert not (tmp_path / "o").exists()
