"""Clean failures (issue 25 item 9): Ctrl-C leaves no scratch directory in $TMPDIR, whether
the tasks run in this process (--jobs 1) or in a pool, in `certify run` or `certify check`
(tests/test_out_dir_safety.py: the pool's run; tests/test_dask_local.py: a local Dask
cluster); a scratch directory is known before it exists and removed at exit whatever cut its
`finally` short; bad input or arguments of every subcommand is exit 2 with a message naming
the argument and no traceback, an unusable --out before any work."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path

import pytest

from certify import scratch
from certify.errors import InputError
from tests.conftest import fake_coqc, run_cli, small_rank_spec

ROOT = Path(__file__).resolve().parents[1]
SPEC = small_rank_spec("cf")


def cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return run_cli(*args, cwd=ROOT, env=env, timeout=600)


# ------------------------------------------------------------------ Ctrl-C, no scratch left


def _fake_coqc(tmp_path: Path, mark: Path) -> str:
    """A coqc whose library build returns at once and whose certificate compiles hang."""
    return fake_coqc(
        tmp_path, f'case "$*" in *Certificates/*) touch {mark}; sleep 60;; esac\nexit 0'
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    ("cmd", "jobs"), [("run", "1"), ("check", "1"), ("check", "2")],
    ids=["run-in-process", "check-in-process", "check-pool"],
)  # fmt: skip
def test_ctrl_c_mid_run_leaves_no_scratch_directory_in_tmpdir(tmp_path, cmd, jobs):
    (tmp_path / "cf.toml").write_text(SPEC)
    out = tmp_path / "o"
    if cmd == "check":  # a bundle to check, written without coqc
        r = cli("run", str(tmp_path / "cf.toml"), "--out", str(out), "--no-coq", "--no-lean",
                "--quiet")  # fmt: skip
        assert r.returncode == 0, r.stderr
        before = sorted(p.relative_to(out).as_posix() for p in out.rglob("*"))
    # short: the pool's forkserver socket lives in TMPDIR (108-byte AF_UNIX path limit)
    tmpdir = Path(tempfile.mkdtemp(prefix="T", dir=tmp_path.parents[1]))
    mark = tmp_path / "compiling"
    env = dict(os.environ, PATH=_fake_coqc(tmp_path, mark), TMPDIR=str(tmpdir),
               NN_CERTIFY_CACHE=str(tmp_path / "cache"))  # fmt: skip
    args = [str(tmp_path / "cf.toml")] if cmd == "run" else []
    p = subprocess.Popen(
        [sys.executable, "-m", "certify.cli", cmd, *args, *([] if cmd == "check" else
         ["--out"]), str(out), "--no-lean", "--jobs", jobs],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 300
        while not mark.exists() and time.monotonic() < deadline:
            assert p.poll() is None, p.communicate()
            time.sleep(0.1)
        time.sleep(0.5)
        assert any(tmpdir.iterdir())  # the certificate's scratch directory exists now
        p.send_signal(signal.SIGINT)
        err = p.communicate(timeout=120)[1]
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    time.sleep(0.5)
    assert sorted(x.name for x in tmpdir.iterdir()) == []
    if cmd == "run":
        assert not out.exists()
    else:
        assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*")) == before


def test_a_scratch_directory_whose_clean_up_a_second_ctrl_c_cut_short_is_removed_at_exit(
    tmp_path,
):
    prog = f"""
import shutil, sys
from certify import scratch
def cut_short(*a, **k):
    raise KeyboardInterrupt  # the second Ctrl-C, inside the `finally`
try:
    with scratch.scratch_dir("nn-certify-t-", dir={str(tmp_path)!r}) as d:
        (d / "f").write_text("x")
        shutil.rmtree, real = cut_short, shutil.rmtree
        raise KeyboardInterrupt
except KeyboardInterrupt:
    shutil.rmtree = real
