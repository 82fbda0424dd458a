"""What a bundle hands a referee besides the certificates: README.md (claims, citations,
trust levels, the commands that re-verify it), CITATION.cff, docs/citations.md (the paper or
the mathematical statement behind every cite string a claim uses), the architecture line of
each certificate, and the sha256 of the tool's own sources.

Every text here is a function of the manifest (plus the shipped Lean toolchain pin, which
`certify check` compares separately), so `certify check` regenerates and compares them."""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path
from typing import Any

from certify.families.describe import described
from certify.resources import resource_dir
from certify.summary import COLUMN_NOTES, summary_line

_PKG = Path(__file__).resolve().parent
_SKIP_DIRS = {"__pycache__", "_data", ".lake", ".git"}
_SKIP_SUFFIXES = (".pyc", ".pyo", ".vo", ".vok", ".vos", ".glob", ".aux", ".olean", ".ilean")


def _source_files(root: Path, prefix: str) -> list[tuple[str, Path]]:
    out: list[tuple[str, Path]] = []
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root)
        if any(part in _SKIP_DIRS or part.startswith(".") for part in rel.parts):
            continue
        if p.is_file() and not p.name.endswith(_SKIP_SUFFIXES):
            out.append((f"{prefix}/{rel.as_posix()}", p))
    return out


@lru_cache(maxsize=1)
def tool_sources() -> dict[str, Any]:
    """sha256 of the tool's own sources: every file of the `certify` package (no bytecode)
    and of its templates, Coq and Lean resources (no build products, no hidden files), in
    sorted order of their paths; the digest is over lines `path<TAB>sha256(file)`."""
    files = _source_files(_PKG, "certify")
    for name in ("templates", "coq", "lean"):
        files += _source_files(resource_dir(name), name)
    files.sort()
    h = hashlib.sha256()
    for rel, p in files:
        h.update(f"{rel}\t{hashlib.sha256(p.read_bytes()).hexdigest()}\n".encode())
    return {"sha256": h.hexdigest(), "files": len(files)}


def lean_toolchain() -> str:
    return (resource_dir("lean") / "lean-toolchain").read_text().strip()


# --------------------------------------------------------------------------- architecture


def architecture(cert: dict[str, Any]) -> str:
    """One line: family, widths (or width/depth, or graph size), activation, bias; the
    family's describe module writes it (certify/families/<family>/describe.py)."""
    return str(described(cert, "architecture", f"{cert.get('family')} network"))


# ----------------------------------------------------------------------------- citations

