"""Render rank certificates for Coq and Lean, and read every literal back."""

from __future__ import annotations

import re
from math import comb
from typing import Any

from certify.checker.check.rank import decode_instance, decode_lower, decode_upper
from certify.checker.kernel import rank_core as RC
from certify.checker.kernel.rank import LowerWitness, RankInstance, UpperWitness
from certify.checker.kernel.resnet import ResNetInstance
from certify.errors import RenderError
from certify.render import literals as L
from certify.render.env import render


def module_name(cert_name: str) -> str:
    """A Lean/Coq identifier for a certificate name: Rank_<name with [^A-Za-z0-9] -> _>.

    Names are validated first: nothing outside [A-Za-z0-9_.-] ever reaches a prover file."""
    return L.module_ident("Rank_", cert_name)


def kernel_data(cert: dict[str, Any]) -> dict[str, Any]:
    """The literal data the kernel sees, as Python values (decoded like the checker)."""
    inst = decode_instance(cert)
    lw, r = decode_lower(cert["witness"]["lower"])
    net: dict[str, Any] = (
        {"width": inst.width, "acts": inst.acts, "outer": inst.outer, "theta": inst.theta}
        if isinstance(inst, ResNetInstance)
        else {"widths": inst.widths, "acts": inst.acts, "bias": inst.bias, "theta": inst.theta}
    )
    data: dict[str, Any] = {
        **net,
        "p": lw.p,
        "samples": lw.samples,
        "theta_inv": lw.theta_inv,
        "acts_inv": lw.acts_inv,
        "rows": lw.rows,
        "cols": lw.cols,
        "rank_lower": r,
        "upper": None,
        "functional_dimension": functional_dimension(cert),
        "fd_upper": False,
    }
    up = cert["witness"].get("upper")
    if up is not None:
        uw, u = decode_upper(up)
        data["upper"] = {
            "p": uw.p,
            "tangents": uw.tangents,
            "cols": uw.cols,
            "moduli": uw.moduli,
            "bound": u,
        }
        data["fd_upper"] = up.get("kind") in ("scaling", "symmetry")
    return data


def functional_dimension(cert: dict[str, Any]) -> int | None:
    """result.functional_dimension (a natural number or null) of an MLP certificate, which the
    rendered Coq theorems functional_dimension_le_rank (and functional_dimension_ge_rank_upper)
    tie to the rank theorems (ResNet files,
    rendered by their own templates, do not state it: None; the Python checker rebuilds it)."""
    if (cert.get("instance") or {}).get("network", {}).get("family") == "resnet":
        return None
    fd = (cert.get("result") or {}).get("functional_dimension")
    if fd is not None and (type(fd) is not int or fd < 0):
        raise RenderError("result.functional_dimension: expected a natural number or null")
    return fd


FD_LE_RANK = "(functional_dimension <= \\rank (mlp_jacobian inst (lw_samples lower)))%N"
FD_GE_RANK_UPPER = "<= functional_dimension)%N"


NAT_FIELDS = {"widths", "rows", "cols", "rank_lower", "bound"}
COQ_FIELDS = {
    "inst": {"widths": "widths", "acts": "acts", "bias": "bias", "theta": "theta"},
    "lower": {
        "p": "lw_p",
        "samples": "lw_samples",
        "theta_inv": "lw_theta_inv",
        "acts_inv": "lw_acts_inv",
        "rows": "lw_rows",
        "cols": "lw_cols",
    },
    "upper": {"p": "uw_p", "tangents": "uw_tangents", "cols": "uw_cols", "moduli": "uw_moduli"},
}
LEAN_FIELDS = {
    "inst": {"widths": "widths", "acts": "acts", "bias": "bias", "theta": "theta"},
    "lower": {
        "p": "p",
        "samples": "samples",
        "theta_inv": "thetaInv",
        "acts_inv": "actsInv",
        "rows": "rows",
        "cols": "cols",
    },
    "upper": {"p": "p", "tangents": "tangents", "cols": "cols", "moduli": "moduli"},
}


# Coq fields written through a decoder (cheap to elaborate; RankCore.v): row labels as binary
# N literals, strictly increasing columns as their gaps (small unary nats).
CODED = {"rows": "labels_of_N", "cols": "gap_cols 0"}


