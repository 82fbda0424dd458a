"""`certify ci-template`: the workflow parses as YAML and runs exactly COMMANDS, the shell
script runs the same commands (executed here with fake apt-get, curl and python3), the README
documents them, and no existing file is overwritten without --force."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from certify.ci_template import COMMANDS, SCRIPT, WORKFLOW
from tests.test_cli_gates import cli

yaml = pytest.importorskip("yaml")  # PyYAML: in the test extra
ROOT = Path(__file__).resolve().parent.parent


def test_workflow_parses_and_runs_exactly_the_documented_commands(tmp_path: Path):
    r = cli("ci-template", "--out", str(tmp_path), "--bundle", "paper/bundle")
    assert r.returncode == 0, r.stderr
    wf = yaml.safe_load((tmp_path / WORKFLOW).read_text())
    job = wf["jobs"]["verify"]
    assert job["env"]["BUNDLE"] == "paper/bundle"
    assert job["env"]["NN_CERTIFY_PIP"].startswith("nn-certify==")
    assert job["runs-on"].startswith("ubuntu")
    steps = job["steps"]
    assert steps[0] == {"uses": "actions/checkout@v4"}
    assert [s["run"] for s in steps[1:]] == COMMANDS
    assert any("apt-get install -y coq" in c for c in COMMANDS)
    assert any("elan-init.sh" in c and "lean/lean-toolchain" in c for c in COMMANDS)
    assert COMMANDS[-1].endswith('certify check "$BUNDLE" --require coq,lean')
    readme = (ROOT / "README.md").read_text()
    for c in COMMANDS:
        assert c in readme, c


def _fake(bin_dir: Path, name: str, body: str) -> None:
    (bin_dir / name).write_text("#!/bin/sh\n" + body + "\n")
    (bin_dir / name).chmod(0o755)


def test_the_script_runs_the_same_commands_with_the_bundles_pinned_toolchain(tmp_path: Path):
    assert cli("ci-template", "--out", str(tmp_path)).returncode == 0
    script = (tmp_path / SCRIPT).read_text()
    assert script.startswith("#!/bin/sh\n") and "set -eu" in script
    assert script.rstrip("\n").splitlines()[-len(COMMANDS) :] == COMMANDS
    assert os.access(tmp_path / SCRIPT, os.X_OK)
    log = tmp_path / "log"
    fake = tmp_path / "bin"
    fake.mkdir()
    _fake(fake, "apt-get", f'echo "apt-get $*" >> {log}')
    _fake(fake, "curl", f"echo 'echo \"elan-init $*\" >> {log}'")
    _fake(
        fake,
        "python3",
        f"""echo "python3 $*" >> {log}
mkdir -p "$3/bin"
printf '#!/bin/sh\\necho "pip $*" >> {log}\\n' > "$3/bin/pip"
printf '#!/bin/sh\\necho "certify $*" >> {log}\\n' > "$3/bin/certify"
chmod +x "$3/bin/pip" "$3/bin/certify\"""",
    )
    bundle = tmp_path / "bundle" / "lean"
    bundle.mkdir(parents=True)
    (bundle / "lean-toolchain").write_text("leanprover/lean4:v4.36.0\n")
    env = {"PATH": f"{fake}:/usr/bin:/bin", "HOME": str(tmp_path), "SUDO": ""}
    r = subprocess.run(["sh", str(tmp_path / SCRIPT)], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=60)  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
    assert log.read_text().splitlines() == [
        "apt-get update",
        "apt-get install -y coq libcoq-mathcomp-ssreflect libcoq-mathcomp-algebra python3-venv "
        "python3-pip curl",
        "elan-init -y --default-toolchain leanprover/lean4:v4.36.0",
        "python3 -m venv .nn-certify-venv",
        "pip install nn-certify==0.1.0",
        "certify check bundle --require coq,lean",
    ]


def test_existing_files_are_not_overwritten_without_force(tmp_path: Path):
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
