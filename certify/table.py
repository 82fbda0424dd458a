"""The results table of a bundle: results.csv, results.json, the report's table, `certify
table` and figures/dimensions.png.

One row per certificate, a function of its manifest entry (name, family, kind, result,
verdicts) and its certificate (the instance's network), so `certify check` regenerates the
table and compares it byte for byte. Result fields are read generically: a column whose
result field a certificate does not have is empty (""), never guessed.

Columns (`COLUMNS`): name, family, kind; architecture, the one-line description
(referee.architecture); widths (d_0-...-d_L; for a ResNet "width n, depth L"; for a tanh
DAG "i inputs, h hidden, o outputs, e edges"); activation (its text; per-layer texts joined
by "; "); bias; params (#parameters); rank_lower (the certified lower bound on the rank of
dPhi at theta, hence on the generic rank = functional dimension); rank_upper_at_point (an
upper bound at theta only); functional_dimension (where the certificate pins it: the result
field functional_dimension, or ReLU's architecture_functional_dimension); expected_dim and
expected_dim_source; dim_after_symmetries and dim_after_symmetries_source;
generic_rank_mod_p and target_reached; defect (the result field, else expected_dim -
functional_dimension where both are known) and defect_reason (why it is empty); checker,
coq, lean (verdicts). COLUMN_NOTES explains the dimension columns.

Seconds per phase are not in these files: they vary between runs, and every file outside
logs/ is hashed in the manifest and reproduced byte for byte. They are in
logs/timings.json (and logs/results-seconds.csv, the same rows' `SECONDS_COLUMNS`);
`certify table --seconds` joins them in."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from certify.families.describe import described
from certify.referee import architecture
from certify.summary import COLUMN_NOTES

COLUMNS = (
    "name", "family", "kind", "architecture", "widths", "activation", "bias", "params",
    "rank_lower", "rank_upper_at_point", "functional_dimension", "expected_dim",
    "expected_dim_source", "dim_after_symmetries", "dim_after_symmetries_source",
    "generic_rank_mod_p", "target_reached", "defect", "defect_reason", "checker", "coq", "lean",
)  # fmt: skip
PHASES = ("generate", "checker", "render", "coq", "lean")
SECONDS_COLUMNS = tuple(f"seconds_{p}" for p in PHASES)
RESULTS_SCHEMA = "nn-certify-results/1"


def _cell(v: Any) -> Any:
    """A JSON cell: ints, bools and strings as they are; None/absent as ""."""
    if v is None:
        return ""
    if isinstance(v, (bool, int, str)):
        return v
    return json.dumps(v, sort_keys=True)


def row(entry: dict[str, Any], cert: dict[str, Any]) -> dict[str, Any]:
    """The table row of one certificate (manifest entry + certificate)."""
    r = entry.get("result") or {}
    v = entry.get("verdicts") or {}
    fd = r.get("functional_dimension", r.get("architecture_functional_dimension"))
    defect = r.get("defect")
    exp = r.get("expected_dim")
    if defect is None and isinstance(fd, int) and isinstance(exp, int):
        defect = exp - fd
    why = r.get("defect_reason")
    if defect is None and why is None and isinstance(exp, int):
        why = "not computed: the functional dimension is not pinned by this certificate"
    out = {
        "name": entry.get("name"),
        "family": entry.get("family"),
        "kind": entry.get("kind"),
        "architecture": architecture(cert),
        "widths": described(cert, "shape"),
        "activation": described(cert, "activation"),
        "bias": described(cert, "bias"),
        "params": r.get("params"),
        "rank_lower": r.get("rank_lower"),
        "rank_upper_at_point": r.get("rank_upper_at_point"),
        "functional_dimension": fd,
        "expected_dim": exp,
        "expected_dim_source": r.get("expected_dim_source"),
        "dim_after_symmetries": r.get("dim_after_symmetries"),
        "dim_after_symmetries_source": r.get("dim_after_symmetries_source"),
        "generic_rank_mod_p": r.get("generic_rank_mod_p"),
        "target_reached": r.get("target_reached"),
        "defect": defect,
        "defect_reason": None if defect is not None else why,
        "checker": v.get("checker"),
        "coq": v.get("coq"),
        "lean": v.get("lean"),
    }
    return {k: _cell(out[k]) for k in COLUMNS}


def rows(manifest: dict[str, Any], certs: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows in manifest order; `certs` maps certificate names to certificates."""
    return [row(e, certs[e["name"]]) for e in manifest["certificates"]]


