"""Artifact bundle: certificates, checker verdicts, Coq and Lean projects, prover verdicts,
manifest and report. Written to a temporary sibling directory and moved into place only
when complete, so a crash never leaves a bundle that looks finished."""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as dist_version
from pathlib import Path
from typing import Any

from certify import __version__, certificate
from certify.checker import _family, check_certificate, cross_check
from certify.errors import BundleError, CertifyError
from certify.provers import coq as coqp
from certify.provers import lean as leanp
from certify.provers.common import FAILED, NOT_RUN, PASSED, Verdict
from certify.render import compind as render_compind
from certify.render import critical as render_critical
from certify.render import implicit as render_implicit
from certify.render import orbit as render_orbit
from certify.render import rank as render_rank
from certify.render import tanh as render_tanh
from certify.render.env import render
from certify.resources import resource_dir
from certify.spec import Spec
from certify.witness import generate_certificates

MANIFEST_SCHEMA = "nn-certify-manifest/1"
COQ_LIBRARY_FILES = ["_CoqProject"] + [f"NNCert/{m}.v" for m in coqp.LIBRARY]
LEAN_PROJECT_FILES = ["lakefile.toml", "lean-toolchain", "lake-manifest.json", "NNCert.lean"]


@dataclass
class Options:
    run_coq: bool = True
    run_lean: bool = True
    timeout: float = 900.0
    jobs: int = 2


def _dist(name: str) -> str | None:
    try:
        return dist_version(name)
    except PackageNotFoundError:
        return None


def tool_versions() -> dict[str, str | None]:
    return {
        "nn-certify": __version__,
        "python-flint": _dist("python-flint"),
        "sympy": _dist("sympy"),
        "coqc": coqp.version(),
        "lean": leanp.version(),
    }


def lean_library_files() -> list[str]:
    root = resource_dir("lean")
    files = list(LEAN_PROJECT_FILES)
    files += sorted(str(p.relative_to(root)) for p in (root / "NNCert").glob("*.lean"))
    return files


def copy_libraries(dest: Path) -> None:
    """Self-contained Coq and Lean projects: the library sources next to the certificates."""
    for rel in COQ_LIBRARY_FILES:
        target = dest / "coq" / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(resource_dir("coq") / rel, target)
    for rel in lean_library_files():
        target = dest / "lean" / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(resource_dir("lean") / rel, target)
    (dest / "coq" / "Certificates").mkdir(parents=True, exist_ok=True)
    (dest / "lean" / "Certificates").mkdir(parents=True, exist_ok=True)


@dataclass
class Rendered:
    cert: dict[str, Any]
    sha: str
    module: str
    coq_text: str
    lean_text: str
    lean_theorems: list[str]


def render_certificate(cert: dict[str, Any]) -> Rendered:
    """The Coq and Lean files of a certificate (literals read back), by certificate family."""
    sha = certificate.sha256(cert)
    if _family(cert) == "relu":  # kinds rank and equiv of ReLU networks
        from certify.render import relu as render_relu

        module = render_relu.module_name(cert["kind"], cert["name"])
        theorems = render_relu.theorem_names(cert)
        coq_text = render_relu.render_prover(cert, sha, "coq")
        lean_text = render_relu.render_prover(cert, sha, "lean")
    elif cert.get("kind") == "rank":
        module = render_rank.module_name(cert["name"])
        theorems = ["rank_lower_check"]
        if cert["witness"].get("upper") is not None:
            theorems.append("rank_upper_check")
        coq_text = render_rank.render_coq(cert, sha)
        lean_text = render_rank.render_lean(cert, sha)
    elif cert.get("kind") in ("affsym", "equiv") or (
        cert.get("kind") == "orbit" and cert["instance"]["network"].get("family") == "tanh"
    ):
        module = render_tanh.module_name(cert["kind"], cert["name"])
        theorems = render_tanh.theorem_names(cert)
        coq_text = render_tanh.render_prover(cert, sha, "coq")
        lean_text = render_tanh.render_prover(cert, sha, "lean")
    elif cert.get("kind") == "orbit":
        module = render_orbit.module_name(cert["name"])
        theorems = render_orbit.theorem_names(cert)
        coq_text = render_orbit.render_prover(cert, sha, "coq")
        lean_text = render_orbit.render_prover(cert, sha, "lean")
    elif cert.get("kind") in ("implicit", "critical"):
        mod = render_implicit if cert["kind"] == "implicit" else render_critical
        module = mod.module_name(cert["name"])
        theorems = mod.theorem_names(cert)
        coq_text = mod.render_prover(cert, sha, "coq")
        lean_text = mod.render_prover(cert, sha, "lean")
    elif cert.get("kind") in render_compind.PREFIX:
        module = render_compind.module_name(cert["kind"], cert["name"])
        theorems = render_compind.theorem_names(cert)
        coq_text = render_compind.render_prover(cert, sha, "coq")
        lean_text = render_compind.render_prover(cert, sha, "lean")
    else:
        raise CertifyError(f"no renderer for certificate kind {cert.get('kind')!r}")
    return Rendered(
        cert, sha, module, coq_text, lean_text, [f"Certificates.{module}.{t}" for t in theorems]
    )


