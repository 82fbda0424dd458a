"""An installed wheel (not the checkout) finds its templates and prover libraries and runs
`certify demo` from an unrelated directory."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_wheel_installs_into_a_fresh_venv_and_runs_the_demo(tmp_path: Path):
    dist = tmp_path / "dist"
    r = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(ROOT)],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr
    (wheel,) = dist.glob("nn_certify-*.whl")
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    py = env_dir / "bin" / "python"
    # The dependencies come from the environment running the tests (a venv or not: inside a
    # venv, system_site_packages would mean the base interpreter's, which lack them). A .pth
    # file appends its site-packages after the new venv's own, so the package itself comes
    # from the wheel; .pth files found there (an editable install of the checkout) are not run.
    site = subprocess.run(
        [str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    deps = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (Path(site) / "outer-deps.pth").write_text("\n".join(sorted(deps)) + "\n")
    r = subprocess.run(
        [str(py), "-m", "pip", "install", "-q", "--no-deps", "--force-reinstall", str(wheel)],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr
    work = tmp_path / "elsewhere"
    work.mkdir()
    where = subprocess.run(
        [str(py), "-c", "import certify, certify.resources as R; print(certify.__file__);"
         "print(R.resource_dir('templates')); print(R.resource_dir('coq'))"],
        capture_output=True, text=True, cwd=work,
    )  # fmt: skip
    assert where.returncode == 0, where.stderr
    assert all(str(env_dir) in line for line in where.stdout.split()), where.stdout
    r = subprocess.run(
        [str(env_dir / "bin" / "certify"), "demo", "--out", "out", "--no-lean"],
        capture_output=True,
        text=True,
        cwd=work,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert (work / "out" / "manifest.json").is_file()
    assert "coq=failed" not in r.stdout
