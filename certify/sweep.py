"""Sweeps: one spec that expands into a family of named instances.

A spec may hold a ``[sweep]`` table next to its ``[network]`` table (or several
``[[sweep]]`` tables: the instances are the union of their products, in order). Each key of
a sweep is a field of the network table (``widths``, ``activation``, ``bias`` for an MLP;
``width``, ``depth``, ``activation`` for a ResNet; ``widths`` for ReLU; ``widths``,
``activation`` for tanh) or of the parameters table (``seed``, ``range``), and its value is
a non-empty list of values of that field. The instances are the Cartesian product of the
lists, in the canonical key order ``SWEEP_ORDER`` (then the other keys alphabetically), the
first key varying slowest; each instance is the spec with those values substituted,
certified exactly as a spec without a sweep. Its name is deterministic: the spec's name,
then one part per swept key (``SWEEP_ORDER`` order), e.g. ``atlas-w3x2x1-t2-nobias-s0`` for
widths = [3, 2, 1], activation = "t^2", bias = false, seed = 0.

Bad sweeps are SpecErrors naming the field: ``sweep``, ``sweep.<key>``, or
``sweep.<key>[i]`` (the i-th value, with what its network field expects)."""

from __future__ import annotations

import copy
import itertools
import re
from typing import Any

from certify.checker.ir import NAME_RE
from certify.errors import SpecError

# Swept keys that are fields of [parameters]; every other swept key is a [network] field.
PARAMETER_KEYS = ("seed", "range")
SWEEP_ORDER = ("widths", "width", "depth", "inputs", "hidden", "outputs", "activation")
SWEEP_ORDER += ("bias", "outer", "seed", "range")
_ABBREV = {"width": "w", "depth": "d", "seed": "s", "range": "r", "widths": "w"}
MAX_SWEEP_VALUES = 10_000  # values of one swept key
MAX_SWEEP_INSTANCES = 10_000  # instances of one sweep
MAX_NAME = 64


def _slug_text(s: str) -> str:
    """An activation text as name characters: t^3 + 2*t^2 - 1 -> t3p2t2m1."""
    out = s.replace("^", "").replace("*", "").replace("+", "p").replace("-", "m")
    out = out.replace("/", "d").replace(".", "_")
    return re.sub(r"[^A-Za-z0-9_]", "", out)


def name_part(key: str, value: Any) -> str:
    """The part of an instance name contributed by one swept value."""
    if isinstance(value, bool):
        return key if value else f"no{key}"
    if isinstance(value, int):
        return f"{_ABBREV.get(key, key)}{value}"
    if isinstance(value, str):
        return _slug_text(value)
    if isinstance(value, list) and all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        return _ABBREV.get(key, key) + "x".join(str(v) for v in value)
    if isinstance(value, list):
        return "_".join(name_part(key, v) for v in value)
    return _slug_text(str(value))


def ordered_keys(sweep: dict[str, Any]) -> list[str]:
    known = [k for k in SWEEP_ORDER if k in sweep]
    return known + sorted(k for k in sweep if k not in SWEEP_ORDER)


def has_sweep(data: Any) -> bool:
    return isinstance(data, dict) and "sweep" in data


