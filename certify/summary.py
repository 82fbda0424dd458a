"""One line of what a certificate established, from its manifest entry's family, kind and
result (the CLI, report.md and the bundle's README)."""

from __future__ import annotations

from typing import Any

from certify.checker import claims_tanh

# The dimension columns in two sentences each: results.csv, the bundle's README (referee),
# `certify table` and docs/user-guide.md say the same.
COLUMN_NOTES = {
    "expected_dim": "The expected dimension as defined by the paper named in "
    "expected_dim_source: Kileel-Trager-Bruna's min(#params - #hidden neurons, dim of the "
    "output space) for bias-free monomial MLPs. Where no paper defines one the source says "
    "naive bound (the same count, or min(#params, ...) for ResNets).",
    "dim_after_symmetries": "The count after the known continuous symmetries, which "
    "dim_after_symmetries_source names (per-neuron scalings, the orthogonal group of a "
    "quadratic last layer, ...). It is an upper bound on the functional dimension, smaller "
    "than expected_dim where a symmetry beyond the scalings exists.",
    "generic_rank_mod_p": "The rank mod p of the sample Jacobian at random points, the "
    "generator's search target; the checker recomputes it at the recorded points. It is "
    "evidence, not a certificate, and target_reached says whether rank_lower met it.",
    "defect": "expected_dim - functional_dimension, where the certificate pins the functional "
    "dimension (Alexander-Hirschowitz exceptions show 1). Empty otherwise, with the reason in "
    "defect_reason.",
}


def summary_line(e: dict[str, Any]) -> str:
    """One line of what a certificate established (CLI and report)."""
    r = e["result"]
    if e["kind"] == "rank":
        up = r["rank_upper_at_point"]
        line = (
            f"rank >= {r['rank_lower']}"
            + (f", <= {up} at theta" if up is not None else "")
            + f" (#params {r['params']}, expected {r['expected_dim']}"
        )
        if r.get("dim_after_symmetries") is not None:
            line += f", {r['dim_after_symmetries']} after symmetries"
        line += ")"
        if r.get("functional_dimension") is not None and r.get("defect") is not None:
            line += f"; functional dimension {r['functional_dimension']}, defect {r['defect']}"
        g = r.get("generic_rank_mod_p")
        if g is not None and not r.get("target_reached"):
            line += (
                f"; TARGET NOT REACHED: generic rank mod p {g}, best {r['rank_lower']}"
                " (a special theta: the spec's own, or the search fell short)"
            )
        return line
    if e["family"] == "relu" and e["kind"] == "equiv":
        if not r["equivalent"]:
            return f"not equivalent (they differ at x = {r['x']})"
        return f"equivalent on R ({r['pieces']} pieces); symmetry: {r['symmetry']}"
    if e["kind"] == "prop21":
        return f"Prop. {r['proposition']} hypothesis holds (degree {r['degree']})"
    if e["family"] == "tanh":
        return claims_tanh.summary(e["kind"], r)
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
