"""Spec files (TOML via tomllib, or JSON): parse, validate and normalise to exact data.

Every error names the file, the field and what was expected (SpecError, exit code 2).
"""

from __future__ import annotations

import dataclasses
import json
import os
import stat
import tomllib
from fractions import Fraction
from pathlib import Path
from typing import Any

from certify.checker import registry
from certify.checker.ir import (
    MLP as MLP,
)
from certify.checker.ir import (
    NAME_RE as NAME_RE,
)
from certify.checker.ir import (
    VAR_RE as VAR_RE,
)
from certify.checker.ir import (
    ReLUNet as ReLUNet,
)
from certify.checker.ir import (
    ResNet as ResNet,
)
from certify.checker.ir import (
    degree_product as degree_product,
)
from certify.checker.ir import (
    network_json as network_json,
)
from certify.checker.ir import (
    parse_rat_str as parse_rat_str,
)
from certify.checker.ir import (
    rat_str as rat_str,
)
from certify.errors import SpecError
from certify.families.compind.spec import (
    MAX_POLYNOMIALS as MAX_POLYNOMIALS,
)
from certify.families.compind.spec import (
    MAX_VARIABLES as MAX_VARIABLES,
)
from certify.families.compind.spec import (
    CompindSpec as CompindSpec,
)
from certify.families.mlp.spec import check_identifiable_network
from certify.families.resnet.spec import (
    MAX_RESNET_DEGREE as MAX_RESNET_DEGREE,
)
from certify.families.resnet.spec import (
    check_implicit,
    parse_resnet_network,
)
from certify.request import CertRequest as CertRequest
from certify.request import Spec as Spec
from certify.spec_values import (
    MAX_DIGITS as MAX_DIGITS,
)
from certify.spec_values import (
    MAX_PARAMS as MAX_PARAMS,
)
from certify.spec_values import (
    MAX_POLY_CHARS as MAX_POLY_CHARS,
)
from certify.spec_values import (
    RANK_KINDS,
    check_rank_memory,
    explicit_theta,
    int_field,
    parameters_table,
    polynomial_activation,
    required,
)
from certify.spec_values import (
    check_params as check_params,
)
from certify.spec_values import (
    random_theta as random_theta,
)

# Kinds and families come from the one registry (certify/checker/registry.py).
KINDS = tuple(dict.fromkeys(k.kind for k in registry.KINDS))
NETWORK_FAMILIES = tuple(f for f in registry.FAMILIES if f != "compind")
NETWORK_KINDS = tuple(dict.fromkeys(k.kind for k in registry.KINDS if k.family != "compind"
                                    and k.kind != "affsym"))  # fmt: skip
RESNET_KINDS = tuple(k for k in registry.kinds_of("resnet") if k != "rank")
COMPIND_KINDS = tuple(registry.kinds_of("compind"))
MAX_WIDTH = 10_000
MAX_LAYERS = 64
DEFAULT_PRIME = 2147483647  # 2^31 - 1: a 31-bit prime, so products fit Coq's 63-bit integers
MAX_PRIME = 2**31
# Caps on every field that drives an allocation, checked before anything is allocated (each
# a SpecError naming the field; docs/architecture.md, "Caps").
MAX_CERTIFICATES = 256  # [[certificate]] tables in one spec


MAX_SPEC_BYTES = 64 * 2**20  # a spec file larger than this is refused before it is read


class _DuplicateKey(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise _DuplicateKey(k)
        out[k] = v
    return out


def _file_kind(mode: int) -> str:
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):  # fmt: skip
        if test(mode):
            return name
    return "not a regular file"


def read_spec_bytes(path: str | Path) -> bytes:
    """The bytes of a spec file: a regular file (checked before opening, so a FIFO or a
    device is never read) of at most MAX_SPEC_BYTES."""
    src = str(path)
    try:
        st = os.stat(path)
    except OSError as e:
        raise SpecError(src, "<file>", "a readable spec file", e.strerror or str(e)) from None
    if not stat.S_ISREG(st.st_mode):
        raise SpecError(src, "<file>", "a regular file", _file_kind(st.st_mode))
    if st.st_size > MAX_SPEC_BYTES:
        raise SpecError(src, "<file>", f"at most {MAX_SPEC_BYTES} bytes", st.st_size)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as e:
        raise SpecError(src, "<file>", "a readable spec file", e.strerror or str(e)) from None
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):  # replaced since the stat
            raise SpecError(src, "<file>", "a regular file", "not a regular file")
        raw = f.read(MAX_SPEC_BYTES + 1)
    if len(raw) > MAX_SPEC_BYTES:
        raise SpecError(src, "<file>", f"at most {MAX_SPEC_BYTES} bytes", "a larger file")
    return raw


