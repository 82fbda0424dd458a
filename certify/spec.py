"""Spec files (TOML via tomllib, or JSON): parse, validate and normalise to exact data.

Every error names the file, the field and what was expected (SpecError, exit code 2).
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import os
import stat
import tomllib
from fractions import Fraction
from pathlib import Path
from typing import Any

from certify.checker import registry
from certify.checker.ir import MLP as MLP
from certify.checker.ir import NAME_RE as NAME_RE
from certify.checker.ir import ReLUNet as ReLUNet
from certify.checker.ir import ResNet as ResNet
from certify.checker.ir import network_json as network_json
from certify.checker.ir import parse_rat_str as parse_rat_str
from certify.checker.ir import rat_str as rat_str
from certify.errors import SpecError
from certify.request import CertRequest as CertRequest
from certify.request import Spec as Spec
from certify.spec_values import check_rank_memory, int_field, required
from certify.spec_values import random_theta as random_theta

# Kinds and families come from the one registry (certify/checker/registry.py); each family's
# network table and its kinds' settings are checked by its spec module (family_path).
KINDS = tuple(dict.fromkeys(k.kind for k in registry.KINDS))
NETWORK_FAMILIES = registry.NETWORK_FAMILIES
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

    certs_raw = data.get("certificate")
    if "certificate" in data or "network" not in data:
        _check_tables(certs_raw, src)
    family: str | None = None
    network: Any = None
    theta: tuple[Fraction, ...] = ()
    seed: int | None = None
    prange = 5
    if "network" in data:
        family, network, seed, theta, prange = _network(data, src)
        if "certificate" not in data:  # the family's default kind (registry: Kind.default)
            certs_raw = [{"kind": registry.default_kind(family)}]
    elif "parameters" in data and not any(
        isinstance(c, dict) and registry.network_free(c.get("kind")) is None for c in certs_raw
    ):
        raise SpecError(src, "parameters", "only together with a [network] table")
    certs = [_cert_request(c, src, i, name, len(certs_raw)) for i, c in enumerate(certs_raw)]
    for i, req in enumerate(certs):
        _check_family(req, certs_raw[i], i, family, src)
    other = None
    if family is not None:
        check = registry.resolve(registry.family_path(family, "spec", "check_requests"))
        certs, other = check(data, network, theta, certs_raw, certs, src)
        for req in certs:
            line = registry.lookup(family, req.kind)
            if line is not None and line.jacobian and hasattr(network, "n_params"):
                check_rank_memory(network.n_params, src, "network")
    for top in ("other",):
        if top in data and top not in _top_fields(family):
            readers = [f for f in registry.NETWORK_FAMILIES if top in _top_fields(f)]
            raise SpecError(src, top, f"only with a network of family {_or(readers)}")
    names = [c.name for c in certs]
    if len(set(names)) != len(names):
        raise SpecError(src, "certificate.name", "distinct certificate names", names)
    return Spec(name, src, network, seed, theta, prange, tuple(certs), other, data=data)


def _check_tables(certs_raw: Any, src: str) -> None:
    if not isinstance(certs_raw, list) or not certs_raw:
        raise SpecError(src, "certificate", "a non-empty array of [[certificate]] tables")
    if len(certs_raw) > MAX_CERTIFICATES:
        raise SpecError(
            src, "certificate", f"at most {MAX_CERTIFICATES} [[certificate]] tables", len(certs_raw)
        )


def _or(xs: list[str]) -> str:
    """ "a", "a or b", "a, b or c"."""
    return xs[0] if len(xs) == 1 else f"{', '.join(xs[:-1])} or {xs[-1]}"


def _top_fields(family: str | None) -> tuple[str, ...]:
    """The top-level tables the family's spec module reads (its TOP_FIELDS)."""
    if family is None:
        return ()
    module = importlib.import_module(registry.family_path(family, "spec", "").partition(":")[0])
    return tuple(getattr(module, "TOP_FIELDS", ()))


def _check_family(req: CertRequest, raw: Any, i: int, family: str | None, src: str) -> None:
    """The request's kind is one the network's family has (a kind about no network, an
    activation or polynomials, goes with any network or none), and its table sets only the
    fields of that family's kind (registry.KINDS)."""
    free = registry.network_free(req.kind)
    if family is None:
        if free is None:
            raise SpecError(
                src, "network", f"a [network] table (certificate kind {req.kind} needs one)"
            )
        return
    line = registry.lookup(family, req.kind) or free
    if line is None:
        have = [f for f in registry.NETWORK_FAMILIES if registry.lookup(f, req.kind)]
        mine = _or(registry.kinds_of(family))
        raise SpecError(
            src, "network.family",
            f"{_or(have)} (certificate kind {req.kind}; family {family} has {mine})", family,
        )  # fmt: skip
    for k in raw:
        if k not in {"kind", "name", *line.fields}:
            have = [f for f in registry.FAMILIES if k in getattr(
                registry.lookup(f, req.kind), "fields", ())]  # fmt: skip
            raise SpecError(
                src, "network.family",
                f"{_or(have)} (a certificate of kind {req.kind} with the field {k})", family,
            )  # fmt: skip


def _network(
    data: dict[str, Any], src: str
) -> tuple[str, Any, int | None, tuple[Fraction, ...], int]:
    """The family, network, seed, point theta and range of the [network] (and [parameters])
    tables, parsed by the family's spec module."""
    net = required(data, "network", src, "", "a [network] table")
    if not isinstance(net, dict):
        raise SpecError(src, "network", "a [network] table", net)
    families = list(NETWORK_FAMILIES)
    family = required(net, "family", src, "network.", f"one of {families}")
    if family not in NETWORK_FAMILIES:
        raise SpecError(src, "network.family", f"one of {families}", family)
    parse = registry.resolve(registry.family_path(family, "spec", "parse_network"))
    network, seed, theta, prange = parse(data, net, src)
    return family, network, seed, theta, prange


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
