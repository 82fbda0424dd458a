"""report.md: what a bundle's certificates establish, for a reader.

A function of the manifest and the results table (table.rows), redrawn and compared byte for
byte by `certify check` (certify/verify.py), so nothing in it varies between runs (seconds
are in logs/results-seconds.csv). It opens with one summary table (one row per certificate:
kind, result, the stored checker/coq/lean verdicts), then has one section per certificate
kind (registry line: family and kind). Certificates of one kind share most of their claim
wording: a section says the sentences common to every claim of the kind once, then per
certificate only what differs (its own sentences, citations, messages, Coq assumptions).
A claim's sentences are its text split after ". " before a capital letter; a sentence is
shared when it occurs, word for word, in every claim of the section. Every full claim text
is in README.md ("What each certificate proves") and in the certificate file itself."""

from __future__ import annotations

import json
import re
from typing import Any

from certify.provers.common import FAILED, NOT_RUN, PROVERS, TIMEOUT
from certify.referee import STORED_VERDICTS
from certify.summary import summary_line

DIMENSIONS_PNG = "dimensions.png"  # the rank figure's file name in a bundle

_SENTENCE_END = re.compile(r"(?<=\.)\s+(?=[A-Z])")


def _provers() -> tuple[str, ...]:
    return PROVERS


def common_prover_notes(entries: list[dict[str, Any]]) -> dict[str, str]:
    """prover -> message, for a prover that did not run for any certificate for one reason
    (not installed, disabled, the library failed): said once, not once per certificate."""
    out: dict[str, str] = {}
    for p in _provers():
        msgs = {(e["verdicts"].get(p), e["messages"].get(p)) for e in entries}
        if len(msgs) == 1:
            ((status, msg),) = msgs
            if status in (NOT_RUN, FAILED, TIMEOUT) and msg and len(entries) > 1:
                out[p] = f"{status} for every certificate: {msg}"
    return out


def quoted(msg: Any) -> str:
    """A message (checker, coqc, lake output: free text, possibly from a forged certificate)
    as data in report.md: JSON-escaped (quotes, newlines) with backticks escaped too, inside
    one Markdown code span, so it cannot add headings, links or claim-like prose."""
    return "`" + json.dumps(msg, ensure_ascii=True).replace("`", "\\u0060") + "`"


def sentences(text: str) -> list[str]:
    """A claim's sentences: split after a full stop followed by white space and a capital
    letter (joined with single spaces they give the text back up to white space)."""
    return [s for s in _SENTENCE_END.split(text.strip()) if s]


_TOKEN = re.compile(r"\[[-\d, /]*\]|\d+")  # an integer, or a list of integers


def template(sentence: str) -> tuple[str, list[str]]:
    """A sentence with its integers and integer lists cut out: (the text with \\x00 where
    each was, the values in order)."""
    return _TOKEN.sub("\x00", sentence), _TOKEN.findall(sentence)


def _fill(tmpl: str, values: list[str]) -> str:
    parts = tmpl.split("\x00")
    return "".join(p + (values[i] if i < len(values) else "") for i, p in enumerate(parts))