def expand(data: dict[str, Any], src: str) -> list[tuple[dict[str, Any], str, dict[str, int]]]:
    """The instances of a spec with a sweep: (instance spec data, the sweep table's field
    name, index of each swept value) triples, in product order. ``[sweep]`` is one table;
    ``[[sweep]]`` (an array of tables) is the union of their products, in order. The instance
    data has no sweep, its own name, and the swept values in its [network] / [parameters]."""
    sweep = data["sweep"]
    if isinstance(sweep, list) and sweep and all(isinstance(t, dict) for t in sweep):
        tables = [(f"sweep[{j}]", t) for j, t in enumerate(sweep)]
    elif isinstance(sweep, dict):
        tables = [("sweep", sweep)]
    else:
        tables = []
    if not tables or any(not t for _, t in tables):
        raise SpecError(
            src, "sweep", "a [sweep] table (or [[sweep]] tables) of lists, e.g. widths = "
            "[[2, 2, 1]]", sweep,
        )  # fmt: skip
    net = data.get("network")
    if not isinstance(net, dict):
        raise SpecError(src, "network", "a [network] table (a sweep varies its fields)")
    params = data.get("parameters", {})
    if isinstance(params, dict) and "weights" in params:
        raise SpecError(
            src, "parameters.weights", "a seed, not explicit weights, in a spec with a [sweep]"
        )
    name = data.get("name")
    if not isinstance(name, str) or not NAME_RE.match(name):
        raise SpecError(src, "name", "a name of letters, digits, '_', '-', '.' (max 64)", name)
    total = 0
    for where, table in tables:
        n = 1
        for k in ordered_keys(table):
            vals = table[k]
            if not isinstance(vals, list) or not vals:
                raise SpecError(src, f"{where}.{k}", "a non-empty list of values", vals)
            if len(vals) > MAX_SWEEP_VALUES:
                raise SpecError(
                    src, f"{where}.{k}", f"at most {MAX_SWEEP_VALUES} values", len(vals)
                )
            if k in PARAMETER_KEYS and not isinstance(params, dict):
                raise SpecError(src, "parameters", "a [parameters] table", params)
            if k not in PARAMETER_KEYS and k in net:
                raise SpecError(
                    src, f"{where}.{k}", f"a key not also set in [network] (network.{k} is set)"
                )
            if k in PARAMETER_KEYS and isinstance(params, dict) and k in params:
                raise SpecError(
                    src, f"{where}.{k}",
                    f"a key not also set in [parameters] (parameters.{k} is set)",
                )  # fmt: skip
            n *= len(vals)
        total += n
    if total > MAX_SWEEP_INSTANCES:
        raise SpecError(src, "sweep", f"at most {MAX_SWEEP_INSTANCES} instances", total)
    out: list[tuple[dict[str, Any], str, dict[str, int]]] = []
    seen: dict[str, dict[str, Any]] = {}
    for where, table in tables:
        keys = ordered_keys(table)
        for combo in itertools.product(*(range(len(table[k])) for k in keys)):
            values = {k: table[k][i] for k, i in zip(keys, combo)}
            inst_name = "-".join([name] + [name_part(k, v) for k, v in values.items()])
            if not NAME_RE.match(inst_name):
                raise SpecError(
                    src, where, f"instance names of at most {MAX_NAME} name characters (a "
                    "shorter spec name or fewer swept keys)", inst_name,
                )  # fmt: skip
            if inst_name in seen:
                raise SpecError(
                    src, where, "values that give distinct instance names",
                    f"{seen[inst_name]} and {values} both give {inst_name}",
                )  # fmt: skip
            seen[inst_name] = values
            inst = {k: copy.deepcopy(v) for k, v in data.items() if k != "sweep"}
            inst["name"] = inst_name
            inst["network"] = dict(net)
            inst["parameters"] = dict(params) if isinstance(params, dict) else params
            for k, v in values.items():
                (inst["parameters"] if k in PARAMETER_KEYS else inst["network"])[k] = v
            certs = inst.get("certificate")
            if isinstance(certs, list):
                for c in certs:
                    if isinstance(c, dict) and isinstance(c.get("name"), str):
                        c["name"] = f"{inst_name}-{c['name']}"
            out.append((inst, where, dict(zip(keys, combo))))
    return out


def relabel(err: SpecError, where: str, index: dict[str, int]) -> SpecError:
    """A SpecError of an instance, renamed to the swept value it came from: network.widths[1]
    of an instance becomes sweep.widths[i][1] (i: the index of the value in the sweep;
    `where` is "sweep", or "sweep[j]" for the j-th of [[sweep]] tables)."""
    for k, i in index.items():
        for prefix in (f"network.{k}", f"parameters.{k}"):
            f = err.field
            if f == prefix or f.startswith(prefix + "[") or f.startswith(prefix + "."):
                return SpecError(
                    err.file, f"{where}.{k}[{i}]{f[len(prefix) :]}", err.expected, err.got
                )
    return err