def coq_coded(key: str, v: Any) -> str:
    """The Coq text of a CODED field: `labels_of_N ([(s, k); ...])%N` for the row labels;
    `gap_cols 0 ([g0; g1; ...])%nat` for strictly increasing columns (c_0 = g_0,
    c_(i+1) = c_i + 1 + g_(i+1): rank_core.gap_cols), the plain nat list otherwise."""
    if key == "rows":
        return L.coq_coded(v, "labels_of_N", "N")
    gaps = RC.col_gaps(0, v)
    return L.coq(v, nat=True) if gaps is None else L.coq_coded(gaps, "gap_cols 0", "nat")


def read_coq_coded(text: str, key: str, fname: str, start: int) -> Any:
    """A CODED field read back from the rendered text and decoded (the inverse of
    coq_coded)."""
    if key == "rows":
        return [tuple(x) for x in L.read_coded(text, fname, start, "labels_of_N")]
    if re.search(rf"{re.escape(fname)}\s*:=\s*gap_cols\b", text[start:]):
        return RC.gap_cols(0, L.read_coded(text, fname, start, "gap_cols 0"))
    return L.read_field(text, fname, start)


def _printed(data: dict[str, Any], printer: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in data.items():
        if k == "upper":
            out[k] = None if v is None else _printed(v, printer)
        elif k in ("functional_dimension", "fd_upper"):
            out[k] = v  # plain naturals / flags, rendered by the template and read back
        elif printer is L.coq and k == "width":
            out[k] = f"{int(v)}%nat"
        elif printer is L.coq and k in CODED:
            out[k] = coq_coded(k, v)
        elif printer is L.coq:
            out[k] = L.coq(v, nat=k in NAT_FIELDS and not isinstance(v, int))
        else:
            out[k] = printer(v)
    return out


RESNET_COQ_INST = {"width": "rn_width", "acts": "rn_acts", "outer": "rn_outer", "theta": "rn_theta"}
RESNET_LEAN_INST = {"width": "width", "acts": "acts", "outer": "outer", "theta": "theta"}


def _is_resnet(data: dict[str, Any]) -> bool:
    return "width" in data


def render_coq(cert: dict[str, Any], sha: str) -> str:
    module_name(cert["name"])  # validates the name
    data = kernel_data(cert)
    resnet = _is_resnet(data)
    text = render(
        "coq/resnet/rank.v.j2" if resnet else "coq/mlp/rank.v.j2",
        name=L.comment_safe(cert["name"]),
        sha256=sha,
        claim=L.comment_safe(cert["claim"]["text"]),
        **_printed(data, L.coq),
    )
    headers = ("Definition inst", "Definition lower", "Definition upper")
    fields = {**COQ_FIELDS, "inst": RESNET_COQ_INST} if resnet else COQ_FIELDS
    verify_roundtrip(text, data, fields, headers, coq=True)
    _verify_fd(text, data, True)
    sfx = "_resnet" if resnet else ""
    _verify_theorem(text, f"check_rank_lower{sfx} inst lower {data['rank_lower']}%nat = true")
    if data["upper"]:
        bound = data["upper"]["bound"]
        _verify_theorem(text, f"check_rank_upper{sfx} inst upper {bound}%nat = true")
    return text


def render_lean(cert: dict[str, Any], sha: str) -> str:
    data = kernel_data(cert)
    resnet = _is_resnet(data)
    module = "Certificates." + module_name(cert["name"])
    text = render(
        "lean/resnet/rank.lean.j2" if resnet else "lean/mlp/rank.lean.j2",
        module=module,
        name=L.comment_safe(cert["name"]),
        sha256=sha,
        claim=L.comment_safe(cert["claim"]["text"]),
        **_printed(data, L.lean),
    )
    fields = {**LEAN_FIELDS, "inst": RESNET_LEAN_INST} if resnet else LEAN_FIELDS
    verify_roundtrip(text, data, fields, ("def inst", "def lower", "def upper"))
    _verify_fd(text, data, False)
    sfx = "Resnet" if resnet else ""
    _verify_theorem(text, f"NNCert.checkRankLower{sfx} inst lower {data['rank_lower']} = true")
    if data["upper"]:
        bound = data["upper"]["bound"]
        _verify_theorem(text, f"NNCert.checkRankUpper{sfx} inst upper {bound} = true")
    return text


def _verify_fd(text: str, data: dict[str, Any], coq: bool) -> None:
    """Coq: the functional dimension reads back and its theorems state it bounds the rank
    (functional_dimension_le_rank, and functional_dimension_ge_rank_upper when the upper
    bound pins it), or, without one, neither is rendered. Lean states no theorem of it (its
    meaning is proved in Coq; the Lean file says so in a comment)."""
    fd = data["functional_dimension"]
    if not coq:
        if "functionalDimension" in text or "functional_dimension_check" in text:
            raise RenderError("the Lean file states a functional-dimension theorem")
        return
    header = "Definition functional_dimension"
    if fd is None:
        if header in text:
            raise RenderError(f"{header!r} rendered although there is no functional dimension")
        return
    if L.read_field(text, "functional_dimension", L.block_start(text, header)) != fd:
        raise RenderError("literal functional_dimension does not read back as rendered")
    _verify_theorem(text, "Theorem functional_dimension_le_rank :\n  " + FD_LE_RANK)
    if data["fd_upper"]:
        _verify_theorem(text, FD_GE_RANK_UPPER)


def _verify_theorem(text: str, statement: str) -> None:
    if statement not in text:
        raise RenderError(f"rendered file lacks the statement {statement!r}")


def _norm(v: Any) -> Any:
    if isinstance(v, (list, tuple)):
        return [_norm(x) for x in v]
    return v


def verify_roundtrip(
    text: str,
    data: dict[str, Any],
    fields: dict[str, dict[str, str]],
    headers: tuple[str, ...],
    coq: bool = False,
) -> None:
    """Parse every literal back from the rendered text and compare with the data (Coq: the
    CODED fields through their decoders)."""
    groups = {"inst": data, "lower": data, "upper": data["upper"]}
    for (group, names), header in zip(fields.items(), headers, strict=True):
        src = groups[group]
        if src is None:
            if header in text:
                raise RenderError(f"{header!r} rendered although there is no such witness")
            continue
        start = L.block_start(text, header)
        for key, fname in names.items():
            got = (
                read_coq_coded(text, key, fname, start)
                if coq and key in CODED
                else L.read_field(text, fname, start)
            )
            if _norm(got) != _norm(src[key]):
                raise RenderError(f"literal {group}.{fname} does not read back as rendered")


def kernel_objects(
    data: dict[str, Any],
) -> tuple[RankInstance, LowerWitness, UpperWitness | None]:
    """The checker's dataclasses from kernel data (used by tests reading files back)."""
    inst = RankInstance(data["widths"], data["acts"], data["bias"], data["theta"])
    lw = LowerWitness(
        data["p"], data["samples"], data["theta_inv"], data["acts_inv"], data["rows"], data["cols"]
    )
    up = data["upper"]
    uw = None if up is None else UpperWitness(up["p"], up["tangents"], up["cols"], up["moduli"])
    return inst, lw, uw


def theorem_names(cert: dict[str, Any]) -> list[str]:
    """The Lean theorems: the lower-bound check, and the upper-bound one when the certificate
    has one (the meaning theorems, and those of the functional dimension, are Coq's)."""
    upper = cert["witness"].get("upper") is not None
    return ["rank_lower_check"] + (["rank_upper_check"] if upper else [])


def render_files(cert: dict[str, Any], sha: str) -> tuple[str, list[str], str, str]:
    """(module name, theorem names, Coq text, Lean text): the registry's renderer entry."""
    return (
        module_name(cert["name"]),
        theorem_names(cert),
        render_coq(cert, sha),
        render_lean(cert, sha),
    )


def lean_shape(cert: dict[str, Any]) -> tuple[int, int, int, int, int, int]:
    """(r, n, lattice, dout, tangents, moduli) of an MLP or ResNet rank certificate: the
    sizes certify/lean_cost.py's model charges (registry: Kind.lean_shape). The lattice of
    the upper bound's exactness check has C(dim + degree, degree) points."""
    w, res, net = cert["witness"], cert["result"], cert["instance"]["network"]
    up = w.get("upper") or {}
    grid = up.get("grid") or {"dim": 0, "degree": 0}
    lattice = comb(grid["dim"] + grid["degree"], grid["degree"])
    dout = net["width"] if "width" in net else net["widths"][-1]
    tangents, moduli = len(up.get("tangents", [])), len(up.get("moduli", []))
    return (res["rank_lower"], res["params"], lattice, dout, tangents, moduli)