# Every cite string a claim uses (certify/checker/claims/, check/implicit.py) -> what it refers
# to. tests/test_referee.py checks that the constants and the demo's claims are all here.
CITATIONS: dict[str, str] = {
    "design.md §6: the principal lattice is unisolvent for total degree <= D": (
        "A polynomial in n variables of total degree <= D that vanishes at every point of the "
        "principal lattice {x in N^n : x_1 + ... + x_n <= D} is zero (induction on n and D: "
        "restricted to x_1 = 0 it vanishes on the lattice of dimension n - 1, so x_1 divides "
        "it, and the quotient, of degree <= D - 1, vanishes on the lattice of degree D - 1 "
        "shifted by x_1 -> x_1 - 1; a classical fact of multivariate interpolation, e.g. "
        "Chung and Yao's lattices admitting unique Lagrange interpolation). Two polynomial "
        "maps of total degree <= D that agree on the lattice are therefore equal."
    ),
    "design.md §6: rank lower bound by a nonsingular minor mod p": (
        "If an r x r minor J[R, C] of an integer (or rational, reduced mod p) matrix J has "
        "det J[R, C] != 0 mod p, then det J[R, C] != 0 over Q and rank_Q J >= r. J is the "
        "Jacobian of theta -> (f_theta(x_s))_s, which factors through the differential "
        "dPhi(theta) of the parametrisation, so rank dPhi(theta) >= r; the rank of dPhi is "
        "lower semicontinuous, so the generic rank (the functional dimension of the "
        "architecture) is >= r. The kernels decide nonsingularity by fraction-free "
        "elimination mod p (each step multiplies the determinant by a power of the pivot)."
    ),
    "Usevich et al., arXiv:2506.17093, Lemma 4": (
        "Y. Usevich et al., arXiv:2506.17093, Lemma 4: for a monomial activation t^r without "
        "biases, W'_l = P_l D_l W_l D_{l-1}^{-r} P_{l-1}^T (P permutations, D invertible "
        "diagonal) leaves the network function unchanged; the group has dimension "
        "sum over hidden layers of d_l, and its tangents are the per-neuron scaling vectors."
    ),
    "Kileel-Trager-Bruna, expected dimension of polynomial networks": (
        "J. Kileel, M. Trager, J. Bruna, 'On the expressive power of deep polynomial neural "
        "networks' (NeurIPS 2019): for t^r without biases the expected dimension is "
        "min(sum_l d_l d_{l-1} - sum_{l<L} d_l, d_L * C(d_0 + r^{L-1} - 1, r^{L-1})). "
        "Defective cases exist: (3, 2, 1) with t^2 has dimension 5 < 6."
    ),
    "Alexander-Hirschowitz, J. Algebraic Geom. 4 (1995)": (
        "J. Alexander, A. Hirschowitz, 'Polynomial interpolation in several variables', J. "
        "Algebraic Geom. 4 (1995): the k-th secant variety of the Veronese variety "
        "v_r(P^(d-1)) has the expected dimension, i.e. its affine cone (the functions "
        "sum_i a_i (w_i . x)^r of a bias-free network (d, k, 1) with sigma = t^r) has dimension "
        "min(k d, C(d + r - 1, r)), except for r = 2, 2 <= k <= d - 1 (k d - C(k, 2)) and "
        "(d, r, k) = (3, 4, 5), (4, 4, 9), (5, 3, 7), (5, 4, 14) (one less)."
    ),
    "Kohn-Marchetti-Massarenti-Mella, Prop. 2.1": (
        "Kohn, Marchetti, Massarenti, Mella, arXiv:2608.27113, Prop. 2.1 (k = 2, r >= 3): for "
        "sigma = sum a_i z^i with D2 = 2r a_r a_{r-2} - (r-1) a_{r-1}^2 and D3 = 3r^2 a_r^2 "
        "a_{r-3} - 3r(r-2) a_r a_{r-1} a_{r-2} + (r-1)(r-2) a_{r-1}^3, a_r D2 D3 != 0 implies "
        "sigma(p), sigma(q) linearly independent for all distinct nonconstant p, q."
    ),
    "Kohn-Marchetti-Massarenti-Mella, Prop. 3.3": (
        "Kohn, Marchetti, Massarenti, Mella, arXiv:2608.27113, Prop. 3.3 (origin-passing, "
        "k = 2, r >= 2): sigma(0) = 0 and a_r a_{r-1} != 0 imply sigma(p), sigma(q) "
        "independent for distinct nonconstant p, q with p(0) = q(0) = 0; hence width-one "
        "bias-free networks are identifiable."
    ),
    "math.md §5 / design.md §6: dependence is Zariski-closed in sigma's coefficients": (
        "For fixed p_1..p_k, 'sigma(p_1), ..., sigma(p_k) are linearly dependent' is the "
        "vanishing of all maximal minors of the coefficient matrix, polynomial in sigma's "
        "coefficients: a Zariski-closed condition. One integer sigma of degree d with an "
        "independence certificate shows the closed set is proper, so independence holds for "
        "generic sigma of degree d."
    ),
    "Newman-Slater (1979)": (
        "D. J. Newman, M. Slater, 'Waring's problem for the ring of polynomials', J. Number "
        "Theory 11 (1979): p_1, ..., p_k nonzero, pairwise nonproportional and r > k(k - 2) "
        "imply p_1^r, ..., p_k^r linearly independent."
    ),
    "Kohn-Marchetti-Massarenti-Mella, Corollary 4.1": (
        "Kohn, Marchetti, Massarenti, Mella, arXiv:2608.27113, Corollary 4.1: for sigma in a "
        "suitable open set of degree r >= R(2D), D the maximal hidden width, a bias-free MLP "
        "with sigma(0) = 0 is identifiable up to hidden-neuron permutations iff it is not a "
        "subnetwork (no inactive and no redundant hidden neuron)."
    ),
    "Kohn-Marchetti-Massarenti-Mella, Thm 3.5 (8 d1^2; the paper's text prints 7 d1^2)": (
        "Kohn, Marchetti, Massarenti, Mella, arXiv:2608.27113, Thm 3.5 (origin-passing, degree "
        "<= m: r >= (k/2)(3km + k - m + 1)); for shallow networks (L = 2) it gives the "
        "condition r >= 8 d1^2, which the tool uses (the paper's text prints 7 d1^2)."
    ),
    "Kohn-Marchetti-Massarenti-Mella, Ex. 3.6 / 3.7": (
        "Kohn, Marchetti, Massarenti, Mella, arXiv:2608.27113, Ex. 3.6: (z^2 + z)^{k(k-2)+1} "
        "and Ex. 3.7: (z + 1)^r - 1 for r >= k^2 - 1 are explicit activations for which "
        "compositions with k distinct origin-passing polynomials are independent."
    ),
    "math.md §3: positive scaling of a hidden neuron preserves F (ReLU(lam a) = lam ReLU(a))": (
        "ReLU(lam a) = lam ReLU(a) for lam > 0, so (w_in(v), b_v) -> lam (w_in(v), b_v), "
        "w_out(v) -> w_out(v) / lam leaves F unchanged for every input; its tangent at lam = 1 "
        "is (w_in(v), b_v, -w_out(v)), so the functional dimension is <= D - H "
        "(proved in coq/NNCert/meaning/relu/ReLUSound.v: positive homogeneity)."
    ),
    "Grillo-Montufar, arXiv:2605.03601 (functional dimension D - H)": (
        "Grillo, Montufar, arXiv:2605.03601: for ReLU networks with input and hidden widths "
        ">= 2 the functional dimension is D - H (D parameters, H hidden neurons), and an open "
        "set of parameters is identifiable."
    ),
    "nn-certify: ReLU chains of width-one hidden layers have functional dimension <= "
    "n0 + 2 nL + 1 (proof sketch: certify/checker/claims/relu.py, width_one_bound)": (
        "For widths (n0, 1, ..., 1, nL) with at least two hidden layers, all of width 1, every "
        "hidden output is a monotone piecewise-linear function of the first pre-activation "
        "u = w . x + b with at most two kinks (ReLU cuts a ramp or a plateau-slope-plateau "
        "clamp at one level and leaves a ramp or a clamp), so F_theta(x) = c + v "
        "kappa(w' . x + b') (kappa(s) = min(max(s, 0), 1)), c + v ReLU(w' . x + b') or c: "
        "locally the batch Jacobian factors through these n0 + 2 nL + 1 parameters, and the "
        "bound is attained. D - H = n0 + 2 nL + L - 2 exceeds it for three or more hidden "
        "layers ((1, 1, 1, 1, 1): 4 < 5). An argument of nn-certify (not a published theorem, "
        "not kernel-checked), measured by float Jacobians in its tests."
    ),
    "math.md §3: width-one layers break identifiability": (
        "A ReLU network with a hidden layer of width one admits distinct parameters with the "
        "same function that no permutation or positive scaling relates (the width-one neuron "
        "can be inactive on a half-line), so full rank certifies functional dimension, not "
        "identifiability."
    ),
    "Vlacic-Boelcskei, arXiv:2006.11727 (affine symmetries of tanh-type activations)": (
        "V. Vlacic, H. Boelcskei, arXiv:2006.11727: an affine symmetry of rho is (a, b, c, d) "
        "with rho(a x + b) = c rho(x) + d; for tanh-type rho the networks generated from one "
        "network by these symmetries (and neuron permutations) are all networks realising "
        "the same function."
    ),
    "Sussmann 1992 (one hidden layer, tanh: irreducible nets with the same map)": (
        "H. J. Sussmann, 'Uniqueness of the weights for minimal feedforward nets with a given "
        "input-output map', Neural Networks 5 (1992): irreducible one-hidden-layer tanh nets "
        "(no zero outgoing weight, no zero incoming weight vector, no (w_i, b_i) = "
        "+-(w_j, b_j)) with the same map are related by permutations and sign flips."
    ),
    "Fefferman 1994 (deep tanh nets under genericity conditions)": (
        "C. Fefferman, 'Reconstructing a neural net from its output', Rev. Mat. Iberoam. 10 "
        "(1994): deep tanh nets satisfying genericity conditions (nonzero weights, nonzero "
        "biases with distinct absolute values per layer) with the same map are related by "
        "permutations and sign flips."
    ),
    "math.md §2 (Figure 1)": (
        "Bias-free scalar quadratic ResNet with two layers: F(x) = x + (w1^2 + w2^2) x^2 + "
        "2 w1^2 w2^2 x^3 + w1^4 w2^2 x^4, whose image lies in the hypersurface "
        "c3^3 - 4 c2 c3 c4 + 8 c4^2 = 0 of the coefficient space (Figure 1)."
    ),
    "math.md §2 (polynomial ResNets)": (
        "Polynomial ResNets x -> x + sigma(W x + b): with t0 a critical point of sigma, "
        "tau(s) = sigma(s + t0) and g = gcd{k >= 1 : tau_k != 0}, each neuron's "
        "(w, b) -> (zeta w, zeta (b - t0) + t0), zeta in mu_g, keeps the function; for degree "
        ">= 3 and no linear term after translating the input the generic fiber equals the "
        "orbit of this group (cited, not proved). Degree 2 is outside it: the real fiber can be "
        "larger than the orbit (sigma = t^2, width 1, depth 2, theta = (4, 3, -5, 2): 8 real "
        "fiber points against an orbit of 4), so claims with an activation of degree 2, or "
        "without a rational critical point, say the theorem does not apply."
    ),
}