def decode_spec(path: str | Path) -> tuple[Any, bytes]:
    """The decoded data (TOML or JSON by suffix) and the bytes of a spec file."""
    p = Path(path)
    src = str(path)
    raw = read_spec_bytes(p)
    if p.suffix == ".json":
        try:
            data = json.loads(raw.decode("utf-8"), object_pairs_hook=_no_duplicates)
        except _DuplicateKey as e:
            raise SpecError(src, e.key, "each key once per JSON object (duplicate key)") from None
        except (UnicodeDecodeError, ValueError) as e:  # JSONDecodeError, too many digits
            raise SpecError(src, "<file>", "valid JSON", str(e)) from None
        except RecursionError:
            raise SpecError(src, "<file>", "valid JSON", "nesting too deep") from None
    else:
        data = decode_toml(raw, src)
    return data, raw


def decode_toml(raw: bytes | str, src: str) -> Any:
    """TOML text (bytes or str) decoded by tomllib; a SpecError naming <file> otherwise."""
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        return tomllib.loads(text)
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise SpecError(src, "<file>", "valid TOML", str(e)) from None
    except ValueError as e:  # an integer of more than 4300 digits (int_max_str_digits)
        raise SpecError(src, "<file>", "TOML integers of at most 4300 digits", str(e)) from None
    except RecursionError:
        raise SpecError(src, "<file>", "valid TOML", "nesting too deep") from None


def load_spec(path: str | Path) -> Spec:
    """Read a spec file (.toml or .json) without a [sweep] and return the validated,
    normalised Spec (a spec with a sweep: `load_specs`)."""
    data, raw = decode_spec(path)
    return dataclasses.replace(parse_spec(data, str(path)), raw=raw)


def load_specs(path: str | Path) -> list[Spec]:
    """Read a spec file: one Spec, or one per instance of its [sweep] (certify/sweep.py)."""
    data, raw = decode_spec(path)
    return [dataclasses.replace(s, raw=raw) for s in parse_specs(data, str(path))]


def parse_specs(data: Any, src: str = "<spec>") -> list[Spec]:
    """Validate a decoded spec: [Spec], or the instances of its [sweep] in sweep order, each
    marked with the sweep's name. An instance's error names the swept value (sweep.py)."""
    from certify import sweep

    if not sweep.has_sweep(data):
        return [parse_spec(data, src)]
    out: list[Spec] = []
    for inst, where, index in sweep.expand(data, src):
        try:
            spec = parse_spec(inst, src)
        except SpecError as e:
            raise sweep.relabel(e, where, index) from None
        out.append(dataclasses.replace(spec, sweep=data["name"], data=data))
    return out


