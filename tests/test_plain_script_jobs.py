"""api.run(..., jobs=2) from a plain script, without an `if __name__ == "__main__":` guard
(issue 25, item 7): the workers must not re-run the script. They used to, and died ("a
worker process died")."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from certify.cli import example_specs

SCRIPT = """
from pathlib import Path
from certify import api
E = Path({examples!r})
m = api.run([E / "ktb-2-2-1.toml", E / "resnet-figure-1.toml"], out={out!r}, jobs=2,
            coq=False, lean=False)
print("certificates", len(m["certificates"]))
"""


def test_a_plain_script_without_a_main_guard_runs_two_jobs(tmp_path: Path):
    out = tmp_path / "bundle"
    script = tmp_path / "plain.py"
    script.write_text(SCRIPT.format(examples=str(example_specs()[0].parent), out=str(out)))
    r = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=600, check=False
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.count("certificates ") == 1  # the script ran once, not once per worker
    m = json.loads((out / "manifest.json").read_text())
    assert len(m["certificates"]) == 3
    assert "Traceback" not in r.stderr