def _cites_of(manifest: dict[str, Any]) -> list[str]:
    seen: list[str] = []
    for e in manifest["certificates"]:
        for c in e["claim"]["cites"]:
            if c not in seen:
                seen.append(c)
    return seen


def _tanh_cite(c: str) -> str | None:
    """Cite strings with a generated tail (claims_tanh's SYM_LIB names the Coq file)."""
    if c.startswith("coq/NNCert/"):
        return (
            f"A theorem of the Coq library shipped in this bundle ({c.split(':')[0]}), "
            "compiled by coqc with the certificates: " + c.split(":", 1)[-1].strip()
        )
    return None


def citations_md(manifest: dict[str, Any]) -> str:
    lines = [
        "# What the claims cite",
        "",
        "Claims separate what a kernel checked from what is cited. Each cite string used by a "
        "claim of this bundle, and the paper or the mathematical statement it refers to "
        "(design.md and math.md are nn-certify's design documents; their sections are "
        "restated here so the bundle stands alone).",
        "",
    ]
    for c in _cites_of(manifest):
        text = CITATIONS.get(c) or _tanh_cite(c) or "(no entry in nn-certify's citation table)"
        users = [e["name"] for e in manifest["certificates"] if c in e["claim"]["cites"]]
        lines += [f"## {c}", "", text, "", "Cited by: " + ", ".join(users), ""]
    if not _cites_of(manifest):
        lines += ["No claim of this bundle cites anything.", ""]
    return "\n".join(lines)


