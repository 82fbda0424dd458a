"""Render ReLU certificates (kinds rank and equiv of family relu) for Coq and Lean, and read
every literal back from the rendered text before a prover runs (design.md §5)."""

from __future__ import annotations

from typing import Any

from certify.checker.check.relu import (
    _rats,
    decode_cover,
    decode_instance,
    decode_lower,
    decode_other,
    decode_upper,
)
from certify.checker.ir import as_list, as_nats, as_rat
from certify.errors import RenderError
from certify.render import literals as L
from certify.render.env import prover_files, render


def module_name(kind: str, cert_name: str) -> str:
    prefix = "ReluRank_" if kind == "rank" else "ReluEquiv_"
    return L.module_ident(prefix, cert_name)


def theorem_names(cert: dict[str, Any]) -> list[str]:
    if cert["kind"] == "rank":
        up = cert["witness"].get("upper") is not None
        cov = cert["witness"].get("cover") is not None
        return (["rank_lower_check"] + (["rank_upper_check"] if up else [])
                + (["cover_check"] if cov else []))  # fmt: skip
    w = cert["witness"]
    if w["kind"] == "differ":
        return ["differ_check", "differ_at_x"]
    return ["equiv_check"] + (["symmetry_check"] if "perms" in w else [])


def _norm(v: Any) -> Any:
    return [_norm(x) for x in v] if isinstance(v, (list, tuple)) else v


def kernel_data(cert: dict[str, Any]) -> dict[str, Any]:
    """The literal data the kernel sees, decoded exactly as the checker decodes it."""
    inst = decode_instance(cert)
    data: dict[str, Any] = {"widths": inst.widths, "theta": inst.theta}
    if cert["kind"] == "rank":
        lw, r = decode_lower(cert["witness"]["lower"])
        data.update(p=lw.p, batch=lw.batch, theta_inv=lw.theta_inv, batch_inv=lw.batch_inv,
                    rows=lw.rows, cols=lw.cols, rank_lower=r, upper=None)  # fmt: skip
        data["cuts"] = decode_cover(cert["witness"].get("cover"))
        up = cert["witness"].get("upper")
        if up is not None:
            uw, u = decode_upper(up)
            data["upper"] = {"p": uw.p, "tangents": uw.tangents, "cols": uw.cols,
                             "moduli": uw.moduli, "bound": u}  # fmt: skip
        return data
    w = cert["witness"]
    data.update(other=decode_other(cert), differ=w["kind"] == "differ", x=None, points=None,
                perms=None, scales=None)  # fmt: skip
    if data["differ"]:
        data["x"] = as_rat(w["x"], "witness.x")
    else:
        data["points"] = _rats(w["points"], "witness.points")
        if "perms" in w:
            data["perms"] = [as_nats(pm, "witness.perms") for pm in as_list(w["perms"], "perms")]
            data["scales"] = [_rats(sc, "witness.scales") for sc in as_list(w["scales"], "s")]
    return data


NAT_FIELDS = {"widths", "rows", "cols", "perms"}


def _printed(data: dict[str, Any], coq: bool) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in data.items():
        if k == "upper":
            out[k] = None if v is None else _printed(v, coq)
        elif k in ("differ", "rank_lower", "bound") or v is None:
            out[k] = v
        elif coq:
            out[k] = L.coq(v, nat=k in NAT_FIELDS)
        else:
            out[k] = L.lean(v)
    return out


COQ_NAMES = {
    "inst": {"widths": "ri_widths", "theta": "ri_theta"},
    "lower": {"p": "rl_p", "batch": "rl_batch", "theta_inv": "rl_theta_inv",
              "batch_inv": "rl_batch_inv", "rows": "rl_rows", "cols": "rl_cols"},
    "upper": {"p": "uw_p", "tangents": "uw_tangents", "cols": "uw_cols", "moduli": "uw_moduli"},
}  # fmt: skip
LEAN_NAMES = {
    "inst": {"widths": "widths", "theta": "theta"},
    "lower": {"p": "p", "batch": "batch", "theta_inv": "thetaInv", "batch_inv": "batchInv",
              "rows": "rows", "cols": "cols"},
    "upper": {"p": "p", "tangents": "tangents", "cols": "cols", "moduli": "moduli"},
}  # fmt: skip


def _check(text: str, field: str, value: Any, start: int = 0) -> None:
    if _norm(L.read_field(text, field, start)) != _norm(value):
        raise RenderError(f"literal {field} does not read back as rendered")


def _statement(text: str, stmt: str) -> None:
    if stmt not in text:
        raise RenderError(f"rendered file lacks the statement {stmt!r}")


