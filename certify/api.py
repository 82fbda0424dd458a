"""The Python API: certify specs from a notebook or a script.

A spec is a dict (as decoded from TOML/JSON), TOML text (a ``str``), or a file (a
``pathlib.Path``); a spec with a ``[sweep]`` stands for all its instances (certify/sweep.py).
Nothing is written unless asked: `certify` generates each certificate and re-checks it with
the independent Python checker (and, with ``coq=True``, with coqc in a scratch directory);
`run` writes a bundle; `check` re-verifies one; `table` reads the results table of bundles.

Example (a notebook cell)::

    >>> from certify import api
    >>> (c,) = api.certify('''
    ... name = "ktb-3-2-1"
    ... [network]
    ... family = "mlp"
    ... widths = [3, 2, 1]
    ... activation = "t^2"
    ... bias = false
    ... ''')
    >>> r = c.result
    >>> c.passed, r["rank_lower"], r["expected_dim"], r["functional_dimension"], r["defect"]
    (True, 5, 6, 5, 1)
    >>> c.claim["text"][:12]
    'Kernel-check'

The mathematics is that of the CLI: ``rank_lower`` is a certified lower bound on the rank of
the Jacobian of the parametrisation at theta, hence on the functional dimension (the generic
rank); the claim's text states exactly what was checked and what is cited."""

from __future__ import annotations

import dataclasses
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import certify.families  # noqa: F401  (certify.spec imports the families' parsers first)
from certify import table as _table
from certify.bundle import Options, build
from certify.checker import check_certificate, cross_check, registry
from certify.families import generate_certificates
from certify.spec import Spec, decode_toml, load_specs, parse_specs

SpecLike = dict[str, Any] | str | Path | Spec


@dataclass(frozen=True)
class Certified:
    """One certificate and its verdicts: ``checker`` lists the Python checker's problems
    (empty: accepted); ``coq`` / ``lean`` are verdicts (``passed``, ``failed``, ``timeout``,
    ``not-run``); ``row`` is its results-table row (certify/table.py)."""

    name: str
    family: str
    kind: str
    result: dict[str, Any]
    claim: dict[str, Any]
    certificate: dict[str, Any]
    checker: list[str] = field(default_factory=list)
    coq: str = "not-run"
    lean: str = "not-run"
    row: dict[str, Any] = field(default_factory=dict)

    @property
    def passed(self) -> bool:
        """The checker accepted it and no prover that ran rejected it."""
        return (
            not self.checker
            and self.coq not in ("failed", "timeout")
            and (self.lean not in ("failed", "timeout"))
        )


def specs_of(spec: SpecLike, src: str = "<api>") -> list[Spec]:
    """The validated specs a spec-like value stands for (a sweep: all its instances).
    Bad input raises certify.errors.SpecError naming the field."""
    if isinstance(spec, Spec):
        return [spec]
    if isinstance(spec, Path):
        return load_specs(spec)
    if isinstance(spec, str):
        return parse_specs(decode_toml(spec, src), src)
    return parse_specs(spec, src)


def certify(
    spec: SpecLike | list[SpecLike],
    *,
    coq: bool | None = None,
    lean: bool | None = None,
    out: Path | str | None = None,
    **options: Any,
) -> list[Certified]:
    """Generate and check every certificate of `spec` (one spec, or a list of them).

    The provers run by default only with `out`. Without `out`, `coq` and `lean` nothing
    is written: each certificate is generated and
    re-checked by the Python checker (and cross-checked against the others). With
    ``coq=True`` (or ``lean=True``) the provers also run, on a bundle in a temporary
    directory that is removed afterwards; with ``out`` the bundle is written there (as
    `run`). `options` are fields of certify.bundle.Options (timeout, jobs, ...).

    >>> (c,) = api.certify({"name": "k", "network": {"family": "mlp", "widths": [2, 2, 1],
    ...                     "activation": "t^2", "bias": False}})
    >>> c.row["widths"], c.result["rank_lower"]
    ('2-2-1', 3)
    """
    specs = [s for one in (spec if isinstance(spec, list) else [spec]) for s in specs_of(one)]
    coq = (out is not None) if coq is None else coq
    lean = (out is not None) if lean is None else lean
    if out is not None:
        return _from_manifest(run(specs, out, coq=coq, lean=lean, **options), Path(out))
    if coq or lean:
        with tempfile.TemporaryDirectory(prefix="nn-certify-api-") as td:
            b = Path(td) / "bundle"
            return _from_manifest(run(specs, b, coq=coq, lean=lean, **options), b)
    certs = [c for s in specs for req in s.certificates for c in generate_certificates(s, req)]
    problems = {c["name"]: check_certificate(c) for c in certs}
    for n, extra in cross_check(certs).items():
        problems[n] = problems[n] + extra
    out_list = []
    for c in certs:
        verdicts = {"checker": "passed" if not problems[c["name"]] else "failed"}
        verdicts |= {"coq": "not-run", "lean": "not-run"}
        entry = {k: c[k] for k in ("name", "family", "kind", "result")} | {"verdicts": verdicts}
        out_list.append(
            Certified(
                c["name"],
                c["family"],
                c["kind"],
                c["result"],
                c["claim"],
                c,
                problems[c["name"]],
                row=_table.row(entry, c),
            )  # fmt: skip
        )
    return out_list