def shared_text(
    texts: list[str],
) -> tuple[str, list[tuple[str, str]], list[list[str]], list[dict[str, str]], list[list[str]]]:
    """What the claims `texts` say alike, and what each says on its own.

    A sentence's template is the sentence with its integers cut out (`template`). A template
    that occurs exactly once in each of two or more claims is said once: in the shared text
    when every claim has it, else as a variant [a], [b], ... that the claims having it name.
    In it an integer that is the same in every claim having it is written out, one that
    differs is a slot ⟨k⟩. Returns (the shared text, the variants (label, text), per claim
    its variant labels, per claim its slot values {"⟨k⟩": value}, per claim its other
    sentences); filling a claim's slots in the shared text and its variants gives its
    sentences back, word for word."""
    parsed = [[template(x) for x in sentences(t)] for t in texts]
    counts: list[dict[str, int]] = []
    for p in parsed:
        c: dict[str, int] = {}
        for tm, _ in p:
            c[tm] = c.get(tm, 0) + 1
        counts.append(c)
    order = list(dict.fromkeys(tm for p in parsed for tm, _ in p))
    having = {tm: [i for i, c in enumerate(counts) if c.get(tm) == 1] for tm in order}
    said = [tm for tm in order if len(having[tm]) >= 2 and len(texts) >= 2]
    slots: list[dict[str, str]] = [{} for _ in texts]
    labels: list[list[str]] = [[] for _ in texts]
    shared: list[str] = []
    variants: list[tuple[str, str]] = []
    k = 0
    for tm in said:
        rows = having[tm]
        vals = {i: dict(parsed[i])[tm] for i in rows}
        filled: list[str] = []
        for j in range(tm.count("\x00")):
            col = [vals[i][j] for i in rows]
            if all(x == col[0] for x in col):
                filled.append(col[0])
            else:
                k += 1
                filled.append(f"⟨{k}⟩")
                for i in rows:
                    slots[i][f"⟨{k}⟩"] = vals[i][j]
        text = _fill(tm, filled)
        if len(rows) == len(texts):
            shared.append(text)
        else:
            label = f"[{_label(len(variants))}]"
            variants.append((label, text))
            for i in rows:
                labels[i].append(label)
    said_set = set(said)
    own = [[x for x, (tm, _) in zip(sentences(t), p, strict=True)
            if tm not in said_set or i not in having[tm]]
           for i, (t, p) in enumerate(zip(texts, parsed, strict=True))]  # fmt: skip
    return " ".join(shared), variants, labels, slots, own


def _label(n: int) -> str:
    """a, b, ..., z, aa, ab, ..."""
    out = ""
    n += 1
    while n:
        n, r = divmod(n - 1, 26)
        out = chr(97 + r) + out
    return out


def _cell(text: Any) -> str:
    """Text in a Markdown table cell: `|` escaped, line breaks as spaces."""
    return str(text).replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def _dash(v: Any) -> Any:
    return "–" if v is None else v


RANK_COLUMNS = ("#params", "symmetry dim", "expected dim", "dim after symmetries",
                "generic rank mod p", "rank >=", "rank <= at θ", "rank at θ", "defect")  # fmt: skip


def _rank_cells(r: dict[str, Any]) -> list[Any]:
    g = r.get("generic_rank_mod_p")
    gtxt = "–" if g is None else f"{g}" + ("" if r.get("target_reached") else " (not reached)")
    return [r["params"], r["symmetry_dim"], r["expected_dim"], r.get("dim_after_symmetries", "–"),
            gtxt, r["rank_lower"], _dash(r["rank_upper_at_point"]), _dash(r.get("rank_at_point")),
            _dash(r.get("defect"))]  # fmt: skip


def _groups(entries: list[dict[str, Any]]) -> dict[tuple[str, str], list[dict[str, Any]]]:
    """(family, kind) -> its entries, in the order the kinds first occur in the manifest."""
    out: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for e in entries:
        out.setdefault((e["family"], e["kind"]), []).append(e)
    return out


def _common_assumptions(entries: list[dict[str, Any]]) -> list[str] | None:
    """The Coq assumptions, when every certificate lists the same non-empty ones."""
    sets = {tuple(e.get("coq_assumptions") or ()) for e in entries}
    if len(sets) == 1:
        (only,) = sets
        return list(only) if only else None
    return None


