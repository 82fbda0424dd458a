"""Every field of every certificate kind is checked or cannot change what a certificate says.

For each demo certificate, each leaf of its JSON (up to 60 per certificate, a seeded sample) is
mutated in turn: an integer +1, a boolean flipped, a string extended, null set to 0, an empty
list given an entry. The mutated certificate must be rejected by the checker (alone, or by the
cross-check of the certificates its request yields, which ties attached certificates to the
ranks a critical or mlp-identifiable certificate records), unless the field is one of:

- provenance (`generator.*`: not a claim; `certify check` compares the tool version) or the
  certificate's `name` (an identifier);
- data the checker re-verifies for the mutated value (parameters, witness points, rows,
  columns): the mutation makes another true certificate, checked as such;
- the affine-symmetry search's recorded necessary conditions, which the claim states as the
  generator's, not checked; the compind `origin` flag set to false (a weaker hypothesis).

A leaf of `claim` or `result` is never in these, so every shown field is checked."""

from __future__ import annotations

import copy
import functools
import random
from pathlib import Path
from typing import Any

import pytest

from certify.checker import check_certificate, cross_check
from certify.cli import example_specs
from certify.families import generate_certificates
from certify.spec import load_specs

PER_CERTIFICATE = 60
# (family, kind) -> path prefixes ("#" for any list index) whose mutations may be accepted.
RE_VERIFIED = {
    "instance/theta/",
    "instance/other/",
    "witness/lower/",
    "witness/upper/cols/",
    "witness/points/",
    # the random points of the generic-rank evidence: the checker recomputes the rank at the
    # mutated point (another true record unless the rank changes, then rejected)
    "witness/generic/points/",
    # the exactness moduli: the kernels re-check them (pairwise coprime, product above the
    # bound) for the mutated value; sampled since the generic record changed the leaf sample
    "witness/upper/moduli/",
}
UNCHECKED_BY_DESIGN = {
    ("tanh", "affsym", "witness/group/necessary_conditions/"),
    # A hypothesis flag: true is checked (sigma(0) = 0, p_i(0) = 0, dependence from j = 1);
    # false asks for nothing, so true -> false leaves a true certificate.
    ("compind", "compind", "instance/origin/"),
    ("compind", "newman-slater", "instance/origin/"),
}


# Not in `pytest -m quick` (still in the whole suite): the checker recomputes the critical
# locus for every mutated copy, about half a minute of CPU for this request alone.
SLOW = frozenset({"resnet-critical-locus-certified"})


def _requests() -> list[Any]:
    """One parameter per request of every example spec, named by the request (the name of
    its group's first certificate). The certificates are generated when the test runs, not
    at collection (they cost seconds; collection is paid by every pytest run and worker)."""
    out = []
    for path in example_specs():
        spec = load_specs(path)[0]  # a sweep's instances are all of its first one's kinds
        out += [
            pytest.param(path, i, id=req.name, marks=[pytest.mark.slow] * (req.name in SLOW))
            for i, req in enumerate(spec.certificates)
        ]
    return out


@functools.cache
def _group(path: Path, i: int) -> list[dict[str, Any]]:
    spec = load_specs(path)[0]
    return generate_certificates(spec, spec.certificates[i])


def leaves(x: Any, path: tuple = ()) -> list[tuple[tuple, Any]]:
    if isinstance(x, dict):
        return [leaf for k, v in x.items() for leaf in leaves(v, (*path, k))]
    if isinstance(x, list):
        if not x:
            return [(path, x)]
        return [leaf for i, v in enumerate(x) for leaf in leaves(v, (*path, i))]
    return [(path, x)]


def mutated(v: Any) -> Any:
    if isinstance(v, bool):
        return not v
    if isinstance(v, int):
        return v + 1
    if isinstance(v, str):
        return v + "1" if v[-1:].isdigit() else v + " x"
    if v is None:
        return 0
    return [0]  # an empty list


def shown(path: tuple) -> str:
    return "/".join("#" if isinstance(p, int) else p for p in path) + "/"


def allowed(cert: dict[str, Any], path: tuple) -> bool:
    text = shown(path)
    if text.startswith(("claim/", "result/")):
        return False
    if text.startswith("generator/") or text == "name/":
        return True
    if any(text.startswith(p) for p in RE_VERIFIED):
        return True
    return any((cert["family"], cert["kind"]) == (f, k) and text.startswith(p)
               for f, k, p in UNCHECKED_BY_DESIGN)  # fmt: skip


def rejected(group: list[dict[str, Any]], i: int, bad: dict[str, Any]) -> bool:
    if check_certificate(bad):
        return True
    others = [bad if j == i else c for j, c in enumerate(group)]
    return bool(cross_check(others))


@pytest.mark.parametrize(("path", "index"), _requests())
def test_every_mutated_field_is_rejected_or_cannot_change_what_the_certificate_says(
    path: Path, index: int
):
    group = _group(path, index)
    for i, cert in enumerate(group):
        assert check_certificate(cert) == [] and not cross_check(group)
        leafs = leaves(cert)
        rng = random.Random(cert["name"])
        sample = leafs if len(leafs) <= PER_CERTIFICATE else rng.sample(leafs, PER_CERTIFICATE)
        # every claim and result leaf, always
        sample += [lf for lf in leafs if lf[0][0] in ("claim", "result") and lf not in sample]
        for path, value in sample:
            bad = copy.deepcopy(cert)
            node = bad
            for k in path[:-1]:
                node = node[k]
            node[path[-1]] = mutated(value)
            assert rejected(group, i, bad) or allowed(cert, path), (cert["name"], shown(path))


def test_the_mutation_test_sees_an_unchecked_field():
    """The test can fail: a top-level field outside the envelope would be accepted if the
    checker ignored it; the envelope check rejects it, and a result leaf always counts."""
    group = _group(example_specs()[0], 0)  # the first request of the first example spec
    cert = group[0]
    assert not allowed(cert, ("result", "rank_lower"))
    bad = copy.deepcopy(cert)
    bad["result"] = copy.deepcopy(bad["result"])
    key = next(iter(bad["result"]))
    bad["result"][key] = mutated(bad["result"][key])
    assert rejected(group, 0, bad)
