"""`certify ci-template`: a GitHub Actions workflow and a plain shell script that re-verify a
bundle with the very nn-certify that wrote it and the provers it ran.

What they do follows the bundle, read when the templates are written (`plan`):
  * install: the sdist the bundle carries (`pip install BUNDLE/tool/nn_certify-V.tar.gz`,
    manifest `tool_sdist`, certify/tool_sdist.py); `--pip SPEC` installs SPEC instead (an
    index version, a git URL) and is required when the bundle carries none;
  * Coq always: coqc from apt, skipped when coqc is already on PATH; the check requires it;
  * Lean only when the bundle was written with Lean (a Lean verdict obtained, or Lean asked
    for and not found) or `--require lean` is given: elan with the bundle's pinned toolchain
    (BUNDLE/lean/lean-toolchain), skipped when lake is already there; the check requires
    Lean too unless some certificate was over the Lean cost limit when the bundle was
    written (check skips it again, so requiring Lean could never pass; --require lean
    forces it). Without Lean the check runs with --no-lean.

The workflow's steps and the script run exactly `commands(...)`, in order
(tests/test_ci_template.py parses the YAML and the script and compares, and runs the script's
install and check steps on a real bundle)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from certify.errors import InputError, OutputError

ELAN_INIT = "https://raw.githubusercontent.com/leanprover/elan/master/elan-init.sh"
VENV = ".nn-certify-venv"
APT = "coq libcoq-mathcomp-ssreflect libcoq-mathcomp-algebra python3-venv python3-pip curl"
# The stored not-run reasons that say Lean was not asked for, or skipped for its cost.
LEAN_DISABLED = "disabled (--no-lean)"
LEAN_OVER_BUDGET = re.compile(
    r"estimated Lean kernel (cost \d+ s|memory \d+\.\d GiB) exceeds the limit"
)

WORKFLOW = ".github/workflows/nn-certify.yml"
SCRIPT = "ci/verify.sh"


@dataclass(frozen=True)
class Plan:
    """What CI does for one bundle: what pip installs, whether Lean is installed, the
    provers the check requires, and notes for the user."""

    pip_spec: str
    lean: bool
    require: frozenset[str]
    notes: tuple[str, ...] = ()


def commands(plan: Plan) -> list[str]:
    """The shell commands CI runs, in order ($BUNDLE: the bundle directory;
    $NN_CERTIFY_PIP: what pip installs; $SUDO: sudo or empty)."""
    out = [
        f"command -v coqc >/dev/null || {{ $SUDO apt-get update && $SUDO apt-get install -y "
        f"{APT}; }}"
    ]
    if plan.lean:
        out.append(
            '[ -x "$HOME/.elan/bin/lake" ] || command -v lake >/dev/null || '
            f"curl -sSfL {ELAN_INIT} | sh -s -- -y --default-toolchain "
            '"$(cat "$BUNDLE/lean/lean-toolchain")"'
        )
    out += [f"python3 -m venv {VENV}", f'{VENV}/bin/pip install "$NN_CERTIFY_PIP"']
    req = ",".join(sorted(plan.require))
    if plan.lean:
        out.append(
            f'PATH="$HOME/.elan/bin:$PATH" {VENV}/bin/certify check "$BUNDLE" --require {req}'
        )
    else:
        out.append(f'{VENV}/bin/certify check "$BUNDLE" --no-lean --require {req}')
    return out


def _lean_verdicts(manifest: dict[str, Any]) -> list[tuple[Any, Any]]:
    out = []
    for e in manifest.get("certificates") or []:
        if isinstance(e, dict):
            v, m = e.get("verdicts"), e.get("messages")
            out.append(
                (v.get("lean") if isinstance(v, dict) else None,
                 m.get("lean") if isinstance(m, dict) else None)
            )  # fmt: skip
    return out


def plan(
    manifest: dict[str, Any], bundle: str, pip_spec: str | None, require: frozenset[str]
) -> Plan:
    """The Plan for a bundle's manifest (module docstring); InputError (exit 2) when the
    bundle carries no sdist and no --pip is given."""
    notes: list[str] = []
    if pip_spec is None:
        sdist = manifest.get("tool_sdist")
        if not isinstance(sdist, dict) or not isinstance(sdist.get("file"), str):
            raise InputError(
                f"--bundle {bundle}: the bundle carries no sdist of nn-certify (manifest "
                "tool_sdist is null: it was written by an installed nn-certify without its "
                "source tree); pass --pip SPEC (e.g. a git URL or an index version of the "
                "nn-certify that wrote it)"
            )
        pip_spec = f"{bundle}/{sdist['file']}"
    lean = _lean_verdicts(manifest)
    asked = [(s, m) for s, m in lean if not (s == "not-run" and m == LEAN_DISABLED)]
    over = [m for s, m in asked if s == "not-run" and LEAN_OVER_BUDGET.match(str(m))]
    with_lean = bool(asked) or "lean" in require
    req = frozenset({"coq"}) | require
    if asked and not over:
        req |= {"lean"}
    elif over and "lean" not in require:
        notes.append(
            f"{len(over)} certificate(s) were over the Lean cost limit when the bundle was "
            "written: CI installs Lean and runs it where it can, but does not require it "
            "(--require lean would require it, and fail on those)"
        )
    return Plan(pip_spec, with_lean, req, tuple(notes))


def read_manifest(out: Path, bundle: str) -> dict[str, Any]:
    """The manifest of the bundle at `bundle` (relative to `out`, the repository root where
    CI runs); InputError naming --bundle when it cannot be read."""
    from certify.errors import BundleError
    from certify.verify import _read_manifest

    where = Path(bundle) if Path(bundle).is_absolute() else out / bundle
    try:
        return _read_manifest(where)
    except BundleError as e:
        raise InputError(
            f"--bundle {bundle}: {e} (ci-template reads the bundle, relative to --out {out}: "
            "its bundled nn-certify and the provers it ran; write the bundle first)"
        ) from None


def _quote_yaml(s: str) -> str:
    return "'" + s.replace("'", "''") + "'"


def _provers(p: Plan) -> str:
    return "Coq and Lean" if p.lean else "Coq"


def _installs(p: Plan) -> str:
    return "coqc from apt, Lean with elan, each when absent" if p.lean else "from apt when absent"


def workflow_text(bundle: str, p: Plan) -> str:
    steps = "\n".join(f"      - run: {_quote_yaml(c)}" for c in commands(p))
    lean = (
        f"\n# Lean: elan with the toolchain pinned in {bundle}/lean/lean-toolchain."
        if p.lean
        else ""
    )
    return f"""# Generated by `certify ci-template`: re-verify the nn-certify bundle at {bundle}
