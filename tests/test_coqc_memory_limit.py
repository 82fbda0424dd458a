"""coqc runs under an address-space limit (issue 22: one coqc reached 9.9 GB on a forged
certificate): RLIMIT_AS of $NN_CERTIFY_COQC_MEMORY_GIB GiB (default 8) is set in the child
before exec, and a coqc that runs out of it fails with a named verdict."""

from __future__ import annotations

import resource
import sys
from pathlib import Path

import pytest

from certify.errors import CertifyError
from certify.provers import coq as coqp
from certify.provers.common import FAILED, run

needs_coqc = pytest.mark.skipif(coqp.coqc_path() is None, reason="coqc not installed")


def test_the_limit_defaults_to_8_gib_and_is_configurable(monkeypatch):
    monkeypatch.delenv(coqp.MEMORY_ENV, raising=False)
    assert coqp.memory_limit_gib() == 8.0
    monkeypatch.setenv(coqp.MEMORY_ENV, "1.5")
    assert coqp.memory_limit_gib() == 1.5
    monkeypatch.setenv(coqp.MEMORY_ENV, "0")
    assert coqp.memory_limit_gib() is None  # no limit
    for bad in ("lots", "-1", "nan", "inf"):
        monkeypatch.setenv(coqp.MEMORY_ENV, bad)
        with pytest.raises(CertifyError, match=coqp.MEMORY_ENV):
            coqp.memory_limit_gib()


def test_a_prover_process_runs_under_the_address_space_limit(tmp_path: Path):
    probe = "import resource; print(resource.getrlimit(resource.RLIMIT_AS))"
    limit = 3 * 2**30
    r = run([sys.executable, "-c", probe], tmp_path, 60, memory_limit=limit)
    assert r.returncode == 0 and r.output.strip() == str((limit, limit)), r.output
    r = run([sys.executable, "-c", probe], tmp_path, 60)  # no limit asked: the parent's
    assert r.output.strip() == str(resource.getrlimit(resource.RLIMIT_AS))


@needs_coqc
def test_a_coqc_that_exceeds_the_memory_limit_fails_with_a_named_verdict(tmp_path, monkeypatch):
    (tmp_path / "Certificates").mkdir()
    (tmp_path / "Certificates" / "Small.v").write_text("Compute (Nat.pow 10 3).\n")
    # 10^8 as a unary nat: more than 1 GiB of S constructors
    (tmp_path / "Certificates" / "Big.v").write_text("Compute (Nat.pow 10 8).\n")
    monkeypatch.setenv(coqp.MEMORY_ENV, "1")
    # Coq's own collector policy, set as a user would (certify leaves a user's OCAMLRUNPARAM
    # alone): its 256 MB minor heap reaches the limit in a fraction of the time the
    # small-file setting takes (1 s against 12-14 s), and the verdict is the same
    monkeypatch.setenv(coqp.GC_ENV, "s=32M,a=2,o=200")
    exe = coqp.coqc_path()
    assert exe is not None
    small, oom = coqp._coqc([exe, "-q", "Certificates/Small.v"], tmp_path, 120)
    assert small.returncode == 0 and oom is None, small.output  # the limit leaves room
    v = coqp.check_file(tmp_path, "Certificates/Big.v", 120)
    assert v.status == FAILED
    assert v.message == f"coqc exceeded the memory limit of 1 GiB ({coqp.MEMORY_ENV})"
