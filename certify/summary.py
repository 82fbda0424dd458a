"""One line of what a certificate established, from its manifest entry's family, kind and
result (the CLI, report.md and the bundle's README)."""

from __future__ import annotations

from typing import Any

from certify.checker import registry

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
    """One line of what a certificate established (CLI and report): its registry line's
    `summary` applied to the result; a (family, kind) the registry does not know says so."""
    entry = registry.lookup(e.get("family"), e.get("kind"))
    if entry is None or not entry.summary:
        return f"{e.get('family')}/{e.get('kind')}: a kind this nn-certify does not know"
    return str(registry.resolve(entry.summary_path)(e["result"]))
