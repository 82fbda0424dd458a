"""The Python kernel twins and the Coq kernels compute the same values (issue 12, item 4).

For every public function of certify/checker/{base,rank_core,kernel,kernel_resnet,
kernel_compind,kernel_relu,kernel_tanh}.py, the harness (tests/conformance/) builds seeded
inputs from the Coq signature of its twin: random ones inside the kernel contracts, ones
captured while the Python checkers accept small example certificates, and tampered copies of
those. Each becomes `Lemma c : <Coq expression> = <Python value>. Proof. vm_compute.
reflexivity. Qed.`; one .v file per kernel module is compiled by coqc against the compiled
NNCert library. A failing lemma names its Coq function; the module names the test.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import re
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from certify.checker.kernel import net as NT
from certify.provers import coq as coqp
from tests.conformance import cases as C
from tests.conformance import structured
from tests.conformance.coqsig import library
from tests.conformance.table import (
    EXCLUDED,
    MODULES,
    PY_ONLY_ARGS,
    RECORDS,
    module_functions,
    table,
)

BATCHES = [*MODULES, "structured"]


def coqc(proj: Path, stem: str, text: str) -> tuple[int, str, float, str]:
    path = proj / "Certificates" / f"{stem}.v"
    path.write_text(text)
    t0 = time.monotonic()
    # Many small lemmas, none a long computation: the collector setting certify gives such a
    # file (certify/provers/coq.py gc_env; 20-25 % less CPU measured).
    env = coqp.gc_env(None)
    r = subprocess.run(
        ["coqc", "-q", "-R", "NNCert", "NNCert", "-R", "Certificates", "Certificates",
         f"Certificates/{stem}.v"],
        cwd=proj, capture_output=True, text=True, timeout=600, env=env,
    )  # fmt: skip
    return r.returncode, r.stdout + r.stderr, time.monotonic() - t0, text


@pytest.fixture(scope="session")
def conformance_cases() -> dict[str, list[tuple[C.Case, str]]]:
    return C.build(C.capture())


@pytest.fixture(scope="session")
def conformance_runs(coq_project: Path, conformance_cases) -> dict[str, tuple]:
    """Every batch compiled, two coqc at a time (this machine has two cores)."""
    texts = {label: C.render(cs) for label, cs in conformance_cases.items()}
    lemmas = structured.conformance_cases(240)
    texts["structured"] = C.HEAD + "".join(
        f"{lem}\nProof. vm_compute. reflexivity. Qed.\n" for lem in lemmas
    )
    with ThreadPoolExecutor(2) as pool:
        futures = {
            label: pool.submit(coqc, coq_project, f"Conformance_{label}", text)
            for label, text in texts.items()
        }
        return {label: f.result() for label, f in futures.items()}


def failure(label: str, out: str, source: str, cases: list[tuple[C.Case, str]]) -> str:
    """The function, origin and lemma of the first error coqc reports (by its line)."""
    m = re.search(r"line (\d+)", out)
    above = source.splitlines()[: int(m.group(1))] if m else []
    lemmas = [x.group(1) for line in above if (x := re.match(r"Lemma (\w+)", line))]
    by_lemma = {c.lemma: (c, text) for c, text in cases}
    if lemmas and lemmas[-1] in by_lemma:
        c, text = by_lemma[lemmas[-1]]
        return f"{label}.{c.py_name} ({c.origin} input) disagrees with Coq:\n{text}{out[-3000:]}"
    return out[-3000:]


@pytest.mark.parametrize("label", BATCHES)
def test_the_python_twin_and_the_coq_kernel_compute_the_same_values(
    label, conformance_runs, conformance_cases
):
    rc, out, _, source = conformance_runs[label]
    assert rc == 0, failure(label, out, source, conformance_cases.get(label, []))


# ---------------------------------------------------------------- coverage of the table
def test_every_kernel_function_is_run_by_the_harness_or_excluded_with_a_reason():
    covered = {(label, name) for label, name, _ in table()}
    for label, (mod, _) in MODULES.items():
        for name in module_functions(mod):
            key = f"{label}.{name}"
            assert (label, name) in covered or EXCLUDED.get(key), f"{key}: not in the harness"
    for key in [*EXCLUDED, *PY_ONLY_ARGS]:
        label, name = key.split(".")
        assert name in module_functions(MODULES[label][0]), f"{key}: no such kernel function"


def test_every_harnessed_function_has_a_coq_twin_of_the_same_arity_in_its_files():
    defs, _ = library()
    for label, name, coq in table():
        assert coq in defs, f"{label}.{name}: no Coq definition {coq}"
        assert defs[coq].file in MODULES[label][1], (label, name, defs[coq].file)
        fn = getattr(MODULES[label][0], name)
        py_arity = len(inspect.signature(fn).parameters)
        omitted = len(PY_ONLY_ARGS.get(f"{label}.{name}", ()))
        assert py_arity == len(defs[coq].explicit) + omitted, (label, name)


def test_every_harnessed_function_gets_cases_and_every_checker_reaches_both_verdicts(
    conformance_cases,
):
    defs, _ = library()
    for label, name, coq in table():
        mine = [c for c, _ in conformance_cases[label] if c.py_name == name]
        assert len(mine) >= 4, f"{label}.{name}: only {len(mine)} cases"
        if defs[coq].ret == ("bool",):
            got = {c.result for c in mine}
            assert got == {True, False}, f"{label}.{name} only ever returns {got}"


def test_the_checkers_are_also_run_on_inputs_of_accepted_certificates(conformance_cases):
    origins = {
        (label, c.py_name)
        for label, cs in conformance_cases.items()
        for c, _ in cs
        if c.origin == "captured" and c.result is True
    }
    for label, name, _ in table():
        if name.startswith("check_"):
            assert (label, name) in origins, f"{label}.{name}: no accepted real input"


def test_every_kernel_dataclass_is_its_coq_record_field_for_field():
    _, records = library()
    for coq, cls in RECORDS.items():
        py = [f.name for f in dataclasses.fields(cls)]
        fields = [f for f, _ in records[coq].fields]
        assert len(py) == len(fields), coq
        for a, b in zip(py, fields):
            assert b == a or b.endswith("_" + a), (coq, a, b)
    dataclass_names = {
        node.name
        for mod, _ in MODULES.values()
        for node in ast.parse(Path(inspect.getfile(mod)).read_text()).body
        if isinstance(node, ast.ClassDef) and node.name != "Arith"  # Arith: Coq's `arith`
    }
    assert dataclass_names == {c.__name__ for c in RECORDS.values()}


# ---------------------------------------------------------------- the harness can fail
def test_a_twin_that_disagrees_with_coq_fails_the_harness(coq_project, monkeypatch):
    """hadamard with its last product dropped: the lemmas built from it do not compile."""
    real = NT.hadamard
    monkeypatch.setattr(NT, "hadamard", lambda ar, xs, ys: real(ar, xs, ys)[:-1])
    cases = C.build(None, only={"net.hadamard"})["net"]
    assert any(c.result != [] for c, _ in cases)
    rc, out, _, source = coqc(coq_project, "Conformance_broken", C.render(cases))
    assert rc != 0
    assert failure("net", out, source, cases).startswith("net.hadamard (")