def write_sources(dest: Path, items: list[Rendered]) -> None:
    (dest / "certificates").mkdir(parents=True, exist_ok=True)
    for it in items:
        (dest / "certificates" / f"{it.cert['name']}.json").write_bytes(certificate.dump(it.cert))
        (dest / "coq" / "Certificates" / f"{it.module}.v").write_text(it.coq_text)
        (dest / "lean" / "Certificates" / f"{it.module}.lean").write_text(it.lean_text)
    modules = [f"Certificates.{it.module}" for it in items]
    (dest / "lean" / "Certificates.lean").write_text(
        render("lean/aggregator.lean.j2", modules=modules)
    )
    (dest / "lean" / "Audit.lean").write_text(
        render(
            "lean/audit.lean.j2",
            modules=modules,
            theorems=[t for it in items for t in it.lean_theorems],
        )
    )


def run_provers(
    dest: Path, items: list[Rendered], opts: Options
) -> tuple[dict[str, Verdict], dict[str, Verdict], dict[str, str]]:
    """Coq and Lean verdicts per certificate name, plus the raw logs."""
    logs: dict[str, str] = {}
    coq: dict[str, Verdict] = {}
    if not opts.run_coq:
        coq = {it.cert["name"]: Verdict(NOT_RUN, "disabled (--no-coq)") for it in items}
    else:
        lib = coqp.build_library(dest / "coq", opts.timeout)
        if lib.status != PASSED:
            coq = {it.cert["name"]: Verdict(lib.status, lib.message) for it in items}
        else:
            logs["coq-library"] = f"NNCert compiled in {lib.seconds:.2f} s"

            def one(it: Rendered) -> Verdict:
                return coqp.check_file(dest / "coq", f"Certificates/{it.module}.v", opts.timeout)

            with ThreadPoolExecutor(max_workers=max(1, opts.jobs)) as pool:
                for it, v in zip(items, pool.map(one, items), strict=True):
                    coq[it.cert["name"]] = v
    lean: dict[str, Verdict] = {}
    if not opts.run_lean:
        lean = {it.cert["name"]: Verdict(NOT_RUN, "disabled (--no-lean)") for it in items}
    else:
        mods = {f"Certificates.{it.module}": it.lean_theorems for it in items}
        by_mod = leanp.build_and_audit(dest / "lean", mods, opts.timeout)
        lean = {it.cert["name"]: by_mod[f"Certificates.{it.module}"] for it in items}
    return coq, lean, logs


