"""`certify check DIR`: re-verify a bundle from scratch.

Hashes, the independent checker, byte-identical re-rendering, unmodified prover libraries,
and fresh prover runs (in a scratch copy). Any mismatch is reported and makes it fail."""

from __future__ import annotations

import hashlib
import json
import tempfile
from pathlib import Path

from certify import certificate
from certify.bundle import (
    COQ_LIBRARY_FILES,
    MANIFEST_SCHEMA,
    Options,
    Rendered,
    copy_libraries,
    lean_library_files,
    render_certificate,
    run_provers,
    write_sources,
)
from certify.checker import check_certificate, cross_check
from certify.errors import BundleError
from certify.provers.common import FAILED, NOT_RUN
from certify.resources import resource_dir


def check_bundle(path: Path, opts: Options) -> tuple[list[str], list[str]]:
    """(problems, notes): problems make the check fail."""
    path = Path(path)
    mf = path / "manifest.json"
    if not mf.is_file():
        raise BundleError(f"{path}: no manifest.json (not an nn-certify bundle)")
    try:
        manifest = json.loads(mf.read_text())
    except json.JSONDecodeError as e:
        raise BundleError(f"{mf}: not valid JSON ({e})") from None
    if manifest.get("schema") != MANIFEST_SCHEMA:
        raise BundleError(f"{mf}: schema is not {MANIFEST_SCHEMA}")
    problems: list[str] = []
    notes: list[str] = []
    for rel in COQ_LIBRARY_FILES:
        _same_file(path / "coq" / rel, resource_dir("coq") / rel, problems)
    for rel in lean_library_files():
        _same_file(path / "lean" / rel, resource_dir("lean") / rel, problems)
    figures = manifest.get("figures", {})
    for fig, digest in figures.items() if isinstance(figures, dict) else []:
        fp = path / "figures" / str(fig)
        if not fp.is_file() or hashlib.sha256(fp.read_bytes()).hexdigest() != digest:
            problems.append(f"figures/{fig}: missing or its sha256 differs from the manifest")
    items: list[Rendered] = []
    entries = manifest.get("certificates")
    if not isinstance(entries, list) or not entries:
        problems.append("manifest lists no certificates")
        entries = []
    listed = {str(e.get("file")) for e in entries if isinstance(e, dict)}
    for extra in sorted((path / "certificates").glob("*.json")):
        if f"certificates/{extra.name}" not in listed:
            problems.append(f"{extra.name}: certificate file not listed in the manifest")
    for e in entries:
        if not isinstance(e, dict):
            problems.append("manifest entry is not an object")
            continue
        name = e.get("name", "?")
        f = path / str(e.get("file", ""))
        if not f.is_file():
            problems.append(f"{name}: certificate file {e.get('file')} missing")
            continue
        raw = f.read_bytes()
        try:
            cert = certificate.load(raw)
            canonical = certificate.dump(cert)
            sha = certificate.sha256(cert)
        except (ValueError, UnicodeDecodeError) as err:
            problems.append(f"{name}: {err}")
            continue
        if canonical != raw:
            problems.append(f"{name}: certificate file is not in canonical form")
        if sha != e.get("sha256"):
            problems.append(f"{name}: sha256 {sha} does not match the manifest")
        for k in ("result", "claim", "kind", "name"):
            if cert.get(k) != e.get(k):
                problems.append(f"{name}: manifest {k} differs from the certificate's")
        for msg in check_certificate(cert):
            problems.append(f"{name}: checker: {msg}")
        try:
            it = render_certificate(cert)
        except Exception as err:  # a certificate that cannot be rendered is a problem too
            problems.append(f"{name}: cannot re-render: {err}")
            continue
        expected = {
            "coq_file": f"coq/Certificates/{it.module}.v",
            "lean_file": f"lean/Certificates/{it.module}.lean",
        }
        for key, rel in expected.items():
            if e.get(key) != rel:
                problems.append(f"{name}: manifest {key} is {e.get(key)!r}, expected {rel!r}")
        for rel, text in (
            (expected["coq_file"], it.coq_text),
            (expected["lean_file"], it.lean_text),
        ):
            rf = path / rel
            if not rf.is_file() or rf.read_text() != text:
                problems.append(f"{name}: {rel} differs from the re-rendered file")
        items.append(it)
        notes.append(f"{name}: certificate {sha[:16]}… re-checked")
    for n, probs in cross_check([it.cert for it in items]).items():
        problems.extend(f"{n}: {msg}" for msg in probs)
    with tempfile.TemporaryDirectory(prefix="nn-certify-check-") as td:
        scratch = Path(td) / "b"
        # The provers run on a fresh copy of the shipped libraries and on the re-rendered
        # files, never on what the bundle contains: a verdict is about the faithful text.
        copy_libraries(scratch)
        write_sources(scratch, items)
        for rel in ("lean/Audit.lean", "lean/Certificates.lean"):
            mine, theirs = scratch / rel, path / rel
            if not theirs.is_file() or theirs.read_bytes() != mine.read_bytes():
                problems.append(f"{rel} differs from the regenerated file")
        if items and (opts.run_coq or opts.run_lean):
            coq, lean, _ = run_provers(scratch, items, opts)
            for it in items:
                n = it.cert["name"]
                for prover, v in (("coq", coq[n]), ("lean", lean[n])):
                    if v.status == FAILED:
                        problems.append(f"{n}: {prover} failed: {v.message}")
                    elif v.status == NOT_RUN:
                        notes.append(f"{n}: {prover} not run ({v.message})")
                    else:
                        notes.append(f"{n}: {prover} passed")
    return problems, notes


def _same_file(bundle_file: Path, shipped: Path, problems: list[str]) -> None:
    if not bundle_file.is_file():
        problems.append(f"library file {bundle_file} missing")
    elif bundle_file.read_bytes() != shipped.read_bytes():
        problems.append(f"library file {bundle_file} differs from the shipped library")