# ------------------------------------------------------------------------------- README

TRUST_ROWS = [
    ("generator", "python-flint / sympy found the witness", "nothing: untrusted"),
    ("checker", "`certify.checker`, an independent re-check in Python ints (numpy int64 on the "
     "rank fast path)", "CPython, numpy"),
    ("coq", "`coqc` on `coq/Certificates/*.v` (`vm_compute`); the driver `coq/Audit.v` states "
     "the rank theorems `rank_lower`/`rank_upper` (r <= \\rank of the Jacobian over Q, proved "
     "from the kernel's check) in absolute names and `coq/audit.awk` accepts only Coq's "
     "primitives `PrimInt63.*` and their `Uint63.*` specification axioms, by name and type",
     "Coq kernel + VM; the Uint63 specs of its primitive integers"),
    ("lean", "`lake build --wfail`, `#print axioms` within {propext, Classical.choice, "
     "Quot.sound}", "Lean kernel"),
]  # fmt: skip
TRUST = "\n".join(
    ["| level | what checks | trusts |", "|---|---|---|"]
    + [f"| {a} | {b} | {c} |" for a, b, c in TRUST_ROWS]
    + [
        "",
        "A verdict is never upgraded: a prover that did not run is `not-run`, never `passed`;",
        "`timeout` means nothing was established either way.",
    ]
)