# with the nn-certify it names and {_provers(p)}; the job fails unless
# `certify check` verifies it with every required prover passing (--require
# {",".join(sorted(p.require))}; exit 3 otherwise).{lean}
name: nn-certify
on:
  push:
  pull_request:
  workflow_dispatch:
jobs:
  verify:
    runs-on: ubuntu-24.04
    timeout-minutes: 180
    env:
      BUNDLE: {_quote_yaml(bundle)}
      NN_CERTIFY_PIP: {_quote_yaml(p.pip_spec)}
      SUDO: sudo
    steps:
      - uses: actions/checkout@v4
{steps}
"""


def script_text(bundle: str, p: Plan, default_pip: str) -> str:
    body = "\n".join(commands(p))
    return f"""#!/bin/sh
# Generated by `certify ci-template`: re-verify the nn-certify bundle with the nn-certify it
# names and {_provers(p)} ({_installs(p)}), for any CI that runs a shell on
# Debian/Ubuntu. Exit status: that of `certify check` (0 verified, 1 a mismatch or a
# failed certificate, 3 a required prover did not pass).
set -eu
: "${{BUNDLE:={bundle}}}"
: "${{NN_CERTIFY_PIP:={default_pip}}}"
if [ -z "${{SUDO+x}}" ]; then
  if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
fi
{body}
"""


def write_templates(
    out: Path,
    bundle: str = "bundle",
    pip_spec: str | None = None,
    force: bool = False,
    require: frozenset[str] = frozenset(),
) -> tuple[list[Path], Plan]:
    """Write the workflow and the script under `out` for the bundle at `out/bundle`; an
    existing file is never overwritten without `force` (OutputError, exit 2, nothing
    written)."""
    for bad, what in ((bundle, "--bundle"), (pip_spec, "--pip")):
        if bad is None and what == "--pip":
            continue
        if not bad or any(c in bad for c in "'\"`$\\\n\r"):
            raise OutputError(f"{what} {bad!r}: expected a non-empty value without quotes, "
                              "backslashes, '$' or newlines")  # fmt: skip
    if out.exists() and not out.is_dir():
        raise OutputError(f"--out {out}: exists and is not a directory")
    p = plan(read_manifest(out, bundle), bundle, pip_spec, require)
    # The script's default follows $BUNDLE when it is overridden (the workflow sets both).
    default_pip = p.pip_spec
    if pip_spec is None and p.pip_spec.startswith(bundle + "/"):
        default_pip = "$BUNDLE" + p.pip_spec[len(bundle) :]
    files = {
        out / WORKFLOW: workflow_text(bundle, p),
        out / SCRIPT: script_text(bundle, p, default_pip),
    }
    existing = [f for f in files if f.exists() or f.is_symlink()]
    if existing and not force:
        raise OutputError(
            f"{', '.join(str(f) for f in existing)}: already exists; refusing to overwrite "
            "(--force replaces it)"
        )
    try:
        for f, text in files.items():
            f.parent.mkdir(parents=True, exist_ok=True)
            if f.is_symlink():
                f.unlink()
            f.write_text(text)
        (out / SCRIPT).chmod(0o755)
    except OSError as e:
        raise OutputError(f"--out {out}: cannot write the CI templates: {e}") from None
    return list(files), p