def csv_text(table: list[dict[str, Any]], columns: tuple[str, ...] = COLUMNS) -> str:
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=list(columns), lineterminator="\n")
    w.writeheader()
    for r in table:
        w.writerow({k: ("true" if r[k] is True else "false" if r[k] is False else r[k])
                    for k in columns})  # fmt: skip
    return buf.getvalue()


def json_text(table: list[dict[str, Any]]) -> str:
    doc = {"schema": RESULTS_SCHEMA, "columns": list(COLUMNS), "rows": table}
    return json.dumps(doc, indent=1, sort_keys=True) + "\n"


def _md_cell(v: Any) -> str:
    if v == "" or v is None:
        return "–"
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v).replace("|", "\\|")


def notes_md() -> str:
    """The dimension columns explained, as Markdown bullets (certify table prints them)."""
    return "\n".join(f"- {c}: {t}" for c, t in COLUMN_NOTES.items()) + "\n"


def markdown(table: list[dict[str, Any]], columns: tuple[str, ...] = COLUMNS) -> str:
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(_md_cell(r[k]) for k in columns) + " |" for r in table]
    return "\n".join(lines) + "\n"


def seconds_rows(table: list[dict[str, Any]], timings: dict[str, Any]) -> list[dict[str, Any]]:
    """name + seconds per phase of each row, from logs/timings.json ("" where unknown)."""
    per = timings.get("certificates", {}) if isinstance(timings, dict) else {}
    out = []
    for r in table:
        t = per.get(r["name"], {}) if isinstance(per, dict) else {}
        secs = {f"seconds_{p}": t.get(p) for p in PHASES}
        out.append({"name": r["name"]} | {k: "" if v is None else round(v, 4)
                                          for k, v in secs.items()})  # fmt: skip
    return out


def load_rows(path: Path, seconds: bool = False) -> list[dict[str, Any]]:
    """The rows of a written bundle: its results.json (a bundle written before results.json
    existed: computed from its manifest and certificates), with the seconds columns if
    asked. InputError (exit 2) if `path` is not a directory, BundleError (exit 1, as for
    certify check) if it is not a readable bundle."""
    from certify import certificate
    from certify.errors import BundleError, require_bundle_dir

    path = Path(path)
    require_bundle_dir(path)
    try:
        rp = path / "results.json"
        if rp.is_file():
            doc = json.loads(rp.read_text())
            if not isinstance(doc, dict) or doc.get("schema") != RESULTS_SCHEMA:
                raise ValueError(f"results.json: schema is not {RESULTS_SCHEMA}")
            table = [{k: r.get(k, "") for k in COLUMNS} for r in doc["rows"]]
        else:
            manifest = json.loads((path / "manifest.json").read_text())
            certs = {
                e["name"]: certificate.load((path / e["file"]).read_bytes())
                for e in manifest["certificates"]
            }
            table = rows(manifest, certs)
        timings: dict[str, Any] = {}
        tp = path / "logs" / "timings.json"
        if seconds and tp.is_file():
            timings = json.loads(tp.read_text())
    except (OSError, ValueError, KeyError, TypeError, RecursionError) as e:
        raise BundleError(f"{path}: not a readable nn-certify bundle ({e})") from None
    if seconds:
        for r, s in zip(table, seconds_rows(table, timings), strict=True):
            r.update({k: s[k] for k in SECONDS_COLUMNS})
    return table


def draw_dimensions(table: list[dict[str, Any]], out: Path) -> None:
    """figures/dimensions.png: the atlas of certified against expected dimension of every
    rank certificate, and a panel per sweep of one hidden width (certify/dimension_figure.py).
    Deterministic bytes (Agg, no metadata)."""
    from certify.dimension_figure import draw_dimensions as draw

    draw(table, out)