def column_notes() -> dict[str, str]:
    """The dimension columns of results.csv explained (certify.summary.COLUMN_NOTES)."""
    return COLUMN_NOTES


# Said in README.md and report.md: what their verdicts are (certify check's notes label a
# verdict it could not re-run "stored, not re-verified").
STORED_VERDICTS = (
    "The verdicts shown here are stored: those of the run that wrote this bundle, not "
    "re-verified by reading this file. `certify check .` re-derives every file from the "
    "specs and re-runs the checker and the provers; a verdict it cannot re-run (a prover "
    'absent or turned off) it reports as "stored, not re-verified".'
)


def readme_md(manifest: dict[str, Any]) -> str:
    tool = manifest["tool"]
    src = manifest.get("tool_sources") or {}
    ver_key = "nn-certify"
    ver = tool.get(ver_key)
    entries = manifest["certificates"]
    specs = manifest.get("specs", [])
    lines = [
        "# nn-certify bundle",
        "",
        f"Written by nn-certify {ver}. sha256 of the tool's own sources: "
        f"`{src.get('sha256')}` ({src.get('files')} files: every file of the installed "
        "`certify` package and of its templates, Coq and Lean resources, in sorted order of "
        "their paths, hashed as lines `path<TAB>sha256`). Other tools: "
        + ", ".join(f"{k} {v or 'not installed'}" for k, v in sorted(tool.items()) if k != ver_key)
        + ".",
        "",
        f"{len(entries)} certificate(s) from {len(specs)} spec file(s) in `specs/`. "
        "`report.md` has the tables; `docs/citations.md` says what every citation refers to; "
        "`CITATION.cff` is a template for citing this bundle: fill it in; it is the one "
        "user-editable file, which `certify check` does not compare.",
        "",
        STORED_VERDICTS,
        "",
        "## Re-verify",
        "",
        "Everything (the specs in `specs/` re-run and every file re-derived from them and "
        "compared byte for byte, `CITATION.cff` apart; no other file, link or FIFO allowed; "
        "the checker; fresh prover runs; exit 0 only if every required prover passed):",
        "",
        "```sh",
        install_line(manifest),
        "certify check . --require coq,lean",
        "```",
        "",
        "With coqc alone (`coq/SHA256SUMS` checked first, then the NNCert library and every "
        "certificate in `_CoqProject` order, then the audit driver `Audit.v`, whose "
        "`Print Assumptions` answers `audit.awk` checks; any other axiom, a kernel check "
        "turned off, a missing theorem or another statement fails with a message):",
        "",
        "```sh",
        "make -C coq        # or: sh coq/build.sh",
        "```",
        "",
        f"With Lean alone (elan installs the pinned toolchain `{lean_toolchain()}` from "
        "`lean/lean-toolchain`; `lake build` builds the NNCert library and every certificate "
        "module, including any that `certify` left out because of its Lean cost limit; "
        "`Audit.lean` prints the axioms of every theorem):",
        "",
        "```sh",
        "cd lean && lake build --wfail && lake env lean Audit.lean",
        "```",
        "",
        "Re-run from the specs (the certificates come out byte-identical):",
        "",
        "```sh",
        "certify run specs/* --out rerun/ && diff -r certificates rerun/certificates",
        "```",
        "",
        "## What each certificate proves",
        "",
    ]
    for e in entries:
        v = e["verdicts"]
        lines += [
            f"### {e['name']} ({e['kind']})",
            "",
            f"- Architecture: {e.get('architecture', '–')}",
            f"- Result: {summary_line(e)}",
            f"- Verdicts (stored): checker {v['checker']}, coq {v['coq']}, lean {v['lean']}",
            f"- Files: `{e['file']}`, `{e['coq_file']}`, `{e['lean_file']}`",
            "",
            "Claim: " + e["claim"]["text"],
            "",
        ]
        if e["claim"]["cites"]:
            lines += ["Cited, not kernel-checked (see `docs/citations.md`):", ""]
            lines += [f"- {c}" for c in e["claim"]["cites"]] + [""]
    lines += [
        "## Columns of results.csv (rank certificates)",
        "",
        *[f"- `{c}`: {t}" for c, t in column_notes().items()],
        "",
        "## Trust levels",
        "",
        TRUST,
        "",
        "## Specs",
        "",
    ]
    lines += [f"- `{s.get('bundled')}`: spec {s['name']}" for s in specs] + [""]
    return "\n".join(lines)