def run(
    specs: SpecLike | list[SpecLike],
    out: Path | str,
    *,
    coq: bool = True,
    lean: bool = True,
    **options: Any,
) -> dict[str, Any]:
    """Certify `specs` into the bundle directory `out` (as `certify run`); returns the
    manifest (its "certificates" entries carry result, claim and verdicts). `options` are
    fields of certify.bundle.Options: jobs, timeout, executor, scheduler, force, ...

    Every spec is kept in the bundle's specs/, so that `certify check` can re-run it: a
    file byte for byte, a dict or TOML text as canonical JSON of its decoded data under
    `specs/<name>.json` (bundle.spec_file)."""
    flat = [s for one in (specs if isinstance(specs, list) else [specs]) for s in specs_of(one)]
    opts = dataclasses.replace(Options(), run_coq=coq, run_lean=lean, **options)
    return build(flat, Path(out), opts)


def _from_manifest(manifest: dict[str, Any], out: Path) -> list[Certified]:
    from certify import certificate

    rows = {r["name"]: r for r in _table.load_rows(out)} if out.exists() else {}
    res = []
    for e in manifest["certificates"]:
        cert = certificate.load((out / e["file"]).read_bytes()) if out.exists() else {}
        res.append(
            Certified(
                e["name"],
                e["family"],
                e["kind"],
                e["result"],
                e["claim"],
                cert,
                list(e["messages"]["checker"]),
                e["verdicts"]["coq"],
                e["verdicts"]["lean"],
                rows.get(e["name"], {}),
            )  # fmt: skip
        )
    return res


@dataclass(frozen=True)
class Checked:
    """The outcome of re-verifying a bundle: `verified` is what `certify check` exits 0 on
    (no problem, no prover failure)."""

    verified: bool
    problems: list[str]
    notes: list[str]


def check(bundle: Path | str, *, coq: bool = True, lean: bool = True, **options: Any) -> Checked:
    """Re-verify a bundle as `certify check` does (hashes, checker, re-rendering, results
    table, provers)."""
    from certify.verify import check_bundle_result

    opts = dataclasses.replace(Options(), run_coq=coq, run_lean=lean, **options)
    r = check_bundle_result(Path(bundle), opts)
    problems = r.problems + r.prover_problems
    return Checked(not problems and bool(r.entries), problems, r.notes)


def table(*bundles: Path | str, seconds: bool = False) -> list[dict[str, Any]]:
    """The results rows of one or more bundles (with a "bundle" key when several)."""
    rows: list[dict[str, Any]] = []
    for b in bundles:
        for r in _table.load_rows(Path(b), seconds):
            rows.append(({"bundle": str(b)} if len(bundles) > 1 else {}) | r)
    return rows


# `certify demo --quick`: one certificate of every registry kind, the example each registry
# line names (Kind.example, certify/checker/registry.py): (family, kind) -> (example file, the
# name of its [[certificate]] to keep; None: the file as it is, whose one certificate, or
# default rank certificate, is of that kind). tests/test_report.py checks that each names a
# certificate of that kind.
QUICK_DEMO: dict[tuple[str, str], tuple[str, str | None]] = {
    (k.family, k.kind): k.example_request for k in registry.KINDS
}


def example_files() -> list[Path]:
    """The embedded example suite (package data), in sorted order."""
    from importlib.resources import files

    root = files("certify") / "examples"
    return sorted(Path(str(p)) for p in root.iterdir() if p.name.endswith(".toml"))


def demo_specs(quick: bool = False) -> list[Spec]:
    """The specs of `certify demo`: every example, or with `quick` one certificate per
    registry kind (QUICK_DEMO). A kept subset of a file's [[certificate]] tables is a spec of
    its own data (bundled as JSON, so that `certify check` re-runs exactly these)."""
    paths = {p.name: p for p in example_files()}
    if not quick:
        return [s for p in paths.values() for s in load_specs(p)]
    keep: dict[str, set[str | None]] = {}
    for fname, name in QUICK_DEMO.values():
        keep.setdefault(fname, set()).add(name)
    out: list[Spec] = []
    for fname, names in keep.items():
        path = paths[fname]
        if None in names:
            out += load_specs(path)
            continue
        data = decode_toml(path.read_bytes(), str(path))
        data["certificate"] = [c for c in data["certificate"] if c.get("name") in names]
        out += parse_specs(data, str(path))
    return out