print(sorted(p.name for p in d.parent.iterdir()))
"""
    r = subprocess.run([sys.executable, "-c", prog], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().startswith("['nn-certify-t-")  # still there after the `finally`
    assert list(tmp_path.iterdir()) == []  # removed at exit


def test_a_scratch_name_that_exists_is_someone_elses_and_is_never_removed(tmp_path, monkeypatch):
    names = iter(["a" * 16, "b" * 16])
    monkeypatch.setattr(scratch.secrets, "token_hex", lambda n: next(names))
    theirs = tmp_path / f"nn-certify-t-{'a' * 16}"
    theirs.mkdir()
    (theirs / "keep").write_text("user data")
    with scratch.scratch_dir("nn-certify-t-", dir=tmp_path) as d:
        assert d.name == f"nn-certify-t-{'b' * 16}" and d.is_dir()
        assert theirs not in scratch._LIVE and d in scratch._LIVE
        scratch.remove_all()
        assert not d.exists()
    assert (theirs / "keep").read_text() == "user data"


# ------------------------------------------------------------- bad input: exit 2 everywhere


@pytest.fixture
def files(tmp_path: Path) -> Path:
    (tmp_path / "cf.toml").write_text(SPEC)
    (tmp_path / "bad.toml").write_text("x = \n")
    (tmp_path / "model.pt").write_bytes(b"not a model")
    (tmp_path / "a-dir").mkdir()
    (tmp_path / "a-file").write_text("")
    return tmp_path


UNMAKEABLE = "/proc/nn-certify-test/o"  # not even root can create this

BAD = {  # subcommand + bad arguments -> a word the message must contain
    "run-bad-spec": (["run", "{d}/bad.toml", "--out", "{d}/o"], "bad.toml"),
    "run-missing-spec": (["run", "{d}/missing.toml", "--out", "{d}/o"], "missing.toml"),
    "run-out-unmakeable": (["run", "{d}/cf.toml", "--out", UNMAKEABLE], "--out"),
    "run-out-a-file": (["run", "{d}/cf.toml", "--out", "{d}/a-file"], "--out"),
    "run-jobs-0": (["run", "{d}/cf.toml", "--out", "{d}/o", "--jobs", "0"], "--jobs"),
    "run-workers-local": (
        ["run", "{d}/cf.toml", "--out", "{d}/o", "--workers", "2"],
        "--workers",
    ),  # fmt: skip
    "run-workers-0": (
        ["run", "{d}/cf.toml", "--out", "{d}/o", "--executor", "dask", "--workers", "0"],
        "--workers",
    ),  # fmt: skip
    "run-executor": (
        ["run", "{d}/cf.toml", "--out", "{d}/o", "--executor", "ray"],
        "--executor",
    ),  # fmt: skip
    "run-require": (
        ["run", "{d}/cf.toml", "--out", "{d}/o", "--require", "isabelle"],
        "--require",
    ),  # fmt: skip
    "run-cache-dir-unmakeable": (
        ["run", "{d}/cf.toml", "--out", "{d}/o", "--cache-dir", UNMAKEABLE],
        "--cache-dir",
    ),  # fmt: skip
    "run-cache-dir-a-file": (
        ["run", "{d}/cf.toml", "--out", "{d}/o", "--cache-dir", "{d}/a-file"],
        "--cache-dir",
    ),  # fmt: skip
    "demo-out-unmakeable": (["demo", "--out", UNMAKEABLE], "--out"),
    "check-timeout": (["check", "{d}/a-dir", "--timeout", "-1"], "--timeout"),
    "table-format": (["table", "{d}/a-dir", "--format", "xls"], "--format"),
    "check-missing-bundle": (["check", "{d}/missing"], "BUNDLE"),
    "check-bundle-a-file": (["check", "{d}/a-file"], "BUNDLE"),
    "table-missing-bundle": (["table", "{d}/missing"], "BUNDLE"),
    "table-bundle-a-file": (["table", "{d}/a-file"], "BUNDLE"),
    "bounds-k": (["bounds", "--k", "0", "--m", "2"], "--k"),
    "bounds-widths": (
        ["bounds", "--k", "2", "--m", "2", "--widths", "2,x,1", "--r", "2"],
        "--widths",
    ),  # fmt: skip
    "bounds-r": (["bounds", "--k", "2", "--m", "2", "--r", "two"], "--r"),
    "figure-name": (["figure", "resnet-cubic", "--out", "{d}/f.png"], "resnet-quadratic"),
    "figure-out-a-dir": (["figure", "resnet-quadratic", "--out", "{d}/a-dir"], "--out"),
    "figure-out-unmakeable": (["figure", "resnet-quadratic", "--out", UNMAKEABLE], "--out"),
    "from-torch-missing-model": (
        ["from-torch", "{d}/missing.pt", "--out", "{d}/s.toml"],
        "missing.pt",
    ),  # fmt: skip
    "from-torch-out-a-dir": (["from-torch", "{d}/model.pt", "--out", "{d}/a-dir"], "--out"),
    "from-torch-out-unmakeable": (
        ["from-torch", "{d}/model.pt", "--out", UNMAKEABLE],
        "--out",
    ),  # fmt: skip
    "from-torch-precision": (
        ["from-torch", "{d}/model.pt", "--out", "{d}/s.toml", "--precision", "99"],
        "--precision",
    ),  # fmt: skip
    "ci-template-out-a-file": (["ci-template", "--out", "{d}/a-file"], "--out"),
    "no-subcommand": ([], "required"),
    "unknown-subcommand": (["prove"], "prove"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_arguments_of_every_subcommand_exit_2_naming_them(files, case):
    args, word = BAD[case]
    r = cli(*(a.format(d=files) for a in args))
    assert r.returncode == 2, (case, r.stdout, r.stderr)
    assert word in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert not (files / "o").exists() and not (files / "s.toml").exists()
    assert not (files / "f.png").exists()


def test_an_unusable_out_is_refused_before_any_certificate_is_computed(files):
    """Progress lines on (no --quiet): the refusal comes before the run's first phase."""
    for cmd in (["run", str(files / "cf.toml")], ["demo"]):
        r = cli(*cmd, "--out", UNMAKEABLE)
        assert r.returncode == 2, r.stderr
        assert r.stderr.startswith("certify: error: --out ") and r.stderr.count("\n") == 1
        assert "[certify]" not in r.stderr and r.stdout == ""


def test_a_torch_module_whose_weights_cannot_be_read_is_input_error_exit_2(tmp_path, monkeypatch):
    """A module named Linear whose weight is not a tensor (torch's quantized Linear has a
    method `weight`): InputError naming the module, not a traceback. A stand-in `torch`
    module, so the test needs no torch; torch.load itself is the real one's business."""
    from certify import torch_import as T

    class Sequential(list):
        pass

    class Linear:
        def weight(self):  # as in torch.ao.nn.quantized.Linear
            return None

        bias = None

    fake = types.ModuleType("torch")
    fake.nn = types.SimpleNamespace(Sequential=Sequential)  # type: ignore[attr-defined]
    fake.load = lambda *a, **k: Sequential([Linear()])  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "torch", fake)
    with pytest.raises(InputError, match=r"module 0 \(Linear\): cannot read its weights") as e:
        T.load_modules(tmp_path / "m.pt")
    assert e.value.exit_code == 2
