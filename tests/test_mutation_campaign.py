"""The mutation campaign (benchmarks/mutation_campaign.py) at tiny scale: no false accept,
every kind mutated, and the campaign can fail (a known-false mutation is rejected, a checker
that accepts everything yields false accepts)."""

from __future__ import annotations

import copy
import importlib.util
import sys
from pathlib import Path

import pytest

from certify.checker.registry import KINDS

_PATH = Path(__file__).resolve().parent.parent / "benchmarks" / "mutation_campaign.py"
_spec = importlib.util.spec_from_file_location("mutation_campaign", _PATH)
assert _spec is not None and _spec.loader is not None
mc = importlib.util.module_from_spec(_spec)
sys.modules["mutation_campaign"] = mc
_spec.loader.exec_module(mc)

ALL = {f"{k.family}/{k.kind}" for k in KINDS}


def test_checker_campaign_has_no_false_accept_and_mutates_every_kind():
    report = mc.campaign(seed=1, n_checker=200, n_coq=0)
    assert set(report["checker"]) == ALL
    assert all(c["mutations"] > 0 and c[mc.REJECTED] > 0 for c in report["checker"].values())
    assert sum(c["mutations"] for c in report["checker"].values()) == 200
    assert mc.false_accepts(report) == 0, [
        f for f in report["findings"] if f["class"] in (mc.FALSE_ACCEPT, mc.CRASH)
    ]


def test_campaign_is_deterministic():
    a = mc.campaign(seed=3, n_checker=60, n_coq=0, kinds=[("mlp", "rank"), ("tanh", "equiv")])
    b = mc.campaign(seed=3, n_checker=60, n_coq=0, kinds=[("mlp", "rank"), ("tanh", "equiv")])
    assert a["checker"] == b["checker"] and a["findings"] == b["findings"]


def test_a_checker_accepting_everything_yields_false_accepts():
    report = mc.campaign(seed=0, n_checker=200, n_coq=0, checker=lambda _c: [])
    assert mc.false_accepts(report) > 0


def test_known_false_mutations_are_classified():
    bases = mc.load_bases([("mlp", "rank")])
    base = bases[("mlp", "rank")][0]
    bad = copy.deepcopy(base.cert)
    bad["result"]["rank_lower"] += 1  # a rank above the true rank at theta
    m = mc.Mutant(base.key, base, ("result", "rank_lower"), "+1", bad)
    assert mc.classify(m)[0] == mc.REJECTED
    # the same mutant past a checker that accepts it: a false accept, not a true claim
    assert mc.classify(m, lambda _c: [])[0] == mc.FALSE_ACCEPT
    # theta changed with the results kept: the oracle recomputes the rank exactly
    zero = copy.deepcopy(base.cert)
    zero["instance"]["theta"] = ["0"] * len(zero["instance"]["theta"])
    mz = mc.Mutant(base.key, base, ("instance", "theta"), "zero", zero)
    assert mc.classify(mz, lambda _c: [])[0] == mc.FALSE_ACCEPT  # rank 0 at theta = 0


def test_oracles_reproduce_the_bases():
    assert mc.selftest_oracles(mc.load_bases(sorted(mc.BASES))) == []


def test_no_stray_key_is_accepted_in_any_kind():
    """Exact key sets (issue 22): with --strict-keys an accepted unknown key would count."""
    report = mc.campaign(seed=2, n_checker=1400, n_coq=0)
    strays = [f for f in report["findings"] if f["class"] == mc.STRAY_KEY]
    assert strays == [] and mc.false_accepts(report, strict_keys=True) == 0


@pytest.mark.slow
def test_coq_campaign_tiny():
    report = mc.campaign(seed=0, n_checker=200, n_coq=3)
    recs = report["coq"]["records"]
    assert len(recs) == 3
    assert mc.false_accepts(report) == 0, recs