def _sha_file(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def manifest_entry(it: Rendered, checker: list[str], coq: Verdict, lean: Verdict) -> dict[str, Any]:
    name = it.cert["name"]
    return {
        "name": name,
        "kind": it.cert["kind"],
        "sha256": it.sha,
        "file": f"certificates/{name}.json",
        "coq_file": f"coq/Certificates/{it.module}.v",
        "lean_file": f"lean/Certificates/{it.module}.lean",
        "claim": it.cert["claim"],
        "result": it.cert["result"],
        "verdicts": {
            "checker": PASSED if not checker else FAILED,
            "coq": coq.status,
            "lean": lean.status,
        },
        "messages": {"checker": checker, "coq": coq.message, "lean": lean.message},
        "coq_assumptions": coq.assumptions,
        "lean_axioms": lean.assumptions,
    }


def report_md(manifest: dict[str, Any]) -> str:
    entries = manifest["certificates"]
    lines = ["# nn-certify report", ""]
    ranks = [e for e in entries if e["kind"] == "rank"]
    others = [e for e in entries if e["kind"] != "rank"]
    if ranks:
        lines += [
            "## Rank witnesses",
            "",
            "| certificate | #params | symmetry dim | expected dim | rank >= | rank <= at θ | "
            "checker | coq | lean |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        for e in ranks:
            r, v = e["result"], e["verdicts"]
            up = "–" if r["rank_upper_at_point"] is None else r["rank_upper_at_point"]
            lines.append(
                f"| {e['name']} | {r['params']} | {r['symmetry_dim']} | {r['expected_dim']} | "
                f"{r['rank_lower']} | {up} | {v['checker']} | {v['coq']} | {v['lean']} |"
            )
        lines.append("")
    if others:
        lines += [
            "## Other certificates",
            "",
            "| certificate | kind | result | checker | coq | lean |",
            "|---|---|---|---|---|---|",
        ]
        for e in others:
            v = e["verdicts"]
            lines.append(
                f"| {e['name']} | {e['kind']} | {summary_line(e)} | {v['checker']} | "
                f"{v['coq']} | {v['lean']} |"
            )
        lines.append("")
    for fig in manifest.get("figures", {}):
        lines += [
            "## Figure",
            "",
            f"![{fig}](figures/{fig})",
            "",
            "The image M of the bias-free scalar quadratic two-layer ResNet (Figure 1, math.md "
            "§2); the identity c3^3 - 4 c2 c3 c4 + 8 c4^2 = 0 on M is the implicit certificate "
            "below.",
            "",
        ]
    lines += ["## Claims", ""]
    for e in entries:
        lines += [f"### {e['name']}", "", e["claim"]["text"], ""]
        if e["claim"]["cites"]:
            lines += ["Cites: " + "; ".join(e["claim"]["cites"]), ""]
        bad = {k: m for k, m in e["messages"].items() if m}
        for k, m in bad.items():
            lines += [f"- {k}: {m}"]
        if e["coq_assumptions"]:
            lines += [f"Coq assumptions (kernel primitives): {', '.join(e['coq_assumptions'])}", ""]
    t = manifest["tool"]
    lines += ["## Tools", ""] + [f"- {k}: {v if v else 'not installed'}" for k, v in t.items()]
    return "\n".join(lines) + "\n"


def summary_line(e: dict[str, Any]) -> str:
    """One line of what a certificate established (CLI and report)."""
    r = e["result"]
    if e["kind"] == "rank":
        up = r["rank_upper_at_point"]
        return (
            f"rank >= {r['rank_lower']}"
            + (f", <= {up} at theta" if up is not None else "")
            + f" (#params {r['params']}, expected {r['expected_dim']})"
        )
    if e["kind"] == "equiv" and ("pieces" in r or "x" in r):  # ReLU (tanh: below)
        if not r["equivalent"]:
            return f"not equivalent (they differ at x = {r['x']})"
        return f"equivalent on R ({r['pieces']} pieces); symmetry: {r['symmetry']}"
    if e["kind"] == "prop21":
        return f"Prop. {r['proposition']} hypothesis holds (degree {r['degree']})"
    if e["kind"] in ("affsym", "equiv") or (e["kind"] == "orbit" and "group_order" in r):
        from certify.claims_tanh import summary

        return summary(e["kind"], r)
    if e["kind"] == "orbit":
        return (
            f"{r['field']} orbit of size {r['orbit_size']} in the fiber "
            f"({r['generators']} generators)"
        )
    if e["kind"] == "critical":
        if r["critical"]:
            return (
                f"critical: rank <= {r['rank_upper_at_theta']} at theta < "
                f"{r['generic_rank_lower']} generically"
            )
        return f"not critical: rank {r['rank_lower_at_theta']} at theta = {r['rank_bound']}"
    if e["kind"] == "implicit":
        return f"{r['equation']} = 0 on the image (degree {r['degree']})"
    if e["kind"] == "mlp-identifiable":
        return (
            f"not a subnetwork; applicable result: {r['theorem']}; rank >= {r['rank_lower']} "
            f"({r['rank_certificate']})"
        )
    line = f"{r['status']} (k = {r['k']}, degree {r['degree']}"
    line += ", generic sigma)" if r.get("generic") else ")"
    if r.get("least_degree") is not None:
        line += f", least degree {r['least_degree']}"
    return line


def build(
    specs: list[Spec],
    out: Path,
    opts: Options,
    progress: Callable[[str], None] = lambda s: None,
) -> dict[str, Any]:
    """Generate, check, render and prove every certificate of `specs`; write the bundle."""
    out = Path(out)
    if out.exists() and any(out.iterdir()) and not (out / "manifest.json").exists():
        raise BundleError(f"{out}: exists and is not an nn-certify bundle; refusing to overwrite")
    certs: list[dict[str, Any]] = []
    for spec in specs:
        for req in spec.certificates:
            progress(f"generate {req.name} ({req.kind})")
            certs.extend(generate_certificates(spec, req))
    names = [c["name"] for c in certs]
    if len(set(names)) != len(names):
        dup = sorted({n for n in names if names.count(n) > 1})
        raise CertifyError(f"certificate names must be unique across specs: {dup}")
    items: list[Rendered] = []
    checker: dict[str, list[str]] = {}
    for c in certs:
        checker[c["name"]] = check_certificate(c)
        items.append(render_certificate(c))
    for n, probs in cross_check(certs).items():
        checker[n] = checker[n] + probs
    modules = [it.module for it in items]
    if len(set(modules)) != len(modules):
        dup = sorted({m for m in modules if modules.count(m) > 1})
        raise CertifyError(
            f"certificate names map to the same prover module {dup}: rename one of them"
        )
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.partial-", dir=out.parent))
    try:
        copy_libraries(tmp)
        write_sources(tmp, items)
        progress("run provers")
        coq, lean, logs = run_provers(tmp, items, opts)
        manifest = {
            "schema": MANIFEST_SCHEMA,
            "tool": tool_versions(),
            "specs": [{"name": s.name, "file": Path(s.source).name} for s in specs],
            "certificates": [
                manifest_entry(it, checker[n], coq[n], lean[n])
                for it, n in ((it, it.cert["name"]) for it in items)
            ],
        }
        (tmp / "logs").mkdir(exist_ok=True)
        timings = {
            n: {"coq_seconds": coq[n].seconds, "lean_seconds": lean[n].seconds} for n in names
        }
        (tmp / "logs" / "timings.json").write_text(json.dumps(timings, indent=1) + "\n")
        for k, v in logs.items():
            (tmp / "logs" / f"{k}.log").write_text(v + "\n")
        figs = figures_for(items)
        if figs:
            (tmp / "figures").mkdir()
        for fname, draw in figs.items():
            draw(tmp / "figures" / fname)
        manifest["figures"] = {
            f: hashlib.sha256((tmp / "figures" / f).read_bytes()).hexdigest() for f in figs
        }
        (tmp / "report.md").write_text(report_md(manifest))
        (tmp / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
        if out.exists():
            shutil.rmtree(out)
        tmp.rename(out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return manifest


FIGURE_ONE_EQUATION = "-4*c2*c3*c4 + c3^3 + 8*c4^2"  # canonical text of c3^3 - 4 c2 c3 c4 + 8 c4^2


def is_figure_one(cert: dict[str, Any]) -> bool:
    """An implicit certificate about Figure 1's network (bias-free scalar quadratic, depth 2)."""
    if cert.get("kind") != "implicit":
        return False
    net = cert["instance"]["network"]
    return (
        net.get("width") == 1
        and net.get("depth") == 2
        and not net.get("outer")
        and all(a == ["0", "0", "1"] for a in net.get("activations", []))
        and cert["result"].get("fixed_at_zero") == ["b1", "b2"]
        and cert["result"].get("equation") == FIGURE_ONE_EQUATION
    )


def figures_for(items: list[Rendered]) -> dict[str, Callable[[Path], None]]:
    """The pictures that help read these certificates (file name -> drawing function)."""
    from certify.figure import draw_resnet_quadratic

    out: dict[str, Callable[[Path], None]] = {}
    if any(is_figure_one(it.cert) for it in items):
        out["resnet-quadratic.png"] = draw_resnet_quadratic
    return out


def all_passed(manifest: dict[str, Any]) -> bool:
    """No verdict failed (not-run is reported, not a failure)."""
    return all(v != FAILED for e in manifest["certificates"] for v in e["verdicts"].values())