def _kind_section(
    family: str, kind: str, group: list[dict[str, Any]], common: dict[str, str],
    assumptions: list[str] | None,
) -> list[str]:  # fmt: skip
    n = len(group)
    lines = [f"## {family} {kind} ({n} certificate{'s' if n != 1 else ''})", ""]
    shared, variants, labels, slots, owns = shared_text([e["claim"]["text"] for e in group])
    cite_lists = [list(e["claim"]["cites"]) for e in group]
    shared_cites = (
        [c for c in cite_lists[0] if all(c in cl for cl in cite_lists[1:])] if n > 1 else []
    )
    if shared:
        cited = (" Cited by every one: " + "; ".join(shared_cites)) if shared_cites else ""
        lines += [f"Every claim of this kind says (⟨k⟩: see its row): {shared}{cited}", ""]
    if variants:
        lines += ["Said by some (each row names its own): "
                  + " ".join(f"{lab} {txt}" for lab, txt in variants), ""]  # fmt: skip
    rank = kind == "rank"
    head = ["certificate", "architecture", *(RANK_COLUMNS if rank else ()), "claim (what differs)"]
    lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    extra: list[str] = []
    for e, lab, slot, own in zip(group, labels, slots, owns, strict=True):
        cites = [c for c in e["claim"]["cites"] if c not in shared_cites]
        parts = ["Says " + " ".join(lab) + "."] if lab else []
        parts += ["; ".join(f"{k} = {v}" for k, v in slot.items()) + "."] if slot else []
        text = " ".join(parts + own) if (parts or own) else "(the shared text)"
        if cites:
            text += " Cites: " + "; ".join(cites)
        cells = [e["name"], e.get("architecture", "–")]
        cells += _rank_cells(e["result"]) if rank else []
        lines.append("| " + " | ".join(_cell(c) for c in [*cells, text]) + " |")
        bad = {k: m for k, m in sorted(e["messages"].items()) if m and k not in common}
        own_assume = e.get("coq_assumptions") if assumptions is None else None
        if bad or own_assume:
            extra += [f"{e['name']}:", ""] + [f"- {k}: {quoted(m)}" for k, m in bad.items()]
            if own_assume:
                extra += [f"- Coq assumptions: {', '.join(own_assume)}"]
            extra += [""]
    return lines + [""] + extra


def report_md(manifest: dict[str, Any], results: list[dict[str, Any]] | None = None) -> str:
    """report.md: a function of the manifest and the results table (table.rows)."""
    entries = manifest["certificates"]
    lines = [
        "# nn-certify report",
        "",
        STORED_VERDICTS,
        "",
        "Re-verify: `certify check .` (see README.md for coqc alone and lake alone); "
        "citations: docs/citations.md; every claim in full: README.md.",
        "",
        "## Summary",
        "",
        "| certificate | kind | result | checker | coq | lean |",
        "|---|---|---|---|---|---|",
    ]
    for e in entries:
        v = e["verdicts"]
        lines.append(
            f"| {_cell(e['name'])} | {e['family']} {e['kind']} | {_cell(summary_line(e))} | "
            f"{v['checker']} | {v['coq']} | {v['lean']} |"
        )
    lines += [
        "",
        "Seconds per certificate and phase: logs/results-seconds.csv (kept out of this file, "
        "which is the same for the same specs); every column of the results table: "
        "results.csv, results.json (`certify table .`).",
        "",
    ]
    common = common_prover_notes(entries)
    assumptions = _common_assumptions(entries)
    if common or assumptions:
        lines += ["## Provers", ""] + [f"- {p}: {quoted(m)}" for p, m in common.items()]
        if assumptions:
            lines += [
                "- Coq assumptions of every certificate (kernel primitives; those of every "
                "audited theorem of the run together, one Print Assumptions): "
                + ", ".join(assumptions)
            ]
        lines += [""]
    for (family, kind), group in _groups(entries).items():
        lines += _kind_section(family, kind, group, common, assumptions)
    for fig in sorted(manifest.get("figures", {})):  # sorted: the manifest is saved sorted
        if fig == DIMENSIONS_PNG:
            lines += [
                "## Certified against expected dimension",
                "",
                f"![{fig}](figures/{fig})",
                "",
                "Each rank certificate: the certified dimension (the functional dimension "
                "where the certificate pins it, else the certified lower bound rank_lower) "
                "against the expected dimension (log axes when they span a factor of 10 or "
                "more); points below the diagonal are numbered and the table beside the atlas "
                "names them. Below the atlas, one panel per sweep of a hidden width (three or "
                "more rank certificates of one family that differ in that width alone) plots "
                "both dimensions against the width and writes each gap above it.",
                "",
            ]
            continue
        lines += [
            "## Figure",
            "",
            f"![{fig}](figures/{fig})",
            "",
            "The image M of the bias-free scalar quadratic two-layer ResNet (Figure 1, math.md "
            "§2); the identity c3^3 - 4 c2 c3 c4 + 8 c4^2 = 0 on M is the implicit certificate "
            "of the resnet implicit section.",
            "",
        ]
    t = manifest["tool"]
    lines += ["## Tools", ""] + [
        f"- {k}: {v if v else 'not installed'}" for k, v in sorted(t.items())
    ]
    return "\n".join(lines) + "\n"
