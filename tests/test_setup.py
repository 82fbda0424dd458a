"""The README's Set-up block is two commands that work on a stock system (venv, PEP 668),
.ci/run runs exactly those, and the repository carries its licence and dependencies."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINE1 = (
    "apt-get update && apt-get install -y coq libcoq-mathcomp-ssreflect libcoq-mathcomp-algebra "
    "python3-venv python3-pip && python3 -m venv .venv "
    "&& .venv/bin/pip install '.[test]' && .venv/bin/certify demo --out demo-out"
)


def setup_block() -> list[str]:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Set-up", 1)[1]
    m = re.search(r"```sh\n(.*?)```", section, re.S)
    assert m, "no sh code block in the Set-up section"
    return m.group(1).strip("\n").split("\n")


def test_readme_setup_is_two_commands_installing_into_a_venv():
    assert setup_block() == [LINE1, "NN_CERTIFY_TEST_DEMO=demo-out .venv/bin/pytest"]


def test_ci_runs_the_readme_commands_and_ruff_and_fails_on_no_tests():
    ci = (ROOT / ".ci" / "run").read_text()
    line1, line2 = setup_block()
    assert line1 in ci
    assert line1.split(" && ", 3)[3] in ci  # the same without apt-get where coq exists
    lines = [x.strip() for x in ci.splitlines()]
    for cmd in (line2, ".venv/bin/ruff check .", ".venv/bin/ruff format --check ."):
        assert cmd in lines, cmd
    assert '"$rc" -eq 5' in ci and "pip install -e" not in ci


def test_pyproject_dependencies_and_licence():
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert "numpy>=1.26" in meta["dependencies"]
    assert meta["license"] == "MIT"
    lic = (ROOT / "LICENSE").read_text()
    assert lic.startswith("MIT License") and "nn-certify contributors" in lic


def test_user_guide_documents_every_exit_code():
    """The exit codes and the flags moved from the README to docs/user-guide.md (the README
    links to its section)."""
    guide = (ROOT / "docs" / "user-guide.md").read_text()
    for code in ("| 0 |", "| 1 |", "| 2 |", "| 3 |", "| 130 |", "| 143 |"):
        assert code in guide, code
    for flag in ("--require coq,lean", "--force", "--cache-dir", "--no-cache", "NN_CERTIFY_CACHE"):
        assert flag in guide, flag
    link = "docs/user-guide.md#commands-run-check-demo-exit-codes"
    assert link in (ROOT / "README.md").read_text()