def parse_spec(data: Any, src: str = "<spec>") -> Spec:
    """Validate a decoded spec (dict) and normalise it."""
    if not isinstance(data, dict):
        raise SpecError(src, "<top>", "a table of fields")
    if "sweep" in data:
        raise SpecError(
            src, "sweep", "a spec without a [sweep] here (parse_specs / load_specs expand one)"
        )
    known = {"name", "network", "parameters", "certificate", "other"}
    for k in data:
        if k not in known:
            raise SpecError(
                src, k, f"one of the fields {sorted(known | {'sweep'})}", "unknown field"
            )
    name = required(data, "name", src, "", "a name string")
    if not isinstance(name, str) or not NAME_RE.match(name):
        raise SpecError(src, "name", "a name of letters, digits, '_', '-', '.' (max 64)", name)

    certs_raw = data.get("certificate", [{"kind": "rank"}] if "network" in data else None)
    if not isinstance(certs_raw, list) or not certs_raw:
        raise SpecError(src, "certificate", "a non-empty array of [[certificate]] tables")
    if len(certs_raw) > MAX_CERTIFICATES:
        raise SpecError(
            src, "certificate", f"at most {MAX_CERTIFICATES} [[certificate]] tables", len(certs_raw)
        )
    kinds = [c.get("kind") if isinstance(c, dict) else None for c in certs_raw]
    mlp: MLP | None = None
    theta: tuple[Fraction, ...] = ()
    seed: int | None = None
    prange = 5
    if "network" in data:
        mlp, seed, theta, prange = _network(data, src)
    elif any(k in NETWORK_KINDS for k in kinds):
        raise SpecError(src, "network", "a [network] table (certificate kind rank needs one)")
    elif "parameters" in data:
        raise SpecError(src, "parameters", "only together with a [network] table")
    certs: list[CertRequest] = []
    for i, c in enumerate(certs_raw):
        certs.append(_cert_request(c, src, i, name, len(certs_raw)))
    if "network" in data and data["network"].get("family") == "tanh":
        from certify.families.tanh import spec as spec_tanh

        certs = spec_tanh.attach(certs, certs_raw, mlp, data["network"], src)
    for i, req in enumerate(certs):
        if req.kind == "mlp-identifiable":
            check_identifiable_network(mlp, theta, src, i)
        is_tanh = getattr(mlp, "family", None) == "tanh"
        if req.kind in RESNET_KINDS and not isinstance(mlp, ResNet):
            if not (req.kind == "orbit" and is_tanh):
                raise SpecError(src, "network.family", f"resnet (certificate kind {req.kind})")
        if req.kind == "orbit" and not is_tanh and any(len(a) - 1 < 2 for a in mlp.activations):  # type: ignore[union-attr]
            raise SpecError(src, "network.activation", "activations of degree >= 2 (orbit)")
        if req.kind in RESNET_KINDS and isinstance(mlp, ResNet):
            if mlp.degree_bound() > MAX_RESNET_DEGREE:
                raise SpecError(
                    src, "network.activation",
                    f"activation degrees whose product (the degree of F) is at most "
                    f"{MAX_RESNET_DEGREE} (certificate kind {req.kind})", mlp.degree_bound(),
                )  # fmt: skip
        if req.kind == "implicit":
            check_implicit(mlp, req, src, i)  # type: ignore[arg-type]
        if req.kind in RANK_KINDS and not is_tanh and hasattr(mlp, "n_params"):
            check_rank_memory(mlp.n_params, src, "network")  # type: ignore[union-attr]
    names = [c.name for c in certs]
    if len(set(names)) != len(names):
        raise SpecError(src, "certificate.name", "distinct certificate names", names)
    from certify.families.relu.spec import ReLUNet, check_relu_requests

    other = None
    if isinstance(mlp, ReLUNet):
        other = check_relu_requests(data, mlp, theta, certs_raw, certs, src)
    elif any(req.options.get("batch") is not None for req in certs):
        raise SpecError(src, "network.family", "relu (a certificate with a batch)")
    elif isinstance(mlp, (MLP, ResNet)) and "equiv" in kinds:
        raise SpecError(src, "network.family", "relu or tanh (certificate kind equiv)")
    elif isinstance(mlp, (MLP, ResNet)) and "other" in data:
        raise SpecError(src, "other", "only with a network of family relu")
    return Spec(name, src, mlp, seed, theta, prange, tuple(certs), other, data=data)