def install_line(manifest: dict[str, Any]) -> str:
    """The bundle README's install command: the sdist the bundle carries (tool/, its sha256
    in the manifest's tool_sdist, verified by certify check), else the index version."""
    sdist = manifest.get("tool_sdist")
    if isinstance(sdist, dict) and isinstance(sdist.get("file"), str):
        return f"pip install {sdist['file']}   # the exact nn-certify that wrote this bundle"
    ver = manifest["tool"].get("nn-certify")
    return f"pip install 'nn-certify=={ver}'   # or from the source tree with that sources sha256"


def citation_cff(manifest: dict[str, Any]) -> str:
    names = ", ".join(s["name"] for s in manifest.get("specs", []))
    ver = manifest["tool"].get("nn-certify")
    return f"""# Template: fill in the authors, title and date (date-released:) before publishing.
# Or run: certify cite . --author "Family, Given" --date YYYY-MM-DD [--title T] [--doi D]
cff-version: 1.2.0
message: "If you use these certificates, please cite them as below."
type: dataset
title: "Machine-checked certificates: {names}"
authors:
  - family-names: "<family name>"
    given-names: "<given names>"
keywords:
  - neural networks
  - certificates
  - Coq
  - Lean
references:
  - type: software
    title: nn-certify
    authors:
      - name: "nn-certify developers"
    version: "{ver}"
    license: MIT
    notes: "sha256 of the tool's sources: {(manifest.get("tool_sources") or {}).get("sha256")}"
"""


def referee_files(manifest: dict[str, Any]) -> dict[str, str]:
    """Bundle path -> text, regenerated by `certify check`."""
    return {
        "README.md": readme_md(manifest),
        "CITATION.cff": citation_cff(manifest),
        "docs/citations.md": citations_md(manifest),
    }