def render_prover(cert: dict[str, Any], sha: str, prover: str) -> str:
    coq = prover == "coq"
    kind = cert["kind"]
    module = module_name(kind, cert["name"])
    data = kernel_data(cert)
    meta = {"name": L.comment_safe(cert["name"]), "sha256": sha,
            "claim": L.comment_safe(cert["claim"]["text"])}  # fmt: skip
    template = f"{'coq' if coq else 'lean'}/relu/{kind}.{'v' if coq else 'lean'}.j2"
    ctx = {**meta, **_printed(data, coq)}
    if not coq:
        ctx["module"] = f"Certificates.{module}"
    text = render(template, **ctx)
    names = COQ_NAMES if coq else LEAN_NAMES
    head = {"inst": "Definition inst" if coq else "def inst",
            "lower": "Definition lower" if coq else "def lower",
            "upper": "Definition upper" if coq else "def upper"}  # fmt: skip
    for fld, key in names["inst"].items():
        _check(text, key, data[fld], L.block_start(text, head["inst"]))
    if kind == "rank":
        start = L.block_start(text, head["lower"])
        for fld, key in names["lower"].items():
            _check(text, key, data[fld], start)
        r = data["rank_lower"]
        if coq:
            _statement(text, f"check_relu_rank_lower inst lower {r}%nat = true")
        else:
            _statement(text, f"NNCert.checkReluRankLower inst lower {r} = true")
        if data["cuts"] is not None:
            _check(text, "cuts", data["cuts"],
                   L.block_start(text, "Definition cuts :" if coq else "def cuts :"))  # fmt: skip
            if coq:
                _statement(text, "check_relu_cover inst (rl_batch lower) cuts = true")
            else:
                _statement(text, "NNCert.checkReluCover inst lower.batch cuts = true")
        elif "cover_check" in text:
            raise RenderError("a cover check rendered although there is none")
        up = data["upper"]
        if up is None:
            if head["upper"] in text:
                raise RenderError("an upper witness rendered although there is none")
            return text
        start = L.block_start(text, head["upper"])
        for fld, key in names["upper"].items():
            _check(text, key, up[fld], start)
        if coq:
            _statement(text, f"check_relu_rank_upper inst (rl_batch lower) upper {up['bound']}%nat "
                       "= true")  # fmt: skip
        else:
            _statement(
                text, f"NNCert.checkReluRankUpper inst lower.batch upper {up['bound']} = true"
            )
        return text

    def top(key: str, value: Any) -> None:
        _check(text, key, value, L.block_start(text, f"{'Definition' if coq else 'def'} {key} :"))

    top("other", data["other"])
    fn = (lambda s: s) if coq else (lambda s: "NNCert." + s)
    if data["differ"]:
        top("x", data["x"])
        _statement(text, fn("check_relu_differ inst other x = true" if coq else
                            "checkReluDiffer inst other x = true"))  # fmt: skip
        if coq:
            _statement(text, "Theorem differ_at_x : relu_fun inst (ri_theta inst) x <> "
                       "relu_fun inst other x.\nProof. exact (relu_differ_meaning inst other x "
                       "differ_check). Qed.")  # fmt: skip
        return text
    top("points", data["points"])
    _statement(text, fn("check_relu_equiv inst other points = true" if coq else
                        "checkReluEquiv inst other points = true"))  # fmt: skip
    if data["perms"] is not None:
        top("perms", data["perms"])
        top("scales", data["scales"])
        _statement(text, fn("check_relu_symmetry inst other perms scales = true" if coq else
                            "checkReluSymmetry inst other perms scales = true"))  # fmt: skip
    return text


def render_files(cert: dict[str, Any], sha: str) -> tuple[str, list[str], str, str]:
    """(module name, theorem names, Coq text, Lean text): the registry's renderer entry."""
    return prover_files(
        module_name(cert["kind"], cert["name"]), theorem_names(cert), cert, sha, render_prover
    )


def lean_shape(cert: dict[str, Any]) -> tuple[int, int, int, int, int, int]:
    """(r, n, lattice, dout, tangents, moduli) of a ReLU rank certificate for
    certify/lean_cost.py's model (registry: Kind.lean_shape): the lattice is the batch."""
    w, res, net = cert["witness"], cert["result"], cert["instance"]["network"]
    up = w.get("upper") or {}
    tangents, moduli = len(up.get("tangents", [])), len(up.get("moduli", []))
    return (res["rank_lower"], res["params"], len(w["lower"]["batch"]), net["widths"][-1],
            tangents, moduli)  # fmt: skip