def _network(data: dict[str, Any], src: str) -> tuple[MLP, int | None, tuple[Fraction, ...], int]:
    net = required(data, "network", src, "", "a [network] table")
    if not isinstance(net, dict):
        raise SpecError(src, "network", "a [network] table", net)
    if net.get("family") == "tanh":
        from certify.families.tanh import spec as spec_tanh

        return spec_tanh.parse_network(data, net, src), None, (), 5
    if net.get("family") not in ("resnet", "relu"):
        for k in net:
            if k not in {"family", "widths", "activation", "bias"}:
                raise SpecError(
                    src, f"network.{k}", "family, widths, activation or bias", "unknown"
                )
    family = required(net, "family", src, "network.", f"one of {list(NETWORK_FAMILIES)}")
    if family not in NETWORK_FAMILIES:
        raise SpecError(src, "network.family", f"one of {list(NETWORK_FAMILIES)}", family)
    if family == "resnet":
        return parse_resnet_network(data, net, src)
    if family == "relu":
        from certify.families.relu.spec import parse_relu_network

        return parse_relu_network(data, net, src)  # type: ignore[return-value]
    widths = required(net, "widths", src, "network.", "a list of at least two positive integers")
    if not isinstance(widths, list) or len(widths) < 2 or len(widths) > MAX_LAYERS + 1:
        raise SpecError(
            src, "network.widths", f"a list of 2 to {MAX_LAYERS + 1} positive integers", widths
        )
    widths_t = tuple(
        int_field(w, src, f"network.widths[{i}]", 1, MAX_WIDTH) for i, w in enumerate(widths)
    )
    n_hidden = len(widths_t) - 2
    act = required(net, "activation", src, "network.", "a polynomial string or a list of them")
    if isinstance(act, list):
        if len(act) != n_hidden:
            raise SpecError(
                src,
                "network.activation",
                f"one activation per hidden layer ({n_hidden} for widths {list(widths_t)})",
                act,
            )
        acts = tuple(
            polynomial_activation(a, src, f"network.activation[{i}]") for i, a in enumerate(act)
        )
    else:
        one = polynomial_activation(act, src, "network.activation")
        acts = tuple(one for _ in range(n_hidden))
    bias = net.get("bias", False)
    if not isinstance(bias, bool):
        raise SpecError(src, "network.bias", "true or false", bias)
    mlp = MLP(widths_t, acts, bias)
    check_params(mlp.n_params, src, "network.widths")

    params = parameters_table(data, src, ("seed", "range", "weights", "biases"))
    prange = int_field(params.get("range", 5), src, "parameters.range", 1, 10**6)
    if "weights" in params:
        if "seed" in params:
            raise SpecError(src, "parameters", "either seed or explicit weights, not both")
        theta = explicit_theta(params, mlp, src)
        seed = None
    else:
        seed = int_field(params.get("seed", 0), src, "parameters.seed", 0)
        if "biases" in params:
            raise SpecError(src, "parameters.biases", "only together with parameters.weights")
        theta = random_theta(mlp, seed, prange)

    return mlp, seed, theta, prange


def _cert_request(c: Any, src: str, i: int, spec_name: str, count: int) -> CertRequest:
    where = f"certificate[{i}]"
    if not isinstance(c, dict):
        raise SpecError(src, where, "a [[certificate]] table", c)
    kind = required(c, "kind", src, f"{where}.", f"one of {list(KINDS)}")
    if kind not in KINDS:
        raise SpecError(src, f"{where}.kind", f"one of {list(KINDS)}", kind)
    allowed = registry.request_fields(kind)
    for k in c:
        if k not in allowed:
            raise SpecError(src, f"{where}.{k}", f"one of {sorted(allowed)}", "unknown")
    default_name = spec_name if count == 1 else f"{spec_name}-{i}"
    cname = c.get("name", default_name)
    if not isinstance(cname, str) or not NAME_RE.match(cname):
        raise SpecError(src, f"{where}.name", "a name of letters, digits, '_', '-', '.'", cname)
    prime = int_field(c.get("prime", DEFAULT_PRIME), src, f"{where}.prime", 3, MAX_PRIME - 1)
    from flint import fmpz

    if not fmpz(prime).is_prime():
        raise SpecError(src, f"{where}.prime", "a prime below 2^31", prime)
    upper = c.get("upper", True)
    if not isinstance(upper, bool):
        raise SpecError(src, f"{where}.upper", "true or false", upper)
    max_grid = int_field(c.get("max_grid", 4096), src, f"{where}.max_grid", 1, 10**6)
    attempts = int_field(c.get("attempts", 3), src, f"{where}.attempts", 1, 1000)
    options: dict[str, Any] = {}
    for line in registry.KINDS:
        if line.kind == kind and line.options:
            options.update(registry.resolve(line.options_path)(c, kind, src, where))
    return CertRequest(kind, cname, prime, upper, max_grid, attempts, "attempts" in c, options)
